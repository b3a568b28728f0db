"""Issue 34 items 2, 9, 13: no silent traps at the player's table (80x24)."""

from __future__ import annotations

import pytest

from hexwar.tui.game_gestures import Gestures
from hexwar.tui.screen_dialogs import Confirm

from tui_helpers import game_screen, make_app, settle

SIZE = (80, 24)


def said(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def keyrow(app) -> str:
    return str(game_screen(app).query_one("#keyrow").render())


# --- 2: ending a phase with units that could act asks first; undo says why it cannot ---------------
@pytest.fixture
def asking(monkeypatch):
    monkeypatch.setattr(Gestures, "ASK_BEFORE_ENDING", True, raising=False)


async def test_item2_end_phase_asks_how_many_could_still_act(drill_scenario, asking):
    app = make_app(drill_scenario)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seq = app.session.game.state.seq
        could = len(game_screen(app).legal.actors())
        assert could > 0
        for key in ("E", "full_stop"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, Confirm)
            assert f"{could} units could still act" in app.screen.text
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, Confirm)
            assert app.session.game.state.seq == seq          # nothing was played
        await pilot.press("E")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert app.session.game.state.seq > seq               # the phase ended


async def test_item2_undo_that_cannot_undo_says_why(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert "undo" not in keyrow(app)
        await pilot.press("u")
        await pilot.pause()
        assert any("Nothing to undo: no order has been played yet" in m for m in said(app))


async def test_item2_undo_after_the_computer_rolled_says_so_and_is_not_offered(drill_scenario):
    app = make_app(drill_scenario, {"red": "human", "blue": "computer"})
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pressed = False
        for _ in range(30):
            await settle(pilot, 6)
            stack = app.session.undo_stack
            if (pressed and app.session.game.to_act() == "red"
                    and not any(g.to_act() == "red" for g, _ in stack)):
                break                                  # the computer rolled since red's last order
            pressed = True
            await pilot.press("E")
        else:
            raise AssertionError("the computer never rolled dice")
        assert not app.session.can_undo
        assert "undo" not in keyrow(app)
        seq = app.session.game.state.seq
        await pilot.press("u")
        await pilot.pause()
        assert app.session.game.state.seq == seq
        assert any("the computer (" in m and "rolled dice since your last order" in m for m in said(app))


# --- 9: one list-pick rule: a digit highlights that line, enter chooses, whatever the length ------
async def test_item9_a_digit_on_a_short_list_highlights_and_enter_chooses_once(drill_scenario):
    from hexwar.tui.screen_dialogs import ChooseOrder
    app = make_app(drill_scenario)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        orders = [o for o in screen.legal.orders if o.kind != "resign"][:4]
        assert len(orders) == 4
        chosen = []
        app.push_screen(ChooseOrder(app.session.game, orders, "Pick"), chosen.append)
        await pilot.pause()
        cursor, seq = screen.map_view.cursor, app.session.game.state.seq
        await pilot.press("4")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder) and not chosen      # seen first, not taken
        assert app.screen.query_one("#choices").highlighted == 3
        await pilot.press("enter")
        await pilot.pause()
        assert chosen == [orders[3]]
        # the enter chose; it did not go on to the map (no selection, nothing played)
        assert screen.selected is None and app.session.game.state.seq == seq
        assert screen.map_view.cursor == cursor


async def test_item9_the_new_game_dialogs_pick_by_number_then_enter(drill_scenario, tmp_path, monkeypatch):
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.screen_game import GameScreen
    from hexwar.tui.screen_menu import LevelDialog, SidesDialog
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")                 # New game
        await pilot.pause()
        await pilot.press("end", "enter")          # the drill scenario is listed last
        await pilot.pause()
        assert isinstance(app.screen, SidesDialog)
        await pilot.press("3")                     # "3. Hotseat: both sides human"
        await pilot.pause()
        assert isinstance(app.screen, SidesDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, LevelDialog)
        assert isinstance(app.screen, GameScreen)
        assert app.session.players == {"red": "human", "blue": "human"}


# --- 13: Esc then a key, batched by a slow link into Alt+key, is both keys -------------------------
async def test_item13_alt_key_is_esc_then_the_key(drill_scenario):
    from hexwar.tui.screen_dialogs import ChooseOrder
    app = make_app(drill_scenario)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        start = screen.map_view.cursor
        await pilot.press("alt+d")                     # esc, d: the cursor moves right
        await pilot.pause()
        moved = screen.map_view.cursor
        assert moved != start
        await pilot.press("a", "d")                    # back, and right again by the plain key
        await pilot.pause()
        assert screen.map_view.cursor == moved
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        seq = app.session.game.state.seq
        await pilot.press("alt+shift+e")               # esc closes the list, E ends the phase
        await settle(pilot)
        assert not isinstance(app.screen, ChooseOrder)
        assert app.session.game.state.seq > seq


async def test_item9_the_scenario_list_picks_by_a_number_of_two_digits(drill_scenario, tmp_path, monkeypatch):
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.screen_menu import ScenarioPicker, SidesDialog
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")                 # New game
        await pilot.pause()
        assert isinstance(app.screen, ScenarioPicker)
        number = str(len(app.screen.scenarios))    # the drill scenario is listed last
        assert len(number) == 2
        await pilot.press(*number)
        await pilot.pause()
        assert isinstance(app.screen, ScenarioPicker)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SidesDialog) and app.screen.scenario is drill_scenario


async def test_item2_a_notice_never_hides_the_end_phase_question(drill_scenario, asking):
    """Notices are drawn above every screen: one still shown (a long account of the computer's
    turn at 80x24) hid half of the question, inviting a blind `y`. Opening a dialog clears them."""
    app = make_app(drill_scenario)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.notify("What Blue did\n" + "moved a unit, and another, and then some more " * 8, timeout=60)
        await pilot.pause()
        assert said(app)
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert said(app) == []
        assert "units could still act" in app.screen.text
