"""Deployment (spec 5, 25.2, 25.5, G-59): each side writes down its companies' points in secret,
both at once, through the secret-plan round; nothing moves before both placements are open."""

from hexwar.engine import Game, secret
from hexwar.engine.rulesets.fow import deploy as D
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow.geo import hex_of, point_of
from hexwar.scenarios.loader import ScenarioError, find_scenario, load_scenario, parse_scenario

from fow_helpers import Script, commit, game, kinds, reveal, toml

RULES = 'deployment = { north = "anywhere", south = "edge" }'
COMPANIES = [("gb", "north", point_of(3, 2), ["gb-rifles"]), ("ga", "north", point_of(4, 2), ["gb-grant"]),
             ("de", "south", point_of(3, 6), ["de-pz3"])]


def _deploy(g: Game, north, south) -> list:
    by = {"north": north, "south": south}
    for _ in range(2):
        side = g.to_act()
        g.apply(commit(g, side, by[side]))
    events = []
    for _ in range(2):
        side = g.to_act()
        events += g.apply(reveal(side, by[side]), Script())
    return events


def test_s5_g59_placements_are_committed_in_secret_and_opened_together():
    g = game(COMPANIES, rules=RULES)
    assert g.state.phase == "deploy" and g.ruleset.secret_round(g)["round"] == D.ROUND
    assert g.to_act() == "north"  # the SI side commits first, then the other
    north = [["place", "gb", point_of(2, 4)], ["place", "ga", point_of(5, 3)]]
    south = [["place", "de", point_of(5, 6)]]
    g.apply(commit(g, "north", north))
    # north's commitment holds nothing of its placement, and nothing has moved
    assert F.companies(g.state)["gb"]["point"] == point_of(3, 2)
    assert g.validate(reveal("south", south), "south") == "no plan may be revealed before every side has committed"
    g.apply(commit(g, "south", south))
    g.apply(reveal("north", north), Script())
    assert F.companies(g.state)["gb"]["point"] == point_of(3, 2)  # still nothing moves
    ev = g.apply(reveal("south", south), Script())
    assert [e["side"] for e in kinds(ev, "deployed")] == ["north", "south"]
    assert F.companies(g.state)["gb"]["point"] == point_of(2, 4)
    assert F.companies(g.state)["ga"]["point"] == point_of(5, 3)
    assert F.companies(g.state)["de"]["point"] == point_of(5, 6)
    assert g.state.units["gb-1"].hex == hex_of(point_of(2, 4))
    # commanders follow the companies (the first to the company of most FP: the Grants, 80 FP)
    assert F.commanders(g.state)["north-hq1"]["point"] == point_of(5, 3)
    assert F.commanders(g.state)["south-hq1"]["point"] == point_of(5, 6)
    assert g.state.phase == "start" and g.state.vars["secret"] is None and g.to_act() == "north"
    assert g.ruleset.invariant_problems(g) == []


def test_s25_5_g59_the_british_anywhere_outside_the_german_edge_the_germans_on_their_edge():
    g = game(COMPANIES, rules=RULES)
    ok_north = [["place", "gb", point_of(1, 5)], ["place", "ga", point_of(6, 1)]]
    assert g.ruleset.plan_problem(g, "north", ok_north) is None
    into_entry = [["place", "gb", point_of(1, 6)], ["place", "ga", point_of(6, 1)]]
    assert "outside north's deployment zone (anywhere" in g.ruleset.plan_problem(g, "north", into_entry)
    assert g.ruleset.plan_problem(g, "south", [["place", "de", point_of(2, 6)]]) is None
    off_edge = [["place", "de", point_of(2, 5)]]
    assert "outside south's deployment zone (edge" in g.ruleset.plan_problem(g, "south", off_edge)


def test_s5_every_company_is_placed_once():
    g = game(COMPANIES, rules=RULES)
    assert "ga has no point" in g.ruleset.plan_problem(g, "north", [["place", "gb", 1]])
    twice = [["place", "gb", 1], ["place", "gb", 2], ["place", "ga", 3]]
    assert "gb is placed once" in g.ruleset.plan_problem(g, "north", twice)
    assert "not a company of north" in g.ruleset.plan_problem(g, "north", [["place", "de", 1]])
    assert "[\"place\", company, point]" in g.ruleset.plan_problem(g, "north", [["posture", "cautious"]])


def test_s13_mechanised_companies_do_not_deploy_in_the_mountains():
    rows = ["M . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."]
    g = game(COMPANIES, rules=RULES, rows=rows)
    tanks_up = [["place", "gb", point_of(2, 1)], ["place", "ga", point_of(1, 1)]]
    assert "may not deploy in the mountains" in g.ruleset.plan_problem(g, "north", tanks_up)
    rifles_up = [["place", "gb", point_of(1, 1)], ["place", "ga", point_of(2, 1)]]
    assert g.ruleset.plan_problem(g, "north", rifles_up) is None


def test_s25_2_meeting_engagement_deploys_within_two_points_of_the_own_edge():
    scenario = load_scenario(find_scenario("meeting-engagement"))
    edges = {s.id: s.home_edge for s in scenario.sides}
    for side, edge in edges.items():
        rows = {1, 2} if edge == "north" else {5, 6}
        assert sorted(D.zone(scenario, side)) == sorted(point_of(c, r) for c in range(1, 7) for r in rows)


def test_s25_5_bir_hakeim_zones_and_the_computer_deploys_the_designed_set_up():
    scenario = load_scenario(find_scenario("bir-hakeim"))
    g = Game(scenario)
    assert sorted(D.zone(scenario, "german")) == [point_of(c, 6) for c in range(1, 7)]
    assert len(D.zone(scenario, "british")) == 30
    for side in ("british", "german"):
        placement = g.ruleset.ai_plan(g, side)
        assert g.ruleset.plan_problem(g, side, placement) is None
        assert {cid for _, cid, _ in placement} == set(F.live(g.state, side))


def test_g59_a_set_up_outside_its_zone_is_reported_by_validate():
    text = toml([("gb", "north", point_of(3, 2), ["gb-rifles"]), ("de", "south", point_of(3, 5), ["de-pz3"])],
                rules=RULES)
    try:
        parse_scenario(text)
    except ScenarioError as exc:
        assert any("set-up point 27 is outside south's deployment zone (edge)" in p for p in exc.problems)
    else:
        raise AssertionError("the set-up outside the zone was accepted")


def test_s6_placements_side_by_side_make_contact_at_once():
    g = game(COMPANIES, rules=RULES)
    ev = _deploy(g, [["place", "gb", point_of(3, 5)], ["place", "ga", point_of(1, 1)]],
                 [["place", "de", point_of(3, 6)]])
    assert kinds(ev, "contact") and g.state.vars["contact"]


def test_g19_a_scenario_without_a_deployment_rule_keeps_its_set_up():
    g = game(COMPANIES)
    assert g.state.phase == "start" and g.state.vars["secret"] is None
    assert secret.stage(g.state.vars["secret"]) is None
    assert [o.kind for o in g.legal_orders()][:1] == ["start"]


def test_g19_g59_a_secret_round_never_passes_by_itself():
    """The rules list one commitment (made with a public salt, for tools): it must never be played
    for a player as an empty phase's only order, locally or over the network."""
    from hexwar.engine.forced import forced_order
    g = game(COMPANIES, rules=RULES)
    assert [o.kind for o in g.legal_orders() if o.kind != "resign"] == [secret.COMMIT]
    assert forced_order(g) is None
