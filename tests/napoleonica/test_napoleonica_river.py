"""Rivers, bridges and fords (spec 7.4, 17, 22.7)."""

from hexwar.engine.rulesets.napoleonica import attack as A
from hexwar.engine.rulesets.napoleonica import board as B

from hexwar.engine import Game
from hexwar.scenarios.loader import parse_scenario

from napo_helpers import game, hx, scenario_text, unit

# row 06 is river except a ford at 0306 and a bridge (road) at 0806
ROWS = ["." * 12] * 5 + ["~~f~~~~~~~~~"] + ["." * 12] * 4


def test_s22_7_a_river_is_impassable_except_by_bridge_and_ford():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0607", formation="column"),
              dict(id="a", side="blue", kind="ART_LIGHT", hex="0307", formation="unlimbered"),
              dict(id="l", side="blue", kind="ART_LIGHT", hex="0407", formation="limbered")], rows=ROWS)
    i, a, lim = unit(g, "i"), unit(g, "a"), unit(g, "l")
    assert B.enter_cost(g.map, i, hx(g, "0607"), hx(g, "0606")) is None        # river
    assert B.enter_cost(g.map, i, hx(g, "0307"), hx(g, "0306")) == 2           # ford
    assert B.enter_cost(g.map, lim, hx(g, "0307"), hx(g, "0306")) == 2         # limbered: yes
    assert B.enter_cost(g.map, a, hx(g, "0307"), hx(g, "0306")) is None        # in position: no


def test_s22_7_a_bridge_is_a_road_across_the_river_hex():
    text = scenario_text([dict(id="i", side="blue", kind="INF_LINE", hex="0807", formation="column")], rows=ROWS)
    text = text.replace("rows = [", 'roads = [["0807", "0806", "0805"]]\nrows = [', 1)
    g = Game(parse_scenario(text, "t.toml"))
    i = g.state.units["i"]
    assert B.enter_cost(g.map, i, hx(g, "0807"), hx(g, "0806")) == 1          # along the road
    assert B.enter_cost(g.map, i, hx(g, "0707"), hx(g, "0806")) is None       # off it: river


def test_s7_4_no_attack_from_or_onto_a_ford():
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0307", formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex="0306", formation="line")], rows=ROWS, phase="attack")
    b, r = unit(g, "b"), unit(g, "r")
    assert g.map.terrain_at(r.hex) == "ford"
    assert "ford" in A.target_problem(g.map, B.View(g.state), b, r)


def test_s7_4_no_attack_path_crosses_a_ravine_and_cavalry_never_enters_it():
    rows = ["." * 12] * 5 + ["RRRRRRRRRRRR"] + ["." * 12] * 4
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0607", formation="column"),
              dict(id="c", side="blue", kind="CAV_DRAGOON", hex="0907", formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")], rows=rows, phase="attack")
    assert B.enter_cost(g.map, unit(g, "b"), hx(g, "0607"), hx(g, "0606")) == 2
    assert B.enter_cost(g.map, unit(g, "c"), hx(g, "0907"), hx(g, "0906")) is None
    # red's front hexes lie in the ravine: no room for contact, so no attack at all (7.4, G-32)
    assert not [o for o in g.legal_orders() if o.kind == "attack" and o["unit"] == "b"]
