"""The list of built-in scenarios without building them: ``hexwar scenarios`` prints one line per
file, so it reads only each file's ``[scenario]`` table and its ``[[sides]]``, never the map or the
units, and imports nothing of the engine. ``loader.py`` remains the one that checks everything.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

#: a table header at the start of a line, e.g. ``[map]`` or ``[[units]]``
_HEADER = re.compile(r"^\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(#.*)?$")
_WANTED = ("scenario", "sides")


def builtin_paths() -> list[Path]:
    return sorted(Path(__file__).resolve().parent.glob("*.toml"))


def _head_text(text: str) -> str:
    """Only the ``[scenario]`` and ``[[sides]]`` tables of a scenario file."""
    keep, out = False, []
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            keep = m.group(1) in _WANTED
        if keep:
            out.append(line)
    return "\n".join(out)


def summary(path: Path) -> dict[str, Any]:
    """id, title, ruleset, turns and sides of one scenario file. Raises ValueError naming the
    file when those fields cannot be read (the full loader then says everything that is wrong)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read: {exc}") from None
    try:
        data = tomllib.loads(_head_text(text))
    except tomllib.TOMLDecodeError:
        try:  # an unusual layout the line filter cut badly: read the whole file instead
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path}: TOML syntax: {exc}") from None
    head = data.get("scenario")
    sides = data.get("sides")
    if not isinstance(head, dict) or not isinstance(sides, list):
        raise ValueError(f"{path}: no [scenario] table or [[sides]]")
    row = {"id": head.get("id"), "title": head.get("title", ""), "ruleset": head.get("ruleset"),
           "turns": head.get("turns"),
           "sides": [{"id": s.get("id"), "name": s.get("name") or s.get("id")}
                     for s in sides if isinstance(s, dict)]}
    if not all(isinstance(row[k], str) for k in ("id", "title", "ruleset")) \
            or not isinstance(row["turns"], int) or isinstance(row["turns"], bool) \
            or not all(isinstance(s["id"], str) and isinstance(s["name"], str) for s in row["sides"]):
        raise ValueError(f"{path}: scenario id, title, ruleset, turns or a side is missing or mistyped")
    return row


def summaries() -> tuple[list[dict[str, Any]], list[str]]:
    """One summary per built-in scenario file, and a problem line for each that cannot be read."""
    rows, problems = [], []
    for path in builtin_paths():
        try:
            rows.append(summary(path))
        except ValueError as exc:
            problems.append(str(exc))
    return rows, problems
