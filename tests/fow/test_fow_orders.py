"""Postures and orders (11, 14, G-18, G-20, G-55), the plan's costs and caps (8, 16, 21, G-19,
G-31, G-48), movement limits (13, 14.1, G-22..G-24, G-63), execution order (14.3), initiative
(6, G-18), bridges (21) and the Bir Hakeim victory (25.5, G-51)."""

from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow import plans as P

from fow_helpers import O, Script, game, kinds, plans, start, to_plans


def parse(g, side, plan):
    return P.parse(g, side, plan)


def test_s11_1_postures_by_role_and_their_orders():
    g = game([("gb", "north", 3, ["gb-rifles"]), ("de", "south", 33, ["de-pz3"])])
    start(g)
    assert parse(g, "north", [["posture", "decisive"]])[1] is None
    assert "strategic initiative" in parse(g, "north", [["posture", "counter_attacks"]])[1]
    assert parse(g, "south", [["posture", "counter_attacks"]])[1] is None
    assert "defending" in parse(g, "south", [["posture", "breakthrough"]])[1]
    assert P.POSTURES["cautious"] == ("rif", "maneuver", "disengage", "reserve")
    assert P.POSTURES["withdrawal"] == ("maneuver", "disengage", "reserve")


def test_s11_3_only_a_plus_2_commander_chooses_any_order():
    g = game([("gb", "north", 3, ["gb-grant", "gb-grant", "gb-grant", "gb-grant"]),
              ("gb2", "north", 4, ["gb-rifles"]), ("de", "south", 33, ["de-pz3"])])
    start(g, ratings=(1,))
    # north-hq1 is +2 (G-16), north-hq2 is +0: prepared defence is not a Decisive-offensive order
    ok = [["posture", "decisive"], ["order", "north-hq1", "prepared_defence", "gb"]]
    assert parse(g, "north", ok)[1] is None
    hq2_point = g.state.vars["commanders"]["north-hq2"]["point"]
    cid = F.at(g.state, hq2_point, "north")[0]
    bad = [["posture", "decisive"], ["order", "north-hq2", "prepared_defence", cid]]
    assert "only a +2" in parse(g, "north", bad)[1]


def test_g18_the_si_side_owes_a_mandatory_order_after_contact():
    g = game([("gb", "north", 15, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    start(g)
    assert g.state.vars["contact"]
    why = parse(g, "north", [["posture", "cautious"], ["order", "north-hq1", "reserve", "gb"]])[1]
    assert "mandatory rif" in why
    assert parse(g, "north", [["posture", "cautious"], ["order", "north-hq1", "rif", "gb"]])[1] is None
    # the defender owes nothing
    assert parse(g, "south", [["posture", "hard_defence"]])[1] is None


def test_g18_waived_until_contact():
    g = game([("gb", "north", 3, ["gb-rifles"]), ("de", "south", 33, ["de-pz3"])])
    start(g)
    assert not g.state.vars["contact"]
    assert parse(g, "north", [["posture", "cautious"]])[1] is None


def test_s8_1_costs_of_support_assets_and_bridges():
    g = game([("gb", "north", 15, ["gb-25pdr", "gb-rifles"]), ("de", "south", 27, ["de-pz3"])],
             air=[("north", "gb-kittyhawk"), ("north", "gb-hurricane")])
    start(g)
    g.state.sides["north"]["rp"] = 40
    plan = [["posture", "cautious"], ["artillery", "prep", "gb", 27], ["air", "raid", "air1", 27],
            ["air", "superiority", "air2", 27]]
    parsed, why = parse(g, "north", plan)
    assert why is None and parsed["cost"] == 6 + 3 + 1  # 16.3 and 16.2
    heavy = [["posture", "cautious"], ["artillery", "heavy", "gb", 27]]
    assert parse(g, "north", heavy)[0]["cost"] == 10
    direct = [["posture", "cautious"], ["artillery", "direct", "gb"]]
    assert parse(g, "north", direct)[0]["cost"] == 4  # 1 RP per gun: four 25 pdr teams
    # superiority is for fighters only; range 72" reaches two points (G-31)
    assert "fighters" in parse(g, "north", [["posture", "cautious"], ["air", "superiority", "air1", 27]])[1]


def test_g31_artillery_needs_two_models_and_the_range():
    g = game([("gb", "north", 15, ["gb-mortar", "gb-rifles"]), ("de", "south", 27, ["de-pz3"])])
    start(g)
    assert "two artillery" in parse(g, "north", [["posture", "cautious"], ["artillery", "prep", "gb", 27]])[1]
    g = game([("gb", "north", 9, ["gb-6pdr"]), ("de", "south", 27, ["de-pz3"])])
    start(g)
    # 6 pdr range 24" < 72" needed for a point 3 away (and it is beyond 2 points anyway)
    assert "range" in parse(g, "north", [["posture", "cautious"], ["artillery", "prep", "gb", 27]])[1]


def test_s8_g48_an_encircled_group_spends_at_most_2_rp():
    g = game([("gb", "north", 15, ["gb-25pdr"]), ("de1", "south", 9, ["de-pz3"]),
              ("de2", "south", 21, ["de-pz3"])])
    g.apply(O("start"), Script(3, 3, 1))  # +2 commander: no surrender roll
    assert g.state.vars["encircled"]["north"] == [15]
    g.state.sides["north"]["rp"] = 30
    why = parse(g, "north", [["posture", "cautious"], ["order", "north-hq1", "rif", "gb"],
                             ["artillery", "prep", "gb", 21]])[1]
    assert "at most 2 RP" in why


def test_s9_no_air_in_bad_weather_and_breakthrough_becomes_attack():
    g = game([("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])],
             air=[("north", "gb-kittyhawk")])
    start(g, weather=6)
    assert "bad weather" in parse(g, "north", [["posture", "breakthrough"], ["air", "raid", "air1", 21]])[1]
    ev = plans(g, [["posture", "breakthrough"], ["order", "north-hq1", "breakthrough", "gb"]],
               [["posture", "hard_defence"]])
    assert kinds(ev, "order-converted")[0]["to"] == "attack"
    assert g.state.vars["orders"]["north"]["north-hq1"]["order"] == "attack"


def _execute(companies, north, south, **kw):
    g = game(companies, **kw)
    start(g)
    plans(g, north, south)
    return g


def test_s14_1_maneuver_two_points_for_infantry_four_for_tanks():
    g = _execute([("gb", "north", 1, ["gb-rifles"]), ("tk", "north", 6, ["gb-grant", "gb-grant"]),
                  ("de", "south", 34, ["de-pz3"])],
                 [["posture", "cautious"], ["order", "north-hq1", "maneuver", "tk"]],
                 [["posture", "hard_defence"]])
    # tanks (the bigger company gets the commander): 4 points, never next to the enemy (34)
    assert g.validate(O("act", actor="north-hq1", path=[12, 18, 24, 30])) is None
    assert "at most 4" in g.validate(O("act", actor="north-hq1", path=[12, 18, 24, 30, 29]))
    # the commanderless infantry group gets Disengage under Cautious offensive (11.4), 2 points
    assert "g01" in g.state.vars["exec"]["queue"]["north"]
    assert g.validate(O("act", actor="g01", path=[7, 13])) is None
    assert g.validate(O("act", actor="g01", path=[7, 13, 19])) is not None


def test_s14_1_g23_a_maneuver_never_starts_or_ends_next_to_the_enemy():
    g = _execute([("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 27, ["de-pz3"])],
                 [["posture", "cautious"], ["order", "north-hq1", "maneuver", "gb"]],
                 [["posture", "hard_defence"]])
    assert "next to the enemy" in g.validate(O("act", actor="north-hq1", path=[21]))
    assert g.validate(O("act", actor="north-hq1", path=[9])) is None


def test_s14_1_an_attack_into_the_second_point_exhausts():
    g = _execute([("gb", "north", 9, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])],
                 [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]],
                 [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]])
    assert g.validate(O("act", actor="north-hq1", path=[15, 21])) is None
    g.apply(O("act", actor="north-hq1", path=[15, 21]), Script())
    assert g.state.vars["battle"]["tired"] == ["gb"]


def test_s14_3_defender_reacts_once_after_an_action_without_battle():
    g = _execute([("gb", "north", 1, ["gb-grant", "gb-grant"]), ("de", "south", 36, ["de-pz3", "de-pz3"])],
                 [["posture", "cautious"], ["order", "north-hq1", "maneuver", "gb"]],
                 [["posture", "withdrawal"], ["order", "south-hq1", "maneuver", "de"]])
    assert g.to_act() == "north"
    g.apply(O("act", actor="north-hq1", path=[7]), Script())
    assert g.to_act() == "south" and g.state.vars["exec"]["mode"] == "react"
    assert g.validate(O("pass")) is None
    g.apply(O("act", actor="south-hq1", path=[30]), Script())
    # nobody has anything left: the turn ends and the next begins at step 1
    assert g.state.turn == 2 and g.state.phase == "initiative"


def test_s6_a_failed_mandatory_order_passes_the_initiative():
    g = _execute([("gb", "north", 15, ["gb-rifles"]), ("de", "south", 21, ["de-pz3", "de-pz3"])],
                 [["posture", "cautious"], ["order", "north-hq1", "rif", "gb"]],
                 [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]])
    ev = g.apply(O("act", actor="north-hq1", path=[]), Script())  # the group does not execute it
    assert kinds(ev, "mandatory-order-failed")
    assert kinds(ev, "initiative-lost")[0]["to"] == "south"
    assert g.state.vars["si"] == "south" and g.to_act() == "south"


def test_s6_b_the_si_player_may_hand_over_the_initiative():
    g = _execute([("gb", "north", 1, ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])],
                 [["posture", "cautious"]], [["posture", "hard_defence"]])
    assert g.state.phase == "initiative" and g.to_act() == "north"
    g.apply(O("hand-initiative"), Script(3, 3, 1))
    assert g.state.vars["si"] == "south" and g.state.phase == "command" and g.to_act() == "south"


def test_s12_commander_moves_three_points_and_never_through_the_enemy():
    g = game([("gb", "north", 1, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    start(g)
    assert g.validate(O("move-commander", commander="north-hq1", path=[7, 13, 19], companies=[])) is None
    assert "at most 3" in g.validate(O("move-commander", commander="north-hq1", path=[7, 13, 19, 25], companies=[]))
    # G-22: the group moving with him keeps to its Maneuver allowance (infantry: 2)
    assert "Maneuver allowance" in g.validate(O("move-commander", commander="north-hq1",
                                                path=[7, 13, 19], companies=["gb"]))
    assert g.validate(O("move-commander", commander="north-hq1", path=[7, 13], companies=["gb"])) is None
    g = game([("gb", "north", 15, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    start(g)
    assert "enemy" in g.validate(O("move-commander", commander="north-hq1", path=[21, 27], companies=[]))


def test_s21_blowing_a_railway_bridge_caps_the_destroyer_at_a_draw():
    rules = ('railway = ["0301", "0302", "0303", "0304", "0305", "0306"]\n'
             'rivers = [["0104", "0204", "0304", "0404", "0504", "0604"]]')
    g = game([("gb", "north", 21, ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])], rules=rules,
             victory=['type = "meeting"', "companies_percent = 50"])
    start(g)
    g.state.sides["north"]["rp"] = 10
    parsed, why = parse(g, "north", [["posture", "cautious"], ["bridge", "blow", 21]])
    assert why is None and parsed["cost"] == 2  # a railway bridge costs 2 RP (21)
    plans(g, [["posture", "cautious"], ["bridge", "blow", 21]], [["posture", "hard_defence"]])
    assert g.state.vars["bridges"]["21"] == "destroyed" and g.state.sides["north"]["rail_blown"]
    assert "cannot be restored" in parse(g, "north", [["posture", "cautious"], ["bridge", "repair", 21]])[1]
    # north wins by destroying the enemy's companies, but its win is capped to a draw
    from hexwar.engine.rulesets.fow import campaign as K
    from hexwar.engine.ruleset import Resolution
    ctx = Resolution(g, g.state, Script())
    K.finish(ctx, "north", "test")
    assert g.state.result["winner"] is None and "draw" in g.state.result["reason"]


def test_s25_5_g51_exit_only_across_the_enemy_edge_and_250_fp_wins():
    g = _execute([("gb", "north", 36, ["gb-rifles"]), ("de", "south", 3, ["de-pz3", "de-pz3", "de-pz4"]),
                  ("de2", "south", 4, ["de-pz3"])],
                 [["posture", "cautious"]],
                 [["posture", "counter_attacks"], ["order", "south-hq1", "maneuver", "de"]],
                 si="north", victory=['type = "exit"', 'side = "south"', "fp = 230"])
    assert g.to_act() == "south"  # north's only group has no order to carry out
    assert g.validate(O("act", actor="south-hq1", path=[9, 0])) is not None  # 09 is not on row 1
    ev = g.apply(O("act", actor="south-hq1", path=[0]), Script())
    assert kinds(ev, "exited")[0]["fp"] == [235, 1]
    assert g.state.result["winner"] == "south"


def test_g25_a_winning_reconnaissance_may_stay_on_the_turn_of_first_contact():
    g = _execute([("gb", "north", 9, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])],
                 [["posture", "cautious"]], [["posture", "hard_defence"]])
    # turn 2: contact has not been made (09 and 21 are two apart); north moves next to the enemy
    # with its commander in step 3 (G-22: no adjacency limit), then reconnoitres
    g.apply(O("keep-initiative"), Script(3, 3, 1))
    g.apply(O("move-commander", commander="north-hq1", path=[15], companies=["gb"]), Script())
    assert g.state.vars["contact_turn"] == 2
    plans(g, [["posture", "cautious"], ["order", "north-hq1", "rif", "gb"]], [["posture", "hard_defence"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    # 160 x 6/5 = 192 against 45 x 6/5 = 54: R > 3, +4; 2D6 = 2 + 2 -> 8 wins. The loser loses
    # half its 6 teams (3), the winner 0.05 x 6 = 0.3 -> 0; commander survives (5)
    g.apply(O("withdraw", choice=False), Script(2, 2, 5))
    g.apply(O("retreat", company="de", path=[27]), Script(6))
    assert g.state.pending[0]["kind"] == "stay"
    g.apply(O("stay", choice=True), Script())
    assert F.companies(g.state)["gb"]["point"] == 21


def test_g43_a_trophy_costs_1_rp_and_joins_with_one_team():
    g = game([("gb", "north", 3, ["gb-rifles"]), ("de", "south", 33, ["de-pz3"])])
    start(g)
    F.companies(g.state)["gb"]["trophies"].append("de-pz3")
    parsed, why = parse(g, "north", [["posture", "cautious"], ["trophy", "gb", "de-pz3"]])
    assert why is None and parsed["cost"] == 1
    assert "no 'de-pz4'" in parse(g, "north", [["posture", "cautious"], ["trophy", "gb", "de-pz4"]])[1]
    rp = g.state.sides["north"]["rp"]
    plans(g, [["posture", "cautious"], ["trophy", "gb", "de-pz3"]], [["posture", "hard_defence"]])
    u = g.state.units["north-trophy1"]
    assert (u.strength, u.max_strength, u.division, u.side) == (1, 4, "gb", "north")
    assert g.state.sides["north"]["rp"] == rp - 1


def test_g21_the_plus_2_group_may_intercept_after_a_battle():
    comps = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("gb2", "north", 3, ["gb-rifles", "gb-rifles"]),
             ("de", "south", 21, ["de-schutzen"]), ("de2", "south", 36, ["de-pz3", "de-pz4", "de-pz3"])]
    g = game(comps)
    start(g, ratings=(1,))
    cmd = g.state.vars["commanders"]
    assert (cmd["south-hq1"]["point"], cmd["south-hq1"]["rating"]) == (36, 2)  # with de2
    assert (cmd["south-hq2"]["point"], cmd["south-hq2"]["rating"]) == (21, 0)  # with de
    plans(g, [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]],
          [["posture", "counter_attacks"], ["order", "south-hq2", "reserve", "de"],
           ["order", "south-hq1", "maneuver", "de2"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    # 192 against 45: +4; 2 + 2 + 4 = 8 wins; loser loses 3 of 6 teams; its commander rolls 5
    g.apply(O("withdraw", choice=False), Script(2, 2, 5))
    g.apply(O("retreat", company="de", path=[27]), Script(6))
    # after a battle there is no ordinary reaction, but the +2 group may act out of turn (G-21)
    assert g.state.vars["exec"]["mode"] == "intercept" and g.to_act() == "south"
    assert g.validate(O("pass")) is None
    assert g.validate(O("act", actor="south-hq1", path=[30])) is None
    ev = g.apply(O("act", actor="south-hq1", path=[30]), Script())
    assert kinds(ev, "interception")[0]["actor"] == "south-hq1"
    assert g.state.turn == 2  # nobody had anything left to do


def test_g24_disengage_moves_away_from_the_enemy_and_toward_the_own_edge():
    # north's commanderless group next to the enemy: Disengage under Cautious offensive (11.4)
    g = _execute([("big", "north", 6, ["gb-grant", "gb-grant", "gb-grant"]), ("gb", "north", 15, ["gb-rifles"]),
                  ("de", "south", 21, ["de-pz3"])],
                 [["posture", "cautious"]], [["posture", "hard_defence"]])
    assert "g15" in g.state.vars["exec"]["queue"]["north"]
    assert g.validate(O("act", actor="g15", path=[9, 3])) is None  # straight back to row 1
    assert "next to the enemy" in g.validate(O("act", actor="g15", path=[14]))  # 14 touches 21
    assert "toward the own edge" in g.validate(O("act", actor="g15", path=[10, 17]))  # 17: back to row 3
    assert "at most 2" in g.validate(O("act", actor="g15", path=[9, 3, 2]))


def test_s14_3_6_an_attack_cancels_the_orders_of_the_attacked_point():
    g = _execute([("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-pz3"])],
                 [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]],
                 [["posture", "counter_attacks"], ["order", "south-hq1", "attack", "de"]])
    ev = g.apply(O("act", actor="north-hq1", path=[21]), Script())
    assert kinds(ev, "order-cancelled")[0]["actor"] == "south-hq1"
    assert "south-hq1" not in g.state.vars["exec"]["queue"]["south"]


def test_s17_6_a_group_that_fought_may_not_attack_again():
    g = _execute([("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-pz3"]),
                  ("de2", "south", 36, ["de-pz3", "de-pz3"])],
                 [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]],
                 [["posture", "hard_defence"]])
    F.companies(g.state)["gb"]["fought"] = 1
    assert "fought this turn" in g.validate(O("act", actor="north-hq1", path=[21]))


def test_g38_an_encircled_group_that_holds_out_must_disengage():
    comps = [("big", "north", 6, ["gb-grant", "gb-grant", "gb-grant"]), ("gb", "north", 15, ["gb-rifles"]),
             ("de1", "south", 9, ["de-pz3"]), ("de2", "south", 21, ["de-pz3"])]
    g = game(comps)
    g.apply(O("start"), Script(*([1] * (len(g.state.vars["commanders"]) - 2)), 6, 3, 3, 1))
    assert g.state.vars["forced"]["north"] == [15]
    # its commanderless group disengages whatever the posture (Decisive offensive gives it nothing)
    plans(g, [["posture", "decisive"]], [["posture", "hard_defence"]])
    assert g.state.vars["orders"]["north"]["g15"]["order"] == "disengage"
    # encircled: one point only (14.1, 18); 16 touches neither enemy and is no farther from row 1
    assert "only 1 point" in g.validate(O("act", actor="g15", path=[16, 10]))
