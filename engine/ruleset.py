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
    from .board import Board
    from .movement import Route
    from .scenario import Scenario


#: abbreviated fields every ruleset's events use, in words
_COMMON_FIELDS = {"frm": "from", "sp": "strength points", "drm": "die modifier"}


class Position(Protocol):
    """What a ruleset may ask of the game it judges. ``Game`` provides it; naming this small
    protocol here instead of importing ``Game`` keeps the ruleset interface below the facade."""

    scenario: "Scenario"
    state: State

    @property
    def map(self) -> "Board": ...

    @property
    def ruleset(self) -> "Ruleset": ...

    def validate(self, order: Order, side: str | None = None) -> str | None: ...


class _Rolled(Exception):
    pass


class _Probe(NoDice):
    """Dice for a dry run: the first roll stops it."""

    def roll(self, sides: int = 6, why: str = "") -> int:
        raise _Rolled(why)


def dry_run_rolls(game: Position, order: Order) -> bool:
    """Whether ``order`` rolls in this position, found by resolving it on a copy with dice that
    stop at the first roll (an illegal order rolls nothing: it is refused before any die). A
    ``Game`` keeps what the run found, so asking again, or resolving the order without dice
    afterwards (``Game.successor``), costs nothing more."""
    if getattr(game, "vet", game.validate)(order) is not None:
        return False
    ctx = Resolution(game, game.state.copy(), _Probe())
    keep = getattr(game, "keep_dry_run", None)
    try:
        game.ruleset.resolve(ctx, order)
    except _Rolled:
        if keep is not None:
            keep(order, True, None, None)
        return True
    if keep is not None:
        keep(order, False, ctx.state, ctx.events)
    return False


def strength_words(u) -> str:  # noqa: ANN001 - a state.Unit
    """``3 of 4 (reduced)``: what a unit has left of its strength or steps."""
    reduced = " (reduced)" if u.strength < u.max_strength else ""
    return f"{u.strength} of {u.max_strength}{reduced}"


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
    #: the strong computer's lookahead for this ruleset: fields of ``engine.search.Budget`` to
    #: change, for a ruleset whose orders are much cheaper or costlier to resolve than the default
    #: was measured on, or whose evaluation sees enough of a position to compare quiet moves
    #: (``scope``)
    search_budget: dict[str, int | str] = {}

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
        """Whether resolving ``order`` now rolls a die: exactly (an order flagged here that
        rolled nothing would cost the network a needless commit-reveal exchange, one that rolled
        unflagged is a ruleset bug). Asked of the position before the order; ``dry_run_rolls``
        answers it for any ruleset, a cheaper answer per order kind is better where one exists."""
        return dry_run_rolls(game, order)

    def may_roll(self, game: Position, order: Order) -> bool:
        """A cheap answer that may say yes for an order that rolls nothing, never no for one
        that rolls: what the computer's lookahead asks many times per decision (it weighs a
        "yes" over the dice's outcomes, of which an order that rolls nothing has one)."""
        return self.needs_dice(game, order)

    def resolve(self, ctx: Resolution, order: Order) -> None:
        raise NotImplementedError

    # --- previews for the UI and the computer player --------------------------------------
    def reachable(self, game: Position, unit_id: str) -> "dict[Hex, Route]":
        return {}

    def targets(self, game: Position, unit_id: str) -> list["Hex"]:
        return []

    def occupied_hexes(self, game: Position, unit_id: str) -> tuple["Hex", ...]:
        """Every hex the unit's pieces stand in, so the map can draw each of them. Most rulesets
        put a unit in one hex; a ruleset whose units spread over several (stands of a line)
        says which. Empty for a unit off the map."""
        u = game.state.units.get(unit_id)
        return () if u is None or u.hex is None else (u.hex,)

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

    # --- words for the player: the UI shows these, it never works them out ---------------
    #: whether units face a hexside that matters to the rules (the card then names the facing)
    has_facing: bool = False
    #: printed stat -> what the card calls it; stats not named here are not shown
    stat_words: dict[str, str] = {"move": "movement", "range": "range"}
    #: phase id -> its name, in the order of play (the player aid's sequence of play)
    phase_names: dict[str, str] = {}
    #: unit mark -> how the card says it; marks not named here are bookkeeping, not shown
    mark_words: dict[str, str] = {}

    #: a field of an order, event or preview -> how the player says it (``hit_on`` -> ``you hit
    #: on``); fields not named here are said by ``field_name`` as words (``kills on``)
    field_names: dict[str, str] = {}

    #: fields of a preview the player does not need (the order's kind, already in its title)
    quiet_fields: frozenset[str] = frozenset({"kind"})

    def field_name(self, key: str) -> str:
        """A field of an order, event or preview as the player reads it: the ruleset's own name
        from ``field_names``, else the field's words (never ``snake_case``)."""
        named = self.field_names.get(key) or _COMMON_FIELDS.get(key)
        return named if named else key.replace("_", " ").replace("-", " ")

    def value_words(self, value: str) -> str:
        """A word-valued field (``poorly_organised``) in words; rulesets may name them better."""
        return self.field_names.get(value) or value.replace("_", " ")

    def type_name(self, kind: str) -> str:
        """The plain name of a unit type (``Heavy Infantry``), not its short code."""
        name = self.unit_types.get(kind, {}).get("name")
        return name if isinstance(name, str) and name else kind

    def unit_card(self, game: Position, unit_id: str) -> list[tuple[str, str]]:
        """The unit's card as (label, words) rows: type, strength, movement, range, fire,
        facing, division and status. Rulesets add what their counters print."""
        return self.base_unit_card(game, unit_id)

    def base_unit_card(self, game: Position, unit_id: str) -> list[tuple[str, str]]:
        """The rows every ruleset's card has, from ``stat_words``, ``has_facing`` and the marks."""
        u = game.state.units[unit_id]
        rows = [("type", self.type_name(u.kind)), ("strength", strength_words(u))]
        for stat, label in self.stat_words.items():
            value = u.stats.get(stat, self.unit_types.get(u.kind, {}).get(stat))
            if isinstance(value, bool) or value is None:
                continue
            rows.append((label, str(value)))
        if self.has_facing and 0 <= u.facing < 6:
            rows.append(("facing", self.facing_words(game, u.facing)))
        if u.division:
            rows.append(("division", u.division))
        if u.grade and u.grade != "average":
            rows.append(("grade", u.grade))
        rows.append(("status", self.status_words(game, unit_id)))
        return rows

    def facing_words(self, game: Position, facing: int) -> str:
        """How a facing index is named to the player; the default names the hexside it faces
        (``NE``), rulesets whose units face a vertex name that instead."""
        from .hexgrid import DIRECTION_NAMES
        return DIRECTION_NAMES[game.map.orientation][facing % 6]

    def unit_zones(self, game: Position, unit_id: str) -> "dict[str, tuple[Hex, ...]]":
        """The hexes near a unit that lie in each of its zones (``front``, ``flank``, ``rear``),
        for the map to draw when the unit is selected; empty when the rules have no zones."""
        return {}

    def event_words(self, game: Position, event: "Event") -> str | None:
        """One log line for an event in the ruleset's own words (unit ids and ``[q, r]`` hexes
        may stay: the UI turns them into names and labels); None leaves the generic line."""
        return None

    def status_words(self, game: Position, unit_id: str) -> str:
        """The unit's marks in words (``has moved, fired``); ``ready`` when it has none worth saying."""
        u = game.state.units[unit_id]
        if not u.alive:
            return "eliminated" if u.strength <= 0 else "not on the map"
        said = [self.mark_words[k] for k in sorted(u.marks) if k in self.mark_words]
        return ", ".join(said) if said else "ready"

    def why_not(self, game: Position, unit_id: str, hex: Hex) -> str | None:
        """Why ``unit_id`` has no order at ``hex`` now, in plain words naming the rule where the
        rules give one; None when some order fits. The default asks ``validate`` about the unit's
        own kinds of order aimed at that hex; rulesets answer more exactly."""
        from .explain import probe_reason
        return probe_reason(self, game, unit_id, hex)

    def pass_words(self, game: Position, side: str) -> str | None:
        """Why ``side`` has nothing to decide in this phase, naming the unit and the rule (unit
        ids stay: the UI names them); None when the rules give no reason worth saying. The
        default asks ``why_not`` about the side's units nearest an enemy."""
        from .explain import pass_reason
        return pass_reason(self, game, side)

    def odds_summary(self, game: Position, order: Order) -> str:
        """One plain line for a combat preview (``you hit on 4+ (50 %) · they hit on 5+``);
        empty when the ruleset gives only the breakdown of ``odds``."""
        return ""

    def order_words(self, game: Position, order: Order) -> str:
        """The order in the player's words (``HQ 1 (+2): Attack 22 via 23``); empty when the
        UI's generic wording (kind, unit, hexes) says it well enough."""
        return ""

    def place_words(self, game: Position, hex: Hex) -> list[str]:
        """Lines the ruleset adds to the description of a hex (a campaign point's number, its
        crossings and the groups in it); none by default."""
        return []

    def player_aid(self, game: Position) -> list[tuple[str, list[str]]]:
        """The player aid as titled sections: sequence of play (the current step marked), the
        combat tables, the terrain effects chart, the unit types. The default is built from the
        ruleset's declared data; rulesets add their tables."""
        from .explain import default_aid
        return default_aid(self, game)

    # --- secret plans (engine/secret.py) -------------------------------------------------------
    def secret_round(self, game: Position) -> dict[str, Any] | None:
        """The commit/reveal round in progress, if any: the computer player then commits to
        ``ai_plan`` and later reveals it instead of choosing among ``ai_orders``."""
        return None

    def ai_plan(self, game: Position, side: str, secret: bytes | None = None) -> list[list[Any]]:
        """The computer's secret plan for ``side``, made from the shared state and, when given,
        ``secret``: bytes only this computer holds (its salt's secret part, engine/secret.py),
        so that nobody can work the plan out from the shared state before it is revealed.
        Without ``secret``, the plan anyone could predict (a suggestion, a guess of the other
        side's plan)."""
        return []

    def ai_plans(self, game: Position, side: str) -> list[list[list[Any]]]:
        """The plans the strong computer compares in a secret round, ``ai_plan`` first, each
        made from the shared state only. One plan (the default) means nothing to compare."""
        return [self.ai_plan(game, side)]

    def plan_problem(self, game: Position, side: str, plan: list[list[Any]]) -> str | None:
        """None if ``side`` may commit to ``plan`` now, else why not: players check a plan
        before committing, since the reveal of a plan the rules refuse is refused too."""
        return None

    def ai_orders(self, game: Position) -> Iterable[tuple[int, Order]]:
        """Legal orders with a score for the computer player (higher is better). The default
        scores every legal order 0; rulesets override it with something that plays."""
        return ((0, o) for o in self.legal_orders(game))

    def strong_orders(self, game: Position) -> Iterable[tuple[int, Order]]:
        """The candidates the strong computer searches among, scored like ``ai_orders`` (whose
        answer it is by default). A ruleset whose basic scoring misses a plan the strong level
        should follow (keeping a division out of the fight) gives its own here, so the basic
        level stays as it was."""
        return self.ai_orders(game)

    def evaluate(self, game: Position, side: str) -> int:
        """How good the (unfinished) position is for ``side``, for the strong computer's lookahead:
        higher is better, zero is even, and the scale is the ruleset's own (only comparisons
        between positions of one game matter). The default weighs what is left of each army,
        as a fraction of what it started with, in thousandths; rulesets that know better
        (objectives, rout margins, formations) override it."""
        kept: dict[str, list[int]] = {}
        for u in game.state.units.values():
            k = kept.setdefault(u.side, [0, 0])
            k[0] += u.strength if u.alive else 0
            k[1] += u.max_strength
        mine = kept.get(side, [0, 1])
        theirs = [0, 0]
        for s, k in sorted(kept.items()):
            if s != side:
                theirs = [theirs[0] + k[0], theirs[1] + k[1]]
        return 1000 * mine[0] // max(1, mine[1]) - 1000 * theirs[0] // max(1, theirs[1])
