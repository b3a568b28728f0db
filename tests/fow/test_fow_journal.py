"""A computer game of the campaign, recorded and replayed: the journal holds every plan only after
both commitments of its turn, and the replay verifies (G-19, design 6 and 7c)."""

from hexwar.engine import secret
from hexwar.match import replay, simulate
from hexwar.journal import read_journal
from hexwar.scenarios.loader import find_scenario, load_scenario


def test_g19_the_journal_holds_no_plan_before_both_commitments(tmp_path):
    scenario = load_scenario(find_scenario("bir-hakeim"))
    path = tmp_path / "g.journal"
    result = simulate(scenario, 4, path)
    contents = read_journal(path)
    sides = sorted(s.id for s in scenario.sides)
    committed: list[str] = []
    opened: list[str] = []
    rounds = 0
    for rec in contents.records:
        order = rec["order"]
        kind = order["k"]
        if kind == secret.COMMIT:
            assert set(order["a"]) == {"digest"} and not opened
            committed.append(rec["side"])
        elif kind == secret.REVEAL:
            assert sorted(committed) == sides, "a plan before both commitments of its round"
            opened.append(rec["side"])
            if len(opened) == len(sides):
                committed, opened, rounds = [], [], rounds + 1
    assert rounds >= 2 and not committed and not opened  # the deployment, then a plan per turn
    report = replay(str(path), contents, verify=True)
    assert report.game.digest() == result.digest and report.orders == result.orders
