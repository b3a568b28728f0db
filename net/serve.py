"""``hexwar serve``: one SSH server where a plain ``ssh -p PORT name@host`` gets the hexwar terminal UI.

Every interactive client gets its own process (the UI, on a pseudo-terminal sized like its window,
see ``pty_bridge``), so one session's crash or slowness touches no other. The SSH key is the
player's identity (``accounts``): the first key under a name owns it. Each player's games are
journals in a folder of their own under the server's data dir, so a player who leaves and comes
back with the same key finds them again, and sees no one else's.

Matches between people belong to the server (``referee``): a served player's UI process reaches
them through the lobby socket (``lobby``); an installed hexwar logs in as ``player`` (invite code,
then its key) or ``spectator`` (watch code) and speaks protocol 2 on the ``hexwar`` subsystem.

Limits keep a hostile or careless client from taking the server down: connections in total and
per address, a short time to log in, a keepalive, and an idle timeout per session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from . import handshake
from .accounts import Accounts, AccountRefused
from .errors import HandshakeRefused, HexwarNetError, LinkClosed
from .keys import fingerprint, host_key, import_public, public_line
from .limits import Buckets, Gate, Limits as NetLimits, LoginThrottle
from .link import Link
from .lobby import SOCKET_ENV, TICKET_ENV, LobbyService
from .pty_bridge import python_argv, run_on_pty
from . import serve_log
from .referee import Matches, Referee
from .server import REFUSING_AT_ONCE, SUBSYSTEM, refuse_readably

log = logging.getLogger("hexwar.net")

MOSH = """\
hexwar cannot start mosh-server here: this server runs nothing but hexwar. To play over mosh,
mosh to a shell host of your own and ssh on from there:

    mosh yourhost -- ssh -t -p {port} {name}@{host}
"""

#: commands a logged-in player may run without a terminal: ``add-key`` reads a public key line
#: from its input and adds it to the player's keys; ``keys`` lists them
KEY_COMMANDS = ("add-key", "keys")
MAX_KEY_LINE = 16384

#: how long a stopping server waits for its sessions to reset their players' terminals
STOP_SECONDS = 3.0

#: kex methods, the one Dropbear's dbclient guesses first: a client that sends its first key
#: exchange packet early (``first_kex_packet_follows``) then guessed right, and asyncssh needs no
#: second try (with ``mlkem768x25519-sha256`` first, Dropbear's re-sent packet was refused)
KEX_FIRST = b"curve25519-sha256"

NO_TERMINAL = """\
hexwar is played in a terminal. Connect with a terminal, for example:

    ssh -t -p {port} {name}@{host}

The first key you log in with owns the name you chose; come back with the same key to find your
games and matches again. With hexwar installed, join a match here by its invite code instead:

    hexwar join {host}:{port} --server --code CODE
"""


@dataclass
class Limits:
    """What one server allows at once; the main figures are options of ``hexwar serve``."""

    sessions: int = 64            # interactive sessions (UI processes) at once
    connections: int = 256        # SSH connections at once, logged in or not
    per_address: int = 4          # connections from one address at once
    login_seconds: float = 20.0   # to finish logging in
    idle_seconds: float = 30 * 60.0  # a session with no key pressed for this long is closed
    keepalive_seconds: float = 15.0
    accounts: int = 10_000
    new_accounts_per_address: int = 3        # new accounts one address may make at once ...
    new_accounts_per_address_hour: float = 6.0  # ... and then per hour
    new_accounts_burst: int = 30             # new accounts the whole server makes at once ...
    new_accounts_per_hour: float = 180.0     # ... and then per hour
    unused_account_days: float = 7.0         # an account whose player never came back, holding nothing
    matches: int = 1000           # matches being played at once (finished ones never count)
    open_seat_days: float = 7.0   # a match whose second seat nobody took for this long is closed
    turn_seconds: int = 0         # per decision in a new served match, by the server's clock; 0: none


#: warnings about one peer address: this many at once, then one a minute (the rest are dropped)
LOG_BURST, LOG_PER_SECOND = 20, 1 / 60

#: the users an installed hexwar logs in as (``hexwar join`` / ``hexwar watch``)
NATIVE = ("player", "spectator")


class _Login(asyncssh.SSHServer):
    """Per connection: any key may log in under a free name or its own; nothing else."""

    def __init__(self, server: "Server") -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.key: asyncssh.SSHKey | None = None      # the identity: a key whose signature verified
        self._offered: asyncssh.SSHKey | None = None  # the key of the auth attempt under way
        self.refusal: str | None = None  # why this connection is refused (it is told at auth)
        self.key_refusal: str | None = None  # why the last key offered may not log in
        self.username = ""
        self.native_match: Referee | None = None  # the match a native client's code named
        self.code: str | None = None
        self.wrong_codes = 0
        self.channels = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = str(conn.get_extra_info("peername", ("?",))[0])
        self.refusal = self.server.admit(self)

    def arm_idle(self) -> None:
        """A login that holds no session only holds a place: close it after a short while."""
        asyncio.get_running_loop().call_later(self.server.net_limits.channel_timeout, self._close_if_idle)

    def _close_if_idle(self) -> None:
        if self.channels == 0 and self.conn is not None:
            self.server.note(self.address, "closed a login from %s that opened no session", self.address)
            self.conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.key_refusal is not None and self.key is None and self.native_match is None:
            self.server.refused(self.address, self.key_refusal, self.username)  # every key it had
        self.server.matches.release_code(self)  # an invite code this login spent, if still unused
        self.server.gate.leave(self)
        self.server.refusing.discard(self)

    def begin_auth(self, username: str) -> bool:
        self.username = username
        if self.refusal is not None and self.conn is not None:
            refuse_readably(self.conn, self.refusal)
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.key_refusal is not None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """Every key the client had was refused: now say why (an auth banner), and fail."""
        if self.key_refusal is not None and self.conn is not None:
            self.conn.send_auth_banner(f"hexwar: {self.key_refusal}\r\n")
        return False

    def password_auth_supported(self) -> bool:
        return self.username in NATIVE  # an installed hexwar's invite or watch code

    async def validate_password(self, username: str, password: str) -> bool:
        self._offered = None  # this attempt is a code: no key of an earlier offer counts
        if self.refusal is not None:
            return False
        return await self.server.code_login(self, username, password)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether ``key`` may log in as ``username``. asyncssh asks this *before* it checks the
        signature (and for a mere query without one), so the key is only a candidate here: it
        becomes the identity in ``auth_completed``, if this very attempt succeeded."""
        self._offered = None
        if self.refusal is not None:
            return False
        if username in NATIVE:  # a native client that holds a seat comes back by its key
            ok = username == "player" and bool(self.server.matches.of_identity(f"key:{public_line(key)}"))
            if ok:
                self._offered = key
            return ok
        why = self.server.accounts.problem(username, key)
        if why is not None:
            # not said yet: a player with several keys may offer the right one next; it is said
            # only once every key failed, when the client falls back to keyboard-interactive
            self.key_refusal = why
            return False
        self._offered = key
        return True

    def auth_completed(self) -> None:
        # asyncssh runs one auth attempt at a time (a new request cancels the one under way),
        # so the last attempt is the one that succeeded: a key offered in it is proven now
        assert self.conn is not None
        self.key, self._offered = self._offered, None
        serve_log.event("login", name=self.username, key=fingerprint(self.key) if self.key else None,
                        method="publickey" if self.key is not None else "code", **{"from": self.address})
        self.server.gate.authenticated(self)
        # no account yet: one is made only when the player opens a real session (``_session``)
        self.arm_idle()


class Server:
    """The served hexwar: accounts, limits, and one UI process per interactive session."""

    def __init__(self, home: Path, limits: Limits | None = None) -> None:
        self.home = Path(home)
        self.limits = limits or Limits()
        self.accounts = Accounts(self.home / "accounts.db", limit=self.limits.accounts)
        moved = self.accounts.migrate_json(self.home / "accounts.json")
        if moved:
            log.info("read %d accounts in from accounts.json (kept as accounts.json.migrated)", moved)
        hour = 3600.0
        self.new_accounts = Buckets(self.limits.new_accounts_per_address,
                                    self.limits.new_accounts_per_address_hour / hour,
                                    self.limits.new_accounts_burst, self.limits.new_accounts_per_hour / hour)
        self.log_budget = Buckets(LOG_BURST, LOG_PER_SECOND)  # lines about one address
        self.key = host_key(self.home)
        self.net_limits = NetLimits()  # protocol 2's bounds, for the matches' connections
        self.throttle = LoginThrottle(self.net_limits)
        self.matches = Matches(self.home, self.net_limits, max_matches=self.limits.matches,
                               open_seat_seconds=self.limits.open_seat_days * 86400)
        self.matches.turn_time = self.limits.turn_seconds
        self.lobby = LobbyService(self.matches, self.home / "lobby.sock")
        self.gate = Gate(self.limits.connections, self.limits.per_address)
        self.refusing: set[_Login] = set()  # refused connections being told why
        self.sessions = 0
        self.children: set[int] = set()  # UI processes (each the leader of its process group)
        self.stopping = asyncio.Event()  # set as the server stops: every session ends
        #: the program a session runs for a player (the terminal UI; a test may run another)
        self.ui_command = lambda name: python_argv("served-session", "--player", name)
        self.acceptor: Any = None
        self.port = 0
        self.host = "127.0.0.1"

    # --- limits -------------------------------------------------------------------------------
    def admit(self, login: "_Login") -> str | None:
        """Count a new connection against the caps (``limits.Gate``): None when admitted (older
        connections still logging in may be closed to make room), else why not."""
        refused, evicted = self.gate.arrive(login, login.address)
        for old in evicted:
            self.note(old.address, "closed a connection from %s that had not logged in, to make room",
                      old.address)
            if old.conn is not None:
                old.conn.close()
        if refused is None:
            return None
        self.refused(login.address, refused)
        if len(self.refusing) >= REFUSING_AT_ONCE and login.conn is not None:
            login.conn.abort()  # telling each why would itself be a way to hold the server
        else:
            self.refusing.add(login)
        return refused

    def refused(self, address: str, why: str, name: str | None = None) -> None:
        """The ``refused`` line of the operator's log, within the address's log budget."""
        if self.log_budget.refused(address, time.monotonic()) is None:
            serve_log.event("refused", name=name, why=why, **{"from": address})

    def note(self, address: str, message: str, *args: Any) -> None:
        """A warning about what a peer did, within that address's log budget: a peer that does
        the same thing over and over, on one connection or many, cannot fill the log."""
        if self.log_budget.refused(address, time.monotonic()) is None:
            log.warning(message, *args)

    def account_for(self, login: "_Login", name: str) -> str | None:
        """Make or note the account of ``name`` as a real session opens; None, or why not."""
        key = login.key
        if key is None:
            return "log in with an SSH key: it is your identity here"
        if name not in self.accounts:
            if self.accounts.full():  # make room from accounts nobody uses, then judge
                gone = self.accounts.expire_unused(self.limits.unused_account_days * 86400, self._holds_something)
                if gone:
                    log.info("forgot %d accounts whose players never came back", len(gone))
            why = self.accounts.problem(name, key)
            if why is not None:
                return why
            rate = self.new_accounts.refused(login.address, time.monotonic())
            if rate is not None:
                self.note(login.address, "refused a new account from %s: the %s rate", login.address, rate)
                return ("too many new players from your address; try again later" if rate == "address"
                        else "too many new players right now; try again later")
        try:
            if self.accounts.claim(name, key):
                log.info("new player %s (%s) from %s", name, fingerprint(key), login.address)
        except AccountRefused as exc:
            return str(exc)
        return None

    def _holds_something(self, name: str) -> bool:
        """Whether a player's account is worth keeping: a saved game, or a seat in a match."""
        folder = self.home / "players" / name
        if folder.is_dir() and any(folder.rglob("*.journal")):
            return True
        return bool(self.matches.of_identity(f"player:{name}"))

    async def code_login(self, login: "_Login", role: str, code: str) -> bool:
        """An installed hexwar's code: a match's invite code (``player``) or watch code
        (``spectator``), judged under protocol 2's throttle of guessing addresses."""
        addr = login.address
        if self.throttle.locked(addr):
            return False
        delay = self.throttle.delay(addr)
        if delay:
            await asyncio.sleep(delay)
        if role == "player":
            ref = self.matches.claim_code(code, login)
            if ref is None and self.matches.by_code(code) is not None:
                self.note(addr, "refused an invite code from %s: another login holds it", addr)
                return False  # a racing second login, not a guess
        else:
            ref = self.matches.by_watch_code(code)
        if ref is not None:
            login.native_match, login.code = ref, code
            return True
        login.wrong_codes += 1
        if self.throttle.failed(addr) <= self.net_limits.logged_guesses:
            log.warning("refused a wrong %s code from %s", role, addr)
        if login.wrong_codes >= self.net_limits.guesses_per_connection and login.conn is not None:
            login.conn.close()
        return False

    # --- serving ------------------------------------------------------------------------------
    async def start(self, bind: str = "", port: int = 2222) -> "Server":
        await self.lobby.start()
        kex = [KEX_FIRST.decode()] + [a.decode() for a in asyncssh.kex.get_default_kex_algs() if a != KEX_FIRST]
        self.acceptor = await asyncssh.listen(
            bind, port, kex_algs=kex, server_host_keys=[self.key], server_factory=lambda: _Login(self),
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
        for folder in (self.home, path.parent, path):  # every folder of the server private
            folder.mkdir(exist_ok=True, mode=0o700)
            os.chmod(folder, 0o700)
        return path

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        login: _Login = process.channel.get_connection().get_owner()  # type: ignore[assignment]
        login.channels += 1
        try:
            await self._one_session(process, login)
        finally:
            login.channels -= 1
            if login.channels == 0:
                login.arm_idle()

    async def _one_session(self, process: asyncssh.SSHServerProcess, login: "_Login") -> None:
        name = process.get_extra_info("username")
        if name in NATIVE:
            await self._native(process, name)
            return
        if process.command and process.command.split()[0] in KEY_COMMANDS and process.get_terminal_type() is None:
            await self._key_command(process, login, name)
            return
        if process.get_terminal_type() is None or process.command or process.subsystem:
            mosh = (process.command or "").split()[:1] == ["mosh-server"]
            text = (MOSH if mosh else NO_TERMINAL).format(port=self.port, name=name, host=self.public_host(process))
            process.stdout.write(text.replace("\n", "\r\n").encode())
            process.exit(1)
            self.refused(login.address, "mosh-server asked for" if mosh else "no terminal", name)
            return
        if self.sessions >= self.limits.sessions:
            process.stdout.write(b"hexwar: the server is full right now; try again later\r\n")
            process.exit(1)
            self.refused(login.address, "the server is full", name)
            return
        refused = self.account_for(login, name)
        if refused is not None:
            process.stdout.write(f"hexwar: {refused}\r\n".encode())
            process.exit(1)
            self.refused(login.address, refused, name)
            return
        self.sessions += 1
        ticket = self.lobby.ticket_for(name, address=f"{self.public_host(process)}:{self.port}")
        started = _Started(self.children)  # this session's UI process, while it runs
        began = time.monotonic()
        ended: dict[str, Any] = {"reason": "failed"}

        def on_start(pid: int) -> None:
            started.append(pid)
            size = process.get_terminal_size()
            serve_log.event("session-start", name=name, term=process.get_terminal_type(),
                            size=f"{size[0]}x{size[1]}", pid=pid, **{"from": login.address})

        def on_end(reason: str, status: int) -> None:
            ended.update(reason=reason, code=status)
        try:
            home = self.player_home(name)
            env = {"HEXWAR_HOME": str(home), "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
                   SOCKET_ENV: str(self.lobby.path), TICKET_ENV: ticket}
            sent = process.env or {}
            if "NO_COLOR" in sent:  # a client that sends NO_COLOR gets no colour
                env["NO_COLOR"] = "1"
            if sent.get("COLORTERM") in ("truecolor", "24bit"):
                env["COLORTERM"] = "truecolor"
            code = await run_on_pty(process, self.ui_command(name), env,
                                    idle_timeout=self.limits.idle_seconds, on_start=on_start,
                                    cwd=home, on_crash=lambda status, report: _log_crash(name, status, report),
                                    stop=self.stopping, on_end=on_end)
        except Exception as exc:  # one session failing never takes the server down
            serve_log.event("crash", logging.ERROR, name=name, code=1, why=f"{type(exc).__name__}: {exc}")
            code = 1
        finally:
            serve_log.event("session-end", name=name, reason=ended["reason"], code=ended.get("code", code),
                            seconds=round(time.monotonic() - began, 1))
            self.sessions -= 1
            self.lobby.forget(ticket)
            self.children.difference_update(started.pids)
        with contextlib.suppress(Exception):
            process.exit(code)

    def public_host(self, process: asyncssh.SSHServerProcess) -> str:
        """The address this client reached the server at, as it would type it."""
        sock = process.channel.get_connection().get_extra_info("sockname") or (self.host,)
        host = _public_host(str(sock[0]))
        return f"[{host}]" if ":" in host else host

    async def _key_command(self, process: asyncssh.SSHServerProcess, login: "_Login", name: str) -> None:
        """``ssh NAME@host add-key < key.pub`` adds a key to a player's own account (who logged
        in with one of its keys); ``ssh NAME@host keys`` lists the fingerprints."""
        command = (process.command or "").split()[0]
        key = login.key
        if key is None or name not in self.accounts or not self.accounts.owns(name, key):
            process.stdout.write(b"hexwar: log in once with a terminal first (ssh -t), then add keys\n")
            process.exit(1)
            return
        if command == "add-key":
            try:
                text = await asyncio.wait_for(process.stdin.read(MAX_KEY_LINE), 10.0)
            except (asyncio.TimeoutError, asyncssh.Error):
                text = b""
            new = import_public(text.decode("utf-8", "replace").strip().splitlines()[0] if text.strip() else "")
            try:
                if new is None:
                    raise AccountRefused("send one public key line (for example: add-key < ~/.ssh/id_ed25519.pub)")
                added = self.accounts.add_key(name, new)
            except AccountRefused as exc:
                process.stdout.write(f"hexwar: {exc}\n".encode())
                process.exit(1)
                return
            if added:
                serve_log.event("key-added", name=name, key=fingerprint(new), by=fingerprint(key),
                                **{"from": login.address})
            process.stdout.write(f"hexwar: {fingerprint(new)} {'added to' if added else 'is already one of'} "
                                 f"{name}'s keys\n".encode())
        else:
            process.stdout.write("".join(f"{fp}\n" for fp in self.accounts.fingerprints(name)).encode())
        process.exit(0)

    def _hang_up_children(self) -> None:
        """A server that stops leaves no UI process behind: each is hung up on, then killed."""
        alive = []
        for pid in sorted(self.children):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGHUP)
                alive.append(pid)
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        self.children.clear()

    async def _native(self, process: asyncssh.SSHServerProcess, role: str) -> None:
        """An installed hexwar (``join`` / ``watch``): protocol 2 to the match's referee."""
        login: _Login = process.channel.get_connection().get_owner()  # type: ignore[assignment]
        if process.subsystem != SUBSYSTEM:
            process.stderr.write(b"hexwar: 'player' and 'spectator' get only the 'hexwar' subsystem\n")
            process.exit(1)
            return
        link = Link(process.stdin, process.stdout, name=f"a native {role}", on_close=lambda: process.exit(0))
        try:
            if login.channels > self.net_limits.channels_per_connection:
                raise await handshake.refuse(link, ["one hexwar channel per connection"])
            if role == "spectator":
                assert login.native_match is not None
                await login.native_match.serve_spectator(link)
                return
            await self._native_player(link, login)
        except HandshakeRefused as exc:
            self.note(login.address, "refused %s from %s: %s", link.name, login.address, exc.reason)
        except LinkClosed:
            pass
        except HexwarNetError as exc:
            self.note(login.address, "%s from %s: %s", link.name, login.address, exc.reason)
        except Exception:  # a bug costs one connection, never the server
            log.exception("error serving %s", link.name)
        finally:
            link.close()

    async def _native_player(self, link: Link, login: _Login) -> None:
        if login.key is not None:  # back by its key: its latest match still being played
            identity = f"key:{public_line(login.key)}"
            live = [r for r in self.matches.of_identity(identity) if not r.match.over] or \
                self.matches.of_identity(identity)
            ref = max(live, key=lambda r: r.info.created)
        else:
            assert login.native_match is not None
            ref = login.native_match
        refs = {"ref": ref}

        def bind(hello: dict) -> str | None:
            """The seat goes to the key the client names; a key login must name its own key."""
            key = import_public(hello.get("key") or "")
            if key is None:
                return "the client sent no usable public key"
            line = public_line(key)
            if login.key is not None and public_line(login.key) != line:
                return "the hello names a different key than the one the client logged in with"
            side = self.matches.seat_for(refs["ref"], f"key:{line}", code=login.code, holder=login)
            if side is None or side != refs["side"]:
                return "this match has no seat for this key"
            return None

        identity_side = ref.info.side_of(f"key:{public_line(login.key)}") if login.key is not None \
            else ref.info.open_side()
        if identity_side is None:
            raise await handshake.refuse(link, ["this match has no free seat"])
        refs["side"] = identity_side
        await ref.serve_player(link, identity_side, check=bind)

    async def close(self) -> None:
        # no new connections; every session hangs up on its UI and resets its player's terminal
        # with a line saying why; what is still running after a few seconds is killed
        if self.acceptor is not None:
            self.acceptor.close()
        self.stopping.set()
        deadline = time.monotonic() + STOP_SECONDS
        while self.sessions and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)  # let the last lines and exit statuses leave
        self._hang_up_children()
        if self.acceptor is not None:  # (waits for open connections on some Pythons: bounded)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.acceptor.wait_closed(), 1.0)
        self.matches.close()
        await self.lobby.close()
        self.accounts.close()


class _Started:
    """Notes a session's UI process in the server's set as soon as it starts."""

    def __init__(self, children: set[int]) -> None:
        self.children, self.pids = children, []

    def append(self, pid: int) -> None:
        self.pids.append(pid)
        self.children.add(pid)


def _log_crash(name: str, status: int, report: str) -> None:
    """A UI process that failed or was killed: a ``crash`` line, its traceback after it (the
    player saw one line)."""
    serve_log.event("crash", logging.ERROR, name=name, code=status, detail=report)


def _public_host(bound: str) -> str:
    return "HOST" if bound in ("", "0.0.0.0", "::") else bound


async def serve_forever(home: Path, bind: str, port: int, limits: Limits) -> None:
    serve_log.show_events(logging.getLogger("hexwar.net").isEnabledFor(logging.INFO))
    server = await Server(home, limits).start(bind, port)
    where = f"{bind}:{server.port}" if bind else f"port {server.port} of every address"
    print(f"hexwar serve: listening on {where}; host key "
          f"{fingerprint(server.key)}\nplayers connect with: ssh -p {server.port} NAME@{_public_host(bind)}",
          flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):  # stop cleanly: matches journaled, UIs hung up
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.close()
