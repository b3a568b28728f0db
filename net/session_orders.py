"""The session's orders and dice: ours going out (``submit``), the peer's coming in (``order``,
``nonce``, ``reveal``, ``record``, ``ack``), each checked once and applied through the journal
in the order the durability rules of net/NOTES.md ask; empty phases passing by themselves; a
referee seat forwarding the other player's orders. A mixin of ``Session`` (session.py), which
holds the state these handlers share."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from hexwar.engine import Order, nonce_commitment, secret
from hexwar.engine.forced import forced_order, names_units
from hexwar.engine.orders import Event, IllegalOrderError, InvalidOrderError

from . import protocol
from . import secret_plans as sp
from .errors import Desync, HexwarNetError, NotYourTurn, PeerGone, ProtocolViolation
from .netmatch import Pending

log = logging.getLogger("hexwar.net")
NONCE_BYTES = 16


class OrdersAndDice:
    async def submit(self, order: Order) -> list[Event]:
        """Issue a local order. Returns its events once applied here (for a dice order, after
        the peer's nonce arrived). Raises ``NotYourTurn``, ``PeerGone`` or ``IllegalOrderError``.
        A secret plan is not an order here: use ``commit_plan`` and ``reveal_plan``."""
        if order.kind in sp.PLAN_KINDS:
            raise IllegalOrderError("a secret plan goes through commit_plan(plan) and reveal_plan(), "
                                    "which bind it to this match")
        return await self._submit(order)

    async def _submit(self, order: Order) -> list[Event]:
        if self.desync is not None:
            raise Desync("play stopped after a desync")
        if not self.my_turn:
            raise NotYourTurn(f"it is {self.game.to_act() or 'nobody'}'s turn, not yours ({self.side})")
        if not self.connected:
            raise PeerGone("the opponent is not connected; orders wait until they are back")
        await self.wait_until(lambda: (len(self._unacked) < protocol.WINDOW and self._showing is None)
                              or self.stopped or not self.connected)
        if not self.my_turn:
            raise NotYourTurn(f"it is no longer your turn ({self.game.to_act() or 'the match is over'})")
        if not self.can_act:
            raise PeerGone("the link dropped before the order could be sent")
        reason = self.game.vet(order, self.side)
        if reason is not None:
            raise IllegalOrderError(reason)
        seq = self.match.seq
        dice = self.game.needs_dice(order)
        if self.trace is not None:
            self.trace.append(("submit", seq, dice, time.perf_counter()))
        if not dice:
            # Written, then sent, then shown once synced: the fsync runs while the order is on
            # its way. Until it is shown, nothing the peer sends is handled (``_dispatch``).
            passed = self._forced(order)
            events, record = self.match.apply(order, self.side, None)
            short = protocol.short_digest(record["digest"])
            self._unacked[seq] = short
            self._sent_at[seq] = (time.perf_counter(), False)
            showing = self._showing = asyncio.get_running_loop().create_future()
            try:
                await self._send(self._play_message(seq, order, digest=short))
                await self._durable()
                self._applied(record, events, passed)
            finally:
                self._showing = None
                showing.set_result(None)
                self._poke()
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

    async def forward(self, record: dict[str, Any]) -> None:
        """A referee's seat: pass on an order of the side this session plays, applied to the
        shared match by the referee's other seat. It goes out as a ``record`` (now, or after
        the player's next ``resume``) and waits for the player's ack like our own orders."""
        short = protocol.short_digest(record["digest"])
        self._unacked[record["seq"]] = short
        self._draw_offer = None
        await self._send(protocol.message("record", seq=record["seq"], side=record["side"],
                                          order=record["order"], nonces=record["nonces"], digest=short))

    async def _on_order(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "order")
        order = self._peer_order(msg["order"])
        if order.kind in sp.PLAN_KINDS:
            raise ProtocolViolation(f"seq {seq}: a secret plan travels in 'seal' and 'unseal', not in 'order'")
        await self._peer_play(seq, order, msg)

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
            await self._durable()  # our nonce goes out only once a power cut cannot lose it
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
        # The roll is shown and nonce_A revealed only once the commit and this record are
        # synced; no order of ours may go out before the reveal (``can_act``).
        showing = self._showing = asyncio.get_running_loop().create_future()
        try:
            await self._durable()
            digest = protocol.short_digest(record["digest"])
            self._unacked[mine.seq] = digest
            self._applied(record, events, passed)
            for waiter in self._dice_waiters.pop(mine.seq, []):
                if not waiter.done():
                    waiter.set_result(events)
            await self._send(protocol.message("reveal", seq=mine.seq, nonce=mine.nonce, digest=digest))
        finally:
            self._showing = None
            showing.set_result(None)
            self._poke()

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
        """The one check of the peer's order: ``vet`` remembers it for this position, so
        ``needs_dice`` and ``resolve_order`` do not validate it again."""
        if self.game.to_act() != self.peer_side:
            raise ProtocolViolation(f"{order.kind}: it is not your turn ({self.game.to_act()} acts)")
        reason = self.game.vet(order, self.peer_side)
        if reason is not None:
            raise ProtocolViolation(f"illegal order {order.to_text()[:80]}: {reason}")

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
        if self.trace is not None:
            self.trace.append(("applied", record["seq"], record["side"], time.perf_counter()))
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

    async def _send_commit(self) -> None:
        mine = self.match.mine
        if mine is not None and mine.seq == self.match.seq and self.connected and self._catchup_to is None:
            await self._send(self._play_message(mine.seq, mine.order, commit=mine.commit))

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

    async def _durable(self) -> None:
        """Wait until every journal record written so far is synced (the group commit thread
        fsyncs while we wait; the event loop serves the link meanwhile)."""
        fut = self.match.durable()
        if fut is not None:
            await asyncio.wrap_future(fut)
