"""A card peer killed with SIGKILL in the middle of a shuffle or a draw, restarted on its journal:
the same deck, the same cards, no redraw, and a clean audit (real processes, real SSH)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

import pytest

from hexwar.net import card_peer
from hexwar.net.card_protocol import NetDeck

FIRST, SECOND = card_peer.SIDES


async def peer(tmp: Path, port: int, *extra: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hexwar.net.card_peer", SECOND, "--home", str(tmp), "--port", str(port),
        "--journal", str(tmp / "second.cards"), *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


@pytest.mark.parametrize("records, what", [(2, "mid-shuffle"), (3, "mid-draw"), (5, "after its own draw"),
                                            (24, "mid-merge")])
async def test_a_peer_killed_mid_exchange_resumes_to_the_same_deck(tmp_path, records, what):
    card_peer.ssh_keys(tmp_path)
    first = NetDeck(FIRST, card_peer.SIDES, tmp_path / "first.cards")
    server = await card_peer.listen(tmp_path, first.attach)
    port = server.sockets[0].getsockname()[1]
    merge = ("--merge", "--cards", "24") if what == "mid-merge" else ()     # 24 cards: a cheaper merge
    try:
        game = asyncio.ensure_future(card_peer.demo_game(first, merge=bool(merge), cards=24 if merge else 60))
        # the second side journals: its view of the first shuffle, its own shuffle, then per deal
        # a strip it makes (the first draws) and a strip it takes (its own draw); record 24 is
        # its own pass of the merge (after 10 draws, 4 cards shown, a reshuffle and 4 draws)
        doomed = await peer(tmp_path, port, "--die-after-records", str(records), *merge)
        assert await asyncio.wait_for(doomed.wait(), 120) == -9, what
        journal = tmp_path / "second.cards"
        before = journal.read_bytes()
        shutil.copy(journal, tmp_path / "before.cards")
        held = NetDeck(SECOND, card_peer.SIDES, tmp_path / "before.cards")
        assert len(held.journal.records) == records
        drawn_before = list(held.table.drawn)
        keys_before = list(held.table.keys)
        held.journal.close()

        if what == "mid-merge":
            assert held.out[-1]["type"] == "merge" and held.out[-1]["step"] == 2
        again = await peer(tmp_path, port, *merge)
        out, err = await asyncio.wait_for(again.communicate(), 180)
        assert again.returncode == 0, err.decode()[-2000:]
        theirs = json.loads(out)
        mine = await asyncio.wait_for(game, 60)
        assert mine["cheater"] is None and theirs["cheater"] is None, (mine, theirs)
        assert journal.read_bytes().startswith(before)            # resumed, not restarted
        after = NetDeck(SECOND, card_peer.SIDES, journal)
        assert after.table.keys[:len(keys_before)] == keys_before
        assert after.table.drawn[:len(drawn_before)] == drawn_before    # the same cards, no redraw
        assert after.table.rounds[0].final == first.table.rounds[0].final
        assert theirs["count"] == mine["count"] and len(theirs["hand"]) == mine["count"][SECOND]
        after.journal.close()
    finally:
        first.close()
        server.close()


@pytest.mark.parametrize("records", [1, 3])
async def test_the_listening_peer_killed_mid_exchange_resumes_and_the_other_reconnects(tmp_path, records):
    """The first side (it listens) is killed right after journaling its own shuffle (1 record, not
    yet sent: it dies before anyone connects) or the strip of its first draw (3 records); restarted
    on its journal it goes on with the very same deck, and the game ends with a clean audit."""
    card_peer.ssh_keys(tmp_path)
    journal = tmp_path / "first.cards"

    async def first_process(*extra: str) -> asyncio.subprocess.Process:
        (tmp_path / "port").unlink(missing_ok=True)
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hexwar.net.card_peer", FIRST, "--home", str(tmp_path),
            "--journal", str(journal), "--port-file", str(tmp_path / "port"), *extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)

    async def port() -> int:
        for _ in range(600):
            text = (tmp_path / "port").read_text() if (tmp_path / "port").exists() else ""
            if text:
                return int(text)
            await asyncio.sleep(0.05)
        raise AssertionError("the first peer never listened")

    second = NetDeck(SECOND, card_peer.SIDES, tmp_path / "second.cards")
    doomed = await first_process("--die-after-records", str(records))
    conn = None
    if records > 1:
        conn, link = await card_peer.connect(tmp_path, await port())
        await second.attach(link)
    game = asyncio.ensure_future(card_peer.demo_game(second))
    try:
        assert await asyncio.wait_for(doomed.wait(), 120) == -9
        if conn is not None:
            conn.close()
        before = NetDeck(FIRST, card_peer.SIDES, journal)
        assert len(before.journal.records) == records
        shuffle, drawn = before.out[0], list(before.table.drawn)
        before.journal.close()
        again = await first_process()
        conn, link = await card_peer.connect(tmp_path, await port())
        await second.attach(link)
        out, err = await asyncio.wait_for(again.communicate(), 180)
        assert again.returncode == 0, err.decode()[-2000:]
        theirs, mine = json.loads(out), await asyncio.wait_for(game, 60)
        assert theirs["cheater"] is None and mine["cheater"] is None, (theirs, mine)
        received = second.journal.records[0]["msg"]
        assert received["values"] == shuffle["values"] and received["public"] == shuffle["public"]
        after = NetDeck(FIRST, card_peer.SIDES, journal)
        assert after.table.drawn[:len(drawn)] == drawn and after.out[0] == shuffle
        after.journal.close()
    finally:
        game.cancel()
        second.close()
        if conn is not None:
            conn.close()


async def test_a_resumed_deck_refuses_a_game_that_does_not_repeat_its_operations(tmp_path):
    from hexwar.net.mental_poker import CardProtocolError

    deck = NetDeck(FIRST, card_peer.SIDES, tmp_path / "first.cards")
    shuffling = asyncio.ensure_future(deck.shuffle(list(range(10))))    # no peer: it waits for one
    await asyncio.sleep(0.5)
    shuffling.cancel()
    deck.close()
    again = NetDeck(FIRST, card_peer.SIDES, tmp_path / "first.cards")
    assert [r["dir"] for r in again.journal.records] == ["out"]
    with pytest.raises(CardProtocolError, match="not repeated the same way"):
        await again.draw(SECOND)            # the journal holds a shuffle where the game now strips
    again.close()
