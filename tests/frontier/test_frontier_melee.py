"""Frontier 3.6 melee and the combat parts of 3.7."""

from fractions import Fraction

import pytest

from hexwar.engine import NoDice

from frontier_helpers import C, END, O, dice, game, kinds, n, to_combat, to_move, unit

R = n(C, 0)  # the red defender, east of blue's b1 at C


def duel(bkind="EI", rkind="NI", terrain=None, rfacing=3):
    return to_combat(game([("b1", "blue", bkind, C, 0), ("r1", "red", rkind, R, rfacing)], terrain=terrain))


def attack(ids, target=R):
    return O("attack", attackers=ids, target=target)


def test_3_6_1_G_F6_combat_is_compulsory_for_units_facing_an_enemy():
    g = duel()
    reason = g.validate(END)
    assert "compulsory" in reason and "b1" in reason
    g.apply(attack(["b1"]), dice(6, 6))
    assert g.validate(END) is None


def test_3_6_2_each_unit_attacks_once_per_turn():
    g = duel()
    g.apply(attack(["b1"]), dice(6, 6))
    assert g.validate(attack(["b1"])) is not None


def test_3_6_13_both_sides_roll_and_results_are_simultaneous():
    g = duel()
    ev = g.apply(attack(["b1"]), dice(1, 1))
    c = kinds(ev, "combat")[0]
    assert (c["attacker_roll"], c["defender_roll"]) == (1, 1)
    assert not unit(g, "b1").alive and not unit(g, "r1").alive
    assert not g.state.pending  # nobody left to advance


def test_3_6_13_neither_destroyed_when_both_roll_over_strength():
    g = duel()
    g.apply(attack(["b1"]), dice(6, 5))  # EI 5 needs <= 5, NI 4 needs <= 4
    assert unit(g, "b1").alive and unit(g, "r1").alive


def test_3_6_6_9_roll_at_or_under_strength_destroys_the_opponent():
    g = duel()
    g.apply(attack(["b1"]), dice(6, 4))
    assert not unit(g, "b1").alive and unit(g, "r1").alive
    g = duel()
    g.apply(attack(["b1"]), dice(5, 5))
    assert unit(g, "b1").alive and not unit(g, "r1").alive


def test_3_6_7_winning_infantry_may_advance_into_the_cell():
    g = duel()
    g.apply(attack(["b1"]), dice(5, 6))
    assert g.state.pending == [{"kind": "advance", "side": "blue", "hex": [R[0], R[1]], "units": ["b1"]}]
    assert g.validate(END) is not None
    g.apply(O("advance", unit="b1"), NoDice())
    assert unit(g, "b1").hex == R and not g.state.pending


def test_3_6_7_advance_may_be_declined():
    g = duel()
    g.apply(attack(["b1"]), dice(5, 6))
    g.apply(O("advance", unit=None), NoDice())
    assert unit(g, "b1").hex == C


def test_3_2_only_infantry_and_cavalry_advance():
    g = duel(bkind="MG")
    g.apply(attack(["b1"]), dice(1, 6))
    assert not unit(g, "r1").alive and not g.state.pending
    assert g.validate(O("advance", unit="b1")) is not None


def test_3_6_10_a_winning_defender_does_not_advance():
    g = duel()
    g.apply(attack(["b1"]), dice(6, 1))
    assert unit(g, "r1").hex == R and not g.state.pending


def test_3_6_5_losing_attackers_lose_the_faced_one_only():
    # r1 faces b1; b2 attacks from r1's flank
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EI", n(R, 2), 5),
                        ("r1", "red", "NI", R, 3)]))
    g.apply(attack(["b1", "b2"]), dice(6, 1))
    assert not unit(g, "b1").alive and unit(g, "b2").alive


def test_G_F10_another_attacker_advances_when_the_faced_one_died():
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EC", n(R, 2), 5),
                        ("r1", "red", "NI", R, 3)]))
    g.apply(attack(["b1", "b2"]), dice(1, 1))
    assert g.state.pending[0]["units"] == ["b2"]


def test_3_6_8_advancing_into_contact_gives_no_second_attack():
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", R, 3),
                        ("r2", "red", "NI", n(R, 0), 3)]))
    g.apply(attack(["b1"]), dice(1, 6))
    g.apply(O("advance", unit="b1"), NoDice())
    assert unit(g, "b1").hex == R and unit(g, "b1").facing == 0  # now facing r2
    assert g.validate(attack(["b1"], n(R, 0))) is not None
    assert g.validate(END) is None


def test_3_6_11_every_unit_facing_the_defender_attacks_together():
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EI", n(R, 2), 5),
                        ("r1", "red", "NI", R, 3)]))
    assert "together" in g.validate(attack(["b1"]))
    assert g.validate(attack(["b1", "b2"])) is None


@pytest.mark.parametrize("count,mod", [(1, 0), (2, -1), (3, -2), (4, -3), (5, -4), (6, -5)])
def test_3_6_11_G_F7_multiple_attackers_reduce_defender(count, mod):
    units = [("r1", "red", "CO", C, 0)]
    ids = []
    for d in range(count):
        ids.append(f"b{d}")
        units.append((f"b{d}", "blue", "EI", n(C, d), (d + 3) % 6))
    g = to_combat(game(units))
    p = g.odds(attack(ids, C))
    assert p["defender_strength"] == 6 + mod
    assert p["attacker_destroyed"] == Fraction(6 + mod, 6)


def test_3_6_12_attackers_use_the_strength_of_the_unit_the_defender_faces():
    # r1 faces the EI (5); the MG (6) attacks from the flank: the group attacks at 5
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "MG", n(R, 2), 5),
                        ("r1", "red", "NI", R, 3)]))
    p = g.odds(attack(["b1", "b2"]))
    assert p["attacker"] == "b1" and p["attacker_strength"] == 5


def test_3_6_3_4_defender_turns_to_face_the_last_unit_to_make_contact():
    g = to_move(game([("b1", "blue", "EI", n(C, 3), 0), ("b2", "blue", "EI", n(R, 1, 2), 0),
                      ("r1", "red", "NI", R, 0)]))
    g.apply(O("move", unit="b1", path=[C], facing=0), NoDice())  # r1's rear
    assert unit(g, "r1").facing == 3
    g.apply(O("move", unit="b2", path=[n(R, 1)], facing=4), NoDice())  # r1's flank now
    assert unit(g, "r1").facing == 1
    g.apply(END)
    p = g.odds(attack(["b1", "b2"]))
    assert p["attacker"] == "b2"
    ev = g.apply(attack(["b1", "b2"]), dice(6, 1))
    assert kinds(ev, "combat")[0]["faced"] == "b2" and not unit(g, "b2").alive and unit(g, "b1").alive


@pytest.mark.parametrize("rterrain,amod,dmod", [
    ("1", -1, 1), ("2", -2, 1), (".", 0, 0),
])
def test_3_7_1_G_F1_hill_modifiers(rterrain, amod, dmod):
    g = duel(terrain={R: rterrain})
    p = g.odds(attack(["b1"]))
    assert p["attacker_strength"] == 5 + amod and p["defender_strength"] == 4 + dmod


def test_3_7_1_defending_downhill_gives_no_bonus():
    g = duel(terrain={C: "1"})
    p = g.odds(attack(["b1"]))
    assert (p["attacker_strength"], p["defender_strength"]) == (5, 4)


def test_3_7_3_defender_in_a_river_cell_loses_1():
    g = duel(terrain={R: "~"})
    p = g.odds(attack(["b1"]))
    assert p["defender_strength"] == 3
    assert ["defending in a river cell", -1] in p["defender_modifiers"]


def test_3_7_4_cavalry_attacking_into_forest_loses_1():
    p = duel(bkind="EC", terrain={R: "F"}).odds(attack(["b1"]))
    assert p["attacker_strength"] == 4
    p = duel(bkind="EI", terrain={R: "F"}).odds(attack(["b1"]))
    assert p["attacker_strength"] == 5


def test_3_7_4_cavalry_attacked_in_forest_loses_1():
    p = duel(rkind="NC", terrain={R: "F"}).odds(attack(["b1"]))
    assert p["defender_strength"] == 3


def test_3_2_G_F21_strength_never_below_1():
    units = [("r1", "red", "SA", C, 0)] + [(f"b{d}", "blue", "EC", n(C, d), (d + 3) % 6) for d in range(3)]
    g = to_combat(game(units, terrain={C: "F", n(C, 0): "."}))
    # fortress artillery (1) attacked by 3: 1 - 2 -> 1; the attack itself has its own floor too
    p = g.odds(attack(["b0", "b1", "b2"], C))
    assert p["defender_strength"] == 1
    g = duel(bkind="NC", terrain={R: "2"})
    unit(g, "b1").max_strength = unit(g, "b1").strength = 2  # a weak attacker going 2 levels up
    assert g.odds(attack(["b1"]))["attacker_strength"] == 1


def test_G_F28_strength_6_always_destroys_unless_modified():
    p = duel(bkind="MG").odds(attack(["b1"]))
    assert p["defender_destroyed"] == 1


def test_G_F16_artillery_does_not_start_melee():
    g = duel(bkind="FA")
    assert g.validate(END) is None
    assert "no unit" in g.validate(attack(["b1"]))
    assert g.legal_orders() and all(o.kind != "attack" for o in g.legal_orders())
