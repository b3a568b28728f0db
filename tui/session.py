"""A game being played in the UI: the match, who plays each side, the journal, and undo.

Every order goes through ``Match.play`` (validated, dice from nonces, journaled with fsync before
the screen shows it). The journal file appears with the first order, so a game opened and left at
once leaves no empty save. Loading a save replays its journal and reopens it for appending; a last
record cut short by a crash is dropped with a warning (the file as it was is kept beside it). Undo is
only allowed back to the last order that rolled dice: the journal is rewritten without the undone
orders, so a saved game never holds an order that was taken back.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from hexwar.engine import Game, Order
from hexwar.engine.orders import Event
from hexwar.engine.scenario import Scenario
from hexwar.match import Match, random_nonces, replay
from hexwar.journal import Journal, JournalError, damage_notice, keep_first_orders, read_journal
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


@dataclass(frozen=True)
class SaveSummary:
    """One line of the Load list: which scenario, how far, who plays, when last played."""

    path: Path
    title: str
    turn: int
    turns: int
    sides: str
    played: str
    problem: str = ""

    def text(self) -> str:
        if self.problem:
            return f"{self.path.name} — cannot be read: {self.problem}"
        return f"{self.title} · turn {self.turn}/{self.turns} · {self.sides} · last played {self.played}"


_summaries: dict[tuple[str, int, int], SaveSummary] = {}


def summarize_save(path: Path) -> SaveSummary:
    """Replay a save (without checking digests) to say where it stands. Cached on the file's
    name, size and modification time, so reopening the Load list does not replay it again."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key in _summaries:
        return _summaries[key]
    played = time.strftime("%Y-%m-%d %H:%M", time.localtime(st.st_mtime))
    try:
        contents = read_journal(path, allow_torn_tail=True)
        game = replay(str(path), contents, verify=False).game
    except (JournalError, OSError) as exc:
        summary = SaveSummary(path, "", 0, 0, "", played, getattr(exc, "reason", str(exc)))
    else:
        players = contents.header.get("players") or {}
        sides = " vs ".join(f"{s.name} ({players.get(s.id, HUMAN)})" for s in game.scenario.sides)
        summary = SaveSummary(path, game.scenario.title, game.state.turn, game.scenario.turns,
                              sides, played)
    _summaries[key] = summary
    return summary


@dataclass
class Session:
    match: Match
    players: dict[str, str]
    path: Path | None = None
    undo_stack: list[tuple[Game, int]] = field(default_factory=list)  # (game before, events count)
    #: what the player should know about the save that was loaded (a torn last record), else ""
    load_warning: str = ""

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def events(self) -> list[Event]:
        return self.match.events

    @property
    def scenario(self) -> Scenario:
        return self.match.game.scenario

    @classmethod
    def new(cls, scenario: Scenario, players: dict[str, str], path: Path | None = None,
            seed: int | None = None) -> "Session":
        match = Match.new(scenario, seed=seed, journal_path=path, players=players, lazy=True)
        return cls(match, players, path)

    @classmethod
    def load(cls, path: str | Path) -> "Session":
        """Replay a saved game and keep appending to it. Raises ``JournalError`` if it is bad."""
        path = Path(path)
        contents = read_journal(path, allow_torn_tail=True)
        report = replay(str(path), contents, verify=True)
        journal, repaired = Journal.resume(path, drop_torn_tail=contents.torn)
        header = report.header
        players = header.get("players") or {}
        sides = [s.id for s in report.game.scenario.sides]
        players = {s: players.get(s, HUMAN) if players.get(s) in (HUMAN, COMPUTER) else HUMAN
                   for s in sides}
        match = Match(report.game, header["match"], random_nonces, journal)
        session = cls(match, players, path, load_warning=damage_notice(repaired, path.name))
        session._read_sealed()
        return session

    def is_human(self, side: str | None) -> bool:
        return side is not None and self.players.get(side, HUMAN) == HUMAN

    def play(self, order: Order, side: str | None = None) -> list[Event]:
        """Play one order (raises ``IllegalOrderError`` with the reason if refused)."""
        before = self.match.game
        needs_dice = before.needs_dice(order)
        # the computer's orders write no save while a player has yet to give one: the journal
        # starts with a player's first order (a match of computers only is saved from its first)
        who = side if side is not None else before.to_act()
        hold = not self.is_human(who) and any(self.is_human(s.id) for s in before.scenario.sides)
        events = self.match.play(order, side, hold=hold)
        if needs_dice and any(e.get("t") == "die-roll" for e in events):
            self.undo_stack.clear()
        else:
            self.undo_stack.append((before, len(self.match.events) - len(events)))
        return events

    def commit_plan(self, plan: list, side: str | None = None) -> list[Event]:
        """Commit a secret plan (``Match.commit_plan``). Nothing before it can be undone: a
        commitment taken back would let a player see the other's plan and plan again. The sealed
        plan is also kept beside the save (``sealed_path``, private), so a game left between
        commitment and reveal can still be revealed when it is loaded again."""
        events = self.match.commit_plan(plan, side)
        self.undo_stack.clear()
        self._write_sealed()
        return events

    def reveal_plan(self, side: str | None = None) -> list[Event]:
        events = self.match.reveal_plan(side)
        self.undo_stack.clear()
        self._write_sealed()
        return events

    @property
    def sealed_path(self) -> Path | None:
        return None if self.path is None else self.path.with_name(self.path.name + ".sealed")

    def _write_sealed(self) -> None:
        path = self.sealed_path
        if path is None:
            return
        if not self.match.sealed:
            path.unlink(missing_ok=True)
            return
        data = [[rnd, side, plan, salt.hex()] for (rnd, side), (plan, salt) in sorted(self.match.sealed.items())]
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)

    def _read_sealed(self) -> None:
        path = self.sealed_path
        if path is None or not path.exists():
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            for rnd, side, plan, salt in data:
                self.match.sealed[(str(rnd), str(side))] = (plan, bytes.fromhex(salt))
        except (OSError, ValueError, TypeError):
            self.load_warning = (self.load_warning + " " if self.load_warning else "") + \
                f"The sealed plans kept beside this save ({path.name}) could not be read."

    @property
    def can_undo(self) -> bool:
        """An undo can reach a position where a human is to act (taking back only the computer's
        orders since its die roll would let it play them again: that is no undo)."""
        return any(self.is_human(game.to_act()) for game, _ in self.undo_stack)

    def undo(self) -> int:
        """Take back orders up to the previous die roll, until a human is to act. Returns how
        many orders were taken back (0 when nothing can be)."""
        count = 0
        if not self.can_undo:
            return 0
        while self.undo_stack:
            game, n_events = self.undo_stack.pop()
            self.match.game = game
            del self.match.events[n_events:]
            count += 1
            if self.is_human(game.to_act()):
                break
        if count and self.path is not None:
            if self.match.saved:
                self._rewrite_journal(self.game.state.seq)
            else:  # nothing written yet: only the held orders are taken back
                self.match.forget_held(self.game.state.seq)
        return count

    def _rewrite_journal(self, keep_orders: int) -> None:
        assert self.path is not None
        if self.match.journal is not None:
            self.match.journal.close()
        keep_first_orders(self.path, keep_orders)
        self.match.journal, _ = Journal.resume(self.path)

    @property
    def saved(self) -> bool:
        """Whether a journal file holds this game yet (it is written with the first order)."""
        return self.path is not None and self.match.saved

    def farewell(self) -> str:
        """What to tell the player when they leave: where the game is and how to resume it."""
        if self.path is None:
            return "This game was not saved (--no-save)."
        if not self.saved:
            return "No order was played, so no save file was written."
        return (f"The game is saved in {self.path}\n"
                f"Resume it with: hexwar play --load {self.path}")

    def close(self) -> None:
        self.match.close()


__all__ = ["COMPUTER", "HUMAN", "JournalError", "Session", "data_dir", "SaveSummary", "new_journal_path", "saved_games",
           "summarize_save"]
