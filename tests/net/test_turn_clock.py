"""The deadline belongs to the decision, not to the link (issue 27, finding 6): a player who
stalls and drops the link before each deadline still loses on time; a time-forfeit claim before
the turn time is refused; the command line refuses a turn time shorter than the claim allowance.
Real SSH on 127.0.0.1; the staller and the early claimant are hand-driven guests."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from hexwar.journal import read_journal

from netkit import Hostile, resume_host, start_host

TURN = 3  # seconds per decision; the claim allowance is 2 s (limits.clock_allowance)


async def test_a_reconnecting_staller_loses_on_time(tmp_path, scenario):
    """The guest acts first and never does: it drops the link and logs in again every second.
    Each reconnect used to give it the whole turn time again; now the host claims the win once
    the decision has lasted the turn time and the allowance."""
    host = await start_host(tmp_path / "h", scenario, turn_time=TURN)  # natives (the guest) act first
    session = host.session
    staller = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await staller.connect()
        for _ in range(20):  # up to 20 s: 4 decisions' worth, far past the deadline
            await asyncio.sleep(1.0)
            if session.over:
                break
            staller.close()
            await session.wait_until(lambda: not session.connected, 5)
            staller = Hostile(host, tmp_path / "g")  # back by its key
            await staller.connect()
        assert session.over, "the staller never lost on time"
        assert session.match.result["winner"] == session.side
        assert "ran out of time" in session.match.result["reason"]
        assert session.match.seq == 0  # the staller never acted
    finally:
        staller.close()
        await host.close()


async def test_an_early_time_claim_is_refused(tmp_path, scenario):
    """The host acts first; the guest claims the host ran out of time at once. With a turn time
    of 2 s (the allowance) that claim used to win; a claim is honoured only once the decision
    has lasted the whole turn time by the host's clock."""
    host = await start_host(tmp_path / "h", scenario, turn_time=2, side="natives")
    session = host.session
    claimant = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await claimant.connect()
        assert await session.wait_until(lambda: session.connected, 5)
        replies = await claimant.exchange({"type": "timeout", "seq": session.match.seq})
        errors = [r["reason"] for r in replies if r.get("type") == "error"]
        assert errors and errors[0].startswith("time forfeit claimed after 0."), replies
        assert not session.over
        assert session.match.result is None
    finally:
        claimant.close()
        await host.close()


async def test_a_restart_keeps_the_decision_s_start(tmp_path, scenario):
    """The host is stopped and resumed from its journal while the guest's decision runs: the
    decision keeps the start the journal's ``clock`` record gave it, so the guest is not given
    its time again."""
    journal = tmp_path / "h" / "host.journal"
    host = await start_host(tmp_path / "h", scenario, turn_time=TURN, journal=journal)
    port = host.invitation()["port"]
    staller = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    await staller.connect()
    await host.session.wait_until(lambda: host.session.connected, 5)
    started = host.session.match.clock
    assert started is not None and started[0] == 0
    staller.close()
    await host.close()
    host = await resume_host(tmp_path / "h", journal, port)
    try:
        assert host.session.match.clock == started
        staller = Hostile(host, tmp_path / "g")
        await staller.connect()
        assert await host.session.wait_until(lambda: host.session.over, 15)
        assert "ran out of time" in host.session.match.result["reason"]
        clocks = [r for r in read_journal(journal).records if r["type"] == "clock"]
        assert [(r["seq"], r["at"]) for r in clocks] == [started], "a restart started the decision anew"
    finally:
        staller.close()
        await host.close()


def test_host_refuses_a_turn_time_shorter_than_the_claim_allowance(tmp_path):
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "hexwar", "host", "attack-on-morobad", "--turn-time", "1",
                           "--port", "0", "--bind", "127.0.0.1", "--headless", "--ai"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--turn-time 1: give at least 2 seconds" in done.stderr
    assert not list(tmp_path.rglob("*.journal"))


def test_serve_refuses_a_turn_time_shorter_than_the_claim_allowance(tmp_path):
    """The server times its matches itself, but a limit under the link allowance is as meaningless
    there: refused before anything is made, as for host."""
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "hexwar", "serve", "--turn-time", "1",
                           "--port", "0", "--bind", "127.0.0.1"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--turn-time 1: give at least 2 seconds" in done.stderr
    assert not (tmp_path / "serve").exists()
