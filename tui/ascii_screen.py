"""``--ascii``: every character that reaches the terminal is plain ASCII.

The map has its own ASCII glyph set; this filter catches the rest of the screen (Textual's
borders, scrollbars, the key row, toasts, names in the panel) at the last step, turning each
character into an ASCII one of the same width, so columns never shift.
"""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

_FIXED = {
    "\u23ce": "<", "\u2192": ">", "\u2190": "<", "\u2191": "^", "\u2193": "v", "\u2197": "/",
    "\u2196": "\\", "\u2198": "\\", "\u2199": "/", "\u00b7": ".", "\u2026": ".", "\u2014": "-",
    "\u2013": "-", "\u2022": "*", "\u25c6": "@", "\u2297": "X", "\u2261": "=", "\u25be": "-",
    "\u25b8": ">", "\u25b6": ">", "\u25c0": "<", "\u2605": "*", "\u2248": "~", "\u2592": "#",
    "\u2684": "d", "\u00d7": "x", "\u2713": "v", "\u2714": "v", "\u2717": "x", "\u00a0": " ",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ab": "<", "\u00bb": ">",
}
# Russian letters, one Latin letter each (widths must not change).
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                     "abvgdeezziiklmnoprstufhccss'y'eua"))
_CYRILLIC.update({k.upper(): v.upper() for k, v in _CYRILLIC.items()})


def ascii_char(ch: str) -> str:
    """An ASCII stand-in for one character, as many cells wide as the original."""
    if ch.isascii():
        return ch
    if ch in _FIXED:
        return _FIXED[ch]
    if ch in _CYRILLIC:
        return _CYRILLIC[ch]
    code = ord(ch)
    if 0x2500 <= code <= 0x257F:                      # box drawing
        name = unicodedata.name(ch, "")
        vertical, horizontal = "VERTICAL" in name or "UP" in name or "DOWN" in name, \
            "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name
        return "+" if vertical and horizontal else "|" if vertical else "-"
    if 0x2580 <= code <= 0x259F:                      # block elements
        if ch in "\u2594\u2581\u2582":
            return "-"
        if ch in "\u258f\u2595\u258e":
            return "|"
        return "#"
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    if len(base) == 1:
        return base
    return "?" * max(1, cell_len(ch))


class AsciiOnly(LineFilter):
    """Replace every non-ASCII character of every line with its ASCII stand-in."""

    def __init__(self) -> None:
        super().__init__()
        self._cache: dict[str, str] = {}

    def text(self, text: str) -> str:
        if text.isascii():
            return text
        hit = self._cache.get(text)
        if hit is None:
            hit = "".join(ascii_char(ch) for ch in text)
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[text] = hit
        return hit

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(self.text(text), style, control) if not control else Segment(text, style, control)
                for text, style, control in segments]


def set_ascii_screen(app, on: bool) -> None:  # noqa: ANN001 - a Textual App
    """Add or remove the filter on a running app (``--ascii`` or the palette toggle)."""
    app._filters[:] = [f for f in app._filters if not isinstance(f, AsciiOnly)]
    if on:
        app._filters.append(AsciiOnly())
    app.refresh(repaint=True, layout=False)
