"""One connection to a peer as a stream of msgpack frames, with byte counters.

Until ``start_play`` frames are maps (the handshake); after it, message dicts are sent and
received in protocol 2's positional form, each direction with its own string table, so the
session above only ever sees message dicts.

Works over anything with asyncssh's stream shape (``read(n)``, ``write``, ``drain``, ``close``):
the SSH channel in play, in-memory pipes in unit tests.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from . import protocol
from .errors import LinkClosed, ProtocolViolation
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
        self.compact = False
        self._out_strings = protocol.Strings()
        self._in_strings = protocol.Strings()

    def start_play(self) -> None:
        """From now on, messages travel in the positional play form (both ends switch after
        the hellos, so nothing is in flight in the old form)."""
        self.compact = True

    def _wire(self, message: Any) -> bytes:
        if self.compact and isinstance(message, dict):
            return pack(protocol.encode(message, self._out_strings))
        return pack(message)

    async def send_frame(self, frame: Any) -> None:
        """Send ``frame`` as it is, unencoded (tests use it to play a peer that sends anything)."""
        await self._write(pack(frame))

    async def send(self, message: dict[str, Any]) -> None:
        await self._write(self._wire(message))

    async def _write(self, data: bytes) -> None:
        if self.closed:
            raise LinkClosed(f"link to {self.name} is closed")
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
        data = self._wire(message)
        try:
            self.writer.write(data)
        except _LINK_ERRORS:
            self.close()
            return False
        self.bytes_sent += len(data)
        self.frames_sent += 1
        return True

    async def recv(self) -> Any:
        """The next frame: during the handshake as it came (unchecked: see ``protocol.parse``),
        in play a message dict, or ``protocol.Undecodable`` saying why the frame is not one
        (``parse`` refuses it). Raises ``LinkClosed`` at the end
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
        frame = self._queue.pop(0)
        if not self.compact or (isinstance(frame, dict) and frame.get("type") == "bye"):
            return frame  # a refusal of the handshake is still a map
        try:
            return protocol.decode(frame, self._in_strings)
        except ProtocolViolation as exc:
            return protocol.Undecodable(exc.reason)

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
