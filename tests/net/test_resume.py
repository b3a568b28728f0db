"""Crash and resume: a killed process restarts from its journal and the match goes on;
half-done dice exchanges survive; a desync stops play with a report."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexwar.engine import Order, nonce_commitment
from hexwar.match import replay
from hexwar.journal import JournalError, read_journal
from hexwar.net.netmatch import NetMatch, Pending

from netkit import guest_for, order_records, play_match, start_host


def _hexwar(*args: str, home: Path) -> subprocess.Popen:
    env = dict(os.environ, HEXWAR_HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "hexwar", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _orders_in(path: Path) -> int:
    try:
        return len(order_records(path))
    except (JournalError, OSError):
        return 0  # not there yet, or caught mid-append: look again


def _wait_for(predicate, timeout: float = 30.0) -> None:
    end = time.time() + timeout
    while not predicate():
        if time.time() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _host_cmd(tmp_path: Path, port: int, *extra: str) -> list[str]:
    return ["--port", str(port), "--bind", "127.0.0.1", "--headless", "--ai", "--json",
            "--pace", "0.01", "--give-up", "60", *extra]


@pytest.mark.parametrize("victim", ["guest", "host"])
def test_killed_process_resumes_from_its_journal(tmp_path, victim):
    port = _free_port()
    hj, gj, inv_file = tmp_path / "h.journal", tmp_path / "g.journal", tmp_path / "inv.json"
    host = _hexwar("host", "attack-on-morobad", *_host_cmd(tmp_path, port, "--journal", str(hj),
                                                        "--invite-file", str(inv_file)), home=tmp_path / "h")
    procs = [host]
    try:
        _wait_for(inv_file.exists)
        inv = json.loads(inv_file.read_text())
        join = ["join", f"127.0.0.1:{port}", "--headless", "--ai", "--json", "--pace", "0.01", "--give-up", "60"]
        guest = _hexwar(*join, "--code", inv["code"], "--fingerprint", inv["fingerprint"], "--journal", str(gj),
                        home=tmp_path / "g")
        procs.append(guest)
        _wait_for(lambda: _orders_in(gj) >= 12)
        dead = guest if victim == "guest" else host
        dead.send_signal(signal.SIGKILL)
        dead.wait(10)
        at_kill = _orders_in(gj)
        time.sleep(0.3)
        if victim == "guest":
            guest = _hexwar(*join, "--resume", str(gj), home=tmp_path / "g")
            procs.append(guest)
        else:
            host = _hexwar("host", *_host_cmd(tmp_path, port, "--resume", str(hj)), home=tmp_path / "h")
            procs.append(host)
        gout, gerr = guest.communicate(timeout=90)
        hout, herr = host.communicate(timeout=30)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert guest.returncode == 0, gerr[-2000:]
    assert host.returncode == 0, herr[-2000:]
    h, g = json.loads(hout), json.loads(gout)
    assert h["status"] == g["status"] == "finished"
    assert h["digest"] == g["digest"] and h["result"] == g["result"]
    assert h["orders"] > at_kill >= 12
    assert order_records(hj) == order_records(gj)
    assert [r["seq"] for r in order_records(hj)] == list(range(h["orders"]))


def test_pending_exchanges_survive_a_restart(tmp_path, scenario):
    """Both halves of a dice exchange are journaled before they are sent, so a restarted process
    reveals the nonce it committed to, and answers a repeated order with the same nonce."""
    path = tmp_path / "m.journal"
    m = NetMatch.create(scenario, os.urandom(16), path, players={}, info={"role": "host", "side": "natives"})
    order = next(o for o in m.game.legal_orders() if m.game.needs_dice(o))
    nonce = os.urandom(16)
    m.note("commit", Pending(0, "natives", order, nonce_commitment(nonce), nonce))
    m.close()
    again = NetMatch.resume(path)
    assert again.mine == Pending(0, "natives", order, nonce_commitment(nonce), nonce)
    assert again.theirs is None and again.info["side"] == "natives"
    again.apply(order, "natives", [nonce, os.urandom(16)])
    again.close()
    third = NetMatch.resume(path)
    assert third.mine is None, "an exchange resolved by an order record is history"
    assert third.seq == 1
    third.close()
    assert Order.from_wire(read_journal(path).records[1]["order"]) == order


async def test_desync_stops_play_and_writes_a_report(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    desyncs = []

    async def corrupt() -> None:
        await guest.connected.wait()
        s = guest.session
        s.subscribe(lambda e: e.kind == "desync" and desyncs.append(e))
        await s.wait_until(lambda: s.match.seq >= 10)
        s.match.game.state.vars["tampered"] = 1  # this engine now disagrees with the other

    try:
        tamper = asyncio.ensure_future(corrupt())
        hs, gs = await play_match(host, guest, seed=2)
        await tamper
    finally:
        await host.close()
    assert hs["status"] == gs["status"] == "desync"
    assert desyncs, "the player is shown the desync"
    report_path = Path(gs["desync"]["report"])
    report = json.loads(report_path.read_text())
    assert report["journal"] == gs["journal"] and report["seq"] >= 10
    assert report["our_digest"] != report["their_digest"]
    # no order was applied after the mismatch was found: either side may have played at most an
    # ack window of its own orders (protocol 2 pipelines them) before the other's word reached it
    from hexwar.net.protocol import WINDOW
    assert abs(hs["orders"] - gs["orders"]) <= WINDOW
    assert max(hs["orders"], gs["orders"]) <= report["seq"] + WINDOW + 1
    assert hs["result"] is None


async def test_turn_timer_forfeits_a_silent_player(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, turn_time=1)  # natives (the guest) act first
    guest = guest_for(host, tmp_path / "g")
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
    try:
        await asyncio.wait_for(host.session.wait_until(lambda: host.session.stopped), 15)
        session = await asyncio.wait_for(runner, 10)
    finally:
        await host.close()
    assert host.session.match.result["winner"] == host.session.side
    assert "ran out of time" in host.session.match.result["reason"]
    assert session.match.result == host.session.match.result
    assert session.finished and host.session.finished
    ends = [r for r in read_journal(session.match.journal_path).records if r["type"] == "end"]
    assert ends and ends[0]["winner"] == host.session.side


async def test_chat_draw_and_resign(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    heard, offers = [], []
    host.session.subscribe(lambda e: e.kind == "chat" and heard.append(e.data["text"]))
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
    try:
        await asyncio.wait_for(guest.connected.wait(), 10)
        g = guest.session
        g.subscribe(lambda e: e.kind == "draw" and offers.append(e))
        await asyncio.wait_for(g.wait_until(lambda: g.connected and host.session.connected), 10)
        await g.chat("good luck")
        await asyncio.wait_for(host.session.wait_until(lambda: heard), 5)
        assert heard == ["good luck"]
        await host.session.offer_draw()
        await asyncio.wait_for(g.wait_until(lambda: offers), 5)
        await g.decline_draw()
        with pytest.raises(Exception):
            await host.session.accept_draw()  # nothing offered by the guest
        await g.resign()
        await asyncio.wait_for(runner, 10)
        await asyncio.wait_for(host.session.wait_until(lambda: host.session.finished), 5)
    finally:
        await host.close()
    assert host.session.match.result == {"winner": host.session.side, "reason": f"{g.side} resigned"}
    assert g.match.result == host.session.match.result
    # hexwar replay reports the resignation, which only the journal's end record holds
    path = host.session.match.journal_path
    report = replay(path, read_journal(path), verify=True)
    assert not report.game.over and report.result == host.session.match.result


async def test_agreed_draw(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
    try:
        await asyncio.wait_for(guest.connected.wait(), 10)
        g = guest.session
        await asyncio.wait_for(g.wait_until(lambda: g.connected and host.session.connected), 10)
        await g.offer_draw()
        await asyncio.wait_for(host.session.wait_until(lambda: host.session._draw_offer is not None), 5)
        await host.session.accept_draw()
        await asyncio.wait_for(runner, 10)
    finally:
        await host.close()
    assert g.match.result == host.session.match.result == {"winner": None, "reason": "draw agreed"}
    assert g.finished and host.session.finished


def test_a_record_torn_by_a_crash_is_dropped_on_resume(tmp_path, scenario):
    path = tmp_path / "m.journal"
    m = NetMatch.create(scenario, os.urandom(16), path, players={}, info={"role": "guest", "side": "natives"})
    order = next(iter(m.game.legal_orders()))
    m.apply(order, "natives", [os.urandom(16), os.urandom(16)])
    m.close()
    whole = path.read_bytes()
    path.write_bytes(whole[:-7])  # killed halfway through writing the order record
    again = NetMatch.resume(path)
    assert again.seq == 0 and again.info["side"] == "natives"
    again.close()
    assert (tmp_path / "m.journal.damaged").read_bytes() == whole[:-7]
    read_journal(path)  # intact again
