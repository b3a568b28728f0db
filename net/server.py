"""The host: an asyncssh server that offers one thing, the ``hexwar`` subsystem.

Authentication is the guest's public key (listed in the data dir's ``authorized_keys``, or the key
already bound to this match's guest seat) or the one-time invite code, sent by password or
keyboard-interactive auth. Spectators log in as user ``spectator`` with a key or the watch code.
No shells, commands, PTYs or forwarding: anything but the subsystem is refused.

The first guest to complete the handshake takes the seat; its key is bound to it (and added to
``authorized_keys``) so it can reconnect by key after the invite code is spent.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import asyncssh

from . import handshake, protocol
from .errors import HandshakeRefused, HexwarNetError, LinkClosed
from .keys import AuthorizedKeys, Invite, fingerprint, host_key, import_public, public_line
from .link import Link
from .session import Session

log = logging.getLogger("hexwar.net")
SUBSYSTEM = "hexwar"
ROLES = ("player", "spectator")


class _SSHServer(asyncssh.SSHServer):
    """Per-connection auth policy: a key we know or the right code; nothing else."""

    def __init__(self, host: "Host") -> None:
        self.host = host
        self.method: str | None = None
        self.key: asyncssh.SSHKey | None = None
        self.peer = "?"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.peer = str(conn.get_extra_info("peername", ("?",))[0])

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        ok = username in ROLES and self.host.key_allowed(username, key)
        if ok:
            self.method, self.key = "key", key
        return ok

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        ok = self.host.code_allowed(username, password)
        if ok:
            self.method, self.key = "code", None
        else:
            log.warning("refused a wrong %s code from %s", username, self.peer)
            self.host.failed_logins += 1
        return ok


class Host:
    """Listens for the guest and spectators and hands the guest's link to the session."""

    def __init__(self, session: Session, home: Path, *, code: str | None = None,
                 watch_code: str | None = None, keepalive: float = 5.0, keepalive_max: int = 3) -> None:
        self.session = session
        self.home = home
        self.key = host_key(home)
        self.authorized = AuthorizedKeys(home / "authorized_keys")
        self.invite = Invite(code)
        self.watch_invite = Invite(watch_code, reusable=True)
        self.keepalive, self.keepalive_max = keepalive, keepalive_max
        self.guest_key: str | None = session.match.info.get("guest_key")
        if self.guest_key:
            self.invite.used = True  # a resumed match's seat is already bound
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.failed_logins = 0
        self.refused_handshakes: list[str] = []
        self.address = "127.0.0.1"

    # --- policy -----------------------------------------------------------------------------
    def key_allowed(self, role: str, key: asyncssh.SSHKey) -> bool:
        line = public_line(key)
        if role == "player" and self.guest_key is not None:
            return line == self.guest_key
        return key in self.authorized

    def code_allowed(self, role: str, code: str) -> bool:
        if role == "player":
            return self.invite.matches(code)
        if role == "spectator":
            return self.watch_invite.matches(code)
        return False

    # --- life -------------------------------------------------------------------------------
    async def start(self, address: str = "127.0.0.1", port: int = 0) -> "Host":
        self.address = address
        self.acceptor = await asyncssh.listen(
            address, port, server_factory=lambda: _SSHServer(self), server_host_keys=[self.key],
            process_factory=self._process, encoding=None, allow_pty=False, x11_forwarding=False,
            agent_forwarding=False, login_timeout=30, keepalive_interval=self.keepalive,
            keepalive_count_max=self.keepalive_max, config=None)
        return self

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.sockets[0].getsockname()[1]

    def invitation(self) -> dict[str, Any]:
        return {"address": self.address, "port": self.port, "fingerprint": fingerprint(self.key),
                "code": None if self.invite.used else self.invite.code,
                "watch_code": self.watch_invite.code, "scenario": self.session.match.scenario.id,
                "host_side": self.session.side, "guest_side": self.session.peer_side}

    async def close(self) -> None:
        if self.acceptor is not None:
            self.acceptor.close()
            await self.acceptor.wait_closed()

    # --- one SSH session --------------------------------------------------------------------
    async def _process(self, process: asyncssh.SSHServerProcess) -> None:
        if process.subsystem != SUBSYSTEM:
            process.stderr.write(b"hexwar: this server only offers the 'hexwar' subsystem\n")
            process.exit(1)
            return
        conn = process.channel.get_connection()
        owner: _SSHServer = conn.get_owner()  # type: ignore[assignment]
        role = process.get_extra_info("username")
        link = Link(process.stdin, process.stdout, name="the guest" if role == "player" else "a spectator",
                    on_close=lambda: process.exit(0))
        try:
            if role == "player":
                await self._serve_player(link, owner)
            else:
                await self._serve_watcher(link)
        except HandshakeRefused as exc:
            self.refused_handshakes.append(exc.reason)
            log.warning("refused %s: %s", link.name, exc.reason)
        except LinkClosed:
            pass
        except HexwarNetError as exc:
            log.warning("%s: %s", link.name, exc.reason)
        except Exception:  # a bug must cost one connection, never the host
            log.exception("error serving %s", link.name)
        finally:
            link.close()

    def _my_hello(self, role: str = "host") -> dict[str, Any]:
        m = self.session.match
        return handshake.hello("host", m.scenario, match=m.match_id, side=self.session.side,
                               send_scenario=True, turn_time=self.session.turn_time, seq=m.seq)

    async def _serve_player(self, link: Link, owner: _SSHServer) -> None:
        mine = self._my_hello()
        await link.send(mine)
        theirs = await handshake.receive_hello(link)
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
        elif owner.method == "key" and owner.key is not None and public_line(owner.key) != public_line(key):
            problems.append("the guest's hello names a different key than the one it logged in with")
        elif self.guest_key is not None and public_line(key) != self.guest_key:
            problems.append("the guest seat is already taken by another key")
        if "match" not in theirs and self.session.match.seq > 0:
            problems.append(f"the match is in progress (seq {self.session.match.seq}); rejoin with --resume JOURNAL")
        if problems:
            raise await handshake.refuse(link, problems)
        assert key is not None
        if self.guest_key is None:
            self.guest_key = public_line(key)
            self.invite.use()
            self.authorized.add(key, f"hexwar guest {fingerprint(key)}")
            self.session.match.note_info(guest_key=self.guest_key, guest=fingerprint(key))
        self.session.announce(f"guest {fingerprint(key)} connected", connected=True)
        await self.session.run_link(link)

    async def _serve_watcher(self, link: Link) -> None:
        mine = self._my_hello()
        await link.send(mine)
        theirs = await handshake.receive_hello(link)
        problems = handshake.differences(mine, theirs, "the spectator")
        if theirs["role"] != "spectator":
            problems.append("a spectator login must say it is a spectator")
        if problems:
            raise await handshake.refuse(link, problems)
        records = self.session.match.records
        sent = 0
        while sent < len(records):
            r = records[sent]
            await link.send(protocol.message("record", seq=r["seq"], side=r["side"], order=r["order"],
                                             nonces=r["nonces"], digest=bytes.fromhex(r["digest"])))
            sent += 1
        self.session.add_watcher(link)
        try:
            while True:
                frame = await link.recv()
                kind = frame.get("type") if isinstance(frame, dict) else None
                if kind == "bye":
                    break
                if kind == "ping" and isinstance(frame.get("n"), int):
                    await link.send(protocol.message("pong", n=frame["n"]))
                    continue
                await link.send(protocol.message("error", reason="spectators are read-only", ref="?"))
        except LinkClosed:
            pass
        finally:
            if link in self.session.watchers:
                self.session.watchers.remove(link)


__all__ = ["Host", "SUBSYSTEM"]
