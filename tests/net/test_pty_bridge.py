"""A program on its own pseudo-terminal behind a real asyncssh server on 127.0.0.1: the client's
window size and TERM reach it, a resize reaches it as SIGWINCH, its exit status reaches the client,
and one session's crash leaves the server serving the next."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap

import asyncssh
import pytest

from hexwar.net.pty_bridge import run_on_pty

PROGRAM = textwrap.dedent("""
    import os, signal, sys
    def show(*_):
        c, r = os.get_terminal_size(0)
        os.write(1, f"size {c}x{r} term {os.environ.get('TERM')} tty {os.isatty(0)}\\r\\n".encode())
    signal.signal(signal.SIGWINCH, show)
    show()
    line = sys.stdin.readline().strip()
    if line == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    os.write(1, f"got {line}\\r\\n".encode())
    sys.exit(int(line) if line.isdigit() else 0)
""")


STARTED: list[int] = []


async def _serve(process: asyncssh.SSHServerProcess) -> None:
    if process.get_terminal_type() is None:
        process.stdout.write(b"this server needs a terminal: ssh -t\r\n")
        process.exit(1)
        return
    code = await run_on_pty(process, [sys.executable, "-c", PROGRAM], on_start=STARTED.append)
    process.exit(code)


@pytest.fixture
async def server(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    acceptor = await asyncssh.listen("127.0.0.1", 0, server_host_keys=[key], process_factory=_serve,
                                     encoding=None, allow_pty=True, line_editor=False,
                                     server_factory=_AnyKey)
    yield acceptor.sockets[0].getsockname()[1]
    acceptor.close()
    await acceptor.wait_closed()


class _AnyKey(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True


async def _connect(port: int) -> asyncssh.SSHClientConnection:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return await asyncssh.connect("127.0.0.1", port, username="alice", client_keys=[key],
                                  known_hosts=None)


async def _read_until(process, text: bytes, limit: float = 20.0) -> bytes:
    seen = b""
    async def loop():
        nonlocal seen
        while text not in seen:
            chunk = await process.stdout.read(1024)
            if not chunk:
                break
            seen += chunk
    await asyncio.wait_for(loop(), limit)
    return seen


async def test_size_term_resize_and_exit_status_reach_across(server):
    async with await _connect(server) as conn:
        process = await conn.create_process(term_type="xterm-kitty", term_size=(100, 30), encoding=None)
        first = await _read_until(process, b"tty True")
        assert b"size 100x30 term xterm-kitty tty True" in first
        process.change_terminal_size(132, 43)
        resized = await _read_until(process, b"132x43")
        assert b"size 132x43" in resized
        process.stdin.write(b"7\n")
        result = await asyncio.wait_for(process.wait(), 20)
        assert result.exit_status == 7


async def test_a_crashed_session_leaves_the_server_serving(server):
    async with await _connect(server) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        await _read_until(process, b"tty True")
        process.stdin.write(b"crash\n")
        result = await asyncio.wait_for(process.wait(), 20)
        assert result.exit_status == 128 + 9
    async with await _connect(server) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        assert b"size 80x24" in await _read_until(process, b"tty True")
        process.stdin.write(b"0\n")
        assert (await asyncio.wait_for(process.wait(), 20)).exit_status == 0


async def test_a_client_that_leaves_ends_its_program(server):
    conn = await _connect(server)
    process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    await _read_until(process, b"tty True")
    pid = STARTED[-1]
    conn.close()
    await conn.wait_closed()
    for _ in range(100):   # hung up on, then killed within a few seconds at most
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail(f"the program of a client that left still runs (pid {pid})")
    # the server is still there for the next client, and that client's program runs
    async with await _connect(server) as again:
        process = await again.create_process(term_type="xterm", term_size=(90, 25), encoding=None)
        assert b"size 90x25" in await _read_until(process, b"tty True")
        process.stdin.write(b"0\n")
        assert (await asyncio.wait_for(process.wait(), 20)).exit_status == 0


async def test_a_client_without_a_terminal_is_told_and_refused(server):
    async with await _connect(server) as conn:
        result = await asyncio.wait_for(conn.run(encoding=None), 20)
        assert result.exit_status == 1
        assert b"needs a terminal" in result.stdout
