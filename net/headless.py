"""Headless play: the computer plays one side of a networked match (no UI).

Used by ``hexwar host/join --headless --ai``, the tests and the benchmarks. The loop only ever
calls the session's public API, the same one a terminal UI uses.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from hexwar.engine import secret
from hexwar.engine.levels import DEFAULT_LEVEL, computer_for

from . import secret_plans as sp
from .errors import Desync, NotYourTurn, PeerGone
from .session import Session


async def play(session: Session, seed: int | str = 0, *, level: str = DEFAULT_LEVEL,
               give_up: float = 120.0, order_delay: float = 0.0) -> dict[str, Any]:
    """Play ``session``'s side with the computer of ``level`` until the match is finished (or the
    opponent stays away longer than ``give_up`` seconds). Returns the session summary plus timings.
    The computer thinks in a worker thread, on a copy of the game, so the link (pings, the peer's
    messages) is served while it looks ahead."""
    computer = computer_for(level, f"{seed}:{session.side}")
    loop = asyncio.get_running_loop()
    start = time.perf_counter()
    away_since: float | None = None
    while not session.stopped:
        await session.wait_until(lambda: session.stopped or session.can_act, timeout=1.0)
        if session.stopped:
            break
        if not session.connected:
            away_since = away_since or loop.time()
            if loop.time() - away_since > give_up:
                break
            continue
        away_since = None
        if not session.can_act:
            continue
        try:
            if await _secret_step(session):
                continue
            order = await asyncio.to_thread(computer.choose, session.game.copy())
            if order_delay:
                await asyncio.sleep(order_delay)
            await session.submit(order)
        except (PeerGone, NotYourTurn):
            continue
        except Desync:
            break
    summary = session.summary()
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return summary


async def _secret_step(session: Session) -> bool:
    """In a round of secret plans, seal the computer's plan (made from the shared state and a
    secret drawn from the operating system, which the salt commits to) or open the one sealed
    before; True if this was such a step."""
    game = session.game
    rnd = game.ruleset.secret_round(game)
    if rnd is None or secret.next_side(rnd) != session.side:
        return False
    if secret.stage(rnd) == "commit":
        mine = sp.new_secret()
        plan = await asyncio.to_thread(game.ruleset.ai_plan, game.copy(), session.side, mine)
        await session.commit_plan(plan, mine)
    else:
        await session.reveal_plan()
    return True
