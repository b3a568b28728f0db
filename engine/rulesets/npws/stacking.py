"""Stacking (4.1-4.3): limits per space and per player, no voluntary overstacking, the three
overstack penalties, and when enemies may share a space.

Only corps count, full or reduced alike; leaders and markers never do (4.1.1 game note). A
garrison's corps count for its owner (A23). Every ``*_problem`` function answers None when the
action is allowed, else the refusal in words with its rule number.
"""

from __future__ import annotations

from hexwar.engine.areamap import AreaMap
from hexwar.engine.orders import Event, event
from hexwar.engine.state import State, Unit

from . import designed
from .facts import FULL, OVERSTACK_MAY_REMAIN, REDUCED, STACKING_LIMIT
from .pieces import corps_dice, corps_of, effective_tr, force_of, in_force_pool, is_corps


def stacking_limit(board: AreaMap, space_id: str) -> int | None:
    """4.1.1: 12 fertile, 8 normal, 4 poor; None (no limit) in the home spaces of the powers
    of 2.4 (designed: ``designed.UNLIMITED_HOME_POWERS``)."""
    space = board.space(space_id)
    if space.home and space.home in designed.UNLIMITED_HOME_POWERS:
        return None
    return STACKING_LIMIT[space.terrain]


def corps_count(state: State, place: str, side: str) -> int:
    return len(corps_of(state, place, side))


def overstacked(state: State, board: AreaMap, place: str, side: str) -> bool:
    limit = stacking_limit(board, place)
    return limit is not None and corps_count(state, place, side) > limit


def _over_words(board: AreaMap, place: str, n: int, limit: int) -> str:
    return f"{n} corps in {board.label(place)} would be over its limit of {limit}"


def relocation_problem(state: State, board: AreaMap, place: str, side: str,
                       corps_ids: list[str], reason: str) -> str | None:
    """4.1.2: may these corps end a move, retreat, interception or placement in ``place``?
    Only the causes of ``facts.OVERSTACK_MAY_REMAIN`` may leave the space over its limit."""
    limit = stacking_limit(board, place)
    if limit is None or reason in OVERSTACK_MAY_REMAIN:
        return None
    there = {c.id for c in corps_of(state, place, side)}
    n = len(there | set(corps_ids))
    if n <= limit:
        return None
    rule = "14.6.2" if reason == "interception" else "4.1.2"
    return f"{rule}: no voluntary overstacking: {_over_words(board, place, n, limit)}"


def path_problem(state: State, board: AreaMap, side: str, corps_ids: list[str],
                 path: list[str]) -> str | None:
    """A Campaign move along ``path`` (the spaces entered, start first): each step follows a
    connection; stacking is checked only where the move ends, so it may pass through a full
    space (4.1.2 a)."""
    for a, b in zip(path, path[1:]):
        if b not in board.neighbors(a):
            return f"{board.label(a)} and {board.label(b)} are not connected"
    return relocation_problem(state, board, path[-1], side, corps_ids, "campaign")


def intercept_problem(state: State, board: AreaMap, place: str, side: str, n: int) -> str | None:
    """4.1.2 / 14.6.2 (A21): interception may never overstack the space intercepted into."""
    limit = stacking_limit(board, place)
    total = corps_count(state, place, side) + n
    if limit is not None and total > limit:
        return f"4.1.2: overstacking is forbidden when intercepting: {_over_words(board, place, total, limit)}"
    return None


def reductions_needed(state: State, board: AreaMap, place: str, side: str) -> int:
    """4.1.3 penalty 1: in an overstacked space, the full corps above half the limit."""
    if not overstacked(state, board, place, side):
        return 0
    limit = stacking_limit(board, place)
    assert limit is not None
    full = [c for c in corps_of(state, place, side) if c.strength >= FULL]
    return max(0, len(full) - limit // 2)


def default_reductions(state: State, board: AreaMap, place: str, side: str) -> list[str]:
    """The corps the computer reduces (designed, A19 ``designed.REDUCE_POLICY``): from the power
    with most full corps in the space, then the next, ties by power and corps id."""
    n = reductions_needed(state, board, place, side)
    full = [c for c in corps_of(state, place, side) if c.strength >= FULL]
    counts: dict[str, int] = {}
    for c in full:
        counts[c.stat("power")] = counts.get(c.stat("power"), 0) + 1
    full.sort(key=lambda c: (-counts[c.stat("power")], c.stat("power"), c.id))
    return [c.id for c in full[:n]]


def reduce_overstack(state: State, board: AreaMap, place: str, side: str,
                     chosen: list[str] | None = None) -> list[Event]:
    """4.1.3 penalty 1, at the end of a movement or retreat that may end over the limit: reduce
    exactly the full corps over half the limit; which ones is the owner's choice (``chosen``,
    any of his full corps there), else ``default_reductions``."""
    n = reductions_needed(state, board, place, side)
    if chosen is None:
        chosen = default_reductions(state, board, place, side)
    full = {c.id for c in corps_of(state, place, side) if c.strength >= FULL}
    if len(set(chosen)) != n or not set(chosen) <= full:
        raise ValueError(f"4.1.3: choose exactly {n} of the full corps in {board.label(place)}")
    out = []
    for cid in sorted(chosen):
        state.units[cid].strength = REDUCED
        out.append(event("corps-reduced", unit=cid, space=place, rule="4.1.3"))
    return out


def end_relocation(state: State, board: AreaMap, place: str, side: str, reason: str,
                   chosen: list[str] | None = None) -> list[Event]:
    """4.1.2 with 4.1.3 penalty 1 (spec 4.15 ``end_of_move_or_retreat``, A20): once pieces have
    arrived in ``place``, refuse a voluntary overstack (ValueError naming the rule), and after a
    move that may end over the limit reduce the full corps above half of it."""
    if not overstacked(state, board, place, side):
        return []
    if reason not in OVERSTACK_MAY_REMAIN:
        limit = stacking_limit(board, place)
        raise ValueError(f"4.1.2: no voluntary overstacking: "
                         f"{_over_words(board, place, corps_count(state, place, side), limit or 0)}")
    return reduce_overstack(state, board, place, side, chosen)


def restore_problem(state: State, board: AreaMap, corps: Unit) -> str | None:
    """3.2.2 / 4.1.3 penalty 2: a reduced corps is restored only outside an overstacked space
    (neither in the Reinforcement Phase, 12.3.5, nor by a Replacement action, 13.5.3)."""
    if not is_corps(corps) or corps.hex is None or corps.strength != REDUCED:
        return "3.2.2: only a reduced corps on the map can be restored"
    if overstacked(state, board, corps.hex, corps.side):
        return f"4.1.3: no corps is restored in overstacked {board.label(corps.hex)}"
    return None


def restore(state: State, board: AreaMap, corps: Unit) -> Event:
    problem = restore_problem(state, board, corps)
    if problem:
        raise ValueError(problem)
    corps.strength = FULL
    return event("corps-restored", unit=corps.id, space=corps.hex, rule="3.2.2")


def place_problem(state: State, board: AreaMap, corps: Unit, place: str) -> str | None:
    """4.1.3 penalty 2 and 4.1.2 (A20): a corps from the Force Pool is placed only in a space
    that is not overstacked, and never so as to overstack it."""
    if not in_force_pool(corps):
        return "3.2.2: only a corps in the Force Pool can be placed as a reinforcement"
    if overstacked(state, board, place, corps.side):
        return f"4.1.3: no new corps is placed in overstacked {board.label(place)}"
    return relocation_problem(state, board, place, corps.side, [corps.id], "reinforcement")


def place_from_pool(state: State, board: AreaMap, corps: Unit, place: str) -> Event:
    problem = place_problem(state, board, corps, place)
    if problem:
        raise ValueError(problem)
    corps.hex = place
    corps.strength = FULL
    return event("corps-placed", unit=corps.id, space=place, rule="3.2.2")


def activation_cap(state: State, board: AreaMap, place: str, side: str, cr: int) -> int:
    """4.1.3 penalty 3 (A22): the corps one action may activate (Campaign, interception,
    avoiding battle): the commander's CR, never more than the limit in an overstacked space."""
    n = min(cr, corps_count(state, place, side))
    limit = stacking_limit(board, place)
    if limit is not None and overstacked(state, board, place, side):
        n = min(n, limit)
    return n


def attacked_dice(state: State, place: str, side: str, commander: Unit | None = None) -> int:
    """4.1.3 penalty 3: when attacked, every corps in the space fights, overstacked or not:
    the corps' dice rounded up, plus the commander's effective TR (A2, A10)."""
    dice = corps_dice(corps_of(state, place, side))
    if commander is not None:
        dice += effective_tr(state, commander)
    return dice


def end_of_action_problem(state: State, board: AreaMap, place: str) -> str | None:
    """4.3: at the end of an action enemies share a space only as a besieged fortress's
    garrison: one corps and any number of leaders inside (``garrison`` mark), the besiegers
    outside."""
    sides = sorted({u.side for u in state.units_in_id_order()
                    if u.hex == place and (u.kind == "leader" or u.strength > 0)})
    if len(sides) < 2:
        return None
    if not board.space(place).fort:
        return f"4.3: enemy forces cannot stay together in unfortified {board.label(place)}"
    inside = [s for s in sides if all(u.marks.get("garrison") for u in force_of(state, place, s))]
    if len(inside) != 1:
        return f"4.3: in {board.label(place)} one side must be the garrison inside the fortress"
    if corps_count(state, place, inside[0]) > 1:
        return f"4.3: a garrison is one corps and any number of leaders ({board.label(place)})"
    return None
