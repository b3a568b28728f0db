"""Movement-cost pathfinding shared by every ruleset.

The ruleset supplies one ``step`` function that prices a single move from one hex to an adjacent
one given what has been spent so far, and says whether the unit must stop there (entering an enemy
zone of control, a forest). ``step`` may also carry a small extra value along the path (``aux``:
climb used so far, whether the unit is on a road) for rules whose cost depends on history. The
search is Dijkstra over (hex, aux) and returns, for every hex where the unit may end its move,
the cheapest path there. Ties go to the path found first, which is fixed by the map's neighbour
order, so both peers get the same path.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable

from .hexgrid import Hex

# step(from_hex, to_hex, spent, aux) -> (new_spent, new_aux, must_stop) or None if not allowed
StepFn = Callable[[Hex, Hex, int, Any], "tuple[int, Hashable, bool] | None"]


@dataclass(frozen=True)
class Route:
    """Where a move can end: its total cost and the hexes entered, in order (start excluded)."""

    cost: int
    path: tuple[Hex, ...]

    @property
    def end(self) -> Hex:
        return self.path[-1]


def search_moves(
    start: Hex,
    neighbors: Callable[[Hex], Iterable[Hex]],
    step: StepFn,
    allowance: int,
    can_end: Callable[[Hex], bool],
    aux: Hashable = None,
) -> dict[Hex, Route]:
    """Every hex other than ``start`` the unit can legally end in, with its cheapest route."""
    start = Hex(*start)
    first = (start, aux, False)
    best: dict[tuple[Hex, Hashable, bool], int] = {first: 0}
    parent: dict[tuple[Hex, Hashable, bool], tuple[Hex, Hashable, bool] | None] = {first: None}
    heap: list[tuple[int, int, tuple[Hex, Hashable, bool]]] = [(0, 0, first)]
    counter = 1
    result: dict[Hex, Route] = {}
    refused: set[Hex] = set()  # hexes can_end said no to (it is asked once per hex)
    push, pop = heapq.heappush, heapq.heappop
    best_get = best.get
    while heap:
        spent, _, node = pop(heap)
        if best[node] < spent:
            continue
        here, here_aux, stopped = node
        if here != start and here not in result and here not in refused:
            if can_end(here):
                result[here] = _route(spent, _path(parent, node))
            else:
                refused.add(here)
        if stopped:
            continue  # the unit may end here but go no further
        for there in neighbors(here):
            outcome = step(here, there, spent, here_aux)
            if outcome is None:
                continue
            new_spent, new_aux, must_stop = outcome
            if new_spent > allowance:
                continue
            key = (there if type(there) is Hex else Hex(*there), new_aux,
                   must_stop if must_stop is True or must_stop is False else bool(must_stop))
            old = best_get(key)
            if old is not None and old <= new_spent:
                continue
            best[key] = new_spent
            parent[key] = node
            push(heap, (new_spent, counter, key))
            counter += 1
    return result


def _route(cost: int, path: tuple[Hex, ...]) -> Route:
    """``Route(cost, path)`` without the frozen dataclass's per-field checks (hot in searches)."""
    r = object.__new__(Route)
    r.__dict__.update(cost=cost, path=path)
    return r


def _path(parent: dict, node: tuple[Hex, Hashable, bool]) -> tuple[Hex, ...]:
    out = []
    cur: tuple[Hex, Hashable, bool] | None = node
    while cur is not None:
        out.append(cur[0])
        cur = parent[cur]
    out.reverse()
    return tuple(out[1:])
