"""Part 8: obligation (R8.2-R8.4), geometry (R8.5), results (R8.7), losses (R8.8), retreat (R8.9),
pursuit (R8.10), cavalry (R9.1, R9.2), artillery (R9.4.2), leaders (R9.5)."""

from poltava_helpers import H, O, Script, U, events, game, to_phase


def melee(units, **kw):
    g = game(units, **kw)
    to_phase(g, "melee")
    return g


def atk(g, units, *hexes):
    return O("attack", units=list(units), hexes=[H(g, h) for h in hexes])


def test_R8_2_a_unit_in_enemy_zoc_must_attack_before_the_phase_ends():
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")])
    assert "obligation" in g.validate(O("end-phase"))
    g.apply(atk(g, ["a"], "0506"), Script(3))
    while g.state.pending:
        g.apply(next(iter(g.legal_orders())))
    assert g.validate(O("end-phase")) is None


def test_R8_4_the_obligation_may_be_met_by_another_unit_and_voluntary_attacks_allowed():
    # a and b are both in z's ZOC; b's attack alone satisfies the obligation towards z, but a
    # (itself in an enemy ZOC) must still attack: here it may attack z too (R8.4)
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("b", "sweden", "sw-inf", "0507"),
               U("z", "russia", "ru-inf", "0506", stats={"cs": 1})])
    g.apply(atk(g, ["b"], "0506"), Script(3))
    while g.state.pending:
        g.apply(O("no-pursuit") if g.state.pending[0]["kind"] == "pursue" else next(iter(g.legal_orders())))
    if g.state.units["z"].alive and g.state.units["z"].hex == g.map.parse("0506"):
        assert "a must attack" in g.validate(O("end-phase"))
    # a voluntary attack on uncovered artillery (no ZOC, so no obligation)
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("art", "russia", "art", "0506")])
    assert g.validate(O("end-phase")) is None
    assert g.validate(atk(g, ["a"], "0506")) is None


def test_R8_2_an_enemy_in_a_settlement_still_exerts_zoc_outwards():
    rows = ["." * 10] * 5 + ["....V....."] + ["." * 10] * 4
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0506")], rows=rows)
    assert "obligation" in g.validate(O("end-phase"))


def test_R8_3_one_attack_per_unit():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 20}), U("z", "russia", "ru-inf", "0506"),
               U("y", "russia", "ru-inf", "0504")])
    g.apply(atk(g, ["a"], "0506"), Script(3))
    while g.state.pending:
        g.apply(O("no-pursuit") if g.state.pending[0]["kind"] == "pursue" else next(iter(g.legal_orders())))
    assert "already" in g.validate(atk(g, ["a"], "0504"))


def test_R8_5_one_into_several_and_several_into_one_but_not_several_into_several():
    g = melee([U("a", "sweden", "sw-inf", "0505"), U("b", "sweden", "sw-inf", "0605"),
               U("z", "russia", "ru-inf", "0506"), U("y", "russia", "ru-inf", "0504")])
    assert g.validate(atk(g, ["a"], "0506", "0504")) is None
    assert g.odds(atk(g, ["a"], "0506", "0504"))["defender_cs"] == 8
    assert g.validate(atk(g, ["a", "b"], "0506")) is None
    assert "several" in g.validate(atk(g, ["a", "b"], "0506", "0504"))


def test_R8_7_example_a1_with_two_attackers_owner_chooses_and_both_retreat():
    g = melee([U("a", "sweden", "sw-inf", "0505", stats={"cs": 1, "stars": 0}),
               U("b", "sweden", "sw-inf", "0405", stats={"cs": 1, "stars": 0}),
               U("z", "russia", "ru-inf", "0506", stats={"cs": 4})])
    g.apply(atk(g, ["a", "b"], "0506"), Script(4))   # column -2-3, die 4: A1
    p = g.state.pending[0]
    assert p["kind"] == "loss" and p["count"] == 1 and sorted(p["units"]) == ["a", "b"]
    start = {u: g.state.units[u].hex for u in "ab"}
    g.apply(O("lose", unit="b"))
    while g.state.pending:
        g.apply(next(iter(g.legal_orders())))
    assert g.state.units["a"].strength == 2 and g.state.units["b"].strength == 1
    z = g.state.units["z"].hex
    from hexwar.engine.hexgrid import hex_distance
    for u in "ab":
        assert hex_distance(g.state.units[u].hex, start[u]) == 1
        assert hex_distance(g.state.units[u].hex, z) == 2


def test_R8_7_d1_defender_loses_a_step_and_retreats_towards_its_own_edge():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(3))          # +4-6, die 3: D1
    z = g.state.units["z"]
    assert z.strength == 1
    p = g.state.pending[0]                              # two equally good hexes: owner's choice
    assert p["kind"] == "retreat" and p["side"] == "russia" and len(p["options"]) == 3
    for opt in p["options"]:                            # both one row nearer the north (home) edge
        assert g.map.offset(tuple(opt[-1]))[1] == 3
    g.apply(O("retreat", unit="z", path=p["options"][1]))
    assert g.state.units["z"].hex == tuple(p["options"][1][-1])
    assert g.state.pending[0]["kind"] == "pursue"


def test_R8_7_ex_both_lose_one_step_and_stay():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 4, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(3))          # 0, die 3: EX
    assert g.state.units["a"].strength == 1 and g.state.units["z"].strength == 1
    assert g.state.units["a"].hex == g.map.parse("0506") and g.state.units["z"].hex == g.map.parse("0505")
    assert not g.state.pending


def test_R8_7_1_more_losses_than_steps_destroys_and_the_winner_may_still_pursue_in_full():
    g = melee([U("a", "sweden", "sw-inf", "0508", stats={"cs": 15, "stars": 0}),
               U("z", "russia", "ru-inf", "0507", strength=1)])
    g.apply(atk(g, ["a"], "0507"), Script(6))          # +7, die 6: D3
    assert not g.state.units["z"].alive
    p = g.state.pending[0]
    assert p["kind"] == "pursue"
    assert max(len(path_) for _, path_ in p["options"]) == 3


def test_R8_9_2_a_blocked_retreat_costs_a_step_per_hex_not_taken():
    rows = ["." * 10] * 3 + ["WWWWWWWWWW", "WWWW.WWWWW"] + ["." * 10] * 5
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})], rows=rows)
    evs = g.apply(atk(g, ["a"], "0505"), Script(3))     # D1, no way back
    assert events(evs, "blocked-retreat-loss")
    assert not g.state.units["z"].alive


def test_R8_9_3_a_retreat_ending_on_friends_continues_to_the_next_free_hex():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4}),
               U("f1", "russia", "ru-inf", "0504", division="ru2"), U("f2", "russia", "ru-inf", "0404", division="ru2"),
               U("f3", "russia", "ru-inf", "0604", division="ru2")], homes=("south", "north"))
    g.apply(atk(g, ["a"], "0505"), Script(3))
    while g.state.pending and g.state.pending[0]["kind"] == "retreat":
        g.apply(next(iter(g.legal_orders())))
    from hexwar.engine.hexgrid import hex_distance
    z = g.state.units["z"]
    assert z.alive and hex_distance(z.hex, g.map.parse("0505")) == 2


def test_R8_10_only_attackers_pursue_and_the_pursuit_follows_the_retreat():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(3))
    g.apply(O("retreat", unit="z", path=g.state.pending[0]["options"][0]))
    p = g.state.pending[0]
    assert p["side"] == "sweden"
    assert all(uid == "a" for uid, _ in p["options"])
    assert [[list(H(g, "0505"))]] == [pp for _, pp in p["options"]]
    g.apply(O("pursue", unit="a", path=[H(g, "0505")]))
    assert g.state.units["a"].hex == g.map.parse("0505")


def test_R9_1_cavalry_may_not_attack_settlements():
    rows = ["." * 10] * 5 + ["....V....."] + ["." * 10] * 4
    g = melee([U("c", "sweden", "sw-cav", "0505"), U("z", "russia", "ru-inf", "0506"),
               U("y", "russia", "ru-inf", "0504")], rows=rows)
    assert "cavalry" in g.validate(atk(g, ["c"], "0506"))
    assert g.validate(atk(g, ["c"], "0504")) is None


def test_R9_2_cavalry_unable_to_attack_must_withdraw_or_is_destroyed():
    rows = ["." * 10] * 5 + ["....V....."] + ["." * 10] * 4
    g = game([U("c", "sweden", "sw-cav", "0505"), U("z", "russia", "ru-inf", "0506")], rows=rows)
    to_phase(g, "fire")
    g.apply(O("end-phase"))
    p = g.state.pending[0]
    assert p["kind"] == "withdraw" and p["unit"] == "c"
    o = next(iter(g.legal_orders()))
    g.apply(o)
    assert g.state.units["c"].hex != g.map.parse("0505")
    # boxed in by woods: destroyed instead
    rows = ["WWWWWWWWWW"] * 4 + ["WWWW.WWWWW", "....V....."] + ["WWWWWWWWWW"] * 4
    g = game([U("c", "sweden", "sw-cav", "0505"), U("z", "russia", "ru-inf", "0506")], rows=rows)
    to_phase(g, "fire")
    evs = g.apply(O("end-phase"))
    assert events(evs, "cavalry-destroyed") and not g.state.units["c"].alive


def test_R9_4_2_uncovered_artillery_is_destroyed_without_a_roll():
    g = melee([U("a", "sweden", "sw-inf", "0506"), U("art", "russia", "art", "0505")])
    o = atk(g, ["a"], "0505")
    assert g.odds(o)["lone_artillery"]
    evs = g.apply(o, Script())
    assert not g.state.units["art"].alive and not events(evs, "die-roll")


def test_R9_4_2_stacked_artillery_falls_when_its_stack_is_driven_back_but_not_on_ex():
    units = [U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
             U("z", "russia", "ru-inf", "0505", stats={"cs": 4}), U("art", "russia", "art", "0505")]
    g = melee(units)
    g.apply(atk(g, ["a"], "0505"), Script(3))   # D1
    g.apply(O("retreat", unit="z", path=g.state.pending[0]["options"][0]))
    assert not g.state.units["art"].alive
    g = melee([dict(u, stats={"cs": 4, "stars": 0}) if u["id"] == "a" else u for u in units])
    g.apply(atk(g, ["a"], "0505"), Script(3))   # EX
    assert g.state.units["art"].alive


def test_R9_5_leaders_give_a_reroll_and_a_one_removes_the_leader_into_the_rout_box():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 4, "stars": 0}),
               U("k", "sweden", "leader", "0506"),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(1))       # A1* before the reroll
    p = g.state.pending[0]
    assert p["kind"] == "reroll" and p["leaders"] == ["k"]
    evs = g.apply(O("reroll", leader="k"), Script(1))
    assert events(evs, "leader-lost")
    assert not g.state.units["k"].alive and g.state.vars["box"]["sw"] == 1
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 4, "stars": 0}),
               U("k", "sweden", "leader", "0506"),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(1))
    evs = g.apply(O("reroll", leader="k"), Script(6))
    assert events(evs, "melee-result")[0]["result"] == "D1"


def test_R8_10_no_pursuit_after_an_attacker_result():
    g = melee([U("a", "sweden", "sw-inf", "0506", stats={"cs": 1, "stars": 0}),
               U("z", "russia", "ru-inf", "0505", stats={"cs": 4})])
    g.apply(atk(g, ["a"], "0505"), Script(4))          # -2-3, die 4: A1
    while g.state.pending:
        assert g.state.pending[0]["kind"] != "pursue"
        g.apply(next(iter(g.legal_orders())))
    assert g.state.units["z"].hex == g.map.parse("0505")
