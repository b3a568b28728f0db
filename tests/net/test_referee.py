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
    assert list(seen["open"][0]["seats"].items()) == [("red", "alice"), ("blue", None)]  # the scenario's order
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
    native = Guest("127.0.0.1", server.port, home=tmp_path / "native", code=made["code"], server=True)
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (served, native)]
    await asyncio.wait_for(asyncio.gather(served.connected.wait(), native.connected.wait()), 30)
    assert native.session.side == "red" and served.session.side == "blue"
    cut = []

    def cut_once(ev) -> None:  # the native link drops once mid-match; it comes back by its key
        if ev.kind == "applied" and native.session.match.seq >= 10 and not cut:
            cut.append(native.session.match.seq)
            native.session.link.close()
    native.session.subscribe(cut_once)
    results = await asyncio.wait_for(asyncio.gather(
        headless.play(served.session, 3), headless.play(native.session, 4)), 240)
    await asyncio.gather(*runs, return_exceptions=True)
    ref = server.matches.by_id[made["match"]]
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()
    assert {r["side"] for r in ref.match.records} == {"red", "blue"}
    assert cut and results[1]["connections"] == 2
    # the code is spent: a second native client with it gets nowhere
    again = Guest("127.0.0.1", server.port, home=tmp_path / "other", code=made["code"], server=True)
    with pytest.raises(Exception):
        await asyncio.wait_for(again.connect_once(), 30)


async def test_a_native_spectator_sees_every_order_and_may_not_act(server, tmp_path, monkeypatch):
    with As(server, "dora", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red")
    with As(server, "ed", monkeypatch):
        assert (await lobby.ask("lobby"))["open"][0]["id"] == made["match"]
    players = [served_guest(server, n, made["match"], tmp_path / n, monkeypatch) for n in ("dora", "ed")]
    watcher = Watcher("127.0.0.1", server.port, home=tmp_path / "w", code=made["watch_code"])
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in players]
    await asyncio.wait_for(asyncio.gather(*(g.connected.wait() for g in players)), 30)
    watching = asyncio.ensure_future(watcher.run())
    results = await asyncio.wait_for(asyncio.gather(*(headless.play(g.session, i) for i, g in enumerate(players))), 240)
    summary = await asyncio.wait_for(watching, 60)
    await asyncio.gather(*runs, return_exceptions=True)
    ref = server.matches.by_id[made["match"]]
    assert summary["problems"] == [] and summary["orders"] == len(ref.match.records)
    assert summary["digest"] == results[0]["digest"] == ref.match.game.digest()
    assert summary["result"] == ref.match.result


async def test_a_served_spectator_cannot_act_and_a_full_match_has_no_seat(server, tmp_path, monkeypatch):
    with As(server, "fay", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red")
    mid = made["match"]
    fay = served_guest(server, "fay", mid, tmp_path / "fay", monkeypatch)
    gus = served_guest(server, "gus", mid, tmp_path / "gus", monkeypatch)
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (fay, gus)]
    await asyncio.wait_for(asyncio.gather(fay.connected.wait(), gus.connected.wait()), 30)
    with As(server, "hal", monkeypatch):
        seen = await lobby.ask("lobby")
        assert seen["open"] == [] and [m["id"] for m in seen["watch"]] == [mid]
        assert "code" not in seen["watch"][0] and "watch_code" not in seen["watch"][0]
        with pytest.raises(lobby.LobbyRefused, match="no seat"):
            await served_guest(server, "hal", mid, tmp_path / "hal", monkeypatch).connect_once()
        # hal watches from the lobby: whatever he sends is refused and changes nothing
        from hexwar.net import handshake, protocol
        from hexwar.scenarios.loader import load_named
        _, link = await lobby.opener("watch", mid)()
        theirs = await handshake.receive_hello(link)
        await link.send(handshake.hello("spectator", load_named(SCENARIO)))
        link.start_play()
        order = {"k": "end-phase", "a": {}}
        await link.send(protocol.message("order", seq=0, order=order, digest=b"\0" * 8))
        answer = await asyncio.wait_for(link.recv(), 10)
        assert answer["type"] == "error" and "read-only" in answer["reason"]
        link.close()
    with As(server, "nobody", monkeypatch):
        monkeypatch.setenv(lobby.TICKET_ENV, "not-a-ticket")
        with pytest.raises(lobby.LobbyRefused, match="unknown ticket"):
            await lobby.ask("lobby")
    assert server.matches.by_id[mid].match.seq == 0
    for r in runs:
        r.cancel()


async def test_matches_outlive_the_server(tmp_path, monkeypatch):
    """A restarted server loads its matches again: a player comes back to the same position."""
    home = tmp_path / "serve"
    srv = await Server(home, Limits(per_address=8)).start("127.0.0.1", 0)
    try:
        with As(srv, "ivy", monkeypatch):
            made = await lobby.ask("create", scenario=SCENARIO, side="red")
        ivy = served_guest(srv, "ivy", made["match"], tmp_path / "ivy", monkeypatch)
        run = asyncio.ensure_future(ivy.run(give_up=5))
        await asyncio.wait_for(ivy.connected.wait(), 30)
        from hexwar.engine.levels import computer_for
        computer = computer_for("basic", "1:red")
        await ivy.session.wait_until(lambda: ivy.session.can_act, 30)
        await ivy.session.submit(computer.choose(ivy.session.game.copy()))
        ref = srv.matches.by_id[made["match"]]
        await ref.seats["red"].wait_until(lambda: ref.match.seq == 1, 30)
        digest = ref.match.game.digest()
        run.cancel()
    finally:
        await srv.close()
    again = await Server(home, Limits(per_address=8)).start("127.0.0.1", 0)
    try:
        ref = again.matches.by_id[made["match"]]
        assert ref.match.seq == 1 and ref.match.game.digest() == digest
        with As(again, "ivy", monkeypatch):
            mine = (await lobby.ask("lobby"))["mine"]
        assert [m["id"] for m in mine] == [made["match"]] and mine[0]["seq"] == 1
    finally:
        await again.close()


async def test_a_player_may_open_only_so_many_matches(tmp_path, monkeypatch):
    from hexwar.net.referee import Matches
    from hexwar.net.errors import HexwarNetError
    from hexwar.scenarios.loader import load_named
    matches = Matches(tmp_path / "m", per_player=2)
    scenario = load_named(SCENARIO)
    for _ in range(2):
        matches.create(scenario, "player:jo", "red")
    with pytest.raises(HexwarNetError, match="2 matches going"):
        matches.create(scenario, "player:jo", "red")
    matches.create(scenario, "player:kim", "blue")  # another player is not held back
    assert len(matches.lobby("kim")["open"]) == 2 and len(matches.lobby("kim")["mine"]) == 1
    matches.close()


async def test_native_logins_keep_protocol_2_limits(server, tmp_path, monkeypatch):
    """A wrong code closes the connection after 3 tries; a login that opens no channel is closed."""
    import asyncssh
    with As(server, "lee", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red", invite=True)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", server.port, username="player", password="wrong-code-123",
                               known_hosts=None, client_keys=None, preferred_auth="password")
    assert server.throttle.failures("127.0.0.1") >= 1
    server.net_limits.channel_timeout = 0.5
    conn = await asyncssh.connect("127.0.0.1", server.port, username="player", password=made["code"],
                                  known_hosts=None, client_keys=None, preferred_auth="password")
    await asyncio.wait_for(conn.wait_closed(), 10)


def test_an_invite_code_is_spent_when_anyone_takes_the_open_seat(tmp_path):
    from hexwar.net.referee import Matches
    from hexwar.scenarios.loader import load_named
    matches = Matches(tmp_path / "m")
    ref = matches.create(load_named(SCENARIO), "player:mo", "blue", invite=True)
    code = ref.info.code
    assert matches.by_code(code) is ref
    assert matches.seat_for(ref, "key:ssh-ed25519 AAAAnotthecode", code="wrong-code-999") is None
    assert matches.seat_for(ref, "player:ned") == "red"      # a served player from the lobby
    assert ref.info.code is None and matches.by_code(code) is None
    assert matches.lobby("mo")["mine"][0]["seats"] == {"red": "ned", "blue": "mo"}
    matches.close()


async def _two_seated(server, tmp_path, monkeypatch, names=("pia", "quin")):
    with As(server, names[0], monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red")
    guests = [served_guest(server, n, made["match"], tmp_path / n, monkeypatch) for n in names]
    runs = [asyncio.ensure_future(g.run(give_up=10)) for g in guests]
    for g in guests:
        await asyncio.wait_for(g.connected.wait(), 30)
        await g.session.wait_until(lambda g=g: g.session.connected, 30)
    return server.matches.by_id[made["match"]], guests, runs


async def test_a_resignation_and_chat_reach_the_other_player(server, tmp_path, monkeypatch):
    ref, (red, blue), runs = await _two_seated(server, tmp_path, monkeypatch)
    heard = []
    blue.session.subscribe(lambda ev: heard.append(ev.text) if ev.kind == "chat" else None)
    await red.session.chat("good luck")
    await blue.session.wait_until(lambda: heard, 10)
    assert heard == ["red: good luck"]
    await red.session.resign()
    await blue.session.wait_until(lambda: blue.session.over, 10)
    assert blue.session.match.result == {"winner": "blue", "reason": "red resigned"}
    assert ref.match.result == blue.session.match.result
    await asyncio.wait_for(asyncio.gather(*runs), 30)     # both said farewell: finished
    assert red.session.finished and blue.session.finished


async def test_a_draw_offered_by_one_player_is_accepted_by_the_other(server, tmp_path, monkeypatch):
    ref, (red, blue), runs = await _two_seated(server, tmp_path, monkeypatch, ("rex", "sal"))
    await red.session.offer_draw()
    await blue.session.wait_until(lambda: blue.session.peer_offers_draw, 10)
    await blue.session.accept_draw()
    await red.session.wait_until(lambda: red.session.over, 10)
    assert red.session.match.result == blue.session.match.result == ref.match.result
    assert ref.match.result["winner"] is None
    await asyncio.wait_for(asyncio.gather(*runs), 30)


async def test_one_seat_is_open_in_one_session_at_a_time(server, tmp_path, monkeypatch):
    """(Issue 36) the newest session of a player takes its seat over, so a frozen client's
    session no longer keeps the player out; the older one, coming back, is refused."""
    ref, (red, blue), runs = await _two_seated(server, tmp_path, monkeypatch, ("tim", "ula"))
    old = ref.seats["red"].link
    twin = served_guest(server, "tim", ref.info.id, tmp_path / "tim2", monkeypatch)
    taking = asyncio.ensure_future(twin.connect_once())
    for _ in range(600):
        if ref.seats["red"].link is not None and ref.seats["red"].link is not old:
            break
        await asyncio.sleep(0.05)
    taken = ref.seats["red"].link
    assert taken is not None and taken is not old
    with pytest.raises(lobby.LobbyRefused, match="another of your sessions"):
        await asyncio.wait_for(red.connect_once(), 30)   # the older session cannot take it back
    assert ref.seats["red"].link is taken
    taking.cancel()
    for r in runs:
        r.cancel()


async def test_a_plain_join_refuses_a_host_that_claims_to_referee(server, tmp_path, monkeypatch):
    """Only a guest that knows it joins a server (--server) lets the referee vouch for dice: an
    ordinary join keeps commit-reveal, so no host can skip it by claiming to be a referee."""
    from hexwar.net.errors import HandshakeRefused
    with As(server, "vic", monkeypatch):
        made = await lobby.ask("create", scenario=SCENARIO, side="red", invite=True)
    plain = Guest("127.0.0.1", server.port, home=tmp_path / "plain", code=made["code"])
    with pytest.raises(HandshakeRefused, match="--server"):
        await asyncio.wait_for(plain.connect_once(), 30)
    assert server.matches.by_id[made["match"]].info.open_side() == "blue"   # the seat is still open
