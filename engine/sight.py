"""Line of sight over the two nudged hex lines of ``hexgrid.hex_line_pair``.

Which hexes block is the ruleset's business (terrain, units, hills); this module only walks the
lines. A line is clear when none of its *intermediate* hexes blocks: the viewer's and the target's
own hexes never block. Rulesets choose how to combine the two lines: "either" (one clear line is
enough, the viewer gets the benefit of the doubt on an edge) or "both" (the whole target hex seen).
"""

from __future__ import annotations

from typing import Callable

from .hexgrid import Hex, hex_line_pair

Blocks = Callable[[Hex], bool]


def sight_lines(a: tuple[int, int], b: tuple[int, int]) -> tuple[list[Hex], list[Hex]]:
    """The intermediate hexes of the two lines a->b (ends excluded)."""
    p, m = hex_line_pair(a, b)
    return p[1:-1], m[1:-1]


def clear_lines(a: tuple[int, int], b: tuple[int, int], blocks: Blocks) -> tuple[bool, bool]:
    """Whether each of the two lines from a to b is free of blocking hexes."""
    p, m = sight_lines(a, b)
    return (not any(blocks(h) for h in p), not any(blocks(h) for h in m))


def line_of_sight(a: tuple[int, int], b: tuple[int, int], blocks: Blocks, need: str = "either") -> bool:
    clear_p, clear_m = clear_lines(a, b, blocks)
    if need == "both":
        return clear_p and clear_m
    if need == "either":
        return clear_p or clear_m
    raise ValueError(f"need must be 'either' or 'both', not {need!r}")
