"""The host: an asyncssh server that offers one thing, the ``hexwar`` subsystem.

Who may log in belongs to this one match: the guest seat's key once it is bound (it is in the
journal), keys the host admitted for this match (``--admit``), or the one-time invite code.
The code is spent when a connection authenticates with it, so exactly one connection holds it; if
that connection ends before taking the seat the code is free again. Spectators log in as
``spectator`` with the watch code, an admitted key, or the seated guest's key. No shells,
commands, PTYs or forwarding: anything but the subsystem is refused.

Abuse is bounded (``limits.Limits``): wrong codes slow down and lock an address out, connections
are capped in total and per address (a connection still logging in makes room for a newer one,
so idle TCP connections cannot keep the guest out), spectators are capped, a login that opens no
channel is closed, a spectator that stops reading is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import asyncssh

from . import handshake, protocol
from .errors import FramingError, HandshakeRefused, HexwarNetError, LinkClosed
from .keys import Invite, fingerprint, host_key, import_public, public_line, secure_dir
from .limits import KEEPALIVE_COUNT_MAX, KEEPALIVE_INTERVAL, Gate, Limits, LoginThrottle
from .link import Link
from .session import Session

log = logging.getLogger("hexwar.net")
SUBSYSTEM = "hexwar"
ROLES = ("player", "spectator")
BANNER = ("This is a hexwar game host: only the 'hexwar' subsystem is served.\n"
          "Log in as 'player' (the guest seat: invite code or the seat's key) or as\n"
          "'spectator' (the watch code). Use 'hexwar join' or 'hexwar watch'.\n")


class _SSHServer(asyncssh.SSHServer):
    """Per-connection auth policy: a key we know or the right code; nothing else."""

    def __init__(self, host: "Host") -> None:
        self.host = host
        self.method: str | None = None
        self.key: asyncssh.SSHKey | None = None
        self.peer = "?"
        self.conn: asyncssh.SSHServerConnection | None = None
        self.wrong_codes = 0
        self.channels = 0
        self.refusal: str | None = None  # why this connection is refused (it is told at auth)
        self._idle: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.peer = str(conn.get_extra_info("peername", ("?",))[0])
        self.refusal = self.host.admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.host.connections.discard(self)
        self.host.gate.leave(self)
        if self._idle is not None:
            self._idle.cancel()
        self.host.connection_ended(self)

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None and self.conn is not None:
            refuse_readably(self.conn, self.refusal)
            return True
        if username not in ROLES and self.conn is not None:
            self.conn.send_auth_banner(BANNER)
        return True

    def auth_completed(self) -> None:
        self.host.gate.authenticated(self)
        self.arm_idle()

    def arm_idle(self) -> None:
        """A login without an open channel only holds a place: close it after a short while."""
        if self._idle is not None:
            self._idle.cancel()
        loop = asyncio.get_running_loop()
        self._idle = loop.call_later(self.host.limits.channel_timeout, self._close_if_idle)

    def _close_if_idle(self) -> None:
        if self.channels == 0 and self.conn is not None:
            log.info("closed a login from %s with no open channel", self.peer)
            self.conn.close()

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        ok = self.refusal is None and username in ROLES and self.host.key_allowed(username, key)
        if ok:
            self.method, self.key = "key", key
        return ok

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        if self.refusal is not None:
            return False
        return await self.host.code_login(self, username, password)


def refuse_readably(conn: asyncssh.SSHServerConnection, reason: str) -> None:
    """Refuse a connection so that a plain OpenSSH client shows why: an auth banner (which it
    prints as it is), then a disconnect naming the reason. Refusing at once, before the SSH
    version exchange, would reach it as "banner line contains invalid characters"."""
    conn.send_auth_banner(f"hexwar: {reason}\r\n")
    asyncio.get_running_loop().call_soon(conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)


#: refused connections kept open at once to tell their client why; beyond it they just close
REFUSING_AT_ONCE = 8


class Host:
    """Listens for the guest and spectators and hands the guest's link to the session."""

    def __init__(self, session: Session, home: Path, *, code: str | None = None,
                 watch_code: str | None = None, admit: list[str] | tuple[str, ...] = (),
                 limits: Limits | None = None, keepalive: float = KEEPALIVE_INTERVAL, keepalive_max: int = KEEPALIVE_COUNT_MAX) -> None:
        self.session = session
        self.home = home
        secure_dir(home)
        self.key = host_key(home)
        self.limits = limits or session.limits
        self.admitted = {public_line(k) for k in (import_public(a) for a in admit) if k is not None}
        self.invite = Invite(code)
        self.watch_invite = Invite(watch_code, reusable=True)
        self.keepalive, self.keepalive_max = keepalive, keepalive_max
        self.guest_key: str | None = session.match.info.get("guest_key")
        if self.guest_key:
            self.invite.used = True  # a resumed match's seat is already bound
        self.code_holder: _SSHServer | None = None  # the one connection that spent the code
        self.seat_holder: _SSHServer | None = None  # the connection that bound the seat by code
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.throttle = LoginThrottle(self.limits)
        self.connections: set[_SSHServer] = set()
        self.gate = Gate(self.limits.max_connections, self.limits.per_address)
        self.spectators = 0
        self.failed_logins = 0
        self.refused_handshakes: list[str] = []
        self.address = "127.0.0.1"

    # --- policy -----------------------------------------------------------------------------
    def key_allowed(self, role: str, key: asyncssh.SSHKey) -> bool:
        line = public_line(key)
        if role == "player":
            return line == self.guest_key if self.guest_key is not None else line in self.admitted
        return line in self.admitted or line == self.guest_key

    def code_allowed(self, role: str, code: str) -> bool:
        if role == "player":
            return self.guest_key is None and self.code_holder is None and self.invite.matches(code)
        if role == "spectator":
            return self.watch_invite.matches(code)
        return False

    async def code_login(self, conn: _SSHServer, role: str, code: str) -> bool:
        """Judge one code: slowed down and finally refused for an address that keeps guessing.
        A right invite code is spent by this connection at once."""
        addr = conn.peer
        if self.throttle.locked(addr):  # no code is even looked at; the guesser learns nothing
            conn.wrong_codes += 1
            if conn.wrong_codes >= self.limits.guesses_per_connection and conn.conn is not None:
                conn.conn.close()
            return False
        delay = self.throttle.delay(addr)
        if delay:
            await asyncio.sleep(delay)
        if self.code_allowed(role, code):
            if role == "player":
                self.code_holder = conn
                self.invite.use()
            conn.method, conn.key = "code", None
            return True
        self.failed_logins += 1
        conn.wrong_codes += 1
        n = self.throttle.failed(addr)
        if n <= self.limits.logged_guesses:
            log.warning("refused a wrong %s code from %s", role[:16], addr)
        elif self.throttle.locked(addr):
            if n == self.limits.guesses_before_lockout:
                log.warning("%s sent %d wrong codes: no more logins from it", addr, n)
        if conn.wrong_codes >= self.limits.guesses_per_connection and conn.conn is not None:
            conn.conn.close()
        return False

    def admit(self, conn: _SSHServer) -> str | None:
        """Count a new connection against the caps (``limits.Gate``): None when admitted (older
        connections still authenticating may be closed to make room), else why not."""
        refused, evicted = self.gate.arrive(conn, conn.peer)
        for old in evicted:
            log.info("closed a connection from %s that had not logged in, to make room", old.peer)
            if old.conn is not None:
                old.conn.close()
        if refused is None:
            self.connections.add(conn)
            return None
        log.warning("refused a connection from %s: %s", conn.peer, refused)
        if sum(1 for c in self.connections if c.refusal is not None) >= REFUSING_AT_ONCE:
            if conn.conn is not None:
                conn.conn.abort()
        else:
            self.connections.add(conn)
        return refused

    def connection_ended(self, conn: _SSHServer) -> None:
        """A code spent by a connection that never took the seat may be used again."""
        if self.code_holder is conn and self.guest_key is None:
            self.code_holder = None
            self.invite.used = False

    # --- life -------------------------------------------------------------------------------
    async def start(self, address: str = "127.0.0.1", port: int = 0) -> "Host":
        self.address = address
        self.acceptor = await asyncssh.listen(
            address, port, server_factory=lambda: _SSHServer(self), server_host_keys=[self.key],
            process_factory=self._process, encoding=None, allow_pty=False, x11_forwarding=False,
            agent_forwarding=False, login_timeout=self.limits.login_timeout,
            keepalive_interval=self.keepalive, keepalive_count_max=self.keepalive_max, config=None)
        return self

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.sockets[0].getsockname()[1]

    def invitation(self) -> dict[str, Any]:
        return {"address": self.address, "port": self.port, "fingerprint": fingerprint(self.key),
                "code": None if self.guest_key is not None else self.invite.code,
                "watch_code": self.watch_invite.code, "scenario": self.session.match.scenario.id,
                "host_side": self.session.side, "guest_side": self.session.peer_side}

    async def close(self) -> None:
        if self.acceptor is not None:
            self.acceptor.close()
            await self.acceptor.wait_closed()

    # --- one SSH session --------------------------------------------------------------------
    async def _process(self, process: asyncssh.SSHServerProcess) -> None:
        conn = process.channel.get_connection()
        owner: _SSHServer = conn.get_owner()  # type: ignore[assignment]
        if process.subsystem != SUBSYSTEM:
            process.stderr.write(b"hexwar: this server only offers the 'hexwar' subsystem\n")
            process.exit(1)
            return
        role = process.get_extra_info("username")
        link = Link(process.stdin, process.stdout, name="the guest" if role == "player" else "a spectator",
                    on_close=lambda: process.exit(0))
        owner.channels += 1
        try:
            if owner.channels > self.limits.channels_per_connection:
                raise await handshake.refuse(link, ["one hexwar channel per connection"])
            if role == "player":
                await self._serve_player(link, owner)
            else:
                await self._serve_watcher(link)
        except HandshakeRefused as exc:
            self.refused_handshakes = (self.refused_handshakes + [exc.reason])[-self.limits.kept_refusals:]
            log.warning("refused %s: %s", link.name, exc.reason)
        except LinkClosed:
            pass
        except HexwarNetError as exc:
            log.warning("%s: %s", link.name, exc.reason)
        except Exception:  # a bug must cost one connection, never the host
            log.exception("error serving %s", link.name)
        finally:
            owner.channels -= 1
            link.close()
            if owner.channels == 0:
                owner.arm_idle()

    def _my_hello(self, role: str = "host") -> dict[str, Any]:
        m = self.session.match
        return handshake.hello("host", m.scenario, match=m.match_id, side=self.session.side,
                               turn_time=self.session.turn_time, seq=m.seq)

    def _seat_problem(self, owner: _SSHServer, key: asyncssh.SSHKey) -> str | None:
        """Why this connection may not sit in the guest seat with ``key``, or None."""
        line = public_line(key)
        if owner.method == "key":
            if owner.key is None or public_line(owner.key) != line:
                return "the guest's hello names a different key than the one it logged in with"
            if self.guest_key is not None and line != self.guest_key:
                return "the guest seat is already taken by another key"
            return None
        if owner is not self.code_holder:
            return "this login's invite code was spent by another connection"
        if self.guest_key is not None and (owner is not self.seat_holder or line != self.guest_key):
            return "the guest seat is already taken by another key"
        return None

    async def _serve_player(self, link: Link, owner: _SSHServer) -> None:
        mine = self._my_hello()
        await link.send(mine)
        theirs = await handshake.receive_hello(link, scenario=self.session.match.scenario)
        problems = handshake.differences(mine, theirs, "the guest")
        if theirs["role"] != "guest":
            problems.append(f"the guest says it is a {theirs['role']}")
        if theirs.get("side") not in (None, self.session.peer_side):
            problems.append(f"the guest wants side {theirs['side']!r}, but its seat is {self.session.peer_side!r}")
        if "match" in theirs and theirs["match"] != self.session.match.match_id:
            problems.append("the guest's journal is from a different match")
        key_line = theirs.get("key")
        key = import_public(key_line) if key_line else None
        if key is None:
            problems.append("the guest sent no usable public key")
        else:
            seat = self._seat_problem(owner, key)
            if seat:
                problems.append(seat)
        if "match" not in theirs and self.session.match.seq > 0:
            problems.append(f"the match is in progress (seq {self.session.match.seq}); rejoin with --resume JOURNAL")
        if problems:
            raise await handshake.refuse(link, problems)
        assert key is not None
        if self.guest_key is None:
            self.guest_key = public_line(key)
            self.seat_holder = owner if owner.method == "code" else None
            self.invite.use()
            self.session.match.note_info(guest_key=self.guest_key, guest=fingerprint(key))
        self.session.announce(f"guest {fingerprint(key)} connected", connected=True)
        await self.session.run_link(link)

    async def _serve_watcher(self, link: Link) -> None:
        if self.spectators >= self.limits.max_spectators:
            raise await handshake.refuse(link, [f"this match already has {self.limits.max_spectators} spectators"])
        self.spectators += 1
        try:
            await self._watch(link)
        finally:
            self.spectators -= 1

    async def _watch(self, link: Link) -> None:
        mine = self._my_hello()
        await link.send(mine)
        theirs = await handshake.receive_hello(link, scenario=self.session.match.scenario)
        problems = handshake.differences(mine, theirs, "the spectator")
        if theirs["role"] != "spectator":
            problems.append("a spectator login must say it is a spectator")
        if problems:
            raise await handshake.refuse(link, problems)
        await watch_stream(self.session, link, self.limits)


async def watch_stream(session: Session, link: Link, limits: Limits) -> None:
    """A spectator whose hello was accepted: the history, then every record as it is played.
    It may only ping or leave; anything else is refused, and too much of it closes the link.
    (Shared by the host and a served match's referee.)"""
    link.start_play()
    records = session.match.records
    sent = 0
    while sent < len(records):
        r = records[sent]
        await link.send(protocol.message("record", seq=r["seq"], side=r["side"], order=r["order"],
                                         nonces=r["nonces"], digest=protocol.short_digest(r["digest"])))
        sent += 1
    session.add_watcher(link)
    noise = 0
    try:
        while True:
            try:
                frame = await link.recv()
            except FramingError as exc:
                await handshake.say_bye(link, f"refused: {exc.reason}")
                break
            kind = frame.get("type") if isinstance(frame, dict) else None  # decoded by the link
            if kind == "bye":
                break
            if kind == "ping" and isinstance(frame.get("n"), int):
                await link.send(protocol.message("pong", n=frame["n"]))
                continue
            noise += 1
            if noise > limits.refusals_per_link:
                await handshake.say_bye(link, f"refused: {noise - 1} messages a spectator may not send")
                break
            await link.send(protocol.message("error", reason="spectators are read-only", ref="?"))
    except LinkClosed:
        pass
    finally:
        if link in session.watchers:
            session.watchers.remove(link)


__all__ = ["Host", "SUBSYSTEM", "BANNER", "watch_stream"]
