"""The lobby of a served hexwar: how a served player's UI process reaches the server's matches.

Each UI process the server starts is given a private socket path and a ticket (environment
``HEXWAR_SERVE_SOCKET``, ``HEXWAR_SERVE_TICKET``). The ticket names the player: the process
never says who it is, so it can act only as its own player. A request is one JSON line:

* ``{"op": "lobby"}``: the player's own matches (whose turn), open seats, matches to watch;
* ``{"op": "create", "scenario": ID, "side": S, "invite": bool}``: a new match, the player in
  seat S, the other seat open (with ``invite``, also a code for a native ``hexwar join``);
* ``{"op": "follow"}``: the connection stays open and carries ``{"changed": true}`` after any
  change a lobby shows (at most one a second), so a lobby redraws only when something changed;
* ``{"op": "play", "match": ID}`` / ``{"op": "watch", "match": ID}``: the answer line, then the
  same socket carries protocol 2 to the match's referee (``referee.Referee``), as a guest or a
  spectator, so the UI's network game screen is the one ``hexwar join`` uses.

The answer is one JSON line: ``{"ok": true, ...}`` or ``{"ok": false, "error": "why"}``. Requests
are capped in size, and a connection that says nothing is closed after a few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from hexwar.scenarios.loader import ScenarioError, load_named

from .errors import HexwarNetError, LinkClosed
from .link import Link
from .referee import Matches

log = logging.getLogger("hexwar.net")
SOCKET_ENV, TICKET_ENV = "HEXWAR_SERVE_SOCKET", "HEXWAR_SERVE_TICKET"
MAX_REQUEST = 4096
#: the least time between two change notes to one lobby (changes in between make one note)
FOLLOW_SECONDS = 1.0
REQUEST_SECONDS = 10.0


class LobbyService:
    """The server end: tickets of the sessions now running, and the socket they ask on."""

    def __init__(self, matches: Matches, path: Path) -> None:
        self.matches, self.path = matches, Path(path)
        self.tickets: dict[str, str] = {}
        self.addresses: dict[str, str] = {}
        self.order: dict[str, int] = {}  # tickets in the order their sessions started
        self.issued = 0
        self.followers: dict[str, asyncio.Task] = {}  # ticket -> its session's follow connection
        self.holders: dict[tuple[str, str], str] = {}  # (match, side) -> the ticket playing it
        self.server: asyncio.AbstractServer | None = None

    def ticket_for(self, name: str, address: str = "HOST:PORT") -> str:
        """A new session's ticket; ``address`` is where its player reached the server (what an
        invite tells a native ``hexwar join`` to connect to)."""
        ticket = secrets.token_hex(16)
        self.tickets[ticket] = name
        self.addresses[ticket] = address
        self.issued += 1
        self.order[ticket] = self.issued
        return ticket

    def forget(self, ticket: str) -> None:
        self.tickets.pop(ticket, None)
        self.addresses.pop(ticket, None)
        self.order.pop(ticket, None)
        follower = self.followers.pop(ticket, None)
        if follower is not None:
            follower.cancel()
        for seat in [k for k, v in self.holders.items() if v == ticket]:
            del self.holders[seat]

    async def start(self) -> "LobbyService":
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        old = os.umask(0o177)
        try:
            self.server = await asyncio.start_unix_server(self._client, path=str(self.path),
                                                          limit=MAX_REQUEST)
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        return self

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), REQUEST_SECONDS)
            request = json.loads(line.decode("utf-8"))
            if not isinstance(request, dict):
                raise ValueError("not a JSON object")
        except (asyncio.TimeoutError, ValueError, UnicodeDecodeError, asyncio.LimitOverrunError) as exc:
            await _answer(writer, {"ok": False, "error": f"bad request: {exc or type(exc).__name__}"})
            writer.close()
            return
        name = self.tickets.get(str(request.get("ticket", "")))
        if name is None:
            await _answer(writer, {"ok": False, "error": "unknown ticket"})
            writer.close()
            return
        try:
            await self._serve(name, request, reader, writer, str(request["ticket"]))
        except (LinkClosed, ConnectionError):
            pass
        except asyncio.CancelledError:
            pass  # the server is closing; this connection's task is the top of its own stack
        except HexwarNetError as exc:
            log.info("lobby request of %s: %s", name, exc.reason)
        except Exception:  # one player's request must never take the server down
            log.exception("lobby request of %s failed", name)
        finally:
            writer.close()

    async def _follow(self, ticket: str, writer: Any) -> None:
        """Keep the connection and send ``{"changed": true}`` after a change a lobby shows, at
        most once per ``FOLLOW_SECONDS``: an idle lobby asks nothing and redraws nothing."""
        old = self.followers.pop(ticket, None)
        if old is not None:  # one follower per session: a new one replaces the old
            old.cancel()
        changed = asyncio.Event()
        self.matches.listeners.append(changed.set)
        self.followers[ticket] = asyncio.current_task()
        try:
            await _answer(writer, {"ok": True})
            while ticket in self.tickets:
                await changed.wait()
                changed.clear()
                writer.write(b'{"changed": true}\n')
                await writer.drain()
                await asyncio.sleep(FOLLOW_SECONDS)
        finally:
            self.matches.listeners.remove(changed.set)
            if self.followers.get(ticket) is asyncio.current_task():
                del self.followers[ticket]

    async def _serve(self, name: str, request: dict[str, Any], reader: Any, writer: Any, ticket: str) -> None:
        address = self.addresses.get(ticket, "HOST:PORT")
        op = request.get("op")
        me = f"player:{name}"
        if op == "lobby":
            await _answer(writer, {"ok": True, **self.matches.lobby(name)})
            return
        if op == "follow":
            await self._follow(ticket, writer)
            return
        if op == "create":
            try:
                scenario = load_named(str(request.get("scenario", "")))
                ref = self.matches.create(scenario, me, str(request.get("side", "")),
                                          invite=bool(request.get("invite")),
                                          turn_time=None if request.get("turn_time") is None
                                          else int(request["turn_time"]))
            except (ScenarioError, OSError, HexwarNetError, ValueError, TypeError) as exc:
                await _answer(writer, {"ok": False, "error": getattr(exc, "reason", None) or str(exc)})
                return
            await _answer(writer, {"ok": True, "match": ref.info.id, "code": ref.info.code,
                                   "watch_code": ref.info.watch_code, "address": address})
            return
        ref = self.matches.by_id.get(str(request.get("match", "")))
        if op not in ("play", "watch") or ref is None:
            await _answer(writer, {"ok": False, "error": "no such match" if ref is None else f"unknown op {op!r}"})
            return
        link = Link(reader, writer, name=f"served player {name}")
        if op == "watch":
            if ref.info.side_of(me) is not None:
                await _answer(writer, {"ok": False, "error": "you play in this match: open it to play"})
                return
            await _answer(writer, {"ok": True})
            await ref.serve_spectator(link)
            return
        side = self.matches.seat_for(ref, me)
        if side is None:
            await _answer(writer, {"ok": False, "error": "this match has no seat for you"})
            return
        seat = (ref.info.id, side)
        holder = self.holders.get(seat)
        if ref.seats[side].link is not None and holder is not None and holder in self.tickets \
                and self.order.get(holder, 0) > self.order.get(ticket, 0):
            # a newer session of this player has the match: an older one (its link dropped and
            # it came back) must not take it back, or two sessions would take turns forever
            await _answer(writer, {"ok": False, "error": "this match is open in another of your sessions"})
            return
        # the newest session takes the seat over: a frozen client's session (whose ssh link
        # the server has not yet given up on) no longer keeps its player out
        self.holders[seat] = ticket
        await _answer(writer, {"ok": True, "side": side})
        await ref.serve_player(link, side)


async def _answer(writer: Any, data: dict[str, Any]) -> None:
    writer.write(json.dumps(data).encode("utf-8") + b"\n")  # seats keep the scenario's order
    with contextlib.suppress(ConnectionError):
        await writer.drain()


# --- the UI process's end ----------------------------------------------------------------------

class LobbyRefused(HexwarNetError):
    """The server said no (in its own words)."""


def served() -> tuple[str, str] | None:
    """The socket and ticket of this process, when the server started it."""
    path, ticket = os.environ.get(SOCKET_ENV), os.environ.get(TICKET_ENV)
    return (path, ticket) if path and ticket else None


async def _open(request: dict[str, Any], where: tuple[str, str] | None = None,
                ) -> tuple[dict[str, Any], asyncio.StreamReader, asyncio.StreamWriter]:
    where = where or served()
    if where is None:
        raise LobbyRefused("this hexwar was not started by a server")
    try:
        reader, writer = await asyncio.open_unix_connection(where[0], limit=1 << 20)
    except OSError as exc:
        raise LinkClosed(f"the server's lobby is not answering ({exc.strerror or exc})") from None
    writer.write(json.dumps({"ticket": where[1], **request}).encode("utf-8") + b"\n")
    await writer.drain()
    line = await reader.readline()
    if not line:
        writer.close()
        raise LinkClosed("the server closed the lobby connection")
    answer = json.loads(line.decode("utf-8"))
    if not answer.get("ok"):
        writer.close()
        raise LobbyRefused(str(answer.get("error", "refused")))
    return answer, reader, writer


async def ask(op: str, **fields: Any) -> dict[str, Any]:
    """One lobby request (``lobby``, ``create``) and its answer."""
    answer, _, writer = await _open({"op": op, **fields})
    writer.close()
    return answer


async def follow() -> Any:
    """Yields once per change the server's lobby shows (``follow``), until the link ends."""
    _, reader, writer = await _open({"op": "follow"})
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            yield None
    finally:
        writer.close()


class _Closer:
    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def close(self) -> None:
        self.writer.close()


def opener(op: str, match: str) -> Any:
    """For ``client.Guest`` / ``client.Watcher``: each (re)connection asks for the match again
    on the local socket and carries protocol 2 over it."""
    where = served()

    async def open_() -> tuple[Any, Link]:
        _, reader, writer = await _open({"op": op, "match": match}, where)
        return _Closer(writer), Link(reader, writer, name="the server", on_close=writer.close)
    return open_


__all__ = ["LobbyService", "LobbyRefused", "ask", "opener", "served", "SOCKET_ENV", "TICKET_ENV"]
