"""The basic computer player's choices, pinned: speed work on it (issue 16) must leave every
choice the same, so whole basic-against-basic games end on the digests the code gave before.
The digests were computed with main at 697e8b5, before the player's candidates were picked
with ``heapq.nsmallest`` instead of a full sort; recomputed when R9.5's pending reroll decision
started carrying the roll that stands after a first leader's reroll (issue 35 item 17), which
changes the basic player's later reroll choices."""

import pytest

from hexwar.match import simulate
from hexwar.scenarios.loader import find_scenario, load_scenario

PINS = {
    ("poltava-2", 1): "6a6dc0524774ad9a54614e7c572b70fb",
    ("poltava-1", 2): "91e37d4831a89a085206432861f40b58",
}


@pytest.mark.parametrize("scenario_id,seed", sorted(PINS))
def test_basic_against_basic_games_end_on_the_pinned_digests(scenario_id, seed):
    scenario = load_scenario(find_scenario(scenario_id))
    result = simulate(scenario, seed, None, {"sweden": "basic", "russia": "basic"})
    assert result.digest == PINS[(scenario_id, seed)]
