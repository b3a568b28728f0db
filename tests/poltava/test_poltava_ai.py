"""The Poltava computer player: where it stops short of the enemy and which division it hits."""

from hexwar.engine.ai import Computer
from hexwar.engine.hexgrid import hex_distance

from poltava_helpers import H, U, game, to_phase


def _best(g):
    return Computer("t").choose(g)


def test_cavalry_that_can_reach_contact_charges_home():
    # R6.1: nobody fires into his own ZOC, so contact is safe from muskets and range 2 is not
    g = game([U("c", "sweden", "sw-cav", "0509"), U("i", "russia", "ru-inf", "0502")])
    o = _best(g)
    assert o.kind == "move"
    end = tuple(o["path"][-1])
    d = hex_distance(end, g.map.parse("0502"))
    assert d != 2, f"the cavalry stopped at musket range, at {g.map.label(end)}"
    assert d == 1


def test_cavalry_out_of_reach_waits_beyond_musket_range():
    # 8 hexes away with 6 MP: it could reach range 2, but not contact
    g = game([U("c", "sweden", "sw-cav", "0509"), U("i", "russia", "ru-inf", "0501")], height=12)
    o = _best(g)
    end = tuple(o["path"][-1]) if o.kind == "move" else g.map.parse("0509")
    assert hex_distance(end, g.map.parse("0501")) == 3


def test_melee_prefers_the_division_one_loss_from_routing():
    # R10.2: armies rout by divisions, so the same odds against a brittle division are worth more
    units = [U("s", "sweden", "sw-inf", "0505"),
             U("a", "russia", "ru-inf", "0404", strength=1, division="ru"),
             U("b", "russia", "ru-inf", "0604", strength=1, division="ru2")]
    divisions = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 99), ("ru2", "russia", 1),
                 ("ru3", "russia", 99)]
    g = to_phase(game(units, divisions=divisions), "melee")
    o = _best(g)
    assert o.kind == "attack"
    assert list(o["hexes"]) == [H(g, "0604")]
    # and with the brittle division on the other side, the choice follows it
    divisions = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 1), ("ru2", "russia", 99),
                 ("ru3", "russia", 99)]
    g = to_phase(game(units, divisions=divisions), "melee")
    assert list(_best(g)["hexes"]) == [H(g, "0404")]
