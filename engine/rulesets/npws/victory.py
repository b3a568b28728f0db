"""Victory (6.1, 6.2): checked in Winter Quarters; the game on points and its tie-break.

The conditions of Automatic Victory (6.2) and of victory on points (6.3) are MISSING; the end on
points is designed (A3): the Alliance wins above ``designed.VP_NEUTRAL``, the Bourbons below it,
and exactly on it the controller of the tie-break space (London, Madrid in NPWS) wins; a
tie-break space held by neither side leaves a draw.
"""

from __future__ import annotations

from hexwar.engine.state import State

from . import designed
from .facts import ALLIANCE, BOURBON, SIDES
from .ledger import controller, vp


def tie_break(state: State, space_id: str) -> str | None:
    """6.1 game note: on equal VP the controller of London (Madrid in NPWS) wins."""
    holder = controller(state, space_id)
    return holder if holder in SIDES else None


def end_on_points(state: State, tie_break_space: str) -> str | None:
    """The winner at the end of the game on points (designed, A3); None for a draw."""
    points = vp(state)
    if points > designed.VP_NEUTRAL:
        return ALLIANCE
    if points < designed.VP_NEUTRAL:
        return BOURBON
    return tie_break(state, tie_break_space)


def automatic_victory(state: State) -> str | None:
    """6.2: the conditions are MISSING from the fragment; nobody wins automatically until the
    real rule (or a designed one) fills this in."""
    return None
