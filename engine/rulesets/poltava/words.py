"""Poltava 1709 in the player's words: why a unit cannot act at a hex, the counter's factors on
the unit card, the melee line (column, shifts, DRM, chance of each result), and the player aid
(sequence of play, Melee Table, TEC, counters). It asks the rule functions that judge orders;
it decides nothing itself."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance, hex_linedraw

from .board import arm, cs_of, fire_of, other, reduced, stars_of, stat, view_of
from .data import COLUMNS, CRT_ROWS, FIRE_RANGE, IMPASSABLE, MOUNTED, NO_CAVALRY, UNIT_TYPES

#: preview and event fields in the player's words (Ruleset.field_name); "kind" is left out
FIELD_NAMES = {"attacker_cs": "attacker's combat strength", "defender_cs": "defender's combat strength",
               "difference": "difference", "base_column": "column before shifts",
               "drm": "die modifier", "lone_artillery": "lone artillery",
               "storming_redoubt": "redoubt stormed", "hit_each": "chance each shot hits",
               "shots": "shots", "fire": "fire strength"}
#: preview fields that are the table's own bookkeeping (the column already says them)
QUIET_FIELDS = frozenset({"kind", "base_index", "index"})
PHASE_TITLES = {"setup": "Set-up", "move": "Movement", "fire": "Fire", "melee": "Melee"}
ARMS = {"inf": "infantry", "cav": "cavalry", "art": "artillery", "cossack": "Cossacks",
        "leader": "leader", "redoubt": "redoubt"}
TYPE_NAMES = {"sw-inf": "Swedish infantry", "sw-guard": "Swedish Guards infantry",
              "sw-cav": "Swedish cavalry", "sw-drabant": "Drabants (Swedish Guard cavalry)",
              "ru-inf": "Russian infantry", "ru-guard": "Russian Guards infantry",
              "ru-drag": "Russian dragoons", "ru-hgren": "Russian horse grenadiers",
              "ru-sqn": "Russian cavalry squadron", "art": "field artillery", "cossack": "Cossacks",
              "leader": "leader", "redoubt": "redoubt", "redoubt-u": "unfinished redoubt"}
MARK_WORDS = {"moved": "has moved", "fired": "has fired", "attacked": "has attacked",
              "waiting": "waiting to enter"}


def why_not(ruleset: Any, g: Any, uid: str, h: Hex) -> str | None:
    st = g.state
    u = st.units.get(uid)
    if u is None:
        return "that unit is not on the map"
    if st.result is not None:
        return "the game is over"
    if st.pending:
        kind = str(st.pending[0].get("kind", "")).replace("-", " ")
        return f"the pending {kind} decision must be answered first"
    if st.phase == "setup":
        return "the set-up losses are rolled first: end the phase to roll them (S1 set-up)"
    if u.side != st.active:
        return f"it is the other side's {PHASE_TITLES.get(st.phase, st.phase)} phase (R3)"
    if u.hex is not None and Hex(*u.hex) == h:
        return _unit_reason(ruleset, g, u)
    if st.phase == "move":
        return _move_reason(ruleset, g, u, h)
    if st.phase == "fire":
        return _fire_reason(ruleset, g, u, h)
    if st.phase == "melee":
        return _melee_reason(ruleset, g, u, h)
    return None


def _unit_reason(ruleset: Any, g: Any, u: Any) -> str | None:
    """Why the unit itself can do nothing this phase (None when it has an order)."""
    if any(o.get("unit") == u.id or u.id in (o.get("units") or ()) for o in ruleset.legal_orders(g)):
        return None
    from hexwar.engine.orders import Order
    v = view_of(g)
    phase = g.state.phase
    if phase == "move":
        step = hex_linedraw(Hex(*u.hex), Hex(u.hex[0] + 1, u.hex[1]))[1]
        return ruleset._validate_move(v, _probe(u, step, "move")) or "it has nowhere to go (R4)"
    if phase == "fire":
        f, _, _ = ruleset.fire_value(v, u)
        if f <= 0:
            return "only infantry and artillery fire, and redoubt garrisons in scenario 2 (R3, R6, S2-2.3)"
        if u.marks.get("fired"):
            return "it has already fired this phase (R6)"
        return "no enemy it may fire at: range, line of sight, or enemies in its own ZOC (R6, R7)"
    if phase == "melee":
        if u.marks.get("attacked"):
            return "it has already attacked this phase (R8.3)"
        return "no enemy next to it that it may attack (R8)"
    return f"nothing to do in the {PHASE_TITLES.get(phase, phase)} phase"


def _move_reason(ruleset: Any, g: Any, u: Any, h: Hex) -> str | None:
    reach = ruleset.reachable(g, u.id)
    if h in reach:
        return None
    v = view_of(g)
    if not u.alive:
        return ruleset._validate_move(v, _probe(u, h, "enter")) or "it may not enter there"
    if not reach or u.marks.get("moved"):
        step = hex_linedraw(Hex(*u.hex), h)[1]
        why = ruleset._validate_move(v, _probe(u, step, "move"))
        if why:
            return why  # the unit itself may not move (moved, artillery, starts in ZOC, S2 hold)
    terrain = v.terrain(h)
    if terrain in IMPASSABLE:
        return f"{terrain} is impassable (R4.4, TEC)"
    if arm(u) in MOUNTED and terrain in NO_CAVALRY:
        return "cavalry may not enter the retrenchment (R4.4, TEC)"
    if v.combat_at(h, other(u.side)):
        return "an enemy unit holds that hex (R4.4); attack it in the Melee phase"
    if not v.can_end(u, h):
        return "it may not stop there: friendly units, or a redoubt it may not hold (R4.5, R2.1.1)"
    ma = int(stat(u, "ma"))
    return (f"beyond its {ma} MP this turn: terrain and hexsides cost MP, an enemy ZOC stops the move, "
            f"and road or long movement need clear roads and no enemy near (R4.2, R4.7, R4.8, R5)")


def _probe(u: Any, h: Hex, kind: str):
    from hexwar.engine.orders import Order
    return Order.make(kind, unit=u.id, path=[[h[0], h[1]]])


def _fire_reason(ruleset: Any, g: Any, u: Any, h: Hex) -> str | None:
    from hexwar.engine.orders import Order
    v = view_of(g)
    targets = [t for t in v.combat_at(h, other(u.side))]
    if not targets:
        return "there is no enemy combat unit there to fire at (R6)"
    return ruleset._validate_fire(v, Order.make("fire", unit=u.id, target=targets[0].id))


def _melee_reason(ruleset: Any, g: Any, u: Any, h: Hex) -> str | None:
    from hexwar.engine.orders import Order
    v = view_of(g)
    if not v.combat_at(h, other(u.side)) and v.redoubt_at(h) is None:
        return "there is no enemy there to attack (R8)"
    if hex_distance(Hex(*u.hex), h) != 1:
        return "melee is against an adjacent hex (R8.5)"
    order = Order.make("attack", units=[u.id], hexes=[[h[0], h[1]]])
    return ruleset._validate_attack(v, order)[0]


def unit_card(ruleset: Any, g: Any, uid: str) -> list[tuple[str, str]]:
    """The counter as printed: combat strength, fire, movement and stars, full or reduced side."""
    u = g.state.units[uid]
    side = "reduced side" if reduced(u) else "full side"
    rows = [("type", ruleset.type_name(u.kind)),
            ("steps", f"{u.strength} of {u.max_strength} ({side})")]
    a = arm(u)
    if a != "leader":
        rows.append(("combat strength", str(cs_of(u))))
    fire = fire_of(u)
    if fire:
        rows.append(("fire", f"{fire} (hits on {fire}+), range {FIRE_RANGE.get(a, 0)}"))
    rows.append(("movement", f"{stat(u, 'ma')} MP" if int(stat(u, "ma")) else "does not move"))
    stars = stars_of(u)
    if stars:
        rows.append(("stars", f"{stars} (bayonet or cavalry charge, R9.3)"))
    if u.division:
        name = next((d.name for d in g.scenario.divisions if d.id == u.division), u.division)
        rows.append(("division", name))
    if stat(u, "odb"):
        rows.append(("order of battle", str(stat(u, "odb"))))
    rows.append(("status", ruleset.status_words(g, uid)))
    return rows


def _pct(p: Any) -> str:
    return f"{int(Fraction(p) * 100 + Fraction(1, 2))} %"


def odds_summary(odds: dict[str, Any]) -> str:
    if "hit_each" in odds:
        shots = odds.get("shots", 1)
        each = _pct(odds["hit_each"])
        return f"Fire {odds.get('fire')}: hits on {odds.get('fire')}+ ({each})" + (
            f", {shots} shots (canister)" if shots > 1 else "")
    chances = odds.get("chances") or {}
    if "column" not in odds or not chances:
        return ""
    shift = odds.get("shifts") or []
    shifts = sum(int(s[1]) if isinstance(s, (list, tuple)) else 0 for s in shift) if isinstance(shift, list) else shift
    drm = odds.get("drm", 0)
    best = ", ".join(f"{result_words(k)} {_pct(p)}" for k, p in sorted(chances.items(), key=lambda kv: -kv[1]))
    return (f"Melee {odds.get('attacker_cs')} vs {odds.get('defender_cs')}: {column_words(odds['column'])}"
            f" (shifts {shifts:+d}, DRM {drm:+d}) · {best}")


#: a Melee Table column's header as the CS difference it covers (R8.6): the source heads them
#: "-2-3", which reads like arithmetic
COLUMN_WORDS = {"-7": "-7 or less", "-4-6": "-6 to -4", "-2-3": "-3 to -2", "-1": "-1", "0": "0",
                "+1": "+1", "+2-3": "+2 to +3", "+4-6": "+4 to +6", "+7": "+7 or more"}


def column_words(column: Any) -> str:
    """``column -3 to -2``: the Melee Table column a melee is resolved on."""
    return f"column {COLUMN_WORDS.get(str(column), column)}"


def result_words(result: str) -> str:
    """``D2`` -> ``they lose 2``: a Melee Table result as the attacker reads it (R8.7); the
    Roos-column asterisk only matters when Swedes storm a redoubt, and is kept as a mark."""
    star = "*" if result.endswith("*") else ""
    core = result.rstrip("*")
    if core == "EX":
        return f"both lose 1{star}"
    if core[:1] == "D":
        return f"they lose {core[1:]}{star}"
    if core[:1] == "A":
        return f"you lose {core[1:]}{star}"
    return result


def player_aid(ruleset: Any, g: Any) -> list[tuple[str, list[str]]]:
    st = g.state
    first = st.side_order[0] if st.side_order else None
    seq = []
    if st.phase == "setup":
        seq.append("> 0. Set-up: roll the pre-battle losses (S1)")
    for half, side in (("A", first), ("B", other(first) if first else None)):
        for i, phase in enumerate(("move", "fire", "melee"), 1):
            now = st.phase == phase and st.active == side
            name = next((s.name for s in g.scenario.sides if s.id == side), side)
            seq.append(f"{'> ' if now else '  '}{half}{i}. {name}: {PHASE_TITLES[phase]}")
    seq.append("  C. End of turn: the turn marker advances (R3)")
    crt = ["Melee Table (R8.6): column = attacker CS - defender CS, then shifts; roll 1d6 + DRM.",
           "  die  " + " ".join(f"{c:>5}" for c in COLUMNS)]
    for row, results in CRT_ROWS.items():
        crt.append(f"  {row:>3}  " + " ".join(f"{r:>5}" for r in results))
    crt += ["  A/D n: attacker/defender loses n steps and retreats n hexes · EX: both lose one step, nobody",
            "  retreats · *: when Swedes storm a redoubt, one battalion joins the Roos column (R8.7, S2-4)",
            "Fire (R6.4): roll 1d6; a roll at or above the unit's Fire value is a hit (one step)."]
    tec = [f"{code}: {text}" for code, text in ruleset.terrain_types.items()]
    tec.append("hexsides: stream +1 MP; retrenchment +1 MP and no cavalry; impassable river; Redoubt Line")
    units = []
    for kind, t in UNIT_TYPES.items():
        bits = [f"CS {t['cs']}/{t['rcs']}"]
        if t["fire"]:
            bits.append(f"fire {t['fire']}/{t['rfire']}")
        bits.append(f"MA {t['ma']}")
        if t["stars"] or t["rstars"]:
            bits.append(f"stars {t['stars']}/{t['rstars']}")
        units.append(f"{TYPE_NAMES.get(kind, kind)} ({ARMS.get(t['arm'], t['arm'])}): "
                     + ", ".join(bits) + "  (full/reduced)")
    return [("Sequence of play", seq), ("Combat tables", crt), ("Terrain effects (TEC)", tec),
            ("Counters", units)]


# ---------------------------------------------------------------------------- orders and events
def _where(g: Any, u: Any) -> str:
    return g.map.label(Hex(*u.hex)) if u.hex is not None else "off the map"


def _counter(u: Any) -> str:
    """``full CS 4`` / ``reduced CS 2``: the side of the counter up and what it fights with."""
    if arm(u) == "leader":
        return "leader"
    return f"{'reduced' if reduced(u) else 'full'} CS {cs_of(u)}"


def order_words(g: Any, order: Any) -> str:
    """A step loss says where the unit stands and what the loss does to the counter, so the
    owner can choose (R8.7, S1 set-up); the other orders keep the generic words."""
    units = g.state.units

    def label(h: Any) -> str:
        return g.map.label(Hex(h[0], h[1]))

    def name(uid: Any) -> str:
        return (units[uid].name or uid) if uid in units else str(uid)
    if order.kind == "move":
        path = order.get("path") or ()
        if not path:
            return ""
        mode = _MOVE_MODES.get(order.get("mode", "normal"), "")
        via = "\u2192".join(label(h) for h in path)
        return f"move {name(order.get('unit'))} to {label(path[-1])}{mode} (via {via})"
    if order.kind == "attack":
        hexes = ", ".join(label(h) for h in order.get("hexes") or ())
        with_ = ", ".join(name(uid) for uid in order.get("units") or ())
        return f"attack {hexes} with {with_}" if hexes and with_ else ""
    if order.kind != "lose":
        return ""
    u = g.state.units.get(order.get("unit"))
    if u is None:
        return ""
    after = f"reduced CS {stat(u, 'rcs')}" if u.max_strength >= 2 and not reduced(u) else "eliminated"
    return f"{u.name or u.id}, {_where(g, u)}, {_counter(u)} \u2192 {after}"


_MOVE_MODES = {"road": " by road", "long": " in long movement"}


def event_words(g: Any, ev: dict[str, Any]) -> str | None:
    """A log line for the events a player reads most; None keeps the generic line."""
    t = ev.get("t")
    units = g.state.units

    def name(uid: Any) -> str:
        return units[uid].name or uid if uid in units else str(uid)

    uid = ev.get("unit")
    if t == "die-roll" and "column" in ev:  # the melee die: its column in words, as the melee line
        return f"\u2684 {ev.get('why', 'roll')}: d{ev.get('sides', 6)} = {ev.get('value')} " \
               f"({column_words(ev['column'])})"
    if t == "melee":
        att = ", ".join(name(a) for a in ev.get("attackers", []))
        shifts = ev.get("shifts") or []
        why = "; ".join(f"{s[0]} {int(s[1]):+d}" for s in shifts if isinstance(s, (list, tuple)) and len(s) == 2)
        return (f"melee: {att} (CS {ev.get('attacker_cs')}) attack {', '.join(ev.get('hexes', []))}"
                f" (CS {ev.get('defender_cs')}): {column_words(ev.get('column'))}"
                + (f" after shifts ({why})" if why else "") + f", DRM {int(ev.get('drm', 0)):+d}")
    if t == "melee-result":
        res = str(ev.get("result"))
        return f"melee result {res} ({result_words(res)}): roll {ev.get('roll')}, DRM {int(ev.get('drm', 0)):+d}"
    if t == "reduced" and uid in units:
        return f"{name(uid)} loses a step: reduced side up, CS {cs_of(units[uid])}"
    if t == "eliminated":
        div = next((d.name for d in g.scenario.divisions if d.id == ev.get("division")), None)
        into = f", into the rout box of {div}" if ev.get("counted") and div else ""
        return f"{name(uid)} eliminated{into}"
    if t == "hit":
        return f"fire: {name(uid)} hits {name(ev.get('target'))}"
    if t == "moves":
        return f"{name(uid)} moves to {ev.get('to')}{_MOVE_MODES.get(str(ev.get('mode')), '')}"
    if t in ("retreats", "pursues", "withdraws", "displaced"):
        verb = {"displaced": "is displaced"}.get(t, t)
        return f"{name(uid)} {verb} to {ev.get('to')}"
    if t == "leader-moves":
        return f"{name(uid)} rides to {ev.get('to')}"
    if t == "enters":
        return f"{name(uid)} enters the map at {ev.get('hex')}"
    if t == "blocked-retreat-loss":
        return f"{name(uid)} has no retreat left and loses a step instead (R8.9.2)"
    if t == "leader-lost":
        div = next((d.name for d in g.scenario.divisions if d.id == ev.get("division")), None)
        return f"{name(ev.get('leader'))} is lost (R9.5)" + (f": one more in the rout box of {div}" if div else "")
    if t == "redoubt-captured":
        return f"the Swedes take {name(ev.get('redoubt'))} (S2-2.3)"
    if t == "joins-roos-column":
        return f"{name(uid)} joins Roos's column"
    if t == "division-routs":
        return f"{ev.get('name', ev.get('division'))} ROUTS (R10.1)"
    return None
