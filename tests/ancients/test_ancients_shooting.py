"""1.6.4 field of fire, 1.6.5 line of sight, 4.9 shooting, 4.7.1 Missile-Engine Phase, 4.3 Pila."""

from fractions import Fraction

import pytest

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import hex_ring

from ancients_helpers import (
    E, NE, NW, SE, SW, W, H, L, begin, dice, events, move_to, play, scenario, unit, walk, why,
)


def odds(g, uid, target):
    return g.odds(Order.make("shoot", unit=uid, target=list(H(g, target))))


def test_1_6_4_field_of_fire_hexes_per_range():
    """An engine (range 6) at the centre of a 13x13 map, one enemy at a time on each ring."""
    rows = [" ".join("." * 13)] * 13
    base = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1301", "E")],
                         width=13, height=13, rows=rows))
    centre = H(base, "0707")
    counts = {}
    for rng in (1, 2, 3, 4, 5, 6):
        n = 0
        for h in hex_ring(centre, rng):
            g = Game(scenario([("en", "a", "engine", "0707", "E"), ("a2", "a", "HI", "0113", "E"),
                               ("t", "b", "HI", L(base, h), "W")], width=13, height=13, rows=rows))
            if g.state.phase == "engines" and why(g, "engine-fire", unit="en", target=L(base, h)) is None:
                n += 1
        counts[rng] = n
    # range 1 is in the sector but never shot (1.3): the engine phase is not even held
    assert counts == {1: 0, 2: 3, 3: 5, 4: 5, 5: 7, 6: 9}


def test_1_3_G_07_adjacent_enemies_are_never_shot():
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    t = walk(g, "0506", NE)
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("b1", "b", "HI", t, "SE")]))
    begin(g)
    assert "melee, not shot" in why(g, "shoot", unit="ar", target=t)


def test_4_9_range_and_field_of_fire():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    four = walk(g0, "0507", NE, NE, NE, NE)
    behind = walk(g0, "0507", W, W)
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", four, "SE"),
                       ("b2", "b", "HI", behind, "SE")]))
    begin(g)
    assert "range is 3" in why(g, "shoot", unit="ar", target=four)
    assert "field of fire" in why(g, "shoot", unit="ar", target=behind)
    assert g.targets("ar") == []


def test_4_9_G_A26_target_cell_must_hold_an_enemy():
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("a2", "a", "HI", "0505", "NE"),
                       ("b1", "b", "HI", "0101", "SE")]))
    begin(g)
    assert "enemy" in why(g, "shoot", unit="ar", target="0505")
    assert "enemy" in why(g, "shoot", unit="ar", target="0605")


def test_1_6_5_units_block_line_of_sight():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    mid, tgt = walk(g0, "0507", NE), walk(g0, "0507", NE, NE)
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("a2", "a", "HI", mid, "NE"),
                       ("b1", "b", "HI", walk(g0, "0507", NE, NE, NE), "SE")]))
    begin(g)
    assert "line of sight" in why(g, "shoot", unit="ar", target=walk(g0, "0507", NE, NE, NE))


def test_1_6_5_hill_higher_than_both_ends_blocks_and_both_ends_high_see_over():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    a, mid, t = H(g0, "0507"), H(g0, walk(g0, "0507", E)), H(g0, walk(g0, "0507", E, E))

    def rows(marks):
        grid = [["."] * 10 for _ in range(8)]
        for h, ch in marks.items():
            c, r = g0.map.offset(h)
            grid[r][c] = ch
        return [" ".join(x) for x in grid]

    units = [("ar", "a", "archers", "0507", "E"), ("b1", "b", "HI", L(g0, t), "W")]
    g = Game(scenario(units, rows=rows({mid: "h"})))
    begin(g)
    assert "line of sight" in why(g, "shoot", unit="ar", target=L(g0, t))
    units2 = units + [("a2", "a", "HI", L(g0, mid), "E")]
    g = Game(scenario(units2, rows=rows({a: "h", t: "h"})))
    begin(g)
    assert why(g, "shoot", unit="ar", target=L(g0, t)) is None   # both ends higher than the unit


def _forest_line():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    cells = [H(g0, walk(g0, "0207", *([E] * k))) for k in range(0, 5)]
    return g0, cells


def _rows(g0, marks):
    grid = [["."] * 10 for _ in range(8)]
    for h, ch in marks.items():
        c, r = g0.map.offset(h)
        grid[r][c] = ch
    return [" ".join(x) for x in grid]


def test_4_9_shoot_one_cell_into_forest_not_deeper():
    g0, c = _forest_line()
    rows = _rows(g0, {c[2]: "F", c[3]: "F"})
    g = Game(scenario([("ar", "a", "archers", L(g0, c[0]), "E"), ("b1", "b", "skirmishers", L(g0, c[2]), "W"),
                       ("b2", "b", "skirmishers", L(g0, c[3]), "W")], rows=rows))
    begin(g)
    assert why(g, "shoot", unit="ar", target=L(g0, c[2])) is None
    assert "line of sight" in why(g, "shoot", unit="ar", target=L(g0, c[3]))
    o = odds(g, "ar", L(g0, c[2]))
    assert ["target in cover (forest)", -1] in o["modifiers"]


def test_4_9_shoot_out_of_forest_only_if_next_cell_clear_and_range_minus_one():
    g0, c = _forest_line()
    rows = _rows(g0, {c[0]: "F", c[1]: "F"})
    g = Game(scenario([("ar", "a", "archers", L(g0, c[1]), "E"), ("b1", "b", "HI", L(g0, c[3]), "W"),
                       ("b2", "b", "HI", L(g0, c[4]), "W"), ("a2", "a", "archers", L(g0, c[0]), "E")],
                      rows=rows))
    begin(g)
    assert why(g, "shoot", unit="ar", target=L(g0, c[3])) is None        # range 3-1 = 2
    # at range 3 from the forest edge the range is too short (and b1 blocks anyway)
    assert why(g, "shoot", unit="ar", target=L(g0, c[4])) is not None
    # a shooter in a forest with forest next to it in the line of fire cannot see out
    g = Game(scenario([("lc", "a", "LC-bow", L(g0, c[0]), "E"), ("b1", "b", "HI", L(g0, c[2]), "W")],
                      rows=rows))
    begin(g)
    assert "line of sight" in why(g, "shoot", unit="lc", target=L(g0, c[2]))


def test_4_9_modifiers_not_moved_commander_and_hit_on_5():
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("ac", "a", "commander", "0507", "NE"),
                       ("b1", "b", "HI", "0505", "SE")]))
    begin(g)
    o = odds(g, "ar", "0505")
    assert o["modifiers"] == [["shooter has not moved this turn", 1],
                              ["friendly commander with the shooter", 1]]
    assert o["need"] == 3 and o["hit"] == Fraction(4, 6)
    ev = play(g, "shoot", (2, 1), unit="ar", target="0505")     # 2 + 2 = 4: miss
    assert events(ev, "shot")[0]["hit"] is False and unit(g, "b1").strength == 4


def test_4_9_moved_shooter_loses_the_bonus_pivot_does_not():
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0504", "SE")]))
    begin(g)
    play(g, "pivot", unit="ar", facing=NW)
    assert ["shooter has not moved this turn", 1] in odds(g, "ar", "0504")["modifiers"]
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0503", "SE")]))
    begin(g)
    move_to(g, "ar", walk(g, "0507", NW), facing=NE)
    o = odds(g, "ar", "0503")
    assert o["modifiers"] == [] and o["hit"] == Fraction(2, 6)
    ev = play(g, "shoot", (5, 1), unit="ar", target="0503")
    assert events(ev, "shot")[0]["hit"] and unit(g, "b1").strength == 3


def test_4_9_G_A27_target_behind_forest_is_in_cover():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    src = H(g0, "0507")
    # a target 2 cells away along the edge between two cells: one of them forest
    tgt = H(g0, walk(g0, "0507", E, NE))
    a_side, b_side = H(g0, walk(g0, "0507", E)), H(g0, walk(g0, "0507", NE))
    g = Game(scenario([("ar", "a", "archers", "0507", "E"), ("b1", "b", "HI", L(g0, tgt), "W")],
                      rows=_rows(g0, {a_side: "F"})))
    begin(g)
    assert why(g, "shoot", unit="ar", target=L(g0, tgt)) is None
    assert ["target behind forest", -1] in odds(g, "ar", L(g0, tgt))["modifiers"]


def test_4_9_fortified_target_minus_one():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = H(g0, "0505")
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0505", "SE")],
                      rows=_rows(g0, {t: "#"})))
    begin(g)
    assert ["target in fortifications", -1] in odds(g, "ar", "0505")["modifiers"]


def test_4_9_once_per_turn_and_not_from_a_river():
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0505", "SE")]))
    begin(g)
    play(g, "shoot", (1,), unit="ar", target="0505")
    assert "already shot" in why(g, "shoot", unit="ar", target="0505")
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0505", "SE")],
                      rows=_rows(g0, {H(g0, "0507"): "~"})))
    begin(g)
    assert "river" in why(g, "shoot", unit="ar", target="0505")


def test_G_A25_a_unit_in_contact_may_shoot_another_target_unless_variant():
    units = [("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0505", "SE"),
             ("b2", "b", "HI", "0607", "W")]
    g = Game(scenario(units))
    begin(g)
    assert why(g, "shoot", unit="ar", target="0505") is None
    g = Game(scenario(units, rules={"no_shoot_in_contact": True}))
    begin(g)
    assert "contact" in why(g, "shoot", unit="ar", target="0505")


def test_G_A38_unit_with_commander_takes_the_hit_lone_commander_is_lost():
    g = Game(scenario([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0505", "SE"),
                       ("bc", "b", "commander", "0505", "SE"), ("bc2", "b", "commander", "0705", "SE"),
                       ("a2", "a", "archers", "0707", "NE")]))
    begin(g)
    play(g, "shoot", (6, 1), unit="ar", target="0505")
    assert unit(g, "b1").strength == 3 and unit(g, "bc").alive
    ev = play(g, "shoot", (6,), unit="a2", target="0705")
    assert not unit(g, "bc2").alive and events(ev, "commander-lost")
    assert g.state.sides["b"]["lost"] == 1 + 6


# --- 4.7.1 Missile-Engine Phase ----------------------------------------------------------------

def _engines(rules=None, extra=()):
    return Game(scenario([("ea", "a", "engine", "0507", "NE"), ("eb", "b", "engine", "0502", "SW"),
                          ("a2", "a", "HI", "0108", "NE"), ("b2", "b", "HI", "1001", "SE"), *extra],
                         rules=rules))


def test_4_7_1_engine_phase_comes_first_and_both_sides_declare():
    g = _engines()
    assert g.state.phase == "engines" and g.state.active == "a"
    assert why(g, "engine-fire", unit="ea", target="0502") is None
    assert why(g, "move", unit="ea", path=[[0, 0]], facing=0) is not None
    g.apply(Order.make("engine-fire", unit="ea", target=list(H(g, "0502"))))
    assert not g.needs_dice(Order.make("end-phase"))
    g.apply(Order.make("end-phase"))
    assert g.state.active == "b"
    g.apply(Order.make("engine-fire", unit="eb", target=list(H(g, "0507"))))
    end = Order.make("end-phase")
    assert g.needs_dice(end)
    # all engine dice (a's, b's), then the hit-table dice, then initiative
    ev = g.apply(end, dice(6, 6, 1, 1, 6, 1))
    rolls = [(e["why"], e["value"]) for e in events(ev, "die-roll")]
    assert rolls == [("engine-fire", 6), ("engine-fire", 6), ("hit-effect", 1), ("hit-effect", 1),
                     ("initiative", 6), ("initiative", 1)]
    assert unit(g, "ea").strength == 1 and unit(g, "eb").strength == 1
    assert g.state.phase == "activation"


def test_4_7_1_an_engine_destroyed_in_the_phase_still_fires():
    g = _engines()
    for turn in (1, 2):
        assert g.state.phase == "engines" and g.state.turn == turn
        g.apply(Order.make("engine-fire", unit="ea", target=list(H(g, "0502"))))
        g.apply(Order.make("end-phase"))
        g.apply(Order.make("engine-fire", unit="eb", target=list(H(g, "0507"))))
        ev = g.apply(Order.make("end-phase"), dice(6, 6, 1, 1, 6, 1))
        assert len(events(ev, "shot")) == 2
        if turn == 1:
            g.apply(Order.make("end-phase"))
            g.apply(Order.make("end-phase"))   # next turn opens with the engine phase: no dice
    assert not unit(g, "ea").alive and not unit(g, "eb").alive
    assert len(events(ev, "destroyed")) == 2


def test_4_7_1_fired_engine_may_not_move_engine_in_river_may_not_fire():
    g = _engines()
    g.apply(Order.make("engine-fire", unit="ea", target=list(H(g, "0502"))))
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(1, 6, 1))  # b declares nothing; miss; initiative
    assert g.state.phase == "activation"
    if g.state.active != "a":
        g.apply(Order.make("end-phase"))
    assert "may not move" in why(g, "pivot", unit="ea", facing=E)
    assert g.reachable("ea") == {}
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    g = Game(scenario([("ea", "a", "engine", "0507", "NE"), ("b2", "b", "HI", "0502", "SE")],
                      rows=_rows(g0, {H(g0, "0507"): "~"})))
    assert g.state.phase == "initiative"   # no engine can fire, so no engine phase


def test_4_7_1_engine_fire_destroying_units_before_initiative():
    g = _engines()
    g.apply(Order.make("engine-fire", unit="ea", target=list(H(g, "0502"))))
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("engine-fire", unit="eb", target=list(H(g, "0507"))))
    ev = g.apply(Order.make("end-phase"), dice(6, 6, 5, 5))
    # both hits gave "retreat or lose": the owners decide before initiative is rolled
    assert g.state.pending and g.state.pending[0]["unit"] == "eb"
    assert not events(ev, "initiative")
    assert not g.needs_dice(Order.make("choose-hit", unit="eb", choice="lose"))
    g.apply(Order.make("choose-hit", unit="eb", choice="lose"))
    last = Order.make("choose-hit", unit="ea", choice="retreat")
    assert g.needs_dice(last)
    ev = g.apply(last, dice(6, 1))
    assert events(ev, "initiative") and unit(g, "ea").hex == H(g, walk(g, "0507", SW))


# --- 4.3 Pila ----------------------------------------------------------------------------------

def test_4_3_G_A13_pila_once_per_battle_at_range_two_then_melee():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t2 = walk(g0, "0507", NE, NE)
    units = [("lg", "a", "legionaries", "0507", "NE"), ("b1", "b", "HI", t2, "SW")]
    g = Game(scenario(units))
    begin(g)
    assert "no missile" in why(g, "shoot", unit="lg", target=t2)
    g = Game(scenario(units, rules={"pila": True}))
    begin(g)
    ev = play(g, "shoot", (6, 1), unit="lg", target=t2)
    assert unit(g, "b1").strength == 3
    # pila do not reduce movement: 2 cells; it moves into contact and attacks
    move_to(g, "lg", walk(g, "0507", NE), facing=NE)
    assert why(g, "melee", unit="lg", target=t2) is None
    play(g, "melee", (1, 1), unit="lg", target=t2)
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))
    assert "already thrown" in why(g, "shoot", unit="lg", target=t2)
