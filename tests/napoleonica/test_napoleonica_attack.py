"""Attack phase (spec 7, 21.9): prohibitions, conditions, kinds of attack, contact, failure."""

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.rulesets.napoleonica import attack as A
from hexwar.engine.rulesets.napoleonica import board as B

from napo_helpers import NORTH, SOUTH, game, hx, play, unit

BLUE_COL = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="column")   # (2, 7)
RED_LINE = dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")      # (3, 4), d = 3


def attacks(g, uid="b"):
    return [o for o in g.legal_orders() if o.kind == "attack" and o.get("unit") == uid]


def test_s7_5_frontal_column_attack_moves_into_contact_across_the_targets_front():
    g = game([BLUE_COL, RED_LINE], phase="attack")
    u, t = unit(g, "b"), unit(g, "r")
    assert A.kind_of_attack(u, t) == "front"
    contacts = sorted(o["contact"] for o in attacks(g))
    # red faces south: its front hexsides are SW (2, 5) and SE (3, 5); both within 2 steps
    assert contacts == [(2, 5), (3, 5)]
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    u, t = unit(g, "b"), unit(g, "r")
    assert u.hex == Hex(3, 5) and hex_distance(u.hex, t.hex) == 1
    assert u.facing == NORTH                       # the contacted hexside is in its front
    assert g.state.vars["contacts"][0][:3] == ["b", "r", "front"]
    assert u.marks["attacked"] == 1 and t.marks["targeted"] == 1
    # nobody has another attack: the phase ends, and the target may not act in movement
    assert g.state.phase == "movement"
    assert not [o for o in g.legal_orders() if o.get("unit") in ("b", "r")]


def test_s7_5_the_kind_of_attack_is_fixed_by_the_attackers_front_middle():
    # red faces 2 o'clock: blue, coming from the south, is in red's right flank zone; the only
    # contact allowed is across red's flank hexside (RF), never its front (7.5 item 6)
    g = game([dict(BLUE_COL, strength=1), dict(RED_LINE, facing=0, strength=1)], phase="attack")
    u, t = unit(g, "b"), unit(g, "r")
    assert A.kind_of_attack(u, t) == "flank"
    assert [o["contact"] for o in attacks(g)] == [(3, 5)]
    assert g.validate(Order.make("attack", unit="b", target=(3, 4), contact=(2, 5))) is not None


def test_s7_5_no_room_for_the_required_contact_means_no_attack():
    # 0606 and 0504, red's two flank hexes, are river: no room for a flank contact
    rows = ["." * 12] * 3 + ["....~......."] + ["." * 12] + [".....~......"] + ["." * 12] * 4
    g = game([dict(BLUE_COL, strength=1), dict(RED_LINE, facing=0, strength=1)], rows=rows, phase="attack")
    assert not [o for o in attacks(g) if o["target"] == (3, 4)]
    why = g.validate(Order.make("attack", unit="b", target=(3, 4), contact=None))
    assert why and "cannot attack" in why


def test_s7_7_an_attack_out_of_reach_fails_short_of_the_target_disordered():
    g = game([BLUE_COL, dict(RED_LINE, hex="0603")], phase="attack")      # d = 5
    assert [o["contact"] for o in attacks(g)] == [None]
    play(g, "attack", dice=[1, 2], unit="b", target=tuple(unit(g, "r").hex), contact=None)
    u, t = unit(g, "b"), unit(g, "r")
    assert hex_distance(u.hex, t.hex) == 3        # advanced the full 10 cm, no contact
    assert B.state_of(u) == "disordered"
    assert t.marks["targeted"] == 1               # G-22: the target of a failed attack stays put
    assert g.state.vars["contacts"] == []


def test_s7_7_a_failed_attack_stops_at_d2():
    g = game([BLUE_COL, dict(RED_LINE, hex="0604")], phase="attack")      # d = 4: too far for reach 2
    play(g, "attack", dice=[1, 2], unit="b", target=tuple(unit(g, "r").hex), contact=None)
    assert hex_distance(unit(g, "b").hex, unit(g, "r").hex) == 2


def test_s7_1_who_may_not_attack():
    for form, kind in (("square", "INF_LINE"), ("unlimbered", "ART_MEDIUM"), ("standard", "ENG")):
        g = game([dict(BLUE_COL, formation=form, kind=kind, strength=1), RED_LINE], phase="attack")
        assert attacks(g) == [], form
    g = game([BLUE_COL, RED_LINE], phase="attack")
    unit(g, "b").mark("state", "disordered")
    assert attacks(g) == []


def test_s7_1_item5_infantry_may_not_attack_mounted_cavalry():
    g = game([BLUE_COL, dict(RED_LINE, kind="CAV_DRAGOON")], phase="attack")
    assert attacks(g) == []
    g = game([dict(BLUE_COL, kind="CAV_DRAGOON"), dict(RED_LINE, kind="CAV_DRAGOON")], phase="attack")
    assert attacks(g)


def test_s7_3_item1_only_units_within_40cm_of_a_general_at_the_start_of_the_phase():
    g = game([BLUE_COL, RED_LINE], phase="attack")
    g.state.vars["commanded"] = []
    assert attacks(g) == []
    assert "40 cm" in g.validate(Order.make("attack", unit="b", target=(3, 4), contact=(3, 5)))


def test_s7_3_item1_the_commander_in_chief_counts_as_a_general():
    from hexwar.engine.rulesets.napoleonica.attack import commanded
    red_cinc = dict(id="rc", side="red", kind="CINC", hex="1201")
    far = dict(id="bc", side="blue", kind="CINC", hex="1601")             # d > 9 from b
    g = game([BLUE_COL, RED_LINE, far, red_cinc], cincs=False, phase="attack", width=16)
    assert commanded(g.map, g.state, "blue") == []
    g = game([BLUE_COL, RED_LINE, dict(far, hex="0610"), red_cinc], cincs=False, phase="attack", width=16)
    assert commanded(g.map, g.state, "blue") == ["b"]
    g = game([BLUE_COL, RED_LINE, far, red_cinc, dict(id="bg", side="blue", kind="GEN", hex="0210")],
             cincs=False, phase="attack", width=16)
    assert commanded(g.map, g.state, "blue") == ["b"]


def test_s7_3_item3_the_target_must_be_in_the_frontal_zone():
    g = game([dict(BLUE_COL, facing=SOUTH, strength=1), dict(RED_LINE, strength=1)], phase="attack")
    assert attacks(g) == []


def test_s7_3_item4_any_other_unit_on_the_line_blocks_sight():
    g = game([dict(BLUE_COL, hex="0609", strength=1), dict(RED_LINE, hex="0604", strength=1),
              dict(id="x", side="blue", kind="INF_LINE", hex="0606", formation="line", strength=1)], phase="attack")
    assert not [o for o in attacks(g) if o["target"] == tuple(unit(g, "r").hex)]


def test_s7_9_from_forest_infantry_reaches_only_5cm():
    rows = ["." * 12] * 7 + ["....." + "F" + "......"] + ["." * 12] * 2
    g = game([BLUE_COL, RED_LINE], rows=rows, phase="attack")
    assert g.map.terrain_at(unit(g, "b").hex) == "forest"
    assert A.reach(g.map, unit(g, "b")) == 1
    assert [o["contact"] for o in attacks(g)] == [None]      # d 3 is out of 5 cm reach


def test_s7_8_several_units_may_attack_one_target_and_fight_one_melee():
    from hexwar.engine.rulesets.napoleonica.melee import components
    g = game([dict(BLUE_COL, strength=1), dict(RED_LINE, strength=1),
              dict(id="b2", side="blue", kind="INF_LINE", hex="0508", formation="column", strength=1),
              dict(id="r2", side="red", kind="INF_LINE", hex="1002", formation="line", strength=1)], phase="attack")
    play(g, "attack", unit="b", target=(3, 4), contact=(3, 5))
    assert g.to_act() == "blue"          # red has no attack to declare: it passes by itself
    b2 = [o for o in attacks(g, "b2") if o["target"] == (3, 4)]
    assert b2
    play(g, "attack", dice=[4, 8], unit="b2", target=(3, 4), contact=b2[0]["contact"])
    assert components(g.state) == [["b", "b2", "r"]]


def test_s7_2_two_passes_in_a_row_end_the_attack_phase():
    g = game([BLUE_COL, RED_LINE, dict(id="r2", side="red", kind="CAV_LIGHT", hex="1003", formation="line")],
             phase="attack")
    play(g, "end-phase")
    assert g.state.phase == "attack" and g.to_act() == "red"
    play(g, "end-phase", dice=[5, 9])          # both passed: appearance skipped, roll-off for movement
    assert g.state.phase == "movement"
    assert g.to_act() == "red"                 # red rolled 9 against 5


def test_s21_9_a_failed_line_attack_goes_straight_ahead():
    g = game([dict(BLUE_COL, formation="line"), dict(RED_LINE, hex="0603")], phase="attack")   # d = 5
    play(g, "attack", dice=[1, 2], unit="b", target=tuple(unit(g, "r").hex), contact=None)
    assert unit(g, "b").hex == Hex(3, 5)          # FR then FL from (2, 7): straight north
    assert unit(g, "b").facing == NORTH


def test_s7_3_item4_a_wall_higher_than_a_man_blocks_sight():
    from hexwar.engine.rulesets.napoleonica.sight import attack_sight, reform_sight
    walls = [("wall", [("0607", "0506"), ("0607", "0606")])]     # both hexsides north of 0607
    g = game([dict(BLUE_COL, hex="0607"), dict(RED_LINE, hex="0604")], hexsides=walls, phase="attack")
    b, r = unit(g, "b").hex, unit(g, "r").hex
    assert not attack_sight(g.map, B.View(g.state), b, r)
    assert not reform_sight(g.map, b, r)
    g = game([dict(BLUE_COL, hex="0607"), dict(RED_LINE, hex="0604")], phase="attack")
    assert attack_sight(g.map, B.View(g.state), b, r)


def test_s7_7_g31_a_failed_column_attack_finds_the_way_to_d2_around_ground():
    # the column's head (2, 7) is 4 hexes from the red line's nearest stand (2, 3); reach 2.
    # Lake at (3, 5) and (4, 5): a first step NE (to (3, 6)) leaves no second step that gets
    # nearer, but two steps NW (head to (2, 5)) end at d = 2 from (2, 3), no stand next to an
    # enemy: the failed attack ends there (7.7: the full attack distance; G-31: 3 cm = d 2)
    rows = ["." * 12] * 11
    rows[5] = "." * 5 + "LL" + "." * 5          # offset columns 5, 6 on row 5 = axial (3, 5), (4, 5)
    g = game([BLUE_COL, dict(RED_LINE, hex="0604")], phase="attack", rows=rows)
    assert g.map.terrain_at(Hex(3, 5)) == g.map.terrain_at(Hex(4, 5)) == "lake"
    assert Hex(2, 3) in B.stand_hexes(unit(g, "r"))
    play(g, "attack", dice=[1, 2], unit="b", target=tuple(unit(g, "r").hex), contact=None)
    u = unit(g, "b")
    assert u.hex == Hex(2, 5)
    assert B.near(B.stand_hexes(u), B.stand_hexes(unit(g, "r"))) == 2
    assert B.state_of(u) == "disordered"
