"""Frontier artillery fire (3.3 items 1-2, 3.4): declarations, scatter, effect, simultaneous losses.

Each side in turn declares ``fire`` orders (no dice); when the last side ends the phase every
declaration is resolved in declaration order (scatter die, then an effect die if a unit is in the
impact cell), and only then are the destroyed units removed (3.4.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex
from hexwar.engine.hexmap import HexMap
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import units as U
from .geometry import distance, in_field_of_fire, scatter_cells, whole_cell_visible

#: fire type -> (commander destroyed on, any other unit destroyed on)  (3.4.8, G-F5, G-F22)
EFFECT = {
    "direct": ((4, 6), (2, 4, 6)),
    "indirect": ((6,), (4, 6)),
}


def fired(u: Unit, turn: int) -> bool:
    return u.marks.get("fired") == turn


def batteries(state: State, side: str) -> list[Unit]:
    return [u for u in state.side_units(side) if U.is_artillery(u)]


def fire_targets(hmap: HexMap, state: State, u: Unit) -> list[Hex]:
    """G-F23: cells holding an enemy unit, at distance 2..range, inside the field of fire."""
    if not u.alive or not U.is_artillery(u):
        return []
    rng = int(u.stat("range", 0))
    out = []
    for uid in sorted(state.units):
        e = state.units[uid]
        if not e.alive or e.side == u.side:
            continue
        d = distance(u.hex, e.hex)
        if 2 <= d <= rng and in_field_of_fire(u.hex, u.facing, e.hex):
            out.append(e.hex)
    return sorted(out)


def can_fire(state: State, u: Unit) -> bool:
    return u.alive and U.is_artillery(u) and not fired(u, state.turn)


def has_fire_option(hmap: HexMap, state: State, side: str) -> bool:
    return any(can_fire(state, u) and fire_targets(hmap, state, u) for u in batteries(state, side))


def fire_type(hmap: HexMap, state: State, origin: Hex, target: Hex) -> str:
    """3.4.6 / G-F4: direct only when both sight lines are clear and the target cell is neither
    forest nor village."""
    if hmap.terrain_at(target) in ("forest", "village"):
        return "indirect"
    return "direct" if whole_cell_visible(hmap, state, origin, target) else "indirect"


def validate_fire(hmap: HexMap, state: State, u: Unit, target: Hex) -> str | None:
    if not U.is_artillery(u):
        return f"{u.id} is not artillery"
    if fired(u, state.turn):
        return f"{u.id} has already fired this turn (3.4.5)"
    if target not in hmap:
        return "the target is off the map"
    if not any(e.alive and e.hex == target and e.side != u.side for e in state.units.values()):
        return f"{hmap.label(target)} holds no enemy unit (G-F23)"
    d = distance(u.hex, target)
    if d < 2:
        return "artillery may not fire at an adjacent unit (G-F16, 1.3)"
    if d > int(u.stat("range", 0)):
        return f"{hmap.label(target)} is {d} cells away, beyond {u.id}'s range of {u.stat('range', 0)}"
    if not in_field_of_fire(u.hex, u.facing, target):
        return f"{hmap.label(target)} is outside {u.id}'s field of fire (3.4.3)"
    return None


def declare(ctx: Resolution, u: Unit, target: Hex) -> None:
    state = ctx.state
    kind = fire_type(ctx.map, state, u.hex, target)
    u.mark("fired", state.turn)
    state.vars.setdefault("fire", []).append(
        {"unit": u.id, "side": u.side, "target": [target[0], target[1]], "type": kind})
    ctx.emit("fire-declared", unit=u.id, target=[target[0], target[1]], fire=kind)


def kill_faces(victim: Unit, kind: str) -> tuple[int, ...]:
    commander, other = EFFECT[kind]
    return commander if U.is_commander(victim) else other


def resolve_all(ctx: Resolution) -> list[str]:
    """Roll every declared shot, then remove the destroyed units together. Returns their ids."""
    state, hmap = ctx.state, ctx.map
    where = {u.hex: u for u in state.units.values() if u.alive}
    destroyed: list[str] = []
    for decl in state.vars.get("fire", []):
        battery = state.units[decl["unit"]]
        target = Hex(*decl["target"])
        cells = scatter_cells(battery.hex, battery.facing, target)
        die = ctx.roll("scatter", unit=battery.id, target=decl["target"])
        name, impact = cells[die]
        on_map = impact in hmap
        victim = where.get(impact) if on_map else None
        ctx.emit("shell-landed", unit=battery.id, target=decl["target"], hex=[impact[0], impact[1]],
                 where=name, on_map=on_map, victim=None if victim is None else victim.id)
        if victim is None:
            continue  # G-F3: off the map or an empty cell, no effect
        friendly = victim.side == battery.side
        roller = state.enemy_of(battery.side) if friendly else battery.side  # G-F24: cosmetic
        kind = decl["type"]
        faces = kill_faces(victim, kind)
        value = ctx.roll("artillery effect", unit=victim.id, fire=kind, roller=roller,
                         friendly_fire=friendly, kills_on=list(faces))
        hit = value in faces
        ctx.emit("artillery-hit" if hit else "artillery-miss", unit=victim.id, by=battery.id, fire=kind)
        if hit and victim.id not in destroyed:
            destroyed.append(victim.id)
    for vid in destroyed:
        remove(ctx, state.units[vid], "artillery fire")
    state.vars["fire"] = []
    return destroyed


def remove(ctx: Resolution, u: Unit, cause: str) -> None:
    at = u.hex
    u.hex = None
    u.strength = 0
    ctx.state.sides[u.side]["lost"] = ctx.state.sides[u.side].get("lost", 0) + 1
    ctx.emit("unit-destroyed", unit=u.id, side=u.side, hex=None if at is None else [at[0], at[1]], cause=cause)


def preview(hmap: HexMap, state: State, u: Unit, target: Hex) -> dict[str, Any]:
    """Exact chances for one shot: where it lands and whom it destroys."""
    kind = fire_type(hmap, state, u.hex, target)
    where = {x.hex: x for x in state.units.values() if x.alive}
    cells = scatter_cells(u.hex, u.facing, target)
    landing: dict[str, Any] = {}
    kills: dict[str, Fraction] = {}
    for die in range(1, 7):
        name, h = cells[die]
        entry = landing.setdefault(name, {"hex": [h[0], h[1]], "chance": Fraction(0), "unit": None})
        entry["chance"] += Fraction(1, 6)
        victim = where.get(h) if h in hmap else None
        if victim is not None:
            entry["unit"] = victim.id
            p = Fraction(len(kill_faces(victim, kind)), 6)
            kills[victim.id] = kills.get(victim.id, Fraction(0)) + Fraction(1, 6) * p
    enemy_kills = sum((p for vid, p in kills.items() if state.units[vid].side != u.side), Fraction(0))
    friend_kills = sum((p for vid, p in kills.items() if state.units[vid].side == u.side), Fraction(0))
    return {"kind": "fire", "unit": u.id, "target": [target[0], target[1]], "fire": kind,
            "landing": landing, "destroy": kills, "enemy_destroyed": enemy_kills,
            "friendly_destroyed": friend_kills}
