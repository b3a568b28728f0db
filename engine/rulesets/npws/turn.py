"""The designed sequence of play (8.0 is MISSING; spec Part 4.4 with A16-A18), one year a turn.

    setup          the first order forms and shuffles the two decks (5.2.1)
    event          9.0: reserve cards due this year join the Event deck (5.2.2), the KWW roll
                   where the scenario uses the track (6.1.1), then the Bourbon and the Alliance
                   each draw an Event card, which takes effect at once (A17)
    reinforcement  12.0 (designed): each side may promote one leader (3.1.2 / 12.4) and spend
                   its resource points restoring reduced corps or placing corps from the Force
                   Pool (3.2.2, never in an overstacked space, 4.1.3)
    campaign       13.0 (designed): each side draws Action cards; in alternate rounds a side
                   plays a card for as many marches as its value, or passes; two passes in a
                   row end the phase
    winter         19.0: the London penalty (step C), the victory check (step f), the Campaign
                   Interphase's reshuffle (A16), and the next year

Every designed number is in ``designed.py``. A march that ends among enemy pieces lets the
defender accept battle or try to avoid it; one that ends in a space the enemy holds lets him try
to intercept; a leader in an enemy fortress's space may besiege it (all designed, ``battle.py``).
The decisions the rules give a player during another's action (accept or avoid, intercept or
decline, which corps to reduce) are pending decisions: ``state.pending``, answered by orders.
Supply is not designed yet (NOTES.md says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from hexwar.engine.orders import Event, Order, event

from . import battle, cards, designed, kww, ledger, pieces, stacking, victory
from .facts import ALLIANCE, BOURBON, SIDES

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position, Resolution
    from hexwar.engine.state import State

PHASES = ("setup", "event", "reinforcement", "campaign", "winter")
PHASE_NAMES = {"setup": "Set-up (5.2.1)", "event": "Event Card Phase (9.0)",
               "reinforcement": "Reinforcement Phase (12.0, designed)",
               "campaign": "Campaign Phase (13.0, designed)",
               "winter": "Winter Quarters Phase (19.0)"}


def other(side: str) -> str:
    return ALLIANCE if side == BOURBON else BOURBON


def deck_of(game: "Position") -> dict[str, str]:
    return {c["id"]: c["deck"] for c in game.scenario.cards}


def card(game: "Position", cid: str) -> dict[str, Any]:
    return next(c for c in game.scenario.cards if c["id"] == cid)


# --- what may be ordered ------------------------------------------------------------------------

def legal(game: "Position") -> Iterator[Order]:
    state, board = game.state, game.map
    side = state.active
    phase = state.phase
    if state.pending:  # a decision the rules give a player
        p = state.pending[0]
        if p["kind"] == "battle":  # 4.3 #1: accept battle or try to avoid it (14.7)
            yield Order.make("accept")
            if battle.avoid_problem(state, board, p["space"], p["side"]) is None:
                yield Order.make("avoid")
        elif p["kind"] == "intercept":  # 4.3 #2: intercept into the space just entered (14.6)
            for lead in battle.interceptors(state, board, p["space"], p["side"]):
                yield Order.make("intercept", unit=lead.id)
            yield Order.make("decline")
        else:  # 4.1.3: which full corps to reduce
            for c in pieces.corps_of(state, p["space"], p["side"]):
                if c.strength >= 2:
                    yield Order.make("reduce", unit=c.id)
        yield Order.make("resign")
        return
    if phase == "setup":
        yield Order.make("start")
        return
    if phase == "reinforcement":
        my = state.sides[side]
        if not my.get("promoted"):
            for u in state.side_units(side):
                if u.kind == "leader" and pieces.promote_problem(u) is None:
                    yield Order.make("promote", unit=u.id)
        if my.get("points", 0) > 0:
            for u in state.side_units(side):
                if u.kind == "corps" and stacking.restore_problem(state, board, u) is None:
                    yield Order.make("restore", unit=u.id)
            powers: set[str] = set()
            for u in state.units_in_id_order():
                # the first corps of each power in the pool: the others are the same counter
                if u.side == side and pieces.in_force_pool(u) and u.stat("power") not in powers:
                    powers.add(u.stat("power"))
                    for sid in _placements(state, board, u):
                        yield Order.make("place", unit=u.id, space=sid)
    if phase == "campaign":
        if state.vars.get("actions", 0) > 0:
            for u in state.side_units(side):
                if u.kind == "leader" and not u.marks.get("marched"):
                    for path in _paths(state, board, u):
                        yield Order.make("march", unit=u.id, path=tuple(path))
                    if battle.siege_problem(state, board, u) is None:
                        yield Order.make("siege", unit=u.id)
            yield Order.make("end-phase")
        else:
            for cid in state.vars["cards"]["hands"][side]:
                if card(game, cid)["deck"] == "action":
                    yield Order.make("play", card=cid)
            yield Order.make("pass")
        yield Order.make("resign")
        return
    if phase in ("event", "reinforcement", "winter"):
        yield Order.make("end-phase")
    yield Order.make("resign")


def _placements(state: "State", board, corps) -> list[str]:  # noqa: ANN001
    """Designed (12.2 MISSING): a corps from the pool is placed in a space its side controls
    that is a home space of its power, within the stacking rules (4.1.2, 4.1.3)."""
    power = corps.stat("power")
    return [s.id for s in board.spaces
            if s.home == power and ledger.controller(state, s.id) == corps.side
            and stacking.place_problem(state, board, corps, s.id) is None]


def _paths(state: "State", board, leader) -> list[list[str]]:  # noqa: ANN001
    """Every march a leader may make (designed, 14.1 MISSING): up to ``designed.MARCH_SPACES``
    connections, ending within the stacking limit; a space holding enemy pieces ends the march
    in a battle (only a force with corps attacks), so it is never passed through."""
    out: list[list[str]] = []
    start = leader.hex
    force = _marching_corps(state, board, leader)
    ids = [c.id for c in force]
    frontier: list[list[str]] = [[start]]
    for _ in range(designed.MARCH_SPACES):
        nxt = []
        for path in frontier:
            for n in board.neighbors(path[-1]):
                if n in path:
                    continue
                p = path + [n]
                if _enemy_in(state, n, leader.side):  # a battle there (designed): the march ends
                    if force and stacking.path_problem(state, board, leader.side, ids, p) is None:
                        out.append(p)
                    continue
                nxt.append(p)
                if stacking.path_problem(state, board, leader.side, ids, p) is None:
                    out.append(p)
        frontier = nxt
    best: dict[str, list[str]] = {}
    for p in out:  # one path to each space: the shortest, then the first in id order
        if p[-1] not in best or (len(p), p) < (len(best[p[-1]]), best[p[-1]]):
            best[p[-1]] = p
    return [best[k] for k in sorted(best)]


def _enemy_in(state: "State", place: str, side: str) -> bool:
    return any(u.hex == place and u.side != side and (u.kind == "leader" or u.strength > 0)
               for u in state.units.values())


def _marching_corps(state: "State", board, leader) -> list:  # noqa: ANN001
    """The corps a march takes: as many as the leader's CR activates (4.1.3 penalty 3 caps it
    in an overstacked space), in id order (designed: the player does not choose yet)."""
    corps = pieces.corps_of(state, leader.hex, leader.side)
    n = stacking.activation_cap(state, board, leader.hex, leader.side, pieces.command_rating(leader))
    return corps[:n]


def problem(game: "Position", order: Order) -> str | None:
    """None if ``order`` is legal now, else why not (checked against ``legal`` exactly)."""
    for o in legal(game):
        if o == order:
            return None
    kind = order.kind
    if kind not in ("start", "end-phase", "promote", "restore", "place", "play", "pass", "march",
                    "siege", "reduce", "accept", "avoid", "intercept", "decline", "resign"):
        return f"unknown order {kind!r}"
    return f"{kind} is not allowed now ({PHASE_NAMES.get(game.state.phase, game.state.phase)})"


# --- resolving ----------------------------------------------------------------------------------

def resolve(ctx: "Resolution", order: Order) -> None:
    state, board = ctx.state, ctx.map
    kind = order.kind
    side = state.pending[0]["side"] if state.pending else state.active
    if kind == "resign":
        _finish(ctx, other(side), "resignation")
    elif kind in ("accept", "avoid"):
        p = state.pending.pop(0)
        attacker = state.units[p["attacker"]]
        place = p["space"]
        fights = kind == "accept" or not battle.avoid(ctx, place, p["side"])
        if not fights or battle.fight(ctx, attacker, place) == attacker.side:
            _convert(ctx, attacker.side, [place])
        _spend_action(ctx)
    elif kind in ("intercept", "decline"):
        p = state.pending.pop(0)
        marcher = state.units[p["marcher"]]
        place = p["space"]
        holds = True
        if kind == "intercept" and battle.intercept(ctx, state.units[order.get("unit")], place):
            holds = battle.fight(ctx, state.units[order.get("unit")], place) == marcher.side
        if holds:
            _convert(ctx, marcher.side, [place])
        _spend_action(ctx)
    elif kind == "reduce":  # 4.1.3: one full corps the owner chose
        p = state.pending[0]
        unit = state.units[order.get("unit")]
        unit.strength = 1
        ctx.emit("corps-reduced", unit=unit.id, space=p["space"], rule="4.1.3")
        p["count"] -= 1
        if p["count"] <= 0:
            state.pending.pop(0)
    elif kind == "start":
        ctx.events += cards.set_up_decks(state, list(ctx.scenario.cards), ctx.dice)
        _enter(ctx, "event")
    elif kind == "promote":
        ctx.events.append(pieces.promote(state.units[order.get("unit")]))
        state.sides[side]["promoted"] = 1
    elif kind == "restore":
        ctx.events.append(stacking.restore(state, board, state.units[order.get("unit")]))
        state.sides[side]["points"] -= 1
    elif kind == "place":
        ctx.events.append(stacking.place_from_pool(state, board, state.units[order.get("unit")],
                                                   order.get("space")))
        state.sides[side]["points"] -= 1
    elif kind == "play":
        cid = order.get("card")
        ctx.events.append(cards.discard(state, side, cid, "action"))
        state.vars["actions"] = int(card(ctx, cid).get("value", 1))
        state.vars["passes"] = 0
    elif kind == "march":
        _march(ctx, state.units[order.get("unit")], list(order.get("path")))
    elif kind == "siege":
        leader = state.units[order.get("unit")]
        leader.mark("marched", 1)
        battle.siege(ctx, leader)
        _spend_action(ctx)
    elif kind == "pass":
        state.vars["passes"] = state.vars.get("passes", 0) + 1
        _next_round(ctx)
    elif kind == "end-phase":
        _end_phase(ctx)


def _march(ctx: "Resolution", leader, path: list[str]) -> None:  # noqa: ANN001
    state, board = ctx.state, ctx.map
    force = _marching_corps(state, board, leader)
    end = path[-1]
    fight = _enemy_in(state, end, leader.side)
    for u in [leader] + force:
        u.hex = end
        u.mark("box", 0)
    leader.mark("marched", 1)
    ctx.emit("marched", unit=leader.id, path=path, corps=[c.id for c in force])
    if not fight:
        _convert(ctx, leader.side, path[1:-1])
        enemy = other(leader.side)
        if ledger.controller(state, end) == enemy and battle.interceptors(state, board, end, enemy):
            state.pending.append({"side": enemy, "kind": "intercept", "space": end,
                                  "marcher": leader.id})
            ctx.emit("interception-possible", space=end, side=enemy, rule="4.3")
            return
        _convert(ctx, leader.side, [end])
        _spend_action(ctx)
        return
    _convert(ctx, leader.side, path[1:-1])
    defender = next(u.side for u in state.units_in_id_order()
                    if u.hex == end and u.side != leader.side)
    state.pending.append({"side": defender, "kind": "battle", "space": end, "attacker": leader.id})
    ctx.emit("battle-offered", space=end, side=defender, rule="4.3")


def _convert(ctx: "Resolution", side: str, spaces: list[str]) -> None:
    """14.4 (designed): a force converts the enemy unfortified spaces it enters (and holds)."""
    state, board = ctx.state, ctx.map
    for sid in spaces:
        if not board.space(sid).fort and ledger.controller(state, sid) not in ("", side):
            ctx.events += ledger.change_control(state, board, sid, side, "conversion")


def _spend_action(ctx: "Resolution") -> None:
    """One of the card's actions is used; with none left the round passes to the other side."""
    state = ctx.state
    state.vars["actions"] -= 1
    if state.vars["actions"] <= 0:
        _next_round(ctx)


def _next_round(ctx: "Resolution") -> None:
    state = ctx.state
    state.vars["actions"] = 0
    hands = state.vars["cards"]["hands"]
    deck = deck_of(ctx)
    holding = [s for s in SIDES if any(deck[c] == "action" for c in hands[s])]
    if state.vars.get("passes", 0) >= 2 or not holding:
        _enter(ctx, "winter")
        return
    state.active = other(state.active)


def _end_phase(ctx: "Resolution") -> None:
    state = ctx.state
    phase = state.phase
    if phase == "event":
        _enter(ctx, "reinforcement")
    elif phase == "reinforcement":
        if state.active == BOURBON:
            state.active = ALLIANCE
        else:
            _enter(ctx, "campaign")
    elif phase == "campaign":  # a side ends its own round early (its unused actions are lost)
        _next_round(ctx)
    elif phase == "winter":
        _next_year(ctx)


def _enter(ctx: "Resolution", phase: str) -> None:
    state, board = ctx.state, ctx.map
    state.phase = phase
    state.active = BOURBON
    rules = ctx.scenario.rules
    if phase == "event":
        for step in designed.EVENT_PHASE_ORDER:  # A17
            if step == "add_reserve_cards":
                ctx.events += cards.add_reserve(state, int(state.vars["year"]), ctx.dice)
            elif step == "kww_roll" and rules.get("kww", designed.KWW_DEFAULT):
                ctx.events += kww.kww_roll(state, ctx)
            elif step in ("bourbon_draws", "alliance_draws"):
                _draw_event(ctx, BOURBON if step == "bourbon_draws" else ALLIANCE)
    elif phase == "reinforcement":
        for side in SIDES:
            state.sides[side] = {"points": designed.RESOURCE_POINTS, "promoted": 0}
        ctx.events += _arrivals(ctx)
    elif phase == "campaign":
        for u in state.units.values():
            u.mark("marched", 0)
        for side in (BOURBON, ALLIANCE):
            for _ in range(designed.ACTION_CARDS_DEALT):
                ctx.events.append(cards.draw(state, "action", side))
        state.vars["passes"] = 0
        state.vars["actions"] = 0
    elif phase == "winter":
        ctx.events += ledger.winter_london(state, rules.get("london", "london"),
                                           rules.get("london_vp", designed.LONDON_VP_DEFAULT)
                                           and rules.get("london", "london") in board)
        winner = victory.automatic_victory(state)
        if winner is not None:
            _finish(ctx, winner, "automatic victory (6.2)")
        elif state.turn >= ctx.scenario.turns:
            tie = rules.get("tie_break", "london")
            _finish(ctx, victory.end_on_points(state, tie), f"VP {ledger.vp(state)} at the end")


def _draw_event(ctx: "Resolution", side: str) -> None:
    """5.1 / 9.0: the player draws one Event card; it takes effect at once (designed, A17)."""
    state = ctx.state
    drawn = cards.draw(state, "event", side)
    ctx.events.append(drawn)
    if drawn["t"] != "card-drawn":
        return
    cid = state.vars["cards"]["hands"][side][-1]
    ctx.events.append(cards.discard(state, side, cid, "event"))
    ctx.events += execute_event(ctx, side, card(ctx, cid))


def _arrivals(ctx: "Resolution") -> list[Event]:
    """Designed (12.2 / the Leader Loss Table MISSING): at the Reinforcement Phase a ransomed
    leader (``designed.RANSOMED_RETURN``) and a piece whose entry year has come (``waiting`` =
    the turn it enters, ``enter_at`` its space; pieces that arrive by a card wait for the card)
    come onto the map: at ``enter_at``, else the first home space of the piece's power its side
    controls. A corps comes only where the stacking rules let it."""
    state, board = ctx.state, ctx.map
    out: list[Event] = []
    for u in state.units_in_id_order():
        if u.hex is not None or "arrives_with" in u.stats:
            continue
        due = u.marks.get("ransomed") or (u.marks.get("waiting") and int(u.marks["waiting"]) <= state.turn)
        if not due:
            continue
        power = str(u.stat("power"))
        spots = [str(u.marks["enter_at"])] if u.marks.get("enter_at") else \
            [s.id for s in board.spaces if s.home == power]
        for sid in spots:
            if ledger.controller(state, sid) != u.side:
                continue
            if u.kind == "corps" and stacking.relocation_problem(
                    state, board, sid, u.side, [u.id], "reinforcement") is not None:
                continue
            u.hex = sid
            for m in ("ransomed", "waiting", "enter_at"):
                u.mark(m, 0)
            out.append(event("arrives", unit=u.id, space=sid, rule="12.2"))
            break
    return out


def _next_year(ctx: "Resolution") -> None:
    state = ctx.state
    ctx.events += cards.interphase(state, deck_of(ctx), ctx.dice)
    state.turn += 1
    state.vars["year"] = int(state.vars["year"]) + 1
    _enter(ctx, "event")


def _finish(ctx: "Resolution", winner: str | None, reason: str) -> None:
    ctx.state.result = {"winner": winner, "reason": reason}
    ctx.emit("game-over", winner=winner, reason=reason)


# --- the designed effects of Event cards ------------------------------------------------------------

def execute_event(ctx: "Resolution", drawer: str, c: dict[str, Any]) -> list[Event]:
    """What an Event card does (designed: the card texts are MISSING, G3). ``side`` on the card
    is who gains by it (the drawer when not given). Control changed by an Event never scores
    VP (6.1.1); a corps an Event reduces is reduced (3.2.2)."""
    state, board = ctx.state, ctx.map
    side = c.get("side", drawer)
    effect = c.get("effect", "none")
    out: list[Event] = [event("event-card", card=c["id"], side=side, effect=effect)]
    if effect == "control":
        out += ledger.change_control(state, board, c["space"], side, "event_card")
    elif effect == "reduce":
        for u in state.units_in_id_order():
            if u.kind == "corps" and u.hex == c["space"] and u.stat("power") == c.get("power") \
                    and u.strength == 2:
                u.strength = 1
                out.append(event("corps-reduced", unit=u.id, space=u.hex, rule="3.2.2"))
                break
    elif effect == "reinforce":
        for u in state.units_in_id_order():
            if pieces.in_force_pool(u) and u.stat("power") == c.get("power") \
                    and stacking.place_problem(state, board, u, c["space"]) is None:
                out.append(stacking.place_from_pool(state, board, u, c["space"]))
                break
    elif effect == "leader_arrives":
        u = state.units[c["leader"]]
        if u.hex is None and u.marks.get("waiting"):
            u.hex = c["space"]
            for m in ("waiting", "enter_at"):
                u.mark(m, 0)
            out.append(event("leader-arrives", unit=u.id, space=u.hex))
    elif effect == "sea_control":
        if board.zone(c["zone"]).contestable:
            from .seas import set_sea_control
            out += set_sea_control(state, board, c["zone"], side, "event_card")
    elif effect in ("power_joins", "power_neutral"):
        out += change_allegiance(ctx, str(c["power"]), side if effect == "power_joins" else "",
                                 str(c.get("cause", "scenario_rule")))
    elif effect == "vp_track":
        from .kww import move_kww
        out += move_kww(state, side)
    return out


def change_allegiance(ctx: "Resolution", power: str, side: str, cause: str) -> list[Event]:
    """A power enters the war on ``side`` or becomes neutral (``side`` ""): 6.1.2 names Savoy's
    entry and Savoy's neutrality (7.1.2) among the changes of control that score no VP. Designed
    (7.1 MISSING): its home spaces pass to its new side (or to nobody), its pieces on the map
    change sides with it, and a neutral power's pieces leave the map."""
    state, board = ctx.state, ctx.map
    state.vars["powers"][power] = side
    out: list[Event] = [event("allegiance", power=power, side=side, cause=cause, rule="6.1.2")]
    for sp in board.spaces:
        if sp.home == power:
            out += ledger.change_control(state, board, sp.id, side, cause)
    for u in state.units_in_id_order():
        if u.stat("power") != power and not (u.kind == "leader" and pieces.face(u).power == power):
            continue
        if side:
            u.side = side
        elif u.hex is not None:
            u.hex = None
            u.mark("neutral", 1)
    return out
