"""Formation footprints on hexes (spec 21.5) and the rigid moves of a whole formation (21.8).

One stand fills one hex. A formed unit's stand hexes follow from an anchor hex, its vertex
facing, its formation and its number of stands, so they cannot drift out of shape:

* line: the anchor is the left-end stand and the line runs along the right-flank direction;
* column: the anchor is the head and the stands zigzag behind it, rear-left first (or
  rear-right first in the mirror variant the unit keeps);
* square: the anchor is the pivot stand and the template grows toward the former rear;
* everything else (batteries, gunners, engineers, train, generals, single stands): one hex.

A disordered unit keeps its stands where they were, so it stores them instead (21.5 [P]).

This module is pure geometry; ``board.stand_hexes`` applies it to the units in play.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from hexwar.engine.hexgrid import Hex, hex_neighbor

from .geometry import flank_dirs, rear_dirs

MULTI_HEX = ("line", "column", "square")


def _step(h: Hex, d: int, times: int = 1) -> Hex:
    for _ in range(times):
        h = hex_neighbor(h, d)
    return h


@lru_cache(maxsize=65536)
def layout(formation: str, anchor: Hex, facing: int, stands: int, mirror: bool = False) -> tuple[Hex, ...]:
    """The stand hexes of a formed unit, anchor first (21.5). Cached on its arguments."""
    if stands <= 1 or formation not in MULTI_HEX:
        return (anchor,)
    rl, rr = rear_dirs(facing)
    if formation == "line":
        rf = flank_dirs(facing)[1]
        return tuple(_step(anchor, rf, k) for k in range(stands))
    if formation == "column":
        first, second = (rr, rl) if mirror else (rl, rr)
        out, h = [anchor], anchor
        for k in range(stands - 1):
            h = hex_neighbor(h, first if k % 2 == 0 else second)
            out.append(h)
        return tuple(out)
    # square: the template extends toward the former rear (9.7)
    if stands == 2:
        return (anchor, hex_neighbor(anchor, rr if mirror else rl))
    out = [anchor, hex_neighbor(anchor, rl), hex_neighbor(anchor, rr)]
    if stands >= 4:
        out.append(hex_neighbor(hex_neighbor(anchor, rl), rr))
    return tuple(out)


def translate(stands: Iterable[Hex], d: int) -> tuple[Hex, ...]:
    """Every stand one hex in direction ``d``: the formation keeps its shape (21.8)."""
    return tuple(hex_neighbor(h, d) for h in stands)


def wheel(formation: str, anchor: Hex, facing: int, stands: int, turn: int, pivot: str = "left",
          mirror: bool = False) -> tuple[Hex, int]:
    """(new anchor, new facing) after a rigid 60-degree wheel (21.8): ``turn`` +1 turns
    counter-clockwise, -1 clockwise. A line pivots on the end stand named by ``pivot`` ("left"
    keeps the anchor, "right" keeps the other end); a column or single stand on its head."""
    new_facing = (facing + turn) % 6
    if formation != "line" or stands <= 1 or pivot == "left":
        return anchor, new_facing
    right_end = layout(formation, anchor, facing, stands, mirror)[-1]
    back = (flank_dirs(new_facing)[1] + 3) % 6
    return _step(right_end, back, stands - 1), new_facing


def wheel_cost(formation: str, stands: int) -> int:
    """MP per 60 degrees: the stands in the front rank (21.8)."""
    return stands if formation == "line" else 1


def connected(stands: Iterable[Hex]) -> bool:
    hexes = set(stands)
    if not hexes:
        return True
    start = min(hexes)
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for d in range(6):
            n = hex_neighbor(h, d)
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def shape_problem(stands: tuple[Hex, ...]) -> str | None:
    """Why one unit's stands are not a legal footprint (21.5): distinct hexes, one connected set."""
    if len(set(stands)) != len(stands):
        return "two stands of the unit share a hex"
    if not connected(stands):
        return "the unit's stands are not connected"
    return None


def overlap_problems(footprints: Mapping[str, tuple[Hex, ...]], generals: Mapping[str, Hex],
                     sides: Mapping[str, str]) -> list[str]:
    """Stands of two units in one hex, and generals stacked with anything but one friendly
    stand (21.5 [P]); ``sides`` maps every id to its side. Sorted messages."""
    out = []
    holder: dict[Hex, str] = {}
    for uid in sorted(footprints):
        for h in footprints[uid]:
            if h in holder:
                out.append(f"{uid} and {holder[h]} both have a stand in {tuple(h)}")
            else:
                holder[h] = uid
    placed: dict[Hex, str] = {}
    for gid in sorted(generals):
        h = generals[gid]
        if h in placed:
            out.append(f"{gid} and {placed[h]} are two generals in {tuple(h)}")
            continue
        placed[h] = gid
        stand = holder.get(h)
        if stand is not None and sides[stand] != sides[gid]:
            out.append(f"{gid} shares {tuple(h)} with an enemy stand of {stand}")
    return out
