"""Hex geometry in axial coordinates, named after Red Blob Games' hex-grid guide.

Everything here is integer arithmetic so two machines always agree. A hex is an axial pair
``Hex(q, r)``; the third cube coordinate is ``s = -q - r``. Printed maps use offset labels
(``CCRR``), which depend on the map's orientation and parity, so conversions take both.

Directions are indices 0..5 counter-clockwise starting at axial (+1, 0). On a pointy-top map they
read E, NE, NW, W, SW, SE; on a flat-top map SE, NE, N, NW, SW, S.
"""

from __future__ import annotations

from typing import NamedTuple


class Hex(NamedTuple):
    """An axial hex coordinate. Plain tuples ``(q, r)`` compare equal to it."""

    q: int
    r: int


class Hexside(NamedTuple):
    """One edge between two hexes, stored once: the hex and a direction in 0..2.

    ``hexside(a, d)`` and ``hexside(neighbor(a, d), d + 3)`` give the same value, so a river
    hexside is one object whichever bank you look from.
    """

    hex: Hex
    dir: int


DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)
_DIRECTION_INDEX = {(d[0], d[1]): i for i, d in enumerate(DIRECTIONS)}
DIRECTION_NAMES = {
    "pointy": ("E", "NE", "NW", "W", "SW", "SE"),
    "flat": ("SE", "NE", "N", "NW", "SW", "S"),
}
ORIENTATIONS = ("flat", "pointy")
PARITIES = ("odd", "even")


def hex_add(a: tuple[int, int], b: tuple[int, int]) -> Hex:
    return Hex(a[0] + b[0], a[1] + b[1])


def hex_subtract(a: tuple[int, int], b: tuple[int, int]) -> Hex:
    return Hex(a[0] - b[0], a[1] - b[1])


def hex_neighbor(h: tuple[int, int], direction: int) -> Hex:
    d = DIRECTIONS[direction % 6]
    return Hex(h[0] + d[0], h[1] + d[1])


def hex_neighbors(h: tuple[int, int]) -> tuple[Hex, ...]:
    return tuple(Hex(h[0] + d[0], h[1] + d[1]) for d in DIRECTIONS)


def hex_length(h: tuple[int, int]) -> int:
    q, r = h
    return (abs(q) + abs(r) + abs(q + r)) // 2


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_direction_to(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """The direction index from ``a`` to an adjacent ``b``, or None if they are not adjacent."""
    return _DIRECTION_INDEX.get((b[0] - a[0], b[1] - a[1]))


def hex_scale(h: tuple[int, int], k: int) -> Hex:
    return Hex(h[0] * k, h[1] * k)


def hex_ring(center: tuple[int, int], radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, walking counter-clockwise from direction 4."""
    if radius == 0:
        return [Hex(*center)]
    results = []
    h = hex_add(center, hex_scale(DIRECTIONS[4], radius))
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = hex_neighbor(h, side)
    return results


def hex_spiral(center: tuple[int, int], radius: int) -> list[Hex]:
    """Every hex within ``radius``, ring by ring."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(hex_ring(center, k))
    return out


def hexside(h: tuple[int, int], direction: int) -> Hexside:
    """The canonical identity of the edge of ``h`` in ``direction``."""
    direction %= 6
    if direction < 3:
        return Hexside(Hex(*h), direction)
    return Hexside(hex_neighbor(h, direction), direction - 3)


def hexside_between(a: tuple[int, int], b: tuple[int, int]) -> Hexside | None:
    d = hex_direction_to(a, b)
    return None if d is None else hexside(a, d)


def hexside_hexes(side: Hexside) -> tuple[Hex, Hex]:
    """The two hexes that share this edge."""
    return side.hex, hex_neighbor(side.hex, side.dir)


# --- line drawing -----------------------------------------------------------------------------
#
# A straight line between hex centres is sampled at N-1 interior points (N = distance). When a
# sample lies exactly on an edge or vertex, rounding is ambiguous, so we draw the line twice,
# nudged by +eps and -eps along cube offsets (1, 2, -3). The nudges are symbolic: we scale every
# coordinate by N * _SCALE and add the integer nudge, so rounding never ties and no float is used.
# Where the line runs along an edge, the two paths take the two hexes on either side of it.

_SCALE = 1000
_NUDGE = (1, 2, -3)


def _round_div(num: int, den: int) -> int:
    """Nearest integer to num/den (den > 0); never called on an exact half."""
    return (2 * num + den) // (2 * den)


def _cube_round_scaled(x: int, y: int, z: int, den: int) -> Hex:
    rx, ry, rz = _round_div(x, den), _round_div(y, den), _round_div(z, den)
    dx, dy, dz = abs(rx * den - x), abs(ry * den - y), abs(rz * den - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return Hex(rx, rz)


def _line(a: tuple[int, int], b: tuple[int, int], sign: int) -> list[Hex]:
    n = hex_distance(a, b)
    if n == 0:
        return [Hex(*a)]
    ax, az = a
    bx, bz = b
    ay, by = -ax - az, -bx - bz
    den = n * _SCALE
    kx, ky, kz = (sign * k for k in _NUDGE)
    out = [Hex(*a)]
    for i in range(1, n):
        x = (ax * n + (bx - ax) * i) * _SCALE + kx
        y = (ay * n + (by - ay) * i) * _SCALE + ky
        z = (az * n + (bz - az) * i) * _SCALE + kz
        out.append(_cube_round_scaled(x, y, z, den))
    out.append(Hex(*b))
    return out


def hex_line_pair(a: tuple[int, int], b: tuple[int, int]) -> tuple[list[Hex], list[Hex]]:
    """The two hex paths of the line a->b, nudged to either side of edges and vertices.

    Both paths start at ``a``, end at ``b`` and have distance+1 hexes; they differ only where the
    true line runs exactly along a hexside. ``hex_line_pair(b, a)`` gives the same two paths
    reversed (in swapped order), which makes line of sight symmetric.
    """
    return _line(a, b, 1), _line(a, b, -1)


def hex_linedraw(a: tuple[int, int], b: tuple[int, int]) -> list[Hex]:
    return _line(a, b, 1)


# --- offset coordinates and printed labels ----------------------------------------------------


def axial_to_offset(h: tuple[int, int], orientation: str, parity: str) -> tuple[int, int]:
    """Axial -> (col, row), 0-based. Flat-top maps shift columns, pointy-top maps shift rows.

    ``parity`` says which columns (flat) or rows (pointy) are pushed down/right: "odd" or "even".
    """
    q, r = h
    if orientation == "flat":
        shift = (q - (q & 1)) // 2 if parity == "odd" else (q + (q & 1)) // 2
        return q, r + shift
    shift = (r - (r & 1)) // 2 if parity == "odd" else (r + (r & 1)) // 2
    return q + shift, r


def offset_to_axial(col: int, row: int, orientation: str, parity: str) -> Hex:
    if orientation == "flat":
        shift = (col - (col & 1)) // 2 if parity == "odd" else (col + (col & 1)) // 2
        return Hex(col, row - shift)
    shift = (row - (row & 1)) // 2 if parity == "odd" else (row + (row & 1)) // 2
    return Hex(col - shift, row)


def offset_label(col: int, row: int, width: int = 2) -> str:
    """The printed ``CCRR`` label: 1-based column then row, zero padded."""
    return f"{col + 1:0{width}d}{row + 1:0{width}d}"


def parse_offset_label(label: str, width: int = 2) -> tuple[int, int]:
    """``"0304"`` -> (2, 3). Raises ValueError for anything that is not 2*width digits."""
    if len(label) != 2 * width or not label.isdigit():
        raise ValueError(f"hex label {label!r} is not {2 * width} digits (CCRR)")
    col, row = int(label[:width]) - 1, int(label[width:]) - 1
    if col < 0 or row < 0:
        raise ValueError(f"hex label {label!r}: columns and rows start at 1")
    return col, row
