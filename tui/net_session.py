"""Network games in the terminal UI: the game screen drives a ``hexwar.net.session.Session``.

``NetPlay`` wraps a network session (host or guest) so ``GameScreen`` can read it like a local
``tui.session.Session`` (``game``, ``scenario``, ``path``, ``is_human``, no undo); ``WatchPlay``
does the same for a spectator's ``Watcher``. ``NetGameScreen`` sends the local player's orders
with ``await session.submit(order)`` in a worker and redraws from the session's events (the peer's
applied orders, status, chat, draw offers, refusals, desync, the end). A campaign's secret plans
use the local plan form and are sealed and opened through the session (``screen_plan.offer_net``).
``NetLobbyScreen`` starts
the asyncssh host or client on the app's own event loop and opens the game when the match starts.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, RichLog, Static

from hexwar.engine import Order
from hexwar.engine.forced import forced_order
from hexwar.engine.orders import IllegalOrderError

from . import keys
from .describe import order_text, passes_by_itself, side_name
from .screen_dialogs import AskText, Confirm, Message
from .screen_game import GameScreen
from .session import HUMAN

if TYPE_CHECKING:
    from .app import HexwarApp

REMOTE = "remote"
log = logging.getLogger("hexwar.net")


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


# --- the game screen ---------------------------------------------------------------------------

def net_bindings() -> list[Binding]:
    return [Binding(s.keys, s.action, s.short or s.description, show=s.show, id=name)
            for name, s in keys.NET_KEYS.items()]


class NetGameScreen(GameScreen):
    """The game screen over the network: only the local side's orders, and only on its turn."""

    BINDINGS = keys.bindings() + net_bindings()
    app: "HexwarApp"

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.sending = False
        self._victory_shown = False
        self._draw_dialog = False

    def on_mount(self) -> None:
        # Textual runs GameScreen.on_mount as well (after this one): set up once it has.
        self.call_after_refresh(self._net_mount)

    def _net_mount(self) -> None:
        s = self.session
        if s.spectator:
            self._log("SPECTATING: read-only; orders, chat and undo are off.")
        else:
            self._log(f"network game: you play {side_name(s.game, s.side)} against "
                      f"{side_name(s.game, s.peer_side)}. ! chat · R resign · D draw offer/answer · no undo")
        applied = False
        for ev in s.backlog:  # before the screen listened; applied orders are in the events
            if ev.kind == "applied":
                applied = True
                if ev.data.get("automatic"):
                    rec = ev.data.get("record")
                    self._log(passes_by_itself(s.game, rec["side"] if rec else ev.data.get("side"),
                                               ev.data.get("phase")))
            else:
                self._on_net(ev, replay=True)
        s.backlog.clear()
        s.subscribe(self._on_net)
        if applied:  # e.g. an empty phase passed by itself while the screen was being built
            self._changed()
        else:
            self.refresh_all()
            if not s.spectator and not s.over:
                from .screen_plan import offer_net
                offer_net(self)  # a campaign may start with our secret deployment

    def _log(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    # --- what GameScreen asks ---------------------------------------------------------------
    def _log_new_events(self) -> None:
        from .describe import event_text
        events = self.session.events
        dice = "die" if self.app.ascii else "\u2684"
        log_ = self.query_one("#log", RichLog)
        for ev in events[self.logged:]:
            log_.write(event_text(self.session.game, ev, dice))
        self.logged = len(events)

    def action_log(self) -> None:
        from .describe import event_text
        game = self.session.game
        dice = "die" if self.app.ascii else "\u2684"
        text = "\n".join(event_text(game, ev, dice) for ev in self.session.events) or "(no events yet)"
        self.app.push_screen(Message("Event log", text))

    def _update_turnbar(self) -> None:
        """``T8/12 · Move · your turn`` first (or who is awaited), then what fits the width."""
        from .describe import fit, phase_title
        s = self.session
        game = s.game
        st = game.state
        dot = self.dot
        first = [f"T{st.turn}/{game.scenario.turns}", phase_title(game)]
        extras = []
        if s.spectator:
            first.insert(0, "SPECTATING (read-only)")
            first.append(f"{side_name(game, game.to_act())} to act")
            if s.over:
                first[-1] = "GAME OVER"
            elif not s.connected:
                extras.append("host gone")
        else:
            if s.stopped_reason:
                first.append(s.stopped_reason)
            elif s.over:
                first.append("GAME OVER")
            elif not s.connected:
                first.append("opponent disconnected — reconnecting…")
            elif s.my_turn:
                first.append("your turn" + (" · sending…" if self.sending else ""))
            else:
                from .screen_plan import waiting_words
                first.append(waiting_words(game, s.side) or f"waiting for {side_name(game, s.peer_side)}")
            extras.append(f"you: {side_name(game, s.side)}")
        if self.digits:
            from .campaign_points import jump_width
            need = jump_width(game)
            extras.insert(0, f"jump to {self.digits}{'_' * (need - len(self.digits))}")
        if st.pending:
            extras.append(f"decide: {st.pending[0].get('kind', '?').replace('-', ' ')}")
        extras.append(game.scenario.title)
        self._set("#turnbar", fit(first, extras, dot, self.size.width - 2), layout=False)

    def _my_turn(self) -> bool:
        s = self.session
        game = s.game
        if s.spectator:
            self.notify("Spectating: the game is read-only.", severity="warning")
            return False
        if s.stopped_reason:
            self.notify(f"{s.stopped_reason}; no more orders.", severity="error")
            return False
        if s.over:
            self.notify("The match is over.", severity="warning")
            return False
        if not s.my_turn:
            self.app.bell()
            self.notify(f"Not your turn: waiting for {side_name(game, game.to_act())}.", severity="warning")
            return False
        if not s.connected:
            self.app.bell()
            self.notify("The opponent is disconnected: you cannot act until they reconnect.",
                        severity="warning")
            return False
        if self.sending:
            self.notify("Your last order is still on its way.", severity="warning")
            return False
        if s.net.auto_pass and forced_order(game) is not None:
            self.notify("Nothing to decide in this phase: it passes by itself.")
            return False
        return True

    def play(self, order: Order) -> bool:
        if not self._my_turn():
            return False
        self.sending = True
        self._update_turnbar()
        self.run_worker(self._submit(order), group="net-submit", exit_on_error=False)
        return True

    async def _submit(self, order: Order) -> None:
        from hexwar.net.errors import HexwarNetError
        try:
            await self.session.net.submit(order)
        except IllegalOrderError as exc:
            self.app.bell()
            self.notify(f"Refused: {exc.reason}", severity="error")
        except HexwarNetError as exc:
            self.app.bell()
            self.notify(f"Refused: {exc.reason}", severity="error")
        except OSError as exc:
            self.notify(f"Could not save the order: {exc}", severity="error")
        finally:
            self.sending = False
            if self.is_mounted:
                self._update_turnbar()

    def after_order(self) -> None:
        s = self.session
        if s.over:
            if not self._victory_shown:
                self._victory_shown = True
                from .screen_victory import VictoryScreen
                self.app.push_screen(VictoryScreen(s))
            return
        from .screen_plan import offer_net
        if offer_net(self):  # a campaign's battle reports and secret plans (tui/screen_plan.py)
            return
        if s.spectator or s.game.to_act() != s.side:
            return
        game = s.game
        if game.state.pending and self._shown_decision != game.state.seq and s.connected:
            self._shown_decision = game.state.seq
            self.open_decision()

    def action_orders(self) -> None:
        game = self.session.game
        if game.ruleset.secret_round(game) is not None and not self.session.spectator:
            if self._my_turn():
                self._plan_busy = None  # o opens the form again after esc
                self.after_order()
            return
        super().action_orders()

    def computer_turn(self) -> None:  # never: the other side plays on its own machine
        return

    def action_help(self) -> None:
        from .screen_help import HelpScreen
        self.app.push_screen(HelpScreen(network=True))

    def action_undo(self) -> None:
        self.notify("No undo in network games: an order is final once the opponent has it.",
                    severity="warning")

    # --- session events -----------------------------------------------------------------------
    def _on_net(self, ev: Any, replay: bool = False) -> None:
        try:
            self._handle(ev, replay)
        except Exception as exc:  # the screen may be closing; never break the session
            log.debug("net event not shown: %r", exc)

    def _handle(self, ev: Any, replay: bool) -> None:
        s = self.session
        kind = ev.kind
        if kind == "applied":
            rec = ev.data.get("record")
            if ev.data.get("automatic"):
                side = rec["side"] if rec is not None else ev.data.get("side")
                self._log(passes_by_itself(s.game, side, ev.data.get("phase")))
            if rec is not None:
                order = Order.from_wire(rec["order"])
                mark = ">" if rec["side"] == s.side else "<"
                self._log(f"{mark} {side_name(s.game, rec['side'])}: {order_text(s.game, order)}")
            else:  # a spectator's record: "seq: side order"
                _, _, rest = ev.text.partition(": ")
                side, _, text = rest.partition(" ")
                try:
                    text = order_text(s.game, Order.from_text(text))
                except Exception:  # the raw wire text is still worth showing
                    pass
                self._log(f"< {side_name(s.game, side)}: {text}")
            if not replay:
                self._changed()
            return
        if kind == "chat":
            self._log(f"[chat] {ev.text}")
            if not ev.data.get("mine") and not replay:
                self.notify(ev.text, title="chat")
        elif kind == "draw":
            self._log(f"[draw] {ev.text}")
            if ev.data.get("offer") and not replay:
                self._draw_offered()
            elif not ev.data.get("offer"):
                self.notify(ev.text)
        elif kind == "status":
            self._log(f"[net] {ev.text}")
            if ev.data.get("connected") is False and not s.over:
                self.notify("The opponent is disconnected.", severity="warning")
            elif ev.data.get("connected") is True:
                self.notify(ev.text)
        elif kind == "refused":
            self._log(f"[refused] {ev.text}")
        elif kind == "desync":
            self._log(f"[DESYNC] {ev.text}")
            self.app.push_screen(Message("Desync: play stopped", ev.text))
        elif kind == "over":
            self._log(f"[end] {ev.text}")
        else:
            self._log(f"[{kind}] {ev.text}")
        if not replay:
            self.refresh_all()
            if kind == "over":
                self.after_order()
            elif kind == "status" and ev.data.get("connected") is True and not s.spectator:
                from .screen_plan import offer_net
                offer_net(self)  # a plan that waited for the link

    # --- chat, resign, draw -----------------------------------------------------------------
    def action_chat(self) -> None:
        if self.session.spectator:
            self.notify("Spectators cannot chat (read-only).", severity="warning")
            return
        self.app.push_screen(AskText(f"Say to {side_name(self.session.game, self.session.peer_side)}:"),
                             self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if text:
            self.run_worker(self.session.net.chat(text), group="net-chat", exit_on_error=False)

    def action_resign(self) -> None:
        s = self.session
        if s.spectator or s.over:
            self.notify("Nothing to resign." if s.over else "Spectating: read-only.", severity="warning")
            return
        self.app.push_screen(Confirm("Resign?", f"{side_name(s.game, s.peer_side)} wins the match."),
                             self._resign)

    def _resign(self, yes: bool | None) -> None:
        if yes:
            self.run_worker(self.session.net.resign(), group="net-resign", exit_on_error=False)

    def action_draw(self) -> None:
        s = self.session
        if s.spectator or s.over:
            self.notify("The match is over." if s.over else "Spectating: read-only.", severity="warning")
            return
        if s.net.peer_offers_draw:
            self._draw_offered()
            return
        if not s.connected:
            self.notify("The opponent is disconnected.", severity="warning")
            return
        self.app.push_screen(Confirm("Offer a draw?", "The opponent may accept or decline."), self._offer)

    def _offer(self, yes: bool | None) -> None:
        if yes:
            self._log("[draw] you offer a draw")
            self.run_worker(self.session.net.offer_draw(), group="net-draw", exit_on_error=False)

    def _draw_offered(self) -> None:
        if self._draw_dialog:
            return
        self._draw_dialog = True
        s = self.session
        self.app.push_screen(Confirm("Draw offered", f"{side_name(s.game, s.peer_side)} offers a draw. Accept?"),
                             self._answer_draw)

    def _answer_draw(self, yes: bool | None) -> None:
        self._draw_dialog = False
        self.run_worker(self._draw_reply(bool(yes)), group="net-draw", exit_on_error=False)

    async def _draw_reply(self, yes: bool) -> None:
        try:
            if yes:
                await self.session.net.accept_draw()
            else:
                await self.session.net.decline_draw()
                self._log("[draw] you decline the draw")
        except IllegalOrderError as exc:
            self.notify(f"Refused: {exc.reason}", severity="error")

    def action_menu(self) -> None:
        s = self.session
        if s.over or s.spectator:
            self.app.back_to_menu()
            return
        text = ("The match stays on the server, your seat kept for you:\ncome back to it from the lobby."
                if getattr(self.app, "served", False) else   # no server paths or CLI advice over ssh
                "The opponent sees you disconnect. The match is journaled in\n"
                f"{s.path}\nand can be continued with --resume.")
        self.app.push_screen(Confirm("Leave the network game?", text),
                             lambda yes: yes and self.app.back_to_menu())



# --- starting a network game ------------------------------------------------------------------

class NetLobbyScreen(Screen):
    """Start hosting, joining or watching; show the invitation while the guest connects."""

    BINDINGS = [Binding("escape", "leave", "Cancel")]
    app: "HexwarApp"

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
        self.query_one("#lobby-text", Static).update(text)

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
            self.app.net_error = why
            self.say(f"Could not start: {why}")
            self.app.push_screen(Message("Network game", f"Could not start: {why}"),
                                 lambda _: self.app.back_to_menu())
            return
        if play is None:
            return
        self.parts = []
        self.app.net_error = None
        self.app._play(play)

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
        self.app.back_to_menu()


class NetLogHandler(logging.Handler):
    """hexwar.net's warnings (a new host key remembered, a refused message) go to the UI, not
    to stderr, which would scribble over the screen."""

    def __init__(self, app: "HexwarApp") -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.app.net_log(self.format(record))
        except Exception:
            pass


__all__ = ["NetGameScreen", "NetLobbyScreen", "NetPlay", "NetStart", "WatchPlay", "host_args", "join_args"]
