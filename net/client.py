"""The guest and the spectator: connect with asyncssh, check the host key, open the subsystem.

The host key is checked before any credential is sent: against ``--fingerprint`` when given, and
against the data dir's ``known_hosts`` (trust on first use, like OpenSSH; a changed key is refused
with OpenSSH's warning). The guest logs in with its own key, or with the invite code when the host
does not know its key yet. A guest whose link drops reconnects by itself.
"""

from __future__ import annotations

import asyncio
import logging

from pathlib import Path
from typing import Any

import asyncssh

from hexwar.engine import Dice, Game, Order, order_seed
from hexwar.engine.forced import forced_order, names_units
from hexwar.engine.orders import IllegalOrderError, InvalidOrderError

from . import handshake, protocol
from .errors import AuthRefused, HandshakeRefused, HexwarNetError, HostKeyChanged, LinkClosed
from .keys import KnownHosts, fingerprint, guest_key, public_line, secure_dir
from .limits import KEEPALIVE_COUNT_MAX, KEEPALIVE_INTERVAL
from .link import Link
from .netmatch import NetMatch
from .server import SUBSYSTEM
from .session import Session, SessionEvent

log = logging.getLogger("hexwar.net")
KEPT_LINES = 100  # chat lines and problems a spectator keeps


class _SSHClient(asyncssh.SSHClient):
    def __init__(self, known: KnownHosts, host: str, port: int, expected: str | None) -> None:
        self.known, self.host, self.port, self.expected = known, host, port, expected
        self.problem: HexwarNetError | None = None
        self.host_fingerprint: str | None = None

    def validate_host_public_key(self, host: str, addr: str, port: int, key: asyncssh.SSHKey) -> bool:
        fp = fingerprint(key)
        self.host_fingerprint = fp
        if self.expected and fp != self.expected:
            self.problem = HostKeyChanged(
                f"the host's key is {fp}, not the fingerprint {self.expected} you were given; "
                f"refusing to connect")
            return False
        try:
            if not self.known.check(self.host, self.port, key):
                self.known.add(self.host, self.port, key)
                log.warning("new host %s:%s, key %s remembered in %s", self.host, self.port, fp, self.known.path)
        except HostKeyChanged as exc:
            self.problem = exc
            return False
        return True


async def open_link(host: str, port: int, *, home: Path, username: str, code: str | None,
                    expected_fingerprint: str | None = None, keepalive: float = KEEPALIVE_INTERVAL,
                    keepalive_max: int = KEEPALIVE_COUNT_MAX, connect_timeout: float = 15.0) -> tuple[Any, Link]:
    """An SSH connection and the ``hexwar`` subsystem on it, as a ``Link``."""
    secure_dir(home)
    known = KnownHosts(home / "known_hosts")
    client = _SSHClient(known, host, port, expected_fingerprint)
    key = guest_key(home)
    try:
        conn = await asyncio.wait_for(asyncssh.connect(
            host, port, client_factory=lambda: client, known_hosts=lambda h, a, p: ([], [], []),
            username=username, client_keys=[key], password=code, agent_path=None, config=None,
            preferred_auth=("publickey", "keyboard-interactive", "password"),
            keepalive_interval=keepalive, keepalive_count_max=keepalive_max,
            kbdint_auth=code is not None, password_auth=code is not None), connect_timeout)
    except asyncssh.HostKeyNotVerifiable:
        raise client.problem or HostKeyChanged("the host key could not be verified") from None
    except asyncssh.PermissionDenied:
        why = "the host refused our key" + (" and the invite code" if code else "; ask for an invite code (--code)")
        raise AuthRefused(why) from None
    except asyncio.TimeoutError:
        raise LinkClosed(f"cannot connect to {host}:{port}: no answer within {connect_timeout:g}s") from None
    except (OSError, asyncssh.Error) as exc:
        raise LinkClosed(f"cannot connect to {host}:{port}: {reason_of(exc)}") from None
    try:
        writer, reader, _ = await conn.open_session(subsystem=SUBSYSTEM, encoding=None)
    except (OSError, asyncssh.Error) as exc:
        conn.close()
        raise LinkClosed(f"the host would not open the hexwar channel: {reason_of(exc)}") from None
    return conn, Link(reader, writer, name="the host", on_close=conn.close)


def reason_of(exc: BaseException) -> str:
    """An exception as words: its message, or its kind when it has none."""
    return str(exc) or getattr(exc, "reason", "") or type(exc).__name__


#: a connection that lasted this long (seconds) was a real one, even if nothing was played on it
STEADY_LINK = 10.0
#: short connections in a row that changed nothing and ended in a refusal, before the guest stops
FRUITLESS_LINKS = 3


class Guest:
    """The guest's side: connect (and reconnect), handshake, and run the session."""

    def __init__(self, host: str, port: int, *, home: Path, code: str | None = None,
                 fingerprint: str | None = None, journal: str | None = None,
                 resume: str | None = None, keepalive: float = KEEPALIVE_INTERVAL, keepalive_max: int = KEEPALIVE_COUNT_MAX,
                 opener: Any = None, server: bool = False) -> None:
        self.host, self.port, self.home, self.code = host, port, home, code
        self.opener = opener  # async () -> (connection, Link) instead of SSH (a served player's local socket)
        # Joining a ``hexwar serve`` match: its referee vouches for the opponent's dice. Without
        # this a host that claims to be a referee is refused, so an ordinary host can never
        # skip commit-reveal by claiming it.
        self.server = server or opener is not None
        self.fingerprint, self.journal, self.keepalive, self.keepalive_max = fingerprint, journal, keepalive, keepalive_max
        self.session: Session | None = None
        if resume:
            match = NetMatch.resume(resume)
            if match.info.get("role") != "guest":
                match.close()
                raise HandshakeRefused(f"{resume}: this journal is the host's; resume it with hexwar host --resume")
            self.session = Session(match, match.info["side"], role="guest",
                                   turn_time=int(match.info.get("turn_time") or 0))
        self.connected = asyncio.Event()

    async def connect_once(self) -> str:
        """One connection's life: returns why it ended. Raises on refusals (no point retrying)."""
        if self.opener is not None:
            conn, link = await self.opener()
        else:
            conn, link = await open_link(self.host, self.port, home=self.home, username="player",
                                         code=self.code, expected_fingerprint=self.fingerprint,
                                         keepalive=self.keepalive, keepalive_max=self.keepalive_max)
        try:
            theirs = await handshake.receive_hello(link)
            session = self.session
            scenario = await handshake.obtain_scenario(link, theirs, session.match.scenario if session else None)
            if theirs.get("side") not in [s.id for s in scenario.sides]:
                raise await handshake.refuse(link, ["the host names no valid side for itself"])
            my_side = next(s.id for s in scenario.sides if s.id != theirs["side"])
            m = session.match if session else None
            mine = handshake.hello("guest", scenario, match=m.match_id if m else None, side=my_side,
                                   key=public_line(guest_key(self.home)), seq=m.seq if m else None)
            problems = handshake.differences(mine, theirs, "the host")
            if "match" not in theirs:
                problems.append("the host's hello names no match")
            elif m is not None and theirs["match"] != m.match_id:
                problems.append("the host is playing a different match than our journal")
            if session is not None and session.side != my_side:
                problems.append(f"the host gives us side {my_side!r} but our journal plays {session.side!r}")
            if "referee" in theirs["caps"] and not self.server:
                problems.append("this host is a hexwar server that referees its matches (it vouches for "
                                "the opponent's dice); join with --server to play it")
            if problems:
                raise await handshake.refuse(link, problems)
            await link.send(mine)
            if session is None:
                session = self._new_session(scenario, theirs, my_side)
            if "referee" in theirs["caps"]:  # a server's match: the opponent's orders come as records
                session.referee_peer, session.max_resume_gap = True, None
            self.connected.set()
            return await session.run_link(link)
        finally:
            link.close()
            conn.close()

    def _progress(self) -> tuple[int, bool, int]:
        """What a connection may change: the match's orders, its end, and our refusals."""
        s = self.session
        return (-1, False, 0) if s is None else (s.match.seq, s.match.over, s.refused)

    def _new_session(self, scenario, hello: dict[str, Any], side: str) -> Session:  # noqa: ANN001
        match_id = hello["match"]
        path = self.journal or str(self.home / "matches" / f"{match_id.hex()}-guest.journal")
        if Path(path).exists():
            raise HandshakeRefused(f"{path} already exists: continue that match with --resume {path}")
        match = NetMatch.create(scenario, match_id, path,
                                players={hello["side"]: "host", side: "guest"},
                                info={"role": "guest", "side": side, "host": f"{self.host}:{self.port}",
                                      "turn_time": hello.get("turn_time", 0),
                                      "guest": fingerprint(guest_key(self.home))})
        self.session = Session(match, side, role="guest", turn_time=hello.get("turn_time", 0))
        return self.session

    async def run(self, retry_delay: float = 0.5, give_up: float = 120.0) -> Session:
        """Play until the match is finished, reconnecting after drops; refusals end it. So does a
        host that will not agree with us: after ``FRUITLESS_LINKS`` connections in a row that
        ended soon, moved the match not at all and had one side refuse the other (a result
        claim, say), it stops with a message instead of reconnecting for ever."""
        loop = asyncio.get_running_loop()
        lost_at: float | None = None
        delay = retry_delay
        fruitless = 0
        while True:
            before = self._progress()
            began = loop.time()
            try:
                why = await self.connect_once()
                log.info("link ended: %s", why)
                session = self.session
                moved = self._progress()[:2] != before[:2] or loop.time() - began >= STEADY_LINK
                we_refused = session is not None and session.refused > before[2]
                if moved or session is None or not (we_refused or "refused" in why):
                    lost_at, delay, fruitless = None, retry_delay, 0
                else:  # a short connection that changed nothing and ended in a refusal: back off
                    fruitless += 1
                    last = session.refusals[-1] if we_refused else why
                    if fruitless >= FRUITLESS_LINKS:
                        session.announce(f"stopped: the host and this side disagree ({last[:200]}); "
                                         f"{fruitless} connections in a row changed nothing", connected=False)
                        return session
            except LinkClosed as exc:
                log.info("link: %s", exc.reason)
            if self.session is not None and self.session.stopped:
                return self.session
            now = loop.time()
            lost_at = lost_at or now
            if now - lost_at > give_up:
                if self.session is None:
                    raise LinkClosed(f"could not reach the host within {give_up:.0f}s")
                self.session.announce(f"gave up reconnecting after {give_up:.0f}s", connected=False)
                return self.session
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


class Watcher:
    """A spectator: receives the order stream, checks it with its own engine, never sends orders."""

    def __init__(self, host: str, port: int, *, home: Path, code: str | None, fingerprint: str | None = None,
                 opener: Any = None) -> None:
        self.host, self.port, self.home, self.code, self.fingerprint = host, port, home, code, fingerprint
        self.opener = opener  # as for ``Guest``
        self.game: Game | None = None
        self.match_id = b""
        self.result: dict[str, Any] | None = None
        self.problems: list[str] = []
        self.chat: list[str] = []
        self.hello_bytes = 0

    async def run(self, on_event=None) -> dict[str, Any]:  # noqa: ANN001
        if self.opener is not None:
            conn, link = await self.opener()
        else:
            conn, link = await open_link(self.host, self.port, home=self.home, username="spectator",
                                         code=self.code, expected_fingerprint=self.fingerprint)
        try:
            theirs = await handshake.receive_hello(link)
            scenario = await handshake.obtain_scenario(link, theirs)
            mine = handshake.hello("spectator", scenario)
            problems = handshake.differences(mine, theirs, "the host")
            if problems:
                raise await handshake.refuse(link, problems)
            await link.send(mine)
            link.start_play()
            self.hello_bytes = link.bytes_sent + link.bytes_received
            self.game, self.match_id = Game(scenario), theirs.get("match", b"")
            while self.result is None:
                frame = await link.recv()
                self._take(frame, on_event)
            await link.send(protocol.message("bye", reason="watched to the end"))
        except LinkClosed:
            pass
        finally:
            link.close()
            conn.close()
        g = self.game
        return {"result": self.result, "orders": g.state.seq if g else 0,
                "digest": g.digest() if g else None, "problems": self.problems,
                "bytes_received": link.bytes_received, "bytes_sent": link.bytes_sent,
                "hello_bytes": self.hello_bytes}

    def _problem(self, text: str) -> None:
        """Note a problem with the host's stream, keeping only the latest (a host may flood)."""
        self.problems = (self.problems + [text])[-KEPT_LINES:]

    def _take(self, frame: Any, on_event) -> None:  # noqa: ANN001
        assert self.game is not None
        try:
            msg = protocol.parse(frame)
        except HexwarNetError as exc:
            self._problem(exc.reason)
            return
        if msg["type"] == "record":
            if msg["seq"] != self.game.state.seq:
                self._problem(f"record {msg['seq']} out of order")
                return
            try:
                order = Order.from_wire(msg["order"])
                dice = None
                if msg["nonces"]:
                    dice = Dice(order_seed(self.match_id, msg["seq"], *msg["nonces"]))
                phase = str(self.game.state.phase or "")
                passed = not names_units(order) and forced_order(self.game) == order
                events = self.game.apply(order, dice, msg["side"])
            except (InvalidOrderError, IllegalOrderError) as exc:
                self._problem(f"record {msg['seq']} refused: {exc}")
                return
            if protocol.short_digest(self.game.digest()) != msg["digest"]:
                self._problem(f"record {msg['seq']}: digest differs from the host's")
            if passed:
                log.info("record %s: %s has nothing to decide in phase %r: it passes by itself",
                         msg["seq"], msg["side"], phase)
            if on_event:
                on_event(SessionEvent("applied", f"{msg['seq']}: {msg['side']} {order.to_text()}",
                                      {"events": events, "side": msg["side"], "automatic": passed,
                                       "phase": phase if passed else None}))
        elif msg["type"] == "chat":
            self.chat = (self.chat + [f"{msg.get('side', '?')}: {msg['text']}"])[-KEPT_LINES:]
            if on_event:
                on_event(SessionEvent("chat", self.chat[-1]))
        elif msg["type"] == "end":
            self.result = msg["result"] or {"winner": None, "reason": ""}
        elif msg["type"] == "bye":
            raise LinkClosed(msg["reason"])


__all__ = ["Guest", "Watcher", "open_link", "AuthRefused", "HandshakeRefused"]

