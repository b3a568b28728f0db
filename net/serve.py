"""``hexwar serve``: one SSH server where a plain ``ssh -p PORT name@host`` gets the hexwar terminal UI.

Every interactive client gets its own process (the UI, on a pseudo-terminal sized like its window,
see ``pty_bridge``), so one session's crash or slowness touches no other. The SSH key is the
player's identity (``accounts``): the first key under a name owns it. Each player's games are
journals in a folder of their own under the server's data dir, so a player who leaves and comes
back with the same key finds them again, and sees no one else's.

Limits keep a hostile or careless client from taking the server down: connections in total and
per address, a short time to log in, a keepalive, and an idle timeout per session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from .accounts import Accounts, AccountRefused
from .keys import fingerprint, host_key
from .pty_bridge import python_argv, run_on_pty

log = logging.getLogger("hexwar.net")

NO_TERMINAL = """\
hexwar is played in a terminal. Connect with a terminal, for example:

    ssh -t -p {port} {name}@{host}

The first key you log in with owns the name you chose; come back with the same key to find your
games again. (An installed hexwar plays over its own protocol: see 'hexwar --help'.)
"""


@dataclass
class Limits:
    """What one server allows at once; every figure is configurable from the command line."""

    sessions: int = 64            # interactive sessions (UI processes) at once
    per_address: int = 4          # connections from one address at once
    login_seconds: float = 20.0   # to finish logging in
    idle_seconds: float = 30 * 60.0  # a session with no key pressed for this long is closed
    keepalive_seconds: float = 15.0
    accounts: int = 10_000


class _Login(asyncssh.SSHServer):
    """Per connection: any key may log in under a free name or its own; nothing else."""

    def __init__(self, server: "Server") -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.key: asyncssh.SSHKey | None = None
        self.counted = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = str(conn.get_extra_info("peername", ("?",))[0])
        refused = self.server.admit(self.address)
        if refused:
            log.warning("refused a connection from %s: %s", self.address, refused)
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, refused)
            return
        self.counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.server.release(self.address)
            self.counted = False

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        why = self.server.accounts.problem(username, key)
        if why is not None:
            if self.conn is not None:
                self.conn.send_auth_banner(f"hexwar: {why}\r\n")
            return False
        self.key = key
        return True

    def auth_completed(self) -> None:
        # the key is proven now: only now does a free name become this key's
        assert self.conn is not None and self.key is not None
        name = self.conn.get_extra_info("username")
        try:
            if self.server.accounts.claim(name, self.key):
                log.info("new player %s (%s) from %s", name, fingerprint(self.key), self.address)
        except AccountRefused as exc:  # the name was taken between offer and proof
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, str(exc))


class Server:
    """The served hexwar: accounts, limits, and one UI process per interactive session."""

    def __init__(self, home: Path, limits: Limits | None = None) -> None:
        self.home = Path(home)
        self.limits = limits or Limits()
        self.accounts = Accounts(self.home / "accounts.json", limit=self.limits.accounts)
        self.key = host_key(self.home)
        self.by_address: dict[str, int] = {}
        self.sessions = 0
        self.acceptor: Any = None
        self.port = 0
        self.host = "127.0.0.1"

    # --- limits -------------------------------------------------------------------------------
    def admit(self, address: str) -> str | None:
        if self.by_address.get(address, 0) >= self.limits.per_address:
            return f"too many connections from {address}"
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    # --- serving ------------------------------------------------------------------------------
    async def start(self, bind: str = "", port: int = 2222) -> "Server":
        self.acceptor = await asyncssh.listen(
            bind, port, server_host_keys=[self.key], server_factory=lambda: _Login(self),
            process_factory=self._session, encoding=None, allow_pty=True, line_editor=False,
            login_timeout=self.limits.login_seconds, keepalive_interval=self.limits.keepalive_seconds,
            keepalive_count_max=3, agent_forwarding=False, allow_scp=False,
            x11_forwarding=False)
        sockname = self.acceptor.sockets[0].getsockname()
        self.host, self.port = sockname[0], sockname[1]
        return self

    def player_home(self, name: str) -> Path:
        """A player's own folder (saved games, settings); the name was checked by ``accounts``."""
        path = self.home / "players" / name
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return path

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        name = process.get_extra_info("username")
        if process.get_terminal_type() is None or process.command or process.subsystem:
            text = NO_TERMINAL.format(port=self.port, name=name, host=_public_host(self.host))
            process.stdout.write(text.replace("\n", "\r\n").encode())
            process.exit(1)
            return
        if self.sessions >= self.limits.sessions:
            process.stdout.write(b"hexwar: the server is full right now; try again later\r\n")
            process.exit(1)
            return
        self.sessions += 1
        try:
            home = self.player_home(name)
            env = {"HEXWAR_HOME": str(home), "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
            if "NO_COLOR" in (process.env or {}):  # a client that sends NO_COLOR gets no colour
                env["NO_COLOR"] = "1"
            code = await run_on_pty(process, python_argv("served-session", "--player", name), env,
                                    idle_timeout=self.limits.idle_seconds)
        except Exception as exc:  # one session failing never takes the server down
            log.error("session of %s failed: %s", name, exc)
            code = 1
        finally:
            self.sessions -= 1
        with contextlib.suppress(Exception):
            process.exit(code)

    async def close(self) -> None:
        if self.acceptor is not None:
            self.acceptor.close()
            await self.acceptor.wait_closed()


def _public_host(bound: str) -> str:
    return "HOST" if bound in ("", "0.0.0.0", "::") else bound


async def serve_forever(home: Path, bind: str, port: int, limits: Limits) -> None:
    server = await Server(home, limits).start(bind, port)
    where = f"{bind}:{server.port}" if bind else f"port {server.port} of every address"
    print(f"hexwar serve: listening on {where}; host key "
          f"{fingerprint(server.key)}\nplayers connect with: ssh -p {server.port} NAME@{_public_host(bind)}",
          flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await server.close()
