"""Poltava's inline move search (issue 16) must find exactly what the generic ``search_moves``
finds with the ruleset's step function (Part 4 movement, Part 5 ZOC): same hexes, same costs,
same paths, in every mode, for every unit, over positions of a recorded game."""

from hexwar.engine.movement import search_moves
from hexwar.engine.rulesets.poltava.board import _tables, view_of
from hexwar.engine.rulesets.poltava.rules import MODES

from test_unit_orders import _positions


def test_r4_inline_search_equals_the_generic_search_with_the_step_function():
    compared = 0
    for game in _positions(43)[:8]:
        v = view_of(game)
        nbrs = _tables(v.m)["nbrs"]
        for u in game.state.side_units(game.state.active):
            for mode in MODES:
                fast = v.search(u, mode)
                if not v.mode_ok_at_start(u, mode, u.hex):
                    assert fast == {}
                    continue
                slow = search_moves(u.hex, lambda h: nbrs.get(h, ()), v.step_fn(u, mode),
                                    v.allowance(u, mode), lambda h: v.can_end(u, h))
                assert fast == slow, (game.state.seq, u.id, mode)
                assert list(fast) == list(slow)  # the same order too
                compared += len(slow)
    assert compared > 1000


def test_r4_kept_expansions_give_the_generic_search_in_later_positions():
    """The expansion kept per map (issue 16) is reused when a unit is asked about again and in
    later positions with the same enemy zones; every answer must still be the generic search's,
    with where the unit may end checked afresh in the position asked about."""
    compared, reused = 0, 0
    positions = _positions(43)
    for game in positions[:: max(1, len(positions) // 12)]:
        v = view_of(game)
        nbrs = _tables(v.m)["nbrs"]
        for u in game.state.side_units(game.state.active)[:10]:
            for mode in MODES:
                if not v.mode_ok_at_start(u, mode, u.hex):
                    continue
                kept = len(_tables(v.m).get("reach", {}))
                first = v.search(u, mode)
                again = v.search(u, mode)
                reused += len(_tables(v.m).get("reach", {})) == kept
                slow = search_moves(u.hex, lambda h: nbrs.get(h, ()), v.step_fn(u, mode),
                                    v.allowance(u, mode), lambda h: v.can_end(u, h))
                assert first == slow == again, (game.state.seq, u.id, mode)
                assert list(first) == list(slow) == list(again)
                compared += len(slow)
    assert compared > 1000
    assert reused > 0  # some answers came from an expansion kept from an earlier position
