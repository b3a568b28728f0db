"""Board queries for Poltava 1709: terrain, ZOC (Part 5), movement steps (Part 4), LOS (Part 7.4).

``View`` is built once per question from the scenario and a state; it caches occupancy and the
zones of control so that move searches stay cheap. Everything iterates in sorted order.
"""

from __future__ import annotations

import heapq
from functools import partial
from itertools import chain, starmap as _starmap
from math import lcm
from operator import attrgetter, itemgetter
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance, hex_line_pair, hex_neighbors, hex_spiral
from hexwar.engine.movement import Route, _route, search_moves

from .data import (UNIT_TYPES, CAMP, ELEVATED, HEX_COST, IMPASSABLE, LOS_BLOCKING, MOUNTED, NO_CAVALRY, NO_ZOC,
                   RUSSIA, SWEDEN, ZOC_ARMS)


def stat(u, key: str, default=0):
    """A printed value: the unit's own (scenario override) or its counter class's."""
    v = u.stats.get(key)
    if v is None:
        v = UNIT_TYPES.get(u.kind, {}).get(key, default)
    return v


_ARM = {k: v["arm"] for k, v in UNIT_TYPES.items()}


def arm(u) -> str:
    """The unit's arm (inf, cav, art, cossack, leader, redoubt): its own stat or its class's.
    Both are fixed for the whole game, so the answer is kept on the unit (and its copies)."""
    try:
        return u._arm
    except AttributeError:
        pass
    a = u.stats.get("arm")
    if a is None:
        a = _ARM.get(u.kind, "")
    d = getattr(u, "__dict__", None)
    if d is not None:
        d["_arm"] = a
    return a


#: kinds_key -> arm -> ids of the units of that arm, in id order (content keyed, bounded)
_BY_ARM: dict[tuple, dict[str, tuple[str, ...]]] = {}


def ids_by_arm(st) -> dict[str, tuple[str, ...]]:
    """The ids of every unit (alive or not) of each arm, in id order. Arms follow from kind and
    stats alone, so the table is shared by every state whose units have the same ones."""
    key = st.kinds_key()
    out = _BY_ARM.get(key)
    if out is None:
        groups: dict[str, list[str]] = {}
        units = st.units
        for k in sorted(units):
            groups.setdefault(arm(units[k]), []).append(k)
        out = {a: tuple(ids) for a, ids in groups.items()}
        if len(_BY_ARM) > 64:
            _BY_ARM.clear()
        _BY_ARM[key] = out
    return out


#: kinds_key -> (odb rank, id) of the infantry that has a place in the ordre de bataille
_ODB: dict[tuple, tuple[tuple[Any, str], ...]] = {}


def odb_ranks(st) -> tuple[tuple[Any, str], ...]:
    """(its ``odb`` stat, id) of every infantry unit (alive or not) whose stat gives it a place
    in the ordre de bataille (S2-1), in id order: fixed by kind and stats, like ``ids_by_arm``."""
    key = st.kinds_key()
    out = _ODB.get(key)
    if out is None:
        units = st.units
        out = tuple((stat(units[i], "odb"), i) for i in ids_by_arm(st).get("inf", ())
                    if stat(units[i], "odb"))
        if len(_ODB) > 64:
            _ODB.clear()
        _ODB[key] = out
    return out


_DIVISION = attrgetter("division")
#: kinds_key -> division -> the ids of its units, in the units dict's own order
_BY_DIVISION: dict[tuple, dict[str, tuple[str, ...]]] = {}


def in_division(st, division: str) -> list:
    """The units (alive or not) of one division, in the state's own order. Rules ask this after
    every order, and a unit's division is part of ``State.kinds_key`` (it changes when a battalion
    joins the Roos column), so the ids of each division are worked out once per kinds key."""
    key = st.kinds_key()
    table = _BY_DIVISION.get(key)
    units = st.units
    if table is None:
        groups: dict[str, list[str]] = {}
        for k, u in units.items():
            groups.setdefault(u.division, []).append(k)
        table = {d: tuple(ids) for d, ids in groups.items()}
        if len(_BY_DIVISION) > 64:
            _BY_DIVISION.clear()
        _BY_DIVISION[key] = table
    return [units[k] for k in table.get(division, ())]


def reduced(u) -> bool:
    return u.max_strength >= 2 and u.strength < u.max_strength


def cs_of(u) -> int:
    return int(stat(u, "rcs" if reduced(u) else "cs"))


def fire_of(u) -> int:
    return int(stat(u, "rfire" if reduced(u) else "fire"))


def stars_of(u) -> int:
    return int(stat(u, "rstars" if reduced(u) else "stars"))


def other(side: str) -> str:
    return RUSSIA if side == SWEDEN else SWEDEN


_R2 = tuple(hex_spiral(Hex(0, 0), 2))
_new_hex = tuple.__new__
_SECOND = itemgetter(1)
#: the zones' hexes in the order the nested loops gave them (the same sets, built in C)
_chain = chain.from_iterable
#: hex -> the hexes within 2 of it (pure geometry, so keyed on the hex itself)
_WITHIN2: dict[Hex, tuple[Hex, ...]] = {}


def within2(h) -> tuple[Hex, ...]:
    out = _WITHIN2.get(h)
    if out is None:
        q, r = h
        out = tuple([_new_hex(Hex, (q + dq, r + dr)) for dq, dr in _R2])  # Hex(...) without its __new__
        if len(_WITHIN2) < 20_000:
            _WITHIN2[Hex(*h)] = out
    return out


#: (map, its tables) for the last few maps met: a map equal in content to one of them (the
#: same scenario read again: a replay, another game of it on a server) takes the same tables
_SHARED_TABLES: list[tuple[Any, dict]] = []


def _tables(m) -> dict:
    """Lookup tables derived from one map, kept on the map object itself: a map never changes
    during a game, so they are filled in once and shared by every View of it, and by every
    map equal to it in content (everything in them follows from the map alone)."""
    t = m.__dict__.get("_poltava_tables")
    if t is None:
        t = next((tables for other, tables in _SHARED_TABLES if other == m), None)
        if t is None:
            t = {"features": {}, "zoc_out": {},
                 "nbrs": {h: tuple(map(_SECOND, m.neighbors(h))) for h in m.hexes}}
            _SHARED_TABLES.append((m, t))
            if len(_SHARED_TABLES) > 8:
                del _SHARED_TABLES[0]
        object.__setattr__(m, "_poltava_tables", t)
    return t


# --- exact line of sight geometry (R7, A22) --------------------------------------------------------
# A hex cell in cube coordinates is the closed set max(|dx-dy|, |dy-dz|, |dz-dx|) <= 1 around its
# centre (the three pairs of opposite hexsides), whatever the map's orientation. Along the segment
# from centre a to centre b each of those differences is linear in t, so the part of the segment
# inside a cell is an interval of t found with exact fractions; a single point means a vertex touch.
_PAIRS = ((0, 1), (1, 2), (2, 0))
_SIGHT: dict[tuple, tuple] = {}


def _cube(h) -> tuple[int, int, int]:
    return h[0], h[1], -h[0] - h[1]


def _interval(a, b, cells) -> bool:
    """Does some part of segment a->b (t from 0 to 1) lie in every one of ``cells`` (closed)?

    Each cell bounds t between (-1 - f0) / f1 and (1 - f0) / f1 for three pairs, and f1 depends
    on the segment alone (not on the cell). So every bound is a whole multiple of 1/L, L the
    least common multiple of the nonzero |f1|, and the test runs on integers scaled by L: the
    same comparisons as exact fractions would make, without making any."""
    ca, cb = _cube(a), _cube(b)
    slopes = [(cb[i] - cb[j]) - (ca[i] - ca[j]) for i, j in _PAIRS]
    scale = 1
    for f1 in slopes:
        if f1:
            scale = lcm(scale, abs(f1))
    lo, hi = 0, scale
    for c in cells:
        cc = _cube(c)
        for (i, j), f1 in zip(_PAIRS, slopes):
            f0 = (ca[i] - ca[j]) - (cc[i] - cc[j])
            if f1 == 0:
                if abs(f0) > 1:
                    return False
                continue
            step = scale // f1  # exact: f1 divides scale; negative when f1 is
            t1, t2 = (-1 - f0) * step, (1 - f0) * step
            if t1 > t2:
                t1, t2 = t2, t1
            if t1 > lo:
                lo = t1
            if t2 < hi:
                hi = t2
            if lo > hi:
                return False
    return True


def sight_touches(a, b) -> tuple[tuple[Hex, ...], tuple[tuple[Hex, Hex], ...]]:
    """Intervening hexes and hexsides that the straight line between the centres of ``a`` and
    ``b`` crosses or touches, a vertex included (R7: "touches any part"; A22). Hexsides of ``a``
    or ``b`` themselves are left out. Pure geometry, cached on the two coordinates."""
    a, b = Hex(*a), Hex(*b)
    key = (a, b)
    hit = _SIGHT.get(key)
    if hit is not None:
        return hit
    near: set[Hex] = set()
    for line in hex_line_pair(a, b):
        for h in line:
            near.update(hex_spiral(h, 1))
    cells = sorted(h for h in near if _interval(a, b, (h,)))
    hexes = tuple(h for h in cells if h not in (a, b))
    inside = set(cells)
    sides = []
    for h in cells:
        for n in hex_neighbors(h):
            if n in inside and h < n and a not in (h, n) and b not in (h, n) \
                    and _interval(a, b, (h, n)):
                sides.append((h, n))
    hit = (hexes, tuple(sides))
    if len(_SIGHT) > 50000:
        _SIGHT.clear()
    _SIGHT[key] = hit
    return hit


def features(m, a, b) -> frozenset:
    """Hexside features between two hexes, memoised on the map (maps never change)."""
    cache = _tables(m)["features"]
    key = (a, b)
    f = cache.get(key)
    if f is None:
        f = m.features_between(a, b)
        cache[key] = f
    return f


def zoc_out(m, h, mounted: bool = False, banned: bool = False) -> tuple[Hex, ...]:
    """The neighbours of ``h`` into which the ZOC of a unit standing in ``h`` extends (Part 5).
    The map decides it for each kind of unit (mounted or not, banned from the Redoubt Line or
    not), so it is worked out once per map, hex and kind."""
    tables = _tables(m)
    cache = tables["zoc_out"]
    key = (Hex(*h), mounted, banned)
    out = cache.get(key)
    if out is None:
        # the map's own neighbours of h, in the same direction order: a neighbour off the map
        # is one no ZOC reaches (``_zoc_crosses``)
        near = tables["nbrs"].get(h)
        if near is None:
            near = hex_neighbors(h)
        out = tuple([n for n in near if _zoc_crosses(m, h, n, mounted, banned)])
        cache[key] = out
    return out


def _zoc_crosses(m, a, b, mounted: bool, banned: bool) -> bool:
    """Does a ZOC from ``a`` reach ``b``? Not into no-ZOC terrain (R5.1, TEC); not across a
    hexside the unit may not cross (impassable; the Redoubt Line for a unit banned from it, Z9);
    across the retrenchment only outward from the camp side and never for mounted units
    (Part 5 item 2, Part 6)."""
    if b not in m:
        return False
    t = m.terrain_at(b)
    if t in IMPASSABLE or t in NO_ZOC:
        return False
    f = features(m, a, b)
    if not f:
        return True
    if "impassable" in f:
        return False
    if "retrenchment" in f and (mounted or m.terrain_at(a) not in CAMP or t in CAMP):
        return False
    if "redoubt_line" in f and banned:
        return False
    return True


def _edge_costs(m, mounted: bool, banned: bool, bound: bool, road: bool) -> dict:
    """(from, to) -> what the step costs a unit of this kind, or -1 if it may not take it; the
    map alone decides it, so it is worked out once per map and kind of mover."""
    return _tables(m).setdefault(("edges", mounted, banned, bound, road), {})


def _edge_cost(m, a, b, mounted: bool, banned: bool, bound: bool, road: bool) -> int:
    """The map's part of one movement step (Part 4): terrain and hexside costs, impassable
    terrain and hexsides, no horse into retrenchments, the Redoubt Line ban, camp-bound units,
    roads for road movement. Units, ZOC and danger zones are checked by the caller."""
    t = m.terrain_at(b)
    if t in IMPASSABLE or (mounted and t in NO_CAVALRY):
        return -1
    f = features(m, a, b)
    if "impassable" in f or (mounted and "retrenchment" in f) or (banned and "redoubt_line" in f):
        return -1
    if bound and t not in CAMP:
        return -1
    if road:
        return 1 if m.road_between(a, b) else -1
    return HEX_COST.get(t, 1) + (1 if ("stream" in f or "retrenchment" in f) else 0)


def _search(m, start: Hex, nbrs: dict, mover: tuple, allowance: int, can_end,
            memo: dict | None = None) -> dict[Hex, Route]:
    """``search_moves`` with Poltava's step written inline (it carries no extra value along the
    path), for the thousands of searches a computer game makes. Same nodes, same order of
    expansion and the same tie-breaks, so the same routes: tests compare the two.

    Where a unit may end (``can_end``: stacking, the enemy, redoubts) never prunes the search, so
    the expansion (``_expand``) depends only on the start, the mover and its allowance: it is
    kept per map by that content, with its routes made once, and reused while nothing it depends
    on changes (a unit asked about again, or after a friendly unit moved); ``can_end`` is
    applied afresh every time, through ``memo`` (hex -> answer) when the caller keeps one."""
    firsts = _reach(m, start, nbrs, mover, allowance)
    result: dict[Hex, Route] = {}
    if memo is None:
        for here, route in firsts:
            if can_end(here):
                result[here] = route
        return result
    known = memo.get
    for here, route in firsts:
        ok = known(here)
        if ok is None:
            ok = memo[here] = can_end(here)
        if ok:
            result[here] = route
    return result


def _reach(m, start: Hex, nbrs: dict, mover: tuple, allowance: int) -> tuple:
    """(hex, route) of ``_expand``, kept per map by what the expansion depends on."""
    edges, flags, enemy_occ, danger, musket, zoc, leader, cossack = mover
    key = (start, flags, enemy_occ, danger, musket, zoc, leader, cossack, allowance)
    cache = _tables(m).setdefault("reach", {})
    firsts = cache.get(key)
    if firsts is None:
        firsts = tuple((here, _route(spent, path)) for here, spent, path in
                       _expand(m, start, nbrs, mover, allowance))
        if len(cache) > 512:
            cache.clear()
        cache[key] = firsts
    return firsts


def _expand(m, start: Hex, nbrs: dict, mover: tuple, allowance: int) -> tuple:
    """(hex, cost, path) the first time the search takes each hex other than the start off its
    queue, in that order: the cheapest way there, found with the same tie-breaks as before."""
    edges, flags, enemy_occ, danger, musket, zoc, leader, cossack = mover
    blocked = _blocked(m, enemy_occ, danger, musket)
    if leader or cossack:  # no stop on entering a ZOC: leaders ignore it, Cossacks never enter
        return _expand_unstopped(m, start, nbrs, edges, flags, blocked if leader else blocked | zoc, allowance)
    steps = _tables(m).setdefault(("steps", *flags), {})
    # a node is a hex and whether the unit stopped there (entering a ZOC): the two kinds of
    # node are kept in two dicts each, so a node needs no tuple of its own
    best: dict = {start: 0}         # moving on
    paths: dict = {start: ()}       # the hexes entered to reach each node
    best_stop: dict = {}            # stopped: never expanded further
    paths_stop: dict = {}
    heap = [(0, 0, start, False)]
    counter = 1
    firsts: list = []
    taken = {start}
    push, pop = heapq.heappush, heapq.heappop
    best_get, stop_get, steps_get = best.get, best_stop.get, steps.get
    while heap:
        spent, _, here, stopped = pop(heap)
        if stopped:
            if best_stop[here] < spent:
                continue
            if here not in taken:
                taken.add(here)
                firsts.append((here, spent, paths_stop[here]))
            continue
        if best[here] < spent:
            continue
        if here not in taken:
            taken.add(here)
            firsts.append((here, spent, paths[here]))
        out = steps_get(here)
        if out is None:
            out = steps[here] = _steps_from(m, here, nbrs, edges, flags)
        path = paths[here]
        for there, cost in out:
            if there in blocked:
                continue
            new_spent = spent + cost
            if new_spent > allowance:
                continue
            if there in zoc:
                old = stop_get(there)
                if old is not None and old <= new_spent:
                    continue
                best_stop[there] = new_spent
                paths_stop[there] = path + (there,)
                push(heap, (new_spent, counter, there, True))
            else:
                old = best_get(there)
                if old is not None and old <= new_spent:
                    continue
                best[there] = new_spent
                paths[there] = path + (there,)
                push(heap, (new_spent, counter, there, False))
            counter += 1
    return tuple(firsts)


def _expand_unstopped(m, start: Hex, nbrs: dict, edges: dict, flags: tuple, blocked, allowance: int) -> tuple:
    """``_expand`` for a mover no ZOC stops (a leader; a Cossack, for whom a ZOC is as closed as
    an enemy's hex): the search's nodes are then hexes alone, pushed and taken in the same order
    with the same costs as ``_expand``'s (hex, stopped) nodes, so it finds the same paths."""
    steps = _tables(m).setdefault(("steps", *flags), {})
    best = {start: 0}
    paths: dict = {start: ()}
    heap = [(0, 0, start)]
    counter = 1
    firsts: list = []
    taken = {start}
    push, pop = heapq.heappush, heapq.heappop
    best_get, steps_get = best.get, steps.get
    while heap:
        spent, _, here = pop(heap)
        if best[here] < spent:
            continue
        if here not in taken:
            taken.add(here)
            firsts.append((here, spent, paths[here]))
        out = steps_get(here)
        if out is None:
            out = steps[here] = _steps_from(m, here, nbrs, edges, flags)
        for there, cost in out:
            if there in blocked:
                continue
            new_spent = spent + cost
            if new_spent > allowance:
                continue
            old = best_get(there)
            if old is not None and old <= new_spent:
                continue
            best[there] = new_spent
            paths[there] = paths[here] + (there,)
            push(heap, (new_spent, counter, there))
            counter += 1
    return tuple(firsts)


def _steps_from(m, here, nbrs: dict, edges: dict, flags: tuple) -> tuple:
    """(neighbour, cost) for every step from ``here`` a mover of this kind may take on the map
    (cost not -1), in neighbour order: the map's part of the search, once per hex and kind."""
    out = []
    for there in nbrs.get(here, ()):
        cost = edges.get((here, there))
        if cost is None:
            cost = edges[(here, there)] = _edge_cost(m, here, there, *flags)
        if cost >= 0:
            out.append((there, cost))
    return tuple(out)


def _blocked(m, enemy_occ: frozenset, danger: frozenset, musket: frozenset) -> frozenset:
    """The hexes a mover may not enter at all (enemy units, danger and musket zones) as one set,
    kept by content like the zones it is made of."""
    if not danger and not musket:
        return enemy_occ
    return _by_content(m, "blocked", (enemy_occ, danger, musket), lambda: enemy_occ | danger | musket)


def _by_content(m, kind: str, key, build):
    """A set derived from unit positions alone (a ZOC, a danger zone), shared by every view of
    the map whose positions give the same ``key``: while one side moves, the other's zones stay
    the same from one position to the next."""
    cache = _tables(m).setdefault(kind, {})
    out = cache.get(key)
    if out is None:
        out = build()
        if len(cache) > 64:
            cache.clear()
        cache[key] = out
    return out


def view_of(game) -> "View":
    """A View shared by the read-only questions asked about one position (validate, legal
    orders, AI), rebuilt whenever any unit's hex, strength or side differs, or another scenario
    asks. What it has worked out is kept on the state without the state itself (a state that
    held a view holding the state would be a reference cycle, freed only by the garbage
    collector: thousands of them in a computer game); each call wraps it in a fresh View."""
    st = game.state
    fp = (st.seq, st.position_token())
    e = st.__dict__.get("_poltava_view")
    if e is not None and e[0] == fp and e[1]["scn"] is game.scenario:
        v = object.__new__(View)
        v.__dict__.update(e[1])
        v.st = st
        return v
    v = View(game.scenario, st, snapshot=True)
    st.__dict__["_poltava_view"] = (fp, {k: x for k, x in v.__dict__.items() if k != "st"})
    return v


COMBAT_ARMS = ("inf", "cav", "art", "cossack")


def _index_hex(h, us: list, alive: dict, combat: dict, redoubt: dict, by_side: dict, russian_redoubts: dict) -> None:
    """Index one hex's units (``View._index``): the live ones, the live combat units, its
    redoubt, whether a live Russian redoubt stands in it, and for each side the hex's first unit
    in id order that projects a ZOC, and whether it holds the side's combat units, infantry."""
    here = [u for u in us if u.hex is not None and u.strength > 0]
    if not here:
        return
    alive[h] = here
    c = [u for u in here if arm(u) in COMBAT_ARMS]
    if c:
        combat[h] = c
        for u in c:
            zocs, fronts, infantry = by_side.get(u.side) or by_side.setdefault(u.side, ({}, {}, {}))
            fronts[h] = None
            a = arm(u)
            if a in ZOC_ARMS and h not in zocs:
                zocs[h] = u
            if a == "inf":
                infantry[h] = None
    if len(c) < len(here):
        r = next((u for u in here if arm(u) == "redoubt"), None)
        if r is not None:
            redoubt[h] = r
            if any(arm(u) == "redoubt" and u.side == RUSSIA for u in here):
                russian_redoubts[h] = None


def _unindex_hex(h, tables: tuple) -> None:
    alive, combat, redoubt, by_side, russian_redoubts = tables
    for table in (alive, combat, redoubt, russian_redoubts):
        table.pop(h, None)
    for side_tables in by_side.values():
        for table in side_tables:
            table.pop(h, None)


def _copy_index(tables: tuple) -> tuple:
    alive, combat, redoubt, by_side, russian_redoubts = tables
    return (dict(alive), dict(combat), dict(redoubt),
            {side: (dict(a), dict(b), dict(c)) for side, (a, b, c) in by_side.items()},
            dict(russian_redoubts))


def _same_at(old: dict, new: dict, hexes: list) -> bool:
    for h in hexes:
        if old.get(h, _NOTHING) is not new.get(h, _NOTHING):
            return False
    return True


def _keep_unchanged(old: tuple, new: tuple, touched: list) -> tuple:
    """``new`` (a copy of the index ``old`` with the ``touched`` hexes indexed again), with each
    side's tables and the redoubt table put back to the old objects when nothing changed in
    them: while one side moves the other's tables stay the same objects, and the zones worked
    out from them are kept on the state under those objects (``View._zone``)."""
    by_side = new[3]
    for side, tables in list(by_side.items()):
        before = old[3].get(side)
        if (before is not None and _same_at(before[0], tables[0], touched)
                and _same_at(before[1], tables[1], touched) and _same_at(before[2], tables[2], touched)):
            by_side[side] = before
    redoubts = new[4]
    if _same_at(old[4], redoubts, touched):
        redoubts = old[4]
    return (*new[:4], redoubts)


_NOTHING = object()
#: how many times its movement allowance a unit has in each mode (R4.7 road, R4.8 long)
_MODE_FACTOR = {"normal": 1, "road": 2, "long": 2, "longroad": 4}
_NO_TABLE: dict = {}
_NO_SIDE: tuple = ({}, {}, {})
_ARM_OF = attrgetter("_arm")


class View:
    """Questions about one position. A ``snapshot`` view (what ``view_of`` builds for a position
    nobody is changing) indexes the live units, combat units and redoubts of every hex once; a
    plain view (used while an order resolves and units move and die) looks them up each time."""

    def __init__(self, scenario, state, snapshot: bool = False) -> None:
        self.scn = scenario
        self.st = state
        self.m = scenario.map
        self.s1 = scenario.rule("scenario", 1) == 1
        self.occ: dict[Hex, list] = state.shared_occupancy()  # read only
        self._zoc: dict[str, Any] = {}
        self._danger: dict[str, frozenset] = {}
        self._musket: dict[str, frozenset] = {}
        self.south_row = int(scenario.rule("redoubt_line_row", 22))
        self.snapshot = snapshot
        self._indexed: tuple[dict, dict, dict, dict, dict] | None = None

    @property
    def _alive(self) -> dict[Hex, list] | None:
        """Live units per hex (snapshot views only; built on first use)."""
        if not self.snapshot:
            return None
        if self._indexed is None:
            self._index()
        return self._indexed[0]  # type: ignore[index]

    @property
    def _combat(self) -> dict[Hex, list]:
        if self._indexed is None:
            self._index()
        return self._indexed[1]  # type: ignore[index]

    @property
    def _redoubt(self) -> dict[Hex, Any]:
        if self._indexed is None:
            self._index()
        return self._indexed[2]  # type: ignore[index]

    def _index(self) -> None:
        """Index the position, or take the index of the same position from the state. When the
        state kept the index of an earlier position, only the hexes whose occupancy lists are
        new are indexed again (``State.shared_occupancy`` makes new lists only for the hexes
        units left or entered): an order moves one or two units out of a hundred."""
        key = self.st.position_token()
        occ = self.occ
        kept = self.st.__dict__.get("_poltava_index")
        if kept is not None and kept[0] == key and kept[2] is occ:
            self._indexed = kept[1]
            return
        if kept is not None:
            before = kept[2]
            # the state knows which hexes it remade when it moved units from ``before`` to
            # ``occ``; else compare every hex's list
            touched = self.st.occupancy_changes(before, occ)
            if touched is None:
                touched = [h for h, us in occ.items() if before.get(h) is not us]
                touched.extend(h for h in before if h not in occ)
            if len(touched) <= 16:
                tables = _copy_index(kept[1])
                for h in touched:
                    _unindex_hex(h, tables)
                    us = occ.get(h)
                    if us:
                        _index_hex(h, us, *tables)
                self._keep_index(key, _keep_unchanged(kept[1], tables, touched))
                return
        tables = ({}, {}, {}, {SWEDEN: ({}, {}, {}), RUSSIA: ({}, {}, {})}, {})
        for h, us in occ.items():
            _index_hex(h, us, *tables)
        self._keep_index(key, tables)

    def _keep_index(self, key, indexed) -> None:
        self._indexed = indexed
        self.st.__dict__["_poltava_index"] = (key, indexed, self.occ)

    # --- who is where ----------------------------------------------------------------------
    def units_at(self, h) -> list:
        if type(h) is list:
            h = Hex(*h)
        if self._alive is not None:
            return list(self._alive.get(h, ()))
        return [u for u in self.occ.get(h, []) if u.alive]

    def combat_at(self, h, side: str | None = None) -> list:
        if self.snapshot:
            if self._indexed is None:
                self._index()
            if type(h) is list:
                h = Hex(*h)
            here = self._indexed[1].get(h)  # type: ignore[index]
            if here is None:
                return []
            if side is None:
                return list(here)
            return [u for u in here if u.side == side]
        return [u for u in self.units_at(h) if arm(u) in COMBAT_ARMS
                and (side is None or u.side == side)]

    def redoubt_at(self, h):
        if self._alive is not None:
            return self._redoubt.get(Hex(*h) if type(h) is list else h)
        for u in self.units_at(h):
            if arm(u) == "redoubt":
                return u
        return None

    def garrison_hexes(self) -> frozenset:
        """Every hex ``garrisoned`` is true of, worked out once per view."""
        if "garrisons" not in self._zoc:
            self._zoc["garrisons"] = frozenset(h for h in self.occ if self.garrisoned(h))
        return self._zoc["garrisons"]

    def garrisoned(self, h) -> bool:
        """A Russian-side redoubt marker (S2-2): a defensive virtual unit."""
        r = self.redoubt_at(h)
        return r is not None and r.side == RUSSIA

    def terrain(self, h) -> str:
        return self.m.terrain_at(h)

    def in_camp(self, h) -> bool:
        return self.terrain(h) in CAMP

    def south(self, h) -> bool:
        """South of the Redoubt Line (A49): rows below the line's row (1-based label rows)."""
        return self.m.offset(h)[1] + 1 > self.south_row

    # --- zones of control (Part 5) -------------------------------------------------------------
    def inside_of(self, a, b):
        """The camp side of a retrenchment hexside between ``a`` and ``b`` (Part 6, A6): the
        hex that is in the Camp when the other is not; None when that does not tell."""
        ca, cb = self.in_camp(a), self.in_camp(b)
        if ca == cb:
            return None
        return Hex(*a) if ca else Hex(*b)

    def zoc_extends(self, u, a, b) -> bool:
        """Does ``u`` in ``a`` project its ZOC into ``b``? (see ``_zoc_crosses``)"""
        return _zoc_crosses(self.m, a, b, arm(u) in MOUNTED, self.line_banned(u))

    def zoc(self, side: str) -> frozenset:
        """Hexes in which units of ``side`` are in an enemy ZOC."""
        if side not in self._zoc:
            m = self.m
            if self.snapshot:  # only hexes holding live combat units can project a ZOC
                self._zoc[side] = self._snapshot_zoc(side)
                return self._zoc[side]
            # each hex's first live enemy unit that projects a ZOC, with what ``zoc_out`` needs;
            # the zone is the union of their ``zoc_out``, shared by that content with every view
            # of the map (as ``_zoc_of`` shares it): a position met before costs one look-up
            sources = []
            for h, us in self.occ.items():
                for u in us:
                    if u.alive and u.side != side and arm(u) in ZOC_ARMS:
                        sources.append((h, arm(u) in MOUNTED, self.line_banned(u)))
                        break
            key = frozenset(sources)
            self._zoc[side] = _by_content(m, "zoc", key, lambda: frozenset(
                _chain(_starmap(partial(zoc_out, m), sorted(key)))))
        return self._zoc[side]

    def _zone(self, kind: str, side: str, deps: tuple, build):
        """A zone worked out from index tables, kept on the state with what it was made from:
        the tables themselves (``_keep_unchanged`` keeps a table the same object while nothing
        in it changes) and the few values the zone reads beside them. Held, never compared by
        ``id()``, so a kept table cannot be mistaken for another."""
        memo = self.st.__dict__.setdefault("_poltava_zones", {})
        kept = memo.get((kind, side))
        if kept is not None and kept[0] is self.m and len(kept[1]) == len(deps) and all(
                a is b or (type(a) is not dict and a == b) for a, b in zip(kept[1], deps)):
            return kept[2]
        out = build()
        memo[(kind, side)] = (self.m, deps, out)
        return out

    def _snapshot_zoc(self, side: str) -> frozenset:
        """``zoc`` from the index: each enemy hex's first unit in id order that projects a ZOC,
        with whether it is mounted and banned from the Redoubt Line (what ``zoc_out`` needs),
        worked out by C loops; the zone is shared by that content, in any order."""
        if self._indexed is None:
            self._index()
        enemy = other(side)
        sources = self._indexed[3].get(enemy, _NO_SIDE)[0]  # type: ignore[index]
        units = list(sources.values())
        detached = tuple(self.st.vars.get("detached", ()))
        deps = (sources, self.st.kinds_key(), tuple(map(_DIVISION, units)), self.s1, detached)
        return self._zone("zoc", side, deps, lambda: self._zoc_of(sources, units, enemy))

    def _zoc_of(self, sources: dict, units: list, enemy: str) -> frozenset:
        try:
            arms = list(map(_ARM_OF, units))
        except AttributeError:  # not asked yet (``arm`` keeps it on the unit)
            arms = list(map(arm, units))
        mounted = map(MOUNTED.__contains__, arms)
        if self.s1:
            banned = [True] * len(units)
        else:
            divisions = {"rc", "roos"}
            if enemy == SWEDEN:
                divisions.update(self.st.vars.get("detached", []))
            banned = list(map(divisions.__contains__, map(_DIVISION, units)))
        key = frozenset(zip(sources, mounted, banned))
        m = self.m
        return _by_content(m, "zoc", key, lambda: frozenset(
            _chain(_starmap(partial(zoc_out, m), sorted(key)))))

    def zoc_sources(self, u) -> list:
        """Enemy units whose ZOC covers ``u``'s hex."""
        out = []
        for n in hex_neighbors(u.hex):
            for e in self.units_at(n):
                if e.side != u.side and arm(e) in ZOC_ARMS and self.zoc_extends(e, n, u.hex):
                    out.append(e)
        return out

    def enemy_hexes(self, side: str) -> frozenset:
        key = "e" + side
        if key not in self._zoc:
            if self.snapshot:
                if self._indexed is None:
                    self._index()
                fronts = self._indexed[3].get(other(side), _NO_SIDE)[1]  # type: ignore[index]
                self._zoc[key] = self._zone("enemy", side, (fronts,), lambda: frozenset(fronts))
            else:
                self._zoc[key] = frozenset(h for h, us in self.occ.items()
                                           if any(u.alive and u.side != side and arm(u) in COMBAT_ARMS for u in us))
        return self._zoc[key]

    def danger(self, side: str) -> frozenset:
        """Hexes within 2 of an enemy combat unit or enemy-held redoubt (long movement, R4.8)."""
        if side not in self._danger:
            out: set = set()
            if self.snapshot:
                enemies = self.enemy_hexes(side)
                table = _NO_TABLE if side == RUSSIA else self._indexed[4]  # type: ignore[index]

                def build():
                    redoubts = frozenset(table)
                    return _by_content(self.m, "danger", (enemies, redoubts), lambda: frozenset(
                        _chain(map(within2, sorted(enemies | redoubts)))))
                self._danger[side] = self._zone("danger", side, (enemies, table), build)
                return self._danger[side]
            for h, us in self.occ.items():
                for u in us:
                    if not u.alive or u.side == side:
                        continue
                    if arm(u) in ("inf", "cav", "art", "cossack") or (arm(u) == "redoubt" and u.side == RUSSIA):
                        out.update(within2(h))
                        break
            self._danger[side] = frozenset(out)
        return self._danger[side]

    def musket(self, side: str) -> frozenset:
        """Hexes within 2 of enemy infantry (S2-1.4 zone)."""
        if side not in self._musket:
            if self.snapshot:  # the same hexes from the index, shared by content like danger
                if self._indexed is None:
                    self._index()
                table = self._indexed[3].get(other(side), _NO_SIDE)[2]  # type: ignore[index]

                def build():
                    sources = frozenset(table)
                    return _by_content(self.m, "musket", sources, lambda: frozenset(
                        _chain(map(within2, sorted(sources)))))
                self._musket[side] = self._zone("musket", side, (table,), build)
                return self._musket[side]
            out: set = set()
            for h in self.occ:
                if any(u.alive and u.side != side and arm(u) == "inf" for u in self.occ[h]):
                    out.update(within2(h))
            self._musket[side] = frozenset(out)
        return self._musket[side]

    # --- movement restrictions ---------------------------------------------------------------
    def line_banned(self, u) -> bool:
        if self.s1:
            return True
        if u.division in ("rc", "roos"):
            return True
        det = self.st.vars.get("detached", [])
        return u.division in det and u.side == SWEDEN

    def camp_bound(self, u) -> bool:
        if u.division == "lg":
            return True
        det = self.st.vars.get("detached", [])
        return u.side == RUSSIA and u.division in det

    def odb_restricted(self, u) -> bool:
        if self.s1 or arm(u) != "inf" or not stat(u, "odb"):
            return False
        if self.st.vars.get("odb", {}).get(u.side):
            return False
        if u.division in ("lg", "rc", "roos") or u.division in self.st.vars.get("detached", []):
            return False
        return True

    def passable(self, u, a, b) -> bool:
        if b not in self.m or self.terrain(b) in IMPASSABLE:
            return False
        if arm(u) in MOUNTED and self.terrain(b) in NO_CAVALRY:
            return False
        f = features(self.m, a, b)
        if "impassable" in f:
            return False
        if "retrenchment" in f and arm(u) in MOUNTED:
            return False
        return True

    def mover(self, u, mode: str) -> tuple:
        """What one unit's move in ``mode`` depends on (Part 4, 5 and S2-1.4): the edge costs for
        its kind, the hexes it may not enter (enemy units, danger and musket zones), the enemy
        ZOC, and whether ZOC stops it (not leaders) or bars it (Cossacks)."""
        side = u.side
        a = arm(u)
        danger = self.danger(side) if mode in ("long", "longroad") else frozenset()
        musket = self.musket(side) if self.odb_restricted(u) else frozenset()
        flags = (a in MOUNTED, self.line_banned(u), self.camp_bound(u), mode in ("road", "longroad"))
        return (_edge_costs(self.m, *flags), flags, self.enemy_hexes(side), danger, musket,
                self.zoc(side), a == "leader", a == "cossack")

    def step_fn(self, u, mode: str):
        edges, flags, enemy_occ, danger, musket, zoc, leader, cossack = self.mover(u, mode)
        m = self.m

        def step(a, b, spent, aux):
            cost = edges.get((a, b))
            if cost is None:
                cost = edges[(a, b)] = _edge_cost(m, a, b, *flags)
            if cost < 0 or b in enemy_occ or b in danger or b in musket:
                return None
            if not leader and b in zoc:
                if cossack:
                    return None
                return spent + cost, aux, True
            return spent + cost, aux, False
        return step

    def can_end(self, u, h) -> bool:
        if self.snapshot:
            if self._indexed is None:
                self._index()
            alive, combat, redoubts = self._indexed[:3]  # type: ignore[index]
            if h not in alive:
                # nobody here: only the terrain can forbid it
                a = arm(u)
                return not (a in MOUNTED and self.terrain(h) in NO_CAVALRY)
            side = u.side
            enemy = other(side)
            here = combat.get(h, ())
            if any(x.side == enemy for x in here):
                return False
            a = arm(u)
            if a == "leader":
                return True
            if a in MOUNTED and self.terrain(h) in NO_CAVALRY:
                return False
            own = [x for x in here if x.side == side]
            r = redoubts.get(h)
            if r is not None and (r.side == RUSSIA or own):
                return False    # a garrisoned redoubt: pass through only (A41); captured = plain (12.4)
            mates = [x for x in own if x.id != u.id]
            if not mates:
                return True
            if a == "art":
                return False
            return len(mates) == 1 and arm(mates[0]) == "art"
        if self.combat_at(h, other(u.side)):
            return False
        if arm(u) == "leader":
            return True
        if arm(u) in MOUNTED and self.terrain(h) in NO_CAVALRY:
            return False
        r = self.redoubt_at(h)
        if r is not None and r.side == RUSSIA:
            return False        # a garrisoned redoubt: pass through only (A41); captured = plain (12.4)
        if r is not None and self.combat_at(h, u.side):
            return False
        mates = [x for x in self.combat_at(h, u.side) if x.id != u.id]
        if not mates:
            return True
        if arm(u) == "art":
            return False
        return len(mates) == 1 and arm(mates[0]) == "art"

    def allowance(self, u, mode: str) -> int:
        return _MODE_FACTOR[mode] * int(stat(u, "ma"))

    def mode_ok_at_start(self, u, mode: str, start) -> bool:
        if mode in ("long", "longroad") and start in self.danger(u.side):
            return False
        if mode in ("road", "longroad") and not self.m.on_road(start):
            return False
        return True

    def search(self, u, mode: str, start=None) -> dict[Hex, Route]:
        start = Hex(*(start if start is not None else u.hex))
        if not self.mode_ok_at_start(u, mode, start):
            return {}
        nbrs = _tables(self.m)["nbrs"]
        can_end = partial(self.can_end, u)
        # a position that stands still: remember each answer for this unit
        memo = self._zoc.setdefault(("can_end", u.id), {}) if self.snapshot else None
        return _search(self.m, start, nbrs, self.mover(u, mode), self.allowance(u, mode), can_end, memo)

    def check_path(self, u, start, path, mode: str, spent0: int = 0) -> str | None:
        if not self.mode_ok_at_start(u, mode, start):
            return f"a {mode} move must start " + ("on a road" if "road" in mode else "3+ hexes from the enemy")
        step = self.step_fn(u, mode)
        allowance = self.allowance(u, mode)
        spent, here = spent0, Hex(*start)
        for i, nxt in enumerate(path):
            nxt = Hex(*nxt)
            if hex_distance(here, nxt) != 1:
                return f"{self.m.label(nxt)} is not adjacent to {self.m.label(here)}"
            out = step(here, nxt, spent, None)
            if out is None:
                return f"may not enter {self.m.label(nxt)} from {self.m.label(here)} ({mode} move)"
            spent, _, stop = out
            if spent > allowance:
                return f"not enough movement points to reach {self.m.label(nxt)}"
            if stop and i != len(path) - 1:
                return f"must stop on entering the enemy ZOC at {self.m.label(nxt)} (R4.6)"
            here = nxt
        if not self.can_end(u, here):
            return f"may not end its move in {self.m.label(here)} (stacking, enemy or redoubt)"
        return None

    def cut_off(self, a, b) -> bool:
        """Is ``a`` behind an impassable river as seen from ``b`` (R6.1.1)? True when every
        shortest hex path between them crosses an ``impassable`` hexside or a ``river`` hex, so no
        enemy ZOC from ``b``'s side can reach ``a`` by the short way."""
        a, b = Hex(*a), Hex(*b)
        n = hex_distance(a, b)
        frontier = {a}
        for d in range(n - 1, -1, -1):
            nxt = set()
            for h in sorted(frontier):
                for x in hex_neighbors(h):
                    if hex_distance(x, b) != d or x not in self.m:
                        continue
                    if x != b and self.terrain(x) == "river":
                        continue
                    if "impassable" in features(self.m, h, x):
                        continue
                    nxt.add(x)
            frontier = nxt
            if not frontier:
                return True
        return b not in frontier

    # --- line of sight (Part 7.4, 7.5) ---------------------------------------------------------
    def elevated(self, u) -> bool:
        return arm(u) == "art" and self.terrain(u.hex) in ELEVATED

    def los(self, a, b, through_units: bool) -> bool:
        """Clear unless the exact centre-to-centre line touches an intervening blocking hex, an
        intervening combat unit (unless ``through_units``) or a retrenchment hexside that is not
        the firer's or the target's own (R7, R6.3, A22: a vertex touch blocks)."""
        hexes, sides = sight_touches(a, b)
        for h in hexes:
            if self.terrain(h) in LOS_BLOCKING:
                return False
            if not through_units and self.combat_at(h):
                return False
        return not any("retrenchment" in features(self.m, p, q) for p, q in sides)

    def home_rows(self, side: str, h) -> int:
        edge = self.scn.side(side).home_edge or ("north" if side == RUSSIA else "south")
        return self.m.rows_from_edge(h, edge)


def dist(a, b) -> int:
    return hex_distance(a, b)


def hx(v: Any) -> Hex:
    return _new_hex(Hex, (int(v[0]), int(v[1])))  # Hex(q, r) without a call of Hex.__new__
