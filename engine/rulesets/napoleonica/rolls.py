"""The d20 rolls of Napoleonica: "best of N" (3.0) and the roll-off (6), each one an event."""

from __future__ import annotations

from typing import Any

from hexwar.engine.ruleset import Resolution


def best_of(ctx: Resolution, n: int, why: str, *, low: bool, **info: Any) -> int:
    """Roll ``n`` d20 and keep the best: the lowest for tests rolled under a score, the highest
    for contests (spec 3.0). Every die is a ``die-roll`` event; the kept one is a ``best-of``."""
    dice = [ctx.roll(why, 20, **info) for _ in range(max(1, n))]
    kept = min(dice) if low else max(dice)
    ctx.emit("best-of", why=why, dice=dice, kept=kept, keep="lowest" if low else "highest", **info)
    return kept


def test(ctx: Resolution, n: int, score: int, why: str, **info: Any) -> bool:
    """A test against a score: best (lowest) of ``n`` d20 <= score passes (3.0)."""
    kept = best_of(ctx, n, why, low=True, need=score, **info)
    ok = kept <= score
    ctx.emit("test", why=why, need=score, kept=kept, passed=ok, **info)
    return ok


def roll_off(ctx: Resolution, phase: str) -> str:
    """Before a phase both players roll a d20, ties re-rolled (6, G-37); the higher acts first."""
    a, b = ctx.state.side_order
    first, ra, rb = ctx.roll_off(f"roll-off {phase}", a, b, 20)
    ctx.emit("roll-off", phase=phase, first=first, rolls={a: ra, b: rb})
    return first


def chance_at_most(n: int, score: int) -> tuple[int, int]:
    """Exact chance that the lowest of ``n`` d20 is <= score, as (numerator, denominator)."""
    score = max(0, min(20, score))
    miss = (20 - score) ** n
    total = 20 ** n
    return total - miss, total
