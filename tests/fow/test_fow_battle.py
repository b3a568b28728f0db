"""Battles: the G-P resolver in exact arithmetic, reserves (14.1, 17.4, G-28..G-30), retreat losses
(17.8, G-36, G-37), captures (17.9, G-40), a whole battle with scripted dice."""

from fractions import Fraction

from hexwar.engine.rulesets.fow import battle as B
from hexwar.engine.rulesets.fow import forces as F
from hexwar.engine.state import Unit

from fow_helpers import O, Script, game, kinds, plans, start


def unit(kind_cat, teams=4, transport=False):
    return Unit("u", "x", "k", "k", None, teams, teams, stats={"category": kind_cat, "transport": transport})


def test_gp4_ratio_modifier_table():
    M = B.ratio_modifier
    assert [M(Fraction(n, d)) for n, d in ((49, 100), (1, 2), (74, 100), (3, 4), (99, 100), (1, 1),
                                           (149, 100), (3, 2), (199, 100), (2, 1), (299, 100), (3, 1))] \
        == [-4, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 4]
    assert M(None) == 4  # an empty defender


def test_gp5_loss_fractions_are_clamped():
    win, lose = B.loss_fractions(Fraction(300), Fraction(100))
    assert lose == Fraction(45, 100) and win == Fraction(1, 20)  # 0.15x3 = 0.45; 0.05 floor
    win, lose = B.loss_fractions(Fraction(100), Fraction(100))
    assert lose == Fraction(15, 100) and win == Fraction(15, 100)
    win, lose = B.loss_fractions(Fraction(1000), Fraction(100))
    assert lose == Fraction(1, 2)  # capped at 0.50
    win, lose = B.loss_fractions(Fraction(50), Fraction(200))
    assert lose == Fraction(1, 10) and win == Fraction(3, 10)  # floor 0.10, cap 0.30


def test_gp5_rounding_half_up_and_largest_remainder_spread():
    assert B.round_half_up(Fraction(5, 2)) == 3 and B.round_half_up(Fraction(49, 20)) == 2
    # 3 teams over 4 + 4 + 2: shares 1.2, 1.2, 0.6 -> 1, 1, 0 then the largest remainder (0.6)
    assert B.spread(3, [("a", 4), ("b", 4), ("c", 2)]) == {"a": 1, "b": 1, "c": 1}
    # a tie of remainders goes to the lower id
    assert B.spread(1, [("b", 2), ("a", 2)]) == {"a": 1}


def test_s14_1_reserve_arrival_modifiers():
    tanks = [unit("tank"), unit("tank")]
    cars = [unit("armoured_car")]
    mixed = [unit("infantry"), unit("gun")]
    motor_guns = [unit("motorised_infantry"), unit("gun", transport=True)]
    assert B.arrival_modifier(tanks, None) == 2
    assert B.arrival_modifier(cars, None) == 3
    assert B.arrival_modifier(mixed, None) == -1  # artillery that is not motorised
    assert B.arrival_modifier(motor_guns, None) == 0
    assert B.arrival_modifier(tanks, 1) == 3  # +N for the commander (G-29)
    # 2D6 >= 8: all tanks arrive on a 6 (6 + 2 = 8) but not on a 5; infantry with guns need 9
    assert 6 + B.arrival_modifier(tanks, None) >= B.ARRIVAL_TARGET
    assert 5 + B.arrival_modifier(tanks, None) < B.ARRIVAL_TARGET
    assert 8 + B.arrival_modifier(mixed, None) < B.ARRIVAL_TARGET <= 9 + B.arrival_modifier(mixed, None)


def test_s17_4_g30_reserve_classes():
    # attack entered across hexside s0 = 2; reserves across 1, 2, 3 are on the axis
    assert B.reserve_class(1, False, 2, 2, True) == "immediate"
    assert B.reserve_class(2, False, 3, 2, True) == "delayed"
    assert B.reserve_class(2, True, 1, 2, True) == "immediate"  # mechanised: 1-2 immediate
    assert B.reserve_class(3, True, 2, 2, True) == "delayed"
    assert B.reserve_class(1, False, 5, 2, True) == "flanking"
    # the defender's axis is the opposite side (s0 + 3 = 5, with 4 and 0)
    assert B.reserve_class(1, False, 5, 2, False) == "immediate"
    assert B.reserve_class(1, False, 2, 2, False) == "flanking"


def test_s17_8_g36_retreat_loss_test():
    assert B.retreat_test_passes(3, 0, 3) and not B.retreat_test_passes(2, 0, 3)
    assert not B.retreat_test_passes(4, -2, 3)  # 4 - 2 = 2 < 3
    assert B.retreat_test_passes(6, -5, 5)  # a natural 6 always passes
    assert not B.retreat_test_passes(1, 5, 3)  # a natural 1 always fails
    assert B.retreat_test_passes(2, 1, 3)  # Disengage +1


def test_g35_exhaustion_factor():
    assert B.exhaustion_factor(0) == Fraction(9, 10)
    assert B.exhaustion_factor(2) == Fraction(7, 10)
    assert B.exhaustion_factor(9) == Fraction(1, 2)


ATTACK = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"])]
NORTH = [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"]]
SOUTH = [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]]


def test_gp_whole_battle_with_scripted_dice():
    g = game(ATTACK)
    start(g)
    plans(g, NORTH, SOUTH)
    assert g.state.phase == "execute" and g.to_act() == "north"
    ev = g.apply(O("act", actor="north-hq1", path=[21]), Script())
    assert kinds(ev, "contact-report")[0]["defenders"]["infantry"] == 6
    assert g.to_act() == "south"  # the defender decides first whether to withdraw (G-34)
    g.apply(O("withdraw", choice=False), Script())
    # attacker: 2 x 80 x 12/10 (+2 commander) = 192; defender: 45 x 3/2 (prepared) x 12/10 = 81
    # R = 192/81 -> M = +2; 2D6 = 3 + 3 -> 8: the attacker wins. Losses: loser 0.15 x 192/81
    # (= 16/45) of 6 teams = 2.13 -> 2; winner 0.15 x 81/192 (0.063) of its 6 teams = 0.38 -> 0.
    # The loser's commander rolls 4 (survives; only a 1 kills, G-16).
    dice = Script(3, 3, 4)
    ev = g.apply(O("withdraw", choice=False), dice)
    assert dice.done
    b = kinds(ev, "battle")[0]
    assert Fraction(*b["s_att"]) == 192 and Fraction(*b["s_def"]) == 81
    assert b["modifier"] == 2 and b["attacker_wins"]
    lost = {e["unit"]: e["teams"] for e in kinds(ev, "teams-lost")}
    assert lost == {"de-1": 2}
    assert g.state.pending[0]["kind"] == "retreat"
    # retreat-loss test: -1 (more tanks against it), -1 (hard defence); Last Stand 3: 4 - 2 fails
    paths = [o["path"] for o in g.legal_orders() if o.kind == "retreat"]
    assert [27] in [list(p) for p in paths]
    ev = g.apply(O("retreat", company="de", path=[27]), Script(4))
    assert kinds(ev, "prisoners")[0]["unit"] == "de-1"
    assert g.state.units["de-1"].strength == 3
    assert F.companies(g.state)["gb"]["point"] == 21  # the winner occupies the point (17.5)
    assert F.companies(g.state)["de"]["point"] == 27


def test_s17_5_g37_a_company_that_cannot_retreat_surrenders():
    # the defender stands on its own edge (row 6): no step brings it closer or keeps it level
    # except along the edge, and both edge neighbours hold enemies
    comps = [("gb", "north", 33, ["gb-grant", "gb-grant"]), ("gb2", "north", 32, ["gb-rifles"]),
             ("gb3", "north", 34, ["gb-rifles"]), ("de", "south", 27, ["de-schutzen"])]
    g = game(comps)
    from hexwar.engine.rulesets.fow import battle
    state = g.state
    assert battle.retreat_paths(state, g.scenario, "de", 33) == []


def test_g34_the_defender_withdraws_first_and_the_attacker_takes_the_point():
    g = game(ATTACK)
    start(g)
    plans(g, NORTH, [["posture", "hard_defence"], ["order", "south-hq1", "reserve", "de"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=True), Script())
    assert g.state.pending[0]["kind"] == "retreat" and g.state.pending[0]["test"]  # not all armour
    ev = g.apply(O("retreat", company="de", path=[27]), Script(3))  # Last Stand 3, -1 armour: 3-1 fails
    assert kinds(ev, "prisoners")
    assert F.companies(g.state)["gb"]["point"] == 21 and F.companies(g.state)["de"]["point"] == 27
    assert not kinds(ev, "battle") and kinds(ev, "retreated")


def test_g26_a_won_breakthrough_must_advance_once_more():
    g = game(ATTACK)
    start(g)
    plans(g, [["posture", "breakthrough"], ["order", "north-hq1", "breakthrough", "gb"]],
          [["posture", "hard_defence"], ["order", "south-hq1", "prepared_defence", "de"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    g.apply(O("withdraw", choice=False), Script(3, 3, 4))  # wins as in the whole-battle test
    g.apply(O("retreat", company="de", path=[27]), Script(6))
    pend = g.state.pending[0]
    assert pend["kind"] == "advance" and 15 not in pend["options"]  # not back where it came from
    assert g.validate(O("advance", point=15)) is not None
    assert g.validate(O("end-phase")) is not None  # the advance is compulsory
    g.apply(O("advance", point=22), Script())
    assert F.companies(g.state)["gb"]["point"] == 22


def test_g63_vehicles_entering_hills_stop_on_a_1():
    rows = [". . . . . .", ". . h . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."]
    g = game([("gb", "north", 3, ["gb-grant", "gb-grant"]), ("de", "south", 36, ["de-pz3"])], rows=rows)
    start(g)
    plans(g, [["posture", "cautious"], ["order", "north-hq1", "maneuver", "gb"]], [["posture", "hard_defence"]])
    ev = g.apply(O("act", actor="north-hq1", path=[9, 15]), Script(1))  # 0302 hills: a 1 bogs
    assert kinds(ev, "bogged")[0]["point"] == 9
    assert F.companies(g.state)["gb"]["point"] == 9


class Then(Script):
    """Scripted dice, then 3s for whatever the test does not look at."""

    def roll(self, sides: int = 6, why: str = "") -> int:
        if not self.values:
            self.asked.append((sides, why))
            return 3
        return super().roll(sides, why)


SUPPORTED = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("ga", "north", 9, ["gb-25pdr", "gb-25pdr"]),
             ("de", "south", 21, ["de-schutzen", "de-flak88"])]


def test_s16_1_g32_g33_support_resolves_in_the_battle_it_was_bought_for():
    """16.1.4 and G-P 2: the raid and the preparation bought against point 21 wait for the battle
    there; after both sides decline to withdraw, AA fire (the 88's Skill 3: a 3 cancels the raid),
    then the 25 pdrs (range 72 reaches 2 points): target die 1 -> de-1, to hit Skill 4 + 1 = 5."""
    g = game(SUPPORTED, air=[("north", "gb-kittyhawk")])
    start(g)
    g.state.sides["north"]["rp"] = 20
    north = [["posture", "decisive"], ["order", "north-hq1", "attack", "gb"], ["air", "raid", "air1", 21],
             ["artillery", "prep", "ga", 21]]
    ev = plans(g, north, [["posture", "hard_defence"]], dice=Script())  # no die rolled yet
    assert not kinds(ev, "team-destroyed") and not kinds(ev, "sortie-cancelled")
    assert g.state.sides["north"]["rp"] == 20 - 3 - 6  # paid at the reveal (G-19)
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    dice = Then(3, 1, 5, 1, 2)
    ev = g.apply(O("withdraw", choice=False), dice)
    order = [e["t"] for e in ev if e["t"] in ("support-shown", "sortie-cancelled", "team-destroyed", "battle")]
    assert order == ["support-shown", "sortie-cancelled", "team-destroyed", "battle"]
    assert kinds(ev, "sortie-cancelled")[0] == {"t": "sortie-cancelled", "aircraft": "air1", "by": "de-2"}
    hit = kinds(ev, "team-destroyed")[0]
    assert hit["firer"] == "ga-1" and hit["target"] == "de-1"
    assert [w for _, w in dice.asked[:5]] == ["aa-fire", "artillery-target", "artillery-hit",
                                                  "artillery-target", "artillery-hit"]
    assert all(a["done"] for s in ("north",) for a in g.state.vars["assets"][s]["air"])


def test_s16_1_5_support_without_a_battle_is_not_flown_and_its_rp_stay_spent():
    comps = [("ga", "north", 15, ["gb-25pdr", "gb-25pdr"]), ("de", "south", 27, ["de-schutzen"])]
    g = game(comps, air=[("north", "gb-kittyhawk")])
    start(g)
    g.state.sides["north"]["rp"] = 20
    ev = plans(g, [["posture", "cautious"], ["air", "raid", "air1", 27], ["artillery", "prep", "ga", 27]],
               [["posture", "hard_defence"]], dice=Script())
    assert not kinds(ev, "team-destroyed") and g.state.units["de-1"].strength == 6
    unused = sorted((e["mission"], e["by"], e["point"]) for e in kinds(ev, "support-unused"))
    assert unused == [("prep", "ga", 27), ("raid", "air1", 27)]
    assert g.state.sides["north"]["rp"] == 20 - 9


def test_s17_9_g40_captures_take_at_most_what_the_owner_has():
    from hexwar.engine.rulesets.fow import campaign as K
    from hexwar.engine.ruleset import Resolution
    g = game(ATTACK)
    g.state.sides["south"]["rp"] = 3
    before = g.state.sides["north"]["rp"]
    ctx = Resolution(g, g.state, Script())
    K.transfer_rp(ctx, "north", 5, "objective")
    # G-14, G-40: a transfer of min(value, the owner's RP): the captor gets the 3 the owner had
    assert g.state.sides["south"]["rp"] == 0 and g.state.sides["north"]["rp"] == before + 3
    assert K.CAPTURE_RP == {"gun": 1, "aa": 1, "howitzer": 2, "tank": 2, "armoured_car": 2}


def test_g45_a_road_bridge_blown_and_repaired_in_two_turns():
    rules = 'rivers = [["0104", "0204", "0304", "0404", "0504", "0604"]]\ncrossings = { "0304" = "road_bridge" }'
    g = game([("gb", "north", 21, ["gb-rifles"]), ("de", "south", 36, ["de-pz3"])], rules=rules)
    start(g)
    plans(g, [["posture", "cautious"], ["bridge", "blow", 21]], [["posture", "hard_defence"]])
    assert g.state.vars["bridges"]["21"] == "destroyed"
    g.apply(O("keep-initiative"), Script(3, 3, 1))
    plans(g, [["posture", "cautious"], ["bridge", "repair", 21]], [["posture", "hard_defence"]])
    assert g.state.vars["bridges"]["21"] == "repair:3"  # turn 2: ready at the end of turn 3
    g.apply(O("keep-initiative"), Script(3, 3, 1))
    plans(g, [["posture", "cautious"]], [["posture", "hard_defence"]])
    assert g.state.vars["bridges"]["21"] == "intact"


def test_s14_1_s17_4_a_reserve_arrives_on_2d6_plus_modifiers_of_8():
    comps = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"]),
             ("de2", "south", 27, ["de-pz3"])]
    g = game(comps)
    start(g)
    assert g.state.vars["commanders"]["south-hq1"]["point"] == 27  # the +2 is with the tanks
    plans(g, NORTH, [["posture", "hard_defence"], ["order", "south-hq1", "reserve", "de2"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    g.apply(O("withdraw", choice=False), Script())
    assert g.state.pending[0] == {"kind": "reserves", "side": "south", "options": ["de2"]}
    # arrival: 2 + 2, +2 all tanks, +2 commander = 8: arrives, Immediate (adjacent, on the axis).
    # battle: 160 x 6/5 = 192 against 45 + 80 = 125: R = 1.536, +1; 1 + 1 + 1 = 3: the defence holds.
    # winner loses 0.15 x 192/125 of 10 teams = 2.3 -> 2 (de-1 and de2-1 by largest remainder);
    # de2-1's vehicle bails out on a 6 and is recovered. The loser loses 0.10 x 6 = 0.6 -> 1 team
    # (gb-1 on the tie), bailed out on a 5: a trophy for the winner (2 RP). Commander survives (3).
    dice = Script(2, 2, 1, 1, 6, 5, 3)
    ev = g.apply(O("reserves", companies=["de2"]), dice)
    assert dice.done
    assert kinds(ev, "reserve-arrived")[0] == {"t": "reserve-arrived", "company": "de2", "roll": 4,
                                               "modifier": 4, "arrives_as": "immediate"}
    b = kinds(ev, "battle")[0]
    assert Fraction(*b["s_def"]) == 125 and b["modifier"] == 1 and not b["attacker_wins"]
    assert kinds(ev, "recovered")[0]["unit"] == "de2-1"
    assert kinds(ev, "trophy")[0]["unit_kind"] == "gb-grant"
    assert F.companies(g.state)["de2"]["point"] == 21  # the reserve joined the defence
    assert g.state.units["de2-1"].strength == 4 and g.state.units["gb-1"].strength == 2
    assert g.state.pending[0]["kind"] == "retreat" and g.state.pending[0]["company"] == "gb"


def test_s14_1_a_late_reserve_does_nothing_more_this_turn():
    comps = [("gb", "north", 15, ["gb-grant", "gb-grant"]), ("de", "south", 21, ["de-schutzen"]),
             ("de2", "south", 27, ["de-pz3"])]
    g = game(comps)
    start(g)
    plans(g, NORTH, [["posture", "hard_defence"], ["order", "south-hq1", "reserve", "de2"]])
    g.apply(O("act", actor="north-hq1", path=[21]), Script())
    g.apply(O("withdraw", choice=False), Script())
    g.apply(O("withdraw", choice=False), Script())
    # 1 + 2 + 4 = 7 < 8: late; the battle is 192 against 45 (R > 3, +4): 2 + 2 + 4 wins
    ev = g.apply(O("reserves", companies=["de2"]), Script(1, 2, 2, 2, 5))
    assert kinds(ev, "reserve-late")[0]["roll"] == 3
    assert F.companies(g.state)["de2"]["point"] == 27 and F.companies(g.state)["de2"]["acted"]
