"""Issue 36: a client that drops mid-game (its connection cut, no goodbye) leaves no traceback in
the server's log, only the session's end line; the other player's session goes on."""

from __future__ import annotations

import asyncio
import logging

from test_serve import connect, keys, open_ui, server  # noqa: F401 - fixtures
from test_serve_matches import ENTER, _wait_match, new_match, play_one, step, until


async def test_a_client_dropping_mid_game_leaves_no_traceback_in_the_log(server, keys, caplog):
    caplog.set_level(logging.DEBUG)
    async with connect(server, "bob", keys[1]) as b_conn:
        a_conn = await connect(server, "alice", keys[0])
        alice, bob = await open_ui(a_conn), await open_ui(b_conn)
        await new_match(alice)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        await until(lambda: ref.connected("red"))
        await bob.wait_for("Lobby: play other players")
        await step(bob, [ENTER], "join as blue")
        await bob.press(ENTER)
        await until(lambda: ref.connected("blue"), 30)
        await play_one(alice if ref.to_act() == "red" else bob, ref)
        a_conn.abort()                                   # cut, mid-game
        await until(lambda: not ref.connected("red"), 30)
        await asyncio.sleep(1.0)
        await until(lambda: any(r.getMessage().startswith("event=session-end name=alice") for r in caplog.records), 30)
    tracebacks = [r.getMessage() for r in caplog.records
                  if r.exc_info or "Traceback" in r.getMessage() or "BrokenPipe" in r.getMessage()]
    assert not tracebacks, tracebacks
