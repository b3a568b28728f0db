"""Every ruleset says exactly which orders roll (issue 29): an order flagged by ``needs_dice``
rolled, and an order that rolled was flagged. Only flagged orders go through the network's
commit-reveal exchange, so a loose answer costs a round trip and a wrong one a crash.

Games of the basic computer against itself, with a human's habits mixed in (ending a phase early
whenever that is legal, resigning at the end), each order resolved with real dice whatever the
flag said; an order flagged as rolling nothing is also resolved without dice (the way a match
does it, reusing the flag's dry run) and must reach the same position."""

from __future__ import annotations

import pytest

from hexwar.engine import Dice, Game, Order
from hexwar.engine.blake import blake2b
from hexwar.engine.levels import computer_for
from hexwar.scenarios.loader import builtin_paths, load_scenario

PATHS = {p.stem: p for p in builtin_paths()}
# a ruleset whose scenarios are still drafts (not shipped) is held to the same rule
PATHS.update({p.stem: p for p in (builtin_paths()[0].parent / "drafts").glob("*.toml")})
SCENARIOS = sorted(PATHS)
SEEDS = (1, 2, 3)
ORDERS = 120  # per game: enough to reach every phase of a turn, fast enough for the suite
EARLY = ("end-phase", "end-activation")


def _human(game: Game, n: int) -> Order | None:
    """Every fifth decision a human ends the phase (or activation) early, where that is legal."""
    if n % 5 != 3:
        return None
    for kind in EARLY:
        order = Order.make(kind)
        if game.validate(order, game.to_act()) is None:
            return order
    return None


def _play(name: str, seed: int) -> tuple[list[str], int, int]:
    """(mismatches, orders played, orders that rolled)."""
    scenario = load_scenario(PATHS[name])
    game = Game(scenario)
    players = {s.id: computer_for("basic", f"{seed}:{s.id}") for s in scenario.sides}
    wrong: list[str] = []
    rolled_orders = 0
    n = 0
    while not game.over and n < ORDERS:
        side = game.to_act()
        order = _human(game, n) or players[side].choose(game)
        flagged = game.needs_dice(order)
        dice = Dice(blake2b(f"{name}:{seed}:{n}".encode(), digest_size=32).digest())
        if flagged:
            state, _ = game.successor(order, dice, side, dice_checked=True)
        else:
            state, _ = game.successor(order, None, side)  # the match's way: no dice at all
            rolled_state, _ = game.successor(order, dice, side, dice_checked=True)
            if rolled_state.digest() != state.digest():
                wrong.append(f"seq {n} {order.to_text()}: the dry run's position differs")
        rolled = bool(dice.rolls)
        rolled_orders += rolled
        if flagged != rolled:
            wrong.append(f"seq {n} {order.to_text()}: flagged {flagged}, rolled {rolled}")
        game.state = state
        n += 1
    if not game.over and game.needs_dice(Order.make("resign")):
        wrong.append("resign is flagged as rolling")
    return wrong, n, rolled_orders


@pytest.mark.parametrize("name", SCENARIOS)
def test_needs_dice_is_exact(name):
    total = rolled = 0
    for seed in SEEDS:
        wrong, n, r = _play(name, seed)
        assert wrong == [], f"{name} seed {seed}: {wrong[:5]}"
        total += n
        rolled += r
    assert total > 0


def test_a_dry_run_leaves_the_game_as_it_was():
    """Asking whether an order rolls changes nothing: same digest, and the order still
    resolves (with dice) the same as on a fresh copy of the game."""
    scenario = load_scenario(next(p for p in builtin_paths() if p.stem == "napoleonica-brigade"))
    game = Game(scenario)
    player = computer_for("basic", "7")
    for n in range(60):
        order = player.choose(game)
        before = game.digest()
        fresh = game.copy()
        flagged = game.needs_dice(order)
        assert game.digest() == before
        seed = bytes([n]) * 32
        mine, _ = game.successor(order, Dice(seed) if flagged else None, dice_checked=flagged)
        theirs, _ = fresh.successor(order, Dice(seed), dice_checked=True)
        assert mine.digest() == theirs.digest()
        game.state = mine
