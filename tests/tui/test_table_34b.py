"""Issue 34, items 3, 4, 12, 14, 15: whole sentences at 80x24, one current notice, no journal
before a player's first order."""

from __future__ import annotations

from hexwar.journal import read_journal
from hexwar.match import replay

from textual.worker import WorkerCancelled

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
        await pilot.press("E")                      # the player's first order
        await settle(pilot)
        seq = app.session.game.state.seq
        digest = app.session.game.digest()
        path = app.session.path
        assert app.session.saved and path.exists()
    # the journal holds the computer's opening orders too: it replays to the same position
    contents = read_journal(path)
    report = replay(str(path), contents, verify=True)
    assert report.game.state.seq == seq
    assert report.game.digest() == digest
