"""A value record made as a plain class rather than a dataclass.

Making a dataclass runs code at import time, and a one-shot ``hexwar replay`` pays for every one
on its path (benchmarks/NOTES.md, tenth stop). The few records on that path derive from
``PlainRecord``: they write their own ``__init__`` and name their fields in ``__match_args__``;
this base gives them the repr, equality and unhashability a dataclass would have."""

from __future__ import annotations

from typing import Any


class PlainRecord:
    """Compared by value over the fields named in ``__match_args__``; mutable, so unhashable."""

    __match_args__: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]
