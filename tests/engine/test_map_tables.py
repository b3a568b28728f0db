"""Tables the map and Poltava's board derive from the map once, checked against the plain
definitions they replace: every hex pair of every built-in map, so a table that drifts fails."""

from hexwar.engine.hexgrid import Hex, Hexside, hex_neighbors, hex_spiral, hexside_between
from hexwar.engine.hexmap import HexMap
from hexwar.engine.rulesets.poltava import board
from hexwar.scenarios.loader import builtin_paths, find_scenario, load_scenario


def _by_definition(m: HexMap, a, b) -> frozenset:
    side = hexside_between(a, b)
    return frozenset() if side is None else m.hexside_features.get(side, frozenset())


def test_features_between_matches_the_hexside_lookup_on_every_builtin_map():
    checked = 0
    for path in builtin_paths():
        m = load_scenario(path).map
        for h in m.hexes:
            for n in hex_neighbors(h):
                assert m.features_between(h, n) == _by_definition(m, h, n), (path.name, h, n)
                checked += 1
            far = Hex(h[0] + 2, h[1] - 1)
            assert m.features_between(h, far) == frozenset()
            assert m.features_between(h, h) == frozenset()
    assert checked > 10_000


def test_features_between_both_ways_and_only_for_canonical_hexsides():
    a = Hex(2, 2)
    b = Hex(3, 2)  # direction 0 from a
    m = HexMap(width=6, height=6, hexside_features={
        Hexside(a, 0): frozenset({"stream"}),
        # written from the other side (direction 3): no hexside_between ever names it
        Hexside(Hex(2, 3), 3): frozenset({"wall"}),
    })
    assert m.features_between(a, b) == frozenset({"stream"})
    assert m.features_between(b, a) == frozenset({"stream"})
    assert m.features_between(Hex(2, 3), Hex(1, 3)) == _by_definition(m, Hex(2, 3), Hex(1, 3)) == frozenset()
    assert m.features_between((2, 2), (3, 2)) == frozenset({"stream"})  # plain pairs too


def test_poltava_zoc_out_and_within2_match_their_definitions():
    # Part 5: a ZOC extends into each neighbour it crosses into; R4.8: within 2 hexes
    m = load_scenario(find_scenario("poltava-2")).map
    for h in m.hexes[::7]:
        for mounted in (False, True):
            for banned in (False, True):
                want = tuple(n for n in hex_neighbors(h) if board._zoc_crosses(m, h, n, mounted, banned))
                got = board.zoc_out(m, h, mounted, banned)
                assert got == want and all(type(n) is Hex for n in got)
        near = board.within2(h)
        assert near == tuple(Hex(h[0] + d[0], h[1] + d[1]) for d in hex_spiral(Hex(0, 0), 2))
        assert all(type(n) is Hex for n in near)


def test_map_geometry_matches_offset_to_axial_and_hex_neighbors_in_every_layout():
    from hexwar.engine.hexgrid import DIRECTIONS, offset_to_axial
    from hexwar.engine.hexmap import _GEOMETRY
    for orientation in ("flat", "pointy"):
        for parity in ("odd", "even"):
            _GEOMETRY.clear()
            m = HexMap(width=7, height=5, orientation=orientation, parity=parity)
            want = tuple(offset_to_axial(c, r, orientation, parity) for r in range(5) for c in range(7))
            assert m.hexes == want and all(type(h) is Hex for h in m.hexes)
            for h in m.hexes:
                got = m.neighbors(h)
                assert got == tuple((d, n) for d, n in enumerate(hex_neighbors(h)) if n in m)
                assert all(type(n) is Hex for _, n in got) and len(DIRECTIONS) == 6


def test_kept_labels_match_offset_label_on_every_builtin_map():
    """``HexMap.label`` keeps what it worked out: asked twice, as a Hex, a plain pair or a list,
    every hex of every built-in map reads as ``offset_label`` of its offset; off-map hexes are
    named but never kept."""
    from hexwar.engine.hexgrid import axial_to_offset, offset_label
    for path in builtin_paths():
        m = load_scenario(path).map
        for h in m.hexes:
            col, row = axial_to_offset(h, m.orientation, m.parity)
            want = offset_label(col, row, m.label_width)
            assert m.label(h) == m.label(tuple(h)) == m.label(list(h)) == m.label(h) == want
            assert m.parse(want) == h
        off = Hex(-5, -5)
        col, row = axial_to_offset(off, m.orientation, m.parity)
        assert m.label(off) == offset_label(col, row, m.label_width)
        assert off not in m.__dict__["_label_of"] and len(m.__dict__["_label_of"]) == len(m.hexes)


def test_poltava_hx_builds_the_hex_its_definition_does():
    """``board.hx`` makes its Hex without calling ``Hex.__new__``: the same value, of type Hex,
    from a pair, a list, a Hex, a longer tuple (extra items ignored) and int-like items."""
    for v in [(3, -2), [3, -2], Hex(3, -2), (3, -2, 9), (True, 0), ("4", "-1"), (0, 0)]:
        got = board.hx(v)
        want = Hex(int(v[0]), int(v[1]))
        assert got == want and type(got) is Hex and got.q == want.q and got.r == want.r
        assert type(got.q) is int and type(got.r) is int and hash(got) == hash(want)
