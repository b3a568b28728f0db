"""Run a network host, guest or spectator without the terminal UI, from command-line options.

``open_host`` creates (or resumes) the host's match and starts listening; the headless runners and
the terminal UI both use it. ``--headless --ai`` lets the computer play this peer's side and
``--json`` prints a summary at the end; ``watch --json`` / ``--text`` watch without the UI. Problems
are raised as ``UserError`` with the exit code they mean: 1 refused (auth, host key, handshake,
desync, opponent gone), 2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

from hexwar.errors import EXIT_OK, EXIT_REFUSED, UserError
from hexwar.scenarios.loader import load_named


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``[V6]:PORT`` as (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or "]" in port:
        return text.strip("[]"), default_port
    try:
        return host.strip("[]"), int(port)
    except ValueError:
        raise UserError(f"{text}: the port must be a number") from None


def reachable_address() -> str:
    """The address other machines most likely reach us at (no packet is sent)."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


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
    from hexwar.journal import JournalError
    from hexwar.scenarios.loader import ScenarioError

    from .errors import HexwarNetError
    try:
        return asyncio.run(coro)
    except HexwarNetError as exc:
        raise UserError(exc.reason, EXIT_REFUSED) from None
    except ScenarioError as exc:
        raise UserError("\n".join(exc.problems)) from None
    except JournalError as exc:
        raise UserError(f"journal refused: {exc}") from None
    except OSError as exc:
        raise UserError(f"{getattr(exc, 'filename', None) or 'network'}: {exc.strerror or exc}") from None


# --- host ----------------------------------------------------------------------------------------

class MatchFinished(UserError):
    """``--resume`` of a match both sides already finished: say the result and stop at once."""

    def __init__(self, journal: str, result: dict[str, Any] | None) -> None:
        super().__init__(f"{journal}: the match is over, nothing is left to play ({_result_line(result)})",
                         EXIT_OK)
        self.result = result


def _result_line(result: dict[str, Any] | None) -> str:
    r = result or {}
    return f"winner {r.get('winner') or 'nobody (draw)'}: {r.get('reason', '')}"


def limits_from(args: argparse.Namespace) -> Any:
    """The host's limits, with the command line's overrides."""
    from .limits import Limits
    limits = Limits()
    for name in ("max_connections", "max_spectators"):
        value = getattr(args, name, None)
        if value is not None:
            if value < 1:
                raise UserError(f"--{name.replace('_', '-')} must be at least 1")
            setattr(limits, name, value)
    return limits


def admitted_key(text: str) -> str:
    """``--admit``: an OpenSSH public key line, or a file holding one (e.g. a friend's
    ``guest_key.pub``); the key may take this match's free guest seat and watch it."""
    from .keys import import_public, public_line
    line = text
    if not text.startswith(("ssh-", "ecdsa-", "sk-")):
        try:
            line = Path(text).read_text().strip()
        except OSError as exc:
            raise UserError(f"--admit {text}: not a public key line and not a readable file ({exc.strerror})") from None
    key = import_public(line)
    if key is None:
        raise UserError(f"--admit {text[:60]}: not an OpenSSH public key")
    return public_line(key)


def run_host(args: argparse.Namespace) -> int:
    """Host headless: the computer plays the host's side to the end of the match."""
    return _run(_host(args))


async def open_host(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any], str]:
    """Create (or resume) the host's match and start listening; returns (session, host,
    invitation, the invitation as text). Shared by the headless runner and the terminal UI."""
    import os
    from .keys import WeakCode, data_dir, secure_dir
    from .netmatch import NetMatch
    from .server import Host
    from .session import Session

    home = secure_dir(data_dir())
    limits = limits_from(args)
    admit = [admitted_key(a) for a in getattr(args, "admit", None) or []]
    if getattr(args, "resume", None):
        match = NetMatch.resume(args.resume)
        if match.info.get("role") != "host":
            match.close()
            raise UserError(f"{args.resume}: this journal is the guest's; resume it with hexwar join --resume")
        if match.finished:
            match.close()
            raise MatchFinished(args.resume, match.result)
        side = match.info["side"]
        turn_time = int(match.info.get("turn_time") or 0)
    else:
        if not args.scenario:
            raise UserError("name a scenario (see 'hexwar scenarios') or give --resume JOURNAL")
        scenario = args.scenario if not isinstance(args.scenario, str) else load_named(args.scenario)
        sides = [s.id for s in scenario.sides]
        side = args.side or sides[0]
        if side not in sides:
            raise UserError(f"--side {side}: this scenario's sides are {', '.join(sides)}")
        match_id = os.urandom(16)
        path = getattr(args, "journal", None) or str(home / "matches" / f"{match_id.hex()}-host.journal")
        if Path(path).exists():
            raise UserError(f"{path}: already exists; choose a new journal file")
        other = next(s for s in sides if s != side)
        turn_time = args.turn_time
        if turn_time < 0 or 0 < turn_time < limits.clock_allowance:
            raise UserError(f"--turn-time {turn_time}: give at least {limits.clock_allowance:g} seconds (a "
                            f"time-forfeit claim is granted that much for link delay), or 0 for no limit")
        match = NetMatch.create(scenario, match_id, path, players={side: "host", other: "guest"},
                                info={"role": "host", "side": side, "turn_time": turn_time})
    session = Session(match, side, role="host", turn_time=turn_time, limits=limits)
    try:
        host = await Host(session, home, code=args.code, watch_code=args.watch_code, admit=admit,
                          limits=limits).start(args.bind, args.port)
    except WeakCode as exc:
        session.close()
        raise UserError(str(exc)) from None
    except BaseException:
        session.close()
        raise
    inv = host.invitation()
    inv["journal"] = match.journal_path
    if args.bind in ("0.0.0.0", "::", ""):
        inv["address"] = reachable_address()
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
    if session.over:
        print(f"the match is over ({_result_line(session.match.result)}); waiting for the guest to "
              f"hear it", file=sys.stderr, flush=True)
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)
    if args.invite_file:
        from .keys import open_private
        inv = {k: v for k, v in inv.items() if k != "join"}
        with open_private(args.invite_file) as f:  # it holds both codes
            f.write(json.dumps(inv, sort_keys=True))
    try:
        played = await headless.play(session, args.seed, level=getattr(args, "level", "strong"),
                                      give_up=args.give_up, order_delay=args.pace)
        await asyncio.sleep(0.2)  # let the last messages reach spectators
        summary = session.summary() | {"seconds": played["seconds"]}
    finally:
        session.close()
        await host.close()
    _out(args, summary, "host")
    return EXIT_OK if summary["status"] == "finished" else EXIT_REFUSED


# --- join ----------------------------------------------------------------------------------------

def run_join(args: argparse.Namespace) -> int:
    """Join headless: the computer plays the guest's side to the end of the match."""
    return _run(_join(args))


async def _join(args: argparse.Namespace) -> int:
    from . import headless
    from .client import Guest
    from .keys import data_dir
    host, port = parse_address(args.address, 2222)
    if args.resume:
        from .netmatch import NetMatch
        done = NetMatch.resume(args.resume)
        done.close()
        if done.finished:
            raise MatchFinished(args.resume, done.result)
    guest = Guest(host, port, home=data_dir(), code=args.code, fingerprint=args.fingerprint,
                  server=getattr(args, "server", False),
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
        player = asyncio.ensure_future(headless.play(session, args.seed,
                                                     level=getattr(args, "level", "strong"),
                                                     give_up=args.give_up, order_delay=args.pace))
        await runner
        result = await player
    finally:
        session.close()
    summary = session.summary() | {"seconds": result.get("seconds")}
    _out(args, summary, "guest")
    return EXIT_OK if summary["status"] == "finished" else EXIT_REFUSED


# --- watch ---------------------------------------------------------------------------------------

def run_watch(args: argparse.Namespace) -> int:
    """Watch without the UI, printing the orders (``--text``) or a summary (``--json``)."""
    return _run(_watch(args))


async def _watch(args: argparse.Namespace) -> int:
    from .client import Watcher
    from .keys import data_dir
    host, port = parse_address(args.address, 2222)
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


def logged(func: Any) -> Any:
    """Wrap a command so it logs at the level ``--verbose`` asks for."""
    def run(args: argparse.Namespace) -> int:
        logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR,
                            format="hexwar: %(message)s", stream=sys.stderr)
        logging.getLogger("asyncssh").setLevel(logging.WARNING if args.verbose else logging.CRITICAL)
        # new host keys remembered and refused peer messages are always shown
        logging.getLogger("hexwar.net").setLevel(logging.INFO if args.verbose else logging.WARNING)
        return func(args)
    return run
