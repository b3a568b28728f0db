"""Issue 36, the small items on the server side, over real SSH on 127.0.0.1: the same player
opening a match from a second session takes it over (a frozen first client no longer keeps it
"open in another session"), and the older session cannot take it back; a player adds a key and
logs in with either; the server's folders and files are private; a mosh client is told how to
reach hexwar; TERM=dumb gets no colour."""

from __future__ import annotations

import asyncio
import os
import re
import stat

import asyncssh

from test_serve import Screen, connect, keys, open_ui, server  # noqa: F401 - fixtures
from test_serve_matches import ENTER, _wait_match, new_match, play_one, step, until


async def test_a_second_session_of_the_same_player_takes_the_match_over(server, keys):
    async with connect(server, "alice", keys[0]) as first_conn, connect(server, "alice", keys[0]) as second_conn:
        first = await open_ui(first_conn)
        await new_match(first)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        await until(lambda: ref.connected("red"))
        old_link = ref.seats["red"].link
        second = await open_ui(second_conn)   # the first client is "frozen": it never answers again
        await second.wait_for("Lobby: play other players")
        # the match's first roll may already have given Blue (the open seat) the move: either line
        await step(second, [ENTER], "YOUR TURN", "waiting for an opponent")
        await second.press(ENTER)
        await until(lambda: ref.seats["red"].link is not None and ref.seats["red"].link is not old_link, 60)
        assert b"open in another of your sessions" not in second.seen
        holder = server.lobby.holders[(ref.info.id, "red")]
        assert server.lobby.order[holder] == max(server.lobby.order.values())   # the newest session
        await asyncio.sleep(3)   # the first session's reconnects are refused: the seat stays
        assert server.lobby.holders[(ref.info.id, "red")] == holder
        if ref.to_act() == "red":   # the new session plays (when the dice gave Red the move)
            await play_one(second, ref)


async def test_a_player_adds_a_key_and_logs_in_with_either(server, keys):
    new_key = asyncssh.generate_private_key("ssh-ed25519")
    async with connect(server, "bea", keys[0]) as conn:          # the account: a real session
        screen = await open_ui(conn)
        await screen.wait_for("playing as bea")
        screen.process.stdin.write(b"\x11")
        await asyncio.wait_for(screen.process.wait(), 30)
    async with connect(server, "bea", keys[0]) as conn:
        added = await conn.run("add-key", input=new_key.export_public_key().decode(), timeout=30)
        listed = await conn.run("keys", timeout=30)
    assert added.exit_status == 0 and "added to bea's keys" in added.stdout, added.stdout
    assert listed.stdout.split() == server.accounts.fingerprints("bea") and len(listed.stdout.split()) == 2
    async with connect(server, "bea", new_key) as conn:          # the new key is bea now
        screen = await open_ui(conn)
        await screen.wait_for("playing as bea")
    # a stranger cannot add a key to bea (their key is refused at login) nor under a free name
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with connect(server, "cyd", stranger) as conn:
        out = await conn.run("add-key", timeout=30)   # refused before it reads a key
    assert out.exit_status == 1 and "log in once with a terminal first" in out.stdout
    assert not server.accounts.owns("bea", stranger)


async def test_the_servers_folders_and_files_are_private(server, keys):
    async with connect(server, "cal", keys[0]) as conn:
        screen = await open_ui(conn)
        await screen.wait_for("playing as cal")
        screen.process.stdin.write(b"\x11")
        await asyncio.wait_for(screen.process.wait(), 30)
    loose = []
    for root, dirs, files in os.walk(server.home):
        for d in dirs:
            mode = stat.S_IMODE(os.stat(os.path.join(root, d)).st_mode)
            if mode != 0o700:
                loose.append((os.path.join(root, d), oct(mode)))
        for f in files:
            path = os.path.join(root, f)
            if stat.S_ISSOCK(os.stat(path).st_mode):
                continue
            mode = stat.S_IMODE(os.stat(path).st_mode)
            if mode & 0o077:
                loose.append((path, oct(mode)))
    assert (server.home / "players" / "cal").is_dir()
    assert not loose, loose


async def test_a_mosh_client_is_told_the_route_through_a_shell_host(server, keys):
    async with connect(server, "dan", keys[0]) as conn:
        out = await conn.run("mosh-server new -s -c 256 -l LANG=en_US.UTF-8", timeout=30)
    assert out.exit_status == 1
    assert "mosh-server" in out.stdout and "mosh yourhost -- ssh -t -p" in out.stdout
    assert "hexwar is played in a terminal" not in out.stdout


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        pairs = [p.split(b"=", 1) for p in f.read().split(b"\0") if b"=" in p]
    return {k.decode(): v.decode() for k, v in pairs}


async def test_a_dumb_terminal_gets_no_colour(server, keys):
    async with connect(server, "eve", keys[0]) as conn:
        process = await conn.create_process(term_type="dumb", term_size=(80, 24), encoding=None,
                                            env={"COLORTERM": "truecolor"})
        screen = Screen(process)
        await screen.wait_for("playing as eve")
        (pid,) = server.children
        env = _environ(pid)
        assert env["TERM"] == "dumb" and env["NO_COLOR"] == "1" and "COLORTERM" not in env
        assert b"\x1b[38;2;" not in screen.seen and b"\x1b[48;2;" not in screen.seen   # no 24-bit colour


def _ssh(port: int, name: str, paths, *command: str):
    import subprocess
    argv = ["ssh", "-p", str(port), *[a for p in paths for a in ("-i", str(p))], "-o", "BatchMode=no",
            "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=INFO", "-F", "/dev/null", f"{name}@127.0.0.1", *command]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@__import__("pytest").mark.skipif(__import__("shutil").which("ssh") is None, reason="needs the OpenSSH client")
async def test_a_player_with_several_keys_is_not_told_the_name_is_taken_when_the_next_key_is_theirs(
        server, keys, tmp_path):
    server.accounts.claim("fay", keys[0])
    paths = []
    for i, key in enumerate((keys[1], keys[0])):   # the wrong key first, as an agent may offer it
        path = tmp_path / f"id{i}"
        key.write_private_key(str(path))
        os.chmod(path, 0o600)
        paths.append(path)
    both = await asyncio.to_thread(_ssh, server.port, "fay", paths, "keys")
    assert both.returncode == 0 and "belongs to another key" not in both.stderr, both.stderr
    wrong = await asyncio.to_thread(_ssh, server.port, "fay", paths[:1], "keys")
    assert wrong.returncode == 255 and "the name 'fay' belongs to another key" in wrong.stderr, wrong.stderr


async def test_leaving_a_served_match_shows_no_server_path_or_resume_advice(server, keys):
    async with connect(server, "gil", keys[0]) as conn:
        screen = await open_ui(conn)
        await new_match(screen)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        await until(lambda: ref.connected("red"))
        await screen.wait_for("your turn", "waiting for")
        await step(screen, ["M"], "Leave the network game?")
        await screen.wait_for("come back to it from the lobby")
        assert b"--resume" not in screen.seen and str(server.home).encode() not in screen.seen


async def test_the_invite_toast_names_the_address_the_player_reached(server, keys):
    async with connect(server, "hal", keys[0]) as conn:
        screen = await open_ui(conn, size=(160, 40))
        await new_match(screen, invite=True)
        ref = await asyncio.wait_for(_wait_match(server), 30)
        wanted = f"hexwar join 127.0.0.1:{server.port}".encode()
        # the text as drawn, escape sequences left out (a loaded machine may draw it in pieces)
        await until(lambda: wanted in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", screen.seen), 60)
        await screen.wait_for(ref.info.code)
        assert b"HOST:PORT" not in screen.seen


async def test_a_lobby_is_told_of_a_new_match_without_asking(server, keys):
    """Bob's lobby sits idle (it polls nothing); Alice makes a match; Bob's lobby shows it at
    once, well before the old 15 s poll would have."""
    async with connect(server, "alice", keys[0]) as a_conn, connect(server, "bob", keys[1]) as b_conn:
        alice, bob = await open_ui(a_conn), await open_ui(b_conn)
        await bob.wait_for("Lobby: play other players")
        await step(bob, [ENTER], "Open matches to join (0)")
        await until(lambda: len(server.lobby.followers) == 1, 10)   # bob's lobby follows the server's notes
        await new_match(alice)
        await asyncio.wait_for(_wait_match(server), 30)
        await bob.wait_for("Open matches to join (1)", limit=8)
