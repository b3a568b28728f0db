"""Issue 12 item 14: which positions leave the side to act nothing to decide (engine/forced.py).

Expected answers come from the issue's example (turn 1 of border-clash opens in an empty
initiative phase) and from the position's own legal orders."""

from __future__ import annotations

from hexwar.engine import Game, Order
from hexwar.engine.forced import forced_order, names_units
from hexwar.scenarios.loader import load_named


def test_issue12_14_border_clash_opens_in_an_empty_initiative_phase():
    game = Game(load_named("border-clash"))
    assert game.state.phase == "initiative"
    only = forced_order(game)
    assert only is not None and only.kind == "end-phase" and not names_units(only)
    assert forced_order(game, list(game.legal_orders())) == only   # the same with the list given


def test_issue12_14_a_phase_with_unit_orders_is_not_empty():
    game = Game(load_named("border-clash"))
    while forced_order(game) is not None:
        game.apply(forced_order(game), _dice())
    orders = [o for o in game.legal_orders() if o.kind != "resign"]
    assert any(names_units(o) for o in orders)
    assert forced_order(game) is None


def test_issue12_14_resigning_is_not_a_choice_and_a_single_unit_order_is():
    game = Game(load_named("border-clash"))
    end = Order.make("end-phase")
    resign = Order.make("resign")
    move = Order.make("move", unit="u1", path=[[0, 0]])
    assert forced_order(game, [resign, end]) == end
    assert forced_order(game, [end, Order.make("pass")]) is None   # two choices
    assert forced_order(game, [move]) is None             # it names a unit: the player decides
    assert forced_order(game, [resign]) is None


def _dice():
    from hexwar.engine import Dice
    return Dice(b"\x01" * 16)
