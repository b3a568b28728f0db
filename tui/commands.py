"""Command-line subcommands contributed by this package (wired in by hexwar.cli)."""

from __future__ import annotations

import argparse


def register(parser: argparse.ArgumentParser, sub: "argparse._SubParsersAction") -> None:
    """Add this package's subcommands to ``sub``; each sets ``func(args) -> exit code``."""
