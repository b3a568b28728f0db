"""The static map: which hexes exist, their terrain and elevation, hexside features, roads.

A map never changes during a game, so it is kept out of the game state and its lookup tables
(neighbours on the map, labels) are built once. Terrain codes are plain strings; what a code
means (movement cost, cover) belongs to the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .hexgrid import (
    DIRECTIONS, Hex, Hexside, axial_to_offset, hex_neighbor, hexside_between,
    offset_label, offset_to_axial, parse_offset_label,
)

EDGES = ("north", "south", "east", "west")

#: (width, height, orientation, parity) -> (hexes, their frozenset, on-map neighbours per hex);
#: pure geometry, read-only once built, so maps of the same shape share it (a loader builds a
#: blank map and then the real one, and a replay builds its scenario's map again)
_GEOMETRY: dict[tuple[int, int, str, str], tuple] = {}


def _geometry(width: int, height: int, orientation: str, parity: str) -> tuple:
    key = (width, height, orientation, parity)
    out = _GEOMETRY.get(key)
    if out is None:
        # offset_to_axial row by row, each Hex made without its Python-level __new__
        new = tuple.__new__
        odd = parity == "odd"
        if orientation == "flat":  # the shift follows the column
            shifts = [(c - (c & 1)) // 2 if odd else (c + (c & 1)) // 2 for c in range(width)]
            hexes = tuple([new(Hex, (col, row - shifts[col]))
                           for row in range(height) for col in range(width)])
        else:  # pointy: the shift follows the row
            shifts = [(r - (r & 1)) // 2 if odd else (r + (r & 1)) // 2 for r in range(height)]
            hexes = tuple([new(Hex, (col - shifts[row], row))
                           for row in range(height) for col in range(width)])
        index = frozenset(hexes)
        # each neighbour is the map's own Hex for that place, found by a plain pair (equal and
        # hashed alike): no Hex made per step (a 32x40 map has 7,680 steps)
        own = {h: h for h in hexes}.get
        steps = tuple(enumerate(DIRECTIONS))
        neigh = {}
        for h in hexes:
            q, r = h
            neigh[h] = tuple([(d, n) for d, (dq, dr) in steps if (n := own((q + dq, r + dr))) is not None])
        if len(_GEOMETRY) > 16:
            _GEOMETRY.clear()
        out = _GEOMETRY[key] = (hexes, index, neigh)
    return out


_NO_FEATURES: frozenset[str] = frozenset()


def _pair_features(hexside_features: dict) -> dict:
    """(a, b) -> features, both ways round, for each hexside with features: what
    ``hexside_features.get(hexside_between(a, b))`` finds, as one dict look-up (a search asks it
    for thousands of steps). A hexside not written in its canonical form (direction 0-2) is one
    ``hexside_between`` never names, so it is left out here too."""
    out = {}
    for side, feats in hexside_features.items():
        h, d = side
        if type(d) is int and 0 <= d < 3:
            n = hex_neighbor(h, d)
            out[(h, n)] = feats
            out[(n, h)] = feats
    return out


@dataclass(frozen=True)
class HexMap:
    """A rectangle of ``width`` columns by ``height`` rows in offset layout."""

    #: which kind of board this is (``AreaMap.kind`` is "area"); a class constant, not a field
    kind = "hex"

    width: int
    height: int
    orientation: str = "pointy"
    parity: str = "odd"
    terrain: dict[Hex, str] = field(default_factory=dict)
    elevation: dict[Hex, int] = field(default_factory=dict)
    hexside_features: dict[Hexside, frozenset[str]] = field(default_factory=dict)
    roads: frozenset[Hexside] = frozenset()
    labels: dict[str, Hex] = field(default_factory=dict)
    default_terrain: str = "clear"

    def __post_init__(self) -> None:
        hexes, index, neigh = _geometry(self.width, self.height, self.orientation, self.parity)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "_index", index)
        width = max(2, len(str(max(self.width, self.height))))
        object.__setattr__(self, "label_width", width)
        object.__setattr__(self, "_neighbors", neigh)
        road_hexes = set()
        for side in self.roads:
            road_hexes.add(side.hex)
            road_hexes.add(hex_neighbor(side.hex, side.dir))
        object.__setattr__(self, "_road_hexes", frozenset(road_hexes))

    hexes: tuple[Hex, ...] = field(init=False, repr=False, compare=False)
    label_width: int = field(init=False, repr=False, compare=False)

    # --- membership and names -------------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self._index  # type: ignore[attr-defined]

    def offset(self, h: tuple[int, int]) -> tuple[int, int]:
        return axial_to_offset(h, self.orientation, self.parity)

    def label(self, h: tuple[int, int]) -> str:
        # Events name a hex by its label after every move: a map's labels are kept as asked
        # (on-map hexes only, so the table never outgrows the map).
        kept = self.__dict__.get("_label_of")
        if kept is None:
            kept = {}
            object.__setattr__(self, "_label_of", kept)
        if type(h) is not list:
            text = kept.get(h)
            if text is not None:
                return text
        col, row = self.offset(h)
        text = offset_label(col, row, self.label_width)
        if type(h) is not list and h in self._index:  # type: ignore[attr-defined]
            kept[h] = text
        return text

    def parse(self, label: str) -> Hex:
        """``"0304"`` -> the axial hex; raises ValueError if malformed or off the map."""
        col, row = parse_offset_label(label, self.label_width)
        h = offset_to_axial(col, row, self.orientation, self.parity)
        if h not in self:
            raise ValueError(f"hex {label} is off the {self.width}x{self.height} map")
        return h

    # --- terrain --------------------------------------------------------------------------
    def terrain_at(self, h: tuple[int, int]) -> str:
        return self.terrain.get(h, self.default_terrain)  # type: ignore[arg-type]

    def elevation_at(self, h: tuple[int, int]) -> int:
        return self.elevation.get(h, 0)  # type: ignore[arg-type]

    def neighbors(self, h: tuple[int, int]) -> tuple[tuple[int, Hex], ...]:
        """(direction, hex) pairs for the neighbours of ``h`` that are on the map."""
        return self._neighbors.get(h, ())  # type: ignore[attr-defined]

    def features_between(self, a: tuple[int, int], b: tuple[int, int]) -> frozenset[str]:
        """The features on the hexside between ``a`` and ``b`` (empty if they are not adjacent)."""
        table = self.__dict__.get("_pair_features")
        if table is None:
            table = _pair_features(self.hexside_features)
            object.__setattr__(self, "_pair_features", table)
        return table.get((a, b), _NO_FEATURES)

    def road_between(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        side = hexside_between(a, b)
        return side is not None and side in self.roads

    def on_road(self, h: tuple[int, int]) -> bool:
        return h in self._road_hexes  # type: ignore[attr-defined]

    # --- edges ------------------------------------------------------------------------------
    def edge_hexes(self, edge: str) -> tuple[Hex, ...]:
        """The hexes along one map edge (north = row 0, west = column 0)."""
        out = []
        for h in self.hexes:
            col, row = self.offset(h)
            if ((edge == "north" and row == 0) or (edge == "south" and row == self.height - 1)
                    or (edge == "west" and col == 0) or (edge == "east" and col == self.width - 1)):
                out.append(h)
        return tuple(out)

    def rows_from_edge(self, h: tuple[int, int], edge: str) -> int:
        """How many rows (or columns) ``h`` lies from ``edge``: 0 on the edge itself."""
        col, row = self.offset(h)
        return {"north": row, "south": self.height - 1 - row, "west": col,
                "east": self.width - 1 - col}[edge]


__all__ = ["EDGES", "HexMap"]
