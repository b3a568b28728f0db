"""The campaign map of a Flames of War campaign: the 36 points with terrain, roads, railway,
rivers and crossings, objectives and both sides' groups, then supply, resources, weather and
initiative, and every group in words (``engine/rulesets/fow/mapview.py``). ``b`` lists this
game's battle reports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hexwar.plaintext import plain_text

from .describe import ascii_only, phase_title, side_name

if TYPE_CHECKING:
    from .screen_game import GameScreen


def campaign_text(game: Any, marked: int | None = None) -> str:
    from hexwar.engine.rulesets.fow import mapview as mv
    state = game.state
    who = game.to_act()
    head = (f"Campaign map · T{state.turn}/{game.scenario.turns} · {phase_title(game)} · "
            f"{side_name(game, who) if who else 'game over'} to act")
    lines = [head, ""] + mv.map_lines(game, marked) + [""] + mv.legend(game) + [""] + mv.side_panel(game)
    lines += [""] + mv.group_lines(game)
    return "\n".join(lines)


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
        from .screen_battle_report import BattleReportScreen
        self.app.push_screen(BattleReportScreen(self.reports, "Battle reports of this game"))

    def action_close(self) -> None:
        self.dismiss(None)


def open_campaign(screen: "GameScreen") -> None:
    game = screen.session.game
    if game.ruleset.id != "fow":
        screen.notify("This game has no campaign map: v shows the whole map.", severity="warning")
        return
    from hexwar.engine.rulesets.fow import geo
    from .screen_battle_report import all_reports
    marked = geo.point_at(tuple(screen.map_view.cursor))
    screen.app.push_screen(CampaignScreen(campaign_text(game, marked), all_reports(screen)))


__all__ = ["CampaignScreen", "campaign_text", "open_campaign"]
