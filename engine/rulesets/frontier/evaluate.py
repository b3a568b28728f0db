"""How good a Frontier position is for one side, for the strong computer's lookahead.

Without an objective the game is the losses race of 3.9 (fraction of starting units lost); with
one (3.10) the side that must take the labelled cell also wants its units close to it and in it,
and the other side wants the opposite. Each side also sees what costs it the objective in melee
(stop 10): the holder its open approaches and the takers next to the cell, the taker the attack
its unit in the cell is committed to. The weights are designed, not from the rules.
"""

from __future__ import annotations

from fractions import Fraction

from hexwar.engine.hexgrid import hex_distance, hex_neighbor

from . import melee
from . import units as U

LOSS_WEIGHT = 1000
#: per hex between the objective and the taker's closest unit
DISTANCE_WEIGHT = 40
HOLD_WEIGHT = 300
#: per point of the basic player's own view of each unit's place (contact, exposure, objective),
#: this side's units minus the enemy's, as a fraction
POSITION_WEIGHT = Fraction(1, 2)
#: designed: per open approach to the objective (``ai.approaches``), in the holder's view only
APPROACH_WEIGHT = 200
#: designed: per taker's unit next to (or in) the objective, times the chance it survives the
#: attack the holder's units facing it are committed to (3.6.1, G-F6); 1 when none faces it
THREAT_WEIGHT = 100


def _lost(game, side: str) -> Fraction:
    s = game.state.sides[side]
    return Fraction(int(s["lost"]), max(1, int(s["start_units"])))


def evaluate(game, side: str) -> int:
    st, scn = game.state, game.scenario
    enemy = st.enemy_of(side)
    score = LOSS_WEIGHT * (_lost(game, enemy) - _lost(game, side))
    objective = scn.victory.get("objective")
    if objective:
        taker = scn.victory["side"]
        cell = scn.map.labels[objective]
        near = [hex_distance(u.hex, cell) for u in st.side_units(taker)]
        holder = next((u for u in st.units.values() if u.alive and u.hex == cell), None)
        towards = -DISTANCE_WEIGHT * min(near, default=20)
        if holder is not None:
            towards += HOLD_WEIGHT if holder.side == taker else -HOLD_WEIGHT
        score += towards if side == taker else -towards
        if side != taker:
            from .ai import approaches
            score -= APPROACH_WEIGHT * len(approaches(game, cell, taker))
            score -= THREAT_WEIGHT * threats(game, cell, taker)
        else:
            score -= occupant_risk(game, cell, taker)
    score += POSITION_WEIGHT * (placement(game, side) - placement(game, enemy))
    return int(score)


def placement(game, side: str) -> int:
    """How well ``side``'s units stand, in the basic player's own terms (``ai.Planner.value``):
    the odds of the attack each unit's facing commits it to, the enemies that can attack it, and
    its distance to the objective. Lookahead then sees a quiet move's worth for both sides."""
    from .ai import Planner
    plan = Planner(game, side)
    return sum(plan.value(u, u.hex, u.facing) for u in game.state.side_units(side))


def threats(game, cell, taker: str) -> Fraction:
    """The taker's units next to the objective (or in it), each weighed by the chance it
    survives the attack that the holder's units facing it must make (G-F6: combat is
    compulsory), at the odds of 3.6.11-13."""
    st = game.state
    out = Fraction(0)
    for e in st.side_units(taker):
        if hex_distance(e.hex, cell) > 1:
            continue
        foes = [u for u in st.units.values() if u.alive and u.side != taker and U.may_attack(u)
                and hex_neighbor(u.hex, u.facing) == e.hex]
        if not foes:
            out += 1
            continue
        s = melee.strengths(game.map, melee.faced_attacker(st, e, foes), e, len(foes))
        out += 1 - Fraction(min(6, s["attacker_strength"]), 6)
    return out


def occupant_risk(game, cell, taker: str) -> Fraction:
    """The part of the taker's hold on the objective it is about to lose: a unit in the
    objective that faces an enemy must attack it (G-F6), and when it is the attacker the enemy
    faces, the enemy's roll destroys it (3.6.13). The hold then counts only by the chance it
    survives. Traced at stop 10: a European in the fort attacked the Native Commander
    (Strength 6, a sure loss for the attacker) 41 times in 80 games."""
    st = game.state
    u = next((x for x in st.side_units(taker) if x.hex == cell), None)
    if u is None or not U.may_attack(u) or melee.attacked(u, st.turn):
        return Fraction(0)
    d = next((x for x in st.units.values() if x.alive and x.side != taker and x.hex == melee.ahead(u)), None)
    if d is None:
        return Fraction(0)
    group = [a for a in st.side_units(taker) if U.may_attack(a) and not melee.attacked(a, st.turn)
             and melee.ahead(a) == d.hex]
    f = melee.faced_attacker(st, d, group)
    if f.id != u.id:
        return Fraction(0)
    s = melee.strengths(game.map, f, d, len(group))
    return HOLD_WEIGHT * Fraction(min(6, s["defender_strength"]), 6)
