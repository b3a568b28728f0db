"""The Ancient Battles ruleset: order checking, resolution and previews.

Order kinds and arguments (hexes are axial [q, r] pairs):

* ``end-phase`` - roll initiative (phase "initiative"), finish a side's engine declarations
  (phase "engines"), or end the active side's activations (phase "activation").
* ``engine-fire`` unit, target - declare a Missile Engine's shot (4.7.1).
* ``dash`` unit - roll for a dash before moving (4.8.12).
* ``move`` unit, path, facing - the Move step; ``path`` is the route ``reachable`` gives.
* ``pivot`` unit, facing - a Move step of 0 cells (turn in place).
* ``shoot`` unit, target - shoot (or throw pila, for Legionaries under the Pila rule).
* ``melee`` unit, target - attack the enemy directly ahead.
* ``end-activation`` unit - this unit is done for the turn.
* ``choose-hit`` unit, choice - answer "retreat or lose 1 SP" ("retreat" or "lose"; with the
  sideways-retreat variant also "retreat-left"/"retreat-right").
* ``advance`` unit, yes, facing - answer "advance after combat?" (facing only with yes=true).
* ``resign`` - the side to act gives up.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from hexwar.engine.dice import NoDice
from hexwar.engine.hexgrid import Hex
from hexwar.engine.movement import Route
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution, Ruleset
from hexwar.engine.state import State, Unit

from . import ai, board, evaluate, hits, melee, movement, phases, shooting, words
from .units import (
    GRADES, RULE_DEFAULTS, TERRAIN_TYPES, UNIT_TYPES, is_commander, may_enter,
)

ARGS: dict[str, tuple[str, ...]] = {
    "end-phase": (), "resign": (), "engine-fire": ("target", "unit"), "dash": ("unit",),
    "move": ("facing", "path", "unit"), "pivot": ("facing", "unit"), "shoot": ("target", "unit"),
    "melee": ("target", "unit"), "end-activation": ("unit",), "choose-hit": ("choice", "unit"),
    "advance": ("facing", "unit", "yes"),
}
ACTIVATION_KINDS = ("dash", "move", "pivot", "shoot", "melee", "end-activation")


class _Rolled(Exception):
    pass


class _Probe(NoDice):
    """Dice for a dry run: the first roll tells ``needs_dice`` that the order rolls."""

    def roll(self, sides: int = 6, why: str = "") -> int:
        raise _Rolled(why)


class AncientsRuleset(Ruleset):
    id = "ancients"
    title = "Ancient Battles (Bob Cordery's Portable Wargame)"
    unit_types = UNIT_TYPES
    terrain_types = TERRAIN_TYPES
    hexside_types: tuple[str, ...] = ()
    grades = GRADES
    #: the scenario [rules] flags this set knows, with their defaults
    rule_defaults: dict[str, Any] = RULE_DEFAULTS
    #: the evaluation sees the melees units are lined up for (evaluate.lined_up), so the strong
    #: computer compares quiet moves too, not only the orders that roll (benchmarks/ai_strength.md)
    search_budget = {"scope": "all"}

    # --- set-up -----------------------------------------------------------------------------
    def may_stack_at_setup(self, stats_a: dict[str, Any], stats_b: dict[str, Any]) -> bool:
        """A Commander may share a cell with one non-commander unit (4.8.8, G-A30)."""
        return is_commander(stats_a) != is_commander(stats_b)

    def check_scenario(self, scenario: Any) -> list[str]:
        problems: list[str] = []
        hmap = scenario.map
        where: dict[Hex, list[Any]] = {}
        for spec in scenario.units:
            if spec.hex is None:
                if spec.box:
                    problems.append(f"unit {spec.id}: Ancient Battles has no off-map boxes; "
                                    "give it a hex or an entry turn")
                elif not spec.entry_hexes:
                    problems.append(f"unit {spec.id}: a reinforcement needs entry_hexes")
                continue
            where.setdefault(spec.hex, []).append(spec)
            if not may_enter(spec.stats, hmap.terrain_at(spec.hex)):
                problems.append(f"unit {spec.id}: a {spec.kind} may not stand in "
                                f"{hmap.terrain_at(spec.hex)} at {hmap.label(spec.hex)}")
        for h in sorted(where):
            specs = where[h]
            cmds = [s for s in specs if is_commander(s.stats)]
            bodies = [s for s in specs if not is_commander(s.stats)]
            if len(cmds) > 1 or len(bodies) > 1 or len({s.side for s in specs}) > 1:
                problems.append(f"hex {hmap.label(h)}: at most one unit and one friendly "
                                f"Commander per cell ({', '.join(s.id for s in specs)})")
        known = self.rule_defaults
        for key, value in scenario.rules.items():
            if key not in known:
                problems.append(f"rules.{key}: unknown rule flag (known: {', '.join(sorted(known))})")
            elif type(value) is not type(known[key]):
                problems.append(f"rules.{key}: expected {type(known[key]).__name__}")
        if scenario.rules.get("elephants_frighten", "any") not in ("any", "enemy"):
            problems.append("rules.elephants_frighten: \"any\" or \"enemy\"")
        for sid in [s.id for s in scenario.sides]:
            if not any(u.side == sid and not is_commander(u.stats) for u in scenario.units):
                problems.append(f"side {sid} has no units")
        return problems

    def initial_state(self, scenario: Any) -> State:
        return phases.initial_state(self, scenario)

    def start_stats(self, spec: Any) -> dict[str, Any]:
        """A unit's stats at the start of the battle: its kind's, with the scenario's overrides.
        (Age of Gunpowder adds those of the formation it starts in.)"""
        return dict(spec.stats)

    # --- helpers ----------------------------------------------------------------------------
    def _unit(self, g: Any, order: Order) -> Unit | None:
        uid = order.get("unit")
        if isinstance(uid, str):
            return g.state.units.get(uid)
        return None

    def _activation_blocker(self, g: Any, unit: Unit) -> str | None:
        st = g.state
        if unit.side != st.active:
            return f"{unit.id} is not a unit of the side that is activating ({st.active})"
        if not unit.alive:
            return f"{unit.id} is not on the map"
        if unit.marks.get("rampage"):
            return f"{unit.id} is a rampaging elephant and cannot be activated (4.13)"
        if unit.marks.get("done"):
            return f"{unit.id} has already been activated this turn"
        return None

    # --- legality -----------------------------------------------------------------------------
    def validate(self, game: Any, order: Order) -> str | None:
        st: State = game.state
        if st.result is not None:
            return "the game is over"
        kind = order.kind
        if kind not in ARGS:
            return f"unknown order kind {kind!r} (ancients knows {', '.join(sorted(ARGS))})"
        names = tuple(sorted(k for k, _ in order.args))
        need = ARGS[kind]
        if kind == "advance" and order.get("yes") is False:
            need = ("unit", "yes")
        if names != need:
            return f"{kind} takes the arguments {', '.join(need) or 'none'}"
        if kind == "resign":
            return None
        if st.pending:
            p = st.pending[0]
            if kind != p["kind"]:
                return f"{p['side']} must first answer the pending {p['kind']} for {p['unit']}"
            return self._validate_pending(game, order, p)
        if kind in ("choose-hit", "advance"):
            return f"there is no pending {kind} decision"
        if kind == "end-phase":
            return None
        if st.phase == "engines":
            if kind != "engine-fire":
                return "in the Missile-Engine Phase only engine-fire and end-phase are allowed"
            return self._validate_engine(game, order)
        if st.phase != "activation":
            return f"only end-phase is allowed in the {st.phase} phase"
        if kind == "engine-fire":
            return "engines fire only in the Missile-Engine Phase (4.7)"
        unit = self._unit(game, order)
        if unit is None:
            return f"no unit {order.get('unit')!r}"
        why = self._activation_blocker(game, unit)
        if why:
            return why
        return getattr(self, "_validate_" + kind.replace("-", "_"))(game, order, unit)

    def _validate_pending(self, g: Any, order: Order, p: dict[str, Any]) -> str | None:
        if order.get("unit") != p["unit"]:
            return f"the pending decision is about {p['unit']}"
        unit = g.state.units[p["unit"]]
        if order.kind == "choose-hit":
            if order.get("choice") not in p["options"]:
                return f"choose one of {', '.join(p['options'])}"
            return None
        yes = order.get("yes")
        if not isinstance(yes, bool):
            return "yes must be true or false"
        if yes:
            f = order.get("facing")
            if f not in melee.advance_facings(g, unit, Hex(*p["hex"])):
                return "after advancing next to an enemy the unit must face one (4.10)"
        return None

    def _validate_engine(self, g: Any, order: Order) -> str | None:
        unit = self._unit(g, order)
        if unit is None:
            return f"no unit {order.get('unit')!r}"
        if unit.side != g.state.active or not unit.alive:
            return f"{unit.id} is not an engine of the side declaring fire ({g.state.active})"
        if shooting.mode_of(g, unit) != "engine":
            return f"{unit.id} is not a Missile Engine"
        why = shooting.unit_blocker(g, unit, "engine")
        if why:
            return why
        target = board.as_hex(order.get("target"))
        if target is None:
            return "target must be a hex [q, r]"
        return shooting.target_blocker(g, unit, target, "engine")

    def _validate_end_activation(self, g: Any, order: Order, unit: Unit) -> str | None:
        return None

    def _validate_dash(self, g: Any, order: Order, unit: Unit) -> str | None:
        if not unit.stat("dash"):
            return f"{unit.id} may not dash (4.8.12: light troops, chariots and elephants only)"
        m = unit.marks
        if m.get("dashed"):
            return f"{unit.id} has already rolled for a dash"
        if m.get("shot") or m.get("melee") or m.get("pila"):
            return f"{unit.id} has already fought this turn; a dash is rolled before moving"
        return movement.move_blocker(g, unit)

    def _move_common(self, g: Any, unit: Unit) -> str | None:
        return movement.move_blocker(g, unit)

    def _validate_move(self, g: Any, order: Order, unit: Unit) -> str | None:
        why = self._move_common(g, unit)
        if why:
            return why
        path = order.get("path")
        if not isinstance(path, tuple) or not path:
            return "path must be a non-empty list of hexes"
        hexes = [board.as_hex(h) for h in path]
        if any(h is None for h in hexes):
            return "path must be a list of hexes [q, r]"
        route = movement.routes(g, unit).get(hexes[-1])  # type: ignore[arg-type]
        if route is None:
            return f"{unit.id} cannot end a move at {list(hexes[-1])}"  # type: ignore[arg-type]
        if list(route.path) != hexes:
            return f"use the route {[list(h) for h in route.path]} (as given by reachable)"
        if order.get("facing") not in movement.end_facings(g, unit, route):
            return "facing not allowed here (4.8.6/4.8.7/4.8.9)"
        return None

    def _validate_pivot(self, g: Any, order: Order, unit: Unit) -> str | None:
        why = self._move_common(g, unit)
        if why:
            return why
        if unit.marks.get("melee"):
            return f"{unit.id} attacked this activation; only a break-contact move may follow"
        if order.get("facing") not in movement.end_facings(g, unit, None):
            return "facing must be a direction 0-5 other than the current one"
        return None

    def _validate_shoot(self, g: Any, order: Order, unit: Unit) -> str | None:
        mode = shooting.mode_of(g, unit)
        if mode == "engine":
            return "Missile Engines shoot only in the Missile-Engine Phase (4.7)"
        why = shooting.unit_blocker(g, unit, mode)
        if why:
            return why
        target = board.as_hex(order.get("target"))
        if target is None:
            return "target must be a hex [q, r]"
        return shooting.target_blocker(g, unit, target, mode)  # type: ignore[arg-type]

    def _validate_melee(self, g: Any, order: Order, unit: Unit) -> str | None:
        why = melee.unit_blocker(g, unit)
        if why:
            return why
        target = board.as_hex(order.get("target"))
        if target is None:
            return "target must be a hex [q, r]"
        return melee.target_blocker(g, unit, target)

    # --- enumeration ----------------------------------------------------------------------------
    def legal_orders(self, game: Any) -> Iterator[Order]:
        st: State = game.state
        if st.result is not None:
            return
        yield Order.make("resign")
        if st.pending:
            p = st.pending[0]
            unit = st.units[p["unit"]]
            if p["kind"] == "choose-hit":
                for c in p["options"]:
                    yield Order.make("choose-hit", unit=unit.id, choice=c)
            else:
                for f in melee.advance_facings(game, unit, Hex(*p["hex"])):
                    yield Order.make("advance", unit=unit.id, yes=True, facing=f)
                yield Order.make("advance", unit=unit.id, yes=False)
            return
        yield Order.make("end-phase")
        if st.phase == "engines":
            for u in st.side_units(st.active):
                if shooting.mode_of(game, u) == "engine" and shooting.unit_blocker(game, u, "engine") is None:
                    for t in shooting.targets(game, u, "engine"):
                        yield Order.make("engine-fire", unit=u.id, target=list(t))
            return
        if st.phase != "activation":
            return
        for u in st.side_units(st.active):
            if self._activation_blocker(game, u) is None:
                yield from self.orders_of(game, u)

    def orders_of(self, game: Any, u: Unit, moves: bool = True) -> Iterator[Order]:
        """One unit's activation orders, for ``legal_orders`` (``unit_orders`` takes an id and is
        the base class's filter of the full list)."""
        yield Order.make("end-activation", unit=u.id)
        if self._validate_dash(game, Order.make("dash", unit=u.id), u) is None:
            yield Order.make("dash", unit=u.id)
        mode = shooting.mode_of(game, u)
        if mode not in (None, "engine") and shooting.unit_blocker(game, u, mode) is None:
            for t in shooting.targets(game, u, mode):  # type: ignore[arg-type]
                yield Order.make("shoot", unit=u.id, target=list(t))
        if melee.unit_blocker(game, u) is None:
            t = melee.target_of(game, u)
            if t is not None:
                yield Order.make("melee", unit=u.id, target=list(t))
        if self._move_common(game, u) is None:
            if not u.marks.get("melee"):
                for f in movement.end_facings(game, u, None):
                    yield Order.make("pivot", unit=u.id, facing=f)
            if moves:
                for dest, route in sorted(movement.routes(game, u).items()):
                    for f in movement.end_facings(game, u, route):
                        yield Order.make("move", unit=u.id, path=[list(h) for h in route.path], facing=f)

    def needs_dice(self, game: Any, order: Order) -> bool:
        if order.kind in ("shoot", "melee", "dash"):
            return True
        if order.kind in ("move", "pivot", "engine-fire", "end-activation", "resign"):
            return False
        if self.validate(game, order) is not None:
            return False
        ctx = Resolution(game, game.state.copy(), _Probe())
        try:
            self.resolve(ctx, order)
        except _Rolled:
            return True
        return False

    # --- resolution -------------------------------------------------------------------------------
    def resolve(self, ctx: Resolution, order: Order) -> None:
        st = ctx.state
        kind = order.kind
        if kind == "resign":
            side = self.to_act(ctx)  # type: ignore[arg-type]
            phases.finish(ctx, st.enemy_of(side), why=f"{side} resigned")  # type: ignore[arg-type]
            return
        if kind == "choose-hit":
            p = st.pending.pop(0)
            unit = st.units[p["unit"]]
            choice = order["choice"]
            ctx.emit("hit-choice", unit=unit.id, choice=choice)
            if choice == "lose":
                hits.lose_sp(ctx, unit, 1, why="chose to lose 1 SP")
            else:
                hits.do_retreat(ctx, unit, hits.retreat_options(ctx, unit)[choice])
            phases.settle(ctx)
            return
        if kind == "advance":
            p = st.pending.pop(0)
            unit = st.units[p["unit"]]
            if order["yes"]:
                melee.do_advance(ctx, unit, Hex(*p["hex"]), order["facing"])
            else:
                ctx.emit("no-advance", unit=unit.id)
            phases.settle(ctx)
            return
        if kind == "end-phase":
            phases.end_phase(ctx)
            return
        unit = st.units[order["unit"]]
        if kind == "engine-fire":
            unit.mark("engine_fired", 1)
            st.vars["engine_decl"].append([unit.id, order["target"][0], order["target"][1]])
            ctx.emit("engine-declared", unit=unit.id, target=list(order["target"]))
            return
        if kind == "end-activation":
            if st.vars.get("current") == unit.id:
                phases.end_current(ctx)
            else:
                unit.mark("done", 1)
                ctx.emit("activation-ended", unit=unit.id)
            return
        phases.begin_action(ctx, unit)
        if kind == "dash":
            die = ctx.roll("dash", unit=unit.id)
            unit.mark("dashed", 2 if die >= 5 else 1)
            ctx.emit("dash", unit=unit.id, roll=die, success=die >= 5)
        elif kind in ("move", "pivot"):
            route = None
            if kind == "move":
                dest = Hex(*order["path"][-1])
                route = movement.routes(ctx, unit)[dest]
                if unit.marks.get("melee") or unit.marks.get("shot"):
                    unit.mark("broke_contact", 1 if unit.marks.get("melee") else 0)
            movement.do_move(ctx, unit, route, order["facing"])
        elif kind == "shoot":
            mode = shooting.mode_of(ctx, unit)
            target = Hex(*order["target"])
            if mode == "pila":
                unit.mark("pila", 1)
            else:
                unit.mark("shot", 1)
            if shooting.roll_shot(ctx, unit, target, mode):  # type: ignore[arg-type]
                tgt = board.main_unit_at(st, target)
                st.vars["queue"].append(hits.hit_entry(ctx, tgt, mode))  # type: ignore[arg-type]
            phases.settle(ctx)
        elif kind == "melee":
            melee.resolve(ctx, unit, Hex(*order["target"]))
            phases.settle(ctx)

    # --- previews -------------------------------------------------------------------------------
    def reachable(self, game: Any, unit_id: str) -> dict[Hex, Route]:
        unit = game.state.units.get(unit_id)
        if unit is None or game.state.result is not None or game.state.pending:
            return {}
        if game.state.phase != "activation" or self._activation_blocker(game, unit):
            return {}
        if self._move_common(game, unit):
            return {}
        return movement.routes(game, unit)

    def targets(self, game: Any, unit_id: str) -> list[Hex]:
        unit = game.state.units.get(unit_id)
        if unit is None or not unit.alive or game.state.result is not None:
            return []
        out: list[Hex] = []
        mode = shooting.mode_of(game, unit)
        phase = game.state.phase
        if mode == "engine" and phase == "engines":
            if shooting.unit_blocker(game, unit, mode) is None:
                out = shooting.targets(game, unit, mode)
        elif mode not in (None, "engine") and phase == "activation":
            if shooting.unit_blocker(game, unit, mode) is None:
                out = shooting.targets(game, unit, mode)  # type: ignore[arg-type]
        if phase == "activation" and melee.unit_blocker(game, unit) is None:
            t = melee.target_of(game, unit)
            if t is not None and t not in out:
                out.append(t)
        return out

    def odds(self, game: Any, order: Order) -> dict[str, Any]:
        unit = self._unit(game, order)
        target = board.as_hex(order.get("target"))
        if unit is None or target is None or not unit.alive:
            return {}
        if board.main_unit_at(game.state, target) is None:
            return {}
        if order.kind == "melee":
            return melee.odds(game, unit, target)
        if order.kind in ("shoot", "engine-fire"):
            mode = shooting.mode_of(game, unit)
            if mode is None:
                return {}
            return shooting.odds(game, unit, target, mode)
        return {}

    def ai_orders(self, game: Any) -> Iterable[tuple[int, Order]]:
        return ai.candidates(self, game)

    def strong_orders(self, game: Any) -> Iterable[tuple[int, Order]]:
        return ai.strong_candidates(self, game)

    def evaluate(self, game: Any, side: str) -> int:
        """The strong computer's view of a position (evaluate.py)."""
        return evaluate.evaluate(game, side)

    # --- words for the player (words.py) --------------------------------------------------------
    has_facing = True
    phase_names = words.PHASE_TITLES
    field_names = words.FIELD_NAMES
    stat_words = words.STAT_WORDS
    mark_words = words.MARK_WORDS

    words = words  # the module that speaks for this ruleset: a set built on this one names its own

    def why_not(self, game: Any, unit_id: str, hex: Hex) -> str | None:
        return self.words.why_not(self, game, unit_id, hex)

    def unit_card(self, game: Any, unit_id: str) -> list[tuple[str, str]]:
        return self.words.unit_card(self, game, unit_id)

    def odds_summary(self, game: Any, order: Order) -> str:
        return self.words.odds_summary(game, order, self.odds(game, order))

    def status_lines(self, game: Any, side: str) -> list[str]:
        return self.words.status_lines(game, side)

    def player_aid(self, game: Any) -> list[tuple[str, list[str]]]:
        return self.words.player_aid(self, game)

    # --- invariants ---------------------------------------------------------------------------
    def invariant_problems(self, game: Any) -> list[str]:
        st: State = game.state
        out: list[str] = []
        per_hex: dict[Hex, list[Unit]] = {}
        for uid in sorted(st.units):
            u = st.units[uid]
            if u.strength < 0 or u.strength > u.max_strength:
                out.append(f"{uid}: strength {u.strength} outside 0..{u.max_strength}")
            if u.facing not in range(6):
                out.append(f"{uid}: facing {u.facing}")
            if u.hex is not None:
                if u.strength <= 0:
                    out.append(f"{uid}: on the map with no strength")
                if u.hex not in game.map:
                    out.append(f"{uid}: off the map at {u.hex}")
                else:
                    per_hex.setdefault(Hex(*u.hex), []).append(u)
                    if (not may_enter(u.stats, game.map.terrain_at(u.hex)) and not u.marks.get("rampage")
                            and not is_commander(u.stats)):
                        out.append(f"{uid}: stands in terrain it may not enter")
            elif u.strength > 0 and not u.marks.get("reserve"):
                out.append(f"{uid}: off the map with {u.strength} SP left")
        for h in sorted(per_hex):
            us = per_hex[h]
            bodies = [u for u in us if not is_commander(u.stats)]
            cmds = [u for u in us if is_commander(u.stats)]
            rampaging = [u for u in bodies if u.marks.get("rampage")]
            if len(bodies) > 1:
                out.append(f"{[u.id for u in bodies]} share hex {list(h)}")
            if len(cmds) > 1:
                out.append(f"two commanders in hex {list(h)}")
            if len({u.side for u in us}) > 1 and not rampaging:
                out.append(f"enemies share hex {list(h)}")
        for sid in st.side_order:
            s = st.sides.get(sid, {})
            lost = sum(u.max_strength - u.strength for u in st.units.values()
                       if u.side == sid and not u.marks.get("reserve"))
            if s.get("lost") != lost:
                out.append(f"side {sid}: lost SP {s.get('lost')} but units lost {lost}")
        for p in st.pending:
            if p.get("side") not in st.side_order or p.get("unit") not in st.units:
                out.append(f"malformed pending decision {p}")
            elif not st.units[p["unit"]].alive:
                out.append(f"pending decision for a unit that is gone: {p}")
        if st.result is None and st.phase not in ("initiative", "engines", "engine-fire", "activation"):
            out.append(f"unknown phase {st.phase!r}")
        if st.result is None and st.pending == [] and st.phase == "engine-fire":
            out.append("engine fire settled but initiative not rolled")
        return out
