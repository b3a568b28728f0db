"""Player accounts of a served hexwar: the SSH key is the identity.

The first key that opens a session under a user name owns that name from then on; the same name
with any other key is refused. Nothing else is asked of a player: no password, no sign-up.

Accounts live in SQLite (``accounts`` table, WAL, private 0600), so adding one is one small
insert: nothing rewrites the whole store, and the operator's questions (who, since when, last
seen) are one query away. The number of accounts is capped so that a client inventing names and
keys cannot grow the server's disk without bound, and the cap counts only accounts worth keeping:
one whose player never came back after its first session and holds nothing (``expire_unused``) is
forgotten after a while, freeing its name. An ``accounts.json`` from an older server is read in
once (``migrate_json``).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import Callable, Iterable

import asyncssh

from .keys import fingerprint, public_line

#: a user name: lower case, starts with a letter, at most 32 characters
NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
#: names the orders-only protocol gives a meaning (``hexwar join`` logs in as these)
RESERVED = frozenset({"player", "spectator", "root", "admin", "hexwar"})
DEFAULT_LIMIT = 10_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    since TEXT NOT NULL,      -- when the account was made (UTC, ISO 8601)
    created REAL NOT NULL,    -- the same, in seconds since the epoch
    last_seen REAL NOT NULL,  -- the start of its latest session
    sessions INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS more_keys (   -- keys a player added after the first (``add_key``)
    name TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    key TEXT NOT NULL,
    added REAL NOT NULL,
    PRIMARY KEY (name, fingerprint)
);
"""
#: keys one player may hold besides the first
MORE_KEYS = 8


class AccountRefused(Exception):
    """Why this name and key may not log in, in words for the player."""


def _private_file(path: Path) -> None:
    """Create ``path`` (and its folder) private before SQLite opens it; SQLite gives its
    ``-wal`` and ``-shm`` files the main file's mode."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(str(path), os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    os.chmod(path, 0o600)


class Accounts:
    """Name -> the key bound to it, kept in the SQLite file ``path``."""

    def __init__(self, path: Path, limit: int = DEFAULT_LIMIT, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.limit = limit
        self.clock = clock  # wall clock: account ages outlive the process
        _private_file(self.path)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def __len__(self) -> int:
        return self.db.execute("SELECT count(*) FROM accounts").fetchone()[0]

    def __contains__(self, name: object) -> bool:
        return self._row(str(name)) is not None

    def _row(self, name: str) -> tuple[str, str] | None:
        return self.db.execute("SELECT key, fingerprint FROM accounts WHERE name = ?", (name,)).fetchone()

    def problem(self, name: str, key: asyncssh.SSHKey) -> str | None:
        """None if ``key`` may log in as ``name`` (its own account, or a free name), else why not."""
        if not NAME.fullmatch(name):
            return (f"'{name[:40]}' is not a hexwar name: use 1-32 lower-case letters, digits, '-' or '_', "
                    f"starting with a letter (ssh -p PORT yourname@host)")
        if name in RESERVED:
            return f"the name '{name}' is reserved; log in under a name of your own"
        bound = self._row(name)
        if bound is None:
            return "this server has no room for new players; ask its operator" if self.full() else None
        if not self.owns(name, key):
            return (f"the name '{name}' belongs to another key; log in with that key, "
                    f"or choose another name")
        return None

    def full(self) -> bool:
        return len(self) >= self.limit

    def claim(self, name: str, key: asyncssh.SSHKey) -> bool:
        """Bind ``name`` to ``key`` if it is free (True when a new account was made), or note a
        returning player's session. Call this only once the key is proven, and only when the
        player opens a real session: a login alone makes no account."""
        why = self.problem(name, key)
        if why is not None:
            raise AccountRefused(why)
        now = self.clock()
        if self._row(name) is not None:
            self.db.execute("UPDATE accounts SET last_seen = ?, sessions = sessions + 1 WHERE name = ?",
                            (now, name))
            return False
        if self.full():
            raise AccountRefused("this server has no room for new players; ask its operator")
        try:
            self.db.execute(
                "INSERT INTO accounts (name, key, fingerprint, since, created, last_seen) VALUES (?, ?, ?, ?, ?, ?)",
                (name, public_line(key), fingerprint(key), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
                 now, now))
        except sqlite3.IntegrityError:  # another session made it first: judge again
            return self.claim(name, key)
        return True

    def owns(self, name: str, key: asyncssh.SSHKey) -> bool:
        """Whether ``key`` is one of ``name``'s keys (its first, or one it added)."""
        fp = fingerprint(key)
        bound = self._row(name)
        return bound is not None and (bound[1] == fp or self.db.execute(
            "SELECT 1 FROM more_keys WHERE fingerprint = ? AND name = ?", (fp, name)).fetchone() is not None)

    def fingerprints(self, name: str) -> list[str]:
        bound = self._row(name)
        if bound is None:
            return []
        return [bound[1]] + [fp for (fp,) in self.db.execute(
            "SELECT fingerprint FROM more_keys WHERE name = ? ORDER BY added, fingerprint", (name,))]

    def add_key(self, name: str, key: asyncssh.SSHKey) -> bool:
        """Add ``key`` to ``name``'s keys (call only for a session proven to be ``name``'s);
        False if it already was one. (As with a first key, a key may be any number of players'.)"""
        if self.owns(name, key):
            return False
        fp = fingerprint(key)
        if len(self.fingerprints(name)) > MORE_KEYS:
            raise AccountRefused(f"a player may have at most {MORE_KEYS + 1} keys")
        self.db.execute("INSERT INTO more_keys (fingerprint, name, key, added) VALUES (?, ?, ?, ?)",
                        (fp, name, public_line(key), self.clock()))
        return True

    def fingerprint_of(self, name: str) -> str | None:
        bound = self._row(name)
        return None if bound is None else bound[1]

    def expire_unused(self, older_than: float, keep: Callable[[str], bool]) -> list[str]:
        """Forget accounts made more than ``older_than`` seconds ago whose player had one session
        only and for which ``keep(name)`` is false (no saved game, no seat in a match): their
        names are free again and they count no more. Returns the names forgotten."""
        cutoff = self.clock() - older_than
        names = [n for (n,) in self.db.execute(
            "SELECT name FROM accounts WHERE sessions <= 1 AND last_seen < ? ORDER BY name", (cutoff,))]
        gone = [n for n in names if not keep(n)]
        self.db.executemany("DELETE FROM accounts WHERE name = ?", [(n,) for n in gone])
        self.db.executemany("DELETE FROM more_keys WHERE name = ?", [(n,) for n in gone])
        return gone

    def migrate_json(self, legacy: Path) -> int:
        """Read an older server's ``accounts.json`` in (once: it is renamed ``.migrated``).
        Returns how many accounts it added."""
        legacy = Path(legacy)
        if not legacy.exists():
            return 0
        data = json.loads(legacy.read_text(encoding="utf-8") or "{}")
        now = self.clock()
        rows: Iterable[tuple] = (
            (n, v["key"], v["fingerprint"], str(v.get("since", "")), now, now)
            for n, v in sorted(data.items())
            if NAME.fullmatch(n) and isinstance(v, dict) and isinstance(v.get("key"), str)
            and isinstance(v.get("fingerprint"), str))
        before = len(self)
        self.db.execute("BEGIN")  # one transaction
        # migrated players count as returning ones: never expired as unused
        self.db.executemany(
            "INSERT OR IGNORE INTO accounts (name, key, fingerprint, since, created, last_seen, sessions) "
            "VALUES (?, ?, ?, ?, ?, ?, 2)", rows)
        self.db.execute("COMMIT")
        os.replace(legacy, legacy.with_name(legacy.name + ".migrated"))
        return len(self) - before
