"""Unit characteristics (spec 3, 22.1), best-of-N rolls (3.0), dismounting (9.9), generals (22.6)."""

from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica.rolls import chance_at_most

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex

from napo_helpers import game, play, unit


def test_s3_0_best_of_n_keeps_the_lowest_die_in_tests():
    g = game([dict(id="g", side="blue", kind="INF_GUARD", hex="0608", formation="line")])
    u = unit(g, "g")
    u.hex = None
    u.mark("state", "fleeing")
    events = play(g, "rally", unit="g", dice=[19, 6])
    best = [e for e in events if e["t"] == "best-of"][0]
    assert best["dice"] == [19, 6] and best["kept"] == 6 and best["keep"] == "lowest"
    assert [e["why"] for e in events if e["t"] == "die-roll"] == ["restoration", "restoration"]
    # two dice at 14 or less: 1 - (6/20)^2
    assert chance_at_most(2, 14) == (400 - 36, 400)


def test_s3_1_s3_2_ranks_and_dice_from_the_tables():
    g = game([dict(id=k, side="blue", kind=k, hex=f"{2 * i + 1:02d}08", formation="line", strength=1)
              for i, k in enumerate(["INF_LINE", "INF_LIGHT", "INF_HEAVY", "INF_GUARD",
                                     "CAV_LIGHT", "CAV_DRAGOON", "CAV_HEAVY"])], width=16)
    got = {k: (B.melee_rank(unit(g, k)), B.melee_dice(unit(g, k)), B.morale_dice(unit(g, k)))
           for k in ["INF_LINE", "INF_LIGHT", "INF_HEAVY", "INF_GUARD", "CAV_LIGHT", "CAV_DRAGOON", "CAV_HEAVY"]}
    assert got == {"INF_LINE": (5, 1, 1), "INF_LIGHT": (3, 1, 1), "INF_HEAVY": (7, 2, 2),
                   "INF_GUARD": (10, 2, 2), "CAV_LIGHT": (5, 1, 1), "CAV_DRAGOON": (7, 2, 1),
                   "CAV_HEAVY": (10, 2, 2)}


def test_s3_2_guard_cavalry_adds_two_ranks_and_a_morale_die():
    g = game([dict(id="q", side="blue", kind="CAV_HEAVY", hex="0608", formation="line",
                   stats={"guard": True}, grade="recruit")])
    q = unit(g, "q")
    assert (B.melee_rank(q), B.melee_dice(q), B.morale_dice(q)) == (12, 2, 3)
    assert B.experience(q) == 14          # guard units are always veterans (22.1)


def test_s3_3_guard_artillery_rolls_two_morale_dice():
    g = game([dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="limbered",
                   stats={"guard": True})])
    assert B.morale_dice(unit(g, "a")) == 2


def test_s22_1_experience_recruits_10_veterans_14():
    g = game([dict(id="r", side="blue", kind="INF_LINE", hex="0608", formation="line", strength=1),
              dict(id="v", side="blue", kind="INF_LINE", hex="0808", formation="line", grade="veteran", strength=1)])
    assert (B.experience(unit(g, "r")), B.experience(unit(g, "v"))) == (10, 14)


def test_s9_9_chasseurs_dismount_to_fight_on_foot_and_keep_their_stands():
    g = game([dict(id="c", side="blue", kind="CAV_CHASSEUR", hex="0608", formation="line")])
    kinds = {o.kind for o in g.legal_orders() if o.get("unit") == "c"}
    assert "dismount" in kinds
    play(g, "dismount", unit="c", formation="square", facing=1)
    c = unit(g, "c")
    assert c.marks["dismounted"] and B.formation(c) == "square" and c.strength == 4
    assert not B.mounted(c) and B.infantry_like(c)
    assert B.allowance(c) == (1, 1, 1)      # light-infantry rates on foot


def test_s9_8_about_face_and_battery_pivot():
    g = game([dict(id="i", side="blue", kind="INF_LINE", hex="0608", formation="line"),
              dict(id="a", side="blue", kind="ART_MEDIUM", hex="1008", formation="unlimbered")])
    before = B.stand_hexes(unit(g, "i"))
    # in place: the old right end anchors the turned line (9.8)
    play(g, "form", unit="i", formation="line", facing=4, at=tuple(before[-1]))
    assert unit(g, "i").facing == 4 and set(B.stand_hexes(unit(g, "i"))) == set(before)
    play(g, "form", unit="a", formation="unlimbered", facing=2)
    assert unit(g, "a").facing == 2 and B.formation(unit(g, "a")) == "unlimbered"


def test_s22_6_a_general_alone_next_to_an_enemy_after_the_attack_phase_is_captured():
    g = game([dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="line"),
              dict(id="rg", side="red", kind="GEN", hex="0607"),
              dict(id="r", side="red", kind="INF_LINE", hex="0602", formation="line")], phase="attack")
    g.state.active = "red"
    play(g, "end-phase", dice=[1, 2] * 4)
    assert B.state_of(unit(g, "rg")) == "captured"


def test_s4_4_a_single_stand_joins_a_touching_unit_of_its_type_up_to_four_stands():
    g = game([dict(id="s", side="blue", kind="INF_LINE", hex="0608", formation="line", strength=1),
              dict(id="big", side="blue", kind="INF_LINE", hex="0708", formation="line", strength=3, grade="veteran"),
              dict(id="full", side="blue", kind="INF_LINE", hex="0508", formation="line", facing=4),
              dict(id="light", side="blue", kind="INF_LIGHT", hex="0607", formation="line", strength=2)])
    joins = [o["into"] for o in g.legal_orders() if o.kind == "join"]
    assert joins == ["big"]                     # not the full one, not another type
    play(g, "join", unit="s", into="big")
    big = unit(g, "big")
    assert big.strength == 4 and big.grade == "veteran"      # the receiver keeps its experience
    assert unit(g, "s").hex is None and B.state_of(unit(g, "s")) == "joined"
    assert unit(g, "big").marks.get("acted") is None          # the receiver may still act


def test_s22_9_the_train_option_adds_two_to_restoration_only_when_switched_on():
    from hexwar.engine.rulesets.napoleonica.morale import restoration_need
    units = [dict(id="i", side="blue", kind="INF_LINE", hex="0608", formation="line"),
             dict(id="t", side="blue", kind="TRAIN", hex="0110")]
    g = game(units)
    assert restoration_need(g.scenario, g.state, unit(g, "i")) == 10         # source: no modifiers
    from napo_helpers import scenario_text
    from hexwar.scenarios.loader import parse_scenario
    from hexwar.engine import Game
    text = scenario_text(units).replace("muster = false", "muster = false\ntrain_bonus = true")
    g = Game(parse_scenario(text, "t.toml"))
    assert restoration_need(g.scenario, g.state, g.state.units["i"]) == 12


def test_g46_howitzer_fires_over_a_unit_at_its_own_level_and_the_other_reading():
    from hexwar.engine.rulesets.napoleonica.sight import attack_sight, howitzer_sight
    g = game([dict(id="h", side="blue", kind="ART_HOWITZER", hex="0610", formation="unlimbered"),
              dict(id="x", side="blue", kind="INF_LINE", hex="0608", formation="line"),
              dict(id="r", side="red", kind="INF_LINE", hex="0606", formation="line")])
    view = B.View(g.state)
    a, b = unit(g, "h").hex, unit(g, "r").hex
    assert not attack_sight(g.map, view, a, b)            # the friendly line is in the way
    assert howitzer_sight(g.map, view, a, b)              # height 1 <= level 0 + 1
    assert not howitzer_sight(g.map, view, a, b, "target-level")   # same level: needs sight


def test_s8_1_reserves_appear_from_their_agreed_turn():
    g = game([dict(id="res", side="blue", kind="INF_LINE", entry_turn=2, formation="column"),
              dict(id="r", side="red", kind="INF_LINE", hex="0602", formation="line")], phase="appearance")
    assert B.state_of(unit(g, "res")) == "reserve" and unit(g, "res").hex is None
    assert not [o for o in g.legal_orders() if o.kind == "appear"]
    g.state.turn = 2
    assert [o for o in g.legal_orders() if o.kind == "appear"]


def test_s5_3_gunners_leave_the_gun_move_30cm_and_re_man_it():
    from hexwar.engine.hexgrid import hex_distance
    from hexwar.engine.rulesets.napoleonica import movement as MV
    g = game([dict(id="a", side="blue", kind="ART_HEAVY", hex="0608", formation="unlimbered")])
    gun = unit(g, "a").hex
    play(g, "form", unit="a", formation="gunners", facing=4)
    assert g.state.vars["guns"] == {"a": [gun.q, gun.r]}
    a = unit(g, "a")
    assert B.allowance(a) == (6, 6, None)       # 30 cm, 100 % backward (G-26), never sideways
    g.state.turn = 2                            # next Movement phase
    far = max(MV.moves(g.map, B.View(g.state), a), key=lambda k: (hex_distance(k[0], gun), k))
    assert hex_distance(far[0], gun) == 6
    # from the hex next to the gun the gunners take it up again, in any facing
    g.state.units["a"].hex = g.map.parse("0607")
    assert ("unlimbered", 2) in MV.formation_options(unit(g, "a"), MV.can_reman(g.state, B.View(g.state), unit(g, "a")))
    play(g, "form", unit="a", formation="unlimbered", facing=2)
    assert unit(g, "a").hex == gun and "a" not in g.state.vars["guns"]


def test_s22_9_an_enemy_next_to_an_unmanned_gun_captures_it():
    g = game([dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="unlimbered"),
              dict(id="r", side="red", kind="CAV_LIGHT", hex="0603", formation="column", strength=1)])
    play(g, "form", unit="a", formation="gunners", facing=4)
    g.state.turn = 2
    g.state.units["a"].hex = g.map.parse("0610")          # the gunners walked off
    g.state.active = "red"
    from hexwar.engine.hexgrid import hex_distance
    move = [o for o in g.legal_orders() if o.kind == "move" and o.get("unit") == "r"
            and o["path"] and hex_distance(tuple(o["path"][-1]), g.map.parse("0608")) == 1]
    assert move
    play(g, "move", unit="r", path=move[0]["path"], facing=move[0]["facing"])
    assert unit(g, "a").marks.get("gun_lost") and "a" not in g.state.vars["guns"]


def test_s21_5_occupied_hexes_name_every_hex_a_unit_stands_in():
    # 21.5: a line of n stands facing F fills A + k*RF from its left end A; a column fills its
    # head H, then H+RL, H+RL+RR, H+2RL+RR; a fled unit stands nowhere
    g = game([dict(id="a", side="blue", kind="INF_LINE", hex="0608", formation="line"),
              dict(id="b", side="blue", kind="INF_LINE", hex="0305", formation="column")])
    a = g.map.parse("0608")                                  # facing 12 o'clock: RF is east (+1, 0)
    assert g.ruleset.occupied_hexes(g, "a") == tuple(Hex(a.q + k, a.r) for k in range(4))
    h = g.map.parse("0305")                                  # RL is SW (-1, +1), RR is SE (0, +1)
    assert g.ruleset.occupied_hexes(g, "b") == (h, Hex(h.q - 1, h.r + 1), Hex(h.q - 1, h.r + 2),
                                                 Hex(h.q - 2, h.r + 3))
    g.state.units["b"].marks["state"] = "fleeing"
    assert g.ruleset.occupied_hexes(g, "b") == ()
    assert g.ruleset.occupied_hexes(g, "nobody") == ()


def test_s22_9_gunners_re_man_another_friendly_batterys_gun_and_serve_it_as_its_type():
    from hexwar.engine.rulesets.napoleonica import fire as F
    g = game([dict(id="h", side="blue", kind="ART_HEAVY", hex="0608", formation="unlimbered"),
              dict(id="l", side="blue", kind="ART_LIGHT", hex="0308", formation="unlimbered")])
    play(g, "form", unit="h", formation="gunners", facing=1)
    play(g, "form", unit="l", formation="gunners", facing=1)
    heavy_gun = g.map.parse("0608")
    g.state.units["h"].hex = g.map.parse("0610")           # the heavy battery's gunners walked off
    g.state.units["l"].hex = g.map.parse("0508")           # the light gunners stand next to its gun
    g.state.turn = 2                                          # the next Movement phase
    view = B.View(g.state)
    from hexwar.engine.rulesets.napoleonica import movement as MV
    assert MV.reman_targets(g.state, view, unit(g, "l")) == ["h"]
    assert MV.reman_targets(g.state, view, unit(g, "h")) == []        # not next to the light gun
    assert g.validate(Order.make("reman", unit="l", gun="h", formation="square", facing=1)) is not None
    play(g, "reman", unit="l", gun="h", formation="unlimbered", facing=1)
    light = unit(g, "l")
    assert light.hex == heavy_gun and B.formation(light) == "unlimbered"
    assert "h" not in g.state.vars["guns"] and "l" in g.state.vars["guns"]   # its own gun stays abandoned
    # it now serves a heavy gun: the heavy battery's rates and ranges (21.3, 22.2)
    assert B.allowance(light)[0] == 0                  # heavy battery in firing position cannot move
    assert F.ranges(light)[2] == 18                    # heavy range, not the light gun's 10
    assert unit(g, "h").marks.get("gun_lost")          # the heavy gunners have no gun left


def test_s22_10_a_captured_abandoned_gun_scores_a_point():
    from hexwar.engine.rulesets.napoleonica import turn as T
    g = game([dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="unlimbered"),
              dict(id="r", side="red", kind="CAV_LIGHT", hex="0603", formation="column", strength=1)])
    play(g, "form", unit="a", formation="gunners", facing=4)
    g.state.units["a"].hex = g.map.parse("0610")
    g.state.units["r"].hex = g.map.parse("0607")            # next to the gun: capture on the next action
    before = T.points(g.scenario, g.state, "red")
    g.state.turn = 2
    play(g, "hold", unit="a")
    assert g.state.vars["guns_taken"] == {"red": 1}
    assert T.points(g.scenario, g.state, "red") == before + 1


def test_s22_9_gunners_off_the_table_lose_a_captured_gun_and_come_back_as_gunners():
    from hexwar.engine.rulesets.napoleonica import actors as AC
    g = game([dict(id="a", side="blue", kind="ART_MEDIUM", hex="0608", formation="unlimbered"),
              dict(id="r", side="red", kind="CAV_LIGHT", hex="0603", formation="column", strength=1)])
    play(g, "form", unit="a", formation="gunners", facing=4)
    a = g.state.units["a"]
    a.hex = None
    a.marks["state"] = "fleeing"                            # the gunners ran off the table
    g.state.units["r"].hex = g.map.parse("0607")
    g.state.turn = 2
    g.state.active = "red"
    play(g, "hold", unit="r")
    assert unit(g, "a").marks.get("gun_lost") and AC.appear_formations(g.state, unit(g, "a")) == ("gunners",)
