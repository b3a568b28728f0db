"""Melee (Part 8): attack legality, the difference column with every shift, retreat paths."""

from __future__ import annotations

from fractions import Fraction

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbors

from .board import View, arm, cs_of, other, stars_of
from .data import FORTIFIED, HEX_SHIFTS, IMPASSABLE, COLUMNS, CRT, MELEE_ARMS, MOUNTED, SWEDEN, column_of


def defenders_in(v: View, h, att_side: str) -> list:
    """Enemy units that defend hex ``h``: combat units, or a Russian redoubt garrison."""
    out = v.combat_at(h, other(att_side))
    if not out and att_side == SWEDEN and v.garrisoned(h):
        out = [v.redoubt_at(h)]
    return out


def check_attack(v: View, side: str, attackers: list, hexes: list) -> str | None:
    """R8.5 / R9.1 legality of a declared attack (units already looked up and alive)."""
    if not attackers or not hexes:
        return "an attack needs attackers and a hex"
    if len(attackers) > 1 and len(hexes) > 1:
        return "no attack from several hexes into several hexes (R8.5)"
    if len(set(hexes)) != len(hexes) or len({a.id for a in attackers}) != len(attackers):
        return "each unit and hex once"
    lone_art = [h for h in hexes if all(arm(d) == "art" for d in defenders_in(v, h, side))]
    if lone_art and len(hexes) > 1:
        return "uncovered artillery is attacked on its own (R9.4.2) [PROP]"
    for a in attackers:
        if a.side != side or arm(a) not in MELEE_ARMS:
            return f"{a.id} cannot attack"
        if a.marks.get("attacked"):
            return f"{a.id} has already attacked this phase (R8.3)"
        for h in hexes:
            if hex_distance(a.hex, h) != 1:
                return f"{a.id} is not adjacent to {v.m.label(h)}"
            if v.terrain(h) in IMPASSABLE or "impassable" in v.m.features_between(a.hex, h):
                return f"no combat across that hexside or into {v.terrain(h)} (TEC)"
            if arm(a) in MOUNTED:
                if v.terrain(h) in FORTIFIED or "retrenchment" in v.m.features_between(a.hex, h):
                    return "cavalry may not attack settlements, redoubts or fortifications (R9.1)"
    for h in hexes:
        if not defenders_in(v, h, side):
            return f"no enemy to attack in {v.m.label(h)}"
    return None


def analyse(v: View, attackers: list, hexes: list) -> dict:
    """Strengths, every shift (named), DRM and final column of a declared attack."""
    side = attackers[0].side
    defs = [d for h in hexes for d in defenders_in(v, h, side)]
    acs = sum(cs_of(a) for a in attackers)
    shifts: list[tuple[str, int]] = []
    astars = sum(stars_of(a) for a in attackers)
    if astars:
        shifts.append((f"attacker bayonet/charge stars x{astars} (R9.3)", astars))
    dcs = 0
    dstars = 0
    redoubt = False
    for d in defs:
        h = d.hex
        if arm(d) == "redoubt":
            dcs += cs_of(d)
            redoubt = True
            continue
        if arm(d) == "art":
            continue
        if v.redoubt_at(h) is not None and d.side == SWEDEN:
            # S2-2.4: a Swede in a captured redoubt uses the redoubt's CS, no stars
            dcs += cs_of(v.redoubt_at(h))
            redoubt = True
            continue
        if arm(d) in MOUNTED and v.terrain(h) == "village":
            dcs += 1
            continue
        dcs += cs_of(d)
        dstars += stars_of(d)
    if dstars:
        shifts.append((f"defender bayonet/charge stars x{dstars} (R9.3)", -dstars))
    # A17: the best hex terrain among the defended hexes
    terr, label = max(HEX_SHIFTS.get(v.terrain(h), (0, "")) for h in hexes)
    if terr:
        shifts.append((label, -terr))
    pairs = [(a.hex, h) for a in attackers for h in hexes]
    if all("stream" in v.m.features_between(a, h) for a, h in pairs):
        shifts.append(("defender behind a stream/river, not outflanked (TEC)", -1))
    # the retrenchment helps only a defender on its camp side (Part 6, S2-3)
    retr = all("retrenchment" in v.m.features_between(a, h) and v.inside_of(a, h) == h for a, h in pairs)
    if retr:
        shifts.append(("defender behind the retrenchment (TEC)", -2))
    drm = -1 if (redoubt or terr == 2 or retr) else 0
    diff = acs - dcs
    base = column_of(diff)
    col = max(0, min(8, base + sum(s for _, s in shifts)))
    lone_art = bool(defs) and all(arm(d) == "art" for d in defs)
    return {"attacker_cs": acs, "defender_cs": dcs, "difference": diff, "base_column": COLUMNS[base],
            "base_index": base, "shifts": shifts, "column": COLUMNS[col], "index": col, "drm": drm,
            "defenders": [d.id for d in defs], "lone_artillery": lone_art,
            "storming_redoubt": side == SWEDEN and any(arm(d) == "redoubt" for d in defs)}


def result_for(index: int, roll: int, drm: int) -> str:
    return CRT.lookup(index, max(1, min(6, roll + drm)))


def chances(index: int, drm: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = result_for(index, die, drm)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
    return out


# --- retreat (R8.9) ------------------------------------------------------------------------------
def retreat_ok(v: View, u, a, b) -> bool:
    if not v.passable(u, a, b):
        return False
    if v.line_banned(u) and "redoubt_line" in v.m.features_between(a, b):
        return False
    if v.camp_bound(u) and not v.in_camp(b):
        return False
    if v.combat_at(b, other(u.side)):
        return False
    if u.side == SWEDEN and v.garrisoned(b):
        return False
    if b in v.zoc(u.side):
        return False
    return True


def free_for(v: View, u, h) -> bool:
    mates = [x for x in v.combat_at(h, u.side) if x.id != u.id]
    if v.garrisoned(h):
        return False
    return not mates or (len(mates) == 1 and arm(mates[0]) == "art")


def nonclear(v: View, a, b) -> int:
    return (1 if v.terrain(b) not in ("open", "camp", "battery") else 0) + (1 if v.m.features_between(a, b) else 0)


def retreat_options(v: View, u, n: int) -> tuple[int, list[tuple[Hex, ...]]]:
    """(hexes achieved, best paths). Paths keep increasing distance from the combat hex; an end on
    friends is extended (R8.9.3); ranked by home edge then clearer terrain (R8.9.1)."""
    h0 = Hex(*u.hex)
    frontier = [((), h0, 0)]
    complete: dict[int, list] = {}
    limit = n + 6
    for depth in range(1, limit + 1):
        nxt = []
        for path, here, rough in frontier:
            for b in hex_neighbors(here):
                if hex_distance(h0, b) != depth or not retreat_ok(v, u, here, b):
                    continue
                nxt.append((path + (b,), b, rough + nonclear(v, here, b)))
        nxt.sort(key=lambda t: t[0])
        if len(nxt) > 400:
            nxt = nxt[:400]
        for path, here, rough in nxt:
            if free_for(v, u, here):
                complete.setdefault(len(path), []).append((path, rough))
        if depth >= n and any(k >= n for k in complete):
            break
        frontier = nxt
        if not frontier:
            break
    full = [k for k in complete if k >= n]
    if full:
        k = min(full)
        achieved = n
    else:
        k = max(complete) if complete else 0
        achieved = k
    if k == 0:
        return 0, []
    cands = complete[k]
    best = min((v.home_rows(u.side, p[-1]), r) for p, r in cands)
    paths = sorted({p for p, r in cands if (v.home_rows(u.side, p[-1]), r) == best})
    seen, out = set(), []
    for p in paths:
        if p[-1] not in seen:
            seen.add(p[-1])
            out.append(p)
    return achieved, out[:6]
