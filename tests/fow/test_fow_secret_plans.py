"""Secret plans (G-19, design 7c): commitments first, reveals checked against them, no plan in the
shared state before both sides have committed; the computer plans from the shared state only."""

import pytest

from hexwar.engine import IllegalOrderError, secret
from hexwar.engine.ai import Computer

from fow_helpers import O, Script, commit, game, reveal, salt, start, to_plans

COMPANIES = [("gb", "north", 3, ["gb-rifles", "gb-rifles"]), ("de", "south", 33, ["de-pz3", "de-pz3"])]
NORTH = [["posture", "cautious"], ["order", "north-hq1", "maneuver", "gb"]]
SOUTH = [["posture", "hard_defence"], ["order", "south-hq1", "reserve", "de"]]


def planning_game():
    g = game(COMPANIES)
    start(g)
    to_plans(g)
    assert g.state.phase == "plan" and g.to_act() == "north"  # the SI side commits first
    return g


def test_g19_commit_then_reveal_and_the_plan_is_not_in_the_state_before_both_commit():
    g = planning_game()
    g.apply(commit(g, "north", NORTH))
    assert b"cautious" not in g.to_bytes() and b"maneuver" not in g.to_bytes()
    assert g.to_act() == "south"
    g.apply(commit(g, "south", SOUTH))
    assert b"hard_defence" not in g.to_bytes()
    g.apply(reveal("north", NORTH), Script())
    ev = g.apply(reveal("south", SOUTH), Script())
    assert g.state.phase == "execute"
    assert g.state.sides["north"]["posture"] == "cautious"
    assert [e["posture"] for e in ev if e["t"] == "plan-revealed"] == ["cautious", "hard_defence"]


def test_g19_no_reveal_before_every_side_has_committed():
    g = planning_game()
    g.apply(commit(g, "north", NORTH))
    why = g.validate(reveal("south", SOUTH))
    assert why and "before every side has committed" in why


def test_g19_a_reveal_that_does_not_open_the_commitment_is_a_protocol_violation():
    g = planning_game()
    g.apply(commit(g, "north", NORTH))
    g.apply(commit(g, "south", SOUTH))
    other = [["posture", "decisive"], ["order", "north-hq1", "reserve", "gb"]]
    with pytest.raises(IllegalOrderError, match="protocol violation"):
        g.apply(reveal("north", other), Script())
    wrong_salt = O(secret.REVEAL, plan=NORTH, salt=salt("someone else").hex())
    assert "protocol violation" in g.validate(wrong_salt)
    assert g.validate(reveal("north", NORTH)) is None


def test_g19_a_commitment_is_bound_to_its_side_and_round():
    g = planning_game()
    north_commit = commit(g, "north", NORTH)
    g.apply(north_commit)
    # south copies north's commitment; revealing north's plan as south's cannot open it
    g.apply(O(secret.COMMIT, digest=north_commit["digest"]))
    g.apply(reveal("north", NORTH), Script())
    assert g.to_act() == "south"
    assert "protocol violation" in g.validate(reveal("north", NORTH))
    bound_other_round = secret.binding(g.scenario.source_hash, "plan-2", "north")
    assert secret.commitment(bound_other_round, NORTH, salt("north")) != north_commit["digest"]


def test_g19_a_plan_that_breaks_the_rules_is_refused_at_its_reveal():
    g = planning_game()
    bad = [["posture", "hard_defence"]]  # the SI side must choose an offensive posture (5, 11.1)
    g.apply(commit(g, "north", bad))
    g.apply(commit(g, "south", SOUTH))
    why = g.validate(reveal("north", bad))
    assert why and "strategic initiative" in why


def test_g19_commit_needs_a_well_formed_digest_and_only_once():
    g = planning_game()
    assert "hex digits" in g.validate(O(secret.COMMIT, digest="xyz"))
    g.apply(commit(g, "north", NORTH))
    assert g.validate(O(secret.COMMIT, digest="0" * 64), side="north") is not None


def test_the_computer_plans_from_the_shared_state_only():
    g = planning_game()
    south = Computer("s")
    plan_before = g.ruleset.ai_plan(g, "south")
    g.apply(commit(g, "north", NORTH))
    order = south.choose(g)
    assert order.kind == secret.COMMIT
    # the state the computer saw holds north's commitment (a hash), and its plan is the one it
    # would have made without it
    assert south.plans[("plan-1", "south")][0] == plan_before
    g.apply(order)
    g.apply(reveal("north", NORTH), Script())
    g.apply(south.choose(g), Script())
    assert g.state.phase == "execute"


def test_hotseat_plans_are_sealed_in_the_match_until_both_have_committed(tmp_path):
    from hexwar.engine import IllegalOrderError as Refused
    from hexwar.journal import read_journal
    from hexwar.match import Match, replay
    from fow_helpers import toml
    from hexwar.scenarios.loader import parse_scenario

    m = Match.new(parse_scenario(toml(COMPANIES)), seed=3, journal_path=tmp_path / "h.journal")
    while m.game.state.phase != "plan":
        m.play(next(o for o in m.game.legal_orders() if o.kind in ("start", "end-phase")))
    with pytest.raises(Refused, match="strategic initiative"):
        m.commit_plan([["posture", "hard_defence"]])  # refused before anything is committed
    m.commit_plan(NORTH)
    m.commit_plan(SOUTH)
    raw = (tmp_path / "h.journal").read_bytes()
    assert b"cautious" not in raw and b"hard_defence" not in raw
    m.reveal_plan()
    m.reveal_plan()
    assert m.game.state.phase == "execute" and not m.sealed
    m.close()
    contents = read_journal(tmp_path / "h.journal")
    assert replay(str(tmp_path / "h.journal"), contents, verify=True).game.digest() == m.game.digest()


def test_g19_a_computer_started_again_reveals_the_plan_it_committed_to():
    # a game saved between the computer's commitment and its reveal: a new computer with the same
    # secret key makes the same plan again and reveals it only because it opens the commitment
    g = planning_game()
    g.apply(commit(g, "north", NORTH))
    g.apply(Computer("s").choose(g))
    g.apply(reveal("north", NORTH), Script())
    order = Computer("s").choose(g)
    assert order.kind == secret.REVEAL
    g.apply(order, Script())
    assert g.state.phase == "execute"
    # a computer with another key cannot open that commitment and says so
    other = planning_game()
    other.apply(commit(other, "north", NORTH))
    other.apply(Computer("s").choose(other))
    other.apply(reveal("north", NORTH), Script())
    with pytest.raises(Exception, match="no plan of its own"):
        Computer("t").choose(other)
