"""The help screen: every key of the game screen (from the same table the bindings use)."""

from __future__ import annotations

import textwrap

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from . import keys

LEGEND = """Map symbols (glyph, ASCII); v opens the overview with this scenario's own map key:
  I4→ (I4d)    a counter: type letter (the ruleset names them), strength, facing where units face
  ▾ (-)        reduced    ≡ (s) more units in the hex (a leader is drawn under its regiment)
  S / R ...    the side's letter, on the hex's bottom edge of flat-top maps; colour says it too
  →3 (>3)      can move here, cost 3   ⊗ (X) fire/attack target   z enemy zone of control
  · (.)        line from the selected unit to the cursor      • (*) the unit has acted
  » (m)        the other side moved a unit here in its last turn (until you give an order)
  △ ○ ▽ (+ o v) the selected unit's front, flank and rear zones (rulesets with zones)
  l c s t u g d ~  under a counter: its formation or state, where the ruleset has them (map key: v)
  terrain and hexside glyphs: the same as `hexwar describe --map` prints (see the overview)
The cursor hex has its edges in reverse video; its number and column stand out on the rulers."""


def key_rows(pairs: list[tuple[str, str]], width: int) -> list[str]:
    """Keys in a column as wide as the longest, each description wrapped under its own start."""
    column = min(18, max(len(k) for k, _ in pairs) + 2)
    rows = []
    for key, description in pairs:
        lines = textwrap.wrap(description, max(20, width - column)) or [""]
        head = key.ljust(column) if len(key) < column else key + "\n" + " " * column
        rows.append(head + lines[0])
        rows += [" " * column + line for line in lines[1:]]
    return rows


def legend_text(width: int) -> str:
    """The legend wrapped to ``width``, each symbol's explanation continuing under itself."""
    out = []
    for line in LEGEND.splitlines():
        indent = 15 if line.startswith("  ") else 0
        out += textwrap.wrap(line, width, subsequent_indent=" " * indent) or [""]
    return "\n".join(part.rstrip() for part in out)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,f1,enter", "close", "Close")]

    def __init__(self, network: bool = False) -> None:
        super().__init__()
        self.network = network  # also list the network game's keys (chat, resign, draw)

    def compose(self) -> ComposeResult:
        pairs = [(keys.display(s.keys), s.description) for s in keys.table().values()]
        if self.network:
            pairs += [(keys.display(s.keys), s.description) for s in keys.NET_KEYS.values()]
        pairs += list(keys.APP_KEYS)
        width = max(40, min(110, self.app.size.width) - 8)  # inside the dialog's border and padding
        text = ("Keys (rebind in " + keys.shown_config_path() + ")\n\n" + "\n".join(key_rows(pairs, width))
                + "\n\n" + legend_text(width) + "\n\nPress esc to close.")
        with VerticalScroll(classes="dialog wide"):
            yield Static(text, markup=False, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
