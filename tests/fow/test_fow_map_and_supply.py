"""Campaign map (2.8, G-01, G-12), supply types and income (3.3, G-49), supply line (10, G-47),
weather (9), commanders (3.2, G-16), encirclement and surrender (18, G-38)."""

from hexwar.engine.rulesets.fow import campaign as K
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow import geo
from hexwar.scenarios.loader import load_scenario, find_scenario

from fow_helpers import O, Script, game, kinds, start


def test_s2_8_point_numbers_and_neighbours_follow_the_odd_q_layout():
    # point = (r-1)*6 + c; row 1 is 01-06, column 1 is 01, 07, ..., 31
    assert geo.point_of(1, 1) == 1 and geo.point_of(6, 6) == 36 and geo.point_of(1, 6) == 31
    # odd column c=3, r=3 (point 15): N (3,2)=9, S (3,4)=21, NE (4,2)=10, SE (4,3)=16,
    # NW (2,2)=8, SW (2,3)=14
    assert sorted(n for _, n in geo.neighbours(15)) == sorted([9, 21, 10, 16, 8, 14])
    # even column c=4, r=3 (point 16): N 10, S 22, NE (5,3)=17, SE (5,4)=23, NW (3,3)=15, SW (3,4)=21
    assert sorted(n for _, n in geo.neighbours(16)) == sorted([10, 22, 17, 23, 15, 21])
    # a corner has only its on-map neighbours: point 01 touches 02 (SE), 07 (S)
    assert sorted(n for _, n in geo.neighbours(1)) == [2, 7]


def _spec_distance(a, b):
    """Spec 2.8 written out: x = q, z = (r-1) - (q - (q&1))/2, y = -x-z (q = c-1)."""
    def cube(p):
        c, r = geo.col_row(p)
        q = c - 1
        x, z = q, (r - 1) - (q - (q & 1)) // 2
        return x, -x - z, z
    (ax, ay, az), (bx, by, bz) = cube(a), cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def test_s2_8_distance_is_the_cube_distance():
    # 01 (q=0: x=0, z=0) to 36 (q=5: x=5, z=5-2=3, y=-8): distance 8
    assert geo.distance(1, 36) == 8
    assert all(geo.distance(a, b) == _spec_distance(a, b) for a in geo.POINTS for b in geo.POINTS)
    assert geo.distance(15, 16) == 1 and geo.distance(15, 17) == 2 and geo.distance(1, 31) == 5


def test_s2_8_a_river_is_crossed_only_at_a_crossing_and_fords_refuse_tanks():
    s = load_scenario(find_scenario("bir-hakeim"))
    cm = geo.campaign_map(s)
    bridges: dict = {}
    # 0304 (point 21) has no crossing: entering from the south bank (from 27) and leaving north
    # (to 15) is refused; moving along the river to 0404 (22) is not a crossing
    ok, bank = cm.step(27, None, 21, bridges, True)
    assert ok and bank is not None
    assert cm.step(21, bank, 15, bridges, True)[0] is False
    ok_along, bank22 = cm.step(21, bank, 22, bridges, True)
    assert ok_along and bank22 is not None
    # 0404 (22) is a road bridge: its north side is open to everyone while the bridge stands
    assert cm.step(22, bank22, 16, bridges, False)[0] is True
    assert cm.step(22, bank22, 16, {"22": "destroyed"}, True)[0] is False
    # 0204 (20) is a ford: infantry may cross, tanks and armoured cars may not (13, G-06)
    _, b20 = cm.step(26, None, 20, bridges, True)
    north_of_20 = 14
    assert cm.step(20, b20, north_of_20, bridges, True)[0] is True
    assert cm.step(20, b20, north_of_20, bridges, False)[0] is False


def test_s2_8_the_railway_bridge_and_objectives_follow_g02():
    s = load_scenario(find_scenario("bir-hakeim"))
    cm = geo.campaign_map(s)
    assert cm.crossing[23] == "rail_bridge"  # 0504: railway meets the river
    assert {3, 12, 25, 23} <= set(cm.objectives)  # towns, the rail bridge, the listed box


def test_s3_2_g16_commander_counts():
    assert F.commander_count("professional", 600) == 6
    assert F.commander_count("good", 500) == 3
    assert F.commander_count("poor", 500) == 2
    assert F.commander_count("professional", 1200) == 6  # at most 6 (3.2)
    assert F.commander_count("poor", 150) == 1  # at least 1


def test_g16_first_commander_is_plus_2_and_the_others_roll_the_staff_table():
    g = game([("gb", "north", 2, ["gb-grant", "gb-grant", "gb-grant", "gb-grant"]),
              ("de", "south", 32, ["de-pz3", "de-pz3", "de-pz4"])])
    # Britain 320 FP -> 2 commanders (1 roll); Germany 235 FP -> 2 commanders (1 roll)
    start(g, ratings=(3, 3))
    r = {k: c["rating"] for k, c in g.state.vars["commanders"].items()}
    # good staff: 1-3 gives +0; professional: 3-6 gives +1
    assert r == {"north-hq1": 2, "north-hq2": 0, "south-hq1": 2, "south-hq2": 1}


def test_s3_3_income_per_supply_type():
    assert [F.income("modern", d) for d in (1, 2, 3, 6)] == [3, 3, 3, 6]
    assert [F.income("organised", d) for d in (1, 4, 6)] == [1, 4, 6]
    assert [F.income("poorly_organised", d) for d in (1, 3, 6)] == [1, 3, 3]
    assert [F.income("partisan", d) for d in (2, 5)] == [2, 3]


def test_s3_3_g49_starting_rp_with_the_desert_step_down_in_bir_hakeim():
    assert F.supply_type("britain", True) == "organised"
    assert F.supply_type("germany-rommel", True) == "poorly_organised"
    assert F.supply_type("germany", True) == "partisan"
    assert F.supply_type("britain", False) == "modern"
    g = game([("gb", "north", 2, ["gb-rifles"])] + [("de", "south", 32, ["de-pz3"])])
    s = load_scenario(find_scenario("bir-hakeim"))
    from hexwar.engine import Game
    st = Game(s).state
    assert st.sides["german"]["rp"] == 12 and st.sides["british"]["rp"] == 15  # G-49 worked numbers
    assert g.state.sides["north"]["rp"] == 45 * 3 // 100


def test_s3_3_income_is_rolled_in_step_2_by_supply_type():
    g = game([("gb", "north", 2, ["gb-rifles"]), ("de", "south", 32, ["de-pz3"])],
             rules="desert_penalty = false")
    assert g.state.sides["north"]["supply"] == "modern"
    before = dict((s, g.state.sides[s]["rp"]) for s in ("north", "south"))
    ev = start(g, income=(1, 6), weather=2)
    got = {e["side"]: e["rp"] for e in kinds(ev, "income")}
    assert got == {"north": 3, "south": 6}  # modern: at least 3; organised: the die
    assert g.state.sides["north"]["rp"] == before["north"] + 3


def test_s9_weather_is_bad_on_a_6():
    g = game([("gb", "north", 2, ["gb-rifles"]), ("de", "south", 32, ["de-pz3"])])
    start(g, weather=6)
    assert g.state.vars["weather"] == "bad"
    g = game([("gb", "north", 2, ["gb-rifles"]), ("de", "south", 32, ["de-pz3"])])
    start(g, weather=5)
    assert g.state.vars["weather"] == "good"


def test_s10_g47_supply_line_counts_road_steps_as_half():
    # a company in row 5 is 4 points from row 1: cost 1 (own point) + 4 steps = 5 > 4 -> out of
    # supply; along a road the same line costs 1 + 4 x 1/2 = 3 -> in supply
    comp = [("gb", "north", geo.point_of(1, 5), ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])]
    g = game(comp)
    assert not K.in_supply(g.scenario, g.state, "north", geo.point_of(1, 5))
    g = game(comp, roads='[["0105", "0104", "0103", "0102", "0101"]]')
    assert K.in_supply(g.scenario, g.state, "north", geo.point_of(1, 5))
    # 4 points exactly: a company in row 4 (cost 1 + 3) is in supply without a road
    g = game([("gb", "north", geo.point_of(1, 4), ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])])
    assert K.in_supply(g.scenario, g.state, "north", geo.point_of(1, 4))


def test_s10_g47_a_railway_to_the_own_edge_supplies_and_enemy_points_block():
    rail = 'railway = ["0101", "0102", "0103", "0104", "0105", "0106"]'
    far = geo.point_of(2, 6)  # row 6, next to the railway in column 1
    g = game([("gb", "north", far, ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])], rules=rail)
    assert K.in_supply(g.scenario, g.state, "north", far)
    # an enemy company on the railway cuts it there
    g = game([("gb", "north", far, ["gb-rifles"]), ("de", "south", geo.point_of(1, 3), ["de-pz3"])],
             rules=rail)
    assert not K.in_supply(g.scenario, g.state, "north", far)


def test_s18_encirclement_needs_enemies_on_opposite_sides_and_no_friend_adjacent():
    centre = 15  # (3,3): N 9, S 21
    g = game([("gb", "north", centre, ["gb-rifles"]), ("de1", "south", 9, ["de-pz3"]),
              ("de2", "south", 21, ["de-pz3"])])
    assert K.encircled_points(g.state, "north") == [centre]
    # NE (10) and SE (16) are not opposite: not encircled
    g = game([("gb", "north", centre, ["gb-rifles"]), ("de1", "south", 10, ["de-pz3"]),
              ("de2", "south", 16, ["de-pz3"])])
    assert K.encircled_points(g.state, "north") == []
    # a friendly company next to it cancels the encirclement
    g = game([("gb", "north", centre, ["gb-rifles"]), ("gb2", "north", 14, ["gb-rifles"]),
              ("de1", "south", 9, ["de-pz3"]), ("de2", "south", 21, ["de-pz3"])])
    assert K.encircled_points(g.state, "north") == []


def _encircled_game(extra=(), rules=""):
    # commanders go to the largest companies: the encircled company gets none unless it is big
    comp = [("big", "north", 1, ["gb-grant", "gb-grant", "gb-grant"]),
            ("gb", "north", 15, ["gb-rifles"]), ("de1", "south", 9, ["de-pz3"]),
            ("de2", "south", 21, ["de-pz3"])] + list(extra)
    return game(comp, rules=rules)


def test_s18_surrender_on_1_or_2_minus_2_without_a_commander():
    g = _encircled_game()
    assert F.best_rating(g.state, "north", 15) is None
    # surrender die 3, -2 for no commander = 1 -> surrenders
    ev = g.apply(O("start"), Script(*([1] * (len(g.state.vars["commanders"]) - 2)), 3, 3, 3, 1))
    assert kinds(ev, "surrendered") and "gb" not in F.live(g.state, "north")
    g = _encircled_game()
    ev = g.apply(O("start"), Script(*([1] * (len(g.state.vars["commanders"]) - 2)), 5, 3, 3, 1))
    assert kinds(ev, "holds-out") and g.state.vars["forced"]["north"] == [15]


def test_s18_g39_ss_sas_add_1():
    g = _encircled_game(rules='elite_companies = ["gb"]')
    # 4 - 2 (no commander) + 1 (SAS) = 3: holds out, where without the tag it would surrender
    ev = g.apply(O("start"), Script(*([1] * (len(g.state.vars["commanders"]) - 2)), 4, 3, 3, 1))
    assert kinds(ev, "holds-out")


def test_s18_a_plus_2_commander_never_surrenders():
    g = game([("gb", "north", 15, ["gb-rifles"]), ("de1", "south", 9, ["de-pz3"]),
              ("de2", "south", 21, ["de-pz3"])])
    assert F.best_rating(g.state, "north", 15) == 0  # rated at start: the first is +2
    ev = g.apply(O("start"), Script(3, 3, 1))  # no surrender roll at all: income, income, weather
    assert kinds(ev, "no-surrender") and "gb" in F.live(g.state, "north")
