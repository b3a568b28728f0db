"""A card deck between two processes over real SSH: the link helpers, and a scripted peer.

Until the deck is part of a match (next: ``session.py`` carries its messages), this is how the
deck runs over the network on its own: the tests (two peers, a modified peer, a peer killed
with SIGKILL and restarted) and ``benchmarks/cards.py`` use it. ``python -m hexwar.net.card_peer``
runs one side of ``demo_game`` and prints its hand and verdict as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

import asyncssh

from .card_protocol import NetDeck
from .link import Link

SIDES = ("first", "second")


def ssh_keys(home: Path) -> tuple[Path, Path]:
    """A host key and a client key in ``home`` (made once, mode 0600)."""
    home.mkdir(parents=True, exist_ok=True)
    paths = home / "card_host_key", home / "card_client_key"
    for path in paths:
        if not path.exists():
            asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(path))
            os.chmod(path, 0o600)
    return paths


async def listen(home: Path, on_link: Callable[[Link], Awaitable[None]], port: int = 0) -> Any:
    """An SSH server on 127.0.0.1 that admits only ``home``'s client key; each session is a Link."""
    host_key, client_key = ssh_keys(home)
    authorized = asyncssh.import_authorized_keys(asyncssh.read_private_key(str(client_key))
                                                 .export_public_key().decode())

    async def session(process: Any) -> None:
        link = Link(process.stdin, process.stdout, name="card peer")
        await on_link(link)
        while not link.closed:
            await asyncio.sleep(0.05)
        process.exit(0)

    return await asyncssh.listen("127.0.0.1", port, server_host_keys=[str(host_key)],
                                 authorized_client_keys=authorized, process_factory=session,
                                 encoding=None, allow_scp=False)


async def connect(home: Path, port: int) -> tuple[Any, Link]:
    """Connect to ``listen``'s server, checking its host key; the session as a Link."""
    host_key, client_key = ssh_keys(home)
    known = asyncssh.import_known_hosts(
        f"[127.0.0.1]:{port} " + asyncssh.read_private_key(str(host_key)).export_public_key().decode())
    conn = await asyncssh.connect("127.0.0.1", port, known_hosts=known, client_keys=[str(client_key)],
                                  username="cards")
    process = await conn.create_process(encoding=None)
    return conn, Link(process.stdout, process.stdin, name="card host")


async def demo_game(deck: NetDeck, hand_size: int = 5, die_at: Callable[[str], None] | None = None,
                    merge: bool = False, cards: int = 60) -> dict:
    """A small card game both sides run the same way: ``cards`` cards (ids from 0), hands dealt, cards played and
    discarded, the discards reshuffled, more draws, with ``merge`` two new cards shuffled into
    the pile and two more draws, the audit."""
    mark = die_at or (lambda step: None)
    first, second = deck.sides
    await deck.shuffle(list(range(cards)))
    mark("shuffled")
    for _ in range(hand_size):
        for side in (first, second):
            await deck.draw(side)
    mark("dealt")
    for side in (first, second):
        mine = deck.hand(deck.me)
        await deck.play(side, mine[0] if side == deck.me else None)
        mine = deck.hand(deck.me)
        await deck.discard(side, mine[-1] if side == deck.me else None)
    await deck.reshuffle()
    mark("reshuffled")
    for _ in range(2):
        for side in (first, second):
            await deck.draw(side)
    if merge:
        await deck.reshuffle(add=[cards, cards + 1], with_pile=True)
        mark("merged")
        for side in (first, second):
            await deck.draw(side)
    hand = deck.hand(deck.me)
    verdict = await deck.audit()
    return {"hand": hand, "count": {s: deck.count(s) for s in deck.sides},
            "cheater": verdict.cheater, "reason": verdict.reason}


async def _run(args: argparse.Namespace) -> dict:
    home = Path(args.home)
    deck = NetDeck(args.side, SIDES, args.journal)

    def die_at(step: str) -> None:
        if step == args.die_at:
            os.kill(os.getpid(), signal.SIGKILL)

    if args.die_after_records:               # killed right after a record is fsynced, before it is sent
        append, limit = deck.journal.append, len(deck.journal.records) + args.die_after_records

        def append_then_die(record: dict) -> None:
            append(record)
            if len(deck.journal.records) >= limit:
                os.kill(os.getpid(), signal.SIGKILL)
        deck.journal.append = append_then_die  # type: ignore[method-assign]

    if args.port_file:                       # this side listens
        server = await listen(home, deck.attach)
        Path(args.port_file).write_text(str(server.sockets[0].getsockname()[1]))
        result = await demo_game(deck, die_at=die_at, merge=args.merge, cards=args.cards)
        server.close()
    else:
        conn, link = await connect(home, args.port)
        await deck.attach(link)
        result = await demo_game(deck, die_at=die_at, merge=args.merge, cards=args.cards)
        conn.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="one side of a demo card game over SSH")
    parser.add_argument("side", choices=SIDES)
    parser.add_argument("--home", required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", default="", help="listen, and write the port here")
    parser.add_argument("--cards", type=int, default=60, help="cards in the deck (ids 0..N-1)")
    parser.add_argument("--merge", action="store_true", help="shuffle two new cards into the pile late in the game")
    parser.add_argument("--die-at", default="", help="SIGKILL this process at that step (tests)")
    parser.add_argument("--die-after-records", type=int, default=0,
                        help="SIGKILL this process once it has journaled this many more records (tests)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(_run(args))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
