"""Small modal screens: choose one of several orders (with a combat preview), type a hex
number, read a message. Each returns its answer through ``dismiss``."""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from hexwar.engine import Game, Order
from hexwar.mapglyphs import unit_drawing
from hexwar.plaintext import plain_text

from . import keys
from .describe import ascii_only, odds_lines, order_text, preview_lines
from .picking import PICK_HINT, NumberPick, is_attack


def words(screen: ModalScreen, text: str) -> str:
    """``text`` as the app shows it: plain text (it may hold a peer's or a file's words),
    plain ASCII under ``--ascii``."""
    text = plain_text(text)
    return ascii_only(text) if getattr(screen.app, "ascii", False) else text


def facing_of(order: Order) -> int | None:
    f = order.get("facing")
    return f if isinstance(f, int) and not isinstance(f, bool) and 0 <= f < 6 else None


#: app.tcss: a dialog's max-height (percent of the screen) and the choice list's max-height
DIALOG_MAX_PERCENT = 90
CHOICE_ROWS = 14


class ChooseOrder(NumberPick, ModalScreen[Order | None]):
    """Pick one legal order: arrows or the line's number move the highlight, enter chooses
    (``picking.NumberPick``, the one rule of every list); or, when the choices differ by facing,
    the direction key of that facing (one key press). Attacks show the engine's odds for the
    highlighted choice. The list shrinks to leave the hint and the preview on a short terminal.

    With ``show``, the screen below marks where the highlighted choice happens, and ``m`` hides
    the dialog to look at the map (a retreat hex means little without the ground around it)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("m", "peek", "Map")]

    def __init__(self, game: Game, orders: list[Order], title: str, *, can_cancel: bool = True,
                 context: str = "", show: Callable[[Order], None] | None = None) -> None:
        super().__init__()
        self.game = game
        self.orders = orders
        self.title_text = title
        self.can_cancel = can_cancel
        self.context = context  # what just happened, for a decision the rules ask for
        self.show = show  # marks the highlighted choice on the map below
        self.peeking = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(words(self, self.title_text), classes="dialog-title", markup=False)
            if self.context:
                yield Static(words(self, self.context), markup=False, classes="dialog-context")
            by_index = {i: key for key, i in sorted(self._facing_keys().items(), reverse=True)}
            yield OptionList(*[Option(Text(words(self, f"{i + 1}. {order_text(self.game, o)}"
                                                 + (f"  [{by_index[i]}]" if i in by_index else ""))), id=str(i))
                               for i, o in enumerate(self.orders)], id="choices")
            yield Static("", id="odds", markup=False)
            hint = PICK_HINT
            if self._facing_keys():
                hint += " · the key in [ ]: that facing"
            if self.show is not None:
                hint += " · m: map"
            hint += " · esc: cancel" if self.can_cancel else " (the rules require an answer)"
            yield Label(words(self, hint), classes="dialog-hint", markup=False)
        yield Label("", id="peek-line", markup=False)

    def _facing_keys(self) -> dict[str, int]:
        """Key -> index of the order whose facing points that way, when each facing appears at
        most once among the choices (otherwise a key would be ambiguous)."""
        facings = [facing_of(o) for o in self.orders]
        present = [f for f in facings if f is not None]
        if not present or len(set(present)) != len(present):
            return {}
        table = keys.facing_directions(self.game.map.orientation, unit_drawing(self.game.scenario).vertex)
        out = {}
        for key, direction in keys.direction_keys().items():
            if len(key) != 1:
                continue  # arrow keys keep moving the highlight
            d = table.get(direction)
            if d is not None and d in facings:
                out[key] = facings.index(d)
        return out

    def on_key(self, event: Key) -> None:
        """A digit picks that numbered choice; a direction key picks that facing. While the
        map is shown, up and down still step through the choices (and their marks)."""
        if self.peeking and event.key == "enter":
            event.stop()
            event.prevent_default()
            self.dismiss(self.orders[self.query_one(OptionList).highlighted or 0])
            return
        if self.peeking and event.key in ("up", "down"):
            event.stop()
            event.prevent_default()
            choices = self.query_one(OptionList)
            choices.action_cursor_up() if event.key == "up" else choices.action_cursor_down()
            return
        if self.pick_number(event, self.query_one(OptionList), len(self.orders)):
            return
        index = None
        if event.key in self._facing_keys():
            index = self._facing_keys()[event.key]
        if index is not None:
            event.stop()
            event.prevent_default()
            self.dismiss(self.orders[index])

    def on_mount(self) -> None:
        self.query_one("#peek-line").display = False
        self.query_one(OptionList).highlighted = 0
        self._preview(0)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Let the choices scroll in what the title, context, preview and hint leave of the
        screen, so that the hint (how to choose) is never pushed off a short terminal."""
        dialog = self.query_one(".dialog")
        choices = self.query_one(OptionList)
        others = sum(w.outer_size.height + w.styles.margin.top + w.styles.margin.bottom
                     for w in dialog.children if w is not choices and w.display)
        room = self.size.height * DIALOG_MAX_PERCENT // 100 - 2 - others   # less the border
        height = max(3, min(CHOICE_ROWS, room))
        if choices.styles.max_height is None or choices.styles.max_height.value != height:
            choices.styles.max_height = height

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._preview(event.option_index)

    def action_peek(self) -> None:
        """Hide the dialog to see the map with the highlighted choice marked; ``m`` again (or
        esc) brings it back. Nothing is chosen while looking."""
        if self.show is None:
            return
        self.peeking = not self.peeking
        self.set_class(self.peeking, "-peek")
        self.query_one(".dialog").display = not self.peeking
        self.query_one("#peek-line").display = self.peeking
        if not self.peeking:
            self.query_one(OptionList).focus()  # hidden, it lost the focus: enter works again
            self.call_after_refresh(self._fit)
        self._peek_line()

    def _peek_line(self) -> None:
        index = self.query_one(OptionList).highlighted or 0
        line = (f"{index + 1}. {order_text(self.game, self.orders[index])} (marked on the map)"
                " · up/down: other choices · enter: choose · m: back")
        self.query_one("#peek-line", Label).update(words(self, line))

    def _preview(self, index: int) -> None:
        order = self.orders[index]
        if self.show is not None:
            self.show(order)
        if self.peeking:
            self._peek_line()
        box = self.query_one("#odds", Static)
        lines = preview_lines(self.game, order) if is_attack(order) else []
        if lines and lines != odds_lines(self.game, {}):
            box.update(words(self, "Combat preview\n" + "\n".join(lines)))
            box.display = True
        else:
            box.display = False  # no odds to show (a stand to lose, say): no empty heading
        self.call_after_refresh(self._fit)  # the preview's height changed what the list may take

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.orders[event.option_index])

    def action_cancel(self) -> None:
        if self.peeking:
            self.action_peek()
        elif self.can_cancel:
            self.dismiss(None)
        else:
            self.notify("This decision must be made before play goes on.", severity="warning")


class JumpTo(ModalScreen[str | None]):
    """Ask for a hex number (CCRR)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, start: str = "", prompt: str = "Jump to hex (CCRR, e.g. 0304):") -> None:
        super().__init__()
        self.start = start
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Label(words(self, self.prompt), classes="dialog-title", markup=False)
            yield Input(self.start, id="hex", restrict=r"[0-9]*")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AskText(ModalScreen[str | None]):
    """Ask for one line of text (a file name, a turn number)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, prompt: str, value: str = "") -> None:
        super().__init__()
        self.prompt = prompt
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Label(words(self, self.prompt), classes="dialog-title", markup=False)
            yield Input(self.value, id="text")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Message(ModalScreen[None]):
    """A message the player must acknowledge (errors, network-play notice)."""

    BINDINGS = [Binding("escape,enter,space", "close", "Close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(words(self, self.title_text), classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static(words(self, self.text), markup=False)
            yield Label("enter / esc to close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes/no question (resign, offer or accept a draw, leave a network game)."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(words(self, self.title_text), classes="dialog-title", markup=False)
            yield Static(words(self, self.text), markup=False)
            yield Label(words(self, "y: yes · n / esc: no"), classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ChooseUnit(NumberPick, ModalScreen[str | None]):
    """Pick one of the units stacked in a hex (a general on a regiment's stand, say): arrows or
    its line's number, then enter; esc picks none."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices      # (unit id, what the player reads)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Label(words(self, self.title_text), classes="dialog-title", markup=False)
            yield OptionList(*[Option(Text(words(self, f"{i + 1}. {text}")), id=str(i))
                               for i, (_, text) in enumerate(self.choices)], id="choices")
            yield Label(words(self, f"{PICK_HINT} · esc: cancel"), classes="dialog-hint",
                        markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_key(self, event: Key) -> None:
        self.pick_number(event, self.query_one(OptionList), len(self.choices))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index][0])

    def action_cancel(self) -> None:
        self.dismiss(None)
