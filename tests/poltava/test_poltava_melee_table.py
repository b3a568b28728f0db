"""Part 8.4-8.6: the melee table cell by cell, every worked example, shifts, clamping (R8.6)."""

import pytest

from poltava_helpers import H, O, Script, U, events, game, to_phase

# The Melee Table exactly as printed in the rulebook (spec 8.6), typed independently of the code.
PRINTED = {
    1: ["A3*", "A3*", "A2*", "A2*", "A1*", "A1*", "A1*", "A1*", "EX*"],
    2: ["A2*", "A2*", "A1*", "A1*", "A1*", "A1*", "EX*", "D1", "D1"],
    3: ["A2", "A1", "A1", "A1", "EX", "EX", "D1", "D1", "D1"],
    4: ["A1", "A1", "A1", "EX", "EX", "D1", "D1", "D1", "D2"],
    5: ["A1", "A1", "EX", "D1", "D1", "D1", "D1", "D2", "D2"],
    6: ["EX", "D1", "D1", "D1", "D1", "D2", "D2", "D3", "D3"],
}
HEADS = ["-7", "-4-6", "-2-3", "-1", "0", "+1", "+2-3", "+4-6", "+7"]
DIFFS = [-7, -5, -2, -1, 0, 1, 2, 5, 7]


def duel(att_cs, def_cs, att_stars=0, def_stars=0, def_terrain=".", hexsides=(), att_kind="sw-inf",
         def_kind="ru-inf"):
    rows = ["." * 10] * 10
    if def_terrain != ".":
        r = list(rows[5])
        r[4] = def_terrain
        rows = rows[:5] + ["".join(r)] + rows[6:]
    g = game([U("a", "sweden", att_kind, "0505", stats={"cs": att_cs, "stars": att_stars}),
              U("d", "russia", def_kind, "0506", stats={"cs": def_cs, "stars": def_stars})],
             rows=rows, hexsides=hexsides)
    to_phase(g, "melee")
    return g, O("attack", units=["a"], hexes=[H(g, "0506")])


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("col", range(9))
def test_every_cell_of_the_melee_table(col, die):
    g, attack = duel(8 + DIFFS[col], 8)
    assert g.odds(attack)["column"] == HEADS[col]
    evs = g.apply(attack, Script(die))
    res = events(evs, "melee-result")[0]
    assert res["result"] == PRINTED[die][col]


def test_odds_give_exact_chances_per_result():
    g, attack = duel(8, 8)
    from fractions import Fraction
    odds = g.odds(attack)
    assert odds["column"] == "0"
    assert odds["chances"] == {"A1*": Fraction(2, 6), "EX": Fraction(2, 6), "D1": Fraction(2, 6)}


def test_R8_6_example_plus_one_with_three_shifts_gives_plus_seven():
    # [L216] attacker 4 vs defender 3 -> "+1"; three shifts right: "+2-3", "+4-6", "+7"
    g, attack = duel(4, 3, att_stars=3)
    o = g.odds(attack)
    assert o["difference"] == 1 and o["base_column"] == "+1"
    assert sum(s for _, s in o["shifts"]) == 3
    assert o["column"] == "+7"


def test_R9_3_example_swedish_three_with_two_stars_against_russian_four():
    # [L275] Swedish regiment CS 3, two stars, against a Russian regiment CS 4: "-1" -> "0" -> "+1"
    g, attack = duel(3, 4, att_stars=2)
    o = g.odds(attack)
    assert o["base_column"] == "-1" and o["column"] == "+1"


def test_R8_6_7_differences_beyond_seven_are_clamped():
    g, attack = duel(1, 10)          # -9
    assert g.odds(attack)["column"] == "-7"
    g, attack = duel(13, 1)          # +12
    assert g.odds(attack)["column"] == "+7"


def test_A14_shifts_are_clamped_after_the_base_column():
    g, attack = duel(13, 1, def_stars=2)   # base +7, two shifts left -> "+2-3"
    assert g.odds(attack)["column"] == "+2-3"
    g, attack = duel(1, 13, att_stars=9)   # base -7 (clamped), 9 right -> "+7"
    assert g.odds(attack)["column"] == "+7"


def test_R8_6_4_defender_stars_shift_left():
    g, attack = duel(4, 4, def_stars=1)
    o = g.odds(attack)
    assert o["column"] == "-1"
    assert any("defender" in name for name, s in o["shifts"])


def test_TEC_settlement_one_shift_to_defender():
    g, attack = duel(4, 4, def_terrain="V")
    assert g.odds(attack)["column"] == "-1"


def test_TEC_settlement_cavalry_defends_with_cs_one_and_no_charge():
    g, attack = duel(4, 3, def_terrain="V", def_kind="ru-drag", def_stars=2)
    o = g.odds(attack)
    assert o["defender_cs"] == 1 and o["difference"] == 3
    assert o["column"] == "+1"  # base +2-3, one shift for the settlement, no charge stars


def test_TEC_stream_shift_only_when_not_outflanked():
    g, attack = duel(4, 4, hexsides=[("stream", [("0505", "0506")])])
    assert g.odds(attack)["column"] == "-1"
    # a second attacker across open ground outflanks the defender: no shift
    g2 = game([U("a", "sweden", "sw-inf", "0505", stats={"cs": 2, "stars": 0}),
               U("b", "sweden", "sw-inf", "0507", stats={"cs": 2, "stars": 0}),
               U("d", "russia", "ru-inf", "0506", stats={"cs": 4})],
              hexsides=[("stream", [("0505", "0506")])])
    to_phase(g2, "melee")
    o = g2.odds(O("attack", units=["a", "b"], hexes=[H(g2, "0506")]))
    assert o["column"] == "0"


def test_TEC_retrenchment_two_shifts_and_minus_one():
    # the defender stands on the camp side of the retrenchment (Part 6: the camp side benefits)
    g, attack = duel(4, 4, def_terrain="C", hexsides=[("retrenchment", [("0505", "0506")])])
    o = g.odds(attack)
    assert o["column"] == "-2-3" and o["drm"] == -1


def test_TEC_redoubt_two_shifts_minus_one_and_a13_roll_below_one_reads_row_one():
    g = game([U("a", "sweden", "sw-inf", "0505", stats={"cs": 8, "stars": 0}),
              U("r", "russia", "redoubt", "0506")],
             rows=["." * 10] * 5 + ["....R....."] + ["." * 10] * 4)
    to_phase(g, "melee")
    attack = O("attack", units=["a"], hexes=[H(g, "0506")])
    o = g.odds(attack)
    assert o["defender_cs"] == 6 and o["drm"] == -1
    assert o["base_column"] == "+2-3" and o["column"] == "0"
    evs = g.apply(attack, Script(1))
    assert events(evs, "melee-result")[0]["result"] == "A1*"   # T12: 1-1 = 0 -> row 1
