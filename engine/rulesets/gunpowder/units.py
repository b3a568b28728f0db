"""Age of Gunpowder unit types (5.1), classes (5.2), formations (5.6) and scenario flags.

Rule 5.1 prints a unit's movement *by formation*, so a unit's stats are those of its kind plus
those of the formation it stands in: ``formed`` builds them, and a formation change replaces the
unit's stats with a new dict (never editing a shared one, so state copies stay independent).
The stats are the ones the Ancient Battles code reads (``move``, ``range``, ``type``, ``forest``)
plus the formation's melee rows (``charge``, ``melee_mod``, ``all_round``, ``anti_cavalry``) and
the howitzer's ``indirect`` fire; every value marked **designed** is §5.6's completion or ours.
"""

from __future__ import annotations

from typing import Any

from ..ancients.units import RULE_DEFAULTS as ANCIENTS_RULE_DEFAULTS

#: 5.6 (designed): cavalry +1 when attacking, artillery -1 in any melee, whatever the formation
_CAVALRY = {"charge": 1, "charge_why": "cavalry attacking (5.6, designed)"}
_GUNNERS = {"melee_mod": -1, "melee_mod_why": "artillery in melee (5.6, designed)"}

#: 5.1 and 5.6: kind -> formation -> what the formation gives. ``move`` is 5.1's table [SRC];
#: ``shoots`` (5.6 who may shoot), ``forest`` (5.6 forest) and the melee rows are designed (5.6).
FORMATIONS: dict[str, dict[str, dict[str, Any]]] = {
    "line-infantry": {
        "column": {"move": 2, "shoots": False, "forest": True,
                   "charge": 1, "charge_why": "infantry in column attacking (5.6, designed)"},
        "line": {"move": 1, "shoots": True, "forest": False},
        "square": {"move": 0, "shoots": True, "forest": False, "all_round": True,
                   "anti_cavalry": 2, "anti_cavalry_why": "cavalry attacking a square (5.6, designed)"},
    },
    "skirmishers": {
        "column": {"move": 2, "shoots": False, "forest": True,
                   "charge": 1, "charge_why": "infantry in column attacking (5.6, designed)"},
        "line": {"move": 1, "shoots": True, "forest": True},
        "open": {"move": 3, "shoots": True, "forest": True,
                 "melee_mod": -1, "melee_mod_why": "skirmishers in open order (5.6, designed)"},
    },
    "cavalry": {
        "column": {"move": 4, "shoots": False, "forest": False, **_CAVALRY},
        "line": {"move": 3, "shoots": False, "forest": False, **_CAVALRY},
    },
    "artillery": {
        "limbered": {"move": 2, "shoots": False, "forest": False, **_GUNNERS},
        "manhandled": {"move": 1, "shoots": False, "forest": False, **_GUNNERS},
        "firing": {"move": 0, "shoots": True, "forest": False, **_GUNNERS},
    },
    "commander": {
        "foot": {"move": 2, "shoots": False, "forest": False},
        "mounted": {"move": 4, "shoots": False, "forest": False},
    },
}

#: stats a formation sets; ``formed`` clears them before applying the new formation's
FORMATION_KEYS = ("move", "range", "forest", "formation", "charge", "charge_why", "melee_mod",
                  "melee_mod_why", "all_round", "anti_cavalry", "anti_cavalry_why")

#: 5.1 [SRC]: infantry may form square only after 1790
SQUARE_FROM = 1790


def _t(name: str, sp: int, reach: int, family: str, arm: str, formation: str,
       **extra: Any) -> dict[str, Any]:
    base = {"name": name, "strength": sp, "reach": reach, "family": family, "type": arm,
            "heavy": False, "light": False, "dash": False, "special": "", **extra}
    return formed(base, formation)


def formed(stats: dict[str, Any], formation: str) -> dict[str, Any]:
    """``stats`` as they are in ``formation``: a new dict, the old one untouched."""
    out = {k: v for k, v in stats.items() if k not in FORMATION_KEYS}
    spec = FORMATIONS[str(stats["family"])][formation]
    out["formation"] = formation
    out["move"] = spec["move"]
    out["range"] = int(stats.get("reach", 0)) if spec["shoots"] else 0
    out["forest"] = spec["forest"]
    for k, v in spec.items():
        if k not in ("move", "shoots", "forest"):
            out[k] = v
    return out


UNIT_TYPES: dict[str, dict[str, Any]] = {
    # 5.1 [SRC]: SP, move by formation, attack range; "type" is the Ancients arm the shared code
    # reads (artillery is the "engine" arm: it fires in the Artillery Phase, as 4.7.1, designed)
    "line-infantry": _t("Line Infantry", 4, 3, "line-infantry", "infantry", "line"),
    "skirmishers": _t("Skirmishers", 3, 4, "skirmishers", "infantry", "open"),
    "cavalry": _t("Cavalry", 3, 0, "cavalry", "cavalry", "column"),
    "guns": _t("Guns", 2, 6, "artillery", "engine", "limbered"),
    "howitzers": _t("Howitzers", 2, 5, "artillery", "engine", "limbered",
                    indirect=-1, indirect_why="howitzer firing without line of sight (5.6, designed)"),
    "horse-artillery": _t("Horse Artillery", 2, 4, "artillery", "engine", "limbered"),
    "commander": _t("Commander", 6, 0, "commander", "commander", "mounted"),
}

GRADES = ("excellent", "average", "poor")  # 5.2 [SRC]

TERRAIN_TYPES = {
    "clear": "open ground",
    "hill": "hill (level from the map elevation): no movement cost; -1 to attack up it (as 4.12)",
    "forest": "skirmishers, and line infantry in column only (5.6); stops movement; cover; blocks sight",
    "river": "fordable river: entering stops; start in it = move 1; no shooting; -1 defending (as 4.12)",
    "deep-river": "impassable water (as G-A28)",
    "village": "infantry and commanders only; stops movement; cover; blocks sight (as G-A29)",
    "fortification": "infantry and commanders only; stops movement; fortified; blocks sight (as G-A29)",
}

#: scenario [rules] flags: Ancients' that apply here, and the battle's year (G-P4)
RULE_DEFAULTS: dict[str, Any] = {
    k: v for k, v in ANCIENTS_RULE_DEFAULTS.items() if k not in ("elephant_hit_table", "pila",
                                                                 "elephants_frighten")}
RULE_DEFAULTS["year"] = 1805  # designed default: a Napoleonic battle, squares allowed


def family(stats: dict[str, Any]) -> str:
    return str(stats.get("family", ""))


def formations_of(stats: dict[str, Any]) -> tuple[str, ...]:
    return tuple(FORMATIONS.get(family(stats), {}))


def year(scenario: Any) -> int:
    return int(scenario.rules.get("year", RULE_DEFAULTS["year"]))


def shoots_in(stats: dict[str, Any]) -> tuple[str, ...]:
    return tuple(f for f, spec in FORMATIONS.get(family(stats), {}).items() if spec["shoots"])
