"""The campaign in the player's words (issue 12 items 9, 11, 12 for FoW) and the plan form of
steps 4-7: expected values come from the spec's rules and G-P's tables, worked by hand."""

from fractions import Fraction

from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.fow import geo, mapview, planform, words

from fow_helpers import O, Script, game, plans, start, to_plans

ATTACK = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])]
NORTH = [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]]
SOUTH = [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]]


def _at_execute():
    g = game(ATTACK)
    start(g)
    plans(g, NORTH, SOUTH)
    return g


def test_gp4_odds_summary_gives_m_of_r_and_the_chance_of_2d6():
    g = _at_execute()
    # raw FP: two Grant troops 2 x 80 = 160 against one Schützen platoon 45: R = 32/9 >= 3, so
    # M(R) = +4 and the attacker wins on 2D6 + 4 >= 8, i.e. 2D6 >= 4: 33 of 36 (91 %)
    text = g.odds_summary(O("act", actor="north-hq1", path=[21]))
    assert "160 FP against 45 FP" in text and "M(R) +4" in text
    assert "2D6 4+" in text and "91 %" in text
    assert words.attack_chance(Fraction(3, 2), Fraction(1)) == (1, Fraction(21, 36))  # 1.5 -> +1, 7+
    assert words.attack_chance(Fraction(1), Fraction(0)) == (None, Fraction(1))        # empty point


def test_s14_1_why_not_names_the_rule_for_a_point_out_of_reach():
    g = _at_execute()
    assert g.why_not("gb-1", Hex(*geo.hex_of(21))) is None        # the attack may go there
    far = g.why_not("gb-1", Hex(*geo.hex_of(36)))
    assert far and "beyond the reach" in far and "(14.1)" in far
    theirs = g.why_not("de-1", Hex(*geo.hex_of(15)))
    assert theirs and "turn" in theirs                              # south does not act now


def test_g19_why_not_in_the_plan_step_points_to_the_plan_screen():
    g = game(ATTACK)
    start(g)
    to_plans(g)
    reason = g.why_not("gb-1", Hex(*geo.hex_of(21)))
    assert reason and "plan screen" in reason and "G-19" in reason


def test_g08_unit_card_shows_the_catalogue_values_labelled_designed():
    g = _at_execute()
    card = dict(g.unit_card("gb-1"))
    assert card["teams"] == "3 of 3" and card["type"] == "tanks"
    assert card["value"].startswith("80 of 80 FP")
    assert card["company"].startswith("gb") and card["point"] == "15"
    assert card["order"] == "Attack"
    assert "DESIGNED" in card["note"]


def test_s7_player_aid_marks_the_current_step_and_labels_designed_tables():
    g = game(ATTACK)
    start(g)
    to_plans(g)
    aid = dict(g.player_aid())
    seq = aid["Turn sequence (7)"]
    assert [line for line in seq if line.startswith("> ")] == \
        ["> 4-7 Secret plan: posture, orders and participants, support bought (G-19)"]
    assert any("DESIGNED" in line and "G-P" in line for line in aid["Battle resolver"])
    assert any("DESIGNED" in line and "G-08" in line for line in aid["Platoons"])
    # M(R) +0 wins on 2D6 >= 8: 15 of 36 = 41 %
    assert any("M +0 41 %" in line for line in aid["Battle resolver"])


def test_gp_battle_report_lists_strengths_modifiers_rolls_losses_and_the_retreat():
    g = _at_execute()
    events = list(g.apply(O("act", actor="north-hq1", path=[21]), Script()))
    events += g.apply(O("withdraw", choice=False), Script())
    events += g.apply(O("withdraw", choice=False), Script(3, 3, 4))
    events += g.apply(O("retreat", company="de", path=[27]), Script(4))
    (title, lines), = words.battle_reports(g, events)
    text = "\n".join(lines)
    assert title.startswith("Battle for point 21")
    # the worked numbers of test_gp_whole_battle_with_scripted_dice: 192 against 81, M +2, 3 + 3
    assert "Attacker strength 192" in text and "commander +2" in text
    # the resolver's notes name the commander and the prepared defence that make the 81
    assert "Defender strength 81" in text and "commander +2 x6/5" in text
    assert "prepared defence (de) x3/2" in text
    assert "M(R) +2; 2D6 = 6, 6 +2 = 8 against 8" in text
    assert "loses 2 team(s)" in text
    assert "retreats 21 → 27, exhausted" in text
    assert "taken prisoner" in text and "rolled 4 (retreat test" in text


def test_s11_1_plan_form_offers_the_postures_of_the_side_s_role():
    g = game(ATTACK)
    start(g)
    to_plans(g)
    north = planform.build(g, "north")    # the north holds the initiative (si = north)
    south = planform.build(g, "south")
    assert [v for _, v in north[0].options] == ["cautious", "decisive", "breakthrough"]
    assert [v for _, v in south[0].options] == ["hard_defence", "withdrawal", "counter_attacks"]


def test_s11_3_a_plus_two_commander_is_offered_every_order():
    g = game(ATTACK)
    start(g)             # each side's first commander is +2 (G-16)
    to_plans(g)
    fields = planform.build(g, "north")
    order = next(f for f in fields if f.kind == "order")
    assert [v for _, v in order.options][1:] == ["rif", "attack", "breakthrough", "maneuver", "disengage",
                                                 "reserve", "prepared_defence"]


def test_g55_plan_form_rows_name_the_commander_order_and_participants():
    g = game(ATTACK)
    start(g)
    to_plans(g)
    fields = planform.build(g, "north")
    fields[0].choose("decisive")
    planform.refresh(g, "north", fields)
    order = next(f for f in fields if f.kind == "order")
    order.choose("attack")
    assert planform.rows(fields) == [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]]
    cost, why = planform.check(g, "north", fields)
    assert (cost, why) == (0, None)
    part = next(f for f in fields if f.kind == "with")
    part.choose(False)   # the company stays out: the order has no participants
    assert planform.rows(fields)[1] == ["order", "north-hq1", "attack"]


def test_s2_8_campaign_map_text_marks_points_terrain_and_groups():
    g = game(ATTACK)
    start(g)
    lines = mapview.map_lines(g, marked=15)
    text = "\n".join(lines)
    assert "[15.]" in text and "01." in text and "36." in text
    assert "n160+2" in text or "N160+2" in text     # the north's two Grants (2 x 80 FP), +2 HQ
    groups = "\n".join(mapview.group_lines(g))
    assert "15: gb 160" in groups and "21: de 45" in groups


def test_s14_3_step_8_orders_read_as_commander_order_and_points():
    g = _at_execute()
    said = {words.order_words(g, o) for o in g.legal_orders()}
    # 160 FP against 45: M(R) +4, 2D6 >= 4 (91 %), as in the odds summary above
    assert "HQ 1 (+2) with gb: Attack into enemy at 21 via 16 (160 FP against 45, M(R) +4, " \
           "about 91 % before modifiers)" in said
    assert "HQ 1 (+2) with gb: Attack not carried out (stays)" in said
    assert "resign the campaign" in said


def test_s7_event_log_lines_in_plain_words():
    g = _at_execute()
    events = list(g.apply(O("act", actor="north-hq1", path=[21]), Script()))
    events += g.apply(O("withdraw", choice=False), Script())
    events += g.apply(O("withdraw", choice=False), Script(3, 3, 4))
    said = [words.event_words(g, e) for e in events]
    assert "Battle at 21: strength 192 against 81, M(R) +2, 2D6 6: the attacker wins (C: battle reports)" in said
    assert any(s.startswith("Contact at 21: north attack with 6 teams (6 tanks)") for s in said)
    assert all(s == "" for s, e in zip(said, events) if e["t"] == "die-roll")  # the generic line
    moved = words.event_words(g, {"t": "retreated", "company": "de", "path": [27]})
    assert moved == "de retreats to 27, exhausted"


def test_s2_8_a_hex_is_described_as_its_campaign_point_with_the_groups_in_it():
    g = _at_execute()
    lines = g.ruleset.place_words(g, Hex(*geo.hex_of(21)))
    assert lines[0] == "point 21"
    assert lines[1] == "south: de 45 FP; HQ 1 (+2)"


def test_gp3_battle_report_names_prepared_defence_and_the_tank_penalty():
    # G-P 3: prepared defence x1.5 for the defender; tanks attacking into hills x0.75. Point 21
    # (column 3, row 4) is hills here, so the defender also has cover x1.25.
    rows = [". . . . . ."] * 3 + [". . h . . ."] + [". . . . . ."] * 2
    g = game(ATTACK, rows=rows)
    start(g)
    plans(g, NORTH, SOUTH)
    events = list(g.apply(O("act", actor="north-hq1", path=[21]), Script()))
    events += g.apply(O("withdraw", choice=False), Script())
    events += g.apply(O("withdraw", choice=False), Script(3, 3, 4, 4, 4, 4, 4, 4))
    battle = next(e for e in events if e["t"] == "battle")
    # attacker: 2 Grants x 80 x 3/4 (hills) x 6/5 (commander +2) = 144
    # defender: 45 x 3/2 (prepared) x 5/4 (hills) x 6/5 = 405/4
    assert Fraction(*battle["s_att"]) == 144 and Fraction(*battle["s_def"]) == Fraction(405, 4)
    assert "tanks and armoured cars into hills (2 platoon(s)) x3/4" in battle["notes_att"]
    assert "prepared defence (de) x3/2" in battle["notes_def"]
    assert "prepared defence" not in " ".join(battle["notes_att"])
    (title, lines), = words.battle_reports(g, events)
    text = "\n".join(lines)
    assert "prepared defence (de) x3/2" in text and "into hills (2 platoon(s)) x3/4" in text


def test_s17_5_what_the_other_side_did_is_told_by_company_and_point():
    # the whole battle of test_gp_whole_battle_with_scripted_dice: the Grants take point 21 (17.5),
    # the Schützen retreat 21 -> 27 and lose 2 teams in the battle and 1 taken prisoner (6 -> 3)
    from hexwar.tui.turn_summary import Snapshot, summary_lines
    g = _at_execute()
    before = Snapshot.take(g, 0)
    events = list(g.apply(O("act", actor="north-hq1", path=[21]), Script()))
    events += g.apply(O("withdraw", choice=False), Script())
    events += g.apply(O("withdraw", choice=False), Script(3, 3, 4))
    events += g.apply(O("retreat", company="de", path=[27]), Script(4))
    gb, de = words.company_name(g, "gb"), words.company_name(g, "de")
    lines, hexes = summary_lines(g, before, events, ["north"])
    assert lines[1] == f"moved 2 company(ies): {de} 21-27 (retreated), {gb} 15-21"  # by company id
    assert "battles: 1" in lines
    assert f"losses of {words.side_name(g, 'south')}: {de} -3 team(s)" in lines
    assert not any("platoon" in line for line in lines)
    assert sorted(tuple(h) for h in hexes) == sorted([geo.hex_of(21), geo.hex_of(27)])
