"""Hex geometry of the rules: levels, front/flank/rear (1.6.3), field of fire (1.6.4), line of
sight and cover (1.6.5). Pure functions of the map and a few occupied hexes."""

from __future__ import annotations

from typing import Callable

from hexwar.engine.hexgrid import DIRECTIONS, Hex, hex_direction_to, hex_distance, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.sight import sight_lines

from .units import SIGHT_BLOCKING


def level(hmap: HexMap, h: tuple[int, int]) -> int:
    """Hill level (4.12): the map elevation; a "hill" cell drawn without one is level 1."""
    lv = hmap.elevation_at(h)
    if lv == 0 and hmap.terrain_at(h) == "hill":
        return 1
    return lv


def ahead(h: tuple[int, int], facing: int) -> Hex:
    return hex_neighbor(h, facing)


def rear(h: tuple[int, int], facing: int) -> Hex:
    return hex_neighbor(h, (facing + 3) % 6)


def relation(defender_hex: tuple[int, int], defender_facing: int,
             other: tuple[int, int]) -> str | None:
    """Where an adjacent ``other`` stands for the defender: "front" (d-1, d, d+1), "flank"
    (d+-2) or "rear" (d+3); None if not adjacent (1.6.3)."""
    d = hex_direction_to(defender_hex, other)
    if d is None:
        return None
    off = (d - defender_facing) % 6
    if off in (0, 1, 5):
        return "front"
    if off in (2, 4):
        return "flank"
    return "rear"


def _solve(v: tuple[int, int], e1: Hex, e2: Hex) -> tuple[int, int]:
    det = e1[0] * e2[1] - e2[0] * e1[1]
    a = (v[0] * e2[1] - e2[0] * v[1]) // det
    b = (e1[0] * v[1] - v[0] * e1[1]) // det
    return a, b


def _sector_ok(a: int, b: int) -> bool:
    """a >= 1 and (3 - sqrt3) b <= 2 sqrt3 a - sqrt3 + 1, in exact integers (1.6.4)."""
    if a < 1 or b < 0:
        return False
    left = 3 * b - 1
    right = 2 * a - 1 + b
    return left <= 0 or left * left <= 3 * right * right


def in_field_of_fire(src: tuple[int, int], facing: int, dst: tuple[int, int]) -> bool:
    v = (dst[0] - src[0], dst[1] - src[1])
    if v == (0, 0):
        return False
    ed = DIRECTIONS[facing % 6]
    for side in (1, -1):
        a, b = _solve(v, ed, DIRECTIONS[(facing + side) % 6])
        if a >= 0 and b >= 0 and _sector_ok(a, b):
            return True
    return False


def sight(hmap: HexMap, occupied: Callable[[Hex], bool], a: tuple[int, int],
          b: tuple[int, int]) -> tuple[bool, bool]:
    """(line of sight, target behind forest) between hex centres a and b (1.6.5, G-A27).

    An intermediate hex blocks when it holds sight-blocking terrain or any unit, unless both ends
    stand higher than it, or when it is a hill higher than both ends. LOS exists if either nudged
    line is clear; the target is "behind" forest when exactly one line is blocked and that line
    holds a blocking forest hex.
    """
    la, lb = level(hmap, a), level(hmap, b)

    def blocks(h: Hex) -> bool:
        lh = level(hmap, h)
        if lh > la and lh > lb:
            return True
        if la > lh and lb > lh:
            return False
        return hmap.terrain_at(h) in SIGHT_BLOCKING or occupied(h)

    def forest_blocks(h: Hex) -> bool:
        lh = level(hmap, h)
        return hmap.terrain_at(h) == "forest" and not (la > lh and lb > lh)

    p, m = sight_lines(a, b)
    clear_p = not any(blocks(h) for h in p)
    clear_m = not any(blocks(h) for h in m)
    seen = clear_p or clear_m
    behind = False
    if clear_p != clear_m:
        blocked = m if clear_p else p
        behind = any(forest_blocks(h) for h in blocked)
    return seen, behind


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return hex_distance(a, b)
