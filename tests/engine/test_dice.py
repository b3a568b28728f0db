"""Dice: a seeded, reproducible, unbiased stream."""

from collections import Counter

import pytest

from hexwar.engine.dice import Dice, NoDice, nonce_commitment, order_seed


def test_same_seed_same_rolls_other_seed_other_rolls():
    a, b, c = Dice(b"seed"), Dice(b"seed"), Dice(b"other")
    ra = [a.roll(6) for _ in range(50)]
    assert ra == [b.roll(6) for _ in range(50)]
    assert ra != [c.roll(6) for _ in range(50)]


def test_known_values_are_stable_across_versions():
    # Pinned: if the stream changes, every recorded journal stops replaying.
    d = Dice(b"hexwar")
    assert [d.roll(6) for _ in range(10)] == [3, 4, 5, 3, 3, 2, 5, 6, 2, 3]


def test_rolls_are_in_range_and_roughly_uniform():
    d = Dice(b"uniform")
    counts = Counter(d.roll(6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts
    assert all(1 <= d.roll(20) <= 20 for _ in range(200))


def test_rolls_are_recorded_with_their_purpose():
    d = Dice(b"x")
    v = d.roll(6, "melee")
    assert d.rolls[-1].value == v and d.rolls[-1].why == "melee" and d.counter >= 1


def test_no_dice_refuses_to_roll():
    with pytest.raises(RuntimeError):
        NoDice().roll(6, "oops")


def test_order_seed_depends_on_every_part():
    base = order_seed(b"m", 1, b"a", b"b")
    assert base != order_seed(b"m", 2, b"a", b"b")
    assert base != order_seed(b"m", 1, b"b", b"a")
    assert base != order_seed(b"n", 1, b"a", b"b")
    assert order_seed(b"ab", 1, b"", b"") != order_seed(b"a", 1, b"b", b"")
    assert nonce_commitment(b"x") != nonce_commitment(b"y")
