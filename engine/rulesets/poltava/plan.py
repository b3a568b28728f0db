"""The strong computer's movement plan for Poltava: keep the division that would lose the war
out of the fight.

An army routs when all its divisions but one have routed (R10.2). The basic player sends every
unit at the enemy, so in scenario 2 both Swedish horse divisions wear down together and the army
routs by turn 8 or 9, often with the Russians one or two divisions from their own rout. Here the
division whose rout would be the last one the army can take, once it is far enough down its rout
box, is *held back*: its units stand off out of contact and out of enemy fire instead of
charging (a unit next to an enemy owes an attack, R8.2). The rest fight as the basic player has
them fight, until one more enemy division's rout would rout the enemy army: then they go for the
division nearest its rout, even into the guns (in S2 the basic Swedes wait out of range of the
camp while Allart's foot and the Camp's two regiments sit behind the retrenchment). In S2 the
Swedish foot, once its line is formed, marches on that Camp infantry at once: a Swedish win needs
one of those two divisions routed, only infantry may attack across the retrenchment, and the
march from the line to the Camp takes three turns. The rules and their thresholds are designed,
measured in benchmarks/ai_strength.md.
"""

from __future__ import annotations

from hexwar.engine.hexgrid import hex_distance
from hexwar.engine.orders import Order

from . import ai
from .board import arm, reduced, view_of
from .data import RUSSIA, SWEDEN

#: a division is held back once it is this far down its rout box (fraction of its rout number)
#: and at most ``HOLD_WITHIN`` counters short of it (so a big division, Lewenhaupt's foot in S1
#: with half its box filled at the start, still fights)
HOLD_FROM = (1, 2)
HOLD_WITHIN = 3
#: designed: the sides that hold a division back in scenario 1 (five turns, turns 8-12). Its
#: Swedes must rout all six Russian field divisions in that time and hold none back: measured
#: in NOTES.md ("Stop 9")
HOLD_IN_S1 = (RUSSIA,)
#: arms that stand in the line and can be kept out of contact
_FIGHTERS = ("inf", "cav")
#: the enemy army is this many division routs from its own rout when every unit goes for it
FOCUS_WHEN = 1
#: designed: in S2, once its line is formed (S2-1.5), the foot of this side marches on the
#: enemy infantry bound to the Camp (``camp_targets``), which its horse may not attack (R9.1)
CAMP_SIDE = SWEDEN
#: designed: the side whose units wait under the enemy guns (Sweden: the camp's batteries reach
#: five hexes, R6.2, and most Swedish losses in S2 came from fire while the horse waited for the
#: foot) counts the fire that can reach a hex this many times more than the basic player does,
#: for every unit that is neither held back, nor rushing in the endgame, nor forming its line
FIRE_SHY_SIDE = SWEDEN
FIRE_SHY = 2
#: designed, S1 only (measured in NOTES.md, "Stop 10"): Hamilton's eight squadrons face the
#: twelve dragoons of Bem and Schaumburg and routed first in most Swedish losses. On the first
#: turn they and Lewenhaupt's foot wait out of contact (division -> last turn screened), leaving
#: it to the Russians to attack the starred Swedes (R8.6.4); and Creutz's horse, once
#: Menshikov in front of it has routed, rides for those dragoons instead of the nearest enemy
#: (division -> (divisions that must have routed, divisions to ride for)), so that the two wings
#: meet the dragoons together
SCREEN_S1 = {"ha": 8, "le": 8}
SWING_S1 = {"cr": (("mn",), ("bm", "sb"))}


def strong_orders(rs, game):
    """The basic player's orders, except for the moves of the unit whose turn it is to move:
    a unit of a held-back division is offered only moves scored for safety, and in the endgame
    any other unit (line infantry once formed, S2-1) moves toward the enemy division to rout.
    Before that, formed S2 Swedish foot moves toward the Camp's infantry (``camp_targets``); in
    S1 Hamilton's horse and Lewenhaupt's foot stay out of contact on the first turn and Creutz's
    horse rides north once Menshikov has routed (``SCREEN_S1``, ``SWING_S1``). Otherwise a
    Swedish unit not forming its line moves as basic's would, but shier of fire."""
    out = list(ai.ai_orders(rs, game))
    st = game.state
    if st.phase != "move" or st.pending or st.result is not None:
        return out
    units = {o["unit"] for _, o in out if o.kind in ("move", "hold")}
    if len(units) != 1:
        return out
    u = st.units[units.pop()]
    v = view_of(game)
    if arm(u) not in _FIGHTERS:
        return out
    kept = [(s, o) for s, o in out if o.kind not in ("move", "hold")]
    if u.division in held_back(v, u.side):
        return kept + list(_safe_moves(v, u))
    focus = endgame_focus(v, u.side)
    if focus and not v.odb_restricted(u):
        return kept + _charge(v, u, focus)
    if v.s1 and st.turn <= SCREEN_S1.get(u.division, 0):
        return kept + list(_safe_moves(v, u))
    swing = swing_targets(v, u) if v.s1 else []
    if swing:
        return kept + _charge(v, u, swing)
    if u.side == CAMP_SIDE and arm(u) == "inf" and not v.s1 and v.st.vars["odb"].get(u.side) \
            and u.division != "roos":
        camp = camp_targets(v, u.side)
        if camp:
            return kept + _charge(v, u, camp)
    if u.side == FIRE_SHY_SIDE and u.id not in ai._odb_slots(v, u.side):
        enemies = ai._field(v, u.side)
        target = ai._objective(v, u.side)

        def shy(h) -> int:
            return ai._dest_score(v, u, h, enemies, target) - FIRE_SHY * ai._exposure(v, u.side, h)
        return kept + list(_moves(v, u, shy))
    return out


def _charge(v, u, targets) -> list:
    """Moves toward the nearest of ``targets``, paying a quarter of the usual heed to fire."""
    enemies = ai._field(v, u.side)

    def charge(h) -> int:
        d = min(hex_distance(h, f) for f in targets)
        return -10 * d - ai._exposure(v, u.side, h) // 4 + (5 if ai._near(h, enemies) <= 1 else 0)
    return list(_moves(v, u, charge))


def swing_targets(v, u) -> list:
    """S1: the hexes ``u``'s division rides for (``SWING_S1``) once the divisions named before
    them have routed; empty otherwise or when those targets have all gone."""
    first, then = SWING_S1.get(u.division, ((), ()))
    routed = v.st.vars["routed"]
    if not then or any(d not in routed for d in first):
        return []
    enemy = RUSSIA if u.side == SWEDEN else SWEDEN
    return sorted(x.hex for x in v.st.side_units(enemy)
                  if x.hex is not None and x.division in then and arm(x) in _FIGHTERS)


def camp_targets(v, side: str) -> list:
    """S2: the hexes of the enemy infantry bound to the Camp (the Camp's own regiments and the
    divisions sent there, S2-1.6) whose divisions count for the army's rout and have not routed:
    the horse may not attack them behind the retrenchment (R9.1), so the foot goes for them."""
    scn, st = v.scn, v.st
    enemy = next(s.id for s in scn.sides if s.id != side)
    divs = set(scn.victory.get(f"{enemy}_divisions", [])) - set(st.vars["routed"])
    return sorted(u.hex for u in st.side_units(enemy)
                  if u.hex is not None and arm(u) == "inf" and u.division in divs and v.camp_bound(u))


def endgame_focus(v, side: str) -> list:
    """When one more enemy division's rout routs the enemy army (R10.2), the hexes of the
    enemy division nearest its rout number (counting a flipped counter as half a loss): every
    unit not held back goes for it, paying little heed to the fire on the way."""
    scn, st = v.scn, v.st
    enemy = next(s.id for s in scn.sides if s.id != side)
    divs = list(scn.victory.get(f"{enemy}_divisions", []))
    routed = set(st.vars["routed"])
    if not divs or not 0 < len(divs) - 1 - sum(1 for d in divs if d in routed) <= FOCUS_WHEN:
        return []
    spec = {d.id: d for d in scn.divisions}
    where: dict = {}
    for u in st.side_units(enemy):
        if u.hex is not None and u.division in divs and arm(u) in _FIGHTERS:
            where.setdefault(u.division, []).append(u)
    best = None
    for d, units in sorted(where.items()):
        s = spec.get(d)
        if d in routed or s is None or not s.rout_threshold:
            continue
        left = 2 * (s.rout_threshold - st.vars["box"].get(d, 0)) - sum(1 for u in units if reduced(u))
        if best is None or left < best[0]:
            best = (left, d)
    return [] if best is None else sorted(u.hex for u in where[best[1]])


def _moves(v, u, score):
    """``hold`` and the six best destinations over every movement mode under ``score``."""
    best: dict = {}
    for mode in ("normal", "long", "road", "longroad"):
        for h, r in v.search(u, mode).items():
            cand = (score(h) - ai._redoubt_risk(v, u, r.path), list(r.path), mode)
            if h not in best or cand[:1] > best[h][:1]:
                best[h] = cand
    yield score(u.hex), Order.make("hold", unit=u.id)
    for sc, path, mode in sorted(best.values(), key=lambda c: (-c[0], c[1]))[:6]:
        yield sc, Order.make("move", unit=u.id, path=path, mode=mode)


def held_back(v, side: str) -> set[str]:
    """The divisions of ``side`` to keep out of the fight: ranking the divisions still standing
    by how few counters each is from its rout number, those from the one whose rout would end the
    war onward, when at least ``HOLD_FROM`` of their rout number is already lost and they are
    ``HOLD_WITHIN`` counters or fewer from it."""
    scn, st = v.scn, v.st
    if v.s1 and side not in HOLD_IN_S1:
        return set()
    divs = list(scn.victory.get(f"{side}_divisions", []))
    routed = set(st.vars["routed"])
    need = len(divs) - 1  # R10.2: all but one
    left = need - sum(1 for d in divs if d in routed)
    if left <= 0:
        return set()
    spec = {d.id: d for d in scn.divisions}
    standing = []
    for d in divs:
        s = spec.get(d)
        if d in routed or s is None or not s.rout_threshold:
            continue
        box = st.vars["box"].get(d, 0)
        standing.append((s.rout_threshold - box, d, box, s.rout_threshold))
    standing.sort()
    num, den = HOLD_FROM
    return {d for short, d, box, thr in standing[left - 1:]
            if box * den >= thr * num and short <= HOLD_WITHIN}


def _safe_moves(v, u):
    """``hold`` and every destination of every movement mode, scored so that a hex next to an
    enemy (contact, an owed attack) is worst, enemy fire reaching it next, and a hex close to the
    enemy last; among safe hexes the nearer one keeps the unit at hand."""
    side = u.side
    enemies = ai._field(v, side)

    def score(h) -> int:
        d = ai._near(h, enemies)
        contact = 1000 if d <= 1 else 0
        close = 20 * max(0, 4 - d)
        far = max(0, d - 6)
        return -(contact + 2 * ai._exposure(v, side, h) + close + far)

    return _moves(v, u, score)
