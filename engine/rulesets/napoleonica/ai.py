"""A basic computer player: scores the legal orders of the moment (higher is better).

It closes to musket or charge distance in column and deploys into line near the enemy, unlimbers
batteries in range, fires whenever it can, charges when the melee odds favour it, rallies
fleeing units, re-forms disordered ones and keeps its generals near its troops.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import actors as AC
from . import attack as A
from . import board as B
from . import data as D
from . import fire as F
from .geometry import zone_touches

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position


#: DESIGNED (strong level only): the seats whose generals keep out of reach of enemy charges
#: (``strong_candidates``), as (scenario id, side id)
GENERAL_GUARD = frozenset({("napoleonica-meeting", "france"), ("napoleonica-meeting", "russia")})
#: DESIGNED: how much worse a general's move is for ending exposed (more than a general gains
#: from covering his troops, 10 a stand, so a safe hex is always taken when one is in reach)
GENERAL_EXPOSED = 1000
#: DESIGNED: hexes from the nearest enemy stand within which a general alone counts as exposed
#: (the attack reach, 2, plus 1 for adjacency, plus 1 for a column's stands following its head)
GENERAL_SAFE_D = 4
#: DESIGNED: an attack's score per 22.10 point of generals it exposes to capture (an attack's
#: basic score is its chance of winning in per cent less 55)
GENERAL_POINT = 30


def _want(u: Unit) -> int:
    a = B.arm(u)
    if a == "art":
        return 5
    if a == "cav":
        return 3
    return 3


def _enemies(view: B.View, side: str) -> list[Hex]:
    """Enemy stand hexes, in a fixed order (memoised on the view)."""
    memo = view.__dict__.setdefault("_enemy_hexes", {})
    if side not in memo:
        memo[side] = [h for h, e in sorted(view.stands.items()) if e.side != side]
    return memo[side]


def _value(view: B.View, u: Unit, h: Hex, facing: int, form: str, objectives: list[Hex]) -> int:
    enemies = _enemies(view, u.side)
    if not enemies:
        return 0
    d, near = min((hex_distance(e, h), e) for e in enemies)
    v = -30 * abs(d - _want(u))
    if objectives:
        v -= 4 * min(hex_distance(h, o) for o in objectives)
    faced = form != "square"
    if faced and zone_touches([h], facing, "front", [near]):
        v += 40
    a = B.arm(u)
    if a == "inf" or (a == "cav" and u.marks.get("dismounted")):
        v += 20 if (form == "line") == (d <= 5) else 0
        if form == "square":
            v -= 40
    elif a == "cav":
        v += 20 if (form == "line") == (d <= 4) else 0
    elif a == "art":
        lo, _, hi = F.ranges(u)
        v += 30 if (form == "unlimbered") == (d <= hi) else 0
    return v


def _general_value(view: B.View, g: Unit, h: Hex) -> int:
    memo = view.__dict__.setdefault("_own_hexes", {})
    if g.side not in memo:
        memo[g.side] = [h for h, s in sorted(view.stands.items()) if s.side == g.side]
    covered = sum(1 for s in memo[g.side] if hex_distance(s, h) <= 9)
    enemies = _enemies(view, g.side)
    d = min((hex_distance(e, h) for e in enemies), default=99)
    return 10 * covered - (50 if d <= 2 else 0)


def candidates(ruleset, game: "Position") -> Iterable[tuple[int, Order]]:
    state, hmap = game.state, game.map
    phase = state.phase
    view = B.View(state)
    objectives = [hmap.labels[n] for n in game.scenario.victory.get("objectives", [])
                  if n in hmap.labels]
    for order in _orders(ruleset, game, view):
        k = order.kind
        score = 0
        if k == "resign":
            continue
        if k == "end-phase":
            score = 1 if phase == "movement" else 0
        elif k == "attack":
            if order.get("contact") is None:
                score = -100
            else:
                odds = ruleset.odds(game, order)
                win, total = odds.get("chances", {}).get("attacker wins", (0, 1))
                score = int(Fraction(win, total) * 100) - 55
        elif k == "fire":
            odds = ruleset.odds(game, order)
            hit, total = odds.get("chances", {}).get("hit (one stand lost)", (0, 1))
            score = 1 + int(Fraction(hit, total) * 100)
        elif k == "melee":
            score = 1
        elif k == "deploy":
            u = state.units[order["unit"]]
            h = Hex(*order["hex"])
            edge = B.edge_of(game.scenario, u.side)
            depth = hmap.rows_from_edge(h, edge)
            near = min((hex_distance(h, o) for o in objectives), default=0)
            score = (2 if B.is_general(u) else 10) * depth - 3 * near
        elif k == "appear":
            u = state.units[order["unit"]]
            score = 10 + _value(view, u, Hex(*order["hex"]), order["facing"], order["formation"], objectives) // 10
        elif k == "lose":
            # give up the stand most exposed to the enemy: the rest is further from harm
            u = state.units[order["unit"]]
            score = 100 - 10 * view.nearest_enemy_d(Hex(*order["hex"]), u.side)
        elif k == "retreat":
            # back toward friends and the own edge, as far from the enemy as the step allows
            u = state.units[order["unit"]]
            end = Hex(*order["path"][-1])
            score = 10 * view.nearest_enemy_d(end, u.side) - hmap.rows_from_edge(end, B.edge_of(game.scenario, u.side))
        elif k == "rally":
            score = 300
        elif k == "hold":
            score = 0
        elif k == "join":
            score = 30
        elif k == "fortify":
            score = 60
        elif k == "dismantle":
            score = 40          # an open bridge is a way forward
        elif k in ("climb", "gate"):
            score = 5
        elif k == "occupy":
            score = 150 if Hex(*order["hex"]) in objectives else 15
        else:
            u = state.units[order["unit"]]
            if B.is_general(u):
                if k == "move":
                    end = Hex(*order["path"][-1])
                    score = _general_value(view, u, end) - _general_value(view, u, u.hex)
            elif B.state_of(u) == "disordered":
                score = 200 + _value(view, u, u.hex, order["facing"], order["formation"], objectives) // 10
            else:
                now = _value(view, u, u.hex, u.facing, B.formation(u), objectives)
                if k == "move":
                    end = Hex(*order["path"][-1]) if order["path"] else u.hex
                    score = _value(view, u, end, order["facing"], B.formation(u), objectives) - now
                else:
                    score = _value(view, u, u.hex, order["facing"], order["formation"], objectives) - now
                if score > 0 and _can_fire_now(game, u):
                    score -= 60
        yield score, order


def _orders(ruleset, game: "Position", view: B.View) -> Iterable[Order]:
    """The legal orders worth scoring. In the Movement phase the computer activates its pieces
    one at a time, the one nearest the enemy first (fleeing units before everything), so only
    that piece's orders are scored."""
    state = game.state
    if state.phase == "appearance":
        # enter facing away from the own edge, in a marching formation
        for o in ruleset.legal_orders(game):
            if o.kind != "appear" or (o["facing"] in _away(game, state.active)
                                      and o["formation"] in ("column", "limbered", "standard", "gunners")):
                yield o
        return
    if state.phase != "movement":
        yield from ruleset.legal_orders(game)
        return
    pieces = AC.pieces(state, state.active)
    if not pieces or state.active in state.vars.get("done", []):
        yield from ruleset.legal_orders(game)
        return

    def urgency(u: Unit) -> tuple:
        if u.hex is None:
            return (-1, u.id)
        return (view.nearest_enemy_d(u.hex, u.side) + (20 if B.is_general(u) else 0), u.id)

    piece = min(pieces, key=urgency)
    turns = {piece.facing, (piece.facing + 1) % 6, (piece.facing - 1) % 6}
    for o in AC.movement_orders(game.map, view, piece, preferred_only=True):
        # the computer wheels at most 60 degrees in a move (a search cut, not a rule)
        if o.kind != "move" or B.is_general(piece) or o["facing"] in turns:
            yield o


def _away(game: "Position", side: str) -> tuple[int, ...]:
    edge = B.edge_of(game.scenario, side)
    return {"south": (1, 0), "north": (4, 3), "west": (0, 5), "east": (2, 3)}[edge]


def _can_fire_now(game: "Position", u: Unit) -> bool:
    """Holding still keeps the right to fire (9.10): worth something if a target is in reach."""
    if int(u.stat("fire", 0)) <= 0 or B.mounted(u):
        return False
    view = B.View(game.state)
    lo, _, hi = F.ranges(u)
    return any(lo <= B.gap(e, u) <= hi for e in view.enemy_stands(u.side)) \
        and not F.moved_bars_fire(u, game.state.turn) and B.formation(u) in ("line", "unlimbered", "column")


def strong_candidates(ruleset, game: "Position") -> Iterable[tuple[int, Order]]:
    """The strong level's candidates: basic's, rescored in the seats of ``GENERAL_GUARD`` for
    what basic does not see about generals (22.6: one left alone next to an enemy stand after
    the Attack phase is captured, which scores the enemy 2 points, 5 for the
    commander-in-chief, 22.10, and takes his 40 cm command (7.3) away from his side). A
    general's move is scored down for ending exposed to an enemy charge (``general_exposed``);
    an attack is scored by the generals it leaves alone next to an enemy stand, the enemy's
    up and this side's down (``lonely_generals``)."""
    state = game.state
    guarded = (game.scenario.id, state.active) in GENERAL_GUARD
    view = B.View(state) if guarded else None
    for score, order in candidates(ruleset, game):
        if guarded and order.kind == "move" and state.phase == "movement":
            u = state.units[order["unit"]]
            if B.is_general(u) and order["path"]:
                end = Hex(*order["path"][-1])
                score -= GENERAL_EXPOSED * (general_exposed(view, u, end) - general_exposed(view, u, u.hex))
        elif guarded and order.kind == "attack" and state.phase == "attack":
            score += GENERAL_POINT * _capture_points(game, state, order)
        yield score, order


def general_exposed(view: B.View, g: Unit, h: Hex) -> int:
    """1 if general ``g`` in hex ``h`` would stand alone where an enemy stand may end next to
    him in the next Attack phase: an attack moves at most 10 cm (2 hexes, 7.4) and he is taken
    with an enemy stand adjacent (22.6), so an enemy stand within 3 hexes, and a column's
    stands follow its head (``GENERAL_SAFE_D`` counts one more); else 0."""
    stand = view.stands.get(h)
    if stand is not None and stand.side == g.side:
        return 0
    return int(view.nearest_enemy_d(h, g.side) <= GENERAL_SAFE_D)


def lonely_generals(state: "State") -> dict[str, int]:
    """The generals on the table alone next to an enemy stand (captured if still so when the
    Attack phase ends, 22.6), with the points their capture scores (22.10)."""
    view = B.View(state)
    return {g.id: D.POINTS["cinc"] if g.kind == "CINC" else D.POINTS["general"]
            for g in (state.units[k] for k in sorted(state.units))
            if B.is_general(g) and B.on_table(g) and g.hex not in view.stands
            and view.adjacent_enemy(g.hex, g.side)}


class _Rolled(Exception):
    pass


class _NoRolls:
    """Dice for a look at an order's deterministic result: a roll stops the look."""

    def roll(self, sides: int = 6, why: str = "") -> int:
        raise _Rolled(why)


def _capture_points(game: "Position", state: "State", order: Order) -> int:
    """Points the generals left alone next to an enemy stand by the attack ``order`` would
    score: the enemy's newly lonely generals count for this side, its own against it. Only
    the attack itself is resolved, on a copy (not the end of the phase after it)."""
    trial = state.copy()
    u = trial.units[order["unit"]]
    t = AC.unit_at(trial, Hex(*order["target"]))
    contact = order.get("contact")
    try:
        A.resolve(Resolution(game, trial, _NoRolls()), u, t, Hex(*contact) if contact is not None else None)
    except _Rolled:
        return 0
    before = lonely_generals(state)
    total = 0
    for gid, pts in lonely_generals(trial).items():
        if gid not in before:
            total += pts if trial.units[gid].side != state.active else -pts
    return total
