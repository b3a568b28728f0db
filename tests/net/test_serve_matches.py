"""Served matches between people, over real SSH on 127.0.0.1 with pseudo-terminals: two served
players meet in the lobby and play (orders by both, seen by both); a spectator from the lobby sees
the moves and cannot act; a player leaves and comes back to the same match."""

from __future__ import annotations

import asyncio

from hexwar.journal import read_journal

from test_serve import Screen, connect, keys, open_ui, server  # noqa: F401 - fixtures

DOWN, ENTER = "\x1b[B", "\r"


def orders(path) -> list[dict]:
    return [r for r in read_journal(path, allow_torn_tail=True).records if r.get("type") == "order"]


async def until(predicate, limit: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not predicate():
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.2)


async def step(screen: Screen, keys: list[str], *texts: str) -> None:
    """Press ``keys``, then wait for one of ``texts`` to be drawn after them."""
    screen.seen = b""
    await screen.press(*keys)
    await screen.wait_for(*texts)


async def new_match(screen: Screen, invite: bool = False) -> None:
    """From the menu: lobby, new match, Border Clash, play Red, with or without an invite code."""
    from hexwar.scenarios.loader import builtin_paths   # the picker lists them in this order
    await screen.wait_for("Lobby: play other players")
    await step(screen, [ENTER], "New match against a person")
    await step(screen, ["n"], "which scenario?")
    down = [p.stem for p in builtin_paths()].index("border-clash")
    await step(screen, [DOWN] * down + [ENTER], "you play which side?")
    await step(screen, [ENTER], "Invite code")                 # Red
    await screen.press("y" if invite else "n")


def the_match(server):
    assert len(server.matches.by_id) == 1
    return next(iter(server.matches.by_id.values()))


async def test_two_served_players_play_each_other_and_a_spectator_watches(server, keys):
    spectator_key = __import__("asyncssh").generate_private_key("ssh-ed25519")
    async with connect(server, "alice", keys[0]) as a_conn, connect(server, "bob", keys[1]) as b_conn, \
            connect(server, "vera", spectator_key) as v_conn:
        alice, bob, vera = await open_ui(a_conn), await open_ui(b_conn), await open_ui(v_conn)
        await new_match(alice)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        await until(lambda: ref.connected("red"))
        await bob.wait_for("Lobby: play other players")
        await step(bob, [ENTER], "join as blue")
        await bob.press(ENTER)                                  # the open seat
        await until(lambda: ref.connected("blue"))
        await vera.wait_for("Lobby: play other players")
        await step(vera, [ENTER], "Matches to watch (1)")
        await vera.press(ENTER)
        await until(lambda: len(ref.watchers) == 1)
        # Red plays until Blue is to act; Blue then plays one order of its own
        await end_phases_until(alice, ref, "blue")
        streamed = ref.watchers[0].frames_sent
        vera.seen = b""
        await play_one(bob, ref)
        await until(lambda: ref.watchers[0].frames_sent > streamed, 30)   # Blue's record went to the spectator
        sides = [r["side"] for r in ref.match.records]
        assert "red" in sides and "blue" in sides
        # each player's own journal holds the other's orders: both saw both
        mine = {n: server.home / "players" / n / "matches" / f"{ref.info.id}-guest.journal" for n in ("alice", "bob")}
        await until(lambda: all(len(orders(p)) == len(ref.match.records) for p in mine.values()), 30)
        for path in mine.values():
            assert [o["side"] for o in orders(path)] == sides
        # the spectator's screen redraws with Blue's move, and its keys change nothing
        await vera.wait_for("SPECTATING", "Blue", limit=30)
        count = ref.match.seq
        await vera.press("E", "R", "y")
        await asyncio.sleep(1.0)
        assert ref.match.seq == count and not ref.match.over
    # all three left; the match waits on the server for its players
    await until(lambda: not ref.connected("red") and not ref.connected("blue"), 30)
    assert ref.match.seq == count and not ref.match.over


async def _wait_match(server):
    while not server.matches.by_id:
        await asyncio.sleep(0.2)
    return the_match(server)


async def play_one(screen: Screen, ref) -> None:
    """Play one order of the side to act from the keyboard. E ends the phase (y answers its
    question when units could still act); when the dice left a decision or a choice open, Enter
    takes the first one offered, and "o" lists every legal order; a key lost to a screen still
    being drawn under load is pressed again."""
    before = ref.match.seq
    for keys in (["E", "y"], ["\r"], ["E", "y"], ["o", "\r"], ["E", "\r"]):
        await screen.press(*keys)
        try:
            await until(lambda: ref.match.seq > before, 10)
            return
        except AssertionError:
            continue
    raise AssertionError("no order was played")


async def end_phases_until(screen: Screen, ref, side: str) -> None:
    """Play orders from the keyboard until ``side`` is to act."""
    for _ in range(12):
        if ref.to_act() == side:
            return
        await play_one(screen, ref)
    assert ref.to_act() == side


async def test_a_player_leaves_and_comes_back_to_the_same_match(server, keys):
    """Alice plays Red's phases and leaves; Bob plays Blue's while she is away; Alice comes back
    with the same key, finds the match in the lobby as her turn, sees Bob's order and plays on."""
    async with connect(server, "alice", keys[0]) as conn:
        alice = await open_ui(conn)
        await new_match(alice)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        await until(lambda: ref.connected("red"))
        await alice.wait_for("your turn", "waiting for")
        await end_phases_until(alice, ref, "blue")
    await until(lambda: not ref.connected("red"), 30)
    red_orders = ref.match.seq
    async with connect(server, "bob", keys[1]) as conn:
        bob = await open_ui(conn)
        await bob.wait_for("Lobby: play other players")
        await step(bob, [ENTER], "join as blue")
        await bob.press(ENTER)
        await until(lambda: ref.connected("blue"), 30)
        await bob.wait_for("T1/15", "Turn 1/15")
        await end_phases_until(bob, ref, "red")
    async with connect(server, "alice", keys[0]) as conn:
        alice = await open_ui(conn)
        await alice.wait_for("Lobby: play other players")
        await step(alice, [ENTER], "YOUR TURN")                 # her match, listed as hers
        await step(alice, [ENTER], "your turn")
        await until(lambda: ref.connected("red"), 30)
        mine = server.home / "players" / "alice" / "matches" / f"{ref.info.id}-guest.journal"
        await until(lambda: len(orders(mine)) == ref.match.seq, 30)   # Bob's orders reached her
        await play_one(alice, ref)
    sides = [r["side"] for r in ref.match.records]
    assert sides[:red_orders] == ["red"] * red_orders and "blue" in sides and sides[-1] == "red"


async def test_a_native_join_client_plays_against_a_served_terminal_player(server, keys, tmp_path):
    """Alice on a terminal opens a match with an invite code; an installed hexwar joins with the
    code over SSH (the computer plays it) and both sides' orders reach both."""
    from hexwar.net import headless
    from hexwar.net.client import Guest
    from hexwar.scenarios.loader import builtin_paths
    async with connect(server, "alice", keys[0]) as conn:
        alice = await open_ui(conn)
        await new_match(alice, invite=True)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        assert ref.info.code
        await alice.wait_for(ref.info.code, limit=30)             # shown to her, to pass on
        await until(lambda: ref.connected("red"), 30)
        native = Guest("127.0.0.1", server.port, home=tmp_path / "native", code=ref.info.code, server=True)
        runner = asyncio.ensure_future(native.run(give_up=30))
        await asyncio.wait_for(native.connected.wait(), 30)
        computer = asyncio.ensure_future(headless.play(native.session, 1, level="basic"))
        try:
            # Alice plays Red from the keyboard until both sides have orders in the match. The
            # computer answers for Blue at once, so "until Blue is to act" may never be seen
            # between two looks; and a Red that only ends phases can let the game end.
            for _ in range(12):
                played = {r["side"] for r in ref.match.records}
                if {"red", "blue"} <= played or ref.match.over:
                    break
                await play_one(alice, ref)
            sides = [r["side"] for r in ref.match.records]
            assert "blue" in sides and "red" in sides
            n = len(sides)   # the computer may play on meanwhile: compare the first n orders
            await until(lambda: native.session.match.seq >= n, 30)
            assert [r["digest"] for r in native.session.match.records[:n]] == \
                [r["digest"] for r in ref.match.records[:n]]
            mine = server.home / "players" / "alice" / "matches" / f"{ref.info.id}-guest.journal"
            await until(lambda: len(orders(mine)) >= n, 30)
            assert [o["side"] for o in orders(mine)][:n] == sides
            assert [o["digest"] for o in orders(mine)][:n] == [r["digest"] for r in ref.match.records[:n]]
        finally:
            computer.cancel()
            runner.cancel()


async def test_a_stopping_server_leaves_no_ui_process_behind(tmp_path, keys):
    import os
    from hexwar.net.serve import Limits, Server
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    try:
        async with connect(srv, "uma", keys[0]) as conn:
            screen = await open_ui(conn)
            await screen.wait_for("playing as uma")
            pids = sorted(srv.children)
            assert len(pids) == 1
            await srv.close()
            srv = None
            for _ in range(50):
                try:
                    os.kill(pids[0], 0)
                except ProcessLookupError:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the UI process outlived the server")
    finally:
        if srv is not None:
            await srv.close()
