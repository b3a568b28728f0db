"""Computer player for Poltava 1709: scores a moderate set of candidate orders.

Movement considers one unit per decision (the first of its side not yet moved), so a decision
costs a few move searches, never one per unit on the map. Fire prefers likely eliminations,
melee the best expected step balance; obligations (R8.2) force an attack when one is owed.
"""

from __future__ import annotations

from hexwar.engine.hexgrid import hex_distance, hex_neighbors, hex_spiral
from hexwar.engine.orders import Order

from . import melee as M
from .board import _tables, arm, cs_of, hx, other, stars_of, view_of
from .data import FIRE_RANGE, MELEE_ARMS, RUSSIA, SWEDEN, parse_result


def ai_orders(rs, game):
    st = game.state
    if st.result is not None:
        return []
    v = view_of(game)
    if st.pending:
        return list(_answers(rs, v, st.pending[0]))
    if st.phase == "setup":
        return [(0, Order.make("setup"))]
    out: list[tuple[int, Order]] = []
    end_ok = rs._end_phase_blocker(v) is None
    if st.phase == "move":
        out.extend(_moves(rs, v))
        if end_ok:
            out.append((-10_000 if any(True for s, o in out if o.kind in ("move", "enter", "hold")) else 0,
                        Order.make("end-phase")))
    elif st.phase == "fire":
        for o in rs.fire_orders(v):
            out.append((_fire_score(rs, v, o), o))
        if end_ok:
            out.append((0, Order.make("end-phase")))
    elif st.phase == "melee":
        for o in rs.attack_orders(v):
            out.append((_attack_score(rs, v, o, end_ok), o))
        if end_ok:
            out.append((0, Order.make("end-phase")))
    if not out:
        out = [(0, o) for o in rs.legal_orders(game)]
    return out


def _answers(rs, v, p):
    st = v.st
    for o in rs._answer_orders(v, p):
        s = 0
        if o.kind == "lose":
            u = st.units[o["unit"]]
            s = 10 * u.strength + cs_of(u)
        elif o.kind in ("keep-roll", "reroll"):
            c = st.vars["combat"]
            kind, n, _ = parse_result(M.result_for(c["index"], p["roll"], c["drm"]))
            bad = (kind == "A") if p["who"] == "att" else (kind == "D")
            s = (10 if bad else 0) if o.kind == "reroll" else (0 if bad else 10)
        elif o.kind == "pursue":
            s = 6 if len(o["path"]) == 1 else 2
        elif o.kind == "no-pursuit":
            s = 4
        elif o.kind == "withdraw":
            s = -v.home_rows(p["side"], hx(o["path"][-1]))
        yield s, o


def _enemy_hexes(v, side):
    return sorted(u.hex for u in v.st.side_units(other(side)) if arm(u) in ("inf", "cav", "art", "cossack"))


def _near(h, field) -> int:
    return field.get(h, 30)


def _field(v, side):
    """Hex distance to the nearest enemy combat unit, for every map hex (multi-source BFS).

    The answer depends only on the map and where the enemy stands, which does not change while
    a side moves, so it is kept on the map's tables keyed on those enemy hexes."""
    key = "near" + side
    if key not in v._zoc:
        sources = tuple(_enemy_hexes(v, side))
        cache = _tables(v.m).setdefault("ai_near", {})
        dist = cache.get(sources)
        if dist is None:
            dist = _distances(v, sources)
            if len(cache) > 32:
                cache.clear()
            cache[sources] = dist
        v._zoc[key] = dist
    return v._zoc[key]


def _distances(v, sources) -> dict:
    nbrs = _tables(v.m)["nbrs"]
    dist = {}
    frontier = []
    for h in sources:
        if h not in dist:
            dist[h] = 0
            frontier.append(h)
    d = 0
    while frontier and d < 30:
        d += 1
        nxt = []
        for h in frontier:
            for n in nbrs.get(h, ()):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


def _moves(rs, v):
    st = v.st
    side = st.active
    out = []
    if not v.s1 and st.active == RUSSIA and st.turn >= 6 and rs._validate_exchange(v) is None:
        out.append((50_000, Order.make("exchange")))   # Part 3: before any unit moves
    if not v.s1 and st.active == RUSSIA:
        for o in rs.legal_orders_regarrison(v):
            out.append((60_000, o))   # Part 3: first of all, before the exchange
    enemies = _field(v, side)
    target = _objective(v, side)
    if not v.s1 and side == RUSSIA:
        for d in v.scn.rule("ai_detach_russia", []):
            o = Order.make("detach", division=d)
            if rs._validate_detach(v, o) is None:
                out.append((400, o))
    slots = _odb_slots(v, side)
    for u in st.side_units(side, alive=False):
        if u.marks.get("waiting") and u.strength > 0 and u.marks["waiting"] <= st.turn:
            start = rs.entry_hex(v, u)
            if start is None:
                continue
            cands = []
            if v.can_end(u, start):
                cands.append((_dest_score(v, u, start, enemies, target), [start], "normal"))
            for mode in ("long", "normal"):
                for h, r in v.search(u, mode, start).items():
                    cands.append((_dest_score(v, u, h, enemies, target) - _redoubt_risk(v, u, r.path),
                                  [start, *r.path], mode))
            cands.sort(key=lambda c: (-c[0], c[1]))
            for sc, path, mode in cands[:6]:
                out.append((1000 + sc, Order.make("enter", unit=u.id, path=path, mode=mode)))
            if out:
                return out
    for u in st.side_units(side):
        if u.marks.get("moved") or arm(u) in ("art", "redoubt"):
            continue
        if v.camp_bound(u) or arm(u) == "cossack":
            continue
        if arm(u) != "leader" and u.hex in v.zoc(side):
            continue
        if (not v.s1 and side == RUSSIA and st.turn < 5 and arm(u) != "leader"
                and u.division not in ("mn", "rc")):
            continue
        cands = []
        slot = slots.get(u.id)
        base = (lambda h: -100 * hex_distance(h, slot)) if slot is not None else \
            (lambda h: _dest_score(v, u, h, enemies, target))
        scores: dict = {}  # a hex reached in several modes is scored once

        def score(h):
            sc = scores.get(h)
            if sc is None:
                sc = scores[h] = base(h)
            return sc
        garrisons = _risky_hexes(v, u)
        for mode in ("normal", "long", "road", "longroad"):
            for h, r in v.search(u, mode).items():
                # paths stay tuples: they sort as the lists the orders are made of would
                path = r.path
                risk = 25 * sum(1 for x in path if x in garrisons) if garrisons else 0
                cands.append((score(h) - risk, path, mode))
        if not cands:
            continue
        cands.sort(key=_best_first)
        out.append((score(u.hex), Order.make("hold", unit=u.id)))
        for sc, path, mode in cands[:6]:
            out.append((sc, Order.make("move", unit=u.id, path=list(path), mode=mode)))
        return out
    return out


def _best_first(c) -> tuple:
    return (-c[0], c[1])


def _risky_hexes(v, u) -> frozenset:
    """The hexes whose passing costs ``u`` a risk (``_redoubt_risk``): none for a Russian or a
    leader."""
    if u.side != SWEDEN or arm(u) == "leader":
        return frozenset()
    return v.garrison_hexes()


def _redoubt_risk(v, u, path) -> int:
    """S2-2.6: every Russian redoubt passed risks a step and the Roos column."""
    garrisons = _risky_hexes(v, u)
    if not garrisons:
        return 0
    return 25 * sum(1 for h in path if h in garrisons)


def _odb_slots(v, side) -> dict:
    """S2-1: until the side has formed, each line battalion heads for its place in a straight
    line (anchor hex and direction from the scenario's ``ai_odb_<side>`` rule)."""
    st = v.st
    if v.s1 or st.vars["odb"].get(side):
        return {}
    spec = v.scn.rule(f"ai_odb_{side}")
    if not spec:
        return {}
    from .board import stat
    from hexwar.engine.hexgrid import hex_neighbor
    units = [u for u in st.side_units(side) if arm(u) == "inf" and v.odb_restricted(u)
             and v.redoubt_at(u.hex) is None]  # (only infantry is ever restricted)
    units.sort(key=lambda u: (stat(u, "odb"), u.id))
    h = v.m.parse(spec[0])
    out = {}
    for u in units:
        out[u.id] = h
        h = hex_neighbor(h, int(spec[1]))
    return out


def _objective(v, side):
    """Where an army heads when no enemy is near: the Swedes the Russian camp, the Russians the field."""
    lab = v.scn.rule(f"objective_{side}")
    if isinstance(lab, str):
        return v.m.parse(lab)
    return None


# What one enemy gun or musket that can reach a hex costs a unit ending its move there.
_EXPOSED = {"inf": 25, "redoubt": 25, "art": 20}


def _exposure(v, side, h) -> int:
    """How much enemy fire can reach ``h``. Nothing when ``h`` is in an enemy ZOC (R6.1: nobody
    fires into his own ZOC, canister aside), so a unit that charges home is safer than one left
    at musket range, and cavalry waiting under the camp's guns is wasted."""
    key = "exposure" + side
    if key not in v._zoc:
        shooters = tuple((e.hex, a) for e in v.st.side_units(other(side)) if (a := arm(e)) in _EXPOSED)
        cache = _tables(v.m).setdefault("ai_exposure", {})
        reach = cache.get(shooters)
        if reach is None:
            reach = {}
            for eh, a in shooters:
                for n in _spiral(eh, FIRE_RANGE[a]):
                    reach[n] = reach.get(n, 0) + _EXPOSED[a]
            if len(cache) > 32:
                cache.clear()
            cache[shooters] = reach
        v._zoc[key] = reach
    return 0 if h in v.zoc(side) else min(100, v._zoc[key].get(h, 0))


_SPIRALS: dict = {}


def _spiral(h, r) -> tuple:
    """``hex_spiral(h, r)``, remembered (pure geometry, keyed on the hex and radius)."""
    key = (h[0], h[1], r)
    out = _SPIRALS.get(key)
    if out is None:
        out = tuple(hex_spiral(h, r))
        if len(_SPIRALS) > 50_000:
            _SPIRALS.clear()
        _SPIRALS[key] = out
    return out


def _dest_score(v, u, h, enemies, target) -> int:
    d = _near(h, enemies)
    a = arm(u)
    if a == "leader":
        mates = [x for x in v.combat_at(h, u.side) if arm(x) in MELEE_ARMS and x.id != u.id]
        return (20 - d) * 10 if mates else -1000
    score = 0
    if target is not None:
        score -= hex_distance(h, target) * 3
    if a == "inf" and stars_of(u) < 2:
        # line infantry likes musket range (2) and does not rush into contact alone
        score -= abs(d - 2) * 10 if d > 1 else (5 if cs_of(u) >= 3 else -15)
    elif a == "inf":
        # bayonet infantry (two stars and more) closes with the enemy
        score -= (d - 1) * 10
        score -= _exposure(v, u.side, h)
    else:
        score -= d * 10
        score -= _exposure(v, u.side, h)
        if d == 1:
            enemy = other(u.side)
            adj = [x for n in hex_neighbors(h) for x in v.combat_at(n, enemy) if arm(x) in MELEE_ARMS]
            if sum(cs_of(x) for x in adj) > cs_of(u) + 1:
                score -= 25
    t = v.terrain(h)
    if t in ("village",):
        score += 6
    return score


def _fire_score(rs, v, o) -> int:
    st = v.st
    u, t = st.units[o["unit"]], st.units[o["target"]]
    f, _, can = rs.fire_value(v, u)
    shots = 2 if can and hex_distance(u.hex, t.hex) == 1 else 1
    p6 = max(0, 7 - f) * shots
    worth = (15 * _rout_weight(v, [t])) if t.strength == 1 else 15
    return p6 * worth + 1


def _rout_weight(v, units) -> int:
    """Armies rout by divisions (R10.2), so a loss in a division close to its rout number is
    worth more: 4 when one more counter routs it, 3 for two, else 2 (halved in the caller)."""
    st = v.st
    best = 2
    for u in units:
        d = next((d for d in v.scn.divisions if d.id == u.division), None)
        if d is None or d.rout_threshold is None or d.id in st.vars["routed"]:
            continue
        need = d.rout_threshold - st.vars["box"].get(d.id, 0)
        best = max(best, 4 if need <= 1 else 3 if need == 2 else 2)
    return best


def _attack_score(rs, v, o, end_ok) -> int:
    why, units, hexes = rs._validate_attack(v, o)
    if why is not None:
        return -100_000
    a = M.analyse(v, units, hexes)
    if a["lone_artillery"]:
        return 400
    gain = 6 * _rout_weight(v, [v.st.units[i] for i in a["defenders"]])
    cost = 6 * _rout_weight(v, units)
    ev = 0
    for die in range(1, 7):
        kind, n, star = parse_result(M.result_for(a["index"], die, a["drm"]))
        if kind == "D":
            ev += gain * n + (20 if a["storming_redoubt"] else 0)
        elif kind == "A":
            ev -= cost * n
        else:
            ev += gain - cost + (20 if a["storming_redoubt"] else 0)
    # spread attackers: fewer units committed is better when the odds are the same
    return ev - 3 * len(units)
