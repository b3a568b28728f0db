"""Sealed plans over the network: protocol 2's ``seal`` and ``unseal`` messages.

The engine (engine/secret.py) binds a plan's commitment to the scenario, the round and the side;
it cannot know the match. The network does, so it binds the commitment to the match and to the
order number of the seal through the salt: a sealed plan's salt is always

    match id (16 bytes) | seq of the seal (8 bytes, big-endian) | secret (16 random bytes)

and the engine's commitment covers the whole salt. A receiver accepts an ``unseal`` only if its
salt starts with this match's id and the seq at which the same side's ``seal`` was applied in this
round, and the engine finds that plan and salt open the commitment. So a commitment copied from
another match, another round or the other side never opens here, and a replayed ``seal`` (its seq
already applied, or a commitment this match has seen before) is refused before it changes anything.

What a side has sealed stays with it (``SealedPlans``): in memory and in a private ``.sealed`` file
next to the journal (0600, like the journal's nonces), so a restarted process can still reveal it;
the file is emptied once the plan is revealed. Neither the journal, the shared state, nor a
spectator's stream holds a plan before every side of the round has committed: the journal and the
spectators get the engine's ``commit-plan`` order, which carries only the commitment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgpack

from hexwar.engine import Order, secret

MATCH_ID_BYTES, SEQ_BYTES, SECRET_BYTES = 16, 8, 16
SALT_BYTES = MATCH_ID_BYTES + SEQ_BYTES + SECRET_BYTES  # = protocol.SALT_BYTES
PLAN_KINDS = (secret.COMMIT, secret.REVEAL)


def new_secret() -> bytes:
    """The secret part of a salt, from the operating system. A computer draws it before it makes
    its plan, so that the plan can depend on it (engine/secret.py, ``Ruleset.ai_plan``): committed
    with the plan inside the salt, revealed with it, and checked with it by the commitment."""
    return os.urandom(SECRET_BYTES)


def new_salt(match_id: bytes, seq: int, secret_part: bytes | None = None) -> bytes:
    """A fresh salt bound to ``match_id`` and the seq of the seal it goes with; ``secret_part``:
    the secret drawn beforehand (``new_secret``), else a fresh one."""
    part = new_secret() if secret_part is None else secret_part
    if len(part) != SECRET_BYTES:
        raise ValueError(f"the secret part of a salt is {SECRET_BYTES} bytes")
    return match_id + seq.to_bytes(SEQ_BYTES, "big") + part


def salt_problem(salt: bytes, match_id: bytes, seal_seq: int | None) -> str | None:
    """Why ``salt`` is not bound to this match and this round's seal, or None."""
    if len(salt) != SALT_BYTES:
        return f"a sealed plan's salt is {SALT_BYTES} bytes"
    if salt[:MATCH_ID_BYTES] != match_id:
        return "the plan was sealed for another match"
    bound_seq = int.from_bytes(salt[MATCH_ID_BYTES:MATCH_ID_BYTES + SEQ_BYTES], "big")
    if seal_seq is None or bound_seq != seal_seq:
        return f"the plan was sealed at seq {bound_seq}, not at this round's seal ({seal_seq})"
    return None


def seal_seq(records: list[dict[str, Any]], side: str) -> int | None:
    """The seq of ``side``'s latest ``commit-plan``: the seal of the round being revealed (a side
    commits once a round, and every reveal of a round comes after all its commitments)."""
    for rec in reversed(records):
        if rec["side"] == side and rec["order"].get("k") == secret.COMMIT:
            return int(rec["seq"])
    return None


def seen_commitment(records: list[dict[str, Any]], digest: str) -> int | None:
    """The seq at which this match already applied commitment ``digest``, if it did."""
    for rec in records:
        if rec["order"].get("k") == secret.COMMIT and rec["order"].get("a", {}).get("digest") == digest:
            return int(rec["seq"])
    return None


def commit_order(commit: bytes) -> Order:
    return Order.make(secret.COMMIT, digest=commit.hex())


def reveal_order(plan: list[list[Any]], salt: bytes) -> Order:
    return Order.make(secret.REVEAL, plan=[list(r) for r in plan], salt=salt.hex())


def packed_size(plan: Any) -> int:
    return len(msgpack.packb(plan, use_bin_type=True))


class SealedPlans:
    """This side's sealed plans until they are revealed: (round, side) -> (plan, salt)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.plans: dict[tuple[str, str], tuple[list[list[Any]], bytes]] = {}
        if path is not None and Path(path).exists():
            try:
                rows = msgpack.unpackb(Path(path).read_bytes(), raw=False)
            except (ValueError, msgpack.UnpackException):
                rows = []
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, list) and len(row) == 4:
                    self.plans[(str(row[0]), str(row[1]))] = (row[2], row[3])

    def put(self, round_name: str, side: str, plan: list[list[Any]], salt: bytes) -> None:
        self.plans[(round_name, side)] = ([list(r) for r in plan], salt)
        self._save()

    def get(self, round_name: str, side: str) -> tuple[list[list[Any]], bytes] | None:
        return self.plans.get((round_name, side))

    def drop_salt(self, salt: bytes) -> None:
        """Forget the plan sealed with ``salt``: it has been revealed."""
        keys = [k for k, (_, s) in self.plans.items() if s == salt]
        for k in keys:
            del self.plans[k]
        if keys:
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        rows = [[r, s, plan, salt] for (r, s), (plan, salt) in sorted(self.plans.items())]
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(msgpack.packb(rows, use_bin_type=True))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(self.path, 0o600)


__all__ = ["PLAN_KINDS", "SALT_BYTES", "SealedPlans", "commit_order", "new_salt", "new_secret", "packed_size",
           "reveal_order", "salt_problem", "seal_seq", "seen_commitment"]
