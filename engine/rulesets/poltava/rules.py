"""The Poltava 1709 ruleset: sequence of play, orders, decisions, rout and victory.

Phases per player turn (Part 3): move -> fire -> melee. S1 opens with a ``setup`` order (the
pre-battle loss rolls, T14). Decisions the rules hand to a player (losses, retreat paths,
rerolls, pursuit, cavalry withdrawal, the Roos battalion, Rentzel's exchange) are pending entries
answered by orders; nothing is chosen silently unless there is exactly one possibility.
"""

from __future__ import annotations

from typing import Any, Iterator

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbors, hex_spiral
from hexwar.engine.movement import Route
from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Ruleset, order_names_unit
from hexwar.engine.state import State, Unit

from . import evaluate
from .resolve import resolve as _resolve_order  # (evaluate has imported it already)
from . import melee as M
from . import words
from .board import View, arm, fire_of, hx, other, reduced, view_of
from .data import (DRAW_RULES, FIRE_RANGE, HEXSIDES, MELEE_ARMS, MOUNTED, NO_CAVALRY, NO_ZOC, RUSSIA, SWEDEN,
                   TERRAIN, UNIT_TYPES)

MODES = ("normal", "road", "long", "longroad")
S1_RU_DIVS = ["gn", "rp", "al", "mn", "bm", "sb", "lg"]


def _hexes_arg(val) -> list[Hex] | None:
    try:
        out = [hx(x) for x in val]
        return out if all(isinstance(x, tuple) for x in val) else None
    except Exception:
        return None


def _hex_arg(val) -> Hex | None:
    try:
        if isinstance(val, tuple) and len(val) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in val):
            return Hex(val[0], val[1])
    except Exception:
        pass
    return None


def move_order(kind: str, unit_id: str, path, mode: str) -> Order:
    """``Order.make(kind, unit=unit_id, path=path, mode=mode)`` for a path the engine found
    itself (hexes of the map, a known unit id): the same value, built without re-checking it,
    since a unit may have a hundred destinations. The hexes stay ``Hex`` pairs: equal to, hashed
    and sent like the plain pairs ``Order.make`` would hold."""
    return Order.unchecked(kind, (("mode", mode), ("path", tuple(path)), ("unit", unit_id)))


class PoltavaRuleset(Ruleset):
    id = "poltava"
    title = "Poltava 1709"
    unit_types = UNIT_TYPES
    terrain_types = TERRAIN
    hexside_types = HEXSIDES
    grades = ("average",)

    # ------------------------------------------------------------------ set-up
    def may_stack_at_setup(self, stats: dict, other_stats: dict) -> bool:
        a, b = stats.get("arm"), other_stats.get("arm")
        if "leader" in (a, b) or "redoubt" in (a, b):
            return True
        return sorted([a, b]) in (["art", "inf"], ["art", "cav"], ["art", "cossack"])

    def check_scenario(self, scenario) -> list[str]:
        out = []
        ids = {s.id for s in scenario.sides}
        if ids != {RUSSIA, SWEDEN}:
            out.append("sides must be 'russia' and 'sweden'")
        divs = {d.id for d in scenario.divisions}
        for u in scenario.units:
            if u.stats.get("arm") in ("inf", "cav") and u.division not in divs:
                out.append(f"unit {u.id} has no division (R10.1)")
            if u.stats.get("arm") in MOUNTED and u.hex is not None and scenario.map.terrain_at(u.hex) in NO_CAVALRY:
                out.append(f"unit {u.id}: mounted units may not stand in a retrenchment hex (A6)")
        draw = scenario.rule("draw_rule", "literal")
        if draw not in DRAW_RULES:
            out.append(f"rules.draw_rule: {draw!r} is not one of {', '.join(DRAW_RULES)} (A47)")
        return out

    @staticmethod
    def _own_stats(spec) -> dict:
        """Only what differs from the counter class goes into the state (keeps it small)."""
        base = UNIT_TYPES.get(spec.kind, {})
        return {k: v for k, v in sorted(spec.stats.items())
                if k not in ("abbrev", "strength") and base.get(k) != v}

    def initial_state(self, scenario) -> State:
        first = scenario.first_player or SWEDEN
        st = State(ruleset=self.id, scenario=scenario.id, side_order=[first, other(first)])
        st.turn = int(scenario.rule("first_turn", 1))
        st.active = first
        for spec in scenario.units:
            u = Unit(spec.id, spec.side, spec.kind, spec.name, spec.hex, spec.strength,
                     int(spec.stats.get("strength", spec.strength)), spec.facing, spec.division,
                     spec.grade, self._own_stats(spec), {})
            if spec.hex is None:
                if spec.box == "rout":
                    u.strength = 0
                    u.mark("elim")
                    u.mark("absent")
                else:
                    u.mark("waiting", spec.entry_turn or 1)
                    if spec.entry_hexes:
                        u.mark("entry", scenario.map.label(spec.entry_hexes[0]))
            st.units[u.id] = u
        st.sides = {RUSSIA: {}, SWEDEN: {}}
        box: dict[str, int] = {}
        for u in st.units.values():
            if u.marks.get("absent") and u.division:
                box[u.division] = box.get(u.division, 0) + 1
        st.vars = {"box": box, "routed": [], "cossacks_lost": 0, "cossacks_changed": False,
                   "roos_formed": False, "roos_destroyed": False, "odb": {}, "detached": [],
                   "combat": None, "setup_rolls": {}}
        if scenario.rule("scenario", 1) == 1:
            st.phase = "setup"
            st.vars["odb"] = {RUSSIA: True, SWEDEN: True}
        else:
            st.phase = "move"
        return st

    # ------------------------------------------------------------------ helpers
    def _unit(self, st: State, uid) -> Unit | None:
        if not isinstance(uid, str):
            return None
        return st.units.get(uid)

    def last_turn(self, scenario) -> int:
        return int(scenario.turns)

    # ------------------------------------------------------------------ legality
    def validate(self, game, order: Order) -> str | None:
        st = game.state
        if st.result is not None:
            return "the game is over"
        v = view_of(game)
        if st.pending:
            return self._validate_answer(v, st.pending[0], order)
        k = order.kind
        if k == "end-phase":
            if st.phase == "setup":
                return "roll the set-up losses first (order 'setup')"
            return self._end_phase_blocker(v)
        if st.phase == "setup":
            return None if k == "setup" else "the first order of scenario 1 is 'setup' (T14)"
        if k in ("move", "enter"):
            return self._validate_move(v, order)
        if k == "hold":
            if st.phase != "move":
                return "not the movement phase"
            u = self._unit(st, order.get("unit"))
            if u is None or u.side != st.active or not u.alive or u.marks.get("moved"):
                return "no such unit of yours that may still move"
            return None
        if k == "regarrison":
            return self._validate_regarrison(v, order)
        if k == "detach":
            return self._validate_detach(v, order)
        if k == "exchange":
            return self._validate_exchange(v)
        if k == "fire":
            return self._validate_fire(v, order)
        if k == "attack":
            return self._validate_attack(v, order)[0]
        return f"unknown or out-of-phase order {k!r}"

    def needs_dice(self, game, order: Order) -> bool:
        st = game.state
        if order.kind in ("fire", "reroll"):
            return True
        if order.kind == "setup":
            return bool(game.scenario.rule("setup_loss_divisions", ["mn", "le", "cr", "ha"]))
        if order.kind == "attack":
            if st.pending:
                return False
            v = view_of(game)
            why, units, hexes = self._validate_attack(v, order)
            return why is not None or not M.analyse(v, units, hexes)["lone_artillery"]
        if order.kind == "pursue" and st.pending and st.pending[0]["kind"] == "pursue":
            u = self._unit(st, order.get("unit"))
            if u is None or u.side != SWEDEN:
                return False
            v = view_of(game)
            return any(v.garrisoned(h) for h in (_hexes_arg(order.get("path", ())) or []))
        if order.kind in ("move", "enter") and st.active == SWEDEN and not st.pending:
            u = self._unit(st, order.get("unit"))
            if u is None or arm(u) == "leader":
                return False
            v = view_of(game)
            path = _hexes_arg(order.get("path", ())) or []
            return any(v.garrisoned(h) for h in path)
        return False

    def _end_phase_blocker(self, v: View) -> str | None:
        st = v.st
        if st.phase == "move" and st.turn == int(v.scn.rule("first_turn", 1)) and not v.s1:
            waiting = [u.id for u in st.side_units(st.active, alive=False)
                       if u.marks.get("waiting") and u.strength > 0 and self.entry_hex(v, u) is not None]
            if waiting:
                return f"all Swedish columns must enter in turn 1 (S2 set-up): {waiting[0]} waits"
        if st.phase == "melee":
            ob = self.obligations(v)
            if ob:
                return f"melee obligation unmet (R8.2/R8.4): {ob[0]}"
        return None

    # --- movement ---------------------------------------------------------------------------
    def _validate_move(self, v: View, order: Order) -> str | None:
        st = v.st
        if st.phase != "move":
            return "not the movement phase"
        u = self._unit(st, order.get("unit"))
        if u is None or u.side != st.active:
            return "no such unit of yours"
        mode = order.get("mode", "normal")
        if mode not in MODES:
            return f"mode is one of {', '.join(MODES)}"
        path = _hexes_arg(order.get("path", ()))
        if not path:
            return "a move needs a path of adjacent hexes"
        if any(h not in v.m for h in path):
            return "the path leaves the map (GN: nobody leaves the field)"
        if order.kind == "enter":
            if not u.marks.get("waiting") or u.strength <= 0:
                return f"{u.id} is not waiting to enter"
            if u.marks["waiting"] > st.turn:
                return f"{u.id} enters on turn {u.marks['waiting']}"
            start = self.entry_hex(v, u)
            if start is None:
                return "no free entry hex"
            if path[0] != start:
                return f"{u.id} enters at {v.m.label(start)}"
            if v.combat_at(start, other(u.side)):
                return "entry hex held by the enemy"
            if len(path) == 1:
                return None if v.can_end(u, start) else "may not stay in the entry hex"
            return v.check_path(u, start, path[1:], mode)
        if not u.alive:
            return f"{u.id} is not on the map"
        if u.marks.get("moved"):
            return f"{u.id} has already moved (units move one at a time)"
        a = arm(u)
        if a in ("art", "redoubt"):
            return "artillery does not move (R9.4.4)"
        if a != "leader" and u.hex in v.zoc(u.side):
            return f"{u.id} starts in an enemy ZOC and may leave it only by combat (R5.3)"
        if (not v.s1 and u.side == RUSSIA and st.turn < 5 and a != "leader"
                and u.division not in ("mn", "rc")):
            return "before turn 5 only Menshikov and Rentzel may move (S2)"
        return v.check_path(u, u.hex, path, mode)

    def entry_hex(self, v: View, u) -> Hex | None:
        lab = u.marks.get("entry")
        if not isinstance(lab, str):
            return None
        e = v.m.parse(lab)
        if v.can_end(u, e) and not v.combat_at(e, u.side):
            return e
        for r in range(1, 6):
            for h in sorted(hex_spiral(e, r)):
                if h in v.m and hex_distance(h, e) == r and v.south(h) and v.terrain(h) not in ("woods", "river") \
                        and not v.combat_at(h) and v.can_end(u, h):
                    return h
        return None

    def _validate_regarrison(self, v: View, order) -> str | None:
        st = v.st
        if v.s1 or st.phase != "move" or st.active != RUSSIA:
            return "re-garrisoning is done in the Russian movement phase of scenario 2 (S2-2.5)"
        u = self._unit(st, order.get("unit"))
        r = self._unit(st, order.get("redoubt"))
        if u is None or not u.alive or u.side != RUSSIA or arm(u) != "inf" or u.marks.get("moved"):
            return "needs a Russian infantry unit that has not moved"
        if r is None or arm(r) != "redoubt" or not r.alive or r.side != SWEDEN:
            return "needs a captured redoubt"
        if hex_distance(u.hex, r.hex) != 1:
            return "the unit must begin adjacent to the redoubt"
        if v.combat_at(r.hex, SWEDEN):
            return "the redoubt is occupied by the Swedes (A43)"
        if v.combat_at(r.hex):
            return "a Russian unit stands in the redoubt; a garrison does not stack (A41)"
        if self._movement_begun(st):
            return "re-garrisoning is done at the start of the movement phase, before any unit moves (Part 3)"
        if st.vars.get("exchange_turn") == st.turn:
            return "re-garrisoning comes before Rentzel's exchange (Part 3)"
        return None

    @staticmethod
    def _movement_begun(st: State) -> bool:
        """Has any unit of the phasing side moved (or been held) in this movement phase?"""
        return any(u.marks.get("moved") for u in st.side_units(st.active, alive=False))

    def _validate_detach(self, v: View, order) -> str | None:
        st = v.st
        if v.s1 or st.phase != "move":
            return "sending divisions away is a scenario 2 movement-phase decision (S2-1.6)"
        d = order.get("division")
        if not isinstance(d, str):
            return "name a division"
        spec = next((x for x in v.scn.divisions if x.id == d), None)
        if spec is None or spec.side != st.active or d in st.vars["detached"] or d in st.vars["routed"]:
            return "not one of your divisions"
        units = [u for u in st.side_units(st.active) if u.division == d and arm(u) in MELEE_ARMS]
        if not units or not all(arm(u) == "inf" for u in units):
            return "only infantry divisions are sent away"
        if d in ("lg", "rc"):
            return "that division does not form in the ordre de bataille"
        if st.active == RUSSIA and not all(v.in_camp(u.hex) for u in units):
            return "a division sent to the Camp must be inside it"
        if st.active == SWEDEN and not all(v.south(u.hex) for u in units):
            return "a detached Swedish division must be south of the Redoubt Line"
        return None

    def _validate_exchange(self, v: View) -> str | None:
        st = v.st
        if v.s1 or st.phase != "move" or st.active != RUSSIA or st.turn < 6:
            return "Rentzel's exchange is made in a Russian movement phase from turn 6 (S2-5)"
        if self._movement_begun(st):
            return "Rentzel's exchange is made at the start of the movement phase, before any unit moves (Part 3)"
        roos = [u for u in st.units.values() if u.alive and u.division == "roos"]
        if not roos:
            return "there is no Roos column on the map"
        need = sum(u.strength for u in roos)
        have = sum(u.strength for u in st.units.values() if u.alive and u.division in ("rc", "lg") and arm(u) in MELEE_ARMS)
        if have < need:
            return f"Rentzel and the Camp have {have} steps, the Roos column {need}"
        return None

    # --- fire -----------------------------------------------------------------------------------
    def fire_value(self, v: View, u) -> tuple[int, int, bool]:
        """(fire, range, canister) for a unit that may fire, else (0, 0, False)."""
        if not u.alive or u.side != v.st.active:
            return 0, 0, False
        a = arm(u)
        if a == "redoubt":
            return (fire_of(u), 2, False) if u.side == RUSSIA else (0, 0, False)
        r = v.redoubt_at(u.hex)
        if r is not None and u.side == SWEDEN and a in MELEE_ARMS:
            return fire_of(r), 2, False
        if a in ("inf", "art") and fire_of(u) > 0:
            return fire_of(u), FIRE_RANGE[a], a == "art"
        return 0, 0, False

    def _validate_fire(self, v: View, order) -> str | None:
        st = v.st
        if st.phase != "fire":
            return "not the fire phase"
        u = self._unit(st, order.get("unit"))
        t = self._unit(st, order.get("target"))
        if u is None or u.side != st.active:
            return "no such unit of yours"
        f, rng, _ = self.fire_value(v, u)
        if f <= 0:
            return f"{u.id} cannot fire (R6, R7)"
        if u.marks.get("fired"):
            return f"{u.id} has already fired"
        if t is None or not t.alive or t.side == u.side or arm(t) not in ("inf", "cav", "art", "cossack"):
            return "target must be an enemy combat unit (redoubts only fall in melee)"
        d = hex_distance(u.hex, t.hex)
        if d > rng:
            return f"out of range ({d} > {rng})"
        if d == 0:
            return "no target in own hex"
        in_zoc = t.hex in v.zoc(t.side)
        firer_safe = arm(u) == "redoubt" or v.terrain(u.hex) in NO_ZOC or v.cut_off(u.hex, t.hex)
        canister = arm(u) == "art" and d == 1
        if in_zoc and not firer_safe and not canister:
            return "no firing at enemies in your own ZOC (R6.1)"
        if not v.los(u.hex, t.hex, v.elevated(u)):
            return "no line of sight (R7) or a unit in the way (R6.3)"
        return None

    # --- melee ----------------------------------------------------------------------------------
    def _validate_attack(self, v: View, order) -> tuple[str | None, list, list]:
        """(why not, the attackers, the hexes attacked): asked by ``needs_dice`` and then by
        ``validate`` of the same order, so a view of a position nobody changes keeps it."""
        if not v.snapshot:
            return self._check_attack(v, order)
        key = ("attack", order)
        out = v._zoc.get(key)
        if out is None:
            out = v._zoc[key] = self._check_attack(v, order)
        return out

    def _check_attack(self, v: View, order) -> tuple[str | None, list, list]:
        st = v.st
        if st.phase != "melee":
            return "not the melee phase", [], []
        ids = order.get("units", ())
        if not isinstance(ids, tuple) or not ids:
            return "name the attacking units", [], []
        units = [self._unit(st, i) for i in ids]
        if any(u is None or not u.alive for u in units):
            return "no such unit", [], []
        hexes = _hexes_arg(order.get("hexes", ()))
        if not hexes:
            return "name the hex(es) attacked", [], []
        why = M.check_attack(v, st.active, units, hexes)
        return why, units, hexes

    @staticmethod
    def fix_obligations(v: View) -> dict[str, list[str]]:
        """The melee obligations as they stand now (spec 8.2 [PROP]): phasing units in an enemy
        ZOC that may still attack must attack; enemies whose ZOC covers one of them must be
        attacked. Fixed once at the start of the melee phase, after forced withdrawals."""
        st = v.st
        side = st.active
        zoc = v.zoc(side)
        engaged = [u for u in st.side_units(side)
                   if arm(u) in MELEE_ARMS and not u.marks.get("attacked") and u.hex in zoc]
        defend = sorted({e.id for u in engaged for e in v.zoc_sources(u)})
        return {"attack": [u.id for u in engaged], "defend": defend}

    def obligations(self, v: View) -> list[str]:
        """Unmet, satisfiable obligations of the phasing player (R8.2, R8.4; spec 8.2). They were
        fixed when the phase began; a pursuit that ends next to an enemy adds none. One that no
        legal attack can meet any more is waived (8.2 d, f)."""
        st = v.st
        side = st.active
        fixed = st.vars.get("obligation") or self.fix_obligations(v)
        out = []
        free = [u for u in st.side_units(side) if arm(u) in MELEE_ARMS and not u.marks.get("attacked")]
        for uid in fixed["attack"]:
            u = st.units[uid]
            if not u.alive or u.side != side or u.marks.get("attacked"):
                continue
            for n in sorted(hex_neighbors(u.hex)):
                if M.defenders_in(v, n, side) and M.check_attack(v, side, [u], [n]) is None:
                    out.append(f"{u.id} must attack")
                    break
        for eid in fixed["defend"]:
            e = st.units[eid]
            if not e.alive or e.side == side or e.marks.get("defended"):
                continue
            for a in free:
                if hex_distance(a.hex, e.hex) == 1 and M.check_attack(v, side, [a], [e.hex]) is None:
                    out.append(f"{eid} must be attacked")
                    break
        return out

    # --- answers to pending decisions -------------------------------------------------------------
    def _validate_answer(self, v: View, p: dict, order: Order) -> str | None:
        k = p["kind"]
        st = v.st
        if k in ("loss", "setup-loss", "exchange-loss"):
            if order.kind != "lose":
                return f"choose a unit to lose a step ({k})"
            if order.get("unit") not in self.loss_choices(v, p):
                return "that unit cannot take this loss"
            return None
        if k == "reroll":
            if order.kind == "keep-roll":
                return None
            if order.kind == "reroll" and order.get("leader") in p["leaders"]:
                return None
            return "answer with 'reroll leader=...' or 'keep-roll'"
        if k == "retreat":
            if order.kind != "retreat" or order.get("unit") != p["unit"]:
                return f"choose the retreat path of {p['unit']}"
            path = _hexes_arg(order.get("path", ()))
            if path is None or [list(h) for h in path] not in p["options"]:
                return "not one of the best retreat paths (R8.9.1)"
            return None
        if k == "pursue":
            if order.kind == "no-pursuit":
                return None
            if order.kind != "pursue":
                return "answer with 'pursue' or 'no-pursuit'"
            path = _hexes_arg(order.get("path", ()))
            opt = [order.get("unit"), [list(h) for h in path] if path else None]
            return None if opt in p["options"] else "not a legal pursuit (R8.10)"
        if k == "roos":
            if order.kind != "roos" or order.get("unit") not in p["options"]:
                return "choose the battalion that joins the Roos column (S2-4)"
            return None
        if k == "displace":
            if order.kind != "displace" or order.get("unit") != p["unit"]:
                return f"choose where {p['unit']} goes (A35)"
            h = _hex_arg(order.get("hex"))
            if h is None or h not in self.displace_options(v, st.units[p["unit"]], hx(p["from"])):
                return "not one of the nearest free hexes (A35)"
            return None
        if k == "withdraw":
            if order.kind != "withdraw" or order.get("unit") != p["unit"]:
                return f"withdraw {p['unit']} (R9.2)"
            path = _hexes_arg(order.get("path", ()))
            if not path:
                return "give a path"
            u = st.units[p["unit"]]
            dests = self.withdraw_routes(v, u)
            r = dests.get(path[-1])
            if r is None or list(r.path) != path:
                return "not a legal withdrawal path"
            return None
        return "unknown decision"

    def loss_choices(self, v: View, p: dict) -> list[str]:
        st = v.st
        cands = [st.units[i] for i in p["units"] if i in st.units and st.units[i].alive and st.units[i].strength > 0]
        if p["kind"] == "setup-loss":
            cands = [u for u in cands if not reduced(u) and u.max_strength >= 2]
        if p["kind"] == "exchange-loss":
            rc = [u for u in cands if u.division == "rc"]
            cands = rc or cands
        return [u.id for u in cands]

    @staticmethod
    def displace_options(v: View, u, origin) -> list[Hex]:
        """A35: the nearest hexes (within 7) where a Cossack that changed sides may stand."""
        for r in range(1, 8):
            out = [h for h in sorted(hex_spiral(origin, r))
                   if hex_distance(h, origin) == r and h in v.m and v.terrain(h) not in ("woods", "river")
                   and not v.combat_at(h) and v.can_end(u, h)]
            if out:
                return out
        return []

    # --- cavalry withdrawal (R9.2) ------------------------------------------------------------------
    def must_withdraw(self, v: View, u) -> bool:
        """R9.2: mounted units in an enemy ZOC that owe an attack none of which they may make.
        A unit that may not attack this phase at all (Cossacks that just changed sides, GN)
        owes none, so it is not forced away."""
        if arm(u) not in MOUNTED or u.marks.get("attacked") or u.hex not in v.zoc(u.side):
            return False
        for e in v.zoc_sources(u):
            if M.check_attack(v, u.side, [u], [e.hex]) is None:
                return False
        return True

    def withdraw_routes(self, v: View, u) -> dict:
        zoc = v.zoc(u.side)
        base = v.step_fn(u, "normal")

        def step(a, b, spent, aux):
            if b in zoc:
                return None
            out = base(a, b, spent, aux)
            if out is None:
                return None
            return out[0], aux, False
        from hexwar.engine.movement import search_moves
        return search_moves(u.hex, lambda h: [n for _, n in v.m.neighbors(h)], step,
                            v.allowance(u, "normal"), lambda h: v.can_end(u, h))

    # ------------------------------------------------------------------ legal orders
    def legal_orders(self, game) -> Iterator[Order]:
        st = game.state
        if st.result is not None:
            return
        v = view_of(game)
        if st.pending:
            yield from self._answer_orders(v, st.pending[0])
            return
        if st.phase == "setup":
            yield Order.make("setup")
            return
        if self._end_phase_blocker(v) is None:
            yield Order.make("end-phase")
        if st.phase == "move":
            for u in st.side_units(st.active, alive=False):
                if u.marks.get("waiting") and u.strength > 0 and u.marks["waiting"] <= st.turn:
                    for o in self.move_orders(v, u, enter=True):
                        yield o
                    break
            for u in st.side_units(st.active):
                if u.marks.get("moved") or arm(u) in ("art", "redoubt"):
                    continue
                moves = list(self.move_orders(v, u))
                if moves:
                    yield Order.make("hold", unit=u.id)
                    yield from moves
            if not v.s1:
                for d in v.scn.divisions:
                    o = Order.make("detach", division=d.id)
                    if self._validate_detach(v, o) is None:
                        yield o
            for o in (Order.make("exchange"),):
                if self.validate(game, o) is None:
                    yield o
            if not v.s1:
                yield from self.legal_orders_regarrison(v)
        elif st.phase == "fire":
            for o in self.fire_orders(v):
                yield o
        elif st.phase == "melee":
            for o in self.attack_orders(v):
                yield o

    def unit_orders(self, game, unit_id: str) -> Iterator[Order]:
        """One unit's legal orders, built for that unit alone in the move and fire phases (the
        same orders, in the same order, as filtering ``legal_orders``)."""
        st = game.state
        if st.result is not None:
            return
        u = self._unit(st, unit_id)
        if u is None:
            return
        if st.pending or st.phase not in ("move", "fire"):
            yield from (o for o in self.legal_orders(game) if order_names_unit(o, unit_id))
            return
        v = view_of(game)
        if st.phase == "fire":
            yield from self._fire_orders_of(v, u)
            return
        if u.side != st.active:
            return
        first_waiting = next((w for w in st.side_units(st.active, alive=False)
                              if w.marks.get("waiting") and w.strength > 0 and w.marks["waiting"] <= st.turn), None)
        if first_waiting is u:
            yield from self.move_orders(v, u, enter=True)
        if u.alive and not u.marks.get("moved") and arm(u) not in ("art", "redoubt"):
            moves = list(self.move_orders(v, u))
            if moves:
                yield Order.make("hold", unit=u.id)
                yield from moves
        if not v.s1:
            yield from (o for o in self.legal_orders_regarrison(v) if o["unit"] == unit_id)

    def legal_orders_regarrison(self, v: View):
        st = v.st
        for r in st.units_in_id_order():
            if arm(r) == "redoubt" and r.side == SWEDEN and r.alive:
                for n in sorted(hex_neighbors(r.hex)):
                    for u in v.combat_at(n, RUSSIA):
                        o = Order.make("regarrison", unit=u.id, redoubt=r.id)
                        if self._validate_regarrison(v, o) is None:
                            yield o

    def move_orders(self, v: View, u, enter: bool = False, modes=MODES) -> Iterator[Order]:
        st = v.st
        if enter:
            for mode, route in self.entry_routes(v, u, modes):
                yield move_order("enter", u.id, list(route.path), mode)
            return
        if u.marks.get("moved") or not u.alive or arm(u) in ("art", "redoubt") or (arm(u) != "leader" and u.hex in v.zoc(u.side)):
            return
        if (not v.s1 and u.side == RUSSIA and st.turn < 5 and arm(u) != "leader"
                and u.division not in ("mn", "rc")):
            return
        seen = set()
        for mode in modes:
            for h, r in sorted(v.search(u, mode).items()):
                if h not in seen:
                    seen.add(h)
                    yield move_order("move", u.id, r.path, mode)

    def fire_orders(self, v: View) -> Iterator[Order]:
        st = v.st
        for u in st.units_in_id_order():
            yield from self._fire_orders_of(v, u)

    def _fire_orders_of(self, v: View, u) -> Iterator[Order]:
        if u.marks.get("fired"):
            return
        f, rng, _ = self.fire_value(v, u)
        if f <= 0:
            return
        for t in self._fire_targets(v, u.side):
            if hex_distance(u.hex, t.hex) <= rng:
                o = Order.make("fire", unit=u.id, target=t.id)
                if self._validate_fire(v, o) is None:
                    yield o

    @staticmethod
    def _fire_targets(v: View, side: str) -> list:
        """The live enemy combat units of ``side``, in id order: whom its units may shoot at,
        range aside. Worked out once per position on a view of a position nobody changes."""
        key = ("fire-targets", side)
        targets = v._zoc.get(key) if v.snapshot else None
        if targets is None:
            targets = [t for t in v.st.units_in_id_order()
                       if t.alive and t.side != side and arm(t) in ("inf", "cav", "art", "cossack")]
            if v.snapshot:
                v._zoc[key] = targets
        return targets

    def attack_orders(self, v: View) -> Iterator[Order]:
        st = v.st
        side = st.active
        free = [u for u in st.side_units(side) if arm(u) in MELEE_ARMS and not u.marks.get("attacked")]
        by_hex: dict[Hex, list] = {}
        for u in free:
            for n in sorted(hex_neighbors(u.hex)):
                if M.defenders_in(v, n, side):
                    if M.check_attack(v, side, [u], [n]) is None:
                        by_hex.setdefault(n, []).append(u)
                        yield Order.make("attack", units=[u.id], hexes=[n])
        for n in sorted(by_hex):
            us = by_hex[n]
            if len(us) > 1:
                yield Order.make("attack", units=[u.id for u in us], hexes=[n])
        for u in free:
            hs = sorted(h for h in by_hex if u in by_hex[h])
            if len(hs) > 1:
                if M.check_attack(v, side, [u], hs) is None:
                    yield Order.make("attack", units=[u.id], hexes=hs)

    def _answer_orders(self, v: View, p: dict) -> Iterator[Order]:
        k = p["kind"]
        if k in ("loss", "setup-loss", "exchange-loss"):
            for uid in self.loss_choices(v, p):
                yield Order.make("lose", unit=uid)
        elif k == "reroll":
            yield Order.make("keep-roll")
            for lid in p["leaders"]:
                yield Order.make("reroll", leader=lid)
        elif k == "retreat":
            for path in p["options"]:
                yield Order.make("retreat", unit=p["unit"], path=path)
        elif k == "pursue":
            yield Order.make("no-pursuit")
            for uid, path in p["options"]:
                yield Order.make("pursue", unit=uid, path=path)
        elif k == "roos":
            for uid in p["options"]:
                yield Order.make("roos", unit=uid)
        elif k == "displace":
            u = v.st.units[p["unit"]]
            for h in self.displace_options(v, u, hx(p["from"])):
                yield Order.make("displace", unit=u.id, hex=h)
        elif k == "withdraw":
            u = v.st.units[p["unit"]]
            for h, r in sorted(self.withdraw_routes(v, u).items()):
                yield Order.make("withdraw", unit=u.id, path=list(r.path))

    # ------------------------------------------------------------------ previews
    # --- words for the player (words.py) --------------------------------------------------------
    phase_names = words.PHASE_TITLES
    field_names = words.FIELD_NAMES
    quiet_fields = words.QUIET_FIELDS
    mark_words = words.MARK_WORDS

    def type_name(self, kind: str) -> str:
        return words.TYPE_NAMES.get(kind, kind)

    def why_not(self, game, unit_id: str, hex: Hex) -> str | None:
        return words.why_not(self, game, unit_id, hex)

    def unit_card(self, game, unit_id: str) -> list[tuple[str, str]]:
        return words.unit_card(self, game, unit_id)

    def odds_summary(self, game, order: Order) -> str:
        return words.odds_summary(self.odds(game, order))

    def order_words(self, game, order: Order) -> str:
        return words.order_words(game, order)

    def event_words(self, game, event) -> str | None:
        return words.event_words(game, event)

    def player_aid(self, game) -> list[tuple[str, list[str]]]:
        return words.player_aid(self, game)

    def status_lines(self, game, side: str) -> list[str]:
        """Each division's rout box against its rout number (Part 9), the Cossacks (GN 10.2)."""
        st = game.state
        box, routed = st.vars.get("box", {}), st.vars.get("routed", [])
        out = []
        for d in game.scenario.divisions:
            if d.side != side:
                continue
            limit = "-" if d.rout_threshold is None else d.rout_threshold
            mark = " ROUTED" if d.id in routed else ""
            out.append(f"{d.name}: rout box {box.get(d.id, 0)}/{limit}{mark}")
        if side == RUSSIA and st.vars.get("cossacks_lost"):
            changed = " (changed sides)" if st.vars.get("cossacks_changed") else ""
            out.append(f"Cossacks lost {st.vars['cossacks_lost']}{changed}")
        return out

    def zoc_hexes(self, game, side: str) -> list:
        """Part 5: enemy ZOC with its exceptions (none into settlements or redoubts, none across
        the retrenchment or impassable hexsides, none from artillery)."""
        return sorted(h for h in view_of(game).zoc(side) if h in game.map)

    def reachable(self, game, unit_id: str):
        """Where the unit can move now; for a unit whose turn to enter has come, where it can get
        from its entry hex (the entry hex itself at cost 0, the path starting there)."""
        st = game.state
        u = st.units.get(unit_id)
        if u is None:
            return {}
        v = view_of(game)
        if u.hex is None:
            return self._entry_reach(v, u)
        if not u.alive:
            return {}
        out = {}
        for mode in MODES:
            for h, r in v.search(u, mode).items():
                out.setdefault(h, r)
        return out

    def entry_routes(self, v: View, u, modes=MODES) -> Iterator[tuple[str, Route]]:
        """Where a counter entering now can end (A38), one route per hex, each starting in the
        entry hex (which costs nothing): the entry hex itself first, then each mode's new hexes."""
        start = self.entry_hex(v, u)
        if start is None:
            return
        seen = set()
        if v.can_end(u, start):
            seen.add(start)
            yield "normal", Route(0, (start,))
        for mode in modes:
            for h, r in sorted(v.search(u, mode, start).items()):
                if h not in seen:
                    seen.add(h)
                    yield mode, Route(r.cost, (start, *r.path))

    def _entry_reach(self, v: View, u) -> dict:
        waiting = u.marks.get("waiting")
        if not waiting or waiting > v.st.turn or u.strength <= 0:
            return {}
        return {route.end: route for _, route in self.entry_routes(v, u)}

    def targets(self, game, unit_id: str):
        v = view_of(game)
        out = []
        if game.state.phase == "fire":
            for o in self.fire_orders(v):
                if o["unit"] == unit_id:
                    out.append(game.state.units[o["target"]].hex)
        elif game.state.phase == "melee":
            for o in self.attack_orders(v):
                if o["units"] == (unit_id,):
                    out.extend(hx(h) for h in o["hexes"])
        return sorted(set(out))

    def odds(self, game, order: Order) -> dict[str, Any]:
        v = view_of(game)
        if order.kind == "fire":
            if self._validate_fire(v, order) is not None:
                return {}
            from fractions import Fraction
            u = game.state.units[order["unit"]]
            t = game.state.units[order["target"]]
            f, _, can = self.fire_value(v, u)
            shots = 2 if can and hex_distance(u.hex, t.hex) == 1 else 1
            p = Fraction(max(0, 7 - f), 6)
            return {"fire": f, "shots": shots, "hit_each": p}
        if order.kind != "attack":
            return {}
        why, units, hexes = self._validate_attack(v, order)
        if why is not None:
            return {"illegal": why}
        a = M.analyse(v, units, hexes)
        if a["lone_artillery"]:
            a["chances"] = {"artillery destroyed": 1}
        else:
            a["chances"] = M.chances(a["index"], a["drm"])
        return a

    # ------------------------------------------------------------------ invariants
    def invariant_problems(self, game) -> list[str]:
        st = game.state
        out = []
        v = view_of(game)
        for h, us in sorted(v.occ.items()):
            alive = [u for u in us if u.alive]
            if h not in v.m and alive:
                out.append(f"units off the map at {h}")
            sides = {u.side for u in alive if arm(u) in ("inf", "cav", "art", "cossack")}
            if len(sides) > 1:
                out.append(f"both sides in {v.m.label(h)}")
            cu = [u for u in alive if arm(u) in ("inf", "cav", "cossack")]
            ar = [u for u in alive if arm(u) == "art"]
            if len(cu) > 1 or len(ar) > 1:
                out.append(f"overstacked {v.m.label(h)}: {[u.id for u in alive]}")
            if v.terrain(h) in ("woods", "river") and alive:
                out.append(f"unit in impassable {v.m.label(h)}")
        for u in st.units.values():
            if u.strength < 0 or u.strength > u.max_strength:
                out.append(f"{u.id} strength {u.strength}")
            if u.hex is not None and u.strength == 0:
                out.append(f"{u.id} on the map with no strength")
        return out

    # ------------------------------------------------------------------ resolution
    def resolve(self, ctx, order: Order) -> None:
        _resolve_order(self, ctx, order)

    def ai_orders(self, game):
        from . import ai
        return ai.ai_orders(self, game)

    def strong_orders(self, game):
        """The strong computer's candidates: the basic ones with its division plan (plan.py)."""
        from . import plan
        return plan.strong_orders(self, game)

    #: the strong computer also weighs which unit takes a loss and where it retreats or pursues,
    #: and scores an attack only once the rerolls, losses and pursuit it leaves pending are
    #: answered, which needs a larger work budget (benchmarks/ai_strength.md). Russia, which
    #: wins by standing, answers as the basic player does: searched answers measured worse there
    search_budget = {"answers": True, "settle": 4, "work": 300, "sides": {"russia": {"answers": False}}}

    def evaluate(self, game, side: str) -> int:
        """The strong computer's view of a position (evaluate.py)."""
        return evaluate.evaluate(game, side)
