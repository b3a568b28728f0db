"""Reading order arguments defensively: anything malformed becomes None (then a refusal)."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex

MAX_PATH = 32


def as_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def as_hex(v: Any) -> Hex | None:
    if isinstance(v, (tuple, list)) and len(v) == 2 and all(as_int(x) is not None for x in v):
        return Hex(v[0], v[1])
    return None


def as_path(v: Any) -> list[Hex] | None:
    if not isinstance(v, (tuple, list)) or not v or len(v) > MAX_PATH:
        return None
    out = [as_hex(h) for h in v]
    return None if any(h is None for h in out) else out  # type: ignore[return-value]


def as_facing(v: Any) -> int | None:
    i = as_int(v)
    return i if i is not None and 0 <= i <= 5 else None


def as_ids(v: Any) -> list[str] | None:
    if not isinstance(v, (tuple, list)) or not v or not all(isinstance(x, str) for x in v):
        return None
    return list(v)
