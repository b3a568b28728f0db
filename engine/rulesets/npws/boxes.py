"""Army Boxes (2.7): four lettered markers per player stand for the forces kept in their boxes.

A box has no effect of its own: a force in box X is, for every rule, in the space of marker X.
So a piece in a box stands in that space and carries the mark ``box = X``; the marker's space is
``state.vars["army_markers"][side][X]``. Moving the marker moves the whole box.
"""

from __future__ import annotations

from hexwar.engine.orders import Event, event
from hexwar.engine.state import State, Unit

from .facts import ARMY_BOXES


def box_contents(state: State, side: str, letter: str) -> list[Unit]:
    return [u for u in state.units_in_id_order()
            if u.side == side and u.hex is not None and u.marks.get("box") == letter]


def put_in_box(state: State, side: str, letter: str, unit_ids: list[str]) -> Event:
    """2.7: pieces in the marker's space go into its box (they stay in that space)."""
    if letter not in ARMY_BOXES:
        raise ValueError(f"2.7: army boxes are lettered {', '.join(ARMY_BOXES)}")
    markers = state.vars.setdefault("army_markers", {}).setdefault(side, {})
    for uid in unit_ids:
        u = state.units[uid]
        if u.side != side or u.hex is None:
            raise ValueError(f"2.7: {uid} is not a piece of {side} on the map")
        where = markers.get(letter)
        if where is None:
            markers[letter] = where = u.hex
        if u.hex != where:
            raise ValueError(f"2.7: {uid} is not in the space of army marker {letter}")
        u.mark("box", letter)
    return event("army-box", side=side, box=letter, units=sorted(unit_ids), space=markers[letter])


def move_marker(state: State, side: str, letter: str, place: str) -> Event:
    """Moving army marker X moves every piece in box X with it."""
    markers = state.vars.setdefault("army_markers", {}).setdefault(side, {})
    markers[letter] = place
    for u in box_contents(state, side, letter):
        u.hex = place
    return event("army-marker", side=side, box=letter, space=place)
