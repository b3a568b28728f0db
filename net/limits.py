"""The host's limits under abuse, in one place so ``hexwar serve`` and later protocols reuse them.

Every number a hostile peer could otherwise push without bound has a cap here: logins, guesses,
idle connections, spectators, unsent bytes, chat, refusals, and the per-peer tables that record
them. ``Limits`` holds the defaults; the command line overrides a few (``--max-connections``,
``--max-spectators``). ``LoginThrottle`` and ``RateLimit`` are the two pieces of state they need.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass


KEEPALIVE_INTERVAL = 5.0  # seconds of silence before SSH sends a keepalive
KEEPALIVE_COUNT_MAX = 2   # unanswered keepalives tolerated; the next check drops the link
DEAD_LINK_SECONDS = KEEPALIVE_INTERVAL * (KEEPALIVE_COUNT_MAX + 1)  # 15 s: asyncssh checks once
# an interval and gives up at the check after the last tolerated keepalive


@dataclass
class Limits:
    max_connections: int = 16          # SSH connections open at once (logged in or not)
    per_address: int = 8               # of them from one source address
    max_spectators: int = 8            # spectator channels at once
    login_timeout: float = 20.0        # seconds to finish SSH authentication
    channel_timeout: float = 10.0      # seconds a logged-in connection may go without a channel
    channels_per_connection: int = 1   # hexwar channels open at once on one connection
    guesses_per_connection: int = 3    # wrong codes before the connection is closed
    guesses_before_delay: int = 3      # wrong codes from one address before answers slow down
    guess_delay_max: float = 8.0       # seconds: the longest wait before answering a code
    guesses_before_lockout: int = 20   # wrong codes from one address before it may try no more
    logged_guesses: int = 5            # wrong codes logged per address (then one line: locked out)
    tracked_addresses: int = 1024      # addresses remembered by the throttle (oldest forgotten)
    refusals_per_link: int = 50        # refused messages before the link is closed (with a bye)
    logged_refusals: int = 10          # refusals logged per link; the rest are only counted
    kept_refusals: int = 100           # refusal reasons kept for the summary and the UI
    spectator_backlog: int = 256 * 1024  # unsent bytes to one spectator before it is dropped
    chat_burst: int = 5                # chat messages accepted at once ...
    chat_per_second: float = 1.0       # ... then this many a second
    clock_allowance: float = 2.0       # seconds of link delay granted to a time-forfeit claim
    plan_bytes: int = 4096             # a sealed plan's rows, packed (secret_plans.py)
    plan_messages_per_round: int = 6   # seal/unseal messages from the peer per round and link


class LoginThrottle:
    """Wrong codes counted per source address, in a table of bounded size: a growing delay
    before each answer, then a lockout. Only the first few failures per address are logged."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._failures: OrderedDict[str, int] = OrderedDict()

    def failures(self, address: str) -> int:
        return self._failures.get(address, 0)

    def locked(self, address: str) -> bool:
        return self.failures(address) >= self.limits.guesses_before_lockout

    def delay(self, address: str) -> float:
        """Seconds to wait before judging the next code from ``address``."""
        extra = self.failures(address) - self.limits.guesses_before_delay
        return 0.0 if extra < 0 else min(0.25 * 2 ** extra, self.limits.guess_delay_max)

    def failed(self, address: str) -> int:
        """Count one wrong code; returns how many ``address`` has sent."""
        n = self._failures.pop(address, 0) + 1
        self._failures[address] = n
        while len(self._failures) > self.limits.tracked_addresses:
            self._failures.popitem(last=False)
        return n


class RateLimit:
    """A token bucket: ``burst`` at once, then ``per_second``; the clock is passed in."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.burst, self.per_second = burst, per_second
        self.tokens = float(burst)
        self.at: float | None = None

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Buckets:
    """A token bucket per key (a source address), in a table of bounded size (the least recently
    used forgotten), and one bucket for all keys together: what a rate "per address and in
    total" needs. Used for new accounts and for log lines about a peer."""

    def __init__(self, burst: int, per_second: float, total_burst: int | None = None,
                 total_per_second: float | None = None, tracked: int = 1024) -> None:
        self.burst, self.per_second, self.tracked = burst, per_second, tracked
        self._each: OrderedDict[str, RateLimit] = OrderedDict()
        self.total = RateLimit(total_burst, total_per_second or 0.0) if total_burst is not None else None

    def refused(self, key: str, now: float) -> str | None:
        """None if one more is allowed for ``key`` at ``now`` (monotonic seconds, and then it is
        counted), else which rate it would break: "address" or "total"."""
        bucket = self._each.pop(key, None) or RateLimit(self.burst, self.per_second)
        self._each[key] = bucket
        while len(self._each) > self.tracked:
            self._each.popitem(last=False)
        if not _peek(bucket, now):
            return "address"
        if self.total is not None and not self.total.take(now):
            return "total"
        bucket.take(now)
        return None


def _peek(bucket: RateLimit, now: float) -> bool:
    """Whether ``bucket`` has a token at ``now``, taking none."""
    tokens = bucket.tokens if bucket.at is None else min(
        bucket.burst, bucket.tokens + (now - bucket.at) * bucket.per_second)
    return tokens >= 1


class Gate:
    """The connections open at once, capped in total and per source address. When a cap is
    reached, the oldest connection of that address (or, for the total, of anyone) that has not
    yet authenticated is closed to make room: idle TCP connections and slow handshakes cannot
    keep a real player out, because a newer arrival always displaces them. Only when every
    connection in the way has authenticated is the new one refused."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self._open: OrderedDict[object, tuple[str, bool]] = OrderedDict()  # oldest first

    def __len__(self) -> int:
        return len(self._open)

    def count(self, address: str) -> int:
        return sum(1 for a, _ in self._open.values() if a == address)

    def arrive(self, conn: object, address: str) -> tuple[str | None, list[object]]:
        """Admit ``conn`` from ``address``: (why it is refused or None, the connections to
        close to make room for it)."""
        evict: list[object] = []
        if self.count(address) >= self.per_address:
            old = self._oldest_unauthenticated(address)
            if old is None:
                return f"too many connections from {address} (at most {self.per_address})", []
            evict.append(old)
            self._open.pop(old)
        if len(self._open) >= self.total:
            old = self._oldest_unauthenticated(None)
            if old is None:
                for c in evict:  # nothing was closed after all
                    self._open[c] = (address, False)
                return "the server is full right now; try again later", []
            evict.append(old)
            self._open.pop(old)
        self._open[conn] = (address, False)
        return None, evict

    def authenticated(self, conn: object) -> None:
        if conn in self._open:
            self._open[conn] = (self._open[conn][0], True)

    def leave(self, conn: object) -> None:
        self._open.pop(conn, None)

    def _oldest_unauthenticated(self, address: str | None) -> object | None:
        return next((c for c, (a, authed) in self._open.items()
                     if not authed and (address is None or a == address)), None)


class LogBudget(logging.Filter):
    """Warnings about peers, bounded over time rather than per connection: each kind of line
    (its format string, and the peer's address when the caller names one with ``extra={"peer":
    ...}``) gets ``burst`` lines, then one a minute; what was left out is counted on the next line
    shown. A peer that reconnects to repeat itself cannot fill the disk."""

    def __init__(self, burst: int = 20, per_second: float = 1 / 60, tracked: int = 1024) -> None:
        super().__init__()
        self.buckets = Buckets(burst, per_second, tracked=tracked)
        self.dropped: OrderedDict[str, int] = OrderedDict()
        self.tracked = tracked

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = f"{getattr(record, 'peer', '')}|{record.msg}"
        if self.buckets.refused(key, time.monotonic()) is not None:
            self.dropped[key] = self.dropped.pop(key, 0) + 1
            while len(self.dropped) > self.tracked:
                self.dropped.popitem(last=False)
            return False
        left_out = self.dropped.pop(key, 0)
        if left_out:
            record.msg = f"{record.msg} ({left_out} more like this not shown)"
        return True


def bound_net_log() -> LogBudget:
    """Put a ``LogBudget`` on the ``hexwar.net`` logger (once) and return it."""
    logger = logging.getLogger("hexwar.net")
    for f in logger.filters:
        if isinstance(f, LogBudget):
            return f
    budget = LogBudget()
    logger.addFilter(budget)
    return budget
