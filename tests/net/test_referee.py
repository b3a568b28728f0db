"""Matches that belong to the server (``net/referee.py``, ``net/lobby.py``), over real sockets:
two served players play each other through the lobby socket; a native ``hexwar join`` client over
real SSH on 127.0.0.1 plays a served one; a spectator sees every order and cannot act; a player
who leaves comes back and goes on; a restarted server picks its matches up again.

The computer (``headless.play``) plays each seat, so whole matches run; every order goes through
the server's referee, whose journal must verify and agree with both players' digests."""

from __future__ import annotations

import asyncio

import pytest

from hexwar.journal import read_journal
from hexwar.match import replay
from hexwar.net import headless, lobby
from hexwar.net.client import Guest, Watcher
from hexwar.net.serve import Limits, Server

SCENARIO = "border-clash"


@pytest.fixture
async def server(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    yield srv
    await srv.close()


class As:
    """Act as the UI process of one served player: its ticket in the environment."""

    def __init__(self, server: Server, name: str, monkeypatch) -> None:
        self.ticket = server.lobby.ticket_for(name)
        self.socket = str(server.lobby.path)
        self.mp = monkeypatch

    def __enter__(self) -> "As":
        self.mp.setenv(lobby.SOCKET_ENV, self.socket)
        self.mp.setenv(lobby.TICKET_ENV, self.ticket)
        return self

    def __exit__(self, *exc) -> None:
        pass


def served_guest(server: Server, name: str, match: str, home, monkeypatch, resume=None) -> Guest:
    with As(server, name, monkeypatch):
        return Guest("served", 0, home=home, opener=lobby.opener("play", match), resume=resume)


async def test_two_served_players_play_a_match_through_the_referee(server, tmp_path, monkeypatch):
    with As(server, "alice", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red")
    mid = made["match"]
    with As(server, "bob", monkeypatch):
        seen = await lobby.ask("lobby")
    assert [m["id"] for m in seen["open"]] == [mid] and seen["open"][0]["side"] == "blue"
    alice = served_guest(server, "alice", mid, tmp_path / "a", monkeypatch)
    bob = served_guest(server, "bob", mid, tmp_path / "b", monkeypatch)
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (alice, bob)]
    await asyncio.wait_for(asyncio.gather(alice.connected.wait(), bob.connected.wait()), 30)
    results = await asyncio.wait_for(asyncio.gather(
        headless.play(alice.session, 1), headless.play(bob.session, 2)), 240)
    await asyncio.gather(*runs, return_exceptions=True)
    ref = server.matches.by_id[mid]
    assert results[0]["status"] == results[1]["status"] == "finished"
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()
    sides = {r["side"] for r in ref.match.records}
    assert sides == {"red", "blue"}  # both played orders, and each saw the other's
    assert results[0]["orders"] == results[1]["orders"] == len(ref.match.records)
    path = ref.match.journal_path
    report = replay(path, read_journal(path), verify=True)
    assert report.game.digest() == ref.match.game.digest()
    with As(server, "alice", monkeypatch):
        mine = (await lobby.ask("lobby"))["mine"]
    assert mine[0]["over"] and mine[0]["result"] == ref.match.result


async def test_a_native_join_client_plays_a_served_player(server, tmp_path, monkeypatch):
    with As(server, "carol", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="blue", invite=True)
    assert made["code"]
    served = served_guest(server, "carol", made["match"], tmp_path / "c", monkeypatch)
    native = Guest("127.0.0.1", server.port, home=tmp_path / "native", code=made["code"])
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (served, native)]
    await asyncio.wait_for(asyncio.gather(served.connected.wait(), native.connected.wait()), 30)
    assert native.session.side == "red" and served.session.side == "blue"
    results = await asyncio.wait_for(asyncio.gather(
        headless.play(served.session, 3), headless.play(native.session, 4)), 240)
    await asyncio.gather(*runs, return_exceptions=True)
    ref = server.matches.by_id[made["match"]]
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()
    assert {r["side"] for r in ref.match.records} == {"red", "blue"}
    # the code is spent: a second native client with it gets nowhere
    again = Guest("127.0.0.1", server.port, home=tmp_path / "other", code=made["code"])
    with pytest.raises(Exception):
        await asyncio.wait_for(again.connect_once(), 30)
