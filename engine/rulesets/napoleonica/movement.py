"""Movement-phase actions (spec 9, 21.8): moves with wheels, formation changes, generals.

A move is a chain of steps of one kind (21.8): forward (FL/FR alternating, so the unit keeps its
straight-ahead ray; infantry lines may mix them: the oblique move), backward (RL/RR the same way,
at the backward allowance), sideways (all LF or all RF, never artillery or train), or a square's
single step in any direction. Wheels of 60 degrees may come between forward or backward steps and
cost the front-rank stands. No placement may be next to an enemy stand (9.4).

The search is breadth-first over (hex, facing, last step) with neighbour order fixed, so both
peers find the same path to every (end hex, end facing): ``moves`` returns that canonical path.
"""

from __future__ import annotations

import heapq
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.state import Unit

from . import board as B
from . import data as D
from .footprint import layout
from .geometry import flank_dirs, front_dirs, rear_dirs

Move = tuple[str, tuple[Hex, ...]]   # (mode, hexes entered)


def _free(view: B.View, u: Unit, h: Hex) -> bool:
    """A stand may stand in ``h``: no other stand, no enemy general, no enemy stand adjacent."""
    other = view.stands.get(h)
    if other is not None and other.id != u.id:
        return False
    if any(g.side != u.side for g in view.generals.get(h, ())):
        return False
    for d in range(6):
        e = view.stands.get(hex_neighbor(h, d))
        if e is not None and e.side != u.side:
            return False
    return True


def standable(hmap: HexMap, view: B.View, u: Unit, h: Hex) -> bool:
    """Ground the unit's stand may stand on (22.7): on the map, not water, not a settlement or
    wall (those take their own actions), not forest for mounted units."""
    return h in hmap and B.step_cost(hmap, view, u, h, h) is not None


def fits(hmap: HexMap, view: B.View, u: Unit, hexes: tuple[Hex, ...]) -> bool:
    """A whole footprint may be placed (21.5, 21.8, 9.4): every stand on ground it may stand on,
    in a hex no other unit's stand holds, with no enemy stand next to it."""
    return all(standable(hmap, view, u, h) and _free(view, u, h) for h in hexes)


def fit_problem(hmap: HexMap, view: B.View, u: Unit, hexes: tuple[Hex, ...]) -> str | None:
    """Why a footprint does not fit, naming the first stand hex at fault (for the why-not)."""
    for h in hexes:
        if h not in hmap:
            return f"a stand would be off the map at {tuple(h)}"
        label = hmap.label(h)
        if not standable(hmap, view, u, h):
            return f"hex {label} is {hmap.terrain_at(h)}"
        other = view.stands.get(h)
        if other is not None and other.id != u.id:
            return f"hex {label} holds {other.id}"
        if not _free(view, u, h):
            return f"hex {label} is next to an enemy stand (9.4)"
    return None


def _shape(u: Unit):
    """The function placing the unit's stands for an (anchor, facing): its 21.5 layout, or,
    for stands kept off their layout, those stands carried along rigidly (no wheels)."""
    stored = u.marks.get("stands")
    if isinstance(stored, str) and stored:
        here = B.decode_stands(stored)
        q0, r0 = u.hex

        def carried(a: Hex, f: int) -> tuple[Hex, ...]:
            return tuple(Hex(h[0] + a[0] - q0, h[1] + a[1] - r0) for h in here)
        return carried, False
    return (lambda a, f: B.layout_of(u, a, f)), True


def _step_cost(hmap: HexMap, view: B.View, u: Unit, stands: tuple[Hex, ...], d: int) -> int | None:
    """A translation step of the whole formation (21.8): the dearest stand's cost."""
    worst = 0
    for h in stands:
        c = B.step_cost(hmap, view, u, h, hex_neighbor(h, d))
        if c is None:
            return None
        worst = max(worst, c)
    return worst


def _search(hmap: HexMap, view: B.View, u: Unit, allowance: int, dirs_of, alternate: bool,
            wheels: bool, mode: str, out: dict) -> None:
    """Cheapest-first search over (anchor, facing, last step) of the whole footprint: every
    placement must fit, except that a column may end a move turned about its head where its
    tail would not fit (``_fit_turn``); a wheel turns the formation rigidly about its pivot (21.8)."""
    from .footprint import wheel
    place, rigid = _shape(u)
    wheels = wheels and rigid
    start = (u.hex, u.facing, -1)
    best = {start: 0}
    heap: list[Any] = [(0, 0, u.hex, u.facing, -1, ())]
    tick = 1
    wheel_cost = B.front_rank(u)
    form = B.formation(u)
    pivots = ("left", "right") if form == "line" and u.strength > 1 and not B.compact(u) else ("left",)
    turns_free = rigid and form == "column" and u.strength > 1 and not B.compact(u)
    while heap:
        spent, _, h, f, last, path = heapq.heappop(heap)
        if best.get((h, f, last), 1 << 30) < spent:
            continue
        if (h, f) != (u.hex, u.facing) and (h, f) not in out:
            out[(h, f)] = (mode, path)
        if last == END_ONLY:
            continue              # turned about its head to fit: the move ends here
        stands = place(h, f)
        nexts = []
        for role, d in enumerate(dirs_of(f)):
            if alternate and role == last:
                continue
            c = _step_cost(hmap, view, u, stands, d)
            n = hex_neighbor(h, d)
            if c is None or not all(_free(view, u, hex_neighbor(x, d)) for x in stands):
                if turns_free:     # some stand cannot be placed there (not merely too dear)
                    nexts.extend(_fit_turn(hmap, view, u, h, n, f, d, spent, allowance, path))
                continue
            if spent + c > allowance:
                continue
            nexts.append((spent + c, n, f, role, path + (n,)))
        if wheels and spent + wheel_cost <= allowance:
            for df in (1, -1):
                for pivot in pivots:
                    na, nf = wheel(form, h, f, u.strength, df, pivot, bool(u.marks.get("mirror")))
                    if not fits(hmap, view, u, place(na, nf)):
                        continue
                    nexts.append((spent + wheel_cost, na, nf, -1, path if na == h else path + (na,)))
        for cost, n, nf, role, npath in nexts:
            key = (n, nf, role)
            if cost < best.get(key, 1 << 30):
                best[key] = cost
                heapq.heappush(heap, (cost, tick, n, nf, role, npath))
                tick += 1


END_ONLY = -2      # a search node a column reached by turning about its head (21.8): not expanded


def _fit_turn(hmap: HexMap, view: B.View, u: Unit, h: Hex, n: Hex, f: int, d: int, spent: int,
              allowance: int, path: tuple[Hex, ...]) -> list:
    """The column fit rule (21.8, G-30): a column whose tail cannot be placed after the step
    from ``h`` to ``n`` turns about its head, free, to the nearest facing where it fits (60
    degrees before 120 before 180, clockwise first on a tie); the move ends there. The step
    costs what the head's step costs (the tail is never laid out in the way)."""
    c = B.step_cost(hmap, view, u, h, n)
    if c is None or spent + c > allowance or not standable(hmap, view, u, n) or not _free(view, u, n):
        return []
    for turn in (-1, 1, -2, 2, 3):           # vertex facings count counter-clockwise
        nf = (f + turn) % 6
        if fits(hmap, view, u, B.layout_of(u, n, nf)):
            return [(spent + c, n, nf, END_ONLY, path + (n,))]
    return []


def moves(hmap: HexMap, view: B.View, u: Unit) -> dict[tuple[Hex, int], Move]:
    """Every (end hex, end facing) the unit may reach this phase, with its canonical move.

    Memoised per map on everything the answer depends on (the unit's class, place, facing,
    formation, state and stands, and where every stand and general stands), never on objects."""
    memo = hmap.__dict__.get("_napoleonica_moves")
    if memo is None or len(memo) > 4096:
        memo = {}
        object.__setattr__(hmap, "_napoleonica_moves", memo)
    key = (u.id, u.kind, u.side, u.hex, u.facing, B.formation(u), B.state_of(u), u.strength,
           bool(u.marks.get("dismounted")), B.garrison(u), str(u.marks.get("stands", "")),
           bool(u.marks.get("mirror")), bool(u.marks.get("on_wall")),
           tuple(sorted((h, s.side, s.id) for h, s in view.stands.items())),
           tuple(sorted((h, g.side, g.id) for h, gs in view.generals.items() for g in gs)),
           tuple(sorted(view.barricades)))
    if key not in memo:
        memo[key] = _moves(hmap, view, u)
    return dict(memo[key])


def bent(u: Unit) -> bool:
    """A formed line whose stands its own attack left off a straight line (7.6): until it is
    straight again it may only re-form in place, about-face or stand (7.6, 9.3, 22.4)."""
    return B.state_of(u) == "formed" and B.formation(u) == "line" and bool(u.marks.get("stands")) \
        and u.hex is not None and B.stand_hexes(u) != B.layout_of(u, u.hex, u.facing)


BENT = "a line bent by its own attack may only re-form in place, about-face or stand until it " \
       "is straight again (7.6, 22.4)"


def _moves(hmap: HexMap, view: B.View, u: Unit) -> dict[tuple[Hex, int], Move]:
    out: dict[tuple[Hex, int], Move] = {}
    if u.hex is None or B.state_of(u) != "formed" or bent(u):
        return out
    if B.is_general(u):
        return general_moves(hmap, view, u)
    if hmap.terrain_at(u.hex) == "rampart":
        # coming down from a wall into the courtyard takes the whole phase (22.7)
        for d in range(6):
            n = hex_neighbor(u.hex, d)
            if n in hmap and hmap.terrain_at(n) == "courtyard" and _free(view, u, n):
                for f in range(6):
                    if fits(hmap, view, u, B.layout_of(u, n, f, outside=True)):
                        out[(n, f)] = ("descend", (n,))
        return out
    if B.garrison(u):
        # leaving a settlement takes the whole phase ([F] 20): one step out, any facing
        for d in range(6):
            n = hex_neighbor(u.hex, d)
            if B.step_cost(hmap, view, u, u.hex, n) is not None and _free(view, u, n):
                for f in range(6):
                    if fits(hmap, view, u, B.layout_of(u, n, f, outside=True)):
                        out[(n, f)] = ("leave", (n,))
        return out
    fwd, back, side = B.allowance(u)
    if B.formation(u) == "square":
        stands = B.stand_hexes(u)
        for d in range(6):
            n = hex_neighbor(u.hex, d)
            c = _step_cost(hmap, view, u, stands, d)
            if c is not None and c <= fwd and all(_free(view, u, hex_neighbor(x, d)) for x in stands):
                out.setdefault((n, u.facing), ("square", (n,)))
        return out
    oblique = B.infantry_like(u) and B.formation(u) == "line"
    if fwd:
        _search(hmap, view, u, fwd, front_dirs, not oblique, True, "forward", out)
    if back:
        _search(hmap, view, u, back, rear_dirs, not oblique, True, "backward", out)
    if side:
        for d in flank_dirs(u.facing):
            _search(hmap, view, u, side, lambda f, d=d: (d,), False, False, "sideways", out)
    return out


def general_moves(hmap: HexMap, view: B.View, u: Unit) -> dict[tuple[Hex, int], Move]:
    """A general: 8 MP in any direction ignoring facing (22.6); may pass friends, never enemies;
    may not end next to an enemy stand unless stacked with a friendly stand."""
    best = {u.hex: 0}
    heap: list[Any] = [(0, 0, u.hex, ())]
    tick = 1
    out: dict[tuple[Hex, int], Move] = {}
    mp = B.allowance(u)[0]
    enemy_hexes = {h for h, s in view.stands.items() if s.side != u.side}
    enemy_hexes.update(h for h, gs in view.generals.items() if any(g.side != u.side for g in gs))
    while heap:
        spent, _, h, path = heapq.heappop(heap)
        if best.get(h, 1 << 30) < spent:
            continue
        if h != u.hex and _general_may_end(view, u, h):
            out.setdefault((h, u.facing), ("general", path))
        for d in range(6):
            n = hex_neighbor(h, d)
            c = B.step_cost(hmap, view, u, h, n)
            if c is None or spent + c > mp or n in enemy_hexes:
                continue
            if spent + c < best.get(n, 1 << 30):
                best[n] = spent + c
                heapq.heappush(heap, (spent + c, tick, n, path + (n,)))
                tick += 1
    return out


def _general_may_end(view: B.View, u: Unit, h: Hex) -> bool:
    if any(g.id != u.id for g in view.generals.get(h, ())):
        return False
    stand = view.stands.get(h)
    if stand is not None:
        return True
    return not view.adjacent_enemy(h, u.side)


# --- formation changes (9.7-9.9) ------------------------------------------------------------
def formation_options(u: Unit, can_reman: bool = False) -> list[tuple[str, int]]:
    """(formation, facing) a unit may take in place: a new formation keeping its facing or
    turning exactly 180 degrees; the same formation turned 180 (about-face, 9.8); any facing for
    artillery changing formation or pivoting in firing position, a square leaving square, and a
    disordered unit re-forming. Gunners outside the battery take up a battery formation again
    only next to their gun (``can_reman``, 22.9)."""
    out: list[tuple[str, int]] = []
    cur_form, f = B.formation(u), u.facing
    free_facing = cur_form == "square" or B.state_of(u) == "disordered"
    for form in B.formations_for(u):
        if cur_form == "gunners" and form != "gunners" and not can_reman:
            continue
        if form == "square":
            # the template's facing: a disordered unit re-forms facing any way (9.7 item 5)
            facings = list(range(6)) if B.state_of(u) == "disordered" else [f]
        elif free_facing or (B.arm(u) == "art" and (form != cur_form or form == "unlimbered")):
            facings = list(range(6))
        else:
            facings = [f, (f + 3) % 6]
        for nf in facings:
            if B.state_of(u) == "formed" and form == cur_form and nf == f and not u.marks.get("stands"):
                continue          # (stands left off their layout by an attack may re-lay it)
            if B.state_of(u) == "formed" and form == cur_form == "square":
                continue
            out.append((form, nf))
    return out


def form_anchors(u: Unit, form: str, f: int) -> tuple[Hex, ...]:
    """Where the new layout's anchor (a line's left end, a column's head, a square's pivot) may
    stand after changing into ``form`` facing ``f`` (9.7 items 1-4), the spec's preferred choice
    first. The unit's own hex (the old anchor kept in place) is always among them, so an order
    that names no anchor means what it meant before the choice existed.

    * line -> column or square: any stand of the line, central first (items 1, 4);
    * column -> line: the head keeps its hex, anywhere along the new line (item 3);
    * leaving square: any stand, anywhere in the new front rank (item 2, G-43);
    * everything else (column -> square, about-faces, one-hex units, re-forming): the anchor."""
    if u.hex is None:
        return ()
    cur = B.formation(u)
    keep = (Hex(u.hex[0], u.hex[1]),)
    turn = about_face(u, form, f)
    if turn is not None:
        return (turn[0],)
    if bent(u) and form == "line" and f == u.facing:
        # straightened on any one of its stands (22.4): that stand anywhere in the new line
        back = (flank_dirs(f)[1] + 3) % 6
        out = [_steps(s, back, k) for s in B.stand_hexes(u) for k in range(u.strength)]
        return tuple(dict.fromkeys(list(keep) + out))
    if (B.state_of(u) != "formed" or u.strength <= 1 or B.compact(u) or cur == form
            or cur not in ("line", "column", "square") or form not in ("line", "column", "square")):
        return keep
    stands = B.stand_hexes(u)
    out: list[Hex] = []
    if cur == "line" and form in ("column", "square"):
        mid = (len(stands) - 1) // 2
        out = sorted(stands, key=lambda h: (abs(stands.index(h) - mid), stands.index(h)))
    elif cur == "column" and form == "line":
        back = (flank_dirs(f)[1] + 3) % 6          # toward the left end of the new line
        out = [_steps(stands[0], back, k) for k in range(u.strength)]
    elif cur == "square":
        back = (flank_dirs(f)[1] + 3) % 6
        ranks = range(u.strength) if form == "line" else range(1)
        out = [_steps(s, back, k) for s in stands for k in ranks]
    # the spec's preferred choice first, then the old anchor, then the rest; no repeats
    return tuple(dict.fromkeys(out[:1] + list(keep) + out[1:]))


def about_face(u: Unit, form: str, f: int) -> tuple[Hex, bool] | None:
    """An about-face is done in place (9.8): the unit keeps its hexes and only its front turns.
    For a formed line or column turned 180 degrees, the stand at the other end (a line's old
    right end, a column's tail) anchors the turned layout; the column's zigzag may need its
    mirror variant to cover the same hexes. Returns (anchor, mirror), or None for anything that
    is not such a turn."""
    if bent(u) and form == "line" and f == (u.facing + 3) % 6:
        return u.hex, bool(u.marks.get("mirror"))     # it turns where it stands, still bent
    if (B.state_of(u) != "formed" or form != B.formation(u) or f != (u.facing + 3) % 6
            or u.strength <= 1 or B.compact(u) or u.marks.get("stands")):
        return None
    stands = B.stand_hexes(u)
    if len(stands) <= 1:
        return None
    mirror = bool(u.marks.get("mirror"))
    for m in (mirror, not mirror):
        if set(layout(form, stands[-1], f, len(stands), m)) == set(stands):
            return stands[-1], m
    return None


def _steps(h: Hex, d: int, k: int) -> Hex:
    for _ in range(k):
        h = hex_neighbor(h, d)
    return h


def form_fits(hmap: HexMap, view: B.View, u: Unit, form: str, f: int, at: Hex | None = None) -> bool:
    """A formation change needs its new layout, anchored at ``at`` (default: the unit's hex),
    to fit (21.5, 9.7)."""
    return fits(hmap, view, u, new_layout(u, form, f, at))


def new_layout(u: Unit, form: str, f: int, at: Hex | None = None) -> tuple[Hex, ...]:
    """The hexes the unit's stands fill after changing into ``form`` facing ``f`` with its
    anchor at ``at`` (default: its hex); an about-face in place keeps the hexes it holds (9.8)."""
    turn = about_face(u, form, f)
    if turn is not None and (at == turn[0] or (at is None and bent(u))):
        return B.stand_hexes(u)
    return B.layout_of(u, u.hex if at is None else at, f, form)


def form_refusal(hmap: HexMap, view: B.View, u: Unit, form: str, f: int, at: Hex | None = None) -> str | None:
    anchors = form_anchors(u, form, f)
    if at is None and u.hex is not None and anchors and Hex(u.hex[0], u.hex[1]) not in anchors:
        return (f"an about-face is done in place: the stand at the other end, {hmap.label(anchors[0])}, "
                f"becomes the anchor (9.8)")
    if at is not None and at not in anchors:
        where = hmap.label(at) if at in hmap else str(tuple(at))
        return f"the {form} may not be laid out from {where}: {anchor_rule(u, form)} (9.7)"
    why = fit_problem(hmap, view, u, new_layout(u, form, f, at))
    return None if why is None else f"the {form} does not fit: {why} (21.5)"


def anchor_rule(u: Unit, form: str) -> str:
    """The 9.7 layout rule for this change, in words (for refusals)."""
    cur = B.formation(u)
    if cur == "line" and form == "column":
        return "one stand of the line becomes the head, a central one preferred, the others behind it"
    if cur == "line" and form == "square":
        return "one stand of the line, a central one preferred, faces the enemy"
    if cur == "column" and form == "line":
        return "the head keeps its hex and the others line up on either side of it"
    if cur == "square":
        return "one stand of the square joins the new front rank"
    return "the unit's own hex anchors the new layout"


def remount_refusal(hmap: HexMap, view: B.View, u: Unit, kind: str, form: str, f: int) -> str | None:
    """Why chasseurs may not mount or dismount into ``form`` facing ``f`` here (9.9, 21.5): the
    new layout must fit as the unit will be afterwards, so mounting checks every new stand hex
    against the ground mounted cavalry may stand on (no forest or swamp, 22.7)."""
    after = u.clone()
    after.mark("dismounted", kind == "dismount")
    return form_refusal(hmap, view, after, form, f)


def placed_form_options(hmap: HexMap, view: B.View, state, u: Unit,
                        preferred_only: bool = False) -> list[tuple[str, int, Hex | None]]:
    """(formation, facing, anchor) changes whose new layout fits where the unit stands; the
    anchor is None for the unit's own hex (the order then names none). ``preferred_only``: per
    (formation, facing) only the first that fits in the spec's order of preference (9.7), the
    computer's short list."""
    out: list[tuple[str, int, Hex | None]] = []
    own = Hex(u.hex[0], u.hex[1]) if u.hex is not None else None
    for form, f in formation_options(u, can_reman(state, view, u)):
        for at in form_anchors(u, form, f) if own is not None else (None,):
            if form_fits(hmap, view, u, form, f, at):
                out.append((form, f, None if at == own else at))
                if preferred_only:
                    break
    return out


def enemy_threat_for_reform(hmap: HexMap, view: B.View, u: Unit) -> bool:
    """Whether re-forming needs a test (9.7.5): a formed enemy in column, line or battery in
    position within 10 cm (5 cm in forest) that can see the unit. Only relief (hills) blocks
    here; forest and units do not (G-24)."""
    from .sight import reform_sight
    reach = 2 if B.any_on(hmap, u, ("forest",)) else 3
    for e in view.enemy_stands(u.side):
        if B.gap(e, u) > reach or B.state_of(e) != "formed":
            continue
        if B.formation(e) not in ("line", "column", "unlimbered"):
            continue
        if reform_sight(hmap, e.hex, u.hex):
            return True
    return False


def join_targets(hmap: HexMap, state, view: B.View, u: Unit) -> list[str]:
    """Units a single stand may join (4.4, G-17): same side and engine id (guard only with
    guard), formed, touching it, still under the maximum size."""
    if u.strength != 1 or B.state_of(u) != "formed" or B.is_general(u) or u.hex is None:
        return []
    out = []
    for other in view.stands.values():
        if other.id == u.id or other.side != u.side or other.kind != u.kind:
            continue
        if B.guard(other) != B.guard(u) or B.state_of(other) != "formed":
            continue
        if bool(other.marks.get("dismounted")) != bool(u.marks.get("dismounted")):
            continue
        if B.gap(other, u) != 1:
            continue
        if other.strength + 1 > D.STANDS[B.arm(other)][1] or other.marks.get("stands"):
            continue
        grown = B.layout_of(other, other.hex, other.facing, stands=other.strength + 1)
        if not all(standable(hmap, view, other, h) and _free(view, other, h)
                   or view.stands.get(h) is u for h in grown):
            continue
        out.append(other.id)
    return sorted(set(out))


def settlement_of(hmap: HexMap, h: Hex) -> list[Hex]:
    """The connected village hexes around ``h`` (one settlement)."""
    seen, todo = {h}, [h]
    while todo:
        x = todo.pop()
        for _, n in hmap.neighbors(x):
            if n not in seen and hmap.terrain_at(n) == "village":
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def capturable(u: Unit) -> bool:
    """Pieces that a unit entering their settlement captures ([F] 20): enemy engineers, gunners
    without their gun, and generals."""
    return B.is_general(u) or B.arm(u) == "eng" or (B.arm(u) == "art" and B.formation(u) == "gunners")


def one_stand_per_hex(state) -> bool:
    """Settlement capacity (17, 22.7): one stand per village hex, unless the scenario's
    ``[rules] settlement_capacity = "unit"`` puts a whole unit in one village hex."""
    return state.vars.get("settlement_capacity", "stand") == "stand"


#: the spec's clock order 1, 3, 5, 7, 9, 11 (21.8) as hexgrid directions
_CLOCK = (1, 0, 5, 4, 3, 2)


def garrison_stands(hmap: HexMap, view: B.View, u: Unit, n: Hex) -> tuple[Hex, ...] | None:
    """The village hexes ``u``'s stands take when it occupies the settlement at ``n``: one stand
    a hex (17, 22.7), ``n`` first, then the nearest free hexes of that settlement (breadth
    first, clock order, so they stay together); None when it has no room for them all. Hexes
    held by pieces the entry captures count as free. A battery, engineers or the train, and
    any unit under ``settlement_capacity = "unit"``, take ``n`` alone."""
    if not one_stand_per_hex(view.state) or B.arm(u) not in ("inf", "cav") or u.strength <= 1:
        return (n,)

    def free(h: Hex) -> bool:
        other = view.stands.get(h)
        return other is None or other.id == u.id or (other.side != u.side and capturable(other))

    order, seen, i = [n], {n}, 0
    while i < len(order) and len(order) < u.strength:
        x = order[i]
        i += 1
        for d in _CLOCK:
            nb = hex_neighbor(x, d)
            if nb in seen or nb not in hmap or hmap.terrain_at(nb) != "village" or not free(nb) \
                    or "wall" in hmap.features_between(x, nb):
                continue
            seen.add(nb)
            order.append(nb)
    return tuple(order[:u.strength]) if len(order) >= u.strength else None


def occupy_targets(hmap: HexMap, view: B.View, u: Unit) -> list[Hex]:
    """Settlement hexes ``u`` may occupy ([F] 20, 22.7): next to it at the start of its move,
    with no enemy unit anywhere in that settlement other than pieces it captures by entering
    (engineers, gunners without their gun, generals), room for its stands (one a hex, 17), and
    no enemy stand next to them (9.4). Foot units and batteries only [P]: mounted cavalry and
    the train stay outside."""
    if u.hex is None or B.state_of(u) != "formed" or B.garrison(u) or B.is_general(u):
        return []
    if B.mounted(u) or B.arm(u) == "train":
        return []
    out = []
    for _, n in hmap.neighbors(u.hex):
        if hmap.terrain_at(n) != "village" or "wall" in hmap.features_between(u.hex, n):
            continue
        town = settlement_of(hmap, n)
        held = [s for h in town if (s := view.stands.get(h)) is not None and s.side != u.side]
        if any(not capturable(s) for s in held):
            continue
        other = view.stands.get(n)
        if other is not None and not (other.side != u.side and capturable(other)):
            continue
        stands = garrison_stands(hmap, view, u, n)
        if stands is None:
            continue          # one stand a village hex (17, 22.7): no room for the unit
        attacked = any((s := view.stands.get(h)) is not None and s.side == u.side
                       and s.marks.get("targeted") == view.state.turn for h in town)
        near = any(e.side != u.side and not (x in town and capturable(e))
                   and any(hex_distance(x, h) <= 1 for h in stands) for x, e in view.stands.items())
        if near and not attacked:
            continue          # 9.4, except into a settlement under attack: those join its melee
        out.append(n)
    return sorted(out)


def gun_of(state, u: Unit) -> Hex | None:
    """Where the battery's abandoned gun stands, if its gunners left it (22.9)."""
    g = state.vars.get("guns", {}).get(B.gun_id(u))
    return None if g is None else Hex(g[0], g[1])


def reman_targets(state, view: B.View, u: Unit) -> list[str]:
    """Other friendly batteries' abandoned guns these gunners may take up (22.9: "a friendly
    abandoned gun"), named by the battery they came with: next to the gunners (or under
    them), the gun hex holding no other stand and touching no enemy stand (9.4)."""
    if u.hex is None or B.formation(u) != "gunners" or B.state_of(u) != "formed":
        return []
    out = []
    for gid, (q, r) in sorted(state.vars.get("guns", {}).items()):
        gun = Hex(q, r)
        if gid == B.gun_id(u) or state.units[gid].side != u.side or hex_distance(gun, u.hex) > 1:
            continue
        other = view.stands.get(gun)
        if (other is None or other.id == u.id) and _free(view, u, gun):
            out.append(gid)
    return out


def can_reman(state, view: B.View, u: Unit) -> bool:
    """Gunners next to (or on) their abandoned gun may take it up again (22.9): the gun hex
    must hold no other stand and touch no enemy stand (9.4)."""
    gun = gun_of(state, u)
    if gun is None or u.hex is None or hex_distance(gun, u.hex) > 1:
        return False
    other = view.stands.get(gun)
    return (other is None or other.id == u.id) and _free(view, u, gun)


def fortify_targets(hmap: HexMap, view: B.View, state, u: Unit) -> list[Hex]:
    """Settlements engineers may fortify (22.9): one they garrison, or one next to them held by
    a friendly unit; named by their first hex; never twice."""
    if B.arm(u) != "eng" or B.state_of(u) != "formed" or u.hex is None:
        return []
    done = state.vars.get("fortified", [])
    out = []
    near = [u.hex] + [n for _, n in hmap.neighbors(u.hex)]
    for h in near:
        if hmap.terrain_at(h) != "village":
            continue
        town = settlement_of(hmap, h)
        if town[0] in out or [town[0][0], town[0][1]] in done:
            continue
        held = any((s := view.stands.get(x)) is not None and s.side == u.side and B.garrison(s) for x in town)
        if held:
            out.append(town[0])
    return sorted(out)


def dismantle_targets(view: B.View, u: Unit) -> list[Hex]:
    """Barricaded bridges a unit may open (22.9): engineers or infantry (on foot) next to the
    bridge hex; each named by that hex."""
    if u.hex is None or B.state_of(u) != "formed" or not (B.infantry_like(u) or B.arm(u) == "eng"):
        return []
    return sorted(h for h in view.barricades if hex_distance(h, u.hex) == 1)


def fort_steps(hmap: HexMap, view: B.View, u: Unit) -> list[tuple[str, Hex]]:
    """The fort actions of 22.7, each a whole move: ``climb`` from the courtyard onto a free
    wall hex (foot units and batteries), ``gate`` through the gate hexside into or out of the
    courtyard (not mounted cavalry onto walls; no stand next to an enemy afterwards, 9.4)."""
    if u.hex is None or B.state_of(u) != "formed" or B.is_general(u) or B.garrison(u):
        return []
    here = hmap.terrain_at(u.hex)
    out: list[tuple[str, Hex]] = []
    for _, n in hmap.neighbors(u.hex):
        if not _free(view, u, n) or n in view.stands:
            continue
        there = hmap.terrain_at(n)
        if there != "rampart" and not fits(hmap, view, u, B.layout_of(u, n, u.facing, outside=True)):
            continue
        if here == "courtyard" and there == "rampart" and not B.mounted(u) and B.arm(u) != "train":
            out.append(("climb", n))
        elif "gate" in hmap.features_between(u.hex, n) and "courtyard" in (here, there) \
                and there not in ("rampart", "lake", "river", "village"):
            out.append(("gate", n))
    return sorted(out)
