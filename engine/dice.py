"""Dice: a reproducible stream of die rolls from a seed.

Each roll hashes (seed, counter) with BLAKE2b and keeps 64 bits; values that would make a
die face more likely than another are thrown away and the next counter is used (rejection
sampling). The stream is the same on every machine and Python version.

In a match the seed of an order comes from both players' nonces (``order_seed``), so neither
can choose or foresee it. Every roll is reported to the caller so it can be shown and logged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .blake import blake2b

_SPACE = 1 << 64


def order_seed(match_id: bytes, seq: int, nonce_a: bytes, nonce_b: bytes) -> bytes:
    """The dice seed of order ``seq``: H(match_id, seq, nonce_a, nonce_b), length-prefixed."""
    h = blake2b(digest_size=32, person=b"hexwar-dice")
    for part in (match_id, seq.to_bytes(8, "big"), nonce_a, nonce_b):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def nonce_commitment(nonce: bytes) -> bytes:
    """What a peer sends before revealing its nonce (commit-reveal, design.md section 5)."""
    return blake2b(nonce, digest_size=32, person=b"hexwar-commit").digest()


@dataclass
class Roll:
    """One die rolled: kept in ``Dice.rolls`` so events and the log can show it."""

    sides: int
    value: int
    why: str


@dataclass
class Dice:
    """A die-roll stream. ``rolls`` keeps what was rolled, in order."""

    seed: bytes
    counter: int = 0
    rolls: list[Roll] = field(default_factory=list)

    def roll(self, sides: int = 6, why: str = "") -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        limit = _SPACE - (_SPACE % sides)
        while True:
            block = blake2b(
                self.counter.to_bytes(8, "big"), key=self.seed[:64], digest_size=8,
                person=b"hexwar-roll",
            ).digest()
            self.counter += 1
            v = int.from_bytes(block, "big")
            if v < limit:
                value = v % sides + 1
                self.rolls.append(Roll(sides, value, why))
                return value


class NoDice:
    """Handed to orders that must not roll; a roll then is a bug in the ruleset, not luck."""

    rolls: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        raise RuntimeError(f"order rolled a die ({why}) but was declared as needing none")
