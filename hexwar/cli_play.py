"""The terminal UI's commands: ``hexwar`` alone (the main menu), ``hexwar play SCENARIO [--ai SIDE]
[--load FILE]`` and ``hexwar replay-view FILE``. Textual is imported only when one of them runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from hexwar.errors import UserError
from hexwar.plaintext import plain_text
from hexwar.tui.theme_names import THEMES


def ui_options(p: argparse.ArgumentParser) -> None:
    """The options every command that opens the terminal UI takes."""
    p.add_argument("--theme", choices=THEMES, help="colour theme (monochrome when NO_COLOR is set)")
    p.add_argument("--ascii", action="store_true", help="plain ASCII map for terminals without Unicode")


def register(parser: argparse.ArgumentParser, sub: "argparse._SubParsersAction") -> None:
    """Add the UI's subcommands to ``sub``; each sets ``func(args) -> exit code``."""
    ui_options(parser)
    parser.set_defaults(func=cmd_menu)

    s = sub.add_parser("play", help="play a scenario in the terminal (hotseat or against the computer)")
    s.add_argument("scenario", nargs="?", help="scenario id or .toml file (not needed with --load)")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE",
                   help="the computer plays SIDE (repeat for both; 'all' for both)")
    s.add_argument("--level", choices=("basic", "strong"), default="strong",
                   help="how well the computer plays (default strong: it looks ahead)")
    s.add_argument("--load", metavar="FILE", help="resume a saved game (journal file)")
    s.add_argument("--no-save", action="store_true", help="do not write a journal")
    ui_options(s)
    s.set_defaults(func=cmd_play)

    # what ``hexwar serve`` runs on each player's pseudo-terminal (not for typing by hand): made
    # without ``help`` so ``hexwar --help`` does not list it (``help=SUPPRESS`` printed the marker)
    s = sub.add_parser("served-session")
    s.add_argument("--player", required=True)
    ui_options(s)
    s.set_defaults(func=cmd_served_session)

    s = sub.add_parser("replay-view", help="step through a saved game in the terminal")
    s.add_argument("file", help="journal file")
    ui_options(s)
    s.set_defaults(func=cmd_replay_view)


def scenario_named(name: str):
    """The scenario the user named (id or file), or a ``UserError`` listing every problem."""
    from hexwar.scenarios.loader import ScenarioError, load_named
    try:
        return load_named(name)
    except ScenarioError as exc:
        raise UserError("\n".join(exc.problems)) from None


def needs_terminal(without: str) -> None:
    """Refuse at once when there is no terminal: the app would wait forever for keys."""
    import sys
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError(f"the terminal UI needs a terminal (stdin and stdout); {without}")


def _run(error_console=None, **kwargs) -> int:
    needs_terminal("see 'hexwar --help' for the commands that run without one "
                   "(simulate, replay, describe...)")
    from hexwar.tui.app import HexwarApp
    app = HexwarApp(**kwargs)
    if error_console is not None:  # where Textual prints a crash's traceback
        app.error_console = error_console
    code = app.run()
    if app.return_code:  # a crash: Textual's return value is then None, which must not read as 0
        return int(app.return_code)
    if app.farewell:  # set when the last game closed: where it is saved, how to resume
        print(plain_text(app.farewell))  # a file name is outside text too
    return int(code or 0)


def cmd_menu(args: argparse.Namespace) -> int:
    return _run(theme=args.theme, ascii=args.ascii)


def _readable_journal(path: str, problem: str) -> None:
    """Refuse, before the UI starts, a journal of which nothing can be kept (not a journal, or
    its header damaged). Damage after the header is not refused here: the game loads every
    order before it and says which record was damaged (``salvage_journal``)."""
    from hexwar.journal import JournalError, read_journal
    try:
        read_journal(path, salvage=True)
    except JournalError as exc:
        raise UserError(f"{problem}: {exc}") from None


def cmd_play(args: argparse.Namespace) -> int:
    if args.load:
        if not Path(args.load).exists():
            raise UserError(f"{args.load}: no such file")
        _readable_journal(args.load, "cannot load")
        return _run(load=Path(args.load), theme=args.theme, ascii=args.ascii, ai_level=args.level)
    if not args.scenario:
        raise UserError("play needs a SCENARIO (see 'hexwar scenarios') or --load FILE")
    scenario = scenario_named(args.scenario)
    sides = [s.id for s in scenario.sides]
    ai = set(args.ai)
    if "all" in ai or "both" in ai:
        ai = set(sides)
    unknown = ai - set(sides)
    if unknown:
        raise UserError(f"--ai: no side {', '.join(sorted(unknown))} (sides: {', '.join(sides)})")
    players = {s: ("computer" if s in ai else "human") for s in sides}
    return _run(scenario=scenario, players=players, theme=args.theme, ascii=args.ascii,
                save=not args.no_save, ai_level=args.level)


#: set by ``hexwar serve`` (``net/pty_bridge.CRASH_FD_ENV``): where a served UI writes a crash report
CRASH_FD_ENV = "HEXWAR_CRASH_FD"
CRASH_LINE = "hexwar: the game stopped on an internal error (logged on the server); your games are saved"


def cmd_served_session(args: argparse.Namespace) -> int:
    """The main menu for one served player, in their own folder (``HEXWAR_HOME``, set by the
    server), without the entries that would open ports or read files outside it. A crash shows
    the player one line and exits 1; its traceback (server paths, locals) goes to the server's log
    through the crash pipe, never to the player's screen."""
    import io
    import traceback
    from rich.console import Console
    report = io.StringIO()
    try:
        code = _run(theme=args.theme, ascii=args.ascii, served=args.player,
                    error_console=Console(file=report, width=120, color_system=None))
    except UserError:
        raise
    except Exception:
        report.write(traceback.format_exc())
        code = 1
    if code == 0 or not report.getvalue():
        return code
    _report_crash(report.getvalue())
    print(CRASH_LINE, flush=True)
    return code


def _report_crash(text: str) -> None:
    import os
    fd = os.environ.get(CRASH_FD_ENV, "")
    if not fd.isdigit():
        return
    try:
        os.write(int(fd), text.encode("utf-8", "replace")[:60_000])
    except OSError:
        pass


def cmd_replay_view(args: argparse.Namespace) -> int:
    _readable_journal(args.file, "cannot replay")
    return _run(replay=Path(args.file), theme=args.theme, ascii=args.ascii)
