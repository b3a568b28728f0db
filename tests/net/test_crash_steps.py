"""kill -9 at each step of a plain and of a dice order (issue 29): the killed side restarts with
``--resume``, the match plays to its end, both journals hold the same orders, ``hexwar replay
--verify`` accepts both, and every roll used the nonces committed before it (nothing was
re-rolled); also with both processes killed. What each step may lose is written in
net/NOTES.md ("Durability").

Each case runs the real ``hexwar host`` and ``hexwar join`` over SSH on 127.0.0.1; the victim
runs through crashpeer.py, which SIGKILLs its own process at the named step."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexwar.engine import nonce_commitment
from hexwar.journal import JournalError, read_journal

from netkit import order_records

HERE = Path(__file__).parent
MIN_SEQ = 6
STEPS = ["own-written", "own-sent", "commit-written", "commit-sent", "dice-written", "reveal-sent",
         "order-received", "peer-written", "peer-commit-written", "nonce-sent", "reveal-received",
         "peer-dice-written"]
# each step once with each kind of victim over the list: the host for even, the guest for odd
CASES = [(step, "host" if i % 2 == 0 else "guest") for i, step in enumerate(STEPS)]
CASES += [(step, "guest" if i % 2 == 0 else "host") for i, step in enumerate(STEPS)
          if step in ("own-sent", "dice-written", "peer-written", "nonce-sent")]
# both processes killed: the victim at the step, the other at once after it
CASES += [("own-sent", "both:host"), ("nonce-sent", "both:guest"), ("dice-written", "both:guest")]


def _proc(args: list[str], home: Path, crash: tuple[str, int] | None = None) -> subprocess.Popen:
    env = dict(os.environ, HEXWAR_HOME=str(home))
    if crash is None:
        cmd = [sys.executable, "-m", "hexwar", *args]
    else:
        cmd = [sys.executable, str(HERE / "crashpeer.py"), crash[0], str(crash[1]), "--", *args]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(predicate, timeout: float = 60.0) -> None:
    end = time.time() + timeout
    while not predicate():
        if time.time() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _invitation(path: Path) -> dict | None:
    """The host's invitation, once the file is there and whole."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _first(path: Path, kind: str) -> dict[int, list[dict]]:
    by_seq: dict[int, list[dict]] = {}
    for rec in read_journal(path).records:
        if rec["type"] == kind:
            by_seq.setdefault(rec["seq"], []).append(rec)
    return by_seq


def _check_dice(hj: Path, gj: Path) -> int:
    """Every dice order used the nonce_A its side committed to and the nonce_B the other side
    journaled before sending it: one of each per seq, never a second one. Returns how many."""
    journals = {next(r for r in read_journal(p).records if r["type"] == "net")["side"]: p for p in (hj, gj)}
    rolled = 0
    for rec in order_records(hj):
        if rec["nonces"] is None:
            continue
        rolled += 1
        actor = journals[rec["side"]]
        other = next(p for p in journals.values() if p != actor)
        commits = _first(actor, "commit").get(rec["seq"], [])
        answers = _first(other, "peer-commit").get(rec["seq"], [])
        assert len({c["nonce"] for c in commits}) == 1, f"seq {rec['seq']}: commitments {commits}"
        assert len({a["nonce"] for a in answers}) == 1, f"seq {rec['seq']}: answers {answers}"
        nonce_a, nonce_b = rec["nonces"]
        assert commits[0]["nonce"] == nonce_a and commits[0]["commit"] == nonce_commitment(nonce_a)
        assert answers[0]["nonce"] == nonce_b and answers[0]["commit"] == commits[0]["commit"]
    return rolled


def _verify(path: Path, home: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "hexwar", "replay", "--verify", str(path)],
                          env=dict(os.environ, HEXWAR_HOME=str(home)), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-1000:]


@pytest.mark.parametrize("step,victim", CASES)
def test_kill_9_at_a_step_of_the_order_path_loses_nothing(tmp_path, step, victim):
    port = _free_port()
    hj, gj, inv_file = tmp_path / "h.journal", tmp_path / "g.journal", tmp_path / "inv.json"
    common = ["--headless", "--ai", "--level", "basic", "--json", "--give-up", "60"]
    host_args = ["--port", str(port), "--bind", "127.0.0.1", "--pace", "0", *common]
    host_new = ["host", "attack-on-morobad", *host_args, "--journal", str(hj), "--invite-file", str(inv_file)]
    crash = (step, MIN_SEQ)
    both = victim.startswith("both:")
    victim = victim.removeprefix("both:")
    host = _proc(host_new, tmp_path / "h", crash if victim == "host" else None)
    procs = [host]
    try:
        _wait_for(lambda: _invitation(inv_file) is not None)
        inv = _invitation(inv_file)
        join = ["join", f"127.0.0.1:{port}", *common]
        guest = _proc([*join, "--code", inv["code"], "--fingerprint", inv["fingerprint"], "--journal", str(gj)],
                      tmp_path / "g", crash if victim == "guest" else None)
        procs.append(guest)
        dead = host if victim == "host" else guest
        dead.wait(120)
        assert dead.returncode == -9, f"the kill at {step} never came: {dead.stderr.read()[-1500:]}"
        if both:
            other = guest if victim == "host" else host
            other.kill()  # SIGKILL
            other.wait(10)
        killed_journal = hj if victim == "host" else gj
        try:
            at_kill = len(order_records(killed_journal))
        except JournalError:
            at_kill = -1  # a torn last record: resume cuts it off
        if victim == "host" or both:
            host = _proc(["host", *host_args, "--resume", str(hj)], tmp_path / "h")
            procs.append(host)
        if victim == "guest" or both:
            guest = _proc([*join, "--resume", str(gj)], tmp_path / "g")
            procs.append(guest)
        gout, gerr = guest.communicate(timeout=150)
        hout, herr = host.communicate(timeout=60)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert guest.returncode == 0, gerr[-2000:]
    assert host.returncode == 0, herr[-2000:]
    h, g = json.loads(hout), json.loads(gout)
    assert h["status"] == g["status"] == "finished"
    assert h["digest"] == g["digest"] and h["result"] == g["result"]
    assert h["orders"] > at_kill >= MIN_SEQ
    assert order_records(hj) == order_records(gj)
    assert [r["seq"] for r in order_records(hj)] == list(range(h["orders"]))
    assert _check_dice(hj, gj) > 0
    _verify(hj, tmp_path / "h")
    _verify(gj, tmp_path / "g")
