"""Starting a network game: host, join or watch, until the match begins.

The asyncssh host or client runs as a task on the app's own event loop (an app worker, so
leaving this screen does not cancel it); once the link is up the router opens the game screen
with the session (``net_session.NetPlay`` / ``WatchPlay``). While a host waits, the screen shows
the invitation: address, port, key fingerprint, invite code and the line the guest types.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from hexwar.plaintext import plain_text

from .net_session import NetPlay, NetStart, WatchPlay
from .screen_dialogs import Message


class NetLobbyScreen(Screen):
    """Start hosting, joining or watching; show the invitation while the guest connects."""

    BINDINGS = [Binding("escape", "leave", "Cancel")]

    def __init__(self, start: NetStart) -> None:
        super().__init__()
        self.start = start
        self.parts: list[Any] = []  # things to close if the player gives up waiting
        self.invitation: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        title = {"host": "Hosting a network game", "join": "Joining a network game",
                 "watch": "Watching a network game"}[self.start.kind]
        with Vertical(classes="dialog wide", id="lobby"):
            yield Label(title, classes="dialog-title")
            yield Static("starting…", id="lobby-text", markup=False)
            yield Label("esc: cancel", classes="dialog-hint")
        yield Footer()

    @property
    def text(self) -> str:
        return str(self.query_one("#lobby-text", Static).render())

    def say(self, text: str) -> None:
        self.query_one("#lobby-text", Static).update(plain_text(text))  # a refusal's reason is the peer's

    def on_mount(self) -> None:
        self.app.run_worker(self._connect(), group="net-connect", exit_on_error=False)

    async def _connect(self) -> None:
        from hexwar.errors import UserError
        from hexwar.journal import JournalError
        from hexwar.net.errors import HexwarNetError
        from hexwar.scenarios.loader import ScenarioError
        try:
            play = await {"host": self._host, "join": self._join, "watch": self._watch}[self.start.kind]()
        except asyncio.CancelledError:
            self._close_parts()
            raise
        except (HexwarNetError, UserError, ScenarioError, JournalError, OSError) as exc:
            self._close_parts()
            why = getattr(exc, "reason", None) or getattr(exc, "message", None) or str(exc)
            if isinstance(exc, OSError):
                why = f"network: {exc.strerror or exc}"
            self.app.net_error = plain_text(why)  # the peer's words, printed by the command line too
            self.say(f"Could not start: {why}")
            self.app.push_screen(Message("Network game", f"Could not start: {why}"),
                                 lambda _: self.app.router.go("menu"))
            return
        if play is None:
            return
        self.parts = []
        self.app.net_error = None
        self.app.router.go("game", play)

    async def _host(self) -> NetPlay | None:
        from hexwar.net.runner import open_host
        session, host, inv, text = await open_host(self.start.args)
        self.parts = [session, host]
        self.invitation = inv
        play = NetPlay(session, host=host, invitation=inv)
        self.parts = [play]
        self.say(f"{text}\n\nWaiting for the guest to connect… (give them the join line above)")
        await session.wait_until(lambda: session.connected or session.stopped)
        return play

    async def _join(self) -> NetPlay | None:
        from hexwar.net.client import Guest
        from hexwar.net.runner import parse_address
        from hexwar.net.keys import data_dir
        a = self.start.args
        opener = getattr(a, "opener", None)  # a served match: the server's local socket
        host, port = (a.address, 0) if opener else parse_address(a.address, 2222)
        self.say(f"connecting to {a.address if opener else f'{host}:{port}'}…")
        guest = Guest(host, port, home=data_dir(), code=a.code, fingerprint=getattr(a, "fingerprint", None),
                      journal=getattr(a, "journal", None), resume=getattr(a, "resume", None), opener=opener,
                      server=getattr(a, "server", False))
        runner = asyncio.ensure_future(guest.run(give_up=getattr(a, "give_up", 300.0)))
        self.parts = [runner]
        play = None
        if guest.session is not None:  # --resume: the session exists before the first link
            play = NetPlay(guest.session, runner=runner)
            self.parts = [play]
        waiter = asyncio.ensure_future(guest.connected.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            waiter.cancel()
            runner.result()  # raises the refusal
        assert guest.session is not None
        if play is None:
            play = NetPlay(guest.session, runner=runner)
            self.parts = [play]
        await guest.session.wait_until(lambda: guest.session.connected or guest.session.stopped
                                       or runner.done(), timeout=15)
        if runner.done() and runner.exception() is not None:
            runner.result()
        return play

    async def _watch(self) -> WatchPlay | None:
        from hexwar.net.client import Watcher
        from hexwar.net.runner import parse_address
        from hexwar.net.keys import data_dir
        a = self.start.args
        opener = getattr(a, "opener", None)
        host, port = (a.address, 0) if opener else parse_address(a.address, 2222)
        self.say(f"connecting to {a.address if opener else f'{host}:{port}'} as a spectator…")
        watcher = Watcher(host, port, home=data_dir(), code=a.code, fingerprint=getattr(a, "fingerprint", None),
                          opener=opener)
        play = WatchPlay(watcher)
        play.start()
        self.parts = [play]
        while watcher.game is None:
            assert play.runner is not None
            if play.runner.done():
                play.runner.result()
                from hexwar.net.errors import LinkClosed
                raise LinkClosed(play.gone or "the host closed the connection")
            await asyncio.sleep(0.05)
        return play

    def _close_parts(self) -> None:
        for p in self.parts:
            try:
                if isinstance(p, asyncio.Future):
                    p.cancel()
                elif hasattr(p, "acceptor"):
                    if p.acceptor is not None:
                        p.acceptor.close()
                else:
                    p.close()
            except Exception:  # closing what half-started must not raise
                pass
        self.parts = []

    def action_leave(self) -> None:
        self.app.workers.cancel_group(self.app, "net-connect")
        self._close_parts()
        self.app.router.go("menu")


__all__ = ["NetLobbyScreen"]
