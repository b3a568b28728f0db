"""4.2-4.7 units, classes, SP, Exhaustion Point, turn sequence; 4.15 victory; 4.16 scenario."""

import pytest

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import hex_distance
from hexwar.scenarios.loader import ScenarioError, load_scenario, builtin_dir

from ancients_helpers import (
    E, NE, NW, SE, SW, W, H, begin, dice, events, move_to, play, scenario, unit, walk, why,
)

BASE = {
    "archers": (2, 3, 3), "skirmishers": (3, 3, 2), "HI": (4, 2, 0), "LC-bow": (2, 4, 3),
    "LC-jav": (2, 4, 2), "HC": (3, 3, 0), "chariots": (2, 3, 2), "elephants": (3, 3, 2),
    "engine": (2, 1, 6), "commander": (6, 3, 0),
}
SPECIAL = {"horde": (3, 3, 0), "cataphracts": (4, 3, 0), "persian-archers": (4, 3, 3),
           "hoplites": (4, 2, 0), "phalangites": (4, 2, 0), "legionaries": (5, 2, 0)}


def test_4_2_unit_types_sp_move_range():
    rs = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])).ruleset
    for kind, (sp, mv, rng) in BASE.items():
        t = rs.unit_types[kind]
        assert (t["strength"], t["move"], t["range"]) == (sp, mv, rng), kind


def test_4_3_special_units_sp_move_range():
    rs = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])).ruleset
    for kind, (sp, mv, rng) in SPECIAL.items():
        t = rs.unit_types[kind]
        assert (t["strength"], t["move"], t["range"]) == (sp, mv, rng), kind
    assert rs.unit_types["horde"]["forest"] and not rs.unit_types["horde"]["dash"]
    assert not rs.unit_types["persian-archers"]["light"]


def test_4_4_every_unit_has_a_class_default_average():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("a2", "a", "HI", "0606", "NE", "poor"),
                       ("b1", "b", "HI", "0101", "SE")]))
    assert unit(g, "a1").grade == "average" and unit(g, "a2").grade == "poor"
    with pytest.raises(ScenarioError):
        scenario([("a1", "a", "HI", "0506", "NE", "elite"), ("b1", "b", "HI", "0101", "SE")])


def test_4_5_G_A36_class_sp_adjustment_is_a_scenario_option():
    units = [("a1", "a", "HI", "0506", "NE", "excellent"), ("a2", "a", "HI", "0606", "NE", "poor"),
             ("ac", "a", "commander", "0506", "NE", "excellent"), ("b1", "b", "HI", "0101", "SE")]
    g = Game(scenario(units))
    assert (unit(g, "a1").strength, unit(g, "a2").strength) == (4, 4)
    g = Game(scenario(units, rules={"class_sp_adjust": True}))
    assert (unit(g, "a1").strength, unit(g, "a2").strength, unit(g, "ac").strength) == (5, 3, 6)


def test_4_6_G_A5_exhaustion_point_counts_the_commander():
    g = Game(load_scenario(builtin_dir() / "border-clash.toml"))
    for sid in g.state.side_order:
        assert g.state.sides[sid]["initial"] == 36
        assert g.state.sides[sid]["ep"] == 12
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("ac", "a", "commander", "0506", "NE"),
                       ("b1", "b", "HI", "0101", "SE")]))
    assert g.state.sides["a"]["ep"] == 4 and g.state.sides["b"]["ep"] == 2  # ceil(10/3), ceil(4/3)


def _shot_twice():
    """b's archers hit a's lone HI twice (lose 1 SP each): a (4 SP, EP 2) is at its EP."""
    g = Game(scenario([("hi", "a", "HI", "0506", "NE"),
                       ("ar", "b", "archers", "0503", "SE"), ("b2", "b", "HI", "1001", "SE")]))
    begin(g, "b")
    play(g, "shoot", (6, 1), unit="ar", target="0506")
    g.apply(Order.make("end-phase"))                    # b -> a
    g.apply(Order.make("end-phase"), dice(1, 6))         # next turn, b first again
    assert g.state.turn == 2 and g.state.active == "b"
    assert not g.state.sides["a"]["exhausted"]
    play(g, "shoot", (6, 1), unit="ar", target="0506")
    assert g.state.sides["a"]["lost"] == 2
    assert not g.state.sides["a"]["exhausted"]          # G-A33: only at the next turn's check
    g.apply(Order.make("end-phase"))
    ev = g.apply(Order.make("end-phase"), dice(6, 1))
    assert g.state.sides["a"]["exhausted"] and events(ev, "exhausted")
    return g


def test_4_6_G_A33_army_at_ep_is_exhausted_from_the_next_turn():
    g = _shot_twice()
    assert g.state.turn == 3 and g.state.active == "a"


def test_4_6_G_A7_exhausted_army_may_not_attack_or_move_closer():
    g = _shot_twice()
    # walk the HI next to... it may not move closer to any enemy
    start = H(g, "0506")
    near = min(hex_distance(start, unit(g, u).hex) for u in ("ar", "b2"))
    dests = g.reachable("hi")
    assert dests and all(min(hex_distance(h, unit(g, u).hex) for u in ("ar", "b2")) >= near
                         for h in dests)
    assert all(o.kind != "melee" for o in g.legal_orders())


def test_4_6_exhausted_army_may_still_shoot():
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("b1", "b", "HI", "0503", "SE"),
                       ("b2", "b", "archers", "0603", "SE")]))
    begin(g, "b")
    play(g, "shoot", (6, 1), unit="b2", target="0506")
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))
    assert g.state.sides["a"]["exhausted"]
    assert why(g, "shoot", unit="ar", target="0503") is None


def test_4_7_initiative_higher_roll_goes_first():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    assert g.state.phase == "initiative"
    ev = g.apply(Order.make("end-phase"), dice(2, 5))
    assert g.state.active == "b" and g.state.phase == "activation"
    assert [e["value"] for e in events(ev, "die-roll")] == [2, 5]


def test_G_10_initiative_ties_are_rerolled():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    ev = g.apply(Order.make("end-phase"), dice(4, 4, 6, 3))
    assert events(ev, "initiative-tie") and g.state.active == "a"
    assert [e["value"] for e in events(ev, "die-roll")] == [4, 4, 6, 3]


def test_4_7_igougo_first_player_then_second_then_next_turn():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    begin(g, "b")
    end = Order.make("end-phase")
    assert not g.needs_dice(end)             # passing to the second player rolls nothing
    g.apply(end)
    assert g.state.active == "a" and g.state.turn == 1
    assert g.needs_dice(end)                 # ending the turn rolls next turn's initiative
    g.apply(end, dice(3, 5))
    assert g.state.turn == 2 and g.state.active == "b"


def test_G_A8_one_unit_at_a_time_and_acting_with_another_ends_the_first():
    g = Game(scenario([("a1", "a", "archers", "0506", "NE"), ("a2", "a", "HI", "0606", "NE"),
                       ("b1", "b", "HI", "0303", "SE")]))
    begin(g)
    move_to(g, "a1", walk(g, "0506", W))
    move_to(g, "a2", walk(g, "0606", NE))
    assert "already been activated" in why(g, "shoot", unit="a1", target="0303")
    assert "already been activated" in why(g, "end-activation", unit="a1")


def test_G_A8_move_then_shoot_needs_one_cell_less():
    g = Game(scenario([("a1", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0502", "SE")]))
    begin(g)
    move_to(g, "a1", walk(g, "0507", NE, NW, NE), facing=NW)   # full 3 cells
    assert "1 cell less" in why(g, "shoot", unit="a1", target="0502")
    g2 = Game(scenario([("a1", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0502", "SE")]))
    begin(g2)
    move_to(g2, "a1", walk(g2, "0507", NE, NW), facing=NW)     # 2 cells: may still shoot
    assert why(g2, "shoot", unit="a1", target="0502") is None


def test_G_A8_shoot_then_move_with_one_cell_less():
    g = Game(scenario([("a1", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0504", "SE")]))
    begin(g)
    play(g, "shoot", (1,), unit="a1", target="0504")
    dests = g.reachable("a1")
    assert dests and max(hex_distance(H(g, "0507"), h) for h in dests) == 2
    assert "may not also attack" in why(g, "melee", unit="a1", target="0504")


def test_G_A8_melee_then_break_contact_move_infantry_only():
    units = [("hi", "a", "HI", "0506", "NE"), ("hc", "a", "HC", "0806", "NE"),
             ("b1", "b", "HI", None, "SE"), ("b2", "b", "HI", None, "SE")]
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t1, t2 = walk(g0, "0506", NE), walk(g0, "0806", NE)
    units[2] = ("b1", "b", "HI", t1, "SW")
    units[3] = ("b2", "b", "HI", t2, "SW")
    g = Game(scenario(units))
    begin(g)
    play(g, "melee", (1, 1), unit="hi", target=t1)     # both miss
    dests = g.reachable("hi")
    assert dests and all(hex_distance(h, H(g, t1)) >= 2 for h in dests)
    play(g, "melee", (1, 1), unit="hc", target=t2)
    assert g.reachable("hc") == {}
    assert "not infantry" in why(g, "pivot", unit="hc", facing=W)


def test_4_7_engines_only_move_and_commanders_only_move_in_activation():
    g = Game(scenario([("en", "a", "engine", "0507", "NE"), ("ac", "a", "commander", "0707", "NE"),
                       ("b1", "b", "HI", "0108", "SE")]))
    begin(g)
    assert "Missile-Engine Phase" in why(g, "shoot", unit="en", target="0108")
    assert "Missile-Engine Phase" in why(g, "engine-fire", unit="en", target="0108")
    assert g.reachable("en") and g.reachable("ac")
    assert "no missile" in why(g, "shoot", unit="ac", target="0108")


def test_4_15_side_with_only_commanders_left_loses():
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("b1", "b", "LC-jav", "0503", "SE", "poor"),
                       ("bc", "b", "commander", "0101", "SE")]))
    begin(g)
    play(g, "shoot", (6, 1), unit="ar", target="0503")
    assert g.over is False
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))
    ev = play(g, "shoot", (6, 1), unit="ar", target="0503")
    assert g.over and g.state.result["winner"] == "a" and events(ev, "game-over")


def test_4_15_turn_limit_then_lower_fraction_lost_wins_or_draw():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")], turns=1))
    begin(g)
    g.apply(Order.make("end-phase"))
    ev = g.apply(Order.make("end-phase"))
    assert g.over and g.state.result["winner"] is None and "turn limit" in g.state.result["reason"]
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("b1", "b", "HI", "0503", "SE"),
                       ("b2", "b", "HI", "1001", "SE")], turns=1))
    begin(g)
    play(g, "shoot", (6, 1), unit="ar", target="0503")
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"))
    assert g.state.result["winner"] == "a"


def test_4_15_later_exhausted_side_wins_at_the_limit():
    g = _shot_twice()   # a exhausted at turn 3, b never
    while not g.over:
        g.apply(Order.make("end-phase"), dice(6, 1))
    assert g.state.result["winner"] == "b"


def test_4_6_both_armies_exhausted_ends_the_battle():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    far = walk(g0, "0506", NE, NE)
    g = Game(scenario([("ar", "a", "archers", "0506", "NE"), ("a2", "a", "HI", "0108", "NE"),
                       ("bs", "b", "skirmishers", far, "SW"), ("b2", "b", "LC-jav", "1001", "SE")]))
    assert (g.state.sides["a"]["ep"], g.state.sides["b"]["ep"]) == (2, 2)
    begin(g, "a")
    for _ in range(2):
        play(g, "shoot", (6, 1), unit="ar", target=far)
        g.apply(Order.make("end-phase"))
        play(g, "shoot", (6, 1), unit="bs", target="0506")
        if g.state.turn == 1:
            g.apply(Order.make("end-phase"), dice(6, 1))
    end = Order.make("end-phase")
    assert not g.needs_dice(end)       # the battle ends at the check: no initiative to roll
    ev = g.apply(end)
    assert g.over and events(ev, "game-over")
    assert "both armies" in g.state.result["reason"]
    assert g.state.result["winner"] == "a"   # same check: a lost 2/6, b lost 2/5


def test_resign_ends_the_game_for_the_side_to_act():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    begin(g, "b")
    g.apply(Order.make("resign"))
    assert g.state.result["winner"] == "a"


def test_4_16_border_clash_map_and_forces():
    s = load_scenario(builtin_dir() / "border-clash.toml")
    assert s.id == "border-clash" and s.turns == 15
    m = s.map
    assert (m.width, m.height, m.orientation) == (12, 8, "pointy")
    hills = sorted(m.label(h) for h in m.hexes if m.terrain_at(h) == "hill")
    assert hills == ["0404", "0905"]
    assert sum(1 for h in m.hexes if m.terrain_at(h) == "forest") == 3
    assert sum(1 for h in m.hexes if m.terrain_at(h) == "river") == 2
    for side in ("red", "blue"):
        us = [u for u in s.units if u.side == side]
        kinds = sorted(u.kind for u in us)
        assert kinds == sorted(["commander"] + ["HI"] * 4 + ["archers"] * 2 + ["skirmishers"]
                               + ["LC-jav"] * 2 + ["HC"])
        assert [u.kind for u in us if u.grade == "excellent"] == ["HI"]
        assert [u.kind for u in us if u.grade == "poor"] == ["LC-jav"]
        edge = s.side(side).home_edge
        assert all(m.rows_from_edge(u.hex, edge) <= 1 for u in us)
        facing = {"north": (SE, SW), "south": (NE, NW)}[edge]
        assert all(u.facing in facing for u in us)
    g = Game(s)
    assert all(g.state.sides[x]["initial"] == 36 and g.state.sides[x]["ep"] == 12 for x in ("red", "blue"))


def test_check_scenario_refuses_bad_stacking_terrain_and_rule_flags():
    with pytest.raises(ScenarioError, match="already holds a2"):
        scenario([("a1", "a", "commander", "0506", "NE"), ("a2", "a", "HI", "0506", "NE"),
                  ("a3", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    rows = [". . . . . . . . . ."] * 3 + [". . . . F . . . . ."] + [". . . . . . . . . ."] * 4
    with pytest.raises(ScenarioError, match="may not stand in forest"):
        scenario([("a1", "a", "HI", "0504", "NE"), ("b1", "b", "HI", "0101", "SE")], rows=rows)
    with pytest.raises(ScenarioError, match="unknown rule flag"):
        scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")],
                 rules={"flying_elephants": True})
