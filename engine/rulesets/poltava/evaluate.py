"""How good a Poltava position is for one side, for the strong computer's lookahead.

An army routs when all its divisions but one have routed (R10.2), and a division routs when its
box holds its rout number of eliminated counters. So the evaluation is mostly the race between
the two armies toward that point: for each side, how far its divisions closest to routing have
come, weighted so that a division one counter short counts for more than two half-full ones. A
counter already flipped to its reduced side is half of the way to the box (one more hit puts it
there), so it counts as half an eliminated counter: without that, a flip would be worth no more
than any other lost strength point, and fire would not go where a rout is nearest.
Strength left (combat strength of the counters still standing) breaks ties. The weights are
designed, not taken from the rules.
"""

from __future__ import annotations

from fractions import Fraction

from .board import arm, cs_of, other, reduced
from .data import RUSSIA
from .resolve import roos_stands

#: designed weights: the rout race dominates, strength left is a tie-break
ROUT_WEIGHT = 1000
STRENGTH_WEIGHT = 150


def rout_progress(game, side: str) -> Fraction:
    """0 (no division of ``side`` has lost anything) .. 1 (its army has routed)."""
    scn, st = game.scenario, game.state
    divs = list(scn.victory.get(f"{side}_divisions", []))
    if not divs:
        return Fraction(0)
    need = len(divs) - 1 + (1 if side == "sweden" and roos_stands(st) else 0)
    need = max(1, min(need, len(divs)))
    routed = set(st.vars["routed"])
    flipped: dict[str, int] = {}
    for u in st.units.values():
        if u.side == side and u.strength > 0 and reduced(u):
            flipped[u.division] = flipped.get(u.division, 0) + 1
    progress = []
    for d in divs:
        spec = next((x for x in scn.divisions if x.id == d), None)
        if d in routed:
            progress.append(Fraction(1))
        elif spec is None or not spec.rout_threshold:
            progress.append(Fraction(0))
        else:
            lost = Fraction(st.vars["box"].get(d, 0)) + Fraction(flipped.get(d, 0), 2)
            p = min(lost / spec.rout_threshold, Fraction(1))
            progress.append(p * (1 + p) / 2)  # convex: the last counter before a rout weighs most
    progress.sort(reverse=True)
    return sum(progress[:need], Fraction(0)) / need


def strength_left(game, side: str) -> Fraction:
    have = total = 0
    for u in game.state.units.values():
        if u.side != side or arm(u) in ("leader", "redoubt"):
            continue
        full = int(u.stats.get("cs") or 0) or cs_of(u)
        total += full
        if u.strength > 0:  # on the map or still to enter (eliminated counters have none)
            have += cs_of(u)
    return Fraction(have, total) if total else Fraction(0)


#: designed: Russia wins both scenarios when time runs out unrouted (R10.1, S1/S2 victory), so
#: its own rout counts this many times its enemy's: it need not win the race, only not lose it
STANDER = RUSSIA
STANDER_WEIGHT = 2


def evaluate(game, side: str) -> int:
    enemy = other(side)
    own = STANDER_WEIGHT if side == STANDER else 1
    rout = rout_progress(game, enemy) - own * rout_progress(game, side)
    strength = strength_left(game, side) - strength_left(game, enemy)
    return int(ROUT_WEIGHT * rout + STRENGTH_WEIGHT * strength)
