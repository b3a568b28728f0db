"""Movement phase (spec 9, 21.3, 21.8) and the rule of four (9.2)."""

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import movement as MV

from napo_helpers import NORTH, SOUTH, game, hx, play, unit


def ends(g, uid):
    u = unit(g, uid)
    return MV.moves(g.map, B.View(g.state), u)


def far_dist(g, uid):
    u = unit(g, uid)
    return max(hex_distance(u.hex, h) for (h, _f) in ends(g, uid))


def test_s21_3_infantry_column_moves_four_hexes_straight_ahead():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0608", formation="column")])
    start = unit(g, "i").hex
    reach = {h for (h, f) in ends(g, "i") if f == NORTH}
    # FL (0,-1) and FR (1,-1) alternate: two rows up per two steps, straight north
    assert Hex(start.q + 2, start.r - 4) in reach
    assert far_dist(g, "i") == 4


def test_s21_3_infantry_line_moves_two_and_square_one():
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex="0408", formation="line"),
              dict(id="s", side="blue", kind="INF_LINE", hex="0908", formation="square", strength=1)])
    assert far_dist(g, "l") == 2
    assert far_dist(g, "s") == 1
    assert len({h for h, _ in ends(g, "s")}) == 6     # a square steps any of the six ways (9.3)


def test_s21_3_cavalry_and_artillery_allowances():
    g = game([dict(id="h", side="blue", kind="CAV_LIGHT", hex="0209", formation="column"),
              dict(id="d", side="blue", kind="CAV_DRAGOON", hex="0609", formation="line", strength=1),
              dict(id="a", side="blue", kind="ART_MEDIUM", hex="1009", formation="unlimbered"),
              dict(id="hv", side="blue", kind="ART_HEAVY", hex="0805", formation="unlimbered")],
             height=12)
    assert far_dist(g, "h") == 8       # light cavalry column 40 cm
    assert far_dist(g, "d") == 4       # dragoon line 20 cm
    assert far_dist(g, "a") == 1       # medium battery in firing position 5 cm
    assert ends(g, "hv") == {}         # heavy battery in firing position: cannot move


def test_s21_8_forward_steps_alternate_so_the_unit_keeps_its_ray():
    # a limbered heavy battery (2 MP): FL then FR goes straight ahead; FL, FL is not forward
    g = game([dict(id="a", side="blue", kind="ART_HEAVY", hex="0608", formation="limbered")])
    start = unit(g, "a").hex
    assert (Hex(start.q + 1, start.r - 2), NORTH) in ends(g, "a")
    assert (Hex(start.q, start.r - 2), NORTH) not in ends(g, "a")


def test_s9_6_infantry_line_may_move_obliquely():
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex="0608", formation="line", strength=1)])
    start = unit(g, "l").hex
    assert (Hex(start.q, start.r - 2), NORTH) in ends(g, "l")     # FL, FL: oblique


def test_s21_8_a_four_stand_line_cannot_wheel_but_a_column_can():
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex="0408", formation="line"),
              dict(id="c", side="blue", kind="INF_LINE", hex="0908", formation="column")])
    assert {f for _, f in ends(g, "l")} == {NORTH}
    assert {f for _, f in ends(g, "c")} == set(range(6))     # wheels cost 1 per 60 degrees


def test_s9_6_backward_move_is_half_the_allowance_and_sideways_at_most_two():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0605", formation="line")])
    got = ends(g, "c")
    start = unit(g, "c").hex
    back = [h for (h, f), (mode, _) in got.items() if mode == "backward" and f == NORTH]
    side = [h for (h, f), (mode, _) in got.items() if mode == "sideways"]
    assert max(hex_distance(start, h) for h in back) == 1          # 50 % of a line's 2 MP
    assert sorted(hex_distance(start, h) for h in side) == [1, 1, 2, 2]
    assert all(h.r == start.r for h in side)            # straight to the side (W/E)


def test_s9_6_artillery_never_moves_sideways():
    g = game([dict(id="a", side="blue", kind="ART_LIGHT", hex="0605", formation="limbered")])
    assert not [1 for (mode, _) in ends(g, "a").values() if mode == "sideways"]


def test_s9_4_no_move_ends_or_passes_next_to_an_enemy():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column"),
              dict(id="e", side="red", kind="INF_LINE", hex="0704", formation="line")])
    enemy = unit(g, "e").hex
    for (h, _f), (_m, path) in ends(g, "c").items():
        assert all(hex_distance(x, enemy) >= 2 for x in path), path


def test_s9_3_disordered_units_cannot_move_but_may_re_form():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column")])
    unit(g, "c").mark("state", "disordered")
    kinds = {o.kind for o in g.legal_orders() if o.get("unit") == "c"}
    assert kinds == {"hold", "form"}


def test_s22_7_mounted_cavalry_may_not_enter_forest_but_infantry_pays_two():
    rows = ["." * 12] * 5 + ["...FFFF....."] + ["." * 12] * 4
    g = game([dict(id="d", side="blue", kind="CAV_DRAGOON", hex="0508", formation="column"),
              dict(id="i", side="blue", kind="INF_LINE", hex="0808", formation="column")], rows=rows)
    forest = {h for h in g.map.hexes if g.map.terrain_at(h) == "forest"}
    assert not any(h in forest for h, _ in ends(g, "d"))
    assert B.enter_cost(g.map, unit(g, "i"), hx(g, "0707"), hx(g, "0606")) == 2


def test_s9_7_formation_change_keeps_or_reverses_the_facing_never_disordered():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column")])
    opts = MV.formation_options(unit(g, "c"))
    assert ("line", NORTH) in opts and ("line", SOUTH) in opts
    assert ("line", 0) not in opts
    assert ("column", SOUTH) in opts                     # about-face (9.8)
    assert all(form != "disordered" for form, _ in opts)
    play(g, "form", unit="c", formation="line", facing=SOUTH)
    u = unit(g, "c")
    assert B.formation(u) == "line" and u.facing == SOUTH and u.marks["moved"] == 1


def test_s9_7_artillery_may_face_any_way_after_a_formation_change():
    g = game([dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="limbered")])
    assert {f for form, f in MV.formation_options(unit(g, "a")) if form == "unlimbered"} == set(range(6))


def test_s9_7_re_forming_near_a_formed_enemy_line_needs_one_d20_under_experience():
    units = [dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column"),
             dict(id="e", side="red", kind="INF_LINE", hex="0606", formation="line")]
    g = game(units)
    unit(g, "c").mark("state", "disordered")
    play(g, "form", dice=[11], unit="c", formation="line", facing=NORTH)   # 11 > 10 (recruit)
    assert B.state_of(unit(g, "c")) == "disordered"
    g = game(units)
    unit(g, "c").mark("state", "disordered")
    play(g, "form", dice=[10], unit="c", formation="line", facing=NORTH)
    assert B.state_of(unit(g, "c")) == "formed"


def test_s9_7_no_re_form_test_when_the_enemy_is_a_disordered_unit_or_far():
    units = [dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column"),
             dict(id="e", side="red", kind="INF_LINE", hex="0603", formation="line")]
    g = game(units)
    unit(g, "c").mark("state", "disordered")
    play(g, "form", unit="c", formation="line", facing=NORTH)      # no dice needed: d = 5
    assert B.state_of(unit(g, "c")) == "formed"


def test_s9_2_rule_of_four_hands_over_after_four_pieces():
    units = [dict(id=f"b{i}", side="blue", kind="INF_LINE", hex=f"{2 * i + 1:02d}09", formation="column", strength=1)
             for i in range(5)]
    units.append(dict(id="r1", side="red", kind="INF_LINE", hex="0602", formation="column", strength=1))
    g = game(units)
    for i in range(4):
        assert g.to_act() == "blue"
        play(g, "hold", unit=f"b{i}")
    assert g.to_act() == "red"
    play(g, "hold", unit="r1")
    play(g, "hold", unit="red-cinc")
    assert g.to_act() == "blue"         # red has nothing left: blue goes on


def test_s9_1_units_that_attacked_or_were_attacked_do_not_move():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column"),
              dict(id="d", side="blue", kind="INF_LINE", hex="0908", formation="column")])
    unit(g, "c").mark("targeted", 1)
    assert g.validate(Order.make("hold", unit="c")) is not None
    assert not [o for o in g.legal_orders() if o.get("unit") == "c"]


def test_s22_6_generals_move_eight_and_do_not_end_next_to_an_enemy_alone():
    g = game([dict(id="g", side="blue", kind="GEN", hex="0609"),
              dict(id="e", side="red", kind="INF_LINE", hex="0605", formation="line")])
    u = unit(g, "g")
    got = ends(g, "g")
    assert max(hex_distance(u.hex, h) for h, _ in got) == 8
    enemy = unit(g, "e").hex
    assert all(hex_distance(h, enemy) >= 2 for h, _ in got)


def test_s9_3_one_units_orders_are_the_legal_orders_that_name_it():
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex="0608", formation="column"),
              dict(id="a", side="blue", kind="ART_MEDIUM", hex="0908", formation="limbered")])
    for uid in ("c", "a", "blue-cinc"):
        assert list(g.unit_orders(uid)) == [o for o in g.legal_orders() if o.get("unit") == uid]
    assert list(g.unit_orders("red-cinc")) == []


def test_s9_2_the_side_panel_counts_the_block_of_four():
    g = game([dict(id=f"b{i}", side="blue", kind="INF_LINE", hex=f"{2 * i + 1:02d}09", formation="column", strength=1)
              for i in range(3)] + [dict(id="r", side="red", kind="INF_LINE", hex="0602", formation="line", strength=1)])
    play(g, "hold", unit="b0")
    lines = g.status_lines("blue")
    assert any("1 of 4 used in this block" in x for x in lines)
    assert any(x.startswith("pieces left to act: 3") for x in lines)     # b1, b2 and the CinC


def test_s6_s9_reach_is_shown_only_in_the_movement_phase():
    """Units move only in the movement phase (6, 9); in the attack or fire phase the map must not
    offer hexes a unit could move to, because no move order exists there."""
    units = [dict(id="i", side="blue", kind="INF_LINE", hex="0608", formation="column")]
    moving = game(units, phase="movement")
    assert len(moving.reachable("i")) > 0
    for phase in ("attack", "fire", "melee"):
        assert game(units, phase=phase).reachable("i") == {}
