"""The UI's one map: every screen by name, and how a player moves between them.

A screen never imports another screen or the app. It asks for a place by name,
``self.app.router.go("victory", session)``, or for a dialog it owns (``dialogs``); the router
builds the screen and pushes it, with ``then`` as its dismiss callback. Two kinds of names:

- places, which leave whatever was on top of the main menu first: ``menu``, ``game`` (a local or
  network session), ``new-game``, ``load``, ``network`` (host, join or watch starting),
  ``replay``;
- screens pushed on top of the current one: every other name in ``SCREENS``.

The app owns one router, the session being played and the appearance; the router owns the order
of the screens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from textual.app import App

from hexwar.journal import JournalError

from .screen_aid import PlayerAidScreen
from .screen_battle_report import BattleReportScreen
from .screen_campaign import CampaignScreen
from .screen_dialogs import Message
from .screen_game import GameScreen
from .screen_help import HelpScreen
from .screen_lobby import ServedLobbyScreen, ServedSideDialog
from .screen_menu import (HostSideDialog, LevelDialog, MenuScreen, SavedGamePicker, ScenarioPicker, SettingsScreen,
                          SidesDialog)
from .screen_net_lobby import NetLobbyScreen
from .screen_overview import Overview
from .screen_plan import HandOverScreen, PlanScreen
from .screen_replay import ReplayData, ReplayScreen
from .screen_victory import VictoryScreen
from .session import Session, new_journal_path

#: the screens pushed on top of the current one, by the name a screen asks for
SCREENS: dict[str, Callable[..., Any]] = {
    "scenarios": ScenarioPicker, "sides": SidesDialog, "level": LevelDialog, "host-side": HostSideDialog,
    "saved-games": SavedGamePicker, "settings": SettingsScreen,
    "lobby": ServedLobbyScreen, "served-side": ServedSideDialog,
    "victory": VictoryScreen, "help": HelpScreen, "aid": PlayerAidScreen, "overview": Overview,
    "campaign": CampaignScreen, "battle-report": BattleReportScreen,
    "plan": PlanScreen, "hand-over": HandOverScreen,
}
#: the places: each leaves the screens above the main menu first (the method that goes there)
PLACES = {"menu": "menu", "game": "play", "new-game": "new_game", "load": "load", "network": "network",
          "replay": "replay"}


class Router:
    """Moves the player between the app's screens; knows them all, and the order they stack in."""

    def __init__(self, app: App) -> None:
        self.app = app

    def go(self, name: str, *args: Any, then: Callable[[Any], None] | None = None, **kwargs: Any) -> None:
        """Open the place or screen called ``name``; ``then`` gets what a pushed screen returns."""
        if name in PLACES:
            getattr(self, PLACES[name])(*args, **kwargs)
            return
        self.app.push_screen(SCREENS[name](*args, **kwargs), then)

    # --- places ------------------------------------------------------------------------------
    def start(self) -> None:
        """The bottom of every stack: the main menu."""
        self.app.push_screen(MenuScreen())

    def _to_menu_stack(self) -> None:
        while len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    def menu(self) -> None:
        """Back to the main menu, closing the game (it is saved); say where it is kept."""
        app = self.app
        app.close_session()
        self._to_menu_stack()
        if app.farewell:
            app.notify(app.farewell, timeout=8)

    def play(self, session: Any) -> None:
        """A game screen for ``session``: a local ``Session`` or a network one (``net_session``)."""
        app = self.app
        app.close_session()
        app.session = session
        app.computers = {}
        self._to_menu_stack()
        app.push_screen(GameScreen(session))

    def new_game(self, scenario: Any, players: dict[str, str]) -> None:
        players = {s.id: players.get(s.id, "human") for s in scenario.sides}
        try:
            path = new_journal_path(scenario.id) if self.app.save else None
            session = Session.new(scenario, players, path)
        except OSError as exc:
            self.app.push_screen(Message("Cannot start", f"Cannot create the save file: {exc}"))
            return
        self.play(session)

    def load(self, path: Path) -> None:
        try:
            session = Session.load(path)
        except (JournalError, OSError) as exc:
            self.app.push_screen(Message("Cannot load this game", str(exc)))
            return
        self.play(session)
        if session.load_warning:
            self.app.push_screen(Message("The save was damaged", session.load_warning))

    def network(self, start: Any) -> None:
        """Host, join or watch (``net_session.NetStart``): the asyncssh side runs on the app's loop."""
        self.app.close_session()
        self._to_menu_stack()
        self.app.push_screen(NetLobbyScreen(start))

    def replay(self, path: Path) -> None:
        try:
            data = ReplayData(Path(path))
        except (JournalError, OSError) as exc:
            self.app.push_screen(Message("Cannot replay this game", str(exc)))
            return
        self.app.close_session()
        self._to_menu_stack()
        self.app.push_screen(ReplayScreen(data))
        if data.notice:
            self.app.push_screen(Message("The save is damaged", f"{data.notice} Loading it with hexwar "
                                         f"play --load repairs it, keeping the original beside it."))


__all__ = ["PLACES", "SCREENS", "Router"]
