"""``Game.unit_orders(unit)`` (issue 16): one unit's legal orders without building everyone's.
It must give exactly what filtering the full ``legal_orders()`` gives, in the same order."""

import functools
from pathlib import Path

from hexwar.engine import Game, State
from hexwar.engine.ruleset import order_names_unit
from hexwar.journal import read_journal
from hexwar.match import replay

JOURNAL = Path(__file__).parents[1] / "engine" / "fixtures" / "poltava-2-seed1.journal"
# every 42nd position of the fixture game meets the move, fire and melee phases and a pending
# answer (43 did until the game was recorded again for issue 35 item 17)
EVERY = 42


@functools.lru_cache(maxsize=None)
def _recorded(every: int) -> tuple:
    """Every ``every``-th position of the recorded game, as (scenario, encoded state)."""
    kept = []

    def keep(n, game, events):
        if n % every == 0 and not game.over:
            kept.append((game.scenario, game.to_bytes()))

    replay(str(JOURNAL), read_journal(JOURNAL), verify=False, on_order=keep)
    return tuple(kept)


def _positions(every: int) -> list[Game]:
    """Fresh games (tests may change them) at those positions."""
    return [Game(scenario, State.from_bytes(data)) for scenario, data in _recorded(every)]


def test_unit_orders_equal_the_filtered_legal_orders_in_every_phase():
    phases = set()
    for game in _positions(EVERY):
        full = list(game.legal_orders())
        phases.add(game.state.phase if not game.state.pending else "pending")
        st = game.state
        ids = [u.id for u in st.side_units(st.active, alive=False)] + sorted(st.units)[:3]
        for uid in ids:
            expected = [o for o in full if order_names_unit(o, uid)]
            assert list(game.unit_orders(uid)) == expected, (game.state.seq, uid)
    assert {"move", "fire", "melee"} <= phases


def test_unit_orders_of_an_unknown_unit_or_a_finished_game_are_empty():
    game = _positions(EVERY)[-1]
    assert list(game.unit_orders("no-such-unit")) == []
    game.state.result = {"winner": None, "reason": "test"}
    assert list(game.unit_orders(sorted(game.state.units)[0])) == []


def test_move_orders_built_without_checks_equal_checked_ones():
    from hexwar.engine import Hex, Order
    from hexwar.engine.rulesets.poltava.rules import move_order
    path = (Hex(3, 4), Hex(4, 4))
    for kind in ("move", "enter"):
        fast = move_order(kind, "sw-inf-1", path, "road")
        slow = Order.make(kind, unit="sw-inf-1", path=list(path), mode="road")
        assert fast == slow and fast.to_text() == slow.to_text() and fast.to_wire() == slow.to_wire()
        assert Order.from_wire(fast.to_wire()) == fast


def test_a_view_is_rebuilt_when_a_test_moves_a_unit_on_the_same_state():
    """What a view works out is kept on the state object (each call wraps it in a new View, so
    the state holds no view holding the state); changing a unit in place must not leave it stale."""
    from hexwar.engine.rulesets.poltava.board import view_of
    game = _positions(EVERY)[-1]
    st = game.state
    v1 = view_of(game)
    again = view_of(game)
    assert again.occ is v1.occ and again._zoc is v1._zoc and again.st is st
    u = next(x for x in st.side_units(st.active) if x.hex is not None)
    old = u.hex
    u.hex = None
    v2 = view_of(game)
    assert v2.occ is not v1.occ and u not in v2.units_at(old)
    assert "st" not in st.__dict__["_poltava_view"][1]
