"""Figures for ``hexwar serve`` (not a test): what a served player costs the server and the link.

    python benchmarks/serve.py [--sessions 8] [--keys 20] [--turns 1] [--ceiling-cap 24] [--json]

Starts a real server on 127.0.0.1 in a temporary data dir and connects real asyncssh clients with
pseudo-terminals (80x24), then prints:
  * connect-to-menu: seconds from opening the TCP connection to the menu's text arriving (median
    and worst of the sessions opened one after another);
  * memory per idle session: resident memory of each UI process sitting at the menu (median), and
    how much the server process itself grew per session;
  * bytes per cursor key: what the server sent to the client per cursor key on the Border Clash
    map (median over ``--keys`` presses), against the size of one msgpack order for comparison;
  * bytes per turn: a served player (Red, on a pseudo-terminal, ending its phases) against a
    native ``hexwar join`` client (Blue, the computer) in a match the server referees: what the
    server streamed to the served player's terminal during each whole game turn, against the
    protocol 2 bytes the native client received for the same turn;
  * idle lobbies (``--lobbies N --idle-seconds S``, alone with ``--lobbies-only``): N sessions
    opened one after another, each sitting in the lobby; connect-to-menu of the 1st and the Nth,
    PSS per idle UI process (``/proc/PID/smaps_rollup``: shared pages counted once), and the CPU
    the N UI processes and the server spend over S idle seconds (percent of one core), with the
    bytes the idle lobbies were sent meanwhile;
  * concurrency ceiling: idle sessions are opened one after another until connecting to the menu
    (with its lobby) takes more than 2 s, or ``--ceiling-cap`` sessions are open (the machine is
    shared; say so when quoting the figure).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import asyncssh

from hexwar.net.serve import Limits, Server


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pid: int) -> int:
    """utime + stime of ``pid`` in clock ticks."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


async def idle_lobbies(n: int, seconds: float) -> dict:
    """``n`` sessions in the lobby, idle: what they cost in memory and CPU, and what they are sent."""
    with tempfile.TemporaryDirectory() as home:
        server = await Server(Path(home), Limits(per_address=n + 2, sessions=n + 2, new_accounts_per_address=n + 2,
                                                 new_accounts_burst=n + 2)).start("127.0.0.1", 0)
        clients, times = [], []
        try:
            for i in range(n):
                client, took = await open_client(server.port, f"l{i}", asyncssh.generate_private_key("ssh-ed25519"))
                times.append(round(took, 3))
                client.process.stdin.write(b"\r")   # the menu's first entry: the lobby
                await client.wait_for(b"Open matches to join")
                await client.drain(0.3)
                clients.append(client)
            pids = sorted(server.children)
            pss = [pss_kib(pid) for pid in pids]
            for c in clients:   # settle, then measure the idle window
                await c.drain(0.2)
            sent = [0] * len(clients)

            async def count(i: int, client: Client) -> None:
                while True:
                    chunk = await client.process.stdout.read(65536)
                    if not chunk:
                        return
                    sent[i] += len(chunk)
            readers = [asyncio.ensure_future(count(i, c)) for i, c in enumerate(clients)]
            ui0, server0 = sum(cpu_ticks(p) for p in pids), cpu_ticks(os.getpid())
            start = time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - start
            ui1, server1 = sum(cpu_ticks(p) for p in pids), cpu_ticks(os.getpid())
            for r in readers:
                r.cancel()
        finally:
            for c in clients:
                c.conn.close()
            await server.close()
    hz = os.sysconf("SC_CLK_TCK")
    return {"sessions": n, "idle_seconds": seconds,
            "connect_to_menu_s": {"first": times[0], "last": times[-1]},
            "pss_kib_per_idle_session": {"median": int(statistics.median(pss)), "max": max(pss)},
            "cpu_percent_of_one_core": round(100.0 * (ui1 - ui0 + server1 - server0) / hz / elapsed, 2),
            "cpu_percent_ui_processes": round(100.0 * (ui1 - ui0) / hz / elapsed, 2),
            "cpu_percent_server_and_clients": round(100.0 * (server1 - server0) / hz / elapsed, 2),
            "bytes_sent_to_idle_lobbies": sum(sent)}


def session_pids(name: str) -> list[int]:
    pids = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            argv = Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"served-session" in argv and name.encode() in argv:
            pids.append(int(p))
    return pids


class Client:
    def __init__(self, conn, process) -> None:
        self.conn, self.process, self.seen = conn, process, b""

    async def wait_for(self, text: bytes, limit: float = 120.0) -> None:
        async def loop() -> None:
            while text not in self.seen:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    raise RuntimeError(f"session ended before {text!r}")
                self.seen += chunk
        await asyncio.wait_for(loop(), limit)

    async def drain(self, quiet: float = 0.5) -> int:
        """Read until nothing arrives for ``quiet`` seconds; returns the bytes read."""
        n = 0
        while True:
            try:
                chunk = await asyncio.wait_for(self.process.stdout.read(65536), quiet)
            except asyncio.TimeoutError:
                return n
            if not chunk:
                return n
            n += len(chunk)


async def open_client(port: int, name: str, key) -> tuple[Client, float]:
    start = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username=name, client_keys=[key], known_hosts=None)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    client = Client(conn, process)
    await client.wait_for(f"playing as {name}".encode())
    return client, time.perf_counter() - start


async def measure(sessions: int, presses: int) -> dict:
    with tempfile.TemporaryDirectory() as home:
        server = await Server(Path(home), Limits(per_address=sessions + 2, sessions=sessions + 2)).start("127.0.0.1", 0)
        server_before = rss_kib(os.getpid())
        key = asyncssh.generate_private_key("ssh-ed25519")
        clients, times, rss = [], [], []
        try:
            for i in range(sessions):
                client, seconds = await open_client(server.port, f"p{i}", asyncssh.generate_private_key("ssh-ed25519"))
                clients.append(client)
                times.append(seconds)
                await client.drain()
                rss += [rss_kib(pid) for pid in session_pids(f"p{i}")]
            server_after = rss_kib(os.getpid())
            # cursor keys on the Border Clash map, playing Red against the computer
            player, _ = await open_client(server.port, "mover", key)
            from hexwar.scenarios.loader import builtin_paths  # the picker lists them in this order
            down = b"\x1b[B" * [p.stem for p in builtin_paths()].index("border-clash")
            for keys, text in ((b"\x1b[B\r", b"Choose a scenario"), (down + b"\r", b"who plays?"),
                               (b"\r", b"How well should the computer play?"), (b"\r", b"T1/15")):
                player.seen = b""
                player.process.stdin.write(keys)
                await player.wait_for(text)
            await player.drain(1.0)
            per_key = []
            for i in range(presses):
                player.process.stdin.write(b"d" if (i // 4) % 2 == 0 else b"a")
                per_key.append(await player.drain(0.4))
        finally:
            for c in clients:
                c.conn.close()
            await server.close()
    return {
        "sessions": sessions,
        "connect_to_menu_s": {"median": round(statistics.median(times), 3), "max": round(max(times), 3)},
        "idle_session_rss_kib": {"median": int(statistics.median(rss)) if rss else None},
        "server_growth_kib_per_session": round((server_after - server_before) / max(1, sessions), 1),
        "bytes_per_cursor_key": {"median": int(statistics.median(per_key)), "max": max(per_key)},
    }


async def bytes_per_turn(turns: int) -> dict:
    """Streamed bytes to a served player against orders-only bytes, per whole game turn."""
    from hexwar.net import headless
    from hexwar.net.client import Guest
    from hexwar.scenarios.loader import builtin_paths
    with tempfile.TemporaryDirectory() as home:
        server = await Server(Path(home), Limits(per_address=8)).start("127.0.0.1", 0)
        try:
            player, _ = await open_client(server.port, "red", asyncssh.generate_private_key("ssh-ed25519"))
            down = b"\x1b[B" * [p.stem for p in builtin_paths()].index("border-clash")
            steps = ((b"\r", b"against a person"), (b"n", b"which scenario?"), (down + b"\r", b"you play"),
                     (b"\r", b"Invite code"), (b"y", b"T1/"))
            for keys, text in steps:
                player.seen = b""
                player.process.stdin.write(keys)
                await player.wait_for(text)
            ref = next(iter(server.matches.by_id.values()))
            native = Guest("127.0.0.1", server.port, home=Path(home) / "native", code=ref.info.code,
                           server=True)
            runner = asyncio.ensure_future(native.run(give_up=30))
            await asyncio.wait_for(native.connected.wait(), 30)
            computer = asyncio.ensure_future(headless.play(native.session, 1, level="basic"))
            await player.drain(1.0)
            rows = []
            for _ in range(turns):
                turn = ref.match.game.state.turn
                streamed, received = 0, native.session.bytes_received + native.session.link.bytes_received
                orders = ref.match.seq
                sent_before = native.session.bytes_sent + native.session.link.bytes_sent
                stalled = False
                deadline = time.monotonic() + 120
                while ref.match.game.state.turn == turn and not ref.match.over and not stalled:
                    if ref.to_act() == "red":  # Red ends its phases; Enter or "o" + Enter takes the
                        before = ref.match.seq  # first choice when the dice left a decision open
                        for keys in (b"E", b"\r", b"o\r", b"E\r"):
                            player.process.stdin.write(keys)
                            give_up = time.monotonic() + 8
                            while ref.match.seq == before and time.monotonic() < give_up:
                                streamed += await player.drain(0.2)
                            if ref.match.seq > before:
                                break
                        stalled = ref.match.seq == before
                    else:
                        streamed += await player.drain(0.2)
                    stalled = stalled or time.monotonic() > deadline
                streamed += await player.drain(1.0)
                link = native.session.link
                got = native.session.bytes_received + (link.bytes_received if link else 0) - received
                sent = native.session.bytes_sent + (link.bytes_sent if link else 0) - sent_before
                if stalled:
                    break  # a partial turn is no figure
                rows.append({"turn": turn, "orders": ref.match.seq - orders, "streamed_bytes": streamed,
                             "orders_only_bytes": got, "orders_only_bytes_both_ways": got + sent})
            computer.cancel()
            runner.cancel()
            player.conn.close()
        finally:
            await server.close()
    return {"turns": rows}


async def ceiling(cap: int, limit: float = 2.0) -> dict:
    """Open idle sessions until connect-to-menu passes ``limit`` seconds or ``cap`` are open."""
    with tempfile.TemporaryDirectory() as home:
        server = await Server(Path(home), Limits(per_address=cap + 2, sessions=cap + 2)).start("127.0.0.1", 0)
        clients, times = [], []
        try:
            while len(clients) < cap:
                client, seconds = await open_client(server.port, f"c{len(clients)}",
                                                    asyncssh.generate_private_key("ssh-ed25519"))
                clients.append(client)
                times.append(round(seconds, 3))
                await client.drain(0.5)
                if seconds > 3 * limit:  # well past it: the trend is clear, and the machine is shared
                    break
        finally:
            for c in clients:
                c.conn.close()
            await server.close()
    passed = next((i + 1 for i, t in enumerate(times) if t > limit), None)
    return {"cap": cap, "limit_s": limit, "connect_times_s": times,
            "held_below_limit": (passed - 1) if passed else len(times), "limit_reached": passed is not None}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=8)
    p.add_argument("--keys", type=int, default=20)
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--ceiling-cap", type=int, default=24)
    p.add_argument("--lobbies", type=int, default=0, help="idle lobby sessions to measure (0: none)")
    p.add_argument("--idle-seconds", type=float, default=30.0)
    p.add_argument("--lobbies-only", action="store_true", help="measure only the idle lobbies")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    lobbies = asyncio.run(idle_lobbies(a.lobbies, a.idle_seconds)) if a.lobbies else None
    if a.lobbies_only:
        if a.json:
            print(json.dumps({"idle_lobbies": lobbies}, indent=2))
        elif lobbies:
            _print_lobbies(lobbies)
        return
    r = asyncio.run(measure(a.sessions, a.keys))
    r["idle_lobbies"] = lobbies
    r["per_turn"] = asyncio.run(bytes_per_turn(a.turns))
    r["ceiling"] = asyncio.run(ceiling(a.ceiling_cap)) if a.ceiling_cap else None
    if a.json:
        print(json.dumps(r, indent=2))
        return
    print(f"{r['sessions']} idle sessions")
    print(f"connect to menu: median {r['connect_to_menu_s']['median']} s, worst {r['connect_to_menu_s']['max']} s")
    print(f"memory: {r['idle_session_rss_kib']['median']} KiB per idle UI process; "
          f"server grew {r['server_growth_kib_per_session']} KiB per session")
    print(f"bytes per cursor key: median {r['bytes_per_cursor_key']['median']}, "
          f"max {r['bytes_per_cursor_key']['max']} (compare benchmarks/net.py's bytes per order)")
    for row in r["per_turn"]["turns"]:
        print(f"turn {row['turn']} ({row['orders']} orders): {row['streamed_bytes']} B streamed to the served "
              f"player, {row['orders_only_bytes']} B of orders to the native one "
              f"({row['orders_only_bytes_both_ways']} B both ways)")
    if lobbies:
        _print_lobbies(lobbies)
    c = r["ceiling"]
    if c:
        where = (f"passed {c['limit_s']} s at session {c['held_below_limit'] + 1}" if c["limit_reached"]
                 else f"stayed under {c['limit_s']} s up to the cap of {c['cap']} sessions")
        print(f"concurrency: connect-to-menu {where}; times {c['connect_times_s']}")


def _print_lobbies(r: dict) -> None:
    print(f"{r['sessions']} idle lobby sessions: connect to menu {r['connect_to_menu_s']['first']} s (1st), "
          f"{r['connect_to_menu_s']['last']} s ({r['sessions']}th); PSS per idle UI process median "
          f"{r['pss_kib_per_idle_session']['median']} KiB (max {r['pss_kib_per_idle_session']['max']}); "
          f"CPU over {r['idle_seconds']:g} idle s: {r['cpu_percent_of_one_core']} % of one core "
          f"({r['cpu_percent_ui_processes']} % the UI processes, {r['cpu_percent_server_and_clients']} % the server "
          f"with this benchmark's clients); {r['bytes_sent_to_idle_lobbies']} B sent to the idle lobbies")


if __name__ == "__main__":
    main()
