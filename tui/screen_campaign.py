"""The campaign map of a Flames of War campaign: the 36 points with terrain, roads, railway,
rivers and crossings, objectives and both sides' groups, then supply, resources, weather and
initiative, and every group in words (``engine/rulesets/fow/mapview.py``; the text is
``campaign_flow.campaign_text``). ``b`` lists this game's battle reports."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hexwar.plaintext import plain_text

from .describe import ascii_only


class CampaignScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,enter,q,C", "close", "Close"),
                Binding("b", "battles", "Battle reports"),
                Binding("down,j,x", "scroll(1)", "Down", show=False),
                Binding("up,k,w", "scroll(-1)", "Up", show=False)]

    def __init__(self, text: str, reports: str) -> None:
        super().__init__()
        self.text = text
        self.reports = reports

    def compose(self) -> ComposeResult:
        text = plain_text(self.text + "\n\nb battle reports · arrows scroll · esc close")
        if getattr(self.app, "ascii", False):
            text = ascii_only(text)
        with VerticalScroll(classes="dialog wide", id="campaign"):
            yield Static(text, markup=False, id="campaign-text")

    def action_scroll(self, step: int) -> None:
        self.query_one("#campaign", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_battles(self) -> None:
        self.app.router.go("battle-report", self.reports, "Battle reports of this game")

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["CampaignScreen"]
