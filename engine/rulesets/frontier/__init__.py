"""Frontier (Joseph Morschauser), as collected in the Portable Wargame, on hexes (spec section 3).

Order kinds (hexes are axial ``[q, r]`` pairs):

* ``fire unit target`` - artillery phase: declare a battery's shot at an enemy-held cell.
* ``move unit path facing`` - move phase: ``path`` lists the cells entered; ``facing`` 0-5 is the
  final facing. When the last cell is in the front zone of one enemy, ``facing`` must point at it;
  of several enemies, leave ``facing`` out (null) and answer the pending ``face`` decision.
  A unit that starts facing an adjacent enemy moves only by breaking contact (3.5.7).
* ``pivot unit facing`` - move phase: turn in place (this is the unit's move).
* ``face unit facing`` - pending decision: which of several enemies to face (3.5.6).
* ``attack attackers target`` - combat phase: every unit facing the defender, together.
* ``advance unit`` - pending decision after a won melee: the unit to advance, or null to hold.
* ``end-phase`` and ``resign``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator

from hexwar.engine.hexgrid import Hex, hex_neighbor
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution, Ruleset
from hexwar.engine.state import State, Unit

from . import ai, artillery, evaluate, melee, phases, words
from . import movement as mv
from . import units as U
from .orders import as_facing, as_hex, as_ids, as_path

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.movement import Route
    from hexwar.engine.scenario import Scenario

KINDS = ("fire", "move", "pivot", "face", "attack", "advance", "end-phase", "resign")
TERRAIN = {
    "clear": "open ground",
    "hill": "open ground on a hill (its level comes from the legend's elevation)",
    "forest": "no movement effect; blocks sight; cavalry -1 attacking into or defending in it; "
              "artillery fire into it is indirect",
    "river": "a river cell: costs 2 cells to enter (4 half-points) unless on a road/bridge; "
             "a unit attacked in it has Strength -1",
    "village": "built-up area: counts as road; blocks sight; artillery fire into it is indirect",
}


class FrontierRuleset(Ruleset):
    id = "frontier"
    title = "Frontier (J. Morschauser, Portable Wargame)"
    unit_types = U.UNIT_TYPES
    terrain_types = TERRAIN
    hexside_types = ("river",)
    grades = ("average",)
    #: the evaluation sees where units stand (evaluate.placement), so the strong computer
    #: compares quiet moves too, not only the orders that roll (measured: benchmarks/ai_strength.md)
    #: designed (benchmarks/ai_strength.md): one ply over 12 candidates, with each unit's next
    #: four best moves among them (``strong_orders``)
    search_budget = {"scope": "all", "width": 12, "work": 300}

    # --- set-up ---------------------------------------------------------------------------
    def check_scenario(self, scenario: "Scenario") -> list[str]:
        out = []
        side_ids = [s.id for s in scenario.sides]
        for u in scenario.units:
            if u.hex is None:
                out.append(f"unit {u.id}: Frontier has no reinforcements; give it a start hex")
            if u.kind not in U.UNIT_TYPES:
                out.append(f"unit {u.id}: unknown kind {u.kind}")
        v = scenario.victory
        unknown = sorted(set(v) - {"objective", "side"})
        if unknown:
            out.append(f"victory: unknown keys {', '.join(unknown)} (use objective and side)")
        if "objective" in v or "side" in v:
            obj = v.get("objective")
            if not isinstance(obj, str) or obj not in scenario.map.labels:
                out.append(f"victory.objective: {v.get('objective')!r} is not a map label "
                           f"({', '.join(sorted(scenario.map.labels)) or 'none defined'})")
            if v.get("side") not in side_ids:
                out.append(f"victory.side: {v.get('side')!r} is not a side ({', '.join(side_ids)})")
        return out

    def initial_state(self, scenario: "Scenario") -> State:
        state = State(ruleset=self.id, scenario=scenario.id, turn=1)
        state.side_order = [s.id for s in scenario.sides]
        for s in state.side_order:
            n = sum(1 for u in scenario.units if u.side == s)
            state.sides[s] = {"start_units": n, "lost": 0, "initiative": 0}
        for spec in scenario.units:
            state.units[spec.id] = Unit(
                id=spec.id, side=spec.side, kind=spec.kind, name=spec.name, hex=spec.hex,
                strength=spec.strength, max_strength=spec.strength, facing=spec.facing % 6,
                division=spec.division, grade=spec.grade, stats=dict(spec.stats))
        state.vars = {"contact_seq": 0}
        phases.initial(state, scenario.map)
        return state

    # --- legality ---------------------------------------------------------------------------
    def legal_orders(self, game: "Position") -> Iterator[Order]:
        state, hmap = game.state, game.map
        if state.result is not None:
            return
        if state.pending:
            pend = state.pending[0]
            if pend["kind"] == "face":
                for d in pend["options"]:
                    yield Order.make("face", unit=pend["unit"], facing=d)
            else:
                for uid in pend["units"]:
                    yield Order.make("advance", unit=uid)
                yield Order.make("advance", unit=None)
            yield Order.make("resign")
            return
        side = state.active
        if state.phase == "artillery":
            for u in artillery.batteries(state, side):
                if artillery.can_fire(state, u):
                    for t in artillery.fire_targets(hmap, state, u):
                        yield Order.make("fire", unit=u.id, target=t)
        elif state.phase == "move":
            view = mv.View(state, side)
            for u in state.side_units(side):
                if self._move_refusal(state, u) is not None:
                    continue
                breaking = mv.breaking_from(state, u)
                if breaking is None:
                    for d in range(6):
                        if d != u.facing:
                            yield Order.make("pivot", unit=u.id, facing=d)
                if U.is_fixed(u):
                    continue
                for dest, route in sorted(mv.reachable(hmap, state, u, view).items()):
                    choices = mv.facing_choices(state, view, u, dest, breaking)
                    path = [tuple(h) for h in route.path]
                    if choices is None:
                        yield Order.make("move", unit=u.id, path=path, facing=None)
                    else:
                        for d in choices:
                            yield Order.make("move", unit=u.id, path=path, facing=d)
        elif state.phase == "combat":
            for did, ids in melee.groups(state, side).items():
                yield Order.make("attack", attackers=ids, target=state.units[did].hex)
        if self._end_phase_refusal(state) is None:
            yield Order.make("end-phase")
        yield Order.make("resign")

    def _move_refusal(self, state: State, u: Unit) -> str | None:
        if not u.alive:
            return f"{u.id} has been destroyed"
        if u.marks.get("moved") == state.turn:
            return f"{u.id} has already moved this turn (3.5.2)"
        if artillery.fired(u, state.turn):
            return f"{u.id} fired this turn and may not move or pivot (3.4.1, G-F2)"
        return None

    def _end_phase_refusal(self, state: State) -> str | None:
        if state.pending:
            return "answer the pending decision first"
        if state.phase == "combat":
            left = melee.groups(state, state.active)
            if left:
                names = ", ".join(f"{', '.join(ids)} against {d}" for d, ids in left.items())
                return f"combat is compulsory (3.6.1, G-F6): {names} must still attack"
        return None

    def _own_unit(self, state: State, uid: Any) -> tuple[Unit | None, str | None]:
        if not isinstance(uid, str):
            return None, "name a unit by its id"
        u = state.units.get(uid)
        if u is None:
            return None, f"no unit {uid!r}"
        if u.side != state.active:
            return None, f"{uid} is not a unit of {state.active}"
        if not u.alive:
            return None, f"{uid} has been destroyed"
        return u, None

    def validate(self, game: "Position", order: Order) -> str | None:
        state, hmap = game.state, game.map
        if state.result is not None:
            return "the game is over"
        kind = order.kind
        if kind not in KINDS:
            return f"unknown order {kind!r} (Frontier orders: {', '.join(KINDS)})"
        if kind == "resign":
            return None
        if state.pending:
            pend = state.pending[0]
            want = pend["kind"]
            if kind != want:
                return f"answer the pending {want} decision first"
            if kind == "face":
                if order.get("unit") != pend["unit"]:
                    return f"the decision is about {pend['unit']}"
                d = as_facing(order.get("facing"))
                if d is None or d not in pend["options"]:
                    return f"{pend['unit']} must face one of the enemies whose front it entered"
                return None
            uid = order.get("unit")
            if uid is not None and uid not in pend["units"]:
                return f"only {', '.join(pend['units'])} may advance into {hmap.label(Hex(*pend['hex']))}"
            return None
        if kind in ("face", "advance"):
            return f"there is no pending {kind} decision"
        if kind == "end-phase":
            return self._end_phase_refusal(state)
        if kind == "fire":
            if state.phase != "artillery":
                return "artillery fires only in the artillery phase (3.3)"
            u, why = self._own_unit(state, order.get("unit"))
            if u is None:
                return why
            target = as_hex(order.get("target"))
            if target is None:
                return "the target must be a hex [q, r]"
            return artillery.validate_fire(hmap, state, u, target)
        if kind in ("move", "pivot"):
            if state.phase != "move":
                return "units move only in their side's move phase (3.3)"
            u, why = self._own_unit(state, order.get("unit"))
            if u is None:
                return why
            why = self._move_refusal(state, u)
            if why:
                return why
            if kind == "pivot":
                d = as_facing(order.get("facing"))
                if d is None:
                    return "facing must be a direction 0-5"
                if d == u.facing:
                    return f"{u.id} already faces that way"
                if mv.breaking_from(state, u) is not None:
                    return f"{u.id} faces an adjacent enemy; it may only break contact by moving away (3.5.7)"
                return None
            if U.is_fixed(u):
                return f"{u.id} cannot move (3.2; it may only pivot, G-F11)"
            path = as_path(order.get("path"))
            if path is None:
                return "the path must be a list of 1-32 hexes [q, r]"
            view = mv.View(state, u.side)
            why = mv.check_path(hmap, state, u, path, view)
            if why:
                return why
            choices = mv.facing_choices(state, view, u, path[-1], mv.breaking_from(state, u))
            raw = order.get("facing")
            if choices is None:
                if raw is not None:
                    return (f"{hmap.label(path[-1])} is in front of several enemies: leave facing out "
                            "and choose whom to face next (3.5.6)")
                return None
            d = as_facing(raw)
            if d is None:
                return "facing must be a direction 0-5"
            if d not in choices:
                if len(choices) == 1:
                    return f"{u.id} must stop and face the enemy at {hmap.label(hex_neighbor(path[-1], choices[0]))} (3.5.5)"
                return f"{u.id} is breaking contact and may not end facing an enemy (3.5.7)"
            return None
        if kind == "attack":
            if state.phase != "combat":
                return "melee happens only in the combat phase (3.3)"
            ids = as_ids(order.get("attackers"))
            if ids is None:
                return "attackers must be a list of unit ids"
            target = as_hex(order.get("target"))
            if target is None:
                return "the target must be a hex [q, r]"
            d = next((x for x in state.units.values() if x.alive and x.hex == target), None)
            return melee.validate_attack(state, state.active, ids, d, hmap)
        return f"unknown order {kind!r}"

    def needs_dice(self, game: "Position", order: Order) -> bool:
        if order.kind == "attack":
            return True
        if order.kind == "end-phase":
            return phases.end_artillery_needs_dice(game.state)
        return False

    # --- resolution -------------------------------------------------------------------------
    def resolve(self, ctx: Resolution, order: Order) -> None:
        state = ctx.state
        kind = order.kind
        if kind == "resign":
            loser = self.to_act_state(state)
            winner = state.enemy_of(loser)
            ctx.emit("resigned", side=loser)
            phases.finish(ctx, {"winner": winner, "reason": f"{loser} resigned"})
        elif kind == "end-phase":
            phases.end_phase(ctx)
        elif kind == "fire":
            artillery.declare(ctx, state.units[order["unit"]], as_hex(order["target"]))
        elif kind == "pivot":
            u = state.units[order["unit"]]
            u.facing = as_facing(order["facing"])
            u.mark("moved", state.turn)
            ctx.emit("pivoted", unit=u.id, facing=u.facing)
            melee.make_contact(ctx, u)
        elif kind == "move":
            self._resolve_move(ctx, order)
        elif kind == "face":
            pend = state.pending.pop(0)
            u = state.units[pend["unit"]]
            u.facing = as_facing(order["facing"])
            ctx.emit("faced", unit=u.id, facing=u.facing)
            melee.make_contact(ctx, u)
        elif kind == "attack":
            target = as_hex(order["target"])
            d = next(x for x in state.units.values() if x.alive and x.hex == target)
            melee.resolve_attack(ctx, list(order["attackers"]), d)
        elif kind == "advance":
            melee.resolve_advance(ctx, state.pending[0], order.get("unit"))

    @staticmethod
    def to_act_state(state: State) -> str:
        return state.pending[0]["side"] if state.pending else state.active

    def _resolve_move(self, ctx: Resolution, order: Order) -> None:
        state = ctx.state
        u = state.units[order["unit"]]
        path = as_path(order["path"])
        view = mv.View(state, u.side)
        breaking = mv.breaking_from(state, u)
        dest = path[-1]
        choices = mv.facing_choices(state, view, u, dest, breaking)
        start = u.hex
        u.hex = dest
        u.mark("moved", state.turn)
        if breaking is not None:
            ctx.emit("broke-contact", unit=u.id, enemy=breaking)
        if choices is None:
            u.facing = u.facing
            ctx.emit("moved", unit=u.id, frm=[start[0], start[1]], to=[dest[0], dest[1]],
                     path=[[h[0], h[1]] for h in path], facing=u.facing)
            state.pending.append({"kind": "face", "side": u.side, "unit": u.id,
                                  "options": mv.front_options(state, view, dest)})
            return
        u.facing = as_facing(order["facing"])
        ctx.emit("moved", unit=u.id, frm=[start[0], start[1]], to=[dest[0], dest[1]],
                 path=[[h[0], h[1]] for h in path], facing=u.facing)
        melee.make_contact(ctx, u)

    # --- previews ---------------------------------------------------------------------------
    def reachable(self, game: "Position", unit_id: str) -> "dict[Hex, Route]":
        u = game.state.units.get(unit_id)
        if u is None or not u.alive:
            return {}
        return mv.reachable(game.map, game.state, u)

    def zoc_hexes(self, game: "Position", side: str) -> list[Hex]:
        """Only an enemy's front zone stops a move (3.5.4-3.5.5); flanks and rear do not."""
        view = mv.View(game.state, side)
        return sorted(h for h in view.front if h in game.map)

    def targets(self, game: "Position", unit_id: str) -> list[Hex]:
        state = game.state
        u = state.units.get(unit_id)
        if u is None or not u.alive:
            return []
        if U.is_artillery(u):
            return artillery.fire_targets(game.map, state, u)
        e = mv.in_contact_with(state, u)
        return [] if e is None else [e.hex]

    def odds(self, game: "Position", order: Order) -> dict[str, Any]:
        state, hmap = game.state, game.map
        if order.kind == "attack":
            target = as_hex(order.get("target"))
            ids = as_ids(order.get("attackers")) or []
            d = next((x for x in state.units.values() if x.alive and x.hex == target), None)
            attackers = [state.units[i] for i in ids if i in state.units and state.units[i].alive]
            if d is None or not attackers:
                return {}
            return melee.preview(hmap, state, attackers, d)
        if order.kind == "fire":
            u = state.units.get(order.get("unit")) if isinstance(order.get("unit"), str) else None
            target = as_hex(order.get("target"))
            if u is None or target is None or not u.alive:
                return {}
            return artillery.preview(hmap, state, u, target)
        return {}

    def ai_orders(self, game: "Position") -> Iterable[tuple[int, Order]]:
        return ai.candidates(self, game)

    def strong_orders(self, game: "Position") -> Iterable[tuple[int, Order]]:
        """The strong level's candidates (ai.py): basic's and each unit's next best moves."""
        return ai.strong_candidates(self, game)

    def evaluate(self, game: "Position", side: str) -> int:
        """The strong computer's view of a position (evaluate.py)."""
        return evaluate.evaluate(game, side)

    # --- words for the player (words.py) --------------------------------------------------------
    has_facing = True
    phase_names = words.PHASE_TITLES
    field_names = words.FIELD_NAMES
    stat_words = words.STAT_WORDS

    def why_not(self, game: "Position", unit_id: str, hex: Hex) -> str | None:
        return words.why_not(self, game, unit_id, hex)

    def unit_card(self, game: "Position", unit_id: str) -> list[tuple[str, str]]:
        return words.unit_card(self, game, unit_id)

    def odds_summary(self, game: "Position", order: Order) -> str:
        return words.odds_summary(self.odds(game, order))

    def status_lines(self, game: "Position", side: str) -> list[str]:
        return words.status_lines(game, side)

    def player_aid(self, game: "Position") -> list[tuple[str, list[str]]]:
        return words.player_aid(self, game)

    # --- invariants ---------------------------------------------------------------------------
    def invariant_problems(self, game: "Position") -> list[str]:
        state, hmap = game.state, game.map
        out = []
        seen: dict[Hex, str] = {}
        lost = {s: 0 for s in state.side_order}
        for uid in sorted(state.units):
            u = state.units[uid]
            if u.hex is not None:
                if u.hex not in hmap:
                    out.append(f"{uid} stands off the map at {u.hex}")
                if u.hex in seen:
                    out.append(f"{uid} and {seen[u.hex]} share {u.hex} (one unit per cell)")
                seen[u.hex] = uid
                if u.strength != u.max_strength or u.strength < 1:
                    out.append(f"{uid} alive with strength {u.strength}/{u.max_strength}")
            else:
                lost[u.side] = lost.get(u.side, 0) + 1
                if u.strength != 0:
                    out.append(f"{uid} off the map but strength {u.strength}")
            if not 0 <= u.facing <= 5:
                out.append(f"{uid} has facing {u.facing}")
        for s in state.side_order:
            if state.sides[s].get("lost") != lost.get(s, 0):
                out.append(f"side {s} counts {state.sides[s].get('lost')} losses, {lost.get(s, 0)} units are gone")
        for p in state.pending:
            if p.get("side") not in state.side_order:
                out.append(f"pending decision without a valid side: {p}")
        if state.result is None and state.active not in state.side_order:
            out.append(f"no active side ({state.active!r})")
        return out


RULESET = FrontierRuleset()

__all__ = ["RULESET", "FrontierRuleset"]
