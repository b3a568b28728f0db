"""How Napoleonica counters are drawn: one letter and a type name per unit kind.

Designed values (the source prints no counter art), distinct within this ruleset. Formed units
face a hex vertex (``geometry.py``), so counters show that facing: the arrow points at the
vertex, between two hexside directions.
"""

#: The counter shows the unit's facing, which here names a hex vertex.
FACING = "vertex"
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "INF_LINE": ("I", "line infantry", ""),
    "INF_LIGHT": ("L", "light infantry", ""),
    "INF_HEAVY": ("R", "grenadiers (heavy infantry)", ""),
    "INF_GUARD": ("G", "guard infantry", ""),
    "CAV_LIGHT": ("H", "light cavalry", ""),
    "CAV_CHASSEUR": ("C", "mounted chasseurs", ""),
    "CAV_DRAGOON": ("D", "dragoons", ""),
    "CAV_HEAVY": ("K", "heavy cavalry", ""),
    "ART_LIGHT": ("A", "light (horse) artillery", ""),
    "ART_MEDIUM": ("M", "medium artillery", ""),
    "ART_HOWITZER": ("W", "howitzers", ""),
    "ART_HEAVY": ("P", "heavy (position) artillery", ""),
    "ENG": ("E", "engineers", ""),
    "TRAIN": ("T", "train", ""),
    "GEN": ("B", "general", "leader"),
    "CINC": ("X", "commander-in-chief", "leader"),
}

#: The one character under a counter: its formation, or that it is disordered or dismounted.
#: Designed (21.10 suggests reverse video for disorder; a character also survives --ascii and
#: monochrome themes). Distinct from each other; the unit card spells them out.
MARK_NAMES: dict[str, str] = {
    "l": "line", "c": "column", "s": "square", "t": "limbered battery", "u": "unlimbered battery",
    "g": "gunners out", "d": "dismounted (on foot)", "~": "disordered",
}
_FORMATION_MARK = {"line": "l", "column": "c", "square": "s", "limbered": "t", "unlimbered": "u",
                   "gunners": "g"}


def counter_mark(u) -> str:  # noqa: ANN001 - a state.Unit
    """The unit's formation or state in one character ("" for units without a formation)."""
    from .board import formation, state_of
    if state_of(u) == "disordered":
        return "~"
    if u.marks.get("dismounted"):
        return "d"
    return _FORMATION_MARK.get(formation(u), "")


def shows_facing(u) -> bool:  # noqa: ANN001 - a state.Unit
    """Only a unit with a front has an arrow: squares, disordered units and garrisons face all
    round (21.4), and generals ignore facing (22.6)."""
    from .board import facing, is_general
    return not is_general(u) and facing(u) is not None
