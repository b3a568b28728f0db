"""Candidate orders with integer scores for the computer player.

One unit is considered at a time (the unit acting now, else the next one by distance to the
enemy, front line first), so a choice costs one movement search. Ending the unit's activation
(score 1) and ending the phase (score 0) are always offered, so the computer never gets stuck.
"""

from __future__ import annotations

from typing import Any, Iterator

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor
from hexwar.engine.orders import Order
from hexwar.engine.state import Unit

from . import board, melee, movement, shooting
from .geometry import in_field_of_fire
from .units import is_commander, is_elephant, is_engine


def _pct(fr: Any) -> int:
    return int(fr * 60)


def _enemies(st: Any, side: str) -> list[Unit]:
    return [u for u in board.alive_units(st) if u.side != side]


def _nearest(h: Hex, enemies: list[Unit]) -> tuple[int, Unit | None]:
    best: tuple[int, Unit | None] = (99, None)
    for e in enemies:
        d = hex_distance(h, e.hex)  # type: ignore[arg-type]
        if d < best[0]:
            best = (d, e)
    return best


def candidates(rs: Any, game: Any) -> Iterator[tuple[int, Order]]:
    st = game.state
    if st.result is not None:
        return
    if st.pending:
        p = st.pending[0]
        unit = st.units[p["unit"]]
        if p["kind"] == "choose-hit":
            for c in p["options"]:
                if c == "lose":
                    score = 5 if not is_elephant(unit.stats) or unit.strength <= 1 else 12
                else:
                    score = 10
                yield score, Order.make("choose-hit", unit=unit.id, choice=c)
        else:
            for f in melee.advance_facings(game, unit, Hex(*p["hex"])):
                yield 8, Order.make("advance", unit=unit.id, yes=True, facing=f)
            yield 5, Order.make("advance", unit=unit.id, yes=False)
        return
    yield 0, Order.make("end-phase")
    if st.phase == "engines":
        for u in st.side_units(st.active):
            if shooting.mode_of(game, u) == "engine" and shooting.unit_blocker(game, u, "engine") is None:
                for t in shooting.targets(game, u, "engine"):
                    o = Order.make("engine-fire", unit=u.id, target=list(t))
                    tgt = board.main_unit_at(st, t)
                    yield 30 + _pct(shooting.odds(game, u, t, "engine")["hit"]) + (5 if tgt and tgt.strength == 1 else 0), o
        return
    if st.phase != "activation":
        return
    unit = _next_unit(rs, game)
    if unit is None:
        return
    yield 1, Order.make("end-activation", unit=unit.id)
    yield from _unit_candidates(rs, game, unit)


def _next_unit(rs: Any, game: Any) -> Unit | None:
    st = game.state
    cur = st.vars.get("current")
    if cur is not None:
        u = st.units[cur]
        if rs._activation_blocker(game, u) is None:
            return u
    enemies = _enemies(st, st.active)
    ready = [u for u in st.side_units(st.active) if rs._activation_blocker(game, u) is None]
    if not ready:
        return None
    ready.sort(key=lambda u: (is_commander(u.stats), _nearest(u.hex, enemies)[0], u.id))
    return ready[0]


def _unit_candidates(rs: Any, game: Any, u: Unit) -> Iterator[tuple[int, Order]]:
    st = game.state
    enemies = _enemies(st, u.side)
    mode = shooting.mode_of(game, u)
    # shooting (and pila)
    if mode not in (None, "engine") and shooting.unit_blocker(game, u, mode) is None:
        for t in shooting.targets(game, u, mode):  # type: ignore[arg-type]
            tgt = board.main_unit_at(st, t)
            score = 40 + _pct(shooting.odds(game, u, t, mode)["hit"])  # type: ignore[arg-type]
            if tgt is not None and tgt.strength == 1:
                score += 8
            yield score, Order.make("shoot", unit=u.id, target=list(t))
    # melee
    if melee.unit_blocker(game, u) is None:
        t = melee.target_of(game, u)
        if t is not None:
            od = melee.odds(game, u, t)
            score = 35 + _pct(od["hit"]) - _pct(od["defender_hit"])
            tgt = board.main_unit_at(st, t)
            if tgt is not None and (tgt.strength == 1 or is_commander(tgt.stats)):
                score += 10
            yield score, Order.make("melee", unit=u.id, target=list(t))
    if movement.move_blocker(game, u) is not None:
        return
    start_d, foe = _nearest(u.hex, enemies)  # type: ignore[arg-type]
    if foe is None:
        return
    shooter = mode in ("shoot",) and not u.marks.get("shot")
    heavy = bool(u.stat("heavy"))
    # pivot to face an adjacent enemy (then attack), or bring a target into the field of fire
    if not u.marks.get("melee") and not is_elephant(u.stats):
        adj = board.enemy_hexes_adjacent(st, u.hex, u.side)  # type: ignore[arg-type]
        ahead = hex_neighbor(u.hex, u.facing)  # type: ignore[arg-type]
        if adj and ahead not in adj and not is_commander(u.stats) and not is_engine(u.stats):
            for d in range(6):
                if hex_neighbor(u.hex, d) in adj:  # type: ignore[arg-type]
                    yield 20, Order.make("pivot", unit=u.id, facing=d)
                    break
    # dash when far away
    if (u.stat("dash") and not u.marks.get("dashed") and not u.marks.get("shot")
            and start_d >= 6 and not st.sides[u.side]["exhausted"]):
        yield 7, Order.make("dash", unit=u.id)
    if u.marks.get("melee"):
        return  # infantry may break contact after melee; the computer holds its ground
    routes = movement.routes(game, u)
    scored: list[tuple[int, Order]] = []
    friends = [x.hex for x in st.side_units(u.side) if x.id != u.id]
    for dest, route in routes.items():
        d, near = _nearest(dest, enemies)
        if is_commander(u.stats):
            body = board.body_at(st, dest)
            if body is None or body.side != u.side:
                continue
            score = 4 + (6 - min(d, 6)) + (2 if body.stat("heavy") else 0)
            if board.body_at(st, u.hex) is not None and d >= start_d:  # type: ignore[arg-type]
                continue
        elif is_engine(u.stats):
            if shooting.targets(game, u, "engine"):
                continue
            score = 2 + (start_d - d)
        elif shooter:
            rng = int(u.stat("range", 0))
            want = max(2, rng)
            score = 6 - 2 * abs(d - want) + (start_d - d if start_d > want else 0)
            if d <= 1:
                score -= 8
            if route.cost > movement.allowance(game, u, shooting=True):
                score -= 3  # moving this far forfeits the shot
        else:
            score = 5 + 3 * (start_d - d)
            if d == 1:
                score += 6 if heavy else -4
        score += min(2, sum(1 for f in friends if f is not None and hex_distance(f, dest) == 1))
        if score <= 1:
            continue
        facings = movement.end_facings(game, u, route)
        f = _best_facing(dest, facings, near)
        scored.append((score, Order.make("move", unit=u.id, path=[list(h) for h in route.path], facing=f)))
    scored.sort(key=lambda so: -so[0])
    yield from scored[:4]


def _best_facing(dest: Hex, facings: list[int], near: Unit | None) -> int:
    if near is None or len(facings) == 1:
        return facings[0]
    best = None
    for f in facings:
        key = (0 if in_field_of_fire(dest, f, near.hex) or hex_neighbor(dest, f) == near.hex else 1,  # type: ignore[arg-type]
               hex_distance(hex_neighbor(dest, f), near.hex), f)  # type: ignore[arg-type]
        if best is None or key < best[0]:
            best = (key, f)
    return best[1]  # type: ignore[index]


#: Per-seat strong play (designed; measured on seeds 1-40 and 41-80, NOTES.md stop 10), by
#: scenario id and side. ``host``: where a commander goes, "rearmost" (the friendly unit farthest
#: from the enemy) or "strongest" (the one with the most SP, then the rearmost). ``fords``: when
#: true, no move ends in a river cell. ``retreats``: when true, the evaluation weighs a lined-up
#: melee's hits by the SP they are expected to cost (evaluate.sp_per_hit). A seat not named here
#: plays "rearmost", enters fords and counts every hit as 1 SP.
STRONG_SEATS: dict[str, dict[str, dict[str, Any]]] = {
    "elephant-crossing": {"carthage": {"host": "strongest", "fords": True},
                          "rome": {"fords": True}},
    "border-clash": {"red": {"retreats": True}, "blue": {"retreats": True}},
}


def seat_options(game: Any, side: str) -> dict[str, Any]:
    """The strong options of ``side``'s seat in this scenario (``STRONG_SEATS``)."""
    return STRONG_SEATS.get(game.scenario.id, {}).get(side, {})


def strong_candidates(rs: Any, game: Any) -> Iterator[tuple[int, Order]]:
    """The strong level's candidates: basic's, except for a commander (``_safe_commander``),
    and without moves into a ford where the seat holds the fords (``_off_fords``).
    Measured on both Ancients scenarios, seeds 1-40 and 41-80 (NOTES.md, stops 9 and 10)."""
    st = game.state
    if st.result is None and not st.pending and st.phase == "activation":
        unit = _next_unit(rs, game)
        if unit is not None and is_commander(unit.stats):
            yield from _safe_commander(rs, game, unit)
            return
    if st.result is None and seat_options(game, st.active).get("fords"):
        yield from _off_fords(game, candidates(rs, game))
        return
    yield from candidates(rs, game)


def _off_fords(game: Any, scored: Iterator[tuple[int, Order]]) -> Iterator[tuple[int, Order]]:
    """Leaves out moves that end in a river cell. A unit in a ford fights at -1 when attacked
    and may not shoot (4.12), and must stop there (4.8); where a river lies between the armies
    the strong side lets the enemy come into the fords instead."""
    for score, order in scored:
        if order.kind == "move" and game.map.terrain_at(Hex(*order["path"][-1])) == "river":
            continue
        yield score, order


def _safe_commander(rs: Any, game: Any, u: Unit) -> Iterator[tuple[int, Order]]:
    """A commander is worth 6 SP towards his army's exhaustion point (G-A5), is lost when hit
    alone or with his unit (4.11), and goes where a retreating elephant takes him (4.13): the
    strong level keeps him with a friendly non-elephant unit he can reach, and offers nothing
    else. Which unit: the farthest from the enemy, or (seat option ``host`` "strongest") the
    one with the most SP, which takes the most hits before it is destroyed, then the farthest."""
    st = game.state
    enemies = _enemies(st, u.side)
    strongest = seat_options(game, u.side).get("host") == "strongest"

    def host(h: Hex) -> bool:
        body = board.body_at(st, h)
        return (body is not None and body.side == u.side and not is_elephant(body.stats)
                and not body.marks.get("rampage"))

    def key(h: Hex) -> tuple[int, int]:
        body = board.body_at(st, h)
        return (int(body.strength) if strongest and body is not None else 0, _nearest(h, enemies)[0])

    best: tuple[tuple[int, int], Order] | None = None
    if host(u.hex):  # type: ignore[arg-type]
        best = (key(u.hex), Order.make("end-activation", unit=u.id))  # type: ignore[arg-type]
    if movement.move_blocker(game, u) is None:
        for dest, route in sorted(movement.routes(game, u).items()):
            if not host(dest):
                continue
            k = key(dest)
            if best is None or k > best[0]:
                facings = movement.end_facings(game, u, route)
                best = (k, Order.make("move", unit=u.id, path=[list(h) for h in route.path], facing=facings[0]))
    if best is None:
        yield from candidates(rs, game)
    else:
        yield 10, best[1]
