"""The strong level's step-3 group moves (12, G-22): a commander may take his point's companies
along up to 3 points, so a side of a 25.2 meeting, which wins at the enemy edge, gains ground
before its plan. Basic never does; the strong level gets these moves as extra candidates
(``ai.group_moves``). Bir Hakeim's exit side (25.5) does not (issue 17's balance limit)."""

from fow_helpers import O, game, start

from hexwar.engine.rulesets.fow import ai
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow import geo
from hexwar.engine.search import StrongComputer

EXIT = ['type = "exit"', 'side = "south"', "fp = 100"]


def _south_to_move(companies, victory=None):
    """Turn 1, step 3 of a meeting (or ``victory``): the SI side (north) has ended its commander
    movement; south is to act."""
    g = game(companies, victory=victory) if victory else game(companies)
    start(g)
    g.apply(O("end-phase"))
    assert (g.state.phase, g.to_act()) == ("command", "south")
    return g


def _rows_left(point: int) -> int:
    return geo.rows_from(point, "north")


def test_s12_g22_a_tank_group_goes_three_points_with_its_commander_toward_the_exit_edge():
    # 21 is row 4: three points north (12: a commander moves up to 3; a tank's Maneuver is 4)
    # reach row 1, the enemy edge, from which step 8 may leave the map (G-51)
    g = _south_to_move([("gb", "north", 6, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    moves = ai.group_moves(g, "south")
    assert moves
    for score, order in moves:
        assert order["commander"] == "south-hq1" and list(order["companies"]) == ["de"]
        assert len(order["path"]) == 3 and _rows_left(order["path"][-1]) == 0
        assert g.validate(order) is None
        assert score > 0


def test_g22_the_group_may_pass_next_to_the_enemy_but_never_into_its_point():
    # north holds 15, straight ahead of 21. 12: never into an enemy point; G-22: the Maneuver's
    # adjacency limits do not apply, so a path beside 15 (through 14 or 16) is fine
    g = _south_to_move([("gb", "north", 15, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    moves = ai.group_moves(g, "south")
    assert moves
    beside = False
    for _, order in moves:
        path = order["path"]
        assert 15 not in path and g.validate(order) is None
        beside |= any(geo.adjacent(p, 15) for p in path)
        assert _rows_left(path[-1]) == 0
    assert beside


def test_g22_an_infantry_group_keeps_to_its_maneuver_allowance_of_two():
    g = _south_to_move([("gb", "north", 6, ["gb-rifles"]), ("de", "south", 33, ["de-schutzen"])])
    moves = ai.group_moves(g, "south")
    assert moves
    for _, order in moves:
        assert len(order["path"]) == 2 and _rows_left(order["path"][-1]) == 3
        assert g.validate(order) is None


def test_25_2_meeting_sides_get_group_moves_basic_never_moves_a_group():
    g = _south_to_move([("gb", "north", 6, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    basic = [o for _, o in ai.candidates(g.ruleset, g)]
    assert not any(o.kind == "move-commander" and o["companies"] for o in basic)
    strong = StrongComputer(1).candidates(g)
    assert any(o.kind == "move-commander" and list(o["companies"]) == ["de"] for o in strong)


def test_25_5_the_exit_side_gets_no_group_moves_and_plays_basics_step_3():
    # the same position in an exit game: the Germans of Bir Hakeim stay on basic's step 3, since
    # group moves took strong-against-strong Bir Hakeim over issue 17's 75 % limit
    g = _south_to_move([("gb", "north", 6, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])], EXIT)
    assert ai.group_moves(g, "south") == [] and ai.group_moves(g, "north") == []
    strong = StrongComputer(1).candidates(g)
    assert not any(o.kind == "move-commander" and o["companies"] for o in strong)


def test_g22_a_strong_meeting_side_plays_a_group_move_when_the_way_is_open():
    g = _south_to_move([("gb", "north", 6, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    order = StrongComputer(1).choose(g)
    assert order.kind == "move-commander" and list(order["companies"]) == ["de"]
    g.apply(order)
    assert _rows_left(F.companies(g.state)["de"]["point"]) == 0


def test_25_2_both_sides_of_a_meeting_move_groups_toward_the_enemy_edge():
    g = game([("gb", "north", 8, ["gb-rifles"]), ("de", "south", 21, ["de-pz3"])])
    start(g)
    north = ai.group_moves(g, "north")  # north acts first in step 3 (the SI side)
    assert north
    for _, order in north:
        # infantry: its Maneuver allowance of 2 (G-22); from row 2 toward row 6, south's edge
        assert len(order["path"]) == 2 and geo.rows_from(order["path"][-1], "south") == 2
        assert g.validate(order) is None
    g.apply(O("end-phase"))
    south = ai.group_moves(g, "south")
    assert south
    for _, order in south:
        assert len(order["path"]) == 3 and _rows_left(order["path"][-1]) == 0
        assert 8 not in order["path"] and g.validate(order) is None
