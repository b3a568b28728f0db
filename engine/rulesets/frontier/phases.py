"""Frontier turn sequence (3.3): artillery declarations, initiative, move / combat per player.

Phases: ``artillery`` (side_order[0] declares, then side_order[1]; the first is skipped when it
has nothing to fire at; the second's ``end-phase`` resolves all fire and rolls initiative),
``move`` and ``combat`` for the first player, then for the second; then the end-of-turn victory
check and the next turn. ``vars["half"]`` is 0 for the first player's move/combat, 1 for the
second's; ``vars["art"]`` is the index of the side declaring artillery fire.
"""

from __future__ import annotations

from hexwar.engine.ruleset import Resolution

from . import artillery, victory


def start_turn(ctx: Resolution) -> None:
    state = ctx.state
    state.phase = "artillery"
    state.vars["fire"] = []
    state.vars["half"] = 0
    ctx.emit("turn", turn=state.turn)
    enter_artillery(ctx, 0)


def enter_artillery(ctx: Resolution, idx: int) -> None:
    state = ctx.state
    if idx == 0 and not artillery.has_fire_option(ctx.map, state, state.side_order[0]):
        idx = 1
    state.vars["art"] = idx
    state.active = state.side_order[idx]
    ctx.emit("phase", phase="artillery", side=state.active)


def initial(state, hmap) -> None:
    """Turn 1 set-up without a resolution context (no events, no dice)."""
    state.phase = "artillery"
    state.vars["fire"] = []
    state.vars["half"] = 0
    idx = 0 if artillery.has_fire_option(hmap, state, state.side_order[0]) else 1
    state.vars["art"] = idx
    state.active = state.side_order[idx]


def end_artillery_needs_dice(state) -> bool:
    return state.phase == "artillery" and state.vars.get("art") == 1


def roll_initiative(ctx: Resolution) -> None:
    state = ctx.state
    a, b = state.side_order
    first, ra, rb = ctx.roll_off("initiative", a, b)  # G-10: ties are rerolled
    state.sides[a]["initiative"] = ra
    state.sides[b]["initiative"] = rb
    state.vars["first"] = first
    state.vars["half"] = 0
    state.phase = "move"
    state.active = first
    ctx.emit("initiative", first=first, rolls={a: ra, b: rb})
    ctx.emit("phase", phase="move", side=first)


def end_phase(ctx: Resolution) -> None:
    state = ctx.state
    if state.phase == "artillery":
        if state.vars.get("art", 0) == 0:
            enter_artillery(ctx, 1)
        else:
            artillery.resolve_all(ctx)
            roll_initiative(ctx)
    elif state.phase == "move":
        state.phase = "combat"
        ctx.emit("phase", phase="combat", side=state.active)
    elif state.phase == "combat":
        if state.vars.get("half", 0) == 0:
            state.vars["half"] = 1
            state.active = state.enemy_of(state.active)
            state.phase = "move"
            ctx.emit("phase", phase="move", side=state.active)
        else:
            end_turn(ctx)


def end_turn(ctx: Resolution) -> None:
    state = ctx.state
    result = victory.check(ctx.scenario, state)
    ctx.emit("turn-ended", turn=state.turn)
    if result is not None:
        finish(ctx, result)
        return
    state.turn += 1
    start_turn(ctx)


def finish(ctx: Resolution, result: dict) -> None:
    state = ctx.state
    state.result = result
    state.pending = []
    state.phase = "over"
    state.active = ""
    ctx.emit("game-over", winner=result["winner"], reason=result["reason"])
