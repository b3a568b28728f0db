"""The player aid: the ruleset's sequence of play (the current step marked), its combat and hit
tables, terrain effects and unit types, as the ruleset gives them (``Ruleset.player_aid``)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hexwar.engine import Game
from hexwar.plaintext import plain_text

from .describe import ascii_only, phase_title, plain


def aid_text(game: Game) -> str:
    """The whole aid as text; the engine marks the current step of play with ``> ``."""
    out = [f"Player aid: {game.ruleset.title or game.ruleset.id} · now: turn {game.state.turn}, "
           f"{phase_title(game)}"]
    for title, lines in game.player_aid():
        out += ["", title, "-" * len(title)]
        out += [plain(game, line) if not line.startswith(("> ", "  ")) else line[:2] + plain(game, line[2:])
                for line in lines]
    return "\n".join(out)


class PlayerAidScreen(ModalScreen[None]):
    """Read-only tables for the current ruleset; scroll with the arrows, close with esc."""

    BINDINGS = [Binding("escape,p,q,enter", "close", "Close"),
                Binding("down,j", "scroll(1)", "Down", show=False),
                Binding("up,k", "scroll(-1)", "Up", show=False)]

    def __init__(self, game: Game, ascii: bool = False) -> None:
        super().__init__()
        self.game = game
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="aid"):
            text = plain_text(aid_text(self.game) + "\n\narrows scroll · esc / p close")  # the file's names
            yield Static(ascii_only(text) if self.ascii else text, markup=False, id="aid-text")

    def action_scroll(self, step: int) -> None:
        self.query_one("#aid", VerticalScroll).scroll_relative(y=step * 3, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
