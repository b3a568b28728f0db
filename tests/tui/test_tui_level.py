"""Choosing how well the computer plays: the new-game dialog and ``play --level`` both reach the
computer player that actually chooses the orders."""

from __future__ import annotations

from hexwar.engine.ai import Computer
from hexwar.engine.levels import DEFAULT_LEVEL, LEVELS
from hexwar.engine.search import StrongComputer
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_game import GameScreen
from hexwar.tui.screen_menu import LEVEL_CHOICES, LevelDialog, MenuScreen

from tui_helpers import settle


async def _until_the_computer_plays(app, pilot, side: str) -> None:
    """The human ends phases until the computer of ``side`` has been asked for an order."""
    for _ in range(20):
        await settle(pilot)
        if side in app.computers:
            return
        await pilot.press("E")
    raise AssertionError(f"the computer playing {side} was never asked for an order")


def test_the_dialog_offers_every_level_with_the_default_first():
    assert sorted(lv for lv, _ in LEVEL_CHOICES) == sorted(LEVELS)
    assert LEVEL_CHOICES[0][0] == DEFAULT_LEVEL


async def _new_game_against_the_computer(app, pilot, downs: int) -> None:
    assert isinstance(app.screen, MenuScreen)
    await pilot.press("enter")                 # New game
    await pilot.pause()
    await pilot.press("end", "enter")          # the drill scenario is listed last
    await pilot.pause()
    await pilot.press("enter")                 # Red (you) against Blue (computer)
    await pilot.pause()
    assert isinstance(app.screen, LevelDialog)
    await pilot.press(*["down"] * downs, "enter")
    await pilot.pause()
    assert isinstance(app.screen, GameScreen)
    assert app.session.players == {"red": "human", "blue": "computer"}


async def test_new_game_dialog_basic_level_reaches_the_computer(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario])
    async with app.run_test(size=(100, 30)) as pilot:
        await _new_game_against_the_computer(app, pilot, downs=1)   # the second entry: basic
        assert app.ai_level == "basic"
        await _until_the_computer_plays(app, pilot, "blue")
        computer = app.computers["blue"]
        assert type(computer) is Computer
        assert app.session.game.state.seq > 0


async def test_new_game_dialog_default_is_the_strong_computer(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario], ai_level="basic")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("end", "enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        # the level given on the command line is the one highlighted; choose the first, strong
        assert app.screen.query_one("#level-list").highlighted == 1
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.ai_level == "strong"
        await _until_the_computer_plays(app, pilot, "blue")
        assert isinstance(app.computers["blue"], StrongComputer)


async def test_hotseat_asks_no_level(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("end", "enter")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # hotseat
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_play_level_option_reaches_the_computer(drill_path, tmp_path, monkeypatch):
    """``hexwar play FILE --ai blue --level basic``: the command line's choice is the level of the
    computer that plays blue in the app it starts."""
    from hexwar import cli, cli_play
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    started: dict = {}
    monkeypatch.setattr(cli_play, "_run", lambda **kw: started.update(kw) or 0)
    assert cli.main(["play", str(drill_path), "--ai", "blue", "--level", "basic", "--no-save"]) == 0
    assert started["ai_level"] == "basic"
    app = HexwarApp(**started)
    async with app.run_test(size=(100, 30)) as pilot:
        await _until_the_computer_plays(app, pilot, "blue")
        assert type(app.computers["blue"]) is Computer
