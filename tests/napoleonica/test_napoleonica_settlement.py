"""Settlements ([F] 20, 7.1 items 6 and 9, 17, 22.7): occupy, garrison, cover, capture."""

from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.napoleonica import attack as A
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import fire as F
from hexwar.engine.rulesets.napoleonica import morale as MO
from hexwar.engine.rulesets.napoleonica import movement as MV

from napo_helpers import game, play, unit

ROWS = ["." * 12] * 5 + [".....VV....."] + ["." * 12] * 4       # village hexes 0606 and 0706
# two stands: one for each of the two village hexes (one stand a hex, 17, 22.7)
INF = dict(id="b", side="blue", kind="INF_LINE", hex="0607", formation="column", strength=2)


def occupy_orders(g, uid="b"):
    return [o for o in g.legal_orders() if o.kind == "occupy" and o.get("unit") == uid]


def test_f20_only_the_occupy_action_enters_a_settlement_from_next_to_it():
    g = game([INF, dict(id="far", side="blue", kind="INF_LINE", hex="1008", formation="column")], rows=ROWS)
    village = {h for h in g.map.hexes if g.map.terrain_at(h) == "village"}
    assert not any(h in village for h, _ in MV.moves(g.map, B.View(g.state), unit(g, "b")))
    # 0607 touches 0606 only; 0706 is the same settlement but not next to the unit
    assert [o["hex"] for o in occupy_orders(g)] == [tuple(g.map.parse("0606"))]
    assert len(village) == 2
    assert occupy_orders(g, "far") == []            # must start next to it
    target = occupy_orders(g)[0]["hex"]
    play(g, "occupy", unit="b", hex=target)
    b = unit(g, "b")
    assert b.hex == Hex(*target) and B.garrison(b) and B.facing(b) is None   # all-round front
    assert b.marks["moved"] == 1


def test_f20_an_enemy_in_the_settlement_keeps_others_out():
    g = game([INF, dict(id="r", side="red", kind="INF_LINE", hex="0706", formation="line", strength=1)], rows=ROWS)
    assert occupy_orders(g) == []


def test_f20_enemy_generals_in_an_entered_settlement_are_captured():
    g = game([INF, dict(id="rg", side="red", kind="GEN", hex="0706")], rows=ROWS)
    play(g, "occupy", unit="b", hex=tuple(g.map.parse("0606")))
    assert B.state_of(unit(g, "rg")) == "captured"


def test_s7_1_item9_a_garrison_never_attacks_out_and_item6_cavalry_never_attacks_in():
    g = game([dict(INF, hex="0606"), dict(id="r", side="red", kind="CAV_DRAGOON", hex="0604", formation="line")],
             rows=ROWS, phase="attack")
    b, r = unit(g, "b"), unit(g, "r")
    assert B.garrison(b)                               # placed in a village by the scenario
    assert "settlement" in A.attacker_problem(g.state, b)
    assert "settlement" in A.target_problem(g.map, B.View(g.state), r, b)


def test_s22_7_cover_and_morale_in_a_settlement():
    g = game([dict(INF, hex="0606"), dict(id="r", side="red", kind="INF_LINE", hex="0608", formation="line")],
             rows=ROWS, phase="fire")
    b, r = unit(g, "b"), unit(g, "r")
    assert F.score(g.map, r, b)[0] == 2 * 4 + 2 - 4
    assert ("in a settlement", 2) in MO.modifiers(g.state, b, ["hit"])


def test_s22_7_leaving_a_settlement_is_one_hex_and_the_whole_phase():
    g = game([dict(INF, hex="0606")], rows=ROWS)
    got = MV.moves(g.map, B.View(g.state), unit(g, "b"))
    assert got and all(mode == "leave" and len(path) == 1 for mode, path in got.values())
    (h, f), (_, path) = sorted(got.items())[0]
    play(g, "move", unit="b", path=[tuple(x) for x in path], facing=f)
    assert not B.garrison(unit(g, "b"))


def test_s7_3_item4_a_settlement_blocks_sight():
    g = game([dict(INF, hex="0607"), dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")],
             rows=ROWS, phase="attack")
    from hexwar.engine.rulesets.napoleonica.sight import attack_sight
    assert not attack_sight(g.map, B.View(g.state), unit(g, "b").hex, unit(g, "r").hex)


def test_s22_9_engineers_fortify_a_held_settlement_and_its_cover_becomes_minus_6():
    g = game([dict(INF, hex="0606"), dict(id="e", side="blue", kind="ENG", hex="0607", strength=1),
              dict(id="r", side="red", kind="INF_LINE", hex="0803", formation="line")], rows=ROWS)
    orders = [o for o in g.legal_orders() if o.kind == "fortify"]
    assert [o["hex"] for o in orders] == [tuple(g.map.parse("0606"))]
    play(g, "fortify", unit="e", hex=orders[0]["hex"])
    assert sorted(map(tuple, g.state.vars["fortified"])) == sorted(
        tuple(g.map.parse(x)) for x in ("0606", "0706"))
    assert F.score(g.map, unit(g, "r"), unit(g, "b"), g.state)[0] == 2 * 4 - 6   # d 3: long range
    assert not [o for o in g.legal_orders() if o.kind == "fortify"]              # once only


def test_f20_a_unit_entering_an_attacked_settlement_also_fights_in_its_melee():
    from hexwar.engine.rulesets.napoleonica.melee import components
    # r attacked b in the village from 0705, next to 0606 too: b2 may still go in (and fight)
    g = game([dict(INF, hex="0706", strength=1), dict(id="b2", side="blue", kind="INF_LINE", hex="0607", formation="column", strength=1),
              dict(id="r", side="red", kind="INF_LINE", hex="0705", formation="column", strength=1)], rows=ROWS)
    assert occupy_orders(g, "b2") == []          # next to an enemy: not in an ordinary turn (9.4)
    g.state.vars["contacts"] = [["r", "b", "front", -4, False, True, False]]
    unit(g, "r").mark("attacked", 1)
    unit(g, "b").mark("targeted", 1)
    play(g, "occupy", unit="b2", hex=tuple(g.map.parse("0606")))
    assert components(g.state) == [["b", "b2", "r"]]
