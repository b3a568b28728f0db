"""Support assets at the start of step 8 (spec 16, 21, G-31, G-32, G-33, G-45).

Once both plans are revealed the preparation phase resolves, always in this order: bridge
demolitions and repairs, air superiority, anti-aircraft fire, air raids, then artillery
preparations (the defending side's first, then the SI side's), each in plan-row order.
Close air support and direct artillery support act later, in the battles they join.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import Unit

from . import forces as F
from . import geo


def bombard(ctx: Resolution, firer: Unit, target_point: int, enemy: str, artillery: bool,
            why: str) -> None:
    """G-33: one bombardment on a platoon chosen at random in the point. To hit: d6 >= skill,
    +1 for artillery support (16.3), +1 more against prepared defence; a hit removes a soft team,
    or a vehicle on a second d6 of 5+. Teams lost this way are destroyed, not captured."""
    state = ctx.state
    targets = F.units_of(state, F.at(state, target_point, enemy))
    if not targets:
        ctx.emit("no-target", firer=firer.id, point=target_point)
        return
    pick = targets[ctx.roll(f"{why}-target", len(targets), firer=firer.id) - 1]
    need = int(firer.stats.get("skill", 4)) + (1 if artillery else 0)
    prepared = _prepared(state, pick)
    if prepared:
        need += 1
    need = min(6, need)
    hit = ctx.roll(f"{why}-hit", firer=firer.id, target=pick.id, need=need) >= need
    if hit and F.is_vehicle(pick):
        hit = ctx.roll(f"{why}-vehicle", firer=firer.id, target=pick.id, need=5) >= 5
    if not hit:
        ctx.emit("missed", firer=firer.id, target=pick.id)
        return
    pick.strength -= 1
    ctx.emit("team-destroyed", firer=firer.id, target=pick.id, teams_left=pick.strength)
    if pick.strength <= 0:
        cid = pick.division
        pick.hex = None
        if cid and not F.platoons(state, cid):
            F.remove_company(state, cid)
            state.sides[F.companies(state)[cid]["side"]]["lost_companies"] += 1
            ctx.emit("company-lost", company=cid, side=F.companies(state)[cid]["side"])


def _prepared(state: Any, u: Unit) -> bool:
    side = u.side
    for k, o in state.vars["orders"].get(side, {}).items():
        if o["order"] == "prepared_defence" and u.division in o["companies"]:
            return True
    return False


def preparation_phase(ctx: Resolution, scenario: Any) -> None:
    state = ctx.state
    si = state.vars["si"]
    order = [si, state.enemy_of(si)]
    cmap = geo.campaign_map(scenario)
    assets = state.vars["assets"]
    for side in order:
        for b in assets.get(side, {}).get("bridges", []):
            p = b["point"]
            if b["op"] == "blow":
                state.vars["bridges"][str(p)] = "destroyed"
                rail = cmap.crossing.get(p) == "rail_bridge"
                if rail:
                    state.sides[side]["rail_blown"] = True
                ctx.emit("bridge-blown", side=side, point=p, railway=rail)
            else:
                state.vars["bridges"][str(p)] = f"repair:{state.turn + 1}"
                ctx.emit("bridge-repair-started", side=side, point=p, ready_after_turn=state.turn + 1)
    # air: every sortie flies over a point; fighters on superiority engage enemy aircraft there
    sorties: list[dict[str, Any]] = []
    for side in order:
        for a in assets.get(side, {}).get("air", []):
            over = a["target"] if a["mission"] != "cas" else F.companies(state)[a["target"]]["point"]
            sorties.append({**a, "side": side, "over": over, "cancelled": False})
    for s in sorties:
        if s["mission"] != "superiority" or s["cancelled"]:
            continue
        fighter = state.units[s["aircraft"]]
        foes = [t for t in sorties if t["side"] != s["side"] and t["over"] == s["over"]
                and not t["cancelled"]]
        foes.sort(key=lambda t: (t["mission"] != "superiority", t["aircraft"]))
        if not foes:
            continue
        t = foes[0]
        need = int(fighter.stats.get("skill", 4))
        if ctx.roll("air-superiority", aircraft=fighter.id, against=t["aircraft"], need=need) >= need:
            t["cancelled"] = True
            ctx.emit("sortie-cancelled", aircraft=t["aircraft"], by=fighter.id)
    for s in sorties:
        if s["mission"] != "raid" or s["cancelled"]:
            continue
        enemy = state.enemy_of(s["side"])
        for aa in [u for u in F.units_of(state, F.at(state, s["over"], enemy)) if F.cat(u) == "aa"]:
            if aa.marks.get("aa_fired") == state.turn:
                continue
            need = int(aa.stats.get("skill", 4))
            aa.mark("aa_fired", state.turn)  # each AA platoon fires once a turn (G-32)
            if ctx.roll("aa-fire", gun=aa.id, against=s["aircraft"], need=need) >= need:
                s["cancelled"] = True
                ctx.emit("sortie-cancelled", aircraft=s["aircraft"], by=aa.id)
                break
        if not s["cancelled"]:
            bombard(ctx, state.units[s["aircraft"]], s["over"], enemy, False, "air-raid")
    state.vars["cas"] = {s["aircraft"]: s["target"] for s in sorties
                         if s["mission"] == "cas" and not s["cancelled"]}
    for side in reversed(order):
        enemy = state.enemy_of(side)
        for a in assets.get(side, {}).get("artillery", []):
            if a["mission"] == "direct" or a["company"] not in F.live(state, side):
                continue
            p = F.companies(state)[a["company"]]["point"]
            d = geo.distance(p, a["target"])
            need_range = 48 if d == 1 else 72
            shots = 2 if a["mission"] == "heavy" else 1
            for u in F.platoons(state, a["company"]):
                if F.is_artillery(u) and int(u.stats.get("range_in", 0)) >= need_range:
                    for _ in range(shots):
                        bombard(ctx, u, a["target"], enemy, True, "artillery")
