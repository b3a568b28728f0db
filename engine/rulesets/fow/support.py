"""Support assets (spec 16, 21, G-31, G-32, G-33, G-45, G-P 2).

Bridge demolitions and repairs happen when both plans are revealed (the preparation phase of
step 8). Air and artillery support resolve in the battle they were bought for (16.1.4: both
sides show their support at a point when it is used there), as G-P 2 orders a battle's
preliminaries: after the withdrawal decisions, air superiority, anti-aircraft fire, air raids,
then artillery preparations (the defender's first), each in plan-row order; then the reserves.

Which battle a raid or a preparation belongs to (designed): the first battle of the turn in which
the enemy companies it can hit take part: for a target point, the companies that defend it, or
that attack out of it. Fighters on air superiority join the first battle whose point or attackers'
point is the point they cover; close air support flies with its company's battles (G-P 1). Support
that finds no battle this turn is not flown or fired, and its RP stay spent (16.1.5).
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import Unit

from . import forces as F
from . import geo


def bombard(ctx: Resolution, firer: Unit, target_point: int, enemy: str, artillery: bool,
            why: str, among: list[str] | None = None) -> None:
    """G-33: one bombardment on a platoon chosen at random in the point (or among the companies
    ``among``). To hit: d6 >= skill, +1 for artillery support (16.3), +1 more against prepared
    defence; a hit removes a soft team, or a vehicle on a second d6 of 5+. Teams lost this way
    are destroyed, not captured."""
    state = ctx.state
    cids = among if among is not None else F.at(state, target_point, enemy)
    targets = F.units_of(state, cids)
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
    """Step 8 opens: bridge operations now; air and artillery support wait for their battles."""
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
        for a in assets.get(side, {}).get("air", []) + assets.get(side, {}).get("artillery", []):
            a["done"] = 0
    state.vars["cas"] = {a["aircraft"]: a["target"] for side in order
                         for a in assets.get(side, {}).get("air", []) if a["mission"] == "cas"}


def _open(a: dict[str, Any]) -> bool:
    return not a.get("done") and a["mission"] not in ("cas", "direct")


def battle_support(ctx: Resolution, b: dict[str, Any]) -> None:
    """The support bought for this battle (module docstring), after both sides chose to fight."""
    state = ctx.state
    assets = state.vars["assets"]
    comps = F.companies(state)
    att_points = sorted({comps[c]["point"] for c in b["att"] if comps[c]["point"]})
    # the enemy companies each side's support may hit, by target point
    hits: dict[str, dict[int, list[str]]] = {
        b["attacker"]: {b["point"]: list(b["def"])},
        b["defender"]: {p: [c for c in b["att"] if comps[c]["point"] == p] for p in att_points},
    }
    sorties: list[dict[str, Any]] = []
    for side in (b["attacker"], b["defender"]):
        for a in assets.get(side, {}).get("air", []):
            if _open(a) and a["target"] in (hits[side] if a["mission"] == "raid" else
                                            [b["point"], *att_points]):
                sorties.append({**a, "side": side, "cancelled": False, "row": a})
        for aid, cid in sorted(state.vars.get("cas", {}).items()):
            if state.units[aid].side == side and cid in b["att"] + b["def"]:
                sorties.append({"mission": "cas", "aircraft": aid, "target": cid, "side": side,
                                "cancelled": False, "row": None})
    if sorties or any(_open(a) for s in hits for a in assets.get(s, {}).get("artillery", [])):
        ctx.emit("support-shown", point=b["point"],
                 sorties=[[s["side"], s["mission"], s["aircraft"]] for s in sorties])
    for s in sorties:
        if s["row"] is not None:
            s["row"]["done"] = 1
    for s in sorties:
        if s["mission"] != "superiority" or s["cancelled"]:
            continue
        fighter = state.units[s["aircraft"]]
        foes = [t for t in sorties if t["side"] != s["side"] and not t["cancelled"]]
        foes.sort(key=lambda t: (t["mission"] != "superiority", t["aircraft"]))
        if not foes:
            continue
        t = foes[0]
        need = int(fighter.stats.get("skill", 4))
        if ctx.roll("air-superiority", aircraft=fighter.id, against=t["aircraft"], need=need) >= need:
            t["cancelled"] = True
            ctx.emit("sortie-cancelled", aircraft=t["aircraft"], by=fighter.id)
            if t["mission"] == "cas":
                del state.vars["cas"][t["aircraft"]]
    for s in sorties:
        if s["mission"] != "raid" or s["cancelled"]:
            continue
        enemy = state.enemy_of(s["side"])
        among = hits[s["side"]][s["target"]]
        for aa in [u for u in F.units_of(state, among) if F.cat(u) == "aa"]:
            if aa.marks.get("aa_fired") == state.turn:
                continue
            need = int(aa.stats.get("skill", 4))
            aa.mark("aa_fired", state.turn)  # each AA platoon fires once a turn (G-32)
            if ctx.roll("aa-fire", gun=aa.id, against=s["aircraft"], need=need) >= need:
                s["cancelled"] = True
                ctx.emit("sortie-cancelled", aircraft=s["aircraft"], by=aa.id)
                break
        if not s["cancelled"]:
            bombard(ctx, state.units[s["aircraft"]], s["target"], enemy, False, "air-raid", among)
    for side in (b["defender"], b["attacker"]):
        enemy = state.enemy_of(side)
        for a in assets.get(side, {}).get("artillery", []):
            if not _open(a) or a["target"] not in hits[side] or a["company"] not in F.live(state, side):
                continue
            a["done"] = 1
            p = comps[a["company"]]["point"]
            need_range = {1: 48, 2: 72}.get(geo.distance(p, a["target"]))
            shots = 2 if a["mission"] == "heavy" else 1
            for u in F.platoons(state, a["company"]):
                if need_range and F.is_artillery(u) and int(u.stats.get("range_in", 0)) >= need_range:
                    for _ in range(shots):
                        bombard(ctx, u, a["target"], enemy, True, "artillery", hits[side][a["target"]])


def unused_support(ctx: Resolution) -> None:
    """Step 8 is over: support that found no battle was neither flown nor fired (16.1.5)."""
    state = ctx.state
    for side in state.side_order:
        for a in state.vars["assets"].get(side, {}).get("air", []) + \
                state.vars["assets"].get(side, {}).get("artillery", []):
            if _open(a):
                ctx.emit("support-unused", side=side, mission=a["mission"],
                         by=a.get("aircraft") or a.get("company"), point=a["target"])
