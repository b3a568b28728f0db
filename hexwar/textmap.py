"""A scenario's map as plain-ASCII hex outlines, for ``hexwar describe --map``.

Every hex has its own outline so that a hexside feature (stream, retrenchment...) can be drawn
on the very edge it belongs to; inside go the terrain, a road mark and the side of a unit that
starts there. Neighbours, hexside identity and the offset layout come from the engine; this
module only decides which character goes where.
"""

from __future__ import annotations

from hexwar.engine.hexgrid import DIRECTION_NAMES, hex_neighbor, hexside, offset_to_axial
from hexwar.engine.hexmap import HexMap

from .mapglyphs import MapGlyphs, choose_glyphs, legend

__all__ = ["Layout", "choose_glyphs", "render_map", "wants_labels"]

#: Maps up to this many columns get hexes big enough for their CCRR label (about 120 columns
#: of text); wider maps get small hexes and rulers, so poltava's 32x40 stays readable.
LABELLED_MAX_WIDTH = 18


class Layout:
    """Where each hex, edge and content cell of a map lands in the text, as (line, column).

    Flat-top hexes: a top edge of 4 underscores and slanted sides ``s`` lines high. Pointy-top
    hexes: slanted tops and bottoms ``s`` lines high and vertical sides ``s`` lines high.
    ``s = 1`` is the compact drawing; ``s = 2`` leaves room for the label.
    """

    def __init__(self, hexmap: HexMap, labelled: bool) -> None:
        self.map = hexmap
        self.flat = hexmap.orientation == "flat"
        s = 2 if labelled else 1
        w = self.label_width = hexmap.label_width
        self.margin = w + 2                          # row numbers, then two spaces
        self.top = 1                                 # the column ruler
        if self.flat:
            t = 4
            self.step = (s + t, 2 * s)               # (x, y) from one column / row to the next
            self.push = (0, s)                       # half a hex down for pushed columns
            self.edges = {                           # compass name -> (cells, plain outline)
                "N": ([(0, s + i) for i in range(t)], "_"),
                "NW": ([(1 + i, s - 1 - i) for i in range(s)], "/"),
                "NE": ([(1 + i, s + t + i) for i in range(s)], "\\"),
                "SW": ([(s + 1 + i, i) for i in range(s)], "\\"),
                "SE": ([(s + 1 + i, 2 * s + t - 1 - i) for i in range(s)], "/"),
                "S": ([(2 * s, s + i) for i in range(t)], "_"),
            }
            self.box = (2 * s + t, 2 * s + 1)        # (width, height) of one hex
            self.main = (2, 2) if labelled else (1, 1)
            self.label_at, room = (1, 2), t
        else:
            self.step = (2 * s + 2, 2 * s)
            self.push = (s + 1, 0)                   # half a hex right for pushed rows
            self.edges = {
                "NW": ([(i, s - i) for i in range(s)], "/"),
                "NE": ([(i, s + 2 + i) for i in range(s)], "\\"),
                "W": ([(s + j, 0) for j in range(s)], "|"),
                "E": ([(s + j, 2 * s + 2) for j in range(s)], "|"),
                "SW": ([(2 * s + i, 1 + i) for i in range(s)], "\\"),
                "SE": ([(2 * s + i, 2 * s + 1 - i) for i in range(s)], "/"),
            }
            self.box = (2 * s + 3, 3 * s)
            self.main = (3, 2) if labelled else (1, 1)
            self.label_at, room = (2, 1), 2 * s + 1
        self.labels = labelled and 2 * w <= room
        self._pushed = [self.pushed(i) for i in range(hexmap.width if self.flat else hexmap.height)]
        self._origins = {h: self._place(h) for h in hexmap.hexes}
        self.height = max(line for line, _ in self._origins.values()) + self.box[1]
        self.width = max(col for _, col in self._origins.values()) + self.box[0]

    def pushed(self, i: int) -> bool:
        """Whether column (flat) or row (pointy) ``i`` sits half a hex lower (or further right)
        than the one before it: asked of the engine, so the drawing follows its offset layout."""
        m = self.map
        before = (i - 1, 0) if self.flat else (0, i - 1)
        south_east = hex_neighbor(offset_to_axial(*before, m.orientation, m.parity),
                                  DIRECTION_NAMES[m.orientation].index("SE"))
        return m.offset(south_east) == ((i, 0) if self.flat else (0, i))

    def _place(self, h: tuple[int, int]) -> tuple[int, int]:
        col, row = self.map.offset(h)
        x, y = col * self.step[0], row * self.step[1]
        if self._pushed[col if self.flat else row]:
            x, y = x + self.push[0], y + self.push[1]
        return self.top + y, self.margin + x

    def origin(self, h: tuple[int, int]) -> tuple[int, int]:
        """The top-left corner of the box around hex ``h``."""
        return self._origins[h]

    def edge(self, h: tuple[int, int], direction: int) -> tuple[list[tuple[int, int]], str]:
        """The cells of the edge of ``h`` in engine direction ``direction``, and its outline."""
        line, col = self.origin(h)
        cells, plain = self.edges[DIRECTION_NAMES[self.map.orientation][direction % 6]]
        return [(line + a, col + b) for a, b in cells], plain

    def main_cell(self, h: tuple[int, int]) -> tuple[int, int]:
        """The terrain glyph's cell; the road mark and the unit follow on its right."""
        line, col = self.origin(h)
        return line + self.main[0], col + self.main[1]

    def label_cell(self, h: tuple[int, int]) -> tuple[int, int]:
        line, col = self.origin(h)
        return line + self.label_at[0], col + self.label_at[1]


def wants_labels(hexmap: HexMap) -> bool:
    return hexmap.width <= LABELLED_MAX_WIDTH and hexmap.label_width == 2


def render_map(scenario, labelled: bool | None = None) -> str:
    """The map as ASCII text, then its legend. ``labelled`` forces big (True) or small hexes."""
    m = scenario.map
    lay = Layout(m, wants_labels(m) if labelled is None else labelled)
    g = choose_glyphs(scenario)
    rank = {f: i for i, f in enumerate(g.hexsides)}
    units = {u.hex: g.sides[u.side] for u in scenario.units if u.hex is not None}
    grid = [[" "] * lay.width for _ in range(lay.height)]
    row_of_line: dict[int, int] = {}
    for h in m.hexes:
        for d in range(6):
            cells, plain = lay.edge(h, d)
            feats = m.hexside_features.get(hexside(h, d)) if hex_neighbor(h, d) in m else None
            marks = [g.hexsides[f] for f in sorted(feats, key=rank.get)] if feats else [plain]
            for i, (line, col) in enumerate(sorted(cells)):    # two features alternate
                grid[line][col] = marks[i % len(marks)]
        line, col = lay.main_cell(h)
        grid[line][col] = g.terrain[m.terrain_at(h)]
        if m.on_road(h):
            grid[line][col + 1] = g.road
        if h in units:
            grid[line][col + 2] = units[h]
        row_of_line[line] = m.offset(h)[1]
        if lay.labels:
            line, col = lay.label_cell(h)
            label = m.label(h)
            grid[line][col:col + len(label)] = label

    w = lay.label_width
    for line, row in row_of_line.items():
        grid[line][:w] = f"{row + 1:0{w}d}"
        grid[line] += f" {row + 1:0{w}d}"
    ruler = [" "] * lay.width
    for c in range(m.width):
        _, col = lay.main_cell(m.hexes[c])           # m.hexes starts with the first row
        ruler[col + 1 - w // 2:col + 1 - w // 2 + w] = f"{c + 1:0{w}d}"
    grid[0] = ruler
    text = "\n".join("".join(r).rstrip() for r in [*grid, ruler])
    return text + "\n\n" + _legend(scenario, g, lay)


def _legend(scenario, g: MapGlyphs, lay: Layout) -> str:
    """The shared map key (the terminal UI shows the same one), then how to read a hex."""
    rows = []
    for group, entries in legend(scenario, g):
        text = ", ".join(f"{c} {name}" for c, name in entries)
        if group == "hexsides":
            text += " (drawn on the edge itself)"
        if group not in ("units", "marks"):
            rows.append(f"  {group + ':':<10}{text}")
    sides = ", ".join(f"{g.sides[s.id]} {s.name}" for s in scenario.sides)
    rows.append(f"  units:    {sides} (a unit starts there)")
    types = dict(legend(scenario, g)).get("units")
    if types:
        rows.append("  types:    " + ", ".join(f"{c} {name}" for c, name in types)
                    + " (on the game screen's counters)")
    marks = dict(legend(scenario, g)).get("marks")
    if marks:
        rows.append("  marks:    " + ", ".join(f"{c} {name}" for c, name in marks)
                    + " (under a counter on the game screen)")
    inside = "each hex shows its CCRR label; " if lay.labels else ""
    rows.append(f"  hexes:    {inside}CCRR = column (rulers above and below), "
                "then row (left and right)")
    return "\n".join(rows)
