"""Postures, orders and the secret plan of steps 4-7 (spec 11, 14, 16, 21, G-18, G-19, G-55).

A plan is a list of rows (engine/secret.py), each naming one decision:

* ``["posture", name]``: exactly one (11.1);
* ``["order", commander, order, company, ...]``: a commander's order and the companies of his
  point that take part (G-55);
* ``["air", "raid" | "superiority", aircraft, point]`` and ``["air", "cas", aircraft, company]``;
* ``["artillery", "prep" | "heavy", firing_company, point]`` and ``["artillery", "direct", company]``;
* ``["bridge", "blow" | "repair", point]``;
* ``["trophy", company, kind]``: bring a captured gun or vehicle into action (17.10, G-43).

Every RP is paid when the plans are revealed (G-19); the caps of encircled and out-of-supply groups
(8, G-48) are checked against the group each spend is attributed to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import forces as F
from . import geo

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.state import State

OFFENSIVE = ("cautious", "decisive", "breakthrough")
DEFENSIVE = ("hard_defence", "withdrawal", "counter_attacks")
POSTURES: dict[str, tuple[str, ...]] = {
    "cautious": ("rif", "maneuver", "disengage", "reserve"),
    "decisive": ("attack", "rif", "maneuver", "reserve"),
    "breakthrough": ("breakthrough", "attack", "rif", "reserve"),
    "hard_defence": ("prepared_defence", "rif", "maneuver", "reserve"),
    "withdrawal": ("maneuver", "disengage", "reserve"),
    "counter_attacks": ("attack", "rif", "maneuver", "reserve"),
}
ORDERS = ("rif", "attack", "breakthrough", "maneuver", "disengage", "reserve", "prepared_defence")
# G-18: the first-listed order is mandatory; prepared defence does not satisfy the requirement
MANDATORY = {"cautious": "rif", "decisive": "attack", "breakthrough": "breakthrough",
             "counter_attacks": "attack", "hard_defence": None, "withdrawal": None}
AIR_COST = {"raid": 3, "superiority": 1, "cas": 1}
ARTILLERY_COST = {"prep": 6, "heavy": 10}
BRIDGE_COST = {"road_bridge": 1, "rail_bridge": 2}
REPAIR_COST = 2
TROPHY_COST = 1
SPEND_CAP = 2


def bridges(state: "State") -> dict[str, str]:
    return state.vars["bridges"]


def mandatory_applies(state: "State", side: str) -> bool:
    """G-18: the SI player owes a mandatory order once contact has been made and some company
    that has a commander stands within two points of an enemy company."""
    if state.vars["si"] != side or not state.vars["contact"]:
        return False
    enemy = F.occupied(state, state.enemy_of(side))
    for cid in F.live(state, side):
        p = F.companies(state)[cid]["point"]
        if F.commanders_at(state, side, p) and any(geo.distance(p, e) <= 2 for e in enemy):
            return True
    return False


def capped_points(state: "State", side: str) -> set[int]:
    """Groups limited to 2 RP this turn: encircled or out of supply (8, 10, 18)."""
    return set(state.vars["encircled"].get(side, [])) | set(state.vars["unsupplied"].get(side, []))


def parse(game: "Position", side: str, plan: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Check ``plan`` for ``side`` against the rules and the shared state; returns the parsed
    plan or the reason it is refused."""
    state = game.state
    cmap = geo.campaign_map(game.scenario)
    enemy = state.enemy_of(side)
    out: dict[str, Any] = {"posture": None, "orders": {}, "air": [], "artillery": [],
                           "bridges": [], "trophies": [], "cost": 0, "spend": {}}
    used_companies: set[str] = set()
    used_aircraft: set[str] = set()
    comps = F.companies(state)

    def spend(point: int | None, rp: int) -> None:
        out["cost"] += rp
        if point:
            out["spend"][point] = out["spend"].get(point, 0) + rp

    for row in plan:
        kind = row[0]
        if kind == "posture":
            if out["posture"] is not None:
                return None, "a plan names one posture"
            if len(row) != 2 or row[1] not in POSTURES:
                return None, f"posture is one of {', '.join(POSTURES)}"
            want = OFFENSIVE if state.vars["si"] == side else DEFENSIVE
            if row[1] not in want:
                role = "strategic initiative" if state.vars["si"] == side else "defending"
                return None, f"the {role} side chooses one of {', '.join(want)} (5, 11.1)"
            out["posture"] = row[1]
        elif kind == "order":
            if len(row) < 3:
                return None, "an order row is [\"order\", commander, order, company, ...]"
            k, order, cids = row[1], row[2], list(row[3:])
            cmd = F.commanders(state).get(k) if isinstance(k, str) else None
            if cmd is None or cmd["side"] != side or not cmd["point"]:
                return None, f"{k!r} is not a commander of {side} on the map"
            if k in out["orders"]:
                return None, f"commander {k} gets one order (11.2)"
            if order not in ORDERS:
                return None, f"order is one of {', '.join(ORDERS)}"
            for cid in cids:
                if not isinstance(cid, str) or cid not in comps or comps[cid]["side"] != side \
                        or cid not in F.live(state, side):
                    return None, f"{cid!r} is not a company of {side} on the map"
                if comps[cid]["point"] != cmd["point"]:
                    return None, f"{cid} is not in commander {k}'s point (G-55)"
                if cid in used_companies:
                    return None, f"{cid} takes part in one order only (G-55)"
                used_companies.add(cid)
            out["orders"][k] = {"order": order, "companies": cids}
        elif kind == "air":
            if len(row) != 4 or row[1] not in AIR_COST:
                return None, "an air row is [\"air\", raid|superiority|cas, aircraft, target]"
            if state.vars["weather"] == "bad":
                return None, "no air sorties in bad weather (9)"
            mission, aid, target = row[1], row[2], row[3]
            u = state.units.get(aid) if isinstance(aid, str) else None
            if u is None or u.side != side or not F.is_aircraft(u) or u.strength <= 0:
                return None, f"{aid!r} is not an aircraft of {side}'s air pool"
            if aid in used_aircraft:
                return None, f"{aid} flies one mission a turn (G-32)"
            used_aircraft.add(aid)
            if mission == "superiority" and F.cat(u) != "fighter":
                return None, "only fighters fly air superiority (16.2)"
            if mission == "cas":
                if target not in F.live(state, side):
                    return None, "close air support is assigned to one of your companies (16.2)"
                spend(comps[target]["point"], AIR_COST[mission])
            else:
                if not isinstance(target, int) or target not in geo.POINTS:
                    return None, "the target of a raid or air superiority is a point 1-36"
                if mission == "raid" and not F.at(state, target, enemy):
                    return None, f"point {target:02d} holds no enemy to raid"
                own = F.at(state, target, side)
                spend(target if own else None, AIR_COST[mission])
            out["air"].append({"mission": mission, "aircraft": aid, "target": target})
        elif kind == "artillery":
            if len(row) not in (3, 4) or row[1] not in ("prep", "heavy", "direct"):
                return None, "an artillery row is [\"artillery\", prep|heavy|direct, company(, point)]"
            mission, cid = row[1], row[2]
            if cid not in F.live(state, side):
                return None, f"{cid!r} is not a company of {side} on the map"
            units = F.platoons(state, cid)
            if F.artillery_models(units) < 2:
                return None, f"{cid} has fewer than two artillery models (14.1, G-31)"
            if any(a["company"] == cid for a in out["artillery"]):
                return None, f"{cid} fires one artillery mission a turn"
            p = comps[cid]["point"]
            if mission == "direct":
                if len(row) != 3:
                    return None, "direct support names only the firing company"
                spend(p, F.artillery_models(units))
                out["artillery"].append({"mission": mission, "company": cid, "target": None})
                continue
            target = row[3] if len(row) == 4 else None
            if not isinstance(target, int) or target not in geo.POINTS or not F.at(state, target, enemy):
                return None, "an artillery preparation targets a point holding enemy"
            d = geo.distance(p, target)
            need = {1: 48, 2: 72}.get(d)
            if need is None or not any(F.is_artillery(u) and int(u.stats.get("range_in", 0)) >= need
                                       for u in units):
                return None, f"point {target:02d} is out of {cid}'s artillery range (16.3, G-31)"
            spend(p, ARTILLERY_COST[mission])
            out["artillery"].append({"mission": mission, "company": cid, "target": target})
        elif kind == "bridge":
            if len(row) != 3 or row[1] not in ("blow", "repair") or row[2] not in geo.POINTS:
                return None, "a bridge row is [\"bridge\", blow|repair, point]"
            op, p = row[1], row[2]
            crossing = cmap.crossing.get(p, "none")
            if crossing not in BRIDGE_COST:
                return None, f"point {p:02d} has no bridge"
            if not F.at(state, p, side):
                return None, f"you need a company in point {p:02d} (21)"
            st = bridges(state).get(str(p), "intact")
            if op == "blow":
                if st != "intact":
                    return None, f"the bridge at {p:02d} is already down"
                spend(p, BRIDGE_COST[crossing])
            else:
                if crossing == "rail_bridge":
                    return None, "a destroyed railway bridge cannot be restored (21)"
                if st != "destroyed" or F.at(state, p, enemy):
                    return None, f"the bridge at {p:02d} cannot be repaired now (21, G-45)"
                spend(p, REPAIR_COST)
            if any(b["point"] == p for b in out["bridges"]):
                return None, f"one bridge operation at {p:02d} a turn"
            out["bridges"].append({"op": op, "point": p})
        elif kind == "trophy":
            if len(row) != 3 or row[1] not in F.live(state, side):
                return None, "a trophy row is [\"trophy\", company, kind] (G-43)"
            cid, tkind = row[1], row[2]
            spare = list(comps[cid]["trophies"])
            for t in out["trophies"]:
                if t["company"] == cid and t["kind"] in spare:
                    spare.remove(t["kind"])
            if tkind not in spare:
                return None, f"{cid} holds no {tkind!r} trophy to bring into action (17.10)"
            spend(comps[cid]["point"], TROPHY_COST)
            out["trophies"].append({"company": cid, "kind": tkind})
        else:
            return None, f"unknown plan row {kind!r}"
    if out["posture"] is None:
        return None, "a plan names the posture (11.1)"
    allowed = POSTURES[out["posture"]]
    for k, o in out["orders"].items():
        if o["order"] not in allowed and F.commanders(state)[k]["rating"] < 2:
            return None, (f"{o['order']} is not allowed under {out['posture']}; only a +2 "
                          f"commander chooses freely (11.3)")
    mand = MANDATORY[out["posture"]]
    if mand and mandatory_applies(state, side) and not any(
            o["order"] == mand and o["companies"] for o in out["orders"].values()):
        return None, f"give at least one group the mandatory {mand} order (11.2, G-18)"
    rp = state.sides[side]["rp"]
    if out["cost"] > rp:
        return None, f"the plan costs {out['cost']} RP, {side} has {rp} (8)"
    capped = capped_points(state, side)
    for p, n in sorted(out["spend"].items()):
        if p in capped and n > SPEND_CAP:
            return None, (f"the group in {p:02d} is encircled or out of supply and may spend at "
                          f"most {SPEND_CAP} RP (8, G-48)")
    return out, None
