"""The player's questions answered by the Ancients rules: why not (a unit at a hex), the unit
card, the one-line combat preview, the side status and the player aid. Expected words come from
portable-wargame.md section 4."""

from hexwar.engine import Game

from ancients_helpers import E, NE, H, begin, scenario, walk


def game_of(units, **kw):
    g = Game(scenario(units, **kw))
    begin(g, "a")
    return g


def test_4_7_why_not_in_the_initiative_phase_no_unit_acts():
    g = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    assert "Initiative" in g.why_not("a1", H(g, "0505")) and "(4.7)" in g.why_not("a1", H(g, "0505"))


def test_4_8_why_not_beyond_the_movement_allowance():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")])
    far = walk(g, "0506", NE, NE, NE)          # 3 cells; Heavy Infantry moves 2 (4.2)
    reason = g.why_not("a1", H(g, far))
    assert "3 cells away" in reason and "may move 2" in reason and "(4.8)" in reason
    assert g.why_not("a1", H(g, walk(g, "0506", NE, NE))) is None   # within 2: a legal move


def test_4_8_8_why_not_only_one_unit_per_cell():
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("a2", "a", "HI", "0606", "NE"),
                 ("b1", "b", "HI", "0101", "SE")])
    assert "one unit per cell" in g.why_not("a1", H(g, "0606"))


def test_4_8_terrain_table_why_not_heavy_infantry_into_forest():
    rows = [" ".join("." * 10)] * 8
    g0 = Game(scenario([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    forest = walk(g0, "0506", E)
    c, r = g0.map.offset(H(g0, forest))
    rows[r] = " ".join("F" if i == c else "." for i in range(10))
    g = game_of([("a1", "a", "HI", "0506", "NE"), ("b1", "b", "HI", "0101", "SE")], rows=rows)
    reason = g.why_not("a1", H(g, forest))
    assert "Heavy Infantry may not enter forest" in reason and "4.8" in reason


def test_1_6_4_why_not_a_target_outside_the_field_of_fire():
    # archers face NE; an enemy two cells straight behind them (SW) is outside the 90 degree sector
    g0 = Game(scenario([("a1", "a", "archers", "0505", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    behind = walk(g0, "0505", 4, 4)
    g = game_of([("a1", "a", "archers", "0505", "NE"), ("b1", "b", "HI", behind, "NE")])
    assert "field of fire (1.6.4)" in g.why_not("a1", H(g, behind))


def test_4_10_melee_preview_line_says_what_each_side_needs():
    g0 = Game(scenario([("a1", "a", "HI", "0505", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    ahead = walk(g0, "0505", NE)
    g = game_of([("a1", "a", "HI", "0505", "NE"), ("b1", "b", "HI", ahead, "SW")])
    order = next(o for o in g.legal_orders() if o.kind == "melee")
    odds = g.odds(order)
    # 4.10: 1d6 + modifiers, a total of 5 or more hits; the need is 5 minus the modifiers
    need_a = 5 - sum(v for _, v in odds["attacker"]["modifiers"])
    need_d = 5 - sum(v for _, v in odds["defender"]["modifiers"])
    line = g.odds_summary(order)
    assert line.startswith("Melee: you hit on ")
    assert f"you hit on {need_a}+" in line and f"they hit on {need_d}+" in line
    assert f"({round((7 - need_a) * 100 / 6)} %)" in line


def test_4_11_unit_card_in_words_with_the_hit_table_of_its_class():
    g = game_of([("a1", "a", "HI", "0505", "NE", "poor"), ("b1", "b", "HI", "0101", "SE")])
    card = dict(g.unit_card("a1"))
    assert card["type"] == "Heavy Infantry"
    assert card["strength"] == "4 of 4" and card["movement"] == "2" and card["facing"] == "NE"
    assert card["grade"] == "poor"
    assert card["when hit"].startswith("loses 1 strength on 1-4")   # 4.11: poor loses on 1-4
    assert card["status"] == "ready"
    text = " ".join(f"{k} {v}" for k, v in card.items())
    for raw in ("True", "False", "dash", "shoot_checked"):
        assert raw not in text


def test_4_6_side_status_names_the_exhaustion_point_in_words():
    g = game_of([("a1", "a", "HI", "0505", "NE"), ("b1", "b", "HI", "0101", "SE")])
    line = g.status_lines("a")[0]
    assert line.startswith("lost 0 of 4;") and "exhausted at" in line and "False" not in line


def test_4_7_player_aid_marks_the_activation_step_and_prints_the_hit_table():
    g = game_of([("a1", "a", "HI", "0505", "NE"), ("b1", "b", "HI", "0101", "SE")])
    aid = dict(g.player_aid())
    marked = [line for line in aid["Sequence of play"] if line.startswith("> ")]
    assert len(marked) == 1 and "Activation" in marked[0]
    assert any(line.split()[:3] == ["average", "1-3", "4-6"] for line in aid["Combat and hits"])
    assert any(line.startswith("Heavy Infantry (HI)") for line in aid["Unit types"])
    assert any(line.startswith("forest:") for line in aid["Terrain effects"])


def test_4_9_why_not_a_target_beyond_range_names_the_shooting_rule():
    # archers: range 3 (4.2); an enemy 5 cells straight ahead is out of range
    g0 = Game(scenario([("a1", "a", "archers", "0508", "NE"), ("b1", "b", "HI", "0101", "SE")]))
    far = walk(g0, "0508", NE, NE, NE, NE, NE)
    g = game_of([("a1", "a", "archers", "0508", "NE"), ("b1", "b", "HI", far, "SW")])
    assert g.why_not("a1", H(g, far)) == "the target is 5 cells away; range is 3 (4.9)"
