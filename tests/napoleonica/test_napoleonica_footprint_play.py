"""Footprints in play (spec 21.5, 21.8, 7.5 item 7, 7.6, 9.7, 22.4, 21.10): every expected hex
below is worked out from the spec's layout and step rules, with hexgrid directions
0 E (+1, 0), 1 NE (+1, -1), 2 NW (0, -1), 3 W (-1, 0), 4 SW (-1, +1), 5 SE (0, +1)."""

import pytest

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import movement as MV
from hexwar.scenarios.loader import ScenarioError

from napo_helpers import NORTH, SOUTH, Script, board, game, play, unit


def label(q, r):
    """The map label of axial (q, r) on the helpers' odd-row pointy maps."""
    return f"{q + (r - (r & 1)) // 2 + 1:02d}{r + 1:02d}"


def shifted(h, dq, dr):
    return Hex(h.q + dq, h.r + dr)


def test_s21_5_a_formed_line_and_column_fill_their_layouts_in_play():
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 8), formation="line"),
              dict(id="c", side="red", kind="INF_LINE", hex=label(6, 3), formation="column")])
    # blue faces 12: RF is E, so the line runs east from its left end
    assert B.stand_hexes(unit(g, "l")) == (Hex(2, 8), Hex(3, 8), Hex(4, 8), Hex(5, 8))
    # red faces 6: RL is NE, RR is NW: H, H+RL, H+RL+RR, H+2RL+RR
    assert B.stand_hexes(unit(g, "c")) == (Hex(6, 3), Hex(7, 2), Hex(7, 1), Hex(8, 0))
    view = B.View(g.state)
    assert {h for h, u in view.stands.items() if u.id == "l"} == {Hex(2, 8), Hex(3, 8), Hex(4, 8), Hex(5, 8)}


def test_s21_8_a_forward_step_carries_every_stand_and_costs_the_dearest_stand():
    # an infantry line (2 MP forward) with forest ahead of its right-end stand only: one step
    # NW costs 2 (the forest stand), so it cannot go on; to the left of the forest it could
    rows = ["." * 12] * 11
    rows[7] = "." * 5 + "F" + "." * 6          # offset column 5 on row 7 = axial (2, 7)
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(0, 8), formation="line", strength=3)],
             rows=rows)
    assert g.map.terrain_at(Hex(2, 7)) == "forest"
    ends = MV.moves(g.map, B.View(g.state), unit(g, "l"))
    # NW step: stands (0,7), (1,7), (2,7): the last is forest, 2 MP: allowed, and nothing after it
    assert ("forward", (Hex(0, 7),)) == ends[(Hex(0, 7), NORTH)]
    assert (Hex(1, 5), NORTH) not in ends            # straight ahead two steps would need 3 MP
    play(g, "move", unit="l", path=((0, 7),), facing=NORTH)
    assert B.stand_hexes(unit(g, "l")) == (Hex(0, 7), Hex(1, 7), Hex(2, 7))


def test_s21_8_no_stand_may_end_next_to_an_enemy_stand():
    # the line's right-end stand would come next to the red stand: that placement is out
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 8), formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(6, 5), formation="line", strength=1)])
    ends = MV.moves(g.map, B.View(g.state), unit(g, "l"))
    # one step NE: stands (3..6, 7); (6, 6)... red at (6, 5) is 2 away from (6, 7): allowed
    assert (Hex(3, 7), NORTH) in ends
    # two steps (NE, NW): stands (3..6, 6): (6, 6) touches red at (6, 5): not allowed
    assert (Hex(3, 6), NORTH) not in ends


def test_s21_8_a_cavalry_line_wheels_about_either_end_stand():
    # a dragoon line of 2 (4 MP, a wheel costs 2): about its left end the anchor stays; about
    # its right end R = A + E stays and the new left end is R - RF(new) = A + SE
    a = Hex(4, 6)
    g = game([dict(id="d", side="blue", kind="CAV_DRAGOON", hex=label(*a), formation="line", strength=2)])
    ends = MV.moves(g.map, B.View(g.state), unit(g, "d"))
    assert ends[(a, 2)][1] == ()                                  # left pivot: no hex entered
    assert (shifted(a, 0, 1), 2) in ends                          # right pivot
    play(g, "move", unit="d", path=tuple(tuple(h) for h in ends[(shifted(a, 0, 1), 2)][1]), facing=2)
    d = unit(g, "d")
    assert B.stand_hexes(d) == (shifted(a, 0, 1), shifted(a, 1, 0))    # the right end stayed put


def test_s9_7_a_formation_change_needs_the_new_layout_to_fit():
    # a line on the bottom row cannot form column facing north: the column's tail would be off
    # the map; facing south (about-face into column) it fits
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(-3, 10), formation="line")])
    forms = {(o["formation"], o["facing"]) for o in g.legal_orders() if o.kind == "form"}
    assert ("column", NORTH) not in forms and ("column", SOUTH) in forms
    why = g.validate(Order.make("form", unit="l", formation="column", facing=NORTH))
    assert why and "the column does not fit" in why and "off the map" in why


def test_s7_5_item7_the_column_is_laid_out_behind_its_head_in_contact():
    # blue column (head (2,7), facing 12) attacks the red line's front: its head ends in the
    # contact hex and the rest of the column zigzags behind it
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 4), formation="line", strength=2)],
             phase="attack")
    contact = next(o["contact"] for o in g.legal_orders() if o.kind == "attack")
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=contact)
    b = unit(g, "b")
    h = Hex(*contact)
    rl, rr = {NORTH: ((-1, 1), (0, 1))}[b.facing]
    assert B.stand_hexes(b) == (h, shifted(h, *rl), shifted(shifted(h, *rl), *rr),
                                shifted(shifted(shifted(h, *rl), *rr), *rl))


def test_s7_6_a_line_attack_advances_stand_by_stand_and_bends():
    # blue line (0..3, 8) facing 12; red line of 2 at (1,6), (0,6) facing 6. First step FL (NW):
    # stands 0 and 1 touch red at once and stop; stands 2 and 3 touch nothing and go on FR (NE)
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(0, 8), formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(1, 6), formation="line", strength=2)],
             phase="attack")
    assert B.stand_hexes(unit(g, "r")) == (Hex(1, 6), Hex(0, 6))
    contacts = {o["contact"] for o in g.legal_orders() if o.kind == "attack"}
    assert (0, 7) in contacts
    play(g, "attack", dice=[12, 3], unit="b", target=(1, 6), contact=(0, 7))
    b = unit(g, "b")
    assert B.stand_hexes(b) == (Hex(0, 7), Hex(1, 7), Hex(3, 6), Hex(4, 6))
    assert b.facing == NORTH                                      # strictly forward (7.6)
    assert [c[:2] for c in g.state.vars["contacts"]] == [["b", "r"]]


def test_s22_4_a_beaten_unit_keeps_its_shape_and_retreats_as_a_whole():
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 4), formation="line")], phase="attack")
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    before = B.stand_hexes(unit(g, "r"))
    g.state.phase, g.state.active = "melee", "blue"
    play(g, "melee", unit="b", dice=[10, 11, *[10] * 10])     # 18 against 16: beaten by 2
    r = unit(g, "r")
    assert B.state_of(r) == "disordered" and r.strength == 3
    play(g, "lose", unit="r", hex=tuple(before[-1]), dice=[10] * 10)    # its right end goes
    paths = [o["path"] for o in g.legal_orders() if o.kind == "retreat"]
    if paths:
        play(g, "retreat", unit="r", path=paths[0], dice=[10] * 10)
    r = unit(g, "r")
    stands = B.stand_hexes(r)
    assert len(stands) == 3
    dq, dr = stands[0].q - before[0].q, stands[0].r - before[0].r
    # every remaining stand moved by the same two steps: the shape is kept
    assert stands == tuple(shifted(h, dq, dr) for h in before[:3])
    assert max(abs(dq), abs(dr), abs(dq + dr)) == 2


def test_s21_5_a_disordered_unit_keeps_its_stands_when_its_facing_changes():
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 8), formation="line")])
    b = unit(g, "b")
    before = B.stand_hexes(b)
    B.freeze_stands(b)
    b.mark("state", "disordered")
    b.facing = 3
    assert B.stand_hexes(b) == before
    # re-forming lays the line out again from the anchor stand
    play(g, "form", unit="b", formation="line", facing=NORTH)
    assert B.state_of(unit(g, "b")) == "formed" and B.stand_hexes(unit(g, "b")) == before


def test_s21_10_appearing_units_lie_within_two_rows_of_their_edge_touching_it():
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column")],
             phase="appearance")
    b = unit(g, "b")
    b.hex = None
    b.mark("state", "reserve")
    opts = [o for o in g.legal_orders() if o.kind == "appear"]
    assert opts
    for o in opts:
        b.hex, b.facing = Hex(*o["hex"]), o["facing"]
        b.mark("state", "formed")
        b.mark("formation", o["formation"])
        rows = [g.map.rows_from_edge(h, "south") for h in B.stand_hexes(b)]
        assert max(rows) <= 1 and min(rows) == 0, o
    b.hex = None


def test_validate_footprints_off_the_map_or_on_another_unit():
    with pytest.raises(ScenarioError) as err:
        board([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 9), formation="column")])
    assert any("units[0].hex" in p and "off the map" in p for p in err.value.problems)
    with pytest.raises(ScenarioError) as err:
        board([dict(id="a", side="blue", kind="INF_LINE", hex=label(2, 8), formation="line"),
               dict(id="b", side="blue", kind="INF_LINE", hex=label(4, 5), formation="column")])
    assert any("units[1].hex" in p and "a's" in p for p in err.value.problems)


def test_s22_4_the_owner_chooses_which_stand_a_beaten_unit_loses():
    # a beaten line of 4 may give up either end stand (the middle ones would split it, 21.5);
    # the choice is a pending decision of its owner, made before the retreat
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 4), formation="line")], phase="attack")
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    line = B.stand_hexes(unit(g, "r"))
    g.state.phase, g.state.active = "melee", "blue"
    play(g, "melee", unit="b", dice=[10, 11])                  # 18 against 16: red is beaten
    assert g.to_act() == "red" and g.state.pending[0]["kind"] == "lose-stand"
    options = sorted(o["hex"] for o in g.legal_orders() if o.kind == "lose")
    assert options == sorted([tuple(line[0]), tuple(line[-1])])
    assert g.validate(Order.make("lose", unit="r", hex=tuple(line[1]))) is not None
    assert g.validate(Order.make("end-phase")) is not None
    play(g, "lose", unit="r", hex=tuple(line[0]), dice=[10] * 10)
    paths = [o for o in g.legal_orders() if o.kind == "retreat"]
    if paths:                     # the retreat follows, an order when several ways are as good
        g.apply(paths[0], Script(*[10] * 10))
    assert not g.state.pending
    r = unit(g, "r")
    stands = B.stand_hexes(r)
    # the left end went; the three others kept their shape (the new anchor is the old second)
    dq, dr = stands[0].q - line[1].q, stands[0].r - line[1].r
    assert r.strength == 3 and stands == tuple(shifted(h, dq, dr) for h in line[1:])


def test_s21_8_why_not_names_the_hex_where_the_formation_does_not_fit():
    # a clear hex ringed by lake: a single stand could stand there, a line of 4 in no facing;
    # the player is told the first hex at fault
    rows = ["." * 12] * 11
    rows[4] = "." * 8 + "LL" + ".."
    rows[5] = "." * 7 + "L.L" + ".."
    rows[6] = "." * 8 + "LL" + ".."
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(4, 8), formation="line")], rows=rows)
    h = Hex(6, 5)
    assert g.map.terrain_at(h) == "clear"
    assert all(g.map.terrain_at(n) == "lake" for _, n in g.map.neighbors(h))
    east = Hex(7, 5)                  # facing 12, the line runs east from its left end
    assert g.ruleset.why_not(g, "l", h) == \
        f"the line does not fit with its left-end stand there: hex {g.map.label(east)} is lake (21.5, 21.8)"


def test_g34_a_line_fights_whatever_it_touches_even_without_its_target():
    # the declared target r stands beyond reach; the line's right stands run into x on the way
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(0, 8), formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(1, 3), formation="line", strength=1),
              dict(id="x", side="red", kind="INF_LINE", hex=label(3, 6), formation="line", strength=1)],
             phase="attack")
    onto_r = [o for o in g.legal_orders() if o.kind == "attack" and o["target"] == (1, 3)]
    assert onto_r and all(o["contact"] is not None for o in onto_r)      # not a failed attack
    g.apply(onto_r[0], Script(12, 3))
    assert [c[:2] for c in g.state.vars["contacts"]] == [["b", "x"]]
    assert B.state_of(unit(g, "b")) == "formed"
    assert unit(g, "x").marks["targeted"] == 1 and unit(g, "r").marks["targeted"] == 1


def test_s21_5_the_unit_card_names_the_hexes_its_stands_are_in():
    g = game([dict(id="l", side="blue", kind="INF_LINE", hex=label(2, 8), formation="line", strength=3)])
    card = dict(g.ruleset.unit_card(g, "l"))
    names = [g.map.label(Hex(q, 8)) for q in (2, 3, 4)]
    assert card["stands in"] == f"{names[0]} (left-end stand), {names[1]}, {names[2]}"


def test_s7_5_item7_stands_that_do_not_fit_go_next_to_the_target_nearest_the_head():
    # behind the contact hex (3,5) both column variants hit lake ((2,6), then (2,7) for the
    # mirror): the head stands alone and the three other stands go to free hexes next to the
    # target's stands, nearest the head first, ties by hex: (2,5), (4,4), then (1,5)
    rows = ["." * 12] * 11
    rows[6] = "." * 5 + "L" + "." * 6
    rows[7] = "." * 5 + "L" + "." * 6
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(3, 7), formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 4), formation="line", strength=2)],
             rows=rows, phase="attack")
    assert g.map.terrain_at(Hex(2, 6)) == "lake" and g.map.terrain_at(Hex(2, 7)) == "lake"
    assert B.stand_hexes(unit(g, "r")) == (Hex(3, 4), Hex(2, 4))
    play(g, "attack", dice=[12, 3], unit="b", target=(3, 4), contact=(3, 5))
    assert B.stand_hexes(unit(g, "b")) == (Hex(3, 5), Hex(2, 5), Hex(4, 4), Hex(1, 5))


def test_s9_9_mounting_needs_every_stand_of_the_new_layout_off_forest():
    # dismounted chasseurs in line facing 12 at (2,8)-(5,8), all on clear ground; forest at (1,10).
    # Mounted, a column facing 12 lies H, H+SW, H+SW+SE, H+2SW+SE = (2,8), (1,9), (1,10), (0,11):
    # its third stand would stand in forest, which mounted cavalry may not enter (22.7), so that
    # mount is refused although the unit stands on clear ground now; the mounted line (same hexes)
    # is allowed. On foot the same column would fit (foot may stand in forest).
    rows = ["." * 12] * 14
    rows[10] = "." * 6 + "F" + "." * 5          # offset column 6 on row 10 = axial (1, 10)
    g = game([dict(id="c", side="blue", kind="CAV_CHASSEUR", hex=label(2, 8), formation="line")],
             rows=rows)
    c = unit(g, "c")
    c.mark("dismounted", True)
    assert B.layout_of(c, c.hex, NORTH, "column") == (Hex(2, 8), Hex(1, 9), Hex(1, 10), Hex(0, 11))
    assert MV.form_fits(g.map, B.View(g.state), c, "column", NORTH)        # on foot it fits
    mounts = {(o["formation"], o["facing"]) for o in g.legal_orders() if o.kind == "mount"}
    assert ("line", NORTH) in mounts and ("column", NORTH) not in mounts
    why = g.ruleset.validate(g, Order.make("mount", unit="c", formation="column", facing=NORTH))
    assert why and "forest" in why
    play(g, "mount", unit="c", formation="line", facing=NORTH)
    assert B.mounted(unit(g, "c"))


def test_s21_8_g30_a_column_whose_tail_does_not_fit_turns_free_about_its_head():
    # a blue column facing 12 with its head at (2, 7): (2, 7), (1, 8), (1, 9), (0, 10). One step
    # NW puts its head on (2, 6) and would lay its tail on (0, 9), a lake: the tail cannot be
    # placed, so the column turns about its head to the nearest facing where it fits. 60 degrees
    # either way fits (facing 2 o'clock: (2, 6), W (1, 6), SW (0, 7), W (-1, 7); facing 10
    # o'clock: (2, 6), SE (2, 7), E (3, 7), SE (3, 8)); on the tie clockwise goes first, so
    # 2 o'clock (vertex facing 0). The turn is free and the move ends there (G-30).
    rows = ["." * 12] * 12
    rows[9] = "." * 4 + "L" + "." * 7            # offset column 4 on row 9 = axial (0, 9)
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column")], rows=rows)
    c = unit(g, "c")
    assert B.stand_hexes(c) == (Hex(2, 7), Hex(1, 8), Hex(1, 9), Hex(0, 10))
    assert g.map.terrain_at(Hex(0, 9)) == "lake"
    assert B.layout_of(c, Hex(2, 6), 0) == (Hex(2, 6), Hex(1, 6), Hex(0, 7), Hex(-1, 7))
    found = MV.moves(g.map, B.View(g.state), c)
    assert (Hex(2, 6), NORTH) not in found                   # as laid out it does not fit
    assert found[(Hex(2, 6), 0)] == ("forward", (Hex(2, 6),))
    # (facing 10 o'clock at (2, 6) is reachable too, but only by a paid wheel before the step)
    play(g, "move", unit="c", path=((2, 6),), facing=0)
    c = unit(g, "c")
    assert c.hex == Hex(2, 6) and c.facing == 0
    assert B.stand_hexes(c) == (Hex(2, 6), Hex(1, 6), Hex(0, 7), Hex(-1, 7))


def _pass_until(g, turn, phase, side):
    """End phases (blue wins every roll-off: 12 against 5) until ``side`` acts in ``phase``."""
    while not (g.state.turn == turn and g.state.phase == phase and g.to_act() == side):
        play(g, "end-phase", dice=[12, 5] * 20)


def test_s22_2_a_square_hit_by_fire_may_lose_any_stand_that_keeps_it_connected():
    # red's square of 4 faces 6 o'clock with its pivot P at (3, 5): RL is NE, RR is NW, so the
    # rhombus is P, P+RL = (4, 4), P+RR = (3, 4), P+RL+RR = (4, 3) (21.5). P and (4, 3) are two
    # apart, every other pair touches, so losing any one leaves three touching stands (22.2:
    # any stand whose loss keeps the unit connected). Red gives up its pivot, which no square
    # template of three would leave: the three stay where they are, still a formed square.
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 5), formation="square")], phase="fire")
    rhombus = (Hex(3, 5), Hex(4, 4), Hex(3, 4), Hex(4, 3))
    assert B.stand_hexes(unit(g, "r")) == rhombus
    play(g, "fire", unit="b", target=(3, 5), dice=[1])          # 1 <= 10: a hit
    play(g, "end-phase")                                        # red holds its fire; the phase ends
    assert g.state.phase == "morale" and g.to_act() == "red"
    assert sorted(tuple(o["hex"]) for o in g.legal_orders() if o.kind == "lose") == sorted(rhombus)
    play(g, "lose", unit="r", hex=(3, 5), dice=[1])             # and its morale test passes
    r = unit(g, "r")
    assert r.strength == 3 and B.formation(r) == "square" and B.state_of(r) == "formed"
    assert B.stand_hexes(r) == (Hex(4, 4), Hex(3, 4), Hex(4, 3)) and r.hex == Hex(4, 4)
    assert g.ruleset.occupied_hexes(g, "r") == B.stand_hexes(r)
    # next Movement phase: a square steps all its stands one hex, any of the six ways (21.8)
    _pass_until(g, 2, "movement", "red")
    ends = sorted(tuple(o["path"][-1]) for o in g.legal_orders() if o.kind == "move" and o["unit"] == "r")
    assert ends == sorted([(5, 4), (5, 3), (4, 3), (3, 4), (3, 5), (4, 5)])
    play(g, "move", unit="r", path=((3, 4),), facing=SOUTH)     # one hex west
    assert B.stand_hexes(unit(g, "r")) == (Hex(3, 4), Hex(2, 4), Hex(3, 3))
    # the turn after, it leaves square (9.7 item 2, G-43: any facing): the anchor stand (3, 4)
    # is the line's left end, and a line facing 6 runs west along its right flank
    _pass_until(g, 3, "movement", "red")
    play(g, "form", unit="r", formation="line", facing=SOUTH)
    r = unit(g, "r")
    assert B.formation(r) == "line" and "stands" not in r.marks
    assert B.stand_hexes(r) == (Hex(3, 4), Hex(2, 4), Hex(1, 4))


def test_s22_2_a_square_that_loses_its_template_stand_stores_nothing():
    # the default loss (the rhombus's far stand P+RL+RR) leaves the triangle template of three,
    # so the unit keeps no stand hexes (old journals and digests stay as they were)
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(2, 7), formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 5), formation="square")], phase="fire")
    play(g, "fire", unit="b", target=(3, 5), dice=[1])
    play(g, "end-phase")
    play(g, "lose", unit="r", hex=(4, 3), dice=[1])
    r = unit(g, "r")
    assert "stands" not in r.marks and B.stand_hexes(r) == (Hex(3, 5), Hex(4, 4), Hex(3, 4))


def test_s22_4_a_beaten_square_may_lose_any_stand_that_keeps_it_connected():
    # 22.4 names the same limit for melee: a beaten 4-stand square gives up any of its four
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(3, 7), formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex=label(3, 5), formation="square")], phase="attack")
    rhombus = B.stand_hexes(unit(g, "r"))
    contact = next(o for o in g.legal_orders() if o.kind == "attack")
    g.apply(contact, Script(12, 3))
    g.state.phase, g.state.active = "melee", "blue"
    # blue 10 + rank 5 + attack 2 + column 1 = 18; red 11 + rank 5 - 2 (square attacked by
    # infantry) = 14: red is beaten by 4, so it stays, disordered, and loses one stand
    play(g, "melee", unit="b", dice=[10, 11])
    assert g.to_act() == "red" and g.state.pending[0]["kind"] == "lose-stand"
    assert sorted(tuple(o["hex"]) for o in g.legal_orders() if o.kind == "lose") == sorted(map(tuple, rhombus))


def test_s21_8_g30_prop_a_step_that_turns_to_fit_costs_what_the_head_pays():
    # [PROP] (NOTES G-30): the spec does not price the step after which a column turns to fit;
    # here it costs the head's own step, since the tail is never laid out in the way. The G-30
    # column above steps NW from (2, 7) to (2, 6): laid out as it stood, its second stand would
    # enter forest (1, 7) (2 MP for infantry, 22.7) and its tail the lake (0, 9). The head's step
    # is clear (1 MP), so with 3 MP spent of 4 the turn still fits the allowance (4); with 4
    # spent it does not; a translation charged at its dearest stand would have cost 2.
    rows = ["." * 12] * 12
    rows[9] = "." * 4 + "L" + "." * 7            # axial (0, 9)
    rows[7] = "." * 4 + "F" + "." * 7            # offset column 4 on row 7 = axial (1, 7)
    g = game([dict(id="c", side="blue", kind="INF_LINE", hex=label(2, 7), formation="column")], rows=rows)
    c, view = unit(g, "c"), B.View(g.state)
    assert g.map.terrain_at(Hex(1, 7)) == "forest" and B.allowance(c)[0] == 4
    assert B.step_cost(g.map, view, c, Hex(1, 8), Hex(1, 7)) == 2
    turned = MV._fit_turn(g.map, view, c, Hex(2, 7), Hex(2, 6), NORTH, 2, 3, 4, ())
    assert turned == [(4, Hex(2, 6), 0, MV.END_ONLY, (Hex(2, 6),))]
    assert MV._fit_turn(g.map, view, c, Hex(2, 7), Hex(2, 6), NORTH, 2, 4, 4, ()) == []


def test_s9_7_item5_a_disordered_unit_re_forms_into_a_square_facing_any_way():
    # re-forming "may take any formation, facing any direction" (9.7 item 5): the square's
    # template (21.5) grows toward the rear of the facing chosen, so all six are offered on open
    # ground; facing 2 o'clock (vertex 0, RL = W, RR = SW) from the anchor (5, 5) gives
    # (5, 5), (4, 5), (4, 6), (3, 6)
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex=label(5, 5), formation="line")])
    b = unit(g, "b")
    B.freeze_stands(b)
    b.mark("state", "disordered")
    squares = sorted(o["facing"] for o in g.legal_orders() if o.kind == "form" and o["formation"] == "square")
    assert squares == [0, 1, 2, 3, 4, 5]
    play(g, "form", unit="b", formation="square", facing=0)
    assert B.stand_hexes(unit(g, "b")) == (Hex(5, 5), Hex(4, 5), Hex(4, 6), Hex(3, 6))
