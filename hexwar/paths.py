"""Where hexwar keeps its files: saved games, match journals, keys."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir(create: bool = True) -> Path:
    """``$HEXWAR_HOME``, else ``$XDG_DATA_HOME/hexwar``, else ``~/.local/share/hexwar``.
    Created private (0700) when missing: it holds keys, invite codes and unrevealed nonces."""
    if os.environ.get("HEXWAR_HOME"):
        path = Path(os.environ["HEXWAR_HOME"])
    elif os.environ.get("XDG_DATA_HOME"):
        path = Path(os.environ["XDG_DATA_HOME"]) / "hexwar"
    else:
        path = Path.home() / ".local" / "share" / "hexwar"
    if create:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
