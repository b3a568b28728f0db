"""``hexwar serve`` over real SSH on 127.0.0.1: an asyncssh client with a pseudo-terminal reaches
the menu of its own UI process, starts a game against the computer and plays an order that lands
in its own journal; a client without a terminal is told how to connect; a second key under a taken
name is refused; a session that dies leaves the server and the other sessions running."""

from __future__ import annotations

import asyncio
import os
import signal

import asyncssh
import pytest

from hexwar.journal import read_journal
from hexwar.net.serve import Limits, Server


@pytest.fixture
async def server(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    yield srv
    await srv.close()


@pytest.fixture(scope="module")
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]


def connect(server: Server, name: str, key: asyncssh.SSHKey):
    return asyncssh.connect("127.0.0.1", server.port, username=name, client_keys=[key],
                            known_hosts=None)


class Screen:
    """What a terminal client has received so far, searchable as text. It reads all the time, as
    a real terminal does: the server stops reading a session's pseudo-terminal while the client
    leaves its output unread, so a client that only read while waiting would stall its own UI."""

    def __init__(self, process) -> None:
        self.process = process
        self.seen = b""
        self.ended = False
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            chunk = await self.process.stdout.read(65536)
            if not chunk:
                self.ended = True
                return
            self.seen += chunk

    async def wait_for(self, *texts: str, limit: float = 60.0) -> None:
        """Until any of ``texts`` has been shown."""
        wanted = [t.encode() for t in texts]

        async def loop() -> None:
            while not any(w in self.seen for w in wanted):
                if self.ended:
                    raise AssertionError(f"the session ended before showing {texts!r}")
                await asyncio.sleep(0.05)
        await asyncio.wait_for(loop(), limit)

    async def press(self, *keys: str) -> None:
        for key in keys:
            self.process.stdin.write(key.encode())
            await asyncio.sleep(0.4)


async def open_ui(conn, size=(100, 32)) -> Screen:
    process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    return Screen(process)


def orders_in(folder) -> list[dict]:
    games = sorted(folder.glob("*.journal"))
    if not games:
        return []
    return [r for r in read_journal(games[0]).records if r.get("type") == "order"]


async def test_a_terminal_client_reaches_the_menu_and_plays_against_the_computer(server, keys):
    async with connect(server, "alice", keys[0]) as conn:
        screen = await open_ui(conn)
        await screen.wait_for("playing as alice")
        await screen.press("\x1b[B", "\r")           # New game (below the lobby)
        await screen.wait_for("Choose a scenario")
        from hexwar.scenarios.loader import builtin_paths   # the picker lists them in this order
        down = [p.stem for p in builtin_paths()].index("border-clash")
        await screen.press(*["\x1b[B"] * down, "\r")   # Border Clash
        await screen.wait_for("Border Clash: who plays?")
        await screen.press("\r")                      # Red (you) against Blue (computer)
        await screen.wait_for("How well should the computer play?")
        await screen.press("\r")                      # the default level, strong
        await screen.wait_for("Turn 1/15", "T1/15")
        await screen.press("E")                       # end the phase: the first order
        games = server.home / "players" / "alice" / "games"
        for _ in range(100):
            if orders_in(games):
                break
            await asyncio.sleep(0.2)
        played = orders_in(games)
        assert played and played[0]["side"] == "red"
        await screen.press("\x11")                    # ctrl+q
        await asyncio.wait_for(screen.process.wait(), 30)
    assert not (server.home / "players" / "bob").exists()   # nobody else's folder was touched


async def test_a_client_without_a_terminal_is_told_how_to_connect(server, keys):
    async with connect(server, "carol", keys[0]) as conn:
        result = await asyncio.wait_for(conn.run(encoding=None), 30)
    assert result.exit_status == 1
    assert b"ssh -t -p" in result.stdout and b"carol@" in result.stdout


async def test_a_second_key_under_a_taken_name_is_refused(server, keys):
    async with connect(server, "dave", keys[0]) as conn:   # the name is taken by a real session
        screen = await open_ui(conn)
        await screen.wait_for("playing as dave")
        screen.process.stdin.write(b"\x11")              # ctrl+q
        await asyncio.wait_for(screen.process.wait(), 30)
    with pytest.raises(asyncssh.PermissionDenied):
        async with connect(server, "dave", keys[1]):
            pass
    async with connect(server, "dave", keys[0]):          # the owner still comes back
        pass


async def test_a_session_that_dies_leaves_the_server_and_other_sessions_running(server, keys):
    async with connect(server, "erin", keys[0]) as first, connect(server, "fred", keys[1]) as second:
        a, b = await open_ui(first), await open_ui(second)
        await a.wait_for("playing as erin")
        await b.wait_for("playing as fred")
        # kill erin's UI process outright
        victims = [int(p) for p in os.listdir("/proc") if p.isdigit() and _is_session_of(int(p), "erin")]
        assert victims
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        result = await asyncio.wait_for(a.process.wait(), 30)
        assert result.exit_status != 0
        await b.press("\x1b[B", "\r")                 # fred's menu still answers: New game
        await b.wait_for("Choose a scenario")
    async with connect(server, "erin", keys[0]) as again:   # and erin can come back
        screen = await open_ui(again)
        await screen.wait_for("playing as erin")


def _is_session_of(pid: int, name: str) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    return b"served-session" in argv and name.encode() in argv
