"""14.1, 13, G-23..G-27, G-51: the fast ``activation_paths`` lists exactly the paths that growing
each path point by point and asking ``activation_problem`` gives (the rules' own definition), in
the same order, for every actor, order and side of positions from real games of both scenarios."""

from hexwar.engine.ai import Computer
from hexwar.engine.rulesets.fow import execute as X
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.rulesets.fow import geo
from hexwar.match import Match
from hexwar.scenarios.loader import find_scenario, load_scenario

ORDERS = X.MOVES + X.ATTACKS


def _paths_by_definition(game, side: str, actor: str) -> list[list[int]]:
    """``activation_paths`` by the definition: grow every path, keep what ``activation_problem``
    accepts (the reference the fast version is tested against)."""
    state = game.state
    o = state.vars["orders"][side][actor]
    cids = X.participants(state, side, actor)
    if not cids or o["order"] in ("reserve", "prepared_defence"):
        return []
    limit = X.allowance(state, o["order"], cids) if o["order"] in X.MOVES else 2
    out: list[list[int]] = []
    v = game.scenario.victory
    enemy = F.occupied(state, state.enemy_of(side))

    def grow(path: list[int], last: int) -> None:
        if len(path) >= limit:
            return
        nexts = [n for _, n in geo.neighbours(last)]
        if v.get("type") == "exit" and v.get("side") == side:
            nexts.append(geo.OFF_MAP)
        for n in nexts:
            if n in path or n == o["point"]:
                continue
            cand = path + [n]
            if X.activation_problem(game, side, actor, cand) is not None:
                continue
            out.append(cand)
            if n != geo.OFF_MAP and n not in enemy:
                grow(cand, n)

    grow([], o["point"])
    return out


def _execute_positions(scenario: str, seed: int):
    """Every step-8 position of a basic-against-basic game."""
    match = Match.new(load_scenario(find_scenario(scenario)), seed=seed)
    basic = Computer(str(seed).encode())
    while not match.game.over:
        g = match.game
        if g.state.phase == "execute" and not g.state.pending and not g.state.vars["battle"]:
            yield g
        match.play(basic.choose(g), g.to_act())


def _compare(scenario: str, seed: int) -> int:
    compared = 0
    for g in _execute_positions(scenario, seed):
        for side, mine in sorted(g.state.vars["orders"].items()):
            for actor in sorted(mine):
                for order, encircled in [(o, False) for o in ORDERS] + [("disengage", True)]:
                    trial = g.copy()
                    trial.state.vars["orders"][side][actor]["order"] = order
                    if encircled:  # 18: an encircled group disengages one point only
                        trial.state.vars["encircled"][side] = [mine[actor]["point"]]
                    want = _paths_by_definition(trial, side, actor)
                    assert X.activation_paths(trial, side, actor) == want, (scenario, seed, actor, order)
                    compared += bool(want)
    return compared


def test_14_1_fast_paths_equal_the_rules_paths_bir_hakeim():
    assert _compare("bir-hakeim", 2) > 50


def test_14_1_fast_paths_equal_the_rules_paths_meeting_engagement():
    assert _compare("meeting-engagement", 3) > 50
