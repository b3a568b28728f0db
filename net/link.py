"""One connection to a peer as a stream of msgpack frames, with byte counters.

Works over anything with asyncssh's stream shape (``read(n)``, ``write``, ``drain``, ``close``):
the SSH channel in play, in-memory pipes in unit tests.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from .errors import FramingError, LinkClosed
from .framing import FrameReader, pack

READ_CHUNK = 16384
_LINK_ERRORS = (OSError, EOFError, asyncssh.Error, asyncio.IncompleteReadError, RuntimeError)


class Link:
    def __init__(self, reader: Any, writer: Any, name: str = "peer", on_close: Any = None) -> None:
        self.reader, self.writer, self.name = reader, writer, name
        self._frames = FrameReader()
        self._queue: list[Any] = []
        self._on_close = on_close
        self.closed = False
        self.bytes_sent = self.bytes_received = 0
        self.frames_sent = self.frames_received = 0

    async def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            raise LinkClosed(f"link to {self.name} is closed")
        data = pack(message)
        try:
            self.writer.write(data)
            self.bytes_sent += len(data)
            self.frames_sent += 1
            await self.writer.drain()
        except _LINK_ERRORS as exc:
            self.close()
            raise LinkClosed(f"link to {self.name} lost while sending ({exc or type(exc).__name__})") from None

    def backlog(self) -> int:
        """Bytes written but not yet taken by the peer (0 when the writer cannot tell)."""
        channel = getattr(self.writer, "channel", None)
        try:
            return int(channel.get_write_buffer_size()) if channel is not None else 0
        except _LINK_ERRORS:
            return 0

    def post(self, message: dict[str, Any], max_backlog: int | None = None) -> bool:
        """Queue ``message`` without waiting for the peer to take it; False if the link is gone
        or, with ``max_backlog``, if the peer has left more than that many bytes unread (the
        link is then closed: a reader that never reads must not grow our memory)."""
        if self.closed:
            return False
        if max_backlog is not None and self.backlog() > max_backlog:
            self.close()
            return False
        data = pack(message)
        try:
            self.writer.write(data)
        except _LINK_ERRORS:
            self.close()
            return False
        self.bytes_sent += len(data)
        self.frames_sent += 1
        return True

    async def recv(self) -> Any:
        """The next frame (unchecked: see ``protocol.parse``). Raises ``LinkClosed`` at the end
        and ``FramingError`` when the byte stream broke a limit (nothing more can be read; the
        caller says ``bye`` with the reason, then closes)."""
        while not self._queue:
            if self.closed:
                raise LinkClosed(f"link to {self.name} is closed")
            try:
                data = await self.reader.read(READ_CHUNK)
            except _LINK_ERRORS as exc:
                self.close()
                raise LinkClosed(f"link to {self.name} lost ({exc or type(exc).__name__})") from None
            if not data:
                self.close()
                raise LinkClosed(f"{self.name} closed the connection")
            self.bytes_received += len(data)
            self._queue.extend(self._frames.feed(data))
        self.frames_received += 1
        return self._queue.pop(0)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.writer.close()
        except _LINK_ERRORS:
            pass
        if self._on_close is not None:
            self._on_close()
