"""The player's questions answered by the Frontier rules (portable-wargame.md section 3)."""

from frontier_helpers import C, O, finish_artillery, game, n, to_combat, to_move


def test_3_3_why_not_only_artillery_acts_in_the_artillery_phase():
    g = game([("i", "blue", "EI", C, 0), ("r", "red", "NI", n(C, 0, 4), 3)])
    assert "only artillery acts in the artillery phase (3.3)" == g.why_not("i", n(C, 0))


def test_3_4_1_why_not_a_battery_that_fired_may_not_move():
    g = game([("a", "blue", "FA", C, 0), ("r", "red", "NI", n(C, 0, 4), 3)])
    g.apply(O("fire", unit="a", target=list(n(C, 0, 4))))
    finish_artillery(g, "blue", extra=(6, 6))
    reason = g.why_not("a", n(C, 3))
    assert "fired this turn and may not move" in reason and "3.4.1" in reason


def test_3_6_13_melee_preview_line_destroys_on_strength_or_less():
    # European Infantry (Strength 5) faces Native Infantry (Strength 4) in the open: each side
    # destroys the other on a d6 at or under its Strength (3.6.13): 5/6 and 4/6.
    g = game([("i", "blue", "EI", C, 0), ("r", "red", "NI", n(C, 0), 3)])
    to_combat(g, "blue")
    order = next(o for o in g.legal_orders() if o.kind == "attack")
    line = g.odds_summary(order)
    assert line == "Melee: you destroy it on 5 or less (83 %) · it destroys yours on 4 or less (67 %)"


def test_3_2_unit_card_names_class_strength_and_movement():
    g = game([("i", "blue", "EC", C, 0), ("r", "red", "NI", n(C, 0, 4), 3)])
    card = dict(g.unit_card("i"))
    assert card["type"] == "European Cavalry" and card["class"] == "cavalry"
    assert card["combat strength"].startswith("5 ")
    assert card["status"] == "ready"


def test_3_3_player_aid_marks_the_current_step():
    g = game([("i", "blue", "EI", C, 0), ("r", "red", "NI", n(C, 0, 4), 3)])
    seq = dict(g.player_aid())["Sequence of play"]
    assert [line for line in seq if line.startswith("> ")] == [seq[0]] and "Artillery" in seq[0]
    to_move(g, "blue")
    seq = dict(g.player_aid())["Sequence of play"]
    assert [line for line in seq if line.startswith("> ")] == [seq[2]] and "First player moves" in seq[2]


def test_3_6_1_a_unit_facing_no_enemy_has_nothing_to_do_in_combat():
    g = game([("i", "blue", "EI", C, 0), ("r", "red", "NI", n(C, 0, 4), 3)])
    to_combat(g, "blue")
    reason = g.why_not("i", C)                       # asked about its own hex
    assert "faces no enemy" in reason and "3.6.1" in reason
