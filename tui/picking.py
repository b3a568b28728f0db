"""Turn a player's gesture (this unit, that hex) into one of the engine's legal orders.

The UI never builds orders from rules knowledge: it asks ``game.legal_orders()`` and keeps the
ones whose arguments match the gesture (the unit, the end of the path, the target hex or the
unit standing in it). That keeps the UI working for any ruleset's order kinds.
"""

from __future__ import annotations

from typing import Any

from hexwar.engine import Game, Order
from hexwar.engine.forced import forced_order
from hexwar.engine.hexgrid import Hex

UNIT_KEYS = ("unit", "units")
PATH_KEYS = ("path", "route")
TARGET_KEYS = ("target", "hex", "to", "at", "dest")


class Legal:
    """The legal orders of one game position, listed once and indexed by unit."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.orders: list[Order] = list(game.legal_orders())
        self.by_unit: dict[str, list[Order]] = {}
        self.general: list[Order] = []
        #: (unit, hex) -> why that unit has no order there, asked once per position
        self.why_not: dict[tuple[str, Hex], str] = {}
        #: unit -> its zones (front, flank, rear) to draw, asked once per position
        self.zones: dict[str, dict[str, tuple[Hex, ...]]] = {}
        for o in self.orders:
            ids = units_of(o)
            if not ids:
                self.general.append(o)
            for uid in ids:
                self.by_unit.setdefault(uid, []).append(o)

    def actors(self) -> list[str]:
        """Units that can still do something, ordered by map position then id."""
        m = self.game.map
        units = self.game.state.units

        def key(uid: str) -> tuple:
            u = units.get(uid)
            return (m.label(u.hex) if u is not None and u.hex is not None else "~", uid)

        return sorted((uid for uid in self.by_unit if uid in units), key=key)

    def for_unit(self, uid: str) -> list[Order]:
        return self.by_unit.get(uid, [])

    def moves_to(self, uid: str, h: Hex) -> list[Order]:
        return [o for o in self.for_unit(uid) if path_end(o) == h]

    def at_target(self, uid: str, h: Hex) -> list[Order]:
        return [o for o in self.for_unit(uid) if path_end(o) is None and h in target_hexes(self.game, o)]

    def phase_enders(self) -> list[Order]:
        """Orders that involve no unit: end the phase, pass, resign..."""
        return [o for o in self.general if o.kind != "resign"]


def units_of(order: Order) -> list[str]:
    out: list[str] = []
    for key in UNIT_KEYS:
        v = order.get(key)
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, str))
    return out


def _as_hex(v: Any) -> Hex | None:
    if isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return Hex(*v)
    return None


def path_end(order: Order) -> Hex | None:
    for key in PATH_KEYS:
        v = order.get(key)
        if isinstance(v, tuple) and v:
            return _as_hex(v[-1])
    return None


def target_hexes(game: Game, order: Order) -> list[Hex]:
    """Hexes an order aims at: a hex argument, or where a target unit stands."""
    out: list[Hex] = []
    for key in TARGET_KEYS:
        v = order.get(key)
        h = _as_hex(v)
        if h is not None:
            out.append(h)
        elif isinstance(v, str) and v in game.state.units and game.state.units[v].hex is not None:
            out.append(Hex(*game.state.units[v].hex))
    return out


def is_attack(order: Order) -> bool:
    return bool(set(TARGET_KEYS) & {k for k, _ in order.args}) and path_end(order) is None


def nothing_to_decide(legal: Legal) -> Order | None:
    """The one order of a position that leaves the player no choice (a phase with nothing to do
    but end it), else None. The engine decides (``forced_order``), so a network peer and its
    opponent agree on it without a word."""
    return forced_order(legal.game, legal.orders)


#: how every list says it is picked from (``NumberPick``)
PICK_HINT = "up/down or its number, then enter: choose"


class NumberPick:
    """The one list-pick rule of every list (decisions, the ``o`` order list, stacks, the
    new-game dialogs): a digit moves the highlight to the line of that number (digits typed in a
    row make one number: ``1`` ``2`` is line 12), and enter chooses the highlighted line. A digit
    never chooses by itself, whatever the list's length, so the highlighted choice (and its odds)
    is seen before it is taken, and ``4`` then enter on a short list is one choice, not a choice
    and an enter sent on to the map."""

    typed: str = ""  # the number typed so far

    def pick_number(self, event: Any, option_list: Any, count: int) -> bool:
        """Handle ``event`` if it is a digit: highlight that line (a number past the last line
        starts again from this digit). Returns whether the key was a digit."""
        ch = event.character
        if not (ch and ch.isdigit() and len(event.key) == 1):
            self.typed = ""
            return False
        event.stop()
        event.prevent_default()
        for typed in (self.typed + ch, ch):
            if 1 <= int(typed) <= count:
                self.typed = typed
                option_list.highlighted = int(typed) - 1
                return True
        self.typed = ""
        return True
