"""Network play figures (not a test): what crosses the wire and how fast, on loopback.

    python benchmarks/net.py [--json] [--max-orders 200] [--level basic] [--dir DIR]
    python benchmarks/net.py --scenario attack-on-morobad [--games 5] [--json]

Without ``--scenario``: one game per shipped scenario (all of ``hexwar scenarios``), computer
against computer over real asyncssh through a counting TCP relay, journals in ``--dir`` (a
temporary folder on the disk by default), cut short by a resignation after ``--max-orders``
orders. Per scenario: msgpack payload and SSH (TCP) bytes per order in play, and the round trip
of plain and dice orders, median and p90, measured from the moment ``submit`` sends an order to
the moment the peer has applied it (both peers run in this process, so one clock serves both):
for a plain order that is one message and the sender's journal write; for a dice order the
commitment, the nonce, the reveal and both journals.

With ``--scenario``, the detailed report of one scenario: for one measured game played computer
against computer over real asyncssh through a counting TCP relay:
  * bytes per order and per game turn: msgpack payload (the session's own count) and TCP level
    (everything the relay carried during play: SSH framing, MACs, keepalives; the handshake and
    the idle pings are counted apart);
  * the handshake payload of a first connection and of a reconnect (a second game whose link is
    cut once after ten orders), and the protocol 2 targets (payload <= 80 B and SSH <= 220 B per
    order, a reconnect's hello <= 2 KB) with whether they are met;
  * the same if each order were followed by the full state (``game.to_bytes()``), measured by
    pushing those frames over an asyncssh channel through the same relay, with an ack per frame;
  * order round-trip times (send -> peer's ack; dice orders take two round trips);
then the results of N back-to-back games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh
import msgpack

from hexwar.engine import Dice, Game, Order, order_seed
from hexwar.net import headless
from hexwar.net.client import Guest
from hexwar.net.framing import pack
from hexwar.journal import read_journal
from hexwar.net.keys import host_key
from hexwar.net.netmatch import NetMatch
from hexwar.net.proxy import Proxy
from hexwar.net.server import Host
from hexwar.net.session import Session
from hexwar.scenarios.loader import builtin_paths, find_scenario, load_scenario


async def one_game(scenario: Any, home: Path, seed: int, proxied: bool = True, *, pings: int = 20,
                   level: str | None = None, max_orders: int | None = None) -> dict[str, Any]:
    side, other = scenario.sides[0].id, scenario.sides[1].id
    match = NetMatch.create(scenario, os.urandom(16), home / f"h{seed}.journal",
                            players={side: "host", other: "guest"}, info={"role": "host", "side": side})
    host = await Host(Session(match, side, role="host"), home / "h").start("127.0.0.1", 0)
    proxy = await Proxy(host.port).start() if proxied else None
    inv = host.invitation()
    guest = Guest("127.0.0.1", proxy.port if proxy else inv["port"], home=home / "g", code=inv["code"],
                  fingerprint=inv["fingerprint"], journal=str(home / f"g{seed}.journal"))
    start = time.perf_counter()
    runner = asyncio.ensure_future(guest.run(give_up=30))
    await guest.connected.wait()
    assert guest.session is not None
    await guest.session.wait_until(lambda: guest.session.connected and host.session.connected, 10)
    for _ in range(pings):  # idle-link round trips for comparison with order round trips
        await guest.session.ping()
        await guest.session.wait_until(lambda: len(guest.session.rtts) > _, 5)
    tcp_at_start = proxy.bytes_up + proxy.bytes_down if proxy else 0
    ping_payload = guest.session.link.bytes_sent + guest.session.link.bytes_received if proxied else 0
    host.session.trace, guest.session.trace = [], []
    kw = {} if level is None else {"level": level}
    stopper = asyncio.ensure_future(_stop_after(host.session, max_orders)) if max_orders else None
    hs, gs = await asyncio.gather(headless.play(host.session, seed, **kw),
                                  headless.play(guest.session, seed, **kw))
    await runner
    if stopper is not None:
        stopper.cancel()
    seconds = time.perf_counter() - start
    tcp_total = proxy.bytes_up + proxy.bytes_down if proxy else 0
    if proxy:
        await proxy.close()
    await host.close()
    return {"host": hs, "guest": gs, "seconds": seconds, "tcp_total": tcp_total,
            "tcp_play": tcp_total - tcp_at_start, "turns": host.session.game.state.turn,
            "order_rtts": host.session.order_rtts + guest.session.order_rtts,
            "ping_rtts": guest.session.rtts, "journal": hs["journal"],
            "same_journal": _orders(hs["journal"]) == _orders(gs["journal"]),
            "ping_payload": ping_payload,
            "submit_to_applied": _round_trips(host.session.trace, guest.session.trace)}


async def _stop_after(session: Session, orders: int) -> None:
    """Cut a long game short: the host resigns once ``orders`` orders were played, on its own
    turn with nothing in flight (a resignation crossing an order of the peer's leaves the two
    sides at different seqs: see the report of issue 29)."""
    await session.wait_until(lambda: (session.match.seq >= orders and session.can_act) or session.over)
    await session.resign()


def _round_trips(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> list[tuple[bool, float]]:
    """(rolled dice, seconds from one side's submit to the other side's applying it)."""
    out = []
    for mine, theirs in ((a, b), (b, a)):
        applied = {e[1]: e[3] for e in theirs if e[0] == "applied"}
        for kind, seq, dice, t in mine:
            if kind == "submit" and seq in applied:
                out.append((bool(dice), applied[seq] - t))
    return out


async def reconnect_hello(scenario: Any, home: Path) -> dict[str, Any]:
    """A game whose link is cut once after ten orders: the handshake payload of the first
    connection and of the reconnect, from the guest's session."""
    side, other = scenario.sides[0].id, scenario.sides[1].id
    match = NetMatch.create(scenario, os.urandom(16), home / "rh.journal",
                            players={side: "host", other: "guest"}, info={"role": "host", "side": side})
    host = await Host(Session(match, side, role="host"), home / "h").start("127.0.0.1", 0)
    proxy = await Proxy(host.port).start()
    inv = host.invitation()
    guest = Guest("127.0.0.1", proxy.port, home=home / "g", code=inv["code"],
                  fingerprint=inv["fingerprint"], journal=str(home / "rg.journal"))
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=30))
    await guest.connected.wait()
    assert guest.session is not None

    async def cut() -> None:
        await host.session.wait_until(lambda: host.session.match.seq >= 10, 30)
        proxy.cut_all()
    cutter = asyncio.ensure_future(cut())
    await asyncio.gather(headless.play(host.session, 2), headless.play(guest.session, 2))
    await runner
    await cutter
    await proxy.close()
    await host.close()
    sizes = guest.session.hello_sizes
    return {"connections": guest.session.links, "first": sizes[0], "reconnect": sizes[-1],
            "finished": guest.session.finished}


def _orders(path: str) -> list[dict[str, Any]]:
    return [r for r in read_journal(path).records if r["type"] == "order"]


def state_frames(journal: str, scenario: Any) -> list[bytes]:
    """The frames a state-shipping protocol would send: the full state after every order."""
    contents = read_journal(journal)
    game = Game(scenario)
    frames = []
    for rec in _orders(journal):
        order = Order.from_wire(rec["order"])
        dice = Dice(order_seed(contents.header["match"], rec["seq"], *rec["nonces"])) if rec["nonces"] else None
        game.apply(order, dice, rec["side"])
        frames.append(pack({"type": "state", "seq": rec["seq"], "state": game.to_bytes()}))
    return frames


async def ship_frames(frames: list[bytes], home: Path) -> dict[str, int]:
    """Send ``frames`` over an asyncssh channel through a counting relay, one ack per frame."""

    async def sink(process: asyncssh.SSHServerProcess) -> None:
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 24)
        while True:
            data = await process.stdin.read(65536)
            if not data:
                break
            unpacker.feed(data)
            for frame in unpacker:
                process.stdout.write(pack({"type": "ack", "seq": frame["seq"], "digest": bytes(16)}))
        process.exit(0)

    key = host_key(home / "sink")
    server = await asyncssh.listen("127.0.0.1", 0, server_host_keys=[key], process_factory=sink,
                                   encoding=None, authorized_client_keys=None, config=None,
                                   server_factory=_OpenServer)
    port = server.sockets[0].getsockname()[1]
    proxy = await Proxy(port).start()
    async with asyncssh.connect("127.0.0.1", proxy.port, known_hosts=None, username="x", password="x",
                                client_keys=None, config=None, agent_path=None) as conn:
        writer, reader, _ = await conn.open_session(encoding=None)
        start = proxy.bytes_up + proxy.bytes_down
        unpacker = msgpack.Unpacker(raw=False)
        for frame in frames:
            writer.write(frame)
            got = False
            while not got:
                unpacker.feed(await reader.read(65536))
                for _ in unpacker:
                    got = True
        payload = sum(len(f) for f in frames) + len(frames) * len(pack({"type": "ack", "seq": 1, "digest": bytes(16)}))
        tcp = proxy.bytes_up + proxy.bytes_down - start
        writer.write_eof()
    await proxy.close()
    server.close()
    return {"payload": payload, "tcp": tcp}


class _OpenServer(asyncssh.SSHServer):
    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        return True


def _pct(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "median_ms": None, "p90_ms": None}
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return {"n": len(values), "median_ms": round(statistics.median(values) * 1000, 2),
            "p90_ms": round(p90 * 1000, 2)}


async def per_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """One game per shipped scenario: bytes per order and submit-to-applied round trips."""
    home = Path(tempfile.mkdtemp(prefix="hexwar-bench-", dir=args.dir))
    rows = []
    for path in builtin_paths():
        scenario = load_scenario(path)
        g = await one_game(scenario, home / scenario.id, seed=1, pings=0, level=args.level,
                           max_orders=args.max_orders)
        orders = g["host"]["orders"]
        payload = g["host"]["bytes_sent"] + g["host"]["bytes_received"] - g["host"]["hello_bytes"]
        plain = [t for d, t in g["submit_to_applied"] if not d]
        dice = [t for d, t in g["submit_to_applied"] if d]
        rows.append({"scenario": scenario.id, "orders": orders, "dice_orders": len(dice),
                     "payload_per_order": round(payload / orders, 1),
                     "ssh_per_order": round(g["tcp_play"] / orders, 1),
                     "plain": _pct(plain), "dice": _pct(dice),
                     "journals_identical": g["same_journal"], "status": g["host"]["status"]})
    return {"level": args.level, "max_orders": args.max_orders, "journal_dir": str(home),
            "load": os.getloadavg(), "scenarios": rows,
            "targets": {"payload_per_order_le_80": all(r["payload_per_order"] <= 80 for r in rows),
                        "ssh_per_order_le_220": all(r["ssh_per_order"] <= 220 for r in rows)}}


def show_table(r: dict[str, Any]) -> None:
    print(f"computer level {r['level']}, games cut at {r['max_orders']} orders, journals in "
          f"{r['journal_dir']}, load {' '.join(f'{x:.2f}' for x in r['load'])}")
    print(f"{'scenario':<20} {'orders':>6} {'dice':>5} {'B/order':>8} {'SSH/order':>9}"
          f"   plain median / p90 ms   dice median / p90 ms")
    for x in r["scenarios"]:
        p, d = x["plain"], x["dice"]
        print(f"{x['scenario']:<20} {x['orders']:6d} {x['dice_orders']:5d} {x['payload_per_order']:8.1f} "
              f"{x['ssh_per_order']:9.1f}   {p['median_ms'] or 0:8.2f} / {p['p90_ms'] or 0:6.2f}"
              f"       {d['median_ms'] or 0:8.2f} / {d['p90_ms'] or 0:6.2f}"
              f"{'' if x['journals_identical'] else '  JOURNALS DIFFER'}")
    print("targets: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in r["targets"].items()))


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return f"median {statistics.median(values) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms (n={len(values)})"


async def main(args: argparse.Namespace) -> dict[str, Any]:
    scenario = load_scenario(find_scenario(args.scenario))
    home = Path(tempfile.mkdtemp(prefix="hexwar-bench-"))
    g = await one_game(scenario, home, seed=1)
    orders, turns = g["host"]["orders"], g["turns"]
    payload = (g["host"]["bytes_sent"] + g["host"]["bytes_received"] - g["host"]["hello_bytes"]
               - g["ping_payload"])
    frames = state_frames(g["journal"], scenario)
    shipped = await ship_frames(frames, home)
    dice_rtt = [t for d, t in g["order_rtts"] if d]
    plain_rtt = [t for d, t in g["order_rtts"] if not d]
    report: dict[str, Any] = {
        "scenario": scenario.id, "orders": orders, "turns": turns,
        "journals_identical": g["same_journal"], "result": g["host"]["result"],
        "orders_protocol": {"payload_bytes": payload, "payload_per_order": payload / orders,
                            "payload_per_turn": payload / turns, "tcp_bytes_play": g["tcp_play"],
                            "tcp_per_order": g["tcp_play"] / orders, "tcp_per_turn": g["tcp_play"] / turns,
                            "tcp_bytes_with_handshake": g["tcp_total"],
                            "hello_payload_bytes": g["host"]["hello_bytes"]},
        "full_state_after_each_order": {
            "state_bytes_mean": statistics.mean(len(f) for f in frames),
            "payload_per_order": shipped["payload"] / orders, "payload_per_turn": shipped["payload"] / turns,
            "tcp_per_order": shipped["tcp"] / orders, "tcp_per_turn": shipped["tcp"] / turns,
            "ratio_payload": shipped["payload"] / payload, "ratio_tcp": shipped["tcp"] / g["tcp_play"]},
        "rtt": {"order_without_dice": _ms(plain_rtt), "order_with_dice": _ms(dice_rtt),
                "ping": _ms(g["ping_rtts"])},
        "game_seconds": round(g["seconds"], 3),
    }
    rh = await reconnect_hello(scenario, home)
    report["hello_payload"] = rh
    report["targets"] = {
        "payload_per_order_le_80": payload / orders <= 80,
        "ssh_per_order_le_220": g["tcp_play"] / orders <= 220,
        "reconnect_hello_le_2048": rh["reconnect"] <= 2048,
    }
    games = []
    for n in range(args.games):
        r = await one_game(scenario, home, seed=100 + n, proxied=False)
        games.append({"winner": r["host"]["result"]["winner"], "reason": r["host"]["result"]["reason"],
                      "orders": r["host"]["orders"], "turns": r["turns"], "seconds": round(r["seconds"], 3),
                      "digests_agree": r["host"]["digest"] == r["guest"]["digest"],
                      "journals_identical": r["same_journal"], "status": r["host"]["status"]})
    wins: dict[str, int] = {}
    for x in games:
        wins[x["winner"] or "draw"] = wins.get(x["winner"] or "draw", 0) + 1
    report["back_to_back"] = {"games": games, "wins": wins,
                              "all_finished_in_sync": all(x["digests_agree"] and x["journals_identical"]
                                                          and x["status"] == "finished" for x in games),
                              "mean_seconds": round(statistics.mean(x["seconds"] for x in games), 3) if games else 0}
    return report


def show(r: dict[str, Any]) -> None:
    o, s = r["orders_protocol"], r["full_state_after_each_order"]
    print(f"scenario {r['scenario']}: {r['orders']} orders over {r['turns']} turns; "
          f"winner {r['result']['winner']} ({r['result']['reason']}); journals identical: {r['journals_identical']}")
    print("\nbytes on the wire                 per order   per turn")
    print(f"  orders, msgpack payload      {o['payload_per_order']:10.1f} {o['payload_per_turn']:10.1f}"
          f"   (hello with the scenario: {o['hello_payload_bytes']} bytes once per connection)")
    print(f"  orders, TCP (SSH included)   {o['tcp_per_order']:10.1f} {o['tcp_per_turn']:10.1f}")
    print(f"  full state, msgpack payload  {s['payload_per_order']:10.1f} {s['payload_per_turn']:10.1f}"
          f"   (state is {s['state_bytes_mean']:.0f} bytes on average)")
    print(f"  full state, TCP              {s['tcp_per_order']:10.1f} {s['tcp_per_turn']:10.1f}")
    print(f"  full state / orders: payload x{s['ratio_payload']:.1f}, TCP x{s['ratio_tcp']:.1f}; "
          f"SSH handshake + hello {o['tcp_bytes_with_handshake'] - o['tcp_bytes_play']} bytes once per connection")
    h = r["hello_payload"]
    print(f"\nhandshake payload: first connection {h['first']} B, a reconnect {h['reconnect']} B "
          f"({h['connections']} connections)")
    print("targets: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in r["targets"].items()))
    print("\nround trips on loopback")
    for k, v in r["rtt"].items():
        print(f"  {k:<20} {v}")
    b = r["back_to_back"]
    print(f"\n{len(b['games'])} back-to-back games: wins {b['wins']}, mean {b['mean_seconds']} s per game, "
          f"all finished with identical journals and digests: {b['all_finished_in_sync']}")
    for i, x in enumerate(b["games"], 1):
        print(f"  {i}: {x['winner'] or 'draw':<10} {x['orders']:4d} orders {x['turns']:3d} turns "
              f"{x['seconds']:6.2f} s  {x['reason']}")


if __name__ == "__main__":
    import logging
    logging.getLogger("hexwar.net").setLevel(logging.ERROR)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # the relay's cancelled pumps at close
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", help="the detailed report of this scenario only")
    ap.add_argument("--games", type=int, default=5, help="back-to-back games (with --scenario)")
    ap.add_argument("--level", default="basic", help="computer level (without --scenario)")
    ap.add_argument("--max-orders", type=int, default=200, help="resign after this many orders")
    ap.add_argument("--dir", default=None, help="where the journals go (default: a temporary folder)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    result = asyncio.run(main(a) if a.scenario else per_scenario(a))
    if a.json:
        json.dump(result, sys.stdout, indent=2, sort_keys=True, default=str)
        print()
    elif a.scenario:
        show(result)
    else:
        show_table(result)
