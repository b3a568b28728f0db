"""Errors every layer above the engine may raise for the user, with the exit code they mean.

Exit codes: 0 ok, 1 the game refused something (a journal that does not replay, a refused
login, a desync), 2 bad input (unknown scenario, broken file, bad arguments).
"""

from __future__ import annotations

EXIT_OK, EXIT_REFUSED, EXIT_BAD_INPUT = 0, 1, 2


class UserError(Exception):
    """One clear line for the user; the command line prints it and exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code
