"""The battle report: after each battle of step 8, what was fought and how it came out, in the
words of ``engine/rulesets/fow/words.py`` (forces, every modifier and roll, losses, retreats,
captures, trophies, exhaustion; ``campaign_flow.report_text``). The game screen waits for the
player to close it, so a battle the computer fought is read before the computer plays on."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hexwar.plaintext import plain_text

from .describe import ascii_only


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


__all__ = ["BattleReportScreen"]
