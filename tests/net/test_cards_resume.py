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


@pytest.mark.parametrize("records, what", [(2, "mid-shuffle"), (3, "mid-draw"), (5, "after its own draw")])
async def test_a_peer_killed_mid_exchange_resumes_to_the_same_deck(tmp_path, records, what):
    card_peer.ssh_keys(tmp_path)
    first = NetDeck(FIRST, card_peer.SIDES, tmp_path / "first.cards")
    server = await card_peer.listen(tmp_path, first.attach)
    port = server.sockets[0].getsockname()[1]
    try:
        game = asyncio.ensure_future(card_peer.demo_game(first))
        # the second side journals: its view of the first shuffle, its own shuffle, then per deal
        # a strip it makes (the first draws) and a strip it takes (its own draw)
        doomed = await peer(tmp_path, port, "--die-after-records", str(records))
        assert await asyncio.wait_for(doomed.wait(), 120) == -9, what
        journal = tmp_path / "second.cards"
        before = journal.read_bytes()
        shutil.copy(journal, tmp_path / "before.cards")
        held = NetDeck(SECOND, card_peer.SIDES, tmp_path / "before.cards")
        assert len(held.journal.records) == records
        drawn_before = list(held.table.drawn)
        keys_before = list(held.table.keys)
        held.journal.close()

        again = await peer(tmp_path, port)
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
