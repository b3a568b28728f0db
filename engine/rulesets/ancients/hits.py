"""Hits on units (4.11), commander loss (4.11 / G-A4), retreats (G-A20, G-A40) and War Elephant
retreats and rampages (4.13 / G-A21).

A hit is turned into a queue entry when it is scored (the hit-table die is rolled then, in the
order that scored it); entries are applied one by one by ``phases.settle``. An entry that gives
its owner the choice "retreat or lose 1 SP" becomes a pending ``choose-hit`` decision.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor
from hexwar.engine.state import Unit

from . import board
from .units import (
    ELEPHANT_HIT_TABLE, HIT_TABLE, is_commander, is_elephant, may_enter, rule,
)


def hit_entry(ctx: Any, target: Unit, source: str) -> dict[str, Any]:
    """Roll on the hit table for ``target`` (if it rolls) and return the queue entry."""
    if is_commander(target.stats):
        ctx.emit("hit-effect", unit=target.id, effect="commander-lost", source=source)
        return {"unit": target.id, "effect": "commander"}
    if target.marks.get("rampage"):
        # G-A21: a rampaging elephant just loses 1 SP per further hit
        ctx.emit("hit-effect", unit=target.id, effect="lose", source=source)
        return {"unit": target.id, "effect": "lose"}
    table = HIT_TABLE
    if is_elephant(target.stats) and rule(ctx.scenario, "elephant_hit_table"):
        table = ELEPHANT_HIT_TABLE
    die = ctx.roll("hit-effect", unit=target.id)
    effect = "lose" if die <= table.get(target.grade, 3) else "choice"
    ctx.emit("hit-effect", unit=target.id, roll=die, effect=effect, source=source)
    return {"unit": target.id, "effect": effect}


def remove(ctx: Any, unit: Unit, why: str) -> None:
    """Take a unit off the map; its remaining SP count as lost (4.6)."""
    lost = unit.strength
    unit.strength = 0
    unit.hex = None
    ctx.state.sides[unit.side]["lost"] += lost
    kind = "commander-lost" if is_commander(unit.stats) else "destroyed"
    ctx.emit(kind, unit=unit.id, why=why, sp=lost)


def lose_sp(ctx: Any, unit: Unit, n: int = 1, why: str = "hit") -> None:
    before = unit.hex
    lost = max(0, min(n, unit.strength))
    unit.strength -= lost
    ctx.state.sides[unit.side]["lost"] += lost
    ctx.emit("sp-lost", unit=unit.id, sp=lost, left=unit.strength, why=why)
    if unit.strength == 0:
        unit.hex = None
        ctx.emit("destroyed", unit=unit.id, why=why, sp=0)
        if before is not None and not is_commander(unit.stats):
            _commander_of_destroyed(ctx, unit, before)


def _commander_of_destroyed(ctx: Any, unit: Unit, h: Hex) -> None:
    cmd = board.commander_at(ctx.state, h)
    if cmd is None or cmd.side != unit.side:
        return
    if rule(ctx.scenario, "commander_escape"):
        # G-A4 optional variant: 1-2 lost, 3-6 joins the nearest friendly unit within 3 cells
        die = ctx.roll("commander-escape", unit=cmd.id)
        if die >= 3:
            best = None
            for u in board.alive_units(ctx.state):
                if u.side != cmd.side or is_commander(u.stats) or u.marks.get("rampage"):
                    continue
                d = hex_distance(u.hex, h)  # type: ignore[arg-type]
                if d <= 3 and board.commander_at(ctx.state, u.hex) is None:  # type: ignore[arg-type]
                    if best is None or d < best[0]:
                        best = (d, u)
            if best is not None:
                cmd.hex = best[1].hex
                ctx.emit("commander-escaped", unit=cmd.id, to=board.hexlist(cmd.hex), join=best[1].id)
                return
    remove(ctx, cmd, "its unit was destroyed (4.11)")


def retreat_options(g: Any, unit: Unit) -> dict[str, Hex]:
    """Choice name -> cell the unit would retreat into; empty when it cannot retreat."""
    h = unit.hex
    if h is None:
        return {}
    back = hex_neighbor(h, (unit.facing + 3) % 6)
    if is_elephant(unit.stats):
        # 4.13: turns about and retreats even into occupied cells; only the map edge stops it
        return {"retreat": back} if back in g.map else {}
    out: dict[str, Hex] = {}
    if _can_retreat_into(g, unit, back):
        out["retreat"] = back
    elif rule(g.scenario, "retreat_sideways"):
        for name, d in (("retreat-left", unit.facing + 2), ("retreat-right", unit.facing - 2)):
            cell = hex_neighbor(h, d % 6)
            if _can_retreat_into(g, unit, cell):
                out[name] = cell
    return out


def _can_retreat_into(g: Any, unit: Unit, cell: Hex) -> bool:
    if cell not in g.map:
        return False  # 1.6.6, G-A40
    if board.units_at(g.state, cell):
        return False  # no passing through friends in a retreat; commanders included
    return may_enter(unit.stats, g.map.terrain_at(cell))


def do_retreat(ctx: Any, unit: Unit, cell: Hex) -> None:
    old = unit.hex
    cmd = board.friendly_commander_with(ctx.state, unit)
    if is_elephant(unit.stats):
        unit.facing = (unit.facing + 3) % 6
        for victim in board.units_at(ctx.state, cell):
            remove(ctx, victim, f"trampled by retreating elephant {unit.id} (4.13)")
        unit.mark("rampage", 1)
        unit.mark("rampage_from", ctx.state.turn)
    unit.hex = cell
    ctx.emit("retreated", unit=unit.id, to=board.hexlist(cell), frm=board.hexlist(old),
             facing=unit.facing)
    if cmd is not None and cmd.alive:
        cmd.hex = cell
        ctx.emit("retreated", unit=cmd.id, to=board.hexlist(cell), frm=board.hexlist(old),
                 facing=cmd.facing)


def apply_entry(ctx: Any, entry: dict[str, Any]) -> dict[str, Any] | None:
    """Apply one queued hit; returns a pending decision if the owner must choose."""
    unit = ctx.state.units[entry["unit"]]
    if not unit.alive:
        return None
    effect = entry["effect"]
    if effect == "commander":
        remove(ctx, unit, "hit while alone (4.11)")
    elif effect == "lose":
        lose_sp(ctx, unit, 1)
    else:
        opts = retreat_options(ctx, unit)
        if not opts:
            ctx.emit("retreat-blocked", unit=unit.id)
            lose_sp(ctx, unit, 1, why="cannot retreat (4.11)")
        else:
            return {"side": unit.side, "kind": "choose-hit", "unit": unit.id,
                    "options": sorted(opts) + ["lose"]}
    return None


def rampage(ctx: Any) -> None:
    """End of turn: rampaging elephants move 3 cells straight ahead (4.13 / G-A21)."""
    state = ctx.state
    for uid in sorted(state.units):
        el = state.units[uid]
        if not el.alive or not el.marks.get("rampage"):
            continue
        if int(el.marks.get("rampage_from", 0)) >= state.turn:
            continue  # it moves in later turns only
        for _ in range(3):
            nxt = hex_neighbor(el.hex, el.facing)  # type: ignore[arg-type]
            if nxt not in ctx.map:
                ctx.emit("left-map", unit=el.id, sp=el.strength)
                remove(ctx, el, "rampaged off the map (4.13)")
                break
            for victim in board.units_at(state, nxt):
                remove(ctx, victim, f"trampled by rampaging elephant {el.id} (4.13)")
            el.hex = nxt
            ctx.emit("rampaged", unit=el.id, to=board.hexlist(nxt))
