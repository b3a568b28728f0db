"""How good a campaign position is for one side, for the strong computer's lookahead.

The campaign is won by the scenario's goal, so the evaluation follows it (every weight DESIGNED):

* everywhere: the share of the side's starting FP still on the map (not for the side that must
  exit: EXIT_MATERIAL), and the RP in hand;
* exit (25.5, Bir Hakeim): for the side that must leave the map, the share of its goal already
  off the map, and how close each company stands to the enemy edge by a legal route around enemy
  points (ai.exit_steps), weighted by its FP; the other side scores what the exiting side loses;
* meeting (25.2): the share of the enemy's companies destroyed toward the scenario's percentage,
  each point of the enemy edge held (three win), and each group that could reach that edge by
  the end of the next turn (the edge is counted at the end of a turn: a group one turn away is
  most of the way to a win, and the enemy's such groups are what a blocker takes away).

The score is this side's view less the enemy's, so a position good for one side is as bad for
the other.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from . import ai
from . import campaign as K
from . import execute as X
from . import forces as F
from . import geo

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position

MATERIAL = 1000   # the whole starting FP still on the map
#: the same for the side that must leave the map: nothing, as its FP are there to be spent on
#: getting off it, and its route term below already weighs each company by its FP (measured: with
#: 1000 the searching Germans called off the attacks that open the way and won 10 of 40 Bir
#: Hakeim games against basic's 15; with 0 and ROUTE 2400 they won 18)
EXIT_MATERIAL = 0
RP = 5            # each resource point in hand
EXIT = 3000       # the whole exit goal off the map
ROUTE = 2400      # the whole exit goal standing on the enemy edge, ready to leave
COMPANIES = 1500  # the enemy companies destroyed that the scenario asks for
EDGE = 400        # each point of the enemy edge held, up to the number that wins
FAR = 5           # points from the edge beyond which a company earns nothing for its route
RACE = 200        # each group that can reach the enemy edge next turn (meeting), up to what wins


def evaluate(game: "Position", side: str) -> int:
    enemy = game.state.enemy_of(side)
    return int(view(game, side) - view(game, enemy))


def view(game: "Position", side: str) -> Fraction:
    """What ``side`` has toward winning (always >= 0)."""
    state = game.state
    s = state.sides[side]
    v = game.scenario.victory
    exiting = v.get("type") == "exit" and v.get("side") == side
    weight = EXIT_MATERIAL if exiting else MATERIAL
    total = weight * F.fp(state, F.live(state, side)) / max(1, s["start_fp"]) + RP * max(0, s["rp"])
    if exiting:
        goal = max(1, int(v.get("fp", 1)))
        total += EXIT * min(K.exited(state, side), Fraction(goal)) / goal
        for cid in F.live(state, side):
            c = F.companies(state)[cid]
            steps = ai.exit_steps(game, side, [cid], c["point"], c["bank"])
            near = Fraction(max(0, FAR + 1 - steps), FAR)
            total += ROUTE * F.fp(state, [cid]) * near / goal
    elif v.get("type") == "meeting":
        enemy = state.enemy_of(side)
        pct = int(v.get("companies_percent", 50))
        lost, start = state.sides[enemy]["lost_companies"], state.sides[enemy]["start_companies"]
        if start:
            total += COMPANIES * min(Fraction(100 * lost, pct * start), Fraction(1))
        need = int(v.get("edge_points", 3))
        held = set(K.edge_held(game.scenario, state, side))
        total += EDGE * min(need, len(held))
        total += RACE * min(max(0, need - len(held)), threats(game, side, held))
    return total


def threats(game: "Position", side: str, held: set[int], epoints: set[int] | None = None) -> int:
    """Meeting (25.2): ``side``'s groups off the enemy edge that could stand on it after one more
    step 8: by a Maneuver (its allowance, never next to an enemy point, G-23) or by an Attack
    (two points, the first free of enemy, G-27). One per point, as a group moves as one.
    ``epoints``: where the enemy stands, when not where it stands now (a move being weighed)."""
    state = game.state
    enemy = state.enemy_of(side)
    if epoints is None:
        epoints = F.occupied(state, enemy)
    near = set(epoints)
    for e in epoints:
        near.update(n for _, n in geo.neighbours(e))
    count = 0
    for p in F.group_points(state, side):
        if p in held:
            continue
        cids = F.at(state, p, side)
        bank = F.companies(state)[cids[0]]["bank"]
        by_attack = ai.exit_steps(game, side, cids, p, bank, epoints) - 1
        if by_attack <= 2:
            count += 1
            continue
        if p in near:
            continue
        allowance = 4 if F.mechanised(F.units_of(state, cids)) else 2
        if ai.exit_steps(game, side, cids, p, bank, near) - 1 <= allowance:
            count += 1
    return count


#: DESIGNED: what the strong level's candidate list adds to basic's score of a move for each
#: enemy group it stops from reaching the edge next turn (basic scores a point of progress at 8)
BLOCK = 20


def blocking_orders(game: "Position", scored: list) -> list:
    """Meeting (25.2): basic's scored orders, each step-8 move raised by ``BLOCK`` for every enemy
    group (``threats``) that could reach this side's edge next turn before it and no longer could
    after it (a group next to ours may not Maneuver, G-23). Basic never looks at the enemy's race,
    so without this the strong level's few candidates held no blocking move to compare."""
    state = game.state
    if game.scenario.victory.get("type") != "meeting" or state.phase != "execute" or state.pending:
        return scored
    side = state.active
    enemy = state.enemy_of(side)
    edge = set(geo.edge_points(state.sides[side]["edge"]))
    eheld = F.occupied(state, enemy) & edge
    theirs = F.occupied(state, enemy)
    mine = F.occupied(state, side)
    now = threats(game, enemy, eheld, mine)
    if not now:
        return scored
    memo: dict[tuple, int] = {}
    out = []
    for score, order in scored:
        path = list(order["path"]) if order.kind == "act" else []
        if path and path[-1] != geo.OFF_MAP and path[-1] not in theirs:
            actor, end = order["actor"], path[-1]
            if (actor, end) not in memo:
                o = state.vars["orders"][side][actor]
                cids = X.participants(state, side, actor)
                stays = any(c not in cids for c in F.at(state, o["point"], side))
                pts = (mine if stays else mine - {o["point"]}) | {end}
                memo[(actor, end)] = now - threats(game, enemy, eheld, pts)
            score += BLOCK * memo[(actor, end)]
        out.append((score, order))
    return out
