"""Terminal UI figures. Prints, never asserts.

1. In process (Textual's test driver): time to first frame, a full map repaint (every line of
   the map view drawn from scratch) at each zoom, and key-press-to-frame latency.
2. On a real pseudo-terminal: ``hexwar play`` runs as a child process; a unit is selected and
   the cursor moved key by key. For each key the bytes the app wrote to the terminal and the
   CPU time the child spent (from /proc, clock ticks, so read the mean of many keys) are
   recorded. Opening and closing a dialog is measured the same way.

    python benchmarks/tui.py [SCENARIO] [--size 120x40] [--keys 40] [--json]
                             [--hexwar 'CMD ...']   # another install, for before/after figures

The machine may be shared: read medians and means, and compare runs made side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import select
import shlex
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

from hexwar.scenarios.loader import ScenarioError, builtin_paths, find_scenario, load_scenario


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


# --- 1. in process ---------------------------------------------------------------------------
async def in_process(scenario, size: tuple[int, int], out: dict) -> None:
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.screen_game import GameScreen

    players = {s.id: "human" for s in scenario.sides}
    start = time.perf_counter()
    app = HexwarApp(scenario=scenario, players=players, save=False, theme="default")
    async with app.run_test(size=size) as pilot:
        while not isinstance(app.screen, GameScreen):
            if app.screen.__class__.__name__ == "ChooseOrder":
                await pilot.press("enter")  # a decision the rules open at once (Poltava's set-up losses)
            await pilot.pause()
        await pilot.pause()
        out["first_frame_ms"] = (time.perf_counter() - start) * 1000
        view = app.screen.map_view
        default_zoom = view.zoom
        for zoom in (0, 1):
            view.zoom = zoom
            await pilot.pause()
            times = []
            for _ in range(30):
                t0 = time.process_time()                # CPU time: the machine may be shared
                view.refresh_map()                      # drop every cached line and face
                for y in range(view.size.height):
                    view.render_line(y)
                times.append(time.process_time() - t0)
            out[f"full_repaint_zoom{zoom}_cpu_ms"] = statistics.median(times) * 1000
        view.zoom = default_zoom
        await pilot.pause()
        await pilot.press("tab")                        # a unit selected: overlays on the map
        await pilot.pause()
        latencies = []
        for key in ["d", "a"] * 20:
            t0 = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            latencies.append(time.perf_counter() - t0)
        idle = []
        for _ in range(20):
            t0 = time.perf_counter()
            await pilot.press("f12")                    # bound to nothing: the harness's floor
            await pilot.pause()
            idle.append(time.perf_counter() - t0)
        out["key_to_frame_ms"] = statistics.median(latencies) * 1000
        out["noop_key_ms"] = statistics.median(idle) * 1000


# --- 2. on a real pseudo-terminal ------------------------------------------------------------
def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drain(fd: int, quiet: float = 0.25, limit: float = 10.0, first: float = 0.0) -> int:
    """Read until the app has written nothing for ``quiet`` seconds (after waiting up to
    ``first`` seconds for it to start writing); the bytes read."""
    total, deadline = 0, time.monotonic() + limit
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(quiet, first) if total == 0 else quiet)
        if not ready:
            break
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        total += len(chunk)
    return total


def prepared_journal(scenario, folder: str) -> str:
    """A saved game of ``scenario`` played (by its first legal choices) up to the first phase in
    which a unit can move, so the pseudo-terminal run can select one at once."""
    from hexwar.match import Match
    path = os.path.join(folder, f"{scenario.id}.journal")
    match = Match.new(scenario, seed=1, journal_path=path,
                      players={s.id: "human" for s in scenario.sides})
    for _ in range(500):
        game = match.game
        if not game.state.pending and any(o.kind == "move" for o in game.legal_orders()):
            break
        orders = list(game.legal_orders())
        enders = [o for o in orders if o.kind == "end-phase"]
        match.play(orders[0] if game.state.pending or not enders else enders[0])
    match.close()
    return path


def on_pty(command: list[str], scenario, size: tuple[int, int], n_keys: int, out: dict) -> None:
    cols, rows = size
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    home = tempfile.mkdtemp(prefix="hexwar-bench-")
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", HEXWAR_HOME=home)
    env.pop("NO_COLOR", None)
    journal = prepared_journal(scenario, home)
    proc = subprocess.Popen([*command, "play", scenario.id, "--load", journal], stdin=slave,
                            stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    try:
        out["pty_startup_bytes"] = _drain(master, quiet=1.5, limit=60, first=30)

        def press(key: bytes) -> tuple[int, float]:
            cpu = _cpu_seconds(proc.pid)
            os.write(master, key)
            written = _drain(master)
            return written, _cpu_seconds(proc.pid) - cpu

        press(b"\t")                                    # select the first unit that can act
        sizes, cpu = [], 0.0
        for i in range(n_keys):
            b, c = press(b"d" if i % 2 == 0 else b"a")
            sizes.append(b)
            cpu += c
        out["pty_cursor_key_bytes_median"] = statistics.median(sizes)
        out["pty_cursor_key_bytes_max"] = max(sizes)
        out["pty_cursor_key_cpu_ms_mean"] = cpu / n_keys * 1000
        dialog = []
        for _ in range(5):
            dialog.append(press(b"o")[0])               # the orders dialog
            press(b"\x1b")
        out["pty_open_dialog_bytes_median"] = statistics.median(dialog)
        press(b"\x1b")                                  # deselect
        full = []
        for _ in range(5):                              # zoom in and out: the whole map redrawn
            full.append(press(b"+")[0])
            full.append(press(b"-")[0])
        out["pty_full_map_bytes_median"] = statistics.median(full)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(master)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?")
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--keys", type=int, default=40)
    ap.add_argument("--hexwar", default=f"{shlex.quote(sys.executable)} -m hexwar",
                    help="the command that starts hexwar on the pseudo-terminal")
    ap.add_argument("--no-inprocess", action="store_true", help="only the pseudo-terminal part")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    scenario = load_scenario(find_scenario(args.scenario)) if args.scenario else largest()
    size = tuple(int(v) for v in args.size.split("x"))
    out: dict = {"scenario": scenario.id, "size": args.size, "command": args.hexwar}
    if not args.no_inprocess:
        asyncio.run(in_process(scenario, size, out))
    on_pty(shlex.split(args.hexwar), scenario, size, args.keys, out)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for k, v in out.items():
        print(f"{k:32} {v:10.2f}" if isinstance(v, float) else f"{k:32} {v}")


if __name__ == "__main__":
    main()
