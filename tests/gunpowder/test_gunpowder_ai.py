"""The Age of Gunpowder computer player: formation changes it offers, what its evaluation sees,
and that every candidate it offers is legal."""

from __future__ import annotations

from hexwar.engine import Dice, Game
from hexwar.engine.levels import computer_for
from hexwar.engine.rulesets.gunpowder import ai, evaluate
from hexwar.scenarios.loader import load_named

from gp_helpers import NE, begin, scenario, walk

X = "0508"


def _game(units, **kw) -> Game:
    g = Game(scenario(units, **kw))
    begin(g, "a")
    return g


def _forms(g: Game) -> dict[str, int]:
    return {o["formation"]: s for s, o in ai.candidates(g.ruleset, g) if o.kind == "form"}


def test_basic_marches_in_column_deploys_in_line_and_squares_against_cavalry():
    g = _game([("u", "a", "line-infantry", X, "NE", "line"), ("e", "b", "line-infantry", "0501", "SE", "line")])
    assert _forms(g) == {"column": ai.COLUMN_SCORE}                 # 7 away: march
    near = walk(g, X, NE, NE, NE)
    g = _game([("u", "a", "line-infantry", X, "NE", "column"), ("e", "b", "line-infantry", near, "SW", "line")])
    assert _forms(g) == {"line": ai.LINE_SCORE}                     # in range: deploy
    close = walk(g, X, NE, NE)
    g = _game([("u", "a", "line-infantry", X, "NE", "line"), ("e", "b", "cavalry", close, "SW", "column")], year=1805)
    assert _forms(g) == {"square": ai.SQUARE_SCORE}
    g = _game([("u", "a", "line-infantry", X, "NE", "line"), ("e", "b", "cavalry", close, "SW", "column")], year=1745)
    assert "square" not in _forms(g)                                # 5.1: not before 1790


def test_evaluation_sees_a_line_in_range_and_not_a_column():
    t = "0505"
    g = _game([("u", "a", "line-infantry", X, "NE", "line"), ("e", "b", "line-infantry", t, "SW", "column")])
    assert evaluate.lined_up_fire(g, "a") > 0 and evaluate.lined_up_fire(g, "b") == 0
    g = _game([("u", "a", "line-infantry", X, "NE", "column"), ("e", "b", "line-infantry", t, "SW", "column")])
    assert evaluate.lined_up_fire(g, "a") == 0


def test_every_candidate_of_both_levels_is_legal():
    for level in ("basic", "strong"):
        g = Game(load_named("gunpowder-picket"))
        players = {s: computer_for(level, f"1:{s}") for s in g.state.side_order}
        dice = Dice(b"candidates")
        for _ in range(120):
            if g.over:
                break
            for _, o in (g.ruleset.strong_orders(g) if level == "strong" else g.ruleset.ai_orders(g)):
                assert g.validate(o) is None, (o, g.validate(o))
            g.apply(players[g.to_act()].choose(g), dice)
