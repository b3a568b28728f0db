"""Issue 12, the map items (3-7, 18, 19), on the shipped scenarios a player meets first.

Expected results come from the issue's text and the scenario data (which unit stands where,
which terrain each hex has), never from what the map happened to print.
"""

from __future__ import annotations

import os

import pytest

from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets import KNOWN, get_ruleset
from hexwar.mapglyphs import choose_glyphs, legend, unit_drawing
from hexwar.scenarios.loader import find_scenario, load_scenario
from hexwar.textmap import render_map
from hexwar.tui.app import HexwarApp
from hexwar.tui.glyphs import ASCII, UNICODE
from hexwar.tui.picking import Legal
from hexwar.tui.screen_overview import Overview

from pty_run import colour_codes, run_on_pty
from tui_helpers import game_screen, settle

POLTAVA = load_scenario(find_scenario("poltava-1"))
BORDER = load_scenario(find_scenario("border-clash"))


def app_for(scenario, **kw):
    """Hotseat, past what the screen plays or asks at once (a phase with nothing to decide, such
    as poltava-1's set-up roll, and the decisions it brings), so the map is what is on screen."""
    from hexwar.tui.picking import nothing_to_decide
    from hexwar.tui.session import Session
    session = Session.new(scenario, {s.id: "human" for s in scenario.sides}, seed=1)
    for _ in range(200):
        only = nothing_to_decide(Legal(session.game))
        if only is None and not session.game.state.pending:
            break
        session.play(only or next(o for o in session.game.legal_orders() if o.kind != "resign"))
    return HexwarApp(session=session, save=False, theme=kw.pop("theme", "default"), **kw)


def face_text(view, h) -> str:
    return "".join(text for text, _ in view._face(Hex(*h)).slots)


async def until_a_unit_can_act(pilot):
    app = pilot.app
    for _ in range(80):                      # poltava-1 opens with dozens of set-up losses
        if app.session.game.state.pending:   # answer the rules' decisions with the first choice
            await pilot.press("enter")
        elif Legal(app.session.game).actors():
            return
        else:
            await pilot.press("E")
        await settle(pilot, rounds=1)
    raise AssertionError("no unit could act")


# --- item 3: reach and zones of control at the default zoom -----------------------------------
async def test_item3_poltava_default_zoom_shows_reach_and_zones_of_control():
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await until_a_unit_can_act(pilot)
        await pilot.press("tab")
        await pilot.pause()
        screen = game_screen(app)
        view, game = screen.map_view, app.session.game
        assert view.zoom == 0                                     # the default zoom
        uid = screen.selected
        unit = game.state.units[uid]
        occupied = {tuple(u.hex) for u in game.state.units.values() if u.alive and u.hex}
        reach = [h for h in game.reachable(uid) if tuple(h) not in occupied]
        assert reach
        for h in reach:
            assert UNICODE.reach in face_text(view, h)
        zoc = [h for h in game.zoc_hexes(unit.side) if tuple(h) not in occupied]
        for h in zoc:
            assert UNICODE.contact in face_text(view, h)


# --- item 4: counters ------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset_id", sorted(k for k in KNOWN if k != "drill"))
def test_item4_every_ruleset_names_a_distinct_symbol_for_each_unit_type(ruleset_id):
    import importlib
    table = importlib.import_module(f"hexwar.engine.rulesets.{ruleset_id}.drawing").UNITS
    assert set(get_ruleset(ruleset_id).unit_types) <= set(table)
    by_symbol: dict[str, set[str]] = {}
    for symbol, type_name, _ in table.values():
        assert len(symbol) == 1 and symbol.isascii()
        by_symbol.setdefault(symbol, set()).add(type_name)
    assert all(len(names) == 1 for names in by_symbol.values())   # one symbol, one type


async def test_item4_poltava_counters_tell_cavalry_infantry_and_guards_apart():
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        view = game_screen(app).map_view
        state = app.session.game.state
        def first(kind):
            return next(u for u in state.units.values() if u.kind == kind and u.hex)
        counters = {k: view.counter(first(k), 2) for k in ("sw-inf", "sw-cav", "sw-guard")}
        assert len(set(counters.values())) == 3
        assert counters["sw-inf"].startswith("I") and counters["sw-cav"].startswith("C")
        # the side is drawn on the counter's second line (on the hex's bottom edge)
        u = first("sw-inf")
        assert view._face(Hex(*u.hex)).slots[1][0].startswith("S")


async def test_item4_a_leader_on_top_never_hides_the_regiment():
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        view = game_screen(app).map_view
        units = app.session.game.state.units.values()
        leader = next(u for u in units if u.kind == "leader" and u.hex
                      and any(o.hex == u.hex and o.kind != "leader" for o in units))
        regiment = next(o for o in units if o.hex == leader.hex and o.kind != "leader")
        text = face_text(view, leader.hex)
        assert view.counter(regiment, 2) in text
        assert UNICODE.stack in text                              # and the stack is marked


async def test_item4_border_clash_counters_show_facing_and_the_reduced_mark():
    app = app_for(BORDER)
    async with app.run_test(size=(80, 24)) as pilot:
        view = game_screen(app).map_view
        state = app.session.game.state
        u = next(u for u in state.units.values() if u.kind == "HI")
        arrows = "\u2192\u2197\u2196\u2190\u2199\u2198"             # pointy: E NE NW W SW SE
        assert view.counter(u, 3) == f"I{u.strength}{arrows[u.facing % 6]}"
        u.strength -= 1                                          # a step lost
        view.refresh_map()
        assert UNICODE.reduced in face_text(view, u.hex)


# --- item 5: one glyph table for the screen and describe --map ---------------------------------
async def test_item5_terrain_on_screen_uses_the_describe_map_glyphs():
    g = choose_glyphs(POLTAVA)
    described = render_map(POLTAVA)
    app = app_for(POLTAVA, ascii=True)
    async with app.run_test(size=(160, 50)) as pilot:
        view = game_screen(app).map_view
        game = app.session.game
        occupied = {tuple(u.hex) for u in game.state.units.values() if u.alive and u.hex}
        empty = [h for h in game.map.hexes if tuple(h) not in occupied]
        for h in empty:
            t = game.map.terrain_at(h)
            assert face_text(view, h).strip().startswith(g.terrain[t])
        assert len({game.map.terrain_at(h) for h in empty}) >= len(g.terrain) - 1
        for t, c in g.terrain.items():
            assert f"{c} {t}" in described                        # the same key in the text map
        assert len(set(g.terrain.values()) | set(g.hexsides.values())) == \
            len(g.terrain) + len(g.hexsides)
        # the overview's key is built from the same table
        await pilot.press("v")
        await pilot.pause()
        key = str(app.screen.query_one("#overview-key").render())
        for group, entries in legend(POLTAVA):
            for c, name in entries:
                assert f"{c} {name}" in key


async def test_item5_hexside_features_are_drawn_on_their_edges():
    g = choose_glyphs(POLTAVA)
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        view = game_screen(app).map_view
        lay = view.layout_
        text = "".join(seg.text for y in range(lay.height) for seg in view._canvas_line(y))
        for feature, glyph in g.hexsides.items():
            assert glyph in text, feature


async def test_item5_themes_tint_every_terrain_of_the_scenario():
    from hexwar.tui.themes import PALETTES
    terrains = {POLTAVA.map.terrain_at(h) for h in POLTAVA.map.hexes}
    for name in ("default", "light", "high-contrast"):
        pal = PALETTES[name]
        tints = {t: pal.terrain_style(t).bgcolor for t in terrains}
        assert all(tints.values()), name
        assert tints["woods"] != tints["open"] != tints["river"], name


# --- item 6: density --------------------------------------------------------------------------
async def test_item6_poltava_whole_width_at_160x50_and_no_label_rows():
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        view = game_screen(app).map_view
        m = app.session.game.map
        visible = view.visible_hexes()
        rows = {m.offset(h)[1] for h in visible}
        full_rows = [r for r in rows if sum(1 for h in visible if m.offset(h)[1] == r) == m.width]
        assert len(full_rows) >= 8                                # all 32 columns, many rows
        for h in list(visible)[:50]:
            assert m.label(h) not in face_text(view, h)           # no label in the hex
        ruler = "".join(seg.text for seg in view.render_line(0))
        assert m.label(view.cursor) in ruler                      # the cursor's label instead
        assert "01" in ruler and "32" in ruler


@pytest.mark.parametrize("scenario", [BORDER, POLTAVA], ids=["border-clash", "poltava-1"])
async def test_item6_at_80x24_at_least_12_by_8_hexes(scenario):
    app = app_for(scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        view = game_screen(app).map_view
        m = app.session.game.map
        visible = view.visible_hexes()
        cols = {m.offset(h)[0] for h in visible}
        rows = {m.offset(h)[1] for h in visible}
        assert len(cols) >= 12 and len(rows) >= 8


# --- item 7: overview -------------------------------------------------------------------------
async def test_item7_overview_shows_both_armies_the_view_and_jumps():
    app = app_for(POLTAVA)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = game_screen(app)
        view = screen.map_view
        before = view.cursor
        shown = view.visible_hexes()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, Overview)
        text = app.screen._text()
        letters = choose_glyphs(POLTAVA).sides
        assert letters["sweden"] in text.plain and letters["russia"] in text.plain
        assert len(text.plain.splitlines()) == POLTAVA.map.height + 1     # every row, small
        underlined = sum(len(span.end - span.start and text.plain[span.start:span.end])
                         for span in text.spans if getattr(span.style, "underline", False))
        assert underlined >= 2 * len(shown)                       # the view is framed
        key = app.screen.query_one("#overview-key")
        assert not key.display                 # 40 rows and the key do not fit 50 lines: k shows it
        await pilot.press("k")
        await pilot.pause()
        assert key.display
        for _ in range(20):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        m = POLTAVA.map
        assert app.screen is screen
        assert m.offset(view.cursor) == (m.offset(before)[0], min(m.height - 1, m.offset(before)[1] + 20))
        assert view.cursor in view.visible_hexes()


@pytest.mark.parametrize("ascii_", [False, True])
async def test_item7_overview_at_80x24_shows_the_whole_40_row_map_at_once(ascii_):
    """Poltava's 40 rows do not fit 24 lines one to a line: two map rows share a text row, so
    the whole map, both armies and the framed view are on screen without scrolling."""
    app = app_for(POLTAVA, ascii=ascii_)
    m = POLTAVA.map
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game_screen(app)
        view = screen.map_view
        before = view.cursor
        await pilot.press("v")
        await pilot.pause()
        overview = app.screen
        assert isinstance(overview, Overview) and overview.pack == 2
        text = overview._text()
        rows = text.plain.splitlines()
        assert len(rows) == m.height // 2 + 1                      # the ruler and 20 rows
        assert rows[-1].split()[0] == f"{m.height - 1:02d}"         # the last pair is 39-40
        scroll = overview.query_one("#overview-scroll")
        assert scroll.virtual_size.height <= scroll.size.height    # nothing hidden, no scrolling
        assert scroll.region.bottom <= 24 and max(len(r) for r in rows) <= scroll.size.width
        letters = choose_glyphs(POLTAVA).sides
        assert letters["sweden"] in text.plain and letters["russia"] in text.plain
        underlined = [span for span in text.spans if getattr(span.style, "underline", False)]
        assert underlined                                           # the current view is framed
        if ascii_:
            assert text.plain.isascii() and str(overview.query_one("#overview-title").render()).isascii()
        await pilot.press("down", "down", "enter")                  # a text row is two map rows
        await pilot.pause()
        assert app.screen is screen
        assert m.offset(view.cursor) == (m.offset(before)[0], m.offset(before)[1] + 4)


# --- item 18: --ascii and NO_COLOR reach the terminal as promised ------------------------------
def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", **extra)
    return env


def test_item18_ascii_sends_only_ascii_bytes(tmp_path):
    data = run_on_pty(["play", "border-clash", "--no-save", "--ascii"], [b"\t", b"d", b"v", b"\x1b"],
                      _env(HEXWAR_HOME=str(tmp_path)))
    assert b"Border Clash" in data
    assert data.isascii()


def test_item18_no_color_sends_no_colour_codes(tmp_path):
    data = run_on_pty(["play", "border-clash", "--no-save"], [b"\t", b"d"],
                      _env(HEXWAR_HOME=str(tmp_path), NO_COLOR="1"))
    assert b"Border Clash" in data
    assert colour_codes(data) == []
    assert b"\x1b[" in data and b"7m" in data or b";7" in data   # reverse video still used


async def test_item18_ascii_map_glyphs_are_ascii():
    app = app_for(POLTAVA, ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await until_a_unit_can_act(pilot)
        await pilot.press("tab")
        await pilot.pause()
        view = game_screen(app).map_view
        assert view.glyphs is ASCII
        text = "".join(seg.text for y in range(view.layout_.height) for seg in view._canvas_line(y))
        assert text.isascii() and ASCII.reach in text


# --- item 19: repaint only what changed ---------------------------------------------------------
async def test_item19_a_cursor_move_with_a_unit_selected_repaints_only_nearby_lines():
    app = app_for(POLTAVA)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await until_a_unit_can_act(pilot)
        await pilot.press("tab")
        await pilot.pause()
        view = game_screen(app).map_view
        for y in range(view.size.height):
            view.render_line(y)
        before = {y: view._lines.get(y) for y in list(view._lines.keys())}
        await pilot.press("d")
        await pilot.pause()
        redrawn = [y for y, strip in before.items() if view._lines.get(y) is not strip]
        # the old and new cursor hexes and the line of fire between the unit and the cursor
        assert 0 < len(redrawn) <= 4 * len(view.layout_.template.rows)


def test_item18_ascii_stand_ins_keep_every_column_in_place():
    from rich.cells import cell_len

    from hexwar.tui.ascii_screen import AsciiOnly
    sample = "╭─┤▔▏▉⏎→↗·…—Гнé漢≡▾⊗◆"
    out = AsciiOnly().text(sample)
    assert out.isascii() and cell_len(out) == cell_len(sample)
    assert out.startswith("+-+-|#<") and "Gn" in out


def test_item5_unknown_terrain_gets_a_symbol_never_a_letter_of_its_name():
    from hexwar.mapglyphs import _allocate
    got = _allocate([("bog", ""), ("ridge-top", ""), ("orchard", "")], set("._/\\| +"))
    assert len(set(got.values())) == 3
    assert not any(c.isalpha() for c in got.values())


def test_item4_vertex_facings_point_between_two_hexside_directions():
    # napoleonica geometry: vertex 0 is 2 o'clock on a pointy map (between E and NE), 1 is 12
    assert UNICODE.facing("pointy", 0, vertex=True) == "\u2197"
    assert UNICODE.facing("pointy", 1, vertex=True) == "\u2191"
    assert UNICODE.facing("pointy", 4, vertex=True) == "\u2193"
    assert ASCII.facing("pointy", 1, vertex=True) == "w"       # the key for "up"
    s = load_scenario(find_scenario("napoleonica-brigade"))
    assert unit_drawing(s).vertex and unit_drawing(s).facing


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_item4_ascii_facing_is_the_key_that_steps_that_way(orientation):
    from hexwar.engine.hexgrid import DIRECTION_NAMES
    from hexwar.tui import keys
    for d, name in enumerate(DIRECTION_NAMES[orientation]):
        key = keys.DEFAULTS[f"dir_{name.lower()}"].keys.split(",")[0]
        assert ASCII.facing(orientation, d) == key
