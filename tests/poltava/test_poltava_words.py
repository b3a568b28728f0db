"""The player's questions answered by the Poltava rules: why not, the counter's factors on the
card, the melee preview line (column, shifts, DRM, chance of each result), the player aid."""

from fractions import Fraction

from hexwar.engine.rulesets.poltava.data import COLUMNS, CRT_ROWS

from hexwar.engine.rulesets.poltava.words import column_words
from poltava_helpers import O, U, game


def test_R4_4_why_not_woods_are_impassable():
    rows = ["." * 10, "....W.....", *["." * 10] * 8]
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0810")], rows=rows)
    reason = g.why_not("a", g.map.parse("0502"))
    assert "woods" in reason and "impassable" in reason and "R4.4" in reason


def test_R4_4_why_not_an_enemy_holds_the_hex():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503")])
    assert "enemy" in g.why_not("a", g.map.parse("0503")) and "R4.4" in g.why_not("a", g.map.parse("0503"))


def test_R9_4_4_why_not_artillery_does_not_move():
    g = game([U("a", "sweden", "art", "0501"), U("b", "sweden", "sw-inf", "0505"),
              U("z", "russia", "ru-inf", "1010")])
    assert "R9.4.4" in g.why_not("a", g.map.parse("0502"))


def test_R4_2_why_not_beyond_the_movement_points():
    # MA 2: 2 hexes, or 4 with long movement (R4.8); 5 hexes are out of reach
    g = game([U("a", "sweden", "sw-inf", "0501", stats={"ma": 2}), U("z", "russia", "ru-inf", "1010")])
    reason = g.why_not("a", g.map.parse("0506"))
    assert "2 MP" in reason and "R4.2" in reason
    assert g.why_not("a", g.map.parse("0503")) is None


def test_R2_1_card_shows_the_counters_factors():
    g = game([U("a", "sweden", "sw-guard", "0501"), U("z", "russia", "ru-inf", "1010")])
    card = dict(g.unit_card("a"))
    # the designed counter (NOTES.md, spec 15.3): CS 3, Fire 5, MA 4, 3 stars; full side
    assert card["type"] == "Swedish Guards infantry"
    assert card["steps"] == "2 of 2 (full side)"
    assert card["combat strength"] == "3"
    assert card["fire"].startswith("5 (hits on 5+)")     # R6.4: a hit is a roll >= Fire
    assert card["movement"] == "4 MP" and card["stars"].startswith("3 ")


def test_R6_4_fire_preview_line_hits_on_the_fire_value_or_more():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503")])
    g.apply(O("end-phase"))
    assert g.state.phase == "fire"
    order = next(o for o in g.legal_orders() if o.kind == "fire")
    assert g.odds_summary(order) == "Fire 5: hits on 5+ (33 %)"   # 5 or 6 on a d6


def test_R8_6_melee_preview_line_reads_the_printed_table():
    g = game([U("a", "russia", "ru-inf", "0502"), U("z", "sweden", "sw-inf", "0503"),
              U("y", "sweden", "sw-inf", "0101")], first="russia")
    g.apply(O("end-phase"))
    g.apply(O("end-phase"))
    assert g.state.phase == "melee"
    order = next(o for o in g.legal_orders() if o.kind == "attack")
    odds = g.odds(order)
    line = g.odds_summary(order)
    assert line.startswith(f"Melee 4 vs 3: {column_words(odds['column'])}")   # ru-inf CS 4, sw-inf CS 3
    # every result of that column of the Melee Table, die 1..6 plus the DRM (clamped)
    col = COLUMNS.index(odds["column"])
    chance: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = CRT_ROWS[max(1, min(6, die + odds["drm"]))][col]
        chance[r] = chance.get(r, Fraction(0)) + Fraction(1, 6)
    words = {"D": "they lose ", "A": "you lose "}
    for result, p in chance.items():
        core = result.rstrip("*")
        said = "both lose 1" if core == "EX" else words[core[0]] + core[1:]
        assert f"{said}{'*' if result.endswith('*') else ''} {int(p * 100 + Fraction(1, 2))} %" in line


def test_R3_player_aid_marks_the_current_phase_and_prints_the_melee_table():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "1010")])
    aid = dict(g.player_aid())
    marked = [line for line in aid["Sequence of play"] if line.startswith("> ")]
    assert marked == ["> A1. Sweden: Movement"]
    g.apply(O("end-phase"))
    marked = [line for line in dict(g.player_aid())["Sequence of play"] if line.startswith("> ")]
    assert marked == ["> A2. Sweden: Fire"]
    die6 = next(line for line in aid["Combat tables"] if line.split()[:1] == ["6"])
    assert die6.split()[1:] == list(CRT_ROWS[6])     # the printed row, as in spec 8.6


def test_R9_4_4_selecting_artillery_in_the_movement_phase_says_it_does_not_move():
    g = game([U("a", "sweden", "art", "0501"), U("b", "sweden", "sw-inf", "0505"),
              U("z", "russia", "ru-inf", "1010")])
    assert "R9.4.4" in g.why_not("a", g.map.parse("0501"))        # asked about its own hex
    assert g.why_not("b", g.map.parse("0505")) is None            # infantry may move


def test_R6_selecting_cavalry_in_the_fire_phase_says_only_foot_and_guns_fire():
    g = game([U("c", "sweden", "sw-cav", "0501"), U("z", "russia", "ru-inf", "0503")])
    g.apply(O("end-phase"))
    assert g.state.phase == "fire"
    reason = g.why_not("c", g.map.parse("0501"))
    assert "only infantry and artillery fire" in reason and "R6" in reason


def test_R8_7_a_step_loss_choice_names_the_hex_and_what_the_loss_does():
    # the owner picks which unit loses a step: a full two-step counter flips to its reduced side,
    # a reduced one is eliminated (R8.7, R10.1); the choice must say where each one stands
    from hexwar.engine.rulesets.poltava.board import stat
    g = game([U("a", "sweden", "sw-inf", "0501", name="Uppland I"),
              U("b", "sweden", "sw-inf", "0502", name="Uppland II", strength=1),
              U("z", "russia", "ru-inf", "1010")])
    full = g.ruleset.order_words(g, O("lose", unit="a"))
    cs, rcs = stat(g.state.units["a"], "cs"), stat(g.state.units["a"], "rcs")
    assert full == f"Uppland I, 0501, full CS {cs} \u2192 reduced CS {rcs}"
    worn = g.ruleset.order_words(g, O("lose", unit="b"))
    assert worn == f"Uppland II, 0502, reduced CS {rcs} \u2192 eliminated"
    assert g.ruleset.order_words(g, O("end-phase")) == ""  # the generic words serve


def test_R8_7_melee_result_and_elimination_read_as_the_rulebook_says():
    g = game([U("a", "sweden", "sw-inf", "0501", name="Uppland I"), U("z", "russia", "ru-inf", "1010")],
             divisions=[("sw", "sweden", 9), ("ru", "russia", 9)])
    said = g.event_words({"t": "melee-result", "result": "D2", "roll": 5, "drm": -1})
    assert said == "melee result D2 (they lose 2): roll 5, DRM -1"
    said = g.event_words({"t": "eliminated", "unit": "a", "division": "sw", "counted": True})
    assert said == "Uppland I eliminated, into the rout box of sw"
    assert g.event_words({"t": "eliminated", "unit": "a", "division": "sw", "counted": False}) == "Uppland I eliminated"
    assert g.event_words({"t": "phase", "turn": 5}) is None  # the generic line serves


def test_R8_6_melee_columns_read_as_the_differences_they_cover():
    # the spec's table: headers -7..., -4-6, -2-3, ... cover <= -7, -6 to -4, -3 to -2, ...
    said = [column_words(c) for c in COLUMNS]
    assert said == ["column -7 or less", "column -6 to -4", "column -3 to -2", "column -1", "column 0",
                    "column +1", "column +2 to +3", "column +4 to +6", "column +7 or more"]


def test_R8_6_the_melee_die_names_its_column_as_the_difference_it_covers():
    from hexwar.tui.describe import event_text
    g = game([U("a", "russia", "ru-inf", "0502"), U("z", "sweden", "sw-inf", "0503")], first="russia")
    ev = {"t": "die-roll", "why": "melee (R8.6.8)", "sides": 6, "value": 3, "column": "-2-3"}
    assert event_text(g, ev) == "\u2684 melee (R8.6.8): d6 = 3 (column -3 to -2)"
