"""The local deck (engine/deck.py): seeded shuffles, private hands, plays, discards, reshuffles."""

from __future__ import annotations

import pytest

from hexwar.engine.deck import DeckError, LocalDeck

SIDES = ("france", "allies")


def dealt(seed: bytes = b"seed-1", n: int = 60) -> LocalDeck:
    deck = LocalDeck(list(range(n)), SIDES, seed)
    for _ in range(5):
        for side in SIDES:
            deck.draw(side)
    return deck


def test_the_same_seed_deals_the_same_hands_and_another_seed_does_not():
    a, b, c = dealt(), dealt(), dealt(b"seed-2")
    assert a.hand("france") == b.hand("france") and a.hand("allies") == b.hand("allies")
    assert (a.hand("france"), a.hand("allies")) != (c.hand("france"), c.hand("allies"))


def test_a_shuffle_is_a_permutation_and_not_the_identity():
    deck = LocalDeck(list(range(60)), SIDES, b"x")
    drawn = [deck.draw("france") for _ in range(60)]
    assert sorted(drawn) == list(range(60)) and drawn != list(range(60))
    with pytest.raises(DeckError):
        deck.draw("allies")


def test_counts_are_public_and_hands_disjoint():
    deck = dealt()
    assert deck.count("france") == deck.count("allies") == 5 and deck.pile_size() == 50
    assert not set(deck.hand("france")) & set(deck.hand("allies"))


def test_play_and_discard_show_the_card_on_the_discard_pile():
    deck = dealt()
    card, other = deck.hand("france")[:2]
    deck.play("france", card)
    deck.discard("france", other)
    assert deck.discard_pile() == [card, other] and deck.count("france") == 3
    with pytest.raises(DeckError):
        deck.play("france", card)                           # not in the hand any more
    with pytest.raises(DeckError):
        deck.play("allies", deck.hand("france")[0])         # the other side's card


def test_reshuffle_puts_the_discards_under_the_pile_shuffled():
    deck = dealt()
    played = deck.hand("allies")
    for card in played:
        deck.play("allies", card)
    left = deck.pile_size()
    deck.reshuffle()
    assert deck.discard_pile() == [] and deck.pile_size() == left + 5
    for _ in range(left):
        deck.draw("france")
    again = [deck.draw("allies") for _ in range(5)]
    assert sorted(again) == sorted(played)


def test_a_deck_with_repeated_ids_is_refused():
    with pytest.raises(DeckError):
        LocalDeck([1, 2, 2], SIDES, b"x")


def test_cards_added_and_shuffled_into_the_pile():
    deck = dealt(n=20)
    in_hands = deck.hand("france") + deck.hand("allies")
    deck.reshuffle(add=[40, 41], with_pile=True)
    pile = [deck.draw("france") for _ in range(deck.pile_size())]
    assert sorted(pile) == sorted(set(range(20)) - set(in_hands) | {40, 41})
    assert pile[-2:] != [40, 41] or pile[:2] != sorted(pile)[:2]          # shuffled in, not laid under
    with pytest.raises(DeckError):
        deck.reshuffle(add=[40])                                          # already in the deck
