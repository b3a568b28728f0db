"""The strong computer's Ancient Battles knowledge: commanders (G-A5, 4.11) and rampages (4.13)."""

from hexwar.engine import Game
from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.ancients import ai, evaluate

from ancients_helpers import H, begin, scenario, unit


def _commander_game(cmd_at: str):
    # side "a" (home south) has a commander, a Heavy Infantry unit at the back and an elephant
    # even farther back; side "b" stands at the north edge
    g = Game(scenario([("cmd", "a", "commander", cmd_at, "NE"), ("hi", "a", "HI", "0507", "NE"),
                       ("el", "a", "elephants", "0508", "NE"), ("foe", "b", "HI", "0502", "SW")]))
    begin(g)
    g.state.vars["current"] = "cmd"   # the commander is the unit acting now
    return g


def _only_candidate(g):
    cands = list(ai.strong_candidates(g.ruleset, g))
    assert len(cands) == 1, cands
    return cands[0][1]


def test_G_A5_4_11_strong_commander_joins_the_rearmost_unit_that_is_no_elephant():
    """A commander counts 6 SP towards the exhaustion point (G-A5) and is lost when hit alone or
    with his destroyed unit (4.11); a retreating elephant takes him along into its rampage (4.13).
    So the strong level moves a lone commander to the friendly unit farthest from the enemy,
    never onto an elephant, and offers nothing else."""
    g = _commander_game("0504")
    order = _only_candidate(g)
    assert order.kind == "move" and Hex(*order["path"][-1]) == H(g, "0507")
    assert g.validate(order) is None


def test_G_A5_strong_commander_stays_when_his_unit_is_already_the_rearmost():
    g = _commander_game("0507")
    order = _only_candidate(g)
    assert order.kind == "end-activation" and order["unit"] == "cmd"


def test_4_13_G_A21_evaluation_counts_a_rampaging_elephants_sp_as_lost():
    """A rampaging elephant only leaves the map, and then its SP count as lost (4.13, G-A21):
    the evaluation counts them lost from the moment it rampages."""
    g = Game(scenario([("el", "a", "elephants", "0505", "NE"), ("hi", "a", "HI", "0507", "NE"),
                       ("foe", "b", "HI", "0502", "SW"), ("foe2", "b", "HI", "0302", "SW")]))
    before = evaluate.evaluate(g, "a")
    el = unit(g, "el")
    el.mark("rampage", 1)
    rampaging = evaluate.evaluate(g, "a")
    assert rampaging < before
    el.marks.pop("rampage")
    g.state.sides["a"]["lost"] += el.strength
    assert evaluate.evaluate(g, "a") == rampaging
