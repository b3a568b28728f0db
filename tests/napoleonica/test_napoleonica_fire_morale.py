"""Fire (spec 22.2, 9.10, G-40) and the Morale-check phase (22.3), with scripted d20s."""

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica import fire as F
from hexwar.engine.rulesets.napoleonica import morale as MO

from napo_helpers import game, play, unit

SHOOTER = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="line")      # (2, 7)
TARGET = dict(id="r", side="red", kind="INF_LINE", hex="0606", formation="line")        # d = 2


def score(g, a="b", t="r"):
    return F.score(g.map, unit(g, a), unit(g, t))[0]


def test_s22_2_musket_score_is_twice_the_firing_stands_plus_two_at_short_range():
    g = game([SHOOTER, TARGET], phase="fire")
    assert score(g) == 2 * 4 + 2
    g = game([SHOOTER, dict(TARGET, hex="0605")], phase="fire")     # d = 3: long range
    assert score(g) == 2 * 4
    g = game([dict(SHOOTER, formation="column"), dict(TARGET, hex="0605")], phase="fire")
    assert score(g) == 2                                            # a column fires with 1 stand


def test_s22_2_modifiers_veteran_disordered_target_and_cover():
    g = game([dict(SHOOTER, grade="veteran"), TARGET], phase="fire")
    unit(g, "r").mark("state", "disordered")
    assert score(g) == 10 + 1 + 2
    rows = ["." * 12] * 5 + [".....F......"] + ["." * 12] * 4
    g = game([SHOOTER, TARGET], rows=rows, phase="fire")
    assert score(g) == 10 - 4


def test_s22_2_artillery_score_adds_the_gunners_and_plus_two_at_columns():
    bat = dict(id="a", side="blue", kind="ART_MEDIUM", hex="0610", formation="unlimbered")
    g = game([bat, dict(TARGET, formation="column")], phase="fire")   # d = 4: medium short 2-6
    assert score(g, "a") == 8 + 4 + 2
    g = game([dict(bat, strength=2), dict(TARGET, hex="0602")], phase="fire")   # d = 8: long
    assert score(g, "a") == 4 + 2


def test_s22_2_the_score_is_clamped_to_1_19():
    rows = ["." * 12] * 4 + [".....F......"] + ["." * 12] * 5
    g = game([dict(SHOOTER, formation="column"), dict(TARGET, hex="0605")], rows=rows, phase="fire")
    assert score(g) == 1                                  # 2 - 4 in cover, clamped up to 1


def test_s22_2_a_hit_is_a_roll_at_or_under_the_score_and_lands_when_the_phase_ends():
    g = game([SHOOTER, TARGET], phase="fire")
    events = play(g, "fire", unit="b", target=(3, 5), dice=[8])   # 2 x 3 + 2: b's right end is 4 off
    assert [e for e in events if e["t"] == "fired"][0]["hit"] is True
    assert unit(g, "r").strength == 4                   # not yet: losses wait for the phase end
    assert g.state.vars["hits"] == {"r": 1}
    # red fires back (a miss); nobody else can fire, so the phase ends: the hit lands (red's
    # owner names the stand, 22.2), and red tests morale for it: 3 <= 10 + 2 + 1 (its
    # commander-in-chief 8 hexes away) - 1 passes
    play(g, "fire", unit="r", target=(2, 7), dice=[11])
    assert g.state.pending[0]["kind"] == "lose-stand" and g.state.pending[0]["side"] == "red"
    events = play(g, "lose", unit="r", hex=(0, 5), dice=[3, 20, 1])
    assert unit(g, "r").strength == 3
    morale = [e for e in events if e["t"] == "test" and e["why"] == "morale"]
    assert [(e["unit"], e["triggers"], e["passed"]) for e in morale] == [("r", ["hit"], True)]
    assert B.state_of(unit(g, "r")) == "formed"


def test_s22_2_a_roll_over_the_score_misses():
    g = game([SHOOTER, TARGET], phase="fire")
    play(g, "fire", unit="b", target=(3, 5), dice=[11])
    assert "hits" not in g.state.vars or g.state.vars["hits"] == {}


def test_s3_1_light_infantry_may_fire_after_moving_line_infantry_may_not():
    g = game([SHOOTER, TARGET], phase="fire")
    unit(g, "b").mark("moved", 1)
    assert "Movement phase" in F.shooter_problem(g.state, unit(g, "b"))
    g = game([dict(SHOOTER, kind="INF_LIGHT"), TARGET], phase="fire")
    unit(g, "b").mark("moved", 1)
    assert F.shooter_problem(g.state, unit(g, "b")) is None


def test_s3_3_light_artillery_may_fire_after_unlimbering_medium_may_not():
    for kind, ok in (("ART_LIGHT", True), ("ART_MEDIUM", False)):
        g = game([dict(id="a", side="blue", kind=kind, hex="0610", formation="limbered"), TARGET])
        play(g, "form", unit="a", formation="unlimbered", facing=1)
        assert (F.shooter_problem(g.state, unit(g, "a")) is None) == ok, kind


def test_s3_2_mounted_cavalry_does_not_fire_dismounted_chasseurs_do():
    g = game([dict(SHOOTER, kind="CAV_CHASSEUR"), TARGET], phase="fire")
    assert F.shooter_problem(g.state, unit(g, "b")) is not None
    g = game([dict(SHOOTER, kind="CAV_CHASSEUR", stats={"dismounted": True}), TARGET], phase="fire")
    assert F.shooter_problem(g.state, unit(g, "b")) is None


def test_g40_units_in_contact_neither_fire_nor_are_fired_on():
    g = game([dict(SHOOTER, strength=1), dict(TARGET, strength=1), dict(id="r2", side="red", kind="INF_LINE", hex="0806", formation="line", strength=1)],
             phase="fire")
    g.state.vars["contacts"] = [["r2", "b", "front", False, False, False, False]]
    assert "contact" in F.shooter_problem(g.state, unit(g, "b"))
    assert g.validate(Order.make("fire", unit="r", target=(2, 7))) is not None


def test_s22_3_morale_triggers_and_modifiers():
    g = game([SHOOTER, TARGET, dict(id="bg", side="blue", kind="GEN", hex="0609")], phase="fire")
    u = unit(g, "b")
    assert MO.triggers(g.state, u) == []
    u.mark("hit", 1)
    u.strength = 2
    why = MO.triggers(g.state, u)
    assert why == ["hit"]
    mods = dict(MO.modifiers(g.state, u, why))
    # a general within 9 hexes +2, the commander-in-chief (6 hexes) +1 more, two stands lost -2
    assert mods == {"general near": 2, "commander-in-chief near": 1, "stands lost": -2}


def test_s22_3_a_failed_test_disorders_then_routs():
    g = game([SHOOTER, TARGET], phase="fire")
    u = unit(g, "r")
    u.mark("hit", 1)
    g.state.vars["passes"] = 1
    g.state.active = "red"
    # recruit 10, +2 +1 for the commander-in-chief 8 hexes away: 14 fails (then a roll-off)
    play(g, "end-phase", dice=[14, 20, 1])
    assert B.state_of(unit(g, "r")) == "disordered"
    assert g.state.turn == 2


def test_s22_3_friend_lost_nearby_and_rout_of_a_disordered_unit():
    g = game([SHOOTER, TARGET, dict(id="r2", side="red", kind="INF_LINE", hex="0804", formation="line")],
             phase="fire")
    unit(g, "r").mark("state", "disordered")
    g.state.vars["losses"] = [["red", 5, 5]]
    assert MO.triggers(g.state, unit(g, "r")) == ["friend lost nearby"]
    g.state.vars["passes"] = 1
    g.state.active = "red"
    play(g, "end-phase", dice=[20, 20])                  # r (disordered) and r2 both fail
    assert B.state_of(unit(g, "r")) == "fleeing" and unit(g, "r").hex is None
    assert B.state_of(unit(g, "r2")) == "disordered"


def test_s14_restoration_rolls_the_morale_dice_against_experience_without_modifiers():
    g = game([SHOOTER, TARGET, dict(id="g", side="red", kind="INF_GUARD", hex="1002", formation="line")],
             active="red")
    for uid in ("r", "g"):
        u = unit(g, uid)
        u.hex = None
        u.mark("state", "fleeing")
    assert [o.kind for o in g.legal_orders() if o.get("unit") == "r"] == ["hold", "rally"]
    play(g, "rally", unit="r", dice=[11])                 # recruit 10: fails
    assert B.state_of(unit(g, "r")) == "fleeing"
    play(g, "rally", unit="g", dice=[17, 14])             # guard: veteran 14, best of 2 dice
    assert B.state_of(unit(g, "g")) == "restored"
    assert unit(g, "g").marks["restored"] == 1


def test_s22_3_trigger_b_counts_units_not_generals():
    from hexwar.engine.ruleset import Resolution
    from hexwar.engine.rulesets.napoleonica.melee import remove
    g = game([SHOOTER, TARGET, dict(id="bg", side="blue", kind="GEN", hex="0609")], phase="fire")
    ctx = Resolution(g, g.state, None)
    remove(ctx, g.state.units["bg"], "captured")
    assert MO.triggers(g.state, unit(g, "b")) == []
    remove(ctx, g.state.units["r"], "destroyed")
    assert g.state.vars["losses"] == [["red", 3, 5]]


def test_s22_6_losing_the_commander_in_chief_makes_every_unit_of_that_army_test():
    from hexwar.engine.ruleset import Resolution
    from hexwar.engine.rulesets.napoleonica.melee import remove
    g = game([dict(SHOOTER, strength=1), dict(TARGET, strength=1), dict(id="b2", side="blue", kind="INF_LINE", hex="1009", formation="line", strength=1)],
             phase="fire")
    remove(Resolution(g, g.state, None), g.state.units["blue-cinc"], "captured")
    assert MO.triggers(g.state, unit(g, "b")) == ["commander-in-chief lost"]
    assert MO.triggers(g.state, unit(g, "b2")) == ["commander-in-chief lost"]
    assert MO.triggers(g.state, unit(g, "r")) == []


def test_s22_3_triggers_c_and_d_flank_attack_and_cavalry_contact():
    g = game([dict(SHOOTER, strength=1), dict(TARGET, strength=1), dict(id="c", side="red", kind="CAV_DRAGOON", hex="0708", formation="line", strength=1)],
             phase="fire")
    g.state.vars["contacts"] = [["c", "b", "flank", 0, False, False, True]]
    why = MO.triggers(g.state, unit(g, "b"))
    assert why == ["charged by cavalry", "flank attack"]
    assert ("flank or rear attack", -2) in MO.modifiers(g.state, unit(g, "b"), why)
    unit(g, "b").mark("formation", "square")
    assert MO.triggers(g.state, unit(g, "b")) == ["flank attack"]      # a square does not fear horse


def test_s22_2_the_owner_chooses_which_end_stand_fire_takes():
    # red's line faces 6 o'clock from its left end (3, 5), so it runs west: (3, 5) .. (0, 5).
    # Hit once, its owner may give up either end (the rest stays connected and straight), not a
    # middle stand; red gives up its left end: the line is the other three, still formed, facing 6
    g = game([SHOOTER, TARGET], phase="fire")
    r = unit(g, "r")
    assert B.stand_hexes(r) == (Hex(3, 5), Hex(2, 5), Hex(1, 5), Hex(0, 5))
    play(g, "fire", unit="b", target=(3, 5), dice=[8])   # 2 x 3 + 2: b's right end is 4 off
    play(g, "fire", unit="r", target=(2, 7), dice=[11])
    assert g.state.phase == "morale" and g.to_act() == "red"
    loses = sorted(tuple(o["hex"]) for o in g.legal_orders() if o.kind == "lose")
    assert loses == [(0, 5), (3, 5)]
    assert g.ruleset.validate(g, Order.make("lose", unit="r", hex=(2, 5))) is not None
    play(g, "lose", unit="r", hex=(3, 5), dice=[3, 20, 1])
    r = unit(g, "r")
    assert r.strength == 3 and B.state_of(r) == "formed" and r.facing == 4
    assert B.stand_hexes(r) == (Hex(2, 5), Hex(1, 5), Hex(0, 5))


def test_s22_2_a_column_that_loses_its_head_to_fire_keeps_its_zigzag():
    # a column (head H, then rear-left, rear-right, ...) may give up its head or its tail; without
    # its head the rest is still a column from the second stand, in the other zigzag variant
    g = game([SHOOTER, dict(TARGET, formation="column")], phase="fire")
    r = unit(g, "r")
    before = B.stand_hexes(r)
    unit(g, "r").strength = 4
    g.state.vars["hits"] = {"r": 1}
    play(g, "end-phase", dice=[])
    while g.state.phase == "fire":
        play(g, "end-phase", dice=[])
    assert sorted(tuple(o["hex"]) for o in g.legal_orders() if o.kind == "lose") == \
        sorted([tuple(before[0]), tuple(before[-1])])
    play(g, "lose", unit="r", hex=tuple(before[0]), dice=[3, 20, 1, 20, 1])
    r = unit(g, "r")
    assert B.stand_hexes(r) == before[1:] and B.formation(r) == "column" and r.hex == before[1]


def test_s22_2_the_computer_gives_up_the_stand_fire_left_nearest_the_enemy():
    # as above: red's ends are (3, 5), 2 hexes from blue's stand (3, 7), and (0, 5), 4 hexes from
    # blue's nearest stand (2, 7); the computer gives up the one nearest the enemy, (3, 5)
    g = game([SHOOTER, TARGET], phase="fire")
    play(g, "fire", unit="b", target=(3, 5), dice=[8])   # 2 x 3 + 2: b's right end is 4 off
    play(g, "fire", unit="r", target=(2, 7), dice=[11])
    scored = sorted(((s, tuple(o["hex"])) for s, o in g.ruleset.ai_orders(g) if o.kind == "lose"), reverse=True)
    assert [h for _, h in scored] == [(3, 5), (0, 5)]
