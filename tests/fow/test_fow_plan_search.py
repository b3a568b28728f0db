"""The strong computer's secret plans (G-19, steps 4-7): it compares a few legal plans made from
the shared state, each against the basic plan it predicts for the other side, and must never
learn the other side's real plan, which the state only holds as a commitment."""

from hexwar.engine import Order, secret
from hexwar.engine.ai import Computer
from hexwar.engine.rulesets.fow import ai
from hexwar.engine.rulesets.fow import plans as P
from dataclasses import replace

from hexwar.engine.search import DEFAULT_BUDGET, StrongComputer
from hexwar.match import Match
from hexwar.scenarios.loader import find_scenario, load_scenario


def _searching(seed: int) -> StrongComputer:
    """A strong player with FoW's budget and its plan search turned on for both sides (it ships
    on for the meeting Allies only)."""
    ruleset = _at_plan_commit().game.ruleset
    fields = {k: v for k, v in ruleset.search_budget.items() if k not in ("sides", "scenarios")}
    budget = replace(DEFAULT_BUDGET, **fields, **ruleset.plan_search_budget)
    return StrongComputer(seed, budget=budget)


def _at_plan_commit(seed: int = 3, scenario: str = "meeting-engagement") -> Match:
    """A game (the meeting engagement unless named) played by the basic computer up to turn
    1's plan round."""
    match = Match.new(load_scenario(find_scenario(scenario)), seed=seed)
    basic = Computer(b"x")
    while match.game.state.phase != "plan":
        match.play(basic.choose(match.game), match.game.to_act())
    return match


def test_g19_plans_to_try_are_legal_distinct_and_start_with_basics_plan():
    g = _at_plan_commit().game
    for side in ("axis", "allies"):
        plans = g.ruleset.ai_plans(g, side)
        assert plans[0] == ai.plan(g, side)
        assert 1 < len(plans) <= ai.MAX_PLANS
        assert all(P.parse(g, side, p)[1] is None for p in plans)
        assert len({repr(p) for p in plans}) == len(plans)


def test_11_1_a_forced_posture_is_one_the_side_may_take():
    g = _at_plan_commit().game
    si = g.state.vars["si"]
    other = g.state.enemy_of(si)
    assert ai.plan(g, si, "cautious")[0] == ["posture", "cautious"]
    assert ai.plan(g, other, "withdrawal")[0] == ["posture", "withdrawal"]


def _strong_commit(match: Match, other_plan) -> tuple[str, list]:
    """The SI side commits ``other_plan`` first (under its own salt); then the strong computer
    commits for the other side. Returns its commitment and the plan it keeps for the reveal."""
    g = match.game
    si = g.state.vars["si"]
    rnd = g.ruleset.secret_round(g)
    bound = secret.binding(g.scenario.source_hash, rnd["round"], si)
    digest = secret.commitment(bound, other_plan, b"s" * 16)
    match.play(Order.make(secret.COMMIT, digest=digest), si)
    strong = _searching(7)
    side = match.game.to_act()
    order = strong.choose(match.game)
    assert order.kind == secret.COMMIT
    plan, _salt = strong.basic.plans[(rnd["round"], side)]
    return order["digest"], plan


def test_g19_the_plan_search_never_reads_the_other_sides_hidden_plan():
    """Two games alike but for the plan hidden behind the SI side's commitment: the strong
    computer on the other side commits to the same plan in both."""
    a, b = _at_plan_commit(), _at_plan_commit()
    si = a.game.state.vars["si"]
    plans = a.game.ruleset.ai_plans(a.game, si)
    first = _strong_commit(a, plans[0])
    second = _strong_commit(b, plans[-1])
    assert plans[0] != plans[-1]
    assert first == second


def test_g19_the_strong_plan_is_one_of_the_candidates_and_opens_its_commitment():
    match = _at_plan_commit()
    g = match.game
    side = g.to_act()
    candidates = g.ruleset.ai_plans(g, side)
    strong = _searching(9)
    commit = strong.choose(g)
    match.play(commit, side)
    plan, _ = strong.basic.plans[(g.ruleset.secret_round(match.game)["round"], side)]
    assert plan in candidates
    assert strong.last_work > 0  # it played the plans on before choosing
    # a fresh player with the same seed (a game saved between commitment and reveal) recalls it
    other = match.game.to_act()
    match.play(Computer(b"o").choose(match.game), other)
    reveal = _searching(9).choose(match.game)
    assert reveal.kind == secret.REVEAL and [list(r) for r in reveal["plan"]] == plan
    match.play(reveal, side)


def test_g19_the_shipped_strong_level_searches_both_meeting_plans_the_axis_with_a_margin():
    """As shipped, both meeting sides play their plans on before committing (the Axis keeping
    basic's plan unless another scores better by more than its ``plan_margin``); Bir Hakeim's
    British commit exactly basic's plan."""
    a, b = _at_plan_commit(), _at_plan_commit()
    assert a.game.to_act() == "axis"
    axis = StrongComputer(5)
    commit = axis.choose(a.game)
    assert commit.kind == secret.COMMIT and axis.last_work > 0
    assert axis.budget_for(a.game).plan_margin > 0
    rnd = a.game.ruleset.secret_round(a.game)
    assert axis.basic.plans[(rnd["round"], "axis")][0] in a.game.ruleset.ai_plans(a.game, "axis")
    for m in (a, b):
        m.play(Computer(b"5").choose(m.game), "axis")
    assert a.game.to_act() == "allies"
    allies = StrongComputer(5)
    commit = allies.choose(a.game)
    assert commit.kind == secret.COMMIT
    assert allies.last_work > 0 and allies.budget_for(a.game).plan_margin == 0
    rnd = a.game.ruleset.secret_round(a.game)
    assert allies.basic.plans[(rnd["round"], "allies")][0] in a.game.ruleset.ai_plans(a.game, "allies")
    c, d = _at_plan_commit(scenario="bir-hakeim"), _at_plan_commit(scenario="bir-hakeim")
    side = c.game.to_act()
    if side == "german":
        for m in (c, d):
            m.play(Computer(b"5").choose(m.game), side)
    assert c.game.to_act() == "british"
    british = StrongComputer(5)
    assert british.choose(c.game) == Computer(b"5").choose(d.game)
    assert british.last_work == 0


def _companies_by_commander(plan) -> dict[str, list[str]]:
    return {r[1]: list(r[3:]) for r in plan if r[0] == "order"}


def test_25_5_the_exit_sides_strong_plan_sends_each_points_companies_as_one_group():
    """G-55: a commander orders the companies of his point that the plan lists; the strong German
    lists all of a shared point's companies under one commander, where basic's plan gives each
    commander his own (so they would attack one after another)."""
    g = _at_plan_commit(scenario="bir-hakeim").game
    cmds = {k: c["point"] for k, c in g.state.vars["commanders"].items() if c["side"] == "german"}
    at = {p: sorted(cid for cid, c in g.state.vars["companies"].items()
                    if c["side"] == "german" and c["point"] == p) for p in cmds.values()}
    shared = sorted(p for p in at if len(at[p]) > 1 and list(cmds.values()).count(p) > 1)
    assert shared, "the test needs two German commanders and two companies in one point"
    plans = g.ruleset.ai_plans(g, "german")
    assert len(plans) == 1 and P.parse(g, "german", plans[0])[1] is None
    strong, basic = _companies_by_commander(plans[0]), _companies_by_commander(ai.plan(g, "german"))
    for p in shared:
        assert [sorted(v) for k, v in strong.items() if cmds[k] == p] == [at[p]]
        assert len([k for k in basic if cmds[k] == p]) > 1
    # every other row is basic's
    assert [r for r in plans[0] if r[0] != "order"] == [r for r in ai.plan(g, "german") if r[0] != "order"]


def test_25_5_the_strong_german_commits_and_reveals_its_concentrated_plan():
    match = _at_plan_commit(scenario="bir-hakeim")
    g = match.game
    want = g.ruleset.ai_plans(g, "german")[0]
    players = {"german": StrongComputer(4), "british": Computer(b"4")}
    while match.game.state.phase == "plan":
        side = match.game.to_act()
        order = players[side].choose(match.game)
        if side == "german" and order.kind == secret.REVEAL:
            assert [list(r) for r in order["plan"]] == want
            assert players["german"].last_work == 0  # one plan: nothing searched
        match.play(order, side)
    assert match.game.state.phase == "execute"


def test_the_strong_budget_widens_the_meeting_only():
    """The meeting's candidates hold blocking moves besides basic's best, so it compares 8 of
    them (NOTES.md, stop 8); Bir Hakeim keeps 5, and only its Germans ask for their plan."""
    from hexwar.engine import Game

    def budget(sid: str, side: str):
        g = Game(load_scenario(find_scenario(sid)))
        g.state.active = side  # the budget follows the side to act
        g.state.phase = "execute"
        return StrongComputer(1).budget_for(g)

    assert budget("meeting-engagement", "axis").width == budget("meeting-engagement", "allies").width == 8
    assert budget("meeting-engagement", "allies").plan_work == budget("meeting-engagement", "axis").plan_work == 48
    assert budget("meeting-engagement", "axis").plan_margin == 200
    assert budget("bir-hakeim", "german").width == budget("bir-hakeim", "british").width == 5
    assert budget("bir-hakeim", "german").plan_work > 0 == budget("bir-hakeim", "british").plan_work


def test_g19_a_plan_margin_keeps_basics_plan_unless_another_is_better_by_more():
    """``Budget.plan_margin``: the plan search commits to a plan other than basic's (the first)
    only when its end-of-turn score beats basic's by more than the margin; with a margin larger
    than any difference of scores it commits to basic's plan wherever it would have chosen
    another."""
    differed = 0
    for seed in range(1, 9):
        match = _at_plan_commit(seed)
        g = match.game
        rnd = g.ruleset.secret_round(g)
        side = g.to_act()
        plans = g.ruleset.ai_plans(g, side)
        plain = _searching(seed)
        chosen = plain.best_plan(g, rnd, side, plans)
        strict = StrongComputer(seed, budget=replace(plain.budget, plan_margin=10 ** 12))
        assert strict.best_plan(g, rnd, side, plans) == plans[0]
        differed += chosen != plans[0]
    assert differed > 0, "without a margin the search should choose another plan somewhere"
