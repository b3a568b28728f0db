"""The VP track and control of spaces (6.1.1, 6.1.2): every VP change is an event with its cause.

``state.vars["vp"]`` is the Alliance's VP, 0 to 35, from 15. ``state.vars["control"]`` maps each
space to the side holding it ("" for none); ``state.vars["powers"]`` maps each power to its side
("" for a neutral power). A change of control scores the space's VP only when its cause is one
of the Action causes of 6.1.1 (``facts.CONTROL_CAUSES``); the causes of 6.1.2 and Event cards
change control and say so, with the VP they did not score.
"""

from __future__ import annotations

from hexwar.engine.areamap import AreaMap, Space
from hexwar.engine.orders import Event, event
from hexwar.engine.state import State

from .facts import (
    CONTROL_CAUSES, FAMOUS_VICTORY_VP, LONDON_WINTER_VP, NAVAL_SORTIE_VP, SIDES, SIGN, VP_CAUSES,
    VP_MAX, VP_MIN, BOURBON,
)


def vp(state: State) -> int:
    return int(state.vars["vp"])


def add_vp(state: State, delta: int, cause: str, **info: object) -> Event:
    """6.1.1: move the VP marker by ``delta`` (+ for the Alliance), never below 0 nor above 35;
    what the clamp loses is lost. The event keeps what was asked and what was applied."""
    if cause not in VP_CAUSES:
        raise ValueError(f"unknown VP cause {cause!r}")
    before = vp(state)
    after = max(VP_MIN, min(VP_MAX, before + delta))
    state.vars["vp"] = after
    return event("vp", cause=cause, asked=delta, moved=after - before, vp=after, rule="6.1.1",
                 **info)


def side_of(state: State, power: str, default: str = "") -> str:
    """The side a power fights for now ("" when neutral); A14c: the sign of a dynastic
    catastrophe follows the power's side at that moment."""
    return state.vars.get("powers", {}).get(power, default)


def space_vp(space: Space) -> int:
    """6.1.1 SPACES: a Level 1-3 fortress is worth its level, an unfortified space the number
    printed beside it (0 when none); a number printed on the map overrides the table."""
    if space.vp is not None:
        return space.vp
    return space.fort if space.fort in (1, 2, 3) else 0


def controller(state: State, space_id: str) -> str:
    return state.vars["control"].get(space_id, "")


def change_control(state: State, board: AreaMap, space_id: str, new_owner: str,
                   cause: str) -> list[Event]:
    """A space changes hands. With an Action cause (14.4 conversion of an unfortified space,
    17.5.7 siege of a fortress) it scores ``space_vp`` at once for the new owner; with the 6.1.2
    causes and Event cards it scores nothing (A25: nor does a change to no side)."""
    if cause not in CONTROL_CAUSES:
        raise ValueError(f"unknown cause of a control change {cause!r}")
    space = board.space(space_id)
    if cause == "conversion" and space.fort:
        raise ValueError(f"14.4: {space.name} is a fortress; it is taken by siege, not converted")
    if cause == "siege" and not space.fort:
        raise ValueError(f"17.5.7: {space.name} is not a fortress; it cannot be besieged")
    old = controller(state, space_id)
    if old == new_owner:
        return []
    state.vars["control"][space_id] = new_owner
    value = space_vp(space)
    scores = CONTROL_CAUSES[cause] and new_owner in SIGN
    out = [event("control", space=space_id, side=new_owner, was=old, cause=cause,
                 scores=bool(scores), value=value, rule="6.1.1" if scores else "6.1.2")]
    if scores and value:
        out.append(add_vp(state, SIGN[new_owner] * value, cause, space=space_id))
    return out


def famous_victory(state: State, winner: str) -> Event:
    """6.1.1 (16.5.3): a Famous Victory: +2 VP to the Alliance, -2 for the Bourbons."""
    return add_vp(state, SIGN[winner] * FAMOUS_VICTORY_VP, "famous_victory", side=winner)


def naval_sortie(state: State, attacker: str) -> Event:
    """6.1.1: a naval battle won by its attacker (a successful fleet sortie, A8): +/-1 VP."""
    return add_vp(state, SIGN[attacker] * NAVAL_SORTIE_VP, "naval_sortie", side=attacker)


def winter_london(state: State, london: str, applies: bool = True) -> list[Event]:
    """6.1.1 (19.0 step C): in Winter Quarters the Alliance loses 2 VP while the Bourbons hold
    London (the scenario may switch the penalty off, A26)."""
    if not applies or controller(state, london) != BOURBON:
        return []
    return [add_vp(state, -LONDON_WINTER_VP, "london", space=london)]

