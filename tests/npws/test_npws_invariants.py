"""Invariants of the rules under random legal play of the learning scenario: the VP track stays
in 0-35 (6.1.1), a space is over its limit only after a retreat and then holds no more full
corps than half the limit (4.1.2, 4.1.3), a corps is full, reduced or in the Force Pool (3.2.1),
and hands plus decks plus discards hold every card."""

from hypothesis import given, settings, strategies as st

from hexwar.engine import Dice, Game
from hexwar.engine.rulesets.npws import stacking
from hexwar.engine.rulesets.npws.facts import SIDES

from test_npws_scenario import SC


def _check(g: Game) -> None:
    s, board = g.state, g.map
    assert 0 <= s.vars["vp"] <= 35
    for u in s.units.values():
        if u.kind == "corps":
            assert (u.hex is None and u.strength == 0) or (u.hex in board and u.strength in (1, 2))
    for sid in board.ids():
        for side in SIDES:
            # over the limit only after a mandatory retreat, and then already reduced (4.1.3)
            waiting = any(p["kind"] == "reduce" and p["space"] == sid and p["side"] == side
                          for p in s.pending)              # the owner is choosing (4.1.3)
            if stacking.overstacked(s, board, sid, side) and not waiting:
                assert stacking.reductions_needed(s, board, sid, side) == 0, (sid, side)
    pile = s.vars["cards"]
    if pile is not None:
        held = pile["event"] + pile["action"] + list(pile["reserve"]) + pile["removed"]
        held += [c for side in SIDES for c in pile["hands"][side]]
        held += [c for d in ("event", "action") for c in pile["discard"][d]]
        assert sorted(held) == sorted(c["id"] for c in SC.cards)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_random_legal_play_keeps_the_invariants(seed):
    g = Game(SC)
    n = 0
    while not g.over and n < 300:
        orders = [o for o in g.legal_orders() if o.kind != "resign"]
        pick = Dice(f"{seed}-{n}".encode()).roll(len(orders)) - 1
        g.apply(orders[pick], Dice(f"roll-{seed}-{n}".encode()))
        _check(g)
        n += 1
    assert g.over
