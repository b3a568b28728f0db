"""Both Napoleonica scenarios played over real SSH (asyncssh on 127.0.0.1) by two headless
computer peers: the same result, the same final digest and journals that replay."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "net"))

from netkit import guest_for, load, order_records, start_host  # noqa: E402

from hexwar.cli import main as hexwar_main  # noqa: E402
from hexwar.net import headless  # noqa: E402


@pytest.mark.parametrize("name", ["napoleonica-brigade", "napoleonica-meeting"])
async def test_two_headless_computer_peers_play_napoleonica_over_ssh(tmp_path, name):
    scenario = load(name)
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    try:
        runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=120))
        await asyncio.wait_for(guest.connected.wait(), 30)
        hs, gs = await asyncio.wait_for(asyncio.gather(
            headless.play(host.session, 2, give_up=120), headless.play(guest.session, 2, give_up=120)), 900)
        await asyncio.wait_for(runner, 60)
    finally:
        await host.close()
    assert hs["status"] == gs["status"] == "finished"
    assert hs["result"] == gs["result"] and hs["result"]["reason"]
    assert hs["digest"] == gs["digest"]
    assert hs["refused"] == gs["refused"] == 0
    assert order_records(hs["journal"]) == order_records(gs["journal"])
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
