"""The plan of steps 4-7 as a form a player fills in: one field per decision, each with the
choices the rules allow now, turned into plan rows (``plans.py``) and judged by ``plans.parse``.

UI-only: the screen (tui/screen_plan.py) moves between fields and cycles their choices; this
module says which fields there are, which choices each offers, and what the whole plan costs or
why the rules refuse it. Support choices are offered only when the rules accept that row on its
own (``plans.parse`` of the posture and that row), so a player is never shown an impossible one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import deploy as D
from . import forces as F
from . import geo
from . import plans as P
from .words import ORDER_NAMES, POSTURE_NAMES, commander_name, company_name, fp_text, point_text


@dataclass
class Field:
    """One decision: ``kind`` says what it is, ``options`` are (words, value) pairs."""

    kind: str              # posture | order | with | support | place | note
    label: str
    options: list[tuple[str, Any]] = field(default_factory=list)
    index: int = 0
    commander: str = ""    # order and with fields
    company: str = ""      # with fields
    indent: int = 0

    @property
    def value(self) -> Any:
        return self.options[self.index][1] if self.options else None

    @property
    def text(self) -> str:
        return self.options[self.index][0] if self.options else ""

    def cycle(self, step: int) -> None:
        if self.options:
            self.index = (self.index + step) % len(self.options)

    def choose(self, value: Any) -> bool:
        for i, (_, v) in enumerate(self.options):
            if v == value:
                self.index = i
                return True
        return False


def postures_for(state: Any, side: str) -> tuple[str, ...]:
    return P.OFFENSIVE if state.vars["si"] == side else P.DEFENSIVE


def _posture_words(name: str) -> str:
    mand = P.MANDATORY[name]
    return POSTURE_NAMES[name] + (f" (mandatory: {ORDER_NAMES[mand]})" if mand else "")


def order_options(state: Any, commander: str, posture: str) -> list[tuple[str, Any]]:
    """No order, then the orders the posture allows (every order for a +2 commander, 11.3)."""
    rating = F.commanders(state)[commander]["rating"]
    allowed = P.ORDERS if rating >= 2 else P.POSTURES[posture]
    return [("no order (the group stays)", None)] + [(ORDER_NAMES[o], o) for o in allowed]


def deploying(game: Any) -> bool:
    """The secret round is the deployment before turn 1 (G-59), not a turn's plan."""
    return game.state.phase == "deploy"


def _deploy_fields(game: Any, side: str) -> list[Field]:
    """One field per company: the points of the side's zone, the scenario's set-up first."""
    state = game.state
    cmap = geo.campaign_map(game.scenario)
    setup = {row[1]: row[2] for row in D.scenario_placement(game, side)}
    zone = D.zone(game.scenario, side)
    fields = []
    for cid in F.live(state, side):
        opts = [(f"{point_text(p)} {cmap.base(p)}", p) for p in zone]
        f = Field("place", company_line_short(game, cid), opts, company=cid)
        f.choose(setup.get(cid))
        fields.append(f)
    return fields


def build(game: Any, side: str) -> list[Field]:
    """Every field of ``side``'s plan for this turn, with defaults that commit nothing costly
    (at the secret deployment: where each company stands, the scenario's set-up to start with)."""
    if deploying(game):
        return _deploy_fields(game, side)
    state = game.state
    fields = [Field("posture", "Posture", [(_posture_words(p), p) for p in postures_for(state, side)])]
    posture = fields[0].value
    taken: set[str] = set()
    for k in sorted(F.commanders(state)):
        cmd = F.commanders(state)[k]
        if cmd["side"] != side or not cmd["point"]:
            continue
        fields.append(Field("order", f"{commander_name(game, k)} at {point_text(cmd['point'])}",
                            order_options(state, k, posture), commander=k))
        for cid in F.at(state, cmd["point"], side):
            first = cid not in taken
            taken.add(cid)
            opts = [("takes part", True), ("stays out", False)] if first else \
                [("stays out", False), ("takes part", True)]
            fields.append(Field("with", company_line_short(game, cid), opts, commander=k, company=cid,
                                indent=2))
    alone = [cid for cid in F.live(state, side) if cid not in taken]
    for cid in alone:
        fields.append(Field("note", f"{company_line_short(game, cid)} at "
                            f"{point_text(F.companies(state)[cid]['point'])}: no commander (11.4)"))
    fields += support_fields(game, side, posture)
    return fields


def company_line_short(game: Any, cid: str) -> str:
    c = F.companies(game.state)[cid]
    tired = ", exhausted" if c["exhausted"] else ""
    return f"{company_name(game, cid)} {fp_text(F.fp(game.state, [cid]))} FP{tired}"


def _row_ok(game: Any, side: str, posture: str, row: list[Any]) -> bool:
    """The rules accept ``row`` on its own (the plan's end checks aside)."""
    base = P.parse(game, side, [["posture", posture]])[1]
    return P.parse(game, side, [["posture", posture], row])[1] == base


def support_fields(game: Any, side: str, posture: str) -> list[Field]:
    state = game.state
    enemy = state.enemy_of(side)
    out: list[Field] = []
    enemy_points = sorted(F.occupied(state, enemy))
    any_points = sorted(F.occupied(state, enemy) | F.occupied(state, side))
    own = F.live(state, side)
    for u in sorted((u for u in state.units.values() if u.side == side and F.is_aircraft(u)
                     and u.strength > 0), key=lambda u: u.id):
        rows = [["air", "raid", u.id, p] for p in enemy_points]
        rows += [["air", "superiority", u.id, p] for p in any_points]
        rows += [["air", "cas", u.id, cid] for cid in own]
        opts = [(_support_words(game, r), r) for r in rows if _row_ok(game, side, posture, r)]
        name = str(u.stats.get("name", u.name))
        if opts:
            out.append(Field("support", f"Aircraft {name}", [("stays on the ground", None)] + opts))
        else:
            why = "bad weather (9)" if state.vars["weather"] == "bad" else "no target"
            out.append(Field("note", f"Aircraft {name}: grounded, {why}"))
    for cid in own:
        if F.artillery_models(F.platoons(state, cid)) < 2:
            continue
        rows = [["artillery", "direct", cid]]
        rows += [["artillery", m, cid, p] for m in ("prep", "heavy") for p in enemy_points]
        opts = [(_support_words(game, r), r) for r in rows if _row_ok(game, side, posture, r)]
        if opts:
            out.append(Field("support", f"Artillery of {company_name(game, cid)}",
                             [("does not fire", None)] + opts))
    cmap = geo.campaign_map(game.scenario)
    for p in sorted(cmap.crossing):
        if cmap.crossing[p] not in P.BRIDGE_COST:
            continue
        rows = [["bridge", op, p] for op in ("blow", "repair")]
        opts = [(_support_words(game, r), r) for r in rows if _row_ok(game, side, posture, r)]
        if opts:
            out.append(Field("support", f"Bridge at {point_text(p)}", [("left as it is", None)] + opts))
    for cid in own:
        for i, kind in enumerate(F.companies(state)[cid]["trophies"]):
            row = ["trophy", cid, kind]
            if _row_ok(game, side, posture, row):
                out.append(Field("support", f"Trophy {i + 1} of {company_name(game, cid)}",
                                 [("kept back", None), (_support_words(game, row), row)]))
    return out


def _support_words(game: Any, row: list[Any]) -> str:
    kind = row[0]
    if kind == "air":
        mission, target = row[1], row[3]
        cost = P.AIR_COST[mission]
        if mission == "cas":
            return f"close air support for {company_name(game, target)} ({cost} RP)"
        what = "air raid on" if mission == "raid" else "air superiority over"
        return f"{what} {point_text(target)} ({cost} RP)"
    if kind == "artillery":
        mission, cid = row[1], row[2]
        if mission == "direct":
            return f"direct support ({F.artillery_models(F.platoons(game.state, cid))} RP)"
        what = "preparation" if mission == "prep" else "heavy preparation"
        return f"{what} on {point_text(row[3])} ({P.ARTILLERY_COST[mission]} RP)"
    if kind == "bridge":
        cost = P.REPAIR_COST if row[1] == "repair" else \
            P.BRIDGE_COST[geo.campaign_map(game.scenario).crossing[row[2]]]
        return f"{row[1]} the bridge ({cost} RP)"
    if kind == "trophy":
        return f"bring the captured {row[2]} into action ({P.TROPHY_COST} RP)"
    return str(row)


def refresh(game: Any, side: str, fields: list[Field]) -> None:
    """After the posture changes: each commander's choices follow it, keeping what still fits."""
    posture = fields[0].value
    for f in fields:
        if f.kind == "order":
            keep = f.value
            f.options = order_options(game.state, f.commander, posture)
            f.index = 0
            f.choose(keep)


def rows(fields: list[Field]) -> list[list[Any]]:
    """The plan rows (plans.py, or deploy.py's placement) the form describes."""
    if fields and fields[0].kind == "place":
        return [["place", f.company, f.value] for f in fields if f.kind == "place"]
    out: list[list[Any]] = [["posture", fields[0].value]]
    for f in fields:
        if f.kind == "order" and f.value is not None:
            cids = [g.company for g in fields if g.kind == "with" and g.commander == f.commander and g.value]
            out.append(["order", f.commander, f.value, *cids])
        elif f.kind == "support" and f.value is not None:
            out.append(list(f.value))
    return out


def fill(game: Any, side: str, fields: list[Field], plan: list[list[Any]]) -> None:
    """Set the form to ``plan`` (a suggestion), as far as its fields can hold it."""
    if fields and fields[0].kind == "place":
        where = {r[1]: r[2] for r in plan if r and r[0] == "place"}
        for f in fields:
            f.choose(where.get(f.company))
        return
    fields[0].choose(next((r[1] for r in plan if r and r[0] == "posture"), fields[0].value))
    refresh(game, side, fields)
    orders = {r[1]: r for r in plan if r and r[0] == "order"}
    support = [r for r in plan if r and r[0] in ("air", "artillery", "bridge", "trophy")]
    for f in fields:
        if f.kind == "order":
            f.choose(orders[f.commander][2] if f.commander in orders else None)
        elif f.kind == "with":
            row = orders.get(f.commander)
            f.choose(bool(row) and f.company in row[3:])
        elif f.kind == "support":
            f.index = 0
            for r in support:
                if f.choose(r):
                    break


def check(game: Any, side: str, fields: list[Field]) -> tuple[int, str | None]:
    """(RP the plan costs, why the rules refuse it or None)."""
    if deploying(game):
        return 0, D.placement_problem(game, side, rows(fields))
    parsed, why = P.parse(game, side, rows(fields))
    return (parsed["cost"] if parsed else 0), why


__all__ = ["Field", "build", "check", "deploying", "fill", "refresh", "rows"]
