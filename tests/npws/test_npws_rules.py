"""One test per rule of the fragment (rules 2.5-6.2), named after its number; expected values
from the spec (shared/rules/spanish-succession.md), hypothetical ratings marked *."""

import pytest

from hexwar.engine.rulesets.npws import boxes, cards, designed, ledger, pieces, seas, stacking
from hexwar.engine.rulesets.npws.facts import (
    ALLIANCE, BOURBON, CONTROL_CAUSES, NAMED_LEADERS, STACKING_LIMIT, VP_MAX, VP_MIN, VP_START,
)

from npws_helpers import BOARD, corps, dice, leader, stack, state


# --- 2.5 / 2.6 seas and ports -----------------------------------------------------------------

def test_2_5_med_starts_bourbon_and_keeps_its_controller_until_it_changes():
    s = state()
    assert seas.sea_controller(s, "med") == BOURBON
    seas.naval_battle_won(s, BOARD, "med", ALLIANCE, attacker=ALLIANCE)
    assert seas.sea_controller(s, "med") == ALLIANCE and ledger.vp(s) == 16
    s.turn += 1  # nothing lapses with time
    assert seas.sea_controller(s, "med") == ALLIANCE


def test_2_5_a_zone_the_scenario_fixes_never_changes_hands():
    s = state()
    with pytest.raises(ValueError):
        seas.set_sea_control(s, BOARD, "atlantic", BOURBON, "naval_battle")


def test_2_6_1_a_port_is_a_space_on_a_sea_zone():
    assert BOARD.space("derry").is_port and not BOARD.space("plain").is_port
    s = state()
    assert seas.port_problem(s, BOARD, ALLIANCE, "plain", "atlantic", "move").startswith("2.6.1")


def test_2_6_2_gibraltar_touches_the_atlantic_and_the_med():
    assert BOARD.space("gibraltar").sea_zones == ("atlantic", "med")
    assert "gibraltar" in BOARD.ports("atlantic") and "gibraltar" in BOARD.ports("med")


def test_2_6_3_a_port_serves_only_the_controller_of_its_zone_for_moves_and_loc():
    s = state()
    assert seas.port_problem(s, BOARD, ALLIANCE, "london", "atlantic", "move") is None
    assert seas.port_problem(s, BOARD, ALLIANCE, "london", "atlantic", "loc") is None
    assert seas.port_problem(s, BOARD, BOURBON, "london", "atlantic", "loc").startswith("2.6.3")
    assert seas.sea_moves(s, BOARD, ALLIANCE, "london") == ("derry", "gibraltar")
    assert "gibraltar" in seas.loc_reach(s, BOARD, ALLIANCE, "vienna")
    assert "toulon" not in seas.loc_reach(s, BOARD, ALLIANCE, "london", passable=lambda p: p != "madrid")


def test_2_6_3_jacobites_in_ireland_trace_loc_through_their_own_ports_designed():
    s = state()
    jac = [corps(s, "j1", "jacobite", "dublin")]
    fr = [corps(s, "f1", "france", "dublin")]
    assert seas.port_problem(s, BOARD, BOURBON, "dublin", "irish", "loc", jac) is None
    assert seas.port_problem(s, BOARD, BOURBON, "dublin", "irish", "move", jac) is not None
    assert seas.port_problem(s, BOARD, BOURBON, "dublin", "irish", "loc", fr) is not None


# --- 2.7 army boxes ---------------------------------------------------------------------------

def test_2_7_army_box_is_the_space_of_its_marker():
    s = state()
    a = stack(s, "a", "dutch", "plain", 2, 0)
    boxes.put_in_box(s, ALLIANCE, "A", [u.id for u in a])
    boxes.move_marker(s, ALLIANCE, "A", "fields")
    assert all(u.hex == "fields" for u in a)
    assert stacking.corps_count(s, "fields", ALLIANCE) == 2   # stacking counts them there
    with pytest.raises(ValueError):
        boxes.put_in_box(s, ALLIANCE, "E", [a[0].id])         # four boxes, A-D


# --- 3.1 leaders ------------------------------------------------------------------------------

def test_3_1_famous_leader_killed_flips_to_minor_for_the_rest_of_the_game():
    s = state()
    lx = leader(s, "lx", "france", "hills", tr=2, cr=4, minor_tr=1, minor_cr=2)
    pieces.kill_leader(s, lx, "siege")
    f = pieces.face(lx)
    assert (f.kind, f.tr, f.cr) == ("minor", 1, 2) and lx.marks.get("locked")
    assert pieces.kill_leader(s, lx, "battle")[0]["t"] == "leader-survives"   # A11


def test_3_1_marlborough_either_face_is_removed_not_replaced():
    s = state()
    m = leader(s, "marl", "jacobite", "dublin", tr=3, cr=4, ref="marlborough")
    assert pieces.face(m).power == "jacobite"
    pieces.kill_leader(s, m)
    assert m.hex is None and m.marks.get("removed") and not m.marks.get("back")


def test_3_1_command_rating_and_rally_capacity():
    s = state()
    for cr, rally in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)):
        lx = leader(s, f"l{cr}", "dutch", "plain", tr=1, cr=cr)
        assert pieces.command_rating(lx) == cr and pieces.rally_capacity(lx) == rally


def test_3_1_1_native_corps_only_changes_tr_not_cr():
    s = state()
    w = leader(s, "waldeck", "dutch", "plain", tr=0, cr=3, ref="waldeck")
    assert pieces.effective_tr(s, w) == 0 and pieces.command_rating(w) == 3
    corps(s, "e1", "dutch", "fields")            # a Dutch corps elsewhere does not count
    assert pieces.effective_tr(s, w) == 0
    corps(s, "e2", "dutch", "plain")
    assert pieces.effective_tr(s, w) == 1


def test_3_1_1_game_note_seven_minor_faces_carry_the_stripe():
    striped = sorted(k for k, v in NAMED_LEADERS.items() if v.get("back_stripe"))
    assert striped == sorted(["william_iii", "lorraine", "eugene", "lorges", "luxembourg",
                              "noailles", "james_ii"])
    s = state()
    cat = leader(s, "catinat", "france", "hills", tr=2, cr=3, minor_tr=1, ref="catinat")
    assert not pieces.face(cat).stripe and pieces.effective_tr(s, cat) == 1


def test_3_1_2_six_leaders_start_minor_and_are_promoted():
    promotable = sorted(k for k, v in NAMED_LEADERS.items() if v.get("promotable"))
    assert promotable == sorted(["max_emanuel", "lorraine", "lorges", "victor_amadeus",
                                 "luxembourg", "catinat"])
    s = state()
    lx = leader(s, "lorges", "france", "hills", tr=2, cr=4, ref="lorges")
    assert pieces.face(lx).kind == "minor"
    pieces.promote(lx)
    assert pieces.face(lx).kind == "famous"
    assert pieces.promote_problem(lx).startswith("3.1.2")
    pieces.kill_leader(s, lx)
    assert pieces.face(lx).kind == "minor" and lx.marks.get("locked")
    assert "rest of the game" in pieces.promote_problem(lx)


# --- 3.2 corps --------------------------------------------------------------------------------

def test_3_2_1_a_hit_reduces_then_eliminates_to_the_force_pool():
    s = state()
    c = corps(s, "c1", "dutch", "plain")
    assert pieces.corps_dice([c]) == 1
    pieces.hit(c)
    assert c.strength == 1 and c.hex == "plain"
    pieces.hit(c)
    assert pieces.in_force_pool(c) and c.hex is None


def test_3_2_1_reduced_corps_give_half_a_die_rounded_up():
    s = state()
    assert pieces.corps_dice(stack(s, "r", "dutch", "plain", 0, 3)) == 2
    assert pieces.corps_dice(stack(s, "q", "dutch", "fields", 1, 1)) == 2


def test_3_2_2_restore_and_place_from_the_force_pool():
    s = state()
    c = corps(s, "c1", "dutch", "plain", full=False)
    stacking.restore(s, BOARD, c)
    assert c.strength == 2
    assert stacking.restore_problem(s, BOARD, c).startswith("3.2.2")
    p = corps(s, "p1", "dutch", None)
    stacking.place_from_pool(s, BOARD, p, "plain")
    assert p.hex == "plain" and p.strength == 2


def test_3_2_3_corps_never_combine_or_split():
    s = state()
    stack(s, "a", "dutch", "hills", 4, 2)
    before = sorted(s.units)
    stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE)
    for u in list(s.units.values()):
        pieces.hit(u)
    assert sorted(s.units) == before


# --- 4.1 stacking -----------------------------------------------------------------------------

def test_4_1_1_limits_by_class_and_home_space_exception():
    assert STACKING_LIMIT == {"fertile": 12, "normal": 8, "poor": 4}
    assert [stacking.stacking_limit(BOARD, x) for x in ("fields", "plain", "hills")] == [12, 8, 4]
    assert stacking.stacking_limit(BOARD, "vienna") is None      # Austria home space (designed)
    s = state()
    stack(s, "a", "austria", "vienna", 20, 0)
    assert not stacking.overstacked(s, BOARD, "vienna", ALLIANCE)


def test_4_1_1_leaders_do_not_count_and_the_limit_is_per_player():
    s = state()
    stack(s, "a", "dutch", "hills", 4, 0)
    leader(s, "l1", "dutch", "hills", tr=1, cr=2)
    stack(s, "b", "france", "hills", 4, 0)
    assert not stacking.overstacked(s, BOARD, "hills", ALLIANCE)
    assert not stacking.overstacked(s, BOARD, "hills", BOURBON)


@pytest.mark.parametrize("reason,allowed", [
    ("campaign", False), ("interception", False), ("reinforcement", False), ("transfer", False),
    ("retreat_after_battle", True), ("retreat_winter_quarters", True),
    ("siege_relief_success", True)])
def test_4_1_2_only_mandatory_retreats_and_successful_relief_may_stay_over(reason, allowed):
    s = state()
    stack(s, "a", "dutch", "hills", 4, 0)
    m = corps(s, "m", "dutch", "plain")
    assert (stacking.relocation_problem(s, BOARD, "hills", ALLIANCE, [m.id], reason) is None) == allowed


def test_4_1_3_penalty_1_owner_chooses_which_full_corps_to_reduce():
    s = state()
    d = stack(s, "d", "dutch", "hills", 2, 0)
    b = stack(s, "b", "british", "hills", 2, 1)
    with pytest.raises(ValueError):
        stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE, [b[2].id])   # not a full corps
    with pytest.raises(ValueError):
        stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE, [d[0].id])   # two are needed
    stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE, [d[0].id, b[1].id])
    assert [c.strength for c in d + b] == [1, 2, 2, 1, 1]


def test_4_1_3_penalty_2_and_3_hold_only_while_overstacked():
    s = state()
    st = stack(s, "a", "dutch", "hills", 2, 3)
    assert stacking.restore_problem(s, BOARD, st[2]) is not None
    pieces.hit(st[4])                                   # one corps gone: 4 left, not over
    assert stacking.restore_problem(s, BOARD, st[2]) is None
    assert stacking.activation_cap(s, BOARD, "hills", ALLIANCE, cr=9) == 4


# --- 4.2 / 4.3 / 4.4 --------------------------------------------------------------------------

def test_4_2_friendly_powers_stack_and_are_commanded_together():
    s = state()
    stack(s, "d", "dutch", "plain", 2, 0)
    stack(s, "b", "british", "plain", 2, 0)
    marl = leader(s, "marl", "british", "plain", tr=3, cr=4, minor_tr=3, minor_cr=4,
                  ref="marlborough", back_up=True)   # his British face: TR 3*, CR 4*
    assert stacking.activation_cap(s, BOARD, "plain", ALLIANCE, pieces.command_rating(marl)) == 4
    assert stacking.attacked_dice(s, "plain", ALLIANCE, marl) == 4 + 3


def test_4_3_enemies_share_a_space_at_the_end_of_an_action_only_as_a_garrison():
    s = state()
    corps(s, "f1", "france", "namur")
    stack(s, "d", "dutch", "namur", 3, 0)
    assert stacking.end_of_action_problem(s, BOARD, "namur").startswith("4.3")
    s.units["f1"].mark("garrison", 1)
    leader(s, "gov", "france", "namur", tr=0, cr=1, garrison=1).mark("garrison", 1)
    assert stacking.end_of_action_problem(s, BOARD, "namur") is None
    corps(s, "f2", "france", "namur").mark("garrison", 1)
    assert "one corps" in stacking.end_of_action_problem(s, BOARD, "namur")
    corps(s, "f3", "france", "plain")
    corps(s, "d9", "dutch", "plain")
    assert "unfortified" in stacking.end_of_action_problem(s, BOARD, "plain")


def test_4_4_a_player_sees_only_his_own_hand():
    s = state()
    cards.set_up_decks(s, [{"id": f"a{i}", "deck": "action"} for i in range(4)], dice())
    cards.draw(s, "action", BOURBON)
    cards.draw(s, "action", BOURBON)
    assert len(cards.visible_hand(s, BOURBON, BOURBON)) == 2
    assert cards.visible_hand(s, ALLIANCE, BOURBON) == 2


# --- 5 cards ----------------------------------------------------------------------------------

def test_5_1_each_player_draws_from_the_same_shared_decks():
    s = state()
    cards.set_up_decks(s, [{"id": f"e{i}", "deck": "event"} for i in range(3)], dice())
    top = s.vars["cards"]["event"][:2]
    cards.draw(s, "event", BOURBON)
    cards.draw(s, "event", ALLIANCE)
    assert s.vars["cards"]["hands"] == {BOURBON: [top[0]], ALLIANCE: [top[1]]}


def test_5_2_1_two_decks_shuffled_from_the_dice_and_again_at_the_interphase():
    deck = [{"id": f"e{i}", "deck": "event"} for i in range(10)] + \
        [{"id": f"a{i}", "deck": "action"} for i in range(10)]
    s1, s2, s3 = state(), state(), state()
    cards.set_up_decks(s1, deck, dice(b"one"))
    cards.set_up_decks(s2, list(reversed(deck)), dice(b"one"))
    cards.set_up_decks(s3, deck, dice(b"two"))
    assert s1.vars["cards"]["event"] == s2.vars["cards"]["event"]   # listing order is irrelevant
    assert s1.vars["cards"]["event"] != s3.vars["cards"]["event"]
    assert sorted(s1.vars["cards"]["action"]) == [f"a{i}" for i in range(10)]
    cards.draw(s1, "action", ALLIANCE)
    cards.discard(s1, ALLIANCE, s1.vars["cards"]["hands"][ALLIANCE][0], "action")
    cards.draw(s1, "event", BOURBON)
    cards.interphase(s1, {c["id"]: c["deck"] for c in deck}, dice(b"again"))
    pile = s1.vars["cards"]
    assert len(pile["event"]) == 10 and len(pile["action"]) == 10 and pile["hands"][BOURBON] == []


def test_5_2_2_reserve_cards_wait_until_their_year():
    s = state()
    cards.set_up_decks(s, [{"id": "e1", "deck": "event"},
                           {"id": "x", "deck": "event", "add_in_year": 1693}], dice())
    assert s.vars["cards"]["event"] == ["e1"]
    cards.add_reserve(s, 1692, dice())
    assert s.vars["cards"]["event"] == ["e1"]
    cards.add_reserve(s, 1693, dice())
    assert sorted(s.vars["cards"]["event"]) == ["e1", "x"]


# --- 6.1 victory points -----------------------------------------------------------------------

def test_6_1_1_track_starts_at_15_and_stays_in_0_to_35():
    assert (VP_START, VP_MIN, VP_MAX) == (15, 0, 35)
    s = state(vp=35)
    ledger.change_control(s, BOARD, "lille", ALLIANCE, "siege")
    assert ledger.vp(s) == 35
    with pytest.raises(ValueError):
        ledger.add_vp(s, 1, "no-such-cause")


def test_6_1_1_spaces_table_fortress_levels_and_printed_unfortified_vp():
    s = state()
    assert [ledger.space_vp(BOARD.space(x)) for x in ("derry", "namur", "lille", "village", "plain")] \
        == [1, 2, 3, 1, 0]
    ledger.change_control(s, BOARD, "village", ALLIANCE, "conversion")
    assert ledger.vp(s) == 16
    ledger.change_control(s, BOARD, "hills", ALLIANCE, "conversion")   # nothing printed
    assert ledger.vp(s) == 16
    with pytest.raises(ValueError):
        ledger.change_control(s, BOARD, "namur", ALLIANCE, "conversion")  # a fortress: siege


def test_6_1_1_famous_victory_and_naval_sortie():
    s = state()
    ledger.famous_victory(s, ALLIANCE)
    assert ledger.vp(s) == 17
    ledger.famous_victory(s, BOURBON)
    assert ledger.vp(s) == 15
    seas.naval_battle_won(s, BOARD, "med", BOURBON, attacker=ALLIANCE)   # defender won: no VP
    assert ledger.vp(s) == 15
    seas.naval_battle_won(s, BOARD, "med", BOURBON, attacker=BOURBON)
    assert ledger.vp(s) == 14


def test_6_1_1_dynastic_catastrophe_a_any_of_the_four_killed_gives_the_opponent_2():
    dynastic = sorted(k for k, v in NAMED_LEADERS.items() if v.get("dynastic"))
    assert dynastic == ["james_ii", "max_emanuel", "victor_amadeus", "william_iii"]
    s = state()
    mx = leader(s, "max", "bavaria", "hills", tr=2, cr=3, ref="max_emanuel")
    assert pieces.kill_leader(s, mx)[0]["t"] == "leader-survives"     # unpromoted (A14a)
    pieces.promote(mx)
    pieces.kill_leader(s, mx)
    assert ledger.vp(s) == 17                                         # Bavaria is Bourbon here


def test_6_1_1_dynastic_sign_follows_the_power_s_side_at_the_time():
    s = state()
    va = leader(s, "va", "savoy", "plain", tr=2, cr=3, ref="victor_amadeus")
    pieces.promote(va)
    s.vars["powers"]["savoy"] = BOURBON                               # Savoy changed sides
    pieces.kill_leader(s, va)
    assert ledger.vp(s) == 17


def test_6_1_1_dynastic_catastrophe_b_ransom_is_the_cr_and_only_on_the_famous_face():
    s = state()
    mx = leader(s, "max", "bavaria", "hills", tr=2, cr=4, ref="max_emanuel")
    ev = pieces.capture_leader(s, mx)                                 # still minor: no ransom
    assert ledger.vp(s) == 15 and ev[0]["t"] == "leader-captured"
    s2 = state(vp=33)
    mx2 = leader(s2, "max", "bavaria", "hills", tr=2, cr=4, ref="max_emanuel")
    pieces.promote(mx2)
    pieces.capture_leader(s2, mx2)
    assert ledger.vp(s2) == 35                                        # paid, clamped at 35


def test_6_1_1_london_penalty_only_while_the_bourbons_hold_it():
    s = state(vp=10)
    assert ledger.winter_london(s, "london") == []
    s.vars["control"]["london"] = BOURBON
    assert ledger.winter_london(s, "london", applies=False) == []
    ledger.winter_london(s, "london")
    assert ledger.vp(s) == 8


@pytest.mark.parametrize("cause", ["savoy_enters", "glorious_revolution", "scottish_rising",
                                   "scottish_pacification", "savoy_neutral", "event_card",
                                   "scenario_rule"])
def test_6_1_2_control_changes_by_these_causes_never_score(cause):
    assert CONTROL_CAUSES[cause] is False
    s = state()
    events = ledger.change_control(s, BOARD, "lille", ALLIANCE, cause)
    assert ledger.vp(s) == 15 and ledger.controller(s, "lille") == ALLIANCE
    assert events == [{"t": "control", "space": "lille", "side": ALLIANCE, "was": BOURBON,
                       "cause": cause, "scores": False, "value": 3, "rule": "6.1.2"}]
    ledger.change_control(s, BOARD, "lille", BOURBON, "siege")       # later sieges score
    assert ledger.vp(s) == 12


def test_6_1_2_savoy_neutral_scores_nothing_even_later_by_siege_to_no_side():
    s = state()
    ledger.change_control(s, BOARD, "namur", "", "savoy_neutral")
    assert ledger.vp(s) == 15 and ledger.controller(s, "namur") == ""


def test_designed_values_are_in_one_place():
    assert designed.VP_NEUTRAL == VP_START
    assert designed.KWW_LABELS[designed.KWW_START] == 0


def test_4_1_2_and_4_1_3_at_the_end_of_a_retreat_the_penalty_follows_at_once():
    s = state()
    stack(s, "a", "dutch", "hills", 3, 0)
    retreating = stack(s, "r", "british", "plain", 2, 1)
    for c in retreating:
        c.hex = "hills"                                     # a mandatory retreat into Hills (limit 4)
    events = stacking.end_relocation(s, BOARD, "hills", ALLIANCE, "retreat_after_battle")
    assert len(events) == 3                                 # 5 full -> 2 full (half of 4)
    assert sum(c.strength == 2 for c in pieces.corps_of(s, "hills", ALLIANCE)) == 2
    s2 = state()
    stack(s2, "a", "dutch", "hills", 4, 0)
    corps(s2, "m", "dutch", "hills")                        # arrived by a Campaign move
    with pytest.raises(ValueError, match="4.1.2"):
        stacking.end_relocation(s2, BOARD, "hills", ALLIANCE, "campaign")
    assert stacking.end_relocation(s2, BOARD, "plain", ALLIANCE, "campaign") == []
