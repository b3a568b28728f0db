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
from hexwar.plaintext import plain_line, plain_text

from .describe import fit
from .glyphs import Glyphs
from .themes import MapPalette


def overview_text(game: Game, visible: set[Hex], cursor: Hex, glyphs: Glyphs,
                  palette: MapPalette, pack: int = 1) -> Text:
    """The whole map in two characters per hex column. With ``pack`` N above 1, one text row
    holds N map rows, so a 40-row map fits a 24-line terminal: a unit's side letter wins over
    terrain (two letters where both armies are), and terrain other than plain ground wins over
    it. With ``pack`` 1, rows of a pointy map are pushed half a hex."""
    m = game.map
    g = choose_glyphs(game.scenario)
    order = list(game.state.side_order or [s.id for s in game.scenario.sides])
    on_hex: dict[tuple[int, int], list] = {}
    for u in game.state.units.values():
        if u.alive and u.hex is not None:
            on_hex.setdefault(tuple(u.hex), []).append(u)
    frame = palette.selected + Style(underline=True)

    def side_style(side: str) -> Style:
        return palette.sides[order.index(side) % len(palette.sides)] if side in order else Style()

    text = Text(no_wrap=True)
    w = m.label_width
    ruler = "".join(f"{c + 1:<10d}" for c in range(0, m.width, 5)).rstrip()
    text.append(" " * (w + 1) + ruler + "\n", palette.label)
    for row in range(0, m.height, pack):
        text.append(f"{row + 1:0{w}d} ", palette.label)
        if pack == 1 and m.orientation == "pointy" and row % 2 == (1 if m.parity == "odd" else 0):
            text.append(" ")
        for col in range(m.width):
            hexes = [Hex(*offset_to_axial(col, r, m.orientation, m.parity))
                     for r in range(row, min(row + pack, m.height))]
            units = [u for h in hexes for u in on_hex.get(tuple(h), [])]
            if units:
                sides = sorted({u.side for u in units}, key=lambda sd: order.index(sd) if sd in order else 99)
                if len(sides) > 1:     # both armies in these hexes: a line of contact
                    for sd in sides[:2]:
                        text.append(g.sides.get(sd, "?"), _framed(side_style(sd), hexes, visible,
                                                                   cursor, frame, palette))
                    continue
                cell = g.sides.get(sides[0], "?") + (glyphs.stack if len(units) > 1 else " ")
                style = side_style(sides[0])
            else:
                terrain = _terrain_of(m, hexes)
                cell = g.terrain.get(terrain, "?") + " "
                style = palette.terrain_style(terrain) + palette.glyph
            text.append(cell, _framed(style, hexes, visible, cursor, frame, palette))
        text.append("\n")
    text.right_crop(1)  # no blank line under the map: it would cost a row at 24 lines
    return text


def _terrain_of(m, hexes: list[Hex]) -> str:  # noqa: ANN001 - a HexMap
    """The terrain a packed cell shows: the first that is not the map's plain ground."""
    kinds = [m.terrain_at(h) for h in hexes]
    return next((t for t in kinds if t != m.default_terrain), kinds[0])


def _framed(style: Style, hexes: list[Hex], visible: set[Hex], cursor: Hex, frame: Style,
            palette: MapPalette) -> Style:
    if any(h in visible for h in hexes):
        style = style + frame
    if cursor in hexes:
        style = style + palette.cursor
    return style


def key_text(game: Game, glyphs: Glyphs, width: int = 0) -> str:
    """The map key of this scenario: sides, terrain, hexsides, roads, unit types, markers. With a
    ``width``, rows wrap between entries, so a glyph never ends a line apart from its name."""
    g = choose_glyphs(game.scenario)
    rows = [("sides", [f"{g.sides[s.id]} {s.name}" for s in game.scenario.sides])]
    for group, entries in legend(game.scenario, g):
        rows.append((group, [f"{c} {name}" for c, name in entries]))
    facing = ["facing arrow after the strength"] if unit_drawing(game.scenario).facing else []
    stands = [f"{glyphs.stand} another stand of the unit whose strength shows at its head or end"] \
        if type(game.ruleset).occupied_hexes is not Ruleset.occupied_hexes else []
    rows.append(("counter", ["type letter and strength", *facing, f"{glyphs.reduced} reduced",
                             f"{glyphs.stack} more units in the hex", *stands, f"{glyphs.marked} has acted"]))
    selected = [f"{glyphs.reach}N reach at cost N", f"{glyphs.target} target",
                f"{glyphs.contact} enemy zone of control", f"{glyphs.line} line to the cursor"]
    if type(game.ruleset).unit_zones is not Ruleset.unit_zones:
        selected.append("zones " + " ".join(f"{glyphs.zone(z)} {z}" for z in ("front", "flank", "rear")))
    rows.append(("selected unit", selected))
    return "\n".join(line for head, entries in rows for line in _entry_lines(head, entries, width))


def _entry_lines(head: str, entries: list[str], width: int) -> list[str]:
    lines, line = [], f"{head}:"
    for i, entry in enumerate(entries):
        piece = entry + ("," if i < len(entries) - 1 else "")
        if width and len(line) + 1 + len(piece) > width and line.strip() != f"{head}:":
            lines.append(line)
            line = "  " + piece
        else:
            line += " " + piece
    return lines + [line]


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
    Overview #overview-title { text-style: bold; }
    """

    def __init__(self, game: Game, visible: set[Hex], cursor: Hex, glyphs: Glyphs,
                 palette: MapPalette) -> None:
        super().__init__()
        self.game, self.in_view, self.at = game, visible, cursor
        self.glyphs, self.palette = glyphs, palette
        self.show_key: bool | None = None  # None: shown when it fits beside the whole map
        self.pack = 1  # map rows per text row (``_fit`` sets it from the terminal's height)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self._title(76), id="overview-title", markup=False)  # no blank line below
            with VerticalScroll(id="overview-scroll", can_focus=False):
                yield Static(self._text(), id="overview-map")
            yield Static(plain_text(key_text(self.game, self.glyphs, 72)), id="overview-key", markup=False)

    def on_mount(self) -> None:
        self._fit()
        row = self.game.map.offset(self.at)[1] // self.pack
        self.call_after_refresh(self.query_one("#overview-scroll").scroll_to,
                                y=max(0, row - 5), animate=False)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Pack map rows two (or more) to a text row when the terminal is shorter than the map, so
        the whole map is always on screen; the key shows when it fits too, and otherwise on ``k``."""
        m = self.game.map
        chrome = 3  # border and title
        self.query_one("#overview-title", Label).update(self._title(min(110, self.size.width) - 4))
        pack = next(p for p in range(1, m.height + 1) if -(-m.height // p) + 1 + chrome <= self.size.height
                    or p == m.height)
        if pack != self.pack:
            self.pack = pack
            self.query_one("#overview-map", Static).update(self._text())
        key = self.query_one("#overview-key", Static)
        inner = max(20, min(110, self.size.width) - 4)
        text = plain_text(key_text(self.game, self.glyphs, inner))  # names from the scenario file
        key.update(text)
        key_lines = len(text.splitlines())
        map_lines = -(-m.height // pack) + 1
        if self.show_key is None:
            key.display = map_lines + key_lines + chrome <= self.size.height
        else:
            key.display = self.show_key
        room = self.size.height - (key_lines if key.display else 0) - chrome
        self.query_one("#overview-scroll").styles.max_height = max(3, room)

    def _title(self, width: int) -> str:
        """What the keys do first, in whole words; the scenario's title when it fits too."""
        first = ["Whole map", "arrows move", "enter jumps", "esc back"]
        sep = " - " if self.glyphs.ascii else " \u00b7 "
        return fit(first, ["k map key", plain_line(self.game.scenario.title)], sep, width)

    def action_key(self) -> None:
        self.show_key = not self.query_one("#overview-key", Static).display
        self._fit()

    def _text(self) -> Text:
        return overview_text(self.game, self.in_view, self.at, self.glyphs, self.palette, self.pack)

    def action_move(self, dx: int, dy: int) -> None:
        m = self.game.map
        col, row = m.offset(self.at)
        col = max(0, min(m.width - 1, col + dx))
        row = max(0, min(m.height - 1, row + dy * self.pack))  # a packed text row at a time
        self.at = Hex(*offset_to_axial(col, row, m.orientation, m.parity))
        self.query_one("#overview-map", Static).update(self._text())
        scroll = self.query_one("#overview-scroll", VerticalScroll)
        scroll.scroll_to(y=max(0, row // self.pack + 1 - scroll.size.height // 2), animate=False)

    def action_jump(self) -> None:
        self.dismiss(self.at)

    def action_close(self) -> None:
        self.dismiss(None)
