"""One error tree for network play, shaped like asyncssh's: every error carries a code and a reason.

The reason is what a player reads; the class says what kind of trouble it is, so a UI can tell a
refused handshake (wrong version: upgrade) from a dead link (wait, it reconnects) from a desync.
"""

from __future__ import annotations


class HexwarNetError(Exception):
    """Base class. ``code`` is a short stable word (also used as the CLI's exit code family)."""

    code = "error"
    exit_code = 1

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FramingError(HexwarNetError):
    """The byte stream cannot be read any further (oversized or undecodable frame): drop the link."""

    code = "framing"


class ProtocolViolation(HexwarNetError):
    """A well-framed message that is refused: bad schema, out of order, replayed, illegal."""

    code = "refused"


class HandshakeRefused(HexwarNetError):
    """The two programs cannot play together (versions, rules, scenario, match, seat)."""

    code = "handshake"


class AuthRefused(HexwarNetError):
    """The SSH server did not accept our key or invite code."""

    code = "auth"


class HostKeyChanged(HexwarNetError):
    """The host presented a key different from the one remembered for it (possible impostor)."""

    code = "host-key"


class LinkClosed(HexwarNetError):
    """The connection to the peer ended; the match itself is not over."""

    code = "link"


class PeerGone(HexwarNetError):
    """An action needs the opponent, who is not connected right now."""

    code = "peer-gone"


class NotYourTurn(HexwarNetError):
    """The local player tried to act when the rules give the decision to the opponent."""

    code = "not-your-turn"


class Desync(HexwarNetError):
    """The two engines computed different states; play stops and a report is written."""

    code = "desync"
