"""Command-line subcommands contributed by this package (wired in by hexwar.cli).

``hexwar`` alone opens the main menu; ``hexwar play SCENARIO [--ai SIDE] [--load FILE]`` starts
a game directly; ``hexwar replay-view FILE`` opens the replay viewer.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .themes import THEMES


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--theme", choices=THEMES, help="colour theme (monochrome when NO_COLOR is set)")
    p.add_argument("--ascii", action="store_true", help="plain ASCII map for terminals without Unicode")


def register(parser: argparse.ArgumentParser, sub: "argparse._SubParsersAction") -> None:
    """Add this package's subcommands to ``sub``; each sets ``func(args) -> exit code``."""
    _common(parser)
    parser.set_defaults(func=cmd_menu)

    s = sub.add_parser("play", help="play a scenario in the terminal (hotseat or against the computer)")
    s.add_argument("scenario", nargs="?", help="scenario id or .toml file (not needed with --load)")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE",
                   help="the computer plays SIDE (repeat for both; 'all' for both)")
    s.add_argument("--load", metavar="FILE", help="resume a saved game (journal file)")
    s.add_argument("--no-save", action="store_true", help="do not write a journal")
    _common(s)
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay-view", help="step through a saved game in the terminal")
    s.add_argument("file", help="journal file")
    _common(s)
    s.set_defaults(func=cmd_replay_view)


def _run(**kwargs) -> int:
    import sys

    from hexwar.cli import CliError
    from .app import HexwarApp
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Without a terminal the app would wait forever for keys nobody can press.
        raise CliError("the terminal UI needs a terminal (stdin and stdout); see 'hexwar --help' "
                       "for the commands that run without one (simulate, replay, describe...)")
    app = HexwarApp(**kwargs)
    code = app.run()
    return int(code or 0)


def cmd_menu(args: argparse.Namespace) -> int:
    return _run(theme=args.theme, ascii=args.ascii)


def cmd_play(args: argparse.Namespace) -> int:
    from hexwar.cli import CliError
    if args.load:
        if not Path(args.load).exists():
            raise CliError(f"{args.load}: no such file")
        from hexwar.net.journal import JournalError, read_journal
        try:
            read_journal(args.load)
        except JournalError as exc:
            raise CliError(f"cannot load: {exc}") from None
        return _run(load=Path(args.load), theme=args.theme, ascii=args.ascii)
    if not args.scenario:
        raise CliError("play needs a SCENARIO (see 'hexwar scenarios') or --load FILE")
    from hexwar.scenarios.loader import ScenarioError, find_scenario, load_scenario
    try:
        scenario = load_scenario(find_scenario(args.scenario))
    except ScenarioError as exc:
        raise CliError("\n".join(exc.problems)) from None
    sides = [s.id for s in scenario.sides]
    ai = set(args.ai)
    if "all" in ai or "both" in ai:
        ai = set(sides)
    unknown = ai - set(sides)
    if unknown:
        raise CliError(f"--ai: no side {', '.join(sorted(unknown))} (sides: {', '.join(sides)})")
    players = {s: ("computer" if s in ai else "human") for s in sides}
    return _run(scenario=scenario, players=players, theme=args.theme, ascii=args.ascii,
                save=not args.no_save)


def cmd_replay_view(args: argparse.Namespace) -> int:
    from hexwar.cli import CliError
    from hexwar.net.journal import JournalError, read_journal
    try:
        read_journal(args.file)
    except JournalError as exc:
        raise CliError(f"cannot replay: {exc}") from None
    return _run(replay=Path(args.file), theme=args.theme, ascii=args.ascii)
