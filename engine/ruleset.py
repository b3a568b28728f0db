"""The interface every rule system implements, and the context an order resolves in.

A ruleset is stateless: everything that changes lives in ``State``, everything fixed in the
``Scenario``. The engine calls ``validate`` before ``resolve`` and resolves on a copy of the state,
so a ruleset may raise while resolving without corrupting anything (that is a bug, not a refusal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol

from .dice import Dice, NoDice
from .hexgrid import Hex
from .orders import Event, Order, event
from .state import State

if TYPE_CHECKING:
    from .hexmap import HexMap
    from .movement import Route
    from .scenario import Scenario


class Position(Protocol):
    """What a ruleset may ask of the game it judges. ``Game`` provides it; naming this small
    protocol here instead of importing ``Game`` keeps the ruleset interface below the facade."""

    scenario: "Scenario"
    state: State

    @property
    def map(self) -> "HexMap": ...

    @property
    def ruleset(self) -> "Ruleset": ...

    def validate(self, order: Order, side: str | None = None) -> str | None: ...


def order_names_unit(order: Order, unit_id: str) -> bool:
    """Whether ``order`` is given to ``unit_id``: its ``unit`` argument, or one of its ``units``."""
    if order.get("unit") == unit_id:
        return True
    units = order.get("units")
    return isinstance(units, tuple) and unit_id in units


class Resolution:
    """What ``Ruleset.resolve`` works with: the state copy, the scenario, the dice, the events."""

    def __init__(self, game: Position, state: State, dice: Dice | NoDice) -> None:
        self.scenario = game.scenario
        self.map = game.scenario.map
        self.ruleset = game.ruleset
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, kind: str, **data: Any) -> Event:
        ev = event(kind, **data)
        self.events.append(ev)
        return ev

    def roll(self, why: str, sides: int = 6, **info: Any) -> int:
        """Roll one die and report it as a ``die-roll`` event naming its purpose."""
        value = self.dice.roll(sides, why)
        self.emit("die-roll", why=why, sides=sides, value=value, **info)
        return value

    def roll_off(self, why: str, a: str, b: str, sides: int = 6) -> tuple[str, int, int]:
        """Both sides roll one die, rerolling ties (each tie reported as ``{why}-tie``).
        Returns the higher roller and the two final rolls."""
        while True:
            ra = self.roll(why, sides, side=a)
            rb = self.roll(why, sides, side=b)
            if ra != rb:
                return (a if ra > rb else b), ra, rb
            self.emit(f"{why}-tie", value=ra)


class Ruleset:
    """Base class: subclasses fill in the rules. Names mirror ``Game``'s public methods."""

    id: str = ""
    title: str = ""
    #: kind -> printed stats (the defaults a scenario may override)
    unit_types: dict[str, dict[str, Any]] = {}
    #: terrain code -> description; the loader refuses codes not listed here
    terrain_types: dict[str, str] = {}
    #: hexside features the ruleset understands
    hexside_types: tuple[str, ...] = ()
    grades: tuple[str, ...] = ("average",)

    # --- set-up -----------------------------------------------------------------------------
    def check_scenario(self, scenario: "Scenario") -> list[str]:
        """Problems with a scenario that only this ruleset can see (empty when fine)."""
        return []

    def initial_state(self, scenario: "Scenario") -> State:
        raise NotImplementedError

    # --- whose move, what is legal ------------------------------------------------------------
    def to_act(self, game: Position) -> str | None:
        """The side that must issue the next order (a pending decision's owner, else the phasing
        side); None when the game is over."""
        state = game.state
        if state.result is not None:
            return None
        if state.pending:
            return state.pending[0]["side"]
        return state.active

    def legal_orders(self, game: Position) -> Iterator[Order]:
        raise NotImplementedError

    def unit_orders(self, game: Position, unit_id: str) -> Iterator[Order]:
        """The legal orders that name ``unit_id`` (as ``unit`` or among ``units``), in
        ``legal_orders`` order: what the UI offers for a selected unit. The default filters the
        full list; rulesets override it to build only that unit's orders."""
        return (o for o in self.legal_orders(game) if order_names_unit(o, unit_id))

    def validate(self, game: Position, order: Order) -> str | None:
        """None if ``order`` is legal now, else the reason it is not."""
        raise NotImplementedError

    def needs_dice(self, game: Position, order: Order) -> bool:
        """Whether resolving ``order`` may roll; such orders get a commit-reveal exchange."""
        return True

    def resolve(self, ctx: Resolution, order: Order) -> None:
        raise NotImplementedError

    # --- previews for the UI and the computer player --------------------------------------
    def reachable(self, game: Position, unit_id: str) -> "dict[Hex, Route]":
        return {}

    def targets(self, game: Position, unit_id: str) -> list["Hex"]:
        return []

    def zoc_hexes(self, game: Position, side: str) -> list["Hex"]:
        """Hexes where a unit of ``side`` is in contact with / in the zone of control of the enemy
        (entering one stops a move). The default is every map hex next to a live enemy unit;
        rulesets with facings or ZOC exceptions say exactly which."""
        out: set[Hex] = set()
        for u in game.state.units.values():
            if u.alive and u.side != side:
                out.update(n for _, n in game.map.neighbors(u.hex))
        return sorted(out)

    def odds(self, game: Position, order: Order) -> dict[str, Any]:
        return {}

    def status_lines(self, game: Position, side: str) -> list[str]:
        """Short human-readable status of ``side`` (losses, rout boxes, exhaustion) for the
        UI's side panel; empty when the ruleset has nothing beyond units and strength."""
        return []

    # --- secret plans (engine/secret.py) -------------------------------------------------------
    def secret_round(self, game: Position) -> dict[str, Any] | None:
        """The commit/reveal round in progress, if any: the computer player then commits to
        ``ai_plan`` and later reveals it instead of choosing among ``ai_orders``."""
        return None

    def ai_plan(self, game: Position, side: str) -> list[list[Any]]:
        """The computer's secret plan for ``side``, made from the shared state only."""
        return []

    def ai_orders(self, game: Position) -> Iterable[tuple[int, Order]]:
        """Legal orders with a score for the computer player (higher is better). The default
        scores every legal order 0; rulesets override it with something that plays."""
        return ((0, o) for o in self.legal_orders(game))

