"""Issue 27, the server side: ``hexwar serve`` attacked over real SSH on 127.0.0.1 the way a
modified client would (keys it cannot sign with, throw-away accounts, stray modules beside the
server, idle connections, a client that will not take no for an answer). Each test is named after
the finding it holds (27.N)."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from asyncssh.public_key import SSHLocalKeyPair

from hexwar.net.framing import FrameReader
from hexwar.net.keys import public_line
from hexwar.net.serve import Limits, Server
from hexwar.scenarios.loader import find_scenario, load_scenario


@pytest.fixture
async def server(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    yield srv
    await srv.close()


def border_clash():
    return load_scenario(find_scenario("border-clash"))


class _Forged(SSHLocalKeyPair):
    """A key pair that names ``victim``'s public key but signs with ``signer``: what a client
    that knows someone's public key (it is no secret) but not their private key can offer."""

    def __init__(self, signer: asyncssh.SSHKey, victim: asyncssh.SSHKey) -> None:
        super().__init__(signer, None, None, None)
        self.public_data = victim.public_data


async def _first_frame(conn: asyncssh.SSHClientConnection) -> dict:
    """Open the ``hexwar`` subsystem and read the server's first message (its hello or a bye)."""
    writer, reader, _ = await conn.open_session(subsystem="hexwar", encoding=None)
    frames = FrameReader()
    while True:
        chunk = await asyncio.wait_for(reader.read(65536), 30)
        if not chunk:
            return {}
        got = frames.feed(chunk)
        if got:
            writer.close()
            return got[0]


async def test_27_1_an_offered_key_with_a_bad_signature_and_a_valid_code_gets_nothing_of_its_owner(server):
    victim, mallory = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    scenario = border_clash()
    theirs = server.matches.create(scenario, f"key:{public_line(victim)}", "red")  # the victim's match
    bait = server.matches.create(scenario, "player:mallory", "red", invite=True)   # any valid code
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", server.port, username="player", client_keys=[_Forged(mallory, victim)],
        password=bait.info.code, preferred_auth=("publickey", "password"), known_hosts=None,
        agent_path=None, config=None), 30)
    async with conn:
        hello = await _first_frame(conn)
    assert hello.get("type") == "hello"
    assert hello["match"] != theirs.match.match_id      # today: the victim's match
    assert hello["match"] == bait.match.match_id         # the code's match, nothing else
    assert theirs.info.seats["red"] == f"key:{public_line(victim)}" and theirs.info.open_side() == "blue"


async def test_27_1_the_real_key_still_comes_back_to_its_match(server):
    """The fix does not lock out the owner: a key that signs logs in to its own match."""
    owner = asyncssh.generate_private_key("ssh-ed25519")
    theirs = server.matches.create(border_clash(), f"key:{public_line(owner)}", "red")
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", server.port, username="player", client_keys=[owner], known_hosts=None,
        agent_path=None, config=None, preferred_auth=("publickey",)), 30)
    async with conn:
        hello = await _first_frame(conn)
    assert hello.get("type") == "hello" and hello["match"] == theirs.match.match_id
