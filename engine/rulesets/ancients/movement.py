"""Movement (4.8): allowance, contact stops, passing friends, elephants, break contact,
terrain, commander stacking, exhaustion (4.6 / G-A7)."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_distance
from hexwar.engine.movement import Route, search_moves
from hexwar.engine.state import State, Unit

from . import board
from .units import STOPPING, is_commander, is_elephant, is_engine, may_enter


def allowance(g: Any, unit: Unit, shooting: bool = False) -> int:
    """Base move, x2 after a successful dash, -1 if the unit shoots this turn, at most 1 when it
    starts in a river (4.8 [PROP] movement allowance)."""
    n = int(unit.stat("move", 0))
    if unit.marks.get("dashed") == 2:
        n *= 2
    if unit.marks.get("shot") or shooting:
        n -= 1
    if g.map.terrain_at(unit.hex) == "river":
        n = min(n, 1)
    return max(n, 0)


def move_blocker(g: Any, unit: Unit) -> str | None:
    """Why ``unit`` may not take its Move step now (None if it may). Activation checks
    (side, already activated) are the caller's."""
    m = unit.marks
    if m.get("move_used"):
        return f"{unit.id} has already moved this turn"
    if is_engine(unit.stats) and m.get("engine_fired"):
        return f"{unit.id} fired in the Missile-Engine Phase and may not move this turn (4.8.3)"
    if m.get("melee") and unit.stat("type") != "infantry":
        return f"{unit.id} is not infantry: it may not move after attacking (4.7)"
    return None


class _Board:
    """Occupancy snapshot for one search."""

    def __init__(self, state: State, side: str) -> None:
        self.bodies: dict[Hex, Unit] = {}
        self.commanders: dict[Hex, Unit] = {}
        self.enemy_occ: set[Hex] = set()
        self.enemy_adj: set[Hex] = set()
        self.enemy_hexes: list[Hex] = []
        for u in board.alive_units(state):
            h = Hex(*u.hex)  # type: ignore[misc]
            if is_commander(u.stats):
                self.commanders[h] = u
            else:
                self.bodies[h] = u
            if u.side != side:
                self.enemy_occ.add(h)
                if h not in self.enemy_hexes:
                    self.enemy_hexes.append(h)
        for h in self.enemy_hexes:
            for d in range(6):
                self.enemy_adj.add(Hex(h[0] + (1, 1, 0, -1, -1, 0)[d], h[1] + (0, -1, -1, 0, 1, 1)[d]))

    def nearest_enemy(self, h: Hex) -> int | None:
        if not self.enemy_hexes:
            return None
        return min(hex_distance(h, e) for e in self.enemy_hexes)


def routes(g: Any, unit: Unit, limit: int | None = None) -> dict[Hex, Route]:
    """Every hex where ``unit`` may end its Move step now, with the route there."""
    state: State = g.state
    hmap = g.map
    start = Hex(*unit.hex)  # type: ignore[misc]
    bd = _Board(state, unit.side)
    elephant = is_elephant(unit.stats)
    commander = is_commander(unit.stats)
    # 4.8.11 / G-A37: from contact (or after a melee) only away, never next to any enemy
    breaking = start in bd.enemy_adj or bool(unit.marks.get("melee"))
    exhausted = bool(state.sides[unit.side].get("exhausted"))
    start_dist = bd.nearest_enemy(start)
    allow = allowance(g, unit) if limit is None else limit

    def neighbors(h: Hex):
        return [n for _, n in hmap.neighbors(h)]

    def step(a: Hex, b: Hex, spent: int, aux: Any):
        if elephant:
            d = hex_direction_to(a, b)
            if aux is not None and d != aux:
                return None  # 4.8.7: straight line in the chosen direction
            aux = d
        if b in bd.enemy_occ:
            return None
        terrain = hmap.terrain_at(b)
        if not may_enter(unit.stats, terrain):
            return None
        body = bd.bodies.get(b)
        if body is not None and (elephant or is_elephant(body.stats)):
            return None  # G-A19: nobody passes through an elephant, an elephant through nobody
        if breaking and b in bd.enemy_adj:
            return None
        stop = terrain in STOPPING or b in bd.enemy_adj
        return spent + 1, aux, stop

    def can_end(h: Hex) -> bool:
        if commander:
            if h in bd.commanders:
                return False
            body = bd.bodies.get(h)
            if body is not None and body.side != unit.side:
                return False
        elif h in bd.bodies or h in bd.commanders:
            return False  # 4.8.8, G-A30
        if exhausted and start_dist is not None:
            nd = bd.nearest_enemy(h)
            if nd is not None and nd < start_dist:
                return False  # G-A7: no move towards the enemy
        return True

    return search_moves(start, neighbors, step, allow, can_end, None)


def end_facings(g: Any, unit: Unit, route: Route | None) -> list[int]:
    """Facings the unit may take at the end of a move along ``route`` (None: pivot in place)."""
    if route is None:
        return [d for d in range(6) if d != unit.facing]
    dest = route.end
    if is_elephant(unit.stats):
        prev = route.path[-2] if len(route.path) > 1 else Hex(*unit.hex)  # type: ignore[misc]
        return [hex_direction_to(prev, dest)]  # type: ignore[list-item]
    if is_commander(unit.stats):
        return list(range(6))
    adj = board.enemy_hexes_adjacent(g.state, dest, unit.side)
    if adj:
        # 4.8.9: stop and turn to face that enemy; the mover picks one if several
        return sorted({hex_direction_to(dest, h) for h in adj})  # type: ignore[type-var]
    return list(range(6))


def do_move(ctx: Any, unit: Unit, route: Route | None, facing: int) -> None:
    shoot_allow = allowance(ctx, unit, shooting=True)
    cells = 0 if route is None else len(route.path)
    if route is not None:
        unit.hex = route.end
    unit.facing = facing
    unit.mark("move_used", 1)
    unit.mark("cells", cells)
    if cells:
        unit.mark("moved", 1)  # G-A31: pivoting in place is not moving
    unit.mark("shoot_ok", 1 if cells <= shoot_allow else 0)
    unit.mark("shoot_checked", 1)
    ctx.emit("moved" if route is not None else "pivoted", unit=unit.id,
             path=[board.hexlist(h) for h in (route.path if route else ())], facing=facing)
