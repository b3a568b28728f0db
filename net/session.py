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
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from hexwar.engine import Order, nonce_commitment, secret
from hexwar.engine.forced import forced_order, names_units
from hexwar.engine.orders import Event, IllegalOrderError, InvalidOrderError

from . import protocol
from . import secret_plans as sp
from .errors import Desync, FramingError, HexwarNetError, LinkClosed, NotYourTurn, PeerGone, ProtocolViolation
from .handshake import say_bye
from .limits import Limits, RateLimit
from .link import Link
from .netmatch import NetMatch, Pending

log = logging.getLogger("hexwar.net")
NONCE_BYTES = 16


@dataclass
class SessionEvent:
    """What the UI shows. ``kind``: applied, chat, status, refused, draw, desync, over."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class Session:
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
        self._deadline: float | None = None  # when the peer's time for its decision runs out
        self._deciding_since: float | None = None  # when our own decision began (our clock)
        self._ping_sent: dict[int, float] = {}
        self.rtts: list[float] = []
        self._sent_at: dict[int, tuple[float, bool]] = {}
        self.order_rtts: list[tuple[bool, float]] = []  # (rolled dice, seconds from send to ack)
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
                and self.match.mine is None
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

    # --- what the UI does -------------------------------------------------------------------
    async def submit(self, order: Order) -> list[Event]:
        """Issue a local order. Returns its events once applied here (for a dice order, after
        the peer's nonce arrived). Raises ``NotYourTurn``, ``PeerGone`` or ``IllegalOrderError``.
        A secret plan is not an order here: use ``commit_plan`` and ``reveal_plan``."""
        if order.kind in sp.PLAN_KINDS:
            raise IllegalOrderError("a secret plan goes through commit_plan(plan) and reveal_plan(), "
                                    "which bind it to this match")
        return await self._submit(order)

    async def commit_plan(self, plan: list[list[Any]], secret_part: bytes | None = None) -> list[Event]:
        """Seal ``plan`` for this round: it is checked against the rules first (a plan that
        could never be revealed is refused now), then only its commitment goes out, bound to
        this match and this seq by the salt (secret_plans.py). Plan and salt stay with us.
        ``secret_part``: the salt's secret, drawn before the plan was made from it (a computer)."""
        game = self.game
        rnd = game.ruleset.secret_round(game)
        if rnd is None or secret.stage(rnd) != "commit" or secret.next_side(rnd) != self.side:
            raise NotYourTurn("no plan of this side is being committed now")
        why = secret.plan_problem(plan) or game.ruleset.plan_problem(game, self.side, plan)
        if why:
            raise IllegalOrderError(why)
        if sp.packed_size(plan) > self.limits.plan_bytes:
            raise IllegalOrderError(f"a plan is at most {self.limits.plan_bytes} bytes")
        seq = self.match.seq
        salt = sp.new_salt(self.match.match_id, seq, secret_part)
        bound = secret.binding(game.scenario.source_hash, rnd["round"], self.side)
        digest = secret.commitment(bound, plan, salt)
        self.sealed.put(rnd["round"], self.side, plan, salt)  # kept before the seal leaves
        return await self._submit(sp.commit_order(bytes.fromhex(digest)))

    async def reveal_plan(self) -> list[Event]:
        """Open the plan this side sealed this round (once every side has committed)."""
        game = self.game
        rnd = game.ruleset.secret_round(game)
        if rnd is None or secret.stage(rnd) != "reveal" or secret.next_side(rnd) != self.side:
            raise NotYourTurn("this side has no plan to reveal now (every side commits first)")
        held = self.sealed.get(rnd["round"], self.side)
        if held is None:
            raise IllegalOrderError(f"this side holds no sealed plan for {rnd['round']}")
        return await self._submit(sp.reveal_order(*held))

    async def _submit(self, order: Order) -> list[Event]:
        if self.desync is not None:
            raise Desync("play stopped after a desync")
        if not self.my_turn:
            raise NotYourTurn(f"it is {self.game.to_act() or 'nobody'}'s turn, not yours ({self.side})")
        if not self.connected:
            raise PeerGone("the opponent is not connected; orders wait until they are back")
        await self.wait_until(lambda: len(self._unacked) < protocol.WINDOW or self.stopped or not self.connected)
        if not self.my_turn:
            raise NotYourTurn(f"it is no longer your turn ({self.game.to_act() or 'the match is over'})")
        if not self.can_act:
            raise PeerGone("the link dropped before the order could be sent")
        reason = self.game.validate(order, self.side)
        if reason is not None:
            raise IllegalOrderError(reason)
        seq = self.match.seq
        if not self.game.needs_dice(order):
            passed = self._forced(order)
            events, record = self.match.apply(order, self.side, None)
            self._applied(record, events, passed)
            self._unacked[seq] = protocol.short_digest(record["digest"])
            self._sent_at[seq] = (time.perf_counter(), False)
            await self._send(self._play_message(seq, order, digest=protocol.short_digest(record["digest"])))
            return events
        nonce = os.urandom(NONCE_BYTES)
        pending = Pending(seq, self.side, order, nonce_commitment(nonce), nonce)
        self.match.note("commit", pending)
        self.match.mine = pending
        self._sent_at[seq] = (time.perf_counter(), True)
        waiter = asyncio.get_running_loop().create_future()
        pending_waiters = self._dice_waiters.setdefault(seq, [])
        pending_waiters.append(waiter)
        await self._send_commit()
        return await waiter

    async def chat(self, text: str) -> None:
        text = text[:protocol.MAX_CHAT]
        self._emit("chat", f"{self.side}: {text}", side=self.side, text=text, mine=True)
        await self._send(protocol.message("chat", text=text))
        self._broadcast(protocol.message("chat", text=text, side=self.side))

    async def resign(self) -> None:
        if self.over:
            return
        self._end(self.peer_side, f"{self.side} resigned")
        await self._send(protocol.message("resign", seq=self.match.seq))

    @property
    def peer_offers_draw(self) -> bool:
        """Whether the opponent has a draw offer open that ``accept_draw`` would take now."""
        offer = self._draw_offer
        return offer is not None and offer == (self.peer_side, self.match.seq)

    async def offer_draw(self) -> None:
        if self.over:
            return
        self._draw_offer = (self.side, self.match.seq)
        await self._send(protocol.message("draw", action="offer", seq=self.match.seq))

    async def accept_draw(self) -> None:
        offer = self._draw_offer
        if offer is None or offer[0] != self.peer_side or offer[1] != self.match.seq:
            raise IllegalOrderError("there is no draw offer from the opponent to accept")
        self._end(None, "draw agreed")
        await self._send(protocol.message("draw", action="accept", seq=self.match.seq))

    async def decline_draw(self) -> None:
        self._draw_offer = None
        await self._send(protocol.message("draw", action="decline", seq=self.match.seq))

    async def ping(self) -> None:
        n = len(self._ping_sent) + 1
        self._ping_sent[n] = time.perf_counter()
        await self._send(protocol.message("ping", n=n))

    # --- a referee's seat (net/referee.py) ----------------------------------------------------
    async def forward(self, record: dict[str, Any]) -> None:
        """A referee's seat: pass on an order of the side this session plays, applied to the
        shared match by the referee's other seat. It goes out as a ``record`` (now, or after
        the player's next ``resume``) and waits for the player's ack like our own orders."""
        short = protocol.short_digest(record["digest"])
        self._unacked[record["seq"]] = short
        self._draw_offer = None
        await self._send(protocol.message("record", seq=record["seq"], side=record["side"],
                                          order=record["order"], nonces=record["nonces"], digest=short))

    async def tell(self, message: dict[str, Any]) -> None:
        """A referee's seat: send the player a message the other seat's player sent (chat, a
        resignation, a draw answer), when connected; ``resume`` carries a result later."""
        await self._send(message)

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

    # --- incoming messages ------------------------------------------------------------------
    async def _on_resume(self, msg: dict[str, Any]) -> None:
        if self._resumed:
            raise ProtocolViolation("'resume' sent twice on one connection")
        peer_seq, mine = msg["seq"], self.match.seq
        self._peer_seq = peer_seq
        if self.max_resume_gap is not None and abs(peer_seq - mine) > self.max_resume_gap:
            reason = (f"resume at seq {peer_seq} but this side holds {mine}: the two journals "
                      f"belong to different points of the match")
            self._refused(reason, "resume")
            await self._send(protocol.message("bye", reason=reason))
            if self.link is not None:
                self.link.close()
            return
        if msg.get("end") is not None and not self.over:
            self._adopt_end(msg["end"])
        self._resumed = True
        # The peer holds every order below its seq: ours among them need no further ack (a
        # divergence would show in the digest of the resume or of the next record).
        for seq in [s for s in self._unacked if s < peer_seq]:
            del self._unacked[seq]
        if peer_seq == mine:
            if msg["digest"] != self._digest():
                await self._desync(mine - 1, msg["digest"], "on resume")
                return
        elif peer_seq > mine:
            self._catchup_to = peer_seq
        else:
            for rec in self.match.records[peer_seq:]:
                if rec["side"] != self.side:
                    raise ProtocolViolation("the peer is missing one of its own orders; its journal is behind")
                self._unacked[rec["seq"]] = protocol.short_digest(rec["digest"])
                await self._send(protocol.message("record", seq=rec["seq"], side=rec["side"],
                                                  order=rec["order"], nonces=rec["nonces"],
                                                  digest=protocol.short_digest(rec["digest"])))
        self._emit("status", "connected: play on" if not self.over else "connected", connected=True)
        self._restart_clock(new_decision=False)
        await self._send_commit()
        await self._maybe_bye()
        self._schedule_auto_pass()

    async def _on_order(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "order")
        order = self._peer_order(msg["order"])
        if order.kind in sp.PLAN_KINDS:
            raise ProtocolViolation(f"seq {seq}: a secret plan travels in 'seal' and 'unseal', not in 'order'")
        await self._peer_play(seq, order, msg)

    async def _on_seal(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "seal")
        if await self._too_many_plan_messages("seal"):
            return
        order = sp.commit_order(msg["plan_commit"])
        earlier = sp.seen_commitment(self.match.records, msg["plan_commit"].hex())
        if earlier is not None:
            raise ProtocolViolation(f"seq {seq}: this commitment was already used at seq {earlier}")
        await self._peer_play(seq, order, msg)

    async def _on_unseal(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "unseal")
        if await self._too_many_plan_messages("unseal"):
            return
        if sp.packed_size(msg["plan"]) > self.limits.plan_bytes:
            raise ProtocolViolation(f"seq {seq}: a plan is at most {self.limits.plan_bytes} bytes")
        order = sp.reveal_order(msg["plan"], msg["salt"])
        theirs = self.match.theirs
        if not (theirs is not None and theirs.seq == seq):  # not a resend of an open exchange
            rnd = self.game.ruleset.secret_round(self.game)
            if rnd is not None and secret.stage(rnd) == "reveal" and secret.next_side(rnd) == self.peer_side:
                why = sp.salt_problem(msg["salt"], self.match.match_id,
                                      sp.seal_seq(self.match.records, self.peer_side))
                why = why or secret.reveal_problem(rnd, self.game.scenario.source_hash, self.peer_side,
                                                   msg["plan"], msg["salt"].hex())
                if why:
                    await self._violation(f"seq {seq}: the plan does not open {self.peer_side}'s "
                                          f"commitment: {why}", "unseal")
                    return
        await self._peer_play(seq, order, msg)

    async def _violation(self, reason: str, kind: str) -> None:
        """A breach of a commitment: refused, said in a ``bye``, and the link closed."""
        self._refused(reason, kind)
        if self.link is not None:
            await say_bye(self.link, f"protocol violation: {reason}"[:500])

    async def _too_many_plan_messages(self, kind: str) -> bool:
        """Count a seal or unseal of this round on this link; past the limit the link ends."""
        rnd = self.game.ruleset.secret_round(self.game)
        key = rnd["round"] if rnd else "-"
        self._plan_messages[key] = n = self._plan_messages.get(key, 0) + 1
        if len(self._plan_messages) > 4:  # only the latest rounds matter
            del self._plan_messages[next(iter(self._plan_messages))]
        if n > self.limits.plan_messages_per_round:
            reason = f"{n} plan messages in one round (at most {self.limits.plan_messages_per_round})"
            await self._violation(reason, kind)
            return True
        return False

    async def _peer_play(self, seq: int, order: Order, msg: dict[str, Any]) -> None:
        """The peer's order (``order``, ``seal`` or ``unseal``): a resend of an open dice
        exchange, a dice order to commit to, or an order applied at once."""
        theirs = self.match.theirs
        if theirs is not None and theirs.seq == seq:
            if theirs.order != order or theirs.commit != msg.get("commit"):
                raise ProtocolViolation(f"seq {seq}: this is not the order you committed to")
            await self._send(protocol.message("nonce", seq=seq, nonce=theirs.nonce))
            return
        self._check_legal(order)
        if self.game.needs_dice(order):
            if "commit" not in msg or "digest" in msg:
                raise ProtocolViolation(f"seq {seq}: this order needs dice: send a commitment, not a digest")
            pending = Pending(seq, self.peer_side, order, msg["commit"], os.urandom(NONCE_BYTES))
            self.match.note("peer-commit", pending)
            self.match.theirs = pending
            await self._send(protocol.message("nonce", seq=seq, nonce=pending.nonce))
            return
        if "digest" not in msg or "commit" in msg:
            raise ProtocolViolation(f"seq {seq}: this order needs no dice: send its digest, not a commitment")
        await self._apply_peer(order, None, msg["digest"])

    async def _on_nonce(self, msg: dict[str, Any]) -> None:
        mine = self.match.mine
        if mine is None or mine.seq != msg["seq"]:
            raise ProtocolViolation(f"nonce for seq {msg['seq']}, but no commitment of ours is open for it")
        passed = self._forced(mine.order)
        events, record = self.match.apply(mine.order, self.side, [mine.nonce, msg["nonce"]])
        digest = protocol.short_digest(record["digest"])
        self._unacked[mine.seq] = digest
        self._applied(record, events, passed)
        for waiter in self._dice_waiters.pop(mine.seq, []):
            if not waiter.done():
                waiter.set_result(events)
        await self._send(protocol.message("reveal", seq=mine.seq, nonce=mine.nonce, digest=digest))

    async def _on_reveal(self, msg: dict[str, Any]) -> None:
        theirs = self.match.theirs
        if theirs is None or theirs.seq != msg["seq"]:
            raise ProtocolViolation(f"reveal for seq {msg['seq']}, but no committed order awaits one")
        if nonce_commitment(msg["nonce"]) != theirs.commit:
            raise ProtocolViolation(f"seq {msg['seq']}: the revealed nonce does not match the commitment")
        await self._apply_peer(theirs.order, [msg["nonce"], theirs.nonce], msg["digest"])

    async def _on_record(self, msg: dict[str, Any]) -> None:
        if self._catchup_to is None and not self.referee_peer:
            raise ProtocolViolation("'record' is only accepted while catching up after 'resume'")
        seq = self._expect_seq(msg["seq"], "record")
        if msg["side"] != self.peer_side:
            raise ProtocolViolation(f"seq {seq}: a record for side {msg['side']!r}: you may only resend your own orders")
        order = self._peer_order(msg["order"])
        self._check_legal(order)
        self._check_plan_record(seq, order)
        nonces = msg["nonces"]
        if self.referee_peer:
            pass  # the referee rolled the opponent's dice with them; it vouches for the nonces
        elif self.game.needs_dice(order):
            theirs = self.match.theirs
            if theirs is None or theirs.seq != seq or theirs.order != order:
                raise ProtocolViolation(f"seq {seq}: a dice record for an order whose commitment this side never answered")
            if nonces is None or nonce_commitment(nonces[0]) != theirs.commit or nonces[1] != theirs.nonce:
                raise ProtocolViolation(f"seq {seq}: the record's nonces are not the committed one and ours")
        elif nonces is not None:
            raise ProtocolViolation(f"seq {seq}: nonces on an order that rolls no dice")
        await self._apply_peer(order, nonces, msg["digest"])
        if self._catchup_to is not None and self.match.seq >= self._catchup_to:
            self._catchup_to = None
            await self._send_commit()

    async def _on_ack(self, msg: dict[str, Any]) -> None:
        """Acknowledges order ``seq`` and every earlier one of ours (acks are cumulative)."""
        seq = msg["seq"]
        if seq not in self._unacked:
            raise ProtocolViolation(f"ack for seq {seq}, which is not awaiting one")
        mine = self._unacked.pop(seq)
        for earlier in [s for s in self._unacked if s < seq]:
            del self._unacked[earlier]
        for earlier in [s for s in self._sent_at if s < seq]:
            del self._sent_at[earlier]  # acknowledged together: no round trip of their own
        if seq in self._sent_at:
            start, dice = self._sent_at.pop(seq)
            self.order_rtts.append((dice, time.perf_counter() - start))
        self._peer_seq = max(self._peer_seq or 0, seq + 1)
        if msg["digest"] != mine:
            await self._desync(seq, msg["digest"], "in the peer's ack")
            return
        await self._maybe_bye()

    async def _on_chat(self, msg: dict[str, Any]) -> None:
        if "side" in msg:
            raise ProtocolViolation("'chat' from a player carries no side")
        if not self._chat.take(time.monotonic()):
            raise ProtocolViolation(f"chat too fast (at most {self.limits.chat_per_second:g} a second)")
        self._emit("chat", f"{self.peer_side}: {msg['text']}", side=self.peer_side, text=msg["text"])
        self._broadcast(protocol.message("chat", text=msg["text"], side=self.peer_side))

    async def _on_ping(self, msg: dict[str, Any]) -> None:
        await self._send(protocol.message("pong", n=msg["n"]))

    async def _on_pong(self, msg: dict[str, Any]) -> None:
        sent = self._ping_sent.get(msg["n"])
        if sent is None:
            raise ProtocolViolation(f"pong {msg['n']} answers no ping")
        self.rtts.append(time.perf_counter() - sent)

    async def _on_resign(self, msg: dict[str, Any]) -> None:
        if self.over:
            raise ProtocolViolation("the match is already over")
        self._end(self.side, f"{self.peer_side} resigned")
        await self._maybe_bye()

    async def _on_draw(self, msg: dict[str, Any]) -> None:
        if self.over:
            raise ProtocolViolation("the match is already over")
        action, seq = msg["action"], msg["seq"]
        if seq != self.match.seq:
            raise ProtocolViolation(f"draw {action} for seq {seq}, but the match is at {self.match.seq}")
        if action == "offer":
            self._draw_offer = (self.peer_side, seq)
            self._emit("draw", f"{self.peer_side} offers a draw", offer=True)
        elif action == "accept":
            if self._draw_offer != (self.side, seq):
                raise ProtocolViolation("accepting a draw that was not offered")
            self._end(None, "draw agreed")
            await self._maybe_bye()
        else:
            self._draw_offer = None
            self._emit("draw", f"{self.peer_side} declines the draw", offer=False)

    async def _on_timeout(self, msg: dict[str, Any]) -> None:
        if self.over:
            raise ProtocolViolation("the match is already over")
        timed = self.turn_time or self.referee_peer
        if not timed or msg["seq"] != self.match.seq or self.game.to_act() != self.side:
            raise ProtocolViolation("time forfeit claimed while it is not this side's decision")
        early = None if self.referee_peer else self._early_claim()  # a referee's clock rules
        if early:
            raise ProtocolViolation(early)
        self._end(self.peer_side, f"{self.side} ran out of time ({self.turn_time}s per order)")
        await self._maybe_bye()

    async def _on_end(self, msg: dict[str, Any]) -> None:
        """A referee says the opponent lost on time by the server's clock (``net/referee.py``);
        from anyone else an ``end`` is for spectators only."""
        if not self.referee_peer:
            raise ProtocolViolation("'end' is sent to spectators, not to a player")
        result = msg["result"] or {}
        if self.over or msg["seq"] != self.match.seq or result.get("winner") != self.side:
            raise ProtocolViolation("the referee's end does not fit this match")
        self._end(self.side, str(result.get("reason", "")))
        await self._maybe_bye()

    async def _on_error(self, msg: dict[str, Any]) -> None:
        self._peer_errors += 1
        if self._peer_errors > self.limits.logged_refusals:
            return  # counted, no longer shown: a flood of errors must not flood the UI
        self._emit("status", f"the opponent refused our {msg.get('ref', 'message')}: {msg['reason']}",
                   peer_refused=msg["reason"])

    async def _on_bye(self, msg: dict[str, Any]) -> None:
        same = msg.get("seq") == self.match.seq and msg.get("digest") == self._short()
        if self.over and same and not self._unacked:
            self._bye_received = True
            await self._maybe_bye()
            return
        self._emit("status", f"the opponent left: {msg['reason']}", connected=False)
        if self.link is not None:
            self.link.close()

    # --- checks -----------------------------------------------------------------------------
    def _adopt_end(self, end: dict[str, Any]) -> None:
        """A result the peer recorded while the link was down (its resign, our time running out,
        a draw we offered). The peer may concede; it may not award itself anything else."""
        winner, reason = end.get("winner"), str(end.get("reason", ""))
        if winner == self.side:
            ok = True
        elif winner is None:
            ok = self._draw_offer == (self.side, self.match.seq)
        else:
            on_time = self.referee_peer or (bool(self.turn_time) and self._early_claim() is None)
            ok = on_time and winner == self.peer_side and self.game.to_act() == self.side
        if not ok:
            self._refused(f"resume claims a result this side does not agree to: {reason[:100]}", "resume")
            return
        self._end(winner, reason)

    def _expect_seq(self, seq: int, what: str) -> int:
        due = self.match.seq
        if seq < due:
            raise ProtocolViolation(f"{what} for seq {seq} replays an order already applied (next is {due})")
        if seq > due:
            raise ProtocolViolation(f"{what} for seq {seq} is out of order (next is {due})")
        if self.over:
            raise ProtocolViolation("the match is over")
        if self.desync is not None:
            raise ProtocolViolation("play stopped after a desync")
        return seq

    def _peer_order(self, wire: dict[str, Any]) -> Order:
        try:
            return Order.from_wire(wire)
        except InvalidOrderError as exc:
            raise ProtocolViolation(f"malformed order: {exc}") from None

    def _check_plan_record(self, seq: int, order: Order) -> None:
        """A resent seal or unseal obeys the same binding as a live one."""
        if order.kind == secret.COMMIT:
            earlier = sp.seen_commitment(self.match.records, str(order.get("digest")))
            if earlier is not None:
                raise ProtocolViolation(f"seq {seq}: this commitment was already used at seq {earlier}")
        elif order.kind == secret.REVEAL:
            why = sp.salt_problem(bytes.fromhex(str(order.get("salt"))), self.match.match_id,
                                  sp.seal_seq(self.match.records, self.peer_side))
            if why:
                raise ProtocolViolation(f"seq {seq}: the plan does not open {self.peer_side}'s commitment: {why}")

    def _play_message(self, seq: int, order: Order, *, digest: bytes | None = None,
                      commit: bytes | None = None) -> dict[str, Any]:
        """Our order as it travels: a secret plan's commitment as ``seal``, its opening as
        ``unseal``, anything else as ``order``."""
        if order.kind == secret.COMMIT:
            return protocol.message("seal", seq=seq, plan_commit=bytes.fromhex(order["digest"]), digest=digest)
        if order.kind == secret.REVEAL:
            plan = [list(row) for row in order["plan"]]
            return protocol.message("unseal", seq=seq, plan=plan, salt=bytes.fromhex(order["salt"]),
                                    digest=digest, commit=commit)
        return protocol.message("order", seq=seq, order=order.to_wire(), digest=digest, commit=commit)

    def _check_legal(self, order: Order) -> None:
        if self.game.to_act() != self.peer_side:
            raise ProtocolViolation(f"{order.kind}: it is not your turn ({self.game.to_act()} acts)")
        reason = self.game.validate(order, self.peer_side)
        if reason is not None:
            raise ProtocolViolation(f"illegal order {order.to_text()[:80]}: {reason}")

    # --- effects ----------------------------------------------------------------------------
    async def _apply_peer(self, order: Order, nonces: list[bytes] | None, their_digest: bytes) -> None:
        passed = self._forced(order)
        try:
            events, record = self.match.apply(order, self.peer_side, nonces)
        except IllegalOrderError as exc:
            raise ProtocolViolation(f"illegal order: {exc.reason}") from None
        self._peer_seq = record["seq"] + 1
        for seq in [s for s in self._unacked if s < record["seq"]]:
            del self._unacked[seq]  # the peer acted after applying them: implicitly acknowledged
        for seq in [s for s in self._sent_at if s < record["seq"]]:
            del self._sent_at[seq]
        self._applied(record, events, passed)
        digest = protocol.short_digest(record["digest"])
        # Acks are cumulative and may wait: our own next order acknowledges everything before
        # it, anything else we send first carries the ack out (``_send``), and the peer may run
        # up to WINDOW orders ahead, so one ack every ACK_EVERY orders keeps it going.
        self._owed_ack = (record["seq"], digest)
        self._owed_count += 1
        if not self.my_turn and (self.over or self._owed_count >= protocol.ACK_EVERY):
            await self._send_owed_ack()
        if digest != their_digest:
            await self._desync(record["seq"], their_digest, "after applying the peer's order")
            return
        await self._maybe_bye()

    def _forced(self, order: Order) -> str | None:
        """The phase ``order`` passes, if it was the only order the position before it allowed,
        else None. Asked of the engine before the order is applied; an order that names a unit
        never is one, so most orders cost nothing here."""
        if order.kind == "resign" or names_units(order) or forced_order(self.game) != order:
            return None
        return str(self.game.state.phase or "")

    def _applied(self, record: dict[str, Any], events: list[Event], passed: str | None = None) -> None:
        self._draw_offer = None
        self._restart_clock()
        if record["side"] == self.side and record["order"].get("k") == secret.REVEAL:
            self.sealed.drop_salt(bytes.fromhex(record["order"]["a"]["salt"]))
        text = f"{record['seq']}: {record['side']} {Order.from_wire(record['order']).to_text()}"
        if passed is not None:
            log.info("seq %s: %s has nothing to decide in phase %r: it passes by itself",
                     record["seq"], record["side"], passed)
        self._emit("applied", text, record=record, events=events, automatic=passed is not None,
                   phase=passed)
        self._broadcast(protocol.message(
            "record", seq=record["seq"], side=record["side"], order=record["order"],
            nonces=record["nonces"], digest=protocol.short_digest(record["digest"])))
        if self.match.game.over:
            self._emit("over", f"match over: {self._result_text()}", result=self.match.result)
            self._broadcast_end()
        self._schedule_auto_pass()

    # --- empty phases -----------------------------------------------------------------------
    def enable_auto_pass(self) -> None:
        """From now on, send the only order of an empty phase of ours by itself (and at once,
        if the match stands in one)."""
        self.auto_pass = True
        self._schedule_auto_pass()

    def _schedule_auto_pass(self) -> None:
        if not self.auto_pass or not self.my_turn:
            return
        seq = self.match.seq
        if self._auto_task is not None and not self._auto_task.done() and self._auto_seq == seq:
            return  # already on its way (a task for an earlier seq is finishing and stops)
        order = forced_order(self.game)
        if order is not None:
            self._auto_seq = seq
            self._auto_task = asyncio.ensure_future(self._auto_submit(order, seq))

    async def _auto_submit(self, order: Order, seq: int) -> None:
        """Send ``order`` once it can go (connected, caught up, window open), unless the match
        moved on meanwhile (the player sent it first, the match ended)."""
        def moved_on() -> bool:
            return self.stopped or self.match.seq != seq
        await self.wait_until(lambda: moved_on() or self.can_act)
        if moved_on():
            return
        try:
            await self.submit(order)
        except (HexwarNetError, IllegalOrderError) as exc:
            log.info("the automatic %s at seq %s did not go: %s", order.kind, seq, exc)

    def _end(self, winner: str | None, reason: str) -> None:
        self.match.finish(winner, reason)
        self._deadline = None
        self._fail_waiters(PeerGone(f"the match ended: {reason}"))
        self._emit("over", f"match over: {self._result_text()}", result=self.match.result)
        self._broadcast_end()

    async def _send_commit(self) -> None:
        mine = self.match.mine
        if mine is not None and mine.seq == self.match.seq and self.connected and self._catchup_to is None:
            await self._send(self._play_message(mine.seq, mine.order, commit=mine.commit))

    async def _maybe_bye(self) -> None:
        if (not self.over or self._unacked or self._catchup_to is not None or not self.connected
                or self._peer_seq != self.match.seq):
            return
        if not self._bye_sent:
            self._bye_sent = True
            await self._send(protocol.message("bye", reason="match over", seq=self.match.seq,
                                              digest=self._short()))
        if self._bye_received:
            self.finished = True
            self.match.mark_finished()
            self._poke()

    async def _desync(self, seq: int, theirs: bytes, where: str) -> None:
        mine = self.match.records[seq]["digest"] if 0 <= seq < len(self.match.records) else self.game.digest()
        report = {"seq": seq, "where": where, "our_digest": mine, "their_digest": theirs.hex(),
                  "side": self.side, "journal": self.match.journal_path}
        path = None
        if self.match.journal_path:
            path = self.match.journal_path + ".desync.json"
            Path(path).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
        report["report"] = path
        self.desync = report
        self._fail_waiters(Desync(f"desync at seq {seq}"))
        log.error("desync at seq %s: ours %s, theirs %s", seq, mine, theirs.hex())
        self._emit("desync", f"DESYNC at seq {seq}: our digest {mine}, theirs {theirs.hex()}; "
                             f"play stopped; report {path or '(no journal)'}", **report)
        await self._send(protocol.message("bye", reason=f"desync at seq {seq}"))

    def _refused(self, reason: str, kind: str) -> None:
        self.refused += 1
        self._link_refusals += 1
        self.refusals = (self.refusals + [reason])[-self.limits.kept_refusals:]
        if self._link_refusals <= self.limits.logged_refusals:
            log.warning("refused %s from %s: %s", kind, self.peer_side, reason)
        elif self._link_refusals == self.limits.logged_refusals + 1:
            log.warning("further refusals from %s on this connection are counted, not logged", self.peer_side)
        self._emit("refused", f"refused the opponent's {kind}: {reason}", reason=reason, ref=kind)

    # --- the turn timer ---------------------------------------------------------------------
    def _restart_clock(self, new_decision: bool = True) -> None:
        """Start the clocks for the decision now due. ``new_decision`` is False on a reconnect:
        a decision already under way keeps the time it began on our clock."""
        now = time.monotonic()
        to_act = None if self.over else self.game.to_act()
        if self.turn_time and to_act == self.peer_side:
            self._deadline = now + self.turn_time
        else:
            self._deadline = None
        if to_act != self.side:
            self._deciding_since = None
        elif new_decision or self._deciding_since is None:
            self._deciding_since = now

    def _early_claim(self) -> str | None:
        """Why a claim that our time ran out is refused, judged by our own clock: our decision
        must have lasted the turn time, less an allowance for the link's delay."""
        since = self._deciding_since
        spent = 0.0 if since is None else time.monotonic() - since
        if spent + self.limits.clock_allowance >= self.turn_time:
            return None
        return (f"time forfeit claimed after {spent:.1f}s of this side's {self.turn_time}s "
                f"by this side's clock")

    async def _clock(self) -> None:
        while not self.stopped and not self.over:
            await asyncio.sleep(0.2)
            # Claim only an allowance after our own deadline: the peer judges the claim by its
            # clock, which started up to one link delay later and allows the same again.
            late = self._deadline is not None and time.monotonic() > self._deadline + self.limits.clock_allowance
            if late and not self.over:
                await self.claim_timeout(self.turn_time)

    async def claim_timeout(self, turn_time: int) -> None:
        """The peer's time for its decision has run out: record its loss and tell it (a
        referee's clock calls this for its seats too)."""
        seq = self.match.seq
        self._end(self.side, f"{self.peer_side} ran out of time ({turn_time}s per order)")
        await self._send(protocol.message("timeout", seq=seq))
        await self._maybe_bye()
        self._poke()

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
