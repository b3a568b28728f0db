"""The learning scenario through the existing terminal UI (real Textual pilot): the generic
paths (legal orders, reachable hexes, odds) are enough to give Napoleonica orders by keyboard."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tui"))

from tui_helpers import game_screen, settle  # noqa: E402

from hexwar.scenarios.loader import find_scenario, load_scenario  # noqa: E402
from hexwar.tui.app import HexwarApp  # noqa: E402
from hexwar.tui.picking import Legal  # noqa: E402


async def test_keyboard_starts_the_battle_and_moves_a_napoleonica_unit():
    scenario = load_scenario(find_scenario("napoleonica-brigade"))
    app = HexwarApp(scenario=scenario, players={s.id: "human" for s in scenario.sides},
                    save=False, theme="default")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(12):
            if Legal(app.session.game).actors():
                break
            await pilot.press("E")            # "start the battle", then pass empty phases
            await settle(pilot)
        game = app.session.game
        assert game.state.phase == "movement"
        screen = game_screen(app)
        start = game.state.seq
        await pilot.press("tab")
        uid = screen.selected
        assert uid is not None
        reach = game.reachable(uid)
        assert reach
        dest = sorted(reach, key=lambda h: (reach[h].cost, h))[0]
        for ch in game.map.label(dest):
            await pilot.press(ch)
        await pilot.press("enter")
        await pilot.pause()
        if app.screen is not screen:          # several facings end there: take the first
            await pilot.press("enter")
            await pilot.pause()
        assert app.session.game.state.seq == start + 1
        moved = app.session.game.state.units[uid]
        assert moved.hex == dest and moved.marks.get("acted") == 1
