"""Shared helpers for the UI tests: build the app on the drill scenario, wait for the computer."""

from __future__ import annotations

from hexwar.engine.hexgrid import Hex
from hexwar.tui.app import HexwarApp


def make_app(scenario, players=None, **kw) -> HexwarApp:
    players = players or {"red": "human", "blue": "human"}
    kw.setdefault("save", False)
    kw.setdefault("theme", "default")
    return HexwarApp(scenario=scenario, players=players, **kw)


async def settle(pilot, rounds: int = 3) -> None:
    """Let workers (the computer player) finish and the screen catch up."""
    for _ in range(rounds):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def goto(pilot, scenario, label: str) -> None:
    """Move the cursor by typing the hex number, as a player would."""
    for ch in label:
        await pilot.press(ch)
    await pilot.pause()
    assert pilot.app.screen.map_view.cursor == Hex(*scenario.map.parse(label))


def unit(app, uid):
    return app.session.game.state.units[uid]


def game_screen(app):
    from hexwar.tui.screen_game import GameScreen
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))
