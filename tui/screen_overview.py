"""The overview: the whole map small, both armies on it, the part the game screen shows framed,
and a cursor to jump there.

Each hex is two characters: a unit's side letter (with ``+`` for a stack) or the terrain glyph of
the scenario's glyph table. Hexes on screen in the game are underlined (and tinted where there
is colour), so the frame reads without colour too. The map key below is built from the scenario.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from hexwar.engine import Game
from hexwar.engine.hexgrid import Hex, offset_to_axial
from hexwar.engine.ruleset import Ruleset
from hexwar.mapglyphs import choose_glyphs, legend, unit_drawing

from .glyphs import Glyphs
from .themes import MapPalette


def overview_text(game: Game, visible: set[Hex], cursor: Hex, glyphs: Glyphs,
                  palette: MapPalette) -> Text:
    """The whole map in two characters per hex; rows of a pointy map are pushed half a hex."""
    m = game.map
    g = choose_glyphs(game.scenario)
    order = list(game.state.side_order or [s.id for s in game.scenario.sides])
    on_hex: dict[tuple[int, int], list] = {}
    for u in game.state.units.values():
        if u.alive and u.hex is not None:
            on_hex.setdefault(tuple(u.hex), []).append(u)
    frame = palette.selected + Style(underline=True)
    text = Text(no_wrap=True)
    w = m.label_width
    ruler = "".join(f"{c + 1:<10d}" for c in range(0, m.width, 5)).rstrip()
    text.append(" " * (w + 1) + ruler + "\n", palette.label)
    for row in range(m.height):
        text.append(f"{row + 1:0{w}d} ", palette.label)
        if m.orientation == "pointy" and row % 2 == (1 if m.parity == "odd" else 0):
            text.append(" ")
        for col in range(m.width):
            h = Hex(*offset_to_axial(col, row, m.orientation, m.parity))
            units = on_hex.get(tuple(h), [])
            if units:
                top = units[0]
                cell = g.sides.get(top.side, "?") + (glyphs.stack if len(units) > 1 else " ")
                style = palette.sides[order.index(top.side) % len(palette.sides)] if top.side in order else Style()
            else:
                cell = g.terrain.get(m.terrain_at(h), "?") + " "
                style = palette.terrain_style(m.terrain_at(h)) + palette.glyph
            if h in visible:
                style = style + frame
            if h == cursor:
                style = style + palette.cursor
            text.append(cell, style)
        text.append("\n")
    return text


def key_text(game: Game, glyphs: Glyphs) -> str:
    """The map key of this scenario: sides, terrain, hexsides, roads, unit types, markers."""
    g = choose_glyphs(game.scenario)
    rows = ["sides: " + ", ".join(f"{g.sides[s.id]} {s.name}" for s in game.scenario.sides)]
    for group, entries in legend(game.scenario, g):
        rows.append(f"{group}: " + ", ".join(f"{c} {name}" for c, name in entries))
    facing = " facing arrow after the strength," if unit_drawing(game.scenario).facing else ""
    rows.append(f"counter: type letter and strength,{facing} {glyphs.reduced} reduced, "
                f"{glyphs.stack} more units in the hex, {glyphs.marked} has acted")
    rows.append(f"selected unit: {glyphs.reach}N reach at cost N, {glyphs.target} target, "
                f"{glyphs.contact} enemy zone of control, {glyphs.line} line to the cursor")
    if type(game.ruleset).unit_zones is not Ruleset.unit_zones:
        rows[-1] += ", zones " + " ".join(f"{glyphs.zone(z)} {z}" for z in ("front", "flank", "rear"))
    return "\n".join(rows)


class Overview(ModalScreen[Hex | None]):
    """The whole map; arrows move the cursor, enter jumps there, esc goes back."""

    BINDINGS = [Binding("escape,v", "close", "Back"), Binding("enter,space", "jump", "Jump here"),
                Binding("k", "key", "Map key"),
                Binding("up,w,k", "move(0,-1)", "Up", show=False),
                Binding("down,x,j", "move(0,1)", "Down", show=False),
                Binding("left,a,h", "move(-1,0)", "Left", show=False),
                Binding("right,d,l", "move(1,0)", "Right", show=False)]
    DEFAULT_CSS = """
    Overview { align: center middle; }
    Overview > Vertical { width: 100%; max-width: 110; height: auto; max-height: 100%;
                          border: round $primary; background: $panel; padding: 0 1; }
    Overview #overview-scroll { width: 100%; height: auto; }
    Overview #overview-map { width: auto; }
    Overview #overview-key { width: 100%; color: $text-muted; }
    """

    def __init__(self, game: Game, visible: set[Hex], cursor: Hex, glyphs: Glyphs,
                 palette: MapPalette) -> None:
        super().__init__()
        self.game, self.in_view, self.at = game, visible, cursor
        self.glyphs, self.palette = glyphs, palette
        self.show_key: bool | None = None  # None: shown when it fits beside the whole map

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.game.scenario.title}: whole map · arrows move · enter jumps · "
                        "k map key · esc back", classes="dialog-title", markup=False)
            with VerticalScroll(id="overview-scroll", can_focus=False):
                yield Static(self._text(), id="overview-map")
            yield Static(key_text(self.game, self.glyphs), id="overview-key", markup=False)

    def on_mount(self) -> None:
        self._fit()
        row = self.game.map.offset(self.at)[1]
        self.call_after_refresh(self.query_one("#overview-scroll").scroll_to,
                                y=max(0, row - 5), animate=False)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The map scrolls when the terminal is shorter than it; the key shows when the whole
        map fits with it, and otherwise on ``k``."""
        key = self.query_one("#overview-key", Static)
        inner = max(20, min(110, self.size.width) - 4)
        key_lines = sum(-(-len(line) // inner) for line in key_text(self.game, self.glyphs).splitlines()) + 1
        map_lines = self.game.map.height + 1
        if self.show_key is None:
            key.display = map_lines + key_lines + 4 <= self.size.height
        else:
            key.display = self.show_key
        room = self.size.height - (key_lines if key.display else 0) - 4
        self.query_one("#overview-scroll").styles.max_height = max(3, room)

    def action_key(self) -> None:
        self.show_key = not self.query_one("#overview-key", Static).display
        self._fit()

    def _text(self) -> Text:
        return overview_text(self.game, self.in_view, self.at, self.glyphs, self.palette)

    def action_move(self, dx: int, dy: int) -> None:
        m = self.game.map
        col, row = m.offset(self.at)
        col = max(0, min(m.width - 1, col + dx))
        row = max(0, min(m.height - 1, row + dy))
        self.at = Hex(*offset_to_axial(col, row, m.orientation, m.parity))
        self.query_one("#overview-map", Static).update(self._text())
        scroll = self.query_one("#overview-scroll", VerticalScroll)
        scroll.scroll_to(y=max(0, row + 1 - scroll.size.height // 2), animate=False)

    def action_jump(self) -> None:
        self.dismiss(self.at)

    def action_close(self) -> None:
        self.dismiss(None)
