"""Forts (spec 7.1 item 10, 17, 22.7): walls climbed from the courtyard, a gate, no attacks
onto, from or through walls."""

from hexwar.engine.rulesets.napoleonica import attack as A
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import fire as F
from hexwar.engine.rulesets.napoleonica import movement as MV
from hexwar.engine.rulesets.napoleonica.sight import attack_sight

from napo_helpers import game, hx, play, unit

# courtyard 0606 ringed by walls 0605 0705 0506 0706 0607; the gap 0707 is the gate side
ROWS = ["." * 12] * 4 + [".....WW....."] + ["....WCW....."] + [".....W......"] + ["." * 12] * 3
GATE = [("gate", [("0606", "0707")])]


def steps(g, uid):
    return MV.fort_steps(g.map, B.View(g.state), unit(g, uid))


def test_s22_7_the_courtyard_is_entered_only_through_the_gate_as_a_whole_move():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0707", formation="column", strength=1)],
             rows=ROWS, hexsides=GATE)
    assert not [h for h, _ in MV.moves(g.map, B.View(g.state), unit(g, "i")) if g.map.terrain_at(h) == "courtyard"]
    assert steps(g, "i") == [("gate", hx(g, "0606"))]
    play(g, "gate", unit="i", hex=tuple(hx(g, "0606")))
    assert unit(g, "i").hex == hx(g, "0606")


def test_s22_7_walls_are_climbed_from_the_courtyard_and_left_by_coming_down():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0606", formation="line", strength=1)],
             rows=ROWS, hexsides=GATE)
    climbs = sorted(h for kind, h in steps(g, "i") if kind == "climb")
    assert climbs == sorted(hx(g, x) for x in ("0605", "0705", "0506", "0706", "0607"))
    assert ("gate", hx(g, "0707")) in steps(g, "i")
    play(g, "climb", unit="i", hex=tuple(hx(g, "0605")))
    g.state.turn = 2
    down = MV.moves(g.map, B.View(g.state), unit(g, "i"))
    assert {h for h, _ in down} == {hx(g, "0606")} and all(m == "descend" for m, _ in down.values())


def test_s7_1_item10_no_attack_onto_or_from_a_wall_and_cover_on_it():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0605", formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex="0603", formation="line")],
             rows=ROWS, hexsides=GATE, phase="attack")
    i, r = unit(g, "i"), unit(g, "r")
    view = B.View(g.state)
    assert "walls" in A.target_problem(g.map, view, r, i)
    assert "walls" in A.target_problem(g.map, view, i, r)
    # d 2, cover on the wall; r's left-end stand is 4 hexes off, so 3 stands fire (22.2)
    assert F.score(g.map, r, i, g.state)[0] == 2 * 3 + 2 - 4


def test_s7_3_item4_fort_walls_block_sight():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0608", formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex="0604", formation="line")],
             rows=ROWS, hexsides=GATE, phase="attack")
    assert not attack_sight(g.map, B.View(g.state), unit(g, "i").hex, unit(g, "r").hex)
