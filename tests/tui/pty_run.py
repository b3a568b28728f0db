"""Run ``hexwar`` on a real pseudo-terminal and collect every byte it writes (for the tests of
what reaches the terminal: ``--ascii`` and ``NO_COLOR``)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def run_on_pty(args: list[str], keys: list[bytes], env: dict[str, str], size=(80, 24),
               settle: float = 1.0, first: float = 40.0) -> bytes:
    """Start ``python -m hexwar ARGS`` on a pty of ``size``, wait for it to draw, send each key
    (waiting for the screen to settle after each), quit with ctrl+q; all the bytes written."""
    cols, rows = size
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "hexwar", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    out = bytearray()

    def drain(wait_first: float) -> None:
        got_any = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], settle if got_any else wait_first)
            if not ready:
                return
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            out.extend(chunk)
            got_any = True

    try:
        drain(first)
        for key in keys:
            os.write(master, key)
            drain(settle + 2)
        os.write(master, b"\x11")            # ctrl+q
        drain(5)
    finally:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(master)
    return bytes(out)


def colour_codes(data: bytes) -> list[bytes]:
    """Every SGR parameter that sets or resets a colour (30-49, 90-107)."""
    found = []
    for m in SGR.finditer(data):
        params = [p for p in re.split(rb"[;:]", m.group(1)) if p]
        i = 0
        while i < len(params):
            n = int(params[i])
            if 30 <= n <= 49 or 90 <= n <= 107:
                found.append(m.group(0))
                break
            i += 1
    return found
