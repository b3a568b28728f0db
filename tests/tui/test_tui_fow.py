"""The Flames of War campaign in the terminal: plan entry, hotseat hand-over, battle reports and
the campaign map, driven by the keyboard through Textual's pilot on the real bir-hakeim scenario."""

from __future__ import annotations

from hexwar.engine import secret
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.tui.screen_battle_report import BattleReportScreen
from hexwar.tui.screen_campaign import CampaignScreen
from hexwar.tui.screen_plan import HandOverScreen, PlanScreen

from textual.worker import WorkerCancelled

from tui_helpers import settle as _settle


async def settle(pilot, rounds: int = 3) -> None:
    """As tui_helpers.settle; a computer's think that a newer one replaced (an exclusive worker
    cancelled) is not a failure here."""
    for _ in range(rounds):
        try:
            await _settle(pilot, 1)
        except WorkerCancelled:
            await pilot.pause()


def _app(players, **kw) -> HexwarApp:
    kw.setdefault("ai_level", "basic")
    return HexwarApp(scenario=load_named("bir-hakeim"), players=players, save=False, theme="default", **kw)


async def _to_plan(pilot, app) -> None:
    """Deploy as the scenario's set-up (enter on each deployment form, and on each hand-over
    before one), then end step 3 (the commanders stay) until a plan screen or a hand-over is up."""
    for _ in range(40):
        await settle(pilot)
        deploying = app.session.game.state.phase == "deploy"
        if isinstance(app.screen, (PlanScreen, HandOverScreen)):
            if not deploying:
                return
            await pilot.press("enter")
            continue
        if deploying:
            continue   # the computer deploys
        await pilot.press("E")
    raise AssertionError(f"no plan screen: {app.screen!r} in phase {app.session.game.state.phase}")


async def _deployed(pilot, app) -> None:
    """Deploy as the scenario's set-up: enter on each deployment form (and hand-over)."""
    for _ in range(40):
        await settle(pilot)
        if app.session.game.state.phase != "deploy":
            return
        if isinstance(app.screen, (PlanScreen, HandOverScreen)):
            await pilot.press("enter")
    raise AssertionError("the deployment did not end")


def _revealed(app) -> list[str]:
    return sorted(e["side"] for e in app.session.events if e.get("t") == "plan-revealed")


async def _until(pilot, cond, rounds: int = 800) -> None:
    """Wait for the computer (a worker thread) until ``cond`` holds, at most ``rounds`` pauses."""
    for _ in range(rounds):
        if cond():
            return
        await pilot.pause(0.05)


def _screen_text(app) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query("Static"))


async def test_g19_human_enters_a_plan_commits_and_the_computer_plan_is_revealed():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(160, 50)) as pilot:
        await _to_plan(pilot, app)
        screen = app.screen
        assert isinstance(screen, PlanScreen) and screen.side == "british"
        game = app.session.game
        assert game.state.phase == "plan" and game.state.vars["secret"]["commits"] == {}
        text = _screen_text(app)
        assert "Posture" in text and "HQ 1 (+2)" in text and "Bir Hakeim box" in text
        # the campaign map beside the form names points and groups
        assert "16" in text and "B180+2" in text
        # an illegal choice is explained by the engine, and enter refuses to commit it
        await pilot.press("down", "right", "right")   # HQ 1 takes an order
        await pilot.press("down", "right")            # ... but its company stays out
        await settle(pilot)
        rows = screen.fields
        assert any(f.kind == "order" and f.value for f in rows)
        # the plan screen's verdict line is the engine's own reason (plans.parse)
        from hexwar.engine.rulesets.fow import planform
        cost, why = planform.check(game, "british", rows)
        await pilot.press("enter")
        await settle(pilot)
        if why:
            assert isinstance(app.screen, PlanScreen), "a refused plan is not committed"
            assert why in _screen_text(app)
            await pilot.press("s")                    # take the computer's suggestion instead
            await pilot.press("enter")
        await _until(pilot, lambda: len(_revealed(app)) == 2)
        state = app.session.game.state
        assert state.phase != "plan" or secret.stage(state.vars["secret"]) is None
        # both plans are revealed: the British one is the one entered, the German the computer's
        events = app.session.events
        opened = [e for e in events if e.get("t") == "plan-revealed"]
        assert sorted(e["side"] for e in opened) == ["british", "german"]
        assert any(e.get("t") == "plan-committed" and e["side"] == "british" for e in events)
        # a commitment is never taken back: undo reaches no position before both commitments
        assert all(g.state.phase != "plan" or secret.stage(g.state.vars["secret"]) != "commit"
                   for g, _ in app.session.undo_stack)


async def test_g19_hotseat_hand_over_hides_the_first_plan():
    app = _app({"british": "human", "german": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_plan(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        assert "British Eighth Army player" in _screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlanScreen) and app.screen.side == "british"
        await pilot.press("s", "enter")               # the British commit
        await settle(pilot)
        # before the German player's form: a blank hand-over that shows nothing of the plan
        assert isinstance(app.screen, HandOverScreen)
        text = _screen_text(app)
        assert "German" in text or "Deutsches Afrikakorps" in text
        assert "sealed" in text and "Posture" not in text and "HQ" not in text
        state = app.session.game.state
        assert list(state.vars["secret"]["commits"]) == ["british"]
        assert state.vars["secret"]["plans"] == {}    # nothing revealed before both committed
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlanScreen) and app.screen.side == "german"
        # the German form starts from the German defaults, not from anything British chose
        assert "British" not in "".join(f.label for f in app.screen.fields if f.kind == "order")
        await pilot.press("s", "enter")
        await _until(pilot, lambda: len(_revealed(app)) == 2)
        events = app.session.events
        assert sorted(e["side"] for e in events if e.get("t") == "plan-revealed") == ["british", "german"]


async def test_g_p_battle_report_shows_forces_modifiers_rolls_and_losses():
    app = _app({"british": "computer", "german": "computer"})
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(1200):  # the computers play on until the first battle is over
            await pilot.pause(0.05)
            if isinstance(app.screen, BattleReportScreen):
                break
        assert isinstance(app.screen, BattleReportScreen), "no battle was reported"
        await pilot.pause()
        text = _screen_text(app)
        assert "Battle for point" in text
        assert "Attackers:" in text and "Defenders:" in text
        # a battle is fought (strengths, M(R), the 2D6), or the point was empty, or one side
        # withdrew or called the attack off before it (G-34), with the retreat tests rolled
        fought = "2D6 =" in text and "M(R)" in text and "strength" in text
        assert fought or "empty" in text or "withdraw" in text or "call the attack off" in text
        if not fought and "empty" not in text:
            assert "rolled" in text and "retreat test" in text
        # the game waits for the report to be read; enter closes it and play goes on
        seq = app.session.game.state.seq
        await pilot.pause()
        assert app.session.game.state.seq == seq
        await pilot.press("enter")
        for _ in range(600):
            await pilot.pause(0.05)
            if app.session.game.state.seq > seq:
                break
        assert app.session.game.state.seq > seq


async def test_s2_8_campaign_map_at_80x24_names_points_groups_and_supply():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(80, 24)) as pilot:
        await _deployed(pilot, app)
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        text = app.screen.text
        for p in ("01", "16", "23", "36"):
            assert p in text
        assert "~b" in text and "~f" in text        # the road bridge and the ford on the wadi
        assert "B180+2" in text                     # the Bir Hakeim box at 16 with its +2 HQ
        assert "organised supply" in text and "Weather" in text and "initiative" in text
        assert "Step 3 commanders" in text and "British Eighth Army to act" in text
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, BattleReportScreen)
        assert "No battle" in app.screen.text


async def test_g19_hotseat_game_left_after_one_commitment_is_revealed_after_loading(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = HexwarApp(scenario=load_named("bir-hakeim"), players={"british": "human", "german": "human"},
                    save=True, theme="default", ai_level="basic")
    async with app.run_test(size=(120, 40)) as pilot:
        await _to_plan(pilot, app)
        await pilot.press("enter")                    # hand-over to the British player
        await settle(pilot)
        await pilot.press("s", "enter")               # the British commit, then leave the game
        await settle(pilot)
        assert isinstance(app.screen, HandOverScreen)
        path = app.session.path
        sealed = app.session.sealed_path
        assert sealed.exists() and oct(sealed.stat().st_mode & 0o777) == "0o600"
        british_plan = app.session.match.sealed[("plan-1", "british")][0]
        assert str(british_plan[0][1]) not in path.read_text(errors="replace")  # journal: commitment only
    again = HexwarApp(load=path, theme="default", ai_level="basic")
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, HandOverScreen)  # the German player's turn to plan
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s", "enter")
        await _until(pilot, lambda: len(_revealed(again)) == 2)
        assert _revealed(again) == ["british", "german"]
        shown = [e for e in again.session.events if e.get("t") == "plan-revealed" and e["side"] == "british"]
        assert shown[0]["posture"] == british_plan[0][1]  # the plan sealed before leaving
        assert not sealed.exists()                        # nothing secret is left beside the save


async def test_s14_3_step_8_enter_on_a_point_lists_the_orders_of_its_groups():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(160, 50)) as pilot:
        await _to_plan(pilot, app)
        await pilot.press("s", "enter")               # the computer's suggestion for the British
        await _until(pilot, lambda: app.session.game.state.phase == "execute"
                     and app.session.game.to_act() == "british" and not app.session.game.state.pending)
        from hexwar.engine.rulesets.fow import geo
        from hexwar.tui.screen_dialogs import ChooseOrder
        game = app.session.game
        acts = [o for o in game.legal_orders() if o.kind == "act"]
        assert acts, "the British have orders to carry out"
        start = game.state.vars["orders"]["british"][acts[0]["actor"]]["point"]
        for ch in f"{start:02d}":                    # a point's number jumps to it (2.8)
            await pilot.press(ch)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        assert app.screen.title_text == f"Orders at point {start:02d}"
        assert all(o.kind == "act" for o in app.screen.orders)
        assert any(o["actor"] == acts[0]["actor"] for o in app.screen.orders)
        await pilot.press("escape")


async def test_s12_step_3_a_commander_is_moved_by_pointing_at_two_points():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(160, 50)) as pilot:
        await _deployed(pilot, app)
        from hexwar.engine.rulesets.fow import forces, geo
        from hexwar.tui.screen_dialogs import ChooseOrder
        game = app.session.game
        assert game.state.phase == "command" and game.to_act() == "british"
        k = "british-hq2"
        start = forces.commanders(game.state)[k]["point"]
        goal = next(n for _, n in geo.neighbours(start) if not forces.at(game.state, n))

        async def point(p):
            for ch in f"{p:02d}":
                await pilot.press(ch)

        await point(start)
        for _ in range(4):                                       # enter cycles the HQs there
            if getattr(app.screen, "_fow_commander", None) == k:
                break
            await pilot.press("enter")
        assert app.screen._fow_commander == k
        await point(goal)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChooseOrder)
        texts = [o for o in app.screen.orders]
        assert all(o.kind == "move-commander" and list(o["path"]) == [goal] for o in texts)
        await pilot.press("1", "enter")
        await settle(pilot)
        moved = forces.commanders(app.session.game.state)[k]
        assert moved["point"] == goal and moved["moved"]


async def test_g59_secret_deployment_is_entered_on_a_form_of_zone_points():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlanScreen) and app.session.game.state.phase == "deploy"
        assert "secret deployment" in _screen_text(app)
        from hexwar.engine.rulesets.fow import deploy
        zone = deploy.zone(app.session.game.scenario, "british")
        places = [f for f in screen.fields if f.kind == "place"]
        assert places and all([v for _, v in f.options] == zone for f in places)
        from hexwar.engine.rulesets.fow import planform
        start = places[0].value
        for _ in range(len(zone)):                     # the first company to another point
            await pilot.press("right")                 # that the rules accept (not mountains)
            if planform.check(app.session.game, "british", screen.fields)[1] is None:
                break
            assert planform.check(app.session.game, "british", screen.fields)[1] in _screen_text(app)
        moved = places[0].value
        assert moved != start
        await pilot.press("enter")
        await _until(pilot, lambda: app.session.game.state.phase != "deploy")
        from hexwar.engine.rulesets.fow import forces
        assert forces.companies(app.session.game.state)[places[0].company]["point"] == moved


async def test_s2_8_typing_a_point_number_on_the_main_map_jumps_to_that_point():
    app = _app({"british": "human", "german": "computer"})
    async with app.run_test(size=(160, 50)) as pilot:
        await _deployed(pilot, app)
        from hexwar.engine.rulesets.fow import geo
        screen = app.screen
        game = app.session.game
        await pilot.press("1")
        await settle(pilot)
        assert "jump to 1_" in str(screen.query_one("#turnbar").render())
        await pilot.press("6")                        # two digits make a whole point number
        await settle(pilot)
        assert tuple(screen.map_view.cursor) == tuple(geo.hex_of(16))
        ruler = "".join(seg.text for seg in screen.map_view.render_line(0)._segments)
        assert f"point 16 ({game.map.label(geo.hex_of(16))})" in ruler
        # an empty point shows its number on the map, at both zooms
        from hexwar.engine.rulesets.fow import forces
        held = forces.occupied(game.state, "british") | forces.occupied(game.state, "german")
        empty = next(p for p in geo.POINTS if p not in held and p != 16)
        view = screen.map_view
        assert any(text == f"{empty:02d}" for text, _ in view._small_face(geo.hex_of(empty)))
        assert any(text.strip() == f"{empty:02d}" for text, _ in view._big_face(geo.hex_of(empty)))
        await pilot.press("3", "7")                   # there are 36 points: refused, cursor stays
        await settle(pilot)
        assert tuple(screen.map_view.cursor) == tuple(geo.hex_of(16))
        assert any("no point 37" in str(n.message) for n in app._notifications)
        await pilot.press("g")                        # the jump dialog asks for a point too
        await settle(pilot)
        assert "Jump to point" in str(app.screen.query_one(".dialog-title").render())
        await pilot.press("2", "1", "enter")
        await settle(pilot)
        assert tuple(screen.map_view.cursor) == tuple(geo.hex_of(21))
