"""Melee (spec 22.4), the turn and its roll-offs (6), appearance (8), army composition (16),
victory (22.10) and the scenario checks."""

import re

import pytest

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import hex_distance
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import melee as M
from hexwar.engine.rulesets.napoleonica import turn as T
from hexwar.engine.rulesets.napoleonica.setup import army_problems
from hexwar.scenarios.loader import ScenarioError, parse_scenario

from napo_helpers import Script, board, game, play, scenario_text, unit

BLUE_COL = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="column")
RED_LINE = dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")
SPARE = [20, 1] * 4          # roll-offs of the next turn, if any


def engaged(units=(BLUE_COL, RED_LINE)):
    g = game(list(units), phase="attack")
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    g.state.phase = "melee"
    g.state.active = "blue"
    return g


def test_s22_4_side_totals_name_every_term():
    g = engaged()
    p, dice, terms, attacked = M.side_terms(g.map, g.state, ["b", "r"], "blue")
    assert p.id == "b" and dice == 1 and attacked
    assert dict(terms) == {"rank of b": 5, "attack bonus": 2, "attacking column": 1}
    p, dice, terms, attacked = M.side_terms(g.map, g.state, ["b", "r"], "red")
    assert dict(terms) == {"rank of r": 5} and not attacked


def test_s22_4_the_loser_loses_a_stand_is_disordered_and_retreats_two_hexes():
    g = engaged()
    play(g, "melee", unit="b", dice=[10, 12])               # 10 + 8 = 18 against 12 + 5 = 17
    r, b = unit(g, "r"), unit(g, "b")
    assert r.strength == 3 and B.state_of(r) == "disordered"
    assert b.strength == 4 and B.state_of(b) == "formed"     # the winner stays, no pursuit
    assert g.state.vars["contacts"] == []
    # red's line at (3,4) was hit from (3,5): NE (4,3), NW (3,3) and W (2,4) all go to d = 2,
    # so the owner chooses; the spec's preference (own edge = north, then clock 1 first) comes first
    # first its owner chooses which stand goes: an end of the line (21.5); the far end here
    assert g.to_act() == "red" and g.state.pending == [{"side": "red", "kind": "lose-stand", "unit": "r"}]
    play(g, "lose", unit="r", hex=(0, 4))
    assert g.to_act() == "red" and g.state.pending == [{"side": "red", "kind": "retreat", "unit": "r"}]
    paths = [o["path"] for o in g.legal_orders() if o.kind == "retreat"]
    assert paths[0] == ((4, 3), (5, 2))
    assert {p[0] for p in paths} == {(4, 3), (3, 3), (2, 4)}
    assert all(hex_distance(p[-1], b.hex) == 3 for p in paths)     # each step as far as it goes
    assert g.validate(Order.make("retreat", unit="r", path=((2, 5), (2, 6)))) is not None
    assert g.validate(Order.make("end-phase")) is not None
    play(g, "retreat", unit="r", path=((3, 3), (3, 2)), dice=SPARE)
    assert unit(g, "r").hex == (3, 2) and "retreats" not in g.state.vars and not g.state.pending


def test_s22_4_while_a_retreat_waits_only_its_owner_acts():
    g = engaged()
    play(g, "melee", unit="b", dice=[10, 12])
    assert {o.kind for o in g.legal_orders()} == {"lose", "resign"}
    play(g, "lose", unit="r", hex=(0, 4))
    kinds = {o.kind for o in g.legal_orders()}
    assert kinds == {"retreat", "resign"}
    first = next(o for o in g.legal_orders() if o.kind == "retreat")
    assert g.validate(first, "blue") is not None and g.validate(first, "red") is None
    play(g, "resign")                                      # the owner of the decision resigns
    assert g.state.result["winner"] == "blue"


def test_s22_4_a_retreat_with_one_way_back_needs_no_order():
    # lakes at (4,3), (3,3) and (1,4) leave red's beaten line one way back, W then NW
    rows = ["." * 12] * 10
    rows[3] = "....LL" + "." * 6
    rows[4] = "...L" + "." * 8
    g = engaged_on(rows)
    play(g, "melee", unit="b", dice=[10, 12, *SPARE])
    play(g, "lose", unit="r", hex=(2, 4), dice=SPARE)        # its far stand goes; one is left
    r = unit(g, "r")
    assert B.state_of(r) == "disordered" and r.hex == (2, 3)
    assert not [o for o in g.legal_orders() if o.kind == "retreat"]


def engaged_on(rows):
    g = game([dict(BLUE_COL, strength=2), dict(RED_LINE, strength=2)], phase="attack", rows=rows)
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    g.state.phase = "melee"
    g.state.active = "blue"
    return g


def test_s22_4_a_tie_goes_to_the_side_that_did_not_attack():
    g = engaged()
    play(g, "melee", unit="b", dice=[9, 12, *SPARE])        # 17 against 17
    assert unit(g, "b").strength == 3 and B.state_of(unit(g, "b")) == "disordered"
    assert unit(g, "r").strength == 4


def test_s22_4_beaten_by_five_or_more_the_loser_flees():
    g = engaged()
    play(g, "melee", unit="b", dice=[15, 3, *SPARE])        # 23 against 8
    r = unit(g, "r")
    assert B.state_of(r) == "fleeing" and r.hex is None and r.strength == 3


def test_s22_4_melee_dice_are_best_of_n_highest():
    g = engaged([BLUE_COL, dict(RED_LINE, kind="INF_GUARD")])
    events = play(g, "melee", unit="b", dice=[10, 2, 19, *SPARE])   # guard rolls 2d20, keeps 19
    best = [e for e in events if e["t"] == "best-of"]
    assert best[1]["dice"] == [2, 19] and best[1]["kept"] == 19


def test_s22_4_losing_artillery_is_captured():
    g = engaged([BLUE_COL, dict(RED_LINE, kind="ART_MEDIUM", formation="unlimbered")])
    play(g, "melee", unit="b", dice=[10, 12, *SPARE])
    assert B.state_of(unit(g, "r")) == "captured"


def test_s22_4_a_general_with_a_losing_unit_rolls_to_escape():
    gen = dict(id="rg", side="red", kind="GEN", hex="0605")
    g = engaged([BLUE_COL, RED_LINE, gen])
    play(g, "melee", unit="b", dice=[10, 11])                # red +1 for its general: 16 < 18
    play(g, "lose", unit="r", hex=(0, 4))
    assert B.state_of(unit(g, "rg")) == "formed"             # it rolls once its unit has retreated
    play(g, "retreat", unit="r", path=((4, 3), (5, 2)), dice=[5, *SPARE])   # d20 5: taken
    assert B.state_of(unit(g, "rg")) == "captured"
    g = engaged([BLUE_COL, RED_LINE, gen])
    play(g, "melee", unit="b", dice=[10, 11])
    play(g, "lose", unit="r", hex=(0, 4))
    play(g, "retreat", unit="r", path=((4, 3), (5, 2)), dice=[6, *SPARE])
    # escaped to the nearest friendly stand: one of its own unit's, now two hexes back
    assert B.state_of(unit(g, "rg")) == "formed" and unit(g, "r").hex == (5, 2)
    assert unit(g, "rg").hex in B.stand_hexes(unit(g, "r"))


def test_s12_every_melee_must_be_fought():
    g = engaged()
    assert g.validate(Order.make("end-phase")) is not None


def test_s6_roll_off_ties_are_rerolled_and_the_higher_roll_goes_first():
    g = Game(board([BLUE_COL, RED_LINE]))
    assert g.state.phase == "start"
    events = g.apply(Order.make("end-phase"), Script(7, 7, 4, 15))
    assert [e["t"] for e in events if e["t"].startswith("roll-off")] == ["roll-off attack-tie", "roll-off"]
    assert g.state.phase == "attack" and g.to_act() == "red"


def test_s6_the_six_phases_come_in_order():
    assert T.PHASES == ("attack", "appearance", "movement", "fire", "morale", "melee")


def test_s8_3_appearance_on_the_own_edge_away_from_formed_enemy_lines():
    g = game([dict(BLUE_COL, strength=1), dict(RED_LINE, hex="0609", strength=1)], phase="appearance")
    u = unit(g, "b")
    u.hex = None
    u.mark("state", "restored")
    u.mark("restored", 0)
    orders = [o for o in g.legal_orders() if o.kind == "appear"]
    hexes = {o["hex"] for o in orders}
    enemy = unit(g, "r").hex
    assert hexes and all(g.map.rows_from_edge(h, "south") == 0 for h in hexes)
    assert all(hex_distance(h, enemy) >= 3 for h in hexes)
    assert {o["formation"] for o in orders} == {"line", "column", "square"}   # never disordered
    o = orders[0]
    play(g, "appear", unit="b", hex=o["hex"], formation=o["formation"], facing=o["facing"], dice=SPARE)
    assert unit(g, "b").marks["moved"] == 1            # appearing counts as movement (G-27)


def test_s8_1_a_unit_rallied_this_turn_waits_for_the_next_appearance_phase():
    g = game([BLUE_COL, RED_LINE], phase="appearance")
    u = unit(g, "b")
    u.hex = None
    u.mark("state", "restored")
    u.mark("restored", 1)
    assert not [o for o in g.legal_orders() if o.kind == "appear"]


def test_s22_10_an_army_with_half_its_combat_units_gone_breaks():
    g = game([BLUE_COL, RED_LINE, dict(id="r2", side="red", kind="INF_LINE", hex="1002", formation="line")])
    assert not T.broken(g.state, "red")
    unit(g, "r").mark("state", "fleeing")
    assert T.broken(g.state, "red")
    result = T.check_victory(g.scenario, g.state, final=False)
    assert result["winner"] == "blue"


def test_s22_10_points_and_the_draw_margin():
    g = game([dict(BLUE_COL, strength=1), dict(RED_LINE, strength=1), dict(id="r2", side="red", kind="INF_LINE", hex="1002", formation="line", strength=1),
              dict(id="r3", side="red", kind="INF_LINE", hex="0802", formation="line", strength=1),
              dict(id="r4", side="red", kind="INF_LINE", hex="0402", formation="line", strength=1)],
             labels={"Mill": "0608"}, victory={"objectives": ["Mill"]})
    assert T.points(g.scenario, g.state, "blue") == 3           # holds the Mill
    unit(g, "r").mark("state", "destroyed")
    assert T.points(g.scenario, g.state, "blue") == 5
    assert T.check_victory(g.scenario, g.state, final=True)["winner"] == "blue"
    assert T.check_victory(g.scenario, g.state, final=False) is None


def test_s16_muster_percentages_are_within_each_arm_and_exact():
    line, light = ("INF_LINE", {"arm": "inf"}), ("INF_LIGHT", {"arm": "inf"})
    assert army_problems("x", [line] * 4 + [light]) == []              # 1 of 5 = 20 %
    problems = army_problems("x", [line] * 3 + [light])                 # 1 of 4 = 25 %
    assert len(problems) == 1 and "INF_LIGHT" in problems[0]
    drag = ("CAV_DRAGOON", {"arm": "cav"})
    guard = ("CAV_DRAGOON", {"arm": "cav", "guard": True})
    assert army_problems("x", [drag] * 9 + [guard]) == []              # guard counts as guard only
    assert army_problems("x", [("ART_MEDIUM", {"arm": "art"})]) == []   # other arms empty: legal


def _broken(**change):
    text = scenario_text([dict(BLUE_COL, **change), RED_LINE], muster=True)
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "broken.toml")
    return err.value.problems


def test_validate_unknown_formation_is_a_field_problem():
    problems = _broken(formation="wedge")
    assert any(re.match(r"broken\.toml: units\[0\]\.stats\.formation \(line \d+\): unknown formation 'wedge'", p)
               for p in problems)


def test_s4_1_validate_stand_counts_over_the_limits():
    problems = _broken(strength=5)
    assert any(re.match(r"broken\.toml: units\[0\]\.strength \(line \d+\): 5 stands", p) for p in problems)


def test_s16_validate_an_army_outside_the_muster_table():
    problems = _broken(kind="INF_LIGHT")
    assert any(re.match(r"broken\.toml: units: army of blue: INF_LINE is 0 of 1", p)
               for p in problems)


def test_s16_2_g09_minimums_are_shares_of_each_arm_not_of_the_army():
    # 50 % line + 30 % dragoons + 50 % medium artillery would be 130 % of one army; as shares of
    # each arm, one unit of each is a legal army
    army = [("INF_LINE", {"arm": "inf"}), ("CAV_DRAGOON", {"arm": "cav"}), ("ART_MEDIUM", {"arm": "art"})]
    assert 50 + 30 + 50 > 100
    assert army_problems("x", army) == []


def test_s22_4_exact_melee_odds_with_the_tie_rules():
    # equal single dice and equal terms: the attacker wins only on a higher die (190 of 400);
    # when both sides attacked, ties are re-rolled: exactly one half
    assert M.win_chance(1, 5, True, 1, 5, False) == (190, 400)
    assert M.win_chance(1, 5, False, 1, 5, True) == (210, 400)
    win, total = M.win_chance(1, 5, True, 1, 5, True)
    assert (win, total) == (190, 380)
    g = engaged()
    odds = g.odds(Order.make("melee", unit="b"))
    assert odds["chances"]["blue wins"] == M.win_chance(1, 8, True, 1, 5, False)
