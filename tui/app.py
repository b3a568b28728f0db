"""The Textual application: owns the theme, the character set, the session being played and the
router (``router.Router``), which moves the player between the screens. Only the command line
imports this module."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Iterable

from textual import events
from textual.app import App, SystemCommand
from textual.screen import ModalScreen, Screen

from hexwar.engine.levels import DEFAULT_LEVEL, Player
from hexwar.engine.scenario import Scenario
from hexwar.plaintext import plain_text

from . import keys
from ._hex_map import HexMapView
from .ascii_screen import set_ascii_screen
from .glyphs import ASCII, UNICODE
from .net_session import NetLogHandler
from .router import Router
from .screen_game import GameScreen
from .session import Session
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
        self._net_start = net  # net_session.NetStart: host / join / watch from the command line
        self.net_error: str | None = None  # why the last network game could not start
        self._log_handler = None
        #: printed after the app exits: where the last game is saved and how to resume it
        self.farewell = ""
        self.router = Router(self)  # every screen, by name, and the way between them

    def on_mount(self) -> None:
        self.set_class(self.ascii, "-ascii")
        self.register_theme(HIGH_CONTRAST)
        self.register_theme(MONOCHROME)
        self.theme = TEXTUAL_THEME[self.hexwar_theme]
        self.router.start()
        scenario, players, load, replay = self._start
        self._route_net_logs()
        go = self.router.go
        if self._net_start is not None:
            go("network", self._net_start)
        elif self._given_session is not None:
            go("game", self._given_session)
        elif scenario is not None:
            go("new-game", scenario, players or {})
        elif load is not None:
            go("load", load)
        elif replay is not None:
            go("replay", replay)

    # --- keys -------------------------------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        """Esc followed quickly by a key (a slow SSH link sends them in one packet) reaches
        Textual as Alt+key, and hexwar binds no Alt key: it is played as Esc, then the key, so
        neither is lost (issue 34 item 13)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            split = esc_then_key(event.key, event.character)
            if split is not None and event.key not in self.active_bindings:
                for key, character in split:
                    self.post_message(events.Key(key, character))
                return
        await super().on_event(event)

    # --- the session being played -----------------------------------------------------------
    def close_session(self) -> None:
        """Close the game being played (it is saved) and remember what to tell the player."""
        if self.session is not None:
            farewell = getattr(self.session, "farewell", None)
            self.farewell = farewell() if callable(farewell) else ""
            if self.served and self.farewell:  # a served player comes back over ssh, not a file
                saved = getattr(self.session, "saved", False)
                self.farewell = ("Your game is kept on the server: choose 'Load a saved game' when you "
                                 "come back." if saved else "No order was played, so nothing was kept.")
            self.session.close()
            self.session = None

    def _route_net_logs(self) -> None:
        """While the UI owns the terminal, hexwar.net's warnings go to the game log, not stderr."""
        import logging
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
        message = plain_text(message)
        if self.size.height < 40:  # a small terminal: the lines of a notice run on, so it covers less map
            message = "; ".join(line.strip() for line in message.splitlines() if line.strip())
        super().notify(message, title=plain_text(title), severity=severity,  # type: ignore[arg-type]
                       timeout=timeout, markup=False)

    def push_screen(self, screen, *args, **kwargs):  # type: ignore[override]
        """A question in a dialog is never read through a notice: notices are drawn above every
        screen, so one still shown would hide part of it (the log keeps what the notice said)."""
        if isinstance(screen, ModalScreen):
            self.clear_notifications()
        return super().push_screen(screen, *args, **kwargs)

    def _on_notify(self, event) -> None:
        """One current notice: a new one replaces those still shown (three hand-overs or three
        accounts of the computer's turn never stack up; the log keeps every one of them)."""
        for old in list(self._notifications):
            self._unnotify(old, refresh=False)
        super()._on_notify(event)

    def action_help_quit(self) -> None:
        """Ctrl+C does not quit; say which key does in plain words (Textual's own hint is markup,
        which ``notify`` above would show with its tags)."""
        keys = [key for key, active in self.active_bindings.items()
                if active.binding.action in ("quit", "app.quit")]
        if keys:
            key = "ctrl+q" if "ctrl+q" in keys else keys[0]
            self.notify(f"Press {key} to quit hexwar.", title="Do you want to quit?")

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
        self.close_session()
        if self._log_handler is not None:
            import logging
            logging.getLogger("hexwar.net").removeHandler(self._log_handler)
            for h in getattr(self, "_saved_handlers", []):
                logging.getLogger().addHandler(h)


def esc_then_key(key: str, character: str | None) -> list[tuple[str, str | None]] | None:
    """The two keys behind an Alt+key that was Esc then a key (``alt+x``: esc, x;
    ``alt+shift+e``: esc, E), or None for any other key (ctrl and the like stay as they are).

    >>> [key for key, _ in esc_then_key("alt+shift+e", "E")]
    ['escape', 'E']
    >>> esc_then_key("alt+4", None)[1]
    ('4', '4')
    >>> esc_then_key("ctrl+alt+x", None) is None
    True
    """
    if not key.startswith("alt+"):
        return None
    rest = key[len("alt+"):]
    if rest.startswith("shift+") and len(rest) == len("shift+") + 1 and rest[-1].isalpha():
        rest = rest[-1].upper()
    if len(rest) != 1:
        return None
    return [("escape", "\x1b"), (rest, character or rest)]
