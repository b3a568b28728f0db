"""Win/draw rates of computer-vs-computer games: python benchmarks/balance.py SCENARIO [N]

Describes balance (and proves every game ends without an error); it is not an assert.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from hexwar.match import simulate
from hexwar.scenarios.loader import find_scenario, load_scenario


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip())
        return 2
    scenario = load_scenario(find_scenario(argv[0]))
    n = int(argv[1]) if len(argv) > 1 else 50
    winners: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    turns: list[int] = []
    errors = 0
    start = time.perf_counter()
    slowest = 0.0
    for seed in range(1, n + 1):
        t = time.perf_counter()
        try:
            r = simulate(scenario, seed)
        except Exception as exc:  # a crash is what this script exists to find
            errors += 1
            print(f"seed {seed}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        slowest = max(slowest, time.perf_counter() - t)
        winners[r.winner or "draw"] += 1
        reasons[r.reason.split(":")[0][:60]] += 1
        turns.append(r.turns)
    total = time.perf_counter() - start
    print(f"{scenario.id}: {n} games, {errors} errors, {total:.1f} s ({total / n:.2f} s/game, slowest {slowest:.2f} s)")
    for side in [s.id for s in scenario.sides] + ["draw"]:
        print(f"  {side:<12} {winners[side]:>4}  ({100 * winners[side] / max(1, n - errors):.0f}%)")
    if turns:
        print(f"  game length: turns {min(turns)}-{max(turns)}, mean {sum(turns) / len(turns):.1f}")
    for reason, count in reasons.most_common(5):
        print(f"  {count:>4} × {reason}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
