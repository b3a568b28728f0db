"""The computer player: picks the best-scored legal order the ruleset offers.

Rulesets know what a good order is (odds, objectives), so they score their own candidate orders
in ``Ruleset.ai_orders``; this module only chooses among them. Equal scores are broken by a hash
of (seed, seq, order text), so one seed always plays the same game and different seeds vary.
The chosen order is always re-checked with ``Game.validate``; an AI can never play an illegal move.
"""

from __future__ import annotations

import hashlib

from . import secret
from .game import Game
from .orders import Order


class NoLegalOrderError(RuntimeError):
    """The ruleset offered nothing legal: a ruleset bug, since ending a phase is always legal."""


class Computer:
    """``secret_key`` salts the computer's plan commitments; without it the salt derives from the seed
    (fine for computer-against-computer games, whose seed nobody needs to hide)."""

    def __init__(self, seed: int | bytes = 0, secret_key: bytes | None = None) -> None:
        self.seed = seed if isinstance(seed, bytes) else str(seed).encode()
        self.secret_key = secret_key if secret_key is not None else b"salt|" + self.seed
        #: (round, side) -> (plan, salt) between a commitment and its reveal; never in the state
        self.plans: dict[tuple[str, str], tuple[secret.Plan, bytes]] = {}

    def _tiebreak(self, seq: int, order: Order) -> bytes:
        h = hashlib.blake2b(digest_size=8, person=b"hexwar-ai")
        h.update(self.seed + b"|" + str(seq).encode() + b"|" + order.to_text().encode())
        return h.digest()

    def choose(self, game: Game) -> Order:
        rnd = game.ruleset.secret_round(game)
        if rnd is not None and secret.next_side(rnd) == game.to_act():
            return self._secret_step(game, rnd)
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

    def _recall(self, game: Game, rnd: dict, side: str, plans: list | None = None) -> None:
        """Make the plan of this round again (it depends on the state and the secret key only)
        and keep it if it opens the recorded commitment; ``plans``: the candidates to try."""
        key = (rnd["round"], side)
        salt = self._salt(key)
        bound = secret.binding(game.scenario.source_hash, rnd["round"], side)
        for plan in plans if plans is not None else [game.ruleset.ai_plan(game, side, salt)]:
            if secret.commitment(bound, plan, salt) == rnd["commits"].get(side):
                self.plans[key] = (plan, salt)
                return

    def _salt(self, key: tuple[str, str]) -> bytes:
        return hashlib.blake2b(self.secret_key + b"|" + "|".join(key).encode(), digest_size=16).digest()

    def commit(self, game: Game, rnd: dict, side: str, plan: secret.Plan) -> Order:
        """The commitment to ``plan``, which is kept (with its salt) for the reveal."""
        key = (rnd["round"], side)
        salt = self._salt(key)
        self.plans[key] = (plan, salt)
        bound = secret.binding(game.scenario.source_hash, rnd["round"], side)
        return Order.make(secret.COMMIT, digest=secret.commitment(bound, plan, salt))

    def _secret_step(self, game: Game, rnd: dict) -> Order:
        """Commit to a plan made from the state (which holds no other side's plan, only its
        commitment) and this computer's salt, which nobody else knows before the reveal
        (engine/secret.py), or reveal the plan committed to earlier."""
        side = game.to_act() or ""
        key = (rnd["round"], side)
        if secret.stage(rnd) == "commit":
            return self.commit(game, rnd, side, game.ruleset.ai_plan(game, side, self._salt(key)))
        if key not in self.plans:
            self._recall(game, rnd, side)  # e.g. a game saved between commitment and reveal
        if key not in self.plans:
            raise NoLegalOrderError(f"the computer has no plan of its own to reveal for {key}")
        plan, salt = self.plans.pop(key)
        return Order.make(secret.REVEAL, plan=plan, salt=salt.hex())
