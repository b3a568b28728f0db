"""How good an Ancient Battles position is for one side, for the strong computer's lookahead.

The battle is decided by exhaustion (4.6, 4.15): a side that has lost its exhaustion points may
no longer attack, the side exhausted later wins, and otherwise the smaller fraction of strength
lost. So the score is the race toward each side's exhaustion point, plus a designed bonus for
the enemy being exhausted and this side not. The weights are designed, not from the rules.
"""

from __future__ import annotations

from fractions import Fraction

from .units import HIT_TABLE, is_commander, is_elephant, is_engine

RACE_WEIGHT = 1000
EXHAUSTED_WEIGHT = 300
#: the melee each side's units are lined up for, as a fraction of what the hits would be worth
POSITION_WEIGHT = Fraction(1, 2)


def _lost(game, side: str) -> int:
    """SP ``side`` has lost, counting a rampaging elephant's as lost already: it can only leave
    the map, and then its SP count as lost (4.13, G-A21); until then a search would see an
    elephant's retreat as free."""
    lost = int(game.state.sides[side]["lost"])
    for u in game.state.units.values():
        if u.side == side and u.alive and u.marks.get("rampage"):
            lost += int(u.strength)
    return lost


def _toward_exhaustion(game, side: str) -> Fraction:
    s = game.state.sides[side]
    return min(Fraction(_lost(game, side), max(1, int(s["ep"]))), Fraction(2))


def evaluate(game, side: str) -> int:
    enemy = game.state.enemy_of(side)
    score = RACE_WEIGHT * (_toward_exhaustion(game, enemy) - _toward_exhaustion(game, side))
    score += EXHAUSTED_WEIGHT * (int(bool(game.state.sides[enemy]["exhausted"]))
                                 - int(bool(game.state.sides[side]["exhausted"])))
    from .ai import seat_options
    retreats = bool(seat_options(game, side).get("retreats"))
    score += POSITION_WEIGHT * (lined_up(game, side, retreats) - lined_up(game, enemy, retreats))
    return int(score)


def sp_per_hit(game, unit) -> Fraction:
    """The SP a hit is expected to cost ``unit`` (4.11): all of it when it cannot retreat (map
    edge, any unit or forbidden terrain behind it), else only the table's "lose 1 SP" results,
    the owner taking the retreat on the others. An elephant's retreat is a rampage and a
    commander alone is lost, so a hit costs them in full (4.13, G-A38)."""
    from . import hits
    if unit is None or is_commander(unit.stats) or is_elephant(unit.stats):
        return Fraction(1)
    if not hits.retreat_options(game, unit):
        return Fraction(1)
    return Fraction(HIT_TABLE.get(unit.grade, 3), 6)


def lined_up(game, side: str, retreats: bool = False) -> Fraction:
    """The melee ``side``'s units face now (an enemy directly ahead, 4.10): the chance of a hit
    on the enemy minus the chance of one back, each worth its share of the loser's exhaustion
    points. Lookahead then sees what a quiet move or pivot sets up, and what it exposes a unit to
    (the enemy's term grows when it gains someone's flank)."""
    from . import board, melee
    st = game.state
    if st.sides[side]["exhausted"]:
        return Fraction(0)
    enemy = st.enemy_of(side)
    hit_mine = Fraction(RACE_WEIGHT, max(1, int(st.sides[side]["ep"])))
    hit_theirs = Fraction(RACE_WEIGHT, max(1, int(st.sides[enemy]["ep"])))
    total = Fraction(0)
    for u in board.alive_units(st):
        if u.side != side or is_engine(u.stats) or is_commander(u.stats):
            continue
        target = melee.target_of(game, u)
        if target is None:
            continue
        odds = melee.odds(game, u, target)
        if retreats:  # seat option: a hit is worth the SP it is expected to cost (sp_per_hit)
            dfn = board.main_unit_at(st, target)
            total += (odds["hit"] * hit_theirs * sp_per_hit(game, dfn)
                      - odds["defender_hit"] * hit_mine * sp_per_hit(game, u))
            continue
        total += odds["hit"] * hit_theirs - odds["defender_hit"] * hit_mine
    return total
