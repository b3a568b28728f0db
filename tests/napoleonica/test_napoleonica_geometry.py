"""Facings, zones and sight (spec 5.6, 21.4, 21.6, 21.7): exact integer geometry."""

import math

import pytest

from hexwar.engine.hexgrid import Hex, hex_neighbor
from hexwar.engine.rulesets.napoleonica import geometry as G
from hexwar.engine.rulesets.napoleonica.geometry import (flank_dirs, front_dirs, rear_dirs, side_of,
                                                          zone_of_point, zone_touches)

NORTH = 1
DIRS = {"E": 0, "NE": 1, "NW": 2, "W": 3, "SW": 4, "SE": 5}


def test_s21_4_facing_roles_match_the_f12_example():
    # Spec 21.4 table, F = 12: FL = NW, FR = NE, LF = W, RF = E, RL = SW, RR = SE.
    fr, fl = front_dirs(NORTH)
    lf, rf = flank_dirs(NORTH)
    rl, rr = rear_dirs(NORTH)
    assert (fl, fr, lf, rf, rl, rr) == tuple(DIRS[x] for x in ("NW", "NE", "W", "E", "SW", "SE"))


@pytest.mark.parametrize("f", range(6))
def test_s21_4_each_stand_has_two_front_one_flank_each_side_and_two_rear_hexsides(f):
    sides = [side_of(f, d) for d in range(6)]
    assert sides.count("front") == 2 and sides.count("flank") == 2 and sides.count("rear") == 2
    # rotating the facing by 60 degrees rotates the roles with it
    assert [side_of((f + 1) % 6, (d + 1) % 6) for d in range(6)] == sides


def test_s5_6_square_and_disordered_units_have_only_a_front():
    assert all(side_of(None, d) == "front" for d in range(6))
    assert zone_of_point([Hex(0, 0)], None, G.centre(Hex(0, 3))) == "front"


def test_s5_6_neighbours_of_a_stand_facing_north_by_zone():
    me = Hex(0, 0)
    zone = {name: zone_of_point([me], NORTH, G.centre(hex_neighbor(me, d))) for name, d in DIRS.items()}
    assert zone == {"NE": "front", "NW": "front", "E": "flank", "W": "flank", "SW": "rear", "SE": "rear"}


def _float_zone(stands, f, p):
    """Spec 21.6 written with floats, to cross-check the exact version away from the lines."""
    th = math.radians(30 + 60 * f)
    u, r = (math.cos(th), math.sin(th)), (math.sin(th), -math.cos(th))
    h = math.sqrt(3) / 4
    cs = [(q + rr / 2, -math.sqrt(3) / 2 * rr) for q, rr in stands]
    a = [c[0] * r[0] + c[1] * r[1] for c in cs]
    b = [c[0] * u[0] + c[1] * u[1] for c in cs]
    L, R, Fr, Rr = min(a) - 0.5, max(a) + 0.5, max(b) + h, min(b) - h
    ap, bp = p[0] * r[0] + p[1] * r[1], p[0] * u[0] + p[1] * u[1]
    e = max(0.0, L - ap, ap - R)
    if bp >= Fr and e <= bp - Fr:
        return "front", abs(e - (bp - Fr))
    if bp <= Rr and e <= Rr - bp:
        return "rear", abs(e - (Rr - bp))
    return "flank", min(abs(e - (bp - Fr)), abs(e - (Rr - bp)))


@pytest.mark.parametrize("f", range(6))
def test_s21_6_exact_zones_agree_with_the_45_degree_rule(f):
    stands = [(0, 0), (1, 0), (2, 0)] if f in (1, 4) else [(0, 0)]
    checked = 0
    for q in range(-6, 7):
        for r in range(-6, 7):
            if (q, r) in stands:
                continue
            x, yr = G.centre((q, r))
            p = (x / 12, yr / 12 * math.sqrt(3))
            want, margin = _float_zone(stands, f, p)
            if margin < 1e-6:
                continue
            got = zone_of_point(stands, f, G.centre((q, r)))
            assert got == want, (q, r, f)
            checked += 1
    assert checked > 100


def test_s21_6_the_frontal_zone_widens_with_distance():
    # One stand facing north: straight ahead at distance 2 is front, as is the hex beside it,
    # while the east neighbour is flank (the 45-degree line opens outward, G-35).
    me = [Hex(0, 0)]
    assert zone_of_point(me, NORTH, G.centre(Hex(1, -2))) == "front"
    assert zone_of_point(me, NORTH, G.centre(Hex(2, -2))) == "front"
    assert zone_of_point(me, NORTH, G.centre(Hex(2, -1))) == "flank"
    assert zone_of_point(me, NORTH, G.centre(Hex(3, -4))) == "front"


def test_s21_6_a_zone_touches_when_a_vertex_is_inside():
    # The east neighbour's centre is in the flank, but the hex two rows up and to the right has
    # a vertex on the frontal side: touching "any part, however small" counts (7.3 item 3).
    me = [Hex(0, 0)]
    assert not zone_touches(me, NORTH, "front", [Hex(1, 0)])
    assert zone_touches(me, NORTH, "front", [Hex(2, -1)])
    assert zone_touches(me, NORTH, "flank", [Hex(1, 0)])


def test_s21_6_front_middle_is_exact_for_every_facing():
    for f in range(6):
        x8, y8 = G.front_middle([Hex(0, 0)], f)
        th = math.radians(30 + 60 * f)
        want = (math.sqrt(3) / 4 * math.cos(th), math.sqrt(3) / 4 * math.sin(th))
        assert abs(x8 / 96 - want[0]) < 1e-9 and abs(y8 / 96 * math.sqrt(3) - want[1]) < 1e-9


def test_s21_7_sight_is_blocked_even_by_the_edge_of_a_hex():
    # From (0,0) to (2,-1) the segment runs along the hexside between (1,0) and (1,-1):
    # either hex blocks it.
    for blocker in (Hex(1, 0), Hex(1, -1)):
        assert not G.sight_clear(Hex(0, 0), Hex(2, -1), lambda h, b=blocker: h == b)
    assert G.sight_clear(Hex(0, 0), Hex(2, -1), lambda h: h == Hex(0, 1))
    # the end hexes never block
    assert G.sight_clear(Hex(0, 0), Hex(2, -1), lambda h: h in (Hex(0, 0), Hex(2, -1)))
