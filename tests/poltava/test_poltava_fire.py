"""Part 7: fire (R6), line of sight (R7), canister (R9.4.1), redoubt fire (S2-2.3)."""

from poltava_helpers import O, Script, U, events, game, to_phase


def fire_game(units, **kw):
    g = game(units, **kw)
    to_phase(g, "fire")
    return g


def test_R6_4_fire_five_hits_on_five_and_six():
    for die, hit in ((4, False), (5, True), (6, True)):
        g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503")])
        o = O("fire", unit="a", target="z")
        from fractions import Fraction
        assert g.odds(o)["hit_each"] == Fraction(2, 6)
        evs = g.apply(o, Script(die))
        assert bool(events(evs, "hit")) is hit
        assert g.state.units["z"].strength == (1 if hit else 2)


def test_R6_5_a_reduced_unit_hit_is_eliminated_into_its_rout_box():
    g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503", strength=1)])
    g.apply(O("fire", unit="a", target="z"), Script(6))
    assert not g.state.units["z"].alive
    assert g.state.vars["box"]["ru"] == 1


def test_R6_reduced_side_fires_worse():
    g = fire_game([U("a", "sweden", "sw-inf", "0501", strength=1), U("z", "russia", "ru-inf", "0503")])
    evs = g.apply(O("fire", unit="a", target="z"), Script(5))
    assert not events(evs, "hit")


def test_R6_2_ranges_infantry_two_artillery_five():
    g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0504")])
    assert "range" in g.validate(O("fire", unit="a", target="z"))
    g = game([U("art", "russia", "art", "0501"), U("z", "sweden", "sw-inf", "0506"),
              U("y", "sweden", "sw-inf", "0507", division="sw2")], first="russia")
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="art", target="z")) is None
    assert "range" in g.validate(O("fire", unit="art", target="y"))


def test_R6_1_no_fire_at_enemies_in_own_zoc():
    g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("b", "sweden", "sw-inf", "0504"),
                   U("z", "russia", "ru-inf", "0503", division="ru")])
    assert "ZOC" in g.validate(O("fire", unit="a", target="z"))
    assert "ZOC" in g.validate(O("fire", unit="b", target="z"))


def test_R6_1_1_a_firer_in_a_settlement_may_fire_at_an_adjacent_enemy():
    rows = ["." * 10] * 3 + ["....V....."] + ["." * 10] * 6
    g = fire_game([U("b", "sweden", "sw-inf", "0504"), U("z", "russia", "ru-inf", "0503")], rows=rows)
    assert g.validate(O("fire", unit="b", target="z")) is None


def test_R9_4_1_canister_two_shots_at_an_adjacent_enemy_redoubts_none():
    g = game([U("art", "russia", "art", "0501"), U("z", "sweden", "sw-inf", "0502")], first="russia")
    to_phase(g, "fire")
    evs = g.apply(O("fire", unit="art", target="z"), Script(4, 4))
    assert len(events(evs, "die-roll")) == 2 and len(events(evs, "hit")) == 2
    assert not g.state.units["z"].alive
    rows = ["." * 10] * 3 + ["....R....."] + ["." * 10] * 6
    g = game([U("r", "russia", "redoubt", "0504"), U("z", "sweden", "sw-inf", "0503")], first="russia", rows=rows)
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="r", target="z")) is None   # S2-2.3: no ZOC into a redoubt
    evs = g.apply(O("fire", unit="r", target="z"), Script(5))
    assert len(events(evs, "die-roll")) == 1


def test_S2_2_3_redoubts_fire_at_range_two_only_in_the_russian_phase():
    rows = ["." * 10] * 3 + ["....R....."] + ["." * 10] * 6
    g = game([U("r", "russia", "redoubt", "0504"), U("z", "sweden", "sw-inf", "0506"),
              U("y", "sweden", "sw-inf", "0807")], first="russia", rows=rows)
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="r", target="z")) is None
    assert g.validate(O("fire", unit="r", target="y")) is not None


def test_R7_line_of_sight_blocked_by_woods_hill_settlement():
    for t in "WhV":
        rows = ["." * 10, "." * 10, f"....{t}.....", *["." * 10] * 7]
        g = fire_game([U("a", "sweden", "sw-inf", "0502"), U("z", "russia", "ru-inf", "0504")], rows=rows)
        assert "line of sight" in g.validate(O("fire", unit="a", target="z")), t


def test_R6_3_no_firing_through_units_except_elevated_artillery():
    g = fire_game([U("a", "sweden", "sw-inf", "0502"), U("m", "sweden", "sw-cav", "0503", division="sw2"),
                   U("z", "russia", "ru-inf", "0504")])
    assert g.validate(O("fire", unit="a", target="z")) is not None
    rows = [".........."] + ["....h....."] + ["." * 10] * 8
    g = game([U("art", "russia", "art", "0502"), U("m", "russia", "ru-inf", "0503"),
              U("z", "sweden", "sw-inf", "0505")], first="russia", rows=rows)
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="art", target="z")) is None
    g = game([U("art", "russia", "art", "0502"), U("m", "russia", "ru-inf", "0503"),
              U("z", "sweden", "sw-inf", "0505")], first="russia")
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="art", target="z")) is not None


def test_R6_only_units_with_a_fire_value_and_never_at_redoubts():
    g = fire_game([U("c", "sweden", "sw-cav", "0501"), U("z", "russia", "ru-inf", "0503")])
    assert g.validate(O("fire", unit="c", target="z")) is not None
    rows = ["." * 10] * 2 + ["....R....."] + ["." * 10] * 7
    g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("r", "russia", "redoubt", "0503")], rows=rows)
    assert g.validate(O("fire", unit="a", target="r")) is not None
    # and each unit fires once
    g = fire_game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503")])
    g.apply(O("fire", unit="a", target="z"), Script(1))
    assert "already" in g.validate(O("fire", unit="a", target="z"))


def test_R7_line_of_sight_blocked_by_redoubts_and_the_retrenchment():
    rows = ["." * 10, "." * 10, "....R.....", *["." * 10] * 7]
    g = fire_game([U("a", "sweden", "sw-inf", "0502"), U("z", "russia", "ru-inf", "0504")], rows=rows)
    assert "line of sight" in g.validate(O("fire", unit="a", target="z"))
    g = game([U("art", "russia", "art", "0501"), U("z", "sweden", "sw-inf", "0504")], first="russia",
             hexsides=[("retrenchment", [("0502", "0503")])])
    to_phase(g, "fire")
    assert "line of sight" in g.validate(O("fire", unit="art", target="z"))
    # a retrenchment hexside of the firer's own hex does not block
    g = game([U("art", "russia", "art", "0502"), U("z", "sweden", "sw-inf", "0504")], first="russia",
             hexsides=[("retrenchment", [("0502", "0503")])])
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="art", target="z")) is None
