"""Flames of War North Africa campaign (seed 003, spec ``fow-campaign.md``): the section 30 subset.

Order kinds (points are the campaign's numbers 1-36, see ``geo``):

* ``commit-plan`` then ``reveal-plan`` - before turn 1, where the scenario has a ``deployment``
  rule: the secret placement of every company (5, G-59, ``deploy``).
* ``start`` - turn 1: roll commander ratings (G-16), then step 2.
* ``keep-initiative`` / ``hand-initiative`` - step 1 (6.B), then step 2 is resolved.
* ``move-commander commander path companies`` - step 3 (12, G-22); ``reinforce unit point``
  spends the side's reinforcement points (25.5, G-51); ``end-phase`` ends the side's step 3.
* ``commit-plan digest`` then ``reveal-plan plan salt`` - steps 4-7, secret (G-19, engine/secret.py).
* ``act actor path`` / ``pass`` - step 8 (14.3).
* decisions the rules give to a player: ``withdraw choice``, ``reserves companies``,
  ``retreat company path``, ``advance point``, ``stay choice`` (a winning reconnaissance on the
  turn of first contact, G-25).
* ``resign``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from hexwar.engine import secret
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution, Ruleset, dry_run_rolls
from hexwar.engine.state import State, Unit

from . import ai
from . import battle as B
from . import campaign as K
from . import catalogue
from . import deploy as D
from . import evaluate as E
from . import execute as X
from . import forces as F
from . import geo
from . import plans as P
from . import words

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.scenario import Scenario

KINDS = ("start", "keep-initiative", "hand-initiative", "move-commander", "reinforce", "end-phase",
         secret.COMMIT, secret.REVEAL, "act", "pass", "withdraw", "reserves", "retreat", "advance",
         "stay", "resign")
DECISIONS = ("withdraw", "reserves", "retreat", "advance", "stay")
COMMANDER_MOVE = 3


def public_salt(round_name: str, side: str) -> str:
    """The salt of the plans ``legal_orders`` lists: public, so only for tools and tests; a
    player (or the computer, engine/ai.py) uses a salt nobody else knows."""
    return hashlib.blake2b(f"public|{round_name}|{side}".encode(), digest_size=16).hexdigest()


def _ints(value: Any) -> list[int] | None:
    if not isinstance(value, (list, tuple)) or len(value) > 8:
        return None
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        return None
    return list(value)


def _strs(value: Any) -> list[str] | None:
    if not isinstance(value, (list, tuple)) or len(value) > 64:
        return None
    if not all(isinstance(x, str) for x in value) or len(set(value)) != len(value):
        return None
    return list(value)


class FowRuleset(Ruleset):
    id = "fow"
    title = "Flames of War: North Africa campaign (seed 003, section 30 subset)"
    unit_types = catalogue.UNIT_TYPES
    terrain_types = geo.BASE_TERRAIN
    hexside_types = ()
    grades = ("average",)
    #: the strong computer compares every candidate of steps 1, 3 and 8 and of the battle
    #: decisions, each played on by the basic player for up to 4 orders, with ``evaluate``
    #: (measured in benchmarks/ai_strength.md); plans stay the basic player's
    #: the meeting Allies also search their secret plan (``sides``; DESIGNED): the Axis wins a
    #: tied race for the edges (it is checked first), so the Allies must pick the plan that
    #: blocks or outpaces; the meeting Axis searches its plan too, but commits to another plan
    #: than basic's only when it scores better by more than ``plan_margin`` (200, DESIGNED:
    #: half an edge point); without the margin it drew more games and won fewer (NOTES.md)
    #: in a meeting the candidates also weigh blocking (``strong_orders``, evaluate.BLOCK)
    #: the Bir Hakeim Germans commit the strong level's one plan (``ai.strong_plans``: basic's,
    #: with each point's companies under one commander); ``plan_work`` only turns it on, as one
    #: plan leaves nothing to search
    #: a meeting compares 8 candidates, as the blocking moves join basic's best (measured: the
    #: Allies 50 wins and 8 losses in 80 games with 8, 46 and 11 with 5; NOTES.md, stop 8)
    search_budget = {"depth": 4, "work": 200, "scope": "all",
                     "sides": {"allies": {"plan_work": 48, "plan_samples": 1},
                               "german": {"plan_work": 1}},
                     "scenarios": {"meeting-engagement": {
                         "allies": {"width": 8},
                         "axis": {"width": 8, "plan_work": 48, "plan_samples": 1, "plan_margin": 200}}}}
    #: the secret-plan search's fields (``ai_plans``), for turning it on for every side (tests):
    #: on for both sides it won no more than basic's plan in three seats (NOTES.md, "Secret plans")
    plan_search_budget = {"plan_work": 48, "plan_samples": 1}

    # --- set-up ---------------------------------------------------------------------------
    def may_stack_at_setup(self, stats: dict, other: dict) -> bool:
        return True  # no stacking limit (4.3)

    def check_scenario(self, scenario: "Scenario") -> list[str]:
        try:
            return self._check(scenario)
        except Exception as exc:  # malformed rules of a kind the checks below did not foresee
            return [f"rules: malformed campaign data ({type(exc).__name__})"]

    def _check(self, scenario: "Scenario") -> list[str]:
        out = geo.map_problems(scenario)
        if out:
            return out
        out = D.scenario_problems(scenario)
        rules, sides = scenario.rules, [s.id for s in scenario.sides]
        nations = rules.get("nations")
        if not isinstance(nations, dict) or sorted(nations) != sorted(sides) or any(
                v not in F.NATIONS for v in nations.values()):
            out.append(f"rules.nations: a nation for each side, one of {', '.join(F.NATIONS)}")
        if rules.get("si_side") is not None and rules.get("si_side") not in sides:
            out.append("rules.si_side: the side that holds the strategic initiative")
        for s in scenario.sides:
            if s.home_edge not in ("north", "south"):
                out.append(f"sides: {s.id} needs home_edge north or south (spec 2.8)")
        if not isinstance(rules.get("desert_penalty", True), bool):
            out.append("rules.desert_penalty: true or false")
        out += K.fp_roll_problems(scenario)
        if rules.get("capture_rp", "transfer") not in ("transfer", "full"):
            out.append("rules.capture_rp: \"transfer\" (the captor gets what the owner had, G-40) or \"full\"")
        rf = rules.get("reinforcement_fp", {})
        if not isinstance(rf, dict) or any(k not in sides or not isinstance(v, int) or isinstance(v, bool)
                                           or v < 0 for k, v in rf.items()):
            out.append("rules.reinforcement_fp: side = FP per turn")
        elite = rules.get("elite_companies", [])
        if not isinstance(elite, list) or not all(isinstance(x, str) for x in elite):
            out.append("rules.elite_companies: a list of company ids (SS / SAS, G-39)")
        companies = {d.id: d for d in scenario.divisions}
        for u in scenario.units:
            if u.kind not in catalogue.UNIT_TYPES:
                continue
            air = catalogue.UNIT_TYPES[u.kind]["category"] in catalogue.AIRCRAFT
            if air:
                if u.box != "air":
                    out.append(f"unit {u.id}: aircraft start in the air pool (box = \"air\", G-32)")
            elif u.division not in companies:
                out.append(f"unit {u.id}: every platoon belongs to a company ([[divisions]])")
            elif u.hex is None:
                out.append(f"unit {u.id}: give its company's start hex")
        for cid in companies:
            hexes = {u.hex for u in scenario.units if u.division == cid}
            if len(hexes) != 1:
                out.append(f"division {cid}: a company's platoons start together in one point")
        v = scenario.victory
        kind = v.get("type")
        if kind == "exit":
            if v.get("side") not in sides or not isinstance(v.get("fp"), int) or isinstance(v.get("fp"), bool):
                out.append("victory: type = \"exit\" needs side and fp")
        elif kind == "meeting":
            for key in ("companies_percent", "edge_points", "edge_turns"):
                if key in v and (not isinstance(v[key], int) or isinstance(v[key], bool) or v[key] < 1):
                    out.append(f"victory.{key}: a positive integer")
            if not isinstance(v.get("edge_supplied", False), bool):
                out.append("victory.edge_supplied: true or false")
        else:
            out.append("victory.type: \"exit\" (25.5) or \"meeting\" (25.2, 30)")
        return out

    def initial_state(self, scenario: "Scenario") -> State:
        return K.initial_state(self.id, scenario)

    # --- who acts ---------------------------------------------------------------------------
    def to_act(self, game: "Position") -> str | None:
        state = game.state
        if state.result is not None:
            return None
        if state.pending:
            return state.pending[0]["side"]
        if state.phase in ("plan", "deploy"):
            return secret.next_side(state.vars["secret"])
        return state.active

    def secret_round(self, game: "Position") -> dict[str, Any] | None:
        state = game.state
        if state.result is None and not state.pending and state.phase in ("plan", "deploy"):
            return state.vars["secret"]
        return None

    def ai_plan(self, game: "Position", side: str, secret: bytes | None = None) -> list[list[Any]]:
        if game.state.phase == "deploy":
            return D.scenario_placement(game, side)
        if secret is None:
            return ai.plan(game, side)
        return ai.mixed_plan(game, side, secret)

    def ai_plans(self, game: "Position", side: str) -> list[list[list[Any]]]:
        if game.state.phase == "deploy":
            return [D.scenario_placement(game, side)]
        return ai.strong_plans(game, side)

    def plan_problem(self, game: "Position", side: str, plan: list[list[Any]]) -> str | None:
        if game.state.phase == "deploy":
            return secret.plan_problem(plan) or D.placement_problem(game, side, plan)
        return secret.plan_problem(plan) or P.parse(game, side, plan)[1]

    # --- legality ---------------------------------------------------------------------------
    def legal_orders(self, game: "Position") -> Iterator[Order]:
        for order in self._candidates(game):
            # activation paths are generated legal (execute.activation_paths checks each)
            if (order.kind == "act" and order["path"]) or self.validate(game, order) is None:
                yield order

    def _candidates(self, game: "Position") -> Iterator[Order]:
        state = game.state
        if state.result is not None:
            return
        side = self.to_act(game) or ""
        if state.pending:
            pend = state.pending[0]
            yield from ai.decision_orders(game, pend)
        elif state.phase == "start":
            yield Order.make("start")
        elif state.phase == "initiative":
            yield Order.make("keep-initiative")
            yield Order.make("hand-initiative")
        elif state.phase == "command":
            yield from ai.command_orders(game, side)
            yield Order.make("end-phase")
        elif state.phase in ("plan", "deploy"):
            rnd = state.vars["secret"]
            plan = self.ai_plan(game, side)
            salt = public_salt(rnd["round"], side)
            if secret.stage(rnd) == "commit":
                bound = secret.binding(game.scenario.source_hash, rnd["round"], side)
                yield Order.make(secret.COMMIT, digest=secret.commitment(bound, plan, bytes.fromhex(salt)))
            else:
                yield Order.make(secret.REVEAL, plan=plan, salt=salt)
        elif state.phase == "execute":
            actors = state.vars["exec"]["queue"].get(side, [])
            if state.vars["exec"]["mode"] == "intercept":
                actors = [X.interceptor(state, side)]
            for actor in actors:
                yield Order.make("act", actor=actor, path=[])
                for path in X.activation_paths(game, side, actor):
                    yield Order.make("act", actor=actor, path=path)
            if state.vars["exec"]["mode"] in ("react", "intercept"):
                yield Order.make("pass")
        yield Order.make("resign")

    def validate(self, game: "Position", order: Order) -> str | None:
        state = game.state
        if state.result is not None:
            return "the game is over"
        kind = order.kind
        if kind not in KINDS:
            return f"unknown order {kind!r} (campaign orders: {', '.join(KINDS)})"
        if kind == "resign":
            return None
        side = self.to_act(game) or ""
        if state.pending:
            return self._validate_decision(game, state.pending[0], order)
        if kind in DECISIONS:
            return f"there is no pending {kind} decision"
        want = {"start": ("start",), "initiative": ("keep-initiative", "hand-initiative"),
                "command": ("move-commander", "reinforce", "end-phase"),
                "plan": (secret.COMMIT, secret.REVEAL), "deploy": (secret.COMMIT, secret.REVEAL),
                "execute": ("act", "pass")}.get(state.phase, ())
        if kind not in want:
            return f"{kind} is not an order of the {state.phase} step (7)"
        if kind == "move-commander":
            return self._validate_commander_move(game, side, order)
        if kind == "reinforce":
            return self._validate_reinforce(game, side, order)
        if kind == secret.COMMIT:
            return secret.commit_problem(state.vars["secret"], side, order.get("digest"))
        if kind == secret.REVEAL:
            rnd = state.vars["secret"]
            plan = order.get("plan")
            why = secret.reveal_problem(rnd, game.scenario.source_hash, side, plan, order.get("salt"))
            if why:
                return why
            return self.plan_problem(game, side, plan)
        if kind == "act":
            actor = order.get("actor")
            if actor not in state.vars["exec"]["queue"].get(side, []):
                return f"{actor!r} is not an actor of {side} that has still to act (14.3)"
            if state.vars["exec"]["mode"] == "intercept" and actor != X.interceptor(state, side):
                return "out of turn only the group of the +2 commander may act (6.C, G-21)"
            path = _ints(order.get("path"))
            if path is None:
                return "path is a list of up to 8 points"
            return X.activation_problem(game, side, actor, path)
        if kind == "pass":
            if state.vars["exec"]["mode"] not in ("react", "intercept"):
                return "only the defender's reaction or interception may be passed (14.3, G-21)"
        return None

    def _validate_decision(self, game: "Position", pend: dict[str, Any], order: Order) -> str | None:
        state = game.state
        if order.kind != pend["kind"]:
            return f"answer the pending {pend['kind']} decision first"
        if order.kind in ("withdraw", "stay"):
            return None if isinstance(order.get("choice"), bool) else "choice is true or false"
        if order.kind == "reserves":
            chosen = _strs(order.get("companies"))
            if chosen is None or any(c not in pend["options"] for c in chosen):
                return f"commit reserves among {', '.join(pend['options'])}"
            return None
        if order.kind == "retreat":
            if order.get("company") != pend["company"]:
                return f"the decision is about {pend['company']}'s retreat"
            path = _ints(order.get("path"))
            if path is None or path not in B.retreat_paths(state, game.scenario, pend["company"], pend["from"]):
                return "retreat 1 or 2 points toward your own edge, never into enemy (17.5, G-37)"
            return None
        if order.kind == "advance":
            if order.get("point") not in pend["options"]:
                return f"advance into one of {', '.join(f'{p:02d}' for p in pend['options'])} (G-26)"
            return None
        return "unknown decision"

    def _validate_commander_move(self, game: "Position", side: str, order: Order) -> str | None:
        state = game.state
        k = order.get("commander")
        cmd = F.commanders(state).get(k) if isinstance(k, str) else None
        if cmd is None or cmd["side"] != side or not cmd["point"]:
            return f"{k!r} is not a commander of {side} on the map"
        if cmd["moved"]:
            return f"{k} has already moved this turn (12)"
        path = _ints(order.get("path"))
        if not path:
            return "path is a list of 1-3 points"
        limit = 1 if cmd["point"] in state.vars["encircled"].get(side, []) else COMMANDER_MOVE
        if len(path) > limit:
            return f"a commander moves at most {limit} points (12)"
        enemy = F.occupied(state, state.enemy_of(side))
        if any(p in enemy for p in path):
            return "a commander may not move through enemy points (12)"
        cids = _strs(order.get("companies"))
        if cids is None:
            return "companies is a list of company ids (may be empty)"
        for c in cids:
            if c not in F.live(state, side) or F.companies(state)[c]["point"] != cmd["point"]:
                return f"{c} is not a company in {k}'s point"
        prev = cmd["point"]
        for p in path:
            if p not in geo.POINTS or not geo.adjacent(prev, p):
                return "each point of the path is next to the one before"
            prev = p
        if cids:
            if len(path) > X.allowance(state, "maneuver", cids):
                return "the group may not move further than its Maneuver allowance (G-22)"
            why = X._walk(game, side, cids, cmd["point"], path)
            if why:
                return why
        return None

    def _validate_reinforce(self, game: "Position", side: str, order: Order) -> str | None:
        state = game.state
        kind = order.get("unit")
        spec = catalogue.UNIT_TYPES.get(kind) if isinstance(kind, str) else None
        prefix = {u.kind.split("-")[0] for u in state.units.values() if u.side == side}
        if spec is None or kind.split("-")[0] not in prefix or spec["category"] in catalogue.AIRCRAFT:
            return "reinforce with a ground platoon of your own nation's catalogue"
        if int(spec["points"]) > state.sides[side]["fp_bank"]:
            return f"{kind} costs {spec['points']} FP, the bank holds {state.sides[side]['fp_bank']}"
        p = order.get("point")
        cmap = geo.campaign_map(game.scenario)
        if p not in geo.POINTS or not cmap.has_road(p) or geo.rows_from(p, state.sides[side]["edge"]) > 2:
            return "reinforcements arrive in a road point on your own half (25.5, G-51)"
        if F.at(state, p, state.enemy_of(side)):
            return "reinforcements arrive in a point free of enemy (G-51)"
        return None

    def needs_dice(self, game: "Position", order: Order) -> bool:
        """Exact: the kinds that never roll say so at once, the rest by a dry run (a plan's
        reveal rolls only when its moves meet the enemy, for instance)."""
        return self.may_roll(game, order) and dry_run_rolls(game, order)

    def may_roll(self, game: "Position", order: Order) -> bool:
        if order.kind in ("end-phase", secret.COMMIT, "reinforce", "resign"):
            return False
        if order.kind == "move-commander":
            return bool(order.get("companies"))
        return True

    # --- resolution -------------------------------------------------------------------------
    def resolve(self, ctx: Resolution, order: Order) -> None:
        state = ctx.state
        game = _GameView(ctx)
        kind = order.kind
        side = self.to_act(game) or ""
        if kind == "resign":
            ctx.emit("resigned", side=side)
            K.finish(ctx, state.enemy_of(side), f"{side} resigned")
        elif kind == "start":
            K.roll_forces(ctx, ctx.scenario)
            K.roll_ratings(ctx)
            ctx.emit("turn", turn=1, si=state.vars["si"])
            K.supply_step(ctx, ctx.scenario)
        elif kind in ("keep-initiative", "hand-initiative"):
            if kind == "hand-initiative":
                state.vars["si"] = state.enemy_of(side)
                ctx.emit("initiative-handed", side=side, to=state.vars["si"])
            K.supply_step(ctx, ctx.scenario)
        elif kind == "end-phase":
            K.end_command(ctx)
        elif kind == "move-commander":
            self._move_commander(ctx, game, side, order)
        elif kind == "reinforce":
            self._reinforce(ctx, side, order)
        elif kind == secret.COMMIT:
            secret.record_commit(state.vars["secret"], side, order["digest"])
            ctx.emit("plan-committed", side=side)
        elif kind == secret.REVEAL:
            rnd = state.vars["secret"]
            secret.record_reveal(rnd, side, [list(r) for r in order["plan"]])
            ctx.emit("plan-opened", side=side)
            if secret.stage(rnd) is None and state.phase == "deploy":
                D.apply(ctx, state, rnd["plans"])
                state.vars["secret"] = None
                state.phase, state.active = "start", state.vars["si"]
                K.check_contact(ctx)
            elif secret.stage(rnd) is None:
                parsed = {s: P.parse(game, s, rnd["plans"][s])[0] for s in rnd["sides"]}
                X.apply_plans(ctx, game, parsed)  # type: ignore[arg-type]
        elif kind == "act":
            X.resolve_act(ctx, game, side, order["actor"], list(order["path"]))
        elif kind == "pass":
            ctx.emit("reaction-passed", side=side)
            state.vars["exec"]["mode"] = "attack"
            X.advance_loop(ctx, game)
        elif kind == "withdraw":
            B.answer_withdraw(ctx, ctx.scenario, bool(order["choice"]))
            X.battle_over(ctx, game)
        elif kind == "reserves":
            B.answer_reserves(ctx, ctx.scenario, list(order["companies"]))
            X.battle_over(ctx, game)
        elif kind == "retreat":
            B.answer_retreat(ctx, ctx.scenario, list(order["path"]))
            X.battle_over(ctx, game)
        elif kind == "advance":
            X.resolve_advance(ctx, game, order["point"])
        elif kind == "stay":
            B.answer_stay(ctx, bool(order["choice"]))
            X.battle_over(ctx, game)

    def _move_commander(self, ctx: Resolution, game: "Position", side: str, order: Order) -> None:
        state = ctx.state
        k = order["commander"]
        cmd = F.commanders(state)[k]
        path = list(order["path"])
        cids = list(order["companies"])
        frm = cmd["point"]
        cmd["point"] = path[-1]
        cmd["moved"] = 1
        ctx.emit("commander-moved", commander=k, path=path, companies=cids)
        if cids:
            X._move_along(ctx, game, cids, frm, path)  # type: ignore[arg-type]
        K.check_contact(ctx)

    def _reinforce(self, ctx: Resolution, side: str, order: Order) -> None:
        state = ctx.state
        kind, p = order["unit"], order["point"]
        spec = catalogue.UNIT_TYPES[kind]
        state.sides[side]["fp_bank"] -= int(spec["points"])
        here = F.at(state, p, side)
        if here:
            cid = here[0]
        else:
            state.vars["reinforced"] += 1
            cid = f"{side}-reinf{state.vars['reinforced']}"
            F.companies(state)[cid] = {"side": side, "name": f"Reinforcements {state.vars['reinforced']}",
                                      "point": p, "exhausted": 0, "fought": 0, "acted": 0,
                                      "bank": None, "elite": False, "trophies": []}
        n = 1 + sum(1 for u in state.units if u.startswith(f"{side}-new"))
        uid = f"{side}-new{n}"
        state.units[uid] = Unit(id=uid, side=side, kind=kind, name=str(spec["name"]), hex=geo.hex_of(p),
                                strength=int(spec["strength"]), max_strength=int(spec["strength"]),
                                division=cid, stats=dict(spec))
        ctx.emit("reinforced", side=side, unit=uid, company=cid, point=p, fp=spec["points"])

    # --- previews -----------------------------------------------------------------------------
    def status_lines(self, game: "Position", side: str) -> list[str]:
        state = game.state
        s = state.sides[side]
        ex = K.exited(state, side)
        lines = [f"RP {s['rp']}  supply {s['supply']}  staff {s['staff']}",
                 f"posture {s['posture'] or '-'}  SI {'yes' if state.vars['si'] == side else 'no'}  "
                 f"weather {state.vars['weather']}",
                 f"companies {len(F.live(state, side))}/{s['start_companies']}"]
        if ex:
            lines.append(f"exited {ex.numerator // ex.denominator} FP")
        return lines

    def ai_orders(self, game: "Position") -> Iterable[tuple[int, Order]]:
        return ai.candidates(self, game)

    def strong_orders(self, game: "Position") -> Iterable[tuple[int, Order]]:
        # the meeting's blocking moves join the candidates (basic's scoring stays as it was), and
        # so do the step-3 group moves of a meeting (ai.group_moves)
        side = self.to_act(game) or ""
        return E.blocking_orders(game, list(ai.candidates(self, game)) + ai.group_moves(game, side))

    def evaluate(self, game: "Position", side: str) -> int:
        return E.evaluate(game, side)

    # --- words for the player (words.py) ------------------------------------------------------
    phase_names = words.PHASE_TITLES
    field_names = words.FIELD_NAMES
    stat_words = words.STAT_WORDS

    def unit_card(self, game: "Position", unit_id: str) -> list[tuple[str, str]]:
        return words.unit_card(self, game, unit_id)

    def why_not(self, game: "Position", unit_id: str, hex: Any) -> str | None:
        return words.why_not(self, game, unit_id, hex)

    def odds_summary(self, game: "Position", order: Order) -> str:
        return words.odds_summary(game, order)

    def player_aid(self, game: "Position") -> list[tuple[str, list[str]]]:
        return words.player_aid(self, game)

    def order_words(self, game: "Position", order: Order) -> str:
        return words.order_words(game, order)

    def event_words(self, game: "Position", event: dict[str, Any]) -> str:
        return words.event_words(game, event)

    def place_words(self, game: "Position", hex: Any) -> list[str]:
        from . import mapview
        return mapview.place_lines(game, hex)

    # --- invariants ---------------------------------------------------------------------------
    def invariant_problems(self, game: "Position") -> list[str]:
        state = game.state
        out = []
        for cid, c in sorted(F.companies(state).items()):
            for u in state.units.values():
                if u.division != cid:
                    continue
                if u.strength < 0 or u.strength > u.max_strength:
                    out.append(f"{u.id} has {u.strength}/{u.max_strength} teams")
                want = geo.hex_of(c["point"]) if c["point"] and u.strength > 0 else None
                if u.hex != want:
                    out.append(f"{u.id} stands at {u.hex}, its company {cid} at {c['point']}")
        for s in state.side_order:
            if state.sides[s]["rp"] < 0:
                out.append(f"{s} has {state.sides[s]['rp']} RP")
        enemy_shared = [p for p in geo.POINTS if F.at(state, p, state.side_order[0])
                        and F.at(state, p, state.side_order[1])]
        if enemy_shared and state.vars["battle"] is None and not state.pending:
            out.append(f"both sides hold points {enemy_shared} outside a battle")
        for p in state.pending:
            if p.get("side") not in state.side_order:
                out.append(f"pending decision without a valid side: {p}")
        return out


class _GameView:
    """What the rule modules need of a Game while an order resolves on the state copy."""

    def __init__(self, ctx: Resolution) -> None:
        self.scenario = ctx.scenario
        self.state = ctx.state
        self.ruleset = ctx.ruleset
        self.map = ctx.map


RULESET = FowRuleset()

__all__ = ["RULESET", "FowRuleset"]
