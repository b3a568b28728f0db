"""The turn (spec 6): Attack -> Appearance -> Movement -> Fire -> Morale -> Melee, a d20 roll-off
before each phase where the players alternate, and the end-of-turn victory check (22.10).

In the alternating phases (attack, appearance, fire, melee) a player acts once or passes
(``end-phase``) and the turn passes to the other; two passes in a row end the phase. A player
with nothing left to do passes automatically. Movement goes in blocks of four pieces (9.2).
"""

from __future__ import annotations

from typing import Callable

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State

from . import board as B
from . import data as D
from . import fire, melee, morale
from .attack import commanded
from .rolls import roll_off

PHASES = ("attack", "appearance", "movement", "fire", "morale", "melee")

#: phase -> function(game-like, state, side) -> whether that side has anything to do
HasAction = Callable[[State, str], bool]


PER_TURN_MARKS = ("acted", "moved", "moved_how", "fired", "attacked", "targeted", "hit")


def start_turn(ctx: Resolution, has_action: HasAction) -> None:
    state = ctx.state
    for uid in sorted(state.units):
        marks = state.units[uid].marks
        for key in PER_TURN_MARKS:
            if key in marks and marks.get(key) != state.turn:
                del marks[key]
    ctx.emit("turn", turn=state.turn)
    enter(ctx, "attack", has_action)


def enter(ctx: Resolution, phase: str, has_action: HasAction) -> None:
    """Start ``phase``; skip it (in order) when nobody can act in it."""
    state = ctx.state
    while True:
        state.phase = phase
        state.vars["passes"] = 0
        state.vars["block"] = 0
        if phase == "movement":
            # "the rest of my pieces hold" (9.2) ends with the phase it was given in
            state.vars["done"] = []
        if phase == "attack":
            state.vars["commanded"] = sorted(commanded(ctx.map, state, state.side_order[0])
                                             + commanded(ctx.map, state, state.side_order[1]))
        if phase == "morale":
            fire.apply_hits(ctx)
            if ask_fire_loss(ctx):
                return
            ctx.emit("phase", phase="morale")
            morale.run_phase(ctx)
            phase = "melee"
            continue
        active = [s for s in state.side_order if has_action(state, s)]
        if not active:
            if phase == "attack":
                _capture_lonely_generals(ctx)
            if phase == "melee":
                end_turn(ctx, has_action)
                return
            phase = PHASES[PHASES.index(phase) + 1]
            continue
        first = roll_off(ctx, phase) if len(active) == 2 else active[0]
        state.active = first
        ctx.emit("phase", phase=phase, side=first)
        return


def ask_fire_loss(ctx: Resolution) -> bool:
    """Take the stands owed to fire before the morale checks; when an owner must choose which
    stand goes, ask (a pending ``lose-stand`` decision) and return True."""
    uid = fire.next_fire_loss(ctx)
    if uid is None:
        return False
    owner = ctx.state.units[uid].side
    ctx.state.pending.append({"side": owner, "kind": "lose-stand", "unit": uid, "why": "fire"})
    ctx.emit("stand-choice", unit=uid, side=owner)
    return True


def after_fire_loss(ctx: Resolution, has_action: HasAction) -> None:
    """After a ``lose`` order for a fire loss: the next choice, or on to the morale checks."""
    if ask_fire_loss(ctx):
        return
    ctx.emit("phase", phase="morale")
    morale.run_phase(ctx)
    enter(ctx, "melee", has_action)


def after_action(ctx: Resolution, has_action: HasAction, passed: bool) -> None:
    """After an order in an alternating phase: hand over, or end the phase on two passes. A side
    with nothing to do passes without an order."""
    state = ctx.state
    passes = state.vars.get("passes", 0) + 1 if passed else 0
    me, other = state.active, state.enemy_of(state.active)
    if passes < 2 and has_action(state, other):
        state.vars["passes"] = passes
        state.active = other
        return
    passes += 1
    if passes < 2 and has_action(state, me):
        state.vars["passes"] = passes
        return
    leave(ctx, has_action)


def after_activation(ctx: Resolution, has_action: HasAction) -> None:
    """Movement (9.2): blocks of four pieces; a player with nothing left passes."""
    state = ctx.state
    state.vars["block"] = state.vars.get("block", 0) + 1
    me, other = state.active, state.enemy_of(state.active)
    mine, theirs = has_action(state, me), has_action(state, other)
    if not mine and not theirs:
        leave(ctx, has_action)
    elif state.vars["block"] >= 4 or not mine:
        if theirs:
            state.active = other
        state.vars["block"] = 0


def leave(ctx: Resolution, has_action: HasAction) -> None:
    state = ctx.state
    phase = state.phase
    if phase == "attack":
        _capture_lonely_generals(ctx)
    if phase == "melee":
        end_turn(ctx, has_action)
        return
    enter(ctx, PHASES[PHASES.index(phase) + 1], has_action)


def _capture_lonely_generals(ctx: Resolution) -> None:
    """[P] 22.6: a general alone next to an enemy stand after the Attack phase is captured."""
    state = ctx.state
    view = B.View(state)
    for g in [state.units[k] for k in sorted(state.units)]:
        if B.is_general(g) and B.on_table(g) and g.hex not in view.stands \
                and view.adjacent_enemy(g.hex, g.side):
            melee.remove(ctx, g, "captured")


def end_turn(ctx: Resolution, has_action: HasAction) -> None:
    state = ctx.state
    state.vars["contacts"] = []
    ctx.emit("turn-ended", turn=state.turn)
    result = check_victory(ctx.scenario, state, final=state.turn >= ctx.scenario.turns)
    if result is not None:
        finish(ctx, result)
        return
    state.turn += 1
    start_turn(ctx, has_action)


def broken(state: State, side: str) -> bool:
    """Army break (22.10): half or more of the starting combat units gone or fleeing."""
    units = [u for u in state.side_units(side, alive=False) if B.is_combat(u)]
    gone = [u for u in units if B.state_of(u) in ("destroyed", "captured", "fleeing")]
    start = state.sides[side].get("start_combat", len(units))
    return start > 0 and 100 * len(gone) >= D.BREAK_PCT * start


def points(scenario, state: State, side: str) -> int:
    """Points scored by ``side`` at the end of the game (22.10)."""
    P = D.POINTS
    total = 0
    enemy = state.enemy_of(side)
    for u in state.side_units(enemy, alive=False):
        st = B.state_of(u)
        if B.is_general(u):
            if st == "captured":
                total += P["cinc"] if u.kind == "CINC" else P["general"]
        elif B.arm(u) == "train":
            total += P["train"] if st == "captured" else 0
        elif st in ("destroyed", "captured") and B.is_combat(u):
            total += P["guard_unit"] if B.guard(u) else P["unit"]
        elif st == "fleeing":
            total += P["fleeing"]
    total += P["gun"] * state.vars.get("guns_taken", {}).get(side, 0)
    view = B.View(state)
    for name in scenario.victory.get("objectives", []):
        h = scenario.map.labels.get(name)
        holder = view.stands.get(h) if h is not None else None
        if holder is not None and holder.side == side:
            total += P["objective"]
    return total


def check_victory(scenario, state: State, final: bool) -> dict | None:
    a, b = state.side_order
    ba, bb = broken(state, a), broken(state, b)
    if ba and bb:
        return {"winner": None, "reason": "both armies broke (22.10)"}
    if ba or bb:
        loser = a if ba else b
        return {"winner": state.enemy_of(loser),
                "reason": f"{loser}'s army broke: half its combat units gone or fleeing (22.10)"}
    if not final:
        return None
    pa, pb = points(scenario, state, a), points(scenario, state, b)
    if abs(pa - pb) < D.DRAW_MARGIN:
        return {"winner": None, "reason": f"points {pa}-{pb}: a difference under {D.DRAW_MARGIN} is a draw (22.10)"}
    return {"winner": a if pa > pb else b, "reason": f"points {pa}-{pb} after the last turn (22.10)"}


def finish(ctx: Resolution, result: dict) -> None:
    state = ctx.state
    state.result = result
    state.pending = []
    state.phase = "over"
    state.active = ""
    ctx.emit("game-over", winner=result["winner"], reason=result["reason"])
