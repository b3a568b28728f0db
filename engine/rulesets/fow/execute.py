"""Step 8: carrying out orders in the order of 14.3 (spec 11.4, 13, 14, G-21..G-27, G-55, G-63).

Actors are commanders with an order and participants, and commanderless groups (11.4: Disengage
under Cautious offensive or Fighting withdrawal, a 1-point Maneuver under Breakthrough or
Counter-attacks; nothing otherwise). Reserve and Prepared-defence orders have no activation: a
reserve acts only by joining a battle, a prepared defence only by being attacked.

An activation is the order ``act actor path``: ``path`` lists the points entered (``0`` as the
last entry leaves the map across the enemy edge), empty to stay. The attacking (SI) side
activates one actor; if that caused no battle, the defender may answer with one activation of its
own (or ``pass``); when the attacker has no actor left, the defender activates the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import Unit
from hexwar.engine.state import State

from . import battle as B
from . import campaign as K
from . import catalogue
from . import forces as F
from . import geo
from . import plans as P
from . import support

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position

MOVES = ("maneuver", "maneuver1", "disengage")
ATTACKS = ("rif", "attack", "breakthrough")


# --- after both plans are revealed -------------------------------------------------------------

def apply_plans(ctx: Resolution, game: "Position", parsed: dict[str, dict[str, Any]]) -> None:
    state = ctx.state
    si = state.vars["si"]
    orders: dict[str, dict[str, Any]] = {}
    for side in (si, state.enemy_of(si)):
        plan = parsed[side]
        posture = plan["posture"]
        state.sides[side]["posture"] = posture
        state.sides[side]["rp"] -= plan["cost"]
        ctx.emit("plan-revealed", side=side, posture=posture, rp_spent=plan["cost"],
                 orders={k: [o["order"], *o["companies"]] for k, o in sorted(plan["orders"].items())})
        mine: dict[str, Any] = {}
        forced = set(state.vars["forced"].get(side, []))
        for k, o in sorted(plan["orders"].items()):
            point = F.commanders(state)[k]["point"]
            order = o["order"]
            # 11.2, G-18: the order the plan gave decides whether it is mandatory; 9 replaces a
            # Breakthrough with an Attack in bad weather, and the replacement is still the
            # mandatory order (losing it costs the initiative, 6.A)
            mand = side == si and order == P.MANDATORY[posture] and bool(o["companies"])
            if order == "breakthrough" and state.vars["weather"] == "bad":
                order = "attack"
                ctx.emit("order-converted", actor=k, frm="breakthrough", to="attack", why="bad weather (9)")
            if point in forced and order != "disengage":
                ctx.emit("order-converted", actor=k, frm=order, to="disengage", why="encircled (18)")
                order = "disengage"
            mine[k] = {"order": order, "companies": list(o["companies"]), "point": point,
                       "done": 0, "mandatory": mand}
        commanded = {F.commanders(state)[k]["point"] for k in F.commanders(state)
                     if F.commanders(state)[k]["side"] == side}
        for p in F.group_points(state, side):
            if p in commanded:
                continue
            if p in forced or posture in ("cautious", "withdrawal"):
                order = "disengage"
            elif posture in ("breakthrough", "counter_attacks"):
                order = "maneuver1"
            else:
                continue
            mine[f"g{p:02d}"] = {"order": order, "companies": F.at(state, p, side), "point": p,
                                 "done": 0, "mandatory": False}
        orders[side] = mine
        state.vars["assets"][side] = {"air": plan["air"], "artillery": plan["artillery"],
                                      "bridges": plan["bridges"]}
        for t in plan["trophies"]:
            _activate_trophy(ctx, side, t["company"], t["kind"])
    state.vars["orders"] = orders
    support.preparation_phase(ctx, game.scenario)
    state.phase = "execute"
    queue = {}
    for side, mine in orders.items():
        queue[side] = [k for k in sorted(mine) if mine[k]["order"] not in ("reserve", "prepared_defence")
                       and mine[k]["companies"]]
    state.vars["exec"] = {"attacker": si, "mode": "attack", "queue": queue, "battle_happened": False}
    K.check_contact(ctx)
    advance_loop(ctx, game)


def _activate_trophy(ctx: Resolution, side: str, cid: str, kind: str) -> None:
    """G-43: the trophy becomes a platoon of the captor with one team and the original stats
    (its start teams stay the catalogue's, so one team is worth its share of the points)."""
    state = ctx.state
    spec = catalogue.UNIT_TYPES[kind]
    F.companies(state)[cid]["trophies"].remove(kind)
    n = 1 + sum(1 for u in state.units if u.startswith(f"{side}-trophy"))
    uid = f"{side}-trophy{n}"
    point = F.companies(state)[cid]["point"]
    state.units[uid] = Unit(id=uid, side=side, kind=kind, name=f"captured {spec['name']}",
                            hex=geo.hex_of(point), strength=1, max_strength=int(spec["strength"]),
                            division=cid, stats=dict(spec))
    ctx.emit("trophy-in-action", side=side, unit=uid, company=cid)


def advance_loop(ctx: Resolution, game: "Position") -> None:
    """Whose activation is next (14.3); ends the turn when nobody has one left."""
    state = ctx.state
    if state.result is not None or state.pending or state.vars["battle"]:
        return
    ex = state.vars["exec"]
    att = ex["attacker"]
    dfn = state.enemy_of(att)
    for side in (att, dfn):
        ex["queue"][side] = [a for a in ex["queue"][side] if participants(state, side, a)
                             or state.vars["orders"][side][a]["order"] in ATTACKS]
    if ex["mode"] == "react" and not ex["queue"][dfn]:
        ex["mode"] = "attack"
    if ex["mode"] == "intercept" and interceptor(state, dfn) is None:
        ex["mode"] = "attack"
    if ex["mode"] == "attack" and not ex["queue"][att]:
        ex["mode"] = "defend"
    if ex["mode"] == "defend" and not ex["queue"][dfn]:
        K.end_turn(ctx, game.scenario)
        return
    state.active = dfn if ex["mode"] in ("react", "intercept", "defend") else att


def interceptor(state: State, side: str) -> str | None:
    """G-21: the defender's group with a +2 commander that may still act once a turn out of
    turn, or None."""
    ex = state.vars["exec"]
    if ex.get("intercept_used") or side == ex["attacker"]:
        return None
    for actor in ex["queue"].get(side, []):
        k = F.commanders(state).get(actor)
        if k is not None and k["rating"] >= 2:
            return actor
    return None


def participants(state: State, side: str, actor: str) -> list[str]:
    o = state.vars["orders"][side][actor]
    live = set(F.live(state, side))
    return [c for c in o["companies"] if c in live
            and F.companies(state)[c]["point"] == o["point"] and not F.companies(state)[c]["acted"]]


# --- paths -------------------------------------------------------------------------------------

def allowance(state: State, order: str, cids: list[str]) -> int:
    """14.1: Maneuver 2 (infantry, artillery) or 4 (mechanised), one less in bad weather but
    never below 1 (G-46); 1 for a commanderless group (11.4) or an encircled Disengage (18)."""
    if order == "maneuver1":
        return 1
    n = 4 if F.mechanised(F.units_of(state, cids)) else 2
    if state.vars["weather"] == "bad":
        n = max(1, n - 1)
    return n


def _walk(game: "Position", side: str, cids: list[str], start: int, path: list[int]) -> str | None:
    """Adjacency, rivers (2.8, 13), mountains (13, G-64) for every step of ``path``."""
    state = game.state
    cmap = geo.campaign_map(game.scenario)
    units = F.units_of(state, cids)
    fords = F.fords_ok(units)
    banned = F.mechanised(units) or any(F.is_vehicle(u) for u in units)
    bank = F.companies(state)[cids[0]]["bank"] if cids else None
    prev = start
    for p in path:
        if p == geo.OFF_MAP:
            break
        if not isinstance(p, int) or p not in geo.POINTS:
            return "a path lists points 1-36 (0 last to leave the map)"
        if not geo.adjacent(prev, p):
            return f"{p:02d} is not next to {prev:02d}"
        if cmap.base(p) == "mountains" and banned:
            return f"mechanised troops may not enter the mountains at {p:02d} (13)"
        ok, bank = cmap.step(prev, bank, p, state.vars["bridges"], fords)
        if not ok:
            return f"no usable crossing to leave {prev:02d} across its river (13)"
        prev = p
    return None


def _exit_ok(game: "Position", side: str, path: list[int]) -> str | None:
    """G-51: only the side whose victory counts what leaves may leave, as the path's last step."""
    v = game.scenario.victory
    if v.get("type") != "exit" or v.get("side") != side:
        return "only the side that must exit may leave the map (G-51)"
    if path.index(geo.OFF_MAP) != len(path) - 1:
        return "leaving the map is the last step of a path (G-51)"
    return None


def activation_problem(game: "Position", side: str, actor: str, path: list[int]) -> str | None:
    state = game.state
    o = state.vars["orders"][side][actor]
    cids = participants(state, side, actor)
    order = o["order"]
    if not path:
        return None
    if not cids:
        return f"{actor} has no company left to act"
    start = o["point"]
    enemy = F.occupied(state, state.enemy_of(side))
    own = F.occupied(state, side)
    edge = state.sides[state.enemy_of(side)]["edge"]
    if geo.OFF_MAP in path:
        why = _exit_ok(game, side, path)
        if why:
            return why
        last = path[-2] if len(path) > 1 else start
        if geo.rows_from(last, edge) != 0:
            return "companies leave the map only from a point on the enemy's edge (G-51)"
        if order not in ("maneuver", "maneuver1", "attack", "breakthrough"):
            return "only a Maneuver, Attack or Breakthrough move may leave the map (G-51)"
    why = _walk(game, side, cids, start, path)
    if why:
        return why
    real = [p for p in path if p != geo.OFF_MAP]
    if order in MOVES:
        if len(path) > allowance(state, order, cids):
            return f"{order} moves at most {allowance(state, order, cids)} points (14.1)"
        near = lambda p: any(geo.adjacent(p, e) for e in enemy)  # noqa: E731
        if any(p in enemy for p in real):
            return "a Maneuver or Disengage never enters an enemy point (14.1)"
        adjacent_start = near(start)
        if order == "disengage" and adjacent_start:
            if start in state.vars["encircled"].get(side, []) and len(path) > 1:
                return "an encircled company disengages only 1 point (14.1, 18)"
            if any(near(p) for p in real) and disengage_paths(game, side, actor, relaxed=False):
                return "a Disengage may not enter a point next to the enemy (14.1)"
            own_edge = state.sides[side]["edge"]
            prev = start
            for p in real:
                de_prev = min(geo.distance(prev, e) for e in enemy) if enemy else 0
                de_p = min(geo.distance(p, e) for e in enemy) if enemy else 0
                if de_p < de_prev or geo.rows_from(p, own_edge) > geo.rows_from(prev, own_edge):
                    return "each Disengage step moves away from the enemy and toward the own edge (G-24)"
                prev = p
            return None
        if adjacent_start:
            return "a Maneuver may not start next to the enemy (14.1, G-23)"
        if any(near(p) for p in real):
            return "a Maneuver may not enter a point next to the enemy (14.1, G-23)"
        return None
    if order in ("reserve", "prepared_defence"):
        return f"a {order} order has no move of its own"
    # attacks
    if any(F.companies(state)[c]["fought"] for c in cids):
        return "a group that fought this turn may not attack again (17.6)"
    motor = F.fully_motorised(F.units_of(state, cids))
    first_exit = geo.OFF_MAP in path
    if first_exit:
        if order == "rif":
            return "a reconnaissance returns; it cannot leave the map"
        if len(path) > 2 or any(p in enemy for p in real):
            return "leaving the map as part of an attack passes only empty points (G-51)"
        return None
    if len(path) > 2:
        return f"{order} reaches at most 2 points (14.1)"
    target = path[-1]
    if len(path) == 2:
        if path[0] in enemy:
            return "the first point of a 2-point attack must be free of enemy (G-27)"
        if order in ("rif", "breakthrough") and not motor:
            return f"only fully motorised companies {order} 2 points (14.1, G-64)"
    if order == "rif":
        if target in own:
            return "no reconnaissance into a point your own troops hold (14.1)"
    return None


def activation_paths(game: "Position", side: str, actor: str) -> list[list[int]]:
    """Every legal non-empty path of the actor (for the computer and ``legal_orders``).

    The same paths, in the same order, as growing each path one point at a time and keeping those
    ``activation_problem`` accepts (a longer path never runs through an illegal or enemy-held
    one), but each step is checked once, against what the actor's start already settled: the
    computer lists these paths for every decision it looks ahead through.

    A Disengage that starts next to the enemy and has no path clear of points next to the enemy
    takes G-24's fallback: "otherwise the company moves as far as the step rule allows", through
    and into points next to the enemy (never into one), each step keeping its distance from the
    nearest enemy and not leaving its own edge behind."""
    return disengage_paths(game, side, actor, relaxed=None)


def disengage_paths(game: "Position", side: str, actor: str, relaxed: bool | None) -> list[list[int]]:
    """``activation_paths`` with the G-24 fallback forced off (``relaxed=False``), forced on
    (``True``), or taken only when nothing else is legal (``None``)."""
    if relaxed is None:
        return disengage_paths(game, side, actor, False) or disengage_paths(game, side, actor, True)
    state = game.state
    o = state.vars["orders"][side][actor]
    cids = participants(state, side, actor)
    order = o["order"]
    if not cids or order in ("reserve", "prepared_defence"):
        return []
    start = o["point"]
    moving = order in MOVES
    limit = allowance(state, order, cids) if moving else 2
    enemy = F.occupied(state, state.enemy_of(side))
    own = F.occupied(state, side)
    edge = state.sides[state.enemy_of(side)]["edge"]
    v = game.scenario.victory
    may_exit = v.get("type") == "exit" and v.get("side") == side
    exit_order = order in ("maneuver", "maneuver1", "attack", "breakthrough")
    cmap = geo.campaign_map(game.scenario)
    units = F.units_of(state, cids)
    fords = F.fords_ok(units)
    banned = F.mechanised(units) or any(F.is_vehicle(u) for u in units)
    bridges = state.vars["bridges"]
    near = set()
    for e in enemy:
        near.update(n for _, n in geo.neighbours(e))
    # what rules out every path of the actor at once (14.1, 17.6)
    disengaging = False
    if moving:
        if order == "disengage" and start in near:
            disengaging = True
            own_edge = state.sides[side]["edge"]
            one_step = start in state.vars["encircled"].get(side, [])

            def gap(p: int) -> int:
                return min(geo.distance(p, e) for e in enemy) if enemy else 0
        elif start in near:
            return []
    elif any(F.companies(state)[c]["fought"] for c in cids):
        return []
    two_points = order not in ("rif", "breakthrough") or F.fully_motorised(units)
    out: list[list[int]] = []

    def leave_ok(path: list[int], last: int) -> bool:
        """G-51: the path's last step leaves the map (``activation_problem``'s exit checks)."""
        if not exit_order or geo.rows_from(last, edge) != 0:
            return False
        return moving or (order != "rif" and len(path) <= 2)

    def enter_ok(path: list[int], prev: int, n: int) -> bool:
        """The checks of ``activation_problem`` that the new last point ``n`` brings."""
        if moving:
            if n in enemy or (n in near and not (disengaging and relaxed)):
                return False
            if disengaging:
                if one_step and len(path) > 1:
                    return False
                return not (gap(n) < gap(prev) or geo.rows_from(n, own_edge) > geo.rows_from(prev, own_edge))
            return True
        if len(path) == 2 and not two_points:
            return False
        return not (order == "rif" and n in own)

    def grow(path: list[int], last: int, bank: str | None) -> None:
        if len(path) >= limit:
            return
        for _, n in geo.neighbours(last):
            if n in path or n == start:
                continue
            if banned and cmap.base(n) == "mountains":
                continue
            ok, nbank = cmap.step(last, bank, n, bridges, fords)
            if not ok:
                continue
            cand = path + [n]
            if not enter_ok(cand, last, n):
                continue  # no longer path through an illegal one is legal
            out.append(cand)
            if n not in enemy:
                grow(cand, n, nbank)
        if may_exit:
            cand = path + [geo.OFF_MAP]
            if leave_ok(cand, last):
                out.append(cand)

    if relaxed and not disengaging:
        return []  # the fallback is only for a Disengage that starts next to the enemy
    grow([], start, F.companies(state)[cids[0]]["bank"])
    return out


# --- resolution --------------------------------------------------------------------------------

def _bog(ctx: Resolution, game: "Position", cid: str, p: int) -> bool:
    """G-63: a company with vehicles entering hills or vegetation stops there on a 1."""
    cmap = geo.campaign_map(game.scenario)
    if cmap.base(p) not in ("hills",) + geo.VEGETATION:
        return False
    if not F.has_vehicles(F.platoons(ctx.state, cid)):
        return False
    if ctx.roll("cross-country", company=cid, point=p) == 1:
        ctx.emit("bogged", company=cid, point=p)
        return True
    return False


def _move_along(ctx: Resolution, game: "Position", cids: list[str], start: int, path: list[int]) -> list[str]:
    """Move each company along ``path`` (stopping if it bogs); returns those that completed it."""
    state = ctx.state
    cmap = geo.campaign_map(game.scenario)
    done = []
    for cid in cids:
        prev = start
        bank = F.companies(state)[cid]["bank"]
        stopped = False
        for p in path:
            if p == geo.OFF_MAP:
                side = F.companies(state)[cid]["side"]
                value = F.fp(state, [cid])
                K.add_exited(state, side, value)
                F.remove_company(state, cid)
                ctx.emit("exited", company=cid, side=side, fp=[value.numerator, value.denominator])
                stopped = True
                break
            _, bank = cmap.step(prev, bank, p, state.vars["bridges"], F.fords_ok(F.platoons(state, cid)))
            F.move_company(state, cid, p)
            F.companies(state)[cid]["bank"] = bank
            B.capture_lone_commanders(ctx, F.companies(state)[cid]["side"], p)
            prev = p
            if _bog(ctx, game, cid, p):
                stopped = True
                break
        if not stopped:
            done.append(cid)
    return done


def resolve_act(ctx: Resolution, game: "Position", side: str, actor: str, path: list[int]) -> None:
    state = ctx.state
    ex = state.vars["exec"]
    o = state.vars["orders"][side][actor]
    cids = participants(state, side, actor)
    o["done"] = 1
    ex["battle_happened"] = False
    was_react = ex["mode"] in ("react", "intercept")
    if was_react and actor == interceptor(state, side):
        ex["intercept_used"] = True
        ex["intercepting"] = True
        ctx.emit("interception", side=side, actor=actor)
    if actor in ex["queue"][side]:
        ex["queue"][side].remove(actor)
    for c in cids:
        F.companies(state)[c]["acted"] = 1
    if not path:
        ctx.emit("stood", side=side, actor=actor, order=o["order"])
        if o.get("mandatory"):
            state.vars["mandatory_failed"] = True
            ctx.emit("mandatory-order-failed", side=side, actor=actor)
    elif o["order"] in MOVES:
        ctx.emit("moving", side=side, actor=actor, order=o["order"], companies=cids, path=list(path))
        _move_along(ctx, game, cids, o["point"], path)
        _commanders_follow(state, side, actor, o["point"], cids)
    else:
        _resolve_attack(ctx, game, side, actor, o, cids, path)
    _after(ctx, game, side, was_react)


def _commanders_follow(state: State, side: str, actor: str, frm: int, cids: list[str]) -> None:
    """The acting commander goes with his group (to where its first company ended)."""
    k = F.commanders(state).get(actor)
    live = [c for c in cids if c in F.live(state, side)]
    if k is not None and live:
        k["point"] = F.companies(state)[live[0]]["point"]


def _resolve_attack(ctx: Resolution, game: "Position", side: str, actor: str, o: dict[str, Any],
                    cids: list[str], path: list[int]) -> None:
    state = ctx.state
    enemy = state.enemy_of(side)
    start = o["point"]
    ctx.emit("attacking", side=side, actor=actor, order=o["order"], companies=cids, path=list(path))
    if geo.OFF_MAP in path:
        _move_along(ctx, game, cids, start, path)
        return
    movers = list(cids)
    frm = start
    tired: list[str] = []
    if len(path) == 2:
        movers = _move_along(ctx, game, movers, start, path[:1])
        frm = path[0]
        if o["order"] == "attack":
            tired = list(movers)  # 14.1: an attack into the 2nd point exhausts
        if not movers:
            if o.get("mandatory"):
                state.vars["mandatory_failed"] = True
            return
    target = path[-1]
    if not F.at(state, target, enemy):
        # 17.1 (proposal): an empty point is taken without a battle; a RiF there succeeds
        if o["order"] == "rif":
            for c in movers:
                F.move_company(state, c, start)
            ctx.emit("reconnaissance-found-nothing", point=target)
            return
        arrived = _move_along(ctx, game, movers, frm, [target])
        _commanders_follow(state, side, actor, start, cids)
        if o["order"] == "breakthrough" and arrived:
            opts = B.advance_options(state, game.scenario, arrived, target, frm)
            if opts and len(path) < 3:
                state.pending = [{"kind": "advance", "side": side, "companies": arrived,
                                  "from": target, "came_from": frm, "options": opts, "actor": actor,
                                  "path_len": len(path), "battles": 0, "start": start}]
        return
    B.start(ctx, game.scenario, attacker=side, att=movers, point=target, frm=frm,
            kind=o["order"], actor=actor, start_point=start, tired=tired, legs=1,
            path_len=len(path))


def resolve_advance(ctx: Resolution, game: "Position", point: int) -> None:
    """G-26: the forced advance after a won Breakthrough; a battle there is fought as an Attack,
    exhausted (fully motorised forces only in the 3rd point of their path)."""
    state = ctx.state
    pend = state.pending.pop(0)
    side = pend["side"]
    movers = [c for c in pend["companies"] if c in F.live(state, side)]
    enemy = state.enemy_of(side)
    path_len = pend["path_len"] + 1
    motor = F.fully_motorised(F.units_of(state, movers))
    ctx.emit("advance", side=side, companies=movers, point=point)
    if F.at(state, point, enemy):
        if motor and pend["battles"] >= 2:
            return
        tired = movers if (not motor or path_len >= 3) else []
        B.start(ctx, game.scenario, attacker=side, att=movers, point=point, frm=pend["from"],
                kind="attack", actor=pend["actor"], start_point=pend["from"], tired=tired,
                legs=2, path_len=path_len, fresh=[] if tired else movers)
    else:
        _move_along(ctx, game, movers, pend["from"], [point])
        _commanders_follow(state, side, pend["actor"], pend["from"], movers)
    battle_over(ctx, game)


def _after(ctx: Resolution, game: "Position", side: str, was_react: bool) -> None:
    """Once an activation (and any battle it caused) is over: victory, then who acts next."""
    state = ctx.state
    if state.pending or state.vars["battle"]:
        return
    K.check_contact(ctx)
    if K.check_victory(ctx, game.scenario):
        return
    ex = state.vars["exec"]
    att = ex["attacker"]
    ex["intercepting"] = False
    if side == att and ex["mode"] == "attack":
        if not ex.get("battle_happened"):
            ex["mode"] = "react"
        elif interceptor(state, state.enemy_of(att)) is not None:
            ex["mode"] = "intercept"
    elif was_react:
        ex["mode"] = "attack"
    ex["battle_happened"] = False
    advance_loop(ctx, game)


def battle_over(ctx: Resolution, game: "Position") -> None:
    """Called after every battle decision: when the battle and its aftermath are done, the
    activation that caused it is over too."""
    state = ctx.state
    if state.pending or state.vars["battle"]:
        return
    K.check_contact(ctx)
    if K.check_victory(ctx, game.scenario):
        return
    ex = state.vars["exec"]
    att = ex["attacker"]
    if ex["mode"] in ("react", "intercept"):
        ex["mode"] = "attack"
    elif ex["mode"] == "attack" and interceptor(state, state.enemy_of(att)) is not None \
            and not ex.get("intercepting"):
        ex["mode"] = "intercept"  # G-21: after a battle too
    ex["intercepting"] = False
    ex["battle_happened"] = False
    advance_loop(ctx, game)
