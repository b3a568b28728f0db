"""The strong computer's view of a Napoleonica position (evaluate.py): what is left of each army,
how near it is to breaking and the points it would score (22.10), and which units stand where an
enemy could charge their flank or rear (7.3, 7.5, 21.6)."""

import os
import subprocess
import sys
from fractions import Fraction

from hexwar.engine.hexgrid import hex_neighbor
from hexwar.engine.rulesets.napoleonica import evaluate as E
from hexwar.engine.rulesets.napoleonica import turn
from hexwar.engine.rulesets.napoleonica.board import View

from napo_helpers import NORTH, game, unit

BLUE = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="line")
BLUE2 = dict(id="b2", side="blue", kind="INF_LINE", hex="0309", formation="column", strength=1)
RED = dict(id="r", side="red", kind="INF_LINE", hex="0603", formation="line")
RED2 = dict(id="r2", side="red", kind="INF_LINE", hex="0902", formation="column", strength=1)


def test_s22_10_evaluation_is_one_sides_gain_and_the_others_loss():
    g = game([BLUE, BLUE2, RED, RED2])
    assert E.evaluate(g, "blue") == -E.evaluate(g, "red")
    assert g.ruleset.evaluate(g, "blue") == E.evaluate(g, "blue")


def test_s22_10_a_fleeing_unit_is_mostly_lost_and_brings_the_break_one_unit_away():
    """With two combat units a side, the army breaks when one is gone or fleeing (half of two).
    A fleeing unit may still rally, so it keeps a little of its worth, and the enemy already
    counts the 1 point 22.10 gives for it."""
    g = game([BLUE, BLUE2, RED, RED2])
    before = E.evaluate(g, "blue")
    assert E.break_risk(g.state, "blue") == E.BREAK_NEAR[1]   # one more unit gone breaks it
    full = E.strength(g.state, "blue")
    unit(g, "b").marks["state"] = "fleeing"
    unit(g, "b").hex = None
    assert E.strength(g.state, "blue") == full - E.UNIT + E.UNIT * E.STATE_SHARE["fleeing"]
    assert turn.points(g.scenario, g.state, "red") == 1
    assert E.break_risk(g.state, "blue") == E.BREAK_NEAR[0]   # it breaks at the end of the turn
    assert E.evaluate(g, "blue") < before - E.POINT


def test_s22_10_a_lost_stand_counts_its_share_of_the_unit():
    g = game([BLUE, BLUE2, RED, RED2])
    full = E.strength(g.state, "blue")
    b = unit(g, "b")
    b.strength -= 1
    assert E.strength(g.state, "blue") == full - E.UNIT / b.max_strength


def test_s22_10_holding_an_objective_is_worth_its_3_points():
    """The objective is worth 3 points to the side holding it when the game ends (22.10)."""
    held = game([BLUE, BLUE2, RED, RED2], labels={"Farm": "0608"}, victory={"objectives": ["Farm"]})
    free = game([BLUE, BLUE2, RED, RED2], labels={"Farm": "0607"}, victory={"objectives": ["Farm"]})
    assert turn.points(held.scenario, held.state, "blue") == 3
    assert turn.points(free.scenario, free.state, "blue") == 0
    # the placement term also sees the distance to the objective: take it out
    def placed(g):
        return E.PLACEMENT * (E.placement(g, View(g.state), "blue") - E.placement(g, View(g.state), "red"))
    gain = (E.evaluate(held, "blue") - placed(held)) - (E.evaluate(free, "blue") - placed(free))
    assert abs(gain - 3 * E.POINT) <= 1                       # int() rounding of each side


def test_s7_3_s7_5_an_enemy_that_could_charge_a_flank_counts_against_the_unit():
    """An attack needs the target in the attacker's frontal zone (7.3 item 3), and its kind is
    the target's zone the attacker's front middle stands in (7.5), worth +4 in a flank and +6 in
    the rear (22.4). Blue faces 12 o'clock; a red unit right beside it to the east, facing it,
    could charge its flank; the same red unit facing away could not charge it at all; behind it,
    its charge would be a rear one and worth more."""
    g = game([dict(BLUE, strength=1), RED2])     # one stand each: the zones of 21.6 around one hex
    b = unit(g, "b")
    assert b.facing == NORTH
    r = unit(g, "r2")
    r.hex = hex_neighbor(b.hex, 0)            # east of blue: blue's right flank
    r.facing = 3                              # 8 o'clock: toward blue
    flank = E.threats(g, View(g.state), "red")
    assert flank > 0
    facing_blue = E.evaluate(g, "blue")
    r.facing = 0                              # 2 o'clock: away from blue
    assert E.threats(g, View(g.state), "red") == 0
    assert E.evaluate(g, "blue") > facing_blue
    r.hex = hex_neighbor(b.hex, 4)            # behind blue (south-west), facing it
    r.facing = 1
    assert E.threats(g, View(g.state), "red") > flank


def test_s22_4_melee_odds_follow_the_totals_and_the_tie_rule():
    """One d20 a side, equal terms. Of the 400 pairs, a's die is higher in 190, lower in 190,
    equal in 20; a tie goes to the side that did not attack. A margin of 5 or more (a routing
    defeat) comes from the pairs 5..19 apart: 15 + 14 + ... + 1 = 120 each way."""
    a_small, a_big, b_small, b_big = E.melee_odds(1, 0, True, 1, 0, False)
    assert (a_small, a_big) == (Fraction(70, 400), Fraction(120, 400))
    assert (b_small, b_big) == (Fraction(90, 400), Fraction(120, 400))   # ties go to b
    # both attacked: ties are re-rolled, so only the 380 untied pairs count
    assert E.melee_odds(1, 0, True, 1, 0, True) == (Fraction(70, 380), Fraction(120, 380),
                                                     Fraction(70, 380), Fraction(120, 380))


def test_s22_4_a_melee_loser_loses_a_stand_and_is_disordered_flees_or_is_taken():
    g = game([BLUE, BLUE2, RED, RED2])
    b = unit(g, "b")
    assert E.beaten(b, False) == ("disordered", b.strength - 1)
    assert E.beaten(b, True) == ("fleeing", b.strength - 1)
    assert E.beaten(unit(g, "b2"), False) == ("destroyed", 0)          # its last stand
    guns = game([BLUE, RED, dict(id="g", side="blue", kind="ART_MEDIUM", hex="0909", formation="limbered")])
    assert E.beaten(unit(guns, "g"), False)[0] == "captured"                  # guns are taken


def test_s22_4_a_declared_flank_charge_is_weighed_before_the_melee_is_fought():
    """Red has charged blue's line in the flank (+2 attack, +4 flank): the melee is fought only in
    the Melee phase, but blue's position is already worse than with no charge, by the expected
    loss over the exact odds of every outcome."""
    g = game([BLUE, BLUE2, RED, RED2])
    quiet = E.evaluate(g, "blue")
    g.state.vars["contacts"] = [["r", "b", "flank", 0, False, False, False]]
    expected = E.melee_forecast(g, "blue")
    assert expected < E.material(g, "blue", {})
    assert E.evaluate(g, "blue") < quiet


#: plays napoleonica-brigade seed 5 to the end with the searching player on both sides (scope
#: "all", the budget measured in benchmarks/ai_strength.md) and prints the final digest
GAME = """
from hexwar.engine.search import Budget, StrongComputer
from hexwar.match import Match
from hexwar.scenarios.loader import find_scenario, load_scenario
sc = load_scenario(find_scenario("napoleonica-brigade"))
m = Match.new(sc, seed=5)
ps = {s.id: StrongComputer(f"5:{s.id}".encode(), Budget(scope="all", work=20)) for s in sc.sides}
n = 0
while not m.game.over:
    side = m.game.to_act()
    m.play(ps[side].choose(m.game), side)
    n += 1
print(m.game.digest(), n, m.game.state.turn)
"""


def _searched_game(hashseed):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    r = subprocess.run([sys.executable, "-c", GAME], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_searching_napoleonica_player_finishes_and_is_the_same_in_two_processes():
    """With a search budget (scope "all") the strong player plays only legal orders (Match.play
    refuses any other), finishes the brigade scenario, and two processes with different hash
    seeds play the same game to the same digest."""
    a, b = _searched_game(0), _searched_game(4242)
    assert a == b
    assert int(a[1]) > 0 and 1 <= int(a[2]) <= 8
