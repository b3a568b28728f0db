"""Shooting (4.9), Pila (4.3 / G-A13) and Missile-Engine fire (4.7.1 / G-A1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.tables import chance_at_least
from hexwar.engine.state import Unit

from . import board
from .geometry import in_field_of_fire, sight
from .units import HIT_ON, SIGHT_BLOCKING, is_commander, is_engine, rule


def mode_of(g: Any, unit: Unit) -> str | None:
    """How ``unit`` shoots: "engine", "pila", "shoot", or None if it never shoots."""
    if is_engine(unit.stats):
        return "engine"
    if is_commander(unit.stats):
        return None
    if unit.stat("special") == "legionaries":
        return "pila" if rule(g.scenario, "pila") else None
    return "shoot" if int(unit.stat("range", 0)) > 0 else None


def max_range(g: Any, unit: Unit, mode: str) -> int:
    n = 2 if mode == "pila" else int(unit.stat("range", 0))
    if g.map.terrain_at(unit.hex) == "forest":
        n -= 1  # 4.9: shooting from a forest, range -1
    return n


def unit_blocker(g: Any, unit: Unit, mode: str | None) -> str | None:
    """Why ``unit`` cannot shoot now at all (activation order checks are the caller's)."""
    if mode is None:
        return f"{unit.id} has no missile weapons"
    if g.map.terrain_at(unit.hex) == "river":
        return f"{unit.id} is in a river and may not shoot (4.12)"
    m = unit.marks
    if mode == "engine":
        if m.get("engine_fired"):
            return f"{unit.id} has already fired this turn"
        return None
    if m.get("melee"):
        return f"{unit.id} has fought a melee this activation"
    if m.get("dashed"):
        return f"{unit.id} dashed this turn and may not shoot (4.8.12)"
    if mode == "pila":
        if m.get("pila"):
            return f"{unit.id} has already thrown its pila this battle (4.3)"
        return None
    if m.get("shot"):
        return f"{unit.id} has already shot this turn (4.9)"
    if m.get("move_used") and not m.get("shoot_ok"):
        return f"{unit.id} moved its full allowance; shooting needs 1 cell less (4.8.4)"
    if rule(g.scenario, "no_shoot_in_contact") and board.enemies_adjacent(g.state, unit.hex, unit.side):
        return f"{unit.id} is in contact with the enemy (variant G-A25)"
    return None


def _occupied_fn(g: Any):
    occ = {Hex(*u.hex) for u in board.alive_units(g.state)}  # type: ignore[misc]
    return lambda h: h in occ


def target_blocker(g: Any, unit: Unit, target: Hex, mode: str, occupied=None) -> str | None:
    tgt = board.main_unit_at(g.state, target)
    if tgt is None or tgt.side == unit.side:
        return "the target cell must hold an enemy unit (G-A26)"
    d = hex_distance(unit.hex, target)  # type: ignore[arg-type]
    if d < 2:
        return "an adjacent enemy is fought in melee, not shot (1.3, G-07)"
    rng = max_range(g, unit, mode)
    if mode == "pila" and d != 2:
        return "pila are thrown at a range of exactly 2 cells (G-A13)"
    if d > rng:
        return f"the target is {d} cells away; range is {rng}"
    if not in_field_of_fire(unit.hex, unit.facing, target):  # type: ignore[arg-type]
        return "the target is outside the field of fire (1.6.4)"
    seen, _ = sight(g.map, occupied or _occupied_fn(g), unit.hex, target)  # type: ignore[arg-type]
    if not seen and not unit.stat("indirect"):
        return "no line of sight to the target (1.6.5)"
    return None


def targets(g: Any, unit: Unit, mode: str) -> list[Hex]:
    rng = max_range(g, unit, mode)
    occ = _occupied_fn(g)
    out = []
    for u in board.alive_units(g.state):
        if u.side == unit.side:
            continue
        h = Hex(*u.hex)  # type: ignore[misc]
        if h in out or hex_distance(h, unit.hex) > rng:  # type: ignore[arg-type]
            continue
        if target_blocker(g, unit, h, mode, occ) is None:
            out.append(h)
    return sorted(out)


def modifiers(g: Any, unit: Unit, target: Hex, mode: str) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if mode == "engine" or not unit.marks.get("moved"):
        mods.append(("shooter has not moved this turn", 1))
    if board.friendly_commander_with(g.state, unit) is not None:
        mods.append(("friendly commander with the shooter", 1))
    seen, behind = sight(g.map, _occupied_fn(g), unit.hex, target)  # type: ignore[arg-type]
    if not seen and unit.stat("indirect"):
        # a unit that may fire without sight does so at its ``indirect`` modifier (Gunpowder
        # howitzers, 5.6); no Ancient Battles unit has the stat
        mods.append((str(unit.stat("indirect_why")), int(unit.stat("indirect"))))
    terrain = g.map.terrain_at(target)
    if terrain in SIGHT_BLOCKING or behind:
        what = "in fortifications" if terrain == "fortification" else (
            "behind forest" if terrain not in SIGHT_BLOCKING else f"in cover ({terrain})")
        mods.append((f"target {what}", -1))
    return mods


def odds(g: Any, unit: Unit, target: Hex, mode: str) -> dict[str, Any]:
    mods = modifiers(g, unit, target, mode)
    total = sum(v for _, v in mods)
    return {
        "kind": mode, "hit_on": HIT_ON,
        "modifiers": [[n, v] for n, v in mods], "total_modifier": total,
        "need": HIT_ON - total,
        "hit": chance_at_least(HIT_ON, 6, total),
        "miss": Fraction(1) - chance_at_least(HIT_ON, 6, total),
    }


def roll_shot(ctx: Any, unit: Unit, target: Hex, mode: str) -> bool:
    mods = modifiers(ctx, unit, target, mode)
    total = sum(v for _, v in mods)
    die = ctx.roll("shoot" if mode != "engine" else "engine-fire", unit=unit.id,
                   target=board.hexlist(target), modifier=total)
    hit = die + total >= HIT_ON
    ctx.emit("shot", unit=unit.id, target=board.hexlist(target), mode=mode, roll=die,
             modifiers=[[n, v] for n, v in mods], total=die + total, hit=hit)
    return hit
