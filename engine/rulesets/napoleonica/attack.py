"""The Attack phase (spec 7, 21.9): who may charge whom, contact, failed attacks.

An attack order names the attacker, the target and the contact hex the attacker ends in (the
"two nearest stands" and the free hexsides are the attacker's choice, G-33), or no hex for a
declaration whose target is out of reach: that attack fails (7.7, G-32). The kind of attack
(front, flank, rear) is fixed at declaration by where the middle of the attacker's front lies in
the target's zones (7.5 item 5), and the contact hex must be across a hexside of that side.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor, hex_direction_to
from hexwar.engine.hexmap import HexMap
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from . import melee as M
from .geometry import (facings_fronting, flank_dirs, front_dirs, front_middle, rear_dirs,
                       zone_of_point, zone_touches)
from .sight import unit_sees


def commanded(hmap: HexMap, state: State, side: str) -> list[str]:
    """Units within 40 cm (d <= 9) of a general or the commander-in-chief (7.3, 13, G-20)."""
    gens = [g.hex for g in state.side_units(side) if B.is_general(g) and B.on_table(g)]
    return [u.id for u in state.side_units(side)
            if B.on_table(u) and not B.is_general(u)
            and B.near(B.stand_hexes(u), gens) <= D.COMMAND_D]


def in_contact(state: State, uid: str) -> bool:
    return any(uid in (c[0], c[1]) for c in state.vars.get("contacts", []))


def attacker_problem(state: State, u: Unit) -> str | None:
    """Why ``u`` may not declare an attack at all (7.1, 7.3 items 1-2)."""
    a = B.arm(u)
    if a not in ("inf", "cav"):
        return {"art": "artillery may not attack (7.1 item 3)",
                "eng": "engineers may not attack (7.1 item 4)",
                "train": "the train may not attack (G-03, G-15)",
                "gen": "generals do not attack"}.get(a, "this unit may not attack")
    if B.state_of(u) != "formed":
        return "a disordered unit may not attack (7.1 item 2)"
    if B.formation(u) == "square":
        return "a square may not attack (7.1 item 1)"
    if B.garrison(u):
        return "units in a settlement never attack out of it (7.1 item 9)"
    if u.marks.get("attacked") == state.turn:
        return f"{u.id} has already attacked this turn"
    if u.marks.get("targeted") == state.turn:
        return f"{u.id} has been attacked this turn and is in contact (7.3 item 2)"
    if u.id not in state.vars.get("commanded", []):
        return f"{u.id} was more than 40 cm (9 hexes) from every general of its side at the start " \
               "of the Attack phase (7.1 item 7, 7.3 item 1)"
    return None


def reach(hmap: HexMap, u: Unit) -> int:
    """10 cm, or 5 cm for infantry attacking from forest (7.4, 7.9 item 1)."""
    if B.any_on(hmap, u, ("forest",)):
        return D.ATTACK_REACH_FOREST
    return D.ATTACK_REACH


def kind_of_attack(u: Unit, t: Unit) -> str:
    """front / flank / rear: the target zone holding the middle of the attacker's front."""
    return zone_of_point(B.stand_hexes(t), B.facing(t), front_middle(B.head_stands(u), u.facing), k=8)


def side_dirs(t: Unit, kind: str) -> tuple[int, ...]:
    f = B.facing(t)
    if f is None:
        return tuple(range(6))
    return {"front": front_dirs(f), "flank": flank_dirs(f), "rear": rear_dirs(f)}[kind]


def _passable(hmap: HexMap, view: B.View, u: Unit, a: Hex, b: Hex) -> bool:
    """An attack path step (7.4): no river, lake, swamp, high wall or standing barricade;
    mounted cavalry not into forest (7.9 item 4). No attacker enters a river hex, bridge
    included: an attack may start on a bridge or strike a unit on one, never cross the river
    by it (7.4, "even by a bridge or ford")."""
    if b not in hmap or B.step_cost(hmap, view, u, a, b) is None:
        return False
    if hmap.terrain_at(b) == "river" and b not in B.stand_hexes(u):
        return False
    return hmap.terrain_at(b) not in ("swamp", "ravine", "ford")


def out_of_reach(hmap: HexMap, u: Unit, t: Unit) -> bool:
    """Whether an attack on ``t`` would fail for distance alone (21.9 item 7: the head more
    than R + 1 from every target stand); any other want of a way in makes it illegal."""
    return B.near((u.hex,), B.stand_hexes(t)) > reach(hmap, u) + 1


def target_problem(hmap: HexMap, view: B.View, u: Unit, t: Unit) -> str | None:
    """Why ``u`` may not attack ``t`` at all (7.1 items 5-6, 7.3 items 3-4)."""
    if t.side == u.side or not B.on_table(t) or B.is_general(t):
        return "the target must be an enemy unit on the table"
    if B.any_on(hmap, u, ("ford",)) or B.any_on(hmap, t, ("ford",)):
        return "no attack from a ford or onto a ford (7.4)"
    if B.any_on(hmap, u, ("rampart",)) or B.any_on(hmap, t, ("rampart",)):
        return "no attack from or onto fort and fortress walls (7.1 item 10)"
    if B.infantry_like(u) and B.mounted(t):
        return "infantry may not attack mounted cavalry (7.1 item 5)"
    if B.mounted(u) and B.any_on(hmap, t, ("forest",)):
        return "mounted cavalry may not attack a target inside a forest (7.1 item 6)"
    if B.mounted(u) and B.any_on(hmap, t, ("village",)):
        return "mounted cavalry may not attack a settlement (7.1 item 6)"
    if not zone_touches(B.stand_hexes(u), u.facing, "front", B.stand_hexes(t)):
        return "the target is not in the attacker's frontal zone (7.3 item 3)"
    if not unit_sees(hmap, view, u, t):
        return "the attacker cannot see the target from the middle of its front (7.3 item 4, 21.6)"
    return None


def contact_hexes(hmap: HexMap, view: B.View, u: Unit, t: Unit) -> list[Hex]:
    """Free hexes across the required side of one of the target's two stands nearest to the
    attacker's head (7.5 item 4, 21.9) where the attacker could stand."""
    out = []
    for x, d in _contact_sides(u, t):
        h = hex_neighbor(x, d)
        if h not in hmap or h in out:
            continue
        other = view.stands.get(h)
        if other is not None and other.id != u.id:
            continue
        if any(g.side != u.side for g in view.generals.get(h, ())):
            continue
        feats = hmap.features_between(h, x)
        if not _passable(hmap, view, u, x, h) or "wall" in feats:
            continue
        if "earthwork" in feats and B.mounted(u):
            continue          # 7.1 item 8: no cavalry charge across an artillery fortification
        if column_stands(hmap, view, u, t, h) is None:
            continue          # 7.5 item 7: the rest of the column finds no room at all
        out.append(h)
    return out


def line_attack(u: Unit) -> bool:
    """A line of two or more stands attacks stand by stand (7.6); anything else as a column."""
    return B.formation(u) == "line" and u.strength > 1 and not B.compact(u)


def contact_facing(u: Unit, t: Unit, h: Hex) -> int:
    """The head's facing in contact hex ``h``: the contacted hexside on its front, the one of
    the two nearer the old facing, clockwise on a tie (21.9 item 5)."""
    d = hex_direction_to(h, contacted_stand(u, t, h))
    options_f = facings_fronting(d)
    if u.facing in options_f:
        return u.facing
    return min(options_f, key=lambda f: (min((f - u.facing) % 6, (u.facing - f) % 6), (u.facing - f) % 6))


def column_stands(hmap: HexMap, view: B.View, u: Unit, t: Unit, h: Hex) -> tuple[Hex, ...] | None:
    """Where a column's stands stand once its head is in contact hex ``h`` (21.9 item 6): laid
    out behind the head (its own variant, else the mirror one); the stands that do not fit go
    to free hexes next to the target's stands, nearest the head first (7.5 item 7). None when
    they find no room."""
    from .footprint import layout
    from .movement import standable
    n = u.strength
    if n <= 1 or B.compact(u):
        return (h,)
    f = contact_facing(u, t, h)

    def ok(x: Hex) -> bool:
        other = view.stands.get(x)
        return standable(hmap, view, u, x) and (other is None or other.id == u.id) \
            and not any(g.side != u.side for g in view.generals.get(x, ()))

    mirror = bool(u.marks.get("mirror"))
    tries = [layout(B.formation(u), h, f, n, m) for m in (mirror, not mirror)]
    for lay in tries:
        if all(ok(x) for x in lay):
            return lay
    placed = [h]
    for x in tries[0][1:]:
        if not ok(x):
            break
        placed.append(x)
    spare = sorted({x for s in B.stand_hexes(t) for x in (hex_neighbor(s, d) for d in range(6))
                    if x not in placed and ok(x)}, key=lambda x: (hex_distance(x, h), x))
    need = n - len(placed)
    if len(spare) < need:
        return None
    return tuple(placed + spare[:need])


def line_advance(hmap: HexMap, view: B.View, u: Unit, first: int) -> tuple[tuple[Hex, ...], list[str], bool, bool]:
    """A line attack stand by stand (7.6, 21.9): each stand steps straight ahead, first step
    ``first`` then the other front hexside, at most the reach; a stand next to an enemy stand
    stops before stepping; a stand blocked by ground or a non-enemy stand stops too, which
    makes the declaration illegal (the narrow-gap rule). Returns (stands, enemy units touched,
    legal, an obstacle crossed)."""
    fr, fl = front_dirs(u.facing)
    order = (first, fl if first == fr else fr)
    cur = list(B.stand_hexes(u))
    stopped = [False] * len(cur)
    legal, crossed = True, False
    mine = set(cur)
    for step in range(reach(hmap, u)):
        d = order[step % 2]
        for i, x in enumerate(cur):
            if stopped[i]:
                continue
            if view.adjacent_enemy(x, u.side):
                stopped[i] = True
                continue
            n = hex_neighbor(x, d)
            other = view.stands.get(n)
            if not _passable(hmap, view, u, x, n) or (other is not None and n not in mine):
                stopped[i] = True
                legal = False
                continue
            crossed = crossed or "obstacle" in hmap.features_between(x, n)
            cur[i] = n
        mine = set(cur)
    touched = sorted({e.id for x in cur for k in range(6)
                      if (e := view.stands.get(hex_neighbor(x, k))) is not None and e.side != u.side})
    return tuple(cur), touched, legal, crossed


def line_options(hmap: HexMap, view: B.View, u: Unit, t: Unit) -> list[tuple[Hex | None, int]]:
    """(the left-end stand's final hex, or None for an attack that will fail, first step) of a
    line attack on ``t``: one per legal choice of first step (7.6)."""
    out: list[tuple[Hex | None, int]] = []
    fr, fl = front_dirs(u.facing)
    for first in (fl, fr):
        stands, touched, legal, _ = line_advance(hmap, view, u, first)
        if not legal:
            continue
        # it fights whatever it touches (G-34); touching nobody, the attack fails (7.6, 7.7)
        key: Hex | None = stands[0] if touched else None
        if all(k != key for k, _ in out):
            out.append((key, first))
    return out


def _contact_sides(u: Unit, t: Unit) -> list[tuple[Hex, int]]:
    """(target stand, hexside direction) pairs an attack of its kind may make contact across."""
    dirs = side_dirs(t, kind_of_attack(u, t))
    # "the two nearest stands", ties the attacker's choice (21.9 item 2): every stand as near as
    # the second nearest may be one of the two
    stands = sorted(B.stand_hexes(t), key=lambda x: (hex_distance(x, u.hex), x))
    cut = hex_distance(stands[min(1, len(stands) - 1)], u.hex)
    nearest = [x for x in stands if hex_distance(x, u.hex) <= cut]
    return [(x, d) for x in nearest for d in dirs]


def contacted_stand(u: Unit, t: Unit, h: Hex) -> Hex:
    """The target stand an attacker in contact hex ``h`` charges (the first that fits)."""
    return next(x for x, d in _contact_sides(u, t) if hex_neighbor(x, d) == h)


def paths(hmap: HexMap, view: B.View, u: Unit, goal: Hex) -> list[Hex] | None:
    """The attacker's path (hexes entered) to ``goal`` within its reach, or None. A line goes
    straight ahead (FL then FR or FR then FL, 7.6); a column may take any route (7.5)."""
    r = reach(hmap, u)
    if u.hex == goal:
        return []

    def ok(a: Hex, b: Hex) -> bool:
        other = view.stands.get(b)
        if other is not None and other.id != u.id and b != goal:
            return False
        if b != goal and other is not None:
            return False
        return _passable(hmap, view, u, a, b)

    if B.formation(u) == "line":
        fr, fl = front_dirs(u.facing)
        for first, second in ((fl, fr), (fr, fl)):
            h, path = u.hex, []
            for d in (first, second)[:r]:
                n = hex_neighbor(h, d)
                if not ok(h, n):
                    break
                path.append(n)
                h = n
                if n == goal:
                    return path
        return None
    frontier: list[tuple[Hex, list[Hex]]] = [(u.hex, [])]
    seen = {u.hex}
    for _ in range(r):
        nxt = []
        for h, path in frontier:
            for d in range(6):
                n = hex_neighbor(h, d)
                if n in seen or not ok(h, n):
                    continue
                if n == goal:
                    return path + [n]
                if n in view.stands:
                    continue
                seen.add(n)
                nxt.append((n, path + [n]))
        frontier = nxt
    return None


def options(hmap: HexMap, view: B.View, state: State, u: Unit) -> list[tuple[str, Hex | None]]:
    """(target id, contact hex or None for a declaration that will fail) for one attacker;
    for a line the hex is where its left-end stand ends (7.6)."""
    if attacker_problem(state, u) is not None:
        return []
    out: list[tuple[str, Hex | None]] = []
    for t in view.enemy_stands(u.side):
        if B.gap(t, u) > reach(hmap, u) + 3:
            continue
        if target_problem(hmap, view, u, t) is not None:
            continue
        if line_attack(u):
            out.extend((t.id, h) for h, _ in line_options(hmap, view, u, t))
            continue
        cands = contact_hexes(hmap, view, u, t)
        reachable = [h for h in cands if paths(hmap, view, u, h) is not None]
        for h in reachable:
            out.append((t.id, h))
        if cands and not reachable and out_of_reach(hmap, u, t):
            out.append((t.id, None))
    return out


def validate(hmap: HexMap, view: B.View, state: State, u: Unit, t: Unit, h: Hex | None) -> str | None:
    why = attacker_problem(state, u) or target_problem(hmap, view, u, t)
    if why:
        return why
    if line_attack(u):
        opts = line_options(hmap, view, u, t)
        if not opts:
            return "a stand of the line would be stopped by ground or a unit before touching " \
                   "the enemy: cannot attack (7.4, 7.6)"
        if h not in [k for k, _ in opts]:
            ends = ", ".join("fails" if k is None else hmap.label(k) for k, _ in opts)
            return f"a line attacks straight ahead (7.6); its left-end stand ends in: {ends}"
        return None
    cands = contact_hexes(hmap, view, u, t)
    if not cands:
        return f"there is no free hex across {t.id}'s {kind_of_attack(u, t)} that an attack may " \
               "enter (no river, even by a bridge, no ford, swamp or ravine): cannot attack (7.4, 7.5 item 6)"
    if h is None:
        if any(paths(hmap, view, u, c) is not None for c in cands):
            return "the target is within reach: name the contact hex"
        if not out_of_reach(hmap, u, t):
            return "the way to the target is closed (a river, even by a bridge, a lake, swamp, " \
                   "ravine, ford, high wall or other units): cannot attack (7.4, 21.9 item 7)"
        return None
    if h not in cands:
        return f"{kind_of_attack(u, t)} attack: the contact hex must be free and across the " \
               f"target's {kind_of_attack(u, t)} hexsides"
    if paths(hmap, view, u, h) is None:
        return "the contact hex is out of the attacker's reach or its path is blocked (7.4, 7.6)"
    return None


def _cover(hmap: HexMap, state: State, t: Unit, h: Hex, struck: Hex, stands: tuple[Hex, ...]) -> int:
    """The cover the attacker fights against (22.4): forest (7.9 item 3) when any stand of the
    attacker, as it stands in contact (``stands``), is in forest, the tail included; a
    settlement, fort wall or fortified settlement at the struck stand; a battery's artillery
    fortification across the contacted hexside. ``[rules] forest_cover = "either"`` also
    counts the struck stand's forest (the reading before 7.9 item 3 was read for whose stands)."""
    forest = D.MELEE_MODS["cover"] if any(hmap.terrain_at(x) == "forest" for x in stands) else 0
    if hmap.terrain_at(struck) == "forest":
        place = D.MELEE_MODS["cover"] if state.vars.get("forest_cover") == "either" else 0
    else:
        place = B.cover(hmap, state, struck, D.MELEE_MODS)
    return min(forest, place, D.MELEE_MODS["cover"] if _fortified_battery(hmap, struck, t, h) else 0)


def _place(u: Unit, stands: tuple[Hex, ...]) -> None:
    """Put the unit's stands in ``stands`` (anchor first), stored when off its layout."""
    u.hex = stands[0]
    if stands == B.layout_of(u, stands[0], u.facing) or len(stands) <= 1:
        B.unfreeze_stands(u)
    else:
        u.mark("stands", B.encode_stands(stands))


def _resolve_line(ctx: Resolution, view: B.View, u: Unit, t: Unit, h: Hex | None, kind: str) -> None:
    state, hmap = ctx.state, ctx.map
    first = next(fd for k, fd in line_options(hmap, view, u, t) if k == h)
    kinds = {e.id: kind_of_attack(u, e) for e in view.enemy_stands(u.side)}
    stands, touched, _, crossed = line_advance(hmap, view, u, first)
    if h is None:
        _place(u, stands)
        B.freeze_stands(u)
        u.mark("state", "disordered")
        ctx.emit("attack-failed", unit=u.id, target=t.id, at=[u.hex[0], u.hex[1]])
        return
    _place(u, stands)
    for eid in ([t.id] if t.id in touched else []) + [x for x in touched if x != t.id]:
        e = state.units[eid]
        e.mark("targeted", state.turn)
        struck, at = next((s, x) for x in stands for s in B.stand_hexes(e) if hex_distance(s, x) == 1)
        cover = _cover(hmap, state, e, at, struck, stands)
        state.vars.setdefault("contacts", []).append(
            [u.id, e.id, kind if eid == t.id else kinds.get(eid, "front"), cover, crossed, False, B.mounted(u)])
        ctx.emit("contact", unit=u.id, target=e.id, attack=kind if eid == t.id else kinds.get(eid, "front"),
                 at=[at[0], at[1]], facing=u.facing, cover=cover, obstacle=crossed)


def resolve(ctx: Resolution, u: Unit, t: Unit, h: Hex | None) -> None:
    state, hmap = ctx.state, ctx.map
    view = B.View(state)
    kind = kind_of_attack(u, t)
    u.mark("attacked", state.turn)
    t.mark("targeted", state.turn)
    ctx.emit("attack-declared", unit=u.id, target=t.id, attack=kind)
    if line_attack(u):
        _resolve_line(ctx, view, u, t, h, kind)
        return
    if h is None:
        _fail(ctx, view, u, t)
        return
    path = paths(hmap, view, u, h) or []
    start = u.hex
    crossed = any("obstacle" in hmap.features_between(a, b)
                  for a, b in zip([start] + path, path))
    struck = contacted_stand(u, t, h)
    newf = contact_facing(u, t, h)
    stands = column_stands(hmap, view, u, t, h) or (h,)
    u.facing = newf
    _place(u, stands)
    cover = _cover(hmap, state, t, h, struck, stands)
    state.vars.setdefault("contacts", []).append(
        [u.id, t.id, kind, cover, crossed, B.formation(u) == "column", B.mounted(u)])
    ctx.emit("contact", unit=u.id, target=t.id, attack=kind, at=[h[0], h[1]], facing=newf,
             cover=cover, obstacle=crossed)


def _fortified_battery(hmap: HexMap, struck: Hex, t: Unit, h: Hex) -> bool:
    """A battery (in ``struck``) attacked across the front of its artillery fortification (22.4)."""
    return B.arm(t) == "art" and "earthwork" in hmap.features_between(h, struck)


#: translation directions in the spec's clock order 1, 3, 5, 7, 9, 11 (21.8): NE, E, SE, SW, W, NW
CLOCK_DIRS = (1, 0, 5, 4, 3, 2)


def fail_steps(hmap: HexMap, view: B.View, u: Unit, target: tuple[Hex, ...]) -> tuple[int, ...]:
    """The translation a failed column attack makes (7.7, 21.9, G-31): up to the reach, every
    stand one hex the same way through legal placements (no stand next to an enemy stand), to
    end as near the target's nearest stand as it can, which is d = 2 when that is in reach;
    among equally near ends the fewest steps, then the first in clock order."""
    from .movement import _free
    start = B.stand_hexes(u)
    best = (B.near(start, target), 0, ())
    frontier = [(start, ())]
    seen = {start}
    for depth in range(1, reach(hmap, u) + 1):
        nxt = []
        for stands, steps in frontier:
            for d in CLOCK_DIRS:
                moved = tuple(hex_neighbor(x, d) for x in stands)
                if moved in seen or not all(_passable(hmap, view, u, a, b) and _free(view, u, b)
                                            for a, b in zip(stands, moved)):
                    continue
                seen.add(moved)
                nxt.append((moved, steps + (d,)))
                key = (B.near(moved, target), depth, steps + (d,))
                if key[:2] < best[:2]:
                    best = key
        frontier = nxt
    return best[2]


def _fail(ctx: Resolution, view: B.View, u: Unit, t: Unit) -> None:
    """Failed column attack (7.7, 21.9): the whole column moves as ``fail_steps`` says, then is
    disordered where it stands."""
    for d in fail_steps(ctx.map, view, u, B.stand_hexes(t)):
        for x in B.stand_hexes(u):
            view.stands.pop(x, None)
        B.move_stands(u, d)
        for x in B.stand_hexes(u):
            view.stands[x] = u
    B.freeze_stands(u)
    u.mark("state", "disordered")
    ctx.emit("attack-failed", unit=u.id, target=t.id, at=[u.hex[0], u.hex[1]])


def preview(hmap: HexMap, state: State, u: Unit, t: Unit, h: Hex | None) -> dict[str, Any]:
    if h is None:
        return {"result": "the attack fails: out of reach (7.7); the attacker ends disordered"}
    return attack_preview(hmap, state, u, t, h)


def attack_preview(hmap: HexMap, state: State, u: Unit, t: Unit, h: Hex) -> dict[str, Any]:
    """The melee this attack would start, as the two totals' terms and the chance of winning."""
    trial = state.copy()
    kind = kind_of_attack(u, t)
    tu = trial.units[u.id]
    view = B.View(state)
    if line_attack(u):
        first = next(fd for k, fd in line_options(hmap, view, u, t) if k == h)
        stands, touched, _, crossed = line_advance(hmap, view, u, first)
        _place(tu, stands)
        met = [s for e in ([t] + [state.units[x] for x in touched]) for s in B.stand_hexes(e)]
        struck, at = next((s, x) for x in stands for s in met if hex_distance(s, x) == 1)
        cover = _cover(hmap, state, t, at, struck, stands)
    else:
        tu.hex = h
        struck = contacted_stand(u, t, h)
        cover = _cover(hmap, state, t, h, struck, column_stands(hmap, view, u, t, h) or (h,))
        path = paths(hmap, view, u, h) or []
        crossed = any("obstacle" in hmap.features_between(a, b) for a, b in zip([u.hex] + path, path))
    trial.vars["contacts"] = [[u.id, t.id, kind, cover, crossed, B.formation(u) == "column", B.mounted(u)]]
    group = [u.id, t.id]
    pa = M.side_terms(hmap, trial, group, u.side)
    pb = M.side_terms(hmap, trial, group, t.side)
    win, total = M.win_chance(pa[1], sum(v for _, v in pa[2]), True, pb[1], sum(v for _, v in pb[2]), False)
    return {"kind": kind, "modifiers": pa[2], "defender terms": pb[2],
            "chances": {"attacker wins": (win, total), "defender wins (ties too)": (total - win, total)}}


