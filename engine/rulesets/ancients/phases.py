"""The turn (4.7): exhaustion check (4.6 / G-A33), Missile-Engine Phase (4.7.1), initiative
(opposed d6, ties rerolled), the two activation halves, the elephant rampage at the end of the
turn (4.13), and the end of the battle (4.15)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hexwar.engine.hexgrid import Hex
from hexwar.engine.state import State, Unit

from . import board, hits, melee, shooting
from .units import COMMANDER_SP, is_commander, rule

PER_TURN_MARKS = ("activated", "done", "move_used", "cells", "moved", "shoot_ok", "shoot_checked",
                  "shot", "melee", "may_melee_again", "dashed", "engine_fired", "broke_contact",
                  "formed")  # "formed": Age of Gunpowder's formation change (5.6)


def initial_state(ruleset: Any, scenario: Any) -> State:
    st = State(ruleset=ruleset.id, scenario=scenario.id)
    st.side_order = [s.id for s in scenario.sides]
    adjust = rule(scenario, "class_sp_adjust")
    for spec in scenario.units:
        sp = spec.strength
        if is_commander(spec.stats):
            sp = COMMANDER_SP
        elif adjust:
            sp = max(1, sp + {"excellent": 1, "poor": -1}.get(spec.grade, 0))
        u = Unit(spec.id, spec.side, spec.kind, spec.name, spec.hex, sp, sp, spec.facing,
                 spec.division, spec.grade, ruleset.start_stats(spec), {})
        if spec.hex is None:
            u.marks["reserve"] = 1
            u.marks["entry_turn"] = spec.entry_turn or 1
        st.units[spec.id] = u
    for sid in st.side_order:
        initial = sum(u.max_strength for u in st.units.values() if u.side == sid)
        st.sides[sid] = {"initial": initial, "lost": 0, "ep": -(-initial // 3),
                         "exhausted": False, "exhausted_turn": None}
    st.vars = {"queue": [], "then": [], "current": None, "half": 0, "first": None,
               "engine_sides": [], "engine_decl": [], "initiative": {}}
    g = SimpleNamespace(state=st, map=scenario.map, scenario=scenario, events=[],
                        emit=lambda kind, **data: None)
    st.turn = 1
    if start_turn(g):
        st.phase = "initiative"
        st.active = st.side_order[0]
    return st


def start_turn(g: Any) -> bool:
    """Begin ``g.state.turn``. Returns True if initiative must be rolled now."""
    st = g.state
    for u in st.units.values():
        for k in PER_TURN_MARKS:
            u.marks.pop(k, None)
    _enter_reserves(g)
    st.vars["current"] = None
    g.emit("turn", turn=st.turn)
    for sid in st.side_order:  # G-A33: the EP check before the engine phase
        s = st.sides[sid]
        if not s["exhausted"] and s["lost"] >= s["ep"]:
            s["exhausted"] = True
            s["exhausted_turn"] = st.turn
            g.emit("exhausted", side=sid, lost=s["lost"], ep=s["ep"])
    if all(st.sides[s]["exhausted"] for s in st.side_order):
        finish(g, *compare(st), why="both armies are exhausted (4.6)")
        return False
    if check_sudden_end(g):
        return False
    engine_sides = [s for s in st.side_order if any(
        shooting.targets(g, u, "engine") for u in st.side_units(s)
        if shooting.mode_of(g, u) == "engine" and shooting.unit_blocker(g, u, "engine") is None)]
    if engine_sides:
        st.phase = "engines"
        st.vars["engine_sides"] = engine_sides
        st.vars["engine_decl"] = []
        st.active = engine_sides[0]
        return False
    st.phase = "initiative"
    return True


def _enter_reserves(g: Any) -> None:
    st = g.state
    for uid in sorted(st.units):
        u = st.units[uid]
        if not u.marks.get("reserve") or int(u.marks.get("entry_turn", 1)) > st.turn:
            continue
        spec = next((s for s in g.scenario.units if s.id == uid), None)
        for h in (spec.entry_hexes if spec else ()):
            if not board.units_at(st, h):
                u.hex = Hex(*h)
                u.marks.pop("reserve", None)
                u.marks.pop("entry_turn", None)
                g.emit("entered", unit=uid, to=board.hexlist(h))
                break


def roll_initiative(ctx: Any) -> None:
    st = ctx.state
    a, b = st.side_order
    first, ra, rb = ctx.roll_off("initiative", a, b)  # G-10: ties are rerolled
    st.vars["first"] = first
    st.vars["initiative"] = {a: ra, b: rb}
    st.vars["half"] = 1
    st.vars["current"] = None
    st.phase = "activation"
    st.active = first
    ctx.emit("initiative", first=first, rolls={a: ra, b: rb})


def resolve_engine_fire(ctx: Any) -> None:
    """4.7.1: every declared engine rolls, then every hit rolls its effect, then effects apply."""
    st = ctx.state
    hits_scored = []
    for uid, q, r in st.vars["engine_decl"]:
        unit = st.units[uid]
        target = Hex(q, r)
        if shooting.roll_shot(ctx, unit, target, "engine"):
            hits_scored.append(target)
    for target in hits_scored:
        tgt = board.main_unit_at(st, target)
        if tgt is not None:
            st.vars["queue"].append(hits.hit_entry(ctx, tgt, "engine"))
    st.vars["engine_decl"] = []
    st.vars["then"].append({"k": "initiative"})


def end_phase(ctx: Any) -> None:
    st = ctx.state
    if st.phase == "initiative":
        roll_initiative(ctx)
        return
    if st.phase == "engines":
        sides = st.vars["engine_sides"]
        sides.pop(0)
        if sides:
            st.active = sides[0]
            ctx.emit("phase", phase="engines", active=st.active)
            return
        st.phase = "engine-fire"
        resolve_engine_fire(ctx)
        settle(ctx)
        return
    # activation
    end_current(ctx)
    if st.vars["half"] == 1:
        st.vars["half"] = 2
        st.active = st.enemy_of(st.active)
        ctx.emit("phase", phase="activation", active=st.active)
        return
    end_turn(ctx)


def end_turn(ctx: Any) -> None:
    st = ctx.state
    hits.rampage(ctx)
    if check_sudden_end(ctx):
        return
    if st.turn >= ctx.scenario.turns:
        finish(ctx, *compare(st), why=f"turn limit ({ctx.scenario.turns}) reached (4.15)")
        return
    st.turn += 1
    if start_turn(ctx):
        roll_initiative(ctx)


def end_current(ctx: Any) -> None:
    st = ctx.state
    cur = st.vars.get("current")
    if cur is not None:
        st.units[cur].mark("done", 1)
        ctx.emit("activation-ended", unit=cur)
    st.vars["current"] = None


def begin_action(ctx: Any, unit: Unit) -> None:
    """A unit acts: the previous unit's activation (if another) is over (G-A8)."""
    st = ctx.state
    if st.vars.get("current") != unit.id:
        end_current(ctx)
        st.vars["current"] = unit.id
        unit.mark("activated", 1)
        ctx.emit("activation", unit=unit.id)


def settle(ctx: Any) -> None:
    """Apply queued hits and run continuations until a player must decide or all is done."""
    st = ctx.state
    while not st.pending and st.result is None:
        queue = st.vars["queue"]
        if queue:
            pending = hits.apply_entry(ctx, queue.pop(0))
            if pending is not None:
                st.pending.append(pending)
            continue
        if check_sudden_end(ctx):
            break
        then = st.vars["then"]
        if not then:
            break
        k = then.pop(0)
        if k["k"] == "melee-end":
            pending = melee.after(ctx, k)
            if pending is not None:
                st.pending.append(pending)
        elif k["k"] == "initiative":
            if st.phase == "engine-fire":
                roll_initiative(ctx)
    check_sudden_end(ctx)


def check_sudden_end(g: Any) -> bool:
    """4.15: the battle ends when a side has no units other than Commanders left."""
    st = g.state
    if st.result is not None:
        return True
    empty = [s for s in st.side_order if not any(
        (u.alive or u.marks.get("reserve")) and not is_commander(u.stats)
        for u in st.units.values() if u.side == s)]
    if not empty:
        return False
    if len(empty) == 2:
        finish(g, *compare(st), why="neither army has units left (4.15)")
    else:
        finish(g, st.enemy_of(empty[0]), why=f"{empty[0]} has no units left but Commanders (4.15)")
    return True


def compare(st: State) -> tuple[str | None]:
    """4.15: the side that reached its EP later wins; else the lower fraction of SP lost."""
    a, b = st.side_order
    sa, sb = st.sides[a], st.sides[b]
    ea, eb = sa["exhausted_turn"], sb["exhausted_turn"]
    if ea is not None and eb is None:
        return (b,)
    if eb is not None and ea is None:
        return (a,)
    if ea is not None and eb is not None and ea != eb:
        return (a if ea > eb else b,)
    fa = sa["lost"] * sb["initial"]
    fb = sb["lost"] * sa["initial"]
    if fa == fb:
        return (None,)
    return (a if fa < fb else b,)


def finish(g: Any, winner: str | None, why: str) -> None:
    st = g.state
    if st.result is not None:
        return
    st.result = {"winner": winner, "reason": why}
    st.pending = []
    st.vars["queue"] = []
    st.vars["then"] = []
    g.emit("game-over", winner=winner, reason=why)
