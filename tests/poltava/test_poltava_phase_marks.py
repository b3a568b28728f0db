"""R3 (sequence of play): the marks a unit gathers in a phase (moved, fired, attacked, defended)
are cleared when the next side's movement phase begins. ``resolve._clear_marks`` does it without
a ``Unit.mark`` call per unit and mark; it must leave every position as those calls did."""

from __future__ import annotations

from pathlib import Path

from hexwar.engine.rulesets.poltava import resolve as R
from hexwar.journal import read_journal
from hexwar.match import replay

JOURNAL = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "poltava-2-seed1.journal"


def _by_unit_mark(st) -> None:
    """The definition: ``u.mark(k, 0)`` for each unit and phase mark."""
    for u in st.units.values():
        for k in ("moved", "fired", "attacked", "defended"):
            u.mark(k, 0)


def test_R3_clearing_the_phase_marks_matches_a_mark_call_per_unit_through_a_game():
    seen = {"positions": 0, "cleared": 0}

    def check(n, game, events):
        st = game.state
        st.digest()  # every unit's bytes kept, so a missed change would show in the digest
        a, b = st.copy(), st.copy()
        a.digest(), b.digest()
        _by_unit_mark(a)
        R._clear_marks(b)
        assert [dict(u.marks) for u in b.units.values()] == [dict(u.marks) for u in a.units.values()]
        assert b.digest() == a.digest()
        seen["positions"] += 1
        seen["cleared"] += a.digest() != st.digest()

    replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=check)
    assert seen["positions"] == 630 and seen["cleared"] > 100  # most positions had marks to clear
