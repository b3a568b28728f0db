"""The session's resume and clocks: the ``resume`` that starts every link (who is ahead, a result
recorded while apart), and the turn timer: the start of each decision, kept across reconnects and
restarts, the claims we make and the ones we judge. A mixin of ``Session`` (session.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any


from . import protocol
from .errors import ProtocolViolation


class ResumeAndClock:
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
        self._restart_clock()  # a reconnect starts no new decision: the one due keeps its start
        await self._send_commit()
        await self._maybe_bye()
        self._schedule_auto_pass()

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

    def _restart_clock(self) -> None:
        """Note when the decision now due began, unless it is the one already timed: the
        deadline belongs to the decision, not to the link, so a reconnect (or a restart: the
        start is journaled) never gives a stalling side its time again."""
        if self.over:
            self._decision = None
            return
        seq = self.match.seq
        if self._decision is not None and self._decision[0] == seq:
            return
        self._decision = (seq, time.monotonic())
        if self.turn_time:
            self.match.note_clock(seq)

    def _spent(self) -> float:
        """Seconds the decision now due has lasted on our clock."""
        d = self._decision
        return 0.0 if d is None or d[0] != self.match.seq else time.monotonic() - d[1]

    def _early_claim(self) -> str | None:
        """Why a claim that our time ran out is refused, judged by our own clock: our decision
        must have lasted the whole turn time. (An honest claimant waits the allowance for link
        delay beyond its own deadline, so its claim arrives after ours.)"""
        spent = self._spent()
        if self.turn_time and spent >= self.turn_time:
            return None
        return (f"time forfeit claimed after {spent:.1f}s of this side's {self.turn_time}s "
                f"by this side's clock")

    async def _clock(self) -> None:
        while not self.stopped and not self.over:
            await asyncio.sleep(0.2)
            # Claim only an allowance after the deadline: the peer judges the claim by its
            # clock, which started up to one link delay later.
            late = (self.game.to_act() == self.peer_side
                    and self._spent() > self.turn_time + self.limits.clock_allowance)
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
