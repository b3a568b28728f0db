"""Facings, zones and sight on hexes with exact arithmetic (spec 21.4, 21.6, 21.7).

A formed unit faces a hex *vertex*. Facing index ``f`` (0..5) points at the vertex between hexside
directions ``f`` and ``f + 1`` (``hexgrid`` numbering, counter-clockwise from east), i.e. at
30 + 60 f degrees: 0 = 2 o'clock, 1 = 12, 2 = 10, 3 = 8, 4 = 6, 5 = 4 o'clock.

Zones follow 21.6: a box around the stands, and 45-degree lines from its front (rear) corners.
Every length along a vertex facing is a rational multiple of sqrt(3), every length across it
rational, so points are kept as integers ``(12 X, 12 Y / sqrt(3))`` (X = q + r/2) and the one
comparison that mixes the two (``e <= sqrt(3) * t``) is squared: ``e*e <= 3*t*t`` for ``t >= 0``.
No float and no epsilon decide anything.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from hexwar.engine.hexgrid import Hex, hex_line_pair

# Points are integers scaled by 12: (12 X, 12 Yr). Along/across lengths are scaled by 24.
#: per facing: cos(theta) = sqrt(3) * c2 / 2, sin(theta) = s2 / 2
_CS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))
#: hex vertices relative to the centre: angles 30, 90, ..., 330 degrees (distance 1/sqrt(3))
_VERTICES = ((6, 2), (0, 4), (-6, 2), (-6, -2), (0, -4), (6, -2))
#: hexside midpoints relative to the centre, directions 0..5 (distance 1/2)
_SIDE_MIDS = ((6, 0), (3, 3), (-3, 3), (-6, 0), (-3, -3), (3, -3))
HALF_W = 12        # half a stand's frontage (1/2), in 24ths
HALF_D = 6         # half a stand's depth (sqrt(3)/4 = sqrt(3) * 1/4), in 24ths of sqrt(3)

Point = tuple[int, int]


# --- hexside roles -------------------------------------------------------------------------
def front_dirs(f: int) -> tuple[int, int]:
    """(FR, FL): the two hexsides either side of the faced vertex."""
    return f % 6, (f + 1) % 6


def flank_dirs(f: int) -> tuple[int, int]:
    """(LF, RF)."""
    return (f + 2) % 6, (f + 5) % 6


def rear_dirs(f: int) -> tuple[int, int]:
    """(RL, RR)."""
    return (f + 3) % 6, (f + 4) % 6


def side_of(f: int | None, d: int) -> str:
    """Which side of a unit facing ``f`` its hexside ``d`` is: front, flank or rear.
    A unit with no facing (square, disordered) is all front."""
    if f is None:
        return "front"
    d %= 6
    if d in front_dirs(f):
        return "front"
    if d in rear_dirs(f):
        return "rear"
    return "flank"


def facings_fronting(d: int) -> tuple[int, int]:
    """The two facings whose front includes hexside direction ``d``."""
    return (d % 6, (d - 1) % 6)


# --- points ---------------------------------------------------------------------------------
def centre(h: tuple[int, int]) -> Point:
    """The hex centre (X = q + r/2, Y = -sqrt(3) r / 2) as (12 X, 12 Y / sqrt(3))."""
    q, r = h
    return 12 * q + 6 * r, -6 * r


def vertices(h: tuple[int, int]) -> list[Point]:
    x, y = centre(h)
    return [(x + dx, y + dy) for dx, dy in _VERTICES]


def side_midpoints(h: tuple[int, int]) -> list[Point]:
    x, y = centre(h)
    return [(x + dx, y + dy) for dx, dy in _SIDE_MIDS]


def local(p: Point, f: int) -> tuple[int, int]:
    """(a, b) in 24ths: ``a`` across the facing (right positive), ``b`` along it in units of
    sqrt(3) (true length sqrt(3) * b / 24)."""
    c, s = _CS[f % 6]
    x, y = p
    return x * s - 3 * y * c, x * c + y * s


def front_middle(stands: Iterable[tuple[int, int]], f: int) -> Point:
    """The middle of a formation's front edge (21.6), as a point scaled 8 times finer than
    ``centre`` (pass ``k=8`` to ``zone_of_point``) so that it stays an exact integer."""
    box = Box(list(stands), f)
    a2 = box.left + box.right          # twice the lateral middle
    b = box.front
    c, s = _CS[f % 6]
    # local() is a scaled rotation with 3 c^2 + s^2 = 4; inverted and multiplied by 8:
    return a2 * s + 6 * b * c, 2 * b * s - a2 * c


class Box:
    """The rectangle around a formation's stands in its own frame (21.6)."""

    def __init__(self, stands: Iterable[tuple[int, int]], f: int) -> None:
        coords = [local(centre(h), f) for h in stands]
        self.f = f % 6
        self.left = min(a for a, _ in coords) - HALF_W
        self.right = max(a for a, _ in coords) + HALF_W
        self.front = max(b for _, b in coords) + HALF_D
        self.rear = min(b for _, b in coords) - HALF_D

    def zone(self, p: Point, k: int = 1) -> str:
        """front / rear / left / right, or "inside" the box itself, for a point scaled ``k``
        times. The 45-degree lines count as front or rear (spec 21.6): e <= sqrt(3) t is tested
        as e*e <= 3*t*t."""
        a, b = local(p, self.f)
        left, right, front, rear = self.left * k, self.right * k, self.front * k, self.rear * k
        e = max(0, left - a, a - right)
        if b >= front and e * e <= 3 * (b - front) ** 2:
            return "front"
        if b <= rear and e * e <= 3 * (rear - b) ** 2:
            return "rear"
        if a < left:
            return "left"
        if a > right:
            return "right"
        return "inside"


def zone_of_point(stands: list[tuple[int, int]], f: int | None, p: Point, k: int = 1) -> str:
    """The zone of a unit (stands, facing) that point ``p`` (scaled ``k`` times) lies in; all
    front without a facing."""
    if f is None:
        return "front"
    z = Box(stands, f).zone(p, k)
    return "flank" if z in ("left", "right") else ("front" if z == "inside" else z)


@lru_cache(maxsize=65536)
def _touches(stands: tuple, f: int, zone: str, target: tuple) -> bool:
    box = Box(stands, f)
    for h in target:
        for p in [centre(h), *vertices(h)]:
            z = box.zone(p)
            if z == zone or (zone == "flank" and z in ("left", "right")):
                return True
    return False


def zone_touches(stands: list[tuple[int, int]], f: int | None, zone: str,
                 target: Iterable[tuple[int, int]]) -> bool:
    """Whether ``zone`` of the unit touches any part of the target stands: a hex centre or one of
    its six vertices inside it, boundaries included (21.6). Cached on the coordinates."""
    if f is None:
        return zone == "front"
    return _touches(tuple((h[0], h[1]) for h in stands), f % 6, zone,
                    tuple((h[0], h[1]) for h in target))


# --- sight -------------------------------------------------------------------------------------
def sight_clear(a: tuple[int, int], b: tuple[int, int], blocks: Callable[[Hex], bool],
                side_blocks: Callable[[Hex, Hex], bool] | None = None) -> bool:
    """Whether the segment between the centres of ``a`` and ``b`` misses every blocking hex.

    "Blocked even by the edge" (7.3, 21.7): a hex counts when the segment touches it at all, so
    both nudged hex lines of the segment must be clear (where the segment runs exactly along a
    hexside, one line takes each of the two hexes). The end hexes never block.
    """
    p, m = hex_line_pair(a, b)
    if any(blocks(h) for h in p[1:-1]) or any(blocks(h) for h in m[1:-1]):
        return False
    if side_blocks is not None:
        # a hexside feature (a high wall) blocks when either line crosses it
        for line in (p, m):
            if any(side_blocks(x, y) for x, y in zip(line, line[1:])):
                return False
    return True


# --- sight between points (21.6 reference points, 21.7 segments) ------------------------------
# Points here are scaled 8 times finer than ``centre`` (as ``front_middle`` gives them). The
# scaling (12 X, 12 Y / sqrt(3)) is linear, so whether a segment meets a hexagon or a hexside
# is decided exactly with integer cross products.

def point8(a: int, b: int, f: int) -> Point:
    """The point with local coordinates (a, b) of facing ``f`` (``local``'s units), scaled 8."""
    c, s = _CS[f % 6]
    return 2 * a * s + 6 * b * c, 2 * b * s - 2 * a * c


def stand_points(h: tuple[int, int], f: int | None) -> list[Point]:
    """The middles of a stand's front, flanks and rear (21.6), scaled 8; a stand with no facing
    uses its six hexside midpoints."""
    if f is None:
        x, y = centre(h)
        return [(8 * x + 8 * dx, 8 * y + 8 * dy) for dx, dy in _SIDE_MIDS]
    box = Box([h], f)
    a, b = (box.left + box.right) // 2, (box.front + box.rear) // 2
    return [point8(a, box.front, f), point8(box.left, b, f), point8(box.right, b, f),
            point8(a, box.rear, f)]


def _cross(o: Point, p: Point, q: Point) -> int:
    return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])


def _on(o: Point, p: Point, q: Point) -> bool:
    return min(o[0], p[0]) <= q[0] <= max(o[0], p[0]) and min(o[1], p[1]) <= q[1] <= max(o[1], p[1])


def segments_meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two closed segments share a point (touching counts)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)):
        return True
    return (d1 == 0 and _on(q1, q2, p1)) or (d2 == 0 and _on(q1, q2, p2)) \
        or (d3 == 0 and _on(p1, p2, q1)) or (d4 == 0 and _on(p1, p2, q2))


def hex_corners8(h: tuple[int, int]) -> list[Point]:
    x, y = centre(h)
    return [(8 * (x + dx), 8 * (y + dy)) for dx, dy in _VERTICES]


def segment_meets_hex(p: Point, q: Point, h: tuple[int, int]) -> bool:
    """Whether segment p-q meets the closed hexagon of ``h`` ("even by the edge", 7.3)."""
    corners = hex_corners8(h)
    for end in (p, q):
        # inside or on the boundary: on the left of (or on) every counter-clockwise edge
        if all(_cross(corners[i], corners[(i + 1) % 6], end) >= 0 for i in range(6)):
            return True
    return any(segments_meet(p, q, corners[i], corners[(i + 1) % 6]) for i in range(6))


def hexside_corners8(a: tuple[int, int], d: int) -> tuple[Point, Point]:
    """The two corners of hex ``a``'s hexside in direction ``d`` (vertices d and d - 1)."""
    corners = hex_corners8(a)
    return corners[d % 6], corners[(d - 1) % 6]
