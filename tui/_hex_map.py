"""The hex map widget: a ScrollView drawn line by line (Textual's Line API).

The canvas geometry comes from ``_hex_layout``; this module only decides what each hex shows
(terrain, road, counters, markers, overlays) and paints canvas lines into cached ``Strip``s.
The widget never asks the rules anything: the game screen hands it the answers (reach, targets)
as ``Marks``, and it reports clicks and cursor moves as nested messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

from ._hex_layout import ZOOMS, Layout, build_layout
from .glyphs import UNICODE, Glyphs, side_letters
from .themes import PALETTES, MapPalette

if TYPE_CHECKING:
    from hexwar.engine import Game
    from hexwar.engine.state import Unit


@dataclass
class Marks:
    """What the screen wants shown on one hex besides terrain and counters."""

    reach: int | None = None  # movement cost to get here
    target: bool = False
    contact: bool = False  # in the enemy's zone of control (the engine says where)
    line: bool = False  # on the line from the selected unit to the cursor


@dataclass
class Face:
    """The text of each slot of one hex, with its style."""

    slots: list[tuple[str, Style | None]] = field(default_factory=list)


class HexMapView(ScrollView, can_focus=True):
    """Scrollable hex map with a hex cursor.

    | Key | Action |
    |-----|--------|
    | (screen keys) | the game screen owns the movement keys so they can be rebound |
    """

    DEFAULT_CSS = """
    HexMapView {
        background: $surface;
        scrollbar-size: 1 1;
        & > .hex-map--blank { background: $surface; color: $text-muted; }
    }
    """
    COMPONENT_CLASSES = {"hex-map--blank"}
    """``hex-map--blank``: the canvas outside every hex (map corners, beyond the edges)."""
    BINDINGS = [Binding("plus,equals_sign", "zoom(1)", "Zoom in", show=False),
                Binding("minus", "zoom(-1)", "Zoom out", show=False)]

    cursor: reactive[Hex] = reactive(Hex(0, 0), always_update=True, repaint=False)
    """The hex under the keyboard cursor."""
    zoom: reactive[int] = reactive(1)
    """0: compact (overview), 1: counters with labels."""

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
        self.letters = side_letters(list(game.state.side_order or [s.id for s in game.scenario.sides]))
        self.side_index = {sid: i for i, sid in enumerate(self.letters)}
        self.marks: dict[Hex, Marks] = {}
        self.selected: Hex | None = None
        self._layouts: dict[int, Layout] = {}
        self._faces: dict[Hex, Face] = {}
        self._lines: LRUCache[int, Strip] = LRUCache(1024)
        self._styles: dict[tuple, Style] = {}
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
        self.virtual_size = Size(lay.width, lay.height)
        self.refresh_map()

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
        self.scroll_to_cursor()
        self.post_message(self.CursorMoved(self, new))

    def scroll_to_cursor(self, animate: bool = False) -> None:
        lay = self.layout_
        if self.cursor not in lay.origin:
            return
        x, y = lay.origin[self.cursor]
        t = lay.template
        self.scroll_to_region(Region(x, y, len(t.rows[0]), len(t.rows)), animate=animate,
                              spacing=None, force=True)

    def action_zoom(self, delta: int) -> None:
        self.zoom = self.zoom + delta

    # --- state ----------------------------------------------------------------------------
    def show(self, game: "Game", marks: dict[Hex, Marks] | None = None, selected: Hex | None = None) -> None:
        """Take a new game state and overlays; repaint everything."""
        self.game = game
        self.marks = marks or {}
        self.selected = selected
        self.refresh_map()

    def set_palette(self, palette: str) -> None:
        self.palette = PALETTES[palette]
        self.refresh_map()

    def set_glyphs(self, glyphs: Glyphs) -> None:
        self.glyphs = glyphs
        self.refresh_map()

    def refresh_map(self) -> None:
        self._faces.clear()
        self._styles.clear()
        self._lines.clear()
        self.refresh()

    def _refresh_hexes(self, hexes: list[Hex]) -> None:
        lay = self.layout_
        t = lay.template
        for h in hexes:
            self._faces.pop(h, None)
            if h in lay.origin:
                _, y = lay.origin[h]
                for dy in range(len(t.rows)):
                    self._lines.discard(y + dy)
                self.refresh_lines(y - int(self.scroll_offset.y), len(t.rows))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._styles.clear()

    # --- what each hex shows ---------------------------------------------------------------
    def _counter(self, u: "Unit", width: int) -> str:
        g = self.glyphs
        reduced = g.reduced if u.strength < u.max_strength else ""
        letter = self.letters.get(u.side, "?")
        if width <= 3:
            return f"{letter}{u.strength}{reduced}"[:width]
        return f"{letter} {u.kind[:3]} {u.strength}{reduced}"[:width]

    def _face(self, h: Hex) -> Face:
        face = self._faces.get(h)
        if face is not None:
            return face
        g, pal, game = self.glyphs, self.palette, self.game
        m = game.map
        units = [u for u in game.state.units.values() if u.hex == h and u.alive]
        units.sort(key=lambda u: u.id)
        mk = self.marks.get(h, Marks())
        terrain = g.terrain_glyph(m.terrain_at(h))
        road = g.road if m.on_road(h) else ""
        slots: list[tuple[str, Style | None]] = []
        side_style = pal.sides[self.side_index.get(units[0].side, 0) % len(pal.sides)] if units else None
        flags = ""
        if mk.target:
            flags += g.target
        if mk.contact:
            flags += g.contact
        if mk.reach is not None:
            flags += f"{g.reach}{mk.reach}"
        elif mk.line:
            flags += g.line
        if self.zoom == 0:
            if units:
                text = self._counter(units[0], 2 if (flags or len(units) > 1) else 3)
                extra = g.stack if len(units) > 1 else (flags[:1] if flags else "")
                slots.append((f"{text}{extra}"[:3].ljust(3), side_style))
            elif mk.reach is not None:
                slots.append((f"{g.reach}{mk.reach}"[:3].center(3), pal.reach))
            elif flags:
                slots.append((flags[:3].center(3), pal.target if mk.target else pal.line))
            else:
                slots.append((f"{terrain}{road}".center(3), None))
        else:
            label = m.label(h)
            sel = g.selected if self.selected == h else " "
            slots.append((f"{sel}{label}"[:5].ljust(5), pal.selected if sel != " " else pal.label))
            if units:
                slots.append((self._counter(units[0], 7).ljust(7), side_style))
            else:
                slots.append(("", None))
            stack = f"{g.stack}{len(units) - 1}" if len(units) > 1 else ""
            marked = g.marked if any(u.marks for u in units) else ""
            slots.append((f" {terrain}{road} {stack}{marked}".ljust(7)[:7], None))
            style = pal.target if mk.target else pal.contact if mk.contact and mk.reach is None else pal.reach
            slots.append((flags[:5].center(5) if flags else "", style))
        face = Face(slots)
        self._faces[h] = face
        return face

    # --- painting -------------------------------------------------------------------------
    def _canvas_line(self, y: int) -> Strip:
        cached = self._lines.get(y)
        if cached is not None:
            return cached
        lay = self.layout_
        pal, g, m = self.palette, self.glyphs, self.game.map
        row = lay.cells[y] if 0 <= y < lay.height else []
        base = self.rich_style
        chars: list[tuple[str, Style]] = []
        slot_text: dict[int, tuple[str, Style | None]] = {}
        # Slots on this line: x -> character, style (each hex's face looked at once).
        seen: set[Hex] = set()
        for cell in row:
            if cell is None or cell.side is not None or cell.hex in seen:
                continue
            seen.add(cell.hex)
            for i, (text, style) in enumerate(self._face(cell.hex).slots):
                slot = lay.slot(cell.hex, i)
                if slot is None or slot[1] != y or not text:
                    continue
                sx, _, width = slot
                for k, ch in enumerate(text[:width]):
                    slot_text[sx + k] = (ch, style)
        cursor = self.cursor
        selected = self.selected
        combine = self._combined
        blank = (" ", self.get_component_rich_style("hex-map--blank", partial=True))
        for x, cell in enumerate(row):
            if cell is None:
                chars.append(blank)
                continue
            if cell.side is None:
                terrain_style = pal.terrain_style(m.terrain_at(cell.hex))
                ch, style = slot_text.get(x, (" ", None))
                chars.append((ch, combine(base, terrain_style, style)))
                continue
            a, b = cell.side.hex, _other(cell.side)
            feats = m.hexside_features.get(cell.side)
            glyph = g.feature_glyph(feats) if feats else None
            extra = pal.cursor if cursor in (a, b) else pal.selected if selected is not None and selected in (a, b) else None
            chars.append((glyph or cell.char, combine(base, pal.feature if glyph else pal.border, extra)))
        segments = _merge(chars)
        strip = Strip(segments, len(chars))
        self._lines[y] = strip
        return strip

    def _combined(self, a: Style, b: Style, c: Style | None) -> Style:
        key = (id(a), id(b), id(c))  # the cache keeps a, b, c alive, so ids stay unique
        hit = self._styles.get(key)
        if hit is None:
            hit = self._styles[key] = (a + b + c if c is not None else a + b, a, b, c)
        return hit[0]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        strip = self._canvas_line(scroll_y + y)
        return strip.crop_extend(scroll_x, scroll_x + width, self.rich_style)

    # --- mouse ----------------------------------------------------------------------------
    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x = offset.x + int(self.scroll_offset.x)
        y = offset.y + int(self.scroll_offset.y)
        h = self.layout_.hex_at(x, y)
        if h is None:
            return
        self.cursor = h
        self.post_message(self.HexClicked(self, h))


def _other(side: Hexside) -> Hex:
    return hex_neighbor(side.hex, side.dir)


def _merge(chars: list[tuple[str, Style]]) -> list[Segment]:
    out: list[Segment] = []
    text: list[str] = []
    current: Style | None = None
    for ch, style in chars:
        if style != current and text:
            out.append(Segment("".join(text), current))
            text = []
        current = style
        text.append(ch)
    if text:
        out.append(Segment("".join(text), current))
    return out
