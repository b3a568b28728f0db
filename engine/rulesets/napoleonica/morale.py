"""The Morale-check phase [P] (spec 22.3; the source keeps only the morale dice, 11) and
restoration from fleeing [S] (14). The phase is simultaneous: every trigger is read first, then
each unit tests once, in unit id order."""

from __future__ import annotations

from typing import Any

from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from .melee import remove
from .rolls import test


def triggers(state: State, u: Unit) -> list[str]:
    """Why ``u`` must test this turn (22.3 a-d, 22.6 loss of the commander-in-chief)."""
    out = []
    turn = state.turn
    if u.marks.get("hit") == turn:
        out.append("hit")
    for side, q, r in state.vars.get("losses", []):
        if side == u.side and B.near([(q, r)], B.stand_hexes(u)) <= D.MORALE_FRIEND_LOSS_D:
            out.append("friend lost nearby")
            break
    if u.side in state.vars.get("cinc_lost", []):
        out.append("commander-in-chief lost")
    for c in state.vars.get("contacts", []):
        if c[1] != u.id:
            continue
        if c[2] in ("flank", "rear"):
            out.append(f"{c[2]} attack")
        if c[6] and (B.arm(u) in ("art", "eng") or (B.infantry_like(u) and B.formation(u) != "square")):
            out.append("charged by cavalry")
    return sorted(set(out))


def modifiers(state: State, u: Unit, why: list[str], hmap=None) -> list[tuple[str, int]]:
    M = D.MORALE_MODS
    mods: list[tuple[str, int]] = []
    gens = [g for g in state.side_units(u.side) if B.is_general(g) and B.on_table(g)
            and B.near([g.hex], B.stand_hexes(u)) <= D.COMMAND_D]
    if gens:
        mods.append(("general near", M["general"]))
        if any(g.kind == "CINC" for g in gens):
            mods.append(("commander-in-chief near", M["cinc_extra"]))
    if B.garrison(u) or (hmap is not None and B.any_on(hmap, u, ("rampart",))):
        mods.append(("in a settlement", M["settlement"]) if B.garrison(u) else ("on a wall", M["settlement"]))
    if B.state_of(u) == "disordered":
        mods.append(("disordered", M["disordered"]))
    lost = u.max_strength - u.strength
    if lost > 0:
        mods.append(("stands lost", max(M["lost_stand_cap"], lost * M["per_lost_stand"])))
    if "flank attack" in why or "rear attack" in why:
        mods.append(("flank or rear attack", M["flank_rear_contact"]))
    return mods


def run_phase(ctx: Resolution) -> None:
    state = ctx.state
    tests = []
    for u in [state.units[k] for k in sorted(state.units)]:
        if not B.on_table(u) or B.is_general(u) or B.arm(u) == "train":
            continue
        why = triggers(state, u)
        if why:
            tests.append((u, why, modifiers(state, u, why, ctx.map)))
    state.vars["losses"] = []
    state.vars["cinc_lost"] = []
    for u, why, mods in tests:
        if not B.on_table(u):
            continue
        need = B.experience(u) + sum(v for _, v in mods)
        ok = test(ctx, B.morale_dice(u), need, "morale", unit=u.id, triggers=why,
                  mods={k: v for k, v in mods})
        if ok:
            continue
        if B.state_of(u) == "formed":
            B.freeze_stands(u)
            u.mark("state", "disordered")
            ctx.emit("disordered", unit=u.id, why="morale")
        else:
            remove(ctx, u, "fleeing")


def restoration_need(scenario, state: State, u: Unit) -> int:
    """Experience, unmodified (14); +2 while the army's train is on the table when the scenario
    turns on the [P] train option (22.9, ``[rules] train_bonus = true``)."""
    need = B.experience(u)
    if scenario.rule("train_bonus", False) is True and any(
            B.arm(t) == "train" and B.on_table(t) for t in state.side_units(u.side)):
        need += D.TRAIN_RESTORATION_BONUS
    return need


def rally(ctx: Resolution, u: Unit) -> None:
    """Restoration from fleeing (14): best of the morale dice against experience, no
    modifiers; success makes the unit formed, off the table, free to appear next turn."""
    ok = test(ctx, B.morale_dice(u), restoration_need(ctx.scenario, ctx.state, u), "restoration", unit=u.id)
    u.mark("acted", ctx.state.turn)
    if ok:
        u.mark("state", "restored")
        u.mark("restored", ctx.state.turn)
        ctx.emit("restored", unit=u.id)


def preview_rally(scenario, state: State, u: Unit) -> dict[str, Any]:
    from .rolls import chance_at_most
    need = restoration_need(scenario, state, u)
    num, den = chance_at_most(B.morale_dice(u), need)
    return {"need": f"best of {B.morale_dice(u)}d20 <= {need}",
            "chances": {"restored": (num, den), "still fleeing": (den - num, den)}}
