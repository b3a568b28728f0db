"""Who can see whom (spec 7.3 item 4, 9.7 item 5, 21.6, 21.7) with the [P] height rule of 21.7.

A hex's height is its level, +1 when it holds forest, a settlement or a stand. An in-between hex
blocks when its height is above the lower of the two end levels. For attacks and fire every
stand of a third unit blocks; the stands of the two units at the ends never do (21.7, 22.2). For
the re-form exception only relief and settlements do. A high wall (hexside ``wall``) on the line
blocks both.

Attack and fire sight runs from the middle of the unit's front (21.6: the front edge of a line's
box, the head's front for a column or one stand; each stand's centre for a square or a
disordered unit, all of whose sides are front) to the middle of the front, a flank or the rear
of any stand of the target (7.3 item 4), and is blocked by any blocking hex or high wall the
segment meets, even at an edge or corner (exact integer geometry, ``geometry.segment_meets_hex``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from hexwar.engine.hexgrid import Hex, hex_distance, hex_line_pair, hex_spiral
from hexwar.engine.hexmap import HexMap
from hexwar.engine.state import Unit

from . import board as B
from .geometry import (Point, centre, front_middle, hexside_corners8, segment_meets_hex, segments_meet,
                       sight_clear, stand_points)


def observer_points(u: Unit, stands: tuple[Hex, ...] | None = None) -> list[tuple[Point, Hex]]:
    """Where ``u``'s sight starts (21.6), scaled 8, each with the stand hex nearest to it:
    the middle of the front of ``stands`` (default: the unit's front, ``B.head_stands``)."""
    f = B.facing(u)
    if f is None:
        return [((8 * centre(h)[0], 8 * centre(h)[1]), h) for h in (stands or B.stand_hexes(u))]
    stands = stands or B.head_stands(u)
    p = front_middle(stands, f)

    def dist2(h: Hex) -> int:
        x, y = centre(h)
        return (8 * x - p[0]) ** 2 + 3 * (8 * y - p[1]) ** 2
    return [(p, min(stands, key=lambda h: (dist2(h), h)))]


@lru_cache(maxsize=65536)
def _near_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Every hex a segment between points near ``a``'s and ``b``'s centres can touch."""
    out: set[Hex] = set()
    for line in hex_line_pair(a, b):
        for h in line:
            out.update(hex_spiral(h, 2))
    return tuple(sorted(out))


def _walls(hmap: HexMap) -> list[tuple[Hex, int]]:
    return [(Hex(*side[0]), side[1]) for side, feats in sorted(hmap.hexside_features.items())
            if "wall" in feats]


def segment_clear(hmap: HexMap, p: Point, q: Point, a: Hex, b: Hex, skip: frozenset,
                  blocks: Callable[[Hex], bool], walls: bool = True) -> bool:
    """Whether segment p-q (scaled 8; p near hex ``a``, q in hex ``b``) misses every hex that
    ``blocks`` (other than those in ``skip``) and, with ``walls``, every high wall."""
    for h in _near_line(a, b):
        if h in skip or h not in hmap or not blocks(h):
            continue
        if segment_meets_hex(p, q, h):
            return False
    if walls:
        for h, d in _walls(hmap):
            if min(hex_distance(h, a), hex_distance(h, b)) > hex_distance(a, b) + 2:
                continue
            if segments_meet(p, q, *hexside_corners8(h, d)):
                return False
    return True


def _sees(hmap: HexMap, u: Unit, t: Unit, blocks_for: Callable[[int], Callable[[Hex], bool]],
          starts: list[tuple[Point, Hex]], walls: bool = True) -> bool:
    """Whether any start point sees any reference point of any of ``t``'s stands."""
    skip = frozenset(B.stand_hexes(u)) | frozenset(B.stand_hexes(t))
    tf = B.facing(t)
    for p, a in starts:
        for b in B.stand_hexes(t):
            blocks = blocks_for(min(hmap.elevation_at(a), hmap.elevation_at(b)))
            for q in stand_points(b, tf):
                if segment_clear(hmap, p, q, a, b, skip, blocks, walls):
                    return True
    return False


def _height_blocks(hmap: HexMap, view: B.View, floor: int) -> Callable[[Hex], bool]:
    def blocks(h: Hex) -> bool:
        height = hmap.elevation_at(h)
        if hmap.terrain_at(h) in ("forest", "village", "rampart") or h in view.stands:
            height += 1
        return height > floor
    return blocks


def unit_sees(hmap: HexMap, view: B.View, u: Unit, t: Unit, stands: tuple[Hex, ...] | None = None) -> bool:
    """Attack and fire sight (7.3 item 4, 21.6, 21.7, 22.2) from the middle of ``u``'s front
    (or of ``stands``' front, for one stand of a firing line) to ``t``."""
    return _sees(hmap, u, t, lambda floor: _height_blocks(hmap, view, floor), observer_points(u, stands))


def howitzer_sees(hmap: HexMap, view: B.View, u: Unit, t: Unit, reading: str = "over") -> bool:
    """A howitzer fires over anything no more than one level above its own (3.3, G-46,
    ``reading = "over"``); the other reading of G-46 (``"target-level"``) lets it fire without
    sight only at a target exactly one level above or below it."""
    if reading == "target-level":
        if any(abs(hmap.elevation_at(u.hex) - hmap.elevation_at(x)) == 1 for x in B.stand_hexes(t)):
            return True
        return unit_sees(hmap, view, u, t)
    top = hmap.elevation_at(u.hex) + 1

    def blocks(h: Hex) -> bool:
        height = hmap.elevation_at(h)
        if hmap.terrain_at(h) in ("forest", "village") or h in view.stands:
            height += 1
        return height > top
    return _sees(hmap, u, t, lambda _floor: blocks, observer_points(u), walls=False)


def attack_sight(hmap: HexMap, view: B.View, a: Hex, b: Hex) -> bool:
    """Hex centre to hex centre, every stand blocking (kept for callers that ask about two hexes)."""
    floor = min(hmap.elevation_at(a), hmap.elevation_at(b))
    blocks = _height_blocks(hmap, view, floor)
    return sight_clear(a, b, blocks, lambda x, y: "wall" in hmap.features_between(x, y))


def howitzer_sight(hmap: HexMap, view: B.View, a: Hex, b: Hex, reading: str = "over") -> bool:
    """Hex centre to hex centre, for a howitzer in ``a`` (G-46; see ``howitzer_sees``)."""
    if reading == "target-level":
        if abs(hmap.elevation_at(a) - hmap.elevation_at(b)) == 1:
            return True
        return attack_sight(hmap, view, a, b)
    top = hmap.elevation_at(a) + 1

    def blocks(h: Hex) -> bool:
        height = hmap.elevation_at(h)
        if hmap.terrain_at(h) in ("forest", "village") or h in view.stands:
            height += 1
        return height > top

    return sight_clear(a, b, blocks)


def reform_sight(hmap: HexMap, a: Hex, b: Hex) -> bool:
    floor = min(hmap.elevation_at(a), hmap.elevation_at(b))
    return sight_clear(a, b, lambda h: hmap.elevation_at(h) + (hmap.terrain_at(h) in ("village", "rampart"))
                       > floor,
                       lambda x, y: "wall" in hmap.features_between(x, y))
