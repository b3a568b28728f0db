"""The Textual application: owns the theme, the character set and the current session, and
moves between the menu, the game, the victory screen and the replay viewer."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Iterable

from textual.app import App, SystemCommand
from textual.screen import Screen

from hexwar.engine.levels import DEFAULT_LEVEL, Player
from hexwar.engine.scenario import Scenario
from hexwar.journal import JournalError
from hexwar.plaintext import plain_text

from . import keys
from ._hex_map import HexMapView
from .glyphs import ASCII, UNICODE
from .screen_dialogs import Message
from .screen_menu import MenuScreen
from .session import Session, new_journal_path
from .ascii_screen import set_ascii_screen
from .themes import HIGH_CONTRAST, MONOCHROME, TEXTUAL_THEME, THEMES, default_theme, strip_colour


class HexwarApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "hexwar"

    def __init__(self, *, scenario: Scenario | None = None, players: dict[str, str] | None = None,
                 load: Path | None = None, replay: Path | None = None, theme: str | None = None,
                 ascii: bool = False, save: bool = True, extra_scenarios: list[Scenario] | None = None,
                 session: Session | None = None, net=None, served: str | None = None,
                 ai_level: str = DEFAULT_LEVEL) -> None:
        super().__init__()
        strip_colour(self)  # NO_COLOR: no colour codes at all
        self.served = served  # the player's name when ``hexwar serve`` runs this app for them
        self.ai_level = ai_level  # how well the computer plays ("basic" or "strong")
        self.hexwar_theme = theme or ("monochrome" if self.no_color else default_theme())
        self.ascii = ascii
        if ascii:
            set_ascii_screen(self, True)  # borders, key row, toasts: ASCII too
        self.save = save
        self.session: Session | None = None
        self.computers: dict[str, Player] = {}
        self.extra_scenarios = extra_scenarios or []
        self._start = (scenario, players, load, replay)
        self._given_session = session  # a match prepared elsewhere (tests, a network session)
        self._net_start = net  # tui.net_session.NetStart: host / join / watch from the command line
        self.net_error: str | None = None  # why the last network game could not start
        self._log_handler = None
        #: printed after the app exits: where the last game is saved and how to resume it
        self.farewell = ""

    def on_mount(self) -> None:
        self.set_class(self.ascii, "-ascii")
        self.register_theme(HIGH_CONTRAST)
        self.register_theme(MONOCHROME)
        self.theme = TEXTUAL_THEME[self.hexwar_theme]
        self.push_screen(MenuScreen())
        scenario, players, load, replay = self._start
        self._route_net_logs()
        if self._net_start is not None:
            self.open_network(self._net_start)
        elif self._given_session is not None:
            self._play(self._given_session)
        elif scenario is not None:
            self.start_game(scenario, players or {})
        elif load is not None:
            self.load_game(load)
        elif replay is not None:
            self.open_replay(replay)

    # --- moving between screens ---------------------------------------------------------------
    def _to_menu_stack(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def back_to_menu(self) -> None:
        self._close_session()
        self._to_menu_stack()
        if self.farewell:
            self.notify(self.farewell, timeout=8)

    def _close_session(self) -> None:
        if self.session is not None:
            farewell = getattr(self.session, "farewell", None)
            self.farewell = farewell() if callable(farewell) else ""
            if self.served and self.farewell:  # a served player comes back over ssh, not a file
                saved = getattr(self.session, "saved", False)
                self.farewell = ("Your game is kept on the server: choose 'Load a saved game' when you "
                                 "come back." if saved else "No order was played, so nothing was kept.")
            self.session.close()
            self.session = None

    def _play(self, session) -> None:  # noqa: ANN001 - Session, or a tui.net_session adapter
        from .screen_game import GameScreen
        self._close_session()
        self.session = session
        self.computers = {}
        self._to_menu_stack()
        if getattr(session, "network", False):
            from .net_session import NetGameScreen
            self.push_screen(NetGameScreen(session))
        else:
            self.push_screen(GameScreen(session))

    # --- network games ---------------------------------------------------------------------
    def open_network(self, start) -> None:  # noqa: ANN001 - tui.net_session.NetStart
        """Host, join or watch: the asyncssh side runs on this app's event loop."""
        from .net_session import NetLobbyScreen
        self._close_session()
        self._to_menu_stack()
        self.push_screen(NetLobbyScreen(start))

    def _route_net_logs(self) -> None:
        """While the UI owns the terminal, hexwar.net's warnings go to the game log, not stderr."""
        import logging
        from .net_session import NetLogHandler
        root = logging.getLogger()
        self._saved_handlers = [h for h in root.handlers if getattr(h, "stream", None) is not None
                                and getattr(h.stream, "name", "") in ("<stderr>", "<stdout>")]
        for h in self._saved_handlers:
            root.removeHandler(h)
        self._log_handler = NetLogHandler(self)
        self._log_handler.setFormatter(logging.Formatter("%(message)s"))
        logging.getLogger("hexwar.net").addHandler(self._log_handler)

    def net_log(self, text: str) -> None:
        from textual.widgets import RichLog
        for screen in reversed(self.screen_stack):
            for log in screen.query("#log"):
                if isinstance(log, RichLog):
                    log.write(plain_text(f"[net] {text}"))
                    return
        self.notify(text, severity="warning")

    def notify(self, message: str, *, title: str = "", severity: str = "information",  # type: ignore[override]
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notice is plain text: many carry words from outside (a peer's chat, a refusal's
        reason, a scenario's names), and Textual would otherwise read them as markup, where
        ``[@click=...]`` runs an action. ``markup`` is accepted and ignored."""
        super().notify(plain_text(message), title=plain_text(title), severity=severity,  # type: ignore[arg-type]
                       timeout=timeout, markup=False)

    def start_game(self, scenario: Scenario, players: dict[str, str]) -> None:
        players = {s.id: players.get(s.id, "human") for s in scenario.sides}
        try:
            path = new_journal_path(scenario.id) if self.save else None
            session = Session.new(scenario, players, path)
        except OSError as exc:
            self.push_screen(Message("Cannot start", f"Cannot create the save file: {exc}"))
            return
        self._play(session)

    def load_game(self, path: Path) -> None:
        try:
            session = Session.load(path)
        except (JournalError, OSError) as exc:
            self.push_screen(Message("Cannot load this game", str(exc)))
            return
        self._play(session)
        if session.load_warning:
            self.push_screen(Message("The save was damaged at its end", session.load_warning))

    def open_replay(self, path: Path) -> None:
        from .screen_replay import ReplayData, ReplayScreen
        try:
            data = ReplayData(Path(path))
        except (JournalError, OSError) as exc:
            self.push_screen(Message("Cannot replay this game", str(exc)))
            return
        self._close_session()
        self._to_menu_stack()
        self.push_screen(ReplayScreen(data))

    # --- appearance ------------------------------------------------------------------------
    def _map_views(self) -> Iterable[HexMapView]:
        for screen in self.screen_stack:
            yield from screen.query(HexMapView)

    def set_hexwar_theme(self, name: str) -> None:
        self.hexwar_theme = name
        self.theme = TEXTUAL_THEME[name]
        for view in self._map_views():
            view.set_palette(name)

    def set_ascii(self, value: bool) -> None:
        self.ascii = value
        self.set_class(value, "-ascii")
        set_ascii_screen(self, value)
        for view in self._map_views():
            view.set_glyphs(ASCII if value else UNICODE)

    def get_key_display(self, binding) -> str:  # noqa: ANN001 - textual Binding
        """With ``--ascii`` keys are named in plain letters (``enter``, not a return arrow)."""
        if self.ascii:
            first = binding.key.split(",")[0]
            return keys.display(first).replace("ctrl+", "^")
        return super().get_key_display(binding)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette offers every game action and the four themes."""
        from .screen_game import GameScreen
        for command in super().get_system_commands(screen):
            if self.served and command.title == "Screenshot":
                continue  # it would write a file on the server, outside the player's folder
            yield command
        for name in THEMES:
            yield SystemCommand(f"Theme: {name}", f"Switch to the {name} theme",
                                partial(self.set_hexwar_theme, name))
        yield SystemCommand("Toggle ASCII map", "Plain ASCII characters for the map",
                            lambda: self.set_ascii(not self.ascii))
        if isinstance(screen, GameScreen):
            for spec in keys.table().values():
                yield SystemCommand(spec.description.split(" (")[0].capitalize(),
                                    f"keys: {keys.display(spec.keys)}",
                                    partial(screen.run_action, spec.action))
            if getattr(screen.session, "network", False):
                for spec in keys.NET_KEYS.values():
                    yield SystemCommand(spec.description.split(" (")[0].capitalize(),
                                        f"keys: {keys.display(spec.keys)}",
                                        partial(screen.run_action, spec.action))

    def on_unmount(self) -> None:
        self._close_session()
        if self._log_handler is not None:
            import logging
            logging.getLogger("hexwar.net").removeHandler(self._log_handler)
            for h in getattr(self, "_saved_handlers", []):
                logging.getLogger().addHandler(h)
