"""Terminal UI figures: time to first frame, a full map repaint at 200x60 on the largest built-in
map, and key-press-to-frame latency. Headless (Textual's test driver); prints, never asserts.

    python benchmarks/tui.py [SCENARIO]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from hexwar.scenarios.loader import ScenarioError, builtin_paths, find_scenario, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_game import GameScreen

SIZE = (200, 60)


def largest() -> object:
    best = None
    for path in builtin_paths():
        try:
            s = load_scenario(path)
        except ScenarioError:
            continue
        if best is None or s.map.width * s.map.height > best.map.width * best.map.height:
            best = s
    if best is None:
        sys.exit("no scenario could be loaded")
    return best


async def measure(scenario) -> None:
    players = {s.id: "human" for s in scenario.sides}
    start = time.perf_counter()
    app = HexwarApp(scenario=scenario, players=players, save=False, theme="default")
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, GameScreen):
            if app.screen.__class__.__name__ == "ChooseOrder":
                await pilot.press("enter")  # a decision the rules open at once (Poltava's set-up losses)
            await pilot.pause()
        await pilot.pause()
        first = time.perf_counter() - start
        screen = app.screen
        view = screen.map_view
        m = scenario.map
        print(f"scenario {scenario.id}: map {m.width}x{m.height} hexes, canvas "
              f"{view.virtual_size.width}x{view.virtual_size.height}, terminal {SIZE[0]}x{SIZE[1]}")
        print(f"time to first frame:         {first * 1000:8.1f} ms")
        for zoom in (1, 0):
            view.zoom = zoom
            await pilot.pause()
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                view.refresh_map()                      # drop every cached line
                for y in range(view.size.height):
                    view.render_line(y)
                times.append(time.perf_counter() - t0)
            print(f"full map repaint (zoom {zoom}):   {statistics.median(times) * 1000:8.2f} ms "
                  f"(median of 20, {view.size.width}x{view.size.height} cells)")
        view.zoom = 1
        await pilot.pause()
        latencies = []
        for key in ["d", "d", "c", "z", "a", "a", "e", "q"] * 5:
            t0 = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            latencies.append(time.perf_counter() - t0)
        idle = []
        for _ in range(20):
            t0 = time.perf_counter()
            await pilot.press("escape")          # a key that changes nothing: the harness's floor
            await pilot.pause()
            idle.append(time.perf_counter() - t0)
        lat = sorted(latencies)
        print(f"key press to frame:          {statistics.median(lat) * 1000:8.2f} ms median, "
              f"{lat[int(len(lat) * 0.95) - 1] * 1000:.2f} ms p95 ({len(lat)} cursor moves)")
        print(f"  same harness, no-op key:   {statistics.median(idle) * 1000:8.2f} ms median (the test driver's floor)")


def main() -> None:
    scenario = load_scenario(find_scenario(sys.argv[1])) if len(sys.argv) > 1 else largest()
    asyncio.run(measure(scenario))


if __name__ == "__main__":
    main()
