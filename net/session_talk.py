"""The session's talk and endings: chat, pings, resignation, draw offers and their answers, the
peer's errors and farewell, and how a match ends and says goodbye. A mixin of ``Session``
(session.py)."""

from __future__ import annotations

import time
from typing import Any

from hexwar.engine.orders import IllegalOrderError

from . import protocol
from .errors import PeerGone, ProtocolViolation


class TalkAndEnds:
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

    async def tell(self, message: dict[str, Any]) -> None:
        """A referee's seat: send the player a message the other seat's player sent (chat, a
        resignation, a draw answer), when connected; ``resume`` carries a result later."""
        await self._send(message)

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

    def _end(self, winner: str | None, reason: str) -> None:
        self.match.finish(winner, reason)
        self._decision = None
        self._fail_waiters(PeerGone(f"the match ended: {reason}"))
        self._emit("over", f"match over: {self._result_text()}", result=self.match.result)
        self._broadcast_end()

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
