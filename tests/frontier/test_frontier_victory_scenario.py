"""Frontier 3.9 victory, the 3.10 scenario "Attack on Morobad", and computer play."""

import time

import pytest

from hexwar.engine import Dice, Game, NoDice
from hexwar.engine.ai import Computer
from hexwar.engine.hexgrid import hex_neighbors
from hexwar.scenarios.loader import ScenarioError, find_scenario, load_scenario, parse_scenario

from frontier_helpers import C, END, O, dice, game, kinds, n, to_combat, to_move, toml

FAR = n(C, 0, 4)


def test_3_9_half_losses_end_the_game_at_the_end_of_the_turn():
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EI", n(C, 3, 2), 0),
                        ("r1", "red", "NI", n(C, 0), 3), ("r2", "red", "NI", FAR, 3)]))
    g.apply(O("attack", attackers=["b1"], target=n(C, 0)), dice(1, 6))
    g.apply(O("advance", unit=None))
    assert not g.over  # only at the end of the turn
    g.apply(END)
    g.apply(END)
    ev = g.apply(END)
    assert g.over and g.state.result["winner"] == "blue"
    assert kinds(ev, "game-over")[0]["winner"] == "blue"


def test_3_9_turn_limit_equal_losses_is_a_draw():
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)], turns=1))
    for _ in range(4):
        g.apply(END)
    assert g.over and g.state.result["winner"] is None and "draw" in g.state.result["reason"]


def test_3_9_turn_limit_larger_fraction_lost_loses():
    g = to_combat(game([("b1", "blue", "EI", C, 0), ("b2", "blue", "EI", n(C, 3, 2), 0),
                        ("b3", "blue", "EI", n(C, 4, 2), 0),
                        ("r1", "red", "NI", n(C, 0), 3), ("r2", "red", "NI", FAR, 3),
                        ("r3", "red", "NI", n(FAR, 2), 3), ("r4", "red", "NI", n(FAR, 4), 3)], turns=1))
    g.apply(O("attack", attackers=["b1"], target=n(C, 0)), dice(6, 1))  # blue loses 1 of 3
    for _ in range(3):
        g.apply(END)
    assert g.over and g.state.result["winner"] == "red"


def fort_game(turns=12):
    fort = n(C, 0, 2)
    return game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(C, 3, 3), 0)], terrain={fort: "V"},
                labels={"Fort": fort}, victory={"objective": "Fort", "side": "blue"}, turns=turns), fort


def test_3_10_objective_occupying_the_fort_at_the_end_of_a_turn_wins():
    g, fort = fort_game()
    to_move(g, "blue")
    g.apply(O("move", unit="b1", path=[n(C, 0), fort], facing=0), NoDice())
    for _ in range(3):
        g.apply(END)
    assert not g.over  # checked at the end of the turn
    for _ in range(1):
        g.apply(END)
    assert g.over and g.state.result["winner"] == "blue" and "Fort" in g.state.result["reason"]


def test_3_10_objective_not_taken_by_the_last_turn_the_holder_wins():
    g, fort = fort_game(turns=1)
    to_move(g, "blue")
    for _ in range(4):
        g.apply(END)
    assert g.over and g.state.result["winner"] == "red"


def test_3_10_objective_must_be_a_map_label():
    text = toml([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", FAR, 3)],
                victory={"objective": "Nowhere", "side": "blue"})
    with pytest.raises(ScenarioError, match="objective"):
        parse_scenario(text)


def test_3_10_an_objective_that_is_not_a_label_string_is_a_problem_not_a_crash():
    # found by the scenario fuzz test: a list where the label should be raised TypeError
    import tomllib

    from hexwar.scenarios.loader import scenario_from_data
    path = find_scenario("attack-on-morobad")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["victory"]["objective"] = []
    with pytest.raises(ScenarioError, match="victory.objective"):
        scenario_from_data(data, "", path.name)


MOROBAD = load_scenario(find_scenario("attack-on-morobad"))


def test_3_10_attack_on_morobad_map_and_forces():
    s = MOROBAD
    m = s.map
    assert (s.id, s.ruleset, s.turns, m.width, m.height) == ("attack-on-morobad", "frontier", 12, 12, 8)
    fort = m.labels["Fort"]
    assert m.terrain_at(fort) == "village"
    natives = next(x for x in s.sides if x.id == "natives")
    assert m.rows_from_edge(fort, natives.home_edge) <= 1  # the natives' side...
    col, row = m.offset(fort)
    assert row in (3, 4)  # ...and its centre
    rivers = [h for h in m.hexes if m.terrain_at(h) == "river"]
    assert rivers and any(m.on_road(h) for h in rivers)  # a road bridge
    forests = {h for h in m.hexes if m.terrain_at(h) == "forest"}
    groups = 0
    seen = set()
    for h in sorted(forests):
        if h in seen:
            continue
        groups += 1
        stack = [h]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack += [y for y in hex_neighbors(x) if y in forests]
    assert groups == 2
    assert {m.elevation_at(h) for h in m.hexes} == {0, 1, 2}
    count = {}
    for u in s.units:
        count[(u.side, u.kind)] = count.get((u.side, u.kind), 0) + 1
    assert count == {("europeans", "EI"): 3, ("europeans", "EC"): 1, ("europeans", "MG"): 1,
                     ("europeans", "FA"): 1, ("europeans", "MA"): 1, ("europeans", "CO"): 1,
                     ("natives", "NI"): 6, ("natives", "NC"): 3, ("natives", "SA"): 1, ("natives", "CO"): 1}
    sa = next(u for u in s.units if u.kind == "SA")
    assert sa.hex == fort
    assert s.victory == {"objective": "Fort", "side": "europeans"} and s.notes


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_3_10_attack_on_morobad_computer_plays_to_the_end_with_legal_orders(seed):
    g = Game(MOROBAD)
    ai = Computer(seed)
    t = time.perf_counter()
    count = 0
    while not g.over:
        order = ai.choose(g)
        assert g.validate(order) is None
        g.apply(order, Dice(f"morobad-{seed}-{count}".encode()))
        count += 1
        assert count < 3000
    assert g.state.result["winner"] in ("europeans", "natives")
    assert g.state.turn <= 12
    assert g.ruleset.invariant_problems(g) == []
    assert time.perf_counter() - t < 5
