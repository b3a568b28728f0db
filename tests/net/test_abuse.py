"""Issue 10: a modified client that lies about clocks, logs in early, guesses, floods or never
reads. Each test plays the cheat over real asyncssh on 127.0.0.1 and checks the host holds."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import subprocess
import sys

import asyncssh
import pytest

from hexwar.net import handshake
from hexwar.net.client import open_link
from hexwar.net.errors import AuthRefused, LinkClosed
from hexwar.net.keys import Invite, guest_key, public_line
try:
    from hexwar.net.keys import WeakCode
except ImportError:  # (to run against older code)
    WeakCode = ()
try:
    from hexwar.net.limits import DEAD_LINK_SECONDS, KEEPALIVE_COUNT_MAX, KEEPALIVE_INTERVAL, Limits
except ImportError:
    DEAD_LINK_SECONDS = KEEPALIVE_COUNT_MAX = KEEPALIVE_INTERVAL = Limits = None

from netkit import Hostile, guest_for, play_match, start_host

NATIVES, EUROPEANS = "natives", "europeans"  # attack-on-morobad: natives act first


def _over(host) -> bool:
    return host.session.over


# --- 1. the turn timer -----------------------------------------------------------------------

async def test_issue10_1_timeout_claim_right_after_the_handshake_is_refused(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, side=NATIVES, turn_time=30)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        replies = await hostile.exchange({"type": "timeout", "seq": 0})
        errors = [r["reason"] for r in replies if r.get("type") == "error"]
        assert errors and "by this side's clock" in errors[0], replies
        assert not _over(host) and host.session.match.result is None
    finally:
        hostile.close()
        await host.close()


async def test_issue10_1_time_forfeit_carried_in_resume_is_judged_by_our_clock(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, side=NATIVES, turn_time=30)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect(resume=False)
        game = host.session.game
        await hostile.send({"type": "resume", "seq": 0, "digest": bytes.fromhex(game.digest()),
                            "end": {"winner": EUROPEANS, "reason": "natives ran out of time"}})
        await hostile.exchange({"type": "ping", "n": 5})
        assert not _over(host)
        assert any("does not agree" in r for r in host.session.refusals)
    finally:
        hostile.close()
        await host.close()


async def test_issue10_1_a_claim_our_clock_agrees_with_is_accepted(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, side=NATIVES, turn_time=1,
                            limits=Limits(clock_allowance=0.0))
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        await asyncio.sleep(1.2)  # the host's own decision has now lasted its whole turn time
        await hostile.exchange({"type": "timeout", "seq": 0})
        assert host.session.match.result == {"winner": EUROPEANS,
                                             "reason": "natives ran out of time (1s per order)"}
    finally:
        hostile.close()
        await host.close()


# --- 2. the seat goes to the connection that spent the code, or to the seat's key ---------

async def test_issue10_2_the_code_is_spent_at_login_and_a_second_login_is_refused(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    port, code = host.port, host.invitation()["code"]
    try:
        early_conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="player",
                                            password=code, client_keys=None, agent_path=None, config=None)
        with pytest.raises(AuthRefused):  # the real guest comes second: the code is spent
            await open_link("127.0.0.1", port, home=tmp_path / "late", username="player", code=code)
        # the early connection holds the code: it may take the free seat, and nobody else can
        writer, reader, _ = await early_conn.open_session(subsystem="hexwar", encoding=None)
        from hexwar.net.link import Link
        link = Link(reader, writer, name="host")
        hello = await handshake.receive_hello(link)
        mine = handshake.hello("guest", scenario, side=host.session.peer_side,
                               key=public_line(guest_key(tmp_path / "early")))
        await link.send(mine)
        link.start_play()
        reply = await asyncio.wait_for(link.recv(), 10)
        assert hello["type"] == "hello" and reply["type"] == "resume", reply
        assert host.guest_key == public_line(guest_key(tmp_path / "early"))
        link.close()
        early_conn.close()
    finally:
        await host.close()


async def test_issue10_2_a_code_login_cannot_take_over_a_seat_bound_to_a_key(tmp_path, scenario):
    """The attack of the issue: log in with the code before the guest, hold the connection,
    then name the seated guest's key and the match id in a hello and resign for it."""
    host = await start_host(tmp_path / "h", scenario)
    port, code = host.port, host.invitation()["code"]
    try:
        lurker = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="player",
                                        password=code, client_keys=None, agent_path=None, config=None)
        # the lurker spent the code; the seat is taken by key through an admitted friend instead
        host.admitted.add(public_line(guest_key(tmp_path / "g")))
        guest = Hostile(host, tmp_path / "g", code=None)
        await guest.connect()
        assert host.guest_key == public_line(guest_key(tmp_path / "g"))
        writer, reader, _ = await lurker.open_session(subsystem="hexwar", encoding=None)
        from hexwar.net.link import Link
        link = Link(reader, writer, name="host")
        await handshake.receive_hello(link)
        mine = handshake.hello("guest", scenario, match=host.session.match.match_id,
                               side=host.session.peer_side, key=host.guest_key)
        await link.send(mine)
        reply = await asyncio.wait_for(link.recv(), 10)
        assert reply["type"] == "bye" and "seat is already taken" in reply["reason"], reply
        assert not host.session.over
        guest.close()
        lurker.close()
    finally:
        await host.close()


async def test_issue10_2_a_code_spent_by_a_connection_that_left_unseated_is_free_again(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    port, code = host.port, host.invitation()["code"]
    try:
        conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="player",
                                      password=code, client_keys=None, agent_path=None, config=None)
        conn.close()
        await conn.wait_closed()
        for _ in range(50):
            if host.code_holder is None:
                break
            await asyncio.sleep(0.05)
        hostile = Hostile(host, tmp_path / "g", code=code)
        assert (await hostile.connect())["type"] == "resume"
        hostile.close()
    finally:
        await host.close()


# --- 3. admission belongs to one match -------------------------------------------------------

async def test_issue10_3_a_past_guest_is_not_admitted_to_the_next_match(tmp_path, scenario):
    home, guest_home = tmp_path / "h", tmp_path / "g"
    first = await start_host(home, scenario, journal=tmp_path / "1.journal")
    hostile = Hostile(first, guest_home, code=first.invitation()["code"])
    await hostile.connect()
    hostile.close()
    await first.close()
    second = await start_host(home, scenario, journal=tmp_path / "2.journal", watch_code="watch-code-4711")
    try:
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", second.port, home=guest_home, username="player", code=None)
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", second.port, home=guest_home, username="spectator", code=None)
        assert second.guest_key is None
        assert not (home / "authorized_keys").exists()
    finally:
        await second.close()
    # a host who wants the friend back says so, for that match
    friend = public_line(guest_key(guest_home))
    third = await start_host(home, scenario, journal=tmp_path / "3.journal", admit=(friend,))
    try:
        again = Hostile(third, guest_home, code=None)
        assert (await again.connect())["type"] == "resume"
        assert third.guest_key == friend
        again.close()
    finally:
        await third.close()


def test_issue10_3_admit_option_reads_a_key_line_or_a_pub_file(tmp_path):
    from hexwar.errors import UserError
    from hexwar.net.runner import admitted_key
    key = guest_key(tmp_path)
    line = key.export_public_key("openssh").decode().strip()
    (tmp_path / "friend.pub").write_text(line + "\n")
    assert admitted_key(line) == admitted_key(str(tmp_path / "friend.pub")) == public_line(key)
    with pytest.raises(UserError):
        admitted_key(str(tmp_path / "missing.pub"))


# --- 4. guessing codes -----------------------------------------------------------------------

class _Guesser(asyncssh.SSHClient):
    """Offers one wrong code after another on a single connection, counting them."""

    def __init__(self, codes):
        self.codes, self.tried = list(codes), 0

    def password_auth_requested(self):
        if not self.codes:
            return None
        self.tried += 1
        return self.codes.pop(0)


async def _guess(port: int, codes) -> int:
    client = _Guesser(codes)
    try:
        conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="player",
                                      client_factory=lambda: client, client_keys=None, agent_path=None,
                                      config=None, preferred_auth="password")
        conn.close()
    except (asyncssh.Error, OSError):
        pass
    return client.tried


async def test_issue10_4_wrong_codes_are_capped_per_connection_and_per_address(tmp_path, scenario, caplog):
    limits = Limits(guesses_per_connection=3, guesses_before_delay=4, guesses_before_lockout=7,
                    logged_guesses=2, guess_delay_max=0.05)
    host = await start_host(tmp_path / "h", scenario, limits=limits)
    code = host.invitation()["code"]
    try:
        with caplog.at_level(logging.WARNING, logger="hexwar.net"):
            tried = await _guess(host.port, [f"wrong-code-{n:04d}" for n in range(40)])
            assert tried <= 3, f"{tried} guesses on one connection"
            tried += await _guess(host.port, [f"wrong-code-{n:04d}" for n in range(40)])
            tried += await _guess(host.port, [f"wrong-code-{n:04d}" for n in range(40)])
        assert host.throttle.locked("127.0.0.1")
        assert host.throttle.delay("127.0.0.1") > 0  # answers slowed down before the lockout
        # locked out: even the right code is refused from this address now
        with pytest.raises(AuthRefused):
            await open_link("127.0.0.1", host.port, home=tmp_path / "g", username="player", code=code)
        wrong_lines = [r for r in caplog.records if r.getMessage().startswith(("refused a wrong", "127.0.0.1 sent"))]
        assert len(wrong_lines) <= 3, [r.getMessage() for r in wrong_lines]
    finally:
        await host.close()


def test_issue10_4_the_throttle_table_is_bounded():
    from hexwar.net.limits import LoginThrottle
    throttle = LoginThrottle(Limits(tracked_addresses=10))
    for n in range(1000):
        throttle.failed(f"10.0.{n // 256}.{n % 256}")
    assert len(throttle._failures) == 10


# --- 5. idle logins and caps -----------------------------------------------------------------

async def test_issue10_5_a_login_that_opens_no_channel_is_closed(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, limits=Limits(channel_timeout=0.3))
    try:
        conn = await asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="player",
                                      password=host.invitation()["code"], client_keys=None,
                                      agent_path=None, config=None)
        await asyncio.wait_for(conn.wait_closed(), 10)
        assert host.code_holder is None, "the idle login's code is free again"
    finally:
        await host.close()


async def test_issue10_5_a_login_whose_channel_ended_is_closed_too(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, limits=Limits(channel_timeout=0.3))
    try:
        conn = await asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="player",
                                      password=host.invitation()["code"], client_keys=None,
                                      agent_path=None, config=None)
        writer, reader, _ = await conn.open_session(subsystem="hexwar", encoding=None)
        await reader.read(1)  # the host's hello began: the channel is open
        writer.channel.close()
        await asyncio.wait_for(conn.wait_closed(), 10)
    finally:
        await host.close()


async def test_issue10_5_connections_and_spectators_are_capped(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, watch_code="watch-code-4711",
                            limits=Limits(max_connections=2, max_spectators=1))
    conns = []
    try:
        for _ in range(2):
            conns.append(await asyncssh.connect("127.0.0.1", host.port, known_hosts=None,
                                                username="spectator", password="watch-code-4711",
                                                client_keys=None, agent_path=None, config=None))
        with pytest.raises((asyncssh.Error, OSError)):
            await asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="spectator",
                                   password="watch-code-4711", client_keys=None, agent_path=None,
                                   config=None, login_timeout=5)
        replies = []
        for conn in conns:
            from hexwar.net.link import Link
            writer, reader, _ = await conn.open_session(subsystem="hexwar", encoding=None)
            link = Link(reader, writer, name="host")
            hello = await handshake.receive_hello(link) if not replies else None
            if hello is not None:
                await link.send(handshake.hello("spectator", scenario))
                replies.append("watching")
            else:
                replies.append(await asyncio.wait_for(link.recv(), 10))
        assert replies[0] == "watching"
        assert replies[1]["type"] == "bye" and "1 spectators" in replies[1]["reason"], replies
    finally:
        for conn in conns:
            conn.close()
        await host.close()


# --- 6. memory bounded by what the peer sends ------------------------------------------------

async def test_issue10_6_chat_is_rate_limited(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, limits=Limits(chat_burst=3, chat_per_second=0.001))
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    chats = []
    host.session.subscribe(lambda e: e.kind == "chat" and chats.append(e.text))
    try:
        await hostile.connect()
        for n in range(8):
            await hostile.exchange({"type": "chat", "text": f"spam {n}"})
        assert len(chats) == 3
        assert sum("chat too fast" in r for r in host.session.refusals) == 5
    finally:
        hostile.close()
        await host.close()


async def test_issue10_6_a_spectator_that_never_reads_is_dropped(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, watch_code="watch-code-4711",
                            limits=Limits(spectator_backlog=64 * 1024))
    try:
        conn = await asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="spectator",
                                      password="watch-code-4711", client_keys=None, agent_path=None,
                                      config=None)
        from hexwar.net.link import Link
        writer, reader, _ = await conn.open_session(subsystem="hexwar", encoding=None, window=64 * 1024)
        link = Link(reader, writer, name="host")
        await handshake.receive_hello(link)
        await link.send(handshake.hello("spectator", scenario))
        for _ in range(100):
            if host.session.watchers:
                break
            await asyncio.sleep(0.05)
        assert host.session.watchers
        watcher = host.session.watchers[0]
        for n in range(2000):  # ~1 MB of chat, never read by the spectator
            await host.session.chat(f"{n:05d} " + "x" * 490)
            if not host.session.watchers:
                break
        assert not host.session.watchers, "the spectator that stopped reading was dropped"
        assert watcher.closed
        conn.close()
    finally:
        await host.close()


async def test_issue10_6_too_many_refusals_end_the_link_with_a_bye(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, limits=Limits(refusals_per_link=5, kept_refusals=3))
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        for n in range(4):
            await hostile.exchange({"type": "launch-missiles", "n": n})
        await hostile.send({"type": "launch-missiles"})
        got = []
        with pytest.raises(LinkClosed):
            while True:
                got.append(await asyncio.wait_for(hostile.link.recv(), 10))
        byes = [m for m in got if m.get("type") == "bye"]
        assert byes and "5 refused messages" in byes[0]["reason"], got
        assert host.session.refused == 5 and len(host.session.refusals) == 3
    finally:
        hostile.close()
        await host.close()


# --- 7. a bad frame gets its bye -------------------------------------------------------------

async def test_issue10_7_an_undecodable_frame_is_answered_with_a_bye_before_closing(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        await hostile.send_raw(b"\xc1")
        got = []
        with pytest.raises(LinkClosed):
            while True:
                got.append(await asyncio.wait_for(hostile.link.recv(), 10))
        assert got and got[-1]["type"] == "bye" and "undecodable" in got[-1]["reason"], got
    finally:
        hostile.close()
        await host.close()


# --- 8. codes: case does not matter, weak ones are refused ---------------------------------

async def test_issue10_8_a_chosen_code_with_capitals_works_as_printed(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, code="Tiger-Moth-1942")
    try:
        hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
        assert (await hostile.connect())["type"] == "resume"
        hostile.close()
    finally:
        await host.close()
    invite = Invite("Tiger-Moth-1942")
    assert invite.matches("tiger moth 1942") and invite.matches("TIGER-MOTH-1942")


@pytest.mark.parametrize("weak", ["a", "aaaaaaaaaaaa", "abcabcabcabc", "12345"])
def test_issue10_8_weak_codes_are_refused(weak):
    with pytest.raises(WeakCode):
        Invite(weak)


def test_issue10_8_the_host_command_refuses_a_weak_code(tmp_path):
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path / "h"))
    proc = subprocess.run([sys.executable, "-m", "hexwar", "host", "border-clash", "--port", "0",
                           "--bind", "127.0.0.1", "--code", "a", "--headless", "--ai"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "too easy to guess" in proc.stderr, proc.stderr


# --- 9. secrets are private ------------------------------------------------------------------

def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_issue10_9_journals_keys_and_data_dirs_are_private(tmp_path, scenario):
    home, ghome = tmp_path / "h", tmp_path / "g"
    for d in (home, ghome):
        d.mkdir(mode=0o755)
        os.chmod(d, 0o755)
    host = await start_host(home, scenario, journal=tmp_path / "host.journal")
    try:
        guest = guest_for(host, ghome)
        runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
        await asyncio.wait_for(guest.connected.wait(), 20)
        assert _mode(tmp_path / "host.journal") == 0o600
        assert _mode(ghome / "guest.journal") == 0o600
        assert _mode(ghome / "known_hosts") == 0o600
        assert _mode(home) == _mode(ghome) == 0o700
        runner.cancel()
        guest.session.close()
    finally:
        await host.close()


def test_issue10_9_the_invite_file_is_private(tmp_path):
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path / "h"))
    inv = tmp_path / "invite.json"
    proc = subprocess.Popen([sys.executable, "-m", "hexwar", "host", "border-clash", "--port", "0",
                             "--bind", "127.0.0.1", "--headless", "--ai", "--give-up", "1",
                             "--invite-file", str(inv)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if inv.exists() and inv.stat().st_size:
                break
            proc.poll()
            import time
            time.sleep(0.05)
        assert _mode(inv) == 0o600 and "code" in json.loads(inv.read_text())
        assert _mode(tmp_path / "h") == 0o700
    finally:
        proc.kill()
        proc.communicate()


# --- 10. resuming a finished match -----------------------------------------------------------

async def test_issue10_10_resuming_a_finished_match_says_so_at_once(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario, journal=tmp_path / "host.journal")
    guest = guest_for(host, tmp_path / "g")
    hs, _ = await play_match(host, guest, seed=3)
    host.session.close()
    await host.close()
    assert hs["status"] == "finished"
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path / "h"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hexwar", "host", "--resume", str(tmp_path / "host.journal"), "--port", "0",
        "--bind", "127.0.0.1", "--headless", "--ai", "--give-up", "300", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)  # far less than --give-up
    assert proc.returncode == 0, err
    text = err.decode()
    assert "the match is over" in text and hs["result"]["reason"] in text
    # the guest's side too: nothing to rejoin
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path / "g"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hexwar", "join", "127.0.0.1:9", "--resume", str(tmp_path / "g" / "guest.journal"),
        "--headless", "--ai", "--give-up", "300", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0 and "the match is over" in err.decode(), err


# --- 11. a connection timeout says so ------------------------------------------------------

async def test_issue10_11_a_connection_timeout_names_its_reason(tmp_path):
    async def silent(reader, writer):
        await asyncio.sleep(30)
    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(LinkClosed) as err:
            await open_link("127.0.0.1", port, home=tmp_path / "g", username="player", code=None,
                            connect_timeout=0.3)
        assert err.value.reason.endswith("no answer within 0.3s"), err.value.reason
    finally:
        server.close()


# --- 12. the banner for a lost OpenSSH user ---------------------------------------------------

async def test_issue10_12_an_unknown_user_is_told_the_two_users(tmp_path, scenario):
    host = await start_host(tmp_path / "h", scenario)
    banners = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg, lang):
            banners.append(msg)
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect("127.0.0.1", host.port, known_hosts=None, username="guest",
                                   password="whatever-code", client_factory=Client, client_keys=None,
                                   agent_path=None, config=None)
        assert banners and "'player'" in banners[0] and "'spectator'" in banners[0]
    finally:
        await host.close()


# --- 13. keepalive loss: the code and the notes agree -----------------------------------------

async def test_issue10_13_keepalive_settings_give_the_documented_detection_time(tmp_path, scenario):
    from pathlib import Path
    notes = (Path(__file__).parents[2] / "net" / "NOTES.md").read_text()
    assert DEAD_LINK_SECONDS == KEEPALIVE_INTERVAL * (KEEPALIVE_COUNT_MAX + 1) == 15
    assert f"within ~{DEAD_LINK_SECONDS:g} s" in notes
    host = await start_host(tmp_path / "h", scenario)
    try:
        conn, link = await open_link("127.0.0.1", host.port, home=tmp_path / "g", username="player",
                                     code=host.invitation()["code"])
        server_conn = next(iter(host.connections)).conn
        for c in (conn, server_conn):  # both ends drop a silent link after the same count
            assert c._keepalive_count_max == KEEPALIVE_COUNT_MAX
            assert c._keepalive_interval == KEEPALIVE_INTERVAL
        link.close()
        conn.close()
    finally:
        await host.close()


def test_issue10_5_caps_come_from_the_command_line():
    import argparse
    from hexwar.errors import UserError
    from hexwar.net.runner import limits_from
    limits = limits_from(argparse.Namespace(max_connections=4, max_spectators=2))
    assert (limits.max_connections, limits.max_spectators) == (4, 2)
    assert limits_from(argparse.Namespace()).max_spectators == Limits().max_spectators
    with pytest.raises(UserError):
        limits_from(argparse.Namespace(max_connections=0, max_spectators=None))


def test_issue10_3_a_friend_admitted_on_the_command_line_joins_without_a_code(tmp_path):
    import time
    ghome = tmp_path / "g"
    ghome.mkdir(mode=0o700)
    key = guest_key(ghome)
    (tmp_path / "friend.pub").write_text(key.export_public_key("openssh").decode())
    inv_file = tmp_path / "invite.json"
    env = dict(os.environ, HEXWAR_HOME=str(tmp_path / "h"))
    host = subprocess.Popen([sys.executable, "-m", "hexwar", "host", "attack-on-morobad", "--port", "0",
                             "--bind", "127.0.0.1", "--headless", "--ai", "--json", "--give-up", "30",
                             "--admit", str(tmp_path / "friend.pub"), "--invite-file", str(inv_file)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(400):
            if inv_file.exists() and inv_file.stat().st_size:
                break
            time.sleep(0.05)
        inv = json.loads(inv_file.read_text())
        guest = subprocess.run([sys.executable, "-m", "hexwar", "join", f"127.0.0.1:{inv['port']}",
                                "--fingerprint", inv["fingerprint"], "--headless", "--ai", "--json"],
                               env=dict(os.environ, HEXWAR_HOME=str(ghome)), capture_output=True,
                               text=True, timeout=90)
        hout, herr = host.communicate(timeout=30)
    finally:
        host.kill()
    assert guest.returncode == 0, guest.stderr[-1500:]
    assert host.returncode == 0, herr[-1500:]
    assert json.loads(hout)["digest"] == json.loads(guest.stdout)["digest"]
