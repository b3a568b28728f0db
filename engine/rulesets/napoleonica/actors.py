"""Who may act now and with which orders: movement pieces (9.1-9.2), units that may appear
(8), their placements, fire targets (22.2) and the movement-phase orders of one piece."""

from __future__ import annotations

from typing import Iterator

from hexwar.engine.hexgrid import Hex, hex_spiral
from hexwar.engine.orders import Order
from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from . import fire as F
from . import movement as MV


def pieces(state: State, side: str) -> list[Unit]:
    """Pieces still to act in this Movement phase (9.1, 9.2): units that neither attacked
    nor were attacked, generals, and fleeing units (for restoration)."""
    out = []
    for u in state.side_units(side, alive=False):
        if u.marks.get("acted") == state.turn:
            continue
        if B.state_of(u) == "fleeing":
            out.append(u)
        elif B.on_table(u) and u.marks.get("attacked") != state.turn \
                and u.marks.get("targeted") != state.turn:
            out.append(u)
    return out

def appearers(state: State, side: str) -> list[Unit]:
    out = []
    for u in state.side_units(side, alive=False):
        st = B.state_of(u)
        if st == "restored" and int(u.marks.get("restored", 0)) < state.turn:
            out.append(u)
        elif st == "reserve" and int(u.marks.get("entry", 1)) <= state.turn:
            out.append(u)
    return out

def appear_options(hmap, scenario, state: State, u: Unit, first_only: bool = False,
                   only: tuple[Hex, str, int] | None = None) -> list[tuple[Hex, str, int]]:
    """Where and how a unit may appear (8.3, 21.10): its whole footprint within the two rows
    nearest its own edge with at least one stand on the edge row, every stand free and not
    next to an enemy, 3+ hexes from every formed enemy line, column or battery in position.
    ``only`` checks that one placement."""
    view = B.View(state)
    edge = B.edge_of(scenario, u.side)
    near_threat = set()          # hexes closer than 3 to a formed enemy line, column or battery
    for e in view.enemy_stands(u.side):
        if B.state_of(e) == "formed" and B.formation(e) in ("line", "column", "unlimbered"):
            for x in B.stand_hexes(e):
                near_threat.update(hex_spiral(x, D.APPEAR_MIN_D - 1))
    anchors = [only[0]] if only is not None else \
        [h for h in hmap.hexes if hmap.rows_from_edge(h, edge) <= 1]
    out = []
    for h in anchors:
        if h not in hmap or hmap.rows_from_edge(h, edge) > 1:
            continue
        if B.is_general(u):
            if hmap.rows_from_edge(h, edge) != 0 or view.generals.get(h) or h in view.stands \
                    or not MV.standable(hmap, view, u, h) or view.adjacent_enemy(h, u.side):
                continue
            out.append((h, B.formation(u), u.facing))
            if first_only:
                return out
            continue
        for form in appear_formations(state, u):
            for f in range(6):
                if only is not None and (form, f) != only[1:]:
                    continue
                stands = B.layout_of(u, h, f, form)
                if not _appear_fits(hmap, view, u, stands, edge, near_threat):
                    continue
                out.append((h, form, f))
                if first_only:
                    return out
    return out


def _appear_fits(hmap, view: B.View, u: Unit, stands, edge: str, near_threat: set) -> bool:
    if not all(x in hmap and hmap.rows_from_edge(x, edge) <= 1 and x not in near_threat for x in stands):
        return False
    if not any(hmap.rows_from_edge(x, edge) == 0 for x in stands):
        return False
    return MV.fits(hmap, view, u, stands)


def appear_formations(state: State, u: Unit) -> tuple[str, ...]:
    """Any formation but disordered (8.3); a battery whose gun was left behind comes back as
    gunners, and only a battery with its gun comes back as one."""
    forms = B.formations_for(u)
    if B.arm(u) != "art":
        return forms
    if B.gun_id(u) in state.vars.get("guns", {}) or u.marks.get("gun_lost"):
        return ("gunners",)
    return tuple(f for f in forms if f != "gunners")

def fire_targets(hmap, view: B.View, state: State, u: Unit) -> list[Unit]:
    return [t for t in view.enemy_stands(u.side)
            if F.target_problem(hmap, view, state, u, t) is None]

def movement_orders(hmap, view: B.View, u: Unit, preferred_only: bool = False) -> Iterator[Order]:
    """A piece's legal Movement-phase orders; ``preferred_only`` keeps one layout per formation
    change, the spec's preferred one (9.7), for the computer."""
    yield Order.make("hold", unit=u.id)
    st = B.state_of(u)
    if st == "fleeing":
        yield Order.make("rally", unit=u.id)
        return
    if MV.bent(u):
        for form, f, at in MV.placed_form_options(hmap, view, view.state, u, preferred_only):
            yield Order.make("form", unit=u.id, formation=form, facing=f, **({} if at is None else {"at": tuple(at)}))
        return
    if st == "formed":
        for (h, f), (_, path) in sorted(MV.moves(hmap, view, u).items()):
            yield Order.make("move", unit=u.id, path=tuple(tuple(x) for x in path), facing=f)
    if B.is_general(u):
        return
    for h in MV.occupy_targets(hmap, view, u):
        yield Order.make("occupy", unit=u.id, hex=tuple(h))
    for step, h in MV.fort_steps(hmap, view, u):
        yield Order.make(step, unit=u.id, hex=tuple(h))
    for h in MV.fortify_targets(hmap, view, view.state, u):
        yield Order.make("fortify", unit=u.id, hex=tuple(h))
    for into in MV.join_targets(hmap, view.state, view, u):
        yield Order.make("join", unit=u.id, into=into)
    for form, f, at in MV.placed_form_options(hmap, view, view.state, u, preferred_only):
        if at is None:
            yield Order.make("form", unit=u.id, formation=form, facing=f)
        else:
            yield Order.make("form", unit=u.id, formation=form, facing=f, at=tuple(at))
    for h in MV.dismantle_targets(view, u):
        yield Order.make("dismantle", unit=u.id, hex=tuple(h))
    for gid in MV.reman_targets(view.state, view, u):
        for form in ("limbered", "unlimbered"):
            for f in range(6):
                yield Order.make("reman", unit=u.id, gun=gid, formation=form, facing=f)
    if u.kind == "CAV_CHASSEUR" and st == "formed":
        kind = "mount" if u.marks.get("dismounted") else "dismount"
        forms = D.FORMATIONS["cav" if kind == "mount" else "dismounted"]
        for form in forms:
            for f in ([u.facing] if form == "square" else [u.facing, (u.facing + 3) % 6]):
                if MV.remount_refusal(hmap, view, u, kind, form, f) is not None:
                    continue
                yield Order.make(kind, unit=u.id, formation=form, facing=f)

def unit_at(state: State, h: Hex | None) -> Unit | None:
    if h is None:
        return None
    for uid in sorted(state.units):
        u = state.units[uid]
        if not B.is_general(u) and h in B.stand_hexes(u):
            return u
    return None


def deployers(state: State, side: str) -> list[Unit]:
    """Units still to be placed in the deployment (22.10)."""
    return [u for u in state.side_units(side, alive=False) if B.state_of(u) == "deploy"]


def deploy_hexes(hmap, scenario, state: State, u: Unit) -> list[Hex]:
    """Where a unit may be placed (22.10): its whole footprint (in the formation and facing the
    file gives it) within 6 rows of the own edge, on ground it may stand on, in hexes no other
    stand holds, not next to an enemy stand; a general in a hex with no other general and at
    most one friendly stand."""
    view = B.View(state)
    edge = B.edge_of(scenario, u.side)
    gen = B.is_general(u)
    out = []
    for h in hmap.hexes:
        if hmap.rows_from_edge(h, edge) >= D.DEPLOY_ROWS:
            continue
        if gen:
            if hmap.terrain_at(h) in ("lake", "river") or view.generals.get(h) \
                    or (h in view.stands and view.stands[h].side != u.side):
                continue
            if view.adjacent_enemy(h, u.side) and h not in view.stands:
                continue          # 9.4; a general only stacked with a friendly stand (22.6)
            out.append(h)
            continue
        t = hmap.terrain_at(h)
        if t == "village":
            # a settlement garrison holds its one hex
            if B.mounted(u) or B.arm(u) == "train" or h in view.stands or view.adjacent_enemy(h, u.side) \
                    or any(g.side != u.side for g in view.generals.get(h, ())):
                continue
            stands = MV.garrison_stands(hmap, view, u, h)     # one stand a village hex (17)
            if stands is None or any(x in view.stands or view.adjacent_enemy(x, u.side) for x in stands[1:]):
                continue
            out.append(h)
            continue
        stands = B.layout_of(u, h, u.facing, outside=True)
        if not all(x in hmap and hmap.rows_from_edge(x, edge) < D.DEPLOY_ROWS for x in stands):
            continue
        if all(_deploy_ground(hmap, u, x) for x in stands) and MV.fits(hmap, view, u, stands):
            out.append(h)
    return sorted(out)


def _deploy_ground(hmap, u: Unit, h: Hex) -> bool:
    t = hmap.terrain_at(h)
    if t in ("lake", "river", "village", "rampart") or (t == "ford" and B.formation(u) == "unlimbered"):
        return False
    return not (t in ("forest", "swamp", "ravine") and not B.foot(u))
