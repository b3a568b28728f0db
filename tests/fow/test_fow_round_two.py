"""Issue 35, items 10-15: rules the second fidelity round found wrong, each from the spec's text
(fow-campaign.md), with expected values derived from it."""

from hexwar.engine.rulesets.fow import forces as F

from fow_helpers import O, Script, game, kinds, plans, start

ATTACK = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])]
NORTH = [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]]
SOUTH = [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]]


def _won_battle(g, rp_south):
    """The whole-battle test's attack (test_fow_battle.py): the attacker wins on 3 + 3; returns
    the battle's events and north's RP just before it."""
    start(g)
    g.state.sides["south"]["rp"] = rp_south
    plans(g, NORTH, SOUTH)
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    before = g.state.sides["north"]["rp"]
    return g.apply(O("withdraw", choice=False), Script(3, 3, 4)), before


def test_g14_an_objective_won_transfers_at_most_what_the_loser_has():
    """G-14: winning a battle at an objective is "a transfer of 5 RP (capped at the loser's RP)":
    with 3 RP the loser gives 3 and the winner gains 3, not 5; with 7 RP the full 5 move."""
    g = game(ATTACK, rules='objectives = ["0304"]')  # 0304 = point 21
    ev, before = _won_battle(g, 3)
    assert [(e["rp"], e["taken_from_enemy"]) for e in kinds(ev, "rp-captured")] == [(3, 3)]
    assert g.state.sides["south"]["rp"] == 0 and g.state.sides["north"]["rp"] == before + 3
    g = game(ATTACK, rules='objectives = ["0304"]')
    ev, before = _won_battle(g, 7)
    assert [(e["rp"], e["taken_from_enemy"]) for e in kinds(ev, "rp-captured")] == [(5, 5)]
    assert g.state.sides["south"]["rp"] == 2 and g.state.sides["north"]["rp"] == before + 5


def _capture(rules, owner_rp):
    from hexwar.engine.ruleset import Resolution
    from hexwar.engine.rulesets.fow import campaign as K
    g = game(ATTACK, rules=rules)
    g.state.sides["north"]["rp"] = owner_rp
    before = g.state.sides["south"]["rp"]
    K.transfer_capture(Resolution(g, g.state, Script()), "south", g.state.units["gb-1"], 2)
    return g.state.sides["south"]["rp"] - before, g.state.sides["north"]["rp"]


def test_s17_9_captured_equipment_is_taken_from_the_owner_if_he_has_any_left():
    """17.9: two captured tanks are worth 2 RP each "from the opponent, if he has any left"; the
    default reading (G-40: min(value, opponent RP)) moves only the 1 RP the owner has;
    ``capture_rp = "full"`` is the other reading: the captor gains all 4 anyway."""
    assert _capture("", 1) == (1, 0)
    assert _capture("", 9) == (4, 5)
    assert _capture('capture_rp = "full"', 1) == (4, 0)
