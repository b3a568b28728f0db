"""The strong level's candidates in Frontier (ai.strong_candidates): basic's, plus each unit's next
best moves in the move phase; basic's own choice stays first."""

from hexwar.engine.ai import Computer
from hexwar.engine.rulesets.frontier import ai
from hexwar.match import Match
from hexwar.scenarios.loader import builtin_paths, load_scenario

SCENARIO = next(s for s in (load_scenario(p) for p in builtin_paths()) if s.id == "attack-on-morobad")


def test_3_5_strong_candidates_offer_a_units_next_best_moves():
    match = Match.new(SCENARIO, seed=4)
    players = {s.id: Computer(f"4:{s.id}".encode()) for s in SCENARIO.sides}
    widened = 0
    while not match.game.over:
        game = match.game
        basic = list(ai.candidates(game.ruleset, game))
        strong = list(ai.strong_candidates(game.ruleset, game))
        assert strong[:len(basic)] == basic
        extra = strong[len(basic):]
        assert all(game.validate(o) is None for _, o in extra)
        top = max((s for s, _ in basic), default=0)
        assert all(s < top for s, _ in extra)
        if game.state.phase == "move":
            assert all(o.kind in ("move", "pivot") for _, o in extra)
            moved = [o.get("unit") for _, o in strong if o.kind in ("move", "pivot")]
            if len(moved) > len(set(moved)):
                widened += 1
        side = game.to_act()
        match.play(players[side].choose(game), side)
    assert widened > 5
