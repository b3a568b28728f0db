"""The Age of Gunpowder ruleset (portable-wargame.md section 5): Ancient Battles' engine with
the Gunpowder units, formations and the Artillery Phase.

Section 5 is a fragment; 5.6 completes it "as Ancient Battles", so this class is the Ancients
ruleset with what Gunpowder changes: the unit table (units.py), the formation change as a step
of an activation (``form``), who may shoot, the square and the other melee rows (stats the shared
melee code reads), and the words. Order kinds are Ancients' (rules.py there) without ``dash``
and with:

* ``form`` unit, formation - change formation (5.5 / 5.6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Iterator

from hexwar.engine.orders import Order
from hexwar.engine.state import State, Unit

from ..ancients import phases
from ..ancients.rules import AncientsRuleset
from . import ai, evaluate, words
from .refusals import gunpowder_words
from .units import (
    FORMATIONS, GRADES, RULE_DEFAULTS, SQUARE_FROM, TERRAIN_TYPES, UNIT_TYPES, formations_of,
    formed, shoots_in, year,
)

class GunpowderRuleset(AncientsRuleset):
    id = "gunpowder"
    title = "Age of Gunpowder (Bob Cordery's Portable Wargame; fragment completed, 5.6 designed)"
    unit_types = UNIT_TYPES
    terrain_types = TERRAIN_TYPES
    grades = GRADES
    rule_defaults = RULE_DEFAULTS

    # --- set-up -----------------------------------------------------------------------------
    def start_stats(self, spec: Any) -> dict[str, Any]:
        """The kind's stats in the formation the scenario gives (``stats.formation``)."""
        f = spec.stats.get("formation")
        if f not in formations_of(spec.stats):
            f = UNIT_TYPES[spec.kind]["formation"]
        return formed(dict(spec.stats), str(f))

    def check_scenario(self, scenario: Any) -> list[str]:
        problems: list[str] = []
        when = scenario.rules.get("year", RULE_DEFAULTS["year"])
        if not isinstance(when, int) or isinstance(when, bool) or not 1450 <= when <= 1900:
            problems.append("rules.year: the year of the battle, 1450-1900 (G-P4)")
            when = RULE_DEFAULTS["year"]
        fixed = []
        for i, spec in enumerate(scenario.units):
            f = spec.stats.get("formation")
            forms = formations_of(spec.stats)
            name = spec.stats.get("name", spec.kind)
            if f not in forms:
                problems.append(f"units[{i}].stats.formation: {f!r} is not a formation of {name} "
                                f"({', '.join(forms)}; 5.6)")
                f = UNIT_TYPES[spec.kind]["formation"]
            elif f == "square" and when < SQUARE_FROM:
                problems.append(f"units[{i}].stats.formation: infantry may form square only after "
                                f"{SQUARE_FROM} (5.1); this battle is dated {when} (rules.year)")
            fixed.append(replace(spec, stats=formed(dict(spec.stats), str(f))))
        return problems + super().check_scenario(replace(scenario, units=tuple(fixed)))

    # --- legality -----------------------------------------------------------------------------
    def validate(self, game: Any, order: Order) -> str | None:
        kind = order.kind
        if kind == "dash":
            return "there is no dash in the Age of Gunpowder (5.6: only Ancients' light troops dash)"
        if kind == "form":
            return gunpowder_words(self._validate_form_order(game, order), kind)
        why = super().validate(game, order)
        if why is None and not game.state.pending and game.state.phase == "activation":
            unit = self._unit(game, order)
            if unit is not None:
                why = self.step_blocker(game, order, unit)
        return gunpowder_words(why, kind)

    def _validate_form_order(self, g: Any, order: Order) -> str | None:
        st: State = g.state
        if st.result is not None:
            return "the game is over"
        if tuple(sorted(k for k, _ in order.args)) != ("formation", "unit"):
            return "form takes the arguments formation, unit"
        if st.pending:
            p = st.pending[0]
            return f"{p['side']} must first answer the pending {p['kind']} for {p['unit']}"
        if st.phase != "activation":
            return f"formations change in an activation, not in the {st.phase} phase (5.5)"
        unit = self._unit(g, order)
        if unit is None:
            return f"no unit {order.get('unit')!r}"
        return self._activation_blocker(g, unit) or self.form_blocker(g, unit, order.get("formation"))

    def form_blocker(self, g: Any, unit: Unit, formation: Any) -> str | None:
        """Why ``unit`` may not change to ``formation`` now (5.1, 5.5, 5.6); None if it may."""
        name = unit.stat("name", unit.kind)
        forms = formations_of(unit.stats)
        if formation not in forms:
            return f"{name} has no formation {formation!r} (5.6: {', '.join(forms)})"
        if formation == unit.stat("formation"):
            return f"{unit.id} is already in {formation} (5.6)"
        m = unit.marks
        if m.get("formed"):
            return f"{unit.id} has already changed formation this activation (5.5: one change a turn)"
        if m.get("engine_fired"):
            return f"{unit.id} fired in the Artillery Phase and may not change formation this turn (5.6)"
        if m.get("shot"):
            return f"{unit.id} has shot; a formation change comes before shooting (5.5: Change formation and Shoot)"
        if m.get("melee"):
            return f"{unit.id} has attacked; 5.5 lists no change of formation after an attack (5.5)"
        if formation == "square" and year(g.scenario) < SQUARE_FROM:
            return (f"infantry may form square only after {SQUARE_FROM} (5.1); this battle is dated "
                    f"{year(g.scenario)}")
        if g.map.terrain_at(unit.hex) == "forest" and not FORMATIONS[str(unit.stat("family"))][formation]["forest"]:
            return f"in a forest {name} must stay in column (5.6 forest)"
        return None

    def step_blocker(self, g: Any, order: Order, unit: Unit) -> str | None:
        """What Gunpowder forbids on top of Ancients' activation rules (5.5, 5.6)."""
        kind = order.kind
        m = unit.marks
        fm = unit.stat("formation")
        if kind == "shoot":
            if fm not in shoots_in(unit.stats):
                ok = shoots_in(unit.stats)
                return (f"{unit.stat('name', unit.kind)} in {fm} may not shoot (5.6: only in "
                        f"{' or '.join(ok) if ok else 'no formation'})")
            if m.get("formed") and m.get("move_used"):
                return "a unit may Move and Shoot or Change formation and Shoot, not all three (5.5)"
        elif kind == "melee":
            if unit.stat("all_round"):
                return "a square stands to receive an attack; it does not attack (5.6, designed)"
            if m.get("formed"):
                return "Change formation and Attack is not an activation of 5.5; attack after a Move (5.5)"
        elif kind in ("move", "pivot"):
            if kind == "pivot" and unit.stat("all_round"):
                return "a square faces all round; it does not pivot (5.6, designed)"
            if m.get("formed") and (m.get("shot") or m.get("melee")):
                return "a unit may not change formation, shoot and move in one activation (5.5)"
        return None

    # --- enumeration ----------------------------------------------------------------------------
    def orders_of(self, game: Any, u: Any, moves: bool = True) -> Iterator[Order]:
        forms = [Order.make("form", unit=u.id, formation=f) for f in formations_of(u.stats)
                 if self.form_blocker(game, u, f) is None]
        for o in super().orders_of(game, u, moves):
            if o.kind != "dash" and self.step_blocker(game, o, u) is None:
                yield o
            if o.kind == "end-activation":  # the formation changes come next, before the moves
                yield from forms

    def needs_dice(self, game: Any, order: Order) -> bool:
        if order.kind == "form":
            return False
        return super().needs_dice(game, order)

    # --- resolution -------------------------------------------------------------------------------
    def resolve(self, ctx: Any, order: Order) -> None:
        if order.kind != "form":
            super().resolve(ctx, order)
            result = ctx.state.result
            if result is not None:  # the shared end-of-battle words, in this set's rule numbers
                result["reason"] = gunpowder_words(result["reason"])
                for ev in ctx.events:
                    if ev.get("t") == "game-over":
                        ev["reason"] = result["reason"]
            return
        unit = ctx.state.units[order["unit"]]
        phases.begin_action(ctx, unit)
        old = unit.stat("formation")
        unit.stats = formed(unit.stats, order["formation"])
        unit.mark("formed", 1)
        ctx.emit("formation", unit=unit.id, frm=old, to=order["formation"])

    # --- previews -------------------------------------------------------------------------------
    def reachable(self, game: Any, unit_id: str) -> dict[Any, Any]:
        unit = game.state.units.get(unit_id)
        if unit is None or self.step_blocker(game, Order.make("move", unit=unit_id), unit):
            return {}
        return super().reachable(game, unit_id)

    def targets(self, game: Any, unit_id: str) -> list[Any]:
        unit = game.state.units.get(unit_id)
        out = super().targets(game, unit_id)
        if unit is None or game.state.phase != "activation":
            return out
        return [h for h in out if any(
            self.step_blocker(game, Order.make(k, unit=unit.id, target=list(h)), unit) is None
            for k in ("shoot", "melee"))]

    def ai_orders(self, game: Any) -> Iterable[tuple[int, Order]]:
        return ai.candidates(self, game)

    def strong_orders(self, game: Any) -> Iterable[tuple[int, Order]]:
        return ai.strong_candidates(self, game)

    def evaluate(self, game: Any, side: str) -> int:
        """The strong computer's view of a position (evaluate.py)."""
        return evaluate.evaluate(game, side)

    # --- words for the player (words.py) --------------------------------------------------------
    phase_names = words.PHASE_TITLES
    field_names = words.FIELD_NAMES
    stat_words = words.STAT_WORDS
    mark_words = words.MARK_WORDS

    words = words  # why_not, unit_card, odds_summary, status_lines, player_aid: Ancients' methods ask it

    def event_words(self, game: Any, event: Any) -> str | None:
        return words.event_words(game, event)

    def invariant_problems(self, game: Any) -> list[str]:
        out = super().invariant_problems(game)
        for uid in sorted(game.state.units):
            u = game.state.units[uid]
            if u.stat("formation") not in formations_of(u.stats):
                out.append(f"{uid}: formation {u.stat('formation')!r}")
            elif u.stat("formation") == "square" and year(game.scenario) < SQUARE_FROM:
                out.append(f"{uid}: in square before {SQUARE_FROM}")
        return out
