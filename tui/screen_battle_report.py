"""The battle report: after each battle of step 8, what was fought and how it came out, in the
words of ``engine/rulesets/fow/words.py`` (forces, every modifier and roll, losses, retreats,
captures, trophies, exhaustion). The game screen waits for the player to close it, so a battle
the computer fought is read before the computer plays on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hexwar.plaintext import plain_text

from .describe import ascii_only

if TYPE_CHECKING:
    from .screen_game import GameScreen


def _words() -> Any:
    from hexwar.engine.rulesets.fow import words
    return words


def finished_battles(game: Any, events: list[Any]) -> list[tuple[int, int]]:
    """(first, end) event indexes of the battles that are over."""
    spans = _words().battles_in(events)
    if spans and (game.state.vars.get("battle") is not None or game.state.pending):
        spans = spans[:-1]  # the last one still waits for a decision
    return spans


def report_text(game: Any, events: list[Any], spans: list[tuple[int, int]]) -> str:
    words = _words()
    out = []
    for n, (i, j) in enumerate(spans):
        title, lines = words.battle_report(game, events[i:j])
        if len(spans) > 1:
            title = f"{n + 1}/{len(spans)}. {title}"
        out += [title, "-" * min(78, len(title))] + lines + [""]
    return "\n".join(out).rstrip()


class BattleReportScreen(ModalScreen[None]):
    """One or more battle reports; scroll with the arrows, close with enter or esc."""

    BINDINGS = [Binding("escape,enter,q,b", "close", "Close"),
                Binding("down,j,x", "scroll(1)", "Down", show=False),
                Binding("up,k,w", "scroll(-1)", "Up", show=False),
                Binding("pagedown", "scroll(10)", "Page down", show=False),
                Binding("pageup", "scroll(-10)", "Page up", show=False)]

    def __init__(self, text: str, title: str = "Battle report") -> None:
        super().__init__()
        self.text = text
        self.title_text = title

    def compose(self) -> ComposeResult:
        text = plain_text(f"{self.title_text}\n\n{self.text}\n\narrows scroll · enter / esc close")
        if getattr(self.app, "ascii", False):
            text = ascii_only(text)
        with VerticalScroll(classes="dialog wide", id="battle-report"):
            yield Static(text, markup=False, id="battle-report-text")

    def action_scroll(self, step: int) -> None:
        self.query_one("#battle-report", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def offer_reports(screen: "GameScreen") -> bool:
    """Show the battles finished since the last report; True when a report was opened (the game
    screen goes on once it is closed)."""
    game = screen.session.game
    events = screen.session.events
    spans = finished_battles(game, events)
    seen = getattr(screen, "_battles_reported", 0)
    if len(spans) < seen:  # undo took events back
        seen = len(spans)
    new = spans[seen:]
    screen._battles_reported = len(spans)  # type: ignore[attr-defined]
    if not new:
        return False
    screen.app.push_screen(BattleReportScreen(report_text(game, events, new)),
                           lambda _: screen.after_order())
    return True


def all_reports(screen: "GameScreen") -> str:
    game = screen.session.game
    events = screen.session.events
    return report_text(game, events, finished_battles(game, events)) or "No battle has been fought yet."


__all__ = ["BattleReportScreen", "all_reports", "finished_battles", "offer_reports", "report_text"]
