"""Recorded games must replay to the same digests: any change in what the engine computes for
the same orders and dice shows up here. Re-record with tests/golden/regenerate.py only after an
intended rules change."""

import json
from pathlib import Path

import pytest

from hexwar.match import replay
from hexwar.journal import read_journal

GOLDEN = Path(__file__).parent / "golden"
EXPECTED = json.loads((GOLDEN / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_journal_replays_to_its_recorded_digests(name):
    path = GOLDEN / name
    contents = read_journal(path)
    report = replay(str(path), contents, verify=True)
    assert report.orders == EXPECTED[name]["orders"]
    assert report.game.digest() == EXPECTED[name]["digest"]
    assert report.game.over
    assert (report.game.state.result or {}).get("winner") == EXPECTED[name]["winner"]
