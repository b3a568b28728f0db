"""How good a Napoleonica position is for one side, for the strong computer's lookahead.

22.10 decides the game: an army breaks when half its combat units are gone or fleeing, else the
points after the last turn count. Melees decide most of that, and every unit on a melee's losing
side loses a stand and flees when beaten by 5 or more (22.4), so one lost melee can break an
army. The evaluation therefore scores (every weight DESIGNED, measured in
benchmarks/ai_strength.md):

* material: each combat unit's stands left, by how able it is to fight (formed, disordered,
  fleeing and likely to rally), extra weight on the last units before the army breaks, and the
  22.10 points each side would score now;
* melees declared and not yet fought: the expected material after them, over the exact odds of
  every outcome (win, lose, lose by 5 or more) of every melee together, since several lost
  melees together may break an army when one alone does not;
* charge threats: for each unit, the best charge an enemy unit could make on it next turn (in
  reach, the unit in its front zone), valued by the same odds and losses, less the same for
  this side's charges on the enemy;
* placement: the basic player's own view of each unit where it stands, so a quiet move is worth
  something.

Everything is measured through stands (``board.stand_hexes``), so a unit drawn over several hexes
counts the same way. The score is this side's view less the enemy's.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from . import attack as A
from . import board as B
from . import data as D
from . import melee as M
from . import turn
from .geometry import zone_touches

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.state import State, Unit

UNIT = 100                     # a whole combat unit, formed and at full strength
GUARD = Fraction(3, 2)         # a guard unit is worth more (it scores 3 points, not 2)
#: how much of a unit's worth each state keeps
STATE_SHARE = {"formed": Fraction(1), "disordered": Fraction(3, 4), "fleeing": Fraction(1, 5),
               "restored": Fraction(3, 4), "reserve": Fraction(1)}
#: extra loss when only this many more units gone or fleeing break the army (0: it breaks at
#: the end of this turn unless a unit rallies first)
BREAK_NEAR = {0: 600, 1: 150, 2: 50}
POINT = 40                     # each 22.10 point the side would score now
#: share of the expected result of declared melees (1: counted as if already fought)
MELEE = Fraction(1)
#: share of the value of the charges each side could make next turn
THREAT = Fraction(1)
#: per point of the basic player's own view of each unit's place, this side's units minus the enemy's
PLACEMENT = Fraction(1, 4)
#: share of the enemy's placement taken off (1: symmetric)
ENEMY_PLACEMENT = Fraction(1)
#: at most this many joint outcomes of the declared melees are weighed together; beyond, each
#: melee is weighed on its own
JOINT = 256

#: what a unit may become: (state, stands); a loss is always one stand (22.4)
Change = dict[str, tuple[str, int]]


def evaluate(game: "Position", side: str) -> int:
    state = game.state
    enemy = state.enemy_of(side)
    view = B.View(state)
    pts = points(game, side)
    score = material(game, side, {}, pts)
    score += MELEE * (melee_forecast(game, side, pts) - score)
    score += THREAT * (threats(game, view, side, pts) - threats(game, view, enemy, -pts))
    score += PLACEMENT * (placement(game, view, side) - ENEMY_PLACEMENT * placement(game, view, enemy))
    return int(score)


# --- material -------------------------------------------------------------------------------------
def _combat(state: "State", side: str) -> list["Unit"]:
    return [u for u in state.side_units(side, alive=False) if B.is_combat(u)]


def _now(u: "Unit", change: Change) -> tuple[str, int]:
    return change.get(u.id) or (B.state_of(u), u.strength)


def strength(state: "State", side: str, change: Change | None = None) -> Fraction:
    """What is left of the side's combat units, weighted by state (``change``: units taken as
    being in another state with other stands)."""
    total = Fraction(0)
    for u in _combat(state, side):
        st, n = _now(u, change or {})
        share = STATE_SHARE.get(st, Fraction(0))
        if share:
            worth = UNIT * (GUARD if B.guard(u) else 1)
            total += worth * share * Fraction(n, max(1, u.max_strength))
    return total


def break_risk(state: "State", side: str, change: Change | None = None) -> int:
    """The extra weight of the last units before the army breaks (22.10)."""
    units = _combat(state, side)
    start = int(state.sides[side].get("start_combat", len(units)))
    gone = sum(1 for u in units if _now(u, change or {})[0] in ("destroyed", "captured", "fleeing"))
    # the army breaks when 100 * gone >= BREAK_PCT * start
    breaking = -(-D.BREAK_PCT * start // 100)
    return BREAK_NEAR.get(max(0, breaking - gone), 0)


def _unit_points(u: "Unit", st: str) -> int:
    """The 22.10 points the enemy scores for ``u`` in state ``st``."""
    P = D.POINTS
    if st in ("destroyed", "captured"):
        return P["guard_unit"] if B.guard(u) else P["unit"]
    return P["fleeing"] if st == "fleeing" else 0


def points(game: "Position", side: str) -> int:
    """The 22.10 points this side would score now less the enemy's, by ``POINT``."""
    state = game.state
    return POINT * (turn.points(game.scenario, state, side) - turn.points(game.scenario, state, state.enemy_of(side)))


def material(game: "Position", side: str, change: Change, pts: int | None = None) -> Fraction:
    """Strength, break margin and 22.10 points, this side's less the enemy's (``pts``: the
    points term of the position as it is, when the caller has it)."""
    state = game.state
    enemy = state.enemy_of(side)
    score = strength(state, side, change) - strength(state, enemy, change)
    score -= break_risk(state, side, change) - break_risk(state, enemy, change)
    score += points(game, side) if pts is None else pts
    for uid, (st, _n) in sorted(change.items()):
        u = state.units[uid]
        gained = _unit_points(u, st) - _unit_points(u, B.state_of(u))
        score += -POINT * gained if u.side == side else POINT * gained
    return score


def beaten(u: "Unit", rout: bool) -> tuple[str, int]:
    """What a unit on a melee's losing side becomes (22.4): a stand less, and captured (guns,
    engineers, train), destroyed (no stand left), fleeing (beaten by 5 or more) or disordered."""
    n = u.strength - 1
    if B.arm(u) in ("art", "eng", "train"):
        return "captured", n
    if n <= 0:
        return "destroyed", 0
    return ("fleeing" if rout else "disordered"), n


# --- melees -------------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def melee_odds(dice_a: int, sum_a: int, attacked_a: bool, dice_b: int, sum_b: int,
               attacked_b: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Exact chances that a wins by under 5, a wins by 5 or more, b wins by under 5, b wins by 5
    or more (22.4: best of the d20s plus the terms; a tie goes to the side that did not attack,
    or is re-rolled when both attacked)."""
    big = D.MELEE_ROUT_MARGIN
    counts = [0, 0, 0, 0]
    for ra in range(1, 21):
        pa = ra ** dice_a - (ra - 1) ** dice_a
        for rb in range(1, 21):
            pb = rb ** dice_b - (rb - 1) ** dice_b
            diff = (ra + sum_a) - (rb + sum_b)
            if diff == 0:
                if attacked_a == attacked_b:
                    continue          # re-rolled (or, with no attacker, left out: never happens)
                diff = -1 if attacked_a else 1
                counts[0 if diff > 0 else 2] += pa * pb
                continue
            if diff > 0:
                counts[1 if diff >= big else 0] += pa * pb
            else:
                counts[3 if -diff >= big else 2] += pa * pb
    total = sum(counts)
    return tuple(Fraction(c, total) for c in counts)  # type: ignore[return-value]


def _melee_outcomes(game: "Position", group: list[str]) -> list[tuple[Fraction, Change]]:
    """One declared melee's outcomes, each with its chance and what the losers become."""
    state = game.state
    sides = sorted({state.units[i].side for i in group}, key=state.side_order.index)
    if len(sides) < 2:
        return [(Fraction(1), {})]
    a, b = sides
    ta = M.side_terms(game.map, state, group, a)
    tb = M.side_terms(game.map, state, group, b)
    odds = melee_odds(ta[1], sum(v for _, v in ta[2]), ta[3], tb[1], sum(v for _, v in tb[2]), tb[3])
    out: list[tuple[Fraction, Change]] = []
    for p, loser, rout in ((odds[0], b, False), (odds[1], b, True), (odds[2], a, False), (odds[3], a, True)):
        if p:
            out.append((p, {i: beaten(state.units[i], rout) for i in group
                            if state.units[i].side == loser and B.on_table(state.units[i])}))
    return out


def melee_forecast(game: "Position", side: str, pts: int | None = None) -> Fraction:
    """The expected material once the declared melees are fought: over every joint outcome
    while there are at most ``JOINT`` of them, else melee by melee."""
    pts = points(game, side) if pts is None else pts
    groups = M.components(game.state)
    if not groups:
        return material(game, side, {}, pts)
    each = [_melee_outcomes(game, g) for g in groups]
    size = 1
    for outs in each:
        size *= len(outs)
    if size <= JOINT:
        total = Fraction(0)
        for combo in product(*each):
            p = Fraction(1)
            change: Change = {}
            for q, c in combo:
                p *= q
                change.update(c)
            total += p * material(game, side, change, pts)
        return total
    base = material(game, side, {}, pts)
    return base + sum((sum((p * (material(game, side, c, pts) - base) for p, c in outs), Fraction(0))
                       for outs in each), Fraction(0))


# --- threats ------------------------------------------------------------------------------------
def _may_charge(state: "State", e: "Unit") -> bool:
    return (B.arm(e) in ("inf", "cav") and B.state_of(e) == "formed" and B.formation(e) != "square"
            and not B.garrison(e) and not A.in_contact(state, e.id))


def charge_odds(hmap, e: "Unit", u: "Unit", kind: str) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """The odds of ``e`` charging ``u`` alone, with the 22.4 terms that do not need the contact
    hex (no cover, obstacles or generals): the attacker's first."""
    Mo = D.MELEE_MODS
    att = B.melee_rank(e) + Mo["attack_bonus"] + {"rear": Mo["rear"], "flank": Mo["flank"]}.get(kind, 0)
    att += Mo["column_attacker"] if B.formation(e) == "column" else 0
    att += Mo["veteran"] if B.veteran(e) else 0
    dfd = B.melee_rank(u) + (Mo["veteran"] if B.veteran(u) else 0)
    dfd += Mo["disordered"] if B.state_of(u) == "disordered" else 0
    if B.formation(u) == "square" and B.state_of(u) == "formed":
        if B.mounted(e):
            att += Mo["cav_vs_square"]
        else:
            dfd += Mo["inf_vs_square_defender"]
    if B.garrison(u) or B.any_on(hmap, u, ("forest",)):
        att += Mo["cover"]
    diff = e.strength - u.strength
    att += min(Mo["extra_stand_cap"], diff * Mo["per_extra_stand"]) if diff > 0 else 0
    dfd += min(Mo["extra_stand_cap"], -diff * Mo["per_extra_stand"]) if diff < 0 else 0
    return melee_odds(B.melee_dice(e), att, True, B.melee_dice(u), dfd, False)


def threats(game: "Position", view: B.View, side: str, pts: int | None = None) -> Fraction:
    """The charges ``side`` could make next turn: for each enemy unit, the best expected gain of
    one of ``side``'s units charging it (an attacker that expects to lose is taken not to charge)."""
    state, hmap = game.state, game.map
    enemy = state.enemy_of(side)
    mine = [u for u in state.side_units(side) if B.on_table(u) and _may_charge(state, u)]
    if not mine:
        return Fraction(0)
    pts = points(game, side) if pts is None else pts
    base = material(game, side, {}, pts)
    total = Fraction(0)
    for t in view.enemy_stands(side):
        if B.is_general(t) or A.in_contact(state, t.id):
            continue
        best = Fraction(0)
        for e in mine:
            if B.gap(e, t) > A.reach(hmap, e) or B.infantry_like(e) and B.mounted(t) \
                    or B.mounted(e) and B.garrison(t):
                continue
            if not zone_touches(B.stand_hexes(e), e.facing, "front", B.stand_hexes(t)):
                continue
            odds = charge_odds(hmap, e, t, A.kind_of_attack(e, t))
            gain = (odds[0] * material(game, side, {t.id: beaten(t, False)}, pts)
                    + odds[1] * material(game, side, {t.id: beaten(t, True)}, pts)
                    + odds[2] * material(game, side, {e.id: beaten(e, False)}, pts)
                    + odds[3] * material(game, side, {e.id: beaten(e, True)}, pts)) - base
            best = max(best, gain)
        total += best
    return total


# --- placement ----------------------------------------------------------------------------------
def placement(game: "Position", view: B.View, side: str) -> int:
    """The basic player's value of each of ``side``'s combat units where it stands."""
    from .ai import _value
    objectives = [game.map.labels[n] for n in game.scenario.victory.get("objectives", [])
                  if n in game.map.labels]
    total = 0
    for u in game.state.side_units(side):
        if B.on_table(u) and B.is_combat(u):
            total += _value(view, u, u.hex, u.facing, B.formation(u), objectives)
    return total
