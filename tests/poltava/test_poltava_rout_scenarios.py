"""Part 9 rout (R10.1, R10.2), Part 10 Cossacks/Camp (GN), Part 11 scenario 1, Part 12 scenario 2."""

from hexwar.scenarios.loader import find_scenario, load_scenario

from poltava_helpers import H, O, Script, U, events, game, path, to_phase
from hexwar.engine import Game

DIVS = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("sw3", "sweden", 99),
        ("ru", "russia", 1), ("ru2", "russia", 99), ("ru3", "russia", 99)]


def test_R10_1_a_division_routs_when_its_rout_box_reaches_the_number():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503", strength=1),
              U("y", "russia", "ru-inf", "0909")], divisions=DIVS)
    to_phase(g, "fire")
    evs = g.apply(O("fire", unit="a", target="z"), Script(6))
    assert events(evs, "division-routs")
    assert not g.state.units["y"].alive and "ru" in g.state.vars["routed"]
    assert not g.over


def test_R10_2_an_army_routs_when_one_division_is_left_and_the_game_ends():
    divs = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 1), ("ru2", "russia", 99)]
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503", strength=1)], divisions=divs)
    to_phase(g, "fire")
    evs = g.apply(O("fire", unit="a", target="z"), Script(6))
    assert g.over and g.state.result["winner"] == "sweden"
    assert events(evs, "game-over")


def test_R3_turns_end_and_the_russians_win_after_turn_12():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0909")], rules={"first_turn": 12})
    seen = []
    while not g.over:
        seen.append((g.state.active, g.state.phase))
        g.apply(O("end-phase"))
    assert seen == [("sweden", "move"), ("sweden", "fire"), ("sweden", "melee"),
                    ("russia", "move"), ("russia", "fire"), ("russia", "melee")]
    assert g.state.result["winner"] == "russia"


def test_GN_cossacks_change_sides_after_three_losses_and_leave_after_five():
    units = [U(f"c{i}", "russia", "cossack", f"{i:02d}03") for i in range(1, 9)]
    units += [U(f"s{i}", "sweden", "sw-inf", f"{i:02d}05") for i in range(1, 9)]
    g = game(units)
    to_phase(g, "fire")
    for i in (1, 2):
        g.apply(O("fire", unit=f"s{i}", target=f"c{i}"), Script(6))
    assert g.state.units["c5"].side == "russia"
    evs = g.apply(O("fire", unit="s3", target="c3"), Script(6))
    assert events(evs, "cossacks-change-sides")
    assert all(g.state.units[f"c{i}"].side == "sweden" for i in range(4, 9))
    assert g.state.vars["box"].get("ru", 0) == 0        # not a division
    # two more losses (either side counts) and the remaining Cossacks leave the game
    units = [U(f"c{i}", "sweden", "cossack", f"{i:02d}03") for i in range(1, 9)]
    units += [U(f"s{i}", "russia", "ru-inf", f"{i:02d}05") for i in range(1, 9)]
    g2 = game(units, first="russia")
    g2.state.vars.update(cossacks_lost=3, cossacks_changed=True)
    to_phase(g2, "fire")
    g2.apply(O("fire", unit="s4", target="c4"), Script(6))
    assert g2.state.units["c6"].alive
    evs = g2.apply(O("fire", unit="s5", target="c5"), Script(6))
    assert events(evs, "cossacks-leave")
    assert not any(g2.state.units[f"c{i}"].alive for i in range(1, 9))


def test_S1_setup_turn_8_loss_rolls_absent_battalions_rentzel_absent():
    s = load_scenario(find_scenario("poltava-1"))
    g = Game(s)
    assert g.state.turn == 8 and g.state.phase == "setup" and g.to_act() == "sweden"
    assert g.state.vars["box"]["le"] == 8          # the cut-off battalions count (S1 [L353])
    assert not any(u.division == "rc" for u in g.state.units.values())
    assert [str(o) for o in g.legal_orders()] == ["setup"]
    g.apply(O("setup"), Script(2, 1, 1, 1))
    p = g.state.pending[0]
    assert p["side"] == "russia" and p["kind"] == "setup-loss" and p["count"] == 2
    g.apply(O("lose", unit="tver-dr"))
    assert "cannot" in g.validate(O("lose", unit="tver-dr"))   # only full-strength counters
    g.apply(O("lose", unit="azov-dr"))
    assert g.state.pending[0]["side"] == "sweden"
    while g.state.pending:
        g.apply(next(iter(g.legal_orders())))
    reduced = [u.id for u in g.state.units.values() if u.max_strength == 2 and 0 < u.strength < 2]
    assert len(reduced) == 5


def test_S1_the_redoubt_line_is_closed():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0909")],
             rules={"scenario": 1, "redoubt_line_row": 2, "setup_loss_divisions": []},
             hexsides=[("redoubt_line", [("0502", "0503")])])
    g.apply(O("setup"), Script())
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is None
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503"))) is not None


def test_S2_swedes_must_enter_on_turn_1_and_only_menshikov_and_rentzel_move_before_turn_5():
    s = load_scenario(find_scenario("poltava-2"))
    g = Game(s)
    assert g.state.turn == 1 and g.to_act() == "sweden"
    assert "enter" in g.validate(O("end-phase"))
    o = next(o for o in g.legal_orders() if o.kind == "enter")
    g.apply(o)
    assert g.state.units[o["unit"]].alive
    # Russians: a Golitsyn regiment may not move before turn 5, Menshikov's dragoons may
    g2 = game([U("inf", "russia", "ru-inf", "0301", division="ru"), U("dr", "russia", "ru-drag", "0601", division="mn"),
               U("z", "sweden", "sw-inf", "0910")], first="russia", rules={"first_turn": 1},
              divisions=[("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 99), ("mn", "russia", 99)])
    assert "turn 5" in g2.validate(O("move", unit="inf", path=path(g2, "0302")))
    assert g2.validate(O("move", unit="dr", path=path(g2, "0602"))) is None


REDOUBT_ROWS = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4


def test_S2_2_6_passing_through_a_redoubt_rolls_and_a_six_sends_the_unit_to_roos():
    g = game([U("a", "sweden", "sw-inf", "0507"), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0101")], rows=REDOUBT_ROWS)
    mv = O("move", unit="a", path=path(g, "0506", "0505"))
    assert g.needs_dice(mv)
    assert g.validate(O("move", unit="a", path=path(g, "0506"))) is not None   # may not end there
    g.apply(mv, Script(3))
    assert g.state.units["a"].hex == g.map.parse("0505")
    g = game([U("a", "sweden", "sw-inf", "0507"), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0101")], rows=REDOUBT_ROWS)
    evs = g.apply(O("move", unit="a", path=path(g, "0506", "0505")), Script(6))
    a = g.state.units["a"]
    assert a.strength == 1 and a.hex == g.map.parse("0507") and a.division == "roos"
    assert events(evs, "joins-roos-column") and g.state.vars["roos_formed"]


def test_S2_2_3_and_S2_4_storming_captures_on_ex_and_a_starred_result_feeds_the_roos_column():
    g = game([U("a", "sweden", "sw-inf", "0507", stats={"cs": 8, "stars": 0}),
              U("b", "sweden", "sw-inf", "0606", stats={"cs": 8, "stars": 0}),
              U("r", "russia", "redoubt", "0506"), U("z", "russia", "ru-inf", "0101")], rows=REDOUBT_ROWS)
    to_phase(g, "melee")
    o = O("attack", units=["a", "b"], hexes=[H(g, "0506")])
    g.odds(o)
    assert g.odds(o)["column"] == "+2-3" and g.odds(o)["drm"] == -1
    g.apply(o, Script(3))       # 16 vs 6 = +7, -2 shifts: "+2-3"; die 3-1=2: EX*
    assert g.state.pending[0]["kind"] == "loss"
    g.apply(O("lose", unit="a"))
    r = g.state.units["r"]
    assert r.side == "sweden"                                  # captured (any step loss)
    while g.state.pending:
        p = g.state.pending[0]
        if p["kind"] == "roos":
            g.apply(O("roos", unit="b"))
        else:
            g.apply(next(iter(g.legal_orders())))
    assert g.state.units["b"].division == "roos"


def test_S2_2_4_a_swede_in_a_captured_redoubt_defends_with_cs_6_and_the_redoubt():
    g = game([U("a", "sweden", "sw-inf", "0909", strength=1), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0505", stats={"cs": 4})], rows=REDOUBT_ROWS, first="russia")
    g.state.units["r"].side = "sweden"      # captured earlier, then occupied
    g.state.units["a"].hex = g.map.parse("0506")
    to_phase(g, "melee")
    o = g.odds(O("attack", units=["z"], hexes=[H(g, "0506")]))
    assert o["defender_cs"] == 6 and o["drm"] == -1 and o["column"] == "-7"  # -2 then 2 shifts left


def test_S2_2_5_regarrisoning_costs_a_step_and_flips_the_marker():
    g = game([U("z", "russia", "ru-inf", "0505"), U("r", "russia", "redoubt", "0506"),
              U("a", "sweden", "sw-inf", "0909")], rows=REDOUBT_ROWS, first="russia")
    g.state.units["r"].side = "sweden"
    o = O("regarrison", unit="z", redoubt="r")
    assert g.validate(o) is None
    g.apply(o)
    assert g.state.units["r"].side == "russia" and g.state.units["z"].strength == 1


def test_S2_5_rentzel_exchange_from_turn_6_removes_roos_and_counts_for_no_rout_box():
    divs = [("le", "sweden", 99), ("cr", "sweden", 99), ("ha", "sweden", 99),
            ("rc", "russia", 99), ("ru", "russia", 99), ("ru2", "russia", 99)]
    units = [U("a", "sweden", "sw-inf", "0510", division="le"), U("b", "sweden", "sw-inf", "0610", division="le"),
             U("r1", "russia", "ru-inf", "0101", division="rc"), U("r2", "russia", "ru-drag", "0201", division="rc"),
             U("z", "russia", "ru-inf", "0301", division="ru")]
    g = game(units, divisions=divs, first="russia", rules={"first_turn": 5})
    g.state.units["a"].division = "roos"
    g.state.vars["roos_formed"] = True
    assert "turn 6" in g.validate(O("exchange"))
    g = game(units, divisions=divs, first="russia", rules={"first_turn": 6})
    g.state.units["a"].division = "roos"
    g.state.vars["roos_formed"] = True
    g.apply(O("exchange"))
    p = g.state.pending[0]
    assert p["kind"] == "exchange-loss" and p["count"] == 2
    g.apply(O("lose", unit="r1"))
    g.apply(O("lose", unit="r1"))
    assert not g.state.units["a"].alive and g.state.vars["roos_destroyed"]
    assert not g.state.units["r1"].alive and g.state.vars["box"].get("rc", 0) == 0


def test_S2_victory_draw_while_the_roos_column_stands():
    divs = [("le", "sweden", 1), ("cr", "sweden", 99), ("ha", "sweden", 99),
            ("ru", "russia", 99), ("ru2", "russia", 99), ("ru3", "russia", 99)]
    units = [U("a", "sweden", "sw-inf", "0503", division="le", strength=1),
             U("b", "sweden", "sw-inf", "0808", division="le"),
             U("z", "russia", "ru-inf", "0501", division="ru")]
    g = game(units, divisions=divs, first="russia",
             victory={"russia_divisions": ["ru", "ru2", "ru3"], "sweden_divisions": ["le", "cr", "ha"]})
    g.state.units["b"].division = "roos"
    g.state.vars["roos_formed"] = True
    g.state.vars["routed"] = ["cr", "ha"]
    to_phase(g, "fire")
    g.apply(O("fire", unit="z", target="a"), Script(6))
    assert g.over and g.state.result["winner"] is None and "Roos" in g.state.result["reason"]


def test_S2_1_ordre_de_bataille_must_be_formed_before_entering_musket_range():
    units = [U("a", "sweden", "sw-inf", "0508", stats={"odb": 1}), U("b", "sweden", "sw-inf", "0708", stats={"odb": 2}),
             U("z", "russia", "ru-inf", "0502")]
    g = game(units, rules={"redoubt_line_row": 10})
    assert g.validate(O("move", unit="a", path=path(g, "0507", "0506", "0505"))) is None
    assert "may not enter 0504" in g.validate(O("move", unit="a", path=path(g, "0507", "0506", "0505", "0504")))
    # form the line: b next to a, in OdB order along one hex direction
    g.apply(O("move", unit="b", path=path(g, "0608")))
    assert g.state.vars["odb"].get("sweden")
    assert g.validate(O("move", unit="a", path=path(g, "0507", "0506", "0505", "0504"))) is None


def test_S2_6_no_ordre_de_bataille_south_of_the_redoubt_line():
    units = [U("a", "sweden", "sw-inf", "0508", stats={"odb": 1}), U("b", "sweden", "sw-inf", "0708", stats={"odb": 2}),
             U("z", "russia", "ru-inf", "0502")]
    g = game(units, rules={"redoubt_line_row": 5})
    g.apply(O("move", unit="b", path=path(g, "0608")))
    assert not g.state.vars["odb"].get("sweden")


def test_S2_1_2_the_line_runs_from_the_right_flank_in_an_allowed_direction():
    units = [U("a", "sweden", "sw-inf", "0508", stats={"odb": 1}), U("b", "sweden", "sw-inf", "0610", stats={"odb": 2}),
             U("z", "russia", "ru-inf", "0902")]
    g = game(units, rules={"redoubt_line_row": 10, "odb_directions_sweden": [2]})
    g.apply(O("move", unit="b", path=path(g, "0609", "0608")))           # b south-east of a: not allowed
    assert not g.state.vars["odb"].get("sweden")
    g = game(units, rules={"redoubt_line_row": 10, "odb_directions_sweden": [2]})
    g.apply(O("move", unit="b", path=path(g, "0609", "0608", "0607", "0507")))  # b north of a: formed
    assert g.state.vars["odb"].get("sweden")


def test_A37_russians_held_back_before_turn_5_still_fire():
    g = game([U("inf", "russia", "ru-inf", "0501", division="ru"), U("z", "sweden", "sw-inf", "0503")],
             first="russia", rules={"first_turn": 1})
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="inf", target="z")) is None


def test_R10_1_status_lines_show_each_division_rout_box_against_its_number():
    from hexwar.scenarios.loader import find_scenario, load_scenario
    from hexwar.engine import Game
    g = Game(load_scenario(find_scenario("poltava-1")))
    sweden = g.status_lines("sweden")
    divisions = [d for d in g.scenario.divisions if d.side == "sweden"]
    assert len(sweden) == len(divisions)
    lew = next(line for line in sweden if line.startswith(next(d.name for d in divisions if d.id == "le")))
    assert "rout box 8/" in lew          # the eight battalions cut off with Roos (S1)
    assert all("ROUTED" not in line for line in sweden)
    assert g.status_lines("russia") and g.status_lines("nobody") == []


def test_A38_a_waiting_column_reaches_from_its_entry_hex_where_its_enter_orders_end():
    """The entry hex costs nothing and the counter moves on with its full MA (A38): the preview
    of where it can get is exactly the set of ends of its legal ``enter`` orders, each route
    starting in the entry hex."""
    g = Game(load_scenario(find_scenario("poltava-2")))
    enters = [o for o in g.legal_orders() if o.kind == "enter"]
    uid = enters[0]["unit"]
    mine = [o for o in enters if o["unit"] == uid]
    reach = g.reachable(uid)
    assert set(reach) == {tuple(o["path"][-1]) for o in mine}
    start = tuple(mine[0]["path"][0])
    assert reach[start].cost == 0
    assert all(tuple(r.path[0]) == start for r in reach.values())
