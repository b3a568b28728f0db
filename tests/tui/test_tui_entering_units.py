"""A unit that is not yet on the map (Poltava scenario 2's Swedish columns, A38): picking it
with tab puts the cursor on its entry hex and marks where it can get, as for a unit on the map."""

from __future__ import annotations

from hexwar.engine.hexgrid import Hex
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.session import HUMAN

from tui_helpers import game_screen, settle


async def test_tab_to_a_unit_waiting_to_enter_jumps_to_its_entry_hex_and_marks_its_reach():
    s = load_named("poltava-2")
    app = HexwarApp(scenario=s, players={"sweden": HUMAN, "russia": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        g = app.session.game
        await pilot.press("tab")
        await pilot.pause()
        uid = screen.selected
        assert g.state.units[uid].hex is None
        enters = [o for o in g.legal_orders() if o.kind == "enter" and o["unit"] == uid]
        entry = {Hex(*o["path"][0]) for o in enters}
        assert len(entry) == 1 and screen.map_view.cursor == next(iter(entry))
        marks = screen._selection_marks()
        reach = {h for h, m in marks.items() if m.reach is not None}
        assert reach == {Hex(*o["path"][-1]) for o in enters}
        await pilot.press("enter")  # enter: the entry hex itself, where the cursor stands
        await settle(pilot)
        assert app.session.game.state.units[uid].hex == Hex(*enters[0]["path"][0])


async def test_hexes_that_change_while_the_map_is_scrolled_are_repainted():
    """Found in play at 80x24: with the view scrolled down to the Swedish entry hexes, entering
    a unit left the old reach marks on screen (the repaint went to the wrong lines) until the
    cursor moved. What the terminal shows must follow the position at once."""
    s = load_named("poltava-2")
    app = HexwarApp(scenario=s, players={"sweden": HUMAN, "russia": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        mark = screen.map_view.glyphs.reach
        await pilot.press("tab")
        await settle(pilot)
        assert screen.map_view.scroll_offset.y > 0  # the entry hexes are at the bottom of the map
        assert app.export_screenshot().count(mark) > 10
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected is None
        assert app.export_screenshot().count(mark) == 0
