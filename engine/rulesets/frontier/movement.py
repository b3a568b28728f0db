"""Frontier movement (3.5, 3.7): half-point allowance, roads, rivers, hills, front zones.

Costs are in half-cells: allowance = 2 x Move; a normal cell costs 2, a road step 1, a river cell
(or a river hexside, G-F13) 4 unless crossed on the road. Leaving the road with an odd remainder
loses the half point (3.7.2). Climb is the sum of upward level changes (G-F27). A unit that has
spent nothing may always move one cell (G-F12). Entering an enemy's front zone stops the move
(3.5.4-5); flank and rear cells may be crossed (3.5.3, G-F26). One unit per cell; friends may be
passed through, enemies not. A unit that starts facing an adjacent enemy may only break contact
(3.5.7, G-F20): no cell it enters may be in any enemy's front zone or next to another enemy.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_neighbor, hex_neighbors
from hexwar.engine.hexmap import HexMap
from hexwar.engine.movement import Route, search_moves
from hexwar.engine.state import State, Unit

from . import units as U
from .geometry import ahead, front_zone

NORMAL, ROAD, RIVER = 2, 1, 4


class View:
    """Who stands where, and which cells are in the front zone of / next to an enemy of ``side``."""

    def __init__(self, state: State, side: str) -> None:
        self.side = side
        self.occ: dict[Hex, Unit] = {}
        self.front: dict[Hex, list[str]] = {}
        self.adjacent: dict[Hex, list[str]] = {}
        for uid in sorted(state.units):
            u = state.units[uid]
            if not u.alive:
                continue
            self.occ[u.hex] = u
            if u.side != side:
                for h in front_zone(u.hex, u.facing):
                    self.front.setdefault(h, []).append(uid)
                for h in hex_neighbors(u.hex):
                    self.adjacent.setdefault(h, []).append(uid)


def is_village(hmap: HexMap, h: tuple[int, int]) -> bool:
    return hmap.terrain_at(h) == "village"


def road_cell(hmap: HexMap, h: tuple[int, int]) -> bool:
    """3.7.2: a road cell, or a village (which counts as road)."""
    return hmap.on_road(h) or is_village(hmap, h)


def road_step(hmap: HexMap, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """G-F14: moving along the road (the road joins the two cells), or between road/village cells
    when at least one of them is a village."""
    if hmap.road_between(a, b):
        return True
    return road_cell(hmap, a) and road_cell(hmap, b) and (is_village(hmap, a) or is_village(hmap, b))


def river_step(hmap: HexMap, a: tuple[int, int], b: tuple[int, int]) -> bool:
    return hmap.terrain_at(b) == "river" or "river" in hmap.features_between(a, b)


def step_cost(hmap: HexMap, a: tuple[int, int], b: tuple[int, int], spent: int) -> int:
    """Half-points spent after stepping a -> b (3.5 [PROP] algorithm)."""
    if road_step(hmap, a, b):
        return spent + ROAD
    spent += spent & 1  # leaving the road: the leftover half point is lost
    return spent + (RIVER if river_step(hmap, a, b) else NORMAL)


def in_contact_with(state: State, u: Unit) -> Unit | None:
    """The enemy directly ahead of ``u``, if any (1.6.3: ``u`` faces it)."""
    h = ahead(u)
    if h is None:
        return None
    for o in state.units.values():
        if o.alive and o.hex == h and o.side != u.side:
            return o
    return None


def make_step(hmap: HexMap, view: View, unit: Unit, breaking: str | None):
    allowance = U.allowance(unit)
    limit = U.climb_limit(unit)

    def step(here: Hex, there: Hex, spent: int, climb: Any):
        other = view.occ.get(there)
        if other is not None and other.side != unit.side:
            return None
        up = max(0, hmap.elevation_at(there) - hmap.elevation_at(here))
        new_climb = climb + up
        if new_climb > limit:
            return None
        new = step_cost(hmap, here, there, spent)
        stop = False
        if new > allowance:
            if spent != 0:
                return None
            new, stop = allowance, True  # G-F12 minimum move
        fronts = view.front.get(there, ())
        if breaking is not None:
            if fronts:
                return None
            if any(e != breaking for e in view.adjacent.get(there, ())):
                return None
        elif fronts:
            stop = True
        return new, new_climb, stop

    return step


def breaking_from(state: State, unit: Unit) -> str | None:
    enemy = in_contact_with(state, unit)
    return None if enemy is None else enemy.id


def reachable(hmap: HexMap, state: State, unit: Unit, view: View | None = None) -> dict[Hex, Route]:
    if not unit.alive or U.is_fixed(unit):
        return {}
    view = view or View(state, unit.side)
    step = make_step(hmap, view, unit, breaking_from(state, unit))

    def neighbors(h: Hex):
        return [n for _, n in hmap.neighbors(h)]

    def can_end(h: Hex) -> bool:
        return h not in view.occ

    return search_moves(unit.hex, neighbors, step, U.allowance(unit), can_end, aux=0)


def check_path(hmap: HexMap, state: State, unit: Unit, path: list[Hex], view: View | None = None) -> str | None:
    """None if ``path`` (cells entered, in order) is a legal move for ``unit``, else why not."""
    view = view or View(state, unit.side)
    step = make_step(hmap, view, unit, breaking_from(state, unit))
    here, spent, climb = unit.hex, 0, 0
    for i, there in enumerate(path):
        if there not in hmap:
            return f"{there} is off the map"
        if hex_direction_to(here, there) is None:
            return f"{hmap.label(there)} is not next to {hmap.label(here)}"
        out = step(here, there, spent, climb)
        if out is None:
            other = view.occ.get(there)
            if other is not None and other.side != unit.side:
                return f"{hmap.label(there)} holds an enemy unit"
            if U.climb_limit(unit) < climb + max(0, hmap.elevation_at(there) - hmap.elevation_at(here)):
                return f"{unit.id} may climb only {U.climb_limit(unit)} hill level(s) in a move"
            if breaking_from(state, unit) is not None and (view.front.get(there) or view.adjacent.get(there)):
                return (f"{unit.id} is breaking contact and may not enter {hmap.label(there)} "
                        "(front of an enemy or next to another enemy)")
            return f"{unit.id} has not enough movement to enter {hmap.label(there)}"
        spent, climb, stop = out
        if stop and i != len(path) - 1:
            return f"{unit.id} must stop at {hmap.label(there)}"
        here = there
    if here in view.occ:
        return f"{hmap.label(here)} is occupied (one unit per cell)"
    return None


def facing_choices(state: State, view: View, unit: Unit, dest: Hex, breaking: str | None) -> list[int] | None:
    """Legal final facings at ``dest``: a list, or None when the mover must choose between several
    enemies whose front zone holds ``dest`` (a pending ``face`` decision, 3.5.6)."""
    fronts = sorted(set(view.front.get(dest, ())))
    if fronts:
        if len(fronts) == 1:
            return [hex_direction_to(dest, state.units[fronts[0]].hex)]
        return None
    dirs = list(range(6))
    if breaking is not None:
        # 3.5.7: it may not end facing an enemy
        dirs = [d for d in dirs if not (
            (o := view.occ.get(hex_neighbor(dest, d))) is not None and o.side != unit.side)]
    return dirs


def front_options(state: State, view: View, dest: Hex) -> list[int]:
    """Directions from ``dest`` to each enemy whose front zone holds it."""
    enemies = sorted(set(view.front.get(dest, ())))
    return sorted(hex_direction_to(dest, state.units[e].hex) for e in enemies)
