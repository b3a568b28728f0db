"""The Fire phase [P] (spec 22.2; the source keeps only the dice, 10): who may fire, at what,
the fire score, and hits applied together when the phase ends."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex
from hexwar.engine.hexmap import HexMap
from hexwar.engine.ruleset import Resolution
from hexwar.engine.state import State, Unit

from . import board as B
from . import data as D
from .attack import in_contact
from .geometry import zone_touches
from .rolls import best_of, chance_at_most
from .sight import howitzer_sees, unit_sees


def moved_bars_fire(u: Unit, turn: int) -> bool:
    """A unit that acted in the Movement phase may not fire (9.10, G-47), except light infantry
    and dismounted chasseurs after any action, and light artillery after moving in firing
    position or unlimbering."""
    if u.marks.get("moved") != turn:
        return False
    if u.kind == "INF_LIGHT" or (u.kind == "CAV_CHASSEUR" and u.marks.get("dismounted")):
        return False
    if B.gun_kind(u) == "ART_LIGHT" and u.marks.get("moved_how") in ("move-unlimbered", "unlimber"):
        return False
    return True


def shooter_problem(state: State, u: Unit) -> str | None:
    if not B.on_table(u) or B.state_of(u) != "formed":
        return "only formed units on the table fire (22.2)"
    if int(u.stat("fire", 0)) <= 0 or B.mounted(u) or B.arm(u) not in ("inf", "cav", "art"):
        return f"{u.id} does not fire (3.2, 22.2)"
    if B.arm(u) == "art" and B.formation(u) != "unlimbered":
        return "a battery fires only in firing position (22.2)"
    if in_contact(state, u.id):
        return f"{u.id} is in contact and may not fire (7.4, G-40)"
    if u.marks.get("fired") == state.turn:
        return f"{u.id} has already fired this turn"
    if moved_bars_fire(u, state.turn):
        return f"{u.id} acted in the Movement phase and may not fire (9.10)"
    return None


def ranges(u: Unit) -> tuple[int, int, int]:
    """(short min, short max, long max) in hexes between nearest stands."""
    if B.arm(u) == "art":
        lo, short, long_, _, _ = D.FIRE_ART.get(B.gun_kind(u), D.FIRE_ART["ART_MEDIUM"])
        return lo, short, long_
    return 2, D.FIRE_MUSKET["short"], D.FIRE_MUSKET["long"]


def target_problem(hmap: HexMap, view: B.View, state: State, u: Unit, t: Unit) -> str | None:
    if t.side == u.side or not B.on_table(t) or B.is_general(t):
        return "the target must be an enemy unit on the table"
    if in_contact(state, t.id):
        return f"{t.id} is in contact and may not be fired on (G-40)"
    d = B.gap(u, t)
    lo, _, hi = ranges(u)
    if not lo <= d <= hi:
        return f"{t.id} is out of range ({d} hexes; range {lo}-{hi})"
    if not zone_touches(B.stand_hexes(u), B.facing(u), "front", B.stand_hexes(t)):
        return f"{t.id} is not in {u.id}'s frontal zone (22.2)"
    if B.gun_kind(u) == "ART_HOWITZER":
        reading = state.vars.get("howitzer_reading", "over")
        if not howitzer_sees(hmap, view, u, t, reading):
            return f"{u.id} cannot see {t.id}, even over the obstacles a howitzer ignores"
    elif not unit_sees(hmap, view, u, t):
        return f"{u.id} cannot see {t.id} from the middle of its front (21.6, 21.7)"
    if B.formation(u) == "line" and B.arm(u) != "art" and not firing_stands(hmap, view, u, t):
        return f"no stand of {u.id} has {t.id} in range, in its own frontal zone and in sight (22.2)"
    return None


def firing_stands(hmap: HexMap, view: B.View, u: Unit, t: Unit) -> tuple[Hex, ...]:
    """The stands of a firing line that count (22.2: S): each with the target in its own frontal
    zone, within range (from that stand to the target's nearest stand) and in sight from the
    middle of its own front."""
    lo, _, hi = ranges(u)
    target = B.stand_hexes(t)
    f = B.facing(u)
    return tuple(s for s in B.stand_hexes(u)
                 if lo <= B.near((s,), target) <= hi
                 and zone_touches([s], f, "front", target)
                 and unit_sees(hmap, view, u, t, (s,)))


def score(hmap: HexMap, u: Unit, t: Unit, state: State | None = None) -> tuple[int, list[tuple[str, int]], int]:
    """(final score, named modifiers, base) of ``u`` firing at ``t`` (22.2)."""
    d = B.gap(u, t)
    _, short, _ = ranges(u)
    mods: list[tuple[str, int]] = []
    if B.arm(u) == "art":
        _, _, _, s_base, l_base = D.FIRE_ART.get(B.gun_kind(u), D.FIRE_ART["ART_MEDIUM"])
        base = (s_base if d <= short else l_base) + u.strength
    else:
        # a line counts only its stands with the target in range, in zone and in sight (22.2)
        stands = 1 if B.formation(u) != "line" else \
            u.strength if state is None else len(firing_stands(hmap, B.View(state), u, t))
        base = 2 * stands + (2 if d <= short else 0)
    if B.veteran(u):
        mods.append(("veteran", D.FIRE_MODS["veteran"]))
    cover = B.cover(hmap, state, t.hex, D.FIRE_MODS)
    if cover:
        mods.append(("target in cover", cover))
    elif B.arm(t) == "art" and B.gun_kind(u) != "ART_HOWITZER" and B.behind_earthwork(hmap, t.hex, u.hex):
        # howitzers ignore a battery's fortification (3.3 special 3)
        mods.append(("battery behind its fortification", D.FIRE_MODS["cover"]))
    if B.state_of(t) == "disordered":
        mods.append(("target disordered", D.FIRE_MODS["target_disordered"]))
    if B.arm(u) == "art" and B.formation(t) in ("column", "square") and B.state_of(t) == "formed":
        mods.append(("artillery at column or square", D.FIRE_MODS["art_vs_column_or_square"]))
    lo, hi = D.FIRE_CLAMP
    total = max(lo, min(hi, base + sum(v for _, v in mods)))
    return total, mods, base


def resolve(ctx: Resolution, u: Unit, t: Unit) -> None:
    state = ctx.state
    need, mods, base = score(ctx.map, u, t, state)
    u.mark("fired", state.turn)
    kept = best_of(ctx, int(u.stat("fire", 1)), "fire", low=True, unit=u.id, target=t.id, need=need)
    hit = kept <= need
    ctx.emit("fired", unit=u.id, target=t.id, need=need, base=base,
             mods={k: v for k, v in mods}, roll=kept, hit=hit)
    if hit:
        hits = state.vars.setdefault("hits", {})
        hits[t.id] = hits.get(t.id, 0) + 1


def apply_hits(ctx: Resolution) -> list[str]:
    """End of the Fire phase: every hit removes a stand or gunner; 0 left is destroyed (22.2).
    A unit that survives owes its lost stands in ``vars.fire_losses`` (its owner chooses
    which, ``next_fire_loss``). Returns the units destroyed."""
    state = ctx.state
    gone = []
    hits = state.vars.pop("hits", {})
    owed = {}
    for uid in sorted(hits):
        t = state.units[uid]
        if not B.on_table(t):
            continue
        lost = min(t.strength, hits[uid])
        t.mark("hit", state.turn)
        ctx.emit("stand-lost", unit=uid, n=lost, left=t.strength - lost, why="fire")
        if lost >= t.strength:
            t.strength = 0
            from .melee import remove
            remove(ctx, t, "destroyed")
            gone.append(uid)
        else:
            owed[uid] = lost
    if owed:
        state.vars["fire_losses"] = owed
    return gone


def loss_options(u: Unit) -> tuple[Hex, ...]:
    """The stands a unit hit by fire may give up, one at a time (its owner's choice, as for
    melee losses): a line's or column's two ends, since the rest must keep its formation's shape
    (the column's new head keeps the zigzag by changing variant); any stand of a square, or of
    stands kept off their layout, whose loss leaves the others connected (21.5)."""
    from .footprint import connected, layout
    stands = B.stand_hexes(u)
    if len(stands) <= 1:
        return ()
    if u.marks.get("stands") or B.formation(u) == "square":
        return tuple(h for h in stands if connected([x for x in stands if x != h]))
    out = []
    for h in stands:
        rest = tuple(x for x in stands if x != h)
        if any(layout(B.formation(u), rest[0], u.facing, len(rest), m) == rest for m in (False, True)):
            out.append(h)
    return tuple(out)


def lose_one(ctx: Resolution, u: Unit, h: Hex) -> None:
    """Take stand ``h`` off a unit hit by fire; the first stand left is the new anchor. A column
    that lost its head keeps its zigzag in the other variant; a square whose other stands no
    longer match its template keeps them where they are (``marks.stands``, H-1)."""
    from .footprint import layout
    rest = tuple(x for x in B.stand_hexes(u) if x != h)
    u.strength -= 1
    u.hex = rest[0]
    if u.marks.get("stands"):
        if len(rest) <= 1:
            B.unfreeze_stands(u)
        else:
            u.mark("stands", B.encode_stands(rest))
    elif len(rest) > 1:
        mirror = bool(u.marks.get("mirror"))
        if layout(B.formation(u), rest[0], u.facing, len(rest), mirror) == rest:
            pass
        elif layout(B.formation(u), rest[0], u.facing, len(rest), not mirror) == rest:
            u.mark("mirror", not mirror)
        else:
            u.mark("stands", B.encode_stands(rest))
    ctx.emit("stand-chosen", unit=u.id, at=[h[0], h[1]])


def next_fire_loss(ctx: Resolution) -> str | None:
    """Take the stands owed to fire, unit by unit: with one candidate (or a unit whose stands
    all stand in one hex) at once, otherwise return the unit whose owner must choose (a
    ``lose`` order)."""
    state = ctx.state
    owed = state.vars.get("fire_losses", {})
    for uid in sorted(owed):
        u = state.units[uid]
        while owed[uid] > 0:
            options = loss_options(u)
            if len(options) > 1:
                return uid
            owed[uid] -= 1
            if options:
                lose_one(ctx, u, options[0])
            else:
                u.strength -= 1
        del owed[uid]
    state.vars.pop("fire_losses", None)
    return None


def preview(hmap: HexMap, u: Unit, t: Unit, state: State | None = None) -> dict[str, Any]:
    need, mods, base = score(hmap, u, t, state)
    num, den = chance_at_most(int(u.stat("fire", 1)), need)
    return {"base": base, "modifiers": mods, "need": f"d20 <= {need}",
            "chances": {"hit (one stand lost)": (num, den), "miss": (den - num, den)}}
