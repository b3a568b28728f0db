"""The Melee phase [P] (spec 22.4; the source keeps ranks, dice, the attack bonus and the -4
forest cover, 12): melees are the connected groups of contacts; each side totals the best of its
principal unit's d20 (highest counts), its rank and the modifiers; the loser loses a stand and is
disordered and retreats, or flees when beaten by 5 or more."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_distance, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from .rolls import best_of

CLOCK_ORDER = (1, 0, 5, 4, 3, 2)   # hexside directions by clock position 1, 3, 5, 7, 9, 11


def components(state: State) -> list[list[str]]:
    """The melees: connected groups of units in contact, each listed by id; sorted."""
    contacts = state.vars.get("contacts", [])
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for c in contacts:
        a, b = find(c[0]), find(c[1])
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for x in sorted(parent):
        groups.setdefault(find(x), []).append(x)
    return sorted(groups.values())


def _principal(units: list[Unit]) -> Unit:
    return sorted(units, key=lambda u: (-B.melee_rank(u), -u.strength, u.id))[0]


def side_terms(hmap: HexMap, state: State, group: list[str], side: str) -> tuple[Unit, int, list[tuple[str, int]], bool]:
    """(principal unit, dice, named terms without the die, attacked?) for one side of a melee."""
    units = [state.units[i] for i in group if state.units[i].side == side]
    enemies = [state.units[i] for i in group if state.units[i].side != side]
    contacts = [c for c in state.vars.get("contacts", []) if c[0] in group]
    mine = [c for c in contacts if state.units[c[0]].side == side]
    theirs = [c for c in contacts if state.units[c[0]].side != side]
    p = _principal(units)
    terms: list[tuple[str, int]] = [("rank of " + p.id, B.melee_rank(p))]
    M = D.MELEE_MODS
    if len(units) > 1:
        terms.append(("further units", M["extra_unit"] * (len(units) - 1)))
    if mine:
        terms.append(("attack bonus", M["attack_bonus"]))
        kinds = {c[2] for c in mine}
        if "rear" in kinds:
            terms.append(("rear attack", M["rear"]))
        elif "flank" in kinds:
            terms.append(("flank attack", M["flank"]))
        if any(c[5] for c in mine):
            terms.append(("attacking column", M["column_attacker"]))
        cover = min(int(c[3]) for c in mine)
        if cover:
            terms.append(("defender in cover (7.9, 22.7)", cover))
        if any(c[4] for c in mine):
            terms.append(("across an obstacle", M["passable_obstacle"]))
        for c in mine:
            t = state.units[c[1]]
            if B.formation(t) == "square" and B.state_of(t) == "formed" and c[6]:
                terms.append(("cavalry against a square", M["cav_vs_square"]))
                break
    for c in theirs:
        t = state.units[c[1]]
        if t.side == side and B.formation(t) == "square" and B.state_of(t) == "formed" and not c[6]:
            terms.append(("square attacked by infantry", M["inf_vs_square_defender"]))
            break
    if B.state_of(p) == "disordered":
        terms.append(("principal disordered", M["disordered"]))
    if B.veteran(p):
        terms.append(("veterans", M["veteran"]))
    view_gens = [g for g in state.side_units(side) if B.is_general(g) and B.on_table(g)]
    if any(g.hex in B.stand_hexes(u) for g in view_gens for u in units):
        terms.append(("general with the unit", M["general"]))
    diff = sum(u.strength for u in units) - sum(e.strength for e in enemies)
    if diff > 0:
        terms.append(("more stands", min(M["extra_stand_cap"], diff * M["per_extra_stand"])))
    return p, B.melee_dice(p), terms, bool(mine)


def resolve(ctx: Resolution, group: list[str]) -> None:
    state, hmap = ctx.state, ctx.map
    sides = sorted({state.units[i].side for i in group}, key=state.side_order.index)
    if len(sides) < 2:
        _end_contacts(state, group)
        return
    a, b = sides
    ta = side_terms(hmap, state, group, a)
    tb = side_terms(hmap, state, group, b)
    while True:
        ra = best_of(ctx, ta[1], "melee", low=False, side=a, unit=ta[0].id)
        rb = best_of(ctx, tb[1], "melee", low=False, side=b, unit=tb[0].id)
        tot_a = ra + sum(v for _, v in ta[2])
        tot_b = rb + sum(v for _, v in tb[2])
        if tot_a != tot_b:
            winner = a if tot_a > tot_b else b
            break
        if ta[3] and tb[3]:
            ctx.emit("melee-tie", totals={a: tot_a, b: tot_b}, rule="both attacked: re-roll")
            continue
        winner = b if ta[3] else a     # a tie goes to the side that did not attack
        break
    loser = b if winner == a else a
    margin = abs(tot_a - tot_b)
    ctx.emit("melee", units=list(group), totals={a: tot_a, b: tot_b},
             terms={a: dict(ta[2]), b: dict(tb[2])}, winner=winner, margin=margin)
    _end_contacts(state, group)
    for uid in group:
        u = state.units[uid]
        if u.side == loser and B.on_table(u):
            lose(ctx, u, margin)


def lose(ctx: Resolution, u: Unit, margin: int) -> None:
    """A losing unit: one stand lost; captured (artillery, engineers, train), destroyed, fleeing
    (beaten by 5+) or disordered and owing a two-hex retreat (22.4), which ``next_decision``
    carries out once the melee is over. Its generals roll to escape (22.4) at once, or after
    the retreat."""
    gens = [g for g in ctx.state.side_units(u.side) if B.is_general(g) and B.on_table(g)
            and g.hex in B.stand_hexes(u)]
    B.freeze_stands(u)        # beaten: it is disordered where it stands (21.5 [P])
    u.strength -= 1
    ctx.emit("stand-lost", unit=u.id, n=1, left=u.strength, why="melee")
    if B.arm(u) in ("art", "eng", "train"):
        remove(ctx, u, "captured")
    elif u.strength <= 0:
        remove(ctx, u, "destroyed")
    elif margin >= D.MELEE_ROUT_MARGIN:
        remove(ctx, u, "fleeing")
    else:
        u.mark("state", "disordered")
        if len(lost_stand_options(u)) > 1:
            ctx.state.vars.setdefault("stand_choices", []).append(u.id)   # its owner picks (21.5)
        else:
            B.drop_stand(u)
        ctx.state.vars.setdefault("retreats", []).append(u.id)
        # its generals try to escape once it has retreated: it may be their nearest friend
        ctx.state.vars.setdefault("escapes", []).extend(g.id for g in gens)
        return
    for g in gens:
        general_escape(ctx, g)


def _retreat_steps(hmap: HexMap, view: B.View, u: Unit, stands: tuple[Hex, ...],
                   edge: str) -> list[tuple[tuple[int, int, int], Hex, tuple[Hex, ...]]]:
    """The steps of a retreat of the whole unit out of ``stands`` (every stand one hex the same
    way, 21.8) that go as far from the nearest enemy stand as any free step can (22.4), each
    with the spec's preference key (own edge, then clock order), the new anchor and stands."""
    steps = []
    for rank, d in enumerate(CLOCK_ORDER):
        moved = tuple(hex_neighbor(h, d) for h in stands)
        if not all(_retreat_hex_ok(hmap, view, u, a, b) for a, b in zip(stands, moved)):
            continue
        far = min(view.nearest_enemy_d(n, u.side) for n in moved)
        steps.append((far, min(hmap.rows_from_edge(n, edge) for n in moved), rank, moved))
    if not steps:
        return []
    far = max(s[0] for s in steps)
    return [((-s[0], s[1], s[2]), s[3][0], s[3]) for s in steps if s[0] == far]


def _retreat_hex_ok(hmap: HexMap, view: B.View, u: Unit, a: Hex, n: Hex) -> bool:
    if n not in hmap or B.step_cost(hmap, view, u, a, n) is None:
        return False
    other = view.stands.get(n)
    if other is not None and other.id != u.id:
        return False
    return not any(g.side != u.side for g in view.generals.get(n, ()))


def retreat_paths(hmap: HexMap, scenario, state: State, u: Unit) -> list[tuple[Hex, ...]]:
    """Every retreat the owner may choose (22.4): two steps of the whole unit, each to free
    hexes as far from the nearest enemy stand as a step can go; named by the hexes its anchor
    stand enters. The spec breaks ties toward the own edge, then by clock order; here a tie is
    the owner's choice and that preference only orders the list (the first is the spec's own
    retreat). Empty: the unit cannot retreat and flees."""
    edge = B.edge_of(scenario, u.side)
    view = B.View(state)
    ranked = []
    for k1, h1, s1 in _retreat_steps(hmap, view, u, B.stand_hexes(u), edge):
        for k2, h2, _s2 in _retreat_steps(hmap, view, u, s1, edge):
            ranked.append(((k1, k2), (h1, h2)))
    return [p for _, p in sorted(ranked)]


def lost_stand_options(u: Unit) -> tuple[Hex, ...]:
    """The stands a beaten unit may give up (its owner's choice): any whose loss leaves the
    others connected (21.5). Empty once the stand is gone."""
    from .footprint import connected
    stored = u.marks.get("stands")
    if not isinstance(stored, str) or not stored:
        return ()
    stands = B.decode_stands(stored)
    if len(stands) <= u.strength:
        return ()
    return tuple(h for h in stands if connected([x for x in stands if x != h]))


def lose_stand(ctx: Resolution, u: Unit, h: Hex) -> None:
    """Take the chosen stand off the table; the first stand left is the new anchor."""
    rest = tuple(x for x in B.decode_stands(str(u.marks["stands"])) if x != h)
    u.hex = rest[0]
    if len(rest) <= 1:
        B.unfreeze_stands(u)
    else:
        u.mark("stands", B.encode_stands(rest))
    ctx.emit("stand-chosen", unit=u.id, at=[h[0], h[1]])


def next_decision(ctx: Resolution) -> tuple[str, str] | None:
    """Carry out what a melee left owing, in order: first the stands beaten units lose (the
    owner chooses which when several may go), then the retreats (a unit with one way back
    takes it, one with none flees). Returns (decision kind, unit id) when an owner must choose
    (a ``lose`` or ``retreat`` order), or None when everything is done."""
    state = ctx.state
    choices = state.vars.get("stand_choices", [])
    while choices:
        u = state.units[choices[0]]
        if B.on_table(u) and len(lost_stand_options(u)) > 1:
            return "lose-stand", u.id
        choices.pop(0)
        if B.on_table(u):
            B.drop_stand(u)
    state.vars.pop("stand_choices", None)
    owed = state.vars.get("retreats", [])
    while owed:
        u = state.units[owed[0]]
        paths = retreat_paths(ctx.map, ctx.scenario, state, u) if B.on_table(u) else []
        if len(paths) > 1:
            return "retreat", u.id
        owed.pop(0)
        if paths:
            retreat(ctx, u, paths[0])
        elif B.on_table(u):
            remove(ctx, u, "fleeing")
    state.vars.pop("retreats", None)
    for gid in state.vars.pop("escapes", []):
        general_escape(ctx, state.units[gid])
    return None


def retreat(ctx: Resolution, u: Unit, path: tuple[Hex, ...]) -> None:
    """Move a beaten unit along its retreat, one event per hex."""
    for h in path:
        frm = u.hex
        B.move_stands(u, hex_direction_to(frm, h))
        ctx.emit("retreated", unit=u.id, frm=[frm[0], frm[1]], to=[h[0], h[1]])


def general_escape(ctx: Resolution, g: Unit) -> None:
    """A general with a losing unit: d20 1-5 captured, else to the nearest friendly unit within
    9 hexes, else captured (22.4)."""
    v = ctx.roll("general's escape", 20, unit=g.id)
    if v <= D.GENERAL_CAPTURE_MAX:
        remove(ctx, g, "captured")
        return
    view = B.View(ctx.state)
    cands = sorted((hex_distance(h, g.hex), f.id, h) for h, f in view.stands.items()
                   if f.side == g.side and hex_distance(h, g.hex) <= D.COMMAND_D
                   and not view.generals.get(h))
    if not cands:
        remove(ctx, g, "captured")
        return
    g.hex = cands[0][2]
    ctx.emit("general-escaped", unit=g.id, to=[g.hex[0], g.hex[1]])


def remove(ctx: Resolution, u: Unit, how: str) -> None:
    """Take a unit off the table as destroyed, captured or fleeing; remember where, for the next
    Morale-check phase (22.3 trigger b)."""
    state = ctx.state
    if u.hex is not None and not B.is_general(u):
        state.vars.setdefault("losses", []).append([u.side, u.hex[0], u.hex[1]])
    if B.is_general(u) and u.kind == "CINC":
        state.vars.setdefault("cinc_lost", []).append(u.side)
    u.hex = None
    B.unfreeze_stands(u)
    u.mark("state", how)
    if how in ("destroyed", "captured") and not B.is_general(u):
        u.strength = max(0, u.strength) if how == "captured" else 0
    _end_contacts(state, [u.id])
    ctx.emit(f"unit-{how}", unit=u.id)


def _end_contacts(state: State, ids: list[str]) -> None:
    state.vars["contacts"] = [c for c in state.vars.get("contacts", [])
                              if c[0] not in ids and c[1] not in ids]


def win_chance(dice_a: int, sum_a: int, attacked_a: bool, dice_b: int, sum_b: int,
               attacked_b: bool) -> tuple[int, int]:
    """Exact chance that side a wins a melee (22.4): best (highest) of its d20s plus its terms
    beats side b's; a tie goes to the side that did not attack, or is re-rolled if both did."""
    win = lose = 0
    for ra in range(1, 21):
        pa = ra ** dice_a - (ra - 1) ** dice_a
        for rb in range(1, 21):
            pb = rb ** dice_b - (rb - 1) ** dice_b
            ta, tb = ra + sum_a, rb + sum_b
            if ta > tb or (ta == tb and attacked_b and not attacked_a):
                win += pa * pb
            elif ta < tb or (ta == tb and attacked_a and not attacked_b):
                lose += pa * pb
    return win, win + lose


def preview(hmap: HexMap, state: State, group: list[str], side: str) -> dict[str, Any]:
    """Both sides' terms of one melee and the chance that ``side`` wins it."""
    other = state.enemy_of(side)
    pa = side_terms(hmap, state, group, side)
    pb = side_terms(hmap, state, group, other)
    win, total = win_chance(pa[1], sum(v for _, v in pa[2]), pa[3], pb[1], sum(v for _, v in pb[2]), pb[3])
    return {"modifiers": pa[2], "enemy terms": pb[2],
            "chances": {f"{side} wins": (win, total), f"{other} wins": (total - win, total)}}
