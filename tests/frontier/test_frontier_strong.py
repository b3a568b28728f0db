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


# --- the holder of an objective guards the cells next to it (stop 10) ----------------------

from hexwar.engine.rulesets.frontier import evaluate as EV  # noqa: E402

from frontier_helpers import C, game, n, to_move  # noqa: E402

FORT = n(C, 0, 2)
#: the fort's neighbour between it and the blue infantry at C (one step from C, two from nothing else)
GAP = n(C, 0)


def fort_guard(extra=()):
    return game([("b1", "blue", "EI", C, 0), ("r-sa", "red", "SA", FORT, 3), *extra],
                terrain={FORT: "V"}, labels={"Fort": FORT}, victory={"objective": "Fort", "side": "blue"})


def test_3_6_1_an_open_approach_is_the_empty_neighbour_of_the_fort_nearer_the_taker():
    # 3.6.1: the fort's guns can be attacked only from a neighbouring cell; of the fort's six
    # neighbours only GAP is nearer b1 than the fort itself is
    g = fort_guard()
    assert ai.approaches(g, FORT, "blue") == [GAP]
    held = fort_guard([("r1", "red", "NI", GAP, 3)])
    assert ai.approaches(held, FORT, "blue") == []
    # a taker's unit farther than APPROACH_REACH from every neighbour threatens none yet
    far = game([("b1", "blue", "EI", n(C, 3, 2), 0), ("r-sa", "red", "SA", FORT, 3)],
               terrain={FORT: "V"}, labels={"Fort": FORT}, victory={"objective": "Fort", "side": "blue"})
    assert ai.APPROACH_REACH < 3 and ai.approaches(far, FORT, "blue") == []


def test_3_10_only_the_holder_weighs_open_approaches(monkeypatch):
    g = fort_guard()
    weighted = {s: EV.evaluate(g, s) for s in ("red", "blue")}
    monkeypatch.setattr(EV, "APPROACH_WEIGHT", 0)
    plain = {s: EV.evaluate(g, s) for s in ("red", "blue")}
    assert plain["red"] - weighted["red"] == 200  # one open approach, designed weight 200
    assert plain["blue"] == weighted["blue"]


def test_3_6_1_strong_holder_candidates_include_filling_the_open_approach():
    # r1 stands two cells from GAP, behind the fort; the move that fills GAP is a candidate
    # for red however basic's planner scores it, and blue's candidates are unchanged
    g = to_move(fort_guard([("r1", "red", "NI", n(FORT, 1), 3)]), "red")
    strong = list(ai.strong_candidates(g.ruleset, g))
    fills = [o for _, o in strong if o.kind == "move" and o.get("unit") == "r1"
             and tuple(o.get("path")[-1]) == GAP]
    assert fills and all(g.validate(o) is None for o in fills)
    top = max(s for s, _ in ai.candidates(g.ruleset, g))
    assert all(s < top for s, o in strong if o in fills)


def test_3_6_13_a_taker_next_to_the_fort_counts_by_its_chance_to_survive_the_holders_attack(monkeypatch):
    from fractions import Fraction
    # b1 stands next to the fort; nobody faces it: it survives for sure
    alone = fort_guard([("b2", "blue", "EI", GAP, 0)])
    assert EV.threats(alone, FORT, "blue") == 1
    # r1 faces it from a neighbouring cell: G-F6 commits r1 to attack, and 3.6.13 kills b2 on a
    # roll at or under r1's Strength 4 (no modifier on clear ground): b2 survives 2 in 6
    faced = fort_guard([("b2", "blue", "EI", GAP, 0), ("r1", "red", "NI", n(GAP, 1), 4)])
    assert EV.threats(faced, FORT, "blue") == Fraction(1, 3)
    # only the holder weighs it, 100 a unit (designed)
    weighted = {s: EV.evaluate(alone, s) for s in ("red", "blue")}
    monkeypatch.setattr(EV, "THREAT_WEIGHT", 0)
    assert EV.evaluate(alone, "red") - weighted["red"] == 100
    assert EV.evaluate(alone, "blue") == weighted["blue"]


def occupied_fort(kind):
    return game([("b1", "blue", "EI", FORT, 0), ("r1", "red", kind, n(FORT, 0), 3)],
                terrain={FORT: "V"}, labels={"Fort": FORT}, victory={"objective": "Fort", "side": "blue"})


def test_3_6_13_the_forts_occupant_holds_it_only_by_its_chance_to_survive_its_own_attack(monkeypatch):
    from fractions import Fraction
    # G-F6: b1 faces r1, so it must attack it; 3.6.13: r1's roll at or under its Strength
    # destroys b1. A Commander has Strength 6 (3.6 PROP): b1's hold (300, designed) is all lost
    assert EV.occupant_risk(occupied_fort("CO"), FORT, "blue") == 300
    # Native Infantry, Strength 4: lost 4 times in 6
    assert EV.occupant_risk(occupied_fort("NI"), FORT, "blue") == 300 * Fraction(4, 6)
    # 3.6.2: a unit that has attacked this turn (it advanced into the fort) attacks no more
    g = occupied_fort("CO")
    g.state.units["b1"].marks["attacked"] = g.state.turn
    assert EV.occupant_risk(g, FORT, "blue") == 0
    # in the taker's view only
    g = occupied_fort("CO")
    before = {s: EV.evaluate(g, s) for s in ("red", "blue")}
    monkeypatch.setattr(EV, "occupant_risk", lambda *a: 0)
    assert EV.evaluate(g, "blue") - before["blue"] == 300 and EV.evaluate(g, "red") == before["red"]


def test_3_10_strong_holder_candidates_include_moving_into_the_empty_fort():
    # the fort's guns are gone; a red unit in the fort makes blue attack before it can occupy it
    g = to_move(game([("b1", "blue", "EI", C, 0), ("r1", "red", "NI", n(FORT, 1), 3)],
                     terrain={FORT: "V"}, labels={"Fort": FORT}, victory={"objective": "Fort", "side": "blue"}),
                "red")
    strong = list(ai.strong_candidates(g.ruleset, g))
    into = [o for _, o in strong if o.kind == "move" and tuple(o.get("path")[-1]) == FORT]
    assert into and all(g.validate(o) is None for o in into)
