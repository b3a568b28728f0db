"""Part 5 (zones of control): a plain ``View`` (the one used while an order resolves) finds each
side's ZOC as the union of ``zoc_out`` over each hex's first live enemy unit that projects one,
and takes the zone from the map's content-keyed cache when the same sources were met before.
It must be the zone the definition gives at every position of a game, cache cold or warm."""

from __future__ import annotations

from pathlib import Path

from hexwar.engine.rulesets.poltava import board as B
from hexwar.engine.rulesets.poltava.data import MOUNTED
from hexwar.journal import read_journal
from hexwar.match import replay

JOURNAL = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "poltava-2-seed1.journal"


def _zoc_by_definition(v, side: str) -> frozenset:
    out: set = set()
    for h, us in v.occ.items():
        for u in us:
            if u.alive and u.side != side and B.arm(u) in B.ZOC_ARMS:
                out.update(B.zoc_out(v.m, h, B.arm(u) in MOUNTED, v.line_banned(u)))
                break
    return frozenset(out)


def test_R5_a_plain_views_zoc_is_the_union_of_its_sources_zoc_out_through_a_game():
    checked = []

    def check(n, game, events):
        st = game.state
        if n % 3 == 0:  # now and then with the map's zone cache emptied
            B._tables(game.scenario.map).pop("zoc", None)
        for side in ("sweden", "russia"):
            v = B.View(game.scenario, st)
            assert v.zoc(side) == _zoc_by_definition(B.View(game.scenario, st), side)
            checked.append(len(v.zoc(side)))

    replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=check)
    assert len(checked) == 2 * 630 and min(checked) > 0
