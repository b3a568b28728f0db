"""The player's table (issue 12, the items outside the map): each test plays through the real
app with the Textual pilot, on the drill ruleset or a real scenario."""

from __future__ import annotations

from pathlib import Path

from hexwar.engine import Order
from hexwar.engine.ai import Computer
from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.journal import read_journal
from hexwar.match import Match
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_aid import PlayerAidScreen
from hexwar.tui.screen_dialogs import ChooseOrder, Confirm, Message
from hexwar.tui.session import HUMAN, Session, saved_games, summarize_save

from tui_helpers import game_screen, goto, make_app, settle, unit

HOTSEAT = {"red": HUMAN, "blue": HUMAN}


def notes(app) -> list[str]:
    return [f"{n.title} {n.message}" for n in app._notifications]


def log_text(app) -> str:
    """The log's lines joined, its wrapping undone."""
    return " ".join(" ".join(str(line.text) for line in game_screen(app).query_one("#log").lines).split())


def text_of(app, selector: str) -> str:
    return game_screen(app).query_one(selector)._hexwar_text


def session_at(scenario, players, until, seed=1, limit=400) -> Session:
    """A session whose game the computer has played (both sides) until ``until(game)``."""
    match = Match.new(scenario, seed=seed)
    computer = Computer(f"t{seed}")
    for _ in range(limit):
        if until(match.game):
            return Session(match, players)
        match.play(computer.choose(match.game))
    raise AssertionError("the position was never reached")


def drill_loss_decision(drill_scenario) -> Session:
    """Red's guns hit the stack at 0603: Blue must choose which unit takes the loss."""
    for seed in range(200):
        match = Match.new(drill_scenario, seed=seed)
        fire = next(o for o in match.game.legal_orders()
                    if o.kind == "fire" and tuple(o["target"]) == tuple(drill_scenario.map.parse("0603")))
        match.play(fire)
        if match.game.state.pending:
            return Session(match, dict(HOTSEAT))
    raise AssertionError("no seed gives a hit")


# --- 1: decisions never offer resign; resign is its own command -----------------------------
async def test_item1_a_decision_dialog_offers_only_the_answers():
    bc = load_named("border-clash")
    session = session_at(bc, {"red": HUMAN, "blue": HUMAN},
                         lambda g: bool(g.state.pending) and g.state.pending[0]["kind"] == "choose-hit")
    app = HexwarApp(session=session, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        kinds = {o.kind for o in app.screen.orders}
        assert kinds == {"choose-hit"}                       # no resign among the answers
        await pilot.press("enter")                           # the first answer is a real one
        await settle(pilot)
        assert not app.session.game.over


async def test_item1_resign_asks_first_and_only_yes_resigns():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert not app.session.game.over
        who = app.session.game.to_act()                      # whoever won the initiative
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        result = app.session.game.state.result
        assert result is not None and result["winner"] == {"red": "blue", "blue": "red"}[who]


# --- 2: undoing back into a pending decision reopens it ---------------------------------------
async def test_item2_undo_into_a_pending_decision_opens_it_again(drill_scenario):
    session = drill_loss_decision(drill_scenario)
    session.play(next(o for o in session.game.legal_orders() if o.kind == "choose-loss"))
    assert not session.game.state.pending and session.can_undo
    app = HexwarApp(session=session, theme="default", save=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert not isinstance(app.screen, ChooseOrder)
        await pilot.press("u")
        await settle(pilot)
        assert app.session.game.state.pending
        assert isinstance(app.screen, ChooseOrder) and "decide choose loss" in app.screen.title_text


# --- 8: a header and a key row that fit 80 columns ---------------------------------------------
async def test_item8_header_puts_turn_phase_and_side_first_and_fits_80_columns():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players=dict(HOTSEAT), theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = text_of(app, "#turnbar")
        who = {"red": "Red Kingdom", "blue": "Blue Kingdom"}[app.session.game.to_act()]
        assert bar.startswith(f"T1/15 · Activation · {who} to act"), bar
        assert len(bar) <= 78
        keyrow = text_of(app, "#keyrow")
        assert len(keyrow) <= 78
        shown = [f"{k} {w}" for k, w in game_screen(app)._key_items()]
        assert keyrow.split("  ") == shown[:len(keyrow.split("  "))]   # whole items, none cut
        assert "select" in keyrow and "fire" not in keyrow
        await pilot.press("tab")                       # a unit selected: the keys of that mode
        await pilot.pause()
        keyrow = text_of(app, "#keyrow")
        assert "go" in keyrow and "fire" in keyrow and "cancel" in keyrow


# --- 9: the unit card in plain words ----------------------------------------------------------
async def test_item9_unit_card_in_plain_words():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players=dict(HOTSEAT), theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        label = bc.map.label(Hex(*unit(app, "red-hi-1").hex))
        await goto(pilot, bc, label)
        info = text_of(app, "#info")
        assert "Red Heavy Infantry 1" in info and "type: Heavy Infantry" in info
        assert "strength: 4 of 4" in info and "movement: 2" in info and "facing:" in info
        for raw in ("red-hi-1", "True", "False", "marks", "dash", "[HI]"):
            assert raw not in info, raw


async def test_item9_poltava_card_shows_the_counters_factors():
    p1 = load_named("poltava-1")
    app = HexwarApp(scenario=p1, players={s.id: HUMAN for s in p1.sides}, theme="default", save=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        while isinstance(app.screen, ChooseOrder):      # the set-up losses (S1) come first
            await pilot.press("enter")
            await settle(pilot)
        lg1 = unit(app, "lg1")
        await goto(pilot, p1, p1.map.label(Hex(*lg1.hex)))
        info = text_of(app, "#info")
        # the designed Swedish Guards counter: CS 3 / Fire 5 / 3 stars, reduced CS 2 / Fire 6 / 2 stars
        cs, fire, stars = (3, 5, 3) if lg1.strength == 2 else (2, 6, 2)
        assert "Life Guards I" in info, info
        assert f"combat strength: {cs}" in info and f"fire: {fire} (hits on {fire}+)" in info
        assert "movement: 4 MP" in info and f"stars: {stars}" in info
        assert "[PROP" not in info and "G-A" not in info


# --- 10: the combat preview opens with one plain line ------------------------------------------
async def test_item10_combat_preview_plain_line_first_then_breakdown():
    bc = load_named("border-clash")
    session = session_at(bc, {"red": HUMAN, "blue": HUMAN},
                         lambda g: not g.state.pending and any(o.kind == "melee" for o in g.legal_orders()))
    order = next(o for o in session.game.legal_orders() if o.kind == "melee")
    app = HexwarApp(session=session, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        g = app.session.game
        await goto(pilot, bc, bc.map.label(Hex(*g.state.units[order["unit"]].hex)))
        await pilot.press("enter")
        await goto(pilot, bc, bc.map.label(Hex(*order["target"])))
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        lines = str(app.screen.query_one("#odds").render()).splitlines()
        assert lines[0] == "Combat preview"
        assert lines[1].startswith("Melee: you hit on ") and "%" in lines[1]
        assert len(lines) > 2                           # the breakdown follows


# --- 11: every refusal names the reason and the rule --------------------------------------------
async def test_item11_a_refused_move_says_why_with_the_rule():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        uid = f"{app.session.game.to_act()}-hi-1"    # whoever won the initiative
        hi = unit(app, uid)
        start = Hex(*hi.hex)
        far = next(h for h in sorted(bc.map.hexes) if hex_distance(start, h) == 4
                   and not app.session.game.state.unit_at(h))
        await goto(pilot, bc, bc.map.label(start))
        await pilot.press("enter")
        assert game_screen(app).selected == uid
        await goto(pilot, bc, bc.map.label(far))
        assert "not here: 4 cells away" in text_of(app, "#preview")
        await pilot.press("enter")
        await pilot.pause()
        refusal = [n for n in notes(app) if "Refused" in n][-1]
        assert "4 cells away" in refusal and "(4.8)" in refusal and uid not in refusal


# --- 12: the player aid --------------------------------------------------------------------------
async def test_item12_player_aid_marks_the_step_and_shows_the_tables():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PlayerAidScreen)
        text = str(app.screen.query_one("#aid-text").render())
        marked = [line for line in text.splitlines() if line.startswith("> ")]
        assert len(marked) == 1 and "Activation" in marked[0]
        for part in ("Sequence of play", "Hit effect", "Terrain effects", "Heavy Infantry (HI)"):
            assert part in text
        assert "G-A28" not in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PlayerAidScreen)


# --- 13: what the other side did -------------------------------------------------------------------
async def test_item13_the_computers_turn_is_summarised_and_its_units_marked(drill_scenario):
    app = make_app(drill_scenario, {"red": HUMAN, "blue": "computer"})
    async with app.run_test(size=(100, 30)) as pilot:
        before = {uid: u.hex for uid, u in app.session.game.state.units.items()}
        await pilot.press("E")
        await settle(pilot, 6)
        g = app.session.game
        assert g.to_act() == "red"
        moved = sorted(Hex(*u.hex) for uid, u in g.state.units.items()
                       if u.side == "blue" and u.alive and u.hex != before[uid])
        screen = game_screen(app)
        assert sorted(screen.highlight) == moved
        # the map draws its own mark there, not the line-of-fire dot
        glyph = screen.map_view.glyphs.moved
        for h in moved:
            assert screen.map_view.marks[h].moved
            assert any(glyph in text for text, _ in screen.map_view._face(h).slots)
        assert any("What Blue did" in n for n in notes(app))
        assert "= moved" in log_text(app)
        await pilot.press("tab", "escape")                     # looking around keeps the marks
        assert sorted(screen.highlight) == moved
        move = next(o for o in app.session.game.legal_orders() if o.kind == "move")
        assert screen.play(move)                             # the player moves on: marks go
        await pilot.pause()
        assert screen.highlight == []


# --- 14: a phase with nothing to decide passes by itself -------------------------------------------
async def test_item14_empty_initiative_phase_passes_by_itself_and_the_log_says_so():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.session.game.state.phase == "activation"
        assert "nothing to decide in the Initiative phase: it passes by itself" in log_text(app)
        await pilot.press("u")                  # undo does not land back in the empty phase
        await settle(pilot)
        assert app.session.game.state.phase == "activation"


# --- 15: a facing in one key press; hotseat names whose turn it is ---------------------------------
async def test_item15_facing_is_chosen_with_one_direction_key():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players={"red": HUMAN, "blue": HUMAN}, theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        g = app.session.game
        uid = f"{g.to_act()}-hi-1"
        moves = [o for o in g.legal_orders() if o.kind == "move" and o["unit"] == uid]
        dest = next(tuple(o["path"][-1]) for o in moves
                    if sum(1 for x in moves if x["path"][-1] == o["path"][-1]) > 1
                    and any(x["facing"] == 1 for x in moves if x["path"][-1] == o["path"][-1]))
        await goto(pilot, bc, bc.map.label(Hex(*unit(app, uid).hex)))
        await pilot.press("enter")
        await goto(pilot, bc, bc.map.label(Hex(*dest)))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder) and "which facing" in app.screen.title_text
        await pilot.press("e")                       # up-right: facing NE (1) on a pointy map
        await pilot.pause()
        hi = unit(app, uid)
        assert tuple(hi.hex) == dest and hi.facing == 1


async def test_item15_hotseat_names_whose_turn_it_is(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert any("Blue to act: hand over the keyboard" in n for n in notes(app))
        assert text_of(app, "#turnbar").startswith("T1/6 · Action · Blue to act")


# --- 16: saves ------------------------------------------------------------------------------------------
async def test_item16_no_journal_until_the_first_order(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = make_app(drill_scenario, save=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "will be saved in" in log_text(app)
    assert saved_games() == []
    assert app.farewell == "No order was played, so no save file was written."

    app = make_app(drill_scenario, save=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        path = app.session.path
    assert saved_games() == [path]
    assert app.farewell == f"The game is saved in {path}\nResume it with: hexwar play --load {path}"


async def test_item16_load_list_shows_scenario_turn_sides_and_when(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    from hexwar.tui.session import new_journal_path
    s = Session.new(drill_scenario, {"red": HUMAN, "blue": "computer"}, new_journal_path("drill"))
    s.play(Order.make("end-phase"))
    s.play(Order.make("end-phase"))            # Blue's phase ends too: turn 2
    s.close()
    line = summarize_save(s.path).text()
    assert line.startswith("Drill at the Ford · turn 2/6 · Red (human) vs Blue (computer) · last played 2")
    app = HexwarApp(theme="default")
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("down", "enter")        # Load a saved game
        await pilot.pause()
        options = app.screen.query_one("#save-list")
        assert str(options.get_option_at_index(0).prompt) == line


# --- 17: a torn last record ---------------------------------------------------------------------
async def test_item17_a_torn_last_record_loads_every_order_before_it(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    path = tmp_path / "torn.journal"
    s = Session.new(drill_scenario, dict(HOTSEAT), path)
    s.play(next(o for o in s.game.legal_orders() if o.kind == "move"))
    s.play(Order.make("end-phase"))
    s.close()
    whole = path.read_bytes()
    path.write_bytes(whole[:-5])                  # the last append was cut short by a crash
    app = HexwarApp(load=path, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Message) and "damaged" in app.screen.title_text
        assert "the 1 order is loaded, every complete order before it" in app.screen.text
        assert app.session.game.state.seq == 1
    assert Path(f"{path}.damaged").read_bytes() == whole[:-5]
    assert len(read_journal(path).records) == 1   # the file holds the good orders only


# --- 18 (non-map side): --ascii puts only ASCII in the header, panel and key row ----------------------
async def test_item18_ascii_header_panel_and_key_row(drill_scenario):
    app = make_app(drill_scenario, ascii=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab")
        await pilot.pause()
        for selector in ("#turnbar", "#keyrow", "#info", "#preview", "#status"):
            assert text_of(app, selector).isascii(), selector
        assert text_of(app, "#turnbar").startswith("T1/6 - Action - Red to act")
        assert app.has_class("-ascii")
        screen = game_screen(app)
        assert screen.query_one("#panel").styles.border_left[0] == "ascii"


def _screen_text(app) -> str:
    """Every character the terminal would show, read from Textual's own screenshot."""
    import html
    import re
    svg = app.export_screenshot()
    body = svg.split("<g", 1)[1]              # skip the window title and style sheet
    texts = re.findall(r"<text[^>]*>(.*?)</text>", body)
    return "".join(html.unescape(re.sub("<[^>]+>", "", t)) for t in texts).replace("\xa0", " ")


async def test_item18_ascii_menu_and_game_screens_show_only_ascii(drill_scenario):
    app = HexwarApp(save=False, theme="monochrome", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = _screen_text(app)
        assert "New game" in text and text.isascii(), sorted({c for c in text if not c.isascii()})
    app = make_app(drill_scenario, ascii=True, theme="monochrome")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "p")
        await pilot.pause()
        text = _screen_text(app)
        assert "Player aid" in text and "Terrain effects" in text and text.isascii(), sorted({c for c in text if not c.isascii()})


async def test_item11_fire_with_nothing_selected_names_why_the_nearest_unit_cannot():
    bc = load_named("border-clash")
    app = HexwarApp(scenario=bc, players=dict(HOTSEAT), theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        g = app.session.game
        enemy = next(u for u in g.state.units.values() if u.side != g.to_act() and u.alive)
        await goto(pilot, bc, bc.map.label(Hex(*enemy.hex)))
        await pilot.press("f")
        await pilot.pause()
        note = [n for n in notes(app) if "No unit can fire at or attack" in n][-1]
        assert "(4." in note or "(1.6" in note       # the reason comes with its rule number


def test_item9_plain_words_drop_spec_tags_and_raw_ids():
    from hexwar.engine import Game
    from hexwar.tui.describe import plain
    g = Game(load_named("border-clash"))
    assert plain(g, "red-hi-1 cannot end a move at [3, 4] (G-A28)") == "Red Heavy Infantry 1 cannot end a move at 0605"
    assert plain(g, "fired and may not move (3.4.1, G-F2)") == "fired and may not move (3.4.1)"
    assert plain(g, "impassable [PROP A8]") == "impassable"


# --- decisions that take losses say how many are still to take -----------------------------------
async def test_poltava_setup_loss_dialog_says_how_many_steps_are_still_to_lose():
    """S1: each division of the set-up list rolls its pre-battle losses; the owner picks where
    they fall, one step at a time, and the dialog keeps count of what the roll still asks for."""
    p1 = load_named("poltava-1")
    match = Match.new(p1, seed=3)
    events = match.play(next(o for o in match.game.legal_orders() if o.kind == "setup"))
    pending = match.game.state.pending
    assert pending and pending[0]["kind"] == "setup-loss"
    first = pending[0]
    rolls = match.game.state.vars["setup_rolls"]
    assert first["count"] == rolls[next(d for d in rolls if first["units"][0] in
                                        [u.id for u in match.game.state.units.values() if u.division == d])]
    assert events
    app = HexwarApp(session=Session(match, {"sweden": HUMAN, "russia": HUMAN}), theme="default", save=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        n = first["count"]
        word = "step" if n == 1 else "steps"
        assert f"{n} {word} still to lose" in app.screen.title_text, app.screen.title_text


# --- 9: the whole card is one key away, even at 80x24 --------------------------------------------
async def test_item9_i_shows_every_row_of_the_card_under_the_cursor_at_80x24():
    """At 80x24 the side panel has room for a card's first rows only; `i` shows them all."""
    scenario = load_named("napoleonica-brigade")
    app = HexwarApp(scenario=scenario, players={s.id: HUMAN for s in scenario.sides}, save=False,
                    theme="default")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = app.session.game
        uid, u = next((i, u) for i, u in sorted(game.state.units.items())
                      if u.hex is not None and u.kind.startswith("INF"))
        await goto(pilot, scenario, game.map.label(u.hex))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, Message) and app.screen.title_text == "Unit card"
        rows = [f"{label}:" for label, _ in game.unit_card(uid)]
        assert len(rows) >= 5
        for row in rows:                       # every row of the ruleset's card, not just the first
            assert row in app.screen.text, (row, app.screen.text)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, Message)
