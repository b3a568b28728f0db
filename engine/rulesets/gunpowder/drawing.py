"""How Age of Gunpowder counters are drawn: a letter per unit type and one character for the
formation the unit stands in.

Designed values (the rules print no counter art): letters distinct within this ruleset, and a
formation character under the counter, because 5.1 moves a unit by its formation and 5.6 lets
only some formations shoot: a player must read it off the map. Squares face all round, so they
show no facing arrow.
"""

#: The counter shows the unit's facing (a hexside).
FACING = True
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "line-infantry": ("I", "line infantry", ""),
    "skirmishers": ("S", "skirmishers", ""),
    "cavalry": ("C", "cavalry", ""),
    "guns": ("G", "guns", ""),
    "howitzers": ("W", "howitzers", ""),
    "horse-artillery": ("H", "horse artillery", ""),
    "commander": ("K", "commander", "leader"),
}

#: The one character under a counter: its formation (5.1, 5.6). Distinct; the card spells it out.
MARK_NAMES: dict[str, str] = {
    "c": "column", "l": "line", "s": "square", "o": "open order", "t": "limbered",
    "d": "manhandled (dragged)", "f": "firing", "m": "mounted", "a": "on foot",
}
_MARK = {"column": "c", "line": "l", "square": "s", "open": "o", "limbered": "t",
         "manhandled": "d", "firing": "f", "mounted": "m", "foot": "a"}


def counter_mark(u) -> str:  # noqa: ANN001 - a state.Unit
    """The unit's formation in one character."""
    return _MARK.get(str(u.stats.get("formation", "")), "")


def shows_facing(u) -> bool:  # noqa: ANN001 - a state.Unit
    """A square has no flank or rear (5.6), so it shows no arrow."""
    return not u.stats.get("all_round")
