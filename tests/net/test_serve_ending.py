"""Issue 36: however a served session ends (its UI process killed, idle, the server stopping), the
player's terminal gets a full reset and one line saying why before the channel closes, the exit
status says which end it was, and the operator's log has one ``key=value`` line for the login,
the session's start and end, a refusal and a crash (with its traceback). Over real SSH on
127.0.0.1 with the real ``served-session`` UI (a crash: a real program that raises)."""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
import sys

import asyncssh
import pytest

from hexwar.net.pty_bridge import EXIT_IDLE, EXIT_STOPPING, RESET
from hexwar.net.serve import Limits, Server

from test_serve import Screen, connect, open_ui


@pytest.fixture
async def server(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    yield srv
    await srv.close()


@pytest.fixture(scope="module")
def key():
    return asyncssh.generate_private_key("ssh-ed25519")


def events(caplog, kind: str) -> list[dict[str, str]]:
    """The operator's log lines of ``kind``, read back as a script would (``shlex``)."""
    found = []
    for record in caplog.records:
        if record.name != "hexwar.serve":
            continue
        first = record.getMessage().split("\n", 1)[0]
        fields = dict(part.split("=", 1) for part in shlex.split(first))
        if fields.get("event") == kind:
            found.append(fields)
    return found


async def ended(screen: Screen) -> int:
    result = await asyncio.wait_for(screen.process.wait(), 30)
    for _ in range(100):  # the reader has the last bytes
        if screen.ended:
            break
        await asyncio.sleep(0.02)
    return result.exit_status


async def test_a_killed_ui_process_leaves_the_terminal_reset_with_one_line_and_a_log(server, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    async with connect(server, "kim", key) as conn:
        screen = await open_ui(conn)
        await screen.wait_for("playing as kim")
        assert b"\x1b[?1049h" in screen.seen        # the UI is on the alternate screen
        (pid,) = server.children
        os.killpg(pid, signal.SIGKILL)
        status = await ended(screen)
    assert status == 128 + signal.SIGKILL
    tail = screen.seen[screen.seen.rindex(RESET):]
    assert tail == RESET + b"\r\nhexwar: your session was stopped on the server (signal 9); your game is saved\r\n"
    (login,) = events(caplog, "login")
    assert login["name"] == "kim" and login["method"] == "publickey" and login["from"] == "127.0.0.1"
    (start,) = events(caplog, "session-start")
    assert start["name"] == "kim" and start["pid"] == str(pid) and start["size"] == "100x32"
    (end,) = events(caplog, "session-end")
    assert end["reason"] == "killed" and end["code"] == "137"
    (crash,) = events(caplog, "crash")
    assert crash["name"] == "kim" and crash["code"] == "137"


async def test_a_server_stop_resets_every_terminal_and_says_so(tmp_path, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    try:
        async with connect(srv, "lou", key) as conn:
            screen = await open_ui(conn)
            await screen.wait_for("playing as lou")
            await srv.close()
            status = await ended(screen)
    finally:
        await srv.close()
    assert status == EXIT_STOPPING
    assert screen.seen.endswith(RESET + b"\r\nhexwar: the server is stopping; your game is saved, "
                                b"connect again later\r\n")
    (end,) = events(caplog, "session-end")
    assert end["reason"] == "server-stopping" and end["code"] == str(EXIT_STOPPING)


async def test_an_idle_session_is_closed_with_the_terminal_reset(tmp_path, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    srv = await Server(tmp_path / "serve", Limits(per_address=8, idle_seconds=3.0)).start("127.0.0.1", 0)
    try:
        async with connect(srv, "max", key) as conn:
            screen = await open_ui(conn)
            await screen.wait_for("playing as max")
            status = await ended(screen)
    finally:
        await srv.close()
    assert status == EXIT_IDLE
    assert screen.seen.endswith(RESET + b"\r\nhexwar: nothing typed for 1 min; session closed (your game is saved)\r\n")
    (end,) = events(caplog, "session-end")
    assert end["reason"] == "idle"


async def test_a_clean_quit_is_not_reset_twice(server, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    async with connect(server, "ned", key) as conn:
        screen = await open_ui(conn)
        await screen.wait_for("playing as ned")
        await screen.press("\x11")                    # ctrl+q
        status = await ended(screen)
    assert status == 0 and RESET not in screen.seen
    (end,) = events(caplog, "session-end")
    assert end["reason"] == "quit" and end["code"] == "0"


CRASHING = ("import os, sys\n"
            "os.write(int(os.environ['HEXWAR_CRASH_FD']), b'Traceback (most recent call last):\\n  boom\\n"
            "ValueError: on purpose\\n')\n"
            "sys.stdout.write('\\x1b[?1049h\\x1b[?1003h\\x1b[?25l'); sys.stdout.flush()\n"
            "sys.exit(1)\n")


async def test_a_crash_is_logged_with_its_traceback_and_the_player_sees_one_line(server, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    server.ui_command = lambda name: [sys.executable, "-I", "-c", CRASHING]
    async with connect(server, "oda", key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen = Screen(process)
        status = await ended(screen)
    assert status == 1
    assert screen.seen.endswith(RESET + b"\r\nhexwar: your session ended on an error (status 1); your game is saved\r\n")
    assert b"ValueError" not in screen.seen
    crashes = [r.getMessage() for r in caplog.records if r.getMessage().startswith("event=crash")]
    assert len(crashes) == 1 and crashes[0].startswith("event=crash name=oda code=1\n")
    assert crashes[0].endswith("ValueError: on purpose")
    (end,) = events(caplog, "session-end")
    assert end["reason"] == "crashed" and end["code"] == "1"


async def test_a_refusal_is_one_line_naming_the_address_and_why(server, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    async with connect(server, "pia", key) as conn:
        result = await asyncio.wait_for(conn.run(encoding=None), 30)   # no terminal
    assert result.exit_status == 1
    (refused,) = events(caplog, "refused")
    assert refused == {"event": "refused", "name": "pia", "why": "no terminal", "from": "127.0.0.1"}


async def test_a_key_refused_for_a_taken_name_is_one_refused_line(server, key, caplog):
    caplog.set_level(logging.INFO, logger="hexwar.serve")
    server.accounts.claim("quinn", key)
    other = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        async with connect(server, "quinn", other):
            pass
    for _ in range(100):
        if events(caplog, "refused"):
            break
        await asyncio.sleep(0.05)
    (refused,) = events(caplog, "refused")
    assert refused["name"] == "quinn" and "belongs to another key" in refused["why"]
    assert not events(caplog, "login")
