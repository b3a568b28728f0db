"""Whole Age of Gunpowder games: the same digest under different PYTHONHASHSEEDs, a simulated
journal that replays with --verify, and a match over real SSH between two headless computers."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "net"))

from netkit import guest_for, load, order_records, start_host  # noqa: E402

from hexwar.cli import main as hexwar_main  # noqa: E402
from hexwar.match import simulate  # noqa: E402
from hexwar.net import headless  # noqa: E402


def _simulate(hashseed: int, tmp_path: Path) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed), HEXWAR_HOME=str(tmp_path / f"home{hashseed}"))
    out = subprocess.run([sys.executable, "-m", "hexwar", "simulate", "gunpowder-picket", "--seed", "7",
                          "--level", "white=basic", "--level", "green=strong", "--json"],
                         env=env, capture_output=True, text=True, timeout=300, check=True).stdout
    return json.loads(out)


def test_same_game_under_different_hash_seeds(tmp_path):
    a, b = _simulate(1, tmp_path), _simulate(4242, tmp_path)
    assert a["digest"] == b["digest"] and a["orders"] == b["orders"] > 50


def test_simulated_journal_replays_with_verify(tmp_path):
    journal = tmp_path / "g.journal"
    r = simulate(load("gunpowder-river"), 3, journal_path=journal, levels={"blue": "basic", "red": "basic"})
    assert r.orders > 100 and r.reason
    assert hexwar_main(["replay", "--verify", str(journal)]) == 0
    kinds = {rec["order"]["k"] for rec in order_records(journal)}
    assert {"form", "engine-fire", "shoot", "move"} <= kinds  # formations and the Artillery Phase replay too


async def test_two_headless_computer_peers_play_gunpowder_over_ssh(tmp_path):
    scenario = load("gunpowder-picket")
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    try:
        runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=120))
        await asyncio.wait_for(guest.connected.wait(), 30)
        hs, gs = await asyncio.wait_for(asyncio.gather(
            headless.play(host.session, 2, give_up=120), headless.play(guest.session, 2, give_up=120)), 600)
        await asyncio.wait_for(runner, 60)
    finally:
        await host.close()
    assert hs["status"] == gs["status"] == "finished"
    assert hs["result"] == gs["result"] and hs["result"]["reason"]
    assert hs["digest"] == gs["digest"]
    assert hs["refused"] == gs["refused"] == 0
    assert order_records(hs["journal"]) == order_records(gs["journal"])
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
