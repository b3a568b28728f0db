"""Hex geometry: neighbours, distance, rings, lines, hexsides, offset labels."""

import pytest
from hypothesis import given, strategies as st

from hexwar.engine.hexgrid import (
    DIRECTIONS, Hex, axial_to_offset, hex_direction_to, hex_distance, hex_line_pair, hex_linedraw,
    hex_neighbor, hex_neighbors, hex_ring, hex_spiral, hexside, hexside_between, hexside_hexes,
    offset_label, offset_to_axial, parse_offset_label,
)

coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)
layouts = st.sampled_from([("flat", "odd"), ("flat", "even"), ("pointy", "odd"), ("pointy", "even")])


def test_directions_follow_the_spec_order():
    # portable-wargame.md 1.6.2: 0=E(+1,0) 1=NE(+1,-1) 2=NW(0,-1) 3=W(-1,0) 4=SW(-1,+1) 5=SE(0,+1)
    assert DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def test_neighbors_are_at_distance_one_and_opposites_cancel():
    h = Hex(3, -2)
    assert all(hex_distance(h, n) == 1 for n in hex_neighbors(h))
    for d in range(6):
        assert hex_neighbor(hex_neighbor(h, d), d + 3) == h
        assert hex_direction_to(h, hex_neighbor(h, d)) == d
    assert hex_direction_to(h, Hex(10, 10)) is None


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert hex_distance(a, b) == hex_distance(b, a)
    assert (hex_distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a, b, c):
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes, st.integers(0, 6))
def test_ring_has_6k_hexes_at_distance_k(center, k):
    ring = hex_ring(center, k)
    assert len(ring) == (1 if k == 0 else 6 * k)
    assert len(set(ring)) == len(ring)
    assert all(hex_distance(center, h) == k for h in ring)
    assert len(hex_spiral(center, k)) == 1 + 3 * k * (k + 1)


@given(hexes, layouts)
def test_offset_round_trip(h, layout):
    col, row = axial_to_offset(h, *layout)
    assert offset_to_axial(col, row, *layout) == h


@given(st.integers(0, 98), st.integers(0, 98))
def test_label_round_trip(col, row):
    assert parse_offset_label(offset_label(col, row)) == (col, row)


def test_label_is_1_based_column_then_row():
    assert offset_label(2, 3) == "0304"
    assert parse_offset_label("1208") == (11, 7)
    for bad in ("304", "03a4", "0004", ""):
        try:
            parse_offset_label(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")


def test_offset_parity_shifts_the_right_rows():
    # odd-r: row 1 is shifted right, so its first hex's axial q is one less than row 0's offset.
    assert offset_to_axial(0, 1, "pointy", "odd") == Hex(0, 1)
    assert offset_to_axial(0, 1, "pointy", "even") == Hex(-1, 1)
    assert offset_to_axial(1, 0, "flat", "odd") == Hex(1, 0)
    assert offset_to_axial(1, 0, "flat", "even") == Hex(1, -1)


@given(hexes, hexes)
def test_lines_are_connected_and_have_distance_plus_one_hexes(a, b):
    n = hex_distance(a, b)
    for path in hex_line_pair(a, b):
        assert len(path) == n + 1
        assert path[0] == a and path[-1] == b
        assert all(hex_distance(p, q) == 1 for p, q in zip(path, path[1:]))


@given(hexes, hexes)
def test_line_symmetry(a, b):
    plus_ab, minus_ab = hex_line_pair(a, b)
    plus_ba, minus_ba = hex_line_pair(b, a)
    assert plus_ab == plus_ba[::-1]
    assert minus_ab == minus_ba[::-1]


def test_line_along_an_edge_splits_into_both_neighbours():
    # From (0,0) to (1,1) [cube (1,-2,1)] the line runs exactly along the edge between
    # (1,0) and (0,1): the two nudged paths take one each.
    plus, minus = hex_line_pair(Hex(0, 0), Hex(1, 1))
    assert {plus[1], minus[1]} == {Hex(1, 0), Hex(0, 1)}


def test_line_through_hex_centres_is_unambiguous():
    plus, minus = hex_line_pair(Hex(0, 0), Hex(3, 0))
    assert plus == minus == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert hex_linedraw(Hex(0, 0), Hex(3, 0)) == plus


@given(hexes, st.integers(0, 5))
def test_hexside_is_the_same_seen_from_both_hexes(h, d):
    n = hex_neighbor(h, d)
    assert hexside(h, d) == hexside(n, d + 3)
    assert hexside_between(h, n) == hexside_between(n, h)
    assert set(hexside_hexes(hexside(h, d))) == {h, n}
    assert 0 <= hexside(h, d).dir < 3


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("parity", ["odd", "even"])
def test_a_maps_neighbours_are_its_own_hexes_at_each_direction(orientation, parity):
    """The shared map geometry (``hexmap._geometry``) lists, for each hex, every on-map neighbour
    with its direction, in direction order, and each neighbour is the map's own ``Hex``."""
    from hexwar.engine.hexmap import _GEOMETRY, _geometry

    _GEOMETRY.clear()
    hexes, index, neigh = _geometry(7, 5, orientation, parity)
    assert hexes == tuple(offset_to_axial(c, r, orientation, parity) for r in range(5) for c in range(7))
    own = {h: h for h in hexes}
    for h in hexes:
        want = tuple((d, hex_neighbor(h, d)) for d in range(6) if hex_neighbor(h, d) in index)
        assert neigh[h] == want
        assert all(type(n) is Hex and n is own[n] for _, n in neigh[h])
