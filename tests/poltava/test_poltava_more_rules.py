"""Further rule cases: R4.3 one move per unit, leaders (A25), R9.5 for the defender, S2-1.6,
S2-2.6/S2-2.7 details, set-up data of both scenarios."""

from hexwar.engine import Game
from hexwar.scenarios.loader import find_scenario, load_scenario

from poltava_helpers import H, O, Script, U, events, game, path, to_phase

REDOUBT_ROWS = ["." * 10] * 5 + ["....R....."] + ["." * 10] * 4


def test_R4_3_each_unit_moves_at_most_once_per_phase():
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "1010")])
    g.apply(O("move", unit="a", path=path(g, "0502")))
    assert "already" in g.validate(O("move", unit="a", path=path(g, "0503")))
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "1010")])
    g.apply(O("hold", unit="a"))
    assert g.validate(O("move", unit="a", path=path(g, "0502"))) is not None


def test_A25_leaders_ignore_zoc_and_follow_when_their_unit_is_destroyed():
    g = game([U("k", "sweden", "leader", "0501"), U("a", "sweden", "sw-inf", "0801"),
              U("z", "russia", "ru-inf", "0503")])
    assert g.validate(O("move", unit="k", path=path(g, "0502", "0402", "0403"))) is None
    g = game([U("z", "russia", "ru-inf", "0503", strength=1), U("k", "russia", "leader", "0503"),
              U("y", "russia", "ru-inf", "0909"), U("a", "sweden", "sw-inf", "0501")])
    to_phase(g, "fire")
    g.apply(O("fire", unit="a", target="z"), Script(6))
    assert g.state.units["k"].hex == g.map.parse("0909")


def test_R9_5_the_defender_may_also_reroll_with_his_leader():
    g = game([U("a", "sweden", "sw-inf", "0506", stats={"cs": 9, "stars": 0}),
              U("z", "russia", "ru-inf", "0505", stats={"cs": 4}), U("k", "russia", "leader", "0505")])
    to_phase(g, "melee")
    g.apply(O("attack", units=["a"], hexes=[H(g, "0505")]), Script(6))   # D2 before the reroll
    p = g.state.pending[0]
    assert p["kind"] == "reroll" and p["side"] == "russia"
    evs = g.apply(O("reroll", leader="k"), Script(2))                        # +4-6, die 2: D1
    assert events(evs, "melee-result")[0]["result"] == "D1"


def test_R9_4_2_overrunning_lone_artillery_needs_no_dice():
    g = game([U("a", "sweden", "sw-inf", "0506"), U("art", "russia", "art", "0505")])
    to_phase(g, "melee")
    o = O("attack", units=["a"], hexes=[H(g, "0505")])
    assert not g.needs_dice(o)
    g.apply(o)
    p = g.state.pending[0]
    assert p["kind"] == "pursue" and p["options"] == [["a", [list(H(g, "0505"))]]]


def test_S2_1_6_a_russian_division_sent_to_the_camp_stays_there():
    rows = ["CCC......."] * 10
    divs = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("al", "russia", 99), ("ru", "russia", 99), ("ru2", "russia", 99)]
    g = game([U("k", "russia", "ru-inf", "0205", division="al"), U("z", "sweden", "sw-inf", "1010")],
             rows=rows, first="russia", divisions=divs)
    assert g.validate(O("move", unit="k", path=path(g, "0305", "0405"))) is None
    g.apply(O("detach", division="al"))
    assert "al" in g.state.vars["detached"]
    assert g.validate(O("move", unit="k", path=path(g, "0305", "0405"))) is not None


def test_S2_2_6_russians_pass_their_own_redoubts_without_a_roll_and_redoubts_have_no_zoc():
    g = game([U("z", "russia", "ru-inf", "0507"), U("r", "russia", "redoubt", "0506"),
              U("a", "sweden", "sw-inf", "0101")], rows=REDOUBT_ROWS, first="russia")
    mv = O("move", unit="z", path=path(g, "0506", "0505"))
    assert not g.needs_dice(mv) and g.validate(mv) is None
    assert g.validate(O("move", unit="z", path=path(g, "0506"))) is not None
    # S2-2.7: a Swede next to a redoubt is in no ZOC and moves on freely
    g = game([U("a", "sweden", "sw-inf", "0507"), U("r", "russia", "redoubt", "0506"),
              U("z", "russia", "ru-inf", "0101")], rows=REDOUBT_ROWS)
    assert g.validate(O("move", unit="a", path=path(g, "0607", "0608"))) is None


def test_S1_deployment_artillery_in_the_camp_batteries_camp_troops_inside():
    s = load_scenario(find_scenario("poltava-1"))
    g = Game(s)
    m = g.map
    for u in g.state.units.values():
        if u.kind == "art":
            assert m.terrain_at(u.hex) == "battery"
        if u.division == "lg":
            assert m.terrain_at(u.hex) in ("camp", "battery")
    absent = [u for u in g.state.units.values() if u.marks.get("absent")]
    assert len(absent) == 8 and all(u.division == "le" for u in absent)


def test_S2_deployment_infantry_in_camp_redoubts_garrisoned_swedes_waiting():
    s = load_scenario(find_scenario("poltava-2"))
    g = Game(s)
    m = g.map
    for u in g.state.units.values():
        if u.side == "russia" and u.stats.get("arm", u.kind) and u.kind.startswith("ru-") and u.kind in ("ru-inf", "ru-guard"):
            assert m.terrain_at(u.hex) in ("camp", "battery")
        if u.kind.startswith("redoubt"):
            assert m.terrain_at(u.hex) == "redoubt" and u.side == "russia"
        if u.side == "sweden":
            assert u.hex is None and u.marks.get("waiting") == 1
