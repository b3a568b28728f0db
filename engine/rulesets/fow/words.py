"""The Flames of War campaign in the player's words: the platoon card, why a company cannot go
somewhere now, the odds of an attack, the player aid, and a battle report built from the events.

It only reads the state and asks the rule functions that judge orders (``execute``, ``plans``);
it decides nothing. Values marked DESIGNED in the aid (the G-P resolver, the G-08 catalogue) are
hexwar's own, not the source's, and the aid says so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex

from . import battle as B
from . import catalogue
from . import execute as X
from . import forces as F
from . import geo
from . import plans as P

#: preview, event and plan fields in the player's words (Ruleset.field_name, value_words)
FIELD_NAMES = {"poorly_organised": "poorly organised", "counter_attacks": "counter-attacks",
               "hard_defence": "hard defence"}
PHASE_TITLES = {"start": "Start", "initiative": "Step 1 initiative", "command": "Step 3 commanders",
                "plan": "Steps 4-7 plans", "execute": "Step 8 orders"}
ORDER_NAMES = {"rif": "Reconnaissance in force", "attack": "Attack", "breakthrough": "Breakthrough",
               "maneuver": "Maneuver", "maneuver1": "Maneuver 1 point", "disengage": "Disengage",
               "reserve": "Reserve", "prepared_defence": "Prepared defence"}
POSTURE_NAMES = {"cautious": "Cautious offensive", "decisive": "Decisive offensive",
                 "breakthrough": "Breakthrough", "hard_defence": "Hard defence",
                 "withdrawal": "Fighting withdrawal", "counter_attacks": "Counter-attacks"}
CATEGORY_NAMES = {"infantry": "infantry", "motorised_infantry": "motorised infantry", "tank": "tanks",
                  "armoured_car": "armoured cars", "gun": "guns", "howitzer": "howitzers",
                  "mortar": "mortars", "aa": "anti-aircraft guns", "fighter": "fighters",
                  "ground_attack": "ground-attack aircraft"}
SUPPLY_NAMES = {"modern": "modern", "organised": "organised", "poorly_organised": "poorly organised",
                "partisan": "partisan"}
STAT_WORDS: dict[str, str] = {}  # the card below says everything in its own rows


# --- names --------------------------------------------------------------------------------------

def side_name(game: Any, side: str | None) -> str:
    for s in game.scenario.sides:
        if s.id == side:
            return str(s.name)
    return str(side or "-")


def owner(game: Any, side: str | None) -> str:
    """``Deutsches Afrikakorps'`` / ``British Eighth Army's``."""
    name = side_name(game, side)
    return name + ("'" if name.endswith("s") else "'s")


def commander_name(game: Any, k: str) -> str:
    """``HQ 3 (+1)``: the commander's number within his side and his rating once rolled."""
    cmd = F.commanders(game.state).get(k)
    number = k.rsplit("hq", 1)[-1] if "hq" in k else k
    if cmd is None:
        return f"HQ {number}"
    return f"HQ {number} (+{cmd['rating']})"


def company_name(game: Any, cid: str) -> str:
    c = F.companies(game.state).get(cid)
    return str(c["name"]) if c else cid


def company_moves(game: Any, before: dict[str, tuple[Any, int]], actors: list[str]
                  ) -> tuple[list[str], list[tuple[int, int]], dict[str, list[str]]]:
    """The other side's turn told by company rather than by platoon: which companies went from
    point to point (a company of a side not in ``actors`` was pushed: a retreat), and how many
    teams each lost, from every platoon's hex and teams ``before`` (unit id -> (hex, teams)) and
    now. Returns the move lines, the hexes the movers now stand on, and the losses by side."""
    state = game.state
    groups: dict[str, list[str]] = {}
    for uid in sorted(state.units):
        cid = state.units[uid].division
        if cid:
            groups.setdefault(cid, []).append(uid)
    moved: list[str] = []
    hexes: list[tuple[int, int]] = []
    losses: dict[str, list[str]] = {}
    for cid in sorted(groups):
        uids = groups[cid]
        side = state.units[uids[0]].side
        old = [before[u][0] for u in uids if u in before and before[u][0] is not None]
        now = [state.units[u].hex for u in uids if state.units[u].alive and state.units[u].hex is not None]
        p_old = geo.point_at(tuple(old[0])) if old else None
        p_now = geo.point_at(tuple(now[0])) if now else None
        name = company_name(game, cid)
        if p_old is not None and p_now is not None and p_old != p_now:
            pushed = "" if side in actors else " (retreated)"
            moved.append(f"{name} {p_old:02d}-{p_now:02d}{pushed}")
            hexes.append(tuple(now[0]))
        elif p_old is None and p_now is not None:
            moved.append(f"{name} entered at {p_now:02d}")
            hexes.append(tuple(now[0]))
        lost = sum(before[u][1] - state.units[u].strength for u in uids if u in before)
        if old and not now:
            losses.setdefault(side, []).append(f"{name} destroyed")
        elif lost > 0:
            losses.setdefault(side, []).append(f"{name} -{lost} team(s)")
    return moved, hexes, losses


def point_text(p: int) -> str:
    return "off the map" if p == geo.OFF_MAP else f"{p:02d}"


def path_text(path: list[int]) -> str:
    return " → ".join(point_text(p) for p in path) if path else "stays"


def fp_text(x: Fraction | int) -> str:
    """Force points, whole when whole, else to one decimal (display only)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.1f}"


def company_line(game: Any, cid: str) -> str:
    """``Panzer company (de-pz-a): 255 FP, 11 teams, exhausted``."""
    state = game.state
    c = F.companies(state)[cid]
    units = F.platoons(state, cid)
    flags = [w for w, on in (("exhausted", c["exhausted"]), ("fought", c["fought"]),
                             ("acted", c["acted"])) if on]
    teams = sum(u.strength for u in units)
    return (f"{c['name']}: {fp_text(F.fp(state, [cid]))} FP, {teams} teams"
            + (f", {', '.join(flags)}" if flags else ""))


# --- the unit card ----------------------------------------------------------------------------

def unit_card(ruleset: Any, game: Any, uid: str) -> list[tuple[str, str]]:
    state = game.state
    u = state.units[uid]
    spec = catalogue.UNIT_TYPES.get(u.kind, {})
    rows = [("platoon", str(spec.get("name", u.name))),
            ("type", CATEGORY_NAMES.get(F.cat(u), F.cat(u) or "-")),
            ("teams", f"{u.strength} of {u.max_strength}"),
            ("value", f"{fp_text(F.value(u))} of {spec.get('points', '?')} FP (points x teams left / teams)"),
            ("skill", f"{spec.get('skill', '?')}+ to hit with artillery and AA (G-33)"),
            ("last stand", f"{spec.get('last_stand', '?')}+ (G-36)")]
    if spec.get("transport"):
        rows.append(("transport", "yes: counts as mechanised (G-64)"))
    if int(spec.get("range_in", 0) or 0) >= 48 and F.cat(u) in catalogue.ARTILLERY:
        reach = 2 if int(spec["range_in"]) >= 72 else 1
        rows.append(("artillery", f"reaches {reach} point{'s' if reach > 1 else ''} (G-31)"))
    if u.division and u.division in F.companies(state):
        c = F.companies(state)[u.division]
        rows.append(("company", f"{c['name']}, {fp_text(F.fp(state, [u.division]))} FP"))
        p = c["point"]
        if p:
            ks = F.commanders_at(state, u.side, p)
            rows.append(("point", f"{p:02d}"))
            rows.append(("commander", ", ".join(commander_name(game, k) for k in ks) or "none here"))
            o = _order_of(state, u.side, u.division)
            if o:
                rows.append(("order", ORDER_NAMES.get(o, o)))
        flags = [w for w, on in (("exhausted", c["exhausted"]), ("fought this turn", c["fought"]),
                                 ("has acted", c["acted"])) if on]
        if u.alive:
            rows.append(("status", ", ".join(flags) if flags else "fresh"))
    if F.is_aircraft(u):
        rows.append(("status", "in the air pool (G-32)" if u.strength > 0 else "shot down"))
    elif not u.alive:
        rows.append(("status", "destroyed" if u.strength <= 0 else "not on the map"))
    rows.append(("note", "catalogue values are DESIGNED placeholders (G-08)"))
    return rows


def _order_of(state: Any, side: str, cid: str) -> str:
    for o in state.vars["orders"].get(side, {}).values():
        if cid in o.get("companies", []):
            return str(o["order"])
    return ""


# --- why not --------------------------------------------------------------------------------------

def why_not(ruleset: Any, game: Any, uid: str, h: Hex) -> str | None:
    """Why the platoon's company has no order that takes it to the point at ``h`` now."""
    state = game.state
    u = state.units.get(uid)
    if u is None:
        return "that platoon is not in this campaign"
    if state.result is not None:
        return "the game is over"
    if F.is_aircraft(u) or u.hex is None:
        return "aircraft and lost platoons are not on the map; aircraft fly in the plan (16.2, G-32)"
    if state.pending:
        kind = str(state.pending[0].get("kind", "")).replace("-", " ")
        return f"the pending {kind} decision must be answered first"
    target = geo.point_at(tuple(h))
    if target is None:
        return "that hex is not one of the points 01-36"
    side = ruleset.to_act(game)
    if u.side != side:
        return f"it is {side_name(game, side)}'s turn to act (7)"
    phase = state.phase
    cid = u.division
    if phase in ("start", "initiative"):
        return "steps 1 and 2 move nothing: end the step to roll resources and weather (7)"
    if phase == "plan":
        return "steps 4-7 are planned on the plan screen (o), in secret (G-19)"
    if phase == "command":
        here = F.companies(state)[cid]["point"]
        ks = [k for k in F.commanders_at(state, side, here) if not F.commanders(state)[k]["moved"]]
        if not ks:
            return "in step 3 companies move only with a commander of their point who has not moved (12)"
        return ("step 3 moves commanders (o lists the moves); companies may go along within "
                "their Maneuver allowance (12, G-22)")
    if phase != "execute":
        return None
    actor = next((a for a in state.vars["exec"]["queue"].get(side, [])
                  if cid in X.participants(state, side, a)), None)
    if actor is None:
        o = _order_of(state, side, cid)
        if not o:
            return f"{company_name(game, cid)} took part in no order this turn (G-55)"
        return f"{company_name(game, cid)} has carried out its {ORDER_NAMES.get(o, o)} order (14.3)"
    paths = X.activation_paths(game, side, actor)
    if any(p and p[-1] == target for p in paths):
        return None
    start = F.companies(state)[cid]["point"]
    if geo.adjacent(start, target):
        return X.activation_problem(game, side, actor, [target]) or "no legal path there"
    o = state.vars["orders"][side][actor]["order"]
    return f"{point_text(target)} is beyond the reach of its {ORDER_NAMES.get(o, o)} order (14.1)"


# --- orders -----------------------------------------------------------------------------------

def actor_name(game: Any, side: str, actor: str) -> str:
    """A step-8 actor: a commander, or ``group at 16`` for a group without one (11.4)."""
    if actor in F.commanders(game.state):
        return commander_name(game, actor)
    if actor.startswith("g") and actor[1:].isdigit():
        return f"group at {point_text(int(actor[1:]))}"
    return actor


def order_words(game: Any, order: Any) -> str:
    """Every campaign order in plain words, for the order list and the decision dialogs."""
    state = game.state
    kind = order.kind
    side = game.ruleset.to_act(game) or ""
    if kind == "act":
        actor = str(order.get("actor"))
        o = state.vars["orders"].get(side, {}).get(actor, {})
        what = ORDER_NAMES.get(o.get("order", ""), o.get("order", "order"))
        cids = X.participants(state, side, actor) if o else []
        who = f"{actor_name(game, side, actor)}"
        if cids:
            who += " with " + ", ".join(company_name(game, c) for c in cids)
        path = list(order.get("path") or ())
        if not path:
            return f"{who}: {what} not carried out (stays)"
        enemy = F.occupied(state, state.enemy_of(side))
        target = path[-1]
        verb = "into enemy at" if target in enemy else "to"
        via = f" via {path_text(path[:-1])}" if len(path) > 1 else ""
        odds = ""
        if target in enemy and cids:
            sa, sd = F.fp(state, cids), F.fp(state, F.at(state, target, state.enemy_of(side)))
            m, p = attack_chance(sa, sd)
            pct = (p * 100).numerator // (p * 100).denominator
            odds = f" ({fp_text(sa)} FP against {fp_text(sd)}, M(R) {m:+d}, about {pct} % before modifiers)"
        return f"{who}: {what} {verb} {point_text(target)}{via}{odds}"
    if kind == "pass":
        return "pass: no reaction now (14.3)"
    if kind == "end-phase":
        return "end step 3 (commanders stay where they are)"
    if kind == "start":
        return "start the campaign: rate the commanders, then resources and weather"
    if kind == "keep-initiative":
        return "keep the strategic initiative (6)"
    if kind == "hand-initiative":
        return "hand the strategic initiative to the enemy (6.B)"
    if kind == "commit-plan":
        return "commit a sealed plan (G-19)"
    if kind == "reveal-plan":
        return "reveal the committed plan"
    if kind == "move-commander":
        k = str(order.get("commander"))
        cids = list(order.get("companies") or ())
        start = F.commanders(state).get(k, {}).get("point", 0)
        with_ = (" with " + ", ".join(company_name(game, c) for c in cids)) if cids else " alone"
        return f"{commander_name(game, k)} moves {path_text([start] + list(order.get('path') or ()))}{with_}"
    if kind == "reinforce":
        spec = catalogue.UNIT_TYPES.get(str(order.get("unit")), {})
        return (f"reinforce: {spec.get('name', order.get('unit'))} ({spec.get('points', '?')} FP) "
                f"at {point_text(int(order.get('point') or 0))}")
    if kind == "withdraw":
        return "withdraw before the battle (G-34)" if order.get("choice") else "stand and fight"
    if kind == "reserves":
        cids = list(order.get("companies") or ())
        return ("commit reserves: " + ", ".join(company_name(game, c) for c in cids)) if cids \
            else "commit no reserves"
    if kind == "retreat":
        pend = state.pending[0] if state.pending else {}
        frm = pend.get("from")
        path = ([frm] if isinstance(frm, int) else []) + list(order.get("path") or ())
        return f"{company_name(game, str(order.get('company')))} retreats {path_text(path)}"
    if kind == "advance":
        return f"advance into {point_text(int(order.get('point') or 0))} (G-26)"
    if kind == "stay":
        return ("the reconnaissance stays in the point it took (G-25)" if order.get("choice")
                else "the reconnaissance returns to its start point")
    if kind == "resign":
        return "resign the campaign"
    return ""


# --- odds -------------------------------------------------------------------------------------------

_AT_LEAST = {k: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= k) for k in range(-10, 20)}


def attack_chance(sa: Fraction, sd: Fraction) -> tuple[int | None, Fraction]:
    """G-P 4: M(R) and the attacker's chance of 2D6 + M >= 8 (None when the point is empty)."""
    if sd <= 0:
        return None, Fraction(1)
    m = B.ratio_modifier(sa / sd)
    return m, Fraction(_AT_LEAST[max(-10, min(19, 8 - m))], 36)


def odds_summary(game: Any, order: Any) -> str:
    """For an activation into an enemy point: the raw force points, M(R) and the chance, before
    the multipliers (cover, exhaustion, commanders, support) that the battle report lists."""
    state = game.state
    if order.kind != "act" or not order.get("path") or state.phase != "execute":
        return ""
    side = game.ruleset.to_act(game)
    enemy_side = state.enemy_of(side)
    target = order["path"][-1]
    dfn = F.at(state, target, enemy_side)
    if not dfn:
        return ""
    att = X.participants(state, side, order["actor"])
    sa, sd = F.fp(state, att), F.fp(state, dfn)
    m, p = attack_chance(sa, sd)
    pct = (p * 100).numerator // (p * 100).denominator
    return (f"Attack {point_text(target)}: {fp_text(sa)} FP against {fp_text(sd)} FP, M(R) {m:+d}: "
            f"you win on 2D6 {8 - (m or 0)}+ (about {pct} %) before cover, exhaustion and support")


# --- the player aid ----------------------------------------------------------------------------

def player_aid(ruleset: Any, game: Any) -> list[tuple[str, list[str]]]:
    state = game.state
    now = state.phase
    steps = [("start", "Turn 1: commanders are rated (+2 for the first, the staff table for the rest)"),
             ("initiative", "1 Strategic initiative: keep it or hand it over (6)"),
             ("initiative", "2 Resources: encirclement and surrender, supply, income, weather (8-10, 18)"),
             ("command", "3 Commanders move, groups may go along; reinforcements (12, 25.5)"),
             ("plan", "4-7 Secret plan: posture, orders and participants, support bought (G-19)"),
             ("execute", "8 Orders in the order of 14.3; battles by the G-P resolver")]
    seq = [("> " if key == now else "  ") + text for key, text in steps]
    postures = []
    for name, orders in P.POSTURES.items():
        role = "initiative side" if name in P.OFFENSIVE else "other side"
        mand = P.MANDATORY[name]
        postures.append(f"{POSTURE_NAMES[name]} ({role}): "
                        + ", ".join(ORDER_NAMES[o] + (" (mandatory)" if o == mand else "") for o in orders))
    postures.append("A +2 commander may take any order (11.3). One order per commander, for the "
                    "companies of his point that the plan names (G-55).")
    support = [f"Air raid {P.AIR_COST['raid']} RP, air superiority {P.AIR_COST['superiority']} RP, "
               f"close air support {P.AIR_COST['cas']} RP per aircraft (16.2); none in bad weather",
               f"Artillery preparation {P.ARTILLERY_COST['prep']} RP, heavy {P.ARTILLERY_COST['heavy']} RP "
               f"per company; direct support 1 RP per gun (16.3, G-31)",
               f"Blow a road bridge {P.BRIDGE_COST['road_bridge']} RP, a railway bridge "
               f"{P.BRIDGE_COST['rail_bridge']} RP; repair {P.REPAIR_COST} RP (21)",
               f"Trophy into action {P.TROPHY_COST} RP (G-43); an encircled or unsupplied group "
               f"spends at most {P.SPEND_CAP} RP (G-48)"]
    supply = []
    for s in state.side_order:
        sd = state.sides[s]
        supply.append(f"{side_name(game, s)}: {SUPPLY_NAMES.get(sd['supply'], sd['supply'])} supply, "
                      f"{sd['rp']} RP, {sd['staff']} staff")
    supply += ["Income each turn 1D6 RP: at least 3 with modern supply, at most 3 when poorly organised "
               "or partisan; only if a group traces supply (8, G-47)",
               "Supply line: adjacent points free of enemy to the own edge or a railway to it, cost "
               "1 + 1 a step (1/2 on a road), in supply at 4 or less (10, G-47)",
               f"Weather now: {state.vars['weather']}. 1D6 each turn, 6 = bad: no aircraft, "
               "Breakthrough becomes Attack, Maneuver 1 point less (9)"]
    mr = ["R below 1/2: -4", "1/2 to 3/4: -2", "3/4 to 1: -1", "1 to 3/2: 0", "3/2 to 2: +1",
          "2 to 3: +2", "3 or more: +4"]
    resolver = ["DESIGNED (G-P, not the source's): each side's strength is the sum of points x teams "
                "left / teams of its platoons, with multipliers:",
                "  prepared defence x3/2; reserves delayed x1/2, flanking x3/4; exhausted "
                "max(1/2, 9/10 - markers/10) (G-35)",
                "  tanks attacking into vegetation, hills, town or city x3/4; defender in cover x5/4",
                "  best commander +N: x(1 + N/10); close air support adds its aircraft, direct "
                "artillery half its value",
                "Ratio R = attacker / defender gives M(R): " + ", ".join(mr),
                "The attacker wins on 2D6 + M(R) >= 8. Chances: "
                + ", ".join(f"M {m:+d} {_AT_LEAST[8 - m] * 100 // 36} %" for m in (-4, -2, -1, 0, 1, 2, 4)),
                "Losses: loser 3/20 x S_win/S_lose of its teams (1/10 to 1/2), winner 3/20 x "
                "S_lose/S_win (1/20 to 3/10)",
                "Lost vehicles: 5-6 bailed out (the winner recovers them, the loser's are captured); "
                "loser's lost guns captured on 4-6",
                f"Reserves arrive on 2D6 + mods >= {B.ARRIVAL_TARGET}: +2 all tanks, +3 all armoured cars, "
                "-1 artillery without transport, + the best commander (14.1, G-29)",
                "Retreat test per platoon: d6 + mods >= Last Stand (6 passes, 1 fails): -1 enemy has more "
                "armour, -1 prepared defence, +1 disengaging; a failure loses a team as prisoners (G-36)"]
    terrain = [f"{code}: {text}" for code, text in geo.BASE_TERRAIN.items()]
    terrain += ["river: crossed only at a bridge, or at a ford (not tanks or armoured cars) (13, G-06)",
                "road: a supply step along a road costs 1/2 (G-12)"]
    units = ["DESIGNED placeholders (G-08): teams, points, Skill, Last Stand, transport, range"]
    for kind, spec in catalogue.UNIT_TYPES.items():
        units.append(f"{spec['name']}: {CATEGORY_NAMES[str(spec['category'])]}, {spec['strength']} teams, "
                     f"{spec['points']} FP, skill {spec['skill']}+, last stand {spec['last_stand']}+"
                     + (", transport" if spec["transport"] else ""))
    return [("Turn sequence (7)", seq), ("Postures and orders (11)", postures),
            ("Support assets (16, 21)", support), ("Supply, resources and weather (8-10)", supply),
            ("Battle resolver", resolver), ("Terrain", terrain), ("Platoons", units)]


# --- battle reports --------------------------------------------------------------------------

#: events that start something new after a battle: the report ends before them
_AFTER_BATTLE = ("attacking", "moving", "stood", "contact-report", "turn", "planning",
                 "reaction-passed", "interception", "plan-committed")


def battles_in(events: list[Any]) -> list[tuple[int, int]]:
    """(first, end) indexes of each battle's events: from its contact report up to the next
    activation, turn or battle."""
    out = []
    starts = [i for i, e in enumerate(events) if e.get("t") == "contact-report"]
    for i in starts:
        j = i + 1
        while j < len(events) and events[j].get("t") not in _AFTER_BATTLE:
            j += 1
        out.append((i, j))
    return out


def _unit_words(game: Any, uid: Any) -> str:
    u = game.state.units.get(uid) if isinstance(uid, str) else None
    if u is None:
        return str(uid)
    company = company_name(game, u.division) if u.division else side_name(game, u.side)
    return f"{catalogue.UNIT_TYPES.get(u.kind, {}).get('name', u.name)} of {company}"


def _composition(c: dict[str, int]) -> str:
    parts = [f"{c.get(k, 0)} {w}" for k, w in (("infantry", "infantry"), ("artillery", "artillery"),
                                               ("tanks", "tanks"), ("armoured_cars", "armoured cars"))
             if c.get(k)]
    return f"{c.get('total', 0)} teams" + (f" ({', '.join(parts)})" if parts else "")


def _frac(v: Any) -> Fraction:
    return Fraction(int(v[0]), int(v[1]))


_ROLL_WHY = {"battle": "battle roll", "bail-out": "bail-out (5-6: crew escapes)",
             "gun-capture": "gun capture (4-6: captured)", "last-stand": "Last Stand",
             "commander-loss": "commander loss (1: lost)", "retreat-loss": "retreat test",
             "reserve-arrival": "reserve arrival", "aa-fire": "AA fire", "bog": "bogging"}


def _battle_line(game: Any, e: Any, point: int, att_side: str, def_side: str) -> str | None:
    """One event of a battle in words (None for events the report leaves out)."""
    t = e.get("t")
    lines: list[str] = []
    if t == "die-roll":
        why = _ROLL_WHY.get(str(e.get("why")), str(e.get("why")).replace("-", " "))
        about = ""
        if e.get("unit"):
            about = f" for {_unit_words(game, e['unit'])}"
        elif e.get("company"):
            about = f" for {company_name(game, e['company'])}"
        elif e.get("commander"):
            about = f" for {commander_name(game, e['commander'])}"
        need = f", needs {e['need']}+" if e.get("need") is not None else ""
        mod = f", modifier {e['modifier']:+d}" if isinstance(e.get("modifier"), int) and e["modifier"] else ""
        lines.append(f"  rolled {e.get('value')} ({why}{about}{need}{mod})")
    elif t == "battle":
        sa, sd = _frac(e["s_att"]), _frac(e["s_def"])
        lines.append(f"Attacker strength {fp_text(sa)}: " + ("; ".join(e.get("notes_att") or []) or "no modifiers"))
        lines.append(f"Defender strength {fp_text(sd)}: " + ("; ".join(e.get("notes_def") or []) or "no modifiers"))
        if e.get("ratio") is None:
            lines.append("The point was empty: the attacker wins without a roll")
        else:
            r = _frac(e["ratio"])
            m = int(e["modifier"])
            lines.append(f"Ratio {fp_text(r)} ({r.numerator}/{r.denominator}): M(R) {m:+d}; "
                         f"2D6 = {e['roll']}, {e['roll']} {m:+d} = {e['roll'] + m} against 8")
        winner = att_side if e.get("attacker_wins") else def_side
        lines.append(f"{side_name(game, winner)} win the battle")
    elif t == "withdrew-before-battle":
        lines.append(f"{side_name(game, e.get('side'))} withdraw before the battle (G-34)")
    elif t == "attack-called-off":
        lines.append(f"{side_name(game, e.get('side'))} call the attack off (G-34)")
    elif t == "reserve-arrived":
        lines.append(f"{company_name(game, e['company'])} arrives from reserve ({e['arrives_as']}): "
                     f"2D6 {e['roll']} {int(e['modifier']):+d} >= 8")
    elif t == "reserve-late":
        lines.append(f"{company_name(game, e['company'])} is late: 2D6 {e['roll']} "
                     f"{int(e['modifier']):+d} < 8")
    elif t == "teams-lost":
        lines.append(f"{_unit_words(game, e['unit'])} loses {e['teams']} team(s), {e['teams_left']} left")
    elif t == "recovered":
        lines.append(f"{_unit_words(game, e['unit'])}: a crew bails out and is recovered")
    elif t == "trophy":
        lines.append(f"{side_name(game, e['side'])} capture a "
                     f"{catalogue.UNIT_TYPES.get(e['unit_kind'], {}).get('name', e['unit_kind'])} "
                     f"as a trophy of {company_name(game, e['company'])} (G-43)")
    elif t == "rp-captured":
        lines.append(f"{side_name(game, e['side'])} gain {e['rp']} RP ({e['why']})")
    elif t == "broken":
        lines.append(f"{_unit_words(game, e['unit'])} breaks (failed Last Stand)")
    elif t == "platoon-destroyed":
        lines.append(f"{_unit_words(game, e['unit'])} is destroyed")
    elif t == "company-lost":
        lines.append(f"{company_name(game, e['company'])} is lost")
    elif t == "retreated":
        route = path_text([point] + list(e["path"])) if point else "to " + path_text(list(e["path"]))
        lines.append(f"{company_name(game, e['company'])} retreats {route}, exhausted")
    elif t == "prisoners":
        lines.append(f"{_unit_words(game, e['unit'])}: {e['teams']} team taken prisoner, "
                     f"{e['teams_left']} left")
    elif t == "cannot-retreat":
        lines.append(f"{company_name(game, e['company'])} has no way back and surrenders")
    elif t == "routed-while-encircled":
        lines.append(f"{company_name(game, e['company'])} is encircled and surrenders")
    elif t == "commander-lost":
        lines.append(f"{commander_name(game, e['commander'])} is lost ({e.get('why', '')})")
    elif t == "commander-replaced":
        lines.append(f"{commander_name(game, e['commander'])} takes over at "
                     f"{point_text(int(e.get('point') or 0))}")
    elif t == "mandatory-order-failed":
        lines.append(f"{owner(game, e['side'])} mandatory order failed: the initiative "
                     "passes at the next step 1 (6.A, G-18)")
    elif t == "sortie-cancelled":
        lines.append(f"{_unit_words(game, e['aircraft'])}: sortie cancelled by {_unit_words(game, e['by'])}")
    elif t == "advance":
        lines.append(f"The breakthrough must advance into {point_text(int(e['point']))} (G-26)")
    elif t in ("reconnaissance-stays", "reconnaissance-returns"):
        stays = t.endswith("stays")
        lines.append("The reconnaissance stays in the point it took (G-25)" if stays
                     else "The reconnaissance returns to its start point")
    elif t == "initiative-intercepted":
        lines.append(f"{side_name(game, e['side'])} take the initiative by interception (G-21)")
    elif t == "game-over":
        lines.append(f"Game over: {e.get('reason', '')}")
    return "\n".join(lines) if lines else None


def battle_report(game: Any, events: list[Any]) -> tuple[str, list[str]]:
    """One battle in plain words: forces, decisions, every modifier and roll, losses, retreats,
    captures, trophies and exhaustion."""
    first = events[0]
    point = int(first.get("point", 0))
    att_side = str(first.get("attacker"))
    def_side = game.state.enemy_of(att_side)
    title = f"Battle for point {point:02d}: {side_name(game, att_side)} attack {side_name(game, def_side)}"
    lines = [f"Attackers: {_composition(first.get('attackers', {}))}",
             f"Defenders: {_composition(first.get('defenders', {}))}"]
    lost: dict[str, int] = {}
    for e in events[1:]:
        if e.get("t") == "teams-lost":
            u = game.state.units.get(e["unit"])
            if u is not None:
                lost[u.side] = lost.get(u.side, 0) + int(e["teams"])
        said = _battle_line(game, e, point, att_side, def_side)
        if said:
            lines += said.split("\n")
    if lost:
        lines.append("Teams lost: " + ", ".join(f"{side_name(game, s)} {n}" for s, n in sorted(lost.items())))
    return title, lines


def battle_reports(game: Any, events: list[Any]) -> list[tuple[str, list[str]]]:
    return [battle_report(game, events[i:j]) for i, j in battles_in(events)]


def event_words(game: Any, e: Any) -> str:
    """A log line for a campaign event in plain words; empty for die rolls (the generic line
    names the roll and its purpose) and for events it does not know."""
    t = e.get("t")
    state = game.state
    if t == "die-roll":
        return ""
    if t == "battle":
        point = int(e.get("point", 0))
        if e.get("ratio") is None:
            return f"Battle at {point_text(point)}: the point was empty, the attacker takes it"
        m = int(e["modifier"])
        won = "the attacker wins" if e.get("attacker_wins") else "the defender holds"
        return (f"Battle at {point_text(point)}: strength {fp_text(_frac(e['s_att']))} against "
                f"{fp_text(_frac(e['s_def']))}, M(R) {m:+d}, 2D6 {e['roll']}: {won} (C: battle reports)")
    if t == "contact-report":
        return (f"Contact at {point_text(int(e['point']))}: {side_name(game, e['attacker'])} attack with "
                f"{_composition(e.get('attackers', {}))} against {_composition(e.get('defenders', {}))}")
    said = _battle_line(game, e, int(e.get("point") or 0), "", "")
    if said and t not in ("battle",):
        return said
    if t == "commander-rated":
        return f"{side_name(game, e['side'])}: {commander_name(game, e['commander'])} is rated +{e['rating']} (G-16)"
    if t == "turn":
        return f"Turn {e['turn']} begins; {side_name(game, e['si'])} hold the initiative"
    if t == "income":
        return f"{side_name(game, e['side'])} receive {e['rp']} RP (now {e['total']})"
    if t == "no-income":
        return f"{side_name(game, e['side'])} receive no RP: {e.get('reason', '')}"
    if t == "weather":
        return f"Weather this turn: {e['weather']}"
    if t == "forces-rolled":
        how = "fixed by the scenario" if e.get("fixed") else "rolled"
        return f"Forces: {how} {e['roll']}, so each side fields up to {e['fp']} FP (25.2)"
    if t == "force":
        return (f"{side_name(game, e['side'])} field {e['fp']} FP: {e['rp']} RP to start, "
                f"{e['commanders']} commanders (3.2, 3.3)")
    if t == "reinforcement-points":
        return f"{side_name(game, e['side'])} bank {e['fp']} FP of reinforcements (now {e['bank']})"
    if t == "encircled":
        return f"{owner(game, e['side'])} group at {point_text(int(e['point']))} is encircled (18)"
    if t == "out-of-supply":
        return f"{owner(game, e['side'])} group at {point_text(int(e['point']))} is out of supply (10)"
    if t == "surrendered":
        return f"{owner(game, e['side'])} group at {point_text(int(e['point']))} surrenders (18)"
    if t == "holds-out":
        return f"{owner(game, e['side'])} group at {point_text(int(e['point']))} holds out and must disengage"
    if t == "planning":
        return f"Steps 4-7: both sides plan in secret (turn {e['turn']})"
    if t == "plan-committed":
        return f"{side_name(game, e['side'])} committed a sealed plan"
    if t == "plan-opened":
        return f"{side_name(game, e['side'])} opened its plan"
    if t == "plan-revealed":
        return (f"{owner(game, e['side'])} plan: {POSTURE_NAMES.get(e.get('posture', ''), e.get('posture'))}, "
                f"{e.get('rp_spent', 0)} RP spent")
    if t == "order-converted":
        return (f"{actor_name(game, '', e['actor'])}: {ORDER_NAMES.get(e['frm'], e['frm'])} becomes "
                f"{ORDER_NAMES.get(e['to'], e['to'])} ({e.get('why', '')})")
    if t in ("moving", "attacking"):
        cids = ", ".join(company_name(game, c) for c in e.get("companies", []))
        return (f"{side_name(game, e['side'])}: {actor_name(game, e['side'], e['actor'])} "
                f"{ORDER_NAMES.get(e['order'], e['order'])} with {cids}: {path_text(list(e.get('path', [])))}")
    if t == "stood":
        return f"{side_name(game, e['side'])}: {actor_name(game, e['side'], e['actor'])} stays put"
    if t == "exited":
        return f"{company_name(game, e['company'])} leaves the map across the enemy's edge: {fp_text(_frac(e['fp']))} FP"
    if t == "bogged":
        return f"{company_name(game, e['company'])} bogs down at {point_text(int(e['point']))} (G-63)"
    if t == "contact":
        return "First contact between the armies"
    if t == "reconnaissance-found-nothing":
        return f"The reconnaissance finds {point_text(int(e['point']))} empty: a success (14.1)"
    if t == "team-destroyed":
        return f"{_unit_words(game, e['firer'])} hits {_unit_words(game, e['target'])}: {e['teams_left']} teams left"
    if t == "missed":
        return f"{_unit_words(game, e['firer'])} misses {_unit_words(game, e['target'])}"
    if t == "no-target":
        return f"{_unit_words(game, e['firer'])} finds no target at {point_text(int(e['point']))}"
    if t == "bridge-blown":
        return f"{side_name(game, e['side'])} blow the bridge at {point_text(int(e['point']))}"
    if t == "bridge-repair-started":
        return f"{side_name(game, e['side'])} start repairing the bridge at {point_text(int(e['point']))}"
    if t == "bridge-repaired":
        return f"The bridge at {point_text(int(e['point']))} is repaired"
    if t == "reaction-passed":
        return f"{side_name(game, e['side'])} do not react"
    if t == "interception":
        return f"{side_name(game, e['side'])}: {actor_name(game, e['side'], e['actor'])} intercepts (G-21)"
    if t == "reinforced":
        return (f"{side_name(game, e['side'])} reinforce {company_name(game, e['company'])} at "
                f"{point_text(int(e['point']))} ({e['fp']} FP)")
    if t == "commander-moved":
        return f"{commander_name(game, e['commander'])} moves {path_text(list(e.get('path', [])))}"
    if t == "initiative-handed":
        return f"{side_name(game, e['side'])} hand the initiative to {side_name(game, e['to'])}"
    if t == "initiative-lost":
        return f"{side_name(game, e['side'])} lose the initiative to {side_name(game, e['to'])}: {e.get('reason', '')}"
    if t == "order-cancelled":
        return (f"{side_name(game, e['side'])}: {actor_name(game, e['side'], e['actor'])}'s "
                f"{ORDER_NAMES.get(e['order'], e['order'])} is cancelled by the attack (14.3.6)")
    if t == "trophy-in-action":
        return f"{side_name(game, e['side'])} bring a trophy into action with {company_name(game, e['company'])}"
    if t == "resigned":
        return f"{side_name(game, e['side'])} resign"
    if t == "draw-cap":
        return f"{side_name(game, e['side'])} can at best draw: {e.get('reason', '')}"
    if t == "no-surrender":
        return f"{owner(game, e['side'])} group at {point_text(int(e['point']))} does not surrender: {e.get('reason', '')}"
    if t == "commander-replaced":
        return f"{side_name(game, e['side'])}: a new commander, {commander_name(game, e['commander'])}"
    return ""


__all__ = ["PHASE_TITLES", "STAT_WORDS", "battle_report", "battle_reports", "battles_in", "odds_summary",
           "order_words", "event_words",
           "player_aid", "unit_card", "why_not"]
