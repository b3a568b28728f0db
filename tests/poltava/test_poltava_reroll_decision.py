"""R9.5 (issue 35 item 17): a pending reroll decision carries exactly the roll being decided
about: after one leader's reroll, the next leader's decision sees that reroll's result, and so
does the computer that answers it."""

from hexwar.engine.rulesets.poltava import ai
from hexwar.engine.rulesets.poltava import melee as M
from hexwar.engine.rulesets.poltava.data import parse_result

from poltava_helpers import H, O, Script, U, events, game, to_phase


def _two_leaders():
    g = game([U("a", "sweden", "sw-inf", "0506", stats={"cs": 4, "stars": 0}),
              U("k", "sweden", "leader", "0506"), U("k2", "sweden", "leader", "0506"),
              U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    to_phase(g, "melee")
    g.apply(O("attack", units=["a"], hexes=[H(g, "0505")]), Script(1))  # 4 against 4, die 1: A1*
    return g


def _computer_choice(g):
    scored = ai.ai_orders(g.ruleset, g)
    best = max(s for s, _ in scored)
    return [o.kind for s, o in scored if s == best]


def test_R9_5_the_second_reroll_decision_sees_the_first_rerolls_result():
    g = _two_leaders()
    c = g.state.vars["combat"]
    p = g.state.pending[0]
    assert p["kind"] == "reroll" and p["roll"] == 1 and sorted(p["leaders"]) == ["k", "k2"]
    assert parse_result(M.result_for(c["index"], 1, c["drm"]))[0] == "A"
    assert _computer_choice(g) == ["reroll", "reroll"]  # a bad result: either leader rerolls
    g.apply(O("reroll", leader="k"), Script(6))  # the first reroll: 6
    c = g.state.vars["combat"]
    p = g.state.pending[0]
    assert p["kind"] == "reroll" and p["leaders"] == ["k2"]
    assert p["roll"] == 6 == c["roll"]  # the decision is about the 6 now, not the 1
    assert parse_result(M.result_for(c["index"], 6, c["drm"]))[0] == "D"
    assert _computer_choice(g) == ["keep-roll"]  # a good result is kept
    # a player may still reroll with the second leader; the melee then uses that roll
    evs = g.apply(O("reroll", leader="k2"), Script(2))
    assert events(evs, "melee-result")[0]["roll"] == 2
    assert events(evs, "melee-result")[0]["result"] == M.result_for(c["index"], 2, c["drm"])
