"""Frontier in the player's words: why a unit cannot act at a hex, the unit card, a one-line
combat preview, the side status and the player aid (portable-wargame.md section 3). It asks the
same rule functions that judge orders."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex

from . import artillery, melee
from . import movement as mv
from . import units as U

#: preview and event fields in the player's words (Ruleset.field_name); "kind" is left out
FIELD_NAMES = {"attacker_base": "attacker's base score", "attacker_strength": "attacker's strength",
               "defender_base": "defender's base score", "defender_strength": "defender's strength",
               "attacker_modifiers": "attacker's modifiers", "defender_modifiers": "defender's modifiers",
               "attacker_destroyed": "only the attacker destroyed", "defender_destroyed": "only the defender destroyed",
               "both_destroyed": "both destroyed", "neither_destroyed": "neither destroyed",
               "enemy_destroyed": "an enemy destroyed", "friendly_destroyed": "one of yours destroyed",
               "landing": "where the shell lands", "destroy": "chance each is destroyed",
               "friendly_fire": "may hit your own", "kills_on": "destroys on", "roller": "rolled by"}
PHASE_TITLES = {"artillery": "Artillery", "move": "Move", "combat": "Combat"}
STAT_WORDS = {"move": "movement (cells)", "range": "range", "climb": "hill levels it may climb"}
SEQUENCE = (("artillery", "Artillery fire, both sides at once; losses after all have fired (3.3.1-2)"),
            (None, "Both roll 1d6: the higher moves first this turn (3.3.3)"),
            ("move", "First player moves (3.5)"),
            ("combat", "First player fights; combat is compulsory for units facing an enemy (3.6)"),
            ("move", "Second player moves"),
            ("combat", "Second player fights"))


def why_not(ruleset: Any, g: Any, uid: str, h: Hex) -> str | None:
    state, hmap = g.state, g.map
    u = state.units.get(uid)
    if u is None or not u.alive:
        return "that unit is not on the map"
    if state.result is not None:
        return "the game is over"
    if state.pending:
        return f"the pending {state.pending[0]['kind']} decision must be answered first"
    if state.phase == "artillery" and not U.is_artillery(u):
        return "only artillery acts in the artillery phase (3.3)"
    if u.side != state.active:
        return f"it is not {u.side}'s phase"
    if u.hex is not None and Hex(*u.hex) == h:
        return _unit_reason(ruleset, g, u)
    if state.phase == "artillery":
        return artillery.validate_fire(hmap, state, u, h)
    if state.phase == "combat":
        enemy = next((x for x in state.units.values() if x.alive and x.hex == h and x.side != u.side), None)
        if enemy is None:
            return "units do not move in the combat phase; they attack an enemy they face (3.6.1)"
        if not U.may_attack(u):
            return "artillery does not start a melee (3.6, G-F16)"
        if melee.attacked(u, state.turn):
            return f"{u.id} has already attacked this turn (3.6.2)"
        faced = mv.in_contact_with(state, u)
        if faced is None or faced.id != enemy.id:
            return f"{u.id} does not face that enemy: combat needs contact at the end of movement (3.6.1)"
        return None
    if state.phase != "move":
        return f"nothing happens in the {state.phase} phase"
    why = ruleset._move_refusal(state, u)
    if why:
        return why
    if U.is_fixed(u):
        return f"{u.id} cannot move; it may only pivot (3.2, G-F11)"
    if h in mv.reachable(hmap, state, u):
        return None
    if any(x.alive and x.hex == h for x in state.units.values()):
        return "that cell is occupied (one unit per cell)"
    return (f"out of reach this turn: {u.id} moves {U.allowance(u)} cells; rivers cost 2, hills limit "
            f"the climb, and an enemy's front stops a move (3.5)")


def _unit_reason(ruleset: Any, g: Any, u: Any) -> str | None:
    """Why the unit itself can do nothing this phase (None when it has an order)."""
    for o in ruleset.legal_orders(g):
        if o.get("unit") == u.id or u.id in (o.get("attackers") or ()):
            return None
    state = g.state
    if state.phase == "artillery":
        if artillery.fired(u, state.turn):
            return f"{u.id} has already fired this turn (3.4.5)"
        return f"no enemy within {u.id}'s range and field of fire (3.4.3, 3.4.4)"
    if state.phase == "move":
        return ruleset._move_refusal(state, u) or f"{u.id} has nowhere to go (3.5)"
    if state.phase == "combat":
        if not U.may_attack(u):
            return "artillery does not start a melee (3.6, G-F16)"
        if melee.attacked(u, state.turn):
            return f"{u.id} has already attacked this turn (3.6.2)"
        return f"{u.id} faces no enemy: combat needs contact at the end of movement (3.6.1)"
    return None


def _pct(p: Any) -> str:
    return f"{int(Fraction(p) * 100 + Fraction(1, 2))} %"


def odds_summary(odds: dict[str, Any]) -> str:
    if odds.get("kind") == "attack":
        return (f"Melee: you destroy it on {odds['attacker_strength']} or less ({_pct(odds['defender_destroyed'])})"
                f" · it destroys yours on {odds['defender_strength']} or less ({_pct(odds['attacker_destroyed'])})")
    if odds.get("kind") == "fire":
        return (f"{str(odds.get('fire', '')).capitalize()} fire: {_pct(odds['enemy_destroyed'])} to destroy an enemy"
                f" · {_pct(odds['friendly_destroyed'])} to hit your own")
    return ""


def unit_card(ruleset: Any, g: Any, uid: str) -> list[tuple[str, str]]:
    u = g.state.units[uid]
    rows = [r for r in ruleset.base_unit_card(g, uid) if r[0] != "status"]
    rows.insert(1, ("class", U.unit_class(u).replace("-", " ")))
    rows.append(("combat strength", f"{U.combat_strength(u)} (destroys on a roll of that or less, 3.6.13)"))
    if U.is_fixed(u):
        rows.append(("fixed", "cannot move, may pivot"))
    said = []
    if u.marks.get("moved") == g.state.turn:
        said.append("has moved")
    if artillery.fired(u, g.state.turn):
        said.append("has fired")
    if melee.attacked(u, g.state.turn):
        said.append("has attacked")
    rows.append(("status", ", ".join(said) or "ready"))
    return rows


def status_lines(g: Any, side: str) -> list[str]:
    s = g.state.sides.get(side) or {}
    return [f"lost {s.get('lost', 0)} of {s.get('start_units', 0)} units"]


def player_aid(ruleset: Any, g: Any) -> list[tuple[str, list[str]]]:
    now = g.state.phase
    first = g.state.vars.get("first")
    second_half = first is not None and g.state.active != first
    seq = []
    for i, (phase, text) in enumerate(SEQUENCE):
        current = phase == now and (phase == "artillery" or (i >= 4) == second_half)
        seq.append(f"{'> ' if current else '  '}{i + 1}. {text}")
    fire = ["Artillery (3.4): 1d6 for where the shell lands: 5-6 on target, 1 left, 2 over, 3 right, 4 short.",
            "Then whoever is in the cell it lands in is destroyed on:"]
    for kind, (cmd, other) in artillery.EFFECT.items():
        fire.append(f"  {kind:<9} fire: a commander on {', '.join(map(str, cmd))}; any other unit on "
                    f"{', '.join(map(str, other))}")
    fight = ["Melee (3.6): each side rolls 1d6; a roll at or under its Strength destroys the other.",
             "  attacked by 2/3/4 units: defender -1/-2/-3 · attacking up 1/2 hill levels: -1/-2",
             "  attacked from lower ground: defender +1 · defending in a river: -1",
             "  cavalry attacking into, or attacked in, a forest: -1 · Strength never below 1"]
    terrain = [f"{code}: {text}" for code, text in ruleset.terrain_types.items()]
    units = []
    for kind, st in ruleset.unit_types.items():
        units.append(f"{st.get('name', kind)} ({kind}): {st.get('class')}, strength {st.get('strength')}, "
                     f"move {st.get('move')}" + (f", range {st['range']}" if st.get("range") else ""))
    return [("Sequence of play", seq), ("Artillery fire", fire), ("Melee", fight),
            ("Terrain effects", terrain), ("Unit types", units)]
