"""Frontier 3.5 movement and the movement parts of 3.7 (roads, rivers, hills)."""

from hexwar.engine import NoDice
from hexwar.engine.hexgrid import hex_distance

from frontier_helpers import C, END, O, game, kinds, n, to_move, unit

FAR = n(C, 0, 4)  # a red unit far away, so the game has two sides


def mv(g, uid, path, facing=0):
    return g.validate(O("move", unit=uid, path=path, facing=facing))


def test_3_5_allowance_is_move_in_half_points():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)]))
    assert mv(g, "b1", [n(C, 3), n(C, 3, 2)]) is None
    assert "movement" in mv(g, "b1", [n(C, 3), n(C, 3, 2), n(C, 3, 3)])
    assert set(g.reachable("b1")) == {h for h in g.map.hexes if 0 < hex_distance(C, h) <= 2}


def test_3_5_2_each_unit_moves_once_per_turn():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)]))
    g.apply(O("move", unit="b1", path=[n(C, 3)], facing=0), NoDice())
    assert "already moved" in mv(g, "b1", [C])
    assert "already moved" in g.validate(O("pivot", unit="b1", facing=2))


def test_3_7_2_road_cells_cost_half():
    road = [n(C, 3, 2), n(C, 3), C, n(C, 0), n(C, 0, 2), n(C, 0, 3)]
    g = to_move(game([("b1", "blue", "EI", road[0], 0), ("r1", "red", "NI", FAR, 3)], roads=[road]))
    assert mv(g, "b1", road[1:5]) is None  # four road cells for two cells of movement
    assert "movement" in mv(g, "b1", road[1:6])


def test_3_7_2_village_counts_as_road():
    cells = [n(C, 3), C, n(C, 0), n(C, 0, 2)]
    g = to_move(game([("b1", "blue", "EI", n(C, 3, 2), 0), ("r1", "red", "NI", FAR, 3)],
                     terrain={h: "V" for h in cells}))
    # first step from clear into the village costs a full cell; then village to village costs half
    assert mv(g, "b1", cells[:3]) is None
    assert "movement" in mv(g, "b1", cells)


def test_3_7_2_leftover_fraction_is_lost_when_leaving_the_road():
    # two roads that do not join: road A step (1/2), hop to road B's cell (leaves road A: the
    # half point is lost, 2 more), then a road B step (1/2) would be 4.5 > 4 half-points... refused
    a0, a1 = n(C, 3), C
    b0 = n(C, 1)
    b1 = n(b0, 0)
    g = to_move(game([("b1", "blue", "EI", a0, 0), ("r1", "red", "NI", FAR, 3)],
                     roads=[[n(a0, 3), a0, a1], [b0, b1]]))
    assert mv(g, "b1", [a1, b0]) is None
    assert "movement" in mv(g, "b1", [a1, b0, b1])


def test_3_7_3_river_cell_costs_two_cells():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)],
                     terrain={n(C, 0): "~", n(C, 0, 2): "~"}))
    assert mv(g, "b1", [n(C, 0)]) is None
    assert "movement" in mv(g, "b1", [n(C, 0), n(C, 0, 2)])
    assert "movement" in mv(g, "b1", [n(C, 1), n(n(C, 1), 5)])  # clear then river: 1 + 2 cells


def test_3_7_3_road_bridge_over_a_river_costs_as_road():
    road = [C, n(C, 0), n(C, 0, 2)]
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)],
                     terrain={n(C, 0): "~"}, roads=[road]))
    assert mv(g, "b1", [n(C, 0), n(C, 0, 2), n(C, 0, 3)]) is None


def test_G_F13_river_hexside_costs_like_a_river_cell():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)],
                     hexsides={"river": [(C, n(C, 0))]}))
    assert mv(g, "b1", [n(C, 0)]) is None
    assert "movement" in mv(g, "b1", [n(C, 0), n(C, 0, 2)])
    assert mv(g, "b1", [n(C, 3), n(C, 3, 2)]) is None


def test_G_F12_minimum_move_into_river():
    g = to_move(game([("bfa", "blue", "FA", C, 0), ("r1", "red", "NI", FAR, 3)], terrain={n(C, 0): "~"}))
    assert mv(g, "bfa", [n(C, 0)]) is None  # field artillery (1 cell) may still enter the river
    assert n(C, 0) in g.reachable("bfa")
    # ... but only as its whole move: it stops there
    assert "must stop" in mv(g, "bfa", [n(C, 0), n(C, 0, 2)])
    assert n(C, 0, 2) not in g.reachable("bfa")
    # and only from a full allowance: infantry that spent a cell may not wade in
    s = n(C, 3, 3)
    g = to_move(game([("b1", "blue", "EI", s, 0), ("r1", "red", "NI", FAR, 3)], terrain={n(n(s, 0), 2): "~"}))
    assert "movement" in mv(g, "b1", [n(s, 0), n(n(s, 0), 2)])
    assert mv(g, "b1", [n(s, 1)]) is None  # the same river cell from a full allowance


def test_3_7_1_hill_climb_limits_per_type():
    terrain = {n(C, 0): "1", n(C, 0, 2): "2"}
    units = [("bi", "blue", "EI", C, 0), ("bc", "blue", "EC", n(C, 5), 0), ("bco", "blue", "CO", n(C, 2), 0),
             ("bmg", "blue", "MG", n(C, 4), 0), ("r1", "red", "NI", FAR, 3)]
    g = to_move(game(units, terrain=terrain))
    assert mv(g, "bi", [n(C, 0), n(C, 0, 2)]) is None  # infantry climbs 2 levels
    g2 = to_move(game([("bc", "blue", "EC", C, 0), ("r1", "red", "NI", FAR, 3)], terrain=terrain))
    assert mv(g2, "bc", [n(C, 0)]) is None
    assert "climb" in mv(g2, "bc", [n(C, 0), n(C, 0, 2)])  # cavalry only 1
    g3 = to_move(game([("bm", "blue", "MG", C, 0), ("r1", "red", "NI", FAR, 3)], terrain=terrain))
    assert "climb" in mv(g3, "bm", [n(C, 0), n(C, 0, 2)])
    g4 = to_move(game([("bco", "blue", "CO", C, 0), ("r1", "red", "NI", FAR, 3)], terrain=terrain))
    assert mv(g4, "bco", [n(C, 0), n(C, 0, 2)]) is None  # G-F11: commander climbs 2


def test_3_7_1_descending_is_free_of_the_climb_limit():
    terrain = {C: "2", n(C, 0): "1", n(C, 0, 2): "2"}
    g = to_move(game([("bc", "blue", "EC", C, 0), ("r1", "red", "NI", FAR, 3)], terrain=terrain))
    assert mv(g, "bc", [n(C, 0), n(C, 0, 2)]) is None  # down 1 (free), up 1


def test_3_5_4_5_front_zone_stops_the_move_and_forces_facing():
    red = n(C, 0, 3)  # facing west: front zone = its W, NW and SW neighbours
    g = to_move(game([("bco", "blue", "CO", C, 0), ("r1", "red", "NI", red, 3)]))
    front = n(red, 3)
    assert "must stop" in mv(g, "bco", [n(C, 0), front, n(front, 1)])
    assert "must stop and face" in mv(g, "bco", [n(C, 0), front], facing=1)
    ev = g.apply(O("move", unit="bco", path=[n(C, 0), front], facing=0), NoDice())
    assert kinds(ev, "contact")


def test_3_5_3_G_F26_flank_and_rear_cells_may_be_crossed():
    red = n(C, 0, 2)  # faces NW: flank cells are its E and SW neighbours, rear its SE
    g = to_move(game([("bco", "blue", "CO", n(C, 5), 0), ("r1", "red", "NI", red, 2)]))
    path = [n(red, 4), n(red, 5), n(red, 0)]
    assert mv(g, "bco", path, facing=3) is None  # through flank and rear, ending on the other flank
    # ending on the flank it may turn to face the enemy: contact, and the enemy turns (3.6.3)
    ev = g.apply(O("move", unit="bco", path=path, facing=3), NoDice())
    assert kinds(ev, "contact") and unit(g, "r1").facing == 0


def test_3_5_6_several_enemies_the_mover_chooses_whom_to_face():
    dest = n(C, 0, 2)
    r1, r2 = n(dest, 1), n(dest, 5)  # r1 faces SW, r2 faces NW: dest is in both front zones
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", r1, 4), ("r2", "red", "NI", r2, 2)]))
    assert "several enemies" in mv(g, "b1", [n(C, 0), dest], facing=1)
    g.apply(O("move", unit="b1", path=[n(C, 0), dest], facing=None), NoDice())
    assert g.state.pending == [{"kind": "face", "side": "blue", "unit": "b1", "options": [1, 5]}]
    assert g.to_act() == "blue"
    assert g.validate(END) is not None
    assert g.validate(O("face", unit="b1", facing=0)) is not None
    ev = g.apply(O("face", unit="b1", facing=5), NoDice())
    assert unit(g, "b1").facing == 5 and kinds(ev, "contact")[0]["enemy"] == "r2"
    assert not g.state.pending


def test_G_08_one_unit_per_cell_friends_passed_through_enemies_not():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EI", n(C, 3), 0),
                      ("r1", "red", "NI", n(C, 5), 1), ("r9", "red", "NI", FAR, 3)]))
    assert "occupied" in mv(g, "b1", [n(C, 3)])
    assert mv(g, "b1", [n(C, 3), n(C, 3, 2)]) is None
    assert "enemy" in mv(g, "b1", [n(C, 5), n(C, 5, 2)])


def test_1_6_6_units_may_not_leave_the_map():
    edge = (0, 0)
    g = to_move(game([("b1", "blue", "EI", edge, 0), ("r1", "red", "NI", FAR, 3)]))
    assert "off the map" in mv(g, "b1", [(0, -1)])


def test_3_5_7_break_contact_moves_away_but_not_into_other_enemies():
    red = n(C, 0)  # mutual contact
    other = n(C, 3, 3)  # facing east: its front zone includes n(C, 3, 2)
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", red, 3), ("r2", "red", "NI", other, 0)]))
    assert "break" in mv(g, "b1", [n(C, 3), n(C, 3, 2)])  # into another enemy's front
    assert "break" in mv(g, "b1", [n(C, 5)])  # still in r1 front zone
    assert "break contact" in g.validate(O("pivot", unit="b1", facing=3))
    ev = g.apply(O("move", unit="b1", path=[n(C, 2), n(n(C, 2), 3)], facing=0), NoDice())
    assert kinds(ev, "broke-contact") and not kinds(ev, "contact")


def test_3_5_7_break_contact_may_not_end_facing_an_enemy():
    red = n(C, 0)  # red faces away: b1 stands in its rear but faces it, so it is in contact
    g = to_move(game([("b1", "blue", "CO", C, 0), ("r1", "red", "NI", red, 0)]))
    flank = n(red, 4)
    assert "may not end facing" in mv(g, "b1", [flank], facing=1)
    assert mv(g, "b1", [flank], facing=0) is None


def test_3_5_pivot_is_a_move_and_can_make_contact():
    g = to_move(game([("b1", "blue", "EI", C, 3), ("r1", "red", "NI", n(C, 0), 0)]))
    ev = g.apply(O("pivot", unit="b1", facing=0), NoDice())
    assert kinds(ev, "contact") and unit(g, "r1").facing == 3
    assert "already" in g.validate(O("pivot", unit="b1", facing=1))


def test_3_5_3_only_the_front_zone_counts_as_contact_for_display():
    g = game([("b1", "blue", "EI", n(C, 3, 3), 0), ("r1", "red", "NI", C, 3)])
    front = {n(C, 2), n(C, 3), n(C, 4)}       # r1 faces W (3): its front zone is d-1, d, d+1
    assert set(g.zoc_hexes("blue")) == front
    assert set(g.zoc_hexes("red")) == {n(n(C, 3, 3), d) for d in (5, 0, 1)}
