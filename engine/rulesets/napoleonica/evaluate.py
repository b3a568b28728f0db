"""How good a Napoleonica position is for one side, for the strong computer's lookahead.

The game is decided by 22.10: an army breaks when half its combat units are gone or fleeing,
otherwise points after the last turn. The evaluation follows that, and adds what a unit's place
promises before the dice fall (every weight DESIGNED, measured in benchmarks/ai_strength.md):

* strength: each combat unit's stands left, by how able it is to fight (formed, disordered,
  fleeing and likely to rally);
* break margin: extra weight on the last units before the army breaks;
* points: the 22.10 points the side would score now (enemy units gone, generals, guns, objectives);
* exposure: enemy units that could charge one of this side's units in its flank or rear, and
  its own units that could do that to the enemy;
* placement: the basic player's own view of each unit where it stands (distance to the enemy,
  front toward it, formation for the range, objectives), so a quiet move is worth something.

Everything is measured through stands (``board.stand_hexes``), so a unit drawn over several hexes
counts the same way. The score is this side's view less the enemy's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from . import attack as A
from . import board as B
from . import data as D
from . import turn
from .geometry import zone_touches

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.state import State, Unit

UNIT = 100                     # a whole combat unit, formed and at full strength
GUARD = Fraction(3, 2)         # a guard unit is worth more (it scores 3 points, not 2)
#: how much of a unit's worth each state keeps
STATE_SHARE = {"formed": Fraction(1), "disordered": Fraction(3, 4), "fleeing": Fraction(1, 5),
               "restored": Fraction(3, 4), "reserve": Fraction(1)}
#: extra loss when only this many more units gone or fleeing break the army (0: it breaks at
#: the end of this turn unless a unit rallies first)
BREAK_NEAR = {0: 600, 1: 150, 2: 50}
POINT = 40                     # each 22.10 point the side would score now
FLANK = 30                     # an enemy unit could charge one of ours in the flank
REAR = 50                      # ... or in the rear
#: per point of the basic player's own view of each unit's place, this side's units minus the enemy's
PLACEMENT = Fraction(1, 4)


def evaluate(game: "Position", side: str) -> int:
    state = game.state
    enemy = state.enemy_of(side)
    view = B.View(state)
    score = strength(state, side) - strength(state, enemy)
    score -= break_risk(state, side) - break_risk(state, enemy)
    score += POINT * (turn.points(game.scenario, state, side) - turn.points(game.scenario, state, enemy))
    score += exposure(game, view, enemy) - exposure(game, view, side)
    score += PLACEMENT * (placement(game, view, side) - placement(game, view, enemy))
    return int(score)


def _combat(state: "State", side: str) -> list["Unit"]:
    return [u for u in state.side_units(side, alive=False) if B.is_combat(u)]


def strength(state: "State", side: str) -> Fraction:
    """What is left of the side's combat units, weighted by state."""
    total = Fraction(0)
    for u in _combat(state, side):
        share = STATE_SHARE.get(B.state_of(u), Fraction(0))
        if share:
            worth = UNIT * (GUARD if B.guard(u) else 1)
            total += worth * share * Fraction(u.strength, max(1, u.max_strength))
    return total


def break_risk(state: "State", side: str) -> int:
    """The extra weight of the last units before the army breaks (22.10)."""
    units = _combat(state, side)
    start = int(state.sides[side].get("start_combat", len(units)))
    gone = sum(1 for u in units if B.state_of(u) in ("destroyed", "captured", "fleeing"))
    # the army breaks when 100 * gone >= BREAK_PCT * start
    breaking = -(-D.BREAK_PCT * start // 100)
    return BREAK_NEAR.get(max(0, breaking - gone), 0)


def exposure(game: "Position", view: B.View, side: str) -> int:
    """How badly ``side``'s units are placed against enemy charges: for every enemy unit able to
    charge that has one of them in its front zone within charge reach, what a flank or rear
    attack on it would be."""
    state, hmap = game.state, game.map
    total = 0
    mine = [u for u in state.side_units(side) if B.on_table(u) and not B.is_general(u)
            and B.facing(u) is not None]
    if not mine:
        return 0
    for e in view.enemy_stands(side):
        if B.arm(e) not in ("inf", "cav") or B.state_of(e) != "formed" or B.formation(e) == "square":
            continue
        reach = A.reach(hmap, e) + 1
        for u in mine:
            if B.gap(e, u) > reach or B.infantry_like(e) and B.mounted(u):
                continue
            if not zone_touches(B.stand_hexes(e), e.facing, "front", B.stand_hexes(u)):
                continue
            kind = A.kind_of_attack(e, u)
            total += REAR if kind == "rear" else FLANK if kind == "flank" else 0
    return total


def placement(game: "Position", view: B.View, side: str) -> int:
    """The basic player's value of each of ``side``'s combat units where it stands."""
    from .ai import _value
    objectives = [game.map.labels[n] for n in game.scenario.victory.get("objectives", [])
                  if n in game.map.labels]
    total = 0
    for u in game.state.side_units(side):
        if B.on_table(u) and B.is_combat(u):
            total += _value(view, u, u.hex, u.facing, B.formation(u), objectives)
    return total
