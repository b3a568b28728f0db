"""Frontier unit types (spec 3.2) and the questions rules ask about a unit's type.

A unit's printed Strength is its kill number in combat, not hit points: a Frontier unit either
survives or is destroyed. ``Unit.max_strength`` keeps the printed Strength; ``Unit.strength`` is
that value while the unit lives and 0 once it is destroyed (its ``hex`` is then None).
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.state import Unit

INFANTRY = "infantry"
CAVALRY = "cavalry"
MACHINE_GUN = "machine-gun"
ARTILLERY = "artillery"
COMMANDER = "commander"

#: kind -> printed stats. ``move`` in cells, ``range`` 0 = adjacent only, ``climb`` = hill levels
#: per move (3.7.1; Commander 2 and fortress artillery 0 by G-F11), ``fixed`` = never changes cell.
UNIT_TYPES: dict[str, dict[str, Any]] = {
    "EI": {"name": "European Infantry", "class": INFANTRY, "move": 2, "strength": 5, "range": 0, "climb": 2},
    "NI": {"name": "Native Infantry", "class": INFANTRY, "move": 2, "strength": 4, "range": 0, "climb": 2},
    "EC": {"name": "European Cavalry", "class": CAVALRY, "move": 2, "strength": 5, "range": 0, "climb": 1},
    "NC": {"name": "Native Cavalry", "class": CAVALRY, "move": 2, "strength": 4, "range": 0, "climb": 1},
    "MG": {"name": "Machine Guns", "class": MACHINE_GUN, "move": 2, "strength": 6, "range": 0, "climb": 1},
    "MA": {"name": "Mountain Artillery", "class": ARTILLERY, "move": 2, "strength": 1, "range": 4, "climb": 1},
    "FA": {"name": "Field Artillery", "class": ARTILLERY, "move": 1, "strength": 1, "range": 6, "climb": 1},
    "SA": {"name": "Fortress / Siege Artillery", "class": ARTILLERY, "move": 0, "strength": 1, "range": 10,
           "climb": 0, "fixed": True},
    "CO": {"name": "Commander", "class": COMMANDER, "move": 3, "strength": 6, "range": 0, "climb": 2},
}


def unit_class(u: Unit) -> str:
    return str(u.stat("class", INFANTRY))


def is_artillery(u: Unit) -> bool:
    return unit_class(u) == ARTILLERY or int(u.stat("range", 0)) > 0


def is_cavalry(u: Unit) -> bool:
    return unit_class(u) == CAVALRY


def is_commander(u: Unit) -> bool:
    return unit_class(u) == COMMANDER


def may_advance(u: Unit) -> bool:
    """3.2 note / 3.6.7: only Infantry and Cavalry advance into a destroyed enemy's cell."""
    return unit_class(u) in (INFANTRY, CAVALRY)


def may_attack(u: Unit) -> bool:
    """G-F16: artillery never starts a melee."""
    return not is_artillery(u)


def is_fixed(u: Unit) -> bool:
    """Fortress artillery (and any unit with move 0) never changes cell (G-F11)."""
    return bool(u.stat("fixed", False)) or int(u.stat("move", 0)) <= 0


def allowance(u: Unit) -> int:
    """Movement allowance in half-cells (3.5 [PROP]): 2 x Move."""
    return 2 * int(u.stat("move", 0))


def climb_limit(u: Unit) -> int:
    return int(u.stat("climb", 2 if unit_class(u) in (INFANTRY, COMMANDER) else 1))


def combat_strength(u: Unit) -> int:
    """The printed Strength (never reduced by losses: there are none in Frontier)."""
    return int(u.max_strength)
