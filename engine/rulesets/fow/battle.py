"""Battles (spec 17, G-28..G-37, G-40, G-43, G-P) with exact arithmetic and the order's dice.

A battle runs as a small state machine in ``state.vars["battle"]``; each player decision is a
pending order: ``withdraw`` (defender first, then the attacker may call the attack off, G-34),
``reserves`` (attacker, then defender), then the resolver, then one ``retreat`` per losing company
and, after a won Breakthrough, ``advance``. ``step`` moves the machine on until it needs a
decision or the battle is over.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import campaign as K
from . import forces as F
from . import geo
from . import support

ARRIVAL_TARGET = 8


# --- pure pieces (tested against the spec's numbers) -------------------------------------------

def ratio_modifier(r: Fraction | None) -> int:
    """G-P 4: M(R); ``None`` stands for an empty defender (R infinite)."""
    if r is None:
        return 4
    for bound, m in ((Fraction(1, 2), -4), (Fraction(3, 4), -2), (Fraction(1), -1),
                     (Fraction(3, 2), 0), (Fraction(2), 1), (Fraction(3), 2)):
        if r < bound:
            return m
    return 4


def loss_fractions(s_win: Fraction, s_lose: Fraction) -> tuple[Fraction, Fraction]:
    """G-P 5: (winner's, loser's) share of current teams lost."""
    if s_win <= 0 or s_lose <= 0:
        return Fraction(0), Fraction(0)
    lose = min(Fraction(1, 2), max(Fraction(1, 10), Fraction(3, 20) * s_win / s_lose))
    win = min(Fraction(3, 10), max(Fraction(1, 20), Fraction(3, 20) * s_lose / s_win))
    return win, lose


def round_half_up(x: Fraction) -> int:
    return (x.numerator * 2 + x.denominator) // (2 * x.denominator)


def spread(total_lost: int, teams: list[tuple[str, int]]) -> dict[str, int]:
    """Largest-remainder split of ``total_lost`` over (unit id, teams), in proportion to teams;
    ties go to the lower id (G-P 5)."""
    pool = sum(t for _, t in teams)
    total_lost = min(total_lost, pool)
    if pool == 0 or total_lost == 0:
        return {}
    share = {uid: Fraction(total_lost * t, pool) for uid, t in teams}
    out = {uid: int(s) for uid, s in share.items()}
    left = total_lost - sum(out.values())
    order = sorted(teams, key=lambda ut: (-(share[ut[0]] - int(share[ut[0]])), ut[0]))
    for uid, t in order:
        if left <= 0:
            break
        if out[uid] < t:
            out[uid] += 1
            left -= 1
    return {k: v for k, v in out.items() if v}


def arrival_modifier(units: list[Unit], rating: int | None) -> int:
    """14.1: +2 all tanks, +3 all armoured cars, -1 with artillery that is not motorised, +N."""
    mod = 0
    if units and all(F.cat(u) == "tank" for u in units):
        mod += 2
    if units and all(F.cat(u) == "armoured_car" for u in units):
        mod += 3
    if any(F.is_artillery(u) and not u.stats.get("transport") for u in units):
        mod -= 1
    return mod + (rating or 0)


def reserve_class(distance: int, mechanised: bool, entry_side: int, s0: int,
                  attacker: bool) -> str:
    """17.4, G-30: Flanking when it enters off the axis of the attack, else Immediate or Delayed
    by distance (mechanised: 1-2 Immediate, 3 Delayed; others: 1 Immediate, 2 Delayed)."""
    ref = s0 if attacker else (s0 + 3) % 6
    if entry_side not in (ref, (ref + 1) % 6, (ref + 5) % 6):
        return "flanking"
    if distance <= (2 if mechanised else 1):
        return "immediate"
    return "delayed"


RESERVE_FACTOR = {"immediate": Fraction(1), "delayed": Fraction(1, 2), "flanking": Fraction(3, 4)}


def exhaustion_factor(markers: int) -> Fraction:
    """G-35: max(1/2, 9/10 - markers/10)."""
    return max(Fraction(1, 2), Fraction(9, 10) - Fraction(markers, 10))


def retreat_test_passes(die: int, modifier: int, last_stand: int) -> bool:
    """G-36: d6 + modifiers >= Last Stand; a natural 6 always passes, a natural 1 always fails."""
    if die == 6:
        return True
    if die == 1:
        return False
    return die + modifier >= last_stand


# --- strengths ---------------------------------------------------------------------------------

def _order_of(state: State, cid: str) -> str:
    side = F.companies(state)[cid]["side"]
    for o in state.vars["orders"].get(side, {}).values():
        if cid in o["companies"]:
            return o["order"]
    return ""


def side_strength(state: State, scenario: Any, b: dict[str, Any], role: str) -> tuple[Fraction, list[str]]:
    """G-P 3: the side's strength and the multipliers used (for the battle report)."""
    cmap = geo.campaign_map(scenario)
    point = b["point"]
    cids = b[role]
    side = b["attacker"] if role == "att" else b["defender"]
    notes = []
    exhausted = [c for c in cids if F.companies(state)[c]["exhausted"] or c in b["tired"]]
    markers = F.infantry_platoons(F.units_of(state, exhausted)) // 5
    classes = dict((c, k) for c, k in b["arrived"])
    total = Fraction(0)
    prepared, hindered = [], []
    for cid in cids:
        f = Fraction(1)
        if cid in exhausted:
            f *= exhaustion_factor(markers)
        if cid in classes:
            f *= RESERVE_FACTOR[classes[cid]]
        if role == "def" and _order_of(state, cid) == "prepared_defence":
            f *= Fraction(3, 2)
            prepared.append(cid)
        for u in F.platoons(state, cid):
            v = F.value(u) * f
            if role == "att" and F.is_vehicle(u) and cmap.base(point) in geo.VEHICLE_HINDRANCE:
                v *= Fraction(3, 4)
                hindered.append(u.id)
            total += v
    if exhausted:
        notes.append(f"exhausted x{exhaustion_factor(markers)} ({markers} Shame markers)")
    for cid, kind in sorted(classes.items()):
        if cid in cids:
            notes.append(f"{kind} reserve {cid} x{RESERVE_FACTOR[kind]}")
    if prepared:
        notes.append(f"prepared defence ({', '.join(prepared)}) x3/2")
    if hindered:
        notes.append(f"tanks and armoured cars into {cmap.base(point)} ({len(hindered)} platoon(s)) x3/4")
    for aid in b.get("cas_" + role, []):
        u = state.units[aid]
        total += F.value(u)
        notes.append(f"close air support {aid}")
    for cid in b.get("direct_" + role, []):
        for u in F.platoons(state, cid):
            if F.is_artillery(u):
                total += F.value(u) / 2
        notes.append(f"direct support from {cid} at 1/2")
    if role == "def" and cmap.base(point) in geo.COVER:
        total *= Fraction(5, 4)
        notes.append(f"cover ({cmap.base(point)}) x5/4")
    rating = b["rating_" + role]
    if rating:
        total *= 1 + Fraction(rating, 10)
        notes.append(f"commander +{rating} x{1 + Fraction(rating, 10)}")
    return total, notes


# --- the machine -------------------------------------------------------------------------------

def start(ctx: Resolution, scenario: Any, *, attacker: str, att: list[str], point: int,
          frm: int, kind: str, actor: str, start_point: int, tired: list[str],
          legs: int = 1, path_len: int = 1, fresh: list[str] | tuple[str, ...] = ()) -> None:
    """A battle in ``point``: ``att`` attack from the adjacent ``frm``. ``tired`` are exhausted
    by their order; anyone else who fought already this turn is exhausted by 17.6, except the
    ``fresh``: a fully motorised Breakthrough's second battle short of its 3rd point (14.1: the
    specific rule beats the general one)."""
    state = ctx.state
    defender = state.enemy_of(attacker)
    dfn = F.at(state, point, defender)
    tired = list(tired) + [c for c in att + dfn if F.companies(state)[c]["fought"] and c not in fresh]
    b = {"point": point, "attacker": attacker, "defender": defender, "att": list(att),
         "def": dfn, "from": frm, "kind": kind, "actor": actor, "start": start_point,
         "tired": sorted(set(tired)), "arrived": [], "stage": "withdraw-def", "legs": legs,
         "path_len": path_len, "s0": geo.direction(point, frm),
         "rating_att": F.best_rating(state, attacker, start_point) or 0,
         "rating_def": F.best_rating(state, defender, point) or 0}
    state.vars["battle"] = b
    state.vars["exec"]["battle_happened"] = True
    _cancel_orders(ctx, defender, point)
    for cid in att + dfn:
        F.companies(state)[cid]["fought"] = 1
    ctx.emit("contact-report", point=point, attacker=attacker,
             attackers=_composition(state, att), defenders=_composition(state, dfn))
    step(ctx, scenario)


def _composition(state: State, cids: list[str]) -> dict[str, int]:
    """17.2: total models and the count of infantry, artillery, tanks and armoured cars."""
    units = F.units_of(state, cids)
    out = {"total": sum(u.strength for u in units)}
    for key, cats in (("infantry", ("infantry", "motorised_infantry")),
                      ("artillery", ("gun", "howitzer", "mortar", "aa")),
                      ("tanks", ("tank",)), ("armoured_cars", ("armoured_car",))):
        out[key] = sum(u.strength for u in units if F.cat(u) in cats)
    return out


def _cancel_orders(ctx: Resolution, side: str, point: int) -> None:
    """14.3.6: an attack on a point cancels the orders of its commanders that have not acted,
    "whatever the result of the battle", except prepared defence: a Reserve order there too, so
    its companies cannot join a later battle of the turn as a reserve (14.1, 17.4)."""
    state = ctx.state
    ex = state.vars["exec"]
    queue = ex.get("queue", {}).get(side, [])
    for actor, o in sorted(state.vars["orders"].get(side, {}).items()):
        if o["point"] == point and o["order"] != "prepared_defence" and not o["done"]:
            if actor in queue:
                queue.remove(actor)
            o["done"] = 1
            o["cancelled"] = 1
            ctx.emit("order-cancelled", side=side, actor=actor, order=o["order"])
            if o.get("mandatory"):
                state.vars["mandatory_failed"] = True
                state.vars["battle"]["cancelled_mandatory"] = True


def eligible_reserves(state: State, scenario: Any, side: str, point: int) -> list[str]:
    """14.1: companies under a Reserve order, not yet used, within 2 points (3 mechanised) by a
    path free of enemy."""
    b = state.vars["battle"]
    out = []
    cmap = geo.campaign_map(scenario)
    blocked = F.occupied(state, state.enemy_of(side)) - {point}
    for o in state.vars["orders"].get(side, {}).values():
        if o["order"] != "reserve" or o.get("cancelled"):
            continue
        for cid in o["companies"]:
            c = F.companies(state).get(cid)
            if c is None or cid not in F.live(state, side) or c["acted"] or cid in b["att"] + b["def"]:
                continue
            units = F.platoons(state, cid)
            reach = 3 if F.mechanised(units) else 2
            d = _path_length(cmap, c["point"], point, blocked, state.vars["bridges"],
                             F.fords_ok(units), c["bank"], reach, _may_climb(units))
            if d is not None:
                out.append(cid)
    return sorted(out)


def _path_length(cmap: geo.CampaignMap, a: int, goal: int, blocked: set[int],
                 bridges: dict[str, str], fords: bool, bank: str | None, limit: int,
                 mountains: bool = False) -> int | None:
    """Steps of the shortest legal path from ``a`` to ``goal`` (at most ``limit``), through
    mountains only when ``mountains`` (§13)."""
    frontier = [(a, bank)]
    seen = {(a, bank)}
    for d in range(1, limit + 1):
        nxt = []
        for p, bk in frontier:
            for _, n in geo.neighbours(p):
                if n in blocked and n != goal:
                    continue
                ok, nb = cmap.step(p, bk, n, bridges, fords)
                if not ok:
                    continue
                if n == goal:
                    return d
                if (cmap.base(n) == "mountains" and not mountains) or (n, nb) in seen:
                    continue
                seen.add((n, nb))
                nxt.append((n, nb))
        frontier = nxt
    return None


def _may_climb(units: list[Unit]) -> bool:
    """§13, G-64: mountains are closed to mechanised companies and to tanks and armoured cars."""
    return not (F.mechanised(units) or any(F.is_vehicle(u) for u in units))


def _entry_side(cmap: geo.CampaignMap, state: State, cid: str, point: int, blocked: set[int]) -> tuple[int, int]:
    """(distance, hexside of ``point`` it enters across) for a reserve's shortest path; among
    equally short paths the neighbour with the lowest point number."""
    c = F.companies(state)[cid]
    units = F.platoons(state, cid)
    if geo.adjacent(c["point"], point):
        return 1, geo.direction(point, c["point"])  # type: ignore[return-value]
    best = None
    for d, n in geo.neighbours(point):
        if n in blocked:
            continue
        k = _path_length(cmap, c["point"], n, blocked, state.vars["bridges"], F.fords_ok(units),
                         c["bank"], 2, _may_climb(units))
        if k is not None and (best is None or (k + 1, n) < best[:2]):
            best = (k + 1, n, d)
    if best is None:
        return 3, 0
    return best[0], best[2]


def step(ctx: Resolution, scenario: Any) -> None:
    state = ctx.state
    b = state.vars["battle"]
    if b is None:
        return
    if b["stage"] == "withdraw-def":
        state.pending = [{"kind": "withdraw", "side": b["defender"], "point": b["point"]}]
        return
    if b["stage"] == "withdraw-att":
        state.pending = [{"kind": "withdraw", "side": b["attacker"], "point": b["point"]}]
        return
    if b["stage"] == "reserves-att":
        b["stage"] = "reserves-def"
        opts = eligible_reserves(state, scenario, b["attacker"], b["point"]) if b["kind"] != "rif" else []
        if opts:
            state.pending = [{"kind": "reserves", "side": b["attacker"], "options": opts}]
            return
    if b["stage"] == "reserves-def":
        b["stage"] = "fight"
        opts = eligible_reserves(state, scenario, b["defender"], b["point"])
        if opts:
            state.pending = [{"kind": "reserves", "side": b["defender"], "options": opts}]
            return
    if b["stage"] == "fight":
        fight(ctx, scenario)
    if b["stage"] == "retreats":
        if state.pending:
            return
        finish_battle(ctx, scenario)


def answer_withdraw(ctx: Resolution, scenario: Any, choice: bool) -> None:
    state = ctx.state
    b = state.vars["battle"]
    state.pending = []
    if b["stage"] == "withdraw-def":
        if choice:
            ctx.emit("withdrew-before-battle", side=b["defender"], point=b["point"])
            b["winner"], b["loser_role"], b["withdrawal"] = "att", "def", True
            b["stage"] = "retreats"
            for cid in b["def"]:
                queue_retreat(ctx, scenario, cid, b["point"], test=not F.all_armour(F.platoons(state, cid)))
            step(ctx, scenario)
            return
        b["stage"] = "withdraw-att"
    else:
        if choice:
            ctx.emit("attack-called-off", side=b["attacker"], point=b["point"])
            for cid in b["att"]:
                F.move_company(state, cid, b["start"])
                F.companies(state)[cid]["exhausted"] = 1
                if not F.all_armour(F.platoons(state, cid)):
                    retreat_tests(ctx, cid, b, withdrawal=True)
            _order_failed(ctx, b)
            _actor_follows(state, b)
            state.vars["battle"] = None
            return
        b["stage"] = "reserves-att"
        support.battle_support(ctx, b)  # both sides fight: the support bought for it (G-P 2)
    step(ctx, scenario)


def answer_reserves(ctx: Resolution, scenario: Any, chosen: list[str]) -> None:
    """Arrival tests (14.1, G-28, G-29) in company-id order; failures may do nothing this turn."""
    state = ctx.state
    b = state.vars["battle"]
    pend = state.pending.pop(0)
    side = pend["side"]
    role = "att" if side == b["attacker"] else "def"
    cmap = geo.campaign_map(scenario)
    blocked = F.occupied(state, state.enemy_of(side)) - {b["point"]}
    for cid in sorted(chosen):
        c = F.companies(state)[cid]
        units = F.platoons(state, cid)
        rating = F.best_rating(state, side, c["point"])
        mod = arrival_modifier(units, rating)
        d1 = ctx.roll("reserve-arrival", company=cid)
        d2 = ctx.roll("reserve-arrival", company=cid)
        c["acted"] = 1
        if d1 + d2 + mod < ARRIVAL_TARGET:
            ctx.emit("reserve-late", company=cid, roll=d1 + d2, modifier=mod)
            continue
        dist, entry = _entry_side(cmap, state, cid, b["point"], blocked)
        klass = reserve_class(dist, F.mechanised(units), entry, b["s0"], role == "att")
        ctx.emit("reserve-arrived", company=cid, roll=d1 + d2, modifier=mod, arrives_as=klass)
        b[role].append(cid)
        b["arrived"].append([cid, klass])
        if c["fought"]:  # 17.6: a second battle in the same turn is fought exhausted
            b["tired"] = sorted(set(b["tired"]) | {cid})
        c["fought"] = 1
        if role == "def":
            F.move_company(state, cid, b["point"])
    step(ctx, scenario)


def _cas_and_direct(ctx: Resolution, state: State, b: dict[str, Any]) -> None:
    for role in ("att", "def"):
        side = b["attacker"] if role == "att" else b["defender"]
        enemy_units = F.units_of(state, b["def" if role == "att" else "att"])
        planes = [aid for aid, cid in sorted(state.vars.get("cas", {}).items())
                  if cid in b[role] and state.units[aid].side == side]
        for aa in [u for u in enemy_units if F.cat(u) == "aa"]:
            if not planes or aa.marks.get("aa_fired") == state.turn:
                continue
            aa.mark("aa_fired", state.turn)
            need = int(aa.stats.get("skill", 4))
            if ctx.roll("aa-fire", gun=aa.id, against=planes[0], need=need) >= need:
                ctx.emit("sortie-cancelled", aircraft=planes[0], by=aa.id)
                planes.pop(0)
        b["cas_" + role] = planes
        direct = []
        for a in state.vars["assets"].get(side, {}).get("artillery", []):
            cid = a["company"]
            if a["mission"] != "direct" or cid in b[role] or cid not in F.live(state, side):
                continue
            p = F.companies(state)[cid]["point"]
            if p == b["point"] or geo.adjacent(p, b["point"]):
                direct.append(cid)
        b["direct_" + role] = direct


def fight(ctx: Resolution, scenario: Any) -> None:
    """G-P 3-7: strengths, 2D6 + M(R) >= 8 for the attacker, losses, bail-outs and captures,
    in-battle Last Stand."""
    state = ctx.state
    b = state.vars["battle"]
    _cas_and_direct(ctx, state, b)
    sa, notes_a = side_strength(state, scenario, b, "att")
    sd, notes_d = side_strength(state, scenario, b, "def")
    if sa == 0 and sd > 0:  # the attack was shot to pieces before it went in
        ratio, win = Fraction(0), False
        ctx.emit("battle", point=b["point"], s_att=[0, 1], s_def=[sd.numerator, sd.denominator],
                 ratio=[0, 1], modifier=-4, roll=None, attacker_wins=False,
                 notes_att=notes_a, notes_def=notes_d)
    elif sd == 0:
        ratio = None
        win = True
        ctx.emit("battle", point=b["point"], s_att=[sa.numerator, sa.denominator],
                 s_def=[0, 1], ratio=None, modifier=4, roll=None, attacker_wins=True,
                 notes_att=notes_a, notes_def=notes_d)
    else:
        ratio = sa / sd
        m = ratio_modifier(ratio)
        d1, d2 = ctx.roll("battle", point=b["point"]), ctx.roll("battle", point=b["point"])
        win = d1 + d2 + m >= 8
        ctx.emit("battle", point=b["point"], s_att=[sa.numerator, sa.denominator],
                 s_def=[sd.numerator, sd.denominator], ratio=[ratio.numerator, ratio.denominator],
                 modifier=m, roll=d1 + d2, attacker_wins=win, notes_att=notes_a, notes_def=notes_d)
    b["winner"], b["loser_role"] = ("att", "def") if win else ("def", "att")
    ex = state.vars["exec"]
    if win and ex.get("intercepting") and b.get("cancelled_mandatory"):
        # G-21: the interception beat a group that still owed its mandatory order: the rest of
        # the turn runs with the roles swapped (the SI itself passes at the next step 1)
        ex["attacker"] = b["attacker"]
        ctx.emit("initiative-intercepted", side=b["attacker"])
    wrole, lrole = b["winner"], b["loser_role"]
    s_w, s_l = (sa, sd) if win else (sd, sa)
    f_win, f_lose = loss_fractions(s_w, s_l)
    wside = b["attacker"] if wrole == "att" else b["defender"]
    lside = state.enemy_of(wside)
    for role, frac in ((wrole, f_win), (lrole, f_lose)):
        units = F.units_of(state, b[role])
        teams = [(u.id, u.strength) for u in units]
        n = round_half_up(frac * sum(t for _, t in teams))
        for uid, k in sorted(spread(n, teams).items()):
            u = state.units[uid]
            lost = k
            if F.is_vehicle(u):
                for _ in range(k):
                    if ctx.roll("bail-out", unit=uid) >= 5:
                        if role == wrole:
                            lost -= 1
                            ctx.emit("recovered", unit=uid)
                        else:
                            trophy(ctx, wside, b[wrole], u)
                            K.transfer_capture(ctx, wside, u, 1)
            elif role == lrole and F.cat(u) in ("gun", "howitzer", "aa"):
                for _ in range(k):
                    if ctx.roll("gun-capture", unit=uid) >= 4:
                        trophy(ctx, wside, b[wrole], u)
                        K.transfer_capture(ctx, wside, u, 1)
            u.strength -= k if role == lrole else lost
            ctx.emit("teams-lost", unit=uid, side=u.side, teams=k if role == lrole else lost,
                     teams_left=u.strength)
    broken = []
    for u in F.units_of(state, b[lrole]):
        if 0 < u.strength and 2 * u.strength < u.max_strength:
            need = int(u.stats.get("last_stand", 4))
            if ctx.roll("last-stand", unit=u.id, need=need) < need:
                broken.append(u.id)
                ctx.emit("broken", unit=u.id)
    _drop_destroyed(ctx, state, b)
    b["broken"] = broken
    b["stage"] = "retreats"
    if win and b["kind"] != "rif":
        cmap = geo.campaign_map(scenario)
        if b["point"] in cmap.objectives:
            K.transfer_rp(ctx, b["attacker"], 5, f"objective {b['point']:02d} captured (17.9, G-14)")
    # commander loss (G-16): roll for the loser's commanders with the beaten force
    lpoint = b["point"] if lrole == "def" else b["start"]
    for k in F.commanders_at(state, lside, lpoint):
        if ctx.roll("commander-loss", commander=k) == 1:
            K.lose_commander(ctx, k, "killed in battle")
    if lrole == "att":
        _order_failed(ctx, b)
        if b["kind"] == "rif":
            for cid in b["att"]:
                if cid in F.live(state, lside):
                    F.move_company(state, cid, b["start"])
                    F.companies(state)[cid]["exhausted"] = 1
                    retreat_tests(ctx, cid, b)
            state.pending = []
            return
    for cid in list(b[lrole]):
        if cid in F.live(state, lside):
            queue_retreat(ctx, scenario, cid, b["point"], test=True)


def _drop_destroyed(ctx: Resolution, state: State, b: dict[str, Any]) -> None:
    for cid in b["att"] + b["def"]:
        for u in state.units.values():
            if u.division == cid and u.strength <= 0 and u.hex is not None:
                u.hex = None
                ctx.emit("platoon-destroyed", unit=u.id)
        if not F.platoons(state, cid) and F.companies(state)[cid]["point"]:
            side = F.companies(state)[cid]["side"]
            F.remove_company(state, cid)
            state.sides[side]["lost_companies"] += 1
            ctx.emit("company-lost", company=cid, side=side)


def trophy(ctx: Resolution, captor: str, cids: list[str], u: Unit) -> None:
    """G-43: captured guns and vehicles join a trophy list of the winning force's first company."""
    live = [c for c in cids if F.companies(ctx.state)[c]["point"]]
    if live:
        F.companies(ctx.state)[live[0]]["trophies"].append(u.kind)
        ctx.emit("trophy", side=captor, company=live[0], unit_kind=u.kind)


def _order_failed(ctx: Resolution, b: dict[str, Any]) -> None:
    state = ctx.state
    o = state.vars["orders"].get(b["attacker"], {}).get(b["actor"])
    if o and o.get("mandatory"):
        state.vars["mandatory_failed"] = True
        ctx.emit("mandatory-order-failed", side=b["attacker"], actor=b["actor"])


# --- retreats ----------------------------------------------------------------------------------

def retreat_paths(state: State, scenario: Any, cid: str, frm: int) -> list[list[int]]:
    """G-37: 1 or 2 steps, each strictly closer to the own edge when any legal step is, else at
    equal distance; never into enemy points, across a river without a usable crossing, or off
    the map."""
    cmap = geo.campaign_map(scenario)
    c = F.companies(state)[cid]
    side = c["side"]
    edge = state.sides[side]["edge"]
    enemy = F.occupied(state, state.enemy_of(side))
    units = F.platoons(state, cid)
    fords = F.fords_ok(units)
    mech_banned = F.mechanised(units) or any(F.is_vehicle(u) for u in units)

    def steps(p: int, bank: str | None) -> list[tuple[int, str | None]]:
        opts = []
        for _, n in geo.neighbours(p):
            if n in enemy or (cmap.base(n) == "mountains" and mech_banned):
                continue
            ok, nb = cmap.step(p, bank, n, state.vars["bridges"], fords)
            if ok:
                opts.append((n, nb))
        closer = [o for o in opts if geo.rows_from(o[0], edge) < geo.rows_from(p, edge)]
        if closer:
            return closer
        return [o for o in opts if geo.rows_from(o[0], edge) == geo.rows_from(p, edge)]

    out = []
    for n, nb in steps(frm, None if frm != c["point"] else c["bank"]):
        out.append([n])
        for m, _ in steps(n, nb):
            if m != frm:
                out.append([n, m])
    return out


def queue_retreat(ctx: Resolution, scenario: Any, cid: str, frm: int, test: bool) -> None:
    """17.5: the company must leave; encircled or with nowhere to go, it surrenders (17.8)."""
    state = ctx.state
    side = F.companies(state)[cid]["side"]
    if frm in state.vars["encircled"].get(side, []) and F.companies(state)[cid]["point"] == frm:
        ctx.emit("routed-while-encircled", company=cid)
        K.surrender_company(ctx, cid)
        return
    if not retreat_paths(state, scenario, cid, frm):
        ctx.emit("cannot-retreat", company=cid)
        K.surrender_company(ctx, cid)
        return
    state.pending.append({"kind": "retreat", "side": side, "company": cid, "from": frm,
                          "test": test})


def retreat_modifier(state: State, b: dict[str, Any], cid: str) -> int:
    """17.8: -1 if the enemy has more tanks and armoured cars, -1 after Hard defence, +1 on a
    Disengage order."""
    side = F.companies(state)[cid]["side"]
    mine = b["att"] if side == b["attacker"] else b["def"]
    theirs = b["def"] if side == b["attacker"] else b["att"]
    armour = lambda cs: sum(u.strength for u in F.units_of(state, cs) if F.is_vehicle(u))  # noqa: E731
    mod = -1 if armour(theirs) > armour(mine) else 0
    order = _order_of(state, cid)
    if order == "prepared_defence":
        mod -= 1
    if order == "disengage":
        mod += 1
    return mod


def retreat_tests(ctx: Resolution, cid: str, b: dict[str, Any], withdrawal: bool = False) -> None:
    """17.8, G-36: a Last Stand test per platoon; each failure loses one team as prisoners (or
    a gun or vehicle as a trophy, which also transfers RP)."""
    state = ctx.state
    mod = retreat_modifier(state, b, cid)
    side = F.companies(state)[cid]["side"]
    captor = state.enemy_of(side)
    broken = set(b.get("broken", []))
    for u in F.platoons(state, cid):
        if u.id in broken:
            continue
        ls = int(u.stats.get("last_stand", 4))
        die = ctx.roll("retreat-loss", unit=u.id, modifier=mod, need=ls)
        if not retreat_test_passes(die, mod, ls):
            u.strength -= 1
            ctx.emit("prisoners", unit=u.id, teams=1, teams_left=u.strength)
            if F.is_vehicle(u) or F.cat(u) in ("gun", "howitzer", "aa"):
                K.transfer_capture(ctx, captor, u, 1)
    for u in state.units.values():
        if u.division == cid and u.strength <= 0 and u.hex is not None:
            u.hex = None
    if not F.platoons(state, cid) and F.companies(state)[cid]["point"]:
        F.remove_company(state, cid)
        state.sides[side]["lost_companies"] += 1
        ctx.emit("company-lost", company=cid, side=side)


def answer_retreat(ctx: Resolution, scenario: Any, path: list[int]) -> None:
    state = ctx.state
    pend = state.pending.pop(0)
    cid = pend["company"]
    b = state.vars["battle"]
    side = F.companies(state)[cid]["side"]
    cmap = geo.campaign_map(scenario)
    bank = None
    prev = pend["from"]
    for p in path:
        _, bank = cmap.step(prev, bank, p, state.vars["bridges"], True)
        prev = p
    F.move_company(state, cid, path[-1])
    F.companies(state)[cid]["bank"] = bank
    F.companies(state)[cid]["exhausted"] = 1
    ctx.emit("retreated", company=cid, path=list(path))
    # the loser's commanders at the point go with the first company that retreats
    for k in F.commanders_at(state, side, pend["from"]):
        F.commanders(state)[k]["point"] = path[-1]
    if pend["test"]:
        retreat_tests(ctx, cid, b)
    step(ctx, scenario)


def finish_battle(ctx: Resolution, scenario: Any) -> None:
    """17.5: a winning attacker occupies the point (not after a RiF); a Breakthrough that won
    must advance once more (14.1, G-26)."""
    state = ctx.state
    b = state.vars["battle"]
    attacker = b["attacker"]
    if b["winner"] == "att":
        if b["kind"] != "rif":
            for cid in b["att"]:
                if cid in F.live(state, attacker):
                    F.move_company(state, cid, b["point"])
                    F.companies(state)[cid]["bank"] = None
            capture_lone_commanders(ctx, attacker, b["point"])
        else:
            movers = [c for c in b["att"] if c in F.live(state, attacker)]
            if movers and state.vars.get("contact_turn") == state.turn and not F.at(
                    state, b["point"], b["defender"]):
                # G-25: on the turn of first contact a winning reconnaissance may stay
                _actor_follows(state, b)
                state.vars["battle"] = None
                state.pending = [{"kind": "stay", "side": attacker, "companies": movers,
                                  "point": b["point"], "start": b["start"], "actor": b["actor"]}]
                return
            for cid in movers:
                F.move_company(state, cid, b["start"])
        for cid in b["tired"]:
            if cid in b["att"]:
                F.companies(state)[cid]["exhausted"] = 1
        if b["kind"] == "breakthrough" and b["legs"] < 2:
            movers = [c for c in b["att"] if c in F.live(state, attacker)]
            opts = advance_options(state, scenario, movers, b["point"], b["from"])
            if movers and opts:
                _actor_follows(state, b)
                state.vars["battle"] = None
                state.pending = [{"kind": "advance", "side": attacker, "companies": movers,
                                  "from": b["point"], "came_from": b["from"], "options": opts,
                                  "actor": b["actor"], "path_len": b["path_len"],
                                  "battles": 1, "start": b["start"]}]
                return
    _actor_follows(state, b)
    state.vars["battle"] = None
    K.check_contact(ctx)


def _actor_follows(state: State, b: dict[str, Any]) -> None:
    """The commander whose group attacked ends where the first of its companies ended."""
    k = F.commanders(state).get(b["actor"])
    live = [c for c in b["att"] if c in F.live(state, b["attacker"])]
    if k is not None and live:
        k["point"] = F.companies(state)[live[0]]["point"]


def answer_stay(ctx: Resolution, choice: bool) -> None:
    state = ctx.state
    pend = state.pending.pop(0)
    side = pend["side"]
    dest = pend["point"] if choice else pend["start"]
    for cid in pend["companies"]:
        if cid in F.live(state, side):
            F.move_company(state, cid, dest)
            F.companies(state)[cid]["bank"] = None
    k = F.commanders(state).get(pend["actor"])
    if k is not None:
        k["point"] = dest
    if choice:
        capture_lone_commanders(ctx, side, dest)
    ctx.emit("reconnaissance-stays" if choice else "reconnaissance-returns", side=side, point=dest)


def capture_lone_commanders(ctx: Resolution, side: str, point: int) -> None:
    """G-16: an enemy commander alone in a point that a company enters is captured."""
    state = ctx.state
    enemy = state.enemy_of(side)
    if not F.at(state, point, enemy):
        for k in F.commanders_at(state, enemy, point):
            K.lose_commander(ctx, k, "captured alone")


def advance_options(state: State, scenario: Any, cids: list[str], frm: int, came: int) -> list[int]:
    """G-26: one adjacent point, not the one it came from, that the force may enter."""
    cmap = geo.campaign_map(scenario)
    units = F.units_of(state, cids)
    out = []
    for _, n in geo.neighbours(frm):
        if n == came or (cmap.base(n) == "mountains" and F.mechanised(units)):
            continue
        ok, _ = cmap.step(frm, None, n, state.vars["bridges"], F.fords_ok(units))
        if ok:
            out.append(n)
    return sorted(out)
