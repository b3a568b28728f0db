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


# --- what a wargamer reads off the screen (issue 14's UI items, issue 12 items 9-12) -----------
import pytest  # noqa: E402

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor  # noqa: E402
from hexwar.engine.rulesets.napoleonica import NapoleonicaRuleset  # noqa: E402
from hexwar.tui.glyphs import ASCII, UNICODE  # noqa: E402
from hexwar.tui.picking import nothing_to_decide  # noqa: E402
from hexwar.tui.session import Session  # noqa: E402

from napo_helpers import board  # noqa: E402

BRIGADE = load_scenario(find_scenario("napoleonica-brigade"))
BLUE_COL = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="column")
RED_LINE = dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")


def brigade_in_movement(side: str | None = None, **kw) -> HexwarApp:
    """Hotseat brigade, the battle started and played on to the first Movement phase; with
    ``side``, the other side (if it won the roll-off) ends its movement first (9.2)."""
    session = Session.new(BRIGADE, {s.id: "human" for s in BRIGADE.sides}, seed=1)
    for _ in range(40):
        game = session.game
        if game.state.phase == "movement" and Legal(game).actors():
            break
        only = nothing_to_decide(Legal(game))
        session.play(only or next(o for o in game.legal_orders() if o.kind == "end-phase"))
    assert session.game.state.phase == "movement"
    if side is not None and session.game.to_act() != side:
        session.play(next(o for o in session.game.legal_orders() if o.kind == "end-phase"))
    assert side is None or session.game.to_act() == side
    return HexwarApp(session=session, save=False, theme="default", **kw)


def small_battle(phase: str, units=(BLUE_COL, RED_LINE), **kw) -> HexwarApp:
    """A blue column facing a red line three hexes off, blue to act in ``phase``."""
    scenario = board(list(units))
    session = Session.new(scenario, {"blue": "human", "red": "human"}, seed=1)
    state = session.game.state
    state.phase, state.active, state.turn = phase, "blue", 1
    state.vars["commanded"] = sorted(state.units)
    return HexwarApp(session=session, save=False, theme="default", **kw)


def text_of(app, selector: str) -> str:
    return game_screen(app).query_one(selector)._hexwar_text


async def whole_preview(pilot, app) -> str:
    """The whole combat preview, as a player reads it when the side panel has no room for all of
    it: `f` on the target opens the order with its preview (the panel names that key)."""
    assert "f: the whole preview" in text_of(app, "#preview") or "Charge" in text_of(app, "#preview")
    await pilot.press("f")
    await pilot.pause()
    text = str(app.screen.query_one("#odds").render())
    await pilot.press("escape")
    await pilot.pause()
    return text


def face(view, h) -> list[str]:
    return [text for text, _ in view._face(Hex(*h)).slots]


async def put_cursor(pilot, game, h) -> None:
    for ch in game.map.label(h):
        await pilot.press(ch)
    await pilot.pause()


async def select(pilot, uid) -> None:
    """Put the cursor on the unit and press enter, as a player would."""
    game = pilot.app.session.game
    await put_cursor(pilot, game, game.state.units[uid].hex)
    await pilot.press("enter")
    await pilot.pause()
    assert game_screen(pilot.app).selected == uid


async def test_s21_4_the_panel_names_facing_by_clock_formation_state_and_stands():
    app = brigade_in_movement()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        game = app.session.game
        u = game.state.units["f-inf-1"]                 # 24e de ligne: a column facing north
        await put_cursor(pilot, game, u.hex)
        info = text_of(app, "#info")
        assert "24e de ligne" in info
        assert "facing: 12 o'clock (front NW, NE)" in info
        assert "formation: column" in info and "state: formed" in info
        assert "stands: 4 of 4\n" in info
        assert "facing: N" not in info and "formation=" not in info


async def test_s21_10_counters_show_type_stands_facing_and_formation():
    app = brigade_in_movement()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = game_screen(app).map_view
        game = app.session.game
        for uid, mark in (("f-inf-1", "c"), ("a-art", "t")):
            u = game.state.units[uid]
            main, side, lower = face(view, u.hex)
            symbol = view.drawing.symbol(u.kind)
            assert main == f"{symbol}{u.strength}{UNICODE.facing('pointy', u.facing, True)}"
            assert side == view.letters[u.side] and lower == mark
        game.state.units["f-inf-1"].mark("state", "disordered")
        view.show(game)
        assert face(view, game.state.units["f-inf-1"].hex)[2] == "~"


async def test_s21_6_the_selected_units_zones_are_drawn_with_a_legend():
    app = small_battle("movement", units=(dict(BLUE_COL, strength=1), RED_LINE))   # one stand
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        screen = game_screen(app)
        view, game = screen.map_view, app.session.game
        b = game.state.units["b"]
        ahead = hex_neighbor(hex_neighbor(b.hex, 1), 2)     # straight towards 12 o'clock
        flank = hex_neighbor(b.hex, 0)                       # east: the right flank hexside
        rear = hex_neighbor(b.hex, 4)                        # south-west: a rear hexside
        assert face(view, ahead)[1] == UNICODE.zone("front")
        assert face(view, flank)[1] == UNICODE.zone("flank")
        assert face(view, rear)[1] == UNICODE.zone("rear")
        assert "zones: \u25b3front \u25cbflank \u25bdrear" in text_of(app, "#preview")
        await pilot.press("escape")
        await pilot.pause()
        assert face(view, ahead)[1] == ""                    # gone with the selection


async def test_s21_6_zones_are_ascii_under_ascii():
    app = small_battle("movement", units=(dict(BLUE_COL, strength=1), RED_LINE), ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        view, game = game_screen(app).map_view, app.session.game
        b = game.state.units["b"]
        assert face(view, hex_neighbor(b.hex, 3))[1] == ASCII.zone("flank") == "o"
        assert "zones: +front oflank vrear" in text_of(app, "#preview")
        text = "".join(seg.text for y in range(view.layout_.height) for seg in view._canvas_line(y))
        assert text.isascii()


async def test_s21_5_the_map_draws_every_hex_a_unit_stands_in(monkeypatch):
    def two_hexes(self, game, unit_id):
        u = game.state.units[unit_id]
        if unit_id == "r":
            return (u.hex, hex_neighbor(u.hex, 0))           # a two-stand line along its row
        return (u.hex,) if u.hex is not None else ()
    monkeypatch.setattr(NapoleonicaRuleset, "occupied_hexes", two_hexes)
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view, game = game_screen(app).map_view, app.session.game
        r = game.state.units["r"]
        second = hex_neighbor(r.hex, 0)
        head, stand = face(view, r.hex)[0], face(view, second)[0]
        # the unit's own hex carries its strength; its other stand shows the stand mark, so two
        # stands never read as two units
        assert head[:2] == f"I{r.strength}" and stand[:2] == f"I{view.glyphs.stand}"
        assert head[2:] == stand[2:]                              # the same facing on both
        await put_cursor(pilot, game, second)
        assert "formation: line" in text_of(app, "#info")    # the panel finds it there too


async def test_s22_4_the_charge_preview_gives_exact_d20_odds():
    app = small_battle("attack")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        game = app.session.game
        await put_cursor(pilot, game, game.state.units["r"].hex)
        preview = (await whole_preview(pilot, app)).splitlines()
        charge = next(line for line in preview if line.startswith("Charge (front)"))
        # 1 d20 + 8 against 1 d20 + 5, a tie to the defender: 247 of 400 (22.4)
        assert charge.startswith("Charge (front): you win 61.8 %")
        assert "they flee 42.8 %" in charge and "you flee 19.5 %" in charge


async def test_s9_4_a_refused_move_says_why_with_the_rule():
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        game = app.session.game
        b, r = game.state.units["b"], game.state.units["r"]
        beside = next(hex_neighbor(r.hex, d) for d in range(6)
                      if hex_distance(hex_neighbor(r.hex, d), b.hex) == 2)
        await put_cursor(pilot, game, beside)
        assert "not here: no move may end next to an enemy stand (9.4" in text_of(app, "#preview")
        seq = game.state.seq
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.game.state.seq == seq
        shown = [n.message for n in app._notifications]
        assert any(m.startswith("Refused: no move may end next to an enemy stand (9.4") for m in shown)


@pytest.mark.parametrize("ascii", [False, True])
async def test_s22_12_the_player_aid_is_built_from_the_rulesets_data(ascii):
    app = brigade_in_movement(ascii=ascii)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        text = str(app.screen.query_one("#aid-text").render())
        for title in ("Sequence of play [S 6]", "Fire [P 22.2]", "Morale [P 22.3]", "Melee [P 22.4]",
                      "Units [S 3]", "Whose rules [S], [H], [P]"):
            assert title in text
        side = app.session.game.state.active
        name = next(s.name for s in BRIGADE.sides if s.id == side)
        assert f"> 3. Movement [S 9]" in text and f"(now, {name} to act)" in text
        assert "napoleonica/data.py" in text
        if ascii:
            assert text.isascii()


async def test_s9_1_the_acted_dot_means_acted_not_formation_marks():
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view, game = game_screen(app).map_view, app.session.game
        cinc = game.state.units["blue-cinc"]
        assert face(view, cinc.hex)[2] != UNICODE.marked       # formation and state are no action
        await select(pilot, "b")
        await pilot.press("enter")                               # its own orders: hold first
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        game = app.session.game
        assert game.state.units["b"].marks.get("acted") == 1
        assert face(game_screen(app).map_view, game.state.units["b"].hex)[2] == "c"   # formation first


async def test_s22_4_the_preview_breakdown_names_units_never_ids():
    app = small_battle("attack")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        game = app.session.game
        await put_cursor(pilot, game, game.state.units["r"].hex)
        preview = await whole_preview(pilot, app)
        from hexwar.tui.describe import unit_title
        assert f"rank of {unit_title(game, 'b')}: +5" in preview      # "Blue line infantry"
        assert "rank of b:" not in preview and f"rank of {unit_title(game, 'r')} +5" in preview  # a named term and its signed value


async def test_s21_4_a_vertex_facing_is_chosen_with_the_key_that_points_there():
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        game = app.session.game
        b = game.state.units["b"]
        dest = hex_neighbor(b.hex, 1)                        # one hex ahead (front-right, NE)
        facings = sorted(o.get("facing") for o in game.unit_orders("b")
                         if o.kind == "move" and o.get("path") and tuple(o.get("path")[-1]) == tuple(dest))
        assert 1 in facings and len(facings) > 1             # several facings: the dialog asks
        await put_cursor(pilot, game, dest)
        await pilot.press("enter")
        await pilot.pause()
        from hexwar.tui.screen_dialogs import ChooseOrder
        assert isinstance(app.screen, ChooseOrder)
        labels = [str(o.prompt) for o in app.screen.query_one("#choices").options]
        assert any("facing 12 o'clock" in text and "[w]" in text for text in labels)
        await pilot.press("w")                               # "up": 12 o'clock, facing index 1
        await pilot.pause()
        moved = app.session.game.state.units["b"]
        assert moved.hex == dest and moved.facing == 1


async def test_s21_10_the_map_key_names_formation_marks_and_zone_glyphs():
    app = brigade_in_movement()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        text = str(app.screen.query_one("#overview-key").render())
        assert "marks: l line, c column, s square" in text and "~ disordered" in text
        assert "zones \u25b3 front \u25cb flank \u25bd rear" in text


def _past_set_up(scenario) -> HexwarApp:
    session = Session.new(scenario, {s.id: "human" for s in scenario.sides}, seed=1)
    for _ in range(200):
        only = nothing_to_decide(Legal(session.game))
        if only is None and not session.game.state.pending and Legal(session.game).actors():
            break
        session.play(only or next(o for o in session.game.legal_orders() if o.kind != "resign"))
    return HexwarApp(session=session, save=False, theme="default")


async def test_zones_default_rulesets_without_zones_draw_none():
    app = _past_set_up(load_scenario(find_scenario("border-clash")))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await pilot.pause()
        screen = game_screen(app)
        assert screen.selected is not None
        assert not any(mk.zone for mk in screen.map_view.marks.values())
        assert "zones:" not in text_of(app, "#preview")


async def test_zones_on_a_flat_map_sit_on_the_hex_bottom_edge(monkeypatch):
    from hexwar.engine.rulesets.poltava.rules import PoltavaRuleset
    def zones(self, game, unit_id):
        u = game.state.units[unit_id]
        return {"front": (hex_neighbor(u.hex, 2),), "rear": (hex_neighbor(u.hex, 5),)}
    monkeypatch.setattr(PoltavaRuleset, "unit_zones", zones)
    app = _past_set_up(load_scenario(find_scenario("poltava-1")))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await pilot.pause()
        screen = game_screen(app)
        u = app.session.game.state.units[screen.selected]
        view = screen.map_view
        checked = 0
        for d, zone in ((2, "front"), (5, "rear")):
            h = hex_neighbor(u.hex, d)
            mk = view.marks[h]
            if not view.units_at(h) and not mk.target and not mk.contact:   # nothing more urgent
                assert face(view, h)[1].strip() == UNICODE.zone(zone)
                checked += 1
        assert checked
        assert "zones: \u25b3front \u25bdrear" in text_of(app, "#preview")


async def test_s21_6_big_hexes_show_the_zone_on_unit_hexes_too():
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        view, game = game_screen(app).map_view, app.session.game
        view.zoom = 1
        await pilot.pause()
        r = game.state.units["r"]                       # three hexes straight ahead of blue
        assert view.marks[Hex(*r.hex)].zone == "front"
        assert UNICODE.zone("front") in face(view, r.hex)[-1]
        assert face(view, r.hex)[1].startswith("R I4")  # side, type, stands on the big counter


async def test_s21_4_squares_disordered_units_and_generals_show_no_facing_arrow():
    app = small_battle("movement")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view, game = game_screen(app).map_view, app.session.game
        arrows = set(UNICODE.facing("pointy", f, True) for f in range(6))
        b, cinc = game.state.units["b"], game.state.units["blue-cinc"]
        assert face(view, b.hex)[0][-1] in arrows                   # a formed column faces
        assert not set(face(view, cinc.hex)[0]) & arrows            # a general ignores facing
        b.mark("formation", "square")
        view.show(game)
        assert not set(face(view, b.hex)[0]) & arrows and face(view, b.hex)[2] == "s"
        b.mark("formation", "column")
        b.mark("state", "disordered")
        view.show(game)
        assert not set(face(view, b.hex)[0]) & arrows and face(view, b.hex)[2] == "~"


async def test_s21_5_every_stand_of_the_selected_unit_is_marked():
    app = small_battle("movement", units=(dict(BLUE_COL, hex="0607"), RED_LINE))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        view, game = game_screen(app).map_view, app.session.game
        stands = game.ruleset.occupied_hexes(game, "b")
        assert len(stands) == 4
        assert view.selected_hexes == frozenset(stands)
        looks = view._all_looks()
        for h in stands:             # each stand shows its counter and has its borders lit
            assert face(view, h)[0].startswith("I") and "selected" in looks[h]
        others = game.ruleset.occupied_hexes(game, "r")
        assert not any("selected" in looks[h] for h in others)


async def test_s22_2_the_owner_of_a_line_hit_by_fire_chooses_the_stand_in_a_dialog():
    # red's line faces 6 o'clock from its left end (3, 5) and runs west to (0, 5) (21.5). Blue's
    # hit is on the books when both sides pass the Fire phase; then the rules ask red which end
    # goes (22.2): a dialog offers just the two ends. Red takes the first, its left end (3, 5):
    # the line is the other three, (2, 5) now its left end carrying the strength on the map.
    from hexwar.tui.screen_dialogs import ChooseOrder
    from hexwar.engine.rulesets.napoleonica import board as B
    units = (dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="line"),
             dict(id="r", side="red", kind="INF_LINE", hex="0606", formation="line"))
    session = Session.new(board(list(units)), {"blue": "human", "red": "human"}, seed=1)
    state = session.game.state
    state.phase, state.active, state.turn = "fire", "blue", 1
    state.vars["commanded"] = sorted(state.units)
    state.vars["hits"] = {"r": 1}
    session.play(next(o for o in session.game.legal_orders() if o.kind == "end-phase"))   # blue passes
    assert session.game.state.phase == "fire" and session.game.to_act() == "red"
    app = HexwarApp(session=session, save=False, theme="default")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("E")                                   # red passes too: the phase ends
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        assert "decide lose stand" in app.screen.title_text and "Red" in app.screen.title_text
        assert [tuple(o["hex"]) for o in app.screen.orders] == [(3, 5), (0, 5)]
        assert app.screen.query_one("#odds").display is False    # no empty "combat preview"
        await pilot.press("1", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, ChooseOrder)
        game = app.session.game
        r = game.state.units["r"]
        assert r.strength == 3 and B.stand_hexes(r) == (Hex(2, 5), Hex(1, 5), Hex(0, 5))
        view = game_screen(app).map_view
        assert face(view, (2, 5))[0][:2] == "I3"                 # the new left end
        assert not face(view, (3, 5))[0].startswith("I")         # the lost stand's hex is empty


async def test_s22_6_enter_on_a_general_stacked_on_a_regiment_offers_both():
    # a general may share a hex with one friendly stand (21.5): both can act in the Movement
    # phase, so Enter there asks which, the regiment first; Enter again on the selected one
    # offers its own orders here or the other unit, keyboard only
    from hexwar.tui.screen_dialogs import ChooseOrder, ChooseUnit
    app = brigade_in_movement("france")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        game = app.session.game
        gen = game.state.units["f-gen-1"]
        await put_cursor(pilot, game, gen.hex)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooseUnit)
        assert [uid for uid, _ in app.screen.choices] == ["f-inf-1", "f-gen-1"]
        await pilot.press("1", "enter")
        await pilot.pause()
        assert game_screen(app).selected == "f-inf-1"
        await pilot.press("enter")                        # again, on the regiment now selected
        await pilot.pause()
        assert isinstance(app.screen, ChooseUnit)
        assert "its orders here" in app.screen.choices[0][1] and app.screen.choices[1][0] == "f-gen-1"
        await pilot.press("2", "enter")
        await pilot.pause()
        assert game_screen(app).selected == "f-gen-1"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("1", "enter")                            # the general's own orders here
        await pilot.pause()
        assert isinstance(app.screen, ChooseOrder)
        assert {o.kind for o in app.screen.orders} == {"hold"}
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game_screen(app) and game_screen(app).selected == "f-gen-1"


@pytest.mark.parametrize("size, zoom", [((160, 50), 0), ((210, 64), 1), ((80, 24), 0)])
async def test_the_brigade_map_opens_at_the_big_hexes_only_where_it_fits(size, zoom):
    # big hexes need the whole 14 x 14 map on screen (8 columns and 4 lines a hex: 117 x 58
    # cells plus the rulers); the map pane of 160 x 50 is 116 x 48, so the small hexes open
    # there, the big ones on a screen of 210 x 64
    session = Session.new(BRIGADE, {s.id: "human" for s in BRIGADE.sides}, seed=1)
    app = HexwarApp(session=session, save=False, theme="default")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert game_screen(app).map_view.zoom == zoom


async def test_s9_7_item4_the_cursor_on_a_line_stand_offers_the_column_headed_there():
    # a blue line of four facing 12, left end in 0508; the cursor on its second stand offers
    # the changes anchored there (9.7 item 4: any stand may become the column's head); f
    # opens them, since enter on an own stand lists the orders that need no hex
    line = dict(id="b", side="blue", kind="INF_LINE", hex="0508", formation="line")
    app = small_battle("movement", units=(line, dict(RED_LINE, hex="0602")))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await select(pilot, "b")
        game = app.session.game
        stands = game.ruleset.occupied_hexes(game, "b")
        second = stands[1]
        await put_cursor(pilot, game, second)
        preview = text_of(app, "#preview")
        assert f"head at {game.map.label(second)}" in preview or \
            f"pivot stand at {game.map.label(second)}" in preview
        seq = game.state.seq
        await pilot.press("f")
        await pilot.pause()
        dialog = app.screen
        assert dialog is not game_screen(app)          # several changes anchor there: a choice
        assert all(o.get("at") == tuple(second) for o in dialog.orders)
        orders = [o for o in dialog.orders if o.get("formation") == "column" and o.get("facing") == 1]
        assert len(orders) == 1
        await pilot.press(str(dialog.orders.index(orders[0]) + 1))
        await pilot.pause()
        if app.screen is dialog:
            await pilot.press("enter")
            await pilot.pause()
        assert app.session.game.state.seq == seq + 1
        b = app.session.game.state.units["b"]
        assert b.hex == second and app.session.game.ruleset.occupied_hexes(app.session.game, "b")[0] == second
