"""Flames of War's sealed plans in a served match (net/referee.py; protocol 2's ``seal`` and
``unseal``, G-19), over the server's real sockets and real SSH on 127.0.0.1.

The referee holds the one game: a seat checks its player's seal and unseal like any host, and
the other seat passes the engine's commit-plan and reveal-plan orders on as records. So each
player (and each spectator) holds both commitments of a round before any plan of it, and a plan
that does not open its commitment is refused with a bye to the seat that sent it."""

from __future__ import annotations

import asyncio
import os

import pytest

from hexwar.engine import nonce_commitment, secret
from hexwar.engine.levels import computer_for
from hexwar.journal import read_journal
from hexwar.match import replay
from hexwar.net import headless, lobby, protocol
from hexwar.net import secret_plans as sp
from hexwar.net.client import Guest, Watcher

from test_referee import As, server, served_guest  # noqa: F401 - fixtures

SCENARIO = "bir-hakeim"
BRITISH, GERMAN = "british", "german"


def _reveals_follow_both_commits(records) -> int:
    """How many plans were revealed; each must come after both sides' commitments of its round."""
    commits: list[str] = []
    reveals = 0
    for rec in records:
        kind = rec["order"]["k"]
        if kind == secret.COMMIT:
            assert set(rec["order"]["a"]) == {"digest"}, "a commitment carries no plan"
            commits.append(rec["side"])
        elif kind == secret.REVEAL:
            assert sorted(commits[-2:]) == [BRITISH, GERMAN], "a plan before both commitments"
            reveals += 1
    return reveals


def _plans_seen_by(session) -> list[tuple[str, str | None]]:
    """Record what reaches ``session`` from the referee: each plan (an ``unseal`` or a record of a
    reveal) with the stage of the round in this player's own state when it arrived."""
    seen: list[tuple[str, str | None]] = []
    dispatch = session._dispatch

    async def watched(frame):
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "record" and frame["order"]["k"] in (secret.COMMIT, secret.REVEAL):
            rnd = session.game.ruleset.secret_round(session.game)
            seen.append((frame["order"]["k"], secret.stage(rnd) if rnd else None))
        return await dispatch(frame)

    session._dispatch = watched
    return seen


async def _opponent(server, kind: str, made: dict, tmp_path, monkeypatch) -> Guest:
    """The German seat: another served player, or an installed hexwar joining with the code."""
    if kind == "served":
        return served_guest(server, "bob", made["match"], tmp_path / "b", monkeypatch)
    return Guest("127.0.0.1", server.port, home=tmp_path / "native", code=made["code"], server=True)


@pytest.mark.parametrize("kind", ["served", "native"])
async def test_g19_two_players_play_bir_hakeim_through_the_referee(server, tmp_path, monkeypatch, kind):
    """Two computer seats play the campaign to its end through the server (Bob served, or a
    native ``hexwar join``); a spectator with the watch code follows it."""
    with As(server, "alice", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side=BRITISH, invite=kind == "native")
    mid = made["match"]
    alice = served_guest(server, "alice", mid, tmp_path / "a", monkeypatch)
    bob = await _opponent(server, kind, made, tmp_path, monkeypatch)
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (alice, bob)]
    await asyncio.wait_for(asyncio.gather(alice.connected.wait(), bob.connected.wait()), 30)
    assert (alice.session.side, bob.session.side) == (BRITISH, GERMAN)
    plans_seen = {g.session.side: _plans_seen_by(g.session) for g in (alice, bob)}
    watcher = Watcher("127.0.0.1", server.port, home=tmp_path / "w", code=made["watch_code"])
    streamed: list[str] = []
    watching = asyncio.ensure_future(watcher.run(
        lambda e: streamed.append(e.text) if e.kind == "applied" else None))
    results = await asyncio.wait_for(asyncio.gather(
        headless.play(alice.session, 1), headless.play(bob.session, 2)), 400)
    summary = await asyncio.wait_for(watching, 60)
    await asyncio.gather(*runs, return_exceptions=True)
    ref = server.matches.by_id[mid]
    assert results[0]["status"] == results[1]["status"] == "finished"
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()
    assert results[0]["refused"] == results[1]["refused"] == 0
    # the referee's journal: every plan after both commitments; it verifies
    assert _reveals_follow_both_commits(ref.match.records) >= 2
    path = ref.match.journal_path
    report = replay(path, read_journal(path), verify=True)
    assert report.game.digest() == ref.match.game.digest()
    for g in (alice, bob):
        assert [r["digest"] for r in g.session.match.records] == [r["digest"] for r in ref.match.records]
    # each player got the other's commitment in the commit stage, the other's plan only after
    # both commitments (the round is then in its reveal stage, or executing after the last plan)
    for side, seen in plans_seen.items():
        assert (secret.COMMIT, "commit") in seen, (side, seen)
        reveals = [stage for k, stage in seen if k == secret.REVEAL]
        assert reveals and all(stage == "reveal" for stage in reveals), (side, seen)
    # the spectator: the same match, and no plan before both commitments of its round
    assert summary["problems"] == [] and summary["digest"] == ref.match.game.digest()
    commits = 0
    for text in streamed:
        if f" {secret.COMMIT} " in text:
            assert "posture" not in text
            commits += 1
        elif f" {secret.REVEAL} " in text:
            assert commits % 2 == 0 and commits > 0, text
    assert commits >= 2


async def _reveal_wrongly_once(session, sent_at: list[int]) -> None:
    """Play the computer's German seat, but open the first plan with a salt other than the one
    sealed (same match and seq, other secret bytes): it cannot open the commitment."""
    computer = computer_for("basic", "5:german")
    while not session.stopped:
        await session.wait_until(lambda: session.stopped or session.can_act, timeout=1.0)
        if session.stopped or not session.can_act:
            continue
        game = session.game
        rnd = game.ruleset.secret_round(game)
        if rnd is not None and secret.next_side(rnd) == session.side:
            if secret.stage(rnd) == "reveal":
                plan, salt = session.sealed.get(rnd["round"], session.side)
                wrong = salt[:24] + bytes(b ^ 0xFF for b in salt[24:])
                order = sp.reveal_order(plan, wrong)
                seq = session.match.seq
                if game.needs_dice(order):
                    msg = protocol.message("unseal", seq=seq, plan=plan, salt=wrong,
                                           commit=nonce_commitment(os.urandom(16)))
                else:
                    msg = protocol.message("unseal", seq=seq, plan=plan, salt=wrong, digest=bytes(8))
                sent_at.append(seq)
                await session._send(msg)
                await session.wait_until(lambda: not session.connected, timeout=20)
                return
            await headless._secret_step(session)
            continue
        await session.submit(computer.choose(game.copy()))


async def test_g19_a_reveal_that_does_not_open_its_commitment_is_refused(server, tmp_path, monkeypatch):
    """The German player opens a plan with a salt it did not seal: its seat refuses it, says
    "protocol violation" in a bye and closes that link, the shared match is unchanged and the
    British player never sees that plan; back on a new link, the German reveals the right plan
    and the match plays on to its end."""
    with As(server, "alice", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side=BRITISH)
    mid = made["match"]
    alice = served_guest(server, "alice", mid, tmp_path / "a", monkeypatch)
    bob = served_guest(server, "bob", mid, tmp_path / "b", monkeypatch)
    runs = [asyncio.ensure_future(g.run(retry_delay=0.2, give_up=30)) for g in (alice, bob)]
    await asyncio.wait_for(asyncio.gather(alice.connected.wait(), bob.connected.wait()), 30)
    ref = server.matches.by_id[mid]
    statuses: list[str] = []
    bob.session.subscribe(lambda ev: statuses.append(ev.text) if ev.kind == "status" else None)
    playing = asyncio.ensure_future(headless.play(alice.session, 1, give_up=60))
    sent_at: list[int] = []
    await asyncio.wait_for(_reveal_wrongly_once(bob.session, sent_at), 120)
    seq = sent_at[0]
    assert any("protocol violation" in s and "commitment" in s for s in statuses), statuses
    assert ref.match.seq == seq and ref.seats[GERMAN].refused >= 1
    assert all(r["order"]["k"] != secret.REVEAL or r["side"] != GERMAN for r in ref.match.records[seq - 1:])
    rnd = ref.match.game.ruleset.secret_round(ref.match.game)
    assert secret.stage(rnd) == "reveal" and secret.next_side(rnd) == GERMAN
    # the Guest reconnects by itself; the right plan is accepted and the match ends
    await asyncio.wait_for(bob.session.wait_until(lambda: bob.session.connected, timeout=30), 40)
    results = await asyncio.wait_for(asyncio.gather(playing, headless.play(bob.session, 2)), 400)
    await asyncio.gather(*runs, return_exceptions=True)
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()
    assert results[0]["status"] == results[1]["status"] == "finished"
    assert ref.match.records[seq]["side"] == GERMAN and ref.match.records[seq]["order"]["k"] == secret.REVEAL
