"""Issue 27, the server side: ``hexwar serve`` attacked over real SSH on 127.0.0.1 the way a
modified client would (keys it cannot sign with, throw-away accounts, stray modules beside the
server, idle connections, a client that will not take no for an answer). Each test is named after
the finding it holds (27.N)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time

import asyncssh
import pytest
from asyncssh.public_key import SSHLocalKeyPair

from hexwar.net.framing import FrameReader
from hexwar.net.keys import fingerprint, public_line
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
    (stray / "hexwar").mkdir()                            # a stray package of the program's own name
    (stray / "hexwar" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('stray hexwar ran')\n")
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


# --- 27.4: accounts and matches cannot be used up --------------------------------------------

async def _login_time(port: int, name: str, key) -> float:
    start = time.perf_counter()
    async with asyncssh.connect("127.0.0.1", port, username=name, client_keys=[key], known_hosts=None,
                                agent_path=None, config=None):
        pass
    return time.perf_counter() - start


async def _throw_away(port: int, n: int) -> None:
    """One fresh key and name, logging in and asking for a terminal session (a real one)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username=f"throwaway{n}", client_keys=[key],
                                known_hosts=None, agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        await asyncio.wait_for(process.stdout.read(200), 30)   # the refusal, or the UI's first bytes
        process.close()


async def test_27_4_three_hundred_throw_away_keys_from_one_address_make_only_what_the_rate_allows(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=16)).start("127.0.0.1", 0)
    try:
        owner = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect("127.0.0.1", srv.port, username="olga", client_keys=[owner],
                                    known_hosts=None, agent_path=None, config=None) as conn:
            screen = Screen(await conn.create_process(term_type="xterm", term_size=(100, 32), encoding=None))
            await screen.wait_for("playing as olga")               # an existing player
            screen.process.stdin.write(b"\x11")
            await asyncio.wait_for(screen.process.wait(), 30)
        assert len(srv.accounts) == 1
        before = sorted([await _login_time(srv.port, "olga", owner) for _ in range(9)])[4]
        writes = srv.accounts.db.total_changes
        for start in range(0, 300, 10):                           # ten at a time, 300 in all
            await asyncio.gather(*(_throw_away(srv.port, n) for n in range(start, start + 10)))
        after = sorted([await _login_time(srv.port, "olga", owner) for _ in range(9)])[4]
        allowed = srv.limits.new_accounts_per_address
        assert len(srv.accounts) <= 1 + allowed + 1               # today: 301 (one per key, at login)
        assert srv.accounts.db.total_changes - writes <= allowed + 1   # one small insert each, no rewrite
        assert after < 5 * before, (before, after)                # generous: the login stays flat
    finally:
        await srv.close()


async def test_27_4_a_login_alone_makes_no_account(server):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", server.port, username="nobody", client_keys=[key],
                                known_hosts=None, agent_path=None, config=None) as conn:
        result = await asyncio.wait_for(conn.run(encoding=None), 30)    # no terminal: told how
    assert result.exit_status == 1
    assert "nobody" not in server.accounts and len(server.accounts) == 0


async def test_27_4_finished_matches_never_stop_a_new_one(tmp_path, monkeypatch):
    from hexwar.net import lobby
    from test_referee import As
    cap = 20                                   # the default cap is 1000; the mechanism is the same
    srv = await Server(tmp_path / "serve", Limits(per_address=8, matches=cap)).start("127.0.0.1", 0)
    try:
        scenario = border_clash()
        for n in range(cap):
            ref = srv.matches.create(scenario, f"player:p{n}", "red")
            ref.match.finish("red", "resigned")
        assert len(srv.matches.by_id) == cap
        with As(srv, "newcomer", monkeypatch):
            made = await lobby.ask("create", scenario="border-clash", side="red")  # today: refused
        assert made["match"] in srv.matches.by_id
        for n in range(cap - 1):                       # matches being played still count
            srv.matches.create(scenario, f"player:q{n}", "red")
        with As(srv, "one-too-many", monkeypatch), pytest.raises(lobby.LobbyRefused, match="matches going"):
            await lobby.ask("create", scenario="border-clash", side="red")
    finally:
        await srv.close()


def test_27_4_an_open_seat_nobody_takes_expires(tmp_path):
    from hexwar.net.referee import Matches
    matches = Matches(tmp_path / "m", max_matches=1, open_seat_seconds=3600)
    stale = matches.create(border_clash(), "player:ann", "red")
    stale.info.created -= 7200                                    # opened two hours ago
    fresh = matches.create(border_clash(), "player:bob", "red")   # the stale one made room
    assert stale.info.id not in matches.by_id and fresh.info.id in matches.by_id
    assert [m["id"] for m in matches.lobby("cid")["open"]] == [fresh.info.id]
    assert (tmp_path / "m" / "matches" / "expired" / f"{stale.info.id}.journal").exists()  # kept
    matches.close()


def test_27_4_accounts_whose_player_never_came_back_expire_and_json_is_migrated(tmp_path):
    import json
    from hexwar.net.accounts import Accounts
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    (tmp_path / "accounts.json").write_text(json.dumps({"old": {
        "key": public_line(keys[2]), "fingerprint": fingerprint(keys[2]), "since": "2025-01-01T00:00:00Z"}}))
    now = [1_000_000.0]
    accounts = Accounts(tmp_path / "accounts.db", clock=lambda: now[0])
    assert accounts.migrate_json(tmp_path / "accounts.json") == 1
    assert not (tmp_path / "accounts.json").exists() and accounts.fingerprint_of("old") == fingerprint(keys[2])
    accounts.claim("once", keys[0])
    accounts.claim("twice", keys[1])
    now[0] += 60
    accounts.claim("twice", keys[1])                              # came back
    now[0] += 8 * 86400
    assert accounts.expire_unused(7 * 86400, keep=lambda name: False) == ["once"]
    assert "once" not in accounts and "twice" in accounts and "old" in accounts
    assert accounts.problem("once", keys[1]) is None               # the name is free again
    accounts.close()


# --- 27.7 and 27.9: what a plain OpenSSH client is told, and idle logins ----------------------

def _openssh(port: int, name: str, key, tmp_path, *command: str, batch: str = "yes") -> subprocess.CompletedProcess:
    """The real ``ssh`` client, as a player would run it (batch mode: it asks nothing; without it,
    as a player types it, it falls back to keyboard-interactive once its keys failed)."""
    path = tmp_path / f"id_{name}_{fingerprint(key)[-6:].replace('/', '_')}"
    key.write_private_key(str(path))
    os.chmod(path, 0o600)
    return subprocess.run(
        ["ssh", "-p", str(port), "-i", str(path), "-o", f"BatchMode={batch}", "-o", "IdentitiesOnly=yes",
         "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=INFO",
         "-F", "/dev/null", f"{name}@127.0.0.1", *command],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
async def test_27_9_refusals_reach_a_real_openssh_client_as_words(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=1)).start("127.0.0.1", 0)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    try:
        held = await asyncssh.connect("127.0.0.1", srv.port, username="ann", client_keys=[keys[0]],
                                      known_hosts=None, agent_path=None, config=None)
        try:   # the address's one place is held by a login: a second is refused, in words
            out = await asyncio.to_thread(_openssh, srv.port, "bob", keys[1], tmp_path, "true")
        finally:
            held.close()
            await held.wait_closed()
        assert out.returncode != 0
        assert "too many connections from 127.0.0.1" in out.stderr, out.stderr
        assert "banner line contains invalid characters" not in out.stderr   # today's message
        srv.accounts.claim("dave", keys[0])
        await asyncio.sleep(0.2)
        # (issue 36: said once every key failed, so a player's next key is not told it first)
        out = await asyncio.to_thread(_openssh, srv.port, "dave", keys[1], tmp_path, "true", batch="no")
        assert out.returncode != 0 and "belongs to another key" in out.stderr, out.stderr
    finally:
        await srv.close()


async def test_27_7_a_login_that_opens_no_session_is_closed_and_idle_tcp_does_not_keep_players_out(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=4)).start("127.0.0.1", 0)
    srv.net_limits.channel_timeout = 0.5
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        idle = [await asyncio.open_connection("127.0.0.1", srv.port) for _ in range(4)]
        conn = await asyncio.wait_for(asyncssh.connect(     # today: refused, the address is full
            "127.0.0.1", srv.port, username="ivy", client_keys=[key], known_hosts=None,
            agent_path=None, config=None), 20)
        await asyncio.wait_for(conn.wait_closed(), 10)    # no session opened: closed (today: kept)
        for _, writer in idle:
            writer.close()
    finally:
        await srv.close()


def test_27_4_the_match_index_is_sqlite_one_row_a_match_and_older_json_is_read_in(tmp_path):
    import json
    import sqlite3
    from dataclasses import asdict
    from hexwar.net.referee import Matches
    matches = Matches(tmp_path / "m")
    made = [matches.create(border_clash(), f"player:p{n}", "red") for n in range(3)]
    made[0].match.finish("red", "resigned")
    matches._changed(made[0])
    old_info = asdict(made[2].info)
    matches.close()
    folder = tmp_path / "m" / "matches"
    db = sqlite3.connect(str(folder / "index.db"))
    rows = db.execute("SELECT id, over FROM matches ORDER BY created").fetchall()
    db.close()
    assert [r[0] for r in rows] == [r.info.id for r in made]            # one row a match
    assert [r[1] for r in rows] == [1, 0, 0]                            # finished: one query away
    # an older server's info file beside its journal is read in once
    db = sqlite3.connect(str(folder / "index.db"))
    db.execute("DELETE FROM matches WHERE id = ?", (old_info["id"],))
    db.commit()
    db.close()
    (folder / f"{old_info['id']}.json").write_text(json.dumps(old_info))
    again = Matches(tmp_path / "m")
    assert sorted(again.by_id) == sorted(r.info.id for r in made)
    assert not (folder / f"{old_info['id']}.json").exists()
    assert (folder / f"{old_info['id']}.json.migrated").exists()
    again.close()


async def test_27_7_serve_has_a_global_connection_cap_that_only_logins_can_fill(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8, connections=2)).start("127.0.0.1", 0)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]

    def login(n: int):
        return asyncssh.connect("127.0.0.1", srv.port, username=f"p{n}", client_keys=[keys[n]],
                                known_hosts=None, agent_path=None, config=None)
    try:
        idle = await asyncio.open_connection("127.0.0.1", srv.port)   # a place held by no login
        held = [await login(0), await login(1)]                        # the second displaced it
        with pytest.raises(asyncssh.Error, match="server is full"):
            await login(2)
        for c in held:
            c.close()
        idle[1].close()
    finally:
        await srv.close()
