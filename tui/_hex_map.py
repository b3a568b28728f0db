"""The hex map widget: a ScrollView drawn line by line (Textual's Line API).

The canvas geometry comes from ``_hex_layout`` and what each hex shows (terrain, road, counters,
markers, overlays) from ``_hex_faces``; this module paints canvas lines into cached ``Strip``s.
Terrain and hexside glyphs come from the scenario's glyph table (``hexwar.mapglyphs``, the same
one ``hexwar describe --map`` prints); unit letters and facing from the ruleset's drawing table.
A column ruler (and a row ruler where it fits) stays on screen instead of a label in every hex.
When the screen hands in new overlays, only the hexes whose look changed are repainted.
The widget asks the rules one thing only, where each unit stands (``occupied_hexes``: a unit
may spread over several hexes); the game screen hands it every other answer (reach, targets,
zones) as ``Marks``, and it reports clicks and cursor moves as nested messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from hexwar.engine.hexgrid import Hex, Hexside, hex_neighbor
from hexwar.mapglyphs import choose_glyphs, unit_drawing

from ._hex_faces import Face, HexFaces, Marks
from ._hex_layout import DEFAULT_ZOOM, ZOOMS, Layout, build_layout
from .campaign_points import place_label
from .glyphs import UNICODE, Glyphs
from .themes import PALETTES, MapPalette

if TYPE_CHECKING:
    from hexwar.engine import Game
    from hexwar.engine.state import Unit


class HexMapView(HexFaces, ScrollView, can_focus=True):
    """Scrollable hex map with a hex cursor.

    | Key | Action |
    |-----|--------|
    | (screen keys) | the game screen owns the movement keys so they can be rebound |
    """

    DEFAULT_CSS = """
    HexMapView {
        background: $surface;
        scrollbar-size: 0 0;
        & > .hex-map--blank { background: $surface; color: $text-muted; }
        & > .hex-map--ruler { background: $surface; color: $text-muted; }
    }
    """
    COMPONENT_CLASSES = {"hex-map--blank", "hex-map--ruler"}
    """``hex-map--blank``: the canvas outside every hex (map corners, beyond the edges);
    ``hex-map--ruler``: the column and row numbers along the top and left."""
    BINDINGS = [Binding("plus,equals_sign", "zoom(1)", "Zoom in", show=False),
                Binding("minus", "zoom(-1)", "Zoom out", show=False)]

    cursor: reactive[Hex] = reactive(Hex(0, 0), always_update=True, repaint=False)
    """The hex under the keyboard cursor."""
    zoom: reactive[int] = reactive(DEFAULT_ZOOM)
    """0: small hexes, one counter each (the default); 1: big hexes with room for a stack,
    chosen by itself when the whole map fits in them."""

    class CursorMoved(Message):
        """The cursor went to another hex."""

        def __init__(self, view: "HexMapView", hex: Hex) -> None:
            super().__init__()
            self.view = view
            self.hex = hex

        @property
        def control(self) -> "HexMapView":
            return self.view

    class HexClicked(Message):
        """A hex was clicked with the mouse (the cursor is already on it)."""

        def __init__(self, view: "HexMapView", hex: Hex) -> None:
            super().__init__()
            self.view = view
            self.hex = hex

        @property
        def control(self) -> "HexMapView":
            return self.view

    def __init__(self, game: "Game", *, glyphs: Glyphs = UNICODE, palette: str = "default",
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.game = game
        self.glyphs = glyphs
        self.palette: MapPalette = PALETTES[palette]
        self.map_glyphs = choose_glyphs(game.scenario)
        self.drawing = unit_drawing(game.scenario)
        self.letters = self.map_glyphs.sides
        order = list(game.state.side_order or [s.id for s in game.scenario.sides])
        self.side_index = {sid: i for i, sid in enumerate(order)}
        self.marks: dict[Hex, Marks] = {}
        self.selected: Hex | None = None
        self.selected_hexes: frozenset[Hex] = frozenset()   # every hex the selected unit stands in
        self._looks: dict[Hex, tuple] = {}
        self._by_hex: dict[Hex, list["Unit"]] | None = None  # live units per hex, top first
        self._base: Style | None = None
        self._static: dict[tuple[int, int], list[tuple]] = {}  # (zoom, line) -> static cells
        self._picked_zoom = DEFAULT_ZOOM
        self.rulers = (0, 0)  # (columns taken by the row ruler, lines taken by the column ruler)
        self._layouts: dict[int, Layout] = {}
        self._faces: dict[Hex, Face] = {}
        self._lines: LRUCache[int, Strip] = LRUCache(1024)
        self._styles: dict[object, tuple] = {}  # combined styles (by ids), ruler style, row index
        m = game.map
        self.set_reactive(HexMapView.cursor, Hex(*m.hexes[0]))
        self._refit()

    # --- geometry -------------------------------------------------------------------------
    @property
    def layout_(self) -> Layout:
        if self.zoom not in self._layouts:
            m = self.game.map
            self._layouts[self.zoom] = build_layout(m.width, m.height, m.orientation, m.parity, self.zoom)
        return self._layouts[self.zoom]

    def _refit(self) -> None:
        lay = self.layout_
        self.rulers = self._choose_rulers()
        left, top = self.rulers
        self.virtual_size = Size(lay.width + left, lay.height + top)
        self.refresh_map()

    def _choose_rulers(self) -> tuple[int, int]:
        """The column ruler always fits in a line; the row ruler only where it costs no hex
        column: when the map fits beside it, or is so wide that it scrolls anyway."""
        lay, view = self.layout_, self.size
        if view.width <= 0:
            return 0, 1
        left = self.game.map.label_width + 1
        fits = lay.width + left <= view.width
        scrolls = lay.width > view.width + 2 * lay.template.pitch_x
        return (left if fits or scrolls else 0), 1

    def on_resize(self, event) -> None:
        self._pick_zoom()
        if self._choose_rulers() != self.rulers:
            self._refit()

    def _pick_zoom(self) -> None:
        """Until the player zooms, use the big hexes when the whole map fits in them."""
        if self.zoom != self._picked_zoom or self.size.width <= 0:
            return
        m, view = self.game.map, self.size
        best = DEFAULT_ZOOM
        for z in ZOOMS:
            if z not in self._layouts:
                self._layouts[z] = build_layout(m.width, m.height, m.orientation, m.parity, z)
            lay = self._layouts[z]
            if lay.width + m.label_width + 1 <= view.width and lay.height + 1 <= view.height:
                best = max(best, z)
        self._picked_zoom = best
        self.zoom = best

    def validate_cursor(self, value: tuple[int, int]) -> Hex:
        return Hex(*value) if value in self.game.map else self.cursor

    def validate_zoom(self, value: int) -> int:
        return max(ZOOMS[0], min(ZOOMS[-1], value))

    def watch_zoom(self, old: int, new: int) -> None:
        if old != new:
            self._refit()
            self.call_after_refresh(self.scroll_to_cursor, False)

    def watch_cursor(self, old: Hex, new: Hex) -> None:
        self._refresh_hexes([old, new])
        if self.rulers[1]:  # the column ruler: the top lines of the view, whatever the scroll
            self.refresh(Region(0, 0, self.size.width, self.rulers[1]))
        self.scroll_to_cursor()
        self.post_message(self.CursorMoved(self, new))

    def scroll_to_cursor(self, animate: bool = False) -> None:
        lay = self.layout_
        if self.cursor not in lay.origin:
            return
        x, y = lay.origin[self.cursor]
        t = lay.template
        left, top = self.rulers
        self.scroll_to_region(Region(x, y, len(t.rows[0]) + left, len(t.rows) + top),
                              animate=animate, spacing=None, force=True)

    def visible_hexes(self) -> set[Hex]:
        """The hexes whose centre is on screen now (the overview draws them as the view)."""
        lay = self.layout_
        left, top = self.rulers
        sx, sy = int(self.scroll_offset.x), int(self.scroll_offset.y)
        w, h = self.size.width - left, self.size.height - top
        out = set()
        for hx in lay.origin:
            cx, cy = lay.centre(hx)
            if sx <= cx < sx + w and sy <= cy < sy + h:
                out.add(hx)
        return out

    def action_zoom(self, delta: int) -> None:
        self.zoom = self.zoom + delta

    # --- state ----------------------------------------------------------------------------
    def show(self, game: "Game", marks: dict[Hex, Marks] | None = None, selected: Hex | None = None,
             selected_hexes: tuple[Hex, ...] = ()) -> None:
        """Take a new game state and overlays; repaint only the hexes whose look changed.
        ``selected_hexes``: all the hexes of a selected unit that stands in several."""
        self.game = game
        self.marks = marks or {}
        self.selected = selected
        self.selected_hexes = frozenset(selected_hexes) | ({selected} if selected is not None else set())
        self._by_hex = None
        looks = self._all_looks()
        changed = [h for h in looks.keys() | self._looks.keys() if looks.get(h) != self._looks.get(h)]
        self._looks = looks
        self._refresh_hexes(sorted(changed))

    def _all_looks(self) -> dict[Hex, tuple]:
        """Everything a hex's face depends on besides the map, hex by hex (for the diff)."""
        looks: dict[Hex, list] = {}
        for h, units in self._occupancy().items():
            looks[h] = [(u.id, u.side, u.kind, u.strength, u.max_strength, u.facing, bool(u.marks),
                         self.drawing.mark_of(u), Hex(*u.hex) == h) for u in units]
        out = {h: (tuple(sorted(v)),) for h, v in looks.items()}
        for h, mk in self.marks.items():
            out[h] = out.get(h, ()) + ((mk.reach, mk.target, mk.contact, mk.line, mk.moved, mk.zone),)
        for h in sorted(self.selected_hexes):
            out[h] = out.get(h, ()) + ("selected",)
        return out

    def set_palette(self, palette: str) -> None:
        self.palette = PALETTES[palette]
        self._static.clear()
        self._styles.clear()
        self.refresh_map()

    def set_glyphs(self, glyphs: Glyphs) -> None:
        self.glyphs = glyphs
        self.refresh_map()

    def refresh_map(self) -> None:
        """Repaint every hex (a new look: zoom, palette, glyphs, or a different game)."""
        self._by_hex = None
        self._looks = self._all_looks()
        self._faces.clear()
        self._lines.clear()
        self.refresh()

    def _refresh_hexes(self, hexes: list[Hex]) -> None:
        lay = self.layout_
        t = lay.template
        top = self.rulers[1]
        for h in hexes:
            self._faces.pop(h, None)
            if h in lay.origin:
                _, y = lay.origin[h]
                for dy in range(len(t.rows)):
                    self._lines.discard(y + dy)
                # refresh_lines takes a canvas line and subtracts the scroll offset itself
                self.refresh_lines(y + top, len(t.rows))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base = None
        self._static.clear()
        self._lines.clear()
        self._styles.clear()

    # --- painting -------------------------------------------------------------------------
    def _static_line(self, y: int) -> list[tuple]:
        """What never changes on a canvas line between repaints of one zoom and palette:
        (0, blank) outside the map, (1, style) inside a hex, (2, char, style, hex a, hex b)
        on a hex border (the two hexes decide the cursor's highlight)."""
        key = (self.zoom, y)
        hit = self._static.get(key)
        if hit is not None:
            return hit
        lay = self.layout_
        pal, m = self.palette, self.game.map
        base = self._base_style()
        combine = self._combined
        hexsides = self.map_glyphs.hexsides
        blank = (0, (" ", self.get_component_rich_style("hex-map--blank", partial=True)))
        out: list[tuple] = []
        for cell in lay.cells[y] if 0 <= y < lay.height else []:
            if cell is None:
                out.append(blank)
            elif cell.side is None:
                out.append((1, combine(base, pal.terrain_style(m.terrain_at(cell.hex)), None)))
            else:
                feats = m.hexside_features.get(cell.side)
                glyph = _feature_glyph(feats, hexsides) if feats else None
                style = combine(base, pal.feature if glyph else pal.border, None)
                out.append((2, glyph or cell.char, style, cell.side.hex, _other(cell.side)))
        self._static[key] = out
        return out

    def _ruler_style(self) -> Style:
        hit = self._styles.get("ruler")
        if hit is None:
            ruler = self.get_component_rich_style("hex-map--ruler", partial=True)
            hit = self._styles["ruler"] = (self._base_style() + ruler,)
        return hit[0]

    def _base_style(self) -> Style:
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def _canvas_line(self, y: int) -> Strip:
        cached = self._lines.get(y)
        if cached is not None:
            return cached
        pal, m = self.palette, self.game.map
        base = self._base_style()
        slot_text: dict[int, tuple[str, Style | None, Hex]] = {}
        for h, i, sx, width in self.layout_.line_slots.get(y, ()):
            slots = self._face(h).slots
            if i >= len(slots):
                continue
            text, style = slots[i]
            for k, ch in enumerate(text[:width]):
                slot_text[sx + k] = (ch, style, h)
        cursor = self.cursor
        selected = self.selected_hexes
        combine = self._combined
        chars: list[tuple[str, Style]] = []
        for x, entry in enumerate(self._static_line(y)):
            kind = entry[0]
            if kind == 0:
                chars.append(entry[1])
            elif kind == 1:
                over = slot_text.get(x)
                if over is None or over[1] is None:
                    chars.append((over[0] if over else " ", entry[1]))
                else:
                    chars.append((over[0], combine(entry[1], over[1], None)))
            else:
                _, ch, style, a, b = entry
                extra = pal.cursor if cursor == a or cursor == b else \
                    pal.selected if a in selected or b in selected else None
                over = slot_text.get(x)
                if over is not None and over[0] != " ":
                    inner = combine(base, pal.terrain_style(m.terrain_at(over[2])), None)
                    chars.append((over[0], combine(inner, over[1] or style, extra)))
                elif extra is not None:
                    chars.append((ch, combine(style, extra, None)))
                else:
                    chars.append((ch, style))
        strip = Strip(_merge(chars), len(chars))
        self._lines[y] = strip
        return strip

    def _combined(self, a: Style, b: Style, c: Style | None) -> Style:
        key = (id(a), id(b), id(c))  # the cache keeps a, b, c alive, so ids stay unique
        hit = self._styles.get(key)
        if hit is None:
            hit = self._styles[key] = (a + b + c if c is not None else a + b, a, b, c)
        return hit[0]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = (int(v) for v in self.scroll_offset)
        width = self.scrollable_content_region.width
        left, top = self.rulers
        ruler = self._ruler_style()
        if y < top:
            return self._column_ruler(scroll_x, width, ruler)
        line = scroll_y + y - top
        strip = self._canvas_line(line).crop_extend(scroll_x, scroll_x + width - left, self._base_style())
        if not left:
            return strip
        row = self._row_of_line().get(line)
        label = f"{row + 1:0{left - 1}d} " if row is not None else " " * left
        here = row is not None and self.game.map.offset(self.cursor)[1] == row
        style = self._combined(ruler, self.palette.cursor if here else _PLAIN, None)
        return Strip.join([Strip([Segment(label, style)], left), strip])

    def _row_of_line(self) -> dict[int, int]:
        """Canvas line -> map row, for the lines that hold the first column's counters."""
        key = ("rows", self.zoom)
        cached = self._styles.get(key)
        if cached is None:
            lay, m = self.layout_, self.game.map
            first = lay.template.slots[0][0]
            rows = {lay.origin[h][1] + first: m.offset(h)[1] for h in lay.origin if m.offset(h)[0] == 0}
            cached = self._styles[key] = (rows,)
        return cached[0]

    def _column_ruler(self, scroll_x: int, width: int, ruler: Style) -> Strip:
        """Column numbers over the hex centres, the cursor's column standing out, and the
        cursor's label at the right end."""
        lay, m = self.layout_, self.game.map
        left = self.rulers[0]
        w = m.label_width
        base = ruler
        hot = self._combined(ruler, self.palette.cursor, None)
        cells: list[tuple[str, Style]] = [(" ", base)] * (lay.width + left + w)
        cur_col = m.offset(self.cursor)[0]
        end = 0
        for h, (x, _) in lay.origin.items():
            col, row = m.offset(h)
            if row != 0:
                continue
            cx = x + len(lay.template.rows[0]) // 2 - w // 2 + left
            style = hot if col == cur_col else base
            for k, ch in enumerate(f"{col + 1:0{w}d}"):
                cells[cx + k] = (ch, style)
            end = max(end, cx + w)
        shown = cells[scroll_x:scroll_x + width]
        shown += [(" ", base)] * (width - len(shown))
        label = f" {place_label(self.game, self.cursor)}"
        if end - scroll_x + len(label) < width:
            shown[width - len(label):] = [(" ", base)] + [(ch, hot) for ch in label[1:]]
        return Strip(_merge(shown), width)

    # --- mouse ----------------------------------------------------------------------------
    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        left, top = self.rulers
        if offset.x < left or offset.y < top:
            return
        x = offset.x - left + int(self.scroll_offset.x)
        y = offset.y - top + int(self.scroll_offset.y)
        h = self.layout_.hex_at(x, y)
        if h is None:
            return
        self.cursor = h
        self.post_message(self.HexClicked(self, h))


def _feature_glyph(features: frozenset[str], table: dict[str, str]) -> str | None:
    """The glyph of the first feature in drawing priority (roads are drawn inside hexes)."""
    for name in table:
        if name in features:
            return table[name]
    return None


_PLAIN = Style()


def _other(side: Hexside) -> Hex:
    return hex_neighbor(side.hex, side.dir)


def _merge(chars: list[tuple[str, Style]]) -> list[Segment]:
    out: list[Segment] = []
    text: list[str] = []
    current: Style | None = None
    for ch, style in chars:
        if text and style is not current and style != current:
            out.append(Segment("".join(text), current))
            text = []
        current = style
        text.append(ch)
    if text:
        out.append(Segment("".join(text), current))
    return out


__all__ = ["Face", "HexMapView", "Marks"]
