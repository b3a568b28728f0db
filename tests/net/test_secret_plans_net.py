"""Sealed plans over real SSH (net/secret_plans.py, engine/secret.py; issue 17, G-19).

A side seals its plan with a ``seal`` message (only the commitment, bound to the match and the seq
through the salt) and opens it with ``unseal`` once every side has committed. These play two
headless computer peers and a spectator, and a hand-driven peer that breaks the rules: a wrong
reveal, a replayed commitment, a plan sealed for another match, a side that never commits or
never reveals (it loses on the turn timer, judged by the receiver's own clock)."""

from __future__ import annotations

import asyncio
import hashlib
import os

import pytest

from hexwar.cli import main as hexwar_main
from hexwar.engine import Dice, Order, nonce_commitment, order_seed, secret
from hexwar.engine.levels import computer_for
from hexwar.net import headless, protocol
from hexwar.net import secret_plans as sp
from hexwar.net.client import Watcher
from hexwar.net.errors import LinkClosed
from hexwar.net.limits import Limits
from hexwar.net.session import Session
from hexwar.scenarios.loader import find_scenario, load_scenario

from netkit import Hostile, guest_for, order_records, play_match, start_host

BRITISH, GERMAN = "british", "german"  # Bir Hakeim: the British hold the initiative and act first


@pytest.fixture(scope="module")
def bir_hakeim():
    return load_scenario(find_scenario("bir-hakeim"))


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


# --- the wire form ----------------------------------------------------------------------------

def test_g19_seal_and_unseal_survive_the_wire_form_and_the_string_table():
    out, back = protocol.Strings(), protocol.Strings()
    plan = [["posture", "cautious"], ["order", "k1", "rif", "c1", "c2"], ["air", "cas", "a1", "c1"]]
    salt = bytes(range(protocol.SALT_BYTES))
    msgs = [protocol.message("seal", seq=7, plan_commit=b"\1" * 32, digest=b"\2" * 8),
            protocol.message("unseal", seq=9, plan=plan, salt=salt, commit=b"\3" * 32),
            protocol.message("unseal", seq=11, plan=plan, salt=salt, digest=b"\4" * 8)]
    wires = [protocol.encode(m, out) for m in msgs]
    assert [protocol.decode(w, back) for w in wires] == msgs
    # the second time, the plan's text goes by reference to the string table
    assert "posture" in repr(wires[1]) and "posture" not in repr(wires[2])
    assert sp.packed_size(wires[2]) < sp.packed_size(protocol.encode(msgs[2], protocol.Strings()))


@pytest.mark.parametrize("plan, why", [
    ("posture", "list of at most 64 rows"),
    ([[]], "rows of 1..32 values"),
    ([[1.5]], "rows hold only"),
    ([["x" * 65]], "rows hold only"),
    ([[1 << 40]], "32 bits"),
    ([["a"]] * 65, "at most 64 rows"),
])
def test_g19_unseal_refuses_what_is_not_a_plan(plan, why):
    msg = {"type": "unseal", "seq": 1, "plan": plan, "salt": b"\0" * protocol.SALT_BYTES, "digest": b"\0" * 8}
    with pytest.raises(Exception) as err:
        protocol.parse(msg)
    assert why in str(err.value)


def test_g19_a_sealed_salt_names_the_match_and_the_seq_of_its_seal():
    match = b"m" * 16
    salt = sp.new_salt(match, 12)
    assert len(salt) == protocol.SALT_BYTES and salt[:16] == match
    assert sp.salt_problem(salt, match, 12) is None
    assert "another match" in sp.salt_problem(salt, b"n" * 16, 12)
    assert "sealed at seq 12, not at this round's seal (14)" in sp.salt_problem(salt, match, 14)
    assert sp.new_salt(match, 12) != salt  # the secret part is fresh every time


# --- two honest computer peers and a spectator --------------------------------------------------

async def test_g19_two_peers_play_bir_hakeim_with_sealed_plans(tmp_path, bir_hakeim, monkeypatch):
    """What the guest's session receives: a plan of the host's (an unseal, or a record of a
    reveal) only when the guest's own state already holds both commitments of the round."""
    seen_by: dict[str, list[tuple[str, str | None]]] = {"host": [], "guest": []}
    dispatch = Session._dispatch

    async def watched(self, frame):
        rnd = self.game.ruleset.secret_round(self.game)
        kind = frame.get("type") if isinstance(frame, dict) else None
        is_plan = kind == "unseal" or (kind == "record" and frame["order"]["k"] == secret.REVEAL)
        seen_by[self.role].append((kind, secret.stage(rnd) if is_plan else None))
        return await dispatch(self, frame)

    monkeypatch.setattr(Session, "_dispatch", watched)
    host = await start_host(tmp_path / "h", bir_hakeim)
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
    for role in ("host", "guest"):
        kinds = [k for k, _ in seen_by[role]]
        assert "seal" in kinds and "unseal" in kinds, kinds
        assert "order" in kinds
        assert all(stage == "reveal" for k, stage in seen_by[role] if k == "unseal"), seen_by[role]
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
    sides = [s.id for s in bir_hakeim.sides]
    assert _plans_after_both_commits(hs["journal"], sides) >= 2
    assert _plans_after_both_commits(gs["journal"], sides) >= 2
    # every revealed salt names this match and the seq of its seal
    match_id = host.session.match.match_id
    recs = order_records(hs["journal"])
    for rec in recs:
        if rec["order"]["k"] == secret.REVEAL:
            salt = bytes.fromhex(rec["order"]["a"]["salt"])
            assert sp.salt_problem(salt, match_id, sp.seal_seq(recs[:rec["seq"]], rec["side"])) is None
    # nothing sealed is left behind once revealed
    assert sp.SealedPlans(hs["journal"] + ".sealed").plans == {}
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
    assert hexwar_main(["replay", "--verify", gs["journal"]]) == 0


# --- a peer that breaks the rules -------------------------------------------------------------

class Table:
    """The host plays British with its own session; the test plays the German guest by hand."""

    def __init__(self, host, hostile, scenario) -> None:
        self.host, self.hostile, self.scenario = host, hostile, scenario
        self.session = host.session

    async def _answer_host(self, task):
        while not task.done():
            try:
                frame = await asyncio.wait_for(self.hostile.link.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            if frame.get("type") in ("order", "unseal") and "commit" in frame:
                await self.hostile.send({"type": "nonce", "seq": frame["seq"], "nonce": os.urandom(16)})
            elif frame.get("type") in ("order", "reveal", "seal", "unseal") and "digest" in frame:
                await self.hostile.send({"type": "ack", "seq": frame["seq"], "digest": frame["digest"]})
        result = await task
        await self.sync()  # the host's last message still wants its ack
        return result

    async def by_host(self, coro):
        return await self._answer_host(asyncio.ensure_future(coro))

    async def sync(self):
        """A ping, so that everything the host said before has arrived (and been answered)."""
        return await self.hostile.exchange({"type": "ping", "n": 0})

    def trial(self, order, dice=None):
        game = self.session.game.copy()
        game.apply(order, dice, GERMAN)
        return protocol.short_digest(game.digest())

    async def guest(self, order):
        replies = await self.hostile.exchange({"type": "order", "seq": self.session.match.seq,
                                               "order": order.to_wire(), "digest": self.trial(order)})
        assert not [r for r in replies if r.get("type") == "error"], replies
        return replies

    def commitment(self, plan, salt, side=GERMAN):
        rnd = self.session.game.ruleset.secret_round(self.session.game)
        bound = secret.binding(self.scenario.source_hash, rnd["round"], side)
        return bytes.fromhex(secret.commitment(bound, plan, salt))

    async def guest_seal(self, commit):
        order = sp.commit_order(commit)
        return await self.hostile.exchange({"type": "seal", "seq": self.session.match.seq,
                                            "plan_commit": commit, "digest": self.trial(order)})

    async def guest_unseal(self, plan, salt):
        """Open the guest's plan: with its digest when the reveal rolls nothing (the engine
        says, e.g. a secret deployment), else with a nonce commitment, the host's nonce, the
        reveal."""
        session = self.session
        seq, nonce_a = session.match.seq, os.urandom(16)
        if not session.game.needs_dice(sp.reveal_order(plan, salt)):
            good = self.trial(sp.reveal_order(plan, salt))
            replies = await self.hostile.exchange({"type": "unseal", "seq": seq, "plan": plan, "salt": salt,
                                                   "digest": good})
            assert not [r for r in replies if r.get("type") == "error"], replies
            assert session.match.seq == seq + 1
            return replies
        replies = await self.hostile.exchange({"type": "unseal", "seq": seq, "plan": plan, "salt": salt,
                                               "commit": nonce_commitment(nonce_a)})
        nonce_b = next(r for r in replies if r["type"] == "nonce")["nonce"]
        good = self.trial(sp.reveal_order(plan, salt),
                          Dice(order_seed(session.match.match_id, seq, nonce_a, nonce_b)))
        replies = await self.hostile.exchange({"type": "reveal", "seq": seq, "nonce": nonce_a, "digest": good})
        assert {"type": "ack", "seq": seq, "digest": good} in replies, replies
        return replies

    async def until_closed(self, frame, timeout=10.0):
        """Send ``frame``; everything the host says until it closes the link."""
        await self.hostile.send(frame)
        got = []
        try:
            while True:
                got.append(await asyncio.wait_for(self.hostile.link.recv(), timeout))
        except (LinkClosed, asyncio.TimeoutError):
            return got


async def _at_the_plan(tmp_path, scenario, **kw) -> Table:
    host = await start_host(tmp_path / "h", scenario, side=BRITISH, **kw)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    table = Table(host, hostile, scenario)
    await hostile.connect()
    await table.sync()
    session = host.session
    assert await session.wait_until(lambda: session.connected, 5)
    # the secret deployment (G-59): both place their companies as the scenario's set-up does
    await table.by_host(session.commit_plan(session.game.ruleset.ai_plan(session.game, BRITISH)))
    placement = session.game.ruleset.ai_plan(session.game, GERMAN)
    salt = sp.new_salt(session.match.match_id, session.match.seq)
    await table.guest_seal(table.commitment(placement, salt))
    await table.by_host(session.reveal_plan())
    await table.guest_unseal(placement, salt)
    assert session.game.state.phase == "start"
    await table.by_host(host.session.submit(Order.make("start")))
    await table.by_host(host.session.submit(Order.make("end-phase")))
    await table.guest(Order.make("end-phase"))
    assert host.session.game.state.phase == "plan"
    return table


async def _close(table: Table) -> None:
    table.hostile.close()
    await table.host.close()


GERMAN_PLAN = [["posture", "counter_attacks"]]
BRITISH_PLAN = [["posture", "cautious"]]


async def test_g19_a_wrong_reveal_is_a_protocol_violation_said_in_a_bye(tmp_path, bir_hakeim):
    """After both commitments the guest opens a plan other than the one it sealed: the host
    refuses it, says so in a bye and closes the link, with nothing changed; back on a new link,
    the right plan is accepted."""
    table = await _at_the_plan(tmp_path, bir_hakeim)
    session, match_id = table.session, table.session.match.match_id
    try:
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        seal_seq = session.match.seq
        salt = match_id + seal_seq.to_bytes(8, "big") + hashlib.blake2b(b"g", digest_size=16).digest()
        replies = await table.guest_seal(table.commitment(GERMAN_PLAN, salt))
        assert not [r for r in replies if r.get("type") == "error"], replies
        await table.by_host(session.reveal_plan())
        before = (session.match.seq, session.game.digest())
        got = await table.until_closed({"type": "unseal", "seq": session.match.seq,
                                        "plan": [["posture", "hard_defence"]], "salt": salt,
                                        "commit": nonce_commitment(os.urandom(16))})
        byes = [r["reason"] for r in got if r.get("type") == "bye"]
        assert byes and byes[0].startswith("protocol violation: ") and "does not match its commitment" in byes[0]
        assert (session.match.seq, session.game.digest()) == before
        assert await session.wait_until(lambda: not session.connected, 5)
        # a new link, and the plan it did seal
        table.hostile.close()
        await table.hostile.connect({"match": match_id, "seq": session.match.seq})
        await table.sync()
        await table.guest_unseal(GERMAN_PLAN, salt)
        assert session.game.state.phase == "execute"
        assert session.game.state.vars["secret"]["plans"][GERMAN] == GERMAN_PLAN
    finally:
        await _close(table)


async def test_g19_a_plan_sealed_for_another_match_does_not_open(tmp_path, bir_hakeim):
    table = await _at_the_plan(tmp_path, bir_hakeim)
    session = table.session
    try:
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        salt = sp.new_salt(os.urandom(16), session.match.seq)  # right seq, another match's id
        await table.guest_seal(table.commitment(GERMAN_PLAN, salt))
        await table.by_host(session.reveal_plan())
        before = (session.match.seq, session.game.digest())
        got = await table.until_closed({"type": "unseal", "seq": session.match.seq, "plan": GERMAN_PLAN,
                                        "salt": salt, "commit": nonce_commitment(os.urandom(16))})
        assert any(r.get("type") == "bye" and "sealed for another match" in r["reason"] for r in got), got
        assert (session.match.seq, session.game.digest()) == before
    finally:
        await _close(table)


async def test_g19_replayed_commitments_are_refused(tmp_path, bir_hakeim):
    """The guest resends the host's commitment as its own, and then its own seal again at an
    old seq: both refused, nothing changed."""
    table = await _at_the_plan(tmp_path, bir_hakeim)
    session = table.session
    try:
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        host_commit = bytes.fromhex(session.match.records[-1]["order"]["a"]["digest"])
        before = (session.match.seq, session.game.digest())
        replies = await table.guest_seal(host_commit)
        errors = [r["reason"] for r in replies if r.get("type") == "error"]
        assert errors and f"already used at seq {session.match.seq - 1}" in errors[0]
        assert (session.match.seq, session.game.digest()) == before
        salt = sp.new_salt(session.match.match_id, session.match.seq)
        mine = table.commitment(GERMAN_PLAN, salt)
        assert not [r for r in await table.guest_seal(mine) if r.get("type") == "error"]
        replies = await table.hostile.exchange({"type": "seal", "seq": session.match.seq - 1,
                                                "plan_commit": mine, "digest": b"\0" * 8})
        errors = [r["reason"] for r in replies if r.get("type") == "error"]
        assert errors and "replays an order already applied" in errors[0]
        # a plan as an ordinary order is refused too: plans travel sealed
        replies = await table.hostile.exchange({"type": "order", "seq": session.match.seq,
                                                "order": sp.reveal_order(GERMAN_PLAN, salt).to_wire(),
                                                "commit": nonce_commitment(os.urandom(16))})
        errors = [r["reason"] for r in replies if r.get("type") == "error"]
        assert errors and "travels in 'seal' and 'unseal'" in errors[0]
        assert session.refused == 3 and GERMAN not in session.game.state.vars["secret"]["plans"]
    finally:
        await _close(table)


async def test_g19_plan_messages_are_limited_per_round(tmp_path, bir_hakeim):
    limits = Limits(plan_messages_per_round=3)
    table = await _at_the_plan(tmp_path, bir_hakeim, limits=limits)
    session = table.session
    try:
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        commit = bytes.fromhex(session.match.records[-1]["order"]["a"]["digest"])
        for _ in range(3):  # refused (a replayed commitment) but counted
            await table.guest_seal(commit)
        got = await table.until_closed({"type": "seal", "seq": session.match.seq, "plan_commit": commit,
                                        "digest": b"\0" * 8})
        assert any(r.get("type") == "bye" and "4 plan messages in one round (at most 3)" in r["reason"]
                   for r in got), got
    finally:
        await _close(table)


async def test_g19_a_local_plan_goes_through_commit_plan_only(tmp_path, bir_hakeim):
    from hexwar.engine.orders import IllegalOrderError
    table = await _at_the_plan(tmp_path, bir_hakeim)
    session = table.session
    try:
        with pytest.raises(IllegalOrderError, match="commit_plan"):
            await session.submit(Order.make(secret.COMMIT, digest="0" * 64))
        with pytest.raises(IllegalOrderError, match="posture"):
            await session.commit_plan([["posture", "no-such-posture"]])
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        # the sealed plan waits in a private file beside the journal, not in the journal
        sealed = session.match.journal_path + ".sealed"
        assert os.stat(sealed).st_mode & 0o777 == 0o600
        assert list(sp.SealedPlans(sealed).plans.values())[0][0] == BRITISH_PLAN
        assert b"cautious" not in open(session.match.journal_path, "rb").read()
    finally:
        await _close(table)


# --- the turn timer ----------------------------------------------------------------------------

async def _stall(session: Session, at_stage: str) -> None:
    """Play the computer's orders, but never seal (``commit``) or never open (``reveal``)."""
    computer = computer_for("basic", f"1:{session.side}")
    while not session.stopped:
        await session.wait_until(lambda: session.stopped or session.can_act, timeout=1.0)
        if session.stopped or not session.can_act:
            continue
        rnd = session.game.ruleset.secret_round(session.game)
        if rnd is not None and secret.next_side(rnd) == session.side:
            if secret.stage(rnd) == at_stage:
                await session.wait_until(lambda: session.stopped, timeout=60)
                return
            await headless._secret_step(session)
            continue
        await session.submit(computer.choose(session.game.copy()))


@pytest.mark.parametrize("at_stage", ["commit", "reveal"])
async def test_g19_a_side_that_never_commits_or_reveals_loses_on_time(tmp_path, bir_hakeim, at_stage):
    """Both ends are real sessions over SSH: the host's computer claims the forfeit when the
    guest's time has run out, and the guest accepts it because its own clock agrees."""
    turn_time = 4
    host = await start_host(tmp_path / "h", bir_hakeim, side=BRITISH, turn_time=turn_time)
    guest = guest_for(host, tmp_path / "g")
    try:
        runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=30))
        await asyncio.wait_for(guest.connected.wait(), 20)
        both = asyncio.gather(headless.play(host.session, 1, give_up=30), _stall(guest.session, at_stage))
        hs, _ = await asyncio.wait_for(both, 90)
        await asyncio.wait_for(runner, 30)
    finally:
        await host.close()
    gsession = guest.session
    assert hs["status"] == "finished" and gsession.finished
    want = {"winner": BRITISH, "reason": f"{GERMAN} ran out of time ({turn_time}s per order)"}
    assert hs["result"] == want and gsession.match.result == want
    rnd = host.session.game.state.vars["secret"]
    assert secret.stage(rnd) == at_stage and secret.next_side(rnd) == GERMAN
    assert hs["digest"] == gsession.game.digest() and gsession.refused == 0
    for journal in (hs["journal"], gsession.match.journal_path):
        assert hexwar_main(["replay", "--verify", journal]) == 0


async def test_g19_a_sealed_plan_survives_a_restart_and_is_forgotten_once_revealed(tmp_path, bir_hakeim):
    """The host seals, its process ends; resumed from the journal, it still holds the plan and
    salt it committed to (in the private .sealed file), so it can reveal exactly that."""
    from hexwar.net.netmatch import NetMatch
    table = await _at_the_plan(tmp_path, bir_hakeim)
    session = table.session
    journal = session.match.journal_path
    try:
        await table.by_host(session.commit_plan(BRITISH_PLAN))
        rnd_name = session.game.ruleset.secret_round(session.game)["round"]
    finally:
        await _close(table)
    resumed = Session(NetMatch.resume(journal), BRITISH)
    try:
        plan, salt = resumed.sealed.get(rnd_name, BRITISH)
        assert plan == BRITISH_PLAN and sp.salt_problem(salt, resumed.match.match_id,
                                                         sp.seal_seq(resumed.match.records, BRITISH)) is None
        resumed.sealed.drop_salt(salt)
        assert sp.SealedPlans(journal + ".sealed").plans == {}
    finally:
        resumed.close()
