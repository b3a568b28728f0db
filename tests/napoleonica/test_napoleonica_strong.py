"""The strong level's own scoring of generals (ai.strong_candidates): what the basic player does
not see about 22.6 (a general alone next to an enemy stand when the Attack phase ends is
captured) and what a capture is worth (22.10: 2 points, 5 for the commander-in-chief)."""

import pytest

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.rulesets.napoleonica import ai
from hexwar.engine.rulesets.napoleonica import board as B
from hexwar.engine.rulesets.napoleonica.board import View

from napo_helpers import game, play, unit

BLUE_COL = dict(id="b", side="blue", kind="INF_LINE", hex="0608", formation="column", strength=1)  # (2, 7)
RED_LINE = dict(id="r", side="red", kind="INF_LINE", hex="0605", formation="line", strength=1)     # (3, 4)
SPARE = [12, 3, 5, 9, 14, 2, 17, 8, 11, 6]


@pytest.fixture
def guarded(monkeypatch):
    """The test board's blue side plays with the strong level's guard on its generals."""
    monkeypatch.setattr(ai, "GENERAL_GUARD", frozenset({("t", "blue")}))


def test_s22_6_s7_4_a_general_alone_within_a_charges_reach_is_exposed():
    """An attack moves up to 10 cm, 2 hexes (7.4, 21.3), and a general alone next to an enemy
    stand after it is taken (22.6): alone 3 hexes from an enemy stand he is exposed; stacked
    with a friendly stand he is not; beyond the designed safe distance he is not."""
    g = game([dict(RED_LINE, hex="0602"), dict(id="g", side="blue", kind="GEN", hex="0605"),
              dict(BLUE_COL, hex="0909")])
    view = View(g.state)
    gen, red = unit(g, "g"), unit(g, "r")
    assert hex_distance(gen.hex, red.hex) == 3
    assert ai.general_exposed(view, gen, gen.hex) == 1
    assert ai.general_exposed(view, gen, unit(g, "b").hex) == 0          # stacked with b
    far = next(h for h in (Hex(gen.hex[0], gen.hex[1] + k) for k in range(1, 8))
               if hex_distance(h, red.hex) == ai.GENERAL_SAFE_D + 1)
    assert ai.general_exposed(view, gen, far) == 0
    assert ai.GENERAL_SAFE_D >= 3                # never closer than the rule's own reach


def test_s22_6_the_strong_general_never_ends_his_move_exposed_when_basic_would(guarded):
    """Blue's general is its only piece left; basic values every hex covering blue's unit
    alike (and only a hex next-but-one to the enemy less), so some of its best moves end alone
    three hexes from red; the strong level's best moves all end out of reach."""
    g = game([RED_LINE, dict(BLUE_COL, hex="0309"), dict(id="g", side="blue", kind="GEN", hex="0611")])
    for done in ("b", "blue-cinc"):
        unit(g, done).mark("acted", 1)
    view = View(g.state)
    gen = unit(g, "g")

    def best_ends(scored):
        moves = [(s, o) for s, o in scored if o.kind == "move" and o["unit"] == "g"]
        top = max(s for s, _ in moves)
        return [Hex(*o["path"][-1]) for s, o in moves if s == top]

    basic = best_ends(ai.candidates(g.ruleset, g))
    strong = best_ends(g.ruleset.strong_orders(g))
    assert any(ai.general_exposed(view, gen, h) for h in basic)
    assert strong and not any(ai.general_exposed(view, gen, h) for h in strong)


@pytest.mark.parametrize("kind,points", [("GEN", 2), ("CINC", 5)])
def test_s22_6_s22_10_an_attack_that_leaves_an_enemy_general_alone_next_to_it_scores_his_capture(
        guarded, kind, points):
    """Blue's column may charge red's line at either of its two front hexes (7.5). A red
    general stands alone two hexes from blue: the contact at 0606 puts blue's stand next to
    him, the one at 0506 does not. Taken when the Attack phase ends (22.6), he scores blue 2
    points, 5 as the commander-in-chief (22.10), so the strong level adds that many points'
    worth to the first attack only."""
    rg = dict(id="rg", side="red", kind=kind, hex="0706")                 # (4, 5)
    others = [dict(id="bc", side="blue", kind="CINC", hex="0111")] + \
        ([dict(id="rc", side="red", kind="CINC", hex="1201")] if kind == "GEN" else [])
    g = game([BLUE_COL, RED_LINE, rg, *others], phase="attack", cincs=False)
    near, far = Order.make("attack", unit="b", target=(3, 4), contact=(3, 5)), \
        Order.make("attack", unit="b", target=(3, 4), contact=(2, 5))
    basic = {o: s for s, o in ai.candidates(g.ruleset, g) if o.kind == "attack"}
    strong = {o: s for s, o in g.ruleset.strong_orders(g) if o.kind == "attack"}
    assert strong[near] - basic[near] == ai.GENERAL_POINT * points
    assert strong[far] == basic[far]
    # the rule the score counts on: that attack ends with the general taken
    play(g, "attack", dice=SPARE, unit="b", target=(3, 4), contact=(3, 5))
    assert g.state.phase != "attack"
    assert B.state_of(unit(g, "rg")) == "captured"


def test_the_generals_guard_is_only_for_the_seats_named():
    """Outside ``GENERAL_GUARD`` the strong level's candidates are basic's, score for score."""
    rg = dict(id="rg", side="red", kind="GEN", hex="0706")
    g = game([BLUE_COL, RED_LINE, rg], phase="attack")
    assert list(g.ruleset.strong_orders(g)) == list(ai.candidates(g.ruleset, g))
