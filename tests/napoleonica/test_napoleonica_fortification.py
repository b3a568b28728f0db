"""Artillery fortifications (spec 3.3 special 3, 7.1 item 8, 17, 22.7): an earthwork on the
hexsides in front of a battery."""

from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import fire as F
from hexwar.engine.rulesets.napoleonica import melee as M

from napo_helpers import game, hx, play, unit

WORKS = [("earthwork", [("0606", "0605"), ("0606", "0705")])]       # the battery's two front hexsides
BATTERY = dict(id="a", side="blue", kind="ART_MEDIUM", hex="0606", formation="unlimbered")


def test_s22_2_a_battery_behind_its_fortification_has_cover_from_the_front_but_not_from_howitzers():
    # all four of r's stands are 3 hexes from the battery, so all four fire (22.2)
    g = game([BATTERY, dict(id="r", side="red", kind="INF_LINE", hex="0803", formation="line"),
              dict(id="h", side="red", kind="ART_HOWITZER", hex="0802", formation="unlimbered")],
             hexsides=WORKS, phase="fire")
    a = unit(g, "a")
    assert F.score(g.map, unit(g, "r"), a, g.state)[0] == 2 * 4 - 4          # d 3, long range
    assert F.score(g.map, unit(g, "h"), a, g.state)[0] == 7 + 4               # howitzer: no cover


def test_s7_1_item8_cavalry_may_not_charge_across_an_artillery_fortification():
    cav = dict(id="c", side="red", kind="CAV_DRAGOON", hex="0604", formation="column")
    g = game([BATTERY, cav], hexsides=WORKS, phase="attack", active="red")
    assert not [o for o in g.legal_orders() if o.kind == "attack"]
    g = game([BATTERY, cav], phase="attack", active="red")                       # no works: it may
    assert [o for o in g.legal_orders() if o.kind == "attack"]


def test_s22_4_infantry_attacking_a_fortified_battery_across_its_front_takes_minus_4():
    inf = dict(id="i", side="red", kind="INF_LINE", hex="0604", formation="column")
    g = game([BATTERY, inf], hexsides=WORKS, phase="attack", active="red")
    o = [o for o in g.legal_orders() if o.kind == "attack"][0]
    play(g, "attack", dice=[1, 2] * 3, unit="i", target=o["target"], contact=o["contact"])
    _, _, terms, _ = M.side_terms(g.map, g.state, ["a", "i"], "red")
    assert dict(terms)["defender in cover (7.9, 22.7)"] == -4
    assert B.enter_cost(g.map, unit(g, "i"), hx(g, "0605"), hx(g, "0606")) == 2   # +1 to cross
