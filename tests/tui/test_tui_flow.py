"""Whole-app flows: menu to game, a full game against the computer, save/load, replay, errors."""

from __future__ import annotations

from hexwar.journal import read_journal
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_dialogs import Message
from hexwar.tui.screen_game import GameScreen
from hexwar.tui.screen_menu import MenuScreen
from hexwar.tui.screen_replay import ReplayScreen
from hexwar.tui.screen_victory import VictoryScreen
from hexwar.tui.session import Session

from tui_helpers import game_screen, goto, make_app, settle, unit


async def test_whole_game_against_the_computer_reaches_the_victory_screen(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = make_app(drill_scenario, {"red": "human", "blue": "computer"}, save=True)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(40):                       # the human only ends phases; the computer fights
            await settle(pilot)
            if isinstance(app.screen, VictoryScreen):
                break
            if app.session.game.state.pending:
                await pilot.press("enter")        # answer a loss decision with the first choice
            else:
                await pilot.press("E")
        assert isinstance(app.screen, VictoryScreen)
        text = str(app.screen.query_one("#result").render())
        result = app.session.game.state.result
        assert result["reason"] in text
        path = app.session.path
    # Every order was journaled: the file replays to the same final state.
    contents = read_journal(path)
    assert len([r for r in contents.records if r["type"] == "order"]) > 5


async def test_menu_new_game_by_keyboard(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default", extra_scenarios=[drill_scenario])
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("enter")                 # New game
        await pilot.pause()
        await pilot.press("end", "enter")          # the drill scenario is listed last
        await pilot.pause()
        await pilot.press("down", "down", "enter") # hotseat
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session.players == {"red": "human", "blue": "human"}


async def test_host_and_join_open_the_network_dialogs():
    from hexwar.tui.screen_dialogs import AskText
    from hexwar.tui.screen_menu import ScenarioPicker
    app = HexwarApp(save=False, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ScenarioPicker) and app.screen.host
        await pilot.press("escape", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, AskText) and "HOST[:PORT]" in app.screen.prompt


async def test_save_load_resumes_and_undo_rewrites_the_journal(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = make_app(drill_scenario, save=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, drill_scenario, "0303")
        await pilot.press("enter", "a", "enter")   # move: journaled
        await goto(pilot, drill_scenario, "0204")
        await pilot.press("enter", "d", "enter")   # guns to 0304... or refused; either way
        seq = app.session.game.state.seq
        await pilot.press("u")                     # take back the last move
        await pilot.pause()
        assert app.session.game.state.seq == seq - 1
        path = app.session.path
        digest = app.session.game.digest()
    assert len(read_journal(path).records) == seq - 1
    app2 = HexwarApp(load=path, theme="default")
    async with app2.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app2.screen, GameScreen)
        assert app2.session.game.digest() == digest
        assert unit(app2, "r-inf-1").hex == drill_scenario.map.parse("0203")
        await pilot.press("E")                     # play on: appended to the same file
        await pilot.pause()
    assert len(read_journal(path).records) == seq


async def test_bad_save_file_is_a_message_not_a_traceback(tmp_path):
    bad = tmp_path / "broken.journal"
    bad.write_bytes(b"not a journal at all")
    app = HexwarApp(load=bad, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Message)
        assert "bad magic" in app.screen.text
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_replay_viewer_steps_back_and_forth_and_jumps_to_a_turn(drill_scenario, tmp_path):
    path = tmp_path / "g.journal"
    from hexwar.engine.ai import Computer
    s = Session.new(drill_scenario, {"red": "computer", "blue": "computer"}, path, seed=3)
    c = Computer(3)
    while not s.game.over:
        s.play(c.choose(s.game))
    s.close()
    app = HexwarApp(replay=path, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("right", "right", "right", "left")
        assert app.screen.index == 2
        await pilot.press("end")
        assert app.screen.data.games[app.screen.index].over
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.screen.data.games[app.screen.index].state.turn == 2
        await pilot.press("home")
        assert app.screen.index == 0


async def test_no_color_picks_the_monochrome_theme(drill_scenario, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = HexwarApp(scenario=drill_scenario, players={"red": "human", "blue": "human"}, save=False)
    async with app.run_test(size=(100, 30)):
        assert app.hexwar_theme == "monochrome"
        view = game_screen(app).map_view
        assert all(st.color is None and st.bgcolor is None for st in view.palette.sides)


async def test_ascii_mode_draws_only_ascii(drill_scenario):
    app = make_app(drill_scenario, ascii=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab")
        view = game_screen(app).map_view
        text = "".join(seg.text for y in range(view.layout_.height) for seg in view._canvas_line(y))
        assert text.isascii()
        red = app.session.game.state.units["r-inf-1"]
        assert view.counter(red, 3) in text and "~" in text   # a counter and the river


async def test_settings_switch_theme_and_the_map_follows(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(save=False, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("up", "up", "enter")       # Settings (second to last)
        await pilot.pause()
        await pilot.press("down", "down", "enter")   # high-contrast
        await pilot.pause()
        assert app.hexwar_theme == "high-contrast"
        assert app.theme == "hexwar-high-contrast"


async def test_load_from_the_menu_lists_saved_games(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    from hexwar.tui.session import new_journal_path
    s = Session.new(drill_scenario, {"red": "human", "blue": "human"}, new_journal_path("drill"))
    s.play(next(o for o in s.game.legal_orders() if o.kind == "end-phase"))  # the save is written now
    s.close()
    app = HexwarApp(theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")           # Load a saved game
        await pilot.pause()
        await pilot.press("enter")                   # the newest save
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session.path == s.path


def test_bare_hexwar_opens_the_menu_and_play_is_a_command():
    from hexwar.cli import build_parser
    from hexwar import cli_play as commands
    p = build_parser()
    assert p.parse_args([]).func is commands.cmd_menu
    args = p.parse_args(["play", "border-clash", "--ai", "blue", "--ascii"])
    assert args.func is commands.cmd_play and args.ai == ["blue"] and args.ascii
