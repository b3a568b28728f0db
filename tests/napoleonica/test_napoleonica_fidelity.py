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


# --- item 2: sight from the middle of the front; own stands never block (21.6, 21.7, 22.2) ----

def test_s21_6_sight_from_middle_of_front():
    # a line of four facing 12 o'clock, left end 0308 = (-1, 7): its stands are (-1..2, 7). An
    # enemy stand two hexes straight ahead of its right-end stand (2, 7) + NW + NE = (3, 5) = 0606
    # is in its frontal zone and in sight from the middle of its front (nothing else on the table)
    from hexwar.engine.rulesets.napoleonica import attack as A
    from hexwar.engine.rulesets.napoleonica import fire as F
    from hexwar.engine.hexgrid import Hex
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0308", formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex="0606", formation="line", strength=1)],
             phase="attack")
    b, r = unit(g, "b"), unit(g, "r")
    assert B.stand_hexes(b) == (Hex(-1, 7), Hex(0, 7), Hex(1, 7), Hex(2, 7)) and r.hex == Hex(3, 5)
    view = B.View(g.state)
    assert A.target_problem(g.map, view, b, r) is None
    assert [o for o in g.legal_orders() if o.kind == "attack" and o["unit"] == "b" and o["contact"] is not None]
    assert F.target_problem(g.map, view, g.state, b, r) is None


def test_s21_7_a_square_sees_over_its_own_stands():
    # a square of four from pivot 0604 = (4, 3) facing 12: {(4, 3), (3, 4), (4, 4), (3, 5)}. A red
    # stand at (2, 7) = 0608 lies beyond the square's rear stand (3, 5), 2 hexes from it; the
    # square's own stands never block its sight (21.7, 22.2), so it may fire
    from hexwar.engine.rulesets.napoleonica import fire as F
    from hexwar.engine.hexgrid import Hex
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0604", formation="square"),
              dict(id="r", side="red", kind="INF_LINE", hex="0608", formation="line", strength=1)],
             phase="fire")
    b, r = unit(g, "b"), unit(g, "r")
    assert set(B.stand_hexes(b)) == {Hex(4, 3), Hex(3, 4), Hex(4, 4), Hex(3, 5)} and r.hex == Hex(2, 7)
    assert F.target_problem(g.map, B.View(g.state), g.state, b, r) is None
    assert [o for o in g.legal_orders() if o.kind == "fire" and o["unit"] == "b"]


def test_s21_7_a_third_unit_still_blocks_sight():
    # the same line; a red stand straight ahead of its middle, with another red stand between:
    # every line from the middle of the front to the far stand passes the near one
    from hexwar.engine.rulesets.napoleonica import attack as A
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0308", formation="line", strength=1),
              dict(id="r", side="red", kind="INF_LINE", hex="0304", formation="line", strength=1),
              dict(id="s", side="red", kind="INF_LINE", hex="0306", formation="line", strength=1)],
             phase="attack")
    b, r = unit(g, "b"), unit(g, "r")
    assert "cannot see" in A.target_problem(g.map, B.View(g.state), b, r)


# --- item 4: line fire counts only the stands within range (22.2) ---------------------------

def test_s22_2_line_fire_counts_only_stands_in_range():
    # the line of four at (-1..2, 7) facing 12; a red stand three hexes straight ahead of its right
    # end: (3, 4) = 0605. Its stands are 3, 3, 3 and 4 hexes from it: the left-end stand is out of
    # musket range (long range 3), so S = 3 and the long-range score is 2 x 3 = 6
    from hexwar.engine.rulesets.napoleonica import fire as F
    from hexwar.engine.hexgrid import Hex
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0308", formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line", strength=1)],
             phase="fire")
    b, r = unit(g, "b"), unit(g, "r")
    assert r.hex == Hex(3, 4)
    assert [B.near((s,), (r.hex,)) for s in B.stand_hexes(b)] == [4, 3, 3, 3]
    assert F.score(g.map, b, r, g.state)[0] == 6
    events = play(g, "fire", unit="b", target=tuple(r.hex), dice=[7])
    fired = [e for e in events if e["t"] == "fired"][0]
    assert fired["need"] == 6 and fired["hit"] is False
