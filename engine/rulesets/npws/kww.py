"""The King William's War track (6.1.1): a row of boxes each labelled with a VP value.

``state.vars["kww"]`` is the marker's box, counted from the Bourbon end. After the KWW roll the
winner moves the marker one box toward his end (the example's step, A15) and the VP marker moves
by the new box's label less the old one's, so a move between two boxes of the same label moves
nothing. The labels and the start box are scenario data (designed defaults in ``designed.py``).
"""

from __future__ import annotations

from hexwar.engine.orders import Event, event
from hexwar.engine.state import State

from .facts import ALLIANCE, BOURBON
from .ledger import add_vp


def labels(state: State) -> tuple[int, ...]:
    return tuple(state.vars["kww_labels"])


def move_kww(state: State, winner: str) -> list[Event]:
    """6.1.1 KWW: the roll's winner moves the marker one box toward his end (it stops at the
    end of the track), then the VP marker moves by the difference of the two labels."""
    step = {BOURBON: -1, ALLIANCE: 1}[winner]
    boxes = labels(state)
    old = int(state.vars["kww"])
    new = max(0, min(len(boxes) - 1, old + step))
    state.vars["kww"] = new
    out = [event("kww", winner=winner, box=new, was=old, label=boxes[new], rule="6.1.1")]
    if boxes[new] != boxes[old]:
        out.append(add_vp(state, boxes[new] - boxes[old], "kww"))
    return out


def kww_roll(state: State, ctx) -> list[Event]:  # noqa: ANN001 - an engine Resolution
    """Designed (9.0 MISSING): each side rolls a die, ties rolled again; the higher moves the
    marker (``move_kww``)."""
    winner, _, _ = ctx.roll_off("kww", BOURBON, ALLIANCE)
    return move_kww(state, winner)
