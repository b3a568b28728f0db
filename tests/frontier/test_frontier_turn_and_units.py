"""Frontier 3.2 unit types and 3.3 turn sequence."""

import pytest

from hexwar.engine import NoDice
from hexwar.engine.rulesets import get_ruleset

from frontier_helpers import C, END, O, dice, finish_artillery, game, kinds, n, to_combat, to_move, unit

RS = get_ruleset("frontier")


@pytest.mark.parametrize("kind,move,strength,rng", [
    ("EI", 2, 5, 0), ("NI", 2, 4, 0), ("EC", 2, 5, 0), ("NC", 2, 4, 0), ("MG", 2, 6, 0),
    ("MA", 2, 1, 4), ("FA", 1, 1, 6), ("SA", 0, 1, 10), ("CO", 3, 6, 0),
])
def test_3_2_unit_types_table(kind, move, strength, rng):
    stats = RS.unit_types[kind]
    assert (stats["move"], stats["strength"], stats["range"]) == (move, strength, rng)


def test_3_2_units_start_with_printed_strength_and_facing():
    g = game([("b1", "blue", "EI", C, 1), ("r1", "red", "NC", n(C, 0, 4), 3)])
    b1, r1 = unit(g, "b1"), unit(g, "r1")
    assert (b1.strength, b1.facing, r1.strength, r1.facing) == (5, 1, 4, 3)
    assert g.state.sides["blue"]["start_units"] == 1 and g.state.turn == 1


def test_3_3_1_artillery_phase_comes_first_and_declarations_need_no_dice():
    g = game([("bfa", "blue", "FA", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    assert (g.state.phase, g.state.active) == ("artillery", "blue")
    fire = O("fire", unit="bfa", target=n(C, 0, 3))
    assert g.validate(fire) is None
    assert not g.needs_dice(fire)
    g.apply(fire, NoDice())
    assert not g.needs_dice(END)  # blue hands over to red
    g.apply(END, NoDice())
    assert g.state.active == "red"
    assert g.needs_dice(END)  # red's end resolves all fire and rolls initiative


def test_3_3_1_a_side_with_nothing_to_fire_at_is_skipped():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    assert (g.state.phase, g.state.active) == ("artillery", "red")
    assert g.needs_dice(END)


def test_3_3_3_initiative_higher_roll_moves_first():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    ev = g.apply(END, dice(2, 5))
    assert kinds(ev, "initiative")[0]["first"] == "red"
    assert (g.state.phase, g.state.active) == ("move", "red")


def test_3_3_3_G_10_initiative_ties_are_rerolled():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    ev = g.apply(END, dice(4, 4, 6, 3))
    assert len(kinds(ev, "initiative-tie")) == 1
    assert [e["value"] for e in kinds(ev, "die-roll")] == [4, 4, 6, 3]
    assert g.state.active == "blue"


def test_3_3_4_to_7_first_player_moves_all_then_fights_then_second_player():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    to_move(g, "red")
    seen = []
    for _ in range(4):
        seen.append((g.state.phase, g.state.active))
        g.apply(END)
    assert seen == [("move", "red"), ("combat", "red"), ("move", "blue"), ("combat", "blue")]
    # 3.3.8: the turn ends and the next begins with its artillery phase
    assert (g.state.turn, g.state.phase) == (2, "artillery")


def test_3_3_move_refused_outside_own_move_phase():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    mv = O("move", unit="b1", path=[n(C, 3)], facing=0)
    assert "move phase" in g.validate(mv)
    to_combat(g, "blue")
    assert g.validate(mv) is not None


def test_3_3_only_orders_that_need_dice_roll():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 2), 3)])
    to_move(g, "blue")
    mv = O("move", unit="b1", path=[n(C, 0)], facing=0)
    assert not g.needs_dice(mv)
    g.apply(mv, NoDice())
    to_combat(g, "blue")
    att = O("attack", attackers=["b1"], target=n(C, 0, 2))
    assert g.needs_dice(att)


def test_resign_ends_the_game():
    g = game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 0, 3), 3)])
    ev = g.apply(O("resign"))
    assert g.state.result["winner"] == "blue"
    assert kinds(ev, "game-over")


def test_legal_orders_all_validate_and_invariants_hold():
    g = game([("b1", "blue", "EI", C, 0), ("bfa", "blue", "FA", n(C, 3), 0),
              ("r1", "red", "NI", n(C, 0, 2), 3), ("r2", "red", "NC", n(C, 1, 3), 4)])
    finish_artillery(g, "blue", extra=())
    orders = list(g.legal_orders())
    assert len(orders) == len(set(orders)) > 10
    assert all(g.validate(o) is None for o in orders)
    assert RS.invariant_problems(g) == []
    unit(g, "b1").hex = unit(g, "r1").hex
    assert RS.invariant_problems(g)
