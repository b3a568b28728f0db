"""Part 2.6 stacking, Part 4 movement (R4.1-R4.8), Part 5 zones of control (R5.1-R5.3), GN."""

from poltava_helpers import O, U, game, path

STREAM = [("stream", [("0503", "0504")])]


def test_R4_3_1_example_two_open_hexes_a_stream_and_an_open_hex_cost_four():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "1010")], hexsides=STREAM)
    r = g.reachable("a")
    assert r[g.map.parse("0504")].cost == 4
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504"))) is None
    g3 = game([U("a", "sweden", "sw-inf", "0501", stats={"ma": 3}), U("z", "russia", "ru-inf", "1010")],
              hexsides=STREAM)
    assert g3.validate(O("move", unit="a", path=path(g3, "0502", "0503", "0504"))) is not None


def test_R4_2_no_more_mp_than_the_allowance():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0910")])
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504", "0505"))) is None
    assert "movement points" in g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504", "0505", "0506")))


def test_R4_4_woods_and_enemy_hexes_may_not_be_entered():
    rows = ["." * 10, "....W.....", *["." * 10] * 8]
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0810")], rows=rows)
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is not None
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0502")])
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is not None


def test_GN_nobody_leaves_the_field():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0810")])
    assert g.validate(O("move", unit="a", path=[(4, -3)])) is not None


def test_R4_5_pass_through_friends_but_stop_only_with_artillery():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("b", "sweden", "sw-inf", "0502"),
              U("c", "sweden", "sw-cav", "0503", division="sw2"), U("z", "russia", "ru-inf", "1010")])
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504"))) is None
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is not None
    g = game([U("a", "russia", "ru-inf", "0501"), U("art", "russia", "art", "0502"),
              U("z", "sweden", "sw-inf", "1010")], first="russia")
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is None


def test_R9_4_4_artillery_does_not_move():
    g = game([U("art", "russia", "art", "0502"), U("z", "sweden", "sw-inf", "1010")], first="russia")
    assert "artillery" in g.validate(O("move", unit="art", path=path(g, "0503")))
    assert g.reachable("art") == {}


def test_R4_6_entering_an_enemy_zoc_stops_the_unit():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0505")])
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504"))) is None
    g = game([U("a", "sweden", "sw-cav", "0501"), U("z", "russia", "ru-inf", "0505")])
    # 0504 is adjacent to 0505: a move through it must end there
    bad = O("move", unit="a", path=path(g, "0502", "0503", "0504", "0404"))
    assert "ZOC" in (g.validate(bad) or "")


def test_R4_7_road_movement_doubles_and_must_stay_on_the_road():
    road = [[f"02{r:02d}" for r in range(1, 21)]]
    units = [U("a", "sweden", "sw-inf", "0201"), U("z", "russia", "ru-inf", "0320")]
    g = game(units, width=3, height=20, rows=["..."] * 20, roads=road)
    eight = path(g, *[f"02{r:02d}" for r in range(2, 10)])
    assert g.validate(O("move", unit="a", path=eight, mode="road")) is None
    nine = path(g, *[f"02{r:02d}" for r in range(2, 11)])
    assert g.validate(O("move", unit="a", path=nine, mode="road")) is not None
    off = path(g, "0202", "0303")
    assert g.validate(O("move", unit="a", path=off, mode="road")) is not None
    assert g.validate(O("move", unit="a", path=path(g, "0202", "0203", "0204", "0205", "0206"), mode="normal")) is not None


def test_R4_8_long_movement_doubles_and_long_road_movement_quadruples():
    road = [[f"02{r:02d}" for r in range(1, 31)]]
    units = [U("a", "sweden", "sw-inf", "0201"), U("z", "russia", "ru-inf", "0130")]
    g = game(units, width=3, height=30, rows=["..."] * 30, roads=road)
    eight = path(g, *[f"03{r:02d}" for r in range(1, 9)])
    assert g.validate(O("move", unit="a", path=eight, mode="long")) is None
    sixteen = path(g, *[f"02{r:02d}" for r in range(2, 18)])
    assert g.validate(O("move", unit="a", path=sixteen, mode="longroad")) is None
    seventeen = path(g, *[f"02{r:02d}" for r in range(2, 19)])
    assert g.validate(O("move", unit="a", path=seventeen, mode="longroad")) is not None


def test_R4_8_long_movement_needs_three_hexes_from_every_enemy():
    units = [U("a", "sweden", "sw-inf", "0201"), U("z", "russia", "ru-inf", "0209")]
    g = game(units, width=3, height=12, rows=["..."] * 12)
    # 0206 is 3 from the enemy (fine), 0207 only 2
    assert g.validate(O("move", unit="a", path=path(g, *[f"02{r:02d}" for r in range(2, 7)]), mode="long")) is None
    assert g.validate(O("move", unit="a", path=path(g, *[f"02{r:02d}" for r in range(2, 8)]), mode="long")) is not None


def test_R5_3_a_unit_in_enemy_zoc_may_not_move():
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")])
    assert "ZOC" in g.validate(O("move", unit="a", path=path(g, "0504")))


def test_R5_1_no_zoc_into_settlements():
    rows = ["." * 10] * 4 + ["....V....."] + ["." * 10] * 5
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")], rows=rows)
    assert g.validate(O("move", unit="a", path=path(g, "0504"))) is None


def test_R5_1_no_zoc_across_the_retrenchment():
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")],
             hexsides=[("retrenchment", [("0505", "0506")])])
    assert g.validate(O("move", unit="a", path=path(g, "0504"))) is None


def test_A4_artillery_exerts_no_zoc():
    g = game([U("a", "sweden", "sw-inf", "0505"), U("art", "russia", "art", "0506")])
    assert g.validate(O("move", unit="a", path=path(g, "0504"))) is None


def test_R9_1_cavalry_cannot_cross_the_retrenchment():
    g = game([U("a", "sweden", "sw-cav", "0505"), U("z", "russia", "ru-inf", "1010")],
             hexsides=[("retrenchment", [("0505", "0506")])])
    assert g.validate(O("move", unit="a", path=path(g, "0506"))) is not None
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "1010")],
             hexsides=[("retrenchment", [("0505", "0506")])])
    assert g.validate(O("move", unit="a", path=path(g, "0506"))) is None
    assert g.reachable("a")[g.map.parse("0506")].cost == 2


def test_GN_cossacks_may_not_enter_an_enemy_zoc_on_their_own():
    g = game([U("c", "russia", "cossack", "0501"), U("z", "sweden", "sw-inf", "0505")], first="russia")
    assert g.validate(O("move", unit="c", path=path(g, "0502", "0503"))) is None
    assert g.validate(O("move", unit="c", path=path(g, "0502", "0503", "0504"))) is not None


def test_GN_camp_troops_may_not_leave_the_camp():
    rows = ["CCC......."] * 10
    g = game([U("k", "russia", "ru-inf", "0205", division="lg"), U("z", "sweden", "sw-inf", "1010")],
             rows=rows, first="russia", divisions=[("sw", "sweden", 99), ("sw2", "sweden", 99),
                                                   ("ru", "russia", 99), ("lg", "russia", 99), ("ru2", "russia", 99)])
    assert g.validate(O("move", unit="k", path=path(g, "0305"))) is None
    assert g.validate(O("move", unit="k", path=path(g, "0305", "0405"))) is not None


def test_R2_1_1_one_combat_unit_per_hex():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("b", "sweden", "sw-inf", "0503"),
              U("z", "russia", "ru-inf", "1010")])
    assert g.validate(O("move", unit="a", path=path(g, "0502", "0503"))) is not None


def test_A8_an_impassable_river_hexside_stops_movement_and_zoc():
    sides = [("impassable", [("0505", "0506")])]
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")], hexsides=sides)
    assert g.validate(O("move", unit="a", path=path(g, "0504"))) is None        # no ZOC across it
    g = game([U("a", "sweden", "sw-inf", "0504"), U("z", "russia", "ru-inf", "1010")], hexsides=sides)
    assert g.validate(O("move", unit="a", path=path(g, "0505", "0506"))) is not None


def test_R5_never_directly_from_one_enemy_zoc_into_another():
    # a sits in z's ZOC; 0604 is in y's ZOC: the move is refused (and any move out, R5.3)
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506"),
              U("y", "russia", "ru-inf", "0703")])
    assert g.validate(O("move", unit="a", path=path(g, "0604"))) is not None


def test_R5_zoc_hexes_for_display_follow_the_exceptions():
    rows = ["." * 10] * 4 + ["....V....."] + ["." * 10] * 5
    g = game([U("a", "sweden", "sw-inf", "0909"), U("z", "russia", "ru-inf", "0506"),
              U("art", "russia", "art", "0202")], rows=rows,
             hexsides=[("retrenchment", [("0506", "0606")])])
    zoc = {g.map.label(h) for h in g.zoc_hexes("sweden")}
    around = {g.map.label(n) for _, n in g.map.neighbors(g.map.parse("0506"))}
    assert "0505" not in zoc            # the settlement north of z is not in its ZOC (R5.1)
    assert "0606" not in zoc            # nor the hex across the retrenchment
    assert zoc == around - {"0505", "0606"}   # and artillery at 0202 exerts none (A4)
    assert g.zoc_hexes("russia") == sorted(g.zoc_hexes("russia"))
    assert {g.map.label(h) for h in g.zoc_hexes("russia")} == {
        g.map.label(n) for _, n in g.map.neighbors(g.map.parse("0909"))}
