"""A TCP relay for tests and benchmarks: counts bytes, delays, splits writes, cuts connections.

It sits between a guest and a host on 127.0.0.1 to play the part of a slow or broken network.
Where it splits and how long it waits come from a seeded hash stream, so a test run can be
repeated; nothing here touches game state.
"""

from __future__ import annotations

import asyncio
import hashlib


class _Shaper:
    """Reproducible pseudo-random choices for traffic shaping (BLAKE2b counter stream)."""

    def __init__(self, seed: int) -> None:
        self.seed, self.counter = str(seed).encode(), 0

    def below(self, n: int) -> int:
        self.counter += 1
        block = hashlib.blake2b(self.counter.to_bytes(8, "big"), key=self.seed, digest_size=8).digest()
        return int.from_bytes(block, "big") % n

    def fraction(self) -> float:
        return self.below(1 << 20) / (1 << 20)


class Proxy:
    """A TCP relay on 127.0.0.1 that can delay, split into random pieces, and cut connections.

    ``drops`` lists, per connection in turn, after how many bytes (either direction) to cut it;
    connections past the list are never cut. Counts every byte it relays (TCP payload level).
    """

    def __init__(self, target_port: int, *, delay: float = 0.0, split: bool = False,
                 drops: list[int] | None = None, seed: int = 0) -> None:
        self.target_port = target_port
        self.delay, self.split = delay, split
        self.drops = list(drops or [])
        self.rng = _Shaper(seed)
        self.bytes_up = self.bytes_down = 0
        self.connections = 0
        self.cuts = 0
        self.server: asyncio.AbstractServer | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._live: set[int] = set()
        self._frozen: set[int] = set()

    async def start(self) -> "Proxy":
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        for w in self._writers:
            w.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def cut_all(self) -> None:
        for w in self._writers:
            w.transport.abort()

    def freeze_all(self) -> None:
        """Black-hole the current connections: they stay open but carry nothing (a dead link
        that TCP does not report; only keepalives find it)."""
        self._frozen.update(self._live)

    async def _handle(self, cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
        n = self.connections
        self.connections += 1
        limit = self.drops[n] if n < len(self.drops) else None
        try:
            ur, uw = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            cw.close()
            return
        self._writers += [cw, uw]
        self._live.add(n)
        state = {"bytes": 0}
        done = asyncio.Event()

        async def pump(r: asyncio.StreamReader, w: asyncio.StreamWriter, up: bool) -> None:
            try:
                while not done.is_set():
                    data = await r.read(4096)
                    if not data:
                        break
                    if limit is not None and state["bytes"] + len(data) >= limit:
                        keep = max(0, limit - state["bytes"])
                        w.write(data[:keep])
                        if not state.get("cut"):  # both directions may reach the limit at once
                            state["cut"] = 1
                            self.cuts += 1
                        break
                    state["bytes"] += len(data)
                    if up:
                        self.bytes_up += len(data)
                    else:
                        self.bytes_down += len(data)
                    pieces = [data]
                    if self.split and len(data) > 1:
                        cuts = sorted({1 + self.rng.below(len(data) - 1) for _ in range(3)})
                        pieces = [data[i:j] for i, j in zip([0] + cuts, cuts + [len(data)])]
                    if n in self._frozen:
                        continue
                    for piece in pieces:
                        if self.delay:
                            await asyncio.sleep(self.delay * self.rng.fraction())
                        w.write(piece)
                        await w.drain()
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                self._live.discard(n)
                done.set()
                for x in (cw, uw):
                    x.transport.abort()

        await asyncio.gather(pump(cr, uw, True), pump(ur, cw, False))
