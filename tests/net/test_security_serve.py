"""Issue 27, the server side: ``hexwar serve`` attacked over real SSH on 127.0.0.1 the way a
modified client would (keys it cannot sign with, throw-away accounts, stray modules beside the
server, idle connections, a client that will not take no for an answer). Each test is named after
the finding it holds (27.N)."""

from __future__ import annotations

import asyncio
import os

import asyncssh
import pytest
from asyncssh.public_key import SSHLocalKeyPair

from hexwar.net.framing import FrameReader
from hexwar.net.keys import public_line
from hexwar.net.serve import Limits, Server
from hexwar.scenarios.loader import find_scenario, load_scenario

from test_serve import Screen


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


def _session_pids(name: str) -> list[int]:
    """The served UI processes of player ``name`` (by their command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"served-session" in argv and name.encode() in argv:
            found.append(int(entry))
    return found


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        pairs = [p.split(b"=", 1) for p in f.read().split(b"\0") if b"=" in p]
    return {k.decode(): v.decode() for k, v in pairs}


async def test_27_5_a_stray_module_beside_the_server_is_not_imported_by_a_served_ui(tmp_path, monkeypatch):
    stray = tmp_path / "cwd"
    stray.mkdir()
    marker = tmp_path / "imported"
    (stray / "rich.py").write_text(f"open({str(marker)!r}, 'w').write('stray rich ran')\n")
    (stray / "textual.py").write_text(f"open({str(marker)!r}, 'w').write('stray textual ran')\n")
    monkeypatch.chdir(stray)                              # the server runs from that folder
    monkeypatch.setenv("PYTHONPATH", str(stray))          # and its operator's environment says so too
    monkeypatch.setenv("HEXWAR_TEST_SERVER_SECRET", "s3cret")
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect("127.0.0.1", srv.port, username="uma", client_keys=[key],
                                    known_hosts=None, agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="evil\x1b]52;c;aGk=\x07", term_size=(100, 32),
                                                encoding=None)
            screen = Screen(process)
            await screen.wait_for("playing as uma")
            pids = _session_pids("uma")
            assert pids
            env = _environ(pids[0])
            cwd = os.readlink(f"/proc/{pids[0]}/cwd")
            process.stdin.write(b"\x11")                  # ctrl+q
            await asyncio.wait_for(process.wait(), 30)
    finally:
        await srv.close()
    assert not marker.exists()                            # today: the stray rich.py ran
    assert cwd == str(srv.home / "players" / "uma")       # the player's own folder
    assert "HEXWAR_TEST_SERVER_SECRET" not in env and "PYTHONPATH" not in env
    assert env["TERM"] == "xterm-256color"                # an unknown TERM is not passed on
    assert env["HEXWAR_HOME"] == str(srv.home / "players" / "uma")
