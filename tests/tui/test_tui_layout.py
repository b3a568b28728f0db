"""The map's geometry and gesture matching, without running the app."""

from __future__ import annotations

import pytest

from hexwar.engine import Game
from hexwar.engine.hexgrid import hexside
from hexwar.tui._hex_layout import build_layout
from hexwar.tui.picking import Legal


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("zoom", [0, 1])
def test_hexes_tile_and_shared_sides_are_drawn_once(orientation, parity, zoom):
    lay = build_layout(6, 5, orientation, parity, zoom)
    interiors: dict = {}
    for row in lay.cells:
        for cell in row:
            if cell is not None and cell.side is None:
                interiors[cell.hex] = interiors.get(cell.hex, 0) + 1
    assert set(interiors) == set(lay.origin)          # every hex has its own interior cells
    assert len(set(interiors.values())) == 1          # ...all the same size
    # A side between two neighbours is stamped with one identity whichever hex drew it.
    sides = {c.side for row in lay.cells for c in row if c is not None and c.side is not None}
    h = next(iter(lay.origin))
    assert all(hexside(h, d) in sides for d in range(6))
    # Hexes are real hexes: alternate rows (pointy) or columns (flat) are offset.
    xs = sorted({x for x, _ in lay.origin.values()})
    ys = sorted({y for _, y in lay.origin.values()})
    if orientation == "pointy":
        assert xs[1] - xs[0] == lay.template.shift
    else:
        assert ys[1] - ys[0] == lay.template.shift


def test_legal_matches_gestures_to_engine_orders(drill_scenario):
    game = Game(drill_scenario)
    legal = Legal(game)
    m = drill_scenario.map
    assert set(legal.actors()) == {"r-inf-1", "r-art-1"}
    [move] = legal.moves_to("r-inf-1", m.parse("0304"))
    assert move.kind == "move" and game.validate(move) is None
    assert legal.moves_to("r-inf-1", m.parse("0403")) == []     # water
    [fire] = legal.at_target("r-art-1", m.parse("0603"))
    assert fire.kind == "fire"
    assert [o.kind for o in legal.phase_enders()] == ["end-phase"]
