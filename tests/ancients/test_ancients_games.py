"""Whole games: the computer plays every shipped Ancients scenario to the end with legal orders;
legal_orders agrees with validate; needs_dice is exact; same seed, same game; invariants hold."""

import pytest

from hexwar.engine import Dice, Game, NoDice, Order
from hexwar.engine.ai import Computer
from hexwar.scenarios.loader import builtin_paths, load_scenario

SCENARIOS = [s for s in (load_scenario(p) for p in builtin_paths()) if s.ruleset == "ancients"]
IDS = [s.id for s in SCENARIOS]


def test_every_unit_type_appears_in_a_shipped_scenario():
    assert {"border-clash", "elephant-crossing"} <= set(IDS)
    kinds = {u.kind for s in SCENARIOS for u in s.units}
    assert kinds == set(Game(SCENARIOS[0]).ruleset.unit_types)


def _play(scenario, seed, check_all=False):
    g = Game(scenario)
    ai = Computer(seed)
    n = 0
    while not g.over:
        order = ai.choose(g)
        assert g.validate(order) is None
        if (check_all and n % 4 == 0) or n % 50 == 0:
            legal = list(g.legal_orders())
            assert order in legal
            assert len(set(legal)) == len(legal)
            step = max(1, len(legal) // 60)
            assert all(g.validate(o) is None for o in legal[::step])
        dice = Dice(b"%d-%d" % (seed, n))
        needs = g.needs_dice(order)
        events = g.apply(order, dice if needs else NoDice())
        if needs:
            assert any(e["t"] == "die-roll" for e in events), order
        assert g.ruleset.invariant_problems(g) == []
        n += 1
        assert n < 5000
    return g, n


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_computer_plays_to_the_end_with_legal_orders(scenario, seed):
    g, n = _play(scenario, seed)
    assert g.state.result["reason"]
    assert g.state.result["winner"] in (None, *g.state.side_order)
    assert g.state.turn <= scenario.turns


def test_same_seed_same_game():
    a, _ = _play(SCENARIOS[0], 7)
    b, _ = _play(SCENARIOS[0], 7)
    assert a.digest() == b.digest()


def test_legal_orders_and_validate_agree_through_a_game():
    g, n = _play(SCENARIOS[0], 5, check_all=True)
    assert n > 20


def test_invalid_orders_are_refused_without_change():
    g = Game(SCENARIOS[0])
    before = g.digest()
    for bad in (Order.make("move", unit="red-hi-1"), Order.make("shoot", unit=5, target=[1, 1]),
                Order.make("fly", unit="red-hi-1"), Order.make("choose-hit", unit="red-hi-1", choice="lose"),
                Order.make("end-phase", extra=1)):
        assert isinstance(g.validate(bad), str)
    assert g.digest() == before
