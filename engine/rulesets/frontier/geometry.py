"""Hex geometry for Frontier: facing, front zone, field of fire, aim and scatter, line of sight.

Spec sections 1.6.3 (facing, front/flank/rear), 1.6.4 (90 degree field of fire), 1.6.5 (line of
sight with two nudged lines) and 3.4.7 (scatter directions). Integer arithmetic only.
"""

from __future__ import annotations

from hexwar.engine.hexgrid import DIRECTIONS, Hex, hex_direction_to, hex_distance, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.sight import clear_lines
from hexwar.engine.state import State, Unit

#: terrain that blocks sight and makes artillery fire indirect (3.4.6, 3.7.4, G-F18)
SIGHT_BLOCKING = ("forest", "village")


def front_zone(h: tuple[int, int], facing: int) -> tuple[Hex, Hex, Hex]:
    """The three neighbours d-1, d, d+1 of a unit at ``h`` facing ``d`` (1.6.3, G-F25)."""
    return (hex_neighbor(h, facing - 1), hex_neighbor(h, facing), hex_neighbor(h, facing + 1))


def ahead(u: Unit) -> Hex | None:
    return None if u.hex is None else hex_neighbor(u.hex, u.facing)


def relative_position(defender: Unit, h: tuple[int, int]) -> str:
    """'front', 'flank' or 'rear' for an adjacent hex ``h`` as seen from ``defender``."""
    d = hex_direction_to(defender.hex, h)
    if d is None:
        return "none"
    diff = (d - defender.facing) % 6
    return {0: "front", 1: "front", 5: "front", 2: "flank", 4: "flank", 3: "rear"}[diff]


def cube_dot(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Twice the Euclidean dot product of two axial vectors, in hex units (orientation free)."""
    return a[0] * b[0] + a[1] * b[1] + (a[0] + a[1]) * (b[0] + b[1])


def closest_direction(v: tuple[int, int], choices: tuple[int, ...] = (0, 1, 2, 3, 4, 5)) -> int:
    """The direction in ``choices`` nearest in angle to ``v``; ties go to the earliest choice."""
    best, best_dot = choices[0] % 6, None
    for d in choices:
        dot = cube_dot(v, DIRECTIONS[d % 6])
        if best_dot is None or dot > best_dot:
            best, best_dot = d % 6, dot
    return best


def _solve(v: tuple[int, int], u: Hex, w: Hex) -> tuple[int, int]:
    """Integers (a, b) with v = a*u + b*w (u, w adjacent directions, determinant +-1)."""
    det = u[0] * w[1] - u[1] * w[0]
    a = (v[0] * w[1] - v[1] * w[0]) // det
    b = (u[0] * v[1] - u[1] * v[0]) // det
    return a, b


def sector_coords(origin: tuple[int, int], facing: int, target: tuple[int, int]) -> tuple[int, int] | None:
    """(a, b) of 1.6.4: target - origin = a*dir[d] + b*dir[d+-1] with a, b >= 0; None if behind."""
    v = (target[0] - origin[0], target[1] - origin[1])
    u = DIRECTIONS[facing % 6]
    for side in (1, -1):
        a, b = _solve(v, u, DIRECTIONS[(facing + side) % 6])
        if a >= 0 and b >= 0:
            return a, b
    return None


def in_field_of_fire(origin: tuple[int, int], facing: int, target: tuple[int, int]) -> bool:
    """1.6.4: a >= 1 and (3 - sqrt3) b <= 2 sqrt3 a - sqrt3 + 1, decided exactly in integers."""
    ab = sector_coords(origin, facing, target)
    if ab is None:
        return False
    a, b = ab
    if a < 1:
        return False
    lhs = 3 * b - 1  # 3b - 1 <= sqrt3 (2a - 1 + b)
    if lhs < 0:
        return True
    return lhs * lhs <= 3 * (2 * a - 1 + b) ** 2


def aim_direction(origin: tuple[int, int], facing: int, target: tuple[int, int]) -> int:
    """3.4.7 [PROP]: the direction k among d, d-1, d+1 closest to the line of fire; ties -> d."""
    v = (target[0] - origin[0], target[1] - origin[1])
    return closest_direction(v, (facing % 6, (facing - 1) % 6, (facing + 1) % 6))


#: d6 -> (where the shell lands, direction offset from k); None = the nominated cell (3.4.7)
SCATTER = {1: ("left", 1), 2: ("over", 0), 3: ("right", -1), 4: ("short", 3), 5: ("on target", None),
           6: ("on target", None)}


def scatter_cells(origin: tuple[int, int], facing: int, target: tuple[int, int]) -> dict[int, tuple[str, Hex]]:
    """die face -> (name, impact hex) for a shell aimed from ``origin`` at ``target``."""
    k = aim_direction(origin, facing, target)
    out = {}
    for die, (name, off) in SCATTER.items():
        out[die] = (name, Hex(*target) if off is None else hex_neighbor(target, k + off))
    return out


def sight_blocker(hmap: HexMap, state: State, a: tuple[int, int], b: tuple[int, int]):
    """The 1.6.5 blocking test for the line a-b: terrain, units, higher hills."""
    ea, eb = hmap.elevation_at(a), hmap.elevation_at(b)
    occupied = {u.hex for u in state.units.values() if u.alive}

    def blocks(h: Hex) -> bool:
        eh = hmap.elevation_at(h)
        if eh > ea and eh > eb:
            return True
        looked_over = ea > eh and eb > eh
        if looked_over:
            return False
        return hmap.terrain_at(h) in SIGHT_BLOCKING or h in occupied

    return blocks


def sight(hmap: HexMap, state: State, a: tuple[int, int], b: tuple[int, int]) -> tuple[bool, bool]:
    """Whether each of the two nudged lines from a to b is clear."""
    return clear_lines(a, b, sight_blocker(hmap, state, a, b))


def whole_cell_visible(hmap: HexMap, state: State, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """G-F4: both lines clear."""
    p, m = sight(hmap, state, a, b)
    return p and m


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return hex_distance(a, b)
