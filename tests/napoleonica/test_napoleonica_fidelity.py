"""Issue 35, Napoleonica items 1-9: positions built from the spec's text (../shared/rules/
napoleonica.md), each test named after the rule it checks."""

from hexwar.engine import Game, Order
from hexwar.engine.dice import Dice
from hexwar.engine.rulesets.napoleonica import actors as AC
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.scenarios.loader import find_scenario, load_scenario

from napo_helpers import NORTH, SOUTH, Script, game, hx, play, unit


def _dice(n):
    return Dice(seed=bytes([n]) * 32)


# --- item 1: the end-phase order holds the rest of one's pieces for this phase only (9.2) ----

def test_s9_2_ending_the_movement_phase_holds_only_this_phase():
    g = Game(load_scenario(find_scenario("napoleonica-brigade")))
    g.apply(Order.make("end-phase"), _dice(1))
    ended: dict[int, set[str]] = {}
    seen_movement: dict[int, set[str]] = {}
    n = 0
    while not g.over and g.state.turn <= 3 and n < 500:
        n += 1
        st = g.state
        if st.phase == "movement":
            side = g.to_act()
            seen_movement.setdefault(st.turn, set()).add(side)
            if side not in ended.setdefault(st.turn, set()):
                # a human ends the phase at once: the rest of the pieces hold
                ended[st.turn].add(side)
                g.apply(Order.make("end-phase"), _dice(n))
                continue
        orders = list(g.legal_orders())
        end = [o for o in orders if o.kind == "end-phase"]
        g.apply(end[0] if end else next(o for o in orders if o.kind != "resign"), _dice(n))
    # every turn both sides had a Movement phase to act in, ended it, and got the next one
    assert seen_movement.get(1) == {"france", "austria"}
    assert seen_movement.get(2) == {"france", "austria"}
    assert seen_movement.get(3) == {"france", "austria"}
