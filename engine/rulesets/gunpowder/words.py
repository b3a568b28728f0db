"""Age of Gunpowder in the player's words: why a unit cannot act, the unit card with its
formation, the combat preview (exact odds first), the side status and the player aid. The
Ancients words are reused and put in this set's terms (rules.gunpowder_words)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...hexgrid import Hex, hex_distance
from ...orders import Order
from ..ancients import board
from ..ancients import words as ancients_words
from ..ancients.units import HIT_ON, HIT_TABLE
from .refusals import gunpowder_words
from .units import FORMATIONS, SQUARE_FROM, UNIT_TYPES, formations_of, shoots_in, year

PHASE_NAMES = {"engines": "Artillery Phase: batteries in firing formation fire (5.5)",
               "engine-fire": "Artillery fire",
               "initiative": "Initiative: both roll 1d6, the higher goes first (5.5)",
               "activation": "Activation: move, change formation, shoot, attack (5.5)"}
#: preview and event fields in the player's words (Ruleset.field_name); "kind" is left out
FIELD_NAMES = {"need": "score needed on the die", "hit_on": "score before modifiers",
               "total_modifier": "modifiers in all", "first_round": "first round of the melee",
               "defender_hit": "chance the defender is hit", "attacker_hit": "chance the attacker is hit",
               "hit": "hit", "miss": "miss"}
PHASE_TITLES = {"initiative": "Initiative", "engines": "Artillery Phase", "engine-fire": "Artillery fire",
                "activation": "Activation"}
STAT_WORDS = {"move": "movement", "range": "range"}
MARK_WORDS = {"done": "activated this turn", "moved": "has moved", "shot": "has shot",
              "melee": "has fought a melee", "formed": "changed formation",
              "engine_fired": "fired in the Artillery Phase", "reserve": "in reserve"}

#: 5.6 melee rows, as the player aid prints them; "designed" marks what 5.6 completes
MELEE_ROWS = [
    ("attacking a flank or rear", "+1", "as 4.10"),
    ("cavalry attacking", "+1", "5.6, designed"),
    ("infantry in column attacking", "+1", "5.6, designed"),
    ("friendly commander in the cell", "+1", "5.6"),
    ("attacked in flank or rear", "-1", "as 4.10"),
    ("  a square has no flank or rear", "", "5.6, designed"),
    ("cavalry attacking a square", "-2", "5.6, designed"),
    ("artillery in melee", "-1", "5.6, designed"),
    ("skirmishers in open order", "-1", "5.6, designed"),
    ("enemy higher, in cover, fortified", "-1", "as 4.10"),
    ("defending in a river", "-1", "as 4.12"),
    ("melee in a forest (both)", "-1", "as 4.12"),
]


def _words(reason: str | None, kind: str) -> str | None:
    return gunpowder_words(reason, kind)


def why_not(ruleset: Any, g: Any, uid: str, h: Hex) -> str | None:
    """Ancients' answer, with the Gunpowder steps (5.5, 5.6) checked first."""
    st = g.state
    u = st.units.get(uid)
    if u is not None and u.alive and st.phase == "activation" and not st.pending and st.result is None:
        enemy = board.main_unit_at(st, h)
        if enemy is not None and enemy.side != u.side and ruleset._activation_blocker(g, u) is None:
            kind = "melee" if hex_distance(Hex(*u.hex), h) == 1 else "shoot"
            why = ruleset.step_blocker(g, Order.make(kind, unit=u.id, target=list(h)), u)
            if why:
                return why
    return _words(ancients_words.why_not(ruleset, g, uid, h), "move")


def _formation_line(stats: dict[str, Any]) -> str:
    fam = FORMATIONS.get(str(stats.get("family")), {})
    moves = ", ".join(f"{f} {spec['move']}" for f, spec in fam.items())
    shoots = shoots_in(stats)
    tail = f"; shoots in {' or '.join(shoots)}" if shoots and stats.get("reach") else ""
    return f"moves {moves}{tail}"


def unit_card(ruleset: Any, g: Any, uid: str) -> list[tuple[str, str]]:
    """Ancients' card (strength, movement and range in the current formation, facing, class),
    plus the formation and what each formation allows (5.1, 5.6)."""
    u = g.state.units[uid]
    rows = [r for r in ancients_words.unit_card(ruleset, g, uid) if r[0] != "traits"]
    form = str(u.stats.get("formation", ""))
    extra = " (faces all round: no flank or rear, 5.6)" if u.stats.get("all_round") else ""
    at = 1
    rows.insert(at, ("formation", form + extra))
    rows.insert(at + 1, ("formations", _formation_line(u.stats) + " (5.1)"))
    if form == "square" or (form in formations_of(u.stats) and "square" in formations_of(u.stats)
                            and year(g.scenario) < SQUARE_FROM):
        rows.insert(at + 2, ("square", f"only after {SQUARE_FROM} (5.1); this battle: {year(g.scenario)}"))
    reach = int(u.stats.get("reach", 0))
    if reach:
        now = "" if u.stats.get("range") else f"; not in {form} (5.6)"
        rng = f"{reach}{now}"
    else:
        rng = "adjacent (melee only)" if u.stats.get("family") == "cavalry" else "none"
    rows = [(k, rng if k == "range" else v) for k, v in rows]
    return [(k, _words(v, "") or v) for k, v in rows]


def _exact(p: Any) -> str:
    """``1/2 = 50 %``: the chance as a fraction of 6 first, then rounded."""
    fr = Fraction(p)
    pct = int(fr * 100 + Fraction(1, 2))
    return f"{fr.numerator}/{fr.denominator} = {pct} %" if 0 < fr < 1 else f"{pct} %"


def _needs(need: Any, chance: Any) -> str:
    return ancients_words._needs(need, chance, _exact)


def odds_summary(g: Any, order: Order, odds: dict[str, Any]) -> str:
    """The exact chances first, then the modifiers that make them."""
    if not odds:
        return ""

    def mods(side: dict[str, Any] | None) -> str:
        rows = (side or {}).get("modifiers") or []
        return ", ".join(f"{n} {v:+d}" for n, v in rows) or "no modifiers"

    if odds.get("kind") == "melee":
        a, d = odds.get("attacker") or {}, odds.get("defender")
        line = f"Melee: you hit on {_needs(a.get('need'), odds.get('hit'))}"
        if d:
            line += f" · they hit on {_needs(d.get('need'), odds.get('defender_hit'))}"
        else:
            line += " · they cannot hit back"
        line += f" · yours: {mods(a)}"
        if d:
            line += f"; theirs: {mods(d)}"
        return line
    what = "Artillery fire" if odds.get("kind") == "engine" else "Shooting"
    return f"{what}: you hit on {_needs(odds.get('need'), odds.get('hit', 0))} · no return fire · {mods(odds)}"


def status_lines(g: Any, side: str) -> list[str]:
    return [_words(x, "") or x for x in ancients_words.status_lines(g, side)]


def event_words(g: Any, event: Any) -> str | None:
    if event.get("t") == "formation":
        return f"{event.get('unit')} changes formation from {event.get('frm')} to {event.get('to')} (5.6)"
    return None


def player_aid(ruleset: Any, g: Any) -> list[tuple[str, list[str]]]:
    now = g.state.phase
    seq = [f"{'> ' if p == now or (p == 'engines' and now == 'engine-fire') else '  '}{i}. {name}"
           for i, (p, name) in enumerate(((p, n) for p, n in PHASE_NAMES.items() if p != "engine-fire"), 1)]
    seq += ["  An activation (5.5): Move; Move and Change formation;",
            "  Change formation and Move; Move and Shoot; Change formation",
            "  and Shoot; Move and Attack. Designed (5.6): Change formation",
            "  only, and Ancients' Shoot then Move, Attack then withdraw.",
            "  Then the other side; at the end of the turn, exhaustion (5.4).",
            "  The Artillery Phase body is designed (5.6, as Ancients 4.7.1)."]
    combat = [f"Shooting and melee: 1d6 + modifiers, {HIT_ON}+ hits (as 4.9, 4.10).",
              "Who shoots (5.6, designed): line infantry in line or square;",
              "  skirmishers in line or open order; artillery only in firing",
              "  formation, only in the Artillery Phase; columns, cavalry never.",
              "  Howitzers may fire without sight at -1 (designed).",
              "Shooting: +1 not moved, +1 commander with it, -1 target in cover.",
              "Melee modifiers (5.6):",
              *(f"  {v:>2}  {n} ({ref})" for n, v, ref in MELEE_ROWS),
              "Hit effect (5.6 as 4.11), the unit hit rolls 1d6:",
              "  class       lose 1 SP     retreat 1 or lose 1 SP",
              *(f"  {grade:<11} 1-{n:<11} {n + 1}-6" for grade, n in HIT_TABLE.items()),
              "  A unit that cannot retreat loses 1 SP."]
    terrain = [f"{code}: {text}" for code, text in ruleset.terrain_types.items()]
    units = []
    for kind, st in UNIT_TYPES.items():
        bits = [f"strength {st.get('strength')}", _formation_line(st)]
        if st.get("reach"):
            bits.append(f"range {st.get('reach')}")
        units.append(f"{st.get('name', kind)} ({kind}): " + ", ".join(bits))
    units.append(f"Square only after {SQUARE_FROM} (5.1); this battle is dated {year(g.scenario)}.")
    units.append("Exhaustion point = 1/3 of the army's SP, rounded up (5.4); commanders count 6.")
    return [("Sequence of play", seq), ("Combat and hits", combat), ("Terrain effects", terrain),
            ("Unit types", units)]
