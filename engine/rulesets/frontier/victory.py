"""Frontier victory (3.9 [PROP], G-F15) and the scenario objective of 3.10.

Without an objective: the game ends at the end of a turn in which either side has lost at least
half its starting units (the Commander counts as one), or after the last turn; the side that lost
the larger fraction loses, equal fractions draw. With ``[victory] objective = "<map label>"`` and
``side = "<side>"``: that side wins by occupying the labelled cell at the end of any turn up to the
last; otherwise (turn limit reached, or that side has no units left) the other side wins.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine.scenario import Scenario
from hexwar.engine.state import State


def side_name(scenario: Scenario, side: str) -> str:
    try:
        return scenario.side(side).name
    except StopIteration:
        return side


def check(scenario: Scenario, state: State) -> dict[str, Any] | None:
    """The result at the end of the current turn, or None if play goes on."""
    last = state.turn >= scenario.turns
    objective = scenario.victory.get("objective")
    if objective:
        taker = scenario.victory["side"]
        other = state.enemy_of(taker)
        cell = scenario.map.labels[objective]
        holder = next((u for u in state.units.values() if u.alive and u.hex == cell), None)
        if holder is not None and holder.side == taker:
            return {"winner": taker, "reason": f"{side_name(scenario, taker)} occupy {objective} "
                                               f"at the end of turn {state.turn}"}
        if not state.side_units(taker):
            return {"winner": other, "reason": f"{side_name(scenario, taker)} have no units left "
                                               f"to take {objective}"}
        if last:
            return {"winner": other, "reason": f"{side_name(scenario, other)} still hold {objective} "
                                               f"after turn {state.turn}"}
        return None
    fractions = {}
    for s in state.side_order:
        start = max(1, int(state.sides[s]["start_units"]))
        fractions[s] = (int(state.sides[s]["lost"]), start)
    broken = [s for s in state.side_order if 2 * fractions[s][0] >= fractions[s][1]]
    if not broken and not last:
        return None
    a, b = state.side_order
    la, sa = fractions[a]
    lb, sb = fractions[b]
    why = "half its units lost" if broken else f"turn limit ({scenario.turns}) reached"
    if la * sb > lb * sa:
        return {"winner": b, "reason": f"{why}: {side_name(scenario, a)} lost {la}/{sa}, "
                                       f"{side_name(scenario, b)} lost {lb}/{sb}"}
    if lb * sa > la * sb:
        return {"winner": a, "reason": f"{why}: {side_name(scenario, b)} lost {lb}/{sb}, "
                                       f"{side_name(scenario, a)} lost {la}/{sa}"}
    return {"winner": None, "reason": f"{why}: equal losses ({la}/{sa} and {lb}/{sb}), a draw"}
