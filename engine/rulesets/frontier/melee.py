"""Frontier melee (3.6, 3.7): combat groups, the faced attacker, Strength modifiers, resolution.

Every phasing unit that faces an adjacent enemy and has not attacked must fight (G-F6); all the
units facing one defender fight it together (3.6.11-12). The faced attacker F is the attacker the
defender faces, else the latest to make contact (3.6.4, G-F8). Both sides roll one die; a roll at
or under the modified Strength (never below 1, G-F21) destroys the opponent; results are
simultaneous (3.6.13). A surviving Infantry/Cavalry attacker may advance (3.6.7, G-F10).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_direction_to, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import units as U
from .artillery import remove
from .geometry import ahead


def attacked(u: Unit, turn: int) -> bool:
    return u.marks.get("attacked") == turn


def groups(state: State, side: str) -> dict[str, list[str]]:
    """Defender id -> ids of ``side``'s units that must attack it this turn (sorted)."""
    where = {u.hex: u for u in state.units.values() if u.alive}
    out: dict[str, list[str]] = {}
    for u in state.side_units(side):
        if not U.may_attack(u) or attacked(u, state.turn):
            continue
        d = where.get(ahead(u))
        if d is not None and d.side != side:
            out.setdefault(d.id, []).append(u.id)
    return {k: sorted(v) for k, v in sorted(out.items())}


def faced_attacker(state: State, defender: Unit, attackers: list[Unit]) -> Unit:
    h = ahead(defender)
    for a in attackers:
        if a.hex == h:
            return a
    return max(attackers, key=lambda a: (int(a.marks.get("contact", 0)), a.id))


def modifiers(hmap: HexMap, f: Unit, d: Unit, n: int) -> tuple[list[list[Any]], list[list[Any]]]:
    """Named Strength modifiers for the faced attacker ``f`` and the defender ``d``, n attackers."""
    amods: list[list[Any]] = []
    dmods: list[list[Any]] = []
    if n > 1:
        dmods.append([f"attacked by {n} units", -(n - 1)])  # 3.6.11, G-F7
    rise = hmap.elevation_at(d.hex) - hmap.elevation_at(f.hex)
    if rise == 1:
        amods.append(["attacking 1 hill level up", -1])
    elif rise >= 2:
        amods.append(["attacking 2 hill levels up", -2])  # G-F1
    if rise >= 1:
        dmods.append(["attacked from lower ground", 1])
    if hmap.terrain_at(d.hex) == "river":
        dmods.append(["defending in a river cell", -1])
    if hmap.terrain_at(d.hex) == "forest":
        if U.is_cavalry(f):
            amods.append(["cavalry attacking into forest", -1])
        if U.is_cavalry(d):
            dmods.append(["cavalry attacked in forest", -1])
    return amods, dmods


def strengths(hmap: HexMap, f: Unit, d: Unit, n: int) -> dict[str, Any]:
    amods, dmods = modifiers(hmap, f, d, n)
    a = max(1, U.combat_strength(f) + sum(m[1] for m in amods))
    s = max(1, U.combat_strength(d) + sum(m[1] for m in dmods))
    return {"attacker": f.id, "defender": d.id, "attackers": n,
            "attacker_base": U.combat_strength(f), "attacker_modifiers": amods, "attacker_strength": a,
            "defender_base": U.combat_strength(d), "defender_modifiers": dmods, "defender_strength": s}


def preview(hmap: HexMap, state: State, attackers: list[Unit], d: Unit) -> dict[str, Any]:
    f = faced_attacker(state, d, attackers)
    out = strengths(hmap, f, d, len(attackers))
    pa = Fraction(min(6, out["attacker_strength"]), 6)
    pd = Fraction(min(6, out["defender_strength"]), 6)
    out.update(kind="attack", defender_destroyed=pa, attacker_destroyed=pd, both_destroyed=pa * pd,
               neither_destroyed=(1 - pa) * (1 - pd))
    return out


def validate_attack(state: State, side: str, ids: list[str], d: Unit | None, hmap: HexMap) -> str | None:
    if d is None:
        return "there is no enemy unit in the target cell"
    if d.side == side:
        return f"{d.id} is not an enemy unit"
    need = groups(state, side).get(d.id)
    if not need:
        return f"no unit of yours that has not yet attacked faces {d.id}"
    if len(set(ids)) != len(ids):
        return "a unit is listed twice among the attackers"
    for uid in ids:
        u = state.units.get(uid)
        if u is None:
            return f"no unit {uid}"
        if u.side != side:
            return f"{uid} is not your unit"
        if not U.may_attack(u):
            return f"{uid} is artillery and may not start a melee (G-F16)"
        if attacked(u, state.turn):
            return f"{uid} has already attacked this turn (3.6.2)"
        if u.alive is False or ahead(u) != d.hex:
            return f"{uid} does not face {d.id}"
    if sorted(ids) != need:
        return f"every unit facing {d.id} attacks it together: {', '.join(need)} (3.6.11)"
    return None


def resolve_attack(ctx: Resolution, ids: list[str], d: Unit) -> None:
    state, hmap = ctx.state, ctx.map
    attackers = [state.units[i] for i in sorted(ids)]
    f = faced_attacker(state, d, attackers)
    turn_to = hex_direction_to(d.hex, f.hex)
    if turn_to is not None and turn_to != d.facing:
        d.facing = turn_to
        ctx.emit("turned", unit=d.id, facing=turn_to, toward=f.id)
    s = strengths(hmap, f, d, len(attackers))
    for a in attackers:
        a.mark("attacked", state.turn)
    ra = ctx.roll("melee attacker", unit=f.id, strength=s["attacker_strength"])
    rd = ctx.roll("melee defender", unit=d.id, strength=s["defender_strength"])
    d_dies = ra <= s["attacker_strength"]
    f_dies = rd <= s["defender_strength"]
    ctx.emit("combat", attackers=[a.id for a in attackers], defender=d.id, faced=f.id,
             attacker_strength=s["attacker_strength"], attacker_modifiers=s["attacker_modifiers"],
             defender_strength=s["defender_strength"], defender_modifiers=s["defender_modifiers"],
             attacker_roll=ra, defender_roll=rd, defender_destroyed=d_dies, attacker_destroyed=f_dies)
    cell = d.hex
    if d_dies:
        remove(ctx, d, "melee")
    if f_dies:
        remove(ctx, f, "melee")
    if d_dies:
        if f.alive:
            candidates = [f] if U.may_advance(f) else []
        else:
            candidates = [a for a in attackers if a.alive and U.may_advance(a)]
        if candidates:
            state.pending.append({"kind": "advance", "side": f.side, "hex": [cell[0], cell[1]],
                                  "units": [a.id for a in candidates]})


def resolve_advance(ctx: Resolution, pend: dict[str, Any], uid: str | None) -> None:
    state = ctx.state
    state.pending.pop(0)
    if uid is None:
        ctx.emit("held", hex=pend["hex"])
        return
    u = state.units[uid]
    cell = Hex(*pend["hex"])
    facing = hex_direction_to(u.hex, cell)
    frm = u.hex
    u.hex = cell
    if facing is not None:
        u.facing = facing
    ctx.emit("advanced", unit=uid, frm=[frm[0], frm[1]], to=pend["hex"], facing=u.facing)


def make_contact(ctx: Resolution, u: Unit) -> None:
    """After ``u`` ends a move or pivot: if it faces an adjacent enemy, record the contact and turn
    that enemy to face it (3.6.3-4: the defender faces the last unit to make contact)."""
    state = ctx.state
    h = ahead(u)
    enemy = next((e for e in state.units.values() if e.alive and e.hex == h and e.side != u.side), None)
    if enemy is None:
        return
    state.vars["contact_seq"] = int(state.vars.get("contact_seq", 0)) + 1
    u.mark("contact", state.vars["contact_seq"])
    ctx.emit("contact", unit=u.id, enemy=enemy.id)
    back = hex_direction_to(enemy.hex, u.hex)
    if back is not None and back != enemy.facing:
        enemy.facing = back
        ctx.emit("turned", unit=enemy.id, facing=back, toward=u.id)


def neighbor_enemy(state: State, u: Unit, d: int) -> Unit | None:
    h = hex_neighbor(u.hex, d)
    return next((e for e in state.units.values() if e.alive and e.hex == h and e.side != u.side), None)
