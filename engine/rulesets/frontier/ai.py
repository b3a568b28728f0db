"""Candidate orders with integer scores for the computer player.

A small one-ply evaluator: the side that must take an objective heads for it and attacks what is in
its way; the holder keeps near the objective and counter-attacks when the odds are good; without an
objective both sides close in. Combat is scored by expected kills (exact melee odds), artillery by
the chance of destroying enemies minus the risk to friends. ``end-phase`` scores 0, so a move is
made only when it improves the unit's position.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterator

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_distance, hex_neighbor, hex_neighbors
from hexwar.engine.orders import Order
from hexwar.engine.state import Unit

from . import artillery, melee
from . import movement as mv
from . import units as U
from .geometry import closest_direction, in_field_of_fire

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position


def worth(u: Unit) -> int:
    if U.is_commander(u):
        return 150
    if U.is_artillery(u):
        return 70
    return 100


class Planner:
    def __init__(self, game: "Position", side: str) -> None:
        self.game = game
        self.state = game.state
        self.map = game.map
        self.side = side
        self.enemies = [u for u in self.state.units.values() if u.alive and u.side != side]
        self.enemy_at = {u.hex: u for u in self.enemies}
        victory = game.scenario.victory
        self.objective: Hex | None = None
        self.taker = None
        if victory.get("objective"):
            self.objective = game.map.labels[victory["objective"]]
            self.taker = victory["side"]

    def nearest_enemy(self, h: Hex) -> Unit | None:
        best = None
        for e in self.enemies:
            k = (hex_distance(h, e.hex), e.id)
            if best is None or k < best[0]:
                best = (k, e)
        return None if best is None else best[1]

    def contact_value(self, u: Unit, h: Hex, e: Unit) -> int:
        if not U.may_attack(u):
            return -3 * worth(u)
        ghost = Unit(u.id, u.side, u.kind, u.name, h, u.strength, u.max_strength, u.facing, stats=u.stats)
        others = [a for a in self.state.side_units(self.side)
                  if a.id != u.id and U.may_attack(a) and not melee.attacked(a, self.state.turn)
                  and hex_neighbor(a.hex, a.facing) == e.hex]
        s = melee.strengths(self.map, ghost, e, 1 + len(others))
        pa = Fraction(min(6, s["attacker_strength"]), 6)
        pd = Fraction(min(6, s["defender_strength"]), 6)
        bonus = 0
        if self.objective is not None and self.side == self.taker and e.hex == self.objective:
            bonus = 400
        return int((pa * (worth(e) + bonus) - pd * worth(u)))

    def value(self, u: Unit, h: Hex, facing: int) -> int:
        v = 0
        if U.is_artillery(u):
            rng = int(u.stat("range", 0))
            n = sum(1 for e in self.enemies
                    if 2 <= hex_distance(h, e.hex) <= rng and in_field_of_fire(h, facing, e.hex))
            v += 25 * min(n, 3)
            near = min((hex_distance(h, e.hex) for e in self.enemies), default=99)
            if near <= 2:
                v -= 60 * (3 - near)
            if self.objective is not None and self.side == self.taker:
                v -= 4 * hex_distance(h, self.objective)
        elif self.objective is not None:
            dist = hex_distance(h, self.objective)
            if self.side == self.taker:
                v -= 30 * dist
                if h == self.objective:
                    v += 1000
            else:
                v -= 12 * max(0, dist - 2)
                v += 5 * self.map.elevation_at(h)
        else:
            e = self.nearest_enemy(h)
            if e is not None:
                v -= 15 * hex_distance(h, e.hex)
        e = self.enemy_at.get(hex_neighbor(h, facing))
        if e is not None:
            v += self.contact_value(u, h, e)
        # exposure: adjacent enemies that may attack this unit in their turn
        for n in hex_neighbors(h):
            x = self.enemy_at.get(n)
            if x is not None and x is not e and U.may_attack(x):
                v -= int(Fraction(U.combat_strength(x), 6) * worth(u) * Fraction(1, 3))
        if self.map.terrain_at(h) == "river":
            v -= 25
        return v

    def facings(self, u: Unit, h: Hex) -> list[int]:
        out = []
        for n in hex_neighbors(h):
            if n in self.enemy_at:
                out.append(hex_direction_to(h, n))
        e = self.nearest_enemy(h)
        if e is not None and hex_distance(h, e.hex) > 1:
            k = closest_direction((e.hex[0] - h[0], e.hex[1] - h[1]))
            out += [k] if not U.is_artillery(u) else [k, (k + 1) % 6, (k - 1) % 6]
        if self.objective is not None and h != self.objective and self.side == self.taker:
            out.append(closest_direction((self.objective[0] - h[0], self.objective[1] - h[1])))
        if not out:
            out.append(u.facing)
        return sorted(set(out))


def candidates(ruleset, game: "Position") -> Iterator[tuple[int, Order]]:
    state, hmap = game.state, game.map
    if state.result is not None:
        return
    side = ruleset.to_act(game)
    plan = Planner(game, side)
    if state.pending:
        pend = state.pending[0]
        if pend["kind"] == "face":
            u = state.units[pend["unit"]]
            for d in pend["options"]:
                yield plan.value(u, u.hex, d), Order.make("face", unit=u.id, facing=d)
        else:
            cell = Hex(*pend["hex"])
            yield 0, Order.make("advance", unit=None)
            for uid in pend["units"]:
                u = state.units[uid]
                gain = plan.value(u, cell, hex_direction_to(u.hex, cell) or u.facing) - plan.value(u, u.hex, u.facing)
                yield gain + 1, Order.make("advance", unit=uid)
        return
    if state.phase == "artillery":
        for u in artillery.batteries(state, side):
            if not artillery.can_fire(state, u):
                continue
            for t in artillery.fire_targets(hmap, state, u):
                p = artillery.preview(hmap, state, u, t)
                score = int(1000 * p["enemy_destroyed"] - 1500 * p["friendly_destroyed"])
                if score > 40:
                    yield score, Order.make("fire", unit=u.id, target=t)
        yield 0, Order.make("end-phase")
        return
    if state.phase == "move":
        view = mv.View(state, side)
        for u in state.side_units(side):
            if ruleset._move_refusal(state, u) is not None:
                continue
            best: tuple[int, Order] | None = None
            for s, order in _unit_moves(ruleset, game, plan, view, u):
                if best is None or s > best[0]:
                    best = (s, order)
            if best is not None and best[0] > 0:
                yield best
        yield 0, Order.make("end-phase")
        return
    if state.phase == "combat":
        for did, ids in melee.groups(state, side).items():
            d = state.units[did]
            p = melee.preview(hmap, state, [state.units[i] for i in ids], d)
            f = state.units[p["attacker"]]
            score = int(100 * (p["defender_destroyed"] * worth(d) - p["attacker_destroyed"] * worth(f)))
            yield 1000 + score, Order.make("attack", attackers=ids, target=d.hex)
        if ruleset._end_phase_refusal(state) is None:
            yield 0, Order.make("end-phase")


def _unit_moves(ruleset, game: "Position", plan: Planner, view, u: Unit) -> Iterator[tuple[int, Order]]:
    """Every pivot and move of ``u`` with its gain in the planner's terms, pivots first."""
    state, hmap = game.state, game.map
    base = plan.value(u, u.hex, u.facing)
    breaking = mv.breaking_from(state, u)
    if breaking is None:
        for d in plan.facings(u, u.hex):
            if d != u.facing:
                yield plan.value(u, u.hex, d) - base, Order.make("pivot", unit=u.id, facing=d)
    if not U.is_fixed(u):
        for dest, route in sorted(mv.reachable(hmap, state, u, view).items()):
            choices = mv.facing_choices(state, view, u, dest, breaking)
            path = [tuple(h) for h in route.path]
            if choices is None:
                opts = mv.front_options(state, view, dest)
                s = max(plan.value(u, dest, d) for d in opts) - base
                yield s, Order.make("move", unit=u.id, path=path, facing=None)
            else:
                wanted = [d for d in plan.facings(u, dest) if d in choices] or choices[:1]
                s, d = max((plan.value(u, dest, d), -d) for d in wanted)
                yield s - base, Order.make("move", unit=u.id, path=path, facing=-d)


#: designed: an approach to the objective counts while a taker's unit that may attack stands this
#: close to it (measured 2, 3 and 4 at stop 10: 2 won the most as the Natives)
APPROACH_REACH = 2


def approaches(game: "Position", cell: Hex, taker: str) -> list[Hex]:
    """The objective's neighbours from which a taker's unit could soon attack what holds it
    (3.6.1: only from an adjacent cell) and then move in (3.6.7): those the holder does not
    occupy, nearer the taker's closest attacking unit than the objective is, and within
    ``APPROACH_REACH`` of it. Traced on seeds 1-80 at stop 10: the fort fell to an attack from
    its road-side neighbour in nearly every game the strong Natives lost."""
    st = game.state
    takers = [u.hex for u in st.side_units(taker) if U.may_attack(u)]
    if not takers:
        return []
    held = {u.hex for u in st.units.values() if u.alive and u.side != taker}

    def near(h: Hex) -> int:
        return min(hex_distance(h, t) for t in takers)

    limit = near(cell)
    return [n for n in hex_neighbors(cell) if n not in held and near(n) < limit and near(n) <= APPROACH_REACH]


#: designed: the moves per unit the strong level compares (basic plays each unit's best);
#: measured 3, 4 and 5 (NOTES.md "Computer player"): 5 won the most as the Natives
STRONG_MOVES = 5


def strong_candidates(ruleset, game: "Position") -> Iterator[tuple[int, Order]]:
    """The strong level's candidates: basic's, plus in the move phase each unit's next best
    moves (by the planner's gain), so the search can weigh a second-best place for a unit,
    and for the side holding an objective every move into an open approach to it or into the
    objective when it is empty."""
    basic = list(candidates(ruleset, game))
    yield from basic
    state = game.state
    if not basic or state.pending or state.phase != "move":
        return
    # below basic's best, so the search's first candidate stays basic's choice
    top = max(score for score, _ in basic) - 1
    side = ruleset.to_act(game)
    plan = Planner(game, side)
    view = mv.View(state, side)
    # the holder also tries every move that fills an open approach to the objective, or the
    # objective itself once it stands empty (its guns destroyed): the taker must then attack
    # a unit there instead of walking in (3.10)
    gaps: set[tuple[int, int]] = set()
    if plan.objective is not None and side != plan.taker:
        gaps = {tuple(h) for h in approaches(game, plan.objective, str(plan.taker))}
        if not any(u.alive and u.hex == plan.objective for u in state.units.values()):
            gaps.add(tuple(plan.objective))
    for u in state.side_units(side):
        if ruleset._move_refusal(state, u) is not None:
            continue
        moves = sorted(((s, i, o) for i, (s, o) in enumerate(_unit_moves(ruleset, game, plan, view, u))),
                       key=lambda t: (-t[0], t[1]))
        for s, _, order in moves[1:STRONG_MOVES]:
            if s > 0:
                yield min(s, top), order
        if gaps:
            for s, _, order in moves:
                if order.kind == "move" and tuple(order.get("path")[-1]) in gaps:
                    yield top, order
