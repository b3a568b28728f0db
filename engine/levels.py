"""The computer's playing levels: ``basic`` (scores the orders of the moment, ``ai.py``) and
``strong`` (looks ahead with the engine, ``search.py``), and the one place that builds either."""

from __future__ import annotations

from typing import Protocol

from .ai import Computer
from .game import Game
from .orders import Order
from .search import StrongComputer

#: weakest first; ``strong`` is the default wherever the computer plays
LEVELS = ("basic", "strong")
DEFAULT_LEVEL = "strong"


class Player(Protocol):
    def choose(self, game: Game) -> Order: ...


def computer_for(level: str, seed: int | bytes | str = 0, work: int | None = None) -> Player:
    """A computer player of ``level``; ``work`` overrides the strong level's budget (work units
    per decision, see ``search.Budget``; by default each ruleset's ``search_budget``)."""
    seed = seed.encode() if isinstance(seed, str) else seed
    if level == "basic":
        return Computer(seed)
    if level == "strong":
        return StrongComputer(seed, work=work)
    raise ValueError(f"unknown computer level {level!r} (known: {', '.join(LEVELS)})")
