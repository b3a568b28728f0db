"""The network commands ``hexwar host``, ``hexwar join`` and ``hexwar watch``.

Without ``--headless`` (or, for ``watch``, without ``--json``/``--text``) they open the terminal UI
on the network game; otherwise the runners of ``hexwar.net.runner`` play or watch without one.
Exit codes: 0 the match was played to its end, 1 refused (auth, host key, handshake, desync,
opponent gone), 2 bad input.
"""

from __future__ import annotations

import argparse
import sys

from hexwar.errors import EXIT_REFUSED, UserError

from .cli_play import needs_terminal, scenario_named, ui_options


def _headless(args: argparse.Namespace) -> bool:
    """True: the computer plays this side without a UI; False: open the terminal UI."""
    if args.headless and not args.ai:
        raise UserError("--headless needs --ai (the computer plays this side)")
    if args.ai and not args.headless:
        raise UserError("--ai needs --headless; without both, the terminal UI opens and you play")
    return bool(args.headless)


def _ui(kind: str, args: argparse.Namespace) -> int:
    """Open the terminal UI on a network game (its asyncssh host or client runs on the UI's
    event loop, started from the app)."""
    from hexwar.net.runner import parse_address
    other = "use --json or --text" if kind == "watch" else \
        "use --headless --ai to let the computer play this side"
    needs_terminal(f"without one {other}")
    if kind == "host" and not getattr(args, "resume", None):  # bad input fails here, before the UI
        if not args.scenario:
            raise UserError("name a scenario (see 'hexwar scenarios') or give --resume JOURNAL")
        args.scenario = scenario_named(args.scenario)
        sides = [s.id for s in args.scenario.sides]
        if args.side is not None and args.side not in sides:
            raise UserError(f"--side {args.side}: this scenario's sides are {', '.join(sides)}")
    elif kind != "host":
        parse_address(args.address, 2222)
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.net_session import NetStart
    app = HexwarApp(net=NetStart(kind, args), theme=getattr(args, "theme", None),
                    ascii=getattr(args, "ascii", False))
    code = app.run()
    if app.return_code:  # the UI crashed (Textual has shown why): never exit 0
        return int(app.return_code)
    if app.net_error:
        print(f"hexwar: {app.net_error}", file=sys.stderr)
        return EXIT_REFUSED
    return int(code or 0)


def cmd_host(args: argparse.Namespace) -> int:
    if not _headless(args):
        return _ui("host", args)
    from hexwar.net.runner import run_host
    return run_host(args)


def cmd_join(args: argparse.Namespace) -> int:
    if not _headless(args):
        return _ui("join", args)
    from hexwar.net.runner import run_join
    return run_join(args)


def cmd_watch(args: argparse.Namespace) -> int:
    if not args.json and not args.text:
        return _ui("watch", args)
    from hexwar.net.runner import run_watch
    return run_watch(args)


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from hexwar.net.limits import Limits as NetLimits
    from hexwar.net.serve import Limits, serve_forever
    from hexwar.paths import data_dir
    for flag, value in (("--max-connections", args.max_connections), ("--per-address", args.per_address),
                        ("--max-sessions", args.max_sessions), ("--max-matches", args.max_matches)):
        if value < 1:
            raise UserError(f"{flag} must be at least 1")
    allowance = NetLimits().clock_allowance
    if args.turn_time < 0 or 0 < args.turn_time < allowance:
        raise UserError(f"--turn-time {args.turn_time}: give at least {allowance:g} seconds (the clock grants "
                        f"that much for link delay), or 0 for no limit")
    if args.new_accounts_per_hour < 0 or args.open_seat_days <= 0:
        raise UserError("--new-accounts-per-hour must be 0 or more and --open-seat-days more than 0")
    limits = Limits(sessions=args.max_sessions, per_address=args.per_address, connections=args.max_connections,
                    idle_seconds=args.idle_minutes * 60.0, turn_seconds=args.turn_time,
                    matches=args.max_matches, new_accounts_per_hour=args.new_accounts_per_hour,
                    open_seat_days=args.open_seat_days)
    home = data_dir() / "serve"
    try:
        asyncio.run(serve_forever(home, args.bind, args.port, limits))
    except OSError as exc:
        raise UserError(f"cannot serve on {args.bind or '*'}:{args.port}: {exc.strerror or exc}") from None
    return 0


def _logged(command):
    """Set up logging as ``--verbose`` asks, then run ``command`` (imported only when it runs)."""
    def run(args: argparse.Namespace) -> int:
        from hexwar.net.limits import bound_net_log
        from hexwar.net.runner import logged
        bound_net_log()  # warnings about peers: bounded over time, however often they reconnect
        return logged(command)(args)
    return run


def _common(s: argparse.ArgumentParser) -> None:
    s.add_argument("--headless", action="store_true", help="no terminal UI")
    s.add_argument("--ai", action="store_true", help="the computer plays this side")
    s.add_argument("--seed", type=int, default=0, help="the computer player's seed")
    s.add_argument("--level", choices=("basic", "strong"), default="strong",
                   help="how well the computer plays with --ai (default strong: it looks ahead)")
    s.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    s.add_argument("--journal", metavar="FILE", help="record the match here (default: in the data dir)")
    s.add_argument("--resume", metavar="JOURNAL", help="continue the match recorded in JOURNAL")
    s.add_argument("--give-up", type=float, default=300.0, metavar="SECONDS",
                   help="stop waiting for a disconnected opponent after this long (default 300)")
    s.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long before each computer order (to watch, or to test crashes)")
    s.add_argument("-v", "--verbose", action="store_true", help="log protocol details to stderr")
    ui_options(s)


def register(parser: argparse.ArgumentParser, sub: "argparse._SubParsersAction") -> None:
    """Add host, join and watch to ``sub``; each sets ``func(args) -> exit code``."""
    s = sub.add_parser("host", help="host a network match over SSH and print what the guest needs")
    s.add_argument("scenario", nargs="?", help="scenario id or .toml file (not with --resume)")
    s.add_argument("--port", type=int, default=2222, help="TCP port (0: any free port; default 2222)")
    s.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    s.add_argument("--side", help="the side the host plays (default: the scenario's first)")
    s.add_argument("--code", help="use this invite code instead of a random one (at least 10 letters "
                                  "or digits, 6 different; case and dashes do not matter)")
    s.add_argument("--watch-code", help="use this spectator code instead of a random one (as strong)")
    s.add_argument("--turn-time", type=int, default=0, metavar="SECONDS",
                   help="time allowed for each order; running out loses the match (0: no limit)")
    s.add_argument("--invite-file", metavar="FILE", help="also write the invitation as JSON here (mode 0600)")
    s.add_argument("--admit", action="append", metavar="KEY",
                   help="let this public key (a line, or a .pub file) take the guest seat or watch, "
                        "for this match only; repeatable")
    s.add_argument("--max-connections", type=int, metavar="N",
                   help="SSH connections open at once (default 16)")
    s.add_argument("--max-spectators", type=int, metavar="N", help="spectators at once (default 8)")
    _common(s)
    s.set_defaults(func=_logged(cmd_host))

    s = sub.add_parser("join", help="join a network match hosted with 'hexwar host'")
    s.add_argument("address", metavar="HOST[:PORT]", help="the host's address (default port 2222)")
    s.add_argument("--code", help="the invite code the host printed (not needed once joined)")
    s.add_argument("--fingerprint", help="the host key fingerprint the host printed (SHA256:...)")
    s.add_argument("--server", action="store_true",
                   help="the host is a 'hexwar serve' server: it referees the match and vouches for "
                        "the opponent's dice")
    _common(s)
    s.set_defaults(func=_logged(cmd_join))

    s = sub.add_parser("serve", help="serve hexwar over SSH: players need nothing but 'ssh -p PORT name@host'")
    s.add_argument("--port", type=int, default=2222, help="TCP port (default 2222)")
    s.add_argument("--bind", default="", help="address to listen on (default: all)")
    s.add_argument("--max-sessions", type=int, default=64, metavar="N",
                   help="players connected at once (default 64)")
    s.add_argument("--per-address", type=int, default=4, metavar="N",
                   help="connections from one address at once (default 4)")
    s.add_argument("--max-connections", type=int, default=256, metavar="N",
                   help="SSH connections at once, logged in or not (default 256)")
    s.add_argument("--max-matches", type=int, default=1000, metavar="N",
                   help="matches between people being played at once (default 1000; finished ones never count)")
    s.add_argument("--new-accounts-per-hour", type=float, default=180.0, metavar="N",
                   help="new players the whole server accepts an hour, after a first 30 (default 180)")
    s.add_argument("--open-seat-days", type=float, default=7.0, metavar="D",
                   help="close a match whose open seat nobody took within D days (default 7)")
    s.add_argument("--idle-minutes", type=float, default=30.0, metavar="M",
                   help="close a session after this long without a key pressed (default 30)")
    s.add_argument("--turn-time", type=int, default=0, metavar="SECONDS",
                   help="a side that takes longer over one decision loses, by the server's clock "
                        "(new matches between people; default 0: no limit)")
    s.add_argument("-v", "--verbose", action="store_true", help="log every login to stderr")
    s.set_defaults(func=_logged(cmd_serve))

    s = sub.add_parser("watch", help="watch a network match as a spectator (read-only)")
    s.add_argument("address", metavar="HOST[:PORT]")
    s.add_argument("--code", help="the watch code the host printed")
    s.add_argument("--fingerprint", help="the host key fingerprint (SHA256:...)")
    s.add_argument("--json", action="store_true", help="no UI: print a JSON summary at the end")
    s.add_argument("--text", action="store_true", help="no UI: print the orders as lines of text")
    ui_options(s)
    s.add_argument("-v", "--verbose", action="store_true")
    s.set_defaults(func=_logged(cmd_watch))
