"""Issue 27, ``hexwar host`` (finding 7): its connection caps cannot be held by idle TCP
connections. Over real SSH on 127.0.0.1."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from hexwar.net import handshake
from hexwar.net.client import open_link
from hexwar.net.errors import LinkClosed
from hexwar.net.limits import Gate, Limits, bound_net_log

from netkit import Hostile, guest_for, start_host


async def test_27_7_sixteen_idle_tcp_connections_do_not_keep_the_guest_out_of_host(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    assert host.limits.max_connections == 16                 # the default cap, filled below
    idle = [await asyncio.open_connection("127.0.0.1", host.port) for _ in range(16)]
    try:
        await asyncio.sleep(0.2)                              # all of them are counted by now
        conn, link = await asyncio.wait_for(open_link(
            "127.0.0.1", host.port, home=tmp_path / "g", username="player",
            code=host.invitation()["code"]), 20)
        hello = await asyncio.wait_for(handshake.receive_hello(link), 20)
        assert hello["role"] == "host"                        # today: the connection is closed
        link.close()
        conn.close()
    finally:
        for _, writer in idle:
            writer.close()
        await host.close()


async def test_27_7_connections_that_logged_in_are_never_displaced(tmp_path, scenario):
    """Making room takes only connections still logging in: with every place held by a login,
    a newcomer is refused, and told why in words (an auth banner, then the disconnect)."""
    host = await start_host(tmp_path / "h", scenario, watch_code="watch-code-4711",
                            limits=Limits(max_connections=2))
    banners = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg, lang):
            banners.append(msg)

    def login(**kw):
        return asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="spectator",
                                password="watch-code-4711", client_keys=None, agent_path=None,
                                config=None, **kw)
    held = [await login(), await login()]
    try:
        try:
            late = await login(client_factory=Client, login_timeout=10)
            late.close()
            raise AssertionError("a third login was let in")
        except asyncssh.Error as exc:
            assert "server is full" in str(exc.reason)
        assert banners and "the server is full" in banners[0]
        assert all(not c.is_closed() for c in held)
    finally:
        for c in held:
            c.close()
        await host.close()


def test_27_7_the_gate_makes_room_from_the_oldest_login_in_progress():
    gate = Gate(total=3, per_address=2)
    assert gate.arrive("a1", "10.0.0.1") == (None, [])
    assert gate.arrive("a2", "10.0.0.1") == (None, [])
    gate.authenticated("a1")
    assert gate.arrive("a3", "10.0.0.1") == (None, ["a2"])   # the address's oldest still logging in
    gate.authenticated("a3")
    refused, evicted = gate.arrive("a4", "10.0.0.1")
    assert refused and "10.0.0.1" in refused and evicted == []
    assert gate.arrive("b1", "10.0.0.2") == (None, [])
    gate.authenticated("b1")
    refused, _ = gate.arrive("c1", "10.0.0.3")
    assert refused and "full" in refused and len(gate) == 3


async def test_27_8_a_client_that_refuses_the_hosts_recorded_result_stops_instead_of_looping(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    run = asyncio.ensure_future(guest.run(give_up=60))
    try:
        await asyncio.wait_for(guest.connected.wait(), 20)
        await guest.session.wait_until(lambda: guest.session.connected, 20)
        said: list[str] = []
        guest.session.subscribe(lambda ev: said.append(ev.text))
        # the host records a result the guest never agreed to (no turn timer runs), then the link drops
        host.session.match.finish(host.session.side, "the opponent ran out of time")
        host.session.link.close()
        session = await asyncio.wait_for(run, 30)            # today: reconnects until give_up
        assert not session.over and session.refused >= 3
        assert any("disagree" in text for text in said), said
        assert session.links <= 5
    finally:
        run.cancel()
        await host.close()


@pytest.fixture
def net_log_budget():
    import logging
    budget = bound_net_log()
    yield budget
    logging.getLogger("hexwar.net").removeFilter(budget)


async def test_27_8_warnings_about_a_peer_are_bounded_over_time_not_per_connection(
        tmp_path, scenario, caplog, net_log_budget):
    import logging
    caplog.set_level(logging.WARNING, logger="hexwar.net")
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        for _ in range(30):                       # reconnect, send a frame that does not decode
            await hostile.connect()
            await hostile.send_raw(b"\xc1")
            with pytest.raises(LinkClosed):
                while True:
                    await asyncio.wait_for(hostile.link.recv(), 10)
            hostile.close()
        assert host.session.refused >= 30                     # every one was refused ...
        lines = [r for r in caplog.records if "undecodable" in r.getMessage()]
        assert len(lines) <= net_log_budget.buckets.burst     # ... today: one line each, 30
    finally:
        hostile.close()
        await host.close()


def test_27_8_the_network_commands_bound_their_log():
    import argparse
    import logging
    from hexwar.cli_net import _logged
    from hexwar.net.limits import LogBudget
    logger = logging.getLogger("hexwar.net")
    try:
        assert _logged(lambda args: 0)(argparse.Namespace(verbose=False)) == 0
        assert any(isinstance(f, LogBudget) for f in logger.filters)
    finally:
        for f in [f for f in logger.filters if isinstance(f, LogBudget)]:
            logger.removeFilter(f)
