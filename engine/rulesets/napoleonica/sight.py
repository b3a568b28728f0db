"""Who can see whom (spec 7.3 item 4, 9.7 item 5, 21.7) with the [P] height rule of 21.7.

A hex's height is its level, +1 when it holds forest, a settlement or a stand. An in-between hex
blocks when its height is above the lower of the two end levels. For attacks and fire every
stand blocks (the ends' own stands never do); for the re-form exception only relief and
settlements do. A high wall (hexside ``wall``) on the line blocks both.
"""

from __future__ import annotations

from hexwar.engine.hexgrid import Hex
from hexwar.engine.hexmap import HexMap

from . import board as B
from .geometry import sight_clear


def attack_sight(hmap: HexMap, view: B.View, a: Hex, b: Hex) -> bool:
    floor = min(hmap.elevation_at(a), hmap.elevation_at(b))

    def blocks(h: Hex) -> bool:
        height = hmap.elevation_at(h)
        if hmap.terrain_at(h) in ("forest", "village", "rampart") or h in view.stands:
            height += 1
        return height > floor

    return sight_clear(a, b, blocks, lambda x, y: "wall" in hmap.features_between(x, y))


def howitzer_sight(hmap: HexMap, view: B.View, a: Hex, b: Hex, reading: str = "over") -> bool:
    """A howitzer fires over anything no more than one level above its own (3.3, G-46,
    ``reading = "over"``); the other reading of G-46 (``"target-level"``) lets it fire without
    sight only at a target exactly one level above or below it."""
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
