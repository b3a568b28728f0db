"""Set-up, the turn's automatic steps and campaign victory (spec 5-10, 12, 18, 23, 25.5, 30).

Turn sequence (7): step 1 initiative (``keep-initiative`` / ``hand-initiative``; turn 1 starts
with ``start`` instead), step 2 resolved inside that same order (encirclement and surrender,
supply, income, weather, reinforcement points), step 3 commander movement (``phase = command``),
steps 4-7 the secret plans (``phase = plan``), step 8 execution (``phase = execute``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.engine import secret
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import forces as F
from . import deploy
from . import geo
from . import support

if TYPE_CHECKING:
    from hexwar.engine.scenario import Scenario

SUPPLY_LIMIT = 8  # 4 points, counted in half points (G-47)


# --- set-up ------------------------------------------------------------------------------------

def initial_state(ruleset_id: str, scenario: "Scenario") -> State:
    state = State(ruleset=ruleset_id, scenario=scenario.id, turn=1)
    sides = [s.id for s in scenario.sides]
    state.side_order = sides
    rules = scenario.rules
    si = rules.get("si_side") or scenario.first_player or sides[0]
    desert = bool(rules.get("desert_penalty", True))
    for spec in scenario.units:
        state.units[spec.id] = Unit(
            id=spec.id, side=spec.side, kind=spec.kind, name=spec.name, hex=spec.hex,
            strength=spec.strength, max_strength=spec.strength, division=spec.division,
            grade=spec.grade, stats=dict(spec.stats))
    companies: dict[str, dict[str, Any]] = {}
    elite = set(rules.get("elite_companies", []))
    for d in scenario.divisions:
        hexes = [u.hex for u in scenario.units if u.division == d.id and u.hex is not None]
        point = geo.point_at(hexes[0]) if hexes else 0
        companies[d.id] = {"side": d.side, "name": d.name, "point": point or 0,
                           "exhausted": 0, "fought": 0, "acted": 0, "bank": None,
                           "elite": d.id in elite, "trophies": []}
    state.vars = {
        "si": si, "contact": False, "weather": "good", "companies": companies,
        "commanders": {}, "bridges": {}, "encircled": {s: [] for s in sides},
        "unsupplied": {s: [] for s in sides}, "forced": {s: [] for s in sides},
        "orders": {}, "assets": {}, "exec": {}, "battle": None, "secret": None,
        "mandatory_failed": False, "reinforced": 0, "objectives_taken": {},
    }
    for s in scenario.sides:
        nation = rules.get("nations", {}).get(s.id, "britain")
        staff = F.NATIONS[nation][0]
        supply = F.supply_type(nation, desert)
        start_fp = sum(int(u.stats.get("points", 0)) for u in scenario.units if u.side == s.id)
        state.sides[s.id] = {
            "nation": nation, "staff": staff, "supply": supply, "start_fp": start_fp,
            "rp": F.starting_rp(supply, start_fp), "edge": s.home_edge or "north",
            "fp_bank": 0, "exited": [0, 1], "start_companies": sum(
                1 for c in companies.values() if c["side"] == s.id),
            "lost_companies": 0, "posture": "", "rail_blown": False,
        }
        _place_commanders(state, s.id, F.commander_count(staff, start_fp))
    state.phase = "start"
    state.active = si
    if deploy.zones_of(scenario) is not None:  # 5, G-59: a secret placement first
        state.phase = "deploy"
        state.vars["secret"] = secret.open_round(deploy.ROUND, [si] + [s for s in sides if s != si])
    return state


def _place_commanders(state: State, side: str, n: int) -> None:
    """Ratings are rolled by the ``start`` order (G-16); placement: ``forces.commander_posts``."""
    for i, point in enumerate(F.commander_posts(state, side, n)):
        F.commanders(state)[f"{side}-hq{i + 1}"] = {"side": side, "rating": 0, "point": point,
                                                    "moved": 0}


FP_ROLL_BASE, FP_ROLL_STEP = 600, 50  # 25.2: 1 = 600 FP, 2 = 650, ... 6 = 850


def fp_roll_limit(die: int) -> int:
    """25.2: the FP a side may field on a roll of ``die``."""
    return FP_ROLL_BASE + FP_ROLL_STEP * (die - 1)


def roll_forces(ctx: Resolution, scenario: "Scenario") -> None:
    """25.2, G-54: "each side gets 600-850 FP. Roll a die": one roll for both sides. The
    scenario lists the platoons each pip above 1 adds (``[rules] fp_roll``, DESIGNED lists built
    up to the limit); those the roll does not reach leave play before the campaign starts, and
    the side's FP, starting RP (3.3) and commanders (3.2, G-16) follow its force.
    ``fp_roll.fixed = N`` is the other reading: no die, the roll is N."""
    spec = scenario.rules.get("fp_roll")
    if not spec:
        return
    state = ctx.state
    fixed = spec.get("fixed")
    die = int(fixed) if fixed else ctx.roll("forces")
    ctx.emit("forces-rolled", roll=die, fp=fp_roll_limit(die), fixed=bool(fixed))
    for side in state.side_order:
        for j, ids in enumerate(spec.get(side, [])):
            if die < j + 2:
                for uid in ids:
                    del state.units[uid]
        s = state.sides[side]
        fp = sum(int(u.stats.get("points", 0)) for u in state.units.values() if u.side == side)
        s["start_fp"] = fp
        s["rp"] = F.starting_rp(s["supply"], fp)
        for k in [k for k, v in sorted(F.commanders(state).items()) if v["side"] == side]:
            del F.commanders(state)[k]  # placed again below, by the same rule as the set-up
        _place_commanders(state, side, F.commander_count(s["staff"], fp))
        ctx.emit("force", side=side, fp=fp, rp=s["rp"],
                 commanders=F.commander_count(s["staff"], fp))


def fp_roll_problems(scenario: "Scenario") -> list[str]:
    """``hexwar validate``: each pip's platoons belong to the side, no company is empty on a 1,
    and the force on each roll stays within the roll's FP (25.2)."""
    spec = scenario.rules.get("fp_roll")
    if spec is None:
        return []
    if not isinstance(spec, dict):
        return ["rules.fp_roll: a table of side = [[unit, ...] for pips 2-6]"]
    out = []
    fixed = spec.get("fixed")
    if fixed is not None and (not isinstance(fixed, int) or isinstance(fixed, bool) or not 1 <= fixed <= 6):
        out.append("rules.fp_roll.fixed: the die's value, 1-6")
    units = {u.id: u for u in scenario.units}
    for s in scenario.sides:
        groups = spec.get(s.id, [])
        if not isinstance(groups, list) or len(groups) > 5 or not all(
                isinstance(g, list) and all(isinstance(x, str) for x in g) for g in groups):
            out.append(f"rules.fp_roll.{s.id}: at most five lists of unit ids (pips 2-6)")
            continue
        listed = [x for g in groups for x in g]
        bad = [x for x in listed if x not in units or units[x].side != s.id]
        if bad or len(set(listed)) != len(listed):
            out.append(f"rules.fp_roll.{s.id}: unknown, foreign or repeated units {', '.join(sorted(set(bad)))}")
            continue
        pts = {u.id: int(u.stats.get("points", 0)) for u in scenario.units if u.side == s.id}
        base = sum(pts.values()) - sum(pts[x] for x in listed)
        total = base
        for die in range(1, 7):
            if die >= 2 and die - 2 < len(groups):
                total += sum(pts[x] for x in groups[die - 2])
            if total > fp_roll_limit(die):
                out.append(f"rules.fp_roll.{s.id}: {total} FP on a roll of {die}, over {fp_roll_limit(die)} (25.2)")
        left = {u.division for u in scenario.units if u.side == s.id and u.id not in listed}
        empty = sorted(d.id for d in scenario.divisions if d.side == s.id and d.id not in left)
        if empty:
            out.append(f"rules.fp_roll.{s.id}: on a roll of 1 these companies have no platoon: {', '.join(empty)}")
    return out


def roll_ratings(ctx: Resolution) -> None:
    """G-16: each side's first commander is +2, the others roll the staff table."""
    state = ctx.state
    for side in state.side_order:
        staff = state.sides[side]["staff"]
        ks = [k for k in sorted(F.commanders(state)) if F.commanders(state)[k]["side"] == side]
        for i, k in enumerate(ks):
            if i == 0:
                rating = 2
            else:
                rating = F.rating_for(staff, ctx.roll("commander-rating", commander=k))
            F.commanders(state)[k]["rating"] = rating
            ctx.emit("commander-rated", commander=k, side=side, rating=rating)


# --- step 2 ------------------------------------------------------------------------------------

def encircled_points(state: State, side: str) -> list[int]:
    """18, G-38: enemy in two adjacent points on opposite sides, and no friendly company in any
    adjacent point."""
    enemy = F.occupied(state, state.enemy_of(side))
    own = F.occupied(state, side)
    out = []
    for p in sorted(own):
        nb = dict(geo.neighbours(p))
        if any(n in own for n in nb.values()):
            continue
        if any(nb.get(d) in enemy and nb.get(d + 3) in enemy for d in range(3)):
            out.append(p)
    return out


def in_supply(game_scenario: "Scenario", state: State, side: str, point: int) -> bool:
    """G-47: a chain of points free of enemy to the own edge, or to a railway hex joined to it,
    costing at most 4 points (2 road steps count 1)."""
    cmap = geo.campaign_map(game_scenario)
    edge = state.sides[side]["edge"]
    blocked = F.occupied(state, state.enemy_of(side))
    bridges = state.vars["bridges"]
    goals = set(geo.edge_points(edge)) | cmap.rail_to_edge(edge, blocked, bridges)
    cids = F.at(state, point, side)
    fords = any(F.fords_ok(F.platoons(state, c)) for c in cids) if cids else True
    bank = F.companies(state)[cids[0]]["bank"] if cids else None
    cost = geo.cheapest(cmap, point, bank, goals - blocked, blocked, bridges, fords)
    return cost is not None and cost <= SUPPLY_LIMIT


def supply_step(ctx: Resolution, scenario: "Scenario") -> None:
    """Step 2 (7, 29): encirclement and surrender, supply, income, weather, reinforcements."""
    state = ctx.state
    si = state.vars["si"]
    order = [si, state.enemy_of(si)]
    enc = {s: encircled_points(state, s) for s in order}
    state.vars["encircled"] = enc
    state.vars["forced"] = {s: [] for s in order}
    for side in order:
        for p in enc[side]:
            ctx.emit("encircled", side=side, point=p)
            surrender_roll(ctx, side, p)
    for side in order:
        out = [p for p in F.group_points(state, side) if not in_supply(scenario, state, side, p)]
        state.vars["unsupplied"][side] = out
        for p in out:
            ctx.emit("out-of-supply", side=side, point=p)
    for side in order:
        s = state.sides[side]
        if len(state.vars["unsupplied"][side]) == len(F.group_points(state, side)):
            ctx.emit("no-income", side=side, reason="no group can trace a supply line (G-47)")
            continue
        die = ctx.roll("income", side=side, supply=s["supply"])
        gain = F.income(s["supply"], die)
        s["rp"] += gain
        ctx.emit("income", side=side, rp=gain, total=s["rp"])
    die = ctx.roll("weather") + (2 if scenario.rules.get("winter") else 0)
    state.vars["weather"] = "bad" if die >= 6 else "good"
    ctx.emit("weather", weather=state.vars["weather"])
    per_turn = scenario.rules.get("reinforcement_fp", {})
    for side in order:
        add = int(per_turn.get(side, 0))
        if add:
            state.sides[side]["fp_bank"] += add
            ctx.emit("reinforcement-points", side=side, fp=add, bank=state.sides[side]["fp_bank"])
    check_contact(ctx)
    state.phase = "command"
    state.active = si
    state.vars["command_done"] = []


def surrender_roll(ctx: Resolution, side: str, point: int) -> None:
    """18: 1D6, surrender on 1-2; +1 with SS/SAS, -2 without a commander; never with a +2."""
    state = ctx.state
    cids = F.at(state, point, side)
    rating = F.best_rating(state, side, point)
    if rating is not None and rating >= 2:
        ctx.emit("no-surrender", side=side, point=point, reason="a +2 commander never surrenders (18)")
        state.vars["forced"][side].append(point)
        return
    die = ctx.roll("surrender", side=side, point=point)
    mod = (1 if any(F.companies(state)[c]["elite"] for c in cids) else 0) - (2 if rating is None else 0)
    if die + mod <= 2:
        ctx.emit("surrendered", side=side, point=point, companies=cids, roll=die, modifier=mod)
        for c in cids:
            surrender_company(ctx, c)
        lose_commanders(ctx, side, point, "surrendered")
    else:
        ctx.emit("holds-out", side=side, point=point, roll=die, modifier=mod)
        state.vars["forced"][side].append(point)


def surrender_company(ctx: Resolution, cid: str) -> None:
    """All teams are taken prisoner; guns and vehicles transfer RP to the enemy (G-40)."""
    state = ctx.state
    side = F.companies(state)[cid]["side"]
    enemy = state.enemy_of(side)
    for u in F.platoons(state, cid):
        transfer_capture(ctx, enemy, u, u.strength)
        u.strength = 0
    F.remove_company(state, cid)
    state.sides[side]["lost_companies"] += 1
    ctx.emit("company-lost", company=cid, side=side)


CAPTURE_RP = {"gun": 1, "aa": 1, "howitzer": 2, "tank": 2, "armoured_car": 2}


def transfer_capture(ctx: Resolution, captor: str, u: Unit, teams: int) -> None:
    """17.9 and G-40: each captured gun 1 RP, howitzer or tank 2 RP, taken from the owner "if he
    has any left": by default a transfer of at most what he has (G-40's min(value, RP));
    ``[rules] capture_rp = "full"`` lets the captor gain the full value whatever the owner has."""
    per = CAPTURE_RP.get(F.cat(u), 0)
    if not per or teams <= 0:
        return
    full = ctx.scenario.rules.get("capture_rp", "transfer") == "full"
    transfer_rp(ctx, captor, per * teams, f"captured {teams} x {u.id}", full=full)


def transfer_rp(ctx: Resolution, captor: str, rp: int, why: str, full: bool = False) -> None:
    """G-14, G-40: RP move from the loser to the captor, at most what the loser has (nothing is
    created); ``full`` is the reading where the captor gains ``rp`` regardless (17.9)."""
    state = ctx.state
    loser = state.enemy_of(captor)
    n = min(rp, state.sides[loser]["rp"])
    state.sides[loser]["rp"] -= n
    gained = rp if full else n
    state.sides[captor]["rp"] += gained
    ctx.emit("rp-captured", side=captor, rp=gained, taken_from_enemy=n, why=why)


def lose_commanders(ctx: Resolution, side: str, point: int, why: str) -> None:
    for k in F.commanders_at(ctx.state, side, point):
        lose_commander(ctx, k, why)


def lose_commander(ctx: Resolution, k: str, why: str) -> None:
    """G-16: a lost commander is replaced at once by a new one rolled on the staff table (a +2
    is never re-issued), placed with a supplied group without a commander if there is one."""
    state = ctx.state
    cmd = F.commanders(state)[k]
    side = cmd["side"]
    ctx.emit("commander-lost", commander=k, side=side, why=why)
    groups = F.group_points(state, side)
    if not groups:
        cmd["point"] = 0
        return
    staff = state.sides[side]["staff"]
    cmd["rating"] = F.rating_for(staff, ctx.roll("commander-rating", commander=k))
    unsup = set(state.vars["unsupplied"].get(side, []))
    free = [p for p in groups if p not in unsup and not F.commanders_at(state, side, p)]
    cmd["point"] = (free or groups)[0]
    ctx.emit("commander-replaced", commander=k, side=side, rating=cmd["rating"], point=cmd["point"])


def check_contact(ctx: Resolution) -> None:
    """6: the SI stays with the scenario's first player until opposing companies stand in
    adjacent points; from then on the standard rules apply."""
    state = ctx.state
    if state.vars["contact"]:
        return
    a, b = state.side_order
    pa, pb = F.occupied(state, a), F.occupied(state, b)
    if any(x == y or geo.adjacent(x, y) for x in pa for y in pb):
        state.vars["contact"] = True
        state.vars["contact_turn"] = state.turn
        ctx.emit("contact")


# --- step 3 and the plan round ------------------------------------------------------------------

def end_command(ctx: Resolution) -> None:
    state = ctx.state
    state.vars["command_done"].append(state.active)
    other = state.enemy_of(state.active)
    if other not in state.vars["command_done"]:
        state.active = other
        return
    si = state.vars["si"]
    state.phase = "plan"
    state.active = si
    state.vars["secret"] = secret.open_round(f"plan-{state.turn}", [si, state.enemy_of(si)])
    ctx.emit("planning", turn=state.turn)


# --- end of turn and victory --------------------------------------------------------------------

def exited(state: State, side: str) -> Fraction:
    n, d = state.sides[side]["exited"]
    return Fraction(n, d)


def add_exited(state: State, side: str, value: Fraction) -> None:
    total = exited(state, side) + value
    state.sides[side]["exited"] = [total.numerator, total.denominator]


def finish(ctx: Resolution, winner: str | None, reason: str) -> None:
    state = ctx.state
    if winner is not None and state.sides[winner]["rail_blown"]:
        ctx.emit("draw-cap", side=winner, reason="it destroyed a railway bridge (21)")
        winner, reason = None, reason + "; capped to a draw: that side blew a railway bridge (21)"
    state.result = {"winner": winner, "reason": reason}
    state.pending = []
    state.phase = "over"
    state.active = ""
    state.vars["battle"] = None
    ctx.emit("game-over", winner=winner, reason=reason)


def check_victory(ctx: Resolution, scenario: "Scenario", end_of_turn: bool = False) -> bool:
    """23 and 25: the scenario's condition; True when the game is over."""
    state = ctx.state
    if state.result is not None:
        return True
    v = scenario.victory
    kind = v.get("type")
    a, b = state.side_order
    for side in (a, b):
        if not F.live(state, side) and not (kind == "exit" and side == v.get("side")
                                            and exited(state, side) >= int(v.get("fp", 0))):
            finish(ctx, state.enemy_of(side), f"{side} has no companies left on the map")
            return True
    if kind == "exit":
        side = v["side"]
        need = int(v["fp"])
        if exited(state, side) >= need:
            finish(ctx, side, f"{side} moved {need} FP off the map across the enemy edge (25.5)")
            return True
        if end_of_turn and state.turn >= scenario.turns:
            got = exited(state, side)
            finish(ctx, state.enemy_of(side),
                   f"{side} moved only {got.numerator // got.denominator} of {need} FP off the map "
                   f"in {scenario.turns} turns (25.5)")
            return True
    elif kind == "meeting":
        pct = int(v.get("companies_percent", 50))
        for side in (a, b):
            enemy = state.enemy_of(side)
            lost, start = state.sides[enemy]["lost_companies"], state.sides[enemy]["start_companies"]
            if start and 100 * lost >= pct * start:
                finish(ctx, side, f"{side} destroyed {lost} of {start} enemy companies (25.2)")
                return True
        if end_of_turn:
            turns_needed = int(v.get("edge_turns", 1))
            streak = state.vars.setdefault("edge_held", {})
            holding = {}
            for side in (a, b):
                held = edge_held(scenario, state, side)
                holding[side] = len(held) >= int(v.get("edge_points", 3))
                streak[side] = streak.get(side, 0) + 1 if holding[side] else 0
                if holding[side]:
                    ctx.emit("edge-held", side=side, points=held, turns=streak[side], needed=turns_needed)
            done = [s for s in (a, b) if streak[s] >= turns_needed]
            if len(done) == 1:
                side = done[0]
                n = len(edge_held(scenario, state, side))
                how = "" if turns_needed == 1 else f" at the end of {turns_needed} turns running"
                finish(ctx, side, f"{side} holds {n} points of the enemy edge{how} (25.2)")
                return True
            if len(done) == 2:  # DESIGNED: both at once is no win for either; play goes on
                ctx.emit("edge-stand-off", sides=[a, b])
            if state.turn >= scenario.turns:
                finish(ctx, None, f"neither side won within {scenario.turns} turns (G-60)")
                return True
    elif end_of_turn and state.turn >= scenario.turns:
        finish(ctx, None, "the turn limit was reached")
        return True
    return False


def edge_held(scenario: "Scenario", state: State, side: str) -> list[int]:
    """25.2: the points of the enemy's edge ``side`` holds; with ``[victory] edge_supplied``
    (DESIGNED) only those whose group can trace a supply line (G-47)."""
    edge = state.sides[state.enemy_of(side)]["edge"]
    held = sorted(F.occupied(state, side) & set(geo.edge_points(edge)))
    if scenario.victory.get("edge_supplied"):
        held = [p for p in held if in_supply(scenario, state, side, p)]
    return held


def end_turn(ctx: Resolution, scenario: "Scenario") -> None:
    state = ctx.state
    support.unused_support(ctx)
    if check_victory(ctx, scenario, end_of_turn=True):
        return
    si = state.vars["si"]
    if state.vars["mandatory_failed"] and state.vars["contact"]:
        new = state.enemy_of(si)
        state.vars["si"] = new
        ctx.emit("initiative-lost", side=si, to=new, reason="a mandatory order failed (6.A, G-18)")
    state.vars["mandatory_failed"] = False
    for c in F.companies(state).values():
        c["exhausted"] = c["fought"] = c["acted"] = 0
    for k in F.commanders(state).values():
        k["moved"] = 0
    for p, st in sorted(state.vars["bridges"].items()):
        if st.startswith("repair:") and int(st[7:]) <= state.turn:
            state.vars["bridges"][p] = "intact"
            ctx.emit("bridge-repaired", point=int(p))
    state.vars["orders"] = {}
    state.vars["assets"] = {}
    state.vars["exec"] = {}
    state.vars["secret"] = None
    for s in state.side_order:
        state.sides[s]["posture"] = ""
    state.turn += 1
    state.phase = "initiative"
    state.active = state.vars["si"]
    ctx.emit("turn", turn=state.turn, si=state.vars["si"])
