"""Smoke tests on the shipped scenarios: the generic gesture matching must drive real rulesets."""

from __future__ import annotations

import pytest

from hexwar.scenarios.loader import ScenarioError, builtin_paths, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.picking import Legal

from tui_helpers import game_screen, settle, unit


def _scenarios():
    out = []
    for p in builtin_paths():
        try:
            out.append(load_scenario(p))
        except ScenarioError:
            continue
    return out


SCENARIOS = [s for s in _scenarios() if s.id in ("border-clash", "attack-on-morobad")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
async def test_keyboard_plays_the_first_orders_of_a_real_scenario(scenario):
    players = {s.id: "human" for s in scenario.sides}
    app = HexwarApp(scenario=scenario, players=players, save=False, theme="default")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(12):   # end phases until some unit can act, answering decisions
            if app.session.game.state.pending:
                await pilot.press("enter")
            elif Legal(app.session.game).actors():
                break
            else:
                await pilot.press("E")
            await settle(pilot)
        screen = game_screen(app)
        start = app.session.game.state.seq
        await pilot.press("tab")
        uid = screen.selected
        assert uid is not None
        # Pick a reachable hex, if any, and move there with the cursor and enter.
        reach = app.session.game.reachable(uid)
        if reach:
            dest = sorted(reach, key=lambda h: (reach[h].cost, h))[0]
            for ch in app.session.game.map.label(dest):
                await pilot.press(ch)
            await pilot.press("enter")
            await pilot.pause()
            if app.screen is not screen:      # several ways to end there (facings): take the first
                await pilot.press("enter")
                await pilot.pause()
        else:
            await pilot.press("o", "enter")   # any legal order of that unit
            await pilot.pause()
        # the order we gave, then perhaps a phase with nothing left to decide, passed by itself
        assert app.session.game.state.seq >= start + 1
        if reach:
            assert unit(app, uid).hex == dest
        assert app.session.match.events, "the engine reported what happened"


async def test_poltava_side_panel_shows_division_rout_boxes():
    scenario = next(s for s in _scenarios() if s.id == "poltava-1")
    app = HexwarApp(scenario=scenario, players={s.id: "human" for s in scenario.sides}, save=False,
                    theme="default")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        status = game_screen(app).query_one("#status")._hexwar_text
        assert "rout box 8/" in status          # Lewenhaupt's battalions cut off with Roos
        assert status.count("rout box") == len(scenario.divisions)
