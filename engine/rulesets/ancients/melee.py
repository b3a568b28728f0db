"""Melee (4.10) with the special-unit modifiers (4.3), terrain (4.12), advance after combat and
repeated melee (4.10, G-A16..G-A25, G-A32)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.hexgrid import Hex, hex_direction_to
from hexwar.engine.state import Unit
from hexwar.engine.tables import chance_at_least

from . import board, hits
from .geometry import ahead, level, relation
from .units import (
    HIT_ON, SIGHT_BLOCKING, arm, is_commander, is_elephant, is_engine, is_mounted, may_enter, rule,
)


def unit_blocker(g: Any, unit: Unit) -> str | None:
    if is_engine(unit.stats) or is_commander(unit.stats):
        return f"{unit.id} may not initiate melee (G-A24)"
    if g.state.sides[unit.side].get("exhausted"):
        return f"{unit.side} is exhausted and may not attack (4.6)"
    m = unit.marks
    if m.get("shot"):
        return f"{unit.id} shot this turn; it may not also attack (4.7)"
    if m.get("melee") and not m.get("may_melee_again"):
        return f"{unit.id} has already fought; only a unit that advanced may attack again (4.10)"
    if m.get("broke_contact"):
        return f"{unit.id} has broken contact"
    return None


def target_blocker(g: Any, unit: Unit, target: Hex) -> str | None:
    if target != ahead(unit.hex, unit.facing):  # type: ignore[arg-type]
        return "a unit attacks only the enemy directly ahead of it (4.10, G-A32)"
    dfn = board.main_unit_at(g.state, target)
    if dfn is None or dfn.side == unit.side:
        return "no enemy unit directly ahead"
    return None


def target_of(g: Any, unit: Unit) -> Hex | None:
    h = ahead(unit.hex, unit.facing)  # type: ignore[arg-type]
    return h if target_blocker(g, unit, h) is None else None


def _cover_or_higher(g: Any, me: Unit, enemy: Unit) -> bool:
    t = g.map.terrain_at(enemy.hex)
    return level(g.map, enemy.hex) > level(g.map, me.hex) or t in SIGHT_BLOCKING


def modifiers(g: Any, att: Unit, dfn: Unit, first_round: bool) -> tuple[list[tuple[str, int]], list[tuple[str, int]] | None]:
    """(attacker's, defender's) modifiers, each from the roller's point of view. The defender's
    list is None when it does not roll (a lone commander, 4.11)."""
    hmap = g.map
    enemy_only = rule(g.scenario, "elephants_frighten") == "enemy"
    rel = relation(dfn.hex, dfn.facing, att.hex)  # type: ignore[arg-type]
    if dfn.stat("all_round"):
        rel = "front"  # a unit formed to face all round has no flank or rear (Gunpowder square)
    flank = rel in ("flank", "rear")
    in_forest = hmap.terrain_at(dfn.hex) == "forest"

    a: list[tuple[str, int]] = []
    if flank:
        a.append((f"attacking the enemy's {rel}", 1))
    if att.stat("heavy"):
        a.append(("heavy unit", 1))
    if board.friendly_commander_with(g.state, att):
        a.append(("friendly commander in the cell", 1))
    if is_mounted(att.stats) and board.has_elephant_adjacent(g.state, att.hex, att.side, enemy_only):
        a.append(("horses near an elephant", -1))
    a += _stat_rows(att, dfn, attacking=True)
    if _cover_or_higher(g, att, dfn):
        a.append(("enemy on higher hill, in cover or fortified", -1))
    if in_forest:
        a.append(("melee in a forest", -1))
    special = att.stat("special")
    cells = int(att.marks.get("cells", 0))
    if special == "horde" and first_round and cells >= 2:
        a.append(("Barbarian Horde charge", 1))
    if special == "cataphracts":
        if first_round and cells >= 1:
            a.append(("Cataphract charge", 2))
        else:
            a.append(("Cataphracts", 1))

    if is_commander(dfn.stats):
        return a, None
    d: list[tuple[str, int]] = []
    if dfn.stat("heavy"):
        d.append(("heavy unit", 1))
    if board.friendly_commander_with(g.state, dfn):
        d.append(("friendly commander in the cell", 1))
    if is_mounted(dfn.stats) and board.has_elephant_adjacent(g.state, dfn.hex, dfn.side, enemy_only):
        d.append(("horses near an elephant", -1))
    if flank:
        d.append((f"attacked in the {rel}", -1))
    d += _stat_rows(dfn, att, attacking=False)
    if is_elephant(att.stats):
        d.append(("attacked by a War Elephant", -1))
    if _cover_or_higher(g, dfn, att):
        d.append(("enemy on higher hill, in cover or fortified", -1))
    if hmap.terrain_at(dfn.hex) == "river":
        d.append(("in a river", -1))
    if in_forest:
        d.append(("melee in a forest", -1))
    dspecial = dfn.stat("special")
    if dspecial == "cataphracts":
        d.append(("Cataphracts", 1))
    if dspecial in ("hoplites", "phalangites"):
        k = 1 if dspecial == "hoplites" else 2
        name = "Hoplites" if dspecial == "hoplites" else "Phalangites"
        if rel == "front" and arm(att.stats) == "cavalry":
            d.append((f"{name} attacked by cavalry from the front", k))
        if flank:
            d.append((f"{name} attacked in the {rel}", -k))
    return a, d


def _stat_rows(me: Unit, enemy: Unit, attacking: bool) -> list[tuple[str, int]]:
    """Modifiers a ruleset gives as unit stats rather than as a special rule (the Age of
    Gunpowder formations, 5.6): ``charge`` when attacking, ``melee_mod`` in any melee, and an
    enemy's ``anti_cavalry`` against attacking cavalry, each named by its ``*_why`` stat. No
    Ancient Battles unit has these stats, so its melees are unchanged."""
    rows: list[tuple[str, int]] = []
    if attacking and me.stat("charge"):
        rows.append((str(me.stat("charge_why")), int(me.stat("charge"))))
    if me.stat("melee_mod"):
        rows.append((str(me.stat("melee_mod_why")), int(me.stat("melee_mod"))))
    if attacking and enemy.stat("anti_cavalry") and arm(me.stats) == "cavalry":
        rows.append((str(enemy.stat("anti_cavalry_why")), -int(enemy.stat("anti_cavalry"))))
    return rows


def _side(mods: list[tuple[str, int]] | None) -> dict[str, Any] | None:
    if mods is None:
        return None
    total = sum(v for _, v in mods)
    return {"modifiers": [[n, v] for n, v in mods], "total_modifier": total,
            "need": HIT_ON - total, "hit": chance_at_least(HIT_ON, 6, total)}


def odds(g: Any, att: Unit, target: Hex) -> dict[str, Any]:
    dfn = board.main_unit_at(g.state, target)
    first = not att.marks.get("melee")
    a, d = modifiers(g, att, dfn, first)  # type: ignore[arg-type]
    out = {"kind": "melee", "hit_on": HIT_ON, "attacker": _side(a), "defender": _side(d),
           "first_round": first}
    out["hit"] = out["attacker"]["hit"]  # type: ignore[index]
    out["defender_hit"] = out["defender"]["hit"] if d is not None else Fraction(0)  # type: ignore[index]
    return out


def resolve(ctx: Any, att: Unit, target: Hex) -> None:
    dfn = board.main_unit_at(ctx.state, target)
    assert dfn is not None
    first = not att.marks.get("melee")
    a, d = modifiers(ctx, att, dfn, first)
    ta = sum(v for _, v in a)
    ra = ctx.roll("melee-attack", unit=att.id, modifier=ta)
    rd = None
    td = 0
    if d is not None:
        td = sum(v for _, v in d)
        rd = ctx.roll("melee-defence", unit=dfn.id, modifier=td)
    att_hits = ra + ta >= HIT_ON
    def_hits = rd is not None and rd + td >= HIT_ON
    ctx.emit("melee", attacker=att.id, defender=dfn.id, target=board.hexlist(target),
             attack_roll=ra, attack_modifiers=[[n, v] for n, v in a], attack_total=ra + ta,
             defence_roll=rd, defence_modifiers=None if d is None else [[n, v] for n, v in d],
             defence_total=None if rd is None else rd + td, defender_hit=att_hits,
             attacker_hit=def_hits, first_round=first)
    att.mark("melee", int(att.marks.get("melee", 0)) + 1)
    att.mark("may_melee_again", 0)
    queue = ctx.state.vars["queue"]
    # G-A23: both hit rolls first, then the effects: the defender's, then the attacker's
    if att_hits:
        queue.append(hits.hit_entry(ctx, dfn, "melee"))
    if def_hits:
        queue.append(hits.hit_entry(ctx, att, "melee"))
    ctx.state.vars["then"].append({"k": "melee-end", "attacker": att.id, "defender": dfn.id,
                                   "hex": board.hexlist(target), "from": board.hexlist(att.hex)})


def after(ctx: Any, info: dict[str, Any]) -> dict[str, Any] | None:
    """Once the hits are settled: may the attacker advance (4.10, G-A22)?"""
    att = ctx.state.units[info["attacker"]]
    dfn = ctx.state.units[info["defender"]]
    target = Hex(*info["hex"])
    won = (dfn.hex != target) and att.alive and att.hex == Hex(*info["from"])
    if not won:
        return None
    ctx.emit("melee-won", unit=att.id, defender=dfn.id)
    if arm(att.stats) not in ("infantry", "cavalry", "chariot", "elephant") or att.marks.get("rampage"):
        return None
    if board.units_at(ctx.state, target) or not may_enter(att.stats, ctx.map.terrain_at(target)):
        return None
    return {"side": att.side, "kind": "advance", "unit": att.id, "hex": board.hexlist(target)}


def advance_facings(g: Any, unit: Unit, target: Hex) -> list[int]:
    if is_elephant(unit.stats):
        return [unit.facing]  # elephants advance straight ahead and do not turn
    adj = [h for h in board.enemy_hexes_adjacent(g.state, target, unit.side)]
    if adj:
        return sorted({hex_direction_to(target, h) for h in adj})  # type: ignore[type-var]
    return [unit.facing]


def do_advance(ctx: Any, unit: Unit, target: Hex, facing: int) -> None:
    cmd = board.friendly_commander_with(ctx.state, unit)
    old = unit.hex
    unit.hex = target
    unit.facing = facing
    unit.mark("may_melee_again", 1)
    ctx.emit("advanced", unit=unit.id, to=board.hexlist(target), frm=board.hexlist(old), facing=facing)
    if cmd is not None:
        cmd.hex = target
        ctx.emit("advanced", unit=cmd.id, to=board.hexlist(target), frm=board.hexlist(old),
                 facing=cmd.facing)
