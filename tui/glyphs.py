"""The marker characters of the map, in a Unicode set and a plain ASCII set (``--ascii``).

Terrain, hexside features and roads are not here: they come from the scenario's own glyph
table (``hexwar.mapglyphs``), which ``hexwar describe --map`` prints too. This set holds what
the game adds on top: reduced strength, stacks, facing, reach, targets, contact, the line of
fire, so that nothing on the map depends on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

# Facing, by the engine's direction index (see ``DIRECTION_NAMES``); a vertex facing ``f`` points
# between directions ``f`` and ``f + 1``.
_ARROWS = {"pointy": "\u2192\u2197\u2196\u2190\u2199\u2198", "flat": "\u2198\u2197\u2191\u2196\u2199\u2193",
           "pointy-vertex": "\u2197\u2191\u2196\u2199\u2193\u2198", "flat-vertex": "\u2192\u2197\u2196\u2190\u2199\u2198"}
# ASCII has no diagonal arrows: the direction keys stand in (d e q a z c / c e w q z x).
_ARROWS_ASCII = {"pointy": "deqazc", "flat": "cewqzx", "pointy-vertex": "ewqzxc", "flat-vertex": "deqazc"}


@dataclass(frozen=True)
class Glyphs:
    """One character set for the map and panels."""

    ascii: bool
    reduced: str = "\u25be"
    stack: str = "\u2261"
    marked: str = "\u2022"  # a unit that carries status marks (moved, fired...)
    reach: str = "\u2192"
    target: str = "\u2297"
    contact: str = "z"
    line: str = "\u00b7"
    moved: str = "\u00bb"  # where the other side moved in its last turn
    selected: str = "\u25c6"
    pending: str = "!"
    #: in place of the strength, on every stand of a unit but the one that carries its counter
    stand: str = "\u25aa"
    #: the selected unit's zones (front, flank, rear), where the ruleset has them
    zones: tuple[tuple[str, str], ...] = (("front", "\u25b3"), ("flank", "\u25cb"), ("rear", "\u25bd"))

    def zone(self, name: str) -> str:
        return dict(self.zones).get(name, "")

    def facing(self, orientation: str, direction: int, vertex: bool = False) -> str:
        table = _ARROWS_ASCII if self.ascii else _ARROWS
        return table[f"{orientation}-vertex" if vertex else orientation][direction % 6]


UNICODE = Glyphs(False)
ASCII = Glyphs(True, reduced="-", stack="s", marked="*", reach=">", target="X",
               contact="z", line=".", moved="m", selected="@", pending="!", stand="=",
               zones=(("front", "+"), ("flank", "o"), ("rear", "v")))
