"""How good an Ancient Battles position is for one side, for the strong computer's lookahead.

The battle is decided by exhaustion (4.6, 4.15): a side that has lost its exhaustion points may
no longer attack, the side exhausted later wins, and otherwise the smaller fraction of strength
lost. So the score is the race toward each side's exhaustion point, plus a designed bonus for
the enemy being exhausted and this side not. The weights are designed, not from the rules.
"""

from __future__ import annotations

from fractions import Fraction

from .units import is_commander, is_engine

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
    score += POSITION_WEIGHT * (lined_up(game, side) - lined_up(game, enemy))
    return int(score)


def lined_up(game, side: str) -> Fraction:
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
        total += odds["hit"] * hit_theirs - odds["defender_hit"] * hit_mine
    return total
