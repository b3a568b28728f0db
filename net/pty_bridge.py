"""Run a program on its own pseudo-terminal for an SSH client that asked for one.

``hexwar serve`` gives every interactive client its own process: the program (the hexwar terminal
UI) runs on a new pseudo-terminal sized like the client's window, with the client's ``TERM``; bytes
are copied both ways, a window resize is passed on (``TIOCSWINSZ``, which makes the kernel send the
program ``SIGWINCH``), and the client sees the program's exit status. A crash or a hang of one
program touches no other session: it is a separate process, and closing the connection ends it.

The program starts isolated from the server: an interpreter that puts neither the current
directory nor the user's site-packages on ``sys.path`` (``python -I``), in a folder the caller
names, with a clean environment (only what the caller passes, a UTF-8 locale and a ``TERM`` from a
short list of known terminals). It may write a crash report to a pipe (``CRASH_FD_ENV`` names its
descriptor), which the server logs: the traceback stays off the player's screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import sys
import termios
from typing import Any, Callable, Mapping, Sequence

import asyncssh

#: what a terminal client without a size is given
DEFAULT_SIZE = (80, 24)
#: bytes read from the program at once; the SSH channel's own window bounds what is in flight
CHUNK = 65536
#: the environment variable naming the descriptor a program writes its crash report to
CRASH_FD_ENV = "HEXWAR_CRASH_FD"
#: the most of a crash report the server keeps (the program writes at most this much)
CRASH_BYTES = 60_000
#: terminal types a client may ask for; anything else gets ``FALLBACK_TERM`` (the name reaches
#: terminfo lookups in the program, so it is never taken from the client as it is)
TERMS = ("xterm", "xterm-256color", "xterm-color", "xterm-kitty", "xterm-ghostty", "screen",
         "screen-256color", "tmux", "tmux-256color", "linux", "vt100", "vt220", "rxvt",
         "rxvt-unicode", "rxvt-unicode-256color", "alacritty", "foot", "wezterm", "dumb")
FALLBACK_TERM = "xterm-256color"
#: terminal types that show no colour: the program is given ``NO_COLOR``
COLOURLESS_TERMS = ("dumb",)

#: what puts a client's terminal back as it was whatever the program left it in: leave the
#: alternate screen, every mouse and focus report off, bracketed paste and the kitty keyboard
#: mode off, the cursor shown, attributes reset. Sent after any end but a clean quit (a program
#: that quit has restored the terminal itself, and leaving the alternate screen twice would move
#: the cursor back over what it printed on the way out).
RESET = (b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l"
         b"\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[?25h\x1b[0m")

#: how a session ended (the ``reason`` given to ``on_end``) and the exit status the client sees
QUIT, CRASHED, KILLED, IDLE, STOPPING, CLIENT_LEFT = "quit", "crashed", "killed", "idle", "server-stopping", "client-left"
EXIT_IDLE = 124      # as timeout(1) says it
EXIT_STOPPING = 75   # EX_TEMPFAIL: come back later


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """Size the terminal behind ``fd`` (the kernel tells the program with ``SIGWINCH``)."""
    columns = max(1, min(int(columns), 1000))
    rows = max(1, min(int(rows), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def window_size(fd: int) -> tuple[int, int]:
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, bytes(8)))
    return columns, rows


def checked_term(term: str | None) -> str:
    """The client's ``TERM`` if it is one we know, else a safe default."""
    return term if term in TERMS else FALLBACK_TERM


def clean_env(env: Mapping[str, str] | None, term: str | None) -> dict[str, str]:
    """The program's whole environment: nothing of the server's (its secrets, ``PYTHONPATH``,
    ``PYTHONSTARTUP``...), only a path, a UTF-8 locale, the terminal type and ``env``."""
    child = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": checked_term(term)}
    child.update(env or {})
    if child["TERM"] in COLOURLESS_TERMS:  # a terminal that shows no colour is sent none
        child["NO_COLOR"] = "1"
        child.pop("COLORTERM", None)
    return child


def farewell(reason: str, code: int, idle_timeout: float | None = None) -> str:
    """The one line a player reads when the session ended other than by quitting."""
    if reason == IDLE:
        minutes = max(1, round((idle_timeout or 0) / 60))
        return f"hexwar: nothing typed for {minutes} min; session closed (your game is saved)"
    if reason == STOPPING:
        return "hexwar: the server is stopping; your game is saved, connect again later"
    if reason == KILLED:
        return f"hexwar: your session was stopped on the server (signal {code - 128}); your game is saved"
    return f"hexwar: your session ended on an error (status {code}); your game is saved"


def _child_setup() -> None:
    """In the child: a session of its own with the pty as its controlling terminal, so that
    resizes and hang-ups reach it like they reach a program started from a real terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    os.umask(0o077)  # what a player's program writes is theirs alone


async def run_on_pty(process: asyncssh.SSHServerProcess, argv: Sequence[str],
                     env: Mapping[str, str] | None = None, *, term: str | None = None,
                     size: tuple[int, int] | None = None,
                     on_start: Callable[[int], None] | None = None,
                     idle_timeout: float | None = None, cwd: str | os.PathLike | None = None,
                     on_crash: Callable[[int, str], None] | None = None,
                     stop: asyncio.Event | None = None,
                     on_end: Callable[[str, int], None] | None = None) -> int:
    """Run ``argv`` on a new pseudo-terminal wired to ``process`` (an SSH session that asked for
    a terminal, opened with ``encoding=None``). Returns the program's exit status; when the
    client goes away first, the program is hung up on and then killed. ``on_start`` is told the
    program's process id (its process group has the same id). A client that sends nothing for
    ``idle_timeout`` seconds is told so and hung up on. The program runs in ``cwd`` with only the
    environment ``clean_env`` makes; when it exits non-zero, ``on_crash(status, report)`` is told
    what it wrote to its crash pipe (empty if nothing). When ``stop`` is set (the server is
    stopping) the program is hung up on. Any end but a clean quit leaves the client's terminal
    reset (``RESET``) and one line saying why; ``on_end(reason, status)`` is told which end it
    was (``QUIT``, ``CRASHED``, ``KILLED``, ``IDLE``, ``STOPPING``, ``CLIENT_LEFT``)."""
    columns, rows = size or tuple(process.get_terminal_size()[:2])
    if not columns or not rows:
        columns, rows = DEFAULT_SIZE
    master, slave = os.openpty()
    set_window_size(master, columns, rows)
    child_env = clean_env(env, term or process.get_terminal_type())
    crash_read, crash_write = os.pipe()
    child_env[CRASH_FD_ENV] = str(crash_write)
    try:
        child = await asyncio.create_subprocess_exec(
            *argv, stdin=slave, stdout=slave, stderr=slave, env=child_env, close_fds=True,
            pass_fds=(crash_write,), cwd=cwd, preexec_fn=_child_setup)
    except BaseException:
        os.close(crash_read)
        raise
    finally:
        os.close(slave)
        os.close(crash_write)
    if on_start is not None:
        on_start(child.pid)
    os.set_blocking(master, False)
    loop = asyncio.get_running_loop()
    closed = asyncio.Event()

    def from_program() -> None:
        try:
            data = os.read(master, CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # EIO: every program-side copy of the pty is closed
            data = b""
        if not data:
            loop.remove_reader(master)
            closed.set()
            return
        try:
            process.stdout.write(data)
        except (BrokenPipeError, ConnectionError, asyncssh.Error):
            # the client is gone (its channel closed under us): not an error of ours; the
            # program is hung up on when the reading side sees the end
            loop.remove_reader(master)
            return
        # a client that does not read fills the channel window: stop reading from the program
        # until asyncssh has drained, so its output waits in the kernel, not in our memory
        if process.channel.get_write_buffer_size() > 4 * CHUNK:
            loop.remove_reader(master)
            asyncio.ensure_future(_resume_when_drained())

    async def _resume_when_drained() -> None:
        with contextlib.suppress(Exception):
            await process.stdout.drain()
        if not closed.is_set():
            loop.add_reader(master, from_program)

    async def to_program() -> None:
        while True:
            try:
                data = await asyncio.wait_for(process.stdin.read(CHUNK), idle_timeout)
            except asyncio.TimeoutError:
                ending["reason"] = IDLE
                return
            except asyncssh.TerminalSizeChanged as change:
                set_window_size(master, change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.DisconnectError, asyncssh.ConnectionLost, BrokenPipeError):
                ending["reason"] = CLIENT_LEFT
                return
            if not data:
                ending["reason"] = CLIENT_LEFT
                return
            view = memoryview(data if isinstance(data, bytes) else data.encode())
            while view:
                try:
                    n = os.write(master, view)
                    view = view[n:]
                except BlockingIOError:
                    await asyncio.sleep(0.01)
                except OSError:
                    return

    ending: dict[str, str] = {}
    loop.add_reader(master, from_program)
    feeder = asyncio.ensure_future(to_program())
    waiter = asyncio.ensure_future(child.wait())
    stopper = asyncio.ensure_future(stop.wait() if stop is not None else asyncio.Event().wait())
    try:
        await asyncio.wait({waiter, feeder, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper.done() and not waiter.done():
            ending["reason"] = STOPPING
        if not waiter.done():  # the client went away: hang up on the program, then insist
            _signal(child, signal.SIGHUP)
            try:
                await asyncio.wait_for(asyncio.shield(waiter), 2.0)
            except asyncio.TimeoutError:
                _signal(child, signal.SIGKILL)
                await waiter
        # let the program's last output reach the client
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(closed.wait(), 1.0)
    finally:
        feeder.cancel()
        stopper.cancel()
        loop.remove_reader(master)
        os.close(master)
        if child.returncode is None:
            _signal(child, signal.SIGKILL)
            await child.wait()
        report = _read_report(crash_read)
    code = child.returncode or 0
    code = code if code >= 0 else 128 - code
    reason = ending.get("reason") or (QUIT if code == 0 else KILLED if code > 128 else CRASHED)
    if reason == STOPPING or (reason != QUIT and stop is not None and stop.is_set()):
        reason, code = STOPPING, EXIT_STOPPING
    elif reason == IDLE:
        code = EXIT_IDLE
    if reason in (CRASHED, KILLED) and on_crash is not None:
        on_crash(code, report)
    if reason not in (QUIT, CLIENT_LEFT):
        with contextlib.suppress(Exception):
            process.stdout.write(RESET + f"\r\n{farewell(reason, code, idle_timeout)}\r\n".encode())
    if on_end is not None:
        on_end(reason, code)
    return code


def _read_report(fd: int) -> str:
    """What the program wrote to its crash pipe (it has exited, so this never waits)."""
    os.set_blocking(fd, False)
    chunks, size = [], 0
    try:
        while size < CRASH_BYTES:
            try:
                data = os.read(fd, CRASH_BYTES - size)
            except (BlockingIOError, InterruptedError):
                break
            if not data:
                break
            chunks.append(data)
            size += len(data)
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace")


def _signal(child: Any, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, sig)


def python_argv(*args: str) -> list[str]:
    """The command that runs hexwar with this interpreter (the served UI's program), isolated:
    ``-I`` keeps the current directory, the user's site-packages and every ``PYTHON*`` variable
    out, so a stray ``rich.py`` or ``hexwar/`` beside the server is never imported."""
    return [sys.executable, "-I", "-m", "hexwar", *args]
