"""What a scenario file describes, as validated engine data (the loader builds these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board, Place


@dataclass(frozen=True)
class SideSpec:
    """A side as the scenario names it, with the map edge it calls home."""

    id: str
    name: str
    home_edge: str = ""


@dataclass(frozen=True)
class DivisionSpec:
    """A division of one side; the rulesets that rout divisions read its threshold."""

    id: str
    side: str
    name: str
    rout_threshold: int | None = None


@dataclass(frozen=True)
class UnitSpec:
    """A unit as the scenario sets it up. ``stats`` already merges the ruleset's defaults for
    ``kind`` with the scenario's overrides; ``hex`` is the unit's place on the board (a hex, or
    a space id on an area map), None for units that enter later (``entry_turn``) or start off
    the map in a holding box (``box``)."""

    id: str
    side: str
    kind: str
    name: str
    hex: Place | None
    facing: int
    stats: dict[str, Any]
    strength: int
    division: str = ""
    grade: str = "average"
    entry_turn: int | None = None
    entry_hexes: tuple[Place, ...] = ()
    #: off-map holding box the unit starts in (e.g. "rout": already lost before the battle)
    box: str = ""


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: everything a game needs to start, and the text it came from (a
    journal carries that text so a replay rebuilds the same scenario)."""

    id: str
    title: str
    ruleset: str
    #: the board: a ``HexMap`` or an ``AreaMap`` (``map.kind`` says which)
    map: Board
    sides: tuple[SideSpec, ...]
    units: tuple[UnitSpec, ...]
    turns: int
    divisions: tuple[DivisionSpec, ...] = ()
    first_player: str | None = None
    victory: dict[str, Any] = field(default_factory=dict)
    rules: dict[str, Any] = field(default_factory=dict)
    notes: str = ""
    #: the scenario's cards (``[[cards]]``), for rulesets that play with decks: plain tables
    cards: tuple[dict[str, Any], ...] = ()
    source_path: str = ""
    source_text: str = ""
    source_hash: str = ""

    def side(self, side_id: str) -> SideSpec:
        return next(s for s in self.sides if s.id == side_id)

    def rule(self, key: str, default: Any = None) -> Any:
        """A scenario rule flag (optional rules, variants), or ``default`` when not set."""
        return self.rules.get(key, default)
