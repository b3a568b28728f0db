"""Shared rule helpers: pathfinding, line of sight, combat tables, losses."""

from fractions import Fraction

import pytest

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.hexmap import HexMap
from hexwar.engine.movement import search_moves
from hexwar.engine.sight import clear_lines, line_of_sight
from hexwar.engine.state import Unit
from hexwar.engine.tables import CombatTable, chance_at_least, chance_at_most, take_losses

M = HexMap(10, 10, "pointy", "odd")


def neighbors(h):
    return [n for _, n in M.neighbors(h)]


def test_search_moves_prices_every_destination_by_cheapest_path():
    start = M.parse("0505")
    costly = {M.parse("0605")}

    def step(a, b, spent, aux):
        return spent + (3 if b in costly else 1), None, False

    routes = search_moves(start, neighbors, step, 2, lambda h: True)
    east, beyond = M.parse("0605"), M.parse("0705")   # beyond: its only 2-step path is via east
    assert set(routes) == {h for h in M.hexes if 1 <= hex_distance(start, h) <= 2} - {east, beyond}
    for h, route in routes.items():
        assert route.end == h and route.cost == len(route.path)
        assert all(hex_distance(a, b) == 1 for a, b in zip((start,) + route.path, route.path))


def test_search_moves_stops_in_zoc_and_passes_through_friends():
    start = M.parse("0505")
    zoc = {M.parse("0605")}
    friend = M.parse("0405")

    def step(a, b, spent, aux):
        return spent + 1, None, b in zoc

    routes = search_moves(start, neighbors, step, 3, lambda h: h != friend)
    assert M.parse("0605") in routes            # may enter the zone
    beyond = M.parse("0705")
    assert all(M.parse("0605") not in r.path[:-1] for r in routes.values())  # never leaves it
    assert friend not in routes                   # cannot end on a friend
    assert M.parse("0305") in routes              # but can pass through it
    assert beyond in routes and M.parse("0605") not in routes[beyond].path


def test_search_moves_cheaper_stop_path_wins_even_if_found_later():
    # A stop-hex first reached expensively must still get its cheapest cost.
    start = Hex(0, 0)
    target = Hex(2, 0)
    costs = {Hex(1, 0): 1, Hex(2, 0): 1}

    def step(a, b, spent, aux):
        if b == target:
            return spent + (5 if a == Hex(2, -1) else 1), None, True
        return spent + costs.get(b, 1), None, False

    routes = search_moves(start, lambda h: [n for _, n in M.neighbors(h)] or
                          [Hex(h[0] + d[0], h[1] + d[1]) for d in ((1, 0), (0, 1), (1, -1))],
                          step, 6, lambda h: True)
    assert routes[target].cost == 2


def test_line_of_sight_either_and_both():
    a, b = Hex(0, 0), Hex(1, 1)        # line runs along the edge between (1,0) and (0,1)
    one_side = {Hex(1, 0)}
    blocks = one_side.__contains__
    assert clear_lines(a, b, blocks) in ((True, False), (False, True))
    assert line_of_sight(a, b, blocks, "either")
    assert not line_of_sight(a, b, blocks, "both")
    both_sides = {Hex(1, 0), Hex(0, 1)}
    assert not line_of_sight(a, b, both_sides.__contains__)
    # the end hexes never block
    assert line_of_sight(a, Hex(3, 0), {a, Hex(3, 0)}.__contains__, "both")
    with pytest.raises(ValueError):
        line_of_sight(a, b, blocks, "some")


def test_combat_table_shifts_clamp_and_odds():
    table = CombatTable(("-1", "0", "+1"), {1: ("A", "A", "EX"), 2: ("A", "EX", "D"),
                                            3: ("EX", "D", "D")})
    col = table.column_index("0")
    assert table.shift(col, 3) == 2 and table.shift(col, -5) == 0
    assert table.lookup(table.shift(col, 1), 2) == "D"
    assert table.odds(0) == {"A": Fraction(2, 3), "EX": Fraction(1, 3)}
    with pytest.raises(ValueError):
        CombatTable(("a",), {1: ("x", "y")})
    with pytest.raises(ValueError):
        table.lookup(0, 4)


def test_chances():
    assert chance_at_least(5) == Fraction(1, 3)
    assert chance_at_least(5, modifier=2) == Fraction(2, 3)
    assert chance_at_least(5, modifier=-5) == 0
    assert chance_at_most(4) == Fraction(2, 3) and chance_at_most(0) == 0 and chance_at_most(9) == 1


def test_take_losses_never_goes_negative_and_removes_at_zero():
    u = Unit("u", "a", "HI", "u", Hex(0, 0), 2, 4)
    assert take_losses(u, 1) == 1 and u.strength == 1 and u.hex == Hex(0, 0)
    assert take_losses(u, 5) == 1 and u.strength == 0 and u.hex is None and not u.alive


def test_map_labels_edges_and_features():
    m = HexMap(12, 8, "pointy", "odd")
    assert len(m.hexes) == 96 and m.label(m.parse("1208")) == "1208"
    with pytest.raises(ValueError):
        m.parse("1309")
    assert len(m.edge_hexes("north")) == 12 and len(m.edge_hexes("west")) == 8
    h = m.parse("0101")
    assert m.rows_from_edge(h, "north") == 0 and m.rows_from_edge(h, "south") == 7
    assert len(m.neighbors(h)) < 6 and Hex(-5, -5) not in m


def test_retreat_paths_away_from_threat_and_ranked():
    from hexwar.engine.retreat import away_from, best_paths, follow_up_hexes, retreat_paths

    start = M.parse("0505")
    enemy = M.parse("0605")
    paths = retreat_paths(start, 2, neighbors, away_from([enemy]))
    assert paths and all(len(p) == 2 for p in paths)
    for p in paths:
        assert hex_distance(p[0], enemy) == 2 and hex_distance(p[1], enemy) == 3
    blocked = {M.parse("0405")}
    fewer = retreat_paths(start, 2, neighbors, lambda a, b, path: b not in blocked and away_from([enemy])(a, b, path))
    assert all(blocked.isdisjoint(p) for p in fewer) and len(fewer) < len(paths)
    straight_back = best_paths(paths, lambda p: 0 if p[0] == M.parse("0405") else 1)
    assert straight_back and all(p[0] == M.parse("0405") for p in straight_back)
    assert retreat_paths(start, 0, neighbors, away_from([enemy])) == []
    assert follow_up_hexes([start, M.parse("0405")], 1) == [(start,)]
    assert best_paths([], len) == []
