"""Napoleonica in the player's words (words.py): the unit card, why-not, the exact d20 odds line,
the zones of a unit and the player aid. Expected values are worked out from the spec's text."""

from fractions import Fraction

from hexwar.engine import Order
from hexwar.engine.hexgrid import DIRECTIONS, Hex, hex_add, hex_distance, hex_neighbor
from hexwar.engine.rulesets.napoleonica import data as D
from hexwar.engine.rulesets.napoleonica import drawing
from hexwar.engine.rulesets.napoleonica.words import melee_outcomes, percent

from napo_helpers import NORTH, SOUTH, game, play, unit

BLUE_LINE = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="line")
RED_LINE = dict(id="r", side="red", kind="INF_LINE", hex="0606", formation="line")       # d = 2
BLUE_COL = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="column")
RED_FAR = dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line")


def card(g, uid):
    return dict(g.unit_card(uid))


# --- 21.4: facing by clock ---------------------------------------------------------------------
def test_s21_4_the_card_names_the_vertex_facing_by_clock():
    g = game([BLUE_LINE, RED_LINE])
    # F = 12 (the spec's example): front-left NW (clock 11), front-right NE (clock 1)
    assert card(g, "b")["facing"] == "12 o'clock (front NW, NE)"
    # F = 6: front-left F - 1 = clock 5 (SE), front-right F + 1 = clock 7 (SW)
    assert card(g, "r")["facing"] == "6 o'clock (front SE, SW)"
    unit(g, "b").facing = 0
    assert card(g, "b")["facing"] == "2 o'clock (front NE, E)"


def test_s21_4_every_facing_is_one_of_the_six_clock_vertices():
    g = game([BLUE_LINE, RED_LINE])
    assert sorted(int(g.facing_words(f).split()[0]) for f in range(6)) == [2, 4, 6, 8, 10, 12]
    assert g.facing_words(NORTH) == "12 o'clock" and g.facing_words(SOUTH) == "6 o'clock"


def test_s21_4_order_words_name_the_clock_facing_not_a_hexside():
    from hexwar.tui.describe import order_text
    g = game([BLUE_COL, RED_FAR])
    move = next(o for o in g.unit_orders("b") if o.kind == "move" and o.get("facing") == NORTH)
    assert "facing 12 o'clock" in order_text(g, move)


# --- 5.6, 5.8, 4.1: formation, state, stands on the card ------------------------------------
def test_s5_6_a_square_and_a_disordered_unit_have_no_facing():
    g = game([dict(BLUE_LINE, formation="square"), RED_LINE])
    assert card(g, "b")["facing"].startswith("none: a square")
    unit(g, "r").mark("state", "disordered")
    assert card(g, "r")["facing"].startswith("none: a disordered")


def test_s5_8_state_and_formation_are_told_apart():
    g = game([BLUE_LINE, RED_LINE])
    c = card(g, "b")
    assert c["formation"] == "line" and c["state"] == "formed"
    unit(g, "b").mark("state", "disordered")
    c = card(g, "b")
    assert c["state"] == "disordered" and "lost while disordered" in c["formation"]
    bat = dict(id="a", side="blue", kind="ART_MEDIUM", hex="0610", formation="limbered")
    g = game([bat, RED_LINE])
    unit(g, "a").mark("state", "disordered")
    c = card(g, "a")      # a disordered battery keeps its formation (5.3 item 4, 5.8)
    assert c["formation"] == "limbered (on the march)" and c["state"] == "disordered"


def test_s9_9_the_card_says_mounted_or_dismounted():
    ch = dict(id="c", side="blue", kind="CAV_CHASSEUR", hex="0608", formation="line")
    g = game([ch, RED_FAR])
    assert card(g, "c")["formation"] == "line, mounted"
    unit(g, "c").mark("dismounted", True)
    assert card(g, "c")["formation"] == "line, dismounted (on foot)"


def test_s4_1_the_card_counts_the_stands_left():
    g = game([BLUE_LINE, RED_LINE])
    unit(g, "b").strength = 3
    assert card(g, "b")["stands"] == "3 of 4 (1 lost)"
    bat = dict(id="a", side="blue", kind="ART_MEDIUM", hex="0610", formation="unlimbered")
    g = game([bat, RED_LINE])
    assert card(g, "a")["stands"] == "4 of 4 gunners"      # 4.2: a gunner counts as a stand


def test_s3_0_the_card_gives_best_of_n_dice_and_experience():
    g = game([dict(BLUE_LINE, kind="INF_HEAVY", grade="veteran"), RED_LINE])
    c = card(g, "b")
    assert c["melee"].startswith("rank 7, best of 2 d20")          # 3.1: grenadiers
    assert c["morale"] == "best of 2 d20 at or under 14 (veteran)"


def test_s21_10_counter_marks_are_distinct_and_disorder_wins():
    marks = dict(drawing.MARK_NAMES)
    assert len(set(marks)) == len(marks) == len(set(marks.values()))
    g = game([BLUE_LINE, dict(RED_LINE, formation="column")])
    assert drawing.counter_mark(unit(g, "b")) == "l" and drawing.counter_mark(unit(g, "r")) == "c"
    unit(g, "b").mark("state", "disordered")
    assert drawing.counter_mark(unit(g, "b")) == "~"


# --- why not ------------------------------------------------------------------------------------
def test_s6_why_not_names_whose_turn_it_is():
    g = game([BLUE_COL, RED_FAR])
    reason = g.why_not("r", Hex(*unit(g, "r").hex))
    assert "other side" in reason and "(" in reason and "6)" in reason


def test_s9_4_why_not_a_move_next_to_an_enemy():
    g = game([BLUE_COL, RED_FAR])
    b, r = unit(g, "b"), unit(g, "r")
    beside = next(hex_neighbor(r.hex, d) for d in range(6)
                  if hex_distance(hex_neighbor(r.hex, d), b.hex) == 2)
    assert g.why_not("b", beside).endswith("(9.4; 1 cm gap, 21.3)")


def test_s9_3_why_not_a_disordered_unit_moving():
    g = game([BLUE_COL, RED_FAR])
    unit(g, "b").mark("state", "disordered")
    assert "(9.3, 9.7)" in g.why_not("b", g.map.parse("0609"))


def test_s7_1_why_not_artillery_charging():
    bat = dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="unlimbered")
    g = game([bat, RED_FAR], phase="attack")
    assert g.why_not("a", Hex(*unit(g, "r").hex)) == "artillery may not attack (7.1 item 3)"


def test_s22_2_why_not_firing_out_of_range():
    g = game([BLUE_LINE, dict(RED_LINE, hex="0603")], phase="fire")     # d = 5, muskets reach 3
    assert "out of range (5 hexes; range 2-3)" in g.why_not("b", Hex(*unit(g, "r").hex))


def test_s22_2_why_not_is_none_where_an_order_fits():
    g = game([BLUE_LINE, RED_LINE], phase="fire")
    assert g.why_not("b", Hex(*unit(g, "r").hex)) is None


# --- odds: exact best-of-N d20 ------------------------------------------------------------------
def test_s22_2_fire_odds_line_is_the_exact_chance_of_a_hit():
    g = game([BLUE_LINE, RED_LINE], phase="fire")
    line = g.odds_summary(Order.make("fire", unit="b", target=tuple(unit(g, "r").hex)))
    # a line at short range with 3 of its 4 stands in range (its right end is 4 hexes from red,
    # 22.2): 2 x 3 + 2 = 8; one d20 at or under 8 is 8 in 20
    assert line.startswith("Fire: best of 1 d20 at or under 8 hits: 40 %")


def test_s3_0_best_of_two_for_a_test_keeps_the_lowest():
    g = game([dict(BLUE_LINE, kind="INF_HEAVY"), RED_LINE], phase="fire")
    unit(g, "b").stats["fire"] = 2
    line = g.odds_summary(Order.make("fire", unit="b", target=tuple(unit(g, "r").hex)))
    # at least one of two d20 at or under 8 (3 stands in range, as above): 1 - (12/20)^2 = 64 %
    assert "best of 2 d20 at or under 8 hits: 64 %" in line


def test_s22_4_melee_outcomes_are_exact():
    # attacker 1 d20 + 8 (rank 5, attack bonus 2, column 1), defender 1 d20 + 5 (22.4)
    o = melee_outcomes(1, 8, True, 1, 5, False)
    # the attacker wins when ra + 3 > rb (a tie goes to the defender): 247 of 400 pairs
    assert o["win"] + o["win-rout"] == Fraction(247, 400)
    # by 5 or more (the defender flees) when rb <= ra - 2: 171 pairs
    assert o["win-rout"] == Fraction(171, 400)
    # the defender wins by 5 or more when rb >= ra + 8: 78 pairs
    assert o["lose-rout"] == Fraction(78, 400)
    assert sum(o.values()) == 1


def test_s22_4_when_both_attacked_a_tie_is_rolled_again():
    o = melee_outcomes(1, 0, True, 1, 0, True)
    assert o["win"] + o["win-rout"] == Fraction(1, 2)         # ties do not count: 190 of 380
    o = melee_outcomes(1, 0, False, 1, 0, True)
    assert o["win"] + o["win-rout"] == Fraction(210, 400)     # ties go to the side that did not attack


def test_s22_4_the_charge_preview_gives_every_end_of_the_melee():
    g = game([BLUE_COL, RED_FAR], phase="attack")
    order = next(o for o in g.unit_orders("b") if o.kind == "attack")
    line = g.odds_summary(order)
    assert line.startswith("Charge (front): you win " + percent(Fraction(247, 400)))
    assert "they flee " + percent(Fraction(171, 400)) in line
    assert "you flee " + percent(Fraction(78, 400)) in line


def test_s14_rally_odds_are_best_of_the_morale_dice_against_experience():
    g = game([BLUE_COL, RED_FAR])
    b = unit(g, "b")
    b.mark("state", "fleeing")
    b.hex = None
    line = g.odds_summary(Order.make("rally", unit="b"))
    assert line == "Rally: best of 1d20 at or under 10: restored 50 % (14)"


# --- 21.6 zones ---------------------------------------------------------------------------------
def test_s21_4_zones_of_one_stand_two_front_one_flank_each_side_two_rear():
    g = game([dict(BLUE_LINE, strength=1), dict(RED_LINE, hex="0601")])
    b = unit(g, "b")
    zones = g.unit_zones("b")
    where = {h: z for z, hexes in zones.items() for h in hexes}
    # facing 12: NE and NW (directions 1, 2) front; E and W (0, 3) flanks; SW and SE (4, 5) rear
    assert [where[hex_neighbor(b.hex, d)] for d in range(6)] == \
        ["flank", "front", "front", "flank", "rear", "rear"]
    ahead = hex_add(hex_neighbor(b.hex, 1), DIRECTIONS[2])        # straight north, 2 hexes
    behind = hex_add(hex_neighbor(b.hex, 4), DIRECTIONS[5])       # straight south
    assert where[ahead] == "front" and where[behind] == "rear"
    assert all(1 <= hex_distance(b.hex, h) <= D.ATTACK_REACH + 1 for h in where)


def test_s5_6_a_square_is_all_front():
    g = game([dict(BLUE_LINE, formation="square"), dict(RED_LINE, hex="0601")])
    assert set(g.unit_zones("b")) == {"front"}


# --- the player aid (22.12: built from data.py, [S] and [P] told apart) --------------------
def test_s6_the_aid_marks_the_current_phase_and_who_acts():
    g = game([BLUE_LINE, RED_LINE])
    seq = dict(g.player_aid())["Sequence of play [S 6]"]
    now = [line for line in seq if line.startswith("> ")]
    assert len(now) == 1 and now[0].startswith("> 3. Movement") and "Blue to act" in now[0]


def test_s22_12_the_aid_tables_come_from_data_and_say_which_are_designed(monkeypatch):
    g = game([BLUE_LINE, RED_LINE])
    titles = [t for t, _ in g.player_aid()]
    assert "Fire [P 22.2]" in titles and "Morale [P 22.3]" in titles and "Melee [P 22.4]" in titles
    assert "Units [S 3]" in titles
    monkeypatch.setattr(D, "MELEE_ROUT_MARGIN", 6)
    monkeypatch.setitem(D.MELEE_MODS, "flank", 5)
    monkeypatch.setitem(D.FIRE_MODS, "target_disordered", 3)
    aid = dict(g.player_aid())
    assert any("by 6+ it flees" in line for line in aid["Melee [P 22.4]"])
    assert "  flank attack: +5" in aid["Melee [P 22.4]"]
    assert "  target disordered: +3" in aid["Fire [P 22.2]"]


def test_s22_4_why_not_while_a_retreat_is_to_be_chosen():
    g = game([BLUE_COL, RED_FAR], phase="melee")
    g.state.pending = [{"side": "red", "kind": "retreat", "unit": "r"}]
    assert g.why_not("b", g.map.parse("0609")) == "the retreat decision must be answered first (22.4)"


def test_s22_2_why_not_on_a_unit_with_no_target():
    g = game([BLUE_LINE, dict(RED_LINE, hex="0603")], phase="fire")     # d = 5: out of range
    assert g.why_not("b", Hex(*unit(g, "b").hex)) == \
        "no enemy it may fire at: in range, in its frontal zone and in sight (22.2, 21.7)"


def test_s7_4_why_not_on_a_unit_with_nobody_to_charge():
    g = game([BLUE_LINE, dict(RED_LINE, hex="0601")], phase="attack")   # d = 7: beyond reach
    assert g.why_not("b", Hex(*unit(g, "b").hex)).endswith("(7.3, 7.4)")


def test_s22_2_the_log_says_a_fire_in_words():
    from hexwar.tui.describe import event_text, unit_title
    g = game([BLUE_LINE, RED_LINE], phase="fire")
    events = play(g, "fire", unit="b", target=tuple(unit(g, "r").hex), dice=[7, 12])
    lines = [event_text(g, e) for e in events]
    fired = next(line for line in lines if " fires at " in line)
    assert fired == f"{unit_title(g, 'b')} fires at {unit_title(g, 'r')}: 7 against 8 or less, " \
                    "hit (a stand goes when the phase ends)"
    assert not any(line.startswith(("best-of:", "fired:")) for line in lines)


def test_s3_0_the_log_shows_every_die_of_a_best_of_and_the_one_kept():
    from hexwar.tui.describe import event_text
    g = game([BLUE_LINE, RED_LINE])
    line = event_text(g, {"t": "best-of", "why": "melee", "dice": [4, 17], "kept": 17, "keep": "highest"})
    assert line == "best of 2 d20 4, 17: keeps the highest, 17"


def test_s6_the_log_names_the_roll_off_winner():
    from hexwar.tui.describe import event_text
    g = game([BLUE_LINE, RED_LINE])
    line = event_text(g, {"t": "roll-off", "phase": "fire", "first": "red", "rolls": {"blue": 3, "red": 15}})
    assert line == "Roll-off for the Fire phase: Blue 3, Red 15; Red acts first"


def test_s22_9_the_card_names_the_gun_a_battery_serves():
    bat = dict(id="a", side="blue", kind="ART_LIGHT", hex="0610", formation="unlimbered")
    g = game([bat, RED_LINE])
    assert card(g, "a")["type"] == "light (horse) artillery"
    unit(g, "a").mark("gun_kind", "ART_HEAVY")          # its gunners re-manned a heavy gun
    assert card(g, "a")["type"] == "light (horse) artillery, serving a heavy (position) artillery gun"


def test_s16_1_the_aid_gives_the_muster_table():
    g = game([BLUE_LINE, RED_LINE])
    muster = dict(g.player_aid())["Army composition [S 16.1]"]
    assert "  line infantry: 50-100 %" in muster and "  dragoons: 30-100 %" in muster
    assert "  guard cavalry: 0-10 %" in muster


def test_s22_2_why_not_while_a_stand_lost_to_fire_is_to_be_chosen():
    g = game([BLUE_COL, RED_FAR], phase="morale")
    g.state.pending = [{"side": "red", "kind": "lose-stand", "unit": "r", "why": "fire"}]
    assert g.why_not("b", g.map.parse("0609")) == "the lose stand decision must be answered first (22.2)"


def test_s22_4_the_log_says_who_chooses_a_retreat_in_words():
    # found by playing: the decision dialog's "what just happened" showed the raw event
    from hexwar.tui.describe import event_text, unit_title
    g = game([BLUE_LINE, RED_LINE])
    line = event_text(g, {"t": "retreat-choice", "unit": "r", "side": "red"})
    assert line == f"Red chooses where {unit_title(g, 'r')} retreats"


def test_s7_order_words_name_the_attacked_unit_and_the_contact_hex():
    from hexwar.tui.describe import order_text
    g = game([BLUE_COL, RED_FAR])
    blue, red = g.state.units["b"], g.state.units["r"]
    o = Order.make("attack", unit="b", target=tuple(red.hex), contact=(3, 4))
    assert order_text(g, o) == f"{blue.name} attacks {red.name} at {g.map.label(Hex(*red.hex))}, " \
                               f"making contact from {g.map.label(Hex(3, 4))}"


def test_s22_2_order_words_say_which_stand_is_given_up():
    from hexwar.tui.describe import order_text
    g = game([BLUE_COL, RED_FAR])
    o = Order.make("lose", unit="b", hex=tuple(g.state.units["b"].hex))
    assert order_text(g, o) == f"{g.state.units['b'].name} gives up its stand at " \
                               f"{g.map.label(Hex(*g.state.units['b'].hex))}"
