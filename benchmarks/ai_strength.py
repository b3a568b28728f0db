"""Strong against basic computer, per scenario and side: python benchmarks/ai_strength.py [options]

For every scenario (or those named) and both sides, plays ``--games`` games (seeds 1..N, fixed)
of ``strong`` in that seat against ``basic`` in the other, and the same seeds with ``basic`` in
both seats as the baseline. Prints win/draw/loss of the strong side, the baseline's win rate in
the same seat, and the strong player's seconds per decision (mean, median, maximum) and work
units per decision. Figures, not asserts: the machine may be shared, so times are noisy.

Options: --games N (default 40), --work N (strong budget per decision), --json, SCENARIO...
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from hexwar.engine.levels import computer_for
from hexwar.match import Match
from hexwar.scenarios.loader import builtin_paths, find_scenario, load_scenario


def play(scenario, seed: int, levels: dict[str, str], work: int | None,
         times: list[float], works: list[int]) -> str | None:
    """One game; appends the strong side's decision times and work units. Returns the winner."""
    match = Match.new(scenario, seed=seed)
    players = {s: computer_for(lv, f"{seed}:{s}", work) for s, lv in levels.items()}
    while not match.game.over:
        side = match.game.to_act()
        player = players[side]
        t = time.perf_counter()
        order = player.choose(match.game)
        if levels[side] == "strong":
            times.append(time.perf_counter() - t)
            works.append(getattr(player, "last_work", 0))
        match.play(order, side)
    return (match.game.state.result or {}).get("winner")


def pairing(scenario, side: str, games: int, work: int | None) -> dict[str, Any]:
    other = next(s.id for s in scenario.sides if s.id != side)
    times: list[float] = []
    works: list[int] = []
    strong = {"win": 0, "draw": 0, "loss": 0}
    base = {"win": 0, "draw": 0, "loss": 0}
    for seed in range(1, games + 1):
        for levels, tally, tt, ww in (({side: "strong", other: "basic"}, strong, times, works),
                                      ({side: "basic", other: "basic"}, base, [], [])):
            w = play(scenario, seed, levels, work, tt, ww)
            tally["draw" if w is None else "win" if w == side else "loss"] += 1
    return {"scenario": scenario.id, "side": side, "games": games, "strong": strong, "basic": base,
            "decisions": len(times),
            "mean_s": statistics.fmean(times) if times else 0.0,
            "median_s": statistics.median(times) if times else 0.0,
            "max_s": max(times, default=0.0),
            "mean_work": statistics.fmean(works) if works else 0.0}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--work", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    ids = args.scenarios or [p.stem for p in builtin_paths()]
    rows = []
    for sid in ids:
        scenario = load_scenario(find_scenario(sid))
        for s in scenario.sides:
            row = pairing(scenario, s.id, args.games, args.work)
            rows.append(row)
            if not args.json:
                st, b = row["strong"], row["basic"]
                print(f"{sid:<18} {s.id:<10} strong W/D/L {st['win']:>3}/{st['draw']:>3}/{st['loss']:>3}"
                      f"  basic-in-seat W {b['win']:>3}  s/decision mean {row['mean_s']:.3f}"
                      f" median {row['median_s']:.3f} max {row['max_s']:.2f}"
                      f"  work {row['mean_work']:.0f}", flush=True)
    wins = sum(r["strong"]["win"] for r in rows)
    losses = sum(r["strong"]["loss"] for r in rows)
    all_times_median = statistics.median([r["median_s"] for r in rows]) if rows else 0.0
    summary = {"decisive_win_rate": wins / max(1, wins + losses), "wins": wins, "losses": losses,
               "beats_basic_in_every_seat": all(r["strong"]["win"] > r["basic"]["win"] for r in rows),
               "median_of_medians_s": all_times_median,
               "max_s": max((r["max_s"] for r in rows), default=0.0)}
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
    else:
        print(f"strong wins {wins} of {wins + losses} decisive games "
              f"({100 * summary['decisive_win_rate']:.0f}%); beats basic in every seat: "
              f"{summary['beats_basic_in_every_seat']}; max decision {summary['max_s']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
