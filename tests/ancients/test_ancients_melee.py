"""4.10 melee, 4.3 special-unit modifiers, 4.11 hits, commanders (4.14, G-A4), G-A20..G-A24."""

import pytest

from hexwar.engine import Game, Order

from ancients_helpers import (
    E, NE, NW, SE, SW, W, H, L, begin, dice, events, move_to, play, scenario, unit, walk, why,
)

X = "0506"          # attacker's hex; the defender stands NE of it


def fight(att_kind, def_kind, def_facing="SW", extra=(), rules=None, rows=None, att_grade=None,
          def_grade=None, att_facing="NE"):
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    att = ("att", "a", att_kind, X, att_facing) + ((att_grade,) if att_grade else ())
    dfn = ("dfn", "b", def_kind, t, def_facing) + ((def_grade,) if def_grade else ())
    g = Game(scenario([att, dfn, *extra], rules=rules, rows=rows))
    begin(g)
    return g, t


def mods(g, t, who="attacker"):
    o = g.odds(Order.make("melee", unit="att", target=list(H(g, t))))
    return {n: v for n, v in o[who]["modifiers"]}


def test_4_10_G_A32_attack_only_the_enemy_directly_ahead():
    g, t = fight("HI", "HI", att_facing="E")
    assert "directly ahead" in why(g, "melee", unit="att", target=t)
    play(g, "pivot", unit="att", facing=NE)
    assert why(g, "melee", unit="att", target=t) is None


def test_G_A24_engines_and_commanders_never_attack():
    g, t = fight("engine", "HI")
    assert "may not initiate melee" in why(g, "melee", unit="att", target=t)
    g, t = fight("commander", "HI", extra=[("a9", "a", "HI", "0108", "NE")])
    assert "may not initiate melee" in why(g, "melee", unit="att", target=t)


def test_4_10_heavy_units_plus_one_front_attack_no_flank():
    g, t = fight("HI", "HI")
    assert mods(g, t) == {"heavy unit": 1}
    assert mods(g, t, "defender") == {"heavy unit": 1}
    g, t = fight("archers", "skirmishers")
    assert mods(g, t) == {} and mods(g, t, "defender") == {}


def test_4_10_flank_and_rear_attack():
    g, t = fight("archers", "archers", def_facing="E")          # attacker on its flank
    assert mods(g, t) == {"attacking the enemy's flank": 1}
    assert mods(g, t, "defender") == {"attacked in the flank": -1}
    g, t = fight("archers", "archers", def_facing="NE")         # attacker behind it
    assert mods(g, t) == {"attacking the enemy's rear": 1}


def test_4_10_friendly_commander_in_the_cell_plus_one():
    g, t = fight("archers", "archers", extra=[("ac", "a", "commander", X, "NE")])
    assert mods(g, t) == {"friendly commander in the cell": 1}


def test_4_10_G_A18_elephants_frighten_horses_any_elephant():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    near = walk(g0, X, W)
    g, t = fight("HC", "archers", extra=[("el", "a", "elephants", near, "NE")])
    assert mods(g, t)["horses near an elephant"] == -1
    g, t = fight("HC", "archers", extra=[("el", "a", "elephants", near, "NE")],
                 rules={"elephants_frighten": "enemy"})
    assert "horses near an elephant" not in mods(g, t)


def test_4_10_attacked_by_a_war_elephant_minus_one():
    g, t = fight("elephants", "HI")
    assert mods(g, t, "defender") == {"heavy unit": 1, "attacked by a War Elephant": -1}


def _rows_with(t_label, ch):
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    grid = [["."] * 10 for _ in range(8)]
    c, r = g0.map.offset(H(g0, t_label))
    grid[r][c] = ch
    return [" ".join(x) for x in grid]


def test_4_12_G_A16_attacking_up_a_hill_minus_one_once():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("HI", "HI", rows=_rows_with(t, "h"))
    assert mods(g, t) == {"heavy unit": 1, "enemy on higher hill, in cover or fortified": -1}
    g, t = fight("HI", "HI", rows=_rows_with(X, "h"))   # attacker above: defender -1
    assert mods(g, t, "defender") == {"heavy unit": 1, "enemy on higher hill, in cover or fortified": -1}


def test_4_12_G_A17_melee_into_forest_attacker_minus_two_defender_minus_one():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("HI", "skirmishers", rows=_rows_with(t, "F"))
    assert mods(g, t) == {"heavy unit": 1, "enemy on higher hill, in cover or fortified": -1,
                          "melee in a forest": -1}
    assert mods(g, t, "defender") == {"melee in a forest": -1}


def test_4_12_unit_in_river_attacked_minus_one():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("archers", "archers", rows=_rows_with(t, "~"))
    assert mods(g, t, "defender") == {"in a river": -1}


def test_4_3_barbarian_horde_plus_one_after_moving_two_first_round_only():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    start = walk(g0, X, SW, SW)
    g = Game(scenario([("att", "a", "horde", start, "NE"), ("dfn", "b", "archers", t, "SW")]))
    begin(g)
    move_to(g, "att", X, facing=NE)
    assert mods(g, t) == {"heavy unit": 1, "Barbarian Horde charge": 1}
    g, t = fight("horde", "archers")           # did not move
    assert mods(g, t) == {"heavy unit": 1}


def test_4_3_G_A11_cataphracts_plus_one_or_plus_two_after_moving():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g = Game(scenario([("att", "a", "cataphracts", walk(g0, X, SW), "NE"), ("dfn", "b", "archers", t, "SW")]))
    begin(g)
    move_to(g, "att", X, facing=NE)
    assert mods(g, t) == {"heavy unit": 1, "Cataphract charge": 2}
    g, t = fight("cataphracts", "archers")
    assert mods(g, t) == {"heavy unit": 1, "Cataphracts": 1}
    g, t = fight("archers", "cataphracts")
    assert mods(g, t, "defender") == {"heavy unit": 1, "Cataphracts": 1}


def test_4_3_G_A15_hoplites_and_phalangites_against_cavalry_and_in_flank():
    g, t = fight("HC", "hoplites")
    assert mods(g, t, "defender") == {"heavy unit": 1, "Hoplites attacked by cavalry from the front": 1}
    g, t = fight("HC", "phalangites")
    assert mods(g, t, "defender") == {"heavy unit": 1, "Phalangites attacked by cavalry from the front": 2}
    g, t = fight("HI", "phalangites")
    assert mods(g, t, "defender") == {"heavy unit": 1}
    g, t = fight("HI", "hoplites", def_facing="E")
    assert mods(g, t, "defender") == {"heavy unit": 1, "attacked in the flank": -1, "Hoplites attacked in the flank": -1}
    g, t = fight("HI", "phalangites", def_facing="NE")
    assert mods(g, t, "defender") == {"heavy unit": 1, "attacked in the rear": -1, "Phalangites attacked in the rear": -2}


def test_4_10_G_A23_both_roll_then_effects_defender_first():
    g, t = fight("archers", "archers")
    ev = play(g, "melee", (5, 6, 1, 2), unit="att", target=t)
    assert [e["why"] for e in events(ev, "die-roll")] == ["melee-attack", "melee-defence", "hit-effect", "hit-effect"]
    lost = [e["unit"] for e in events(ev, "sp-lost")]
    assert lost == ["dfn", "att"]
    assert unit(g, "dfn").strength == 1 and unit(g, "att").strength == 1


def test_4_10_four_or_less_misses():
    g, t = fight("archers", "archers")
    ev = play(g, "melee", (4, 4), unit="att", target=t)
    assert not events(ev, "sp-lost") and len(events(ev, "die-roll")) == 2


def test_4_11_hit_table_by_class():
    for grade, lose_max in (("excellent", 2), ("average", 3), ("poor", 4)):
        for roll in (lose_max, lose_max + 1):
            g, t = fight("archers", "skirmishers", def_grade=grade)
            play(g, "melee", (6, 1, roll), unit="att", target=t)
            if roll == lose_max:
                assert unit(g, "dfn").strength == 2 and not g.state.pending, grade
            else:
                assert g.state.pending[0]["kind"] == "choose-hit", grade
                assert g.to_act() == "b"


def test_G_A20_owner_chooses_retreat_straight_back_keeping_facing():
    g, t = fight("archers", "skirmishers")
    play(g, "melee", (6, 1, 6), unit="att", target=t)
    assert {o["choice"] for o in g.legal_orders() if o.kind == "choose-hit"} == {"retreat", "lose"}
    assert "pending" in why(g, "end-phase")
    g.apply(Order.make("choose-hit", unit="dfn", choice="retreat"))
    assert unit(g, "dfn").hex == H(g, walk(g, t, NE)) and unit(g, "dfn").facing == SW
    assert unit(g, "dfn").strength == 3


def test_G_A20_blocked_retreat_loses_sp():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("archers", "skirmishers", extra=[("b2", "b", "HI", walk(g0, t, NE), "SW")])
    ev = play(g, "melee", (6, 1, 6), unit="att", target=t)
    assert not g.state.pending and events(ev, "retreat-blocked")
    assert unit(g, "dfn").strength == 2


def test_G_A40_retreat_off_the_map_counts_as_blocked():
    g = Game(scenario([("att", "a", "archers", "0502", "NE"), ("dfn", "b", "skirmishers", "0601", "SW")]))
    begin(g)
    t = walk(g, "0502", NE)
    assert t == "0601" and walk(g, t, NE) not in [g.map.label(h) for h in g.map.hexes]
    ev = play(g, "melee", (6, 1, 6), unit="att", target=t)
    assert events(ev, "retreat-blocked") and unit(g, "dfn").strength == 2


def test_G_A20_variant_sideways_retreat():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("archers", "skirmishers", extra=[("b2", "b", "HI", walk(g0, t, NE), "SW")],
                 rules={"retreat_sideways": True})
    play(g, "melee", (6, 1, 6), unit="att", target=t)
    assert set(g.state.pending[0]["options"]) == {"retreat-left", "retreat-right", "lose"}
    g.apply(Order.make("choose-hit", unit="dfn", choice="retreat-left"))
    assert unit(g, "dfn").hex == H(g, walk(g, t, (SW + 2) % 6))


def test_4_10_winner_advances_and_may_fight_again():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    second = walk(g0, t, NE, NE)
    g, t = fight("HI", "skirmishers", extra=[("b2", "b", "archers", second, "SW"),
                                               ("ac", "a", "commander", X, "NE")])
    play(g, "melee", (6, 1, 6), unit="att", target=t)
    g.apply(Order.make("choose-hit", unit="dfn", choice="retreat"))
    assert g.state.pending[0]["kind"] == "advance" and g.to_act() == "a"
    g.apply(Order.make("advance", unit="att", yes=True, facing=NE))
    assert unit(g, "att").hex == H(g, t) and unit(g, "ac").hex == H(g, t)   # commander follows
    # the retreated skirmishers are now directly ahead again: a follow-up melee
    assert why(g, "melee", unit="att", target=walk(g, t, NE)) is None
    o = g.odds(Order.make("melee", unit="att", target=list(H(g, walk(g, t, NE)))))
    assert o["first_round"] is False


def test_G_A22_no_advance_when_the_attacker_is_also_pushed_back():
    g, t = fight("archers", "skirmishers")
    play(g, "melee", (6, 6, 6, 6), unit="att", target=t)
    g.apply(Order.make("choose-hit", unit="dfn", choice="retreat"))
    g.apply(Order.make("choose-hit", unit="att", choice="retreat"))
    assert not g.state.pending
    assert unit(g, "att").hex == H(g, walk(g, X, SW))


def test_G_A22_the_defender_never_advances():
    g, t = fight("archers", "HI")
    play(g, "melee", (1, 6, 6), unit="att", target=t)
    g.apply(Order.make("choose-hit", unit="att", choice="retreat"))
    assert not g.state.pending and unit(g, "dfn").hex == H(g, t)


def test_4_10_cavalry_may_not_move_after_melee_but_infantry_may_break_contact():
    g, t = fight("HC", "archers")
    play(g, "melee", (1, 1), unit="att", target=t)
    assert g.reachable("att") == {}
    g, t = fight("HI", "archers")
    play(g, "melee", (1, 1), unit="att", target=t)
    assert g.reachable("att")


def test_4_11_commander_retreats_with_its_unit():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t = fight("HI", "skirmishers", extra=[("bc", "b", "commander", t, "SW")])
    play(g, "melee", (6, 1, 6), unit="att", target=t)
    g.apply(Order.make("choose-hit", unit="dfn", choice="retreat"))
    assert unit(g, "bc").hex == unit(g, "dfn").hex == H(g, walk(g, t, NE))


def test_4_11_G_A4_commander_lost_when_his_unit_is_destroyed():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g = Game(scenario([("att", "a", "archers", walk(g0, t, SW, SW, SW), "NE"),
                       ("dfn", "b", "LC-jav", t, "SW", "poor"), ("bc", "b", "commander", t, "SW"),
                       ("b2", "b", "HI", "1001", "SE")]))
    begin(g)
    play(g, "shoot", (6, 1), unit="att", target=t)
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))
    ev = play(g, "shoot", (6, 1), unit="att", target=t)
    assert not unit(g, "dfn").alive and not unit(g, "bc").alive
    assert events(ev, "commander-lost")
    assert g.state.sides["b"]["lost"] == 2 + 6


def test_4_11_G_A4_commander_escape_variant():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g = Game(scenario([("att", "a", "archers", walk(g0, t, SW, SW, SW), "NE"),
                       ("dfn", "b", "LC-jav", t, "SW", "poor"), ("bc", "b", "commander", t, "SW"),
                       ("b2", "b", "HI", walk(g0, t, E, E), "SE")], rules={"commander_escape": True}))
    begin(g)
    play(g, "shoot", (6, 1), unit="att", target=t)
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))
    ev = play(g, "shoot", (6, 1, 3), unit="att", target=t)
    assert unit(g, "bc").alive and unit(g, "bc").hex == unit(g, "b2").hex
    assert events(ev, "commander-escaped")


def test_4_11_lone_commander_does_not_roll_and_any_hit_kills():
    g, t = fight("HI", "commander", extra=[("b9", "b", "HI", "1001", "SE")])
    o = g.odds(Order.make("melee", unit="att", target=list(H(g, t))))
    assert o["defender"] is None
    ev = play(g, "melee", (5,), unit="att", target=t)
    assert not unit(g, "dfn").alive and len(events(ev, "die-roll")) == 1
    assert g.state.pending and g.state.pending[0]["kind"] == "advance"
