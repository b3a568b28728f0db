"""Ancient Battles in the player's words: why a unit cannot act at a hex, the unit card, a
one-line combat preview, the side status and the player aid (portable-wargame.md section 4).
Everything here reads the same rule functions the ruleset judges orders with."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...hexgrid import Hex, hex_distance
from ...orders import Order
from ...state import Unit
from . import board, melee, movement, shooting
from .units import (ELEPHANT_HIT_TABLE, HIT_ON, HIT_TABLE, UNIT_TYPES, is_commander, is_elephant,
                    may_enter, rule)

PHASE_NAMES = {"initiative": "Initiative (both roll, higher goes first, 4.7)",
               "engines": "Missile-Engine Phase (4.7.1)",
               "engine-fire": "Missile-Engine fire",
               "activation": "Activation: each unit moves, shoots or attacks (4.7)"}
#: preview and event fields in the player's words (Ruleset.field_name); "kind" is left out
FIELD_NAMES = {"need": "score needed on the die", "hit_on": "score before modifiers",
               "total_modifier": "modifiers in all", "first_round": "first round of the melee",
               "defender_hit": "chance the defender is hit", "attacker_hit": "chance the attacker is hit",
               "hit": "hit", "miss": "miss"}
PHASE_TITLES = {"initiative": "Initiative", "engines": "Missile engines", "engine-fire": "Engine fire",
                "activation": "Activation"}
STAT_WORDS = {"move": "movement", "range": "range"}
MARK_WORDS = {"done": "activated this turn", "moved": "has moved", "shot": "has shot",
              "melee": "has fought a melee", "dashed": "rolled for a dash", "pila": "pila thrown",
              "rampage": "rampaging", "reserve": "in reserve"}


def _name(u: Unit) -> str:
    return u.id  # the UI turns ids into the player's names


def why_not(ruleset: Any, g: Any, uid: str, h: Hex) -> str | None:
    st = g.state
    u = st.units.get(uid)
    if u is None or not u.alive:
        return "that unit is not on the map"
    if st.result is not None:
        return "the game is over"
    if st.pending:
        p = st.pending[0]
        return f"the pending {p['kind'].replace('-', ' ')} decision must be answered first"
    if st.phase == "initiative":
        return "no unit acts in the Initiative phase: end it to roll for who goes first (4.7)"
    if st.phase in ("engines", "engine-fire"):
        if shooting.mode_of(g, u) != "engine":
            return "only Missile Engines act in the Missile-Engine Phase (4.7.1)"
        why = shooting.unit_blocker(g, u, "engine")
        return why or shooting.target_blocker(g, u, h, "engine")
    why = ruleset._activation_blocker(g, u)
    if why:
        return with_rule(why, "4.7")
    if u.hex is not None and Hex(*u.hex) == h:
        return None
    enemy = board.main_unit_at(st, h)
    if enemy is not None and enemy.side != u.side:
        return _attack_reason(g, u, h)
    return _move_reason(g, u, h)


def with_rule(reason: str | None, rule: str) -> str | None:
    """``reason`` naming its rule: the section it comes from is added when it names none."""
    if reason is None or "(" in reason:
        return reason
    return f"{reason} ({rule})"


def _attack_reason(g: Any, u: Unit, h: Hex) -> str | None:
    if hex_distance(Hex(*u.hex), h) == 1:
        if is_commander(u.stats):
            return "a Commander only moves; he does not attack (4.7)"
        return with_rule(melee.unit_blocker(g, u) or melee.target_blocker(g, u, h), "4.10")
    mode = shooting.mode_of(g, u)
    if mode is None:
        return f"{_name(u)} has no missile weapons and the enemy is not adjacent (4.9)"
    if mode == "engine":
        return "Missile Engines shoot only in the Missile-Engine Phase (4.7.1)"
    return with_rule(shooting.unit_blocker(g, u, mode) or shooting.target_blocker(g, u, h, mode), "4.9")


def _move_reason(g: Any, u: Unit, h: Hex) -> str | None:
    why = movement.move_blocker(g, u)
    if why:
        return with_rule(why, "4.8")
    if movement.routes(g, u).get(h) is not None:
        return None
    terrain = g.map.terrain_at(h)
    type_name = str(u.stats.get("name") or u.kind)
    if not may_enter(u.stats, terrain):
        return f"{type_name} may not enter {terrain} (4.8 terrain table)"
    others = [x for x in g.state.unit_at(h) if x.alive and x.id != u.id]
    if others and not is_commander(u.stats):
        return "only one unit per cell; a Commander may share a friendly cell (4.8.8)"
    allowance = movement.allowance(g, u)
    dist = hex_distance(Hex(*u.hex), h)
    if dist > allowance:
        return f"{dist} cells away; {_name(u)} may move {allowance} this turn (4.8)"
    if is_elephant(u.stats):
        return "a War Elephant moves in a straight line along its facing (4.8.7)"
    return ("no way there this turn: entering a cell next to an enemy, or a forest, river or village, "
            "stops a move (4.8.9, 4.8 terrain table)")


def unit_card(ruleset: Any, g: Any, uid: str) -> list[tuple[str, str]]:
    """The base card, plus what the counter's type says: heavy or light, forest, dash, and the
    hit roll that costs it a strength point (4.11)."""
    u = g.state.units[uid]
    rows = [r for r in ruleset.base_unit_card(g, uid) if r[0] != "status"]
    traits = [w for key, w in (("heavy", "heavy"), ("light", "light"), ("forest", "may enter forest"),
                               ("dash", "may dash")) if u.stats.get(key)]
    if u.stats.get("special"):
        traits.append(str(u.stats["special"]).replace("-", " "))
    if traits:
        rows.append(("traits", ", ".join(traits)))
    if not is_commander(u.stats):
        special = is_elephant(u.stats) and rule(g.scenario, "elephant_hit_table")
        table, ref = (ELEPHANT_HIT_TABLE, "4.13") if special else (HIT_TABLE, "4.11")
        rows.append(("when hit", f"loses 1 strength on 1-{table.get(u.grade, 3)}, else retreats or loses 1 ({ref})"))
    rows.append(("status", ruleset.status_words(g, uid)))
    return rows


def _pct(p: Any) -> str:
    return f"{int(Fraction(p) * 100 + Fraction(1, 2))} %" if isinstance(p, (int, Fraction)) else str(p)


def _needs(need: Any, chance: Any, chance_words: Any = _pct) -> str:
    """``4+ (50 %)`` for a d6 roll that needs ``need`` or more; ``chance_words`` says the chance
    (Age of Gunpowder gives the exact fraction first)."""
    if not isinstance(need, int):
        return "?"
    if need > 6:
        return "never (0 %)"
    if need <= 1:
        return "always (100 %)"
    return f"{need}+ ({chance_words(chance)})"


def odds_summary(g: Any, order: Order, odds: dict[str, Any]) -> str:
    if not odds:
        return ""
    if odds.get("kind") == "melee":
        a, d = odds.get("attacker") or {}, odds.get("defender")
        line = f"Melee: you hit on {_needs(a.get('need'), odds.get('hit'))}"
        if d:
            line += f" · they hit on {_needs(d.get('need'), odds.get('defender_hit'))}"
        else:
            line += " · they cannot hit back"
        return line
    what = "Engine fire" if odds.get("kind") == "engine" else "Shooting"
    return f"{what}: you hit on {_needs(odds.get('need'), odds.get('hit', 0))} · no return fire"


def status_lines(g: Any, side: str) -> list[str]:
    s = g.state.sides.get(side) or {}
    lost, ep, initial = s.get("lost", 0), s.get("ep", 0), s.get("initial", 0)
    line = f"lost {lost} of {initial}; exhausted at {ep} (4.6)"
    if s.get("exhausted"):
        line = f"EXHAUSTED (turn {s.get('exhausted_turn')}): no attacks (4.6)"
    return [line]


def player_aid(ruleset: Any, g: Any) -> list[tuple[str, list[str]]]:
    now = g.state.phase
    seq = [f"{'> ' if p == now or (p == 'engines' and now == 'engine-fire') else '  '}{i}. {name}"
           for i, (p, name) in enumerate(((p, n) for p, n in PHASE_NAMES.items() if p != "engine-fire"), 1)]
    seq.append("  Then the other side activates; at the end of the turn both check their exhaustion point (4.6).")
    hits = [f"Shooting and melee: roll 1d6 + modifiers; {HIT_ON} or more is a hit (4.9, 4.10).",
            "Hit effect (4.11), the unit hit rolls 1d6:",
            "  class       lose 1 SP     retreat 1 or lose 1 SP",
            *(f"  {grade:<11} 1-{n:<11} {n + 1}-6" for grade, n in HIT_TABLE.items()),
            "  A unit that cannot retreat loses 1 SP. War Elephants use their own table:",
            *(f"  {grade:<11} 1-{n:<11} {n + 1}-6" for grade, n in ELEPHANT_HIT_TABLE.items())]
    terrain = [f"{code}: {text}" for code, text in ruleset.terrain_types.items()]
    units = []
    for kind, st in UNIT_TYPES.items():
        bits = [f"strength {st.get('strength')}", f"move {st.get('move')}"]
        if st.get("range"):
            bits.append(f"range {st.get('range')}")
        bits += [w for key, w in (("heavy", "heavy"), ("light", "light"), ("dash", "dash")) if st.get(key)]
        units.append(f"{st.get('name', kind)} ({kind}): " + ", ".join(bits))
    return [("Sequence of play", seq), ("Combat and hits", hits), ("Terrain effects", terrain),
            ("Unit types", units)]
