"""Formation footprints (spec 21.5) and rigid wheels (21.8, with the rotation formulas of 21.1).

Expected hexes are worked out by hand from the spec: facing 12 (vertex facing 1) has RF = E
(+1, 0), RL = SW (-1, +1), RR = SE (0, +1)."""

from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.napoleonica import footprint as FP

F12, F2, F10 = 1, 0, 2          # vertex facings: 12, 2 and 10 o'clock
A = Hex(5, 5)


def rot_cw(q, r):               # 21.1: 60 degrees clockwise on screen
    return -r, q + r


def rot_ccw(q, r):              # 21.1: 60 degrees counter-clockwise
    return q + r, -q


def test_s21_5_a_line_lies_along_a_hex_row_from_its_left_end():
    assert FP.layout("line", A, F12, 3) == ((5, 5), (6, 5), (7, 5))      # A + k*RF, k = 0..2


def test_s21_5_a_column_zigzags_behind_its_head_and_keeps_its_mirror_variant():
    # H, H+RL, H+RL+RR, H+2RL+RR
    assert FP.layout("column", A, F12, 4) == ((5, 5), (4, 6), (4, 7), (3, 8))
    # the mirror starts with RR: H, H+RR, H+RR+RL, H+2RR+RL
    assert FP.layout("column", A, F12, 4, mirror=True) == ((5, 5), (5, 6), (4, 7), (4, 8))


def test_s21_5_squares_by_template_toward_the_former_rear():
    assert FP.layout("square", A, F12, 1) == ((5, 5),)
    assert FP.layout("square", A, F12, 2) == ((5, 5), (4, 6))             # {P, P+RL}
    assert FP.layout("square", A, F12, 2, mirror=True) == ((5, 5), (5, 6))  # {P, P+RR}
    assert FP.layout("square", A, F12, 3) == ((5, 5), (4, 6), (5, 6))     # triangle
    assert FP.layout("square", A, F12, 4) == ((5, 5), (4, 6), (5, 6), (4, 7))   # rhombus


def test_s21_5_batteries_engineers_train_and_single_stands_fill_one_hex():
    for form in ("limbered", "unlimbered", "gunners", "standard"):
        assert FP.layout(form, A, F12, 4) == (A,)
    assert FP.layout("line", A, F12, 1) == (A,)


def test_s21_8_a_line_wheels_rigidly_about_its_left_end_stand():
    new_anchor, new_facing = FP.wheel("line", A, F12, 3, -1, pivot="left")
    assert (new_anchor, new_facing) == (A, F2)
    expected = tuple((A.q + dq, A.r + dr) for dq, dr in (rot_cw(k, 0) for k in range(3)))
    assert FP.layout("line", new_anchor, new_facing, 3) == expected == ((5, 5), (5, 6), (5, 7))


def test_s21_8_a_line_wheels_rigidly_about_its_right_end_stand():
    right = Hex(7, 5)
    new_anchor, new_facing = FP.wheel("line", A, F12, 3, +1, pivot="right")
    assert new_facing == F10
    # every stand's offset from the pivot turns 60 degrees counter-clockwise (21.1)
    expected = sorted((right.q + dq, right.r + dr) for dq, dr in (rot_ccw(-k, 0) for k in range(3)))
    assert sorted(FP.layout("line", new_anchor, new_facing, 3)) == expected == [(5, 7), (6, 6), (7, 5)]


def test_s21_8_a_column_wheels_about_its_head():
    new_anchor, new_facing = FP.wheel("column", A, F12, 3, -1)
    assert new_anchor == A
    old = FP.layout("column", A, F12, 3)
    turned = tuple((A.q + dq, A.r + dr) for dq, dr in (rot_cw(h.q - A.q, h.r - A.r) for h in old))
    assert FP.layout("column", new_anchor, new_facing, 3) == turned


def test_s21_8_wheel_cost_is_the_front_rank_so_a_three_stand_infantry_line_cannot_wheel():
    assert FP.wheel_cost("line", 3) == 3 > 2              # infantry line: 2 MP
    assert FP.wheel_cost("column", 4) == 1


def test_s21_8_a_translation_keeps_the_shape():
    line = FP.layout("line", A, F12, 3)
    assert FP.translate(line, 1) == FP.layout("line", Hex(6, 4), F12, 3)   # one step NE


def test_s21_5_legality_distinct_connected_and_no_two_units_in_a_hex():
    assert FP.shape_problem(FP.layout("column", A, F12, 4)) is None
    assert "connected" in FP.shape_problem((Hex(1, 1), Hex(3, 1)))       # a disordered unit torn apart
    assert "share" in FP.shape_problem((Hex(1, 1), Hex(1, 1)))
    fps = {"a": FP.layout("line", A, F12, 3), "b": FP.layout("column", Hex(6, 5), F12, 2)}
    sides = {"a": "blue", "b": "red", "g": "blue", "h": "red"}
    problems = FP.overlap_problems(fps, {"g": Hex(5, 5), "h": Hex(7, 5)}, sides)
    # (6, 5) holds stands of a and b; g may share (5, 5) with a friendly stand; h may not stand on an enemy
    assert problems == ["b and a both have a stand in (6, 5)", "h shares (7, 5) with an enemy stand of a"]


def test_s21_2_distances_run_between_the_two_nearest_occupied_hexes():
    from hexwar.engine.rulesets.napoleonica import board as B
    line = FP.layout("line", A, F12, 4)                    # (5,5) .. (8,5)
    general = Hex(10, 3)
    # from the general: 2 hexes to the right end (8,5), 5 to the left end (5,5); the nearest counts
    assert B.near(line, [general]) == 2
    assert B.near([A], [general]) == 5
    # gap formula: 40 cm command radius = d <= 9 (21.3)
    assert B.near(line, [Hex(8, -4)]) == 9
    assert B.near((), [general]) == 99                      # nothing on the table: never near
