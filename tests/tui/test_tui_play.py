"""Play real turns through key presses and check what the engine says happened."""

from __future__ import annotations

from hexwar.engine.hexgrid import Hex
from hexwar.tui.screen_dialogs import ChooseOrder
from hexwar.tui.screen_game import GameScreen
from hexwar.tui.screen_help import HelpScreen

from tui_helpers import game_screen, goto, make_app, settle, unit


async def test_select_and_move_with_keys(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0303")
        await pilot.press("enter")            # select 1st Foot
        assert app.screen.selected == "r-inf-1"
        await pilot.press("a")                # cursor one hex left: 0203
        await pilot.press("enter")            # move there
        await pilot.pause()
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0203")
        assert app.session.game.state.seq == 1


async def test_six_direction_keys_step_to_the_neighbours(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0404")
        start = app.screen.map_view.cursor
        seen = set()
        for key, back in [("q", "c"), ("e", "z"), ("a", "d"), ("d", "a"), ("z", "e"), ("c", "q")]:
            await pilot.press(key)
            seen.add(app.screen.map_view.cursor)
            await pilot.press(back)
            assert app.screen.map_view.cursor == start
        assert seen == {Hex(*n) for _, n in drill_scenario.map.neighbors(start)}


async def test_artillery_fires_after_a_preview_and_rolls_a_die(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0204")
        await pilot.press("enter")                 # select the guns
        await goto(pilot, drill_scenario, "0603")
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        preview = str(app.screen.query_one("#odds").render())
        assert "attacker strength" in preview and "hit" in preview and "%" in preview
        kinds = [o.kind for o in app.screen.orders]
        assert kinds == ["fire"]
        await pilot.press("enter")
        await pilot.pause()
        events = app.session.match.events
        assert any(e["t"] == "die-roll" for e in events)
        assert any(e["t"] == "fired" for e in events)
        assert unit(app, "r-art-1").marks.get("acted")
        log = game_screen(app).query_one("#log")
        assert "d6 =" in " ".join(" ".join(str(line.text) for line in log.lines).split())  # wrapping undone


async def test_melee_attack_and_loss_decision_in_a_stack(drill_scenario, monkeypatch):
    from hexwar.engine import dice as dice_mod
    monkeypatch.setattr(dice_mod.Dice, "roll", lambda self, sides, why="": 6)
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0303")
        await pilot.press("enter")
        await goto(pilot, drill_scenario, "0503")
        await pilot.press("enter")                   # move to the ford, next to the blue stack
        await pilot.pause()
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0503")
        await goto(pilot, drill_scenario, "0603")
        await pilot.press("f")                       # attack the stack: preview first
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        assert [o.kind for o in app.screen.orders] == ["attack"]
        await pilot.press("enter")
        await pilot.pause()
        # A hit on a stack: blue must choose which unit loses a step; the dialog cannot be escaped.
        assert app.session.game.state.pending
        assert isinstance(app.screen, ChooseOrder)
        assert {o.kind for o in app.screen.orders} == {"choose-loss"}
        await pilot.press("escape")
        assert isinstance(app.screen, ChooseOrder)
        await pilot.press("down", "enter")           # the second choice: b-inf-2
        await pilot.pause()
        assert not app.session.game.state.pending
        assert unit(app, "b-inf-2").hex is None      # eliminated
        assert unit(app, "b-inf-1").strength == 2


async def test_end_phase_passes_to_the_other_side_and_undo_takes_back_moves(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0303")
        await pilot.press("enter", "a", "enter")
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0203")
        await pilot.press("u")                      # no dice rolled: undo allowed
        await pilot.pause()
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0303")
        assert app.session.game.state.seq == 0
        await pilot.press("E")
        await pilot.pause()
        assert app.session.game.state.active == "blue"
        assert "Blue to act" in str(app.screen.query_one("#turnbar").render())


async def test_next_unit_cycles_through_units_that_can_act(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab")
        first = app.screen.selected
        await pilot.press("tab")
        second = app.screen.selected
        await pilot.press("tab")
        assert {first, second} == {"r-inf-1", "r-art-1"}
        assert app.screen.selected == first
        assert app.screen.map_view.cursor == Hex(*unit(app, first).hex)
        await pilot.press("escape")
        assert app.screen.selected is None


async def test_refused_order_shows_the_reason_not_a_traceback(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0303")
        await pilot.press("enter")
        await goto(pilot, drill_scenario, "0803")   # far out of reach
        await pilot.press("enter")
        await pilot.pause()
        notes = [n.message for n in app._notifications]
        assert any(m.startswith("Refused:") for m in notes), notes
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0303")


async def test_help_lists_every_key(drill_scenario):
    from hexwar.tui import keys
    app = make_app(drill_scenario)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text").render())
        for spec in keys.table().values():
            assert spec.description in text
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_mouse_click_selects_and_moves(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.screen.map_view
        lay = view.layout_
        def centre(label):
            x, y = lay.centre(drill_scenario.map.parse(label))
            left, top = view.rulers
            return x + left - int(view.scroll_offset.x), y + top - int(view.scroll_offset.y)
        await pilot.click("#map", offset=centre("0303"))
        await pilot.pause()
        assert app.screen.selected == "r-inf-1"
        await pilot.click("#map", offset=centre("0304"))
        await pilot.pause()
        assert unit(app, "r-inf-1").hex == drill_scenario.map.parse("0304")


async def test_zoom_changes_the_drawing(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.map_view
        small = view.virtual_size
        assert view.zoom == 0                       # small hexes by default (issue 12 item 6)
        await pilot.press("plus")
        await pilot.pause()
        assert view.zoom == 1 and view.virtual_size.width > small.width
        await pilot.press("minus")
        assert view.zoom == 0


async def test_command_palette_offers_the_game_actions(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        for ch in "end the phase":
            await pilot.press("space" if ch == " " else ch)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.session.game.state.active == "blue"
