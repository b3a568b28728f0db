"""The text map of ``hexwar describe --map``: outlines, hexside features, roads, legend."""

import pytest

from hexwar.engine.hexgrid import DIRECTION_NAMES, hex_neighbor, hexside
from hexwar.scenarios.loader import builtin_paths, load_scenario, parse_scenario
from hexwar.textmap import Layout, choose_glyphs, render_map, wants_labels

LAYOUTS = [(o, p) for o in ("flat", "pointy") for p in ("odd", "even")]
SHIPPED = [load_scenario(p) for p in builtin_paths()]


def scenario(orientation="flat", parity="odd", width=4, height=3, extra="", units=""):
    """A small poltava-ruleset scenario (it knows streams, retrenchments and roads)."""
    rows = "\n".join(f'  "{" ".join("." * width)}",' for _ in range(height))
    return parse_scenario(f'''{"" if units else "units = []"}
[scenario]
id = "test"
title = "Test"
ruleset = "poltava"
turns = 1

[map]
width = {width}
height = {height}
orientation = "{orientation}"
parity = "{parity}"
legend = {{ "." = "open", "W" = "woods" }}
rows = [
{rows}
]
{extra}

[[sides]]
id = "sweden"
[[sides]]
id = "russia"
{units}
''', "test.toml")


def lines_of(s, labelled):
    """The rendered map, padded so any (line, column) can be read, and its layout."""
    lay = Layout(s.map, labelled)
    text = render_map(s, labelled=labelled)
    lines = text.splitlines()
    return [ln.ljust(lay.width + 10) for ln in lines], lay, text


def edge_text(lines, lay, h, d):
    cells, plain = lay.edge(h, d)
    return "".join(lines[a][b] for a, b in cells), plain


@pytest.mark.parametrize("labelled", [False, True])
@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_a_neighbour_in_direction_d_shares_the_edge_drawn_for_d(orientation, parity, labelled):
    s = scenario(orientation, parity, width=5, height=4)
    m, lay = s.map, Layout(s.map, labelled)
    for h in m.hexes:
        mine = [set(lay.edge(h, d)[0]) for d in range(6)]
        assert sum(len(c) for c in mine) == len(set().union(*mine))      # six separate edges
        for d in range(6):
            n = hex_neighbor(h, d)
            if n in m:
                assert mine[d] == set(lay.edge(n, d + 3)[0])
                # and the neighbour is drawn where the engine's compass name says
                name = DIRECTION_NAMES[orientation][d]
                (hl, hc), (nl, nc) = lay.main_cell(h), lay.main_cell(n)
                assert ("N" in name) == (nl < hl) and ("S" in name) == (nl > hl)
                assert ("E" in name) == (nc > hc) and ("W" in name) == (nc < hc)


@pytest.mark.parametrize("labelled", [False, True])
@pytest.mark.parametrize("orientation,parity", LAYOUTS)
@pytest.mark.parametrize("d", range(6))
def test_a_stream_is_drawn_on_its_one_edge_and_nowhere_else(orientation, parity, d, labelled):
    blank = scenario(orientation, parity).map
    a = blank.parse("0202")
    b = hex_neighbor(a, d)
    s = scenario(orientation, parity, extra=f'''
[[map.hexsides]]
feature = "stream"
between = [["{blank.label(a)}", "{blank.label(b)}"]]''')
    lines, lay, text = lines_of(s, labelled)
    assert choose_glyphs(s).hexsides == {"stream": "~"}
    stream = hexside(a, d)
    for h in s.map.hexes:
        for e in range(6):
            drawn, plain = edge_text(lines, lay, h, e)
            if hexside(h, e) == stream:
                assert set(drawn) == {"~"}
            else:
                assert set(drawn) == {plain}, (s.map.label(h), e)
    map_part = "\n".join(lines[:lay.height])
    assert map_part.count("~") == len(lay.edge(a, d)[0])
    assert "~ stream" in text


def test_two_features_on_one_edge_alternate_along_it():
    s = scenario(extra='''
[[map.hexsides]]
feature = "stream"
between = [["0202", "0203"]]
[[map.hexsides]]
feature = "retrenchment"
between = [["0202", "0203"]]''')
    lines, lay, _ = lines_of(s, False)
    a = s.map.parse("0202")
    drawn, _ = edge_text(lines, lay, a, 5)                              # flat: 5 is S
    assert set(drawn) == {"~", "#"} and len(drawn) == 4


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_road_hexes_show_the_road_mark_and_others_do_not(orientation):
    s = scenario(orientation, extra='roads = [["0102", "0202", "0302"]]')
    lines, lay, text = lines_of(s, False)
    road = {s.map.parse(x) for x in ("0102", "0202", "0302")}
    for h in s.map.hexes:
        line, col = lay.main_cell(h)
        assert lines[line][col + 1] == ("+" if h in road else " ")
    assert "+ a road" in text


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_terrain_and_the_side_of_a_starting_unit_are_inside_the_hex(orientation):
    s = scenario(orientation, extra="", units='''
[[units]]
id = "gun"
side = "russia"
kind = "art"
hex = "0302"''')
    lines, lay, text = lines_of(s, True)
    line, col = lay.main_cell(s.map.parse("0302"))
    assert lines[line][col:col + 3] == ". R"
    assert "R russia" in text and ". open" in text


@pytest.mark.parametrize("labelled", [False, True])
@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_every_hex_appears_once(orientation, parity, labelled):
    s = scenario(orientation, parity, width=6, height=5)
    lines, lay, text = lines_of(s, labelled)
    mains = [lay.main_cell(h) for h in s.map.hexes]
    assert len(set(mains)) == len(s.map.hexes) == 30
    assert all(lines[a][b] == "." for a, b in mains)
    assert "\n".join(lines[:lay.height]).count(".") == 30
    if labelled:
        for h in s.map.hexes:
            assert text.count(s.map.label(h)) == 1
    else:
        assert "0101" not in text


def test_rulers_name_columns_and_rows():
    s = scenario("flat", width=12, height=10)
    lines, lay, _ = lines_of(s, False)
    h = s.map.parse("1107")
    line, col = lay.main_cell(h)
    assert lines[line].startswith("07") and lines[line].rstrip().endswith(" 07")
    assert lines[0][col:col + 2] == "11" and lines[lay.height][col:col + 2] == "11"


def test_big_maps_get_small_hexes_and_small_maps_their_labels():
    assert wants_labels(scenario(width=12).map)
    assert not wants_labels(scenario(width=32).map)


def test_glyphs_never_mean_two_things():
    s = next(x for x in SHIPPED if x.id == "poltava-1")
    g = choose_glyphs(s)
    used = [*g.terrain.values(), *g.hexsides.values(), *g.sides.values(), g.road]
    assert len({c.lower() for c in used}) == len(used)                  # not even W and w
    assert g.hexsides["stream"] == "~" and g.hexsides["retrenchment"] == "#"
    assert g.terrain["open"] == "." and g.terrain["woods"] == "&"
    # issue 12: river hexes and redoubts, and the redoubt line and Russian counters, differ
    assert g.terrain["river"] != g.terrain["redoubt"]
    assert g.hexsides["redoubt_line"] not in g.sides.values()
    assert not any(c.isalpha() for c in g.terrain.values())             # never a first letter


@pytest.mark.parametrize("s", SHIPPED, ids=[x.id for x in SHIPPED])
def test_shipped_scenarios_render_and_the_legend_lists_every_glyph_used(s):
    text = render_map(s)
    assert text.isascii()
    assert all(ln == ln.rstrip() for ln in text.splitlines())
    lay = Layout(s.map, wants_labels(s.map))
    lines = [ln.ljust(lay.width + 10) for ln in text.splitlines()]
    legend = "\n".join(lines[lay.height + 1:])
    g = choose_glyphs(s)
    terrain_seen = {lines[a][b] for a, b in map(lay.main_cell, s.map.hexes)}
    edges_seen = {lines[a][b] for h in s.map.hexes for d in range(6) for a, b in lay.edge(h, d)[0]}
    assert terrain_seen == set(g.terrain.values())
    assert edges_seen - set("_/\\|") == set(g.hexsides.values())
    for name, c in [*g.terrain.items(), *g.hexsides.items()]:
        assert f"{c} {name.replace('_', ' ')}" in legend
    assert ("+ a road" in legend) == bool(s.map.roads)
    m = s.map
    for feature, c in g.hexsides.items():                # each feature is on its own edges
        for side, feats in m.hexside_features.items():
            a = side.hex
            drawn, _ = edge_text(lines, lay, a, side.dir)
            assert (c in drawn) == (feature in feats)


def test_poltava_camp_is_closed_by_retrenchment_and_the_river_bank():
    s = next(x for x in SHIPPED if x.id == "poltava-1")
    m = s.map
    lines, lay, _ = lines_of(s, False)
    camp = {h for h in m.hexes if m.terrain_at(h) in ("camp", "battery")}
    assert camp
    for h in camp:
        for d, n in m.neighbors(h):
            if n not in camp:
                drawn, _ = edge_text(lines, lay, h, d)
                assert set(drawn) == ({"X"} if m.terrain_at(n) == "river" else {"#"})

