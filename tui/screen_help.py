"""The help screen: every key of the game screen (from the same table the bindings use)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from . import keys

LEGEND = """Map symbols (glyph, ASCII):
  R / B ...    first letter of the side on every counter, then type and strength
  ▾ (-)        reduced strength      +N  more units stacked in the hex   • (*) unit has status marks
  →3 (>3)      can move here, cost 3  ⊗ (X) fire/attack target  z  enemy zone of control
  · (.)        line from the selected unit to the cursor      ◆ (@) the selected unit's hex
  ≈ ~ # on a hex edge: river, stream, retrenchment/wall      ═ (=) road in the hex
  ♣ F forest  ∩ ^ hill  ⌂ T town  ≈ ~ water  ‴ " marsh  ∴ % rough (others: first letter)
The cursor hex has its edges in reverse video."""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,f1,enter", "close", "Close")]

    def __init__(self, network: bool = False) -> None:
        super().__init__()
        self.network = network  # also list the network game's keys (chat, resign, draw)

    def compose(self) -> ComposeResult:
        rows = [f"{keys.display(s.keys):<28} {s.description}" for s in keys.table().values()]
        if self.network:
            rows += [f"{keys.display(s.keys):<28} {s.description}" for s in keys.NET_KEYS.values()]
        rows += [f"{k:<28} {d}" for k, d in keys.APP_KEYS]
        text = ("Keys (rebind in " + str(keys.config_path()) + ")\n\n" + "\n".join(rows)
                + "\n\n" + LEGEND + "\n\nPress esc to close.")
        with VerticalScroll(classes="dialog wide"):
            yield Static(text, markup=False, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
