"""The strong computer's Ancient Battles knowledge: commanders (G-A5, 4.11) and rampages (4.13)."""

from fractions import Fraction

from hexwar.engine import Dice, Game
from hexwar.engine.levels import computer_for
from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.ancients import ai, evaluate, hits
from hexwar.scenarios.loader import find_scenario, load_scenario

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


def _two_hosts_game():
    # a lone commander of side "a" can reach an Archers unit (2 SP) at the back and a Heavy
    # Infantry unit (4 SP) one row nearer the enemy
    g = Game(scenario([("cmd", "a", "commander", "0505", "NE"), ("hi", "a", "HI", "0507", "NE"),
                       ("ar", "a", "archers", "0508", "NE"), ("foe", "b", "HI", "0502", "SW")]))
    begin(g)
    g.state.vars["current"] = "cmd"
    return g


def test_G_A5_4_11_strongest_host_seat_option_joins_the_unit_with_most_sp(monkeypatch):
    """The commander is lost when his unit is destroyed (4.11) and his 6 SP count towards the
    exhaustion point (G-A5): a unit with more SP takes more hits before it is destroyed, so a
    seat with host "strongest" sends him to the 4-SP Heavy Infantry, not to the rearmost 2-SP
    archers (where the default "rearmost" sends him)."""
    g = _two_hosts_game()
    monkeypatch.setattr(ai, "STRONG_SEATS", {})
    assert Hex(*_only_candidate(g)["path"][-1]) == H(g, "0508")
    monkeypatch.setattr(ai, "STRONG_SEATS", {"t": {"a": {"host": "strongest"}}})
    order = _only_candidate(g)
    assert order.kind == "move" and Hex(*order["path"][-1]) == H(g, "0507")
    assert g.validate(order) is None


def test_4_12_strong_seat_holding_the_fords_never_ends_a_move_in_a_river_cell():
    """A unit in a river fights at -1 when attacked and may not shoot (4.12): strong Carthage at
    the Elephant Crossing (seat option ``fords``) leaves out the ford moves basic offers."""
    g = Game(load_scenario(find_scenario("elephant-crossing")))
    assert ai.STRONG_SEATS["elephant-crossing"]["carthage"]["fords"]
    basic = computer_for("basic", "1", None)

    def in_river(scored):
        return sum(1 for _, o in scored
                   if o.kind == "move" and g.map.terrain_at(Hex(*o["path"][-1])) == "river")

    basic_fords = strong_fords = 0
    while g.state.turn <= 2 and not g.over:   # both sides played by basic for two turns
        if g.to_act() == "carthage" and g.state.phase == "activation" and not g.state.pending:
            basic_fords += in_river(ai.candidates(g.ruleset, g))
            strong_fords += in_river(ai.strong_candidates(g.ruleset, g))
        g.apply(basic.choose(g), Dice(b"ford%d" % g.state.seq))
    assert basic_fords > 0 and strong_fords == 0


def test_4_11_a_hit_costs_a_unit_that_can_retreat_only_its_lose_results():
    """4.11: an Average unit loses 1 SP on 1-3 and may retreat on 4-6, an Excellent one loses on
    1-2; a unit that cannot retreat loses 1 SP on every hit. ``sp_per_hit`` (the ``retreats``
    seat option of the lined-up term) follows that table."""
    g = Game(scenario([("open", "a", "HI", "0505", "NE"), ("ex", "a", "HI", "0305", "NE", "excellent"),
                       ("edge", "a", "HI", "0708", "NE"), ("foe", "b", "HI", "0502", "SW")]))
    # "edge" stands on the south edge facing north-east: the cell behind it is off the map
    assert hits_retreat(g, "open") and evaluate.sp_per_hit(g, unit(g, "open")) == Fraction(1, 2)
    assert evaluate.sp_per_hit(g, unit(g, "ex")) == Fraction(1, 3)
    assert not hits_retreat(g, "edge") and evaluate.sp_per_hit(g, unit(g, "edge")) == 1


def hits_retreat(g, uid):
    return bool(hits.retreat_options(g, unit(g, uid)))
