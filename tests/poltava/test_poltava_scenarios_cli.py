"""Shipped scenarios: listing, describe (every unit), the map, and computer games that end."""

import pytest

from hexwar.cli import main
from hexwar.engine import Game
from hexwar.match import simulate
from hexwar.scenarios.loader import find_scenario, load_scenario


def test_hexwar_scenarios_lists_both_poltava_scenarios(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "poltava-1" in out and "poltava-2" in out


@pytest.mark.parametrize("sid", ["poltava-1", "poltava-2"])
def test_describe_shows_every_unit(sid, capsys):
    s = load_scenario(find_scenario(sid))
    assert main(["describe", sid]) == 0
    out = capsys.readouterr().out
    for u in s.units:
        assert u.id in out


def test_the_roster_is_complete_in_scenario_2():
    s = load_scenario(find_scenario("poltava-2"))
    kinds = {}
    for u in s.units:
        kinds.setdefault((u.side, u.stats["arm"]), []).append(u)
    assert len(kinds[("russia", "inf")]) == 25 and len(kinds[("russia", "cav")]) == 23
    assert len(kinds[("sweden", "inf")]) == 18 and len(kinds[("sweden", "cav")]) == 15
    assert len({u.name.rsplit(" ", 1)[0] if u.name[-1] in "IV" else u.name
                for u in kinds[("sweden", "inf")]}) == 10
    assert len(kinds[("russia", "cossack")]) == 8
    assert len(kinds[("russia", "redoubt")]) == 10
    assert sum(1 for u in s.units if u.kind == "redoubt-u") == 2
    assert len(kinds[("russia", "art")]) >= 1
    assert {d.id for d in s.divisions} == {"gn", "rp", "al", "mn", "bm", "sb", "lg", "rc", "le", "cr", "ha", "roos"}
    assert all(d.rout_threshold for d in s.divisions if d.id != "roos")


@pytest.mark.parametrize("sid", ["poltava-1", "poltava-2"])
def test_describe_map_shows_camp_redoubts_woods_and_river(sid, capsys):
    assert main(["describe", sid, "--map"]) == 0
    out = capsys.readouterr().out
    for word in ("camp", "battery", "redoubt", "woods", "river", "village"):
        assert word in out
    m = load_scenario(find_scenario(sid)).map
    t = lambda lab: m.terrain_at(m.parse(lab))
    assert t("2308") == "camp" and t("1904") == "battery"            # camp by the Vorskla, north-east
    assert [t(f"{c:02d}20") for c in (8, 10, 12, 14, 16, 18)] == ["redoubt"] * 6
    assert [t(f"13{r:02d}") for r in (23, 25, 27, 29)] == ["redoubt"] * 4
    assert t("0210") == "woods" and t("2524") == "woods"              # woods on both sides of the gap
    assert all(t(f"32{r:02d}") == "river" for r in range(1, 41))      # the Vorskla on the east edge
    assert t("2302") == "village"                                     # Yakovtsy


@pytest.mark.parametrize("sid", ["poltava-1", "poltava-2"])
def test_a_computer_game_ends(sid):
    # speed is measured in benchmarks/balance.py, not asserted on a shared machine's clock
    s = load_scenario(find_scenario(sid))
    r = simulate(s, 7)
    assert r.reason
    assert 1 <= r.turns <= 12


def test_invariants_hold_through_a_computer_game():
    from hexwar.engine.ai import Computer
    from hexwar.engine.dice import Dice
    s = load_scenario(find_scenario("poltava-1"))
    g = Game(s)
    ais = {x.id: Computer(f"3:{x.id}") for x in s.sides}
    i = 0
    while not g.over:
        side = g.to_act()
        g.apply(ais[side].choose(g), Dice(f"x{i}".encode()), side)
        assert g.ruleset.invariant_problems(g) == []
        i += 1
