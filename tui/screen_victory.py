"""The end of a match: who won and why (``state.result``), and what each side has left."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from hexwar.plaintext import plain_text

from .describe import side_lines, side_name
from .session import Session


class VictoryScreen(Screen):
    BINDINGS = [Binding("m,escape", "menu", "Main menu"), Binding("r", "replay", "Replay this game"),
                Binding("q", "app.quit", "Quit")]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        game = self.session.game
        result = getattr(self.session, "result", None) or game.state.result or {}
        winner = result.get("winner")
        head = f"{side_name(game, winner)} wins" if winner else "Draw"
        lines = [f"*** {head} ***", "", f"Reason: {result.get('reason', '(not given)')}",
                 f"Turn {game.state.turn}, {game.state.seq} orders", ""] + side_lines(game)
        if self.session.path:
            lines += ["", f"Saved as {self.session.path}"]
        with Vertical(classes="dialog", id="victory"):
            yield Static(plain_text("\n".join(lines)), markup=False, id="result")  # a peer's reason
        yield Footer()

    def action_menu(self) -> None:
        self.app.router.go("menu")

    def action_replay(self) -> None:
        if self.session.path is None:
            self.notify("This game was not saved, so it cannot be replayed.", severity="warning")
            return
        self.app.router.go("replay", self.session.path)
