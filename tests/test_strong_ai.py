"""The strong computer (engine/search.py): legal, finishing, deterministic, exact about dice.

Small budgets keep these fast; how well it plays is measured in benchmarks/ai_strength.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from hexwar.engine import Game, Order
from hexwar.engine.ai import Computer
from hexwar.engine.dice import Dice
from hexwar.engine.levels import LEVELS, computer_for
from hexwar.engine.ruleset import Ruleset
from hexwar.engine.search import Budget, ScriptedDice, StrongComputer, Work, exact_outcomes
from hexwar.match import Match
from hexwar.scenarios.loader import builtin_paths, load_named, load_scenario

SCENARIOS = [load_scenario(p) for p in builtin_paths()]
IDS = [s.id for s in SCENARIOS]
SMALL = Budget(work=6, width=2, depth=1, exact=6, samples=1)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_strong_plays_only_legal_orders_and_finishes_every_scenario(scenario):
    match = Match.new(scenario, seed=11)
    players = {s.id: StrongComputer(f"11:{s.id}".encode(), SMALL) for s in scenario.sides}
    searched = 0
    while not match.game.over:
        assert match.game.state.seq < 5000, "a strong game should end"
        side = match.game.to_act()
        before = match.game.digest()
        order = players[side].choose(match.game)
        assert match.game.digest() == before, "looking ahead must not touch the real game"
        assert match.game.validate(order, side) is None, f"illegal strong order {order.to_text()}"
        searched += players[side].last_work > 0
        match.play(order, side)
    assert match.game.state.result is not None
    assert searched > 0, "the strong player never looked ahead"


def _first_with_dice(scenario, kinds):
    """Play basic until an order of one of ``kinds`` that needs dice is the basic choice."""
    match = Match.new(scenario, seed=3)
    basic = Computer(b"t")
    while not match.game.over:
        order = basic.choose(match.game)
        if order.kind in kinds and match.game.needs_dice(order):
            return match.game, order
        match.play(order)
    raise AssertionError("no such order in a whole game")


def test_exact_outcomes_weigh_each_die_face_equally():
    scenario = next(s for s in SCENARIOS if s.id == "poltava-1")
    game, order = _first_with_dice(scenario, ("attack", "fire"))
    outs = exact_outcomes(game, order, 36, Work(10 ** 6))
    assert outs is not None
    assert sum(p for p, _ in outs) == 1
    # one die: six outcomes of 1/6 (before equal states are merged), each the game the engine
    # gives for that face
    if len(outs) == 6:
        for face, (p, g) in enumerate(outs, 1):
            assert p == Fraction(1, 6)
            again = game.copy()
            again.apply(order, ScriptedDice((face,)))
            assert again.digest() == g.digest()


def test_exact_outcomes_give_up_beyond_the_cap():
    scenario = next(s for s in SCENARIOS if s.id == "poltava-1")
    game, order = _first_with_dice(scenario, ("attack", "fire"))
    assert exact_outcomes(game, order, 1, Work(10 ** 6)) is None


def test_default_evaluation_is_even_at_the_start_and_favours_the_side_ahead():
    scenario = next(s for s in SCENARIOS if s.id == "border-clash")
    game = Game(scenario)
    a, b = game.state.side_order
    default = Ruleset.evaluate  # the interface's own, which a new ruleset gets for free
    assert default(game.ruleset, game, a) == 0 == default(game.ruleset, game, b)
    victim = next(u for u in game.state.units.values() if u.side == b and u.alive)
    victim.strength -= 1
    assert default(game.ruleset, game, a) > 0 > default(game.ruleset, game, b)


def test_4_6_4_15_ancients_evaluation_is_the_race_to_exhaustion():
    scenario = next(s for s in SCENARIOS if s.id == "border-clash")
    game = Game(scenario)
    a, b = game.state.side_order
    assert game.ruleset.evaluate(game, a) == 0
    game.state.sides[b]["lost"] = 3
    ahead = game.ruleset.evaluate(game, a)
    assert ahead > 0 and game.ruleset.evaluate(game, b) == -ahead
    game.state.sides[b]["exhausted"] = True
    assert game.ruleset.evaluate(game, a) > ahead


def test_3_9_3_10_frontier_evaluation_counts_losses_and_the_objective():
    scenario = next(s for s in SCENARIOS if s.id == "attack-on-morobad")
    game = Game(scenario)
    taker = scenario.victory["side"]
    other = game.state.enemy_of(taker)
    start = game.ruleset.evaluate(game, taker)
    assert game.ruleset.evaluate(game, other) == -start
    game.state.sides[other]["lost"] = 2
    assert game.ruleset.evaluate(game, taker) > start


def _place(game, unit, h, facing):
    unit.hex, unit.facing = h, facing


def test_3_6_1_frontier_evaluation_counts_an_enemy_that_can_attack_a_unit():
    """Combat is compulsory for a unit facing an enemy (3.6.1), so an enemy standing beside a unit,
    free to turn on it next turn, is a threat: the evaluation (designed) counts it against the
    unit's side, and the same position counts for the other side by as much."""
    from hexwar.engine.hexgrid import hex_distance, hex_neighbor
    from hexwar.engine.rulesets.frontier import units as U
    from hexwar.engine.rulesets.frontier.evaluate import placement
    scenario = next(s for s in SCENARIOS if s.id == "attack-on-morobad")
    game = Game(scenario)
    taker = scenario.victory["side"]
    mine = next(u for u in game.state.side_units(taker) if U.may_attack(u) and not U.is_artillery(u))
    foe = next(u for u in game.state.side_units(game.state.enemy_of(taker)) if U.may_attack(u))
    taken = {u.hex for u in game.state.units.values() if u.alive}
    free = [h for h in game.map.hexes if h not in taken and game.map.terrain_at(h) != "river"]
    # a hex with a free neighbour behind the unit (it faces away from the enemy)
    spot, facing = next((h, f) for h in free for f in range(6)
                        if hex_neighbor(h, (f + 3) % 6) in free)
    far = max(free, key=lambda h: (hex_distance(h, spot), h))
    _place(game, mine, spot, facing)
    _place(game, foe, far, foe.facing)
    alone = placement(game, taker)
    _place(game, foe, hex_neighbor(spot, (facing + 3) % 6), facing)   # behind, facing the unit
    assert placement(game, taker) < alone
    assert game.ruleset.evaluate(game, taker) == -game.ruleset.evaluate(game, foe.side)


def test_4_10_ancients_evaluation_counts_the_melee_a_unit_faces_and_its_flank_bonus():
    """4.10: a unit attacks the enemy directly ahead, +1 on its die when it stands in the enemy's
    flank or rear and -1 on the enemy's. So a unit facing an enemy from behind is lined up for a
    better melee than the same unit facing it front to front, and one facing nobody for none."""
    from hexwar.engine.hexgrid import hex_neighbor
    from hexwar.engine.rulesets.ancients.evaluate import lined_up
    from hexwar.engine.rulesets.ancients.units import is_commander, is_engine
    scenario = next(s for s in SCENARIOS if s.id == "border-clash")
    game = Game(scenario)
    a, b = game.state.side_order
    for u in game.state.units.values():   # only the two units below stand on the map
        u.hex = None
    fit = lambda s: next(u for u in game.state.units.values()
                         if u.side == s and not is_engine(u.stats) and not is_commander(u.stats))
    mine, foe = fit(a), fit(b)
    mine.hex = game.map.hexes[len(game.map.hexes) // 2]
    foe.hex, foe.facing = hex_neighbor(mine.hex, 0), 0          # facing away from mine: mine is behind
    mine.facing = 3
    assert lined_up(game, a) == 0                                 # facing away: no melee
    mine.facing = 0
    from_behind = lined_up(game, a)
    foe.facing = 3                                                # now front to front
    front = lined_up(game, a)
    assert from_behind > front
    assert game.ruleset.evaluate(game, a) == -game.ruleset.evaluate(game, b)


def test_r10_2_poltava_evaluation_is_the_rout_race():
    scenario = next(s for s in SCENARIOS if s.id == "poltava-2")
    game = Game(scenario)
    assert game.ruleset.evaluate(game, "sweden") == 0 == game.ruleset.evaluate(game, "russia")
    scores = []
    for box in range(0, 3):  # Golitsyn's division fills its box ...
        game.state.vars["box"]["gn"] = box
        scores.append(game.ruleset.evaluate(game, "sweden"))
    game.state.vars["box"]["gn"] = 3  # ... to its rout number 3, and routs
    game.state.vars["routed"] = ["gn"]
    scores.append(game.ruleset.evaluate(game, "sweden"))
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    # the counter that routs a division is worth more than the first one
    assert scores[3] - scores[2] > scores[1] - scores[0]
    # Russia wins by standing to the end of turn 12 (S2 victory 1): its own rout weighs double
    assert abs(game.ruleset.evaluate(game, "russia") + 2 * scores[-1]) <= 1


def test_budget_counts_work_not_time():
    scenario = next(s for s in SCENARIOS if s.id == "border-clash")
    match = Match.new(scenario, seed=4)
    strong = StrongComputer(b"w", Budget(work=20, width=4, depth=4, exact=12, samples=2))
    spent = []
    for _ in range(80):
        if match.game.over:
            break
        order = strong.choose(match.game)
        spent.append(strong.last_work)
        match.play(order)
    # a share may overshoot by one batch of dice outcomes, never by more
    assert max(spent) <= 20 + 4 * 12 and max(spent) > 0


def test_same_state_and_seed_give_the_same_decision():
    scenario = next(s for s in SCENARIOS if s.id == "poltava-1")
    match = Match.new(scenario, seed=6)
    basic = Computer(b"b")
    for _ in range(40):
        match.play(basic.choose(match.game))
    a = StrongComputer(b"same", SMALL).choose(match.game)
    b = StrongComputer(b"same", SMALL).choose(Game(scenario, match.game.state.copy()))
    assert a == b


def test_levels():
    assert LEVELS == ("basic", "strong")
    assert isinstance(computer_for("basic", 1), Computer)
    assert isinstance(computer_for("strong", 1, work=5), StrongComputer)
    with pytest.raises(ValueError):
        computer_for("grandmaster", 1)


def _simulate(sid, hashseed, *extra):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    r = subprocess.run([sys.executable, "-m", "hexwar", "simulate", sid, "--seed", "5", "--work", "10",
                        "--json", *extra], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("sid", ["border-clash", "attack-on-morobad", "poltava-1", "meeting-engagement"])
def test_strong_is_deterministic_across_processes_and_hash_seeds(sid):
    a = _simulate(sid, 0)
    b = _simulate(sid, 4242)
    assert a["digest"] == b["digest"] and a["orders"] == b["orders"]
    assert set(a["levels"].values()) == {"strong"}


def test_simulate_level_option_sets_and_reports_each_side():
    r = _simulate("border-clash", 1, "--level", "red=basic")
    assert r["levels"] == {"red": "basic", "blue": "strong"}


@pytest.mark.parametrize("bad", ["red=grand", "green=basic", "red"])
def test_simulate_refuses_a_bad_level(bad):
    r = subprocess.run([sys.executable, "-m", "hexwar", "simulate", "border-clash", "--seed", "1",
                        "--level", bad], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--level" in r.stderr and "Traceback" not in r.stderr


def test_first_candidate_is_the_basic_choice_so_width_one_plays_the_basic_game():
    scenario = next(s for s in SCENARIOS if s.id == "attack-on-morobad")
    digests = []
    for player in (lambda side: Computer(f"2:{side}".encode()),
                   lambda side: StrongComputer(f"2:{side}".encode(), Budget(work=10, width=1))):
        match = Match.new(scenario, seed=2)
        players = {s.id: player(s.id) for s in scenario.sides}
        while not match.game.over:
            side = match.game.to_act()
            match.play(players[side].choose(match.game), side)
        digests.append(match.game.digest())
    assert digests[0] == digests[1]


def test_play_host_and_join_default_to_the_strong_computer():
    from hexwar.cli import build_parser
    p = build_parser()
    assert p.parse_args(["play", "border-clash", "--ai", "blue"]).level == "strong"
    assert p.parse_args(["host", "border-clash", "--headless", "--ai"]).level == "strong"
    assert p.parse_args(["join", "h:1", "--headless", "--ai", "--level", "basic"]).level == "basic"
    assert p.parse_args(["simulate", "border-clash", "--seed", "1"]).level == []


def test_r8_8_settle_scores_an_attack_once_its_pending_loss_is_taken():
    """An attack whose result leaves the loss to its owner's choice (R8.8) has changed nothing
    yet; with ``settle`` the position is scored after the basic player's answer."""
    scenario = next(s for s in SCENARIOS if s.id == "poltava-1")
    match = Match.new(scenario, seed=3)
    basic = Computer(b"t")
    strong = StrongComputer(b"t", Budget(work=200, settle=4, answers=True))
    found = 0
    while not match.game.over and found < 2:
        game = match.game
        order = basic.choose(game)
        if order.kind == "attack" and game.needs_dice(order):
            for _p, trial in exact_outcomes(game, order, 36, Work(100)) or []:
                pending = trial.state.pending
                if not pending or pending[0]["kind"] != "loss":
                    continue
                answer = strong.policy.choose(trial)
                if trial.needs_dice(answer):
                    continue
                side = game.to_act()
                settled_game = trial.copy()
                settled_game.apply(answer)
                if settled_game.state.pending:
                    continue
                got = strong.settled(trial, side, b"k", Work(200), 4)
                assert got == strong.score(settled_game, side)
                assert got != strong.score(trial, side)  # the loss now counts
                assert strong.settled(trial, side, b"k", Work(200), 0) == strong.score(trial, side)
                found += 1
                break
        match.play(order, game.to_act())
    assert found > 0


def test_a_scenario_entry_in_the_search_budget_overrides_the_side_entry_in_that_scenario_only():
    # Napoleonica's "france" is a side of both scenarios; the strong level searches as France in
    # the brigade only; in the meeting neither side searches (NapoleonicaRuleset.search_budget)
    brigade = Game(load_named("napoleonica-brigade"))
    meeting = Game(load_named("napoleonica-meeting"))
    player = StrongComputer(1)

    def width(game, side):
        game.state.active = side
        assert game.to_act() == side
        return player.budget_for(game).width

    assert width(brigade, "france") == 5 and width(brigade, "austria") == 5
    assert width(meeting, "russia") == 1 and width(meeting, "france") == 1
    brigade.state.active = "austria"
    assert player.budget_for(brigade).margin == 60
    brigade.state.active = "france"
    assert player.budget_for(brigade).margin == 40


def test_a_margin_keeps_the_basic_choice_unless_another_candidate_is_better_by_more():
    """``Budget.margin``: the search overrides the basic player's first candidate only for an
    order whose expected score beats it by more than the margin; a margin larger than any
    difference of scores plays the basic game."""
    scenario = next(s for s in SCENARIOS if s.id == "napoleonica-brigade")
    plain = Budget(width=5, scope="all")
    wide = Budget(width=5, scope="all", margin=10 ** 12)
    match = Match.new(scenario, seed=8)
    basic = Computer(b"8:austria")
    differed = 0
    for _ in range(60):
        if match.game.over:
            break
        game = match.game
        first = StrongComputer(b"8:austria", plain).candidates(game)
        if game.to_act() == "austria" and len(first) > 1:
            assert StrongComputer(b"8:austria", wide).choose(game) == first[0]
            differed += StrongComputer(b"8:austria", plain).choose(game) != first[0]
        match.play(basic.choose(game), game.to_act())
    assert differed > 0, "without a margin the search should override the basic choice somewhere"
