"""The campaign's evaluation for the strong computer (evaluate.py): it follows the scenario's goal
(25.5's exit, 25.2's companies and edge points) and the FP left (G-P 3's value)."""

from fractions import Fraction

from hexwar.engine.rulesets.fow import ai
from hexwar.engine.rulesets.fow import campaign as K
from hexwar.engine.rulesets.fow import evaluate as E
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow.geo import point_of

from fow_helpers import game

EXIT = ['type = "exit"', 'side = "south"', "fp = 100"]
COMPANIES = [("gb", "north", point_of(1, 2), ["gb-rifles"]), ("de", "south", point_of(4, 6), ["de-pz3"])]


def test_evaluate_is_one_sides_gain_and_the_others_loss():
    g = game(COMPANIES, victory=EXIT)
    assert E.evaluate(g, "north") == -E.evaluate(g, "south")
    assert g.ruleset.evaluate(g, "south") == E.evaluate(g, "south")


def test_s25_5_the_exit_side_values_ground_toward_the_enemy_edge_and_fp_off_the_map():
    g = game(COMPANIES, victory=EXIT)
    before = E.evaluate(g, "south")
    F.move_company(g.state, "de", point_of(4, 3))
    nearer = E.evaluate(g, "south")
    assert nearer > before
    # 80 FP of a 100 FP goal off the map: 3000 x 80/100 = 2400 for the exit, less the route it
    # no longer has (ROUTE x 80/100 x 3/5 from row 3: 4 points to cross) and the material
    K.add_exited(g.state, "south", Fraction(80))
    F.remove_company(g.state, "de")
    assert E.view(g, "south") == 2400 + E.RP * g.state.sides["south"]["rp"]
    assert E.evaluate(g, "south") > nearer


def test_gp3_fp_lost_counts_against_its_side():
    g = game(COMPANIES, victory=EXIT)
    before = E.evaluate(g, "north")
    g.state.units["gb-1"].strength -= 2  # 2 of 7 rifle teams: 2/7 of its 45 FP
    assert E.view(g, "north") == E.MATERIAL * Fraction(45 * 5, 7) / 45 + E.RP * g.state.sides["north"]["rp"]
    assert E.evaluate(g, "north") < before


def test_s25_2_meeting_values_enemy_companies_destroyed_and_enemy_edge_points_held():
    comps = COMPANIES + [("de2", "south", point_of(5, 6), ["de-schutzen"])]
    g = game(comps)  # victory: meeting, 50 % of companies or 3 edge points
    before = E.evaluate(g, "north")
    F.move_company(g.state, "gb", point_of(1, 6))  # an Axis edge point
    assert E.evaluate(g, "north") - before == E.EDGE
    F.remove_company(g.state, "de2")
    g.state.sides["south"]["lost_companies"] = 1  # 1 of 2: the whole 50 % asked for
    gained = E.evaluate(g, "north") - before
    assert gained >= E.EDGE + E.COMPANIES


def test_s25_5_the_exit_side_counts_its_fp_by_the_exit_weight_not_the_holding_weight():
    """The side that must leave the map wins only by what gets off it (25.5): its FP on the map
    are worth EXIT_MATERIAL (DESIGNED, below MATERIAL), so a costly attack that opens the way is
    not refused for the FP it spends. Its companies still count for the route they have."""
    assert E.EXIT_MATERIAL < E.MATERIAL
    g = game(COMPANIES, victory=EXIT)
    c = F.companies(g.state)["de"]
    fp, start = F.fp(g.state, ["de"]), g.state.sides["south"]["start_fp"]
    near = Fraction(max(0, E.FAR + 1 - ai.exit_steps(g, "south", ["de"], c["point"], c["bank"])), E.FAR)
    before = E.view(g, "south")
    F.remove_company(g.state, "de")
    assert before - E.view(g, "south") == E.EXIT_MATERIAL * Fraction(fp, start) + E.ROUTE * fp * near / 100



def test_s25_2_meeting_values_a_group_one_turn_from_a_free_enemy_edge_point():
    """25.2 is checked at the end of a turn, so a group that can stand on the enemy edge after
    the next step 8 is worth RACE (DESIGNED) to its side: infantry 2 points out (an Attack's two
    points, G-27, or its Maneuver allowance, 14.1) counts; 3 points out does not."""
    comps = COMPANIES + [("de2", "south", point_of(5, 6), ["de-schutzen"])]
    g = game(comps)
    F.move_company(g.state, "gb", point_of(1, 3))
    far = E.evaluate(g, "north")
    assert E.threats(g, "north", set()) == 0
    F.move_company(g.state, "gb", point_of(1, 4))
    assert E.threats(g, "north", set()) == 1
    assert E.evaluate(g, "north") - far == E.RACE


def test_s25_2_a_maneuver_never_passes_next_to_the_enemy_so_it_threatens_nothing_there():
    """G-23: a mechanised group 4 points out reaches the edge by Maneuver only on a route that
    never enters a point next to an enemy; with the enemy across every route it is no threat."""
    g = game([("gb", "north", point_of(3, 2), ["gb-grant"]),
              ("de", "south", point_of(6, 4), ["de-schutzen"])])
    open_route = E.threats(g, "north", set())
    assert open_route == 1
    blockers = [("de%d" % c, "south", point_of(c, 4), ["de-schutzen"]) for c in range(1, 7)]
    g = game([("gb", "north", point_of(3, 2), ["gb-grant"])] + blockers)
    assert E.threats(g, "north", set()) == 0


def _south_to_act_in_a_race():
    """Step 8, the south (SI) group to move; a northern Grant 4 points from the south edge
    (its Maneuver allowance, 14.1) on an open route."""
    from fow_helpers import hq, plans, start
    g = game([("gb", "north", point_of(3, 2), ["gb-grant"]), ("de", "south", point_of(6, 6), ["de-schutzen"])],
             si="south")
    start(g)
    plans(g, [["posture", "hard_defence"]], [["posture", "decisive"], ["order", hq(g, "south"), "maneuver", "de"]])
    assert g.state.phase == "execute" and g.to_act() == "south"
    return g


def test_s25_2_g23_a_move_that_stops_an_enemy_race_joins_the_strong_candidates():
    """A group next to ours may not Maneuver (G-23), so a move that leaves the enemy no way to
    the edge next turn is raised by BLOCK for each group it stops; other moves keep basic's score."""
    g = _south_to_act_in_a_race()
    assert E.threats(g, "north", set()) == 1
    scored = list(ai.candidates(g.ruleset, g))
    raised = {o["path"]: b - a for (a, o), (b, _) in zip(scored, E.blocking_orders(g, scored))}
    assert raised[(35, 28)] == E.BLOCK
    assert raised[(30,)] == 0 and raised[()] == 0
    # the rules' view: after that move the Grant has no Maneuver route to the edge within 4
    trial = g.copy()
    trial.apply(next(o for _, o in scored if o["path"] == (35, 28)))
    assert E.threats(trial, "north", set()) == 0
    assert [o for _, o in g.ruleset.strong_orders(g)] == [o for _, o in scored]


def test_s25_5_blocking_is_weighed_in_meetings_only():
    g = game(COMPANIES, victory=EXIT)
    scored = list(ai.candidates(g.ruleset, g))
    assert E.blocking_orders(g, scored) == scored
