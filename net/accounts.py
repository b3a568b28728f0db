"""Player accounts of a served hexwar: the SSH key is the identity.

The first key that logs in under a user name owns that name from then on; the same name with any
other key is refused. Nothing else is asked of a player: no password, no sign-up. The file is
small JSON, written atomically and private (0600). The number of accounts is capped so that a
client inventing names and keys cannot grow the server's disk or memory without bound.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import asyncssh

from .keys import fingerprint, public_line

#: a user name: lower case, starts with a letter, at most 32 characters
NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
#: names the orders-only protocol gives a meaning (``hexwar join`` logs in as these)
RESERVED = frozenset({"player", "spectator", "root", "admin", "hexwar"})
DEFAULT_LIMIT = 10_000


class AccountRefused(Exception):
    """Why this name and key may not log in, in words for the player."""


class Accounts:
    """Name -> the key bound to it, kept in ``path``."""

    def __init__(self, path: Path, limit: int = DEFAULT_LIMIT) -> None:
        self.path = Path(path)
        self.limit = limit
        self._names: dict[str, dict[str, str]] = {}
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
            self._names = {n: v for n, v in data.items() if NAME.fullmatch(n) and isinstance(v, dict)}

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: str) -> bool:
        return name in self._names

    def problem(self, name: str, key: asyncssh.SSHKey) -> str | None:
        """None if ``key`` may log in as ``name`` (its own account, or a free name), else why not."""
        if not NAME.fullmatch(name):
            return (f"'{name}' is not a hexwar name: use 1-32 lower-case letters, digits, '-' or '_', "
                    f"starting with a letter (ssh -p PORT yourname@host)")
        if name in RESERVED:
            return f"the name '{name}' is reserved; log in under a name of your own"
        bound = self._names.get(name)
        if bound is None:
            if len(self._names) >= self.limit:
                return "this server has no room for new players; ask its operator"
            return None
        if bound["fingerprint"] != fingerprint(key):
            return (f"the name '{name}' belongs to another key; log in with that key, "
                    f"or choose another name")
        return None

    def claim(self, name: str, key: asyncssh.SSHKey) -> bool:
        """Bind ``name`` to ``key`` if it is free (True when a new account was made). Call this
        only once the key is proven (after authentication), never on a mere offer of a key."""
        why = self.problem(name, key)
        if why is not None:
            raise AccountRefused(why)
        if name in self._names:
            return False
        self._names[name] = {"key": public_line(key), "fingerprint": fingerprint(key),
                             "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self._save()
        return True

    def fingerprint_of(self, name: str) -> str | None:
        bound = self._names.get(name)
        return None if bound is None else bound["fingerprint"]

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self._names, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
