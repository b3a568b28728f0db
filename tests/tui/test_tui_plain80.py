"""Issue 12 items 8, 9, 13 and 15, as found by playing at 80x24: the facing hint keeps its
brackets, events name a facing in words, the hex panel names its terrain once, and the other
side's summary is a short notice that never covers a decision's answers."""

from __future__ import annotations

from hexwar.engine.hexgrid import DIRECTION_NAMES, Hex
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.describe import event_text, hex_lines
from hexwar.tui.screen_dialogs import ChooseOrder
from hexwar.tui.session import HUMAN
from hexwar.tui.turn_summary import notice_lines

from test_tui_table import drill_loss_decision
from tui_helpers import game_screen, goto, settle, unit


async def test_item15_the_facing_hint_shows_the_key_brackets():
    """``[d]`` after each choice is the key; the hint must say so, not lose ``[ ]`` as markup."""
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = app.session.game
        uid = f"{g.to_act()}-hi-1"
        moves = [o for o in g.legal_orders() if o.kind == "move" and o["unit"] == uid]
        dest = next(tuple(o["path"][-1]) for o in moves
                    if sum(1 for x in moves if x["path"][-1] == o["path"][-1]) > 1)
        await goto(pilot, bc, bc.map.label(Hex(*unit(app, uid).hex)))
        await pilot.press("enter")
        await goto(pilot, bc, bc.map.label(Hex(*dest)))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        hint = str(app.screen.query_one(".dialog-hint").render())
        assert "the key in [ ]: that facing" in hint


def test_item9_an_event_names_a_facing_in_words_not_a_number():
    bc = load_named("border-clash")
    from hexwar.engine import Game
    game = Game(bc)
    text = event_text(game, {"t": "moved", "unit": "red-hi-1", "facing": 0})
    assert f"facing {DIRECTION_NAMES['pointy'][0]}" in text and "facing 0" not in text


def test_item9_the_hex_panel_names_its_terrain_once():
    """border-clash's hill at 0404 (its scenario text); the ruleset's words begin with 'hill'."""
    from hexwar.engine import Game
    bc = load_named("border-clash")
    game = Game(bc)
    first = hex_lines(game, bc.map.parse("0404"))[0]
    assert first.startswith("0404 hill") and first.count("hill (") <= 1, first


def test_item13_the_notice_is_short_and_points_to_the_log():
    lines = ["What Blue did", "moved 2 unit(s): Blue Guard 0707-0705, Blue Archers 1 0407-0505",
             "attacks and shots: 1", "dice: shoot 3", "no losses"]
    short = notice_lines(lines, "»", "l")
    assert short == ["moved 2 unit(s), marked » on the map", "attacks and shots: 1", "no losses",
                     "l: the whole account in the log"]


async def test_item13_a_decision_clears_notices_that_would_cover_its_answers(drill_scenario):
    session = drill_loss_decision(drill_scenario)
    app = HexwarApp(session=session, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        app.pop_screen()
        screen = game_screen(app)
        screen.notify("What Blue did", timeout=12)
        await pilot.pause()
        assert list(app._notifications)
        screen.open_decision()
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder) and not list(app._notifications)


def test_item9_events_name_sides_not_ids():
    from hexwar.engine import Game
    game = Game(load_named("border-clash"))
    text = event_text(game, {"t": "initiative", "first": "red", "rolls": {"red": 6, "blue": 3}})
    red, blue = (s.name for s in game.scenario.sides)
    assert text == f"initiative: first {red}, rolls {red} 6, {blue} 3"


def test_item9_events_name_a_phase_as_the_ruleset_does():
    from hexwar.engine import Game
    game = Game(load_named("border-clash"))
    title = game.ruleset.phase_names["engine-fire"]
    assert event_text(game, {"t": "phase", "phase": "engine-fire"}) == f"phase: {title}"
    # a phase the ruleset does not name: its id in words
    assert event_text(game, {"t": "phase", "phase": "night-march"}) == "phase: Night march"


def test_item8_help_at_80_columns_wraps_under_each_description():
    from hexwar.tui import keys
    from hexwar.tui.screen_help import key_rows, legend_text
    pairs = [(keys.display(s.keys), s.description) for s in keys.table().values()]
    rows = key_rows(pairs, 72)
    assert all(len(r) <= 72 for r in rows)
    column = len(rows[0]) - len(pairs[0][1])
    starts = {k for k, _ in pairs}
    for row in rows:                     # a row starts with its key, or continues under the text
        assert row[:column].strip() in starts or row[:column] == " " * column, row
    legend = legend_text(72).splitlines()
    assert all(len(line) <= 72 for line in legend)


def test_item7_the_overview_key_never_parts_a_glyph_from_its_name():
    from hexwar.engine import Game
    from hexwar.mapglyphs import choose_glyphs, legend
    from hexwar.tui.glyphs import UNICODE
    from hexwar.tui.screen_overview import key_text
    poltava = load_named("poltava-1")
    text = key_text(Game(poltava), UNICODE, 72)
    lines = text.splitlines()
    assert all(len(line) <= 72 for line in lines)
    for _, entries in legend(poltava, choose_glyphs(poltava)):
        for glyph, name in entries:            # each entry whole on one line
            assert any(f"{glyph} {name}" in line for line in lines), (glyph, name)


def test_item9_a_modifier_reads_as_its_name_and_signed_value():
    from hexwar.engine import Game
    game = Game(load_named("border-clash"))
    text = event_text(game, {"t": "shot", "modifiers": [["shooter has not moved this turn", 1], ["cover", -1]]})
    assert text == "shot: modifiers shooter has not moved this turn +1, cover -1"


def test_item9_a_field_named_like_its_event_is_not_named_twice():
    from hexwar.engine import Game
    game = Game(load_named("border-clash"))
    assert event_text(game, {"t": "turn", "turn": 2}) == "turn: 2"
    assert event_text(game, {"t": "rout_box", "rout_box": 3, "hit": True}) == "rout box: 3, hit"  # no snake_case (issue 34 item 6)
