"""A game being played in the UI: the match, who plays each side, the journal, and undo.

Every order goes through ``Match.play`` (validated, dice from nonces, journaled with fsync before
the screen shows it). Loading a save replays its journal and reopens it for appending. Undo is
only allowed back to the last order that rolled dice: the journal is rewritten without the undone
orders, so a saved game never holds an order that was taken back.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from hexwar.engine import Game, Order
from hexwar.engine.orders import Event
from hexwar.engine.scenario import Scenario
from hexwar.match import Match, random_nonces, replay
from hexwar.journal import Journal, JournalError, keep_first_orders, read_journal
from hexwar.paths import data_dir

HUMAN, COMPUTER = "human", "computer"


def new_journal_path(scenario_id: str) -> Path:
    folder = data_dir() / "games"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{scenario_id}-{stamp}.journal"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{scenario_id}-{stamp}-{n}.journal"
    return path


def saved_games() -> list[Path]:
    folder = data_dir() / "games"
    if not folder.exists():
        return []
    return sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime, reverse=True)


@dataclass
class Session:
    match: Match
    players: dict[str, str]
    path: Path | None = None
    undo_stack: list[tuple[Game, int]] = field(default_factory=list)  # (game before, events count)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def scenario(self) -> Scenario:
        return self.match.game.scenario

    @classmethod
    def new(cls, scenario: Scenario, players: dict[str, str], path: Path | None = None,
            seed: int | None = None) -> "Session":
        match = Match.new(scenario, seed=seed, journal_path=path, players=players)
        return cls(match, players, path)

    @classmethod
    def load(cls, path: str | Path) -> "Session":
        """Replay a saved game and keep appending to it. Raises ``JournalError`` if it is bad."""
        path = Path(path)
        contents = read_journal(path)
        report = replay(str(path), contents, verify=True)
        journal, _ = Journal.resume(path)
        header = report.header
        players = header.get("players") or {}
        sides = [s.id for s in report.game.scenario.sides]
        players = {s: players.get(s, HUMAN) if players.get(s) in (HUMAN, COMPUTER) else HUMAN
                   for s in sides}
        match = Match(report.game, header["match"], random_nonces, journal)
        return cls(match, players, path)

    def is_human(self, side: str | None) -> bool:
        return side is not None and self.players.get(side, HUMAN) == HUMAN

    def play(self, order: Order, side: str | None = None) -> list[Event]:
        """Play one order (raises ``IllegalOrderError`` with the reason if refused)."""
        before = self.match.game
        needs_dice = before.needs_dice(order)
        events = self.match.play(order, side)
        if needs_dice and any(e.get("t") == "die-roll" for e in events):
            self.undo_stack.clear()
        else:
            self.undo_stack.append((before, len(self.match.events) - len(events)))
        return events

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def undo(self) -> int:
        """Take back orders up to the previous die roll, until a human is to act. Returns how
        many orders were taken back (0 when nothing can be)."""
        count = 0
        while self.undo_stack:
            game, n_events = self.undo_stack.pop()
            self.match.game = game
            del self.match.events[n_events:]
            count += 1
            if self.is_human(game.to_act()):
                break
        if count and self.path is not None:
            self._rewrite_journal(self.game.state.seq)
        return count

    def _rewrite_journal(self, keep_orders: int) -> None:
        assert self.path is not None
        if self.match.journal is not None:
            self.match.journal.close()
        keep_first_orders(self.path, keep_orders)
        self.match.journal, _ = Journal.resume(self.path)

    def close(self) -> None:
        self.match.close()


__all__ = ["COMPUTER", "HUMAN", "JournalError", "Session", "data_dir", "new_journal_path", "saved_games"]
