"""A phase that passes by itself says why, with its rule, in the game log at 80x24 (issue 34 item 7).

Poltava: the Swedish Fire phase passes with a battalion next to an enemy; the log names the unit
and R6.1 (no firing at enemies in your own ZOC), not only "it passes by itself"."""

from __future__ import annotations

from hexwar.engine.forced import forced_order
from hexwar.engine.levels import computer_for
from hexwar.match import Match
from hexwar.scenarios.loader import load_named
from hexwar.tui.app import HexwarApp
from hexwar.engine.hexgrid import hex_distance
from hexwar.tui.session import HUMAN

from tui_helpers import game_screen, settle


def _next_to_an_enemy(game, side) -> bool:
    units = [u for u in game.state.units.values() if u.alive and u.hex is not None]
    return any(hex_distance(u.hex, e.hex) == 1 for u in units if u.side == side for e in units if e.side != side)


def _journal_up_to_a_silent_fire_phase(path) -> str:
    """Poltava-1 played by the basic computer until the Swedes' Fire phase would pass by itself
    with a unit next to an enemy; the journal stops there, both sides human. Returns the side."""
    scenario = load_named("poltava-1")
    match = Match.new(scenario, seed=1, journal_path=path, players={s.id: HUMAN for s in scenario.sides})
    players = {s.id: computer_for("basic", s.id) for s in scenario.sides}
    try:
        for _ in range(200):
            game = match.game
            side = game.to_act()
            if (game.state.phase == "fire" and forced_order(game, list(game.legal_orders())) is not None
                    and _next_to_an_enemy(game, side)):
                return side
            match.play(players[side].choose(game), side)
    finally:
        match.close()
    raise AssertionError("no silent Fire phase in 200 orders")


async def test_a_silent_fire_phase_names_the_unit_and_r6_1_in_the_log_at_80x24(tmp_path):
    path = tmp_path / "poltava.journal"
    _journal_up_to_a_silent_fire_phase(path)
    app = HexwarApp(load=path, theme="default", save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 5)
        log = " ".join(line.text.strip() for line in game_screen(app).query_one("#log").lines)
        assert "nothing to decide in the Fire phase: it passes by itself;" in log, log[-600:]
        assert "cannot act against" in log
        assert "no firing at enemies in your own ZOC (R6.1))" in log, log[-600:]
