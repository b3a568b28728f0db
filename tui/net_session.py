"""Network games as the terminal UI sees them: what to open, and the session to play.

``NetStart`` says what to open (host, join or watch, with the command line's options).
``NetPlay`` wraps a network session (host or guest) so the game screen can read it like a local
``tui.session.Session`` (``game``, ``scenario``, ``path``, ``is_human``, no undo); ``WatchPlay``
does the same for a spectator's ``Watcher``. Both say ``network = True``, and the game screen
then takes its network part (``net_controls.NetControls``): orders sent with ``submit``, the
session's events shown. ``screen_net_lobby.NetLobbyScreen`` starts the asyncssh host or client
on the app's own event loop and opens the game when the match starts.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .session import HUMAN

REMOTE = "remote"


@dataclass
class NetStart:
    """What to open: ``kind`` host / join / watch, with the command line's options."""

    kind: str
    args: argparse.Namespace


def host_args(scenario: Any, side: str | None = None, port: int = 2222, **kw: Any) -> argparse.Namespace:
    """The options ``hexwar host`` would have, for the main menu and the tests."""
    ns = dict(scenario=scenario, side=side, port=port, bind="0.0.0.0", code=None, watch_code=None,
              turn_time=0, journal=None, resume=None)
    ns.update(kw)
    return argparse.Namespace(**ns)


def join_args(address: str, code: str | None = None, **kw: Any) -> argparse.Namespace:
    ns = dict(address=address, code=code, fingerprint=None, journal=None, resume=None, give_up=300.0,
              server=False)
    ns.update(kw)
    return argparse.Namespace(**ns)


class _EventRelay:
    """Keeps the engine events of applied orders for the log and relays session events to the
    screen, holding those that arrive before a screen listens."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.backlog: list[Any] = []
        self._listeners: list[Callable[[Any], None]] = []

    def _on_event(self, ev: Any) -> None:
        if ev.kind == "applied":
            self.events.extend(ev.data.get("events") or [])
        if not self._listeners:
            self.backlog.append(ev)
        for cb in list(self._listeners):
            cb(ev)

    def subscribe(self, cb: Callable[[Any], None]) -> None:
        self._listeners.append(cb)


class NetPlay(_EventRelay):
    """A network session as the game screen sees it. Orders go through ``submit`` only."""

    spectator = False
    network = True

    def __init__(self, net: Any, *, host: Any = None, runner: asyncio.Future | None = None,
                 invitation: dict[str, Any] | None = None) -> None:
        self.net = net
        self.host = host
        self.runner = runner
        self.invitation = invitation or {}
        self.side: str = net.side
        self.peer_side: str = net.peer_side
        self.players = {net.side: HUMAN, net.peer_side: REMOTE}
        super().__init__()
        net.subscribe(self._on_event)
        net.enable_auto_pass()  # an empty phase of ours passes by itself, as in a local game

    # --- what GameScreen reads ----------------------------------------------------------------
    @property
    def game(self):  # noqa: ANN201
        return self.net.game

    @property
    def scenario(self):  # noqa: ANN201
        return self.net.game.scenario

    @property
    def path(self) -> Path | None:
        p = self.net.match.journal_path
        return Path(p) if p else None

    @property
    def over(self) -> bool:
        return self.net.over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.net.match.result

    @property
    def connected(self) -> bool:
        return self.net.connected

    @property
    def my_turn(self) -> bool:
        return self.net.my_turn

    @property
    def stopped_reason(self) -> str | None:
        return "DESYNC: play stopped" if self.net.desync is not None else None

    can_undo = False

    def undo(self) -> int:
        return 0

    def is_human(self, side: str | None) -> bool:
        return side == self.side

    def close(self) -> None:
        if self.runner is not None and not self.runner.done():
            self.runner.cancel()
        if self.host is not None and self.host.acceptor is not None:
            self.host.acceptor.close()
        self.net.close()


class WatchPlay(_EventRelay):
    """A spectator's view: the watcher replays the host's stream with its own engine."""

    spectator = True
    network = True
    can_undo = False

    def __init__(self, watcher: Any) -> None:
        self.watcher = watcher
        self.runner: asyncio.Future | None = None
        super().__init__()
        self.gone: str | None = None
        self.side = self.peer_side = None
        self.players: dict[str, str] = {}

    def start(self) -> None:
        self.runner = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        from hexwar.net.errors import HexwarNetError
        from hexwar.net.session import SessionEvent
        try:
            await self.watcher.run(self._on_event)
        except HexwarNetError as exc:
            self.gone = exc.reason
        except asyncio.CancelledError:
            raise
        if self.watcher.result is not None:
            self._on_event(SessionEvent("over", "match over", {"result": self.watcher.result}))
        else:
            self.gone = self.gone or "the host closed the connection"
            self._on_event(SessionEvent("status", f"the host is gone: {self.gone}", {"connected": False}))


    @property
    def game(self):  # noqa: ANN201
        return self.watcher.game

    @property
    def scenario(self):  # noqa: ANN201
        return self.watcher.game.scenario

    path = None
    my_turn = False
    stopped_reason = None

    @property
    def over(self) -> bool:
        return self.watcher.result is not None

    @property
    def result(self) -> dict[str, Any] | None:
        return self.watcher.result

    @property
    def connected(self) -> bool:
        return self.gone is None

    def undo(self) -> int:
        return 0

    def is_human(self, side: str | None) -> bool:
        return False

    def close(self) -> None:
        if self.runner is not None and not self.runner.done():
            self.runner.cancel()


class NetLogHandler(logging.Handler):
    """hexwar.net's warnings (a new host key remembered, a refused message) go to the UI, not
    to stderr, which would scribble over the screen."""

    def __init__(self, app: Any) -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.app.net_log(self.format(record))
        except Exception:
            pass


__all__ = ["NetLogHandler", "NetPlay", "NetStart", "WatchPlay", "host_args", "join_args"]
