"""Resolution of Poltava orders on the state copy: moves, fire, the melee state machine, routs."""

from __future__ import annotations

from operator import attrgetter

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_distance, hex_neighbors

from . import melee as M
from .board import View, arm, hx, ids_by_arm, in_division, odb_ranks, other
from .data import MELEE_ARMS, RUSSIA, SWEDEN, clock, parse_result


_SIDE = attrgetter("side")


def L(v, h):
    return v.m.label(h)


def resolve(rs, ctx, order) -> None:
    st = ctx.state
    k = order.kind
    if st.pending:
        _answer(rs, ctx, order)
    elif k == "setup":
        _setup(ctx)
    elif k == "end-phase":
        _end_phase(rs, ctx)
    elif k in ("move", "enter"):
        _move(rs, ctx, order)
    elif k == "hold":
        st.units[order["unit"]].mark("moved")
    elif k == "regarrison":
        u, r = st.units[order["unit"]], st.units[order["redoubt"]]
        r.side = RUSSIA
        r.mark("captured", 0)
        ctx.emit("regarrison", unit=u.id, redoubt=r.id)
        lose_step(ctx, u)
    elif k == "detach":
        st.vars["detached"] = sorted(st.vars["detached"] + [order["division"]])
        ctx.emit("detached", division=order["division"])
    elif k == "exchange":
        roos = [u for u in st.units_in_id_order() if u.alive and u.division == "roos"]
        need = sum(u.strength for u in roos)
        for u in roos:
            eliminate(ctx, u, box=False)
        st.vars["roos_destroyed"] = True
        pool = [u.id for u in st.units_in_id_order()
                if u.alive and u.division in ("rc", "lg") and arm(u) in MELEE_ARMS]
        st.vars["exchange_turn"] = st.turn
        ctx.emit("rentzel-exchange", steps=need)
        st.pending.append({"side": RUSSIA, "kind": "exchange-loss", "units": pool, "count": need})
    elif k == "fire":
        _fire(rs, ctx, order)
    elif k == "attack":
        _attack(rs, ctx, order)
    settle(rs, ctx)


# ---------------------------------------------------------------------------- steps and routs
def eliminate(ctx, u, box: bool = True) -> None:
    st = ctx.state
    if u.hex is None:
        return
    h = u.hex
    u.hex = None
    u.strength = 0
    u.mark("elim" if box else "gone")
    if arm(u) == "cossack":
        st.vars["cossacks_lost"] += 1
    elif box and u.division:
        st.vars["box"][u.division] = st.vars["box"].get(u.division, 0) + 1
    ctx.emit("eliminated", unit=u.id, division=u.division, counted=box)
    _relocate_leaders(ctx, h, u.side)


def lose_step(ctx, u, box: bool = True) -> None:
    if not u.alive:
        return
    if u.strength >= 2:
        u.strength -= 1
        ctx.emit("reduced", unit=u.id)
    else:
        eliminate(ctx, u, box)


def _relocate_leaders(ctx, h, side) -> None:
    st = ctx.state
    v = View(ctx.scenario, st)
    leaders = [u for u in v.units_at(h) if arm(u) == "leader" and u.side == side]
    if not leaders or any(arm(x) in MELEE_ARMS and x.side == side for x in v.units_at(h)):
        return
    cands = sorted((hex_distance(h, x.hex), x.hex) for x in st.side_units(side) if arm(x) in MELEE_ARMS)
    for ld in leaders:
        if cands:
            ld.hex = Hex(*cands[0][1])
            ctx.emit("leader-moves", unit=ld.id, to=v.m.label(ld.hex))
        else:
            ld.hex = None
            ld.strength = 0
            ld.mark("gone")


def post_checks(rs, ctx) -> None:
    st = ctx.state
    scn = ctx.scenario
    if st.result is not None:
        return
    changed = True
    while changed:
        changed = False
        lost = st.vars["cossacks_lost"]
        if lost >= 5 and not st.vars.get("cossacks_gone"):
            st.vars["cossacks_gone"] = True
            for u in st.units_in_id_order():
                if arm(u) == "cossack" and u.alive:
                    eliminate(ctx, u, box=False)
            st.vars["cossacks_lost"] = lost
            ctx.emit("cossacks-leave", lost=lost)
            changed = True
        elif lost >= 3 and not st.vars["cossacks_changed"]:
            st.vars["cossacks_changed"] = True
            ctx.emit("cossacks-change-sides", lost=lost)
            for u in st.units_in_id_order():
                if arm(u) == "cossack" and u.alive:
                    u.side = SWEDEN
                    u.mark("attacked")
                    v = View(scn, st)
                    if any(x.side == RUSSIA for x in v.combat_at(u.hex)):
                        # A35: off the board until the Swedish player places it
                        st.pending.append({"side": SWEDEN, "kind": "displace", "unit": u.id,
                                           "from": [u.hex[0], u.hex[1]]})
                        u.hex = None
            changed = True
        box = st.vars["box"]
        for did, threshold, name in _rout_thresholds(scn):
            if box.get(did, 0) < threshold or did in st.vars["routed"]:
                continue
            st.vars["routed"] = st.vars["routed"] + [did]
            ctx.emit("division-routs", division=did, name=name)
            for u in st.units_in_id_order():
                if u.division == did and arm(u) != "leader" and (u.hex is not None or u.marks.get("waiting")):
                    h = u.hex
                    u.hex = None
                    u.mark("waiting", 0)
                    u.mark("routed")
                    if h is not None:
                        _relocate_leaders(ctx, h, u.side)
            changed = True
        if st.vars["roos_formed"] and not st.vars["roos_destroyed"]:
            if not any(u.alive for u in in_division(st, "roos")):
                st.vars["roos_destroyed"] = True
                ctx.emit("roos-column-destroyed")
    # leaders overrun by the enemy
    units, occ = st.units, st.shared_occupancy()
    token = st.position_token()
    kept = st.__dict__.get("_leaders_checked")  # (token, occupancy) of a check that moved nobody
    if kept is None or kept[0] is not token:  # else: checked at this very position
        only = None
        if kept is not None:
            touched = st.occupancy_changes(kept[1], occ)
            if touched is not None:  # a leader whose hex holds the same units as then is safe
                only = {u.id for h in touched for u in occ.get(h, ())}
        _overrun_leaders(st, scn, units, occ, only)
        if st.position_token() is token:  # no leader moved: nothing to do until a unit moves
            st.__dict__["_leaders_checked"] = (token, occ)
    _army_rout(ctx)


def _rout_thresholds(scn) -> tuple[tuple[str, int, str], ...]:
    """(id, rout threshold, name) of each division that has a threshold, in the scenario's order:
    what ``post_checks`` walks after every order. Kept on the scenario, which never changes."""
    out = scn.__dict__.get("_poltava_routs")
    if out is None:
        out = scn.__dict__["_poltava_routs"] = tuple(
            (d.id, d.rout_threshold, d.name) for d in scn.divisions if d.rout_threshold is not None)
    return out


def _overrun_leaders(st, scn, units, occ, only=None) -> None:
    """A leader in a hex with enemy combat units goes to the nearest friendly combat
    unit, or is lost when there is none. What this reads (hexes, strengths, sides, arms) is
    all in ``State.position_token``, so ``post_checks`` asks once per position, and only about
    the leaders ``only`` names (those in hexes whose units changed) when it knows them."""
    v = None  # made at the first leader with an enemy beside it, before any leader moves
    for uid in ids_by_arm(st).get("leader", ()):
        if only is not None and uid not in only:
            continue
        u = units[uid]
        here = occ.get(u.hex, ())  # () for a leader off the map (no hex)
        if len(here) < 2 or not u.alive or all(map(u.side.__eq__, map(_SIDE, here))):
            continue  # no enemy of any arm in its hex (the common case, checked cheaply)
        if v is None:
            v = View(scn, st)
        if v.combat_at(u.hex, other(u.side)):
            cands = sorted((hex_distance(u.hex, x.hex), x.hex) for x in st.side_units(u.side) if arm(x) in MELEE_ARMS)
            if cands:
                u.hex = Hex(*cands[0][1])
            else:
                u.hex = None
                u.strength = 0


def _place_displaced(ctx, u, h) -> None:
    """A35: the Swedish player's hex for a Cossack that changed sides; None = nowhere to go."""
    st = ctx.state
    if h is None or st.vars.get("cossacks_gone"):
        u.strength = 0
        u.mark("gone")
        ctx.emit("eliminated", unit=u.id, division=u.division, counted=False)
        return
    u.hex = Hex(*h)
    ctx.emit("displaced", unit=u.id, to=ctx.map.label(u.hex), rule="A35")


def roos_stands(st) -> bool:
    """A Roos column exists and has not been destroyed (S2-4, S2-5)."""
    return bool(st.vars["roos_formed"] and not st.vars["roos_destroyed"])


def army_state(scn, st) -> tuple[bool, bool, bool]:
    """(russian army routed, swedish army routed, draw by S2 rule). The Roos column counts as a
    Swedish division (R10.2); under the literal draw rule (A47) its last stand is a draw."""
    routed = st.vars["routed"]
    ru, sw = _army_divisions(scn)
    ru_routed = len(ru) - sum(map(routed.__contains__, ru)) <= 1  # divisions left, at most one
    sw_routed = len(sw) - sum(map(routed.__contains__, sw)) + (1 if roos_stands(st) else 0) <= 1
    draw = False
    if sw_routed and roos_stands(st) and scn.rule("draw_rule", "literal") == "literal":
        draw, sw_routed = True, False
    return ru_routed, sw_routed, draw


def _army_divisions(scn) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The divisions that make up each army (R10.2), as the scenario's victory table lists them:
    asked after every order, kept on the scenario, which never changes."""
    out = scn.__dict__.get("_poltava_armies")
    if out is None:
        out = scn.__dict__["_poltava_armies"] = (tuple(scn.victory.get("russia_divisions", [])),
                                                 tuple(scn.victory.get("sweden_divisions", [])))
    return out


def russian_victory(scn, st, reason: str) -> dict:
    """A Russian win, or under ``draw_rule = "roos-at-end"`` (A47) a draw while the Roos column stands."""
    if scn.rule("draw_rule", "literal") == "roos-at-end" and roos_stands(st):
        return {"winner": None, "reason": f"{reason}, but the Roos column stands: draw (S2 victory, A47)"}
    return {"winner": RUSSIA, "reason": reason}


def _army_rout(ctx) -> None:
    st = ctx.state
    ru, sw, draw = army_state(ctx.scenario, st)
    res = None
    if ru and (sw or draw):
        res = {"winner": None, "reason": "both armies routed at once (A34)"}
    elif ru:
        res = {"winner": SWEDEN, "reason": "the Russian army routed (R10.2)"}
    elif sw:
        res = russian_victory(ctx.scenario, st, "the Swedish army routed (R10.2)")
    elif draw:
        res = {"winner": None, "reason": "Lewenhaupt, Creutz and Hamilton routed but the Roos column stands: draw (S2 victory)"}
    if res:
        _finish(ctx, res)


def _finish(ctx, res) -> None:
    st = ctx.state
    st.result = res
    st.pending = []
    st.vars["combat"] = None
    ctx.emit("game-over", **res)


# ---------------------------------------------------------------------------- set-up (S1)
def _setup(ctx) -> None:
    st = ctx.state
    rolls = {}
    for div in ctx.scenario.rule("setup_loss_divisions", ["mn", "le", "cr", "ha"]):
        spec = next((d for d in ctx.scenario.divisions if d.id == div), None)
        if spec is None:
            continue
        n = ctx.roll(f"pre-battle losses of {spec.name} (S1)", division=div)
        rolls[div] = n
        units = [u.id for u in st.side_units(spec.side) if u.division == div]
        st.pending.append({"side": spec.side, "kind": "setup-loss", "units": units, "count": n})
    st.vars["setup_rolls"] = rolls
    st.phase = "move"
    # Russian decisions first, then Swedish (both orders of the same set-up step)
    st.pending.sort(key=lambda p: 0 if p["side"] == RUSSIA else 1)


# ---------------------------------------------------------------------------- phases
_PHASE_MARKS = ("moved", "fired", "attacked", "defended")


def _clear_marks(st) -> None:
    """Every unit's ``u.mark(k, 0)`` for the phase marks: the same pops, asked only of the units
    with marks and only for the marks they have (most have none)."""
    for u in st.units.values():
        marks = u.marks
        if marks:
            for k in _PHASE_MARKS:
                if k in marks:
                    marks.pop(k, None)


def _end_phase(rs, ctx) -> None:
    st = ctx.state
    if st.phase == "move":
        st.phase = "fire"
    elif st.phase == "fire":
        st.phase = "melee"
        _start_melee(rs, ctx)
    elif st.phase == "melee":
        st.vars["obligation"] = None
        first, second = st.side_order
        if st.active == first:
            st.active = second
            st.phase = "move"
            _clear_marks(st)
        else:
            if st.turn >= rs.last_turn(ctx.scenario):
                _finish(ctx, russian_victory(ctx.scenario, st,
                                             "the Swedes did not rout the Russian army by the end of turn 12"))
                return
            st.turn += 1
            st.active = first
            st.phase = "move"
            _clear_marks(st)
    ctx.emit("phase", turn=st.turn, side=st.active, phase=st.phase, clock=clock(st.turn))


def _start_melee(rs, ctx) -> None:
    st = ctx.state
    v = View(ctx.scenario, st)
    todo = [u for u in st.side_units(st.active) if rs.must_withdraw(v, u)]
    for u in todo:
        routes = rs.withdraw_routes(v, u)
        if not routes:
            ctx.emit("cavalry-destroyed", unit=u.id, rule="R9.2")
            eliminate(ctx, u)
            v = View(ctx.scenario, st)
        else:
            st.pending.append({"side": u.side, "kind": "withdraw", "unit": u.id})


# ---------------------------------------------------------------------------- movement
def _move(rs, ctx, order) -> None:
    st = ctx.state
    u = st.units[order["unit"]]
    path = [hx(h) for h in order["path"]]
    if order.kind == "enter":
        u.mark("waiting", 0)
        u.mark("entry", 0)
        u.hex = path[0]
        ctx.emit("enters", unit=u.id, hex=ctx.map.label(path[0]))
        path = path[1:]
    walked = [u.hex]
    v = View(ctx.scenario, st) if u.side == SWEDEN and arm(u) != "leader" else None
    for h in path:
        if v is not None and v.garrisoned(h):
            roll = ctx.roll("passing the redoubts (S2-2.6)", unit=u.id, hex=ctx.map.label(h))
            if roll == 6:
                _redoubt_six(ctx, u, walked)
                u.mark("moved")
                return
        walked.append(h)
    if path:
        u.hex = path[-1]
        ctx.emit("moves", unit=u.id, to=ctx.map.label(path[-1]), mode=order.get("mode", "normal"))
    u.mark("moved")
    if ctx.scenario.rule("scenario", 1) != 1:  # no ordre de bataille in scenario 1
        update_odb(ctx, u.side)


def join_roos(ctx, u) -> None:
    st = ctx.state
    if u.division == "roos" or not u.alive:
        return
    u.mark("from", u.division)
    u.division = "roos"
    st.vars["roos_formed"] = True
    st.vars["roos_destroyed"] = False
    ctx.emit("joins-roos-column", unit=u.id)


def odb_formed(scn, st, side) -> bool:
    m = scn.map
    south_row = int(scn.rule("redoubt_line_row", 22))  # as ``View.south`` reads it
    all_units = st.units
    redoubts = [all_units[i] for i in ids_by_arm(st).get("redoubt", ())]
    in_redoubts = {r.hex for r in redoubts if r.alive}  # the hexes where ``v.redoubt_at`` finds one
    left_out = {"lg", "rc", "roos", *st.vars["detached"]}  # divisions outside the line
    # (odb, id, unit) of the infantry with an odb place, in id order; the side is asked first
    # (half of them fail it) and ``alive`` is written out: this runs after every Swedish move
    ranked = [(odb, uid, u) for odb, uid, u in ((odb, uid, all_units[uid]) for odb, uid in odb_ranks(st))
              if u.side == side and u.hex is not None and u.strength > 0
              and u.division not in left_out and u.hex not in in_redoubts]
    if not ranked:
        return False
    ranked.sort()  # by odb, then id: ids differ, so the units themselves are never compared
    units = [r[2] for r in ranked]
    if any(m.offset(u.hex)[1] + 1 > south_row for u in units):
        return False
    if len(units) == 1:
        return True
    allowed = scn.rule(f"odb_directions_{side}", [0, 1, 2, 3, 4, 5])
    d0 = None
    for a, b in zip(units, units[1:]):
        d = hex_direction_to(a.hex, b.hex)
        if d is None or d not in allowed:
            return False
        if d0 is None:
            d0 = d
        elif d != d0:
            return False
    return True


def update_odb(ctx, side) -> None:
    st = ctx.state
    if st.vars["odb"].get(side):
        return
    if odb_formed(ctx.scenario, st, side):
        st.vars["odb"] = {**st.vars["odb"], side: True}
        ctx.emit("ordre-de-bataille-formed", side=side)


# ---------------------------------------------------------------------------- fire
def _fire(rs, ctx, order) -> None:
    st = ctx.state
    v = View(ctx.scenario, st)
    u, t = st.units[order["unit"]], st.units[order["target"]]
    f, _, can = rs.fire_value(v, u)
    shots = 2 if can and hex_distance(u.hex, t.hex) == 1 else 1
    u.mark("fired")
    for i in range(shots):
        r = ctx.roll("fire (R6.4)" if shots == 1 else "canister (R9.4.1)", unit=u.id, target=t.id, fire=f)
        if r >= f and t.alive:
            ctx.emit("hit", unit=u.id, target=t.id)
            lose_step(ctx, t)


# ---------------------------------------------------------------------------- melee
def _attack(rs, ctx, order) -> None:
    st = ctx.state
    v = View(ctx.scenario, st)
    units = [st.units[i] for i in order["units"]]
    hexes = [hx(h) for h in order["hexes"]]
    a = M.analyse(v, units, hexes)
    side = st.active
    defs = [st.units[i] for i in a["defenders"]]
    red = next((d.id for d in defs if arm(d) == "redoubt"), None)
    c = {"side": side, "att": [u.id for u in units], "def": [d.id for d in defs],
         "hexes": [[h[0], h[1]] for h in hexes], "index": a["index"], "drm": a["drm"],
         "star_rel": a["storming_redoubt"], "redoubt": red, "stage": "att-reroll", "roll": 0,
         "n": 0, "star": False, "queue": [], "retreated": {}, "after": "done",
         "origin": {d.id: [d.hex[0], d.hex[1]] for d in defs}}
    ctx.emit("melee", attackers=c["att"], hexes=[ctx.map.label(h) for h in hexes],
             column=a["column"], shifts=[s for s in a["shifts"]], drm=a["drm"],
             attacker_cs=a["attacker_cs"], defender_cs=a["defender_cs"])
    for d in defs:
        d.mark("defended")
    for u in units:
        u.mark("attacked")
    if a["lone_artillery"]:
        for d in defs:
            ctx.emit("artillery-overrun", unit=d.id, rule="R9.4.2")
            eliminate(ctx, d)
        c["n"] = 1
        c["stage"] = "pursuit"
        c["mode"] = "occupy"
        st.vars["combat"] = c
        return
    c["roll"] = ctx.roll("melee (R8.6.8)", column=a["column"])
    c["att_leaders"] = _leaders(v, side, [u.hex for u in units])
    c["def_leaders"] = _leaders(v, other(side), [d.hex for d in defs if arm(d) != "redoubt"])
    st.vars["combat"] = c


def _leaders(v, side, hexes) -> list[str]:
    hs = set(hexes)
    return sorted(u.id for u in v.st.side_units(side) if arm(u) == "leader" and u.hex in hs)


def settle(rs, ctx) -> None:
    """Run automatic steps until a real decision is pending or nothing is left to do."""
    st = ctx.state
    for _ in range(500):
        post_checks(rs, ctx)
        if st.result is not None:
            return
        if st.pending:
            if _auto(rs, ctx):
                continue
            return
        if st.vars.get("combat"):
            _advance(rs, ctx)
            continue
        if st.phase == "melee" and st.vars.get("obligation") is None:
            st.vars["obligation"] = rs.fix_obligations(View(ctx.scenario, st))
        return
    raise RuntimeError("poltava: settle did not converge")


def _auto(rs, ctx) -> bool:
    """Resolve the first pending decision if the rules leave no choice. True if it did."""
    st = ctx.state
    p = st.pending[0]
    v = View(ctx.scenario, st)
    k = p["kind"]
    if k in ("loss", "setup-loss", "exchange-loss"):
        ch = rs.loss_choices(v, p)
        if p["count"] <= 0 or not ch:
            st.pending.pop(0)
            return True
        box = k != "exchange-loss"
        if k == "setup-loss":
            if p["count"] >= len(ch):
                for uid in ch:
                    lose_step(ctx, st.units[uid])
                st.pending.pop(0)
                return True
            return False
        total = sum(st.units[i].strength for i in ch)
        if len(ch) == 1 or p["count"] >= total:
            while p["count"] > 0 and ch:
                lose_step(ctx, st.units[ch[0]], box)
                p["count"] -= 1
                ch = rs.loss_choices(View(ctx.scenario, st), p)
            st.pending.pop(0)
            return True
        return False
    if k == "retreat":
        u = st.units.get(p["unit"])
        if u is None or not u.alive:
            st.pending.pop(0)
            return True
        if len(p["options"]) == 1:
            st.pending.pop(0)
            _do_retreat(ctx, u, [hx(h) for h in p["options"][0]], p["missing"])
            return True
        return False
    if k == "roos":
        opts = [i for i in p["options"] if st.units[i].alive]
        if len(opts) <= 1:
            st.pending.pop(0)
            if opts:
                join_roos(ctx, st.units[opts[0]])
            return True
        return False
    if k == "reroll":
        if not p["leaders"]:
            st.pending.pop(0)
            return True
        return False
    if k == "pursue":
        if not p["options"]:
            st.pending.pop(0)
            return True
        return False
    if k == "displace":
        u = st.units[p["unit"]]
        opts = rs.displace_options(v, u, hx(p["from"]))
        if len(opts) <= 1 or st.vars.get("cossacks_gone"):
            st.pending.pop(0)
            _place_displaced(ctx, u, opts[0] if opts else None)
            return True
        return False
    if k == "withdraw":
        u = st.units.get(p["unit"])
        if u is None or not u.alive:
            st.pending.pop(0)
            return True
        if not rs.withdraw_routes(v, u):
            st.pending.pop(0)
            ctx.emit("cavalry-destroyed", unit=u.id, rule="R9.2")
            eliminate(ctx, u)
            return True
        return False
    return False


def _answer(rs, ctx, order) -> None:
    st = ctx.state
    p = st.pending[0]
    k = p["kind"]
    if order.kind == "lose":
        u = st.units[order["unit"]]
        lose_step(ctx, u, box=(k != "exchange-loss"))
        p["count"] -= 1
        if p["count"] <= 0:
            st.pending.pop(0)
    elif order.kind == "keep-roll":
        st.pending.pop(0)
        c = st.vars["combat"]
        c["stage"] = "def-reroll" if p["who"] == "att" else "result"
    elif order.kind == "reroll":
        c = st.vars["combat"]
        lid = order["leader"]
        ld = st.units[lid]
        r = ctx.roll("leader reroll (R9.5)", leader=lid)
        c["roll"] = r
        p["roll"] = r  # a next leader's decision is about this roll, not the one it replaced
        p["leaders"] = [x for x in p["leaders"] if x != lid]
        key = "att_leaders" if p["who"] == "att" else "def_leaders"
        c[key] = [x for x in c[key] if x != lid]
        if r == 1:
            v = View(ctx.scenario, st)
            mate = next((x for x in v.units_at(ld.hex) if arm(x) in MELEE_ARMS and x.side == ld.side), None)
            div = mate.division if mate else ""
            ld.hex = None
            ld.strength = 0
            ld.mark("elim")
            if div:
                st.vars["box"][div] = st.vars["box"].get(div, 0) + 1
            ctx.emit("leader-lost", leader=lid, division=div, rule="R9.5")
        if not p["leaders"]:
            st.pending.pop(0)
            c["stage"] = "def-reroll" if p["who"] == "att" else "result"
    elif order.kind == "retreat":
        st.pending.pop(0)
        _do_retreat(ctx, st.units[p["unit"]], [hx(h) for h in order["path"]], p["missing"])
    elif order.kind == "no-pursuit":
        st.pending.pop(0)
    elif order.kind == "pursue":
        st.pending.pop(0)
        _pursue(ctx, st.units[order["unit"]], [hx(h) for h in order["path"]])
    elif order.kind == "displace":
        st.pending.pop(0)
        _place_displaced(ctx, st.units[p["unit"]], hx(order["hex"]))
    elif order.kind == "roos":
        st.pending.pop(0)
        join_roos(ctx, st.units[order["unit"]])
    elif order.kind == "withdraw":
        st.pending.pop(0)
        u = st.units[order["unit"]]
        u.hex = hx(order["path"][-1])
        ctx.emit("withdraws", unit=u.id, to=ctx.map.label(u.hex), rule="R9.2")


def _pursue(ctx, u, path) -> None:
    """R8.10 pursuit along ``path``; a Swede entering a garrisoned redoubt hex on the way rolls
    as in movement (S2-2.6, A44) and on a 6 stops where it came from."""
    st = ctx.state
    v = View(ctx.scenario, st)
    walked = [u.hex]
    for h in path:
        if u.side == SWEDEN and v.garrisoned(h):
            roll = ctx.roll("passing the redoubts (S2-2.6)", unit=u.id, hex=ctx.map.label(h))
            if roll == 6:
                _redoubt_six(ctx, u, walked)
                return
        walked.append(h)
    u.hex = path[-1]
    ctx.emit("pursues", unit=u.id, to=ctx.map.label(path[-1]))


def _redoubt_six(ctx, u, walked) -> None:
    """S2-2.6 on a 6: one step lost; a survivor joins the Roos column and stands in the last hex
    of ``walked`` that can hold it (the hex it entered the redoubt from, A44)."""
    st = ctx.state
    u.hex = walked[-1]
    lose_step(ctx, u)
    if u.strength > 0:
        for back in reversed(walked):
            u.hex = back
            if View(ctx.scenario, st).can_end(u, back):
                break
        join_roos(ctx, u)


def _do_retreat(ctx, u, path, missing) -> None:
    st = ctx.state
    if path:
        v = View(ctx.scenario, st)
        leaders = [x for x in v.units_at(u.hex) if arm(x) == "leader" and x.side == u.side]
        u.hex = path[-1]
        for ld in leaders:
            ld.hex = path[-1]
        c = st.vars.get("combat")
        if c is not None:
            c["retreated"][u.id] = [[h[0], h[1]] for h in path]
        ctx.emit("retreats", unit=u.id, to=ctx.map.label(path[-1]))
    for _ in range(missing):
        ctx.emit("blocked-retreat-loss", unit=u.id, rule="R8.9.2")
        lose_step(ctx, u)


def _advance(rs, ctx) -> None:
    st = ctx.state
    c = st.vars["combat"]
    s = c["stage"]
    att_side, def_side = c["side"], other(c["side"])
    alive = lambda ids: [i for i in ids if st.units[i].alive]
    if s == "att-reroll":
        if alive(c["att_leaders"]):
            st.pending.append({"side": att_side, "kind": "reroll", "who": "att", "leaders": alive(c["att_leaders"]),
                               "roll": c["roll"]})
        else:
            c["stage"] = "def-reroll"
    elif s == "def-reroll":
        if alive(c["def_leaders"]):
            st.pending.append({"side": def_side, "kind": "reroll", "who": "def", "leaders": alive(c["def_leaders"]),
                               "roll": c["roll"]})
        else:
            c["stage"] = "result"
    elif s == "result":
        res = M.result_for(c["index"], c["roll"], c["drm"])
        kind, n, star = parse_result(res)
        c["res"], c["n"], c["star"] = res, n, star and c["star_rel"]
        ctx.emit("melee-result", result=res, roll=c["roll"], drm=c["drm"])
        if kind == "A":
            st.pending.append({"side": att_side, "kind": "loss", "units": alive(c["att"]), "count": n})
            c["stage"] = "retreat-A"
        elif kind == "D":
            if c["redoubt"]:
                _capture(ctx, c)
                c["stage"] = "roos"
                c["after"] = "pursuit"
                c["mode"] = "occupy"
            else:
                st.pending.append({"side": def_side, "kind": "loss",
                                   "units": [i for i in alive(c["def"]) if arm(st.units[i]) != "art"], "count": n})
                c["stage"] = "retreat-D"
        else:
            st.pending.append({"side": att_side, "kind": "loss", "units": alive(c["att"]), "count": 1})
            c["stage"] = "ex-def"
    elif s == "ex-def":
        if c["redoubt"]:
            _capture(ctx, c)
        else:
            st.pending.append({"side": def_side, "kind": "loss",
                               "units": [i for i in alive(c["def"]) if arm(st.units[i]) != "art"], "count": 1})
        c["stage"] = "roos"
        c["after"] = "done"
    elif s == "retreat-A":
        c["queue"] = alive(c["att"])
        c["stage"] = "retreating"
        c["after"] = "roos"
        c["after_roos"] = "done"
    elif s == "retreat-D":
        c["queue"] = [i for i in alive(c["def"]) if arm(st.units[i]) != "art"]
        c["stage"] = "retreating"
        c["after"] = "art-check"
    elif s == "retreating":
        if not c["queue"]:
            c["stage"] = c["after"]
            if c["stage"] == "roos":
                c["after"] = c.get("after_roos", "done")
            return
        uid = c["queue"].pop(0)
        u = st.units[uid]
        if not u.alive:
            return
        v = View(ctx.scenario, st)
        got, opts = M.retreat_options(v, u, c["n"])
        missing = c["n"] - got
        if not opts:
            _do_retreat(ctx, u, [], c["n"])
        elif len(opts) == 1:
            _do_retreat(ctx, u, list(opts[0]), missing)
        else:
            st.pending.append({"side": u.side, "kind": "retreat", "unit": uid, "missing": missing,
                               "options": [[[h[0], h[1]] for h in p] for p in opts]})
    elif s == "art-check":
        v = View(ctx.scenario, st)
        for i in c["def"]:
            d = st.units[i]
            if d.alive and arm(d) == "art":
                if not any(arm(x) in MELEE_ARMS and x.side == d.side for x in v.units_at(d.hex)):
                    ctx.emit("artillery-lost-with-its-stack", unit=d.id, rule="R9.4.2")
                    eliminate(ctx, d)
        c["stage"] = "roos"
        c["after"] = "pursuit"
        c["mode"] = "follow"
    elif s == "roos":
        c["stage"] = c["after"]
        if c["star"]:
            opts = [i for i in alive(c["att"]) if st.units[i].division != "roos"]
            if opts:
                st.pending.append({"side": SWEDEN, "kind": "roos", "options": opts})
    elif s == "pursuit":
        c["stage"] = "done"
        opts = pursuit_options(ctx, c)
        if opts:
            st.pending.append({"side": att_side, "kind": "pursue", "options": opts})
    elif s == "done":
        st.vars["combat"] = None


def _capture(ctx, c) -> None:
    st = ctx.state
    r = st.units[c["redoubt"]]
    r.side = SWEDEN
    r.mark("captured")
    ctx.emit("redoubt-captured", redoubt=r.id, rule="S2-2.3")


def _pursuit_step_ok(v, u, a, b, zoc) -> bool:
    """May pursuer ``u`` step from ``a`` into ``b``? ZOC and MP are ignored (R8.10), but not the
    terrain, enemy units, the Redoubt Line ban, the Camp (GN: Camp troops never leave it), the
    Cossack bracket rule or the OdB musket zone (S2-1.4). Garrisoned redoubt hexes may be passed
    (a Swede rolls, S2-2.6), never ended in (see ``_pursuit_end_ok``)."""
    if not v.passable(u, a, b) or v.combat_at(b, other(u.side)):
        return False
    if v.line_banned(u) and "redoubt_line" in v.m.features_between(a, b):
        return False
    if v.camp_bound(u) and not v.in_camp(b):
        return False
    if arm(u) == "cossack" and b in zoc:
        return False
    if v.odb_restricted(u) and b in v.musket(u.side):
        return False
    return True


def pursuit_options(ctx, c) -> list:
    st = ctx.state
    v = View(ctx.scenario, st)
    n = c["n"]
    out = []
    vacated = [hx(h) for h in c["hexes"] if not v.combat_at(hx(h), other(c["side"]))
               and not v.garrisoned(hx(h))]
    for uid in c["att"]:
        u = st.units[uid]
        if not u.alive or arm(u) not in MELEE_ARMS:
            continue
        zoc = v.zoc(u.side)
        for h in vacated:
            if hex_distance(u.hex, h) != 1 or not _pursuit_step_ok(v, u, u.hex, h, zoc):
                continue
            paths = [[h]]
            if c.get("mode") == "follow" and n > 1:
                followed = [p for i, p in sorted(c["retreated"].items()) if c["origin"].get(i) == [h[0], h[1]]]
                for rp in followed:
                    cur = [h]
                    for step in rp[: n - 1]:
                        s = hx(step)
                        if not _pursuit_step_ok(v, u, cur[-1], s, zoc):
                            break
                        cur = cur + [s]
                        paths.append(list(cur))
                if not followed:
                    frontier = [[h]]
                    for _ in range(n - 1):
                        nxt = []
                        for p in frontier:
                            for s in sorted(hex_neighbors(p[-1])):
                                if s not in p and _pursuit_step_ok(v, u, p[-1], s, zoc):
                                    nxt.append(p + [s])
                        frontier = nxt[:12]
                        paths.extend(frontier)
            seen = set()
            for p in paths:
                end = p[-1]
                if end in seen:
                    continue
                seen.add(end)
                if _pursuit_end_ok(v, u, end):
                    out.append([uid, [[x[0], x[1]] for x in p]])
    return out[:24]


def _pursuit_end_ok(v, u, h) -> bool:
    if v.combat_at(h, other(u.side)) or v.garrisoned(h):
        return False
    mates = [x for x in v.combat_at(h, u.side) if x.id != u.id]
    return not mates or (len(mates) == 1 and arm(mates[0]) == "art")
