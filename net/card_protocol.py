"""The mental-poker deck over a link: lockstep card operations, a journal, resume, the audit.

Both peers run the same sequence of deck operations (the game decides them the same way on
both sides); each operation is a fixed exchange of ``mental_poker`` messages:

    shuffle / reshuffle   first: shuffle{values, public}  ->  second: shuffle{values, public}
    reshuffle(with_pile)  merge steps 1 (first), 2 (second): the pile's layers swapped, in order;
                          then 3 (first), 4 (second): shuffles with public keys
    draw(side)            the other side: strip{round, pos, value}
    play / discard        the holder: show{round, pos, card, kind, proof}
    audit                 each side: reveal{keys} (or refuse)

Crash safety, as for the dice: every message this side makes is journaled (fsync, its secret
key and permutation with it) *before* it is sent, and every message taken from the peer is
journaled once checked. The journal replays to the same table; on a new link both sides say
how many messages they hold (``resync{have}``) and each sends the other what it lacks from its
journal, unchanged. A draw's strip is therefore always the same bytes: a resume cannot redraw.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import msgpack

from .errors import LinkClosed
from .mental_poker import CardCheat, CardProtocolError, CardTable, Verdict

RELINK_WAIT = 30.0   # seconds a deck waits for a lost peer to come back


class Refused(Exception):
    """The peer said it will not take the next step (at the audit: it will not reveal its keys)."""


class CardJournal:
    """Append-only msgpack records, each flushed and fsynced; a torn last record is dropped."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.records: list[dict[str, Any]] = []
        if self.path.exists():
            data = self.path.read_bytes()
            unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
            unpacker.feed(data)
            good = 0
            try:
                for record in unpacker:
                    self.records.append(record)
                    good = unpacker.tell()
            except (ValueError, msgpack.UnpackException):
                pass
            if good != len(data):       # cut the torn tail so appends follow a whole record
                with open(self.path, "r+b") as f:
                    f.truncate(good)
        self._f = open(self.path, "ab")

    def append(self, record: dict[str, Any]) -> None:
        self._f.write(msgpack.packb(record, use_bin_type=True))
        self._f.flush()
        os.fsync(self._f.fileno())
        self.records.append(record)

    def close(self) -> None:
        self._f.close()


def public_part(msg: dict[str, Any]) -> dict[str, Any]:
    """What goes on the wire: the record without its secret."""
    return {k: v for k, v in msg.items() if k != "secret"}


class NetDeck:
    """One side of a network deck; the reading methods match ``engine.deck.DeckView``."""

    def __init__(self, me: str, sides: tuple[str, str], journal: str | Path,
                 cards: list[int] | None = None) -> None:
        self.table = CardTable(me, sides)
        self.me, self.peer, self.sides = me, self.table.peer, tuple(sides)
        self.journal = CardJournal(journal)
        self.out: list[dict[str, Any]] = []     # my records, in order (secrets included)
        self.n_in = 0
        self._used_out = self._used_in = 0      # how many of each the operations so far consumed
        self._draws = self._plays = self._shuffles = 0
        self.verdict: Verdict | None = None
        self.link: Any = None
        self._synced = False
        self._reader: asyncio.Future[None] | None = None
        self._inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.bytes_in: list[bytes] = []         # every frame the peer sent, as received (tests read it)
        for record in self.journal.records:     # replay: the same table, no new secrets
            if record.get("dir") == "out":
                self.table.take(self.me, record["msg"])
                self.out.append(record["msg"])
            elif record.get("dir") == "in":
                self.table.take(self.peer, record["msg"])
                self.n_in += 1
            elif record.get("dir") == "verdict":
                self.verdict = Verdict(record["cheater"], record["reason"])

    # -- the view (engine.deck.DeckView)
    def hand(self, side: str) -> list[int]:
        return self.table.hand(side)

    def count(self, side: str) -> int:
        return self.table.count(side)

    def pile_size(self) -> int:
        return len(self.table.pile)

    def discard_pile(self) -> list[int]:
        return list(self.table.discards)

    # -- links
    async def attach(self, link: Any) -> None:
        """Use ``link`` from now on: say how much of the peer's stream this side holds, and read
        the link in the background (the peer's ``resync`` is answered as soon as it comes)."""
        if self._reader is not None:
            self._reader.cancel()
        self.link, self._synced = link, False
        self._reader = asyncio.ensure_future(self._read(link))
        try:
            await link.send({"type": "resync", "have": self.n_in})
        except LinkClosed:
            pass

    async def _read(self, link: Any) -> None:
        try:
            while True:
                frame = await link.recv()
                self.bytes_in.append(_raw(frame))
                if isinstance(frame, dict) and frame.get("type") == "resync":
                    have = frame.get("have")
                    if not isinstance(have, int) or not 0 <= have <= len(self.out):
                        await self._inbox.put(CardProtocolError(f"resync from {have}, but this side sent {len(self.out)}"))
                        return
                    i = have
                    while i < len(self.out):        # the live length: what _mine adds meanwhile is sent too
                        await link.send(public_part(self.out[i]))
                        i += 1
                    self._synced = True
                else:
                    await self._inbox.put(frame)
        except LinkClosed:
            self._synced = False
        except asyncio.CancelledError:
            raise

    async def _send(self, msg: dict[str, Any]) -> None:
        if not self._synced or self.link is None or self.link.closed:
            return                      # it is journaled: sent when the peer says it lacks it
        try:
            await self.link.send(msg)
        except LinkClosed:
            self._synced = False

    async def _recv(self) -> dict[str, Any]:
        item = await asyncio.wait_for(self._inbox.get(), RELINK_WAIT)
        if isinstance(item, Exception):
            raise item
        if not isinstance(item, dict):
            raise CardProtocolError("a card message is a map")
        return item

    def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.link is not None:
            self.link.close()
        self.journal.close()

    # -- steps of an operation
    async def _mine(self, kind: str, make: Any) -> dict[str, Any]:
        if self._used_out < len(self.out):          # made before a crash: the journal has it
            msg = self.out[self._used_out]
            if msg.get("type") != kind:
                raise CardProtocolError(f"this side's journal holds a {msg.get('type')} where the game now "
                                        f"makes a {kind}: the operations were not repeated the same way")
        else:
            msg = make()
            self.journal.append({"dir": "out", "msg": msg})   # the secret is safe before it matters
            self.table.take(self.me, msg)
            self.out.append(msg)
            await self._send(public_part(msg))
        self._used_out += 1
        return msg

    async def _theirs(self, expect: str) -> dict[str, Any]:
        if self._used_in < self.n_in:
            self._used_in += 1
            return {}
        msg = await self._recv()
        if msg.get("type") == "refuse":
            raise Refused(f"{self.peer} refused to go on")
        if msg.get("type") != expect:
            raise CardProtocolError(f"the peer sent {str(msg.get('type'))[:20]!r} where this step takes {expect!r}")
        try:
            self.table.take(self.peer, msg)
        except CardCheat as cheat:
            self._judge(Verdict(cheat.side, cheat.reason))
            raise
        self.journal.append({"dir": "in", "msg": msg})
        self.n_in += 1
        self._used_in += 1
        return msg

    def _judge(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.journal.append({"dir": "verdict", **verdict.to_wire()})

    # -- operations: both sides call the same ones in the same order
    async def shuffle(self, cards: list[int], reshuffle: bool = False) -> None:
        """A new round of ``cards`` (face-up ids both sides know) under the pile."""
        r = self._shuffles
        if self.me == self.sides[0]:
            await self._mine("shuffle", lambda: self.table.make_shuffle(cards, reshuffle))
            await self._theirs("shuffle")
        else:
            live = self._used_in >= self.n_in
            await self._theirs("shuffle")
            if live and self.table.rounds[r].cards != list(cards):
                raise CardProtocolError("the peer shuffled other cards than this side was told to")
            await self._mine("shuffle", lambda: self.table.make_shuffle(cards, reshuffle))
        self._shuffles += 1

    async def reshuffle(self, add: list[int] | tuple[int, ...] = (), with_pile: bool = False) -> None:
        """The discard pile (and ``add``, cards new to the deck) face down again, shuffled by both:
        under what is left of the pile, or, ``with_pile``, shuffled together with it."""
        cards = list(self.table.discards) + list(add)
        if not with_pile:
            await self.shuffle(cards, reshuffle=True)
            return
        if self.me == self.sides[0]:
            await self._mine("merge", lambda: self.table.make_merge(1, cards, reshuffle=True))
            await self._theirs("merge")
            await self._mine("merge", lambda: self.table.make_merge(3))
            await self._theirs("merge")
        else:
            live = self._used_in >= self.n_in
            await self._theirs("merge")
            if live and self.table.rounds[-1].cards != cards:
                raise CardProtocolError("the peer merged other cards than this side was told to")
            await self._mine("merge", lambda: self.table.make_merge(2))
            await self._theirs("merge")
            await self._mine("merge", lambda: self.table.make_merge(4))
        self._shuffles += 1

    async def draw(self, side: str) -> int | None:
        """The next card of the pile into ``side``'s hand: its face if ``side`` is this side."""
        if side == self.me:
            await self._theirs("strip")
        else:
            await self._mine("strip", lambda: self.table.make_strip(side))
        pos, drawer, face = self.table.drawn[self._draws]
        self._draws += 1
        return face

    async def play(self, side: str, card: int | None = None, kind: str = "play") -> int:
        """``side`` shows a card of its hand (``card``, if this side) face up; returns the card."""
        if side == self.me:
            if card is None:
                raise ValueError("this side must say which card it plays")
            await self._mine("show", lambda: self.table.make_show(card, kind))
        else:
            await self._theirs("show")
        shown = self.table.plays[self._plays]
        self._plays += 1
        return shown.card

    async def discard(self, side: str, card: int | None = None) -> int:
        return await self.play(side, card, "discard")

    async def audit(self, refuse: bool = False, timeout: float = RELINK_WAIT) -> Verdict:
        """Both sides reveal their keys; every step of the match is checked. A side that does not
        reveal within ``timeout`` is named; ``refuse`` plays a client that will not."""
        if self.verdict is not None:
            return self.verdict
        if refuse:
            if self.link is not None and not self.link.closed:
                await self.link.send({"type": "refuse"})
            return Verdict(self.me, "it refused to reveal its keys")
        await self._mine("reveal", self.table.make_reveal)
        try:
            await asyncio.wait_for(self._theirs("reveal"), timeout)
        except (asyncio.TimeoutError, Refused):
            self._judge(Verdict(self.peer, "it refused to reveal its keys"))
            return self.verdict  # type: ignore[return-value]
        except CardProtocolError as exc:
            self._judge(Verdict(self.peer, f"it did not reveal its keys as the protocol says ({exc})"))
            return self.verdict  # type: ignore[return-value]
        self._judge(self.table.audit())
        return self.verdict  # type: ignore[return-value]


def _raw(frame: Any) -> bytes:
    return msgpack.packb(frame, use_bin_type=True)
