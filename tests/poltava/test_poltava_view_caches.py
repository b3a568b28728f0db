"""Poltava's position caches (issue 16) give the answers worked out afresh, at every position of
a recorded poltava-2 game: the snapshot view's index, the ids of each arm, a division's units."""

from pathlib import Path

from hexwar.engine.rulesets.poltava.board import View, arm, ids_by_arm, in_division, view_of
from hexwar.journal import read_journal
from hexwar.match import replay

JOURNAL = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "poltava-2-seed1.journal"


def _ids(index):
    return {h: [u.id for u in (us if isinstance(us, list) else [us])] for h, us in index.items()}


def test_cached_position_answers_equal_fresh_ones_through_a_whole_game():
    seen = []

    def check(n, game, events):
        st = game.state
        cached = view_of(game)
        cached.zoc("sweden")  # builds (or takes) the index
        fresh = View(game.scenario, st.copy(), snapshot=True)
        fresh.zoc("sweden")
        for mine, theirs in zip(cached._indexed, fresh._indexed):
            assert _ids(mine) == _ids(theirs)
        by_arm = ids_by_arm(st)
        for a in sorted({arm(u) for u in st.units.values()}):
            assert list(by_arm[a]) == sorted(k for k, u in st.units.items() if arm(u) == a)
        for division in ("roos", "gn", "lg"):
            assert [u.id for u in in_division(st, division)] == \
                [u.id for u in st.units.values() if u.division == division]
        seen.append(n)

    replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=check)
    assert len(seen) > 700
