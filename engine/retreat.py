"""Retreat and follow-up helpers shared by rulesets.

Retreat rules differ (straight back one hex, N hexes away from the enemy, by priorities), but
they share a shape: enumerate the paths a beaten unit may take, rank them by the ruleset's
priorities, and offer the best ones to the owning player as a decision. The winner may then
follow up into hexes the loser vacated.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .hexgrid import Hex, hex_distance

StepOk = Callable[[Hex, Hex, tuple[Hex, ...]], bool]


def retreat_paths(
    start: Hex,
    steps: int,
    neighbors: Callable[[Hex], Iterable[Hex]],
    step_ok: StepOk,
) -> list[tuple[Hex, ...]]:
    """Every path of exactly ``steps`` hexes from ``start`` that never revisits a hex and whose
    every step ``step_ok(from, to, path_so_far)`` allows. Paths come in a fixed order."""
    out: list[tuple[Hex, ...]] = []

    def walk(here: Hex, path: tuple[Hex, ...]) -> None:
        if len(path) == steps:
            out.append(path)
            return
        for nxt in neighbors(here):
            nxt = Hex(*nxt)
            if nxt == start or nxt in path or not step_ok(here, nxt, path):
                continue
            walk(nxt, path + (nxt,))

    if steps > 0:
        walk(Hex(*start), ())
    return out


def away_from(threats: Iterable[tuple[int, int]]) -> StepOk:
    """A step rule: every step must end farther from the nearest threat than it started."""
    threats = [Hex(*t) for t in threats]

    def ok(a: Hex, b: Hex, path: tuple[Hex, ...]) -> bool:
        if not threats:
            return True
        return min(hex_distance(b, t) for t in threats) > min(hex_distance(a, t) for t in threats)

    return ok


def best_paths(paths: list[tuple[Hex, ...]], rank: Callable[[tuple[Hex, ...]], int]) -> list[tuple[Hex, ...]]:
    """The paths with the lowest rank (the rules' highest priority), in their original order."""
    if not paths:
        return []
    ranks = [rank(p) for p in paths]
    top = min(ranks)
    return [p for p, r in zip(paths, ranks) if r == top]


def follow_up_hexes(vacated: Iterable[tuple[int, int]], limit: int) -> list[tuple[Hex, ...]]:
    """Follow-up (pursuit) paths along the hexes the loser left, up to ``limit`` hexes deep."""
    trail = [Hex(*h) for h in vacated]
    return [tuple(trail[:n]) for n in range(1, min(limit, len(trail)) + 1)]
