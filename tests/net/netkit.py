"""Network test kit: real asyncssh on 127.0.0.1, port 0, keys generated into tmp dirs.

``start_host`` and ``guest_for`` build the same objects ``hexwar host/join`` build; ``Proxy`` sits
between guest and host and can delay, split and drop the TCP stream.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from hexwar.net import headless
from hexwar.net.proxy import Proxy  # noqa: F401 - re-exported for the tests
from hexwar.net.client import Guest
from hexwar.net.netmatch import NetMatch
from hexwar.net.server import Host
from hexwar.net.session import Session
from hexwar.scenarios.loader import find_scenario, load_scenario

SCENARIO = "attack-on-morobad"  # the shortest built-in game (about 100 orders)


def load(name: str = SCENARIO) -> Any:
    return load_scenario(find_scenario(name))


async def start_host(home: Path, scenario: Any, *, side: str | None = None, turn_time: int = 0,
                     port: int = 0, journal: Path | None = None, code: str | None = None,
                     keepalive: float = 5.0, limits: Any = None, admit: tuple[str, ...] = (),
                     watch_code: str | None = None) -> Host:
    side = side or scenario.sides[0].id
    other = next(s.id for s in scenario.sides if s.id != side)
    match = NetMatch.create(scenario, os.urandom(16), journal or home / "host.journal",
                            players={side: "host", other: "guest"},
                            info={"role": "host", "side": side, "turn_time": turn_time})
    extra = {"limits": limits} if limits is not None else {}
    session = Session(match, side, role="host", turn_time=turn_time, **extra)
    if admit:
        extra["admit"] = admit
    return await Host(session, home, code=code, keepalive=keepalive, watch_code=watch_code,
                      **{k: v for k, v in extra.items() if k != "limits"}).start("127.0.0.1", port)


async def resume_host(home: Path, journal: Path, port: int) -> Host:
    match = NetMatch.resume(journal)
    session = Session(match, match.info["side"], role="host", turn_time=int(match.info.get("turn_time") or 0))
    return await Host(session, home).start("127.0.0.1", port)


def guest_for(host: Host, home: Path, port: int | None = None, **kw: Any) -> Guest:
    inv = host.invitation()
    kw.setdefault("code", inv["code"])
    kw.setdefault("fingerprint", inv["fingerprint"])
    kw.setdefault("journal", str(home / "guest.journal"))
    kw.setdefault("keepalive", host.keepalive)
    return Guest("127.0.0.1", port or inv["port"], home=home, **kw)


async def play_match(host: Host, guest: Guest, seed: int = 1, give_up: float = 30.0) -> tuple[dict, dict]:
    """Computer against computer over the network; returns (host summary, guest summary)."""
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=give_up))
    await asyncio.wait_for(guest.connected.wait(), 20)
    assert guest.session is not None
    both = asyncio.gather(headless.play(host.session, seed, give_up=give_up),
                          headless.play(guest.session, seed, give_up=give_up))
    hs, gs = await asyncio.wait_for(both, 120)
    await asyncio.wait_for(runner, 30)
    return hs, gs


def order_records(path: str | Path) -> list[dict]:
    from hexwar.journal import read_journal
    return [r for r in read_journal(path).records if r["type"] == "order"]


class Hostile:
    """A guest that speaks the protocol by hand, so it can send anything at all."""

    def __init__(self, host: Host, home: Path, code: str | None = None, username: str = "player") -> None:
        self.host, self.home, self.code, self.username = host, home, code, username
        self.link: Any = None
        self.conn: Any = None
        self.hello: dict[str, Any] = {}
        self.pings = 0

    async def connect(self, hello_overrides: dict[str, Any] | None = None, resume: bool = True) -> dict[str, Any]:
        """Log in and do a correct handshake (unless overridden); returns the host's resume."""
        from hexwar.net import handshake
        from hexwar.net.client import open_link
        from hexwar.net.keys import guest_key, public_line
        inv = self.host.invitation()
        self.conn, self.link = await open_link("127.0.0.1", inv["port"], home=self.home,
                                               username=self.username, code=self.code)
        self.hello = await handshake.receive_hello(self.link)
        scenario = self.host.session.match.scenario
        mine = handshake.hello("guest", scenario, side=self.host.session.peer_side,
                               key=public_line(guest_key(self.home)))
        mine.update(hello_overrides or {})
        await self.link.send(mine)
        self.link.start_play()
        theirs = await asyncio.wait_for(self.link.recv(), 10)
        if resume and theirs.get("type") == "resume":
            game = self.host.session.game
            await self.link.send({"type": "resume", "seq": game.state.seq, "digest": bytes.fromhex(game.digest())})
        return theirs

    async def send(self, frame: Any) -> None:
        """Send ``frame`` in the play wire form as far as it has one, checking nothing: a dict of
        a known type goes positionally (unknown fields appended), anything else as it is."""
        await self.link.send_frame(loose_wire(frame, self.link._out_strings))

    async def send_raw(self, data: bytes) -> None:
        self.link.writer.write(data)
        await self.link.writer.drain()

    async def exchange(self, frame: Any = None, raw: bytes | None = None, timeout: float = 10) -> list[Any]:
        """Send one frame, then a ping; return everything the host sent before the pong."""
        if raw is not None:
            await self.send_raw(raw)
        else:
            await self.send(frame)
        self.pings += 1
        await self.send({"type": "ping", "n": self.pings})
        got = []
        while True:
            reply = await asyncio.wait_for(self.link.recv(), timeout)
            if reply == {"type": "pong", "n": self.pings}:
                return got
            got.append(reply)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        if self.conn is not None:
            self.conn.close()


def loose_wire(frame: Any, strings: Any) -> Any:
    """``protocol.encode`` without the checks, so a test can send what an honest peer never would."""
    from hexwar.net import protocol
    if not isinstance(frame, dict) or frame.get("type") not in protocol.WIRE:
        return frame
    code, fields = protocol.WIRE[frame["type"]]
    values = [frame.get(name) for name in fields]
    for i, name in enumerate(fields):
        v = values[i]
        if name == "order" and isinstance(v, dict) and isinstance(v.get("k"), str) \
                and isinstance(v.get("a", {}), dict):
            values[i] = protocol.encode_order(v, strings)
        elif name == "side" and isinstance(v, str):
            values[i] = strings.token(v)
        elif name == "plan" and isinstance(v, list):
            values[i] = strings.value(v)
    while values and values[-1] is None and fields[len(values) - 1] not in protocol.NIL_VALUED:
        values.pop()
    extra = [v for k, v in frame.items() if k != "type" and k not in fields]
    if extra:
        values += [None] * (len(fields) - len(values)) + extra
    return [code, *values]
