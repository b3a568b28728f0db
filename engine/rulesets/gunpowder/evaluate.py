"""How good an Age of Gunpowder position is for one side, for the strong computer's lookahead:
Ancients' evaluation (the race to each exhaustion point, the exhausted flag, the lined-up
melees: ancients/evaluate.py) plus the volleys each side is lined up for. Muskets and guns do
most of the killing here (5.6: line infantry, skirmishers and batteries shoot; only cavalry and
columns close), so a move that brings a line into range, or a battery's front onto a target,
should show before the dice roll. The weight is designed (measured: NOTES.md)."""

from __future__ import annotations

from fractions import Fraction

from ..ancients import board, shooting
from ..ancients import evaluate as ancients_evaluate
from ..ancients.evaluate import RACE_WEIGHT

#: the volleys each side's units are lined up for, as a fraction of what the hits are worth
FIRE_WEIGHT = Fraction(1, 2)


def evaluate(game, side: str) -> int:
    enemy = game.state.enemy_of(side)
    score = ancients_evaluate.evaluate(game, side)
    return int(score + FIRE_WEIGHT * (lined_up_fire(game, side) - lined_up_fire(game, enemy)))


def lined_up_fire(game, side: str) -> Fraction:
    """Each unit of ``side`` that may shoot in its formation: its best chance of a hit on an
    enemy in range, in its field of fire and in sight now (as 4.9), worth that hit's share of
    the enemy's exhaustion point. Whether the unit has shot or moved this turn is left out: the
    term is the threat a position holds, so a shot taken does not look like a threat lost (with
    those marks counted, the strong level won 16 of 40 at the River Crossing; NOTES.md)."""
    st = game.state
    hit_theirs = Fraction(RACE_WEIGHT, max(1, int(st.sides[st.enemy_of(side)]["ep"])))
    total = Fraction(0)
    for u in board.alive_units(st):
        if u.side != side or not u.stats.get("range"):
            continue
        mode = shooting.mode_of(game, u)
        if mode is None:
            continue
        best = Fraction(0)
        for t in shooting.targets(game, u, mode):
            best = max(best, shooting.odds(game, u, t, mode)["hit"])
        total += best * hit_theirs
    return total
