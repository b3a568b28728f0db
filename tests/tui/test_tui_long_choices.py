"""A choice among more than nine orders: a digit cannot choose at once (it might be the start of
"12"), so digits move the highlight and enter chooses; at 80x24 the list scrolls inside what the
hint leaves, so the hint saying how to choose stays on the screen."""

from __future__ import annotations

from hexwar.engine import Order
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_dialogs import ChooseOrder
from hexwar.tui.session import HUMAN

from tui_helpers import settle


def _many_moves(game):
    """Twelve distinct orders (the dialog only lists them; the caller would validate)."""
    orders = [Order.make("hold", unit=u) for u in sorted(game.state.units)][:12]
    assert len(orders) == 12
    return orders


async def _open(pilot, app, orders, context=""):
    picked = []
    app.push_screen(ChooseOrder(app.session.game, orders, "Move where?", context=context), picked.append)
    await pilot.pause()
    await settle(pilot)
    return app.screen, picked


async def test_digits_go_to_a_two_digit_choice_and_enter_chooses_it():
    s = load_named("attack-on-morobad")
    app = HexwarApp(scenario=s, players={x.id: HUMAN for x in s.sides}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        orders = _many_moves(app.session.game)
        dialog, picked = await _open(pilot, app, orders)
        await pilot.press("1")
        assert picked == [] and dialog.query_one("#choices").highlighted == 0
        await pilot.press("2")
        assert picked == [] and dialog.query_one("#choices").highlighted == 11
        await pilot.press("5")      # no 125th choice: a fresh number, 5
        assert picked == [] and dialog.query_one("#choices").highlighted == 4
        await pilot.press("enter")
        await pilot.pause()
        assert picked == [orders[4]]


async def test_the_hint_stays_on_a_short_screen_with_a_long_list():
    s = load_named("attack-on-morobad")
    app = HexwarApp(scenario=s, players={x.id: HUMAN for x in s.sides}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        told = "The other side attacked.\nYour line fell back.\nTwo stands were lost.\nChoose who holds."
        dialog, _ = await _open(pilot, app, _many_moves(app.session.game), context=told)
        await pilot.pause()
        hint = dialog.query_one(".dialog-hint")
        dialog_box = dialog.query_one(".dialog")
        assert "enter: choose" in str(hint.render())
        # the hint lies inside the dialog's visible region, which lies inside the screen
        assert hint.region.bottom <= dialog_box.region.bottom <= 24 and hint.region.height >= 1
        assert dialog.query_one("#choices").region.height >= 3
