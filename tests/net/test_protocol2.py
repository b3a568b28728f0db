"""Issue 10, protocol 2: the version is negotiated in the hello, the scenario text only travels
to a side that lacks it, and play messages travel in a compact positional form."""

from __future__ import annotations

import asyncio
import zlib

from hypothesis import given, settings, strategies as st

from hexwar.engine import Game, Order
from hexwar.net import protocol
from hexwar.net.client import Watcher
from hexwar.net.framing import pack
from hexwar.scenarios.loader import parse_scenario

from netkit import Hostile, Proxy, guest_for, play_match, start_host


async def test_issue10_p2_a_version_1_hello_is_refused_saying_to_upgrade(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        reply = await hostile.connect({"proto": 1, "scenario_text": "(a version 1 guest's hello)"})
        assert reply["type"] == "bye"
        assert "protocol version: the guest speaks 1, this side 2" in reply["reason"]
        assert "upgrade" in reply["reason"]
        assert host.guest_key is None
    finally:
        hostile.close()
        await host.close()


async def test_issue10_p2_the_host_hello_carries_no_scenario_text(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        assert "scenario_text" not in hostile.hello
        assert len(pack(hostile.hello)) < 1024
    finally:
        hostile.close()
        await host.close()


def _custom(scenario):
    """The scenario with another title: same game, a file no hexwar ships."""
    text = scenario.source_text.replace('title = "', 'title = "Custom ', 1)
    custom = parse_scenario(text, "custom")
    assert custom.source_hash != scenario.source_hash
    return custom


async def test_issue10_p2_the_scenario_text_goes_once_to_a_guest_that_lacks_it(tmp_path, scenario):
    custom = _custom(scenario)
    host = await start_host(tmp_path / "h", custom)
    proxy = await Proxy(host.port).start()
    guest = guest_for(host, tmp_path / "g", port=proxy.port)

    async def cut_once() -> None:
        await host.session.wait_until(lambda: host.session.match.seq >= 8, 30)
        proxy.cut_all()
    watcher = Watcher("127.0.0.1", host.port, home=tmp_path / "w", code=host.invitation()["watch_code"])
    try:
        cutter = asyncio.ensure_future(cut_once())
        watching = asyncio.ensure_future(watcher.run())
        hs, gs = await play_match(host, guest, seed=2)
        await cutter
        seen = await asyncio.wait_for(watching, 30)
    finally:
        await proxy.close()
        await host.close()
    assert hs["status"] == gs["status"] == "finished" and hs["digest"] == gs["digest"]
    sizes = guest.session.hello_sizes
    assert len(sizes) >= 2
    # the first connection fetched the file, compressed (tests/net/test_scenario_zlib.py)
    packed = len(zlib.compress(custom.source_text.encode(), 9))
    assert packed < sizes[0] < packed + 2048, "the first connection fetched the file"
    assert all(s <= 2048 for s in sizes[1:]), f"reconnect hellos {sizes[1:]} must not resend it"
    # a spectator without the file fetches it the same way and agrees with the players
    assert seen["digest"] == hs["digest"] and not seen["problems"]
    assert packed < seen["hello_bytes"] < packed + 2048


async def test_issue10_p2_a_built_in_scenario_is_never_sent(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    hs, gs = await play_match(host, guest, seed=5)
    await host.close()
    assert gs["status"] == "finished"
    assert guest.session.hello_sizes[0] <= 2048


def test_issue10_p2_play_messages_are_compact():
    strings = protocol.Strings()
    digest = bytes(range(protocol.DIGEST_BYTES))
    ack = pack(protocol.encode(protocol.message("ack", seq=300, digest=digest), strings))
    assert len(ack) <= 15
    move = Order.make("move", unit="blue-hi-3", path=[[4, 6], [5, 5]], facing=2).to_wire()
    first = pack(protocol.encode(protocol.message("order", seq=300, order=move, digest=digest), strings))
    again = pack(protocol.encode(protocol.message("order", seq=301, order=move, digest=digest), strings))
    v1 = pack({"type": "order", "seq": 301, "order": move, "digest": bytes(16)})
    assert len(again) < len(first) < len(v1)
    assert len(again) <= 32, len(again)  # names and the unit id go as one-byte references


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["move", "melee", "end-phase", "pivot"]),
                          st.dictionaries(st.sampled_from(["unit", "path", "facing", "mode", "x"]),
                                          st.one_of(st.integers(-300, 300), st.text(max_size=12),
                                                    st.booleans(), st.none(),
                                                    st.lists(st.integers(-9, 9), max_size=3)),
                                          max_size=4)), min_size=1, max_size=12))
def test_issue10_p2_orders_survive_the_string_table_in_both_directions(orders):
    out, into = protocol.Strings(), protocol.Strings()
    for kind, args in orders:
        wire = Order.make(kind, **args).to_wire()
        frame = protocol.encode(protocol.message("order", seq=1, order=wire, digest=bytes(8)), out)
        assert protocol.decode(frame, into)["order"] == wire


def test_issue10_p2_a_reference_to_an_unsent_string_is_refused():
    import pytest
    from hexwar.net.errors import ProtocolViolation
    with pytest.raises(ProtocolViolation, match="unknown string reference"):
        protocol.decode([2, 0, [3], bytes(8)], protocol.Strings())
    with pytest.raises(ProtocolViolation, match="unknown string reference"):
        protocol.decode([2, 0, ["move", "unit", b"\x05"], bytes(8)], protocol.Strings())


def test_issue10_p2_the_string_table_is_bounded():
    strings = protocol.Strings()
    for n in range(protocol.Strings.LIMIT * 3):
        strings.token(f"unit-{n}")
    assert len(strings.items) == protocol.Strings.LIMIT


async def test_issue10_p2_desync_is_still_caught_at_every_order(tmp_path, scenario):
    """A peer whose digest differs is caught at the very order, with the short digests too."""
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        game = Game(scenario)
        order = next(o for o in game.legal_orders() if not game.needs_dice(o))
        await hostile.send({"type": "order", "seq": 0, "order": order.to_wire(), "digest": b"\x00" * 8})
        await host.session.wait_until(lambda: host.session.desync is not None, 10)
        assert host.session.desync["seq"] == 0
    finally:
        hostile.close()
        await host.close()


async def test_issue10_p2_a_journal_for_another_scenario_is_refused(tmp_path, scenario):
    """A guest resuming with a journal of a different scenario is told so, not handed the
    host's file to play on top of its own journal."""
    host = await start_host(tmp_path / "h", _custom(scenario))
    try:
        from hexwar.net.errors import HandshakeRefused
        from hexwar.net.netmatch import NetMatch
        import os
        side = host.session.peer_side
        NetMatch.create(scenario, host.session.match.match_id, tmp_path / "g.journal",
                        players={side: "guest"}, info={"role": "guest", "side": side}).close()
        guest = guest_for(host, tmp_path / "g", journal=None, resume=str(tmp_path / "g.journal"))
        import pytest
        with pytest.raises(HandshakeRefused, match="scenario"):
            await asyncio.wait_for(guest.connect_once(), 20)
    finally:
        await host.close()


async def test_issue10_p2_acks_are_cumulative_and_a_peer_runs_at_most_a_window_ahead(tmp_path, scenario,
                                                                                 monkeypatch):
    """A whole game over real SSH: far fewer acks than orders cross the wire, no peer ever has
    more than WINDOW orders unacknowledged, and the journals still agree at every order."""
    from hexwar.net.link import Link
    sent: dict[str, int] = {}
    most_unacked = [0]
    real_send = Link.send

    async def counting_send(self, message):
        sent[message.get("type")] = sent.get(message.get("type"), 0) + 1
        return await real_send(self, message)
    monkeypatch.setattr(Link, "send", counting_send)
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    real_submit = type(host.session).submit

    async def watching_submit(self, order):
        most_unacked[0] = max(most_unacked[0], len(self._unacked))
        return await real_submit(self, order)
    monkeypatch.setattr(type(host.session), "submit", watching_submit)
    hs, gs = await play_match(host, guest, seed=8)
    await host.close()
    assert hs["status"] == gs["status"] == "finished" and hs["digest"] == gs["digest"]
    from netkit import order_records
    assert order_records(hs["journal"]) == order_records(gs["journal"])
    assert sent.get("ack", 0) < sent["order"] * 0.75, sent
    assert most_unacked[0] < protocol.WINDOW


async def test_issue10_p2_a_guest_refuses_a_version_1_host_saying_to_upgrade(tmp_path, scenario):
    import pytest
    from hexwar.net.errors import HandshakeRefused
    host = await start_host(tmp_path / "h", scenario)
    v2_hello = host._my_hello
    host._my_hello = lambda role="host": {**v2_hello(role), "proto": 1,  # what a version 1 host sends
                                          "scenario_text": scenario.source_text}
    try:
        guest = guest_for(host, tmp_path / "g")
        with pytest.raises(HandshakeRefused, match="the host speaks 1, this side 2.*upgrade"):
            await asyncio.wait_for(guest.connect_once(), 20)
        await asyncio.sleep(0.1)
        assert any("speaks 2" in r or "refused" in r for r in host.refused_handshakes), host.refused_handshakes
    finally:
        await host.close()
