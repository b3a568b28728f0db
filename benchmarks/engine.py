"""Engine speed figures (printed, never asserted): run ``python benchmarks/engine.py``.

1. replay verification: orders per second when a journal is re-run with every digest checked;
2. ``reachable()`` on a 40x30 map with 60 units (Ancient Battles rules);
3. one full computer-against-computer game per shipped scenario.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from hexwar.engine import Order
from hexwar.match import Match, replay, simulate
from hexwar.journal import read_journal
from hexwar.scenarios.loader import builtin_paths, load_scenario, parse_scenario


def big_map_scenario(width: int = 40, height: int = 30, per_side: int = 30) -> str:
    """A 40x30 Ancient Battles field with woods, hills and a river, 30 units a side."""
    kinds = ["HI", "HI", "LC-jav", "archers", "HC", "skirmishers"]
    placed = {}
    for side, first_row in (("west", 0), ("east", 1)):
        for i in range(per_side):
            col = 3 + (i % 6) * 2 if side == "west" else width - 4 - (i % 6) * 2
            placed[(col, 2 + (i // 6) * 5 + first_row)] = (side, i)
    rows = []
    for r in range(height):
        row = []
        for c in range(width):
            if (c, r) in placed:
                row.append(".")                      # units start in the open
            elif c == width // 2 and r % 7 != 3:
                row.append("~")                      # a river with fords every 7 rows
            elif (c * 7 + r * 3) % 23 == 0:
                row.append("F")
            elif (c * 5 + r * 11) % 19 == 0:
                row.append("h")
            else:
                row.append(".")
        rows.append(" ".join(row))
    units = []
    for (col, row), (side, i) in sorted(placed.items(), key=lambda kv: kv[1]):
        units.append(f'[[units]]\nid = "{side}-{i}"\nside = "{side}"\nkind = "{kinds[i % len(kinds)]}"\n'
                         f'hex = "{col + 1:02d}{row + 1:02d}"\nfacing = "{"E" if side == "west" else "W"}"\n')
    return f'''[scenario]
id = "bench-40x30"
title = "Benchmark field"
ruleset = "ancients"
turns = 15

[map]
width = {width}
height = {height}
orientation = "pointy"
parity = "odd"
legend = {{ "." = "clear", "F" = "forest", "~" = "river", "h" = {{ terrain = "hill", elevation = 1 }} }}
rows = [
{chr(10).join(f'  "{r}",' for r in rows)}
]

[[sides]]
id = "west"
home_edge = "west"

[[sides]]
id = "east"
home_edge = "east"

''' + "\n".join(units)


def bench_replay() -> None:
    print("1. replay verification (every digest checked)")
    for path in builtin_paths():
        scenario = load_scenario(path)
        with tempfile.TemporaryDirectory() as tmp:
            journal = Path(tmp) / "g.journal"
            simulate(scenario, 1, journal)
            contents = read_journal(journal)
            start = time.perf_counter()
            report = replay(str(journal), contents, verify=True)
            seconds = time.perf_counter() - start
        print(f"   {scenario.id:<22} {report.orders:>5} orders in {seconds:6.3f} s = "
              f"{report.orders / seconds:8.0f} orders/s")


def bench_reachable() -> None:
    """Time reachable() for every unit of each side during that side's activation phase."""
    scenario = parse_scenario(big_map_scenario(), "<bench>")
    match = Match.new(scenario, seed=1)
    times: list[float] = []
    total = 0
    measured: set[str] = set()
    while len(measured) < len(scenario.units) and not match.game.over:
        game = match.game
        if game.state.phase == "activation":
            side = game.to_act()
            for uid in sorted(u.id for u in game.state.side_units(side)):
                start = time.perf_counter()
                routes = game.reachable(uid)
                times.append(time.perf_counter() - start)
                total += len(routes)
                measured.add(uid)
        match.play(Order.make("end-phase"))
    print(f"2. reachable() on a {scenario.map.width}x{scenario.map.height} map with "
          f"{len(scenario.units)} units")
    print(f"   mean {statistics.mean(times) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms per unit, "
          f"{sum(times) * 1e3:.1f} ms for all {len(times)}; {total} destinations in all")


def bench_games(seeds: int = 5) -> None:
    print(f"3. full computer-vs-computer games ({seeds} seeds each)")
    for path in builtin_paths():
        scenario = load_scenario(path)
        times, orders = [], []
        for seed in range(1, seeds + 1):
            start = time.perf_counter()
            result = simulate(scenario, seed)
            times.append(time.perf_counter() - start)
            orders.append(result.orders)
        print(f"   {scenario.id:<22} mean {statistics.mean(times):6.3f} s per game "
              f"(min {min(times):.3f}, max {max(times):.3f}), mean {statistics.mean(orders):.0f} orders")


def bench_text_map(repeats: int = 20) -> None:
    """``hexwar describe --map`` draws every hex and hexside as text; the biggest map is Poltava."""
    from hexwar.scenarios.loader import find_scenario, load_scenario
    from hexwar.textmap import render_map
    scenario = load_scenario(find_scenario("poltava-1"))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        render_map(scenario)
        times.append(time.perf_counter() - start)
    print(f"4. text map of {scenario.id} ({scenario.map.width}x{scenario.map.height}): "
          f"median {statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms")


def main() -> int:
    print(f"hexwar engine benchmarks (Python {sys.version.split()[0]})")
    bench_replay()
    bench_reachable()
    bench_games()
    bench_text_map()
    return 0


if __name__ == "__main__":
    sys.exit(main())
