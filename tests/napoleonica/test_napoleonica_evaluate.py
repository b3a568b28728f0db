"""The strong computer's view of a Napoleonica position (evaluate.py): what is left of each army,
how near it is to breaking and the points it would score (22.10), and which units stand where an
enemy could charge their flank or rear (7.3, 7.5, 21.6)."""

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
    the target's zone the attacker's front middle stands in (7.5). Blue faces 12 o'clock; a red
    unit right beside it to the east, facing it, would charge its flank; the same red unit facing
    away could not charge it at all."""
    g = game([dict(BLUE, strength=1), RED2])     # one stand each: the zones of 21.6 around one hex
    b = unit(g, "b")
    assert b.facing == NORTH
    r = unit(g, "r2")
    r.hex = hex_neighbor(b.hex, 0)            # east of blue: blue's right flank
    r.facing = 3                              # 8 o'clock: toward blue
    assert E.exposure(g, View(g.state), "blue") == E.FLANK
    facing_blue = E.evaluate(g, "blue")
    r.facing = 0                              # 2 o'clock: away from blue
    assert E.exposure(g, View(g.state), "blue") == 0
    assert E.evaluate(g, "blue") > facing_blue
    r.hex = hex_neighbor(b.hex, 4)            # behind blue (south-west), facing it
    r.facing = 1
    assert E.exposure(g, View(g.state), "blue") == E.REAR
