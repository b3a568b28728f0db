"""The Game facade: one scenario, its current state, and the ruleset that judges orders.

This is what the UI, the computer player, the journal and the network session talk to. It never
trusts an order: ``apply`` validates first, resolves on a copy, and only then replaces the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from .dice import Dice, NoDice
from .orders import Event, IllegalOrderError, Order
from .ruleset import Resolution, Ruleset
from .rulesets import get_ruleset
from .state import State

if TYPE_CHECKING:
    from .hexgrid import Hex
    from .board import Board
    from .movement import Route
    from .scenario import Scenario


class Game:
    def __init__(self, scenario: "Scenario", state: State | None = None) -> None:
        self.scenario = scenario
        self.ruleset: Ruleset = get_ruleset(scenario.ruleset)
        self.state = state if state is not None else self.ruleset.initial_state(scenario)
        #: (state, seq, order) that ``vet`` found legal in exactly this position
        self._vetted: tuple[Any, ...] | None = None
        #: (state, seq, order, rolled, position after, events) from ``ruleset.dry_run_rolls``
        self._dry: tuple[Any, ...] | None = None

    @property
    def map(self) -> "Board":
        """The board: a ``HexMap`` or an ``AreaMap`` (engine/board.py)."""
        return self.scenario.map

    @property
    def over(self) -> bool:
        return self.state.result is not None

    # --- questions ----------------------------------------------------------------------------
    def to_act(self) -> str | None:
        return self.ruleset.to_act(self)

    def legal_orders(self) -> Iterator[Order]:
        if self.over:
            return iter(())
        return self.ruleset.legal_orders(self)

    def unit_orders(self, unit_id: str) -> Iterator[Order]:
        """The legal orders for one unit (a move, a shot, an attack it joins...), without
        working out every other unit's: the question a UI asks when a unit is selected."""
        if self.over:
            return iter(())
        return self.ruleset.unit_orders(self, unit_id)

    def validate(self, order: Order, side: str | None = None) -> str | None:
        """None if ``order`` (issued by ``side``, when given) is legal now, else why not."""
        if self.over:
            return "the game is over"
        if side is not None and side != self.to_act():
            return f"it is {self.to_act()}'s turn to act, not {side}'s"
        v = self._vetted
        if v is not None and v[0] is self.state and v[1] == self.state.seq and v[2] == order:
            return None
        return self.ruleset.validate(self, order)

    def vet(self, order: Order, side: str | None = None) -> str | None:
        """``validate``, remembering a legal answer for this position: the network and a dry
        run ask about one order several times (legal? does it roll? resolve it) and check it
        once (the cheap turn check is made each time)."""
        reason = self.validate(order, side)
        if reason is None:
            self._vetted = (self.state, self.state.seq, order)
        return reason

    def is_legal(self, order: Order, side: str | None = None) -> bool:
        return self.validate(order, side) is None

    def needs_dice(self, order: Order) -> bool:
        """Whether ``order`` rolls a die in this position (exactly: ``Ruleset.needs_dice``)."""
        d = self._dry
        if d is not None and d[0] is self.state and d[1] == self.state.seq and d[2] == order:
            return d[3]
        return self.ruleset.needs_dice(self, order)

    def may_roll(self, order: Order) -> bool:
        """A cheap over-approximation of ``needs_dice`` (the lookahead's question)."""
        return self.ruleset.may_roll(self, order)

    def keep_dry_run(self, order: Order, rolled: bool, after: State | None, events: list[Event] | None) -> None:
        """What a dry run of ``order`` in this position found (``ruleset.dry_run_rolls``)."""
        self._dry = (self.state, self.state.seq, order, rolled, after, events)

    def reachable(self, unit_id: str) -> "dict[Hex, Route]":
        return self.ruleset.reachable(self, unit_id)

    def targets(self, unit_id: str) -> "list[Hex]":
        return self.ruleset.targets(self, unit_id)

    def zoc_hexes(self, side: str) -> "list[Hex]":
        """Where units of ``side`` are in enemy contact / zone of control (for display)."""
        return self.ruleset.zoc_hexes(self, side)

    def status_lines(self, side: str) -> list[str]:
        return self.ruleset.status_lines(self, side)

    def why_not(self, unit_id: str, hex: "Hex") -> str | None:
        """Why ``unit_id`` has no order at ``hex`` now (None when it has one)."""
        return self.ruleset.why_not(self, unit_id, hex)

    def unit_zones(self, unit_id: str) -> "dict[str, tuple[Hex, ...]]":
        """The hexes near a unit in each of its zones (front, flank, rear), for display."""
        return self.ruleset.unit_zones(self, unit_id)

    def event_words(self, event: Event) -> str | None:
        """The ruleset's own log line for ``event`` (None: the generic one)."""
        return self.ruleset.event_words(self, event)

    def facing_words(self, facing: int) -> str:
        """A facing index as the ruleset names it (a hexside, or a clock vertex)."""
        return self.ruleset.facing_words(self, facing)

    def unit_card(self, unit_id: str) -> list[tuple[str, str]]:
        return self.ruleset.unit_card(self, unit_id)

    def odds_summary(self, order: Order) -> str:
        return self.ruleset.odds_summary(self, order)

    def player_aid(self) -> list[tuple[str, list[str]]]:
        return self.ruleset.player_aid(self)

    def odds(self, order: Order) -> dict[str, Any]:
        return self.ruleset.odds(self, order)

    # --- change -------------------------------------------------------------------------------
    def apply(self, order: Order, dice: Dice | NoDice | None = None, side: str | None = None) -> list[Event]:
        """Validate and resolve ``order``; returns the events. Raises ``IllegalOrderError`` with
        the reason, leaving the state untouched, when the order is not legal."""
        self.state, events = self.successor(order, dice, side)
        return events

    def successor(self, order: Order, dice: Dice | NoDice | None = None,
                  side: str | None = None, *, in_place: bool = False,
                  dice_checked: bool = False) -> tuple[State, list[Event]]:
        """The state after ``order`` and its events, leaving this game untouched: validated once,
        resolved on one copy. Raises ``IllegalOrderError`` when the order is not legal.

        ``in_place`` resolves on this game's own state instead of a copy, for a caller that
        drops the old position anyway (a journal replay): a refused order still changes nothing,
        but a ruleset bug that raises mid-way leaves the state half-changed.

        ``dice_checked`` says the caller handed ``dice`` only after ``needs_dice(order)`` said yes
        (a match and a replay ask first, to seed the dice), so the question is not asked twice;
        otherwise the cheap ``may_roll`` decides whether ``dice`` is used.

        An order a dry run already resolved without a roll (``needs_dice``) is not resolved
        again: that run's position is the result."""
        reason = self.validate(order, side)
        if reason is not None:
            raise IllegalOrderError(reason)
        if dice is None or not (dice_checked or self.may_roll(order)):
            dice = NoDice()
        d = self._dry
        if (type(dice) is NoDice and d is not None and d[4] is not None and d[0] is self.state
                and d[1] == self.state.seq and d[2] == order):
            self._dry = None
            work, events = d[4], d[5]
            work.seq += 1
            return work, events
        work = self.state if in_place else self.state.copy()
        ctx = Resolution(self, work, dice)
        self.ruleset.resolve(ctx, order)
        work.seq += 1
        return work, ctx.events

    # --- encoding -----------------------------------------------------------------------------
    def digest(self) -> str:
        return self.state.digest()

    def to_bytes(self) -> bytes:
        return self.state.to_bytes()

    @classmethod
    def from_bytes(cls, scenario: "Scenario", data: bytes) -> "Game":
        return cls(scenario, State.from_bytes(data))

    def copy(self) -> "Game":
        return Game(self.scenario, self.state.copy())
