"""Msgpack frames on a byte stream, read with hard limits.

A peer controls every byte we read, so the streaming ``Unpacker`` is given limits on buffer size
and on each string, binary, array and map length, and decoded values are checked for nesting depth
(msgpack has no depth limit of its own short of its C stack guard). A frame that breaks a limit or
cannot be decoded leaves the stream unreadable from that point, so it is a ``FramingError`` and
the link is dropped; whether a readable frame makes sense is ``protocol``'s job.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .errors import FramingError

MAX_FRAME = 256 * 1024      # the host's hello carries the scenario file (tens of KiB at most)
MAX_STR = 128 * 1024
MAX_BIN = 128 * 1024  # a scenario file sent zlib-compressed (handshake.py); every other field is far smaller
MAX_ARRAY = 1024
MAX_MAP = 64
MAX_DEPTH = 8


def pack(message: dict[str, Any]) -> bytes:
    """The one wire encoding: msgpack with bin type for bytes, strings as UTF-8."""
    return msgpack.packb(message, use_bin_type=True)


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests no deeper than ``limit`` containers (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, tuple, dict)):
            if d > limit:
                return False
            items = v.values() if isinstance(v, dict) else v
            stack.extend((x, d + 1) for x in items)
    return True


class FrameReader:
    """Feed bytes as they arrive; take whole frames out. Raises ``FramingError`` for good."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._unpacker = msgpack.Unpacker(
            raw=False, use_list=True, strict_map_key=True, max_buffer_size=max_frame,
            max_str_len=MAX_STR, max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP, max_ext_len=0)
        self.max_frame = max_frame
        self.broken: str | None = None

    def feed(self, data: bytes) -> list[Any]:
        if self.broken:
            raise FramingError(self.broken)
        frames: list[Any] = []
        try:
            self._unpacker.feed(data)
        except msgpack.BufferFull:
            self._fail(f"frame larger than {self.max_frame} bytes")
        while True:
            try:
                frame = self._unpacker.unpack()
            except msgpack.OutOfData:
                break
            except msgpack.BufferFull:  # pragma: no cover - feed() already refused it
                self._fail("frame too large")
            except (ValueError, TypeError, msgpack.UnpackException) as exc:
                self._fail(f"undecodable frame ({type(exc).__name__}: {exc})")
            if not depth_ok(frame):
                self._fail(f"frame nested deeper than {MAX_DEPTH} levels")
            frames.append(frame)
        return frames

    def _fail(self, reason: str) -> None:
        self.broken = reason
        raise FramingError(reason)
