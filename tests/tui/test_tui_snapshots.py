"""SVG snapshots of the main screens at 80x24 and 160x50 (update with --snapshot-update)."""

from __future__ import annotations

import pytest

from hexwar.tui.app import HexwarApp

from tui_helpers import make_app

SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_game_screen(snap_compare, drill_scenario, size):
    app = make_app(drill_scenario)
    assert snap_compare(app, press=["0", "2", "0", "4", "enter", "0", "6", "0", "3"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_menu(snap_compare, size):
    assert snap_compare(HexwarApp(save=False, theme="default"), terminal_size=size)


def test_combat_preview(snap_compare, drill_scenario):
    app = make_app(drill_scenario)
    assert snap_compare(app, press=["0", "2", "0", "4", "enter", "0", "6", "0", "3", "f"],
                        terminal_size=(80, 24))


def test_help(snap_compare, drill_scenario, monkeypatch):
    # The help names the rebinding file; a player without XDG_CONFIG_HOME sees it under ~ whoever they are.
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", "/home/player")
    assert snap_compare(make_app(drill_scenario), press=["question_mark"], terminal_size=(160, 50))


def test_zoomed_out_ascii_monochrome(snap_compare, drill_scenario):
    app = make_app(drill_scenario, ascii=True, theme="monochrome")
    assert snap_compare(app, press=["minus", "tab"], terminal_size=(80, 24))


def _finished_session(scenario):
    from hexwar.engine.ai import Computer
    from hexwar.tui.session import Session
    s = Session.new(scenario, {"red": "human", "blue": "human"}, None, seed=7)
    c = Computer(7)
    while not s.game.over:
        s.play(c.choose(s.game))
    return s


def test_victory_screen(snap_compare, drill_scenario):
    app = HexwarApp(session=_finished_session(drill_scenario), theme="default")
    assert snap_compare(app, terminal_size=(80, 24))
