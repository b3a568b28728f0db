"""Orders (what a player decides) and the errors raised about them.

An order is a small frozen value: a kind and a few named arguments, each an int, str, bool, None,
or a tuple of those (a hex is a pair of ints, a path a tuple of pairs). It has two canonical forms:
``to_wire()`` / ``from_wire()`` for msgpack, and ``to_text()`` / ``from_text()`` for people and
logs. ``repr`` evaluates back to the order.

``from_wire`` is the gate for anything that came from a file or a peer: it refuses malformed data
with ``InvalidOrderError``. Whether a well-formed order is *legal* is the ruleset's question.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any


class OrderError(ValueError):
    """Base class for refused orders."""


class InvalidOrderError(OrderError):
    """The order is malformed: unknown shape, bad types, too large."""


class IllegalOrderError(OrderError):
    """The order is well formed but the rules do not allow it now. ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


MAX_ARGS = 16
MAX_ITEMS = 256
MAX_STR = 128
_KIND = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


_INT_LIMIT = 1 << 62


_new_object = object.__new__

#: names already found valid (an order's kind, its argument names): a game uses a few dozen
_GOOD_KINDS: set[str] = set()
_GOOD_KEYS: set[str] = set()
_WIRE_KEYS = frozenset(("k", "a"))  # the only keys of an order's wire map
_NO_ARGS: dict[str, Any] = {}  # never changed


def _remember(names: set[str], name: str) -> None:
    if len(names) > 512:
        names.clear()
    names.add(name)


def _plain_scalar(v: Any) -> bool:
    """An int in range or a short str, of exactly those types: what ``_freeze`` passes as it is
    (checked inline for the pairs of ints a path is made of; anything else takes the long way)."""
    t = type(v)
    return (t is int and -_INT_LIMIT < v < _INT_LIMIT) or (t is str and len(v) <= MAX_STR)


def _freeze(value: Any, depth: int = 0) -> Any:
    """Lists become tuples; anything outside the allowed shapes is refused."""
    t = type(value)
    if t is list or t is tuple:  # the common shapes first: a hex, a path of hexes
        if depth >= 2:
            raise InvalidOrderError("order argument nested too deeply")
        if len(value) > MAX_ITEMS:
            raise InvalidOrderError("order argument has too many items")
        if depth == 1 and all(map(_plain_scalar, value)):
            return tuple(value)
        return tuple([_freeze(v, depth + 1) for v in value])
    if value is None or isinstance(value, (bool, int)):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _INT_LIMIT:
            raise InvalidOrderError("integer argument out of range")
        return value
    if isinstance(value, str):
        if len(value) > MAX_STR:
            raise InvalidOrderError("string argument too long")
        return value
    if isinstance(value, (list, tuple)):
        return _freeze(list(value), depth)
    raise InvalidOrderError(f"order argument of type {type(value).__name__} is not allowed")


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Order:
    """What a player decides, as a value: hashable, and the same on every machine (its
    arguments are sorted by name and frozen)."""

    kind: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, **kwargs: Any) -> "Order":
        if type(kind) is not str or kind not in _GOOD_KINDS:
            if not isinstance(kind, str) or not _KIND.match(kind):
                raise InvalidOrderError(f"order kind {kind!r} is not a valid name")
            _remember(_GOOD_KINDS, kind)
        if len(kwargs) > MAX_ARGS:
            raise InvalidOrderError("order has too many arguments")
        args = []
        for key in sorted(kwargs):
            if key not in _GOOD_KEYS:
                if not _KEY.match(key):
                    raise InvalidOrderError(f"order argument name {key!r} is not valid")
                _remember(_GOOD_KEYS, key)
            args.append((key, _freeze(kwargs[key])))
        return cls(kind, tuple(args))

    @classmethod
    def unchecked(cls, kind: str, args: tuple[tuple[str, Any], ...]) -> "Order":
        """The order ``make`` would build, for a ruleset that built ``args`` in that form itself
        (names sorted, values frozen): a legal-order list may hold hundreds of moves, and this
        skips both the checks and the frozen dataclass's ``__init__``."""
        order = _new_object(cls)
        d = order.__dict__
        d["kind"] = kind
        d["args"] = args
        return order

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def __contains__(self, key: str) -> bool:
        return any(k == key for k, _ in self.args)

    # --- wire form ------------------------------------------------------------------------
    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.kind}
        if self.args:
            out["a"] = {k: _thaw(v) for k, v in self.args}
        return out

    @classmethod
    def from_wire(cls, data: Any) -> "Order":
        # A journal replays the same few kinds and argument names hundreds of times: when all of
        # them were found valid before, build the order ``make`` would, without its checks of
        # the names or a keyword dict; anything else takes the checked way below.
        if type(data) is dict and data.keys() <= _WIRE_KEYS:
            kind = data.get("k")
            args = data.get("a", _NO_ARGS)
            if (type(kind) is str and kind in _GOOD_KINDS and type(args) is dict
                    and len(args) <= MAX_ARGS and all(map(_GOOD_KEYS.__contains__, args))):
                return cls.unchecked(kind, tuple([(k, _freeze(args[k])) for k in sorted(args)]))
        if not isinstance(data, dict):
            raise InvalidOrderError("an order must be a map")
        if set(data) - {"k", "a"}:
            raise InvalidOrderError("an order map may only hold 'k' and 'a'")
        args = data.get("a", {})
        if not isinstance(args, dict):
            raise InvalidOrderError("order arguments must be a map")
        if not all(isinstance(k, str) for k in args):
            raise InvalidOrderError("order argument names must be strings")
        return cls.make(data.get("k"), **args)  # type: ignore[arg-type]

    # --- text form ------------------------------------------------------------------------
    def to_text(self) -> str:
        parts = [self.kind]
        for k, v in self.args:
            # Compact JSON has spaces only inside strings; escaping them keeps one word per arg.
            raw = json.dumps(_thaw(v), separators=(",", ":")).replace(" ", "\\u0020")
            parts.append(f"{k}={raw}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> "Order":
        words = text.split(" ")
        if not words or not words[0]:
            raise InvalidOrderError("empty order text")
        kwargs: dict[str, Any] = {}
        for word in words[1:]:
            key, sep, raw = word.partition("=")
            if not sep:
                raise InvalidOrderError(f"order text part {word!r} is not key=value")
            try:
                kwargs[key] = json.loads(raw)
            except ValueError as exc:
                raise InvalidOrderError(f"order text value {raw!r} is not valid") from exc
            if isinstance(kwargs[key], (float, dict)):
                raise InvalidOrderError(f"order text value {raw!r} is not allowed")
        return cls.make(words[0], **kwargs)

    def __repr__(self) -> str:
        return f"Order.from_text({self.to_text()!r})"

    def __str__(self) -> str:
        return self.to_text()


Event = dict[str, Any]


def event(kind: str, **data: Any) -> Event:
    """An event is a plain map with its kind under "t"; the UI logs and animates these."""
    return {"t": kind, **data}
