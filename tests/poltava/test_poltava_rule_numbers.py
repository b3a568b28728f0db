"""Numbered rules that worked but had no test named after them (issue 11, "findable by rule
number"). Expected values come from the rule text cited in each test."""

from hexwar.engine import Game
from hexwar.scenarios.loader import find_scenario, load_scenario

from poltava_helpers import H, O, Script, U, events, game, path, to_phase


class D6Log(Script):
    """Scripted dice that also record how many sides each roll asked for."""

    def roll(self, sides=6, why=""):
        self.sides = getattr(self, "sides", []) + [sides]
        return super().roll(sides, why)


def melee(units, **kw):
    g = game(units, **kw)
    to_phase(g, "melee")
    return g


def atk(g, units, *hexes):
    return O("attack", units=list(units), hexes=[H(g, h) for h in hexes])


def finish(g):
    while g.state.pending:
        g.apply(next(iter(g.legal_orders())), Script(3))


# --- R1, R2: map, scale, components, counters, markers -------------------------------------------

def test_R1_1_hex_numbers_are_column_then_row():
    # "0512" = column 05, row 12; hexes of one column in consecutive rows are adjacent
    g = game([U("a", "sweden", "sw-inf", "0101"), U("z", "russia", "ru-inf", "0909")], height=14)
    h = g.map.parse("0512")
    assert g.map.offset(h) == (4, 11) and g.map.label(h) == "0512"
    assert g.map.parse("0513") in [n for _, n in g.map.neighbors(h)]
    assert g.map.parse("0612") in [n for _, n in g.map.neighbors(h)]


def test_R1_2_one_turn_is_one_hour_turn_8_is_nine_oclock():
    # R1.2: 1 turn = 1 hour; S1 [L334] turn 8 = 09:00 ... turn 12 = 13:00
    g = game([U("a", "sweden", "sw-inf", "0101"), U("z", "russia", "ru-inf", "0909")], rules={"first_turn": 8})
    clocks = []
    for _ in range(6):
        clocks += [(e["turn"], e["clock"]) for e in events(g.apply(O("end-phase")), "phase")]
    assert clocks[-1] == (9, "10:00") and (8, "09:00") in clocks
    s1 = load_scenario(find_scenario("poltava-1"))
    assert int(s1.rule("first_turn", 1)) == 8 and s1.turns == 12          # 09:00 .. 13:00, 5 turns


def test_R2_every_procedure_rolls_one_six_sided_die():
    # R2 (contents) [INF]: a single d6; fire, melee and the set-up rolls ask for six sides
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0507")])
    to_phase(g, "fire")
    d = D6Log(6)
    g.apply(O("fire", unit="a", target="z"), d)
    g2 = melee([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")])
    d2 = D6Log(4)
    g2.apply(atk(g2, ["a"], "0506"), d2)
    s1 = Game(load_scenario(find_scenario("poltava-1")))
    d3 = D6Log(1, 2, 3, 4)
    s1.apply(O("setup"), d3)
    assert d.sides == [6] and d2.sides == [6] and d3.sides == [6, 6, 6, 6]


def test_R2_1_counters_carry_cs_fire_ma_stars_and_a_worse_reduced_side():
    # R2.1: values CS, Fire, MA and stars; a two-step counter's back shows worse values
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0507")], first="russia")
    from hexwar.engine.rulesets.poltava.board import cs_of, fire_of, stars_of, stat
    a = g.state.units["a"]
    full = (cs_of(a), fire_of(a), stars_of(a), int(stat(a, "ma")))
    to_phase(g, "fire")
    g.apply(O("fire", unit="z", target="a"), Script(6))
    a = g.state.units["a"]
    assert a.alive and a.strength == 1
    red = (cs_of(a), fire_of(a), stars_of(a))
    assert red[0] < full[0] and red[1] > full[1] and red[2] < full[2]   # weaker CS, harder to hit, fewer stars
    assert full[3] == 4


def test_R2_2_markers_do_not_count_for_stacking():
    # R2.2 / R2.1.1: redoubt markers and leaders are not combat units for stacking
    rows = ["." * 10] * 6 + ["....R....."] + ["." * 10] * 3
    g = game([U("a", "sweden", "sw-inf", "0505"), U("r1", "sweden", "redoubt", "0507"),
              U("L", "sweden", "leader", "0506"), U("z", "russia", "ru-inf", "0101")], rows=rows)
    assert g.validate(O("move", unit="a", path=path(g, "0506", "0507"))) is None
    assert g.validate(O("move", unit="a", path=path(g, "0506"))) is None


def test_R2_2_1_the_turn_marker_advances_one_box_per_turn():
    g = game([U("a", "sweden", "sw-inf", "0101"), U("z", "russia", "ru-inf", "0909")], rules={"first_turn": 5})
    for _ in range(6):
        assert g.state.turn == 5
        g.apply(O("end-phase"))
    assert g.state.turn == 6


def test_R2_2_2_the_redoubt_marker_shows_holder_cs_and_fire_and_flips_when_captured():
    rows = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 20}), U("r", "russia", "redoubt", "0506")], rows=rows)
    o = g.odds(atk(g, ["a"], "0506"))
    assert o["defender_cs"] == 6                                  # its printed CS
    g.apply(atk(g, ["a"], "0506"), Script(6))
    finish(g)
    assert g.state.units["r"].side == "sweden"                   # flipped: captured


# --- R4, R5: movement and ZOC -------------------------------------------------------------------

def test_R4_1_one_adjacent_hex_at_a_time_along_a_path_of_the_owners_choice():
    g = game([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0909")])
    assert "not adjacent" in g.validate(O("move", unit="a", path=path(g, "0507")))
    bent = path(g, "0504", "0404", "0403")                       # not straight: allowed
    assert g.validate(O("move", unit="a", path=bent)) is None
    g.apply(O("move", unit="a", path=bent))
    assert g.state.units["a"].hex == g.map.parse("0403")


def test_R5_2_entering_an_enemy_zoc_stops_the_unit_and_its_remaining_mp_are_lost():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0505")])
    g.apply(O("move", unit="a", path=path(g, "0502", "0503", "0504")))   # 3 of 4 MP, then contact
    assert "already moved" in g.validate(O("move", unit="a", path=path(g, "0404")))
    assert g.validate(O("move", unit="a", path=path(g, "0404"))) is not None


# --- R8: melee ----------------------------------------------------------------------------------

def test_R8_1_only_the_phasing_infantry_and_cavalry_attack_adjacent_enemies():
    rows = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0507"),
               U("g", "russia", "art", "0808"), U("r", "russia", "redoubt", "0506")], rows=rows, first="russia")
    assert "not adjacent" in g.validate(atk(g, ["z"], "0505"))
    assert "cannot attack" in g.validate(atk(g, ["g"], "0708"))   # artillery never attacks
    assert "cannot attack" in g.validate(atk(g, ["r"], "0505"))   # garrisons only defend (S2-2.1)
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")])
    assert "cannot attack" in g.validate(atk(g, ["z"], "0505"))   # not the phasing player's


def test_R8_6_1_attacker_strength_is_the_sum_of_the_attackers_cs():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"stars": 0}), U("b", "sweden", "sw-inf", "0507",
               stats={"stars": 0}), U("z", "russia", "ru-inf", "0506")])
    o = g.odds(atk(g, ["a", "b"], "0506"))
    assert o["attacker_cs"] == 6 and o["defender_cs"] == 4 and o["difference"] == 2


def test_R8_6_2_the_attackers_stars_are_declared_as_shifts_to_the_right():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"stars": 2}), U("b", "sweden", "sw-inf", "0507",
               stats={"stars": 1}), U("z", "russia", "ru-inf", "0506", stats={"cs": 6})])
    o = g.odds(atk(g, ["a", "b"], "0506"))
    assert ("attacker bayonet/charge stars x3 (R9.3)", 3) in o["shifts"]
    assert o["base_column"] == "0" and o["column"] == "+4-6"      # 0 -> +1 -> +2-3 -> +4-6


def test_R8_6_3_a_declared_attack_cannot_be_changed():
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("L", "sweden", "leader", "0505"),
               U("z", "russia", "ru-inf", "0506"), U("y", "russia", "ru-inf", "0504")])
    preview = g.odds(atk(g, ["a"], "0506"))
    g.apply(atk(g, ["a"], "0506"), Script(1))
    assert g.state.pending[0]["kind"] == "reroll"
    assert g.state.vars["combat"]["index"] == preview["index"]
    assert g.validate(atk(g, ["a"], "0506", "0504")) is not None   # no re-declaring while it runs


def test_R8_6_5_the_difference_attacker_minus_defender_picks_the_base_column():
    for acs, dcs, head in ((7, 4, "+2-3"), (4, 7, "-2-3"), (4, 4, "0"), (9, 4, "+4-6")):
        g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": acs, "stars": 0}),
                   U("z", "russia", "ru-inf", "0506", stats={"cs": dcs})])
        assert g.odds(atk(g, ["a"], "0506"))["base_column"] == head


def test_R8_6_6_a_shift_moves_one_column_not_one_point():
    # difference +4 is column "+4-6"; one shift moves it a whole column to "+7", not to "+5"
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 8, "stars": 1}),
               U("z", "russia", "ru-inf", "0506", stats={"cs": 4})])
    o = g.odds(atk(g, ["a"], "0506"))
    assert o["base_column"] == "+4-6" and o["column"] == "+7"


def test_R8_6_8_the_attacker_rolls_one_die_and_reads_the_row():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 4, "stars": 0}),
               U("z", "russia", "ru-inf", "0506", stats={"cs": 4})])
    d = D6Log(5)
    evs = g.apply(atk(g, ["a"], "0506"), d)
    assert d.sides == [6]
    assert events(evs, "melee-result")[0]["result"] == "D1"       # row 5, column "0"


def test_R8_8_the_owner_chooses_losses_and_a_reduced_counter_is_eliminated_into_its_rout_box():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 1, "stars": 0}),
               U("b", "sweden", "sw-inf", "0507", stats={"cs": 1, "stars": 0}),
               U("z", "russia", "ru-inf", "0506", stats={"cs": 4})])
    g.apply(atk(g, ["a", "b"], "0506"), Script(3))                # column "-2-3", row 3: A1
    p = g.state.pending[0]
    assert p["kind"] == "loss" and p["side"] == "sweden" and sorted(p["units"]) == ["a", "b"]
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0506", strength=1)])
    g.apply(atk(g, ["a"], "0506"), Script(4))
    finish(g)
    assert not g.state.units["z"].alive and g.state.vars["box"]["ru"] == 1


def test_R8_9_1_retreat_towards_the_own_edge_then_onto_clearer_terrain():
    # the Russian home edge is north; 0405, 0505 and 0605 are all one row nearer it, out of the
    # attacker's ZOC; 0405 and 0505 are settlements, so the clear 0605 is the retreat hex
    rows = ["." * 10] * 4 + ["...VV....."] + ["." * 10] * 5
    g = melee([U("a", "sweden", "sw-inf", "0507", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0506")], rows=rows)
    g.apply(atk(g, ["a"], "0506"), Script(3))                     # column "+4-6", row 3: D1
    finish(g)
    assert g.state.units["z"].hex == g.map.parse("0605")


def test_R8_11_the_next_attack_only_after_the_previous_one_is_carried_out():
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("L", "sweden", "leader", "0505"),
               U("b", "sweden", "sw-inf", "0503"), U("z", "russia", "ru-inf", "0506"),
               U("y", "russia", "ru-inf", "0502")])
    g.apply(atk(g, ["a"], "0506"), Script(1))
    assert g.state.pending and g.validate(atk(g, ["b"], "0502")) is not None
    g.apply(O("keep-roll"))
    finish(g)
    assert g.validate(atk(g, ["b"], "0502")) is None


def test_R9_4_3_one_artillery_and_one_infantry_or_cavalry_per_hex():
    units = [U("i", "russia", "ru-inf", "0503"), U("c", "russia", "ru-drag", "0603"),
             U("g", "russia", "art", "0505"), U("h", "russia", "art", "0705"), U("k", "russia", "ru-inf", "0705"),
             U("z", "sweden", "sw-inf", "0110")]
    g = game(units, first="russia")
    assert g.validate(O("move", unit="i", path=path(g, "0504", "0505"))) is None     # 1 art + 1 inf
    assert g.validate(O("move", unit="c", path=path(g, "0604", "0505"))) is None     # 1 art + 1 cav
    assert g.validate(O("move", unit="i", path=path(g, "0604", "0705"))) is not None  # already 1+1


# --- S2 special rules ---------------------------------------------------------------------------

ODB = [U("a", "sweden", "sw-inf", "0508", stats={"odb": 1}), U("b", "sweden", "sw-inf", "0708", stats={"odb": 2}),
       U("z", "russia", "ru-inf", "0502")]


def test_S2_1_1_scenario_2_armies_start_unformed_and_form_their_line():
    g = game(ODB, rules={"redoubt_line_row": 10})
    assert not g.state.vars["odb"].get("sweden") and not g.state.vars["odb"].get("russia")
    g.apply(O("move", unit="b", path=path(g, "0608")))
    assert g.state.vars["odb"].get("sweden")
    s1 = Game(load_scenario(find_scenario("poltava-1")))
    assert s1.state.vars["odb"] == {"russia": True, "sweden": True}   # S1: both start formed


def test_S2_1_3_S2_1_4_cavalry_need_not_form_only_infantry_is_held_out_of_musket_range():
    g = game(ODB + [U("h", "sweden", "sw-cav", "0608", division="sw2")], rules={"redoubt_line_row": 10})
    assert g.validate(O("move", unit="h", path=path(g, "0607", "0606", "0605", "0604"))) is None
    assert g.validate(O("move", unit="a", path=path(g, "0507", "0506", "0505", "0504"))) is not None


def test_S2_1_5_once_formed_the_army_moves_freely_for_good():
    g = game(ODB, rules={"redoubt_line_row": 10})
    g.apply(O("move", unit="b", path=path(g, "0608")))
    g.apply(O("move", unit="a", path=path(g, "0507", "0506", "0505", "0504")))   # the line is broken
    assert g.state.vars["odb"].get("sweden")                     # but stays formed (1.5)


def test_S2_2_1_a_garrisoned_redoubt_cs_6_minus_one_only_defends_and_falls_only_in_melee():
    rows = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4
    g = game([U("a", "sweden", "sw-inf", "0505", stats={"stars": 0, "cs": 3}), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0909")], rows=rows)
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="a", target="r")) is not None    # fire has no effect
    to_phase(g, "melee")
    o = g.odds(atk(g, ["a"], "0506"))
    assert o["defender_cs"] == 6 and o["drm"] == -1
    assert o["base_column"] == "-2-3" and o["column"] == "-7"       # 3 - 6 = -3, then 2 shifts left (TEC)
    assert g.validate(atk(g, ["a"], "0506")) is None                # captured only by storming it


def test_S2_2_2_two_unfinished_redoubts_with_reduced_values():
    s2 = load_scenario(find_scenario("poltava-2"))
    kinds = sorted(u.kind for u in s2.units if u.kind.startswith("redoubt"))
    assert kinds.count("redoubt-u") == 2 and kinds.count("redoubt") >= 1
    from hexwar.engine.rulesets.poltava.data import UNIT_TYPES
    full, unf = UNIT_TYPES["redoubt"], UNIT_TYPES["redoubt-u"]
    assert unf["cs"] < full["cs"] and unf["fire"] > full["fire"]      # weaker, and hits less often


def test_S2_2_7_redoubts_have_no_zoc():
    rows = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4
    g = game([U("a", "sweden", "sw-inf", "0505"), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0909")], rows=rows)
    assert g.map.parse("0505") not in g.zoc_hexes("sweden")
    assert g.validate(O("move", unit="a", path=path(g, "0405", "0406"))) is None


def test_S2_3_the_retrenchment_is_a_fortification_on_the_scenario_map():
    s2 = load_scenario(find_scenario("poltava-2"))
    g = Game(s2)
    m = g.map
    from hexwar.engine.rulesets.poltava.board import View
    v = View(s2, g.state)
    sides = [(a, b) for a in sorted(m.hexes) for _, b in m.neighbors(a)
             if "retrenchment" in m.features_between(a, b)]
    assert sides
    assert all(v.inside_of(a, b) is not None for a, b in sides)       # every stretch has a camp side
    a, b = sides[0]
    inside = v.inside_of(a, b)
    outside = b if inside == a else a
    cav = next(u for u in g.state.units.values() if u.kind == "sw-cav")
    assert not v.passable(cav, outside, inside)                      # cavalry may not cross (TEC)
