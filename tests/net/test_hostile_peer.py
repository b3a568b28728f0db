"""A hostile guest against a running host: every bad message is refused with a reason, the
host's state never changes, and the host keeps serving."""

from __future__ import annotations

import asyncio
import os

import asyncssh
import pytest

from hexwar.engine import Dice, Game, Order, nonce_commitment, order_seed
from hexwar.net import protocol
from hexwar.net.client import open_link
from hexwar.net.errors import AuthRefused, LinkClosed

from netkit import Hostile, guest_for, start_host


def _state(host):
    return host.session.match.seq, host.session.game.digest()


async def _refused(hostile, host, frame, *words):
    before = _state(host)
    replies = await hostile.exchange(frame)
    errors = [r for r in replies if r.get("type") == "error"]
    assert errors, f"no refusal for {frame!r}: {replies!r}"
    for w in words:
        assert w in errors[0]["reason"], errors[0]["reason"]
    assert _state(host) == before
    return errors[0]["reason"]


async def test_bad_messages_are_refused_with_reasons_and_change_nothing(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)  # host plays europeans; natives act first
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        resume = await hostile.connect()
        assert resume["type"] == "resume" and resume["seq"] == 0
        game = Game(scenario)
        full = bytes.fromhex(game.digest())
        digest = full[:protocol.DIGEST_BYTES]
        dice_order = next(o for o in game.legal_orders() if game.needs_dice(o))
        enemy = next(u for u in game.state.units.values() if u.side == host.session.side)
        await _refused(hostile, host, "a string", "must be a non-empty list")
        await _refused(hostile, host, {"type": "launch-missiles"}, "must be a non-empty list, not dict")
        await _refused(hostile, host, [99, "launch-missiles"], "unknown message type")
        await _refused(hostile, host, {"type": "order", "seq": "0", "order": {"k": "end-phase"}}, "'seq' must be an integer")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": {"k": "end-phase"}, "x": 1}, "fields, at most 4")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": {"k": "Launch!"}, "digest": digest}, "malformed order")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": {"k": 5}, "digest": digest}, "an order must be")
        await _refused(hostile, host, [2, 0, [7], digest], "unknown string reference")
        await _refused(hostile, host, {"type": "order", "seq": 3, "order": dice_order.to_wire(), "commit": bytes(32)},
                       "out of order")
        await _refused(hostile, host, {"type": "order", "seq": 0, "digest": digest,
                                       "order": Order.make("move", unit=enemy.id, path=[[0, 0]]).to_wire()},
                       "illegal order")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": dice_order.to_wire(), "digest": digest},
                       "needs dice")
        await _refused(hostile, host, {"type": "reveal", "seq": 0, "nonce": bytes(16), "digest": digest}, "no committed order")
        await _refused(hostile, host, {"type": "ack", "seq": 0, "digest": digest}, "not awaiting")
        await _refused(hostile, host, {"type": "resume", "seq": 0, "digest": full}, "twice")
        await _refused(hostile, host, {"type": "record", "seq": 0, "side": "natives", "order": dice_order.to_wire(),
                                       "nonces": [bytes(16), bytes(16)], "digest": digest}, "catching up")
        await _refused(hostile, host, {"type": "draw", "action": "accept", "seq": 0}, "not offered")
        await _refused(hostile, host, {"type": "timeout", "seq": 0}, "time forfeit")
        await _refused(hostile, host, {"type": "pong", "n": 999}, "answers no ping")

        # commit-reveal with a wrong reveal, then the right one
        nonce_a = os.urandom(16)
        replies = await hostile.exchange({"type": "order", "seq": 0, "order": dice_order.to_wire(),
                                          "commit": nonce_commitment(nonce_a)})
        nonce_b = next(r for r in replies if r["type"] == "nonce")["nonce"]
        assert _state(host)[0] == 0
        await _refused(hostile, host, {"type": "reveal", "seq": 0, "nonce": os.urandom(16), "digest": digest},
                       "does not match the commitment")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": Order.make("end-phase").to_wire(),
                                       "commit": bytes(32)}, "not the order you committed to")
        game.apply(dice_order, Dice(order_seed(host.session.match.match_id, 0, nonce_a, nonce_b)), "natives")
        good = bytes.fromhex(game.digest())[:protocol.DIGEST_BYTES]
        replies = await hostile.exchange({"type": "reveal", "seq": 0, "nonce": nonce_a, "digest": good})
        assert {"type": "ack", "seq": 0, "digest": good} in replies
        assert _state(host) == (1, game.digest())
        # replays of what was just accepted
        await _refused(hostile, host, {"type": "reveal", "seq": 0, "nonce": nonce_a, "digest": good}, "no committed order")
        await _refused(hostile, host, {"type": "order", "seq": 0, "order": dice_order.to_wire(),
                                       "commit": nonce_commitment(nonce_a)}, "replays an order already applied")
        assert len(host.session.refusals) == 22
        assert host.session.desync is None
    finally:
        hostile.close()
        await host.close()


async def test_huge_frame_drops_the_link_but_not_the_host(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        before = _state(host)
        with pytest.raises(LinkClosed):
            await hostile.exchange({"type": "chat", "text": "x" * 400_000})
        assert any("larger than" in r for r in host.session.refusals)
        assert _state(host) == before
        hostile.close()
        # deeply nested and undecodable frames: same treatment
        for raw in (b"\x91" * 50 + b"\xc0", b"\xc1\xc1\xc1"):
            await hostile.connect()  # the seat is bound to our key now: no code needed
            with pytest.raises(LinkClosed):
                await hostile.exchange(raw=raw)
            hostile.close()
        assert any("nested deeper" in r for r in host.session.refusals)
        assert any("undecodable" in r for r in host.session.refusals)
        assert _state(host) == before
        # and the host still plays: an honest guest with the same key finishes a game
        guest = guest_for(host, tmp_path / "g", code=None)
        from netkit import play_match
        hs, gs = await play_match(host, guest, seed=1)
        assert hs["status"] == gs["status"] == "finished" and hs["digest"] == gs["digest"]
    finally:
        hostile.close()
        await host.close()


@pytest.mark.parametrize("override,words", [
    ({"proto": 99}, "protocol version"),
    ({"engine": "0"}, "engine version"),
    ({"ruleset_hash": "0" * 32}, "code differs"),
    ({"scenario_hash": "f" * 32}, "scenario"),
    ({"side": "europeans"}, "seat"),
    ({"role": "host"}, "says it is a host"),
    ({"caps": ["chat"]}, "lacks capabilities"),
    ({"match": b"\x01" * 16}, "different match"),
    ({"proto": "one"}, "bad hello"),
])
async def test_wrong_handshake_is_refused_saying_what_differs(tmp_path, scenario, override, words):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        reply = await hostile.connect(override)
        assert reply["type"] == "bye", reply
        assert words in reply["reason"], reply["reason"]
        await asyncio.sleep(0.05)
        assert any(words in r for r in host.refused_handshakes)
        assert host.guest_key is None and host.invitation()["code"], "a refused guest takes no seat"
    finally:
        hostile.close()
        await host.close()


async def test_unknown_key_wrong_code_and_spent_code_are_refused(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    port = host.invitation()["port"]
    try:
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", port, home=tmp_path / "stranger", username="player", code=None)
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", port, home=tmp_path / "stranger", username="player", code="aaaa-bbbb-cccc")
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", port, home=tmp_path / "stranger", username="root",
                            code=host.invitation()["code"])
        assert host.failed_logins >= 2
        # the rightful guest takes the seat with the code ...
        code = host.invitation()["code"]
        hostile = Hostile(host, tmp_path / "g", code=code)
        await hostile.connect()
        hostile.close()
        # ... after which the code is spent and a second guest cannot take the seat
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", port, home=tmp_path / "second", username="player", code=code)
        assert host.session.match.seq == 0
    finally:
        await host.close()


async def test_only_the_hexwar_subsystem_is_offered(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        result = await hostile.conn.run("echo hello", check=False)
        assert result.exit_status != 0 and "only offers" in str(result.stderr)
        with pytest.raises(asyncssh.ChannelOpenError):
            await hostile.conn.open_connection("127.0.0.1", host.port)
    finally:
        hostile.close()
        await host.close()


async def test_changed_host_key_is_refused_like_openssh(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    port = host.invitation()["port"]
    guest_home = tmp_path / "g"
    code = host.invitation()["code"]
    first_fingerprint = host.invitation()["fingerprint"]
    conn, link = await open_link("127.0.0.1", port, home=guest_home, username="player", code=code)
    link.close()
    conn.close()
    await host.close()
    # same address and port, a different host (new data dir, new key)
    impostor = await start_host(tmp_path / "other", scenario, port=port, code=code)
    try:
        from hexwar.net.errors import HostKeyChanged
        with pytest.raises(HostKeyChanged) as err:
            await open_link("127.0.0.1", port, home=guest_home, username="player", code=code)
        assert "REMOTE HOST IDENTIFICATION HAS CHANGED" in err.value.reason
        assert "known_hosts" in err.value.reason
        assert impostor.failed_logins == 0 and impostor.guest_key is None, "no credential was offered to it"
        with pytest.raises(HostKeyChanged):
            await open_link("127.0.0.1", port, home=tmp_path / "fresh", username="player", code=code,
                            expected_fingerprint=first_fingerprint)
    finally:
        await impostor.close()



async def test_a_peer_cannot_award_itself_the_match_on_resume(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect(resume=False)
        game = host.session.game
        await hostile.send({"type": "resume", "seq": 0, "digest": bytes.fromhex(game.digest()),
                            "end": {"winner": "natives", "reason": "europeans resigned"}})
        await hostile.exchange({"type": "ping", "n": 7})
        assert host.session.match.result is None and not host.session.over
        assert any("does not agree" in r for r in host.session.refusals)
    finally:
        hostile.close()
        await host.close()


@pytest.mark.parametrize("method", ["keyboard-interactive", "password"])
async def test_invite_code_works_by_password_and_keyboard_interactive(tmp_path, scenario, method):
    host = await start_host(tmp_path / "h", scenario)
    inv = host.invitation()
    try:
        async with asyncssh.connect("127.0.0.1", inv["port"], known_hosts=None, username="player",
                                    password=inv["code"], client_keys=None, agent_path=None, config=None,
                                    preferred_auth=method) as conn:
            assert conn.get_extra_info("username") == "player"
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect("127.0.0.1", inv["port"], known_hosts=None, username="player",
                                   password="nope-nope-nope", client_keys=None, agent_path=None,
                                   config=None, preferred_auth=method)
    finally:
        await host.close()
