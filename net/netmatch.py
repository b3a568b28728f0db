"""A networked match's game and journal: the same file format as ``hexwar.match.Match``.

``Match`` draws both nonces itself; here the two nonces come from the two peers, and the exchange
can be interrupted by a dropped link or a crash. So besides the order records that ``Match``
writes (and ``hexwar replay --verify`` checks) the journal holds records that replay skips:

* ``net``    who we are in this match (role, side, the host key and the guest key);
* ``commit`` our own dice order and secret nonce, written before the commitment is sent, so a
             restarted process reveals the nonce it committed to and cannot pick another;
* ``peer-commit`` the peer's committed order and our nonce, written before our nonce is sent;
* ``end``    a result the rules did not produce: resignation, agreed draw, time forfeit;
* ``clock``  with a turn timer, when the decision at ``seq`` began (wall-clock ms), so a restart
             does not give the side to act its time again;
* ``finished`` both sides said farewell holding the same final state: nothing is left to send.

The journal holds our committed nonce before it is revealed, so it is written 0600 and lives in a
0700 directory.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexwar.engine import Game, Order
from hexwar.engine.orders import Event, InvalidOrderError
from hexwar.engine.scenario import Scenario
from hexwar.match import create_journal, replay, resolve_order, scenario_from_header
from hexwar.journal import Journal, JournalError, read_journal


@dataclass
class Pending:
    """A dice order between its commitment and its reveal."""

    seq: int
    side: str
    order: Order
    commit: bytes
    nonce: bytes  # ours: nonce_A when we act, nonce_B when the peer acts


@dataclass
class NetMatch:
    game: Game
    match_id: bytes
    journal: Journal | None
    info: dict[str, Any] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    mine: Pending | None = None
    theirs: Pending | None = None
    end: dict[str, Any] | None = None
    finished: bool = False
    clock: tuple[int, int] | None = None  # the latest ``clock`` record: (seq, wall-clock ms)

    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    @property
    def seq(self) -> int:
        return self.game.state.seq

    @property
    def over(self) -> bool:
        return self.game.over or self.end is not None

    @property
    def result(self) -> dict[str, Any] | None:
        if self.end is not None:
            return self.end
        r = self.game.state.result
        return None if r is None else {"winner": r.get("winner"), "reason": str(r.get("reason", ""))[:200]}

    @property
    def journal_path(self) -> str | None:
        return None if self.journal is None else self.journal.path

    @classmethod
    def create(cls, scenario: Scenario, match_id: bytes, journal_path: str | Path | None,
               players: dict[str, str], info: dict[str, Any]) -> "NetMatch":
        game = Game(scenario)
        journal = None
        if journal_path is not None:
            Path(journal_path).parent.mkdir(parents=True, exist_ok=True)
            journal = create_journal(journal_path, game, match_id, players)
            _private(journal_path)
            journal.append({"type": "net", **info})
        return cls(game, match_id, journal, dict(info))

    @classmethod
    def resume(cls, path: str | Path) -> "NetMatch":
        """Reopen a journal after a crash: replay and verify it, restore pending exchanges."""
        path = str(path)
        # A process killed in the middle of an append leaves half a record; every record is
        # journaled before the message that depends on it is sent, so the peer resends the rest.
        journal, contents = Journal.resume(path, drop_torn_tail=True)
        _private(path)
        _private(path + ".damaged")
        try:
            report = replay(path, contents, verify=True)
            match_id = contents.header["match"]
            m = cls(report.game, match_id, journal)
            for rec in contents.records:
                kind = rec["type"]
                if kind == "net":
                    m.info.update({k: v for k, v in rec.items() if k != "type"})
                elif kind == "order":
                    m.records.append(rec)
                elif kind in ("commit", "peer-commit"):
                    try:
                        order = Order.from_wire(rec["order"])
                    except (InvalidOrderError, KeyError) as exc:
                        raise JournalError(path, None, f"bad {kind} record: {exc}") from None
                    p = Pending(rec["seq"], rec["side"], order, rec["commit"], rec["nonce"])
                    if kind == "commit":
                        m.mine = p
                    else:
                        m.theirs = p
                elif kind == "end":
                    m.end = {"winner": rec.get("winner"), "reason": rec.get("reason", "")}
                elif kind == "finished":
                    m.finished = True
                elif kind == "clock" and isinstance(rec.get("seq"), int) and isinstance(rec.get("at"), int):
                    m.clock = (rec["seq"], rec["at"])
            # Exchanges already resolved by a later order record are history, not pending.
            for attr in ("mine", "theirs"):
                p = getattr(m, attr)
                if p is not None and p.seq != m.seq:
                    setattr(m, attr, None)
            if "side" not in m.info:
                raise JournalError(path, None, "not a network game's journal (no 'net' record)")
        except BaseException:
            journal.close()
            raise
        return m

    # --- changes --------------------------------------------------------------------------
    def note(self, kind: str, p: Pending) -> None:
        """Journal a pending exchange before the message that depends on it is sent (written
        at once; the session waits for ``durable`` where the next step needs it synced)."""
        if self.journal is not None:
            self.journal.write({"type": kind, "seq": p.seq, "side": p.side, "order": p.order.to_wire(),
                                "commit": p.commit, "nonce": p.nonce})

    def note_clock(self, seq: int) -> None:
        """Journal that the decision at ``seq`` begins now (written, synced with what follows)."""
        self.clock = (seq, int(time.time() * 1000))
        if self.journal is not None:
            self.journal.write({"type": "clock", "seq": seq, "at": self.clock[1]})

    def decision_start(self) -> tuple[int, float] | None:
        """(seq, start on this process's monotonic clock) of the decision now due, if a
        ``clock`` record says when it began; the time since then counts (never less than 0)."""
        if self.clock is None or self.clock[0] != self.seq:
            return None
        elapsed = max(0.0, time.time() - self.clock[1] / 1000)
        return self.seq, time.monotonic() - elapsed

    def note_info(self, **info: Any) -> None:
        self.info.update(info)
        if self.journal is not None:
            self.journal.append({"type": "net", **info})

    def finish(self, winner: str | None, reason: str) -> None:
        if self.end is not None or self.game.over:
            return
        self.end = {"winner": winner, "reason": reason[:200]}
        if self.journal is not None:
            self.journal.append({"type": "end", "seq": self.seq, **self.end})

    def mark_finished(self) -> None:
        """Both sides hold the final state and said so: a resumed host has nothing to wait for."""
        if not self.finished:
            self.finished = True
            if self.journal is not None:
                self.journal.append({"type": "finished", "seq": self.seq})

    def apply(self, order: Order, side: str, nonces: list[bytes] | None) -> tuple[list[Event], dict[str, Any]]:
        """Validate, roll, resolve on a copy, journal (written, synced by the group commit
        thread: ``durable``), then make current.
        Raises ``IllegalOrderError`` and changes nothing if the order is refused."""
        seq = self.seq
        trial, events, record = resolve_order(self.game, self.match_id, order, side, nonces)
        if self.journal is not None:
            self.journal.write(record)
        self.game = trial
        self.records.append(record)
        if self.mine is not None and self.mine.seq == seq:
            self.mine = None
        if self.theirs is not None and self.theirs.seq == seq:
            self.theirs = None
        return events, record

    def durable(self) -> "Future[int] | None":
        """A future done once every record written so far is synced (None without a journal)."""
        return None if self.journal is None else self.journal.durable()

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


def _private(path: str | Path) -> None:
    """Only the owner may read a journal (it holds a nonce before the peer sees it)."""
    try:
        os.chmod(path, 0o600)
    except FileNotFoundError:
        pass


def digest_bytes(game: Game) -> bytes:
    return bytes.fromhex(game.digest())


def journal_header(path: str) -> dict[str, Any]:
    return read_journal(path).header


__all__ = ["NetMatch", "Pending", "digest_bytes", "journal_header", "scenario_from_header"]
