"""Sea zones and ports (2.5, 2.6): who may use a port, sea moves, and control of a zone.

``state.vars["sea"]`` maps each zone to the side controlling it; control lasts until it changes
(2.5). A port is used *through* one zone it touches (A4): Gibraltar touches the Atlantic and the
Mediterranean, and each is judged on its own, which is how the NPWS note ("the Bourbons use
Gibraltar only while they control the Med") follows from a scenario that fixes the Atlantic for
the Alliance (``contestable = false``).
"""

from __future__ import annotations

from hexwar.engine.areamap import AreaMap
from hexwar.engine.orders import Event, event
from hexwar.engine.state import State, Unit

from . import designed
from .ledger import naval_sortie

PURPOSES = ("move", "loc")


def sea_controller(state: State, zone: str) -> str:
    return state.vars["sea"].get(zone, "")


def zones_of(state: State, side: str) -> tuple[str, ...]:
    """The zones ``side`` controls, sorted."""
    return tuple(sorted(z for z, s in state.vars["sea"].items() if s == side))


def port_problem(state: State, board: AreaMap, side: str, port: str, zone: str, purpose: str,
                 force: list[Unit] | None = None) -> str | None:
    """2.6.3: a port serves sea movement or a line of communication only through a zone it
    touches that the player controls. The exception for the Jacobites in Ireland (text MISSING)
    is designed: a force of ``designed.SEA_LOC_EXEMPT_POWERS`` only may trace its LOC through a
    port that is a home space of its power, whoever holds the zone."""
    if purpose not in PURPOSES:
        raise ValueError(f"unknown use of a port {purpose!r}")
    space = board.space(port)
    if zone not in space.sea_zones:
        return f"2.6.1: {space.name} is not a port on {board.zone(zone).name}" if zone in \
            {z.id for z in board.sea_zones} else f"2.6: no sea zone {zone!r}"
    if sea_controller(state, zone) == side:
        return None
    if purpose == "loc" and force:
        powers = {u.stat("power") for u in force if u.kind == "corps"}
        if powers and powers <= set(designed.SEA_LOC_EXEMPT_POWERS) and space.home in powers:
            return None
    return (f"2.6.3: {space.name} is used through {board.zone(zone).name} only by the player "
            f"who controls it")


def sea_moves(state: State, board: AreaMap, side: str, port: str) -> tuple[str, ...]:
    """The ports ``side`` may reach from ``port`` in one sea move: the hyper-edge of every zone
    it controls that the port touches (A5)."""
    return board.sea_neighbors(port, zones_of(state, side))


def loc_reach(state: State, board: AreaMap, side: str, start: str, passable=None) -> tuple[str, ...]:  # noqa: ANN001
    """The spaces a line of communication from ``start`` may join by land and by the zones
    ``side`` controls (11.1 MISSING: what blocks a land step is the caller's ``passable``)."""
    return board.reach(start, zones_of(state, side), passable)


def set_sea_control(state: State, board: AreaMap, zone: str, side: str, cause: str) -> list[Event]:
    """2.5 / 10.2: a zone changes hands (and keeps its new controller until the next change);
    a zone the scenario fixed (``contestable = false``) never does."""
    if not board.zone(zone).contestable:
        raise ValueError(f"{board.zone(zone).name} is fixed by the scenario; its control never changes")
    if sea_controller(state, zone) == side:
        return []
    was = sea_controller(state, zone)
    state.vars["sea"][zone] = side
    return [event("sea-control", zone=zone, side=side, was=was, cause=cause, rule="2.5")]


def naval_battle_won(state: State, board: AreaMap, zone: str, winner: str, attacker: str) -> list[Event]:
    """6.1.1 (A8): a naval battle won by the side that started it scores 1 VP; a successful
    defence scores nothing. Designed (A6, 10.2 MISSING): the winner of a contestable zone's
    battle controls it (``designed.NAVAL_WINNER_TAKES_ZONE``)."""
    out: list[Event] = []
    if winner == attacker:
        out.append(naval_sortie(state, attacker))
    if designed.NAVAL_WINNER_TAKES_ZONE and board.zone(zone).contestable:
        out += set_sea_control(state, board, zone, winner, "naval_battle")
    return out
