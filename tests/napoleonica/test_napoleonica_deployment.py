"""Deployment (spec 22.10): roll-off, the loser places first, alternate, 6 rows from the own edge."""

import pytest

from hexwar.engine import Game, Order
from hexwar.scenarios.loader import ScenarioError
from hexwar.engine.rulesets.napoleonica import board as B

from napo_helpers import Script, board

UNITS = [dict(id="b1", side="blue", kind="INF_LINE", box="deploy", formation="column"),
         dict(id="b2", side="blue", kind="INF_LINE", box="deploy", formation="line"),
         dict(id="r1", side="red", kind="INF_LINE", box="deploy", formation="column")]


def test_s22_10_the_roll_off_loser_deploys_first_and_the_players_alternate():
    g = Game(board(UNITS))
    assert all(B.state_of(g.state.units[u["id"]]) == "deploy" for u in UNITS)
    g.apply(Order.make("end-phase"), Script(5, 12))            # red wins the roll-off
    assert g.state.phase == "deployment" and g.to_act() == "blue"
    orders = [o for o in g.legal_orders() if o.kind == "deploy"]
    assert orders and all(g.map.rows_from_edge(o["hex"], "south") < 6 for o in orders)
    assert g.validate(Order.make("end-phase")) is not None      # everything must be placed
    far = next(h for h in g.map.hexes if g.map.rows_from_edge(h, "south") == 6)
    assert g.validate(Order.make("deploy", unit="b1", hex=tuple(far))) is not None
    g.apply(Order.make("deploy", unit="b1", hex=tuple(g.map.parse("0508"))), Script())
    assert g.to_act() == "red"
    g.apply(Order.make("deploy", unit="r1", hex=tuple(g.map.parse("0504"))), Script())
    assert g.to_act() == "blue"                                  # red has nobody left
    g.apply(Order.make("deploy", unit="b2", hex=tuple(g.map.parse("0709"))), Script(*[3, 4] * 6))  # then roll-offs of turn 1
    b2 = g.state.units["b2"]
    assert b2.hex == g.map.parse("0709") and B.formation(b2) == "line" and B.state_of(b2) == "formed"
    assert g.state.phase != "deployment" and g.state.turn == 1


def test_s22_10_validate_accepts_only_the_deploy_box():
    with pytest.raises(ScenarioError) as err:
        board([dict(UNITS[0], box="rout"), UNITS[2]])
    assert any("box" in p for p in err.value.problems)


def test_s22_10_no_unit_deploys_onto_an_enemy_general():
    from hexwar.engine.rulesets.napoleonica.actors import deploy_hexes
    g = Game(board(UNITS + [dict(id="rg", side="red", kind="GEN", hex="0608")]))
    rg = g.state.units["rg"].hex
    assert rg not in deploy_hexes(g.map, g.scenario, g.state, g.state.units["b1"])
