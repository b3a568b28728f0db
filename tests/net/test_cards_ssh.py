"""The mental-poker deck between two peers over real SSH on 127.0.0.1 (msgpack frames, real keys):
an honest game audits clean and leaks no hand; each kind of modified peer is caught and named."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hexwar.net import card_peer
from hexwar.net import mental_poker as mp
from hexwar.net.card_protocol import NetDeck

FIRST, SECOND = card_peer.SIDES


class Recorder:
    """The SSH channel's reader, keeping every byte the process read from it."""

    def __init__(self, reader: object) -> None:
        self.reader, self.data = reader, bytearray()

    async def read(self, n: int) -> bytes:
        chunk = await self.reader.read(n)  # type: ignore[attr-defined]
        self.data += chunk
        return chunk


async def pair(tmp: Path) -> tuple[NetDeck, NetDeck, object, object]:
    """Two decks joined by an SSH session: ``first`` listens, ``second`` connects; each deck's
    ``received`` is every byte its process read from the channel."""
    first = NetDeck(FIRST, card_peer.SIDES, tmp / "first.cards")
    second = NetDeck(SECOND, card_peer.SIDES, tmp / "second.cards")

    async def on_link(link) -> None:  # noqa: ANN001
        link.reader = first.received = Recorder(link.reader)  # type: ignore[attr-defined]
        await first.attach(link)
    server = await card_peer.listen(tmp, on_link)
    conn, link = await card_peer.connect(tmp, server.sockets[0].getsockname()[1])
    link.reader = second.received = Recorder(link.reader)  # type: ignore[attr-defined]
    await second.attach(link)
    return first, second, server, conn


def close(*things: object) -> None:
    for thing in things:
        thing.close()  # type: ignore[attr-defined]


def leaks(hand: list[int], holder: NetDeck, other: NetDeck) -> list[int]:
    """The cards of ``holder``'s hand whose encoding, or its encryption under ``other``'s key of
    the round it was drawn in (what ``other`` could read), appears in the bytes ``other`` received.
    (A card shown face up and reshuffled is known to be in the new round, but not where.)"""
    seen = bytes(other.received.data)  # type: ignore[attr-defined]
    rounds = {c: p[0] for p, _, c in holder.table.drawn if c is not None}
    found = []
    for card in hand:
        forms = [mp.encode(card), mp.encrypt(mp.encode(card), other.table.keys[rounds[card]])]
        if any(mp.to_bytes(v) in seen for v in forms):
            found.append(card)
    return found


async def test_honest_peers_shuffle_draw_play_reshuffle_and_audit_clean(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        mid: dict[str, list[int]] = {}

        async def game(deck: NetDeck) -> dict:
            await deck.shuffle(list(range(60)))
            for _ in range(7):
                await deck.draw(FIRST)
                await deck.draw(SECOND)
            mid[deck.me] = deck.hand(deck.me)
            for side in (FIRST, SECOND):
                await deck.play(side, deck.hand(deck.me)[0] if side == deck.me else None)
                await deck.discard(side, deck.hand(deck.me)[0] if side == deck.me else None)
            await deck.reshuffle()
            for _ in range(25):
                await deck.draw(FIRST)
                await deck.draw(SECOND)
            return {"hand": deck.hand(deck.me), "verdict": await deck.audit()}

        r1, r2 = await asyncio.wait_for(asyncio.gather(game(first), game(second)), 240)
        assert r1["verdict"].clean and r2["verdict"].clean, (r1, r2)
        assert len(r1["hand"]) == len(r2["hand"]) == 30
        assert not set(r1["hand"]) & set(r2["hand"])
        assert first.count(SECOND) == 30 and first.hand(SECOND) == []      # counts, never faces
        assert first.pile_size() == second.pile_size() == 0
        assert first.discard_pile() == second.discard_pile() == []
        assert len(first.table.rounds) == 2 and first.table.rounds[1].cards == second.table.rounds[1].cards
        assert len(first.table.rounds[1].cards) == 4
        # no card a side held (and did not show) crossed to the other in a form the other can read
        shown = [p.card for p in first.table.plays]
        for side, holder, other in ((FIRST, first, second), (SECOND, second, first)):
            kept = [c for c in mid[side] if c not in shown]
            assert len(kept) == 5 and leaks(kept, holder, other) == []
        assert leaks(r1["hand"], first, second) == [] and leaks(r2["hand"], second, first) == []
        # the detector finds the same hands in the bytes their own holder received: it can fail
        assert leaks(r1["hand"], first, first) == r1["hand"]
        assert leaks(r2["hand"], second, second) == r2["hand"]
    finally:
        close(first, second, conn, server)


async def deal(first: NetDeck, second: NetDeck, n: int = 3) -> None:
    async def run(deck: NetDeck) -> None:
        await deck.shuffle(list(range(20)))
        for _ in range(n):
            await deck.draw(FIRST)
            await deck.draw(SECOND)
    await asyncio.wait_for(asyncio.gather(run(first), run(second)), 120)


async def test_a_peer_that_plays_a_card_it_never_drew_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second)
        honest = second.table.make_show(second.hand(SECOND)[0])
        honest["round"], honest["pos"] = next(iter(first.table.hands[FIRST]))   # a card the other drew
        await second.link.send(honest)
        with pytest.raises(mp.CardCheat) as caught:
            await asyncio.wait_for(first.play(SECOND), 30)
        assert caught.value.side == SECOND and "never drew" in caught.value.reason
        assert first.verdict is not None and first.verdict.cheater == SECOND
    finally:
        close(first, second, conn, server)


async def test_a_peer_that_claims_another_card_than_it_drew_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second)
        real = second.hand(SECOND)[0]
        show = second.table.make_show(real)
        show["card"] = next(c for c in range(20) if c not in second.hand(SECOND))   # a card it would like
        await second.link.send(show)
        with pytest.raises(mp.CardCheat) as caught:
            await asyncio.wait_for(first.play(SECOND), 30)
        assert caught.value.side == SECOND and "not the card it drew" in caught.value.reason
    finally:
        close(first, second, conn, server)


async def test_a_peer_that_repeats_a_card_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second)
        card = second.hand(SECOND)[0]
        show = second.table.make_show(card)
        await asyncio.wait_for(asyncio.gather(first.play(SECOND), second.play(SECOND, card)), 30)
        await second.link.send(mp_public(show))      # the same card again
        with pytest.raises(mp.CardCheat) as caught:
            await asyncio.wait_for(first.play(SECOND), 30)
        assert caught.value.side == SECOND and "second time" in caught.value.reason
    finally:
        close(first, second, conn, server)


def mp_public(msg: dict) -> dict:
    return {k: v for k, v in msg.items() if k != "secret"}


async def test_a_shuffle_that_is_not_a_permutation_is_named_at_the_audit(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        make = second.table.make_shuffle

        def substituted(cards, reshuffle=False):    # one card swapped for a card of its own making
            msg = make(cards, reshuffle)
            msg["values"][-1] = mp.to_bytes(mp.encrypt(mp.encode(150), mp.new_key()))
            return msg
        second.table.make_shuffle = substituted   # type: ignore[method-assign]
        await deal(first, second)
        v1, v2 = await asyncio.wait_for(asyncio.gather(first.audit(), second.audit()), 60)
        assert v1.cheater == SECOND and "not a permutation" in v1.reason
        assert v2 == v1            # the cheat's own program reaches the same verdict
    finally:
        close(first, second, conn, server)


async def test_a_shuffle_that_repeats_a_card_is_refused_at_once(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        msg = mp_public(first.table.make_shuffle(list(range(20))))
        msg["values"][1] = msg["values"][0]          # a modified client sends one card twice
        await first.link.send(msg)
        with pytest.raises(mp.CardCheat) as caught:
            await asyncio.wait_for(second.shuffle(list(range(20))), 60)
        assert caught.value.side == FIRST and "not a permutation" in caught.value.reason
        assert second.verdict is not None and second.verdict.cheater == FIRST
    finally:
        close(first, second, conn, server)


async def test_a_peer_that_refuses_to_reveal_its_keys_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second)
        v1, v2 = await asyncio.wait_for(asyncio.gather(first.audit(), second.audit(refuse=True)), 60)
        assert v1.cheater == SECOND and "refused" in v1.reason
        assert v2.cheater == SECOND
    finally:
        close(first, second, conn, server)


async def test_a_peer_that_goes_silent_at_the_audit_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=1)
        conn.close()
        verdict = await asyncio.wait_for(first.audit(timeout=1.0), 30)
        assert verdict.cheater == SECOND and "refused" in verdict.reason
    finally:
        close(first, second, server)


async def test_a_strip_that_is_no_card_is_named_at_once(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=1)
        r, k = first.table.pile[0]
        await first.link.send({"type": "strip", "round": r, "pos": k,
                               "value": mp.to_bytes(mp.encrypt(mp.encode(150), mp.new_key()))})
        with pytest.raises(mp.CardCheat) as caught:
            await asyncio.wait_for(second.draw(SECOND), 30)
        assert caught.value.side == FIRST and "no card of the deck" in caught.value.reason
        assert second.verdict is not None and second.verdict.cheater == FIRST
    finally:
        close(first, second, conn, server)


async def test_a_revealed_key_that_is_not_the_one_used_is_named(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=1)
        second.table.make_reveal = lambda: {"type": "reveal", "keys": [[mp.to_bytes(mp.new_key())]]}  # type: ignore[method-assign]
        v1, v2 = await asyncio.wait_for(asyncio.gather(first.audit(), second.audit()), 60)
        assert v1.cheater == SECOND and "not the one it used" in v1.reason
    finally:
        close(first, second, conn, server)


async def merged(first: NetDeck, second: NetDeck, add: list[int]) -> None:
    async def run(deck: NetDeck) -> None:
        await deck.play(FIRST, deck.hand(FIRST)[0] if deck.me == FIRST else None)
        await deck.reshuffle(add=add, with_pile=True)
        while deck.pile_size():
            await deck.draw(SECOND)
    await asyncio.wait_for(asyncio.gather(run(first), run(second)), 240)


async def test_the_pile_shuffled_again_with_new_cards_deals_every_card_once_and_audits_clean(tmp_path):
    """The 1693 insertion: cards added to the deck and the deck (its face-down pile) shuffled."""
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=2)            # 20 cards, 4 drawn
        shown = first.hand(FIRST)[0]
        await merged(first, second, add=[40, 41])
        assert first.pile_size() == second.pile_size() == 0
        everything = sorted(first.hand(FIRST) + second.hand(SECOND))
        assert everything == list(range(20)) + [40, 41]          # each card once, the played one again
        assert shown in second.hand(SECOND)
        assert first.count(SECOND) == 2 + 16 + 1 + 2              # its two, the 16 left, the discard, 2 new
        assert leaks(second.hand(SECOND), second, first) == []
        v1, v2 = await asyncio.wait_for(asyncio.gather(first.audit(), second.audit()), 120)
        assert v1.clean and v2 == v1, v1
    finally:
        close(first, second, conn, server)


async def test_a_merge_pass_that_changes_a_face_down_card_is_named_at_the_audit(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=1)
        make = second.table.make_merge

        def changed(step, cards=None, reshuffle=False):   # pass 2 swaps a pile card for one of its own
            msg = make(step, cards, reshuffle)
            if step == 2:
                msg["values"][0] = mp.to_bytes(mp.encrypt(mp.encode(150), mp.new_key()))
            return msg
        second.table.make_merge = changed   # type: ignore[method-assign]
        async def run(deck: NetDeck) -> None:
            await deck.reshuffle(with_pile=True)
        await asyncio.wait_for(asyncio.gather(run(first), run(second)), 240)
        v1, v2 = await asyncio.wait_for(asyncio.gather(first.audit(), second.audit()), 120)
        assert v1.cheater == SECOND and "merge" in v1.reason
    finally:
        close(first, second, conn, server)


async def test_a_malformed_reveal_counts_as_not_revealing(tmp_path):
    first, second, server, conn = await pair(tmp_path)
    try:
        await deal(first, second, n=1)
        v1, _ = await asyncio.wait_for(asyncio.gather(
            first.audit(), second.link.send({"type": "reveal", "keys": "none of your business"})), 60)
        assert v1.cheater == SECOND and "did not reveal its keys" in v1.reason
    finally:
        close(first, second, conn, server)
