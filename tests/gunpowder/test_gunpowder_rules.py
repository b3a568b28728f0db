"""Age of Gunpowder rules (portable-wargame.md section 5): one test per rule, named after its
number, with scripted dice. Expected values come from the rules text: 5.1-5.5 [SRC], 5.6 the
proposed completion (designed), and the Ancients rules 5.6 applies."""

from __future__ import annotations

import re

from hexwar.engine import Game, Order
from hexwar.engine.rulesets.ancients import shooting
from hexwar.engine.rulesets.gunpowder import drawing
from hexwar.mapglyphs import unit_drawing
from hexwar.scenarios.loader import load_named

from gp_helpers import NE, SW, E, H, begin, dice, events, move_to, play, scenario, unit, walk, why

X = "0506"  # a unit of side a; the enemy stands NE of it (or farther along NE)


def rows_with(marks: dict[str, str], width: int = 10, height: int = 8) -> list[str]:
    grid = [["."] * width for _ in range(height)]
    for label, ch in marks.items():
        grid[int(label[2:]) - 1][int(label[:2]) - 1] = ch
    return [" ".join(r) for r in grid]


def game(units, first="a", **kw) -> Game:
    g = Game(scenario(units, **kw))
    if g.state.phase == "initiative":
        begin(g, first)
    return g


def far(side="b", kind="line-infantry", label="0101", formation=None):
    return (f"far-{side}", side, kind, label, "SE" if side == "b" else "NE", formation)


def reach(g: Game, uid: str) -> int:
    here = unit(g, uid).hex
    from hexwar.engine.hexgrid import hex_distance
    return max([hex_distance(here, h) for h in g.reachable(uid)], default=0)


def test_5_1_unit_types_strength_move_by_formation_and_range():
    # 5.1 [SRC]: SP; move (cells) by formation; attack range
    table = {
        "line-infantry": (4, {"column": 2, "line": 1, "square": 0}, 3),
        "skirmishers": (3, {"column": 2, "line": 1, "open": 3}, 4),
        "cavalry": (3, {"column": 4, "line": 3}, 0),
        "guns": (2, {"limbered": 2, "manhandled": 1, "firing": 0}, 6),
        "howitzers": (2, {"limbered": 2, "manhandled": 1, "firing": 0}, 5),
        "horse-artillery": (2, {"limbered": 2, "manhandled": 1, "firing": 0}, 4),
        "commander": (6, {"foot": 2, "mounted": 4}, 0),
    }
    for kind, (sp, moves, rng) in table.items():
        for form, move in moves.items():
            g = game([("u", "a", kind, "0508", "NE", form), far(), far("a", label="1008")], year=1805)
            u = unit(g, "u")
            assert (u.strength, u.stat("formation"), u.stat("reach")) == (sp, form, rng), (kind, form)
            assert reach(g, "u") == move, (kind, form)


def test_5_1_square_only_after_1790():
    g = game([("u", "a", "line-infantry", X, "NE", "line"), far()], year=1789)
    reason = why(g, "form", unit="u", formation="square")
    assert "only after 1790" in reason and "(5.1)" in reason
    assert all(o["formation"] != "square" for o in g.legal_orders() if o.kind == "form")
    g = game([("u", "a", "line-infantry", X, "NE", "line"), far()], year=1790)
    play(g, "form", unit="u", formation="square")
    assert unit(g, "u").stat("formation") == "square"


def test_5_2_classes_and_5_6_hit_table_by_class():
    # 5.6 "Hit table: Ancients 4.11 by class": lose 1 SP on 1-2 / 1-3 / 1-4, else retreat or lose
    for grade, die, pending in (("poor", 4, False), ("average", 4, True), ("average", 3, False),
                                ("excellent", 3, True)):
        g0 = game([("s", "a", "line-infantry", X, "NE", "line"), far()])
        t = walk(g0, X, NE, NE)
        g = game([("s", "a", "line-infantry", X, "NE", "line"), ("t", "b", "line-infantry", t, "SW", "line", grade)])
        play(g, "shoot", rolls=(4, die), unit="s", target=t)   # 4 + 1 (not moved) = 5: a hit
        assert bool(g.state.pending) is pending, (grade, die)
        assert unit(g, "t").strength == (4 if pending else 3), (grade, die)


def test_5_3_strength_points_class_adjustment_by_agreement():
    units = [("e", "a", "line-infantry", "0508", "NE", "line", "excellent"),
             ("p", "a", "line-infantry", "0708", "NE", "line", "poor"), far()]
    g = game(units, rules={"class_sp_adjust": True})
    assert (unit(g, "e").strength, unit(g, "p").strength) == (5, 3)
    g = game(units)
    assert (unit(g, "e").strength, unit(g, "p").strength) == (4, 4)


def test_5_4_exhaustion_point_is_a_third_of_the_army_rounded_up():
    g = Game(load_named("gunpowder-picket"))          # 6 + 2*4 + 3 + 3 + 2 = 22 SP
    assert {s: g.state.sides[s]["ep"] for s in g.state.side_order} == {"white": 8, "green": 8}
    g = Game(load_named("gunpowder-river"))           # 6 + 5*4 + 2*3 + 2*3 + 3*2 = 44 SP
    assert {s: g.state.sides[s]["ep"] for s in g.state.side_order} == {"blue": 15, "red": 15}


def test_5_5_artillery_phase_comes_before_the_initiative_roll():
    g0 = game([("u", "a", "guns", X, "NE", "firing"), far()])
    t = walk(g0, X, NE, NE, NE)
    g = Game(scenario([("gun", "a", "guns", X, "NE", "firing"), ("t", "b", "line-infantry", t, "SW", "line")]))
    assert g.state.phase == "engines" and g.state.active == "a"
    play(g, "engine-fire", unit="gun", target=t)
    evs = play(g, "end-phase", rolls=(4, 1, 6, 1))     # fire 4+1 = 5 hits; effect 1: lose; a wins 6-1
    whys = [e["why"] for e in events(evs, "die-roll")]
    assert whys == ["engine-fire", "hit-effect", "initiative", "initiative"]
    assert unit(g, "t").strength == 3
    assert g.state.phase == "activation" and g.state.active == "a"


def test_5_5_change_formation_and_move_uses_the_new_formation():
    g = game([("u", "a", "line-infantry", "0508", "NE", "line"), far()])
    assert reach(g, "u") == 1
    play(g, "form", unit="u", formation="column")
    assert reach(g, "u") == 2
    move_to(g, "u", walk(g, "0508", NE, NE))


def test_5_5_move_and_change_formation():
    g = game([("u", "a", "line-infantry", "0508", "NE", "column"), far()])
    move_to(g, "u", walk(g, "0508", NE, NE))
    evs = play(g, "form", unit="u", formation="line")
    assert events(evs, "formation")[0]["to"] == "line"


def test_5_5_change_formation_and_shoot_but_not_all_three():
    g0 = game([("u", "a", "line-infantry", X, "NE", "column"), far()])
    t = walk(g0, X, NE, NE, NE)
    units = [("u", "a", "line-infantry", X, "NE", "column"), ("t", "b", "line-infantry", t, "SW", "line")]
    g = game(units)
    play(g, "form", unit="u", formation="line")
    assert why(g, "shoot", unit="u", target=t) is None
    t4 = walk(g0, X, NE, NE, NE, NE)
    g = game([("u", "a", "line-infantry", X, "NE", "column"), ("t", "b", "line-infantry", t4, "SW", "line")])
    move_to(g, "u", walk(g, X, NE), facing=NE)
    play(g, "form", unit="u", formation="line")
    assert "not all three (5.5)" in why(g, "shoot", unit="u", target=t4)


def test_5_5_one_formation_change_and_none_after_shooting_or_attacking():
    g0 = game([("u", "a", "line-infantry", X, "NE", "line"), far()])
    t = walk(g0, X, NE, NE)
    g = game([("u", "a", "line-infantry", X, "NE", "line"), ("t", "b", "line-infantry", t, "SW", "line")])
    play(g, "shoot", rolls=(1,), unit="u", target=t)
    assert "before shooting (5.5" in why(g, "form", unit="u", formation="column")
    g = game([("u", "a", "line-infantry", X, "NE", "line"), far()])
    play(g, "form", unit="u", formation="column")
    assert "already changed formation" in why(g, "form", unit="u", formation="line")


def test_5_6_change_formation_only_is_an_activation():
    g = game([("u", "a", "cavalry", X, "NE", "line"), ("v", "a", "cavalry", "0708", "NE", "line"), far()])
    play(g, "form", unit="u", formation="column")
    play(g, "form", unit="v", formation="column")   # the next unit acts: u's activation is over
    assert unit(g, "u").marks.get("done") and unit(g, "u").stat("move") == 4


def test_5_6_who_may_shoot():
    def shooter(kind, form):
        g0 = game([("u", "a", kind, X, "NE", form), far()])
        t = walk(g0, X, NE, NE)
        g = game([("u", "a", kind, X, "NE", form), ("t", "b", "line-infantry", t, "SW", "line")])
        return why(g, "shoot", unit="u", target=t)
    assert shooter("line-infantry", "line") is None
    assert shooter("line-infantry", "square") is None
    assert shooter("skirmishers", "line") is None and shooter("skirmishers", "open") is None
    for kind, form in (("line-infantry", "column"), ("skirmishers", "column"), ("cavalry", "line"),
                       ("cavalry", "column")):
        reason = shooter(kind, form)
        assert reason is not None and "(5.6" in reason, (kind, form, reason)
    assert "Artillery Phase" in shooter("guns", "firing")


def test_5_6_artillery_fires_only_in_firing_formation_and_then_may_not_move_or_change():
    g0 = game([("u", "a", "guns", X, "NE", "limbered"), far()])
    t = walk(g0, X, NE, NE, NE)
    g = Game(scenario([("gun", "a", "guns", X, "NE", "limbered"), ("t", "b", "line-infantry", t, "SW", "line")]))
    assert g.state.phase == "initiative"       # a limbered battery has no Artillery Phase
    g = Game(scenario([("gun", "a", "guns", X, "NE", "firing"), ("t", "b", "line-infantry", t, "SW", "line")]))
    play(g, "engine-fire", unit="gun", target=t)
    play(g, "end-phase", rolls=(1, 6, 1))     # a miss, then a wins the initiative 6-1
    assert "Artillery Phase" in why(g, "form", unit="gun", formation="limbered")
    assert "Artillery Phase" in why(g, "pivot", unit="gun", facing=E)


def test_5_6_howitzers_fire_without_sight_at_minus_one():
    g0 = game([("u", "a", "guns", X, "NE", "firing"), far()])
    f1, f2, t = walk(g0, X, NE), walk(g0, X, NE, NE), walk(g0, X, NE, NE, NE)
    rows = rows_with({f1: "F", f2: "F"})
    g = Game(scenario([("h", "a", "howitzers", X, "NE", "firing"), ("t", "b", "line-infantry", t, "SW", "line")], rows=rows))
    assert why(g, "engine-fire", unit="h", target=t) is None
    odds = g.odds(Order.make("engine-fire", unit="h", target=list(H(g, t))))
    assert dict(map(tuple, odds["modifiers"])) == {
        "shooter has not moved this turn": 1, "howitzer firing without line of sight (5.6, designed)": -1}
    g = Game(scenario([("g", "a", "guns", X, "NE", "firing"), ("t", "b", "line-infantry", t, "SW", "line")], rows=rows))
    assert g.state.phase == "initiative"       # the guns see nothing: no Artillery Phase
    assert "line of sight" in shooting.target_blocker(g, unit(g, "g"), H(g, t), "engine")


def _mods(g, t, who):
    o = g.odds(Order.make("melee", unit="att", target=list(H(g, t))))
    return {n: v for n, v in o[who]["modifiers"]} if o[who] else None


def fight(att_kind, att_form, def_kind, def_form, def_facing="SW"):
    g0 = game([("x", "a", "line-infantry", "1008", "E"), far()])
    t = walk(g0, X, NE)
    g = game([("att", "a", att_kind, X, "NE", att_form), ("dfn", "b", def_kind, t, def_facing, def_form)])
    return g, t


def test_5_6_melee_cavalry_plus_one_when_attacking():
    g, t = fight("cavalry", "column", "line-infantry", "line")
    assert _mods(g, t, "attacker") == {"cavalry attacking (5.6, designed)": 1}
    assert _mods(g, t, "defender") == {}


def test_5_6_melee_infantry_column_plus_one_when_attacking():
    g, t = fight("line-infantry", "column", "line-infantry", "column")
    assert _mods(g, t, "attacker") == {"infantry in column attacking (5.6, designed)": 1}
    assert _mods(g, t, "defender") == {}            # only when attacking


def test_5_6_square_has_no_flank_and_cavalry_attacking_it_minus_two():
    g, t = fight("cavalry", "column", "line-infantry", "line", def_facing="E")  # its flank
    assert _mods(g, t, "attacker") == {"cavalry attacking (5.6, designed)": 1,
                                       "attacking the enemy's flank": 1}
    g, t = fight("cavalry", "column", "line-infantry", "square", def_facing="E")
    assert _mods(g, t, "attacker") == {"cavalry attacking (5.6, designed)": 1,
                                       "cavalry attacking a square (5.6, designed)": -2}
    assert _mods(g, t, "defender") == {}
    g, t = fight("line-infantry", "square", "line-infantry", "line")
    assert "does not attack (5.6" in why(g, "melee", unit="att", target=t)


def test_5_6_melee_artillery_and_open_order_minus_one():
    g, t = fight("line-infantry", "line", "guns", "firing")
    assert _mods(g, t, "defender") == {"artillery in melee (5.6, designed)": -1}
    g, t = fight("line-infantry", "line", "skirmishers", "open")
    assert _mods(g, t, "defender") == {"skirmishers in open order (5.6, designed)": -1}
    g, t = fight("skirmishers", "open", "line-infantry", "line")
    assert _mods(g, t, "attacker") == {"skirmishers in open order (5.6, designed)": -1}


def test_5_6_melee_roll_with_scripted_dice():
    g, t = fight("cavalry", "column", "guns", "limbered")
    evs = play(g, "melee", rolls=(4, 5, 1), unit="att", target=t)   # 4+1 hits; 5-1 misses; effect 1
    m = events(evs, "melee")[0]
    assert (m["attack_total"], m["defence_total"], m["defender_hit"], m["attacker_hit"]) == (5, 4, True, False)
    assert unit(g, "dfn").strength == 1


def test_5_6_change_formation_and_attack_is_not_an_activation():
    g, t = fight("line-infantry", "line", "line-infantry", "line")
    play(g, "form", unit="att", formation="column")
    assert "(5.5)" in why(g, "melee", unit="att", target=t)


def test_5_6_forest_skirmishers_any_formation_line_infantry_only_in_column():
    g0 = game([("x", "a", "line-infantry", "1008", "E"), far()])
    f = walk(g0, X, NE)
    rows = rows_with({f: "F"})
    for kind, form, ok in (("skirmishers", "line", True), ("skirmishers", "open", True),
                           ("line-infantry", "column", True), ("line-infantry", "line", False),
                           ("cavalry", "column", False), ("guns", "limbered", False)):
        g = game([("u", "a", kind, X, "NE", form), far()], rows=rows)
        assert (H(g, f) in g.reachable("u")) is ok, (kind, form)
    g = game([("u", "a", "line-infantry", f, "NE", "column"), far()], rows=rows)
    assert "(5.6 forest)" in why(g, "form", unit="u", formation="line")


def test_5_6_commander_on_foot_or_mounted():
    g = game([("c", "a", "commander", "0508", "NE", "foot"), far(), far("a", label="1008")])
    assert reach(g, "c") == 2
    play(g, "form", unit="c", formation="mounted")
    assert reach(g, "c") == 4


def test_5_6_commander_plus_one_and_lost_with_his_unit():
    g0 = game([("x", "a", "line-infantry", "1008", "E"), far()])
    t = walk(g0, X, NE, NE)
    g = game([("s", "a", "line-infantry", X, "NE", "line"), ("c", "a", "commander", X, "NE", "mounted"),
              ("t", "b", "line-infantry", t, "SW", "line")])
    odds = g.odds(Order.make("shoot", unit="s", target=list(H(g, t))))
    assert dict(map(tuple, odds["modifiers"])) == {"shooter has not moved this turn": 1,
                                                    "friendly commander with the shooter": 1}
    # G-P5: killed or wounded = lost as 4.11, with the unit he stands with; his 6 SP count (G-A5)
    s2 = walk(g0, X, E)
    g = game([("s", "a", "line-infantry", X, "NE", "line"), ("s2", "a", "line-infantry", s2, "NW", "line"),
              ("t", "b", "guns", t, "SW", "limbered", "poor"), ("k", "b", "commander", t, "SW", "mounted"),
              far()])
    play(g, "shoot", rolls=(4, 1), unit="s", target=t)       # a hit; poor, 1: lose 1 SP
    evs = play(g, "shoot", rolls=(4, 1), unit="s2", target=t)
    assert events(evs, "commander-lost") and not unit(g, "k").alive
    assert g.state.sides["b"]["lost"] == 2 + 6


def test_5_5_every_refusal_names_its_rule():
    g0 = game([("x", "a", "line-infantry", "1008", "E"), far()])
    t = walk(g0, X, NE)
    g = game([("u", "a", "line-infantry", X, "NE", "square"), ("g", "a", "guns", "0808", "NE", "limbered"),
              ("t", "b", "line-infantry", t, "SW", "line"), far()], year=1805)
    orders = [Order.make("melee", unit="u", target=list(H(g, t))),
              Order.make("pivot", unit="u", facing=E),
              Order.make("form", unit="u", formation="wedge"),
              Order.make("form", unit="u", formation="square"),
              Order.make("dash", unit="u"),
              Order.make("shoot", unit="g", target=list(H(g, t))),
              Order.make("melee", unit="g", target=list(H(g, t))),
              Order.make("engine-fire", unit="g", target=list(H(g, t))),
              Order.make("form", unit="far-b", formation="column"),
              Order.make("choose-hit", unit="u", choice="lose")]
    for o in orders:
        reason = g.validate(o)
        assert reason is not None and re.search(r"\((\d|G-|rules)", reason), (o, reason)
        assert "Missile" not in reason, reason


def test_5_6_counter_shows_formation_and_squares_no_facing():
    g = game([("u", "a", "line-infantry", X, "NE", "square"), ("c", "a", "cavalry", "0808", "NE", "column"),
              ("s", "a", "skirmishers", "0708", "NE", "open"), far(formation="line")], year=1805)
    d = unit_drawing(g.scenario)
    assert [d.mark_of(unit(g, k)) for k in ("u", "c", "s", "far-b")] == ["s", "c", "o", "l"]
    assert not d.shows_facing(unit(g, "u")) and d.shows_facing(unit(g, "c"))
    names = dict(drawing.MARK_NAMES)
    assert len(set(names)) == len(names) and {"column", "line", "square", "open order", "limbered",
                                              "firing", "mounted"} <= set(names.values())


def test_5_6_preview_gives_exact_odds_first():
    g0 = game([("x", "a", "line-infantry", "1008", "E"), far()])
    t = walk(g0, X, NE, NE)
    g = game([("s", "a", "line-infantry", X, "NE", "line"), ("t", "b", "line-infantry", t, "SW", "line")])
    line = g.ruleset.odds_summary(g, Order.make("shoot", unit="s", target=list(H(g, t))))
    assert line.startswith("Shooting: you hit on 4+ (1/2 = 50 %)"), line


def test_5_1_unit_card_names_the_formation_and_what_it_allows():
    g = game([("u", "a", "line-infantry", X, "NE", "column"), far()], year=1745)
    card = dict(g.ruleset.unit_card(g, "u"))
    assert card["formation"] == "column"
    assert card["formations"] == "moves column 2, line 1, square 0; shoots in line or square (5.1)"
    assert card["range"] == "3; not in column (5.6)" and card["movement"] == "2"
    assert card["square"] == "only after 1790 (5.1); this battle: 1745"
    play(g, "form", unit="u", formation="line")
    card = dict(g.ruleset.unit_card(g, "u"))
    assert (card["formation"], card["range"], card["movement"]) == ("line", "3", "1")
