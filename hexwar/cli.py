"""The ``hexwar`` command line.

Exit codes: 0 ok, 1 the game refused something (a journal whose orders or digests do not
replay), 2 bad input (unknown scenario, broken file, bad arguments). Errors are one clear line
on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from hexwar import __version__
from hexwar.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_REFUSED, UserError
from hexwar.plaintext import plain_text


def _say(text: str = "") -> None:
    """Print words that come from a file (titles, names, notes) as plain text: a scenario file's
    escape sequence must not reach the terminal."""
    print(plain_text(text))


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _load(name: str):
    from hexwar.cli_play import scenario_named
    return scenario_named(name)


# --- commands ----------------------------------------------------------------------------------

def cmd_scenarios(args: argparse.Namespace) -> int:
    # The catalogue reads each file's head only (no map, no units, no engine): a fast listing.
    # `hexwar validate` and the tests check the built-in files in full.
    from hexwar.scenarios.catalog import summaries
    rows, problems = summaries()
    if args.json:
        _print_json(rows)
    else:
        _say(f"{'id':<22} {'ruleset':<10} {'turns':>5}  title / sides")
        for r in rows:
            sides = " vs ".join(x["name"] for x in r["sides"])
            _say(f"{r['id']:<22} {r['ruleset']:<10} {r['turns']:>5}  {r['title']} ({sides})")
    for p in problems:
        print(plain_text(f"warning: {p}"), file=sys.stderr)
    return EXIT_OK


def _unit_row(scenario, u) -> dict[str, Any]:
    m = scenario.map
    return {"id": u.id, "name": u.name, "side": u.side, "kind": u.kind, "division": u.division,
            "grade": u.grade, "strength": u.strength, "hex": None if u.hex is None else m.label(u.hex),
            "facing": u.facing, "entry_turn": u.entry_turn, "box": u.box or None,
            "entry_hexes": [m.label(h) for h in u.entry_hexes], "stats": u.stats}


def _area_map_data(m) -> dict[str, Any]:
    """An area map as plain data: its spaces (with their neighbours), sea zones and lines."""
    return {"kind": "area",
            "spaces": [{"id": sp.id, "name": sp.name, "terrain": sp.terrain, "fort": sp.fort,
                        "vp": sp.vp, "sea_zones": list(sp.sea_zones), "control": sp.control,
                        "home": sp.home, "neighbors": list(m.neighbors(sp.id))}
                       for sp in sorted(m.spaces, key=lambda sp: sp.id)],
            "seas": [{"id": z.id, "name": z.name, "control": z.control,
                      "contestable": z.contestable, "ports": list(m.ports(z.id))}
                     for z in m.sea_zones],
            "labels": dict(sorted(m.labels.items()))}


def describe_data(scenario) -> dict[str, Any]:
    from hexwar.engine.hexgrid import hexside_hexes
    m = scenario.map
    return {
        "id": scenario.id, "title": scenario.title, "ruleset": scenario.ruleset,
        "turns": scenario.turns, "first_player": scenario.first_player,
        "map": _area_map_data(m) if m.kind == "area" else {"width": m.width, "height": m.height, "orientation": m.orientation,
                "parity": m.parity, "labels": {k: m.label(v) for k, v in sorted(m.labels.items())},
                "hexsides": sorted([*sorted(m.label(h) for h in hexside_hexes(side)), feature]
                                   for side, feats in m.hexside_features.items() for feature in feats),
                "roads": sorted(sorted(m.label(h) for h in hexside_hexes(side)) for side in m.roads)},
        "sides": [{"id": s.id, "name": s.name, "home_edge": s.home_edge} for s in scenario.sides],
        "divisions": [{"id": d.id, "side": d.side, "name": d.name, "rout_threshold": d.rout_threshold}
                      for d in scenario.divisions],
        "units": [_unit_row(scenario, u) for u in scenario.units],
        "victory": scenario.victory, "rules": scenario.rules, "notes": scenario.notes,
    }


def _stat_words(stats: dict[str, Any]) -> str:
    """A unit's printed stats in words (``move 2, heavy``): a flag by its name when it holds and
    not at all when it does not, never ``heavy=True`` or ``dash=False``."""
    said = []
    for k, v in sorted(stats.items()):
        name = k.replace("_", " ")
        if k == "strength" or v is None or v is False or v == "":
            continue
        said.append(name if v is True else f"{name} {v}")
    return ", ".join(said)


def cmd_describe(args: argparse.Namespace) -> int:
    scenario = _load(args.scenario)
    data = describe_data(scenario)
    if args.json:
        _print_json(data)  # json.dumps writes control characters as \u escapes
        return EXIT_OK
    m = data["map"]
    _say(f"{scenario.title} [{scenario.id}] — ruleset {scenario.ruleset}, {scenario.turns} turns")
    if m.get("kind") == "area":
        _say(f"map of {len(m['spaces'])} spaces")
        for sp in m["spaces"]:
            extra = [f"fort {sp['fort']}"] if sp["fort"] else []
            extra += [f"{sp['vp']} VP"] if sp["vp"] is not None else []
            extra += [f"port on {', '.join(sp['sea_zones'])}"] if sp["sea_zones"] else []
            _say(f"  {sp['name']} ({sp['terrain']}{', ' if extra else ''}{', '.join(extra)}), "
                  f"held by {sp['control'] or 'nobody'}; to {', '.join(sp['neighbors']) or '-'}")
        for z in m["seas"]:
            _say(f"  sea {z['name']}: held by {z['control'] or 'nobody'}; ports {', '.join(z['ports'])}")
    else:
        _say(f"map {m['width']}x{m['height']} hexes, {m['orientation']}-top, {m['parity']} offset")
    for name, label in m["labels"].items():
        _say(f"  {label} {name}")
    for side in data["sides"]:
        _say(f"\n{side['name']} ({side['id']}), home edge {side['home_edge'] or '-'}")
        for d in data["divisions"]:
            if d["side"] == side["id"]:
                routs = (f"routs at {d['rout_threshold']}" if d["rout_threshold"] is not None
                         else "no rout number")
                _say(f"  division {d['id']}: {d['name']}, {routs}")
        for u in data["units"]:
            if u["side"] != side["id"]:
                continue
            where = u["hex"] or (f"{u['box']} box" if u["box"] else
                                 f"enters turn {u['entry_turn']} at {','.join(u['entry_hexes'])}")
            stats = _stat_words(u["stats"])
            _say(f"  {u['id']:<18} {u['kind']:<6} {u['name']:<28} str {u['strength']:<2} "
                  f"{u['grade']:<9} at {where}  {stats}")
    if args.map and m.get("kind") == "area":
        _say("\n(the spaces above are the map: an area map is not drawn as hexes)")
    elif args.map:
        from hexwar.textmap import render_map
        _say()
        _say(render_map(scenario))
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    from hexwar.scenarios.loader import ScenarioError, load_scenario
    try:
        s = load_scenario(args.file)
    except ScenarioError as exc:
        for p in exc.problems:
            _say(str(p))
        print(f"{len(exc.problems)} problem(s) found", file=sys.stderr)
        return EXIT_BAD_INPUT
    board = (f"map of {len(s.map.spaces)} spaces" if s.map.kind == "area"
             else f"map {s.map.width}x{s.map.height}")
    _say(f"{args.file}: ok — {s.id} ({s.ruleset}), {len(s.units)} units, {board}")
    return EXIT_OK


def _batch_collector() -> None:
    """A batch command (simulate, replay) makes and drops positions by the thousand. The engine
    leaves no reference cycles among them, so they are freed as soon as dropped, and the garbage
    collector's young-generation passes (every 700 new objects by default) find nothing to
    collect: make them rarer. Affects speed only, never a result. The threshold is designed:
    100,000 objects (a few MB at most): a replay of a whole Poltava game makes one young pass
    after its imports where 10,000 made four, 11 M instructions of a one-shot replay
    (benchmarks/NOTES.md, tenth stop)."""
    import gc
    gc.set_threshold(100_000, 20, 20)


def cmd_new(args: argparse.Namespace) -> int:
    """A generated scenario: Napoleonica's pick-up battle (spec 22.8) from a seed."""
    if args.ruleset != "napoleonica":
        print(f"hexwar: no scenario generator for {args.ruleset!r} (napoleonica has one)", file=sys.stderr)
        return EXIT_BAD_INPUT
    from hexwar.engine.rulesets.napoleonica.pickup import generate
    text = generate(args.seed)
    if not args.out:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        with open(args.out, "x", encoding="utf-8") as f:      # never overwrite a file
            f.write(text)
    except OSError as exc:
        print(f"hexwar: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {args.out}: a Napoleonica pick-up battle, seed {args.seed} (check it with hexwar validate)")
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    from hexwar.match import simulate
    _batch_collector()
    scenario = _load(args.scenario)
    if args.journal and Path(args.journal).exists():
        raise UserError(f"{args.journal}: already exists; choose a new journal file")
    levels = _levels(args.level, [x.id for x in scenario.sides])
    if args.work is not None and args.work < 1:
        raise UserError("--work must be at least 1")
    start = time.perf_counter()
    try:
        result = simulate(scenario, args.seed, args.journal, levels, args.work)
    except OSError as exc:
        raise UserError(f"{args.journal}: cannot write journal: {exc.strerror or exc}") from None
    seconds = time.perf_counter() - start
    data = result.to_dict() | {"seconds": round(seconds, 3)}
    if args.json:
        _print_json(data)
    else:
        who = result.winner or "nobody (draw)"
        print(f"{scenario.title}: winner {who} — {result.reason}")
        print("levels " + ", ".join(f"{k} {v}" for k, v in result.levels.items()))
        print(f"turns {result.turns}, orders {result.orders}, digest {result.digest}, {seconds:.2f}s")
        if args.journal:
            print(f"journal written to {args.journal}")
    return EXIT_OK


def _levels(given: list[str], sides: list[str]) -> dict[str, str]:
    """``--level SIDE=LEVEL`` options as a dict (sides not named play the default level)."""
    from hexwar.engine.levels import LEVELS
    out: dict[str, str] = {}
    for item in given:
        side, _, level = item.partition("=")
        if side not in sides:
            raise UserError(f"--level {item}: no side {side!r} (sides: {', '.join(sides)})")
        if level not in LEVELS:
            raise UserError(f"--level {item}: levels are {', '.join(LEVELS)}")
        out[side] = level
    return out


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay (and with ``--verify`` check) a journal. A damaged journal is read up to its last
    good record: that part is replayed, and the verdict names the first bad record and how to
    recover the good orders. With ``--json`` the verdict is printed on stdout whatever it is."""
    _batch_collector()
    start = time.perf_counter()
    data, report, failure = _replay_verdict(args.file, args.verify)
    data["seconds"] = round(time.perf_counter() - start, 3)
    data["verdict"], data["exit"] = ("ok", EXIT_OK) if failure is None else ("refused", failure[1])
    if args.json:
        _print_json(data)
    elif report is not None and failure is not None:
        print(f"{args.file}: the {report.orders} good orders replayed "
              f"({'every digest verified' if args.verify else 'not verified'}); final digest {data['digest']}")
    elif report is not None:
        status = "verified: every digest and the hash chain match" if args.verify else "replayed"
        print(f"{args.file}: {report.orders} orders {status}")
        if data["over"]:
            print(f"result: winner {data['winner'] or 'nobody (draw)'} — {data['reason']}")
        else:
            print(f"game in progress at turn {report.game.state.turn}")
        print(f"final digest {data['digest']}")
        if report.ruleset_changed:
            print("note: the ruleset's code has changed since this journal was recorded", file=sys.stderr)
    if failure is not None:
        raise UserError(failure[0] + (f"\n{data['recover']}" if data["recover"] else ""), failure[1])
    return EXIT_OK


def _replay_verdict(path: str, verify: bool) -> tuple[dict[str, Any], Any, tuple[str, int] | None]:
    """Read and replay the journal at ``path``: the verdict's fields, the replay of its good
    part (None when nothing replays) and, when refused, the message and exit code."""
    from hexwar.journal import JournalError, read_journal
    from hexwar.match import replay
    from hexwar.scenario_cache import default_dir
    data: dict[str, Any] = {"file": path, "verified": bool(verify), "first_bad_record": None,
                            "problem": None, "orders_good": 0, "recover": None}
    report = contents = None
    try:
        try:
            contents = read_journal(path)
        except JournalError:  # damaged: read again, up to the last good record
            contents = read_journal(path, salvage=True)
        report = replay(path, contents, verify=verify, scenario_cache=default_dir())
    except JournalError as exc:
        # A file whose orders do not replay is a refusal by the game; a broken file is bad input.
        refused = exc.record is not None and ("illegal order" in exc.reason or "digest" in exc.reason)
        record = exc.record
        if record is not None and contents is not None:
            data["orders_good"] = sum(1 for r in contents.records[:max(record - 1, 0)] if r["type"] == "order")
            record = _file_record_number(contents, record)
        data.update(first_bad_record=record, problem=exc.reason)
        where = "" if record is None else f"record {record}: "
        return data, None, (f"journal refused: {path}: {where}{exc.reason}",
                            EXIT_REFUSED if refused else EXIT_BAD_INPUT)
    result = report.result or {}
    data.update(scenario=report.header.get("scenario"), orders=report.orders, orders_good=report.orders,
                digest=report.game.digest(), turn=report.game.state.turn, over=report.result is not None,
                winner=result.get("winner"), reason=result.get("reason"),
                ruleset_changed=report.ruleset_changed)
    failure = _damage_verdict(path, contents, data) if contents.torn else None
    return data, report, failure


def _file_record_number(contents: Any, index: int) -> int:
    """The place in the file (header 0) of the record ``contents.records[index - 1]``, counting
    the copies a salvaging read skipped."""
    number = index
    for skipped in contents.skipped:
        if skipped <= number:
            number += 1
    return number


def _damage_verdict(path: str, contents: Any, data: dict[str, Any]) -> tuple[str, int]:
    """The refusal of a damaged journal whose good part replayed: which record is bad, and how
    ``play --load`` recovers the good orders (it keeps the original as ``.damaged``)."""
    from hexwar.journal import damaged_copy_path
    good = data["orders_good"]
    orders = f"{good} good order{'' if good == 1 else 's'}"
    d = contents.damage
    if d is None:  # only copies of earlier records, every order is there
        record = contents.skipped[0]
        problem = "an identical copy of an earlier record"
        recover = (f"recover: hexwar play --load {path} recovers it, skipping the copy and keeping all {orders} "
                   f"(the file as it is now is kept as {Path(damaged_copy_path(path)).name})")
    else:
        record, problem = d.record, d.reason
        what = {"cut": "the save was cut off while being written; ",
                "zeros": "the save ends in zero bytes, as after a power cut; "}.get(d.kind, "")
        recover = (f"recover: {what}hexwar play --load {path} recovers it, keeping the {orders} "
                   f"before record {record} (the damaged file is kept as "
                   f"{Path(damaged_copy_path(path)).name})")
    data.update(first_bad_record=record, problem=problem, recover=recover)
    return f"journal refused: {path}: record {record}: {problem}", EXIT_BAD_INPUT


# --- parser ------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hexwar",
        description="Historical hex-and-counter wargames in the terminal.",
        epilog="Exit codes: 0 ok, 1 refused by the game (e.g. a journal that does not replay), "
               "2 bad input.")
    p.add_argument("--version", action="version", version=f"hexwar {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("scenarios", help="list the built-in scenarios")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_scenarios)

    s = sub.add_parser("describe", help="show a scenario's map, sides, divisions and every unit")
    s.add_argument("scenario", help="scenario id (see 'hexwar scenarios') or a .toml file")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--map", action="store_true", help="also print the map as text")
    s.set_defaults(func=cmd_describe)

    s = sub.add_parser("validate", help="check a scenario file and print every problem")
    s.add_argument("file", help="path to a scenario .toml file")
    s.set_defaults(func=cmd_validate)

    s = sub.add_parser("new", help="generate a scenario (napoleonica: a pick-up battle, spec 22.8)")
    s.add_argument("ruleset", help="the ruleset whose generator to use: napoleonica")
    s.add_argument("--seed", type=int, required=True, help="the same seed always writes the same scenario")
    s.add_argument("--out", metavar="FILE", help="write to this new file instead of printing")
    s.set_defaults(func=cmd_new)

    s = sub.add_parser("simulate", help="play computer against computer to the end")
    s.add_argument("scenario", help="scenario id or .toml file")
    s.add_argument("--seed", type=int, required=True, help="the same seed always plays the same game")
    s.add_argument("--journal", metavar="FILE", help="record the game to this (new) journal file")
    s.add_argument("--level", action="append", default=[], metavar="SIDE=LEVEL",
                   help="the computer level of SIDE: basic or strong (default strong; repeatable)")
    s.add_argument("--work", type=int, metavar="N", help="the strong level's lookahead budget per "
                   "decision, in work units (orders tried on copies); the default is "
                   "calibrated for a few seconds per Poltava turn")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("replay", help="re-run a journal through the engine")
    s.add_argument("file", help="journal file")
    s.add_argument("--verify", action="store_true", help="check every state digest (the hash chain is always checked)")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_replay, ends_process=True)

    # Network play and the terminal UI add their own commands (host, join, watch, play...).
    from hexwar import cli_net, cli_play
    cli_net.register(p, sub)
    cli_play.register(p, sub)
    return p


#: set by ``main`` when the command it ran holds nothing that must be finished at exit
_ENDS_PROCESS = False


def main(argv: Sequence[str] | None = None) -> int:
    global _ENDS_PROCESS
    _ENDS_PROCESS = False
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_BAD_INPUT
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_OK
    _ENDS_PROCESS = bool(getattr(args, "ends_process", False))
    try:
        return args.func(args)
    except UserError as exc:
        print(f"hexwar: {exc}", file=sys.stderr)
        return exc.code

    except KeyboardInterrupt:
        print("hexwar: interrupted", file=sys.stderr)
        return EXIT_REFUSED
    except BrokenPipeError:
        # The reader went away (e.g. `hexwar describe ... | head`): not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK



def run() -> None:
    """The ``hexwar`` program (the installed script and ``python -m hexwar``): ``main``, then exit.

    After a command that only reads and prints (``replay``), the process ends as soon as its
    output is flushed, without the interpreter's tear-down: freeing every module, the scenario
    and the engine's tables object by object, and a last full garbage collection, a quarter of
    a one-shot ``replay``'s fixed cost. That command has no file open for writing and
    registers no exit handler, so nothing is lost."""
    code = main()
    if _ENDS_PROCESS:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # the reader went away: nothing more can be shown
            pass
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
