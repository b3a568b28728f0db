"""Battles and sieges, **designed** (16.0 and 17.0 are MISSING from the fragment).

What the fragment does fix is used as it stands: battle dice are the corps' dice rounded up
plus the commander's effective TR (3.1, 3.2.1, A2); every corps of an attacked space fights
(4.1.3); a hit reduces a full corps and eliminates a reduced one (3.2.1); a famous face may be
killed or captured (3.1, 6.1.1 dynastic catastrophe); the winner stays alone in the space and the
loser retreats (4.3 #1), possibly over the limit with the 4.1.3 reduction (4.1.2); a battle never
changes control by itself (A24); a Famous Victory scores 2 VP (6.1.1); a fortress taken by siege
scores its level (6.1.1). Everything else (hit numbers, who wins, the Famous Victory margin, the
leader losses, the retreat space, the siege roll) is a value in ``designed.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.engine.state import Unit

from . import designed, ledger, pieces, stacking
from .facts import FULL

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Resolution


def commander(state, place: str, side: str) -> Unit | None:  # noqa: ANN001
    """A10 (designed): the force's best leader commands: highest effective TR, then CR, then id."""
    leaders = [u for u in pieces.force_of(state, place, side) if u.kind == "leader"]
    if not leaders:
        return None
    return min(leaders, key=lambda u: (-pieces.effective_tr(state, u), -pieces.command_rating(u), u.id))


def _roll_hits(ctx: "Resolution", dice: int, side: str) -> int:
    hits = 0
    for _ in range(dice):
        if ctx.roll("battle", side=side) >= designed.BATTLE_HIT_ON:
            hits += 1
    return hits


def take_hits(ctx: "Resolution", corps: list[Unit], hits: int) -> int:
    """Designed: hits go first to full corps (reducing them), then to reduced ones (eliminating
    them), each in id order; returns the hits that found no corps."""
    while hits:
        full = [c for c in corps if c.strength >= FULL]
        targets = sorted(full or [c for c in corps if c.strength > 0], key=lambda c: c.id)
        if not targets:
            break
        for c in targets[:hits]:
            ctx.events.append(pieces.hit(c))
        hits -= min(hits, len(targets))
    return hits


def fight(ctx: "Resolution", attacker: Unit, place: str) -> str:
    """A battle in ``place`` between the force that marched in under ``attacker`` and every
    enemy piece there. Returns the winning side."""
    state, board = ctx.state, ctx.map
    a_side = attacker.side
    d_side = next(u.side for u in state.units_in_id_order()
                  if u.hex == place and u.side != a_side and (u.kind == "leader" or u.strength > 0))
    a_corps = [c for c in pieces.corps_of(state, place, a_side)]
    d_corps = pieces.corps_of(state, place, d_side)
    d_leader = commander(state, place, d_side)
    a_dice = pieces.corps_dice(a_corps) + pieces.effective_tr(state, attacker)
    d_dice = stacking.attacked_dice(state, place, d_side, d_leader)
    ctx.emit("battle", space=place, attacker=a_side, defender=d_side, attacker_dice=a_dice,
             defender_dice=d_dice, rule="16.0 designed")
    a_hits = _roll_hits(ctx, a_dice, a_side)      # hits the attacker scores on the defender
    d_hits = _roll_hits(ctx, d_dice, d_side)
    take_hits(ctx, d_corps, a_hits)
    take_hits(ctx, a_corps, d_hits)
    winner = a_side if a_hits > d_hits else d_side   # designed: a drawn battle holds for the defender
    loser = d_side if winner == a_side else a_side
    ctx.emit("battle-won", space=place, side=winner, hits=[a_hits, d_hits])
    if abs(a_hits - d_hits) >= designed.FAMOUS_VICTORY_MARGIN:
        ctx.events.append(ledger.famous_victory(state, winner))
    for lead in [u for u in pieces.force_of(state, place, loser) if u.kind == "leader"]:
        if ctx.roll("leader-loss", unit=lead.id) < designed.LEADER_LOSS_ON:
            continue
        if ctx.roll("leader-loss", unit=lead.id) <= designed.LEADER_KILLED_UP_TO:
            ctx.events += pieces.kill_leader(state, lead, "battle")
        elif pieces.face(lead).kind == "famous":
            ctx.events += pieces.capture_leader(state, lead)
    retreat(ctx, place, loser)
    return winner


def retreat_space(state, board, place: str, side: str) -> str | None:  # noqa: ANN001
    """Designed (16.4 MISSING): an adjacent space the side controls with no enemy pieces,
    the one holding fewest of its corps first, then by id; None when there is none."""
    options = [n for n in board.neighbors(place)
               if ledger.controller(state, n) == side
               and not any(u.hex == n and u.side != side and (u.kind == "leader" or u.strength > 0)
                           for u in state.units.values())]
    if not options:
        return None
    return min(options, key=lambda n: (stacking.corps_count(state, n, side), n))


def retreat(ctx: "Resolution", place: str, side: str) -> None:
    """4.3 #1: the loser leaves the space to the winner; a mandatory retreat may end over the
    limit and then reduces at once (4.1.2, 4.1.3). With nowhere to go its corps are eliminated
    and its leaders captured (designed)."""
    state, board = ctx.state, ctx.map
    force = pieces.force_of(state, place, side)
    if not force:
        return
    to = retreat_space(state, board, place, side)
    if to is None:
        for u in force:
            if u.kind == "corps":
                while u.strength > 0:
                    ctx.events.append(pieces.hit(u))
            else:
                u.hex = None
                u.mark("captured", 1)
                ctx.emit("leader-captured", unit=u.id, rule="16.4 designed")
        return
    for u in force:
        u.hex = to
        u.mark("box", 0)
    ctx.emit("retreated", side=side, space=place, to=to, units=[u.id for u in force])
    need = stacking.reductions_needed(state, board, to, side)
    full = [c for c in pieces.corps_of(state, to, side) if c.strength >= FULL]
    if need and need < len(full):  # 4.1.3: the owner chooses which full corps to reduce
        state.pending.append({"side": side, "kind": "reduce", "space": to, "count": need})
    else:
        ctx.events += stacking.end_relocation(state, board, to, side, "retreat_after_battle")


def avoid_problem(state, board, place: str, side: str) -> str | None:  # noqa: ANN001
    """Designed (14.7 MISSING): a force tries to avoid battle only under a leader, and only if
    it has somewhere to go."""
    if commander(state, place, side) is None:
        return "14.7: only a force with a leader tries to avoid battle (designed)"
    if retreat_space(state, board, place, side) is None:
        return "14.7: there is nowhere to go"
    return None


def avoid(ctx: "Resolution", place: str, side: str) -> bool:
    """14.7 (designed): one die plus the commander's effective TR (3.1) of at least
    ``AVOID_ON`` takes the force away before the battle: its leaders and as many corps as may
    act (4.1.3 penalty 3: no more than the limit from an overstacked space; the rest stay and
    fight). Returns whether it got away."""
    state, board = ctx.state, ctx.map
    lead = commander(state, place, side)
    assert lead is not None
    roll = ctx.roll("avoid-battle", unit=lead.id)
    tr = pieces.effective_tr(state, lead)
    ok = roll + tr >= designed.AVOID_ON
    ctx.emit("avoid-battle", space=place, side=side, roll=roll, tr=tr, needed=designed.AVOID_ON,
             escaped=ok, rule="14.7 designed")
    if not ok:
        return False
    to = retreat_space(state, board, place, side)
    corps = pieces.corps_of(state, place, side)
    cap = stacking.activation_cap(state, board, place, side, len(corps))
    movers = [u for u in pieces.force_of(state, place, side) if u.kind == "leader"] + corps[:cap]
    for u in movers:
        u.hex = to
        u.mark("box", 0)
    ctx.emit("retreated", side=side, space=place, to=to, units=[u.id for u in movers])
    ctx.events += stacking.end_relocation(state, board, to, side, "retreat_after_battle")
    return not pieces.force_of(state, place, side)


def interceptors(state, board, place: str, side: str) -> list[Unit]:  # noqa: ANN001
    """Designed (14.6 MISSING): the leaders of ``side`` next to ``place`` (a space ``side``
    holds that the enemy has just entered) whose force has corps, and whose interception would
    not overstack ``place`` (4.1.2 / 14.6.2), in id order."""
    out = []
    for n in board.neighbors(place):
        for lead in [u for u in pieces.force_of(state, n, side) if u.kind == "leader"]:
            n_corps = _intercepting(state, board, lead)
            if n_corps and stacking.intercept_problem(state, board, place, side, len(n_corps)) is None:
                out.append(lead)
    return sorted(out, key=lambda u: u.id)


def _intercepting(state, board, lead: Unit) -> list[Unit]:  # noqa: ANN001
    """The corps an interception takes: as many as the leader's CR activates, capped at the
    limit from an overstacked space (4.1.3 penalty 3), in id order."""
    corps = pieces.corps_of(state, lead.hex, lead.side)
    cap = stacking.activation_cap(state, board, lead.hex, lead.side, pieces.command_rating(lead))
    return corps[:cap]


def intercept(ctx: "Resolution", lead: Unit, place: str) -> bool:
    """14.6 (designed): one die plus the leader's effective TR (3.1) of at least ``INTERCEPT_ON``
    brings him and his activated corps into ``place``, where they attack (14.6.6 MISSING:
    designed as a battle with the interceptor attacking). Returns whether it succeeded."""
    state, board = ctx.state, ctx.map
    roll = ctx.roll("intercept", unit=lead.id)
    tr = pieces.effective_tr(state, lead)
    ok = roll + tr >= designed.INTERCEPT_ON
    ctx.emit("interception", space=place, side=lead.side, roll=roll, tr=tr,
             needed=designed.INTERCEPT_ON, success=ok, rule="14.6 designed")
    if ok:
        movers = [lead] + _intercepting(state, board, lead)
        for u in movers:
            u.hex = place
            u.mark("box", 0)
    return ok


def siege_problem(state, board, leader: Unit) -> str | None:  # noqa: ANN001
    """Designed (17.1 MISSING): a leader with at least one corps in an enemy fortress's space,
    where no enemy piece stands, may besiege it."""
    place = leader.hex
    if place is None or not board.space(place).fort:
        return "17.1: only a fortress is besieged"
    if ledger.controller(state, place) in ("", leader.side):
        return "17.1: the fortress is not the enemy's"
    if not pieces.corps_of(state, place, leader.side):
        return "17.1: a siege needs at least one corps"
    if any(u.hex == place and u.side != leader.side and (u.kind == "leader" or u.strength > 0)
           for u in state.units.values()):
        return "17.1: beat the enemy force in the space first"
    return None


def siege(ctx: "Resolution", leader: Unit) -> bool:
    """Designed (17.5 MISSING): one die, plus 1 when the besiegers number at least twice the
    fortress level in corps, against ``SIEGE_TARGET`` + the level; success takes the fortress
    (17.5.7: its level in VP at once)."""
    state, board = ctx.state, ctx.map
    place = leader.hex
    level = board.space(place).fort
    roll = ctx.roll("siege", unit=leader.id)
    bonus = 1 if len(pieces.corps_of(state, place, leader.side)) >= 2 * level else 0
    taken = roll + bonus >= designed.SIEGE_TARGET + level
    ctx.emit("siege", space=place, side=leader.side, roll=roll, bonus=bonus,
             needed=designed.SIEGE_TARGET + level, taken=taken, rule="17.5 designed")
    if taken:
        ctx.events += ledger.change_control(state, board, place, leader.side, "siege")
    return taken
