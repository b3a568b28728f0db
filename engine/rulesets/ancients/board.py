"""Who stands where: occupancy queries on a state (no rules decided here)."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex, hex_distance
from hexwar.engine.state import State, Unit

from .units import is_commander, is_elephant


def alive_units(state: State) -> list[Unit]:
    return [state.units[k] for k in sorted(state.units) if state.units[k].alive]


def units_at(state: State, h: tuple[int, int]) -> list[Unit]:
    return [u for u in alive_units(state) if u.hex == h]


def body_at(state: State, h: tuple[int, int]) -> Unit | None:
    """The non-commander unit in a hex (at most one)."""
    for u in units_at(state, h):
        if not is_commander(u.stats):
            return u
    return None


def commander_at(state: State, h: tuple[int, int]) -> Unit | None:
    for u in units_at(state, h):
        if is_commander(u.stats):
            return u
    return None


def main_unit_at(state: State, h: tuple[int, int]) -> Unit | None:
    """The unit that fights for a hex: its body, else a lone commander."""
    return body_at(state, h) or commander_at(state, h)


def friendly_commander_with(state: State, unit: Unit) -> Unit | None:
    """The friendly commander sharing ``unit``'s hex (gives +1, 4.14)."""
    if unit.hex is None or is_commander(unit.stats):
        return None
    c = commander_at(state, unit.hex)
    return c if c is not None and c.side == unit.side else None


def enemies_adjacent(state: State, h: tuple[int, int], side: str) -> list[Unit]:
    out = []
    for u in alive_units(state):
        if u.side != side and hex_distance(u.hex, h) == 1:  # type: ignore[arg-type]
            out.append(u)
    return out


def enemy_hexes_adjacent(state: State, h: tuple[int, int], side: str) -> list[Hex]:
    seen: list[Hex] = []
    for u in enemies_adjacent(state, h, side):
        if u.hex not in seen:
            seen.append(u.hex)  # type: ignore[arg-type]
    return seen


def nearest_enemy_distance(state: State, h: tuple[int, int], side: str) -> int | None:
    best = None
    for u in alive_units(state):
        if u.side != side:
            d = hex_distance(u.hex, h)  # type: ignore[arg-type]
            if best is None or d < best:
                best = d
    return best


def has_elephant_adjacent(state: State, h: tuple[int, int], side: str, enemy_only: bool) -> bool:
    for u in alive_units(state):
        if is_elephant(u.stats) and hex_distance(u.hex, h) == 1:  # type: ignore[arg-type]
            if not enemy_only or u.side != side:
                return True
    return False


def occupied(state: State) -> dict[Hex, list[Unit]]:
    return {h: us for h, us in state.occupancy().items() if any(u.alive for u in us)}


def hexlist(h: tuple[int, int]) -> list[int]:
    return [int(h[0]), int(h[1])]


def as_hex(v: Any) -> Hex | None:
    if (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        return Hex(v[0], v[1])
    return None
