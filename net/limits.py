"""The host's limits under abuse, in one place so ``hexwar serve`` and later protocols reuse them.

Every number a hostile peer could otherwise push without bound has a cap here: logins, guesses,
idle connections, spectators, unsent bytes, chat, refusals, and the per-peer tables that record
them. ``Limits`` holds the defaults; the command line overrides a few (``--max-connections``,
``--max-spectators``). ``LoginThrottle`` and ``RateLimit`` are the two pieces of state they need.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


KEEPALIVE_INTERVAL = 5.0  # seconds of silence before SSH sends a keepalive
KEEPALIVE_COUNT_MAX = 2   # unanswered keepalives tolerated; the next check drops the link
DEAD_LINK_SECONDS = KEEPALIVE_INTERVAL * (KEEPALIVE_COUNT_MAX + 1)  # 15 s: asyncssh checks once
# an interval and gives up at the check after the last tolerated keepalive


@dataclass
class Limits:
    max_connections: int = 16          # SSH connections open at once (logged in or not)
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
