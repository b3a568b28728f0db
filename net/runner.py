"""``hexwar host``, ``hexwar join`` and ``hexwar watch``: network play from the command line.

Without ``--headless`` they open the terminal UI (tui/net_session.py): the asyncssh host or client
runs on the UI's event loop. ``--headless --ai`` lets the computer play this peer's side and
``--json`` prints a summary at the end; ``watch --json`` / ``--text`` watch without the UI. Exit codes follow hexwar.cli:
0 the match was played to its end, 1 refused (auth, host key, handshake, desync, opponent gone),
2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_REFUSED, EXIT_BAD_INPUT = 0, 1, 2


def _cli_error(msg: str, code: int = EXIT_BAD_INPUT) -> Exception:
    from hexwar.cli import CliError
    return CliError(msg, code)


def _address(text: str, default_port: int) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or "]" in port:
        return text.strip("[]"), default_port
    try:
        return host.strip("[]"), int(port)
    except ValueError:
        raise _cli_error(f"{text}: the port must be a number") from None


def _reachable_address() -> str:
    """The address other machines most likely reach us at (no packet is sent)."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def _headless(args: argparse.Namespace) -> bool:
    """True: the computer plays this side without a UI; False: open the terminal UI."""
    if args.headless and not args.ai:
        raise _cli_error("--headless needs --ai (the computer plays this side)")
    if args.ai and not args.headless:
        raise _cli_error("--ai needs --headless; without both, the terminal UI opens and you play")
    return bool(args.headless)


def _ui(kind: str, args: argparse.Namespace) -> int:
    """Open the terminal UI on a network game (its asyncssh host or client runs on the UI's
    event loop, started from the app)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        other = "--json or --text" if kind == "watch" else "--headless --ai to let the computer play this side"
        raise _cli_error(f"the terminal UI needs a terminal (stdin and stdout); without one use {other}")
    if kind == "host" and not getattr(args, "resume", None):  # bad input fails here, before the UI
        if not args.scenario:
            raise _cli_error("name a scenario (see 'hexwar scenarios') or give --resume JOURNAL")
        from hexwar.cli import _load
        args.scenario = _load(args.scenario)
        sides = [s.id for s in args.scenario.sides]
        if args.side is not None and args.side not in sides:
            raise _cli_error(f"--side {args.side}: this scenario's sides are {', '.join(sides)}")
    else:
        _address(args.address if kind != "host" else "x", 2222)
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.net_session import NetStart
    app = HexwarApp(net=NetStart(kind, args), theme=getattr(args, "theme", None),
                    ascii=getattr(args, "ascii", False))
    code = app.run()
    if app.net_error:
        print(f"hexwar: {app.net_error}", file=sys.stderr)
        return EXIT_REFUSED
    return int(code or 0)


def _out(args: argparse.Namespace, summary: dict[str, Any], label: str) -> None:
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True, default=lambda b: b.hex()))
        return
    r = summary.get("result") or {}
    print(f"{label}: {summary.get('status')} — winner {r.get('winner') or 'nobody (draw)'}: {r.get('reason', '')}")
    print(f"orders {summary.get('orders')}, digest {summary.get('digest')}, "
          f"bytes sent {summary.get('bytes_sent')}, received {summary.get('bytes_received')}")
    if summary.get("journal"):
        print(f"journal {summary['journal']}")


def _log_events(session: Any, quiet: bool) -> None:
    def show(ev: Any) -> None:
        if ev.kind in ("status", "refused", "desync", "over", "chat", "draw") or not quiet:
            print(f"[{ev.kind}] {ev.text}", file=sys.stderr, flush=True)
    session.subscribe(show)


def _run(coro: Any) -> int:
    from .errors import HexwarNetError
    from hexwar.net.journal import JournalError
    try:
        return asyncio.run(coro)
    except HexwarNetError as exc:
        raise _cli_error(exc.reason, EXIT_REFUSED) from None
    except JournalError as exc:
        raise _cli_error(f"journal refused: {exc}") from None
    except OSError as exc:
        raise _cli_error(f"{getattr(exc, 'filename', None) or 'network'}: {exc.strerror or exc}") from None


# --- host ----------------------------------------------------------------------------------------

def cmd_host(args: argparse.Namespace) -> int:
    if not _headless(args):
        return _ui("host", args)
    return _run(_host(args))


async def open_host(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any], str]:
    """Create (or resume) the host's match and start listening; returns (session, host,
    invitation, the invitation as text). Shared by the headless runner and the terminal UI."""
    import os
    from .keys import data_dir
    from .netmatch import NetMatch
    from .server import Host
    from .session import Session

    home = data_dir()
    if getattr(args, "resume", None):
        match = NetMatch.resume(args.resume)
        if match.info.get("role") != "host":
            raise _cli_error(f"{args.resume}: this journal is the guest's; resume it with hexwar join --resume")
        side = match.info["side"]
        turn_time = int(match.info.get("turn_time") or 0)
    else:
        if not args.scenario:
            raise _cli_error("name a scenario (see 'hexwar scenarios') or give --resume JOURNAL")
        from hexwar.cli import _load
        scenario = args.scenario if not isinstance(args.scenario, str) else _load(args.scenario)
        sides = [s.id for s in scenario.sides]
        side = args.side or sides[0]
        if side not in sides:
            raise _cli_error(f"--side {side}: this scenario's sides are {', '.join(sides)}")
        match_id = os.urandom(16)
        path = getattr(args, "journal", None) or str(home / "matches" / f"{match_id.hex()}-host.journal")
        if Path(path).exists():
            raise _cli_error(f"{path}: already exists; choose a new journal file")
        other = next(s for s in sides if s != side)
        turn_time = args.turn_time
        match = NetMatch.create(scenario, match_id, path, players={side: "host", other: "guest"},
                                info={"role": "host", "side": side, "turn_time": turn_time})
    session = Session(match, side, role="host", turn_time=turn_time)
    try:
        host = await Host(session, home, code=args.code, watch_code=args.watch_code).start(args.bind, args.port)
    except BaseException:
        session.close()
        raise
    inv = host.invitation()
    inv["journal"] = match.journal_path
    if args.bind in ("0.0.0.0", "::", ""):
        inv["address"] = _reachable_address()
    join = f"hexwar join {inv['address']}:{inv['port']} --fingerprint {inv['fingerprint']}"
    if inv["code"]:
        join += f" --code {inv['code']}"
    inv["join"] = join
    text = (f"hosting {inv['scenario']} as {side}; the guest plays {inv['guest_side']}\n"
            f"  address      {inv['address']}\n  port         {inv['port']}\n"
            f"  host key     {inv['fingerprint']}\n  invite code  {inv['code'] or '(seat already taken; the guest rejoins by key)'}\n"
            f"  watch code   {inv['watch_code']}\n  guest runs   {join}")
    return session, host, inv, text


async def _host(args: argparse.Namespace) -> int:
    from . import headless
    session, host, inv, text = await open_host(args)
    _log_events(session, quiet=True)
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)
    if args.invite_file:
        inv = {k: v for k, v in inv.items() if k != "join"}
        Path(args.invite_file).write_text(json.dumps(inv, sort_keys=True))
    try:
        played = await headless.play(session, args.seed, give_up=args.give_up, order_delay=args.pace)
        await asyncio.sleep(0.2)  # let the last messages reach spectators
        summary = session.summary() | {"seconds": played["seconds"]}
    finally:
        session.close()
        await host.close()
    _out(args, summary, "host")
    return EXIT_OK if summary["status"] == "finished" else EXIT_REFUSED


# --- join ----------------------------------------------------------------------------------------

def cmd_join(args: argparse.Namespace) -> int:
    if not _headless(args):
        return _ui("join", args)
    return _run(_join(args))


async def _join(args: argparse.Namespace) -> int:
    from . import headless
    from .client import Guest
    from .keys import data_dir
    host, port = _address(args.address, 2222)
    guest = Guest(host, port, home=data_dir(), code=args.code, fingerprint=args.fingerprint,
                  journal=args.journal, resume=args.resume)
    runner = asyncio.ensure_future(guest.run(give_up=args.give_up))
    waiter = asyncio.ensure_future(guest.connected.wait())
    done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if runner in done:
        waiter.cancel()
        runner.result()  # raises the refusal
    session = guest.session
    assert session is not None
    _log_events(session, quiet=True)
    try:
        player = asyncio.ensure_future(headless.play(session, args.seed, give_up=args.give_up,
                                                     order_delay=args.pace))
        await runner
        result = await player
    finally:
        session.close()
    summary = session.summary() | {"seconds": result.get("seconds")}
    _out(args, summary, "guest")
    return EXIT_OK if summary["status"] == "finished" else EXIT_REFUSED


# --- watch ---------------------------------------------------------------------------------------

def cmd_watch(args: argparse.Namespace) -> int:
    if not args.json and not args.text:
        return _ui("watch", args)
    return _run(_watch(args))


async def _watch(args: argparse.Namespace) -> int:
    from .client import Watcher
    from .keys import data_dir
    host, port = _address(args.address, 2222)
    watcher = Watcher(host, port, home=data_dir(), code=args.code, fingerprint=args.fingerprint)
    quiet = args.json

    def show(ev: Any) -> None:
        if not quiet:
            print(ev.text, flush=True)
    summary = await watcher.run(show)
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        r = summary["result"] or {}
        print(f"watched {summary['orders']} orders; winner {r.get('winner') or 'nobody'}: {r.get('reason', '')}")
    return EXIT_OK if summary["result"] is not None and not summary["problems"] else EXIT_REFUSED


# --- parser --------------------------------------------------------------------------------------

def _common(s: argparse.ArgumentParser) -> None:
    s.add_argument("--headless", action="store_true", help="no terminal UI")
    s.add_argument("--ai", action="store_true", help="the computer plays this side")
    s.add_argument("--seed", type=int, default=0, help="the computer player's seed")
    s.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    s.add_argument("--journal", metavar="FILE", help="record the match here (default: in the data dir)")
    s.add_argument("--resume", metavar="JOURNAL", help="continue the match recorded in JOURNAL")
    s.add_argument("--give-up", type=float, default=300.0, metavar="SECONDS",
                   help="stop waiting for a disconnected opponent after this long (default 300)")
    s.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long before each computer order (to watch, or to test crashes)")
    s.add_argument("-v", "--verbose", action="store_true", help="log protocol details to stderr")
    _ui_options(s)


def _ui_options(s: argparse.ArgumentParser) -> None:
    from hexwar.tui.themes import THEMES
    s.add_argument("--theme", choices=THEMES, help="colour theme of the terminal UI")
    s.add_argument("--ascii", action="store_true", help="plain ASCII map in the terminal UI")


def register(parser: argparse.ArgumentParser, sub: "argparse._SubParsersAction") -> None:
    """Add this package's subcommands to ``sub``; each sets ``func(args) -> exit code``."""
    s = sub.add_parser("host", help="host a network match over SSH and print what the guest needs")
    s.add_argument("scenario", nargs="?", help="scenario id or .toml file (not with --resume)")
    s.add_argument("--port", type=int, default=2222, help="TCP port (0: any free port; default 2222)")
    s.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    s.add_argument("--side", help="the side the host plays (default: the scenario's first)")
    s.add_argument("--code", help="use this invite code instead of a random one")
    s.add_argument("--watch-code", help="use this spectator code instead of a random one")
    s.add_argument("--turn-time", type=int, default=0, metavar="SECONDS",
                   help="time allowed for each order; running out loses the match (0: no limit)")
    s.add_argument("--invite-file", metavar="FILE", help="also write the invitation as JSON here")
    _common(s)
    s.set_defaults(func=_logged(cmd_host))

    s = sub.add_parser("join", help="join a network match hosted with 'hexwar host'")
    s.add_argument("address", metavar="HOST[:PORT]", help="the host's address (default port 2222)")
    s.add_argument("--code", help="the invite code the host printed (not needed once joined)")
    s.add_argument("--fingerprint", help="the host key fingerprint the host printed (SHA256:...)")
    _common(s)
    s.set_defaults(func=_logged(cmd_join))

    s = sub.add_parser("watch", help="watch a network match as a spectator (read-only)")
    s.add_argument("address", metavar="HOST[:PORT]")
    s.add_argument("--code", help="the watch code the host printed")
    s.add_argument("--fingerprint", help="the host key fingerprint (SHA256:...)")
    s.add_argument("--json", action="store_true", help="no UI: print a JSON summary at the end")
    s.add_argument("--text", action="store_true", help="no UI: print the orders as lines of text")
    _ui_options(s)
    s.add_argument("-v", "--verbose", action="store_true")
    s.set_defaults(func=_logged(cmd_watch))


def _logged(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR,
                            format="hexwar: %(message)s", stream=sys.stderr)
        logging.getLogger("asyncssh").setLevel(logging.WARNING if args.verbose else logging.CRITICAL)
        # new host keys remembered and refused peer messages are always shown
        logging.getLogger("hexwar.net").setLevel(logging.INFO if args.verbose else logging.WARNING)
        return func(args)
    return run
