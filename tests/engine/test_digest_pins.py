"""Digests pinned before the engine speed work (issue 16), so a faster encoder or a cached digest
can never change a byte of the canonical encoding.

The values below were computed on 2026-11-23 on commit fc66fa5 (before any issue-16 change) by
running the untouched engine: ``Game(scenario).digest()`` for each built-in scenario, the digests
after orders 1, 50, 200 and 400 and at the end when replaying ``fixtures/poltava-2-seed1.journal``
(``hexwar simulate poltava-2 --seed 1`` on that commit), and ``State.digest()`` of the synthetic
state built in ``_synthetic_state``. They are golden values, not engine output copied after the fact.

Issue 11 changed Poltava's rules (the melee obligations are now kept in the state, the retrenchment
has an inside, and more), so the same seed plays a different game. The journal and the replay pins
were then recorded again, the same way, on commit df3a8a7: issue 11's rules on the engine of
fc66fa5, still without any issue-16 change. The initial and synthetic digests did not change.

Issue 35 item 17 changed Poltava's R9.5 (a pending reroll decision carries the roll that stands
after a first leader's reroll), so the basic players' later choices differ: the journal was
recorded again (``hexwar simulate poltava-2 --seed 1 --level sweden=basic --level russia=basic``)
and the pins after order 200, 400 and at the end taken from its replay; 1 and 50 are unchanged.
"""

from pathlib import Path

import pytest

from hexwar.engine import Game
from hexwar.engine.hexgrid import Hex
from hexwar.engine.state import State, Unit
from hexwar.match import replay
from hexwar.journal import read_journal
from hexwar.scenarios.loader import find_scenario, load_scenario

JOURNAL = Path(__file__).parent / "fixtures" / "poltava-2-seed1.journal"

INITIAL = {
    "attack-on-morobad": "601cf92f7143fed9b225674877b8c980",
    "border-clash": "bc139f83bcc4725e38970caecc6b3fe6",
    "elephant-crossing": "5183d8cd53fb1b7ab33da55ad1234c14",
    "poltava-1": "520b3e1412be33fc3e8dfe8bd82c8709",
    "poltava-2": "dddfa5a6f120d20dd2d55ec67b504b47",
}
REPLAY = {
    1: "b62b67a05cc57e04b7cba4f4fa5c9d26",
    50: "73e09e127dd4bb91ff1bf632a7b24378",
    200: "db2f10163ebc24d0207943c1b8387672",
    400: "21eb928e2e244fedf8d2ccefa6a1b9b5",
}
REPLAY_FINAL = ("6a6dc0524774ad9a54614e7c572b70fb", 630)
SYNTHETIC = "5f90911134691d9560473fd8b139dbb9"


def _synthetic_state() -> State:
    """Every shape the encoder meets: long strings, wide ints, negative and mixed map keys, bytes,
    tuples inside lists, None and bools, an off-map unit, units inserted out of id order."""
    return State(
        ruleset="x", scenario="y", turn=3, phase="move", active="a", side_order=["a", "b"],
        sides={"a": {"n": -1, "big": 1 << 40, "neg": -(1 << 33)}, "b": {}},
        units={"u2": Unit("u2", "b", "k", "N" * 40, None, 0, 2, 5, "d", "elite", {"ma": 4}, {"x": True}),
               "u1": Unit("u1", "a", "k", "é", Hex(3, -2), 1, 2, 0, "", "average", {},
                          {"moved": 1, "w": "s" * 300})},
        pending=[{"side": "a", "kind": "loss", "units": ["u1", "u2"], "n": 200}],
        vars={"z": [1, 2, [3, (4, 5)]], "a": {"b": None, 7: 0x10000, -5: b"\x00\x01"},
              "list": list(range(20))},
        result={"winner": None, "reason": ""}, seq=70000)


@pytest.mark.parametrize("sid", sorted(INITIAL))
def test_initial_digest_is_unchanged(sid):
    assert Game(load_scenario(find_scenario(sid))).digest() == INITIAL[sid]


def test_replayed_poltava_digests_are_unchanged():
    seen = {}

    def on_order(number, game, events):
        if game.state.seq in REPLAY:
            seen[game.state.seq] = game.digest()

    report = replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=on_order)
    assert seen == REPLAY
    assert (report.game.digest(), report.orders) == REPLAY_FINAL


def test_synthetic_state_digest_is_unchanged():
    st = _synthetic_state()
    assert st.digest() == SYNTHETIC
    # a copy, and a copy changed and changed back, encode the same
    twin = st.copy()
    assert twin.digest() == SYNTHETIC
    twin.units["u1"].mark("moved", 0)
    assert twin.digest() != SYNTHETIC
    twin.units["u1"].mark("moved", 1)
    assert twin.digest() == SYNTHETIC
    assert State.from_bytes(st.to_bytes()).digest() == SYNTHETIC
