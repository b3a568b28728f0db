"""Two real peers over asyncssh on 127.0.0.1 play whole games; a spectator follows one."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

from hexwar.cli import main as hexwar_main
from hexwar.match import simulate
from hexwar.net.client import Watcher
from hexwar.journal import read_journal

from netkit import guest_for, order_records, play_match, start_host


async def test_two_peers_play_to_the_end_with_identical_journals(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    try:
        hs, gs = await play_match(host, guest, seed=3)
    finally:
        await host.close()
    assert hs["status"] == gs["status"] == "finished"
    assert hs["result"] == gs["result"] and hs["result"]["reason"]
    assert hs["digest"] == gs["digest"]
    assert hs["orders"] == gs["orders"] > 20
    # what one side sent is what the other received (the SSH channel carries nothing else)
    assert hs["refused"] == gs["refused"] == 0
    host_j, guest_j = read_journal(hs["journal"]), read_journal(gs["journal"])
    assert host_j.header == guest_j.header
    assert order_records(hs["journal"]) == order_records(gs["journal"])
    dice = [r for r in order_records(hs["journal"]) if r["nonces"]]
    assert dice, "the game rolled dice, so commit-reveal ran"
    assert all(len(set(r["nonces"])) == 2 for r in dice)
    # the journal is an ordinary hexwar journal
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
    assert hexwar_main(["replay", "--verify", gs["journal"]]) == 0


async def test_every_roll_is_seeded_by_both_peers_nonces(tmp_path, scenario):
    """For each dice order, the acting peer journaled its nonce before committing to it, the other
    peer journaled the commitment it answered with its own nonce, and the seed used both."""
    from hexwar.engine import nonce_commitment
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    try:
        hs, gs = await play_match(host, guest, seed=5)
    finally:
        await host.close()
    journals = {hs["side"]: read_journal(hs["journal"]).records, gs["side"]: read_journal(gs["journal"]).records}
    checked = 0
    for rec in order_records(hs["journal"]):
        if not rec["nonces"]:
            continue
        actor, other = rec["side"], next(s for s in journals if s != rec["side"])
        mine = [r for r in journals[actor] if r["type"] == "commit" and r["seq"] == rec["seq"]]
        theirs = [r for r in journals[other] if r["type"] == "peer-commit" and r["seq"] == rec["seq"]]
        assert len(mine) == 1 and len(theirs) == 1, f"seq {rec['seq']}"
        nonce_a, nonce_b = rec["nonces"]
        assert mine[0]["nonce"] == nonce_a and theirs[0]["nonce"] == nonce_b
        assert theirs[0]["commit"] == nonce_commitment(nonce_a) == mine[0]["commit"]
        checked += 1
    assert checked > 3
    assert simulate(scenario, 5).orders > 0  # the same scenario plays locally, too


async def test_spectator_receives_the_order_stream_and_agrees(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    inv = host.invitation()
    watcher = Watcher("127.0.0.1", inv["port"], home=tmp_path / "w", code=inv["watch_code"],
                      fingerprint=inv["fingerprint"])
    seen = []
    try:
        watching = asyncio.ensure_future(watcher.run(seen.append))
        hs, gs = await play_match(host, guest, seed=2)
        summary = await asyncio.wait_for(watching, 20)
    finally:
        await host.close()
    assert summary["problems"] == []
    assert summary["digest"] == hs["digest"]
    assert summary["orders"] == hs["orders"]
    assert summary["result"] == hs["result"]
    assert len([e for e in seen if e.kind == "applied"]) == hs["orders"]
    assert summary["bytes_sent"] < 2000, "a spectator only says hello and bye"


async def test_spectator_input_is_never_applied(tmp_path, scenario):
    from hexwar.net import handshake, protocol
    from hexwar.net.client import open_link
    host = await start_host(tmp_path / "h", scenario)
    inv = host.invitation()
    try:
        conn, link = await open_link("127.0.0.1", inv["port"], home=tmp_path / "w", username="spectator",
                                     code=inv["watch_code"])
        theirs = await handshake.receive_hello(link)
        await link.send(handshake.hello("spectator", scenario))
        link.start_play()
        before = host.session.game.digest()
        first = next(iter(host.session.game.legal_orders()))
        await link.send(protocol.message("order", seq=0, order=first.to_wire(), digest=bytes(protocol.DIGEST_BYTES)))
        reply = await asyncio.wait_for(link.recv(), 5)
        assert reply["type"] == "error" and "read-only" in reply["reason"]
        assert host.session.game.digest() == before and host.session.match.seq == 0
        assert theirs["role"] == "host"
        link.close()
        conn.close()
    finally:
        await host.close()


def _hexwar(*args: str, home, **kw) -> subprocess.Popen:
    env = dict(os.environ, HEXWAR_HOME=str(home), PYTHONHASHSEED=str(kw.pop("hashseed", 0)))
    return subprocess.Popen([sys.executable, "-m", "hexwar", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_cli_host_and_join_headless(tmp_path):
    inv_file = tmp_path / "invite.json"
    host = _hexwar("host", "attack-on-morobad", "--port", "0", "--bind", "127.0.0.1", "--headless", "--ai",
                   "--json", "--invite-file", str(inv_file), "--journal", str(tmp_path / "h.journal"),
                   home=tmp_path / "h", hashseed=1)
    try:
        deadline = time.time() + 20
        while not inv_file.exists() and time.time() < deadline:
            time.sleep(0.05)
        inv = json.loads(inv_file.read_text())
        watch = _hexwar("watch", f"127.0.0.1:{inv['port']}", "--code", inv["watch_code"], "--json",
                        home=tmp_path / "w")
        guest = _hexwar("join", f"127.0.0.1:{inv['port']}", "--code", inv["code"], "--fingerprint",
                        inv["fingerprint"], "--headless", "--ai", "--json", "--journal",
                        str(tmp_path / "g.journal"), home=tmp_path / "g", hashseed=2)
        gout, gerr = guest.communicate(timeout=60)
        hout, herr = host.communicate(timeout=30)
        wout, werr = watch.communicate(timeout=30)
    finally:
        host.kill()
    assert guest.returncode == 0, gerr
    assert host.returncode == 0, herr
    h, g = json.loads(hout), json.loads(gout)
    assert h["digest"] == g["digest"] and h["result"] == g["result"] and h["status"] == "finished"
    assert h["bytes_sent"] == g["bytes_received"] and g["bytes_sent"] == h["bytes_received"]
    assert "invite code" in herr and inv["fingerprint"] in herr
    assert watch.returncode == 0, werr
    w = json.loads(wout)
    assert w["digest"] == h["digest"] and w["orders"] == h["orders"] and w["problems"] == []
    assert order_records(tmp_path / "h.journal") == order_records(tmp_path / "g.journal")


def test_cli_refuses_interactive_mode_and_bad_input(tmp_path, capsys):
    assert hexwar_main(["host", "attack-on-morobad"]) == 2
    assert "--headless --ai" in capsys.readouterr().err
    os.environ["HEXWAR_HOME"] = str(tmp_path)
    try:
        assert hexwar_main(["host", "no-such-scenario", "--headless", "--ai"]) == 2
        assert hexwar_main(["join", "127.0.0.1:notaport", "--headless", "--ai"]) == 2
    finally:
        del os.environ["HEXWAR_HOME"]
