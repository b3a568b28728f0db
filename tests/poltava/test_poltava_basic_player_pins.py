"""The basic computer player's choices, pinned: speed work on it (issue 16) must leave every
choice the same, so whole basic-against-basic games end on the digests the code gave before.
The digests were computed with main at 697e8b5, before the player's candidates were picked
with ``heapq.nsmallest`` instead of a full sort."""

import pytest

from hexwar.match import simulate
from hexwar.scenarios.loader import find_scenario, load_scenario

PINS = {
    ("poltava-2", 1): "dc0f915d01fb40c6e278326100e187f1",
    ("poltava-1", 2): "3e2aec4cfa66fb8921b706be0302c234",
}


@pytest.mark.parametrize("scenario_id,seed", sorted(PINS))
def test_basic_against_basic_games_end_on_the_pinned_digests(scenario_id, seed):
    scenario = load_scenario(find_scenario(scenario_id))
    result = simulate(scenario, seed, None, {"sweden": "basic", "russia": "basic"})
    assert result.digest == PINS[(scenario_id, seed)]
