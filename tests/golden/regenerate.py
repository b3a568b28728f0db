"""Re-record the golden journals after an intended rules change: python tests/golden/regenerate.py

Each journal is a computer-vs-computer game; expected.json keeps its final digest, so any change in
what the engine computes shows up as a failing tests/test_golden.py.
"""

import json
import sys
from pathlib import Path

from hexwar.match import simulate
from hexwar.scenarios.loader import find_scenario, load_scenario

HERE = Path(__file__).parent
GAMES = [("border-clash", 1), ("elephant-crossing", 2), ("attack-on-morobad", 1)]


def main() -> int:
    expected = {}
    for sid, seed in GAMES:
        path = HERE / f"{sid}-seed{seed}.journal"
        path.unlink(missing_ok=True)
        result = simulate(load_scenario(find_scenario(sid)), seed, path)
        expected[path.name] = {"digest": result.digest, "orders": result.orders,
                               "winner": result.winner}
        print(f"{path.name}: {result.orders} orders, digest {result.digest}")
    (HERE / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
