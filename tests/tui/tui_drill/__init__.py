"""A tiny ruleset for the UI tests: just enough rules to exercise every kind of screen.

Real rulesets change while they are written; the UI tests should fail only when the UI breaks.
One phase per side per turn. Each unit may move once (``move unit path``), then ``fire`` at an
enemy within its range (one die: 5-6 hits) or ``attack`` an adjacent enemy hex (one die, odds
from a column table; a hit leaves the defender a ``choose-loss`` decision when the hex holds
more than one unit). ``end-phase`` passes to the other side. A side with no units left loses;
after the last turn the side with more strength wins.
"""

from __future__ import annotations

from typing import Any, Iterator

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.movement import search_moves
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution, Ruleset
from hexwar.engine.state import State, Unit

COST = {"clear": 1, "forest": 2, "hill": 2, "town": 1}
TABLE = {1: (1, 4), 2: (3, 3), 3: (5, 2)}  # ratio column -> (hits needed "die >= n")


class Drill(Ruleset):
    id = "drill"
    title = "Drill (UI test rules)"
    unit_types = {"INF": {"strength": 3, "move": 3, "range": 1},
                  "ART": {"strength": 2, "move": 2, "range": 4}}
    terrain_types = {"clear": "open ground", "forest": "woods", "hill": "high ground",
                     "town": "buildings", "water": "impassable lake"}
    hexside_types = ("river",)

    def may_stack_at_setup(self, stats: dict, other: dict) -> bool:
        return True

    def initial_state(self, scenario: Any) -> State:
        sides = [s.id for s in scenario.sides]
        first = scenario.first_player or sides[0]
        units = {u.id: Unit(u.id, u.side, u.kind, u.name, u.hex, u.strength, u.strength,
                            u.facing, u.division, u.grade, dict(u.stats)) for u in scenario.units}
        return State(self.id, scenario.id, 1, "action", first, sides,
                     {s: {"losses": 0} for s in sides}, units)

    # --- questions ------------------------------------------------------------------------
    def _mine(self, game: Any) -> list[Unit]:
        return game.state.side_units(game.state.active)

    def _enemy_hexes(self, state: State, side: str) -> set[Hex]:
        return {u.hex for u in state.units.values() if u.alive and u.side != side}

    def reachable(self, game: Any, unit_id: str) -> dict:
        state, m = game.state, game.map
        u = state.units.get(unit_id)
        if u is None or not u.alive or u.marks.get("moved") or u.marks.get("acted"):
            return {}
        enemies = self._enemy_hexes(state, u.side)
        friends = {x.hex for x in state.units.values() if x.alive and x.side == u.side}

        def step(a: Hex, b: Hex, spent: int, aux: Any):
            t = m.terrain_at(b)
            if t == "water" or b in enemies:
                return None
            cost = spent + COST[t] + (1 if "river" in m.features_between(a, b) else 0)
            return cost, None, any(n in enemies for _, n in m.neighbors(b))

        return search_moves(Hex(*u.hex), lambda h: [n for _, n in m.neighbors(h)], step,
                            int(u.stat("move")), lambda h: h not in friends)

    def targets(self, game: Any, unit_id: str) -> list[Hex]:
        state = game.state
        u = state.units.get(unit_id)
        if u is None or not u.alive or u.marks.get("acted") or u.side != state.active:
            return []
        return sorted(h for h in self._enemy_hexes(state, u.side)
                      if hex_distance(u.hex, h) <= int(u.stat("range")))

    def legal_orders(self, game: Any) -> Iterator[Order]:
        state = game.state
        if state.pending:
            p = state.pending[0]
            for uid in p["units"]:
                yield Order.make("choose-loss", unit=uid)
            return
        for u in self._mine(game):
            for h, route in sorted(self.reachable(game, u.id).items()):
                yield Order.make("move", unit=u.id, path=[list(x) for x in route.path])
            for h in self.targets(game, u.id):
                if u.kind == "ART":
                    yield Order.make("fire", unit=u.id, target=list(h))
                if hex_distance(u.hex, h) == 1:
                    yield Order.make("attack", unit=u.id, target=list(h))
        yield Order.make("end-phase")

    def validate(self, game: Any, order: Order) -> str | None:
        if order in set(self.legal_orders(game)):
            return None
        state = game.state
        if state.pending:
            return f"first {state.pending[0]['side']} must choose which unit takes the loss"
        u = state.units.get(order.get("unit", ""))
        if order.kind == "move" and u is not None and u.marks.get("moved"):
            return f"{u.name} has already moved this turn"
        if order.kind in ("fire", "attack") and u is not None:
            return f"{u.name} cannot {order.kind} that hex"
        return f"{order.kind} is not allowed now"

    def needs_dice(self, game: Any, order: Order) -> bool:
        return order.kind in ("fire", "attack")

    def odds(self, game: Any, order: Order) -> dict[str, Any]:
        state = game.state
        u = state.units[order["unit"]]
        target = Hex(*order["target"])
        defenders = [x for x in state.unit_at(target) if x.alive]
        dstr = sum(x.strength for x in defenders) or 1
        mods = [{"name": "attacker strength", "value": u.strength},
                {"name": "defender strength", "value": -dstr}]
        col = max(1, min(3, u.strength // dstr + (1 if order.kind == "attack" else 0)))
        if game.map.terrain_at(target) in ("forest", "town"):
            mods.append({"name": f"defender in {game.map.terrain_at(target)}", "value": -1})
            col = max(1, col - 1)
        need = TABLE[col][1] if order.kind == "attack" else 5
        return {"modifiers": mods, "column": f"{col}:1", "final": col,
                "results": {"hit": (7 - need) / 6, "miss": (need - 1) / 6}}

    # --- change ---------------------------------------------------------------------------
    def resolve(self, ctx: Resolution, order: Order) -> None:
        state = ctx.state
        if order.kind == "end-phase":
            for u in state.units.values():
                u.marks.clear()
            nxt = state.enemy_of(state.active)
            if nxt == state.side_order[0]:
                state.turn += 1
            state.active = nxt
            ctx.emit("phase-ended", turn=state.turn, active=nxt)
            self._check_end(ctx)
            return
        if order.kind == "choose-loss":
            state.pending.pop(0)
            self._lose(ctx, state.units[order["unit"]])
            self._check_end(ctx)
            return
        u = state.units[order["unit"]]
        if order.kind == "move":
            path = [Hex(*h) for h in order["path"]]
            u.hex = path[-1]
            u.mark("moved")
            ctx.emit("moved", unit=u.id, path=[list(h) for h in path])
            return

        target = Hex(*order["target"])
        defenders = [x for x in state.units.values() if x.alive and x.hex == target]
        dstr = sum(x.strength for x in defenders) or 1
        col = max(1, min(3, u.strength // dstr + (1 if order.kind == "attack" else 0)))
        if ctx.map.terrain_at(target) in ("forest", "town"):
            col = max(1, col - 1)
        need = TABLE[col][1] if order.kind == "attack" else 5
        u.mark("moved")
        u.mark("acted")
        value = ctx.roll(f"{order.kind} by {u.name}", 6, need=need)
        ctx.emit("fired" if order.kind == "fire" else "attacked", unit=u.id, target=list(target),
                 hit=value >= need)
        if value < need:
            return
        if len(defenders) > 1:
            state.pending.append({"kind": "choose-loss", "side": defenders[0].side,
                                  "units": sorted(x.id for x in defenders),
                                  "why": f"a hit on {ctx.map.label(target)}"})
            return
        self._lose(ctx, defenders[0])
        self._check_end(ctx)

    def _lose(self, ctx: Resolution, u: Unit) -> None:
        u.strength -= 1
        ctx.state.sides[u.side]["losses"] += 1
        ctx.emit("step-lost", unit=u.id, left=u.strength)
        if u.strength <= 0:
            u.hex = None
            ctx.emit("eliminated", unit=u.id)

    def _check_end(self, ctx: Resolution) -> None:
        state = ctx.state
        alive = {s: sum(u.strength for u in state.side_units(s)) for s in state.side_order}
        for s, total in alive.items():
            if total == 0:
                winner = state.enemy_of(s)
                state.result = {"winner": winner, "reason": f"{s} has no units left"}
                ctx.emit("game-over", **state.result)
                return
        if state.turn > ctx.scenario.turns:
            a, b = state.side_order
            winner = a if alive[a] > alive[b] else b if alive[b] > alive[a] else None
            state.result = {"winner": winner, "reason": f"turn limit reached; strength {alive}"}
            ctx.emit("game-over", **state.result)

    def ai_orders(self, game: Any):
        for o in self.legal_orders(game):
            yield {"attack": 30, "fire": 20, "choose-loss": 5, "move": 1, "end-phase": 0}[o.kind] \
                + (self._closer(game, o) if o.kind == "move" else 0), o

    def _closer(self, game: Any, o: Order) -> int:
        end = Hex(*o["path"][-1])
        enemies = self._enemy_hexes(game.state, game.state.active)
        return -min((hex_distance(end, e) for e in enemies), default=0)


RULESET = Drill()
