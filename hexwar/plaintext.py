"""Text from outside this process, made safe to show: plain characters only.

A chat line, a player's name, a refusal's reason, a scenario's title or notes (from a peer or a
file), an event's words: any of them may hold what a terminal or a Textual widget would act on
instead of showing. Three kinds of danger, and what ``plain_text`` does about each:

- terminal control: C0 and C1 control characters (ESC starts OSC 52, which writes the
  clipboard, and every other escape sequence; BEL, backspace and CR rewrite what was shown)
  are dropped, except the newline; a tab becomes a space;
- direction control: the bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069),
  the marks (U+200E, U+200F, U+061C) and the line and paragraph separators, which make text
  read differently from what it holds, are dropped (the separators become newlines);
- markup: the result is a plain ``str`` that the caller must show as text, never as markup:
  ``Static(..., markup=False)``, ``Label(..., markup=False)``, ``rich.text.Text(...)``,
  ``notify(..., markup=False)``. Brackets stay as they are, so a chat ``[b]hi[/b]`` reads as
  typed.

The record layer holds it so that the terminal UI and the command line share one definition.
"""

from __future__ import annotations

import re

#: bidi embeddings/overrides/isolates and marks: they reorder what is shown, not what is held
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

_DROP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")
_NEWLINES = re.compile("\r\n|[\u2028\u2029]")


def plain_text(value: object) -> str:
    """``value`` as text a screen shows as it is: no control, escape or bidi characters.

    >>> plain_text("\\x1b]52;c;aGk=\\x07hi\\u202e!")
    ']52;c;aGk=hi!'
    >>> plain_text("[b]a\\tb[/b]\\r\\n")
    '[b]a b[/b]\\n'
    """
    text = value if isinstance(value, str) else str(value)
    text = _NEWLINES.sub("\n", text).replace("\t", " ")
    return _DROP.sub("", text)


def plain_line(value: object) -> str:
    """``plain_text`` on one line: newlines become spaces (a name, a title, a list entry)."""
    return plain_text(value).replace("\n", " ")


__all__ = ["BIDI_CONTROLS", "plain_line", "plain_text"]
