"""Deployment: each side secretly writes down where its companies stand (spec 5, 25.2, 25.5, G-59).

A scenario with ``[rules] deployment = { side = zone }`` opens with a secret round (engine/secret.py)
named ``deploy``: both sides commit to a placement, then reveal it, and only then is anything
moved. A placement is a plan of rows ``["place", company, point]``, one row for every company of
the side. The zones:

* ``edge``: a point of the side's own edge row (25.5: the Germans "enter in any point on their
  own edge");
* ``near-edge``: within 2 points of the own edge, i.e. the edge row and the next (25.2);
* ``anywhere``: any point (25.5: the British) outside the enemy's zone. DESIGNED: the source lets
  the British deploy "in any point"; placements are simultaneous, so without this a company could
  be written into the very point where the enemy enters.

Mechanised companies and vehicles may not deploy in the mountains (13, G-64). Without a
``deployment`` rule the scenario's set-up is fixed, as before. Commanders are placed after the
companies, by the same designed rule as at set-up (forces.commander_posts). The computer
deploys as the scenario's set-up does (the designed deployment its balance was tuned with).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.engine.ruleset import Resolution

from . import forces as F
from . import geo

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.scenario import Scenario
    from hexwar.engine.state import State

ROUND = "deploy"
ZONES = ("edge", "near-edge", "anywhere")


def zones_of(scenario: "Scenario") -> dict[str, str] | None:
    rule = scenario.rules.get("deployment")
    return rule if isinstance(rule, dict) else None


def zone(scenario: "Scenario", side: str) -> list[int]:
    """The points where ``side`` may place its companies."""
    zones = zones_of(scenario) or {}
    edges = {s.id: s.home_edge or "north" for s in scenario.sides}
    mode = zones.get(side, "anywhere")
    if mode == "edge":
        return [p for p in geo.POINTS if geo.rows_from(p, edges[side]) == 0]
    if mode == "near-edge":
        return [p for p in geo.POINTS if geo.rows_from(p, edges[side]) <= 1]
    enemy = next(s.id for s in scenario.sides if s.id != side)
    theirs = set(zone(scenario, enemy)) if zones.get(enemy, "anywhere") != "anywhere" else set()
    return [p for p in geo.POINTS if p not in theirs]


def scenario_problems(scenario: "Scenario") -> list[str]:
    """A deployment rule names a zone for each side, at most one side deploys ``anywhere``, and
    the scenario's own set-up (what the computer deploys) lies within the zones."""
    zones = zones_of(scenario)
    if zones is None:
        return [] if "deployment" not in scenario.rules else ["rules.deployment: side = zone"]
    sides = [s.id for s in scenario.sides]
    if sorted(zones) != sorted(sides) or any(v not in ZONES for v in zones.values()):
        return [f"rules.deployment: a zone for each side, one of {', '.join(ZONES)}"]
    if list(zones.values()).count("anywhere") > 1:
        return ["rules.deployment: at most one side deploys anywhere"]
    out = []
    for d in scenario.divisions:
        hexes = [u.hex for u in scenario.units if u.division == d.id and u.hex is not None]
        point = geo.point_at(hexes[0]) if hexes else 0
        if point and point not in zone(scenario, d.side):
            out.append(f"division {d.id}: its set-up point {point:02d} is outside {d.side}'s "
                       f"deployment zone ({zones[d.side]})")
    return out


def placement_problem(game: "Position", side: str, plan: Any) -> str | None:
    """None if ``plan`` places every company of ``side`` once, each in a point it may deploy to."""
    state = game.state
    cmap = geo.campaign_map(game.scenario)
    allowed = set(zone(game.scenario, side))
    mine = sorted(F.live(state, side))
    placed: list[str] = []
    for row in plan:
        if len(row) != 3 or row[0] != "place":
            return "a deployment row is [\"place\", company, point] (5)"
        cid, p = row[1], row[2]
        if cid not in mine:
            return f"{cid!r} is not a company of {side}"
        if cid in placed:
            return f"{cid} is placed once"
        placed.append(cid)
        if not isinstance(p, int) or isinstance(p, bool) or p not in allowed:
            mode = (zones_of(game.scenario) or {}).get(side, "anywhere")
            return f"{cid}: point {p!r} is outside {side}'s deployment zone ({mode}; 25.2, 25.5, G-59)"
        units = F.platoons(state, cid)
        if cmap.base(p) == "mountains" and (F.mechanised(units) or any(F.is_vehicle(u) for u in units)):
            return f"{cid}: mechanised troops may not deploy in the mountains at {p:02d} (13)"
    missing = [c for c in mine if c not in placed]
    if missing:
        return f"place every company: {', '.join(missing)} has no point (5)"
    return None


def scenario_placement(game: "Position", side: str) -> list[list[Any]]:
    """The scenario's own set-up for ``side``, as a placement (what the computer deploys)."""
    state = game.state
    setup: dict[str, int] = {}
    for u in game.scenario.units:
        if u.side == side and u.division and u.hex is not None:
            setup.setdefault(u.division, geo.point_at(u.hex))
    return [["place", cid, setup[cid]] for cid in sorted(F.live(state, side)) if cid in setup]


def apply(ctx: Resolution, state: "State", plans: dict[str, list[list[Any]]]) -> None:
    """Both placements are open: move every company, then place the commanders."""
    for side in state.side_order:
        for _, cid, p in plans[side]:
            F.move_company(state, cid, p)
        ctx.emit("deployed", side=side, points={cid: p for _, cid, p in sorted(plans[side])})
        ks = sorted((k for k, v in F.commanders(state).items() if v["side"] == side),
                    key=lambda k: int(k.rsplit("hq", 1)[1]))
        for k, point in zip(ks, F.commander_posts(state, side, len(ks))):
            F.commanders(state)[k]["point"] = point
