"""How a formation change lays out the new formation (spec 9.7 items 1-4, 21.5, G-43).

Every expected hex is worked out by hand from the spec, with hexgrid directions
0 E (+1, 0), 1 NE (+1, -1), 2 NW (0, -1), 3 W (-1, 0), 4 SW (-1, +1), 5 SE (0, +1).
Facing 12 o'clock (NORTH = 1): right flank RF = E, rear-left RL = SW, rear-right RR = SE.
A line runs east from its left end; a column goes H, H+SW, H+SW+SE, H+2SW+SE behind its head;
a square of four is {P, P+SW, P+SE, P+SW+SE} from its pivot P.
"""

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.napoleonica import actors as AC
from hexwar.engine.rulesets.napoleonica import board as B

from napo_helpers import NORTH, SOUTH, game, play, unit


def label(q, r):
    """The map label of axial (q, r) on the helpers' odd-row pointy maps."""
    return f"{q + (r - (r & 1)) // 2 + 1:02d}{r + 1:02d}"


def offset_col(q, r):
    return q + (r - (r & 1)) // 2


def forms(g, uid, formation, facing):
    """The anchors (None = the unit's own hex) of the legal form orders into formation/facing."""
    return sorted(((o.get("at") or ()) for o in g.legal_orders()
                   if o.kind == "form" and o["unit"] == uid and o["formation"] == formation
                   and o["facing"] == facing))


def computer_forms(g, uid):
    """The form orders the computer considers for the unit: (formation, facing) -> anchor."""
    u = unit(g, uid)
    out = {}
    for o in AC.movement_orders(g.map, B.View(g.state), u, preferred_only=True):
        if o.kind == "form":
            assert (o["formation"], o["facing"]) not in out      # one layout per change
            out[(o["formation"], o["facing"])] = o.get("at")
    return out


def line_of_four():
    # left end (2, 5) facing 12: stands (2, 5), (3, 5), (4, 5), (5, 5)
    return game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 5), formation="line")])


# --- item 4: line -> column -------------------------------------------------------------------
def test_s9_7_item4_any_stand_of_the_line_may_become_the_head():
    g = line_of_four()
    assert B.stand_hexes(unit(g, "l")) == (Hex(2, 5), Hex(3, 5), Hex(4, 5), Hex(5, 5))
    # no anchor named = the left end, as before; the other three stands by name
    assert forms(g, "l", "column", NORTH) == [(), (3, 5), (4, 5), (5, 5)]
    why = g.validate(Order.make("form", unit="l", formation="column", facing=NORTH, at=(3, 4)))
    assert why and "one stand of the line becomes the head" in why and "9.7" in why
    assert f"from {g.map.label(Hex(3, 4))}:" in why           # the hex by its map label


def test_s9_7_item4_a_central_stand_becomes_the_head_and_the_others_go_behind_it():
    g = line_of_four()
    play(g, "form", unit="l", formation="column", facing=NORTH, at=(3, 5))
    c = unit(g, "l")
    # head (3, 5); then SW (2, 6), SE (2, 7), SW (1, 8)
    assert B.stand_hexes(c) == (Hex(3, 5), Hex(2, 6), Hex(2, 7), Hex(1, 8))
    assert (c.hex, c.facing, B.formation(c)) == (Hex(3, 5), NORTH, "column")


def test_s9_7_item4_an_order_naming_no_stand_keeps_the_left_end_as_head():
    # what a form order without an anchor meant before the choice existed (old journals)
    g = line_of_four()
    play(g, "form", unit="l", formation="column", facing=NORTH)
    assert B.stand_hexes(unit(g, "l")) == (Hex(2, 5), Hex(1, 6), Hex(1, 7), Hex(0, 8))


def test_s9_7_item4_the_computer_takes_a_central_stand():
    g = line_of_four()
    # four stands: the two central ones are (3, 5) and (4, 5); the computer takes the first
    assert computer_forms(g, "l")[("column", NORTH)] == (3, 5)
    # a line of three has one central stand: (3, 5) of (2, 5), (3, 5), (4, 5)
    g3 = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 5), formation="line", strength=3)])
    assert computer_forms(g3, "l")[("column", NORTH)] == (3, 5)


def test_s9_7_item4_if_the_central_column_does_not_fit_the_computer_takes_the_next_stand():
    # a line of three (2, 5), (3, 5), (4, 5); a lake at (2, 6), behind the central stand's
    # head: head (3, 5) would need (2, 6), (2, 7). The next in preference is the left end,
    # (2, 5): column (2, 5), (1, 6), (1, 7), clear
    rows = ["." * 12] * 11
    c = offset_col(2, 6)
    rows[6] = "." * c + "L" + "." * (11 - c)
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 5), formation="line", strength=3)],
             rows=rows)
    assert g.map.terrain_at(Hex(2, 6)) == "lake"
    assert (3, 5) not in forms(g, "l", "column", NORTH)
    assert computer_forms(g, "l")[("column", NORTH)] is None      # the unit's own hex, (2, 5)
    play(g, "form", unit="l", formation="column", facing=NORTH)
    assert B.stand_hexes(unit(g, "l")) == (Hex(2, 5), Hex(1, 6), Hex(1, 7))


# --- item 3: column -> line -------------------------------------------------------------------
def column_of_four():
    # head (4, 5) facing 12: (4, 5), (3, 6), (3, 7), (2, 8)
    return game([dict(id="c", side="blue", kind="INF_LINE", hex=label(4, 5), formation="column")])


def test_s9_7_item3_the_head_stays_and_the_others_line_up_on_either_side():
    g = column_of_four()
    assert B.stand_hexes(unit(g, "c")) == (Hex(4, 5), Hex(3, 6), Hex(3, 7), Hex(2, 8))
    # the new line's left end is the head or 1, 2, 3 hexes west of it, so the head is in it
    assert forms(g, "c", "line", NORTH) == [(), (1, 5), (2, 5), (3, 5)]
    play(g, "form", unit="c", formation="line", facing=NORTH, at=(1, 5))
    line = unit(g, "c")
    # the others to the head's left: (1, 5), (2, 5), (3, 5) and the head still in (4, 5)
    assert B.stand_hexes(line) == (Hex(1, 5), Hex(2, 5), Hex(3, 5), Hex(4, 5))


def test_s9_7_item3_no_anchor_named_lines_up_to_the_heads_right():
    g = column_of_four()
    play(g, "form", unit="c", formation="line", facing=NORTH)
    assert B.stand_hexes(unit(g, "c")) == (Hex(4, 5), Hex(5, 5), Hex(6, 5), Hex(7, 5))


def test_s9_7_item3_a_line_that_leaves_the_heads_hex_is_refused():
    g = column_of_four()
    why = g.validate(Order.make("form", unit="c", formation="line", facing=NORTH, at=(5, 5)))
    assert why and "the head keeps its hex" in why


def test_s9_7_item3_turning_about_the_line_runs_the_other_way_from_the_head():
    # facing 6 o'clock (SOUTH = 4): RF = W, so the left end is the head or east of it
    g = column_of_four()
    assert forms(g, "c", "line", SOUTH) == [(), (5, 5), (6, 5), (7, 5)]
    play(g, "form", unit="c", formation="line", facing=SOUTH, at=(6, 5))
    assert B.stand_hexes(unit(g, "c")) == (Hex(6, 5), Hex(5, 5), Hex(4, 5), Hex(3, 5))


# --- item 1: forming square -------------------------------------------------------------------
def test_s9_7_item1_from_line_a_central_stand_faces_the_enemy_and_the_square_grows_rearward():
    g = line_of_four()
    assert forms(g, "l", "square", NORTH) == [(), (3, 5), (4, 5), (5, 5)]
    assert computer_forms(g, "l")[("square", NORTH)] == (3, 5)
    play(g, "form", unit="l", formation="square", facing=NORTH, at=(3, 5))
    # pivot (3, 5), (3, 5)+SW = (2, 6), (3, 5)+SE = (3, 6), (2, 6)+SE = (2, 7)
    assert B.stand_hexes(unit(g, "l")) == (Hex(3, 5), Hex(2, 6), Hex(3, 6), Hex(2, 7))


def test_s9_7_item1_from_column_the_head_faces_the_enemy():
    g = column_of_four()
    assert forms(g, "c", "square", NORTH) == [()]
    why = g.validate(Order.make("form", unit="c", formation="square", facing=NORTH, at=(3, 6)))
    assert why and "may not be laid out" in why
    play(g, "form", unit="c", formation="square", facing=NORTH)
    assert B.stand_hexes(unit(g, "c")) == (Hex(4, 5), Hex(3, 6), Hex(4, 6), Hex(3, 7))


# --- item 2: leaving square (G-43: any facing) --------------------------------------------------
def square_of_four():
    # pivot (4, 5) facing 12: (4, 5), (3, 6), (4, 6), (3, 7)
    return game([dict(id="s", side="blue", kind="INF_LINE", hex=label(4, 5), formation="square")])


def test_s9_7_item2_a_stand_of_the_square_joins_the_new_lines_front_rank():
    g = square_of_four()
    stands = B.stand_hexes(unit(g, "s"))
    assert stands == (Hex(4, 5), Hex(3, 6), Hex(4, 6), Hex(3, 7))
    # the rearmost stand (3, 7) as the right end of a line facing 12: (0, 7) .. (3, 7)
    play(g, "form", unit="s", formation="line", facing=NORTH, at=(0, 7))
    assert B.stand_hexes(unit(g, "s")) == (Hex(0, 7), Hex(1, 7), Hex(2, 7), Hex(3, 7))


def test_s9_7_item2_every_new_line_holds_one_of_the_squares_stands():
    g = square_of_four()
    stands = set(B.stand_hexes(unit(g, "s")))
    for f in range(6):           # G-43: leaving square may take any facing
        for at in forms(g, "s", "line", f):
            anchor = Hex(*at) if at else Hex(4, 5)
            new = B.layout_of(unit(g, "s"), anchor, f, "line")
            assert stands & set(new), (f, at)
    why = g.validate(Order.make("form", unit="s", formation="line", facing=NORTH, at=(6, 2)))
    assert why and "joins the new front rank" in why


def test_s9_7_item2_a_column_leaving_square_takes_its_head_from_the_square():
    # facing 6 o'clock (RL = NE, RR = NW) with the head on the stand (3, 7):
    # (3, 7), (4, 6), (4, 5), (5, 4) -- the column grows over the square's own hexes
    g = square_of_four()
    assert forms(g, "s", "column", SOUTH) == [(), (3, 6), (3, 7), (4, 6)]
    play(g, "form", unit="s", formation="column", facing=SOUTH, at=(3, 7))
    assert B.stand_hexes(unit(g, "s")) == (Hex(3, 7), Hex(4, 6), Hex(4, 5), Hex(5, 4))


def test_s9_7_the_order_words_name_the_chosen_stand():
    g = line_of_four()
    o = Order.make("form", unit="l", formation="column", facing=NORTH, at=(3, 5))
    said = g.ruleset.order_words(g, o)
    assert said.startswith("form ") and "column" in said and "head at " + g.map.label(Hex(3, 5)) in said
    plain = g.ruleset.order_words(g, Order.make("form", unit="l", formation="column", facing=NORTH))
    assert plain == f"form {unit(g, 'l').name} into column, facing 12 o'clock"


# --- 9.8: about-face in place ---------------------------------------------------------------------
def test_s9_8_an_about_face_leaves_the_line_in_its_hexes():
    # 9.8: the about-face is done in place, only the front turns 180 degrees. The line of four
    # (2, 5)..(5, 5) facing 12 faces 6 afterwards; facing 6 its right flank is W, so its new
    # left end is the old right end (5, 5) and it runs (5, 5), (4, 5), (3, 5), (2, 5).
    g = line_of_four()
    assert forms(g, "l", "line", SOUTH) == [(5, 5)]          # only the in-place layout is legal
    why = g.validate(Order.make("form", unit="l", formation="line", facing=SOUTH))
    assert why and "in place" in why and g.map.label(Hex(5, 5)) in why and "9.8" in why
    assert computer_forms(g, "l")[("line", SOUTH)] == (5, 5)
    play(g, "form", unit="l", formation="line", facing=SOUTH, at=(5, 5))
    u = unit(g, "l")
    assert u.facing == SOUTH
    assert B.stand_hexes(u) == (Hex(5, 5), Hex(4, 5), Hex(3, 5), Hex(2, 5))


def test_s9_8_an_about_face_leaves_a_column_of_three_in_its_hexes():
    # a column of three headed at (5, 5) facing 12 stands at H, H+SW, H+SW+SE = (5, 5), (4, 6),
    # (4, 7). Turned to 6 o'clock in place, the tail (4, 7) is the new head, and the zigzag
    # behind it must cover the same three hexes (in its mirrored variant here).
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex=label(5, 5), formation="column", strength=3)])
    before = B.stand_hexes(unit(g, "c"))
    assert before == (Hex(5, 5), Hex(4, 6), Hex(4, 7))
    assert forms(g, "c", "column", SOUTH) == [(4, 7)]
    play(g, "form", unit="c", formation="column", facing=SOUTH, at=(4, 7))
    u = unit(g, "c")
    assert u.facing == SOUTH and u.hex == Hex(4, 7) and set(B.stand_hexes(u)) == set(before)
