"""R7 / A22 line of sight: the scaled-integer geometry gives exactly what exact fractions give."""

from fractions import Fraction

from hexwar.engine.hexgrid import Hex, hex_distance, hex_line_pair, hex_neighbors, hex_spiral
from hexwar.engine.rulesets.poltava import board


def _cube(h):
    return h[0], h[1], -h[0] - h[1]


def _fraction_interval(a, b, cells):
    """The segment's t-interval inside every cell, worked with Fractions (the reference)."""
    ca, cb = _cube(a), _cube(b)
    lo, hi = Fraction(0), Fraction(1)
    for c in cells:
        cc = _cube(c)
        for i, j in ((0, 1), (1, 2), (2, 0)):
            f0 = (ca[i] - ca[j]) - (cc[i] - cc[j])
            f1 = (cb[i] - cb[j]) - (ca[i] - ca[j])
            if f1 == 0:
                if abs(f0) > 1:
                    return None
                continue
            t1, t2 = sorted((Fraction(-1 - f0, f1), Fraction(1 - f0, f1)))
            lo, hi = max(lo, t1), min(hi, t2)
            if lo > hi:
                return None
    return lo, hi


def _reference_touches(a, b):
    near = {n for line in hex_line_pair(a, b) for h in line for n in hex_spiral(h, 1)}
    cells = sorted(h for h in near if _fraction_interval(a, b, (h,)) is not None)
    inside = set(cells)
    sides = tuple((h, n) for h in cells for n in hex_neighbors(h)
                  if n in inside and h < n and a not in (h, n) and b not in (h, n)
                  and _fraction_interval(a, b, (h, n)) is not None)
    return tuple(h for h in cells if h not in (a, b)), sides


def test_R7_A22_sight_touches_equals_the_exact_fraction_geometry():
    """Every firer-target pair out to range 7 from two origins: the same hexes and hexsides,
    vertex touches included, as the Fraction computation the rule was first written with."""
    board._SIGHT.clear()
    checked = vertex_only = 0
    for a in (Hex(0, 0), Hex(3, -5)):
        for b in hex_spiral(a, 7):
            if b == a:
                continue
            want = _reference_touches(a, b)
            assert board.sight_touches(a, b) == want, (a, b)
            checked += 1
            nudged = {h for line in hex_line_pair(a, b) for h in line[1:-1]}
            vertex_only += bool(set(want[0]) - nudged)
    assert checked == 2 * 168
    assert vertex_only > 0  # the vertex-only touches of A22 were among the pairs compared
    assert hex_distance(Hex(0, 0), Hex(3, -5)) == 5
