"""The replay viewer: step a saved game forward and back, or jump to a turn.

The journal is replayed once (verifying every digest) and the state after each order kept,
so stepping back is instant. Nothing here can change the game or the file.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import Hex
from hexwar.match import replay, scenario_from_header
from hexwar.journal import damage_notice, read_journal
from hexwar.plaintext import plain_line, plain_text

from ._hex_map import HexMapView
from .describe import event_text, order_text, side_lines, side_name
from .glyphs import ASCII, UNICODE
from .screen_dialogs import AskText


class ReplayData:
    """Every position of a journal: ``games[k]`` is the game after ``k`` orders."""

    def __init__(self, path: Path) -> None:
        contents = read_journal(path, salvage=True)  # a damaged save shows its good part
        self.path = path
        #: what the viewer tells about a damaged save (which record, how many orders), else ""
        self.notice = damage_notice(contents, path.name)
        self.games: list[Game] = []
        self.orders: list[tuple[str, Order]] = []
        self.events: list[list[dict]] = [[]]

        def keep(number: int, game: Game, events: list[dict]) -> None:
            self.games.append(game.copy())
            self.events.append(events)
            rec = contents.records[number - 1]
            self.orders.append((rec.get("side", ""), Order.from_wire(rec["order"])))

        self.games.append(Game(scenario_from_header(str(path), contents.header)))
        replay(str(path), contents, verify=True, on_order=keep)


class ReplayScreen(Screen):
    BINDINGS = [
        Binding("right,d,l,space", "step(1)", "Forward"), Binding("left,a,h", "step(-1)", "Back"),
        Binding("pagedown", "step(10)", "+10", show=False), Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "goto(0)", "Start"), Binding("end", "goto(-1)", "End"),
        Binding("t", "turn", "Jump to turn"), Binding("plus,equals_sign", "zoom(1)", "Zoom in", show=False),
        Binding("minus", "zoom(-1)", "Zoom out", show=False), Binding("escape,m", "menu", "Menu"),
    ]

    def __init__(self, data: ReplayData) -> None:
        super().__init__()
        self.data = data
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="turnbar", markup=False)
        with Horizontal(id="main"):
            yield HexMapView(self.data.games[0], glyphs=ASCII if self.app.ascii else UNICODE,
                             palette=self.app.hexwar_theme, id="map")
            with Vertical(id="panel"):
                yield Static("", id="info", markup=False)
                yield Static("", id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HexMapView).focus()
        self.show_step()

    def show_step(self) -> None:
        game = self.data.games[self.index]
        n = len(self.data.orders)
        s = game.state
        bar = (f"REPLAY {self.data.path.name} · order {self.index}/{n} · turn {s.turn} · "
               f"phase {s.phase or '-'} · {side_name(game, s.active)} phasing")
        if game.over:
            res = s.result or {}
            bar += f" · over: {side_name(game, res.get('winner'))} — {res.get('reason', '')}"
        self.query_one("#turnbar", Static).update(plain_line(bar))  # the file's names and reasons
        info = []
        if self.index:
            side, order = self.data.orders[self.index - 1]
            before = self.data.games[self.index - 1]
            info.append(f"{side_name(before, side)}: {order_text(before, order)}")
            dice = "die" if self.app.ascii else "\u2684"
            info += ["  " + event_text(game, ev, dice) for ev in self.data.events[self.index]]
            path_or_unit = order.get("unit")
            u = game.state.units.get(path_or_unit) if isinstance(path_or_unit, str) else None
            if u is not None and u.hex is not None:
                self.query_one(HexMapView).cursor = Hex(*u.hex)
        else:
            info.append("start of the game (right / d: next order)")
        self.query_one("#info", Static).update(plain_text("\n".join(info)))
        self.query_one("#status", Static).update(plain_text("\n".join(side_lines(game))))
        self.query_one(HexMapView).show(game)

    def action_step(self, delta: int) -> None:
        self.action_goto(max(0, min(len(self.data.games) - 1, self.index + delta)))

    def action_goto(self, index: int) -> None:
        self.index = index if index >= 0 else len(self.data.games) - 1
        self.show_step()

    def action_turn(self) -> None:
        self.app.push_screen(AskText("Jump to turn:"), self._to_turn)

    def _to_turn(self, text: str | None) -> None:
        if not text:
            return
        if not text.isdigit():
            self.notify(f"{text!r} is not a turn number", severity="error")
            return
        turn = int(text)
        for i, g in enumerate(self.data.games):
            if g.state.turn >= turn:
                self.action_goto(i)
                return
        self.action_goto(-1)
        self.notify(f"the game ended before turn {turn}", severity="warning")

    def action_zoom(self, delta: int) -> None:
        view = self.query_one(HexMapView)
        view.zoom = view.zoom + delta

    def action_menu(self) -> None:
        self.app.router.go("menu")
