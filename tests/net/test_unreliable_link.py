"""Games over a proxy that delays, splits frames at random points and cuts the connection."""

from __future__ import annotations

import asyncio

import pytest

from hexwar.cli import main as hexwar_main

from netkit import Proxy, guest_for, order_records, play_match, start_host


def _check_identical(hs: dict, gs: dict) -> None:
    assert hs["status"] == gs["status"] == "finished", (hs, gs)
    assert hs["digest"] == gs["digest"] and hs["result"] == gs["result"]
    host_orders, guest_orders = order_records(hs["journal"]), order_records(gs["journal"])
    assert host_orders == guest_orders
    # read_journal already refuses gaps and repeats; say it plainly too
    assert [r["seq"] for r in host_orders] == list(range(hs["orders"]))
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0


async def test_delayed_and_split_stream(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    proxy = await Proxy(host.port, delay=0.002, split=True, seed=7).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)
    try:
        hs, gs = await play_match(host, guest, seed=4)
    finally:
        await proxy.close()
        await host.close()
    _check_identical(hs, gs)
    assert proxy.connections == 1


async def test_dropped_connections_resume_without_losing_or_doubling(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    # cut the first four connections at different points after the handshake (~9.8 KB of SSH, the
    # two small hellos and the resumes: protocol 2 sends no scenario text to a guest that ships
    # the scenario), each a few orders into play
    proxy = await Proxy(host.port, split=True, drops=[10400, 11000, 10600, 11200], seed=3).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)
    try:
        hs, gs = await play_match(host, guest, seed=6)
    finally:
        await proxy.close()
        await host.close()
    _check_identical(hs, gs)
    assert proxy.cuts == 4 and proxy.connections >= 5
    assert gs["connections"] >= 5
    assert hs["refused"] == gs["refused"] == 0


async def test_cut_at_random_moments_mid_game(tmp_path, scenario):
    """Cut every live connection a few times while orders are in flight."""
    host = await start_host(tmp_path / "h", scenario)
    proxy = await Proxy(host.port, delay=0.001, seed=11).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)

    async def saboteur() -> None:
        for _ in range(5):
            await host.session.wait_until(lambda: host.session.connected, 20)
            await asyncio.sleep(0.15)
            if host.session.stopped:
                return
            proxy.cut_all()

    try:
        cutting = asyncio.ensure_future(saboteur())
        hs, gs = await play_match(host, guest, seed=8)
        await cutting
    finally:
        await proxy.close()
        await host.close()
    _check_identical(hs, gs)
    assert gs["connections"] >= 2


@pytest.mark.parametrize("host_acts_first", [True, False])
async def test_player_whose_opponent_is_gone_sees_it_and_cannot_act_for_them(tmp_path, scenario, host_acts_first):
    from hexwar.engine import Game
    from hexwar.net.errors import NotYourTurn, PeerGone
    first = Game(scenario).to_act()
    side = first if host_acts_first else next(s.id for s in scenario.sides if s.id != first)
    host = await start_host(tmp_path / "h", scenario, side=side)
    proxy = await Proxy(host.port).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)
    events = []
    host.session.subscribe(events.append)
    runner = asyncio.ensure_future(guest.run(retry_delay=30, give_up=1))
    s = host.session
    try:
        await asyncio.wait_for(s.wait_until(lambda: s.connected), 20)
        proxy.cut_all()
        await asyncio.wait_for(s.wait_until(lambda: not s.connected), 20)
        assert any(e.kind == "status" and "disconnected" in e.text for e in events)
        order = next(iter(s.game.legal_orders()))
        expected = PeerGone if host_acts_first else NotYourTurn
        with pytest.raises(expected):
            await s.submit(order)
        assert s.match.seq == 0 and s.match.journal is not None
    finally:
        runner.cancel()
        await proxy.close()
        await host.close()



async def test_keepalives_find_a_silently_dead_link(tmp_path, scenario):
    """The relay keeps the TCP connection open but stops carrying data: only SSH keepalives
    notice. Both sides see the opponent gone, the guest reconnects, the game finishes."""
    host = await start_host(tmp_path / "h", scenario, keepalive=0.3)
    proxy = await Proxy(host.port).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)
    lost = []
    host.session.subscribe(lambda e: e.kind == "status" and "disconnected" in e.text and lost.append(e))

    async def blackhole() -> None:
        s = host.session
        await s.wait_until(lambda: s.connected and s.match.seq >= 10, 20)
        proxy.freeze_all()

    try:
        freezing = asyncio.ensure_future(blackhole())
        hs, gs = await play_match(host, guest, seed=9)
        await freezing
    finally:
        await proxy.close()
        await host.close()
    _check_identical(hs, gs)
    assert lost, "the host saw its opponent go"
    assert gs["connections"] >= 2
