"""A47: `[rules] draw_rule` -- "literal" (default) or "roos-at-end" (spec 12.2)."""

import pytest

from hexwar.scenarios.loader import ScenarioError
from poltava_helpers import O, Script, U, board, game, to_phase

DIVS = [("le", "sweden", 1), ("cr", "sweden", 99), ("ha", "sweden", 99),
        ("ru", "russia", 99), ("ru2", "russia", 99), ("ru3", "russia", 99)]
VICTORY = {"russia_divisions": ["ru", "ru2", "ru3"], "sweden_divisions": ["le", "cr", "ha"]}


def s2_game(draw_rule=None, roos=True, first_turn=12):
    rules = {"first_turn": first_turn}
    if draw_rule is not None:
        rules["draw_rule"] = draw_rule
    units = [U("a", "sweden", "sw-inf", "0503", division="le", strength=1),
             U("b", "sweden", "sw-inf", "0808", division="le"),
             U("z", "russia", "ru-inf", "0501", division="ru")]
    g = game(units, divisions=DIVS, victory=VICTORY, rules=rules)
    if roos:
        g.state.units["b"].division = "roos"
        g.state.vars["roos_formed"] = True
    return g


def play_out_turn_12(g):
    for _ in range(6):
        g.apply(O("end-phase"))
    assert g.over
    return g.state.result


def test_A47_turn_12_ends_with_the_roos_column_standing():
    assert play_out_turn_12(s2_game())["winner"] == "russia"
    assert play_out_turn_12(s2_game("literal"))["winner"] == "russia"
    res = play_out_turn_12(s2_game("roos-at-end"))
    assert res["winner"] is None and "Roos" in res["reason"] and "turn 12" in res["reason"]
    # no column, or a destroyed one: the Russians win under either reading
    assert play_out_turn_12(s2_game("roos-at-end", roos=False))["winner"] == "russia"
    g = s2_game("roos-at-end")
    g.state.vars["roos_destroyed"] = True
    assert play_out_turn_12(g)["winner"] == "russia"


def rout_lewenhaupt(g):
    """Cr and Ha already routed; z's hit eliminates a and routs Le (threshold 1)."""
    g.state.vars["routed"] = ["cr", "ha"]
    to_phase(g, "fire", "russia")
    g.apply(O("fire", unit="z", target="a"), Script(6))
    assert g.over and "le" in g.state.vars["routed"]
    return g.state.result


@pytest.mark.parametrize("rule", ["literal", "roos-at-end"])
def test_A47_swedish_army_routed_while_the_roos_column_stands_is_a_draw(rule):
    res = rout_lewenhaupt(s2_game(rule, first_turn=5))
    assert res["winner"] is None and "Roos" in res["reason"]
    # the reason names the reading: literal = the S2 draw rule, roos-at-end = the army rout turned into a draw
    assert ("Swedish army routed" in res["reason"]) == (rule == "roos-at-end")


@pytest.mark.parametrize("rule", ["literal", "roos-at-end"])
def test_A47_swedish_army_routed_once_the_roos_column_is_destroyed_is_a_russian_victory(rule):
    g = s2_game(rule, first_turn=5)
    g.state.vars["roos_destroyed"] = True
    g.state.units["b"].division = "le"
    g.state.vars["routed"] = ["cr"]
    to_phase(g, "fire", "russia")
    g.apply(O("fire", unit="z", target="a"), Script(6))
    assert g.over and g.state.result == {"winner": "russia", "reason": "the Swedish army routed (R10.2)"}


def test_A47_an_unknown_draw_rule_is_a_scenario_problem():
    with pytest.raises(ScenarioError) as exc:
        board([U("a", "sweden", "sw-inf", "0503"), U("z", "russia", "ru-inf", "0501")],
              rules={"draw_rule": "roos-later"})
    assert any("rules.draw_rule" in p and "roos-later" in p and "roos-at-end" in p for p in exc.value.problems)
    for ok in ("literal", "roos-at-end"):
        board([U("a", "sweden", "sw-inf", "0503"), U("z", "russia", "ru-inf", "0501")], rules={"draw_rule": ok})
