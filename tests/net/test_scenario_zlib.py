"""Issue 29 finding 3: the scenario file goes to a peer that lacks it compressed (zlib), and a
file that would inflate past the limit on a scenario (a decompression bomb) is refused.

Real SSH on 127.0.0.1 throughout: the real host serving a file no hexwar ships, and for the
hostile cases a small SSH server in this file that speaks the host's half of the handshake by
hand (an older host without ``scenario-zlib``, and a lying host sending a bomb)."""

from __future__ import annotations

import asyncio
import os
import zlib
from pathlib import Path

import asyncssh
import pytest

from hexwar.net import handshake, protocol
from hexwar.net.client import Guest, open_link
from hexwar.net.errors import HandshakeRefused, LinkClosed
from hexwar.net.framing import pack
from hexwar.net.link import Link
from hexwar.scenarios.loader import find_scenario, load_scenario, parse_scenario

from netkit import start_host


def _custom(name: str = "poltava-2"):
    """A built-in scenario under another title: the same game in a file no hexwar ships, so a
    guest has to fetch it (poltava-2: the largest file, 27 KB)."""
    scenario = load_scenario(find_scenario(name))
    text = scenario.source_text.replace('title = "', 'title = "Custom ', 1)
    return parse_scenario(text, "custom")


async def test_the_scenario_file_crosses_compressed_to_a_guest_that_lacks_it(tmp_path):
    custom = _custom()
    size = len(custom.source_text.encode())
    host = await start_host(tmp_path / "h", custom)
    conn, link = await open_link("127.0.0.1", host.port, home=tmp_path / "g", username="player",
                                 code=host.invitation()["code"])
    try:
        theirs = await handshake.receive_hello(link)
        assert protocol.SCENARIO_ZLIB in theirs["caps"]
        sent, received = link.bytes_sent, link.bytes_received
        scenario = await handshake.obtain_scenario(link, theirs)
        fetched = (link.bytes_sent - sent) + (link.bytes_received - received)  # want + scenario
    finally:
        link.close()
        conn.close()
        await host.close()
    assert scenario.source_hash == custom.source_hash and scenario.source_text == custom.source_text
    # the same file plainly would cost its own size: compressed it is under a quarter of that
    assert fetched < size / 4, (fetched, size)
    assert fetched > len(zlib.compress(custom.source_text.encode(), 9))  # what crossed is the file


async def test_a_guest_that_does_not_ask_gets_the_text_as_before(tmp_path):
    """A guest from before ``scenario-zlib`` sends a plain ``want`` and gets plain text."""
    custom = _custom("attack-on-morobad")
    host = await start_host(tmp_path / "h", custom)
    conn, link = await open_link("127.0.0.1", host.port, home=tmp_path / "g", username="player",
                                 code=host.invitation()["code"])
    try:
        await handshake.receive_hello(link)
        await link.send_frame({"type": "want", "scenario_hash": custom.source_hash})
        reply = await asyncio.wait_for(link.recv(), 10)
    finally:
        link.close()
        conn.close()
        await host.close()
    assert reply == {"type": "scenario", "text": custom.source_text}


class _OpenServer(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return False  # anyone may log in: the host here is the one under suspicion


class _ByHand:
    """A host that speaks its half of the handshake by hand: it sends a hello with ``caps``, takes
    the guest's ``want`` and answers it with ``answer(want)``, then keeps the guest's reply."""

    def __init__(self, scenario, caps: list[str], answer) -> None:
        self.scenario, self.caps, self.answer = scenario, caps, answer
        self.want: dict | None = None
        self.reply: dict | None = None
        self.acceptor = None
        self.done = asyncio.Event()  # its half of the handshake is over

    async def start(self) -> int:
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.acceptor = await asyncssh.listen("127.0.0.1", 0, server_host_keys=[key], server_factory=_OpenServer,
                                              process_factory=self._process, encoding=None, config=None)
        return self.acceptor.sockets[0].getsockname()[1]

    async def _process(self, process) -> None:
        link = Link(process.stdin, process.stdout, name="the guest", on_close=lambda: process.exit(0))
        try:
            side = self.scenario.sides[0].id
            mine = handshake.hello("host", self.scenario, match=os.urandom(16), side=side)
            mine["caps"] = self.caps
            await link.send_frame(mine)
            self.want = await asyncio.wait_for(link.recv(), 10)
            await link.send_frame(self.answer(self.want))
            self.reply = await asyncio.wait_for(link.recv(), 10)
        except LinkClosed:
            pass  # the guest took the file and went: what the plain case wants
        finally:
            link.close()
            self.done.set()

    async def close(self) -> None:
        await asyncio.wait_for(self.done.wait(), 10)
        self.acceptor.close()
        await self.acceptor.wait_closed()


def _bomb() -> bytes:
    """About 16 KB that inflates to 16 MB of spaces (zlib's best ratio is about 1000 to 1)."""
    deflater = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    return b"".join(deflater.compress(chunk) for _ in range(16)) + deflater.flush()


async def _join(tmp_path: Path, port: int) -> str:
    """A real guest joining the host by hand; returns why it was refused."""
    guest = Guest("127.0.0.1", port, home=tmp_path / "g", journal=str(tmp_path / "g" / "m.journal"))
    with pytest.raises(HandshakeRefused) as err:
        await asyncio.wait_for(guest.connect_once(), 20)
    return err.value.reason


async def test_a_decompression_bomb_is_refused_saying_why(tmp_path):
    custom = _custom("attack-on-morobad")
    bomb = _bomb()
    assert len(pack({"type": "scenario", "zlib": bomb})) < 20_000  # under a frame's limits
    host = _ByHand(custom, list(protocol.CAPABILITIES), lambda want: {"type": "scenario", "zlib": bomb})
    port = await host.start()
    try:
        reason = await _join(tmp_path, port)
    finally:
        await host.close()
    assert host.want == {"type": "want", "scenario_hash": custom.source_hash, "zlib": True}
    assert reason == "the host's scenario file inflates past 128 KiB, the limit for a scenario file"
    assert host.reply == {"type": "bye", "reason": reason}  # the host is told why
    assert not (tmp_path / "g" / "m.journal").exists()


async def test_a_file_just_over_the_limit_is_refused_and_one_at_the_limit_is_inflated():
    at_limit = zlib.compress(b"#" * protocol.MAX_SCENARIO)
    text, problem = handshake.scenario_text({"type": "scenario", "zlib": at_limit}, compressed=True)
    assert problem is None and len(text) == protocol.MAX_SCENARIO
    over = zlib.compress(b"#" * (protocol.MAX_SCENARIO + 1))
    text, problem = handshake.scenario_text({"type": "scenario", "zlib": over}, compressed=True)
    assert text == "" and "inflates past 128 KiB" in problem
    cut = zlib.compress(b"# a scenario\n" * 50)[:-6]
    assert "cut short" in handshake.scenario_text({"type": "scenario", "zlib": cut}, True)[1]
    assert "not valid zlib" in handshake.scenario_text({"type": "scenario", "zlib": b"nonsense"}, True)[1]
    unasked = {"type": "scenario", "zlib": zlib.compress(b"x")}
    assert "did not ask" in handshake.scenario_text(unasked, compressed=False)[1]


async def test_a_host_without_scenario_zlib_is_asked_plainly_and_its_text_is_used(tmp_path):
    """A host from before ``scenario-zlib``: its hello lacks the capability, so the guest's
    ``want`` carries no ``zlib`` field (such a host would refuse it as unknown)."""
    custom = _custom("attack-on-morobad")
    caps = [c for c in protocol.CAPABILITIES if c != protocol.SCENARIO_ZLIB]
    host = _ByHand(custom, caps, lambda want: {"type": "scenario", "text": custom.source_text})
    port = await host.start()
    try:
        conn, link = await open_link("127.0.0.1", port, home=tmp_path / "g", username="player", code=None)
        try:
            theirs = await handshake.receive_hello(link)
            scenario = await handshake.obtain_scenario(link, theirs)
        finally:
            link.close()
            conn.close()
    finally:
        await host.close()
    assert host.want == {"type": "want", "scenario_hash": custom.source_hash}
    assert scenario.source_hash == custom.source_hash
