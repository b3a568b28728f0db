"""A decision the rules ask of the player (Poltava's set-up losses, S1): the dialog names the
division and where each choice stands, marks the highlighted choice on the map, lets the player
look at the map without choosing, and no notice of the other side's turn covers it."""

from __future__ import annotations

from hexwar.engine.hexgrid import Hex
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_dialogs import ChooseOrder
from hexwar.tui.session import COMPUTER, HUMAN

from tui_helpers import game_screen, settle


async def _setup_loss_dialog(pilot):
    await pilot.pause()
    await settle(pilot)
    assert isinstance(pilot.app.screen, ChooseOrder)
    return pilot.app.screen


async def test_s1_setup_loss_dialog_names_division_hexes_and_marks_the_choice():
    s = load_named("poltava-1")
    app = HexwarApp(scenario=s, players={"sweden": HUMAN, "russia": COMPUTER}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _setup_loss_dialog(pilot)
        g = app.session.game
        p = g.state.pending[0]
        assert p["kind"] == "setup-loss" and p["side"] == "sweden"
        # Russia's set-up losses were summarised in a notice; it must not cover the answers
        assert not app._notifications
        (division,) = {g.state.units[x].division for x in p["units"]}
        name = next(d.name for d in s.divisions if d.id == division)
        assert f"in {name}" in str(dialog.query_one(".dialog-title").render())
        screen = game_screen(app)
        second = dialog.orders[1]
        await pilot.press("down")
        await pilot.pause()
        where = Hex(*g.state.units[second["unit"]].hex)
        assert screen.map_view.cursor == where and screen._marks()[where].target
        assert g.map.label(where) in dialog.query_one("#choices").get_option_at_index(1).prompt.plain
        # m: look at the map; nothing is chosen, the dialog comes back with m
        seq = g.state.seq
        await pilot.press("m")
        await pilot.pause()
        assert not dialog.query_one(".dialog").display and dialog.query_one("#peek-line").display
        # more than nine answers: digits only move the highlight, so only enter is offered
        how = "enter\u00a0or\u00a02:\u00a0choose" if len(dialog.orders) <= 9 else "enter:\u00a0choose"
        assert how in app.export_screenshot().replace("&#160;", "\u00a0")
        await pilot.press("m")
        await pilot.pause()
        assert dialog.query_one(".dialog").display and app.session.game.state.seq == seq
        pass
        await pilot.press("enter")
        await settle(pilot)
        lost = app.session.game.state.units[second["unit"]]
        assert lost.strength == lost.max_strength - 1
        # the next step to lose asks again; the marks follow the new dialog's first answer
        nxt = app.screen
        if isinstance(nxt, ChooseOrder):
            first = app.session.game.state.units[nxt.orders[0]["unit"]]
            assert screen.choice == [Hex(*first.hex)]
        else:
            assert screen.choice == []


async def test_s1_while_looking_at_the_map_enter_chooses_the_marked_answer():
    s = load_named("poltava-1")
    app = HexwarApp(scenario=s, players={"sweden": HUMAN, "russia": COMPUTER}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _setup_loss_dialog(pilot)
        third = dialog.orders[2]
        await pilot.press("m", "down", "down")
        await pilot.pause()
        screen = game_screen(app)
        g = app.session.game
        assert screen.map_view.cursor == Hex(*g.state.units[third["unit"]].hex)
        await pilot.press("enter")
        await settle(pilot)
        u = app.session.game.state.units[third["unit"]]
        assert u.strength == u.max_strength - 1
