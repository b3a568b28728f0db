"""The turn timer of a served match (net/referee.py): the server's clock is the authority.

A side whose decision lasts longer than the match's turn time (plus protocol 2's allowance for
link delay) loses, whether its player sits silent at the board, never seals or opens its secret
plan, or has gone away. Both players' sessions take the referee's word, so all three journals
end with the same result and verify. Played over the server's real sockets, with Flames of War's
Bir Hakeim (sealed plans) and Border Clash."""

from __future__ import annotations

import asyncio

import pytest

from hexwar.cli import main as hexwar_main
from hexwar.engine import secret
from hexwar.net import headless, lobby

from test_referee import As, server, served_guest  # noqa: F401 - fixtures
from test_secret_plans_net import _stall

BRITISH, GERMAN = "british", "german"
TURN_TIME = 3


async def _timed_match(server, tmp_path, monkeypatch, scenario: str, side: str):
    with As(server, "alice", monkeypatch):
        made = await lobby.ask("create", scenario=scenario, side=side, turn_time=TURN_TIME)
    mid = made["match"]
    alice = served_guest(server, "alice", mid, tmp_path / "a", monkeypatch)
    bob = served_guest(server, "bob", mid, tmp_path / "b", monkeypatch)
    runs = [asyncio.ensure_future(g.run(retry_delay=0.2, give_up=30)) for g in (alice, bob)]
    await asyncio.wait_for(asyncio.gather(alice.connected.wait(), bob.connected.wait()), 30)
    assert alice.session.turn_time == bob.session.turn_time == TURN_TIME  # told in the hello
    return server.matches.by_id[mid], alice, bob, runs


def _all_agree(ref, *players) -> None:
    for p in players:
        assert p.session.match.result == ref.match.result
        assert p.session.game.digest() == ref.match.game.digest()
        assert p.session.refused == 0
    for journal in [ref.match.journal_path] + [p.session.match.journal_path for p in players]:
        assert hexwar_main(["replay", "--verify", journal]) == 0


@pytest.mark.parametrize("at_stage", ["commit", "reveal"])
async def test_g19_a_served_side_that_never_seals_or_opens_its_plan_loses_on_time(
        server, tmp_path, monkeypatch, at_stage):
    ref, alice, bob, runs = await _timed_match(server, tmp_path, monkeypatch, "bir-hakeim", BRITISH)
    stalled = asyncio.ensure_future(_stall(bob.session, at_stage))
    result = await asyncio.wait_for(headless.play(alice.session, 1, give_up=30), 120)
    await asyncio.wait_for(stalled, 30)
    await asyncio.gather(*runs, return_exceptions=True)
    want = {"winner": BRITISH, "reason": f"{GERMAN} ran out of time ({TURN_TIME}s per order)"}
    assert ref.match.result == want and result["result"] == want
    rnd = ref.match.game.state.vars["secret"]
    assert secret.stage(rnd) == at_stage and secret.next_side(rnd) == GERMAN
    _all_agree(ref, alice, bob)


async def test_a_served_player_who_goes_away_still_loses_on_time(server, tmp_path, monkeypatch):
    """Bob leaves while Blue is to act: the server's clock runs on without him; when he comes
    back his session takes the loss from the referee's resume."""
    ref, alice, bob, runs = await _timed_match(server, tmp_path, monkeypatch, "border-clash", "red")
    playing = asyncio.ensure_future(headless.play(alice.session, 1, give_up=60))
    await asyncio.wait_for(bob.session.wait_until(lambda: bob.session.my_turn, timeout=60), 70)
    seq = ref.match.seq
    runs[1].cancel()
    bob.session.link.close()
    result = await asyncio.wait_for(playing, 60)
    assert ref.match.seq == seq and ref.to_act() is None
    want = {"winner": "red", "reason": f"blue ran out of time ({TURN_TIME}s per order)"}
    assert ref.match.result == want and result["result"] == want
    assert not bob.session.over
    back = served_guest(server, "bob", ref.info.id, tmp_path / "b", monkeypatch,
                        resume=bob.session.match.journal_path)
    bob.session.close()
    await asyncio.wait_for(back.run(retry_delay=0.2, give_up=10), 30)
    await asyncio.gather(*runs, return_exceptions=True)
    assert back.session.match.result == want
    _all_agree(ref, alice, back)


async def test_the_servers_turn_time_is_the_default_of_a_new_match(tmp_path, monkeypatch):
    """``hexwar serve --turn-time`` sets it for matches that name none; the lobby shows it; a
    turn time outside what protocol 2's hello can say is refused."""
    from hexwar.net.serve import Limits, Server
    srv = await Server(tmp_path / "serve", Limits(per_address=8, turn_seconds=90)).start("127.0.0.1", 0)
    try:
        with As(srv, "alice", monkeypatch):
            made = await lobby.ask("create", scenario="border-clash", side="red")
            assert srv.matches.by_id[made["match"]].info.turn_time == 90
            own = await lobby.ask("create", scenario="border-clash", side="red", turn_time=0)
            assert srv.matches.by_id[own["match"]].info.turn_time == 0
            with pytest.raises(lobby.LobbyRefused, match="turn time"):
                await lobby.ask("create", scenario="border-clash", side="red", turn_time=86400 * 8)
            rows = {m["id"]: m["turn_time"] for m in (await lobby.ask("lobby"))["mine"]}
        assert rows == {made["match"]: 90, own["match"]: 0}
    finally:
        await srv.close()
