"""The lockstep session: one player's end of a networked match.

Both peers run the same engine. Only the side the rules name (``Game.to_act``) may issue the next
order; the other peer validates it with its own engine, applies it, and answers with its state
digest. Orders that roll dice go through commit-reveal (design.md section 5)::

    acting peer A                         peer B
    order{seq, order, commit=H(nA)}  -->  validates; journals nB; 
                                     <--  nonce{seq, nB}
    applies with seed(nA, nB)
    reveal{seq, nA, digest}          -->  checks H(nA) == commit; applies; compares digests
                                     <--  ack{seq, digest}

Orders without dice carry the digest directly (``order{seq, order, digest}`` then ``ack``). Acks
are cumulative and may wait for the receiver's own next message; a peer has at most
``protocol.WINDOW`` orders of its own unacknowledged, so the two peers are at most that many
orders apart, and a dropped link is repaired by ``resume``: each side says how many orders it
holds, the one ahead resends the missing ``record``s, and a half-done dice exchange is simply
restarted with the same order, commitment and nonce (both were journaled before being sent).

A secret plan (engine/secret.py) never travels as an ``order``: ``commit_plan`` sends its
commitment in a ``seal``, ``reveal_plan`` opens it in an ``unseal`` once every side has sealed;
the binding to this match and the checks are in ``secret_plans.py``.

A phase in which the side to act has nothing to decide (``engine.forced.forced_order``) passes
without a message of its own: with ``auto_pass`` on, the peer the engine names as to act sends the
one possible order as an ordinary order (digest-checked like any other), and the other peer only
waits; it never sends an order for the side to act, and would be refused if it did. Each peer, and
each spectator, asks the engine of the position before an order whether it was the only one, so
the "passes by itself" note in every log comes from the shared state, never from the sender's word:
a peer that ends a phase in which it had choices is logged as choosing to end it.

Turn-timer claims are judged by this side's own clock; abuse is bounded by ``limits.Limits``
(chat rate, refusals per link, spectators that stop reading).

Whatever the peer sends that does not fit (schema, sequence, turn, legality, reveal) is refused
with a reason (``error`` message to the peer, a ``refused`` event here) and changes nothing.

The UI drives a session through ``submit``, ``chat``, ``resign``, ``offer_draw``/``accept_draw``
and reads ``SessionEvent``s from ``subscribe`` or ``events()``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable

from . import protocol
from . import secret_plans as sp
from .errors import FramingError, LinkClosed, ProtocolViolation
from .handshake import say_bye
from .limits import Limits, RateLimit
from .link import Link
from .netmatch import NetMatch
from .session_orders import NONCE_BYTES, OrdersAndDice  # noqa: F401 - NONCE_BYTES: re-exported
from .session_plans import SealedPlans
from .session_resume import ResumeAndClock
from .session_talk import TalkAndEnds

log = logging.getLogger("hexwar.net")


@dataclass
class SessionEvent:
    """What the UI shows. ``kind``: applied, chat, status, refused, draw, desync, over."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class Session(OrdersAndDice, SealedPlans, TalkAndEnds, ResumeAndClock):
    """One player's end of a networked match: the state every handler shares, what the UI reads,
    the link it plays over, and the plumbing; the handlers are grouped by concern in
    session_orders.py, session_plans.py, session_talk.py and session_resume.py."""

    def __init__(self, match: NetMatch, side: str, *, role: str = "host", turn_time: int = 0,
                 limits: Limits | None = None, auto_pass: bool = False) -> None:
        self.match = match
        #: send the only possible order of an empty phase without being asked (a human's UI
        #: turns this on; a computer player chooses that order itself)
        self.auto_pass = auto_pass
        self._auto_task: asyncio.Future | None = None
        self._auto_seq = -1  # the seq whose empty phase ``_auto_task`` passes
        self.limits = limits or Limits()
        self.side = side
        sides = [s.id for s in match.scenario.sides]
        self.peer_side = next(s for s in sides if s != side)
        self.role = role
        self.turn_time = turn_time
        self.link: Link | None = None
        self.watchers: list[Link] = []
        self._listeners: list[Callable[[SessionEvent], None]] = []
        self._changed = asyncio.Event()
        self._unacked: dict[int, bytes] = {}
        self._peer_seq: int | None = None
        self._catchup_to: int | None = None
        self._resumed = False
        self._draw_offer: tuple[str, int] | None = None
        self._bye_sent = self._bye_received = False
        # (seq, when it began on our monotonic clock) of the decision now due, whoever's it is:
        # kept across reconnects, and across a restart through the journal's ``clock`` record
        self._decision: tuple[int, float] | None = match.decision_start()
        self._ping_sent: dict[int, float] = {}
        self.rtts: list[float] = []
        self._sent_at: dict[int, tuple[float, bool]] = {}
        self.order_rtts: list[tuple[bool, float]] = []  # (rolled dice, seconds from send to ack)
        #: set to a list by a benchmark: ("submit", seq, dice, t) when an order of ours starts out,
        #: ("applied", seq, side, t) when an order is applied here (perf_counter seconds)
        self.trace: list[tuple[Any, ...]] | None = None
        self.desync: dict[str, Any] | None = None
        self.finished = False
        self.bytes_sent = self.bytes_received = 0
        self.links = 0
        self.handshake_bytes = 0  # hello and SSH-level extras before play, per the links' counters
        self.hello_sizes: list[int] = []  # the handshake payload of each of the latest connections
        self.refusals: list[str] = []  # the latest reasons (at most limits.kept_refusals)
        self.refused = 0  # all refusals
        self._link_refusals = 0
        self._chat = RateLimit(self.limits.chat_burst, self.limits.chat_per_second)
        self._peer_errors = 0
        self._owed_ack: tuple[int, bytes] | None = None  # an ack not sent yet (see _apply_peer)
        self._owed_count = 0
        self._timer: asyncio.Future | None = None
        self._showing: asyncio.Future | None = None  # our own order, sent, not yet synced and shown
        self._dice_waiters: dict[int, list[asyncio.Future]] = {}
        path = match.journal_path
        self.sealed = sp.SealedPlans(None if path is None else path + ".sealed")
        self._plan_messages: dict[str, int] = {}  # round -> seal/unseal messages on this link
        # Set when the peer is a server's referee (``net/referee.py``): it forwards the
        # opponent's orders as live ``record``s, dice included, and may be any number of
        # orders ahead after we were away. A referee's own seats allow any gap too.
        self.referee_peer = False
        self.max_resume_gap: int | None = protocol.WINDOW

    # --- what the UI reads ------------------------------------------------------------------
    @property
    def game(self):  # noqa: ANN201 - hexwar.engine.Game
        return self.match.game

    @property
    def connected(self) -> bool:
        return self.link is not None and self._resumed

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def stopped(self) -> bool:
        """Play cannot go on: finished, or a desync was found."""
        return self.finished or self.desync is not None

    @property
    def my_turn(self) -> bool:
        return not self.over and self.desync is None and self.game.to_act() == self.side

    @property
    def can_act(self) -> bool:
        """True when ``submit`` would go ahead at once."""
        return (self.my_turn and self.connected and len(self._unacked) < protocol.WINDOW
                and self.match.mine is None and self._showing is None
                and self._catchup_to is None)

    def subscribe(self, callback: Callable[[SessionEvent], None]) -> None:
        self._listeners.append(callback)

    async def events(self) -> AsyncIterator[SessionEvent]:
        queue: asyncio.Queue[SessionEvent] = asyncio.Queue()
        self.subscribe(queue.put_nowait)
        while True:
            yield await queue.get()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait for a state change that makes ``predicate`` true; False on timeout."""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        while not predicate():
            self._changed.clear()
            left = None if end is None else end - loop.time()
            if left is not None and left <= 0:
                return False
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                return predicate()
        return True

    # --- the transport side -----------------------------------------------------------------
    def announce(self, text: str, **data: Any) -> None:
        """A status line from the transport (who connected, gave up...) for the UI."""
        self._emit("status", text, **data)

    def add_watcher(self, link: Link) -> None:
        """A spectator that has received the history: it gets every record from now on."""
        self.watchers.append(link)
        if self.over:
            self._broadcast_end()

    async def run_link(self, link: Link) -> str:
        """Play over ``link`` (handshake already done) until it drops or the match is finished.
        Returns why it stopped: finished, desync, or the link's reason."""
        if self.link is not None and self.link is not link:
            old = self.link
            self._detach(old)
            old.close()
        self.link = link
        link.start_play()
        self.links += 1
        self.handshake_bytes += link.bytes_sent + link.bytes_received
        self.hello_sizes = (self.hello_sizes + [link.bytes_sent + link.bytes_received])[-16:]
        self._resumed = False
        self._catchup_to = None
        self._bye_sent = False  # a bye is exchanged on one link; a lost one is said again
        self._link_refusals = self._peer_errors = 0
        self._owed_ack, self._owed_count = None, 0  # resume says how far we got
        self._plan_messages = {}
        if self._timer is None and self.turn_time and not self.referee_peer:  # a referee keeps time itself
            self._timer = asyncio.ensure_future(self._clock())
        why = "link closed"
        try:
            await link.send(protocol.message("resume", seq=self.match.seq, digest=self._digest(),
                                             end=self.match.end))
            while not self.stopped and not link.closed:
                try:
                    frame = await link.recv()
                except FramingError as exc:
                    self._refused(exc.reason, "frame")
                    why = f"refused: {exc.reason}"
                    await say_bye(link, why)
                    break
                await self._dispatch(frame)
                if self._link_refusals >= self.limits.refusals_per_link:
                    why = f"refused: {self._link_refusals} refused messages on one connection"
                    await say_bye(link, why)
                    break
                if self.stopped:
                    why = "finished" if self.finished else "desync"
                    break
        except LinkClosed as exc:
            why = exc.reason
        finally:
            self._detach(link)
            link.close()
        return why

    def _detach(self, link: Link) -> None:
        self.bytes_sent += link.bytes_sent
        self.bytes_received += link.bytes_received
        link.bytes_sent = link.bytes_received = 0
        if self.link is link:
            self.link = None
            self._resumed = False
            self._catchup_to = None
            if (self.over and self._bye_sent and not self._unacked and self.desync is None
                    and self._peer_seq == self.match.seq):
                # Our farewell went out with both sides known to hold the final state; whether
                # the peer's reached us no longer matters.
                self.finished = True
                self.match.mark_finished()
            if not self.stopped:
                self._emit("status", "the opponent is disconnected; waiting for them to reconnect",
                           connected=False)
            self._poke()

    async def _dispatch(self, frame: Any) -> None:
        if self._showing is not None:  # our own order is shown first, then what followed it
            await asyncio.shield(self._showing)
        kind = frame.get("type") if isinstance(frame, dict) else None
        kind = kind[:16] if isinstance(kind, str) else None
        try:
            msg = protocol.parse(frame)
            handler = getattr(self, "_on_" + msg["type"].replace("-", "_"), None)
            if handler is None:
                raise ProtocolViolation(f"'{msg['type']}' is not expected during play")
            if msg["type"] not in ("resume", "ping", "pong", "chat", "bye", "error") and not self._resumed:
                raise ProtocolViolation(f"'{msg['type']}' before 'resume'")
            await handler(msg)
        except ProtocolViolation as exc:
            self._refused(exc.reason, kind or "?")
            await self._send(protocol.message("error", reason=exc.reason[:500], ref=kind))
        self._poke()

    def _refused(self, reason: str, kind: str) -> None:
        self.refused += 1
        self._link_refusals += 1
        self.refusals = (self.refusals + [reason])[-self.limits.kept_refusals:]
        if self._link_refusals <= self.limits.logged_refusals:
            log.warning("refused %s from %s: %s", kind, self.peer_side, reason)
        elif self._link_refusals == self.limits.logged_refusals + 1:
            log.warning("further refusals from %s on this connection are counted, not logged", self.peer_side)
        self._emit("refused", f"refused the opponent's {kind}: {reason}", reason=reason, ref=kind)

    # --- plumbing ---------------------------------------------------------------------------

    def _fail_waiters(self, exc: Exception) -> None:
        for waiters in self._dice_waiters.values():
            for w in waiters:
                if not w.done():
                    w.set_exception(exc)
        self._dice_waiters.clear()

    def _digest(self) -> bytes:
        return bytes.fromhex(self.game.digest())

    def _short(self) -> bytes:
        return protocol.short_digest(self.game.digest())

    def _result_text(self) -> str:
        r = self.match.result or {}
        return f"winner {r.get('winner') or 'nobody (draw)'}: {r.get('reason', '')}"

    def _emit(self, kind: str, text: str, /, **data: Any) -> None:
        ev = SessionEvent(kind, text, data)
        for cb in list(self._listeners):
            try:
                cb(ev)
            except Exception:  # a UI callback must not break the session
                log.exception("session event listener failed")
        self._poke()

    def _poke(self) -> None:
        self._changed.set()

    async def _send(self, message: dict[str, Any]) -> None:
        link = self.link
        if link is None:
            return  # resume repairs whatever this message would have carried
        owed, self._owed_ack, self._owed_count = self._owed_ack, None, 0
        if owed is not None and message["type"] != "order":
            await self._try_send(link, protocol.message("ack", seq=owed[0], digest=owed[1]))
        await self._try_send(link, message)

    async def _send_owed_ack(self) -> None:
        owed = self._owed_ack
        if owed is not None:
            self._owed_ack, self._owed_count = None, 0
            await self._send(protocol.message("ack", seq=owed[0], digest=owed[1]))

    async def _try_send(self, link: Link, message: dict[str, Any]) -> None:
        try:
            await link.send(message)
        except LinkClosed:
            pass

    def _broadcast(self, message: dict[str, Any]) -> None:
        """To every spectator, in order, without waiting: a slow spectator never holds up play,
        and one that leaves too much unread is dropped."""
        for w in list(self.watchers):
            if not w.post(message, max_backlog=self.limits.spectator_backlog):
                log.info("dropped a spectator that stopped reading (or left)")
                self.watchers.remove(w)

    def _broadcast_end(self) -> None:
        self._broadcast(protocol.message("end", result=self.match.result, seq=self.match.seq,
                                         digest=self._short()))

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._auto_task is not None:
            self._auto_task.cancel()
        if self.link is not None:
            self.link.close()
        for w in self.watchers:
            w.close()
        self.match.close()

    def summary(self) -> dict[str, Any]:
        """The figures a headless run prints (``--json``)."""
        sent = self.bytes_sent + (self.link.bytes_sent if self.link else 0)
        received = self.bytes_received + (self.link.bytes_received if self.link else 0)
        status = "desync" if self.desync else "finished" if self.finished else \
            "over" if self.over else "interrupted"
        return {"status": status, "result": self.match.result, "orders": self.match.seq,
                "digest": self.game.digest(), "side": self.side, "role": self.role,
                "bytes_sent": sent, "bytes_received": received, "connections": self.links,
                "hello_bytes": self.handshake_bytes, "hello_bytes_last": (self.hello_sizes or [0])[-1],
                "refused": self.refused, "journal": self.match.journal_path,
                "desync": self.desync, "turn": self.game.state.turn}
