"""How good an Ancient Battles position is for one side, for the strong computer's lookahead.

The battle is decided by exhaustion (4.6, 4.15): a side that has lost its exhaustion points may
no longer attack, the side exhausted later wins, and otherwise the smaller fraction of strength
lost. So the score is the race toward each side's exhaustion point, plus a designed bonus for
the enemy being exhausted and this side not. The weights are designed, not from the rules.
"""

from __future__ import annotations

from fractions import Fraction

RACE_WEIGHT = 1000
EXHAUSTED_WEIGHT = 300


def _toward_exhaustion(game, side: str) -> Fraction:
    s = game.state.sides[side]
    return min(Fraction(int(s["lost"]), max(1, int(s["ep"]))), Fraction(2))


def evaluate(game, side: str) -> int:
    enemy = game.state.enemy_of(side)
    score = RACE_WEIGHT * (_toward_exhaustion(game, enemy) - _toward_exhaustion(game, side))
    score += EXHAUSTED_WEIGHT * (int(bool(game.state.sides[enemy]["exhausted"]))
                                 - int(bool(game.state.sides[side]["exhausted"])))
    return int(score)
