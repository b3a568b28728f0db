"""The spec's test vectors T1-T24 (shared/rules/spanish-succession.md, Part 8), one test each.

Expected values are the spec's; values it marks hypothetical (*) are chosen here and said so.
"""

import os
import subprocess
import sys

import pytest

from hexwar.engine.rulesets.npws import cards, kww, ledger, pieces, seas, stacking, victory
from hexwar.engine.rulesets.npws.facts import ALLIANCE, BOURBON

from npws_helpers import BOARD, corps, dice, leader, stack, state


def test_T1_poor_space_overstacked_after_retreat():
    s = state()
    st = stack(s, "a", "dutch", "hills", full=3, reduced=2)  # Hills is Poor: limit 4
    assert stacking.stacking_limit(BOARD, "hills") == 4
    assert stacking.overstacked(s, BOARD, "hills", ALLIANCE)
    assert stacking.relocation_problem(s, BOARD, "hills", ALLIANCE, [], "retreat_after_battle") is None
    assert stacking.reductions_needed(s, BOARD, "hills", ALLIANCE) == 1
    stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE, [st[0].id])
    assert sorted(c.strength for c in st) == [1, 1, 1, 2, 2]          # 2 full + 3 reduced
    assert stacking.restore_problem(s, BOARD, st[0]).startswith("4.1.3")
    pool = corps(s, "pool1", "dutch", None)
    assert stacking.place_problem(s, BOARD, pool, "hills").startswith("4.1.3")
    assert stacking.activation_cap(s, BOARD, "hills", ALLIANCE, cr=6) == 4
    assert stacking.attacked_dice(s, "hills", ALLIANCE) == 4        # ceil(2 + 1.5)


def test_T2_normal_space_with_five_corps_is_not_overstacked():
    s = state()
    stack(s, "a", "dutch", "plain", full=3, reduced=2)
    assert not stacking.overstacked(s, BOARD, "plain", ALLIANCE)
    assert stacking.reductions_needed(s, BOARD, "plain", ALLIANCE) == 0
    assert stacking.activation_cap(s, BOARD, "plain", ALLIANCE, cr=6) == 5


def test_T3_fertile_space_thirteen_corps_after_retreat():
    s = state()
    stack(s, "a", "dutch", "fields", full=8, reduced=5)
    assert stacking.overstacked(s, BOARD, "fields", ALLIANCE)
    assert stacking.reductions_needed(s, BOARD, "fields", ALLIANCE) == 2
    stacking.reduce_overstack(s, BOARD, "fields", ALLIANCE)
    here = pieces.corps_of(s, "fields", ALLIANCE)
    assert sum(c.strength == 2 for c in here) == 6 and sum(c.strength == 1 for c in here) == 7
    assert stacking.activation_cap(s, BOARD, "fields", ALLIANCE, cr=20) == 12
    assert stacking.attacked_dice(s, "fields", ALLIANCE) == 10      # ceil(6 + 3.5)


def test_T4_campaign_move_ending_with_nine_corps_in_a_normal_space_is_illegal():
    s = state()
    stack(s, "a", "dutch", "plain", full=8, reduced=0)
    mover = corps(s, "m1", "dutch", "fields")
    problem = stacking.path_problem(s, BOARD, ALLIANCE, [mover.id], ["fields", "plain"])
    assert problem is not None and problem.startswith("4.1.2") and "9 corps" in problem


def test_T5_passing_through_a_full_space_is_legal():
    s = state()
    stack(s, "a", "dutch", "plain", full=8, reduced=0)
    mover = corps(s, "m1", "dutch", "fields")
    assert stacking.path_problem(s, BOARD, ALLIANCE, [mover.id], ["fields", "plain", "vienna"]) is None


def test_T6_interception_of_two_corps_into_a_poor_space_with_three_is_illegal():
    s = state()
    stack(s, "b", "france", "hills", full=3, reduced=0)
    assert stacking.intercept_problem(s, BOARD, "hills", BOURBON, 2).startswith("4.1.2")
    assert stacking.intercept_problem(s, BOARD, "hills", BOURBON, 1) is None


def test_T7_vp_never_above_35():
    s = state(vp=34)
    ev = ledger.famous_victory(s, ALLIANCE)
    assert ledger.vp(s) == 35 and ev["asked"] == 2 and ev["moved"] == 1


def test_T8_vp_never_below_0():
    s = state(vp=1)
    ledger.famous_victory(s, BOURBON)
    assert ledger.vp(s) == 0


def test_T9_kww_same_label_then_one_less():
    s = state(vp=15)
    # the first "-1" box counted from the Alliance end is index 4 of the designed labels
    s.vars["kww_labels"] = [-3, -2, -1, -1, 0]
    s.vars["kww"] = 3
    kww.move_kww(s, BOURBON)
    assert ledger.vp(s) == 15 and s.vars["kww"] == 2
    kww.move_kww(s, BOURBON)
    assert ledger.vp(s) == 14 and s.vars["kww"] == 1


def test_T10_derry_by_siege_scores_one_by_the_glorious_revolution_none():
    s = state()
    ledger.change_control(s, BOARD, "derry", ALLIANCE, "siege")
    assert ledger.vp(s) == 16
    s2 = state()
    events = ledger.change_control(s2, BOARD, "derry", ALLIANCE, "glorious_revolution")
    assert ledger.vp(s2) == 15 and ledger.controller(s2, "derry") == ALLIANCE
    assert events[0]["scores"] is False and events[0]["rule"] == "6.1.2"


def test_T11_level_3_fortress_taken_and_retaken_by_siege():
    s = state()
    ledger.change_control(s, BOARD, "lille", ALLIANCE, "siege")
    assert ledger.vp(s) == 18
    ledger.change_control(s, BOARD, "lille", BOURBON, "siege")
    assert ledger.vp(s) == 15


def test_T12_an_event_card_gives_a_level_2_fortress_for_no_vp():
    s = state()
    ledger.change_control(s, BOARD, "london", BOURBON, "event_card")
    assert ledger.vp(s) == 15 and ledger.controller(s, "london") == BOURBON


def test_T13_william_iii_captured_on_his_famous_face_pays_his_cr():
    s = state()
    w = leader(s, "william", "dutch", "plain", tr=2, cr=3, ref="william_iii")  # CR 3*
    pieces.capture_leader(s, w)
    assert ledger.vp(s) == 12 and w.hex is None and w.marks.get("ransomed")


def test_T14_james_ii_captured_is_eliminated_instead():
    s = state()
    j = leader(s, "james", "jacobite", "dublin", tr=1, cr=2, ref="james_ii")
    events = pieces.capture_leader(s, j)
    assert j.marks.get("back") and j.marks.get("locked")
    assert ledger.vp(s) == 17
    assert events[0]["t"] == "leader-not-ransomable"


def test_T15_william_iii_killed_in_battle():
    s = state()
    w = leader(s, "william", "dutch", "plain", tr=2, cr=3, ref="william_iii")
    pieces.kill_leader(s, w, "battle")
    assert w.marks.get("back") and w.marks.get("locked") and ledger.vp(s) == 13


def test_T16_unpromoted_luxembourg_cannot_be_eliminated():
    s = state()
    lux = leader(s, "lux", "france", "hills", tr=3, cr=4, ref="luxembourg")
    assert pieces.face(lux).kind == "minor"
    events = pieces.kill_leader(s, lux, "battle")
    assert events[0]["t"] == "leader-survives" and events[0]["rule"] == "3.1.2"
    assert lux.hex == "hills" and not lux.marks.get("locked")


def test_T17_marlborough_killed_is_removed_with_no_minor_leader():
    s = state()
    m = leader(s, "marl", "british", "plain", tr=3, cr=4, ref="marlborough", back_up=True)
    assert pieces.face(m).power == "british"
    pieces.kill_leader(s, m, "battle")
    assert m.hex is None and m.marks.get("removed") and ledger.vp(s) == 15


def test_T18_waldeck_without_and_with_a_dutch_corps():
    s = state()
    w = leader(s, "waldeck", "dutch", "plain", tr=0, cr=2, ref="waldeck")  # ref gives TR 1
    corps(s, "b1", "british", "plain")
    assert pieces.effective_tr(s, w) == 0
    corps(s, "d1", "dutch", "plain")
    assert pieces.effective_tr(s, w) == 1


def test_T19_lorraine_on_his_minor_face_without_native_corps():
    s = state()
    lor = leader(s, "lorraine", "austria", "plain", tr=3, cr=4, minor_tr=2, minor_cr=2,
                 ref="lorraine")  # x* = 2
    assert pieces.face(lor).kind == "minor" and pieces.face(lor).stripe
    assert pieces.effective_tr(s, lor) == 1
    lor.stats = {**lor.stats, "back_tr": 0}
    assert pieces.effective_tr(s, lor) == 0                        # floored (A9)


def test_T20_cr_5_rallies_himself_and_three_corps():
    s = state()
    assert pieces.rally_capacity(leader(s, "x", "dutch", "plain", tr=1, cr=5)) == 3


def test_T21_london_held_by_the_bourbons_in_winter_quarters():
    s = state(vp=10)
    s.vars["control"]["london"] = BOURBON
    ledger.winter_london(s, "london")
    assert ledger.vp(s) == 8


def test_T22_bourbons_use_gibraltar_only_while_they_hold_the_med():
    s = state()
    s.vars["sea"]["med"] = ALLIANCE
    assert seas.port_problem(s, BOARD, BOURBON, "gibraltar", "med", "move") is not None
    assert seas.port_problem(s, BOARD, BOURBON, "gibraltar", "atlantic", "move") is not None
    assert seas.sea_moves(s, BOARD, BOURBON, "gibraltar") == ()
    s.vars["sea"]["med"] = BOURBON
    assert seas.port_problem(s, BOARD, BOURBON, "gibraltar", "med", "move") is None
    assert seas.sea_moves(s, BOARD, BOURBON, "gibraltar") == ("toulon",)


def test_T23_1693_cards_join_the_event_deck_and_it_is_reshuffled_before_the_draws():
    s = state()
    deck = [{"id": f"e{i}", "deck": "event"} for i in range(6)]
    deck += [{"id": "late1", "deck": "event", "add_in_year": 1693},
             {"id": "late2", "deck": "event", "add_in_year": 1693},
             {"id": "a1", "deck": "action"}]
    d = dice()
    cards.set_up_decks(s, deck, d)
    assert sorted(s.vars["cards"]["reserve"]) == ["late1", "late2"]
    assert cards.add_reserve(s, 1692, d) == []
    before = list(s.vars["cards"]["event"])
    rolls = len(d.rolls)
    ev = cards.add_reserve(s, 1693, d)
    assert ev[0]["cards"] == ["late1", "late2"] and s.vars["cards"]["reserve"] == {}
    assert sorted(s.vars["cards"]["event"]) == sorted(before + ["late1", "late2"])
    assert len(d.rolls) - rolls == 7                                 # a shuffle of 8 cards
    cards.draw(s, "event", BOURBON)
    cards.draw(s, "event", ALLIANCE)
    assert len(s.vars["cards"]["event"]) == 6


def _scripted_game() -> str:
    s = state()
    d = dice(b"T24")
    cards.set_up_decks(s, [{"id": f"e{i}", "deck": "event"} for i in range(9)]
                       + [{"id": f"a{i}", "deck": "action"} for i in range(9)], d)
    stack(s, "a", "dutch", "hills", 3, 2)
    stacking.reduce_overstack(s, BOARD, "hills", ALLIANCE)
    ledger.change_control(s, BOARD, "lille", ALLIANCE, "siege")

    class Ctx:  # what kww_roll asks of a Resolution: a roll-off with these dice
        @staticmethod
        def roll_off(why, a, b):
            while True:
                ra, rb = d.roll(6, why), d.roll(6, why)
                if ra != rb:
                    return (a if ra > rb else b), ra, rb
    kww.kww_roll(s, Ctx)
    cards.draw(s, "action", BOURBON)
    cards.interphase(s, {f"{k}{i}": ("event" if k == "e" else "action")
                         for k in "ea" for i in range(9)}, d)
    return s.digest()


def test_T24_same_scenario_seed_and_orders_give_the_same_state_everywhere():
    here = _scripted_game()
    assert here == _scripted_game()
    code = ("import sys; sys.path.insert(0, %r); import test_npws_vectors as t; "
            "print(t._scripted_game())" % os.path.dirname(__file__))
    for seed in ("1", "987"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, timeout=60)
        assert out.stdout.strip() == here, out.stderr


def test_end_on_points_tie_goes_to_the_tie_break_space():
    s = state(vp=15)
    assert victory.end_on_points(s, "madrid") == BOURBON
    s.vars["control"]["madrid"] = ALLIANCE
    assert victory.end_on_points(s, "madrid") == ALLIANCE
    s.vars["control"]["madrid"] = ""
    assert victory.end_on_points(s, "madrid") is None
    s.vars["vp"] = 16
    assert victory.end_on_points(s, "madrid") == ALLIANCE


@pytest.mark.parametrize("vp,winner", [(14, BOURBON), (16, ALLIANCE)])
def test_end_on_points_off_the_neutral_value(vp, winner):
    assert victory.end_on_points(state(vp=vp), "london") == winner
