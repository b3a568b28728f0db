"""Combat-results tables with column shifts, and step-loss helpers.

Hex-and-counter games look up a result by a column (odds or strength difference) and a die roll;
modifiers move the column left or right, and a shifted column past either end is clamped. The odds
of each result on a column are exact fractions, for the combat preview.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .state import Unit


@dataclass(frozen=True)
class CombatTable:
    """``rows[die]`` holds one result per column; ``columns`` are the printed column heads."""

    columns: tuple[str, ...]
    rows: dict[int, tuple[str, ...]]

    def __post_init__(self) -> None:
        for die, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"row {die} has {len(row)} results for {len(self.columns)} columns")

    def column_index(self, label: str) -> int:
        return self.columns.index(label)

    def shift(self, column: int, shifts: int) -> int:
        """Move ``shifts`` columns (right is positive), clamped to the table."""
        return max(0, min(len(self.columns) - 1, column + shifts))

    def lookup(self, column: int, die: int) -> str:
        if die not in self.rows:
            raise ValueError(f"no row for a roll of {die}")
        return self.rows[die][self.shift(column, 0)]

    def odds(self, column: int) -> dict[str, Fraction]:
        """Chance of each result on ``column``, each die face equally likely."""
        col = self.shift(column, 0)
        out: dict[str, Fraction] = {}
        n = len(self.rows)
        for die in sorted(self.rows):
            res = self.rows[die][col]
            out[res] = out.get(res, Fraction(0)) + Fraction(1, n)
        return out


def take_losses(unit: Unit, steps: int) -> int:
    """Remove up to ``steps`` strength from ``unit``; returns how many it actually lost.

    A unit brought to zero is taken off the map (``hex`` None); strength never goes negative.
    """
    lost = max(0, min(steps, unit.strength))
    unit.strength -= lost
    if unit.strength == 0:
        unit.hex = None
    return lost


def chance_at_least(target: int, sides: int = 6, modifier: int = 0) -> Fraction:
    """Chance that one die + ``modifier`` reaches ``target``."""
    hits = sum(1 for face in range(1, sides + 1) if face + modifier >= target)
    return Fraction(hits, sides)


def chance_at_most(target: int, sides: int = 6) -> Fraction:
    """Chance that one die shows ``target`` or less."""
    return Fraction(max(0, min(sides, target)), sides)
