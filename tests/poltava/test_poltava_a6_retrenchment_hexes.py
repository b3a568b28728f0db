"""A6 alternative: the retrenchment as hex terrain `retrenchment` ('#' on these test maps)."""

from unittest import mock

import pytest

import poltava_helpers as ph
from hexwar.engine import Game
from hexwar.scenarios.loader import ScenarioError
from poltava_helpers import H, O, Script, U, events, path, to_phase

LEGEND = ph.LEGEND[:-2] + ', "#" = "retrenchment" }'


def board(units, **kw):
    with mock.patch.object(ph, "LEGEND", LEGEND):
        return ph.board(units, **kw)


def rgame(units, **kw) -> Game:
    return Game(board(units, **kw))


def rows_with(cells, base=None):
    """A 10x10 map of ``base`` rows with single characters set: {"0503": "#", ...}."""
    rows = [list(r) for r in (base or ["." * 10] * 10)]
    for label, ch in cells.items():
        rows[int(label[2:]) - 1][int(label[:2]) - 1] = ch
    return ["".join(r) for r in rows]


def normal_moves(g, uid):
    """End hexes of the legal normal-mode moves of one unit."""
    return {g.map.label(o["path"][-1]) for o in g.legal_orders()
            if o.kind == "move" and o["unit"] == uid and o["mode"] == "normal"}


# a corridor down column 05, every other hex woods
CORRIDOR = ["WWWW.WWWWW"] * 10


def test_A6_entering_a_retrenchment_hex_costs_two():
    units = [U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0510")]
    g = rgame(units, rows=rows_with({"0503": "#"}, CORRIDOR))
    assert normal_moves(g, "a") == {"0502", "0503", "0504"}
    assert g.reachable("a")[g.map.parse("0503")].cost == 3
    assert normal_moves(ph.game(units, rows=CORRIDOR), "a") == {"0502", "0503", "0504", "0505"}
    assert "movement points" in g.validate(O("move", unit="a", path=path(g, "0502", "0503", "0504", "0505")))


def test_A6_a_road_through_a_retrenchment_hex_ignores_its_cost_A10():
    road = [[f"05{r:02d}" for r in range(1, 11)]]
    units = [U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0110")]
    g = rgame(units, rows=rows_with({"0503": "#"}), roads=road)
    eight = path(g, *[f"05{r:02d}" for r in range(2, 10)])
    assert g.validate(O("move", unit="a", path=eight, mode="road")) is None
    assert g.reachable("a")[g.map.parse("0509")].cost == 8


@pytest.mark.parametrize("kind,side", [("sw-cav", "sweden"), ("cossack", "russia")])
def test_A6_mounted_units_may_not_enter_a_retrenchment_hex(kind, side):
    enemy = "russia" if side == "sweden" else "sweden"
    road = [[f"05{r:02d}" for r in range(1, 11)]]
    g = rgame([U("c", side, kind, "0502"), U("z", enemy, "sw-inf" if enemy == "sweden" else "ru-inf", "0110")],
              rows=rows_with({"0503": "#"}), roads=road, first=side)
    for mode in ("normal", "road"):
        why = g.validate(O("move", unit="c", path=path(g, "0503"), mode=mode))
        assert why is not None and "may not enter 0503" in why
    assert g.map.parse("0503") not in g.reachable("c")
    assert g.map.parse("0504") in g.reachable("c")        # around it


def test_A6_defender_in_a_retrenchment_hex_two_shifts_and_minus_one():
    units = [U("a", "sweden", "sw-inf", "0505", stats={"cs": 4, "stars": 0}),
             U("d", "russia", "ru-inf", "0506", stats={"cs": 4, "stars": 0})]
    g = rgame(units, rows=rows_with({"0506": "#"}))
    to_phase(g, "melee")
    attack = O("attack", units=["a"], hexes=[H(g, "0506")])
    o = g.odds(attack)
    assert o["base_column"] == "0" and o["column"] == "-2-3" and o["drm"] == -1
    assert ("defender in a retrenchment hex (TEC, A6)", -2) in o["shifts"]
    evs = g.apply(attack, Script(2))
    res = events(evs, "melee-result")[0]
    assert res["drm"] == -1 and res["result"] == "A2*"     # 2 - 1 = row 1 of column -2-3


def test_A6_A12_retrenchment_hex_and_hexside_shifts_add_up_the_drm_counts_once():
    units = [U("a", "sweden", "sw-inf", "0505", stats={"cs": 8, "stars": 0}),
             U("d", "russia", "ru-inf", "0506", stats={"cs": 4, "stars": 0})]
    g = rgame(units, rows=rows_with({"0506": "#"}), hexsides=[("retrenchment", [("0505", "0506")])])
    to_phase(g, "melee")
    o = g.odds(O("attack", units=["a"], hexes=[H(g, "0506")]))
    assert o["base_column"] == "+4-6" and sum(s for _, s in o["shifts"]) == -4
    assert o["column"] == "-1" and o["drm"] == -1


def test_A6_R9_1_cavalry_may_not_attack_into_a_retrenchment_hex():
    units = [U("c", "sweden", "sw-cav", "0505"), U("d", "russia", "ru-inf", "0506"),
             U("e", "russia", "ru-inf", "0504")]
    g = rgame(units, rows=rows_with({"0506": "#"}))
    to_phase(g, "melee")
    assert "R9.1" in g.validate(O("attack", units=["c"], hexes=[H(g, "0506")]))
    assert g.validate(O("attack", units=["c"], hexes=[H(g, "0504")])) is None
    # alone against the works it has no legal attack and must withdraw (R9.2)
    g = rgame(units[:2], rows=rows_with({"0506": "#"}))
    to_phase(g, "fire")
    g.apply(O("end-phase"))
    assert g.state.pending[0]["kind"] == "withdraw" and g.state.pending[0]["unit"] == "c"


def test_A6_R5_1_no_zoc_into_a_retrenchment_hex():
    units = [U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")]
    g = rgame(units, rows=rows_with({"0505": "#"}))
    assert g.map.parse("0505") not in g.zoc_hexes("sweden")
    assert g.validate(O("move", unit="a", path=path(g, "0504"))) is None
    plain = ph.game(units)
    assert "ZOC" in plain.validate(O("move", unit="a", path=path(plain, "0504")))


def test_A6_R7_a_retrenchment_hex_blocks_line_of_sight():
    units = [U("a", "sweden", "sw-inf", "0502"), U("z", "russia", "ru-inf", "0504")]
    g = rgame(units, rows=rows_with({"0503": "#"}))
    to_phase(g, "fire")
    assert "line of sight" in g.validate(O("fire", unit="a", target="z"))
    plain = ph.game(units)
    to_phase(plain, "fire")
    assert plain.validate(O("fire", unit="a", target="z")) is None


def test_A6_R6_1_1_a_firer_in_a_retrenchment_hex_may_fire_at_an_adjacent_enemy():
    units = [U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")]
    g = rgame(units, rows=rows_with({"0505": "#"}))
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="a", target="z")) is None
    plain = ph.game(units)
    to_phase(plain, "fire")
    assert "ZOC" in plain.validate(O("fire", unit="a", target="z"))


def test_A6_R6_3_artillery_in_a_retrenchment_hex_fires_over_units():
    units = [U("art", "russia", "art", "0501"), U("f", "russia", "ru-inf", "0502"),
             U("z", "sweden", "sw-inf", "0504")]
    g = rgame(units, rows=rows_with({"0501": "#"}), first="russia")
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="art", target="z")) is None
    plain = ph.game(units, first="russia")
    to_phase(plain, "fire")
    assert "line of sight" in plain.validate(O("fire", unit="art", target="z"))


def test_A6_A48_camp_troops_may_stand_on_the_works():
    divs = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 99), ("lg", "russia", 99),
            ("ru2", "russia", 99)]
    units = [U("k", "russia", "ru-inf", "0205", division="lg"), U("z", "sweden", "sw-inf", "1010")]
    g = rgame(units, rows=["CC#......."] * 10, first="russia", divisions=divs)
    assert g.validate(O("move", unit="k", path=path(g, "0305"))) is None
    assert g.validate(O("move", unit="k", path=path(g, "0305", "0405"))) is not None
    g.apply(O("move", unit="k", path=path(g, "0305")))
    assert g.state.units["k"].hex == g.map.parse("0305")


def test_A6_mounted_units_may_not_be_set_up_in_a_retrenchment_hex():
    with pytest.raises(ScenarioError) as exc:
        board([U("c", "sweden", "sw-cav", "0503"), U("z", "russia", "ru-inf", "1010")],
              rows=rows_with({"0503": "#"}))
    assert any("unit c" in p and "retrenchment" in p for p in exc.value.problems)
