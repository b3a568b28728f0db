"""The computer player: picks the best-scored legal order the ruleset offers.

Rulesets know what a good order is (odds, objectives), so they score their own candidate orders
in ``Ruleset.ai_orders``; this module only chooses among them. Equal scores are broken by a hash
of (seed, seq, order text), so one seed always plays the same game and different seeds vary.
The chosen order is always re-checked with ``Game.validate``; an AI can never play an illegal move.
"""

from __future__ import annotations

import hashlib

from .game import Game
from .orders import Order


class NoLegalOrderError(RuntimeError):
    """The ruleset offered nothing legal: a ruleset bug, since ending a phase is always legal."""


class Computer:
    def __init__(self, seed: int | bytes = 0) -> None:
        self.seed = seed if isinstance(seed, bytes) else str(seed).encode()

    def _tiebreak(self, seq: int, order: Order) -> bytes:
        h = hashlib.blake2b(digest_size=8, person=b"hexwar-ai")
        h.update(self.seed + b"|" + str(seq).encode() + b"|" + order.to_text().encode())
        return h.digest()

    def choose(self, game: Game) -> Order:
        seq = game.state.seq
        best: tuple[int, bytes, Order] | None = None
        for score, order in game.ruleset.ai_orders(game):
            key = (score, self._tiebreak(seq, order), order)
            if best is None or key[:2] > best[:2]:
                if game.validate(order) is None:
                    best = key
        if best is None:
            raise NoLegalOrderError(
                f"ruleset {game.ruleset.id} offered no legal order at seq {seq} "
                f"(turn {game.state.turn}, phase {game.state.phase})")
        return best[2]

