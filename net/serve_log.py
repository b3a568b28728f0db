"""The operator's log of ``hexwar serve``: one ``key=value`` line per thing that happened.

Every line starts ``event=KIND`` (``login``, ``session-start``, ``session-end``, ``refused``,
``crash``) and then fields in a fixed order, so a line can be read by eye and split by a script
(``shlex.split`` reads it back: a value with a space, a quote or a control character is written
as a double-quoted JSON string, anything else bare). A crash's traceback follows its line. These
lines are INFO on the ``hexwar.serve`` logger, shown without ``-v``; chatter stays at DEBUG.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

log = logging.getLogger("hexwar.serve")

#: a value written as it is; anything else is quoted
_BARE = re.compile(r"[A-Za-z0-9_.:/@+=,-]+")


def value(v: Any) -> str:
    if isinstance(v, float):
        v = f"{v:.3f}"
    text = str(v)
    return text if _BARE.fullmatch(text) else json.dumps(text)


def line(kind: str, **fields: Any) -> str:
    """``event=KIND key=value ...``; fields that are None are left out."""
    parts = [f"event={kind}"] + [f"{k.replace('_', '-')}={value(v)}" for k, v in fields.items() if v is not None]
    return " ".join(parts)


def event(kind: str, level: int = logging.INFO, *, detail: str = "", **fields: Any) -> None:
    """Log one line of ``kind``; ``detail`` (a traceback) follows it on lines of its own."""
    text = line(kind, **fields)
    if detail.strip():
        text += "\n" + detail.rstrip()
    log.log(level, "%s", text)


def show_events(verbose: bool) -> None:
    """These lines are shown at INFO whatever ``-v`` says (unless a level was set already)."""
    if log.level == logging.NOTSET:
        log.setLevel(logging.DEBUG if verbose else logging.INFO)
