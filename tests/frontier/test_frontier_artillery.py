"""Frontier 3.4 artillery fire, 1.6.4 field of fire, 1.6.5 line of sight."""

import pytest

from hexwar.engine import NoDice
from hexwar.engine.hexgrid import Hex, hex_distance, hex_spiral
from hexwar.engine.rulesets.frontier.geometry import aim_direction, in_field_of_fire

from frontier_helpers import END, O, dice, finish_artillery, game, kinds, n, to_move, unit

B = Hex(1, 3)  # battery position, facing east (0)


def fire_game(units, **kw):
    g = game(units, **kw)
    assert (g.state.phase, g.state.active) == ("artillery", "blue")
    return g


def shoot(g, target, rolls, battery="bfa"):
    """Blue fires at target; red has nothing; returns the events of resolution."""
    g.apply(O("fire", unit=battery, target=target))
    return finish_artillery(g, "blue", extra=rolls)


def test_1_6_4_field_of_fire_hexes_per_range():
    counts = {}
    for h in hex_spiral(Hex(0, 0), 12):
        if in_field_of_fire(Hex(0, 0), 0, h):
            r = hex_distance(Hex(0, 0), h)
            counts[r] = counts.get(r, 0) + 1
    assert [counts[r] for r in range(1, 13)] == [1, 3, 5, 5, 7, 9, 9, 11, 13, 15, 15, 17]


def test_1_6_4_field_of_fire_turns_with_facing():
    for d in range(6):
        assert in_field_of_fire(Hex(0, 0), d, n(Hex(0, 0), d, 3))
        assert not in_field_of_fire(Hex(0, 0), d, n(Hex(0, 0), d + 3, 3))
        assert not in_field_of_fire(Hex(0, 0), d, n(Hex(0, 0), d + 2, 3))


def test_3_4_3_target_outside_field_of_fire_refused():
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", n(B, 0, 3), 3),
                   ("r2", "red", "NI", n(B, 2, 3), 3)])
    assert g.validate(O("fire", unit="bfa", target=n(B, 0, 3))) is None
    assert "field of fire" in g.validate(O("fire", unit="bfa", target=n(B, 2, 3)))
    assert g.targets("bfa") == [n(B, 0, 3)]


def test_3_4_4_range_is_counted_through_sides():
    g = fire_game([("bma", "blue", "MA", B, 0), ("r1", "red", "NI", n(B, 0, 4), 3),
                   ("r2", "red", "NI", n(n(B, 0, 4), 1), 3)])
    assert g.validate(O("fire", unit="bma", target=n(B, 0, 4))) is None
    assert "range" in g.validate(O("fire", unit="bma", target=n(n(B, 0, 4), 1)))


def test_G_F16_artillery_may_not_fire_at_an_adjacent_unit():
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", n(B, 0), 3),
                   ("r2", "red", "NI", n(B, 0, 3), 3)])
    assert "adjacent" in g.validate(O("fire", unit="bfa", target=n(B, 0)))


def test_G_F23_target_must_hold_an_enemy_unit():
    g = fire_game([("bfa", "blue", "FA", B, 0), ("b2", "blue", "EI", n(B, 0, 2), 0),
                   ("r1", "red", "NI", n(B, 0, 4), 3)])
    assert "no enemy" in g.validate(O("fire", unit="bfa", target=n(B, 0, 3)))
    assert "no enemy" in g.validate(O("fire", unit="bfa", target=n(B, 0, 2)))


def test_3_4_5_each_battery_fires_once_per_turn():
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", n(B, 0, 3), 3),
                   ("r2", "red", "NI", n(B, 0, 4), 3)])
    g.apply(O("fire", unit="bfa", target=n(B, 0, 3)))
    assert "already fired" in g.validate(O("fire", unit="bfa", target=n(B, 0, 4)))


def test_3_4_1_G_F2_battery_that_fired_may_not_move_or_pivot():
    g = fire_game([("bfa", "blue", "FA", B, 0), ("bma", "blue", "MA", n(B, 5, 2), 0),
                   ("r1", "red", "NI", n(B, 0, 5), 3)])
    g.apply(O("fire", unit="bfa", target=n(B, 0, 5)))
    finish_artillery(g, "blue", extra=(1,))  # the shell lands left, an empty cell
    assert "fired" in g.validate(O("move", unit="bfa", path=[n(B, 0)], facing=0))
    assert "fired" in g.validate(O("pivot", unit="bfa", facing=1))
    assert g.validate(O("move", unit="bma", path=[n(n(B, 5, 2), 0)], facing=0)) is None


@pytest.mark.parametrize("die,where,offset", [
    (1, "left", 1), (2, "over", 0), (3, "right", -1), (4, "short", 3), (5, "on target", None),
    (6, "on target", None),
])
def test_3_4_7_scatter_hex_directions(die, where, offset):
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    rolls = (die, 1) if offset is None else (die,)
    ev = shoot(g, t, rolls)
    land = kinds(ev, "shell-landed")[0]
    expect = t if offset is None else n(t, 0 + offset)
    assert (land["where"], Hex(*land["hex"])) == (where, expect)


def test_3_4_7_scatter_uses_the_direction_nearest_the_line_of_fire():
    # target two cells along NE and one along E: the line is nearer NE (k = d+1)
    t = Hex(B[0] + 3, B[1] - 2)
    assert aim_direction(B, 0, t) == 1
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    ev = shoot(g, t, (2,))
    assert Hex(*kinds(ev, "shell-landed")[0]["hex"]) == n(t, 1)
    # a line exactly along the facing keeps k = d
    assert aim_direction(B, 0, n(B, 0, 4)) == 0


def test_G_F3_shell_landing_off_the_map_has_no_effect():
    b = Hex(3, 3)
    t = Hex(8, 3)  # the east edge of the test map's row 3
    g = fire_game([("bfa", "blue", "FA", b, 0), ("r1", "red", "NI", t, 3)])
    ev = shoot(g, t, (2,))
    land = kinds(ev, "shell-landed")[0]
    assert land["on_map"] is False and land["victim"] is None
    assert len([e for e in ev if e["t"] == "die-roll" and e["why"] != "initiative"]) == 1
    assert unit(g, "r1").alive


def test_G_F3_shell_landing_on_an_empty_cell_has_no_effect():
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    ev = shoot(g, t, (4,))
    assert kinds(ev, "shell-landed")[0]["victim"] is None
    assert not kinds(ev, "artillery-hit") and not kinds(ev, "artillery-miss")


@pytest.mark.parametrize("kind,terrain,effect,dies", [
    ("NI", ".", 2, True), ("NI", ".", 4, True), ("NI", ".", 6, True),
    ("NI", ".", 1, False), ("NI", ".", 3, False), ("NI", ".", 5, False),
    ("NI", "F", 4, True), ("NI", "F", 6, True), ("NI", "F", 2, False), ("NI", "V", 5, False),
    ("CO", ".", 4, True), ("CO", ".", 6, True), ("CO", ".", 2, False), ("CO", ".", 5, False),
    ("CO", "F", 6, True), ("CO", "F", 4, False),
])
def test_3_4_8_effect_table_direct_indirect_and_commander_row(kind, terrain, effect, dies):
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", kind, t, 3)], terrain={t: terrain})
    ev = shoot(g, t, (5, effect))
    assert unit(g, "r1").alive is (not dies)
    assert len(kinds(ev, "artillery-hit")) == int(dies)
    assert len(kinds(ev, "unit-destroyed")) == int(dies)


def test_3_4_6_direct_fire_needs_the_whole_target_cell_visible():
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "direct"
    # a unit between battery and target blocks the line: indirect (and no LOS needed to fire)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("b2", "blue", "EI", n(B, 0, 2), 0), ("r1", "red", "NI", t, 3)])
    assert g.validate(O("fire", unit="bfa", target=t)) is None
    assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "indirect"


def test_3_4_6_G_F4_one_blocked_sight_line_makes_fire_indirect():
    t = Hex(B[0] + 2, B[1] - 1)  # the line runs along the edge between two hexes
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "direct"
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)], terrain={Hex(B[0] + 1, B[1] - 1): "F"})
    assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "indirect"


def test_1_6_5_battery_on_a_hill_sees_over_lower_cover():
    t = n(B, 0, 3)
    terrain = {B: "2", t: "1", n(B, 0, 2): "F"}
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)], terrain=terrain)
    assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "direct"


def test_3_7_4_fire_at_forest_or_village_is_always_indirect():
    t = n(B, 0, 2)
    for ch in ("F", "V"):
        g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)], terrain={t: ch})
        assert g.odds(O("fire", unit="bfa", target=t))["fire"] == "indirect"


def test_3_4_7_friendly_fire_the_opponent_rolls_the_effect():
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("b2", "blue", "EI", n(B, 0, 2), 0), ("r1", "red", "NI", t, 3)])
    ev = shoot(g, t, (4, 6))  # short: onto the friendly unit; indirect, 6 destroys
    eff = [e for e in ev if e["t"] == "die-roll" and e["why"] == "artillery effect"][0]
    assert eff["roller"] == "red" and eff["friendly_fire"] is True
    assert not unit(g, "b2").alive and unit(g, "r1").alive
    assert g.state.sides["blue"]["lost"] == 1


def test_3_3_2_3_4_2_fire_is_simultaneous_losses_removed_after_all_batteries_fired():
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("rfa", "red", "FA", t, 3)])
    g.apply(O("fire", unit="bfa", target=t))
    g.apply(END)
    assert g.state.active == "red"
    g.apply(O("fire", unit="rfa", target=B))
    ev = g.apply(END, dice(5, 2, 5, 2, 6, 1))
    order = [e["t"] for e in ev if e["t"] in ("shell-landed", "unit-destroyed")]
    assert order == ["shell-landed", "shell-landed", "unit-destroyed", "unit-destroyed"]
    assert not unit(g, "bfa").alive and not unit(g, "rfa").alive
    assert g.state.phase == "move"


def test_3_4_fire_odds_are_exact_fractions():
    from fractions import Fraction
    t = n(B, 0, 3)
    g = fire_game([("bfa", "blue", "FA", B, 0), ("r1", "red", "NI", t, 3)])
    p = g.odds(O("fire", unit="bfa", target=t))
    assert p["enemy_destroyed"] == Fraction(2, 6) * Fraction(3, 6)
    assert p["friendly_destroyed"] == 0


def test_G_F11_fortress_artillery_never_moves_but_may_pivot():
    g = game([("bsa", "blue", "SA", B, 0), ("r1", "red", "NI", n(B, 0, 7), 3)])
    to_move(g, "blue")
    assert "cannot move" in g.validate(O("move", unit="bsa", path=[n(B, 0)], facing=0))
    assert g.reachable("bsa") == {}
    g.apply(O("pivot", unit="bsa", facing=1), NoDice())
    assert unit(g, "bsa").facing == 1 and unit(g, "bsa").hex == B
