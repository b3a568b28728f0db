"""Where every hex of a map lands on a character grid, for each orientation and zoom level.

Each hex is drawn from a small template whose border characters name the hex side (0-5, the
engine's direction index) they belong to. Neighbouring hexes stamp the same border characters on
the same cells, so the stamped canvas tiles without gaps, and a river on a hexside can be drawn
by restyling exactly the cells of that side. Text slots are where the map widget writes counters
and markers; a slot may lie on a border (the small flat hex writes its second line on its own
bottom edge, underlined, so the edge still shows).

This is pure geometry (no Textual), built once per (map, zoom) and cached by the widget.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.engine.hexgrid import Hex, Hexside, hexside, offset_to_axial

# A template: drawn rows, and for each character either a side digit, "." (interior) or " ".
# Slot lines are (template row, first column, width) where text may be written.


@dataclass(frozen=True)
class Template:
    rows: tuple[str, ...]
    sides: tuple[str, ...]
    pitch_x: int  # columns between neighbouring hexes of one row (pointy) or column (flat)
    pitch_y: int  # lines between rows
    shift: int  # how far alternate rows (pointy: columns; flat: lines) are pushed
    slots: tuple[tuple[int, int, int], ...]


POINTY = {
    0: Template(
        rows=(" / \\ ", "|   |", " \\ / "),
        sides=(" 2.1 ", "3...0", " 4.5 "),
        pitch_x=4, pitch_y=2, shift=2, slots=((1, 1, 3), (0, 2, 1), (2, 2, 1))),
    1: Template(
        rows=("   / \\   ", " /     \\ ", "|       |", "|       |", " \\     / ", "   \\ /   "),
        sides=("   2.1   ", " 2.....1 ", "3.......0", "3.......0", " 4.....5 ", "   4.5   "),
        pitch_x=8, pitch_y=4, shift=4, slots=((1, 2, 5), (2, 1, 7), (3, 1, 7), (4, 2, 5))),
}
FLAT = {
    0: Template(
        rows=(" __ ", "/  \\", "\\__/"),
        sides=(" 22 ", "3..1", "4550"),
        pitch_x=3, pitch_y=2, shift=1, slots=((1, 1, 2), (2, 1, 2))),
    1: Template(
        rows=("  _____  ", " /     \\ ", "/       \\", "\\       /", " \\_____/ "),
        sides=("  22222  ", " 3.....1 ", "3.......1", "4.......0", " 4555550 "),
        pitch_x=7, pitch_y=4, shift=2, slots=((1, 2, 5), (2, 1, 7), (3, 1, 7))),
}
ZOOMS = (0, 1)
DEFAULT_ZOOM = 0


@dataclass
class Cell:
    """One character of the canvas: a border char of ``side`` or an interior cell of ``hex``."""

    char: str
    hex: Hex
    side: Hexside | None = None  # None for interior cells


@dataclass
class Layout:
    """The stamped canvas of one map at one zoom level."""

    width: int
    height: int
    template: Template
    cells: list[list[Cell | None]]
    origin: dict[Hex, tuple[int, int]]  # top-left corner of each hex's template
    line_slots: dict[int, list[tuple[Hex, int, int, int]]]  # y -> (hex, slot index, x, width)

    def centre(self, h: Hex) -> tuple[int, int]:
        x, y = self.origin[h]
        t = self.template
        return x + len(t.rows[0]) // 2, y + len(t.rows) // 2

    def slot(self, h: Hex, index: int) -> tuple[int, int, int] | None:
        """Canvas (x, y, width) of one text slot of ``h``, or None if the template has fewer."""
        slots = self.template.slots
        if index >= len(slots):
            return None
        row, col, width = slots[index]
        x, y = self.origin[h]
        return x + col, y + row, width

    def hex_at(self, x: int, y: int) -> Hex | None:
        if 0 <= y < self.height and 0 <= x < self.width:
            cell = self.cells[y][x]
            return None if cell is None else cell.hex
        return None


def _origin(col: int, row: int, orientation: str, parity: str, t: Template) -> tuple[int, int]:
    shifted_parity = 1 if parity == "odd" else 0
    if orientation == "pointy":
        push = t.shift if row % 2 == shifted_parity else 0
        return col * t.pitch_x + push, row * t.pitch_y
    push = t.shift if col % 2 == shifted_parity else 0
    return col * t.pitch_x, row * t.pitch_y + push


def build_layout(width: int, height: int, orientation: str, parity: str, zoom: int) -> Layout:
    """Stamp every hex of a ``width`` x ``height`` offset map; borders win over interiors."""
    t = (POINTY if orientation == "pointy" else FLAT)[zoom]
    origins: dict[Hex, tuple[int, int]] = {}
    for row in range(height):
        for col in range(width):
            origins[offset_to_axial(col, row, orientation, parity)] = _origin(col, row, orientation, parity, t)
    max_x = max(x for x, _ in origins.values()) + len(t.rows[0])
    max_y = max(y for _, y in origins.values()) + len(t.rows)
    cells: list[list[Cell | None]] = [[None] * max_x for _ in range(max_y)]
    for h, (ox, oy) in origins.items():
        for ty, (drawn, sides) in enumerate(zip(t.rows, t.sides)):
            for tx, (ch, kind) in enumerate(zip(drawn, sides)):
                if kind == " ":
                    continue
                x, y = ox + tx, oy + ty
                old = cells[y][x]
                if kind == ".":
                    if old is None:
                        cells[y][x] = Cell(" ", h)
                elif old is None or old.side is None:
                    cells[y][x] = Cell(ch, h, hexside(h, int(kind)))
    line_slots: dict[int, list[tuple[Hex, int, int, int]]] = {}
    for h, (ox, oy) in origins.items():
        for i, (row, col, width) in enumerate(t.slots):
            line_slots.setdefault(oy + row, []).append((h, i, ox + col, width))
    return Layout(max_x, max_y, t, cells, origins, line_slots)
