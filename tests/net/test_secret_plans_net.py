"""Secret plans over real SSH: two headless computer peers play the campaign (engine/secret.py).

Commitments and reveals are ordinary orders, so lockstep carries them; what this shows is that
neither journal holds a plan before both commitments of its turn, and that both verify."""

from __future__ import annotations

import asyncio

from hexwar.cli import main as hexwar_main
from hexwar.engine import secret
from hexwar.net.client import Watcher
from hexwar.scenarios.loader import find_scenario, load_scenario

from netkit import guest_for, order_records, play_match, start_host


def _plans_after_both_commits(path, sides) -> int:
    commits: list[str] = []
    reveals = 0
    for rec in order_records(path):
        kind = rec["order"]["k"]
        if kind == secret.COMMIT:
            assert set(rec["order"]["a"]) == {"digest"}
            commits.append(rec["side"])
        elif kind == secret.REVEAL:
            assert sorted(commits[-2:]) == sorted(sides), "a plan before both commitments"
            reveals += 1
    return reveals


async def test_g19_two_peers_play_bir_hakeim_with_sealed_plans(tmp_path):
    scenario = load_scenario(find_scenario("bir-hakeim"))
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    inv = host.invitation()
    watcher = Watcher("127.0.0.1", inv["port"], home=tmp_path / "w", code=inv["watch_code"],
                      fingerprint=inv["fingerprint"])
    seen: list[str] = []
    try:
        watching = asyncio.ensure_future(watcher.run(
            lambda e: seen.append(e.text) if e.kind == "applied" else None))
        hs, gs = await play_match(host, guest, seed=2, give_up=60.0)
        summary = await asyncio.wait_for(watching, 20)
    finally:
        await host.close()
    # the spectator's stream: every reveal comes after both commitments of its round
    assert summary["problems"] == [] and summary["digest"] == hs["digest"]
    commits = 0
    for text in seen:
        if f" {secret.COMMIT} " in text:
            assert "posture" not in text
            commits += 1
        elif f" {secret.REVEAL} " in text:
            assert commits % 2 == 0 and commits > 0, text
    assert commits >= 2
    assert hs["status"] == gs["status"] == "finished"
    assert hs["digest"] == gs["digest"] and hs["refused"] == gs["refused"] == 0
    sides = [s.id for s in scenario.sides]
    assert _plans_after_both_commits(hs["journal"], sides) >= 2
    assert _plans_after_both_commits(gs["journal"], sides) >= 2
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
    assert hexwar_main(["replay", "--verify", gs["journal"]]) == 0
