"""Rivers, bridges and fords (spec 7.4, 17, 22.7)."""

from hexwar.engine.rulesets.napoleonica import attack as A
from hexwar.engine.rulesets.napoleonica import board as B

from hexwar.engine import Game
from hexwar.scenarios.loader import parse_scenario

from napo_helpers import Script, game, hx, scenario_text, unit

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
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0307", formation="column", strength=1),
              dict(id="r", side="red", kind="INF_LINE", hex="0306", formation="line", strength=1)], rows=ROWS, phase="attack")
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


def _bridge_game(units, barricade=("0806", "0805")):
    text = scenario_text(units, rows=ROWS, hexsides=[("barricade", [barricade])])
    text = text.replace("rows = [", 'roads = [["0807", "0806", "0805"]]\nrows = [', 1)
    g = Game(parse_scenario(text, "t.toml"))
    g.state.vars["commanded"] = sorted(g.state.units)
    return g


def test_s22_7_a_barricade_closes_the_bridge_until_it_is_dismantled():
    from hexwar.engine.rulesets.napoleonica import movement as MV
    g = _bridge_game([dict(id="i", side="blue", kind="INF_LINE", hex="0807", formation="column", strength=1),
                      dict(id="c", side="blue", kind="CAV_LIGHT", hex="0307", formation="column")])
    g.state.phase, g.state.active = "movement", "blue"
    bridge, north = hx(g, "0806"), hx(g, "0805")
    assert g.state.vars["barricades"] == [[bridge.q, bridge.r]]
    ends = {h for h, _f in MV.moves(g.map, B.View(g.state), unit(g, "i"))}
    assert bridge not in ends and north not in ends        # impassable until dismantled
    # infantry next to the bridge may dismantle the barricade; cavalry may not (22.9)
    g.state.units["c"].hex = hx(g, "0907")
    orders = [o for o in g.legal_orders() if o.kind == "dismantle"]
    assert [(o["unit"], o["hex"]) for o in orders] == [("i", tuple(bridge))]
    g.apply(orders[0], Script(*[1] * 10))
    assert "barricades" not in g.state.vars
    assert unit(g, "i").marks["moved"] == 1                # counts as movement for fire (G-27)
    g.state.turn = 2                                       # the next Movement phase: the way is open
    assert {bridge, north} <= {h for h, _f in MV.moves(g.map, B.View(g.state), unit(g, "i"))}


def test_s22_9_engineers_dismantle_a_barricade_but_no_attack_crosses_a_standing_one():
    from hexwar.engine.rulesets.napoleonica import movement as MV
    g = _bridge_game([dict(id="e", side="blue", kind="ENG", hex="0805")])
    bridge = hx(g, "0806")
    # engineers on either bank next to the bridge may take the barricade down; further off, not
    assert MV.dismantle_targets(B.View(g.state), unit(g, "e")) == [bridge]
    g.state.units["e"].hex = hx(g, "0705")
    assert MV.dismantle_targets(B.View(g.state), unit(g, "e")) == []
    # the only hex across red's front is the barricaded bridge: no attack (7.4, 22.7)
    g = _bridge_game([dict(id="b", side="blue", kind="INF_LINE", hex="0807", formation="column"),
                      dict(id="r", side="red", kind="INF_LINE", hex="0805", formation="line")])
    g.state.phase, g.state.active = "attack", "blue"
    assert not [o for o in g.legal_orders() if o.kind == "attack" and o["unit"] == "b"]
    # nor once it is dismantled: an attack never crosses a river, even by a bridge (7.4)
    g.state.vars["barricades"] = []
    assert not [o for o in g.legal_orders() if o.kind == "attack" and o["unit"] == "b"]


def test_validate_a_barricade_away_from_bridges_is_a_map_problem():
    import pytest
    from hexwar.scenarios.loader import ScenarioError
    text = scenario_text([], rows=ROWS, hexsides=[("barricade", [("0708", "0709")])])
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text, "t.toml")
    assert "map.hexsides: the barricade between 0709 and 0708 touches no bridge" in str(e.value)


def test_s22_9_the_computer_opens_a_barricaded_bridge_in_its_way():
    from hexwar.engine.rulesets.napoleonica import ai
    g = _bridge_game([dict(id="i", side="blue", kind="INF_LINE", hex="0807", formation="column")])
    g.state.phase, g.state.active = "movement", "blue"
    best = max(ai.candidates(g.ruleset, g), key=lambda so: so[0])[1]
    assert best.kind == "dismantle" and g.validate(best) is None
