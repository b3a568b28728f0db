"""Scenario checks only Napoleonica can make (formations, stands, army composition) and the
opening state. Problems read ``field: what is wrong``; the loader adds the file name."""

from __future__ import annotations

from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from . import pickup


def _formations(stats: dict) -> tuple[str, ...]:
    arm = stats.get("arm")
    if arm == "cav" and stats.get("dismounted") is True:
        return D.FORMATIONS["dismounted"]
    return D.FORMATIONS.get(arm, ("standard",))


def muster_row(kind: str, stats: dict) -> str:
    """The row of the muster table (16.1) a unit counts in: guard units only in the guard row."""
    arm = stats.get("arm")
    if kind == "INF_GUARD" or stats.get("guard") is True:
        return {"inf": "INF_GUARD", "cav": "CAV_GUARD", "art": "ART_GUARD"}.get(arm, kind)
    return kind


def army_problems(side: str, units: list[tuple[str, dict]]) -> list[str]:
    """Spec 16.2 [P reading of S]: within each arm, each type's share of the arm's units lies in
    its muster range, compared exactly (no rounding); an arm with no units is legal."""
    out = []
    for arm, rows in (("inf", ("INF_LINE", "INF_LIGHT", "INF_HEAVY", "INF_GUARD")),
                      ("cav", ("CAV_LIGHT", "CAV_CHASSEUR", "CAV_DRAGOON", "CAV_HEAVY", "CAV_GUARD")),
                      ("art", ("ART_LIGHT", "ART_MEDIUM", "ART_HOWITZER", "ART_HEAVY", "ART_GUARD"))):
        in_arm = [muster_row(k, s) for k, s in units if s.get("arm") == arm]
        n = len(in_arm)
        if n == 0:
            continue
        for row in rows:
            c = in_arm.count(row)
            lo, hi = D.MUSTER_PCT[row]
            if not lo * n <= 100 * c <= hi * n:
                out.append(f"army of {side}: {row} is {c} of {n} {arm} units "
                           f"({100 * c // n}%), outside the muster range {lo}-{hi}% (16)")
    return out


def _generals_problems(side: str, units: list[tuple[int, str, dict, str]]) -> list[str]:
    """No more than ceil(combat units / 4) generals besides the commander-in-chief (22.6, the
    reading of 16's silence): the first one too many is named."""
    combat = sum(1 for _i, _k, s, _g in units if s.get("arm") in ("inf", "cav", "art"))
    allowed = pickup.generals_allowed(combat)
    gens = [i for i, k, _s, _g in units if k == "GEN"]
    if len(gens) <= allowed:
        return []
    return [f"units[{gens[allowed]}].kind: army of {side} has {len(gens)} generals; 22.6 allows "
            f"ceil({combat} / 4) = {allowed} for its {combat} combat units, besides the commander-in-chief"]


def check_scenario(scenario) -> list[str]:
    out: list[str] = []
    per_side: dict[str, list[tuple[str, dict]]] = {s.id: [] for s in scenario.sides}
    cincs: dict[str, int] = {s.id: 0 for s in scenario.sides}
    detail: dict[str, list[tuple[int, str, dict, str]]] = {s.id: [] for s in scenario.sides}
    for i, u in enumerate(scenario.units):
        where = f"units[{i}]"
        stats = u.stats
        arm = stats.get("arm")
        if arm not in D.STANDS:
            out.append(f"{where}.stats.arm: {arm!r} is not one of {', '.join(D.STANDS)}")
            continue
        form = stats.get("formation")
        allowed = _formations(stats)
        if form not in allowed:
            out.append(f"{where}.stats.formation: unknown formation {form!r} for {u.kind} "
                       f"(one of {', '.join(allowed)}; 5.1-5.5)")
        lo, hi = D.STANDS[arm]
        if not lo <= u.strength <= hi:
            out.append(f"{where}.strength: {u.strength} stands is outside the limits {lo}-{hi} "
                       f"for {u.kind} (4.1)")
        if u.box and u.box != "deploy":
            out.append(f"{where}.box: only box = \"deploy\" (placed in the deployment, 22.10); "
                       "use entry_turn for reserves (8.1)")
        if u.entry_turn is not None and u.entry_turn < 1:
            out.append(f"{where}.entry_turn: reserves appear from turn 1 on")
        if arm == "cav" and stats.get("guard") is True and u.kind not in D.MOVE_CAV:
            out.append(f"{where}.stats.guard: guard cavalry needs a base cavalry type")
        if u.kind == "CINC" and u.side in cincs:
            cincs[u.side] += 1
        if u.side in per_side:
            per_side[u.side].append((u.kind, stats))
            detail[u.side].append((i, u.kind, stats, u.grade))
        if not 0 <= u.facing <= 5:
            out.append(f"{where}.facing: a vertex facing 0-5")
    if scenario.rule("howitzer_reading", "over") not in ("over", "target-level"):
        out.append("rules.howitzer_reading: \"over\" or \"target-level\" (G-46)")
    if scenario.rule("settlement_capacity", "stand") not in ("stand", "unit"):
        out.append("rules.settlement_capacity: \"stand\" (one stand a village hex, 17, 22.7) "
                   "or \"unit\" (a whole unit in one village hex)")
    if scenario.rule("forest_cover", "attacker") not in ("attacker", "either"):
        out.append("rules.forest_cover: \"attacker\" (7.9 item 3: any attacker stand in forest) "
                   "or \"either\" (the struck target stand's forest too)")
    if not isinstance(scenario.rule("train_bonus", False), bool):
        out.append("rules.train_bonus: true or false (22.9)")
    muster = scenario.rule("muster", True)
    if not isinstance(muster, bool):
        out.append("rules.muster: true (check the army composition of 16) or false (a sandbox)")
    army = scenario.rule("army", "scenario")
    if army not in ("scenario", "pickup"):
        out.append("rules.army: \"scenario\" (the file's armies) or \"pickup\" (the pick-up "
                   "battle's army rules, 22.8)")
    for side, units in per_side.items():
        if muster is not False:
            out.extend(f"units: {p}" for p in army_problems(side, units))
            out.extend(_generals_problems(side, detail[side]))
        if army == "pickup":
            out.extend(pickup.army_problems(side, detail[side]))
        if cincs[side] != 1:
            out.append(f"units: army of {side} needs exactly one commander-in-chief (CINC), "
                       f"has {cincs[side]} (13, 22.6)")
    if army == "pickup" and len({pickup.arm_counts(d) for d in detail.values()}) > 1:
        out.append("units: the two armies of a pick-up battle have the same arm counts "
                   "(infantry, cavalry, artillery; 22.8)")
    v = scenario.victory
    unknown = sorted(set(v) - {"objectives"})
    if unknown:
        out.append(f"victory: unknown keys {', '.join(unknown)} (only objectives, 22.10)")
    objs = v.get("objectives", [])
    if not isinstance(objs, list) or not all(isinstance(x, str) and x in scenario.map.labels for x in objs):
        out.append("victory.objectives: a list of map label names (22.10)")
    hmap = scenario.map
    out.extend(footprint_problems(scenario))
    for a, b in B.barricade_marks(hmap):
        if not (B.is_bridge(hmap, a) or B.is_bridge(hmap, b)):
            out.append(f"map.hexsides: the barricade between {hmap.label(a)} and {hmap.label(b)} "
                       "touches no bridge (22.7: a barricade closes a bridge, a river hex on a road)")
    return out


def footprint_problems(scenario) -> list[str]:
    """Placed units whose stands (21.5 layout from hex, facing, formation) fall off the map,
    onto ground they may not stand on, or onto another unit's stands."""
    hmap = scenario.map
    state = initial_state("napoleonica", scenario)
    out: list[str] = []
    holder: dict = {}
    for i, spec in enumerate(scenario.units):
        u = state.units.get(spec.id)
        if u is None or spec.hex is None or spec.box or B.is_general(u):
            continue
        where = f"units[{i}].hex"
        name = f"{spec.id} ({B.formation(u)} of {u.strength}, facing {u.facing})"
        if B.garrison(u) and B.arm(u) in ("inf", "cav") and len(B.stand_hexes(u)) < u.strength \
                and state.vars.get("settlement_capacity", "stand") == "stand":
            out.append(f"{where}: {spec.id} has {u.strength} stands but its settlement has no room "
                       "for them, one stand a village hex (17, 22.7; [rules] settlement_capacity = "
                       "\"unit\" puts a whole unit in one hex)")
            continue
        for h in B.stand_hexes(u):
            if h not in hmap:
                out.append(f"{where}: {name} has a stand off the map at {tuple(h)} (21.5)")
                continue
            t = hmap.terrain_at(h)
            if h != u.hex and not B.garrison(u) and (t in ("lake", "river", "village", "rampart")
                               or (t in ("forest", "swamp", "ravine") and not B.foot(u))):
                out.append(f"{where}: {name} has a stand on {t} at {hmap.label(h)} (21.5, 22.7)")
            if h in holder:
                out.append(f"{where}: {name} has a stand on {holder[h]}'s at {hmap.label(h)} (21.5)")
            holder.setdefault(h, spec.id)
    return out


def _place_garrisons(scenario, state: State) -> None:
    """A regiment a scenario places in a settlement takes one village hex a stand (17, 22.7),
    from its own hex outward; ``footprint_problems`` reports one with no room."""
    from .movement import garrison_stands
    view = B.View(state)
    for uid in sorted(state.units):
        u = state.units[uid]
        if B.garrison(u) and u.hex is not None:
            stands = garrison_stands(scenario.map, view, u, u.hex)
            if stands is not None and len(stands) > 1:
                u.mark("stands", B.encode_stands(stands))


def initial_state(ruleset_id: str, scenario) -> State:
    state = State(ruleset=ruleset_id, scenario=scenario.id, turn=1)
    order = [s.id for s in scenario.sides]
    state.side_order = order
    for s in order:
        combat = sum(1 for u in scenario.units if u.side == s and u.stats.get("arm") in ("inf", "cav", "art"))
        state.sides[s] = {"start_combat": combat}
    for spec in scenario.units:
        u = Unit(id=spec.id, side=spec.side, kind=spec.kind, name=spec.name, hex=spec.hex,
                 strength=spec.strength, max_strength=spec.strength, facing=spec.facing % 6,
                 division=spec.division, grade=spec.grade, stats=dict(spec.stats))
        u.mark("formation", str(spec.stats.get("formation", "standard")))
        if spec.stats.get("mirror") is True:
            u.mark("mirror", True)     # a column laid out rear-right first (21.5)
        if spec.stats.get("dismounted") is True:
            u.mark("dismounted", True)
        if spec.hex is not None and scenario.map.terrain_at(spec.hex) == "village" \
                and spec.stats.get("arm") != "gen":
            u.mark("garrison", True)
        if spec.hex is not None and scenario.map.terrain_at(spec.hex) == "rampart" \
                and spec.stats.get("arm") != "gen":
            u.mark("on_wall", True)    # a unit on a fort wall holds its one wall hex (22.7)
        if spec.box == "deploy":
            u.mark("state", "deploy")
        elif spec.hex is None:
            u.mark("state", "reserve")
            u.mark("entry", spec.entry_turn or 1)
        state.units[spec.id] = u
    state.vars = {"contacts": [], "done": [], "losses": [], "cinc_lost": []}
    barricades = B.barricaded_bridges(scenario.map)
    if barricades:
        state.vars["barricades"] = barricades
    if scenario.rule("howitzer_reading", "over") != "over":
        state.vars["howitzer_reading"] = scenario.rule("howitzer_reading")
    if scenario.rule("forest_cover", "attacker") != "attacker":
        state.vars["forest_cover"] = scenario.rule("forest_cover")
    if scenario.rule("settlement_capacity", "stand") != "stand":
        state.vars["settlement_capacity"] = scenario.rule("settlement_capacity")
    _place_garrisons(scenario, state)
    state.phase = "start"
    state.active = scenario.first_player or order[0]
    return state
