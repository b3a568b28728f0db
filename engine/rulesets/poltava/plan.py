"""The strong computer's movement plan for Poltava: keep the division that would lose the war
out of the fight.

An army routs when all its divisions but one have routed (R10.2). The basic player sends every
unit at the enemy, so in scenario 2 both Swedish horse divisions wear down together and the army
routs by turn 8 or 9, often with the Russians one or two divisions from their own rout. Here the
division whose rout would be the last one the army can take, once it is far enough down its rout
box, is *held back*: its units stand off out of contact and out of enemy fire instead of
charging (a unit next to an enemy owes an attack, R8.2). The rest fight as the basic player has
them fight. Both the rule and its thresholds are designed, measured in benchmarks/ai_strength.md.
"""

from __future__ import annotations

from hexwar.engine.orders import Order

from . import ai
from .board import arm, view_of

#: a division is held back once it is this far down its rout box (fraction of its rout number)
HOLD_FROM = (1, 2)
#: arms that stand in the line and can be kept out of contact
_FIGHTERS = ("inf", "cav")


def strong_orders(rs, game):
    """The basic player's orders, except that a unit of a held-back division is offered only
    moves scored for safety."""
    out = list(ai.ai_orders(rs, game))
    st = game.state
    if st.phase != "move" or st.pending or st.result is not None:
        return out
    units = {o["unit"] for _, o in out if o.kind in ("move", "hold")}
    if len(units) != 1:
        return out
    u = st.units[units.pop()]
    v = view_of(game)
    if arm(u) not in _FIGHTERS or u.division not in held_back(v, u.side):
        return out
    kept = [(s, o) for s, o in out if o.kind not in ("move", "hold")]
    return kept + list(_safe_moves(v, u))


def held_back(v, side: str) -> set[str]:
    """The divisions of ``side`` to keep out of the fight: ranking the divisions still standing
    by how few counters each is from its rout number, those from the one whose rout would end the
    war onward, when at least ``HOLD_FROM`` of their rout number is already lost."""
    scn, st = v.scn, v.st
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
    return {d for _, d, box, thr in standing[left - 1:] if box * den >= thr * num}


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

    best: dict = {}
    for mode in ("normal", "long", "road", "longroad"):
        for h, r in v.search(u, mode).items():
            cand = (score(h) - ai._redoubt_risk(v, u, r.path), list(r.path), mode)
            if h not in best or cand[:1] > best[h][:1]:
                best[h] = cand
    yield score(u.hex), Order.make("hold", unit=u.id)
    for sc, path, mode in sorted(best.values(), key=lambda c: (-c[0], c[1]))[:6]:
        yield sc, Order.make("move", unit=u.id, path=path, mode=mode)
