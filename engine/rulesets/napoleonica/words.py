"""Napoleonica in the player's words: the unit card (formation, state, stands, the clock facing
of 21.4), why a unit has no order at a hex (reason and rule number), the one-line d20 odds of a
fire, attack, melee or rally, the zones of a unit for the map, and the player aid built from
``data.py`` with the source's [S] and the designed [P] parts told apart.

It asks the rule functions that judge orders; it decides nothing itself. The ruleset class
takes these answers through the ``Words`` mixin at the bottom.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.orders import Order

from . import actors as AC
from . import attack as A
from . import board as B
from . import data as D
from . import fire as F
from . import melee as M
from . import movement as MV
from .geometry import Box, centre
from .turn import PHASES

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.state import Unit

#: vertex facing index (geometry.py) -> the clock position it points at (21.4)
CLOCK = (2, 12, 10, 8, 6, 4)
#: hexside direction (hexgrid numbering) -> its name in 21.1
SIDE_NAMES = ("E", "NE", "NW", "W", "SW", "SE")

#: preview and event fields in the player's words (Ruleset.field_name); "kind" is left out
FIELD_NAMES = {"base": "base chance"}
PHASE_TITLES = {"start": "Before the battle", "deployment": "Deployment", "attack": "Attack",
                "appearance": "Appearance", "movement": "Movement", "fire": "Fire",
                "morale": "Morale check", "melee": "Melee"}
_PHASE_AID = {
    "attack": "Attack [S 7]: roll-off; alternate: charge or pass",
    "appearance": "Appearance [S 8]: roll-off; rallied units, reserves",
    "movement": "Movement [S 9]: roll-off; blocks of four pieces",
    "fire": "Fire [P 22.2]: roll-off; hits land at the end",
    "morale": "Morale check [P 22.3]: all tests at once",
    "melee": "Melee [P 22.4]: roll-off; choose melees in turn",
}
FORMATION_WORDS = {"line": "line", "column": "column", "square": "square",
                   "limbered": "limbered (on the march)", "unlimbered": "unlimbered (firing position)",
                   "gunners": "gunners out, the gun left behind", "standard": "no formation"}
STATE_WORDS = {"formed": "formed", "disordered": "disordered",
               "fleeing": "fleeing (off the table; may try to rally in the Movement phase, 14)",
               "restored": "rallied (off the table; may appear from the next turn, 8.1)",
               "reserve": "in reserve (off the table)", "deploy": "waiting to be deployed (22.10)",
               "joined": "joined into another unit (4.4)", "destroyed": "destroyed",
               "captured": "captured"}
MARK_WORDS = {"acted": "has acted", "fired": "has fired", "attacked": "has attacked",
              "targeted": "was attacked", "hit": "was hit"}
#: how far from a unit the map shows its zones: the attack distance of 21.3 (d <= 3)
ZONE_REACH = D.ATTACK_REACH + 1


# --- small words ---------------------------------------------------------------------------------
def percent(p: Fraction) -> str:
    """An exact chance as a percentage: whole when it is whole, else to one decimal."""
    value = p * 100
    if value.denominator == 1:
        return f"{value.numerator} %"
    tenths = round(value * 10)          # exact: a Fraction rounds without a float
    return f"{tenths // 10}.{tenths % 10} %"


def chance(pair: tuple[int, int]) -> Fraction:
    num, den = pair
    return Fraction(num, den) if den else Fraction(0)


def clock_words(f: int) -> str:
    """``12 o'clock (front NW, NE)``: a vertex facing as 21.4 names it, with the two front
    hexsides (front-left first)."""
    a, b = (f % 6, (f + 1) % 6)
    return f"{CLOCK[f % 6]} o'clock (front {SIDE_NAMES[b]}, {SIDE_NAMES[a]})"


def facing_words(u: "Unit") -> str:
    if B.garrison(u):
        return "none: a garrison faces all round"
    if B.facing(u) is None:
        why = "square" if B.formation(u) == "square" else "disordered"
        return f"none: a {why} unit is all front"
    return clock_words(u.facing)


def formation_words(u: "Unit") -> str:
    form = FORMATION_WORDS.get(B.formation(u), B.formation(u))
    if B.arm(u) == "cav":
        form += ", dismounted (on foot)" if u.marks.get("dismounted") else ", mounted"
    if B.state_of(u) == "disordered" and B.arm(u) != "art":
        form += " (lost while disordered)"
    return form


def stands_words(u: "Unit") -> str:
    """``3 of 4 (1 lost)``; a battery counts its gunners (4.2)."""
    what = " gunners" if B.arm(u) == "art" else ""
    lost = u.max_strength - u.strength
    return f"{u.strength} of {u.max_strength}{what}" + (f" ({lost} lost)" if lost > 0 else "")


def movement_words(u: "Unit") -> str:
    if B.is_general(u):
        return f"{D.GENERAL_MOVE} MP any way"
    fwd, back, side = B.allowance(u)
    if B.state_of(u) == "disordered":
        return "none while disordered (may re-form)"
    if B.formation(u) == "square":
        return "1 hex any way (square)"
    side_text = "no sideways" if side is None else f"{side} sideways"
    return f"{fwd} forward, {back} back, {side_text} (MP)"


def fire_words(u: "Unit") -> str:
    dice = int(u.stat("fire", 0))
    if dice <= 0 or B.arm(u) not in ("inf", "cav", "art") or B.mounted(u):
        return "does not fire"
    lo, short, long_ = F.ranges(u)
    return f"best of {dice} d20, range {lo}-{long_} (short to {short})"


def unit_type_words(ruleset: Any, u: "Unit") -> str:
    name = ruleset.type_name(u.kind)
    if B.guard(u) and "guard" not in name:
        name = "guard " + name
    if B.arm(u) == "art" and B.gun_kind(u) != u.kind:      # gunners who took another gun (22.9)
        name += f", serving a {ruleset.type_name(B.gun_kind(u))} gun"
    return name


# --- the unit card -----------------------------------------------------------------------------
def unit_card(ruleset: Any, g: "Position", uid: str) -> list[tuple[str, str]]:
    """What a wargamer reads off the stand: type, stands, formation, state, facing, movement,
    fire, melee and morale dice, experience, command, and what it did this turn."""
    u = g.state.units[uid]
    rows = [("type", unit_type_words(ruleset, u))]
    state = B.state_of(u)
    if B.is_general(u):
        rows.append(("command", f"{D.COMMAND_D} hexes: attacks, +{D.MORALE_MODS['general']} morale"))
        rows.append(("movement", movement_words(u)))
    else:
        rows.append(("stands", stands_words(u)))
        rows.append(("formation", formation_words(u)))
        hexes = B.stand_hexes(u)
        if len(hexes) > 1:
            first = ANCHOR_WORDS.get(B.formation(u), "first stand")
            rows.append(("stands in", f"{g.map.label(hexes[0])} ({first}), "
                         + ", ".join(g.map.label(h) for h in hexes[1:])))
    rows.append(("state", STATE_WORDS.get(state, state) + (", in a settlement" if B.garrison(u) else "")))
    if B.on_table(u) and not B.is_general(u):
        rows.append(("facing", facing_words(u)))
        rows.append(("movement", movement_words(u)))
        rows.append(("fire", fire_words(u)))
        rows.append(("melee", f"rank {B.melee_rank(u)}, best of {B.melee_dice(u)} d20"))
    if not B.is_general(u) and B.arm(u) != "train":
        rows.append(("morale", f"best of {B.morale_dice(u)} d20 at or under {B.experience(u)} "
                               f"({'veteran' if B.veteran(u) else 'recruit'})"))
    if u.division:
        name = next((d.name for d in g.scenario.divisions if d.id == u.division), u.division)
        rows.append(("division", name))
    done = [w for k, w in MARK_WORDS.items() if u.marks.get(k) == g.state.turn]
    if done:
        rows.append(("this turn", ", ".join(done)))
    return rows


# --- why not -------------------------------------------------------------------------------------
def why_not(ruleset: Any, g: "Position", uid: str, h: Hex) -> str | None:
    """Why ``uid`` has no order at ``h`` now, with the rule; None when one of its orders fits."""
    st = g.state
    u = st.units.get(uid)
    if u is None:
        return "there is no such unit"
    if st.result is not None:
        return "the game is over"
    if st.phase == "start":
        return "the battle has not started: end the phase to start it (6)"
    if st.pending:
        kind = str(st.pending[0].get("kind", "")).replace("-", " ")
        rule = "22.2" if st.pending[0].get("why") == "fire" else "22.4"
        return f"the {kind} decision must be answered first ({rule})" if kind in ("retreat", "lose stand") else \
            f"the {kind} decision must be answered first"
    if u.side != st.active:
        return f"the other side acts now in the {PHASE_TITLES.get(st.phase, st.phase)} phase " \
               "(the players alternate, 6)"
    if _has_order_at(ruleset, g, u, h):
        return None
    phase = st.phase
    if phase == "deployment":
        if B.state_of(u) != "deploy":
            return "it is already placed (22.10)"
        return "deploy within 6 rows of your own edge, on ground the unit may stand on, in a free hex " \
               "not next to an enemy (22.10)"
    if phase == "appearance":
        if u not in AC.appearers(st, u.side):
            return "only rallied units (from an earlier turn) and reserves due now appear (8.1)"
        return "appear on your own edge, not next to an enemy and 3 hexes from formed enemy lines, " \
               "columns and batteries (8.3)"
    if phase == "attack":
        return _attack_reason(g, u, h)
    if phase == "movement":
        return _move_reason(g, u, h)
    if phase == "fire":
        return _fire_reason(g, u, h)
    if phase == "melee":
        owed = st.vars.get("retreats", [])
        if owed and owed[0] != u.id:
            return "a beaten unit must retreat first: choose its way back (22.4)"
        if owed:
            return "retreat two hexes, each step to a free hex as far as it can get from the " \
                   "nearest enemy (22.4)"
        if not any(u.id in grp for grp in M.components(st)):
            return "it is in no melee; the Melee phase only fights the contacts made by attacks (22.4)"
        return "choose the melee with the unit itself (enter on the unit) (22.4)"
    return f"nothing to do in the {PHASE_TITLES.get(phase, phase)} phase"


def _has_order_at(ruleset: Any, g: "Position", u: "Unit", h: Hex) -> bool:
    """Whether one of the unit's legal orders ends at, aims at or (with no hex) is given on ``h``."""
    here = u.hex is not None and Hex(*u.hex) == h
    for o in ruleset.unit_orders(g, u.id):
        if o.kind in ("end-phase", "resign"):
            continue
        path = o.get("path")
        if isinstance(path, tuple) and path and tuple(path[-1]) == tuple(h):
            return True
        if any(o.get(k) == tuple(h) for k in ("hex", "target")):
            return True
        if here and o.kind in ("hold", "rally", "form", "mount", "dismount", "join", "melee", "reman"):
            return True
    return False


def _attack_reason(g: "Position", u: "Unit", h: Hex) -> str:
    st = g.state
    why = A.attacker_problem(st, u)
    if why:
        return why
    if u.hex is not None and Hex(*u.hex) == h:
        return "no enemy it may charge: within reach, seen, and not across what blocks a charge " \
               "(7.3, 7.4)"
    t = AC.unit_at(st, h)
    if t is None or t.side == u.side:
        return "charge an enemy unit: put the cursor on one within reach (7.2)"
    view = B.View(st)
    if A.line_attack(u):
        return A.target_problem(g.map, view, u, t) or A.validate(g.map, view, st, u, t, None) or \
            "the line's stands would touch nobody on their way (7.6)"
    reasons = [A.validate(g.map, view, st, u, t, c) for c in A.contact_hexes(g.map, view, u, t)]
    reasons = [r for r in reasons if r]
    if reasons:
        return reasons[0]
    return A.target_problem(g.map, view, u, t) or A.validate(g.map, view, st, u, t, None) or \
        "no contact hex can be reached (7.4)"


ANCHOR_WORDS = {"line": "left-end stand", "column": "head", "square": "pivot stand"}


def order_words(g: "Position", order: Order) -> str:
    """The orders whose generic wording reads badly (a formation change, an appearance, an
    attack), in words; empty for the rest, which the generic wording says well enough."""
    u = g.state.units.get(order.get("unit"))
    if u is None:
        return ""
    if order.kind == "form":
        return form_order_words(g, order)
    if order.kind == "appear":
        return _appear_words(g, u, order)
    if order.kind == "attack":
        return _attack_words(g, u, order)
    if order.kind == "lose":
        h = _on_map(g, order.get("hex"))
        return f"{u.name} gives up its stand at {g.map.label(h)}" if h is not None else ""
    return ""


def _on_map(g: "Position", h: Any) -> Hex | None:
    return Hex(*h) if isinstance(h, tuple) and len(h) == 2 and tuple(h) in g.map else None


def _facing_clause(f: Any, form: Any) -> str:
    """``, facing 6 o'clock``; nothing for a square, which faces every way (5.6)."""
    return f", facing {CLOCK[f]} o'clock" if isinstance(f, int) and 0 <= f < 6 and form != "square" else ""


def form_order_words(g: "Position", order: Order) -> str:
    """A formation change in words: the new formation and facing and, when the order names one,
    which hex the new line's left end, column's head or square's pivot takes (9.7)."""
    u = g.state.units.get(order.get("unit"))
    if order.kind != "form" or u is None:
        return ""
    form = order.get("formation")
    said = f"form {u.name} into {FORMATION_WORDS.get(form, form)}"
    at = _on_map(g, order.get("at"))
    if at is not None:
        said += f" with its {ANCHOR_WORDS.get(form, 'anchor')} at {g.map.label(at)}"
    return said + _facing_clause(order.get("facing"), form)


def _appear_words(g: "Position", u: "Unit", order: Order) -> str:
    h = _on_map(g, order.get("hex"))
    if h is None:
        return ""
    form = order.get("formation")
    return f"{u.name} appears at {g.map.label(h)} in {FORMATION_WORDS.get(form, form)}" + \
        _facing_clause(order.get("facing"), form)


def _attack_words(g: "Position", u: "Unit", order: Order) -> str:
    t = _on_map(g, order.get("target"))
    if t is None:
        return ""
    foe = B.View(g.state).stands.get(t)
    said = f"{u.name} attacks {foe.name + ' at ' if foe is not None else ''}{g.map.label(t)}"
    contact = _on_map(g, order.get("contact"))
    return said + (f", making contact from {g.map.label(contact)}" if contact is not None else "")


def footprint_refusal(hmap, view: "B.View", u: "Unit", h: Hex) -> str | None:
    """Why the unit's whole formation cannot stand with its anchor in ``h`` (in its present
    facing, nor turned), naming the first hex at fault; None when one facing fits or the unit
    fills one hex."""
    if B.is_general(u) or len(B.layout_of(u, h, u.facing)) <= 1:
        return None
    first = MV.fit_problem(hmap, view, u, B.layout_of(u, h, u.facing))
    if first is None or any(MV.fits(hmap, view, u, B.layout_of(u, h, f)) for f in range(6)):
        return None
    form = FORMATION_WORDS.get(B.formation(u), B.formation(u))
    return f"the {form} does not fit with its {ANCHOR_WORDS.get(B.formation(u), 'anchor')} there: " \
           f"{first} (21.5, 21.8)"


def _move_reason(g: "Position", u: "Unit", h: Hex) -> str:
    st, hmap = g.state, g.map
    if u not in AC.pieces(st, u.side):
        return "it attacked, was attacked or has already acted: it may not act in this Movement phase (9.1)"
    if st.active in st.vars.get("done", []):
        return "you have finished this Movement phase (9.2)"
    state = B.state_of(u)
    if state == "fleeing":
        return "a fleeing unit may only try to rally (14)"
    here = u.hex is not None and Hex(*u.hex) == h
    if here:
        return "it may only hold in place now"
    if state == "disordered":
        return "a disordered unit cannot move; it may re-form in place (9.3, 9.7)"
    if h in B.stand_hexes(u):
        return "its own stand is there: move its " + ANCHOR_WORDS.get(B.formation(u), "stand") + \
            " to where the unit should go (21.5)"
    if h not in hmap:
        return "that is off the map"
    view = B.View(st)
    if h in view.stands:
        other = view.stands[h]
        return "the enemy holds that hex: charge it in the Attack phase (7)" if other.side != u.side \
            else "another unit's stands hold that hex (21.5)"
    terrain = hmap.terrain_at(h)
    if terrain == "village" and not B.is_general(u):
        return "a settlement is entered only by the occupy action, from the hex next to it ([F] 20)"
    if terrain == "rampart":
        return "a wall is climbed from the courtyard inside the fort, one hex (22.7)"
    if not any(B.enter_cost(hmap, u, n, h) is not None for _, n in hmap.neighbors(h)):
        return f"{terrain} is closed to this unit (22.7)"
    if not B.is_general(u) and view.adjacent_enemy(h, u.side):
        return "no move may end next to an enemy stand (9.4; 1 cm gap, 21.3)"
    misfit = footprint_refusal(hmap, view, u, h)
    if misfit:
        return misfit
    return f"out of reach this phase: {movement_words(u)}; a wheel costs the front rank's stands " \
           "per 60 degrees, and moves may not pass next to an enemy (9.4, 9.6, 21.8)"


def _fire_reason(g: "Position", u: "Unit", h: Hex) -> str:
    st = g.state
    why = F.shooter_problem(st, u)
    if why:
        return why
    if u.hex is not None and Hex(*u.hex) == h:
        return "no enemy it may fire at: in range, in its frontal zone and in sight (22.2, 21.7)"
    t = AC.unit_at(st, h)
    if t is None or t.side == u.side:
        return "fire at an enemy unit: put the cursor on one in range (22.2)"
    return F.target_problem(g.map, B.View(st), st, u, t) or "no fire at that unit now (22.2)"


# --- odds ------------------------------------------------------------------------------------------
def best_high(n: int) -> list[Fraction]:
    """P(highest of ``n`` d20 = r) for r = 1..20 (index r - 1)."""
    total = 20 ** n
    return [Fraction(r ** n - (r - 1) ** n, total) for r in range(1, 21)]


def melee_outcomes(dice_a: int, sum_a: int, attacked_a: bool, dice_b: int, sum_b: int,
                   attacked_b: bool) -> dict[str, Fraction]:
    """Exact chances of the four ends of a melee (22.4) for side a: it wins and the enemy flees
    (margin 5 or more), it wins and the enemy retreats disordered, it loses and retreats
    disordered, it loses and flees. A tie goes to the side that did not attack; when both
    attacked it is rolled again, so the chances are of the rolls that decide."""
    pa, pb = best_high(dice_a), best_high(dice_b)
    out = {"win-rout": Fraction(0), "win": Fraction(0), "lose": Fraction(0), "lose-rout": Fraction(0)}
    for ra in range(1, 21):
        for rb in range(1, 21):
            margin = (ra + sum_a) - (rb + sum_b)
            if margin == 0:
                if attacked_a and attacked_b:
                    continue
                a_wins = attacked_b and not attacked_a
            else:
                a_wins = margin > 0
            rout = abs(margin) >= D.MELEE_ROUT_MARGIN
            key = ("win" if a_wins else "lose") + ("-rout" if rout else "")
            out[key] += pa[ra - 1] * pb[rb - 1]
    total = sum(out.values())
    return {k: v / total for k, v in out.items()} if total else out


def _melee_line(title: str, o: dict[str, Fraction], they_captured: bool, you_captured: bool) -> str:
    """``Charge (flank): you win 62 % (they lose a stand; they flee 43 %) · they win ...``;
    artillery, engineers and the train are captured when they lose (22.4)."""
    win, lose = o["win"] + o["win-rout"], o["lose"] + o["lose-rout"]
    them = "captured" if they_captured else f"they flee {percent(o['win-rout'])}"
    you = "captured" if you_captured else f"you flee {percent(o['lose-rout'])}"
    return f"{title}: you win {percent(win)} (they lose a stand; {them}) · " \
           f"they win {percent(lose)} (you lose a stand; {you})"


def _captured_on_loss(u: "Unit") -> bool:
    return B.arm(u) in ("art", "eng", "train")


def odds_summary(ruleset: Any, g: "Position", order: Order) -> str:
    """One plain line: the chance of each end of a fire, charge, melee or rally, exact."""
    if ruleset.validate(g, order) is not None:
        return ""
    st, hmap = g.state, g.map
    u = st.units.get(order.get("unit"))
    if u is None:
        return ""
    if order.kind == "fire":
        t = AC.unit_at(st, Hex(*order.get("target")))
        need, _, _ = F.score(hmap, u, t, st)
        dice = int(u.stat("fire", 1))
        p = chance(F.chance_at_most(dice, need))
        return f"Fire: best of {dice} d20 at or under {need} hits: {percent(p)} " \
               "(one stand lost when the phase ends) (22.2)"
    if order.kind == "rally":
        odds = ruleset.odds(g, order)
        p = chance(odds["chances"]["restored"])
        return f"Rally: {odds['need'].replace('<=', 'at or under')}: restored {percent(p)} (14)"
    if order.kind == "attack":
        t = AC.unit_at(st, Hex(*order.get("target")))
        contact = order.get("contact")
        if contact is None:
            return "The attack fails: no contact hex in reach; the attacker ends disordered (7.7)"
        odds = A.attack_preview(hmap, st, u, t, Hex(*contact))
        o = melee_outcomes(B.melee_dice(u), sum(v for _, v in odds["modifiers"]), True,
                           B.melee_dice(t), sum(v for _, v in odds["defender terms"]), False)
        return _melee_line(f"Charge ({odds['kind']})", o, _captured_on_loss(t), _captured_on_loss(u))
    if order.kind == "melee":
        group = next(grp for grp in M.components(st) if u.id in grp)
        mine = M.side_terms(hmap, st, group, u.side)
        theirs = M.side_terms(hmap, st, group, st.enemy_of(u.side))
        o = melee_outcomes(mine[1], sum(v for _, v in mine[2]), mine[3],
                           theirs[1], sum(v for _, v in theirs[2]), theirs[3])
        return _melee_line("Melee", o, _captured_on_loss(theirs[0]), _captured_on_loss(mine[0]))
    return ""


# --- zones -----------------------------------------------------------------------------------------
def unit_zones(g: "Position", uid: str) -> dict[str, tuple[Hex, ...]]:
    """The hexes near a unit (within the attack distance) in its front, flank and rear zones,
    judged at the hex centre with the exact 21.6 box; a unit without facing is all front."""
    u = g.state.units.get(uid)
    if u is None or not B.on_table(u) or B.is_general(u):
        return {}
    stands = [Hex(*h) for h in B.stand_hexes(u)]
    f = B.facing(u)
    box = Box(stands, f) if f is not None else None
    zones: dict[str, list[Hex]] = {"front": [], "flank": [], "rear": []}
    for h in g.map.hexes:
        d = min(hex_distance(s, h) for s in stands)
        if d == 0 or d > ZONE_REACH:
            continue
        z = box.zone(centre(h)) if box is not None else "front"
        zones["flank" if z in ("left", "right") else "front" if z == "inside" else z].append(Hex(*h))
    return {k: tuple(sorted(v)) for k, v in zones.items() if v}


# --- the player aid ----------------------------------------------------------------------------------
def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def _mods(table: dict[str, int], words: dict[str, str]) -> list[str]:
    return [f"  {words.get(k, k.replace('_', ' '))}: {_signed(v)}" for k, v in table.items()]


_FIRE_MOD_WORDS = {"veteran": "veteran firer", "cover": "target in forest, settlement or on a wall",
                   "fortified_cover": "target in a fortified settlement",
                   "target_disordered": "target disordered",
                   "art_vs_column_or_square": "artillery at a formed column or square"}
_MORALE_MOD_WORDS = {"general": "a general within 9 hexes", "cinc_extra": "the commander-in-chief among them",
                     "settlement": "in a settlement or on a wall", "disordered": "disordered",
                     "per_lost_stand": "per stand lost", "lost_stand_cap": "stands lost at most",
                     "flank_rear_contact": "attacked in flank or rear"}
_MELEE_MOD_WORDS = {"attack_bonus": "attack bonus (the side attacked into it)", "flank": "flank attack",
                    "rear": "rear attack (not added to flank)", "column_attacker": "an attacking column",
                    "disordered": "principal unit disordered", "cav_vs_square": "cavalry against a square",
                    "inf_vs_square_defender": "square attacked by infantry (square side)",
                    "cover": "defender in cover (attacker)", "fortified_cover": "defender fortified (attacker)",
                    "passable_obstacle": "attacking across an obstacle", "veteran": "veteran principal unit",
                    "general": "a general with a unit of the side", "per_extra_stand": "per stand more",
                    "extra_stand_cap": "stands more at most", "extra_unit": "per further unit"}


def player_aid(ruleset: Any, g: "Position") -> list[tuple[str, list[str]]]:
    """Sequence of play (the current phase and who acts marked), then the tables from
    ``data.py``, each title saying whether it is the source's [S] or designed [P]."""
    st = g.state
    now = st.phase
    acting = next((s.name for s in g.scenario.sides if s.id == st.active), st.active)
    seq = [f"Turn {st.turn}: six phases; the players alternate in each (6)."]
    for p in ("start", "deployment"):
        if now == p:
            seq.append(f"> {PHASE_TITLES[p]} (now, {acting} to act)")
    for i, p in enumerate(PHASES):
        mark = "> " if p == now else "  "
        who = f" (now, {acting} to act)" if p == now else ""
        seq.append(f"{mark}{i + 1}. {_PHASE_AID[p]}{who}")
    seq.append("Roll-off: both roll a d20 (ties again), the higher acts first: [S] before")
    seq.append("Attack, Appearance and Movement, [P] before Fire and Melee.")
    source = ["[S] the source's rules and numbers: unit tables, movement, stands, formations,",
              "    army composition, the turn, attacks, appearance, rallying.",
              "[H] hex adaptation: 1 hex = 5 cm, six vertex facings (21.4), exact zones (21.6).",
              "[P] designed here because the source's pages are lost: fire, morale, melee,",
              "    generals' details, terrain effects, deployment and victory (22). Every [P]",
              "    number is in engine/rulesets/napoleonica/data.py and may be edited there."]
    facing = ["A formed unit faces a hex vertex: 12, 2, 4, 6, 8 or 10 o'clock (21.4).",
              "Its two hexsides either side of that vertex are its front; the next one each side",
              "its flanks; the two opposite its rear. Zones run out at 45 degrees from the front",
              "and rear corners (5.6, 21.6). Squares, disordered units and garrisons are all front.",
              "The map shows the selected unit's zones near it (see the legend under the preview)."]
    units = ["type: stands, melee rank, melee/morale dice (best of N d20), fire dice"]
    for kind, s in D.UNIT_TYPES.items():
        tag = "[S]" if s["arm"] in ("inf", "cav", "art") else "[P]"
        units.append(f"  {s['name']} {tag}: up to {D.STANDS[s['arm']][1]} stands, rank {s['rank']}, "
                     f"melee {s['melee']}, morale {s['morale']}, fire {s['fire']}")
    move = ["MP per phase: forward / back / sideways (a wheel costs the front rank per 60 degrees)"]
    for form, (f, b, sd) in D.MOVE_INF.items():
        move.append(f"  infantry in {form}: {f} / {b} / {sd}")
    for kind, forms in D.MOVE_CAV.items():
        move.append(f"  {D.UNIT_TYPES[kind]['name']}: " + ", ".join(
            f"{form} {f} / {b} / {sd}" for form, (f, b, sd) in forms.items()))
    for kind, forms in D.MOVE_ART.items():
        move.append(f"  {D.UNIT_TYPES[kind]['name']}: limbered {forms['limbered']}, "
                    f"firing position {forms['unlimbered']} (back the same, never sideways)")
    move.append(f"  gunners out {D.MOVE_GUNNERS}; generals {D.GENERAL_MOVE} any way [P]; "
                f"engineers {'/'.join(map(str, D.MOVE_OTHER['ENG']))} [P]")
    lo, hi = D.FIRE_CLAMP
    fire = [f"Best of the unit's fire dice (d20) at or under the fire score hits: one stand lost "
            f"when the phase ends. Score {lo} to {hi}.",
            f"  muskets: 2 per firing stand (a line all, a column or square 1), +2 at short range "
            f"(to {D.FIRE_MUSKET['short']} hexes), long to {D.FIRE_MUSKET['long']}"]
    for kind, (smin, short, long_, sb, lb) in D.FIRE_ART.items():
        fire.append(f"  {D.UNIT_TYPES[kind]['name']}: range {smin}-{short} score {sb}, to {long_} "
                    f"score {lb}, + gunners left")
    fire.append("Modifiers:")
    fire += _mods(D.FIRE_MODS, _FIRE_MOD_WORDS)
    morale = ["A unit tests when it was hit, a friend was lost within "
              f"{D.MORALE_FRIEND_LOSS_D} hexes, it was charged in flank or rear or by cavalry, or the",
              "commander-in-chief fell: best of its morale dice at or under experience + modifiers.",
              "  experience: " + ", ".join(f"{k} {v}" for k, v in D.EXPERIENCE.items()) + " (guard = veteran)",
              "Fails: a formed unit becomes disordered; a disordered one flees."]
    morale += _mods(D.MORALE_MODS, _MORALE_MOD_WORDS)
    melee = ["Each side: the best (highest) of its principal unit's melee dice + its rank + modifiers.",
             "Higher wins; a tie goes to the side that did not attack (both attacked: roll again).",
             f"Loser: loses a stand; by {D.MELEE_ROUT_MARGIN}+ it flees, else it is disordered and "
             f"retreats {D.RETREAT_HEXES} hexes. Artillery, engineers and train are captured.",
             f"A general with a losing unit is captured on a d20 of 1-{D.GENERAL_CAPTURE_MAX}."]
    melee += _mods(D.MELEE_MODS, _MELEE_MOD_WORDS)
    victory = [f"An army breaks when {D.BREAK_PCT} % of its combat units are gone; otherwise points "
               f"at the end decide, a margin under {D.DRAW_MARGIN} is a draw.",
               "  points: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in D.POINTS.items())]
    terrain = [f"{code}: {text}" for code, text in D.TERRAIN.items()]
    muster = ["Share of each type among its arm's units (guard units count in the guard row):"]
    for kind, (lo, hi) in D.MUSTER_PCT.items():
        name = D.UNIT_TYPES[kind]["name"] if kind in D.UNIT_TYPES else \
            {"CAV_GUARD": "guard cavalry", "ART_GUARD": "guard artillery"}.get(kind, kind)
        muster.append(f"  {name}: {lo}-{hi} %")
    return [("Sequence of play [S 6]", seq), ("Whose rules [S], [H], [P]", source),
            ("Facing and zones [S 5.6, H 21.4]", facing), ("Units [S 3]", units),
            ("Movement in hexes [S 9.5 via H 21.3]", move), ("Fire [P 22.2]", fire),
            ("Morale [P 22.3]", morale), ("Melee [P 22.4]", melee), ("Victory [P 22.10]", victory),
            ("Terrain [P 22.7]", terrain), ("Army composition [S 16.1]", muster)]


# --- the log -------------------------------------------------------------------------------------
_WHY = {"fire": "fire", "morale": "morale test", "restoration": "rally", "re-form": "re-form test",
        "melee": "melee"}


def _side(g: "Position", sid: Any) -> str:
    return next((s.name for s in g.scenario.sides if s.id == sid), str(sid))


def _hex(v: Any) -> str:
    return f"[{v[0]}, {v[1]}]" if isinstance(v, (list, tuple)) and len(v) == 2 else str(v)


def event_words(g: "Position", ev: dict[str, Any]) -> str | None:
    """The log line of the events a player reads most: rolls kept, tests, fire, melee, moves,
    losses and phases. Others keep the generic line."""
    t = ev.get("t")
    if t == "die-roll":
        return None
    if t == "best-of":
        dice = ev.get("dice", [])
        keep = "lowest" if ev.get("keep") == "lowest" else "highest"
        if len(dice) < 2:
            return f"kept {ev.get('kept')} (one d20)"
        return f"best of {len(dice)} d20 {', '.join(map(str, dice))}: keeps the {keep}, {ev.get('kept')}"
    if t == "test":
        what = _WHY.get(str(ev.get("why")), str(ev.get("why")))
        ok = "passes" if ev.get("passed") else "fails"
        return f"{ev.get('unit', '')} {what}: {ev.get('kept')} against {ev.get('need')} or less, {ok}"
    if t == "fired":
        hit = "hit (a stand goes when the phase ends)" if ev.get("hit") else "miss"
        return f"{ev.get('unit')} fires at {ev.get('target')}: {ev.get('roll')} against " \
               f"{ev.get('need')} or less, {hit}"
    if t == "melee":
        totals = ev.get("totals", {})
        said = ", ".join(f"{_side(g, sid)} {v}" for sid, v in totals.items())
        return f"Melee: {said}; {_side(g, ev.get('winner'))} wins by {ev.get('margin')}"
    if t == "roll-off":
        rolls = ev.get("rolls", {})
        said = ", ".join(f"{_side(g, sid)} {v}" for sid, v in rolls.items())
        return f"Roll-off for the {PHASE_TITLES.get(str(ev.get('phase')), ev.get('phase'))} phase: " \
               f"{said}; {_side(g, ev.get('first'))} acts first"
    if t == "phase":
        name = PHASE_TITLES.get(str(ev.get("phase")), ev.get("phase"))
        who = f", {_side(g, ev['side'])} to act" if ev.get("side") else ""
        return f"-- {name} phase{who}"
    if t == "turn":
        return f"== Turn {ev.get('turn')}"
    if t == "stand-lost":
        return f"{ev.get('unit')} loses {ev.get('n')} stand(s) to {ev.get('why')}, {ev.get('left')} left"
    if t == "disordered":
        return f"{ev.get('unit')} is disordered ({ev.get('why')})"
    if isinstance(t, str) and t.startswith("unit-"):
        return f"{ev.get('unit')} is {t[5:]}"
    if t == "stand-chosen":
        return f"{ev.get('unit')} gives up its stand at {_hex(ev.get('at'))}"
    if t == "stand-choice":
        return f"{_side(g, ev.get('side'))} chooses which stand {ev.get('unit')} loses"
    if t == "retreat-choice":
        return f"{_side(g, ev.get('side'))} chooses where {ev.get('unit')} retreats"
    if t == "retreated":
        return f"{ev.get('unit')} retreats from {_hex(ev.get('frm'))} to {_hex(ev.get('to'))}"
    if t == "moved":
        return f"{ev.get('unit')} moves {_hex(ev.get('frm'))} to {_hex(ev.get('to'))}, facing " \
               f"{CLOCK[int(ev.get('facing', 0)) % 6]} o'clock"
    if t == "formation":
        return f"{ev.get('unit')} forms {FORMATION_WORDS.get(str(ev.get('formation')), ev.get('formation'))}, " \
               f"facing {CLOCK[int(ev.get('facing', 0)) % 6]} o'clock"
    if t == "attack-declared":
        return f"{ev.get('unit')} charges {ev.get('target')} ({ev.get('attack')})"
    if t == "contact":
        return f"{ev.get('unit')} reaches {ev.get('target')} at {_hex(ev.get('at'))}: melee in the Melee phase"
    if t == "attack-failed":
        return f"{ev.get('unit')}'s charge at {ev.get('target')} fails: it halts disordered (7.7)"
    if t == "held":
        return f"{ev.get('unit')} holds"
    if t == "rest-hold":
        return f"{_side(g, ev.get('side'))} ends its movement: the rest hold"
    return None


class Words:
    """The Ruleset queries that answer the player, for ``NapoleonicaRuleset`` to inherit."""

    has_facing = True
    phase_names = PHASE_TITLES
    field_names = FIELD_NAMES
    mark_words = MARK_WORDS

    def unit_card(self, game: "Position", unit_id: str) -> list[tuple[str, str]]:
        return unit_card(self, game, unit_id)

    def why_not(self, game: "Position", unit_id: str, hex: Hex) -> str | None:
        return why_not(self, game, unit_id, hex)

    def odds_summary(self, game: "Position", order: Order) -> str:
        return odds_summary(self, game, order)

    def order_words(self, game: "Position", order: Order) -> str:
        return order_words(game, order)

    def player_aid(self, game: "Position") -> list[tuple[str, list[str]]]:
        return player_aid(self, game)

    def unit_zones(self, game: "Position", unit_id: str) -> dict[str, tuple[Hex, ...]]:
        return unit_zones(game, unit_id)

    def event_words(self, game: "Position", event: dict[str, Any]) -> str | None:
        return event_words(game, event)

    def facing_words(self, game: "Position", facing: int) -> str:
        return f"{CLOCK[facing % 6]} o'clock"
