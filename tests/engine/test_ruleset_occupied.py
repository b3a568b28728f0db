"""The Ruleset's occupied_hexes default: a unit stands in its one hex, or nowhere off the map."""

from hexwar.engine import Game
from hexwar.scenarios.loader import load_named


def test_default_occupied_hexes_is_the_units_one_hex():
    g = Game(load_named("border-clash"))
    uid = sorted(g.state.units)[0]
    u = g.state.units[uid]
    assert g.ruleset.occupied_hexes(g, uid) == (u.hex,)
    u.hex = None
    assert g.ruleset.occupied_hexes(g, uid) == ()
    assert g.ruleset.occupied_hexes(g, "no-such-unit") == ()
