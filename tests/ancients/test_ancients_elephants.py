"""4.13 War Elephants (optional rules): hit table, retreat, rampage (G-A21, G-A34)."""

from hexwar.engine import Game, Order

from ancients_helpers import (
    E, NE, NW, SE, SW, W, H, L, begin, dice, events, play, scenario, unit, walk, why,
)

X = "0506"


def setup(grade="average", rules=None, extra=()):
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g = Game(scenario([("att", "a", "archers", X, "NE"), ("el", "b", "elephants", t, "SW", grade),
                       ("b9", "b", "HI", "1008", "NW"), ("a9", "a", "HI", "0108", "NE"), *extra],
                      rules=rules))
    begin(g)
    return g, t


def test_4_13_G_A34_elephant_hit_table_is_inverted():
    for grade, lose_max in (("excellent", 4), ("average", 3), ("poor", 2)):
        for roll in (lose_max, lose_max + 1):
            g, t = setup(grade)
            play(g, "melee", (6, 1, roll), unit="att", target=t)
            assert bool(g.state.pending) == (roll > lose_max), (grade, roll)


def test_4_13_without_the_option_elephants_use_the_normal_table():
    g, t = setup("excellent", rules={"elephant_hit_table": False})
    play(g, "melee", (6, 1, 3), unit="att", target=t)
    assert g.state.pending                       # 3 is "retreat or lose" for Excellent in 4.11


def _retreat(extra=()):
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    back = walk(g0, t, NE)
    more = [("a7", "a", "HI", "0208", "NE"), ("a8", "a", "HI", "0308", "NE"),
            ("b7", "b", "HI", "1002", "SW"), ("b8", "b", "HI", "1003", "SW")]
    g, t = setup(extra=[("b2", "b", "HI", back, "SW"), *more, *extra])
    play(g, "melee", (6, 1, 6), unit="att", target=t)
    g.apply(Order.make("choose-hit", unit="el", choice="retreat"))
    return g, t, back


def test_4_13_retreating_elephant_turns_about_and_destroys_units_in_its_cell():
    g, t, back = _retreat()
    el = unit(g, "el")
    assert el.hex == H(g, back) and el.facing == NE
    assert not unit(g, "b2").alive                            # its own side's unit, trampled
    assert g.state.sides["b"]["lost"] == 4
    assert unit(g, "el").marks.get("rampage")
    # the elephant left the attacked cell: the attacker won and may advance
    assert g.state.pending[0]["kind"] == "advance"


def test_4_13_G_A21_rampaging_elephant_cannot_be_activated_and_loses_sp_per_hit():
    g, t, back = _retreat()
    if g.state.pending:
        g.apply(Order.make("advance", unit="att", yes=False))
    g.apply(Order.make("end-phase"))
    assert g.state.active == "b"
    assert "rampaging" in why(g, "pivot", unit="el", facing=E)
    assert all(o.get("unit") != "el" for o in g.legal_orders())


def test_4_13_G_A21_rampage_moves_three_cells_at_the_end_of_later_turns_and_leaves_the_map():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    victim = walk(g0, t, NE, NE)
    g, t, back = _retreat(extra=[("a3", "a", "skirmishers", victim, "SW")])
    if g.state.pending:
        g.apply(Order.make("advance", unit="att", yes=False))
    g.apply(Order.make("end-phase"))
    g.apply(Order.make("end-phase"), dice(6, 1))          # end of turn 1: it does not move yet
    assert unit(g, "el").hex == H(g, back) and g.state.turn == 2
    g.apply(Order.make("end-phase"))
    ev = g.apply(Order.make("end-phase"), dice(6, 1))     # end of turn 2: 3 cells straight on
    assert not unit(g, "a3").alive and events(ev, "rampaged")
    assert unit(g, "el").hex == H(g, walk(g, back, NE, NE, NE))
    lost_before = g.state.sides["b"]["lost"]
    while unit(g, "el").alive:
        g.apply(Order.make("end-phase"))
        ev = g.apply(Order.make("end-phase"), dice(6, 1))
    assert events(ev, "left-map")
    assert g.state.sides["b"]["lost"] == lost_before + 3


def test_4_13_hit_on_rampaging_elephant_costs_one_sp_without_a_roll():
    g0 = Game(scenario([("x", "a", "HI", "0101", "E"), ("y", "b", "HI", "1001", "E")]))
    t = walk(g0, X, NE)
    g, t, back = _retreat(extra=[("a4", "a", "archers", walk(g0, t, NE, E, SE, SE), "NW")])
    if g.state.pending:
        g.apply(Order.make("advance", unit="att", yes=False))
    ev = play(g, "shoot", (6,), unit="a4", target=back)
    assert [e["why"] for e in events(ev, "die-roll")] == ["shoot"]
    assert unit(g, "el").strength == 2


def test_4_13_G_A40_elephant_retreat_off_the_map_loses_sp_instead():
    g = Game(scenario([("att", "a", "archers", "0502", "NE"), ("el", "b", "elephants", "0601", "SW"),
                       ("b9", "b", "HI", "1008", "NW")]))
    begin(g)
    ev = play(g, "melee", (6, 1, 6), unit="att", target="0601")
    assert events(ev, "retreat-blocked") and unit(g, "el").strength == 2
