"""A deck of cards with private hands: the interface a card-driven ruleset uses, and the local deck.

Cards are plain ids (ints); what a card says is the ruleset's business. A deck has a face-down
draw pile, a hand per side, and a face-up discard pile. Playing or discarding a card shows it to
everyone and puts it on the discard pile; ``reshuffle`` turns the discard pile (and any cards
added to the deck) face down again, shuffled, under the pile or shuffled into it.

``LocalDeck`` is for hotseat and the computer: it knows every face and shuffles from a seed it is
handed (the dice stream of ``engine.dice``), so a game replays from its seed. Over the network
``hexwar.net.card_protocol.NetDeck`` has the same reading methods; its draw, play, discard and
reshuffle are coroutines, because each one is an exchange with the peer.
"""

from __future__ import annotations

from typing import Protocol

from .dice import Dice


class DeckError(ValueError):
    """A deck operation the rules do not allow (an empty pile, a card not in the hand)."""


class DeckView(Protocol):
    """What any deck tells a ruleset or a screen: counts for every side, faces only where seen."""

    sides: tuple[str, ...]

    def hand(self, side: str) -> list[int]:
        """The faces of ``side``'s hand that this deck's holder may see, sorted."""

    def count(self, side: str) -> int:
        """How many cards ``side`` holds (public, even when the faces are not)."""

    def pile_size(self) -> int:
        """Cards left face down to draw."""

    def discard_pile(self) -> list[int]:
        """The face-up discard pile, oldest first."""


class LocalDeck:
    """Every face known; shuffles are Fisher-Yates driven by a ``Dice`` stream from ``seed``."""

    def __init__(self, cards: list[int], sides: tuple[str, ...], seed: bytes) -> None:
        if len(set(cards)) != len(cards):
            raise DeckError("a deck's card ids are distinct")
        self.sides = tuple(sides)
        self._dice = Dice(seed)
        self._pile: list[int] = self._shuffled(list(cards))
        self._hands: dict[str, list[int]] = {s: [] for s in self.sides}
        self._discards: list[int] = []

    def _shuffled(self, cards: list[int]) -> list[int]:
        for i in range(len(cards) - 1, 0, -1):
            j = self._dice.roll(i + 1, "shuffle") - 1
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def hand(self, side: str) -> list[int]:
        return sorted(self._hands[side])

    def count(self, side: str) -> int:
        return len(self._hands[side])

    def pile_size(self) -> int:
        return len(self._pile)

    def discard_pile(self) -> list[int]:
        return list(self._discards)

    def draw(self, side: str) -> int:
        """The top card of the pile into ``side``'s hand."""
        if not self._pile:
            raise DeckError("the draw pile is empty")
        card = self._pile.pop(0)
        self._hands[side].append(card)
        return card

    def play(self, side: str, card: int) -> None:
        """Show ``card`` from ``side``'s hand and put it on the discard pile."""
        self._to_discards(side, card)

    def discard(self, side: str, card: int) -> None:
        """Discard ``card`` from the hand unplayed (face up too: every discard is seen)."""
        self._to_discards(side, card)

    def _to_discards(self, side: str, card: int) -> None:
        if card not in self._hands[side]:
            raise DeckError(f"card {card} is not in {side}'s hand")
        self._hands[side].remove(card)
        self._discards.append(card)

    def reshuffle(self, add: list[int] | tuple[int, ...] = (), with_pile: bool = False) -> None:
        """The discard pile and ``add`` (cards new to the deck), shuffled, go face down under the
        draw pile, or, ``with_pile``, are shuffled together with it."""
        known = set(self._pile) | set(self._discards) | {c for h in self._hands.values() for c in h}
        if any(c in known for c in add) or len(set(add)) != len(add):
            raise DeckError("a card added to the deck is already in it")
        cards, self._discards = self._discards + list(add), []
        if with_pile:
            self._pile = self._shuffled(self._pile + cards)
        else:
            self._pile.extend(self._shuffled(cards))
