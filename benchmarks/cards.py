"""Figures of the mental-poker deck (not a test): a 60-card shuffle, a draw, a play, the audit.

    python benchmarks/cards.py [--repeats 3] [--json]

Both peers run in this process, joined by a real asyncssh session on 127.0.0.1 (msgpack frames
through ``net.link.Link``). Steps of the protocol are sequential (the second shuffle needs the
first, a draw's reader waits for the strip), so the wall time of a step is the time a match would
wait for it, and ``*_cpu_ms`` the CPU both peers spent on it (this one
process: what the step costs on a machine that other jobs share); bytes are msgpack payload counted by the links, both directions. The audit is one
side's check of a whole game (one 60-card shuffle, 40 draws, 20 cards shown, a reshuffle of
them, 20 more draws, then two new cards shuffled into the 20-card pile: the ``merge`` figures),
timed in CPU. Goals (issue 32): shuffle <= 1 s, draw <= 50 ms and <= 2 KB,
audit <= 2 s. Quote figures with ``uptime``: the machine is shared.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hexwar.net import card_peer  # noqa: E402
from hexwar.net.card_protocol import NetDeck  # noqa: E402

FIRST, SECOND = card_peer.SIDES


def moved(a: NetDeck, b: NetDeck) -> int:
    return a.link.bytes_sent + b.link.bytes_sent


async def one_game(tmp: Path) -> dict[str, list[float]]:
    first = NetDeck(FIRST, card_peer.SIDES, tmp / "first.cards")
    second = NetDeck(SECOND, card_peer.SIDES, tmp / "second.cards")
    server = await card_peer.listen(tmp, first.attach)
    conn, link = await card_peer.connect(tmp, server.sockets[0].getsockname()[1])
    await second.attach(link)
    await asyncio.sleep(0.2)                          # both resyncs answered before counting
    fig: dict[str, list[float]] = {k: [] for k in ("shuffle_ms", "shuffle_cpu_ms", "shuffle_bytes", "draw_ms",
                                                   "draw_cpu_ms", "draw_bytes", "play_ms", "play_cpu_ms",
                                                   "play_bytes", "merge_ms", "merge_cpu_ms", "merge_bytes",
                                                   "audit_cpu_ms")}

    async def step(kind: str, a, b) -> None:          # noqa: ANN001 - two coroutines
        b0, t0, c0 = moved(first, second), time.perf_counter(), time.process_time()
        await asyncio.gather(a, b)
        fig[f"{kind}_ms"].append((time.perf_counter() - t0) * 1000)
        fig[f"{kind}_cpu_ms"].append((time.process_time() - c0) * 1000)
        fig[f"{kind}_bytes"].append(moved(first, second) - b0)

    try:
        await step("shuffle", first.shuffle(list(range(60))), second.shuffle(list(range(60))))
        for _ in range(20):
            for side in (FIRST, SECOND):
                await step("draw", first.draw(side), second.draw(side))
        for _ in range(10):
            for side, deck in ((FIRST, first), (SECOND, second)):
                card = deck.hand(side)[0]
                mine = deck.play(side, card)
                other = (second if deck is first else first).play(side)
                await step("play", mine, other)
        await step("shuffle", first.reshuffle(), second.reshuffle())
        fig["shuffle_ms"].pop(), fig["shuffle_cpu_ms"].pop(), fig["shuffle_bytes"].pop()   # a 20-card reshuffle: not the 60-card figure
        for _ in range(10):
            for side in (FIRST, SECOND):
                await step("draw", first.draw(side), second.draw(side))
        await step("merge", first.reshuffle(add=[60, 61], with_pile=True),
                   second.reshuffle(add=[60, 61], with_pile=True))
        await asyncio.gather(first._mine("reveal", first.table.make_reveal), second._mine("reveal", second.table.make_reveal))
        await asyncio.gather(first._theirs("reveal"), second._theirs("reveal"))
        t0 = time.process_time()
        verdict = first.table.audit()
        fig["audit_cpu_ms"].append((time.process_time() - t0) * 1000)
        assert verdict.clean, verdict
    finally:
        first.close(), second.close(), conn.close(), server.close()
    return fig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(asyncio.run(one_game(Path(tmp))))
    out = {}
    for key in runs[0]:
        values = [v for run in runs for v in run[key]]
        out[key] = {"median": round(statistics.median(values), 1), "max": round(max(values), 1)}
    from hexwar.net import mental_poker as mp
    x, k = mp.encode(7), mp.new_key()
    for name, exponent in (("pow_short_ms", k), ("pow_full_ms", pow(k, -1, mp.P - 1))):
        t0 = time.process_time()
        for _ in range(20):
            pow(x, exponent, mp.P)
        out[name] = {"median": round((time.process_time() - t0) * 50, 2), "max": None}
    out["load"] = os.getloadavg()
    if args.json:
        print(json.dumps(out))
    else:
        for key, v in out.items():
            print(f"{key:14} {v}")
        goals = {"shuffle_ms": 1000, "shuffle_cpu_ms": 1000, "draw_ms": 50, "draw_cpu_ms": 50,
                 "draw_bytes": 2048, "audit_cpu_ms": 2000}
        for key, goal in goals.items():
            print(f"goal {key} <= {goal}: {'met' if out[key]['median'] <= goal else 'NOT met'} (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
