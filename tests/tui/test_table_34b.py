"""Issue 34, items 3, 4, 12, 14, 15: whole sentences at 80x24, one current notice, no journal
before a player's first order."""

from __future__ import annotations

from hexwar.journal import read_journal
from hexwar.match import replay

from textual.worker import WorkerCancelled

from hexwar.tui.app import HexwarApp

from tui_helpers import make_app


async def settle(pilot, rounds: int = 3) -> None:
    """``tui_helpers.settle``, where a computer's thought cancelled by a newer one is no failure."""
    for _ in range(rounds):
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            pass
        await pilot.pause()


# --- item 14: the computer's opening moves write no save ---------------------------------------
async def test_computer_first_moves_leave_no_journal_until_a_human_orders(drill_scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path))
    app = make_app(drill_scenario, {"red": "computer", "blue": "human"}, save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(30):
            await settle(pilot)
            if app.session.is_human(app.session.game.to_act()):
                break
        game = app.session.game
        assert game.state.seq > 0, "the computer (red, first) has played"
        assert app.session.is_human(game.to_act())
        assert not list(tmp_path.rglob("*.journal")), "the computer's orders alone wrote a save"
        assert not app.session.saved
        for _ in range(5):                          # the player's first order (an answer, or E)
            await pilot.press("enter" if app.session.game.state.pending else "E")
            await settle(pilot)
            if app.session.saved:
                break
        seq = app.session.game.state.seq
        digest = app.session.game.digest()
        path = app.session.path
        assert app.session.saved and path.exists()
    # the journal holds the computer's opening orders too: it replays to the same position
    contents = read_journal(path)
    report = replay(str(path), contents, verify=True)
    assert report.game.state.seq == seq
    assert report.game.digest() == digest


# --- item 12: one current notice, short at 80x24, a retreat is not the other side's move -------
async def test_notices_do_not_stack_and_stay_small_at_80x24(drill_scenario):
    app = make_app(drill_scenario, {"red": "human", "blue": "computer"})
    most, tallest = 0, 0
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(12):
            await settle(pilot)
            if app.session.game.over:
                break
            if app.session.game.state.pending:
                await pilot.press("enter")
            else:
                await pilot.press("E")
            await settle(pilot)
            toasts = [w for w in app.screen.walk_children() if type(w).__name__ == "Toast"]
            most = max(most, len(list(app._notifications)), len(toasts))
            tallest = max([tallest] + [t.region.height for t in toasts])
    assert most == 1, f"{most} notices shown at once"
    assert 0 < tallest <= 7, f"a notice {tallest} rows high on a 24-row screen"


async def test_hotseat_hand_overs_replace_each_other(drill_scenario):
    app = make_app(drill_scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.press("E")
            await pilot.pause()
            if app.session.game.state.pending:
                await pilot.press("enter")
        await pilot.pause()
        shown = list(app._notifications)
        assert len(shown) == 1, [n.message for n in shown]


def test_own_retreated_unit_is_not_counted_as_the_other_sides_move(drill_scenario):
    from hexwar.engine import Game
    from hexwar.tui.turn_summary import Snapshot, summary_lines

    game = Game(drill_scenario)
    snap = Snapshot.take(game, 0)
    red = next(uid for uid, u in sorted(game.state.units.items()) if u.side == "red" and u.hex is not None)
    blue = next(uid for uid, u in sorted(game.state.units.items()) if u.side == "blue" and u.hex is not None)
    units = dict(snap.units)
    for uid in (red, blue):  # both stood one hex away before: blue moved, red was pushed back
        h, strength = units[uid]
        units[uid] = ((h[0], h[1] + 1) if (h[0], h[1] + 1) != tuple(game.state.units[uid].hex) else (h[0], h[1] - 1),
                      strength)
    lines, _ = summary_lines(game, Snapshot(units, 0), [], ["blue"])
    moved = next(line for line in lines if line.startswith("moved "))
    assert moved.startswith("moved 1 unit(s)"), lines
    assert any("retreated" in line and line.startswith("retreated") for line in lines), lines


# --- item 4: the full log reaches its last line at 80x24 ------------------------------------------
async def test_full_log_scrolls_to_its_last_line_at_80x24(drill_scenario):
    """The log dialog (``l``) with a log longer than the screen: End shows its very last line.
    (The drill game is too short for such a log, so the dialog gets forty numbered entries.)"""
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    from hexwar.tui.screen_dialogs import Message

    app = make_app(drill_scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, Message)
        app.pop_screen()
        await app.push_screen(Message("Event log", "\n".join(f"entry {i}" for i in range(1, 41))))
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        body = app.screen.query_one(".dialog-body", VerticalScroll)
        text = body.query_one(Static)
        dialog = app.screen.query_one(".dialog")
        assert text.virtual_region.height == 40
        # the scrolled body lies inside the dialog (not clipped by it) and shows the last entry
        assert body.region.bottom <= dialog.content_region.bottom
        assert body.scroll_y + body.scrollable_content_region.height >= text.virtual_region.height


# --- item 3: the panel's log tail starts at an entry, never mid-entry --------------------------------
async def test_log_tail_is_cut_at_entry_boundaries_at_80x24(drill_scenario):
    from textual.widgets import RichLog

    app = make_app(drill_scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        log = screen.query_one("#log", RichLog)
        result = "Melee at 0916: 1st Foot against Blue Foot, no defender hit, no attacker hit, first round"
        for entry in ("> end the phase", "Turn 1 begins", result):
            screen.write_log(entry)
        await pilot.pause()
        await pilot.pause()
        height = log.scrollable_content_region.height
        assert 0 < height < 6, "the panel's log is a few rows at 80x24"
        top = int(log.scroll_y)
        shown = [log.lines[y].text.strip() for y in range(top, min(top + height, len(log.lines)))]
        assert shown, "the log shows something"
        starts = ("> end the phase", "Turn 1 begins", "Melee at 0916")
        assert shown[0].startswith(starts), f"the log's top row is mid-entry: {shown}"
        assert not any(line.startswith("attacker hit") for line in shown), shown
        # a short entry after the long one: the top row is its start, blank rows below it
        screen.write_log("Turn 2 begins")
        await pilot.pause()
        await pilot.pause()
        top = int(log.scroll_y)
        shown = [log.lines[y].text.strip() for y in range(top, min(top + height, len(log.lines)))]
        assert shown[0] == "Turn 2 begins", shown
        # nothing is lost: the whole log is still there to scroll back to
        text = " ".join(" ".join(line.text for line in log.lines).split())
        assert "no defender hit, no attacker hit, first round" in text


# --- item 15: the panel never cuts a sentence at its bottom row ----------------------------------
async def test_panel_shows_whole_lines_or_says_where_the_rest_is_at_80x24(drill_scenario):
    import textwrap

    from textual.widgets import Static

    app = make_app(drill_scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        reason = ("the hex is beyond this unit's movement allowance this phase, and the river between "
                  "them can only be crossed at a ford or a bridge (rule 8.2)")
        screen._preview_lines = lambda h: ["selected: Red Guns", "zones: front flank", "not here: " + reason]
        screen._update_panel()
        await pilot.pause()
        for selector in ("#preview", "#info"):
            widget = screen.query_one(selector, Static)
            width, height = widget.content_region.width, widget.content_region.height
            shown = widget._hexwar_text.split("\n")
            rows = sum(max(1, len(textwrap.wrap(line, width, break_on_hyphens=False))) for line in shown)
            assert rows <= height, f"{selector}: {rows} rows in {height}: {shown}"
        shown = screen.query_one("#preview", Static)._hexwar_text.split("\n")
        assert shown[-1].startswith("enter"), shown          # the panel says where the rest is
        assert shown[0].endswith("…"), shown                 # a reason too long for it ends visibly cut
        # a refusal that fits is shown whole, the lines above it give way
        short = "the river can only be crossed at a ford or a bridge (rule 8.2)"
        screen._preview_lines = lambda h: ["selected: Red Guns", "zones: front flank", "not here: " + short]
        screen._update_panel()
        await pilot.pause()
        shown = screen.query_one("#preview", Static)._hexwar_text.split("\n")
        assert "not here: " + short in shown, shown
