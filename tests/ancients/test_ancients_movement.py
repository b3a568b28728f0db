"""4.8 Movement and the terrain rules of 4.12 that concern movement."""

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import hex_distance
from hexwar.scenarios.loader import builtin_dir, load_scenario

from ancients_helpers import (
    E, NE, NW, SE, SW, W, H, L, begin, move_to, play, scenario, unit, walk, why,
)


def game_of(units, **kw):
    g = Game(scenario(units, **kw))
    begin(g, "a")
    return g


def test_4_8_1_movement_counts_cells_through_sides():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    dests = g.reachable("a1")
    start = H(g, "0506")
    assert dests and all(1 <= hex_distance(start, h) <= 2 for h in dests)
    assert len(dests) == 18  # every hex within 2 cells on open ground


def test_4_8_2_each_unit_moves_once_per_turn():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    move_to(g, "a1", walk(g, "0506", NE))
    assert g.reachable("a1") == {}
    assert "already moved" in why(g, "pivot", unit="a1", facing=W)


def test_4_8_5_units_pass_through_friends_but_not_enemies():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("a2", "a", "HI", "0606", "NE"),
                 ("b1", "b", "HI", "0101", "SE")])
    beyond = walk(g, "0506", E, E)
    assert H(g, beyond) in g.reachable("a1")           # through the friend at 0606
    assert H(g, "0606") not in g.reachable("a1")       # but not ending on it


def test_G_A19_nobody_passes_through_an_elephant_and_elephants_pass_nobody():
    g = game_of([("a1", "a", "HI", "0506", "E"), ("el", "a", "elephants", "0606", "E"),
                 ("a3", "a", "HI", "0706", "E"), ("b1", "b", "HI", "0101", "SE")])
    assert H(g, walk(g, "0506", E, E)) not in g.reachable("a1")
    # the elephant cannot pass through the HI in front of it
    assert H(g, walk(g, "0606", E, E)) not in g.reachable("el")


def test_4_8_6_units_may_turn_and_end_facing_any_side():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    dest = walk(g, "0506", W)
    facings = {o["facing"] for o in g.legal_orders() if o.kind == "move" and o["unit"] == "a1"
               and L(g, tuple(o["path"][-1])) == dest}
    assert facings == set(range(6))


def test_4_8_7_elephants_choose_facing_first_and_move_straight():
    g = game_of([("el", "a", "elephants", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    dests = g.reachable("el")
    start = H(g, "0506")
    # 3 cells along E, W, NE, NW; the map ends 2 rows below, so 2 cells along SE and SW
    assert len(dests) == 3 * 4 + 2 * 2
    assert H(g, walk(g, "0506", E, NE)) not in dests  # a turn on the way is not allowed
    path = [list(h) for h in dests[H(g, walk(g, "0506", W, W))].path]
    bad = Order.make("move", unit="el", path=path, facing=NE)
    assert "facing" in g.validate(bad)
    play(g, "move", unit="el", path=path, facing=W)
    assert unit(g, "el").facing == W


def test_4_8_8_commander_may_join_a_unit_but_units_may_not_share():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("a2", "a", "HI", "0606", "NE"),
                 ("ac", "a", "commander", "0608", "E"), ("ac2", "a", "commander", "0708", "E"),
                 ("b1", "b", "HI", "0101", "SE")])
    assert H(g, "0606") in g.reachable("ac")           # a commander joins a friendly unit
    assert H(g, "0606") not in g.reachable("a1")       # a unit may not end on another
    move_to(g, "ac", "0606")
    assert H(g, "0606") not in g.reachable("ac2")      # at most one commander per cell
    # a unit may not move into a cell where only a commander stands
    g2 = game_of([("a1", "a", "HI", "0506", "NE"), ("ac", "a", "commander", "0606", "E"),
                  ("b1", "b", "HI", "0101", "SE")])
    assert H(g2, "0606") not in g2.reachable("a1")


def test_4_8_9_entering_enemy_adjacent_cell_stops_and_faces():
    g = game_of([("lc", "a", "LC-jav", "0507", "NE"), ("b1", "b", "HI", "0503", "SE")])
    dests = g.reachable("lc")
    enemy = H(g, "0503")
    for dest, route in dests.items():
        # no route goes on after a cell next to the enemy
        assert all(hex_distance(h, enemy) > 1 for h in route.path[:-1])
    stop = next(h for h in sorted(dests) if hex_distance(h, enemy) == 1)
    facings = {o["facing"] for o in g.legal_orders() if o.kind == "move"
               and tuple(o["path"][-1]) == stop}
    assert len(facings) == 1 and H(g, walk(g, L(g, stop), facings.pop())) == enemy


def test_4_8_9_mover_picks_which_adjacent_enemy_to_face():
    g = game_of([("lc", "a", "LC-jav", "0506", "NE"), ("b1", "b", "HI", "0603", "SE"),
                 ("b2", "b", "HI", "0503", "SE")])
    common = [h for h in g.reachable("lc") if hex_distance(h, H(g, "0603")) == 1
              and hex_distance(h, H(g, "0503")) == 1]
    assert common
    facings = {o["facing"] for o in g.legal_orders() if o.kind == "move"
               and tuple(o["path"][-1]) == common[0]}
    assert len(facings) == 2


def test_4_8_10_elephant_stops_next_to_enemy_without_turning():
    g = game_of([("el", "a", "elephants", "0507", "E"), ("b1", "b", "HI", "0806", "SE")])
    dests = g.reachable("el")
    east = [H(g, walk(g, "0507", *([E] * k))) for k in (1, 2, 3)]
    stop = next(h for h in east if hex_distance(h, H(g, "0806")) == 1)
    assert stop in dests
    assert all(h not in dests for h in east[east.index(stop) + 1:])
    path = [list(h) for h in dests[stop].path]
    assert g.validate(Order.make("move", unit="el", path=path, facing=NE)) is not None
    play(g, "move", unit="el", path=path, facing=E)


def test_4_8_11_break_contact_moves_away_never_next_to_an_enemy():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0605", "SE"),
                 ("b2", "b", "HI", "0207", "SE")])
    b1 = H(g, "0605")
    assert hex_distance(H(g, "0506"), b1) == 1
    dests = g.reachable("a1")
    assert dests
    for dest, route in dests.items():
        for h in route.path:
            assert hex_distance(h, b1) >= 2 and hex_distance(h, H(g, "0207")) >= 2


def test_G_A37_no_break_contact_into_another_enemy_zone():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0605", "SE"),
                 ("b2", "b", "HI", "0307", "E")])
    b2 = H(g, "0307")
    assert all(hex_distance(h, b2) >= 2 for r in g.reachable("a1").values() for h in r.path)


def test_4_8_12_dash_doubles_the_move_on_5_or_6():
    g = game_of([("lc", "a", "LC-jav", "0507", "NE"), ("b1", "b", "HI", "0101", "SE")])
    start = H(g, "0507")
    ev = play(g, "dash", (5,), unit="lc")
    assert any(e["t"] == "dash" and e["success"] for e in ev)
    assert max(hex_distance(start, h) for h in g.reachable("lc")) > 4
    g2 = game_of([("lc", "a", "LC-jav", "0507", "NE"), ("b1", "b", "HI", "0101", "SE")])
    play(g2, "dash", (4,), unit="lc")
    assert max(hex_distance(start, h) for h in g2.reachable("lc")) == 4


def test_G_A10_declaring_a_dash_forfeits_shooting_even_if_it_fails():
    g = game_of([("lc", "a", "LC-jav", "0507", "NE"), ("b1", "b", "HI", "0505", "SE")])
    assert why(g, "shoot", unit="lc", target="0505") is None
    play(g, "dash", (1,), unit="lc")
    assert "dash" in why(g, "shoot", unit="lc", target="0505")


def test_G_A35_heavy_troops_horde_and_persian_archers_may_not_dash():
    g = game_of([("hi", "a", "HI", "0507", "NE"), ("ho", "a", "horde", "0307", "NE"),
                 ("pa", "a", "persian-archers", "0707", "NE"), ("ch", "a", "chariots", "0907", "NE"),
                 ("b1", "b", "HI", "0101", "SE")])
    for uid in ("hi", "ho", "pa"):
        assert "may not dash" in why(g, "dash", unit=uid)
    assert why(g, "dash", unit="ch") is None


FOREST_ROWS = [
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . F F F . . .",
    ". . . . F F F . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
]


def test_4_8_forest_only_light_troops_enter_and_entering_stops():
    g = game_of([("hi", "a", "HI", "0506", "NE"), ("sk", "a", "skirmishers", "0306", "NE"),
                 ("ho", "a", "horde", "0806", "NE"), ("pa", "a", "persian-archers", "0106", "NE"),
                 ("b1", "b", "HI", "0101", "SE")], rows=FOREST_ROWS)
    forest = {h for h in g.map.hexes if g.map.terrain_at(h) == "forest"}
    assert not forest & set(g.reachable("hi"))
    assert not forest & set(g.reachable("pa"))
    sk = g.reachable("sk")
    assert forest & set(sk) and forest & set(g.reachable("ho"))
    for route in sk.values():  # no route continues after entering a forest cell
        assert all(h not in forest for h in route.path[:-1])


def test_4_8_forest_to_forest_move_is_one_cell():
    g = game_of([("sk", "a", "skirmishers", "0605", "NE"), ("b1", "b", "HI", "0101", "SE")],
                rows=FOREST_ROWS)
    forest = {h for h in g.map.hexes if g.map.terrain_at(h) == "forest"}
    start = H(g, "0605")
    assert start in forest
    for dest in g.reachable("sk"):
        if dest in forest:
            assert hex_distance(start, dest) == 1


RIVER_ROWS = [
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    "= = = ~ ~ = = = = =",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
]


def test_4_12_river_entering_stops_and_starting_in_it_moves_one_cell():
    g = game_of([("lc", "a", "LC-jav", "0405", "NW"), ("b1", "b", "HI", "0101", "SE")],
                rows=RIVER_ROWS)
    ford = H(g, "0404")
    routes = g.reachable("lc")
    assert ford in routes
    river = {h for h in g.map.hexes if g.map.terrain_at(h) in ("river", "deep-river")}
    for route in routes.values():
        assert all(h not in river for h in route.path[:-1])  # nobody crosses in one move
    play(g, "move", unit="lc", path=[list(ford)], facing=NW)
    assert unit(g, "lc").hex == ford


def test_4_12_start_in_river_move_reduced_to_one():
    g = game_of([("lc", "a", "LC-jav", "0404", "NW"), ("b1", "b", "HI", "0101", "SE")],
                rows=RIVER_ROWS)
    assert g.map.terrain_at(H(g, "0404")) == "river"
    assert max(hex_distance(H(g, "0404"), h) for h in g.reachable("lc")) == 1


def test_G_A28_deep_river_cells_are_impassable():
    g = game_of([("lc", "a", "LC-jav", "0205", "NW"), ("b1", "b", "HI", "0101", "SE")],
                rows=RIVER_ROWS)
    deep = {h for h in g.map.hexes if g.map.terrain_at(h) == "deep-river"}
    assert not deep & set(g.reachable("lc"))


VILLAGE_ROWS = [
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . v # . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
    ". . . . . . . . . .",
]


def test_G_A29_villages_and_fortifications_infantry_and_commanders_only_and_stop():
    g = game_of([("hi", "a", "HI", "0505", "NE"), ("hc", "a", "HC", "0605", "NE"),
                 ("ac", "a", "commander", "0705", "NE"), ("b1", "b", "HI", "0101", "SE")],
                rows=VILLAGE_ROWS)
    built = {H(g, "0504"), H(g, "0604")}
    assert built <= set(g.reachable("hi")) | {H(g, "0604")}
    assert not built & set(g.reachable("hc"))
    assert built & set(g.reachable("ac"))
    for route in g.reachable("hi").values():
        assert all(h not in built for h in route.path[:-1])


def test_4_12_hills_cost_no_extra_movement():
    rows = [". . . . . . . . . ."] * 3 + [". . . . h h h . . ."] + [". . . . . . . . . ."] * 4
    g = game_of([("hi", "a", "HI", "0606", "NE"), ("b1", "b", "HI", "0101", "SE")], rows=rows)
    assert H(g, walk(g, "0606", NE, NE)) in g.reachable("hi")
    assert g.map.terrain_at(H(g, walk(g, "0606", NE, NE))) == "hill"


def test_G_A39_an_elephant_may_spend_its_move_turning_in_place():
    g = game_of([("el", "a", "elephants", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    play(g, "pivot", unit="el", facing=W)
    assert unit(g, "el").facing == W and unit(g, "el").hex == H(g, "0506")
    assert g.reachable("el") == {}          # the turn was its move


def test_G_A31_pivot_is_not_moving_for_the_shooting_bonus():
    g = game_of([("ar", "a", "archers", "0507", "NE"), ("b1", "b", "HI", "0504", "SE")])
    play(g, "pivot", unit="ar", facing=NW)
    assert not unit(g, "ar").marks.get("moved")


def test_4_8_9_contact_hexes_for_display_are_every_hex_next_to_an_enemy():
    s = load_scenario(builtin_dir() / "border-clash.toml")
    g = Game(s)
    for side in ("red", "blue"):
        expected = {n for u in g.state.units.values() if u.alive and u.side != side
                    for _, n in g.map.neighbors(u.hex)}
        assert set(g.zoc_hexes(side)) == expected and expected
