"""The campaign map (spec 2.8, G-01, G-12, G-47): points 01-36, rivers with banks, railway, roads.

Points are numbered ``(row - 1) * 6 + column`` on a 6x6 flat-top map whose even columns sit half a
hex lower (the scenario's map is ``orientation = "flat"``, ``parity = "odd"``). Orders and events
name points by these numbers; ``0`` in a path means "off the map across the enemy's edge".

A river runs *through* its hexes: in each river hex its two river hexsides split the other four
into two banks, and leaving a river hex toward the other bank than the one it was entered from is
a crossing, allowed only at an intact bridge or (not for tanks or armoured cars) a ford.
Everything here is static except bridge states, which the caller passes in.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.engine.hexgrid import Hex, hex_neighbor, offset_to_axial

if TYPE_CHECKING:
    from hexwar.engine.scenario import Scenario

SIZE = 6
POINTS = tuple(range(1, SIZE * SIZE + 1))
OFF_MAP = 0
VEGETATION = ("scrub", "forest")
BASE_TERRAIN = {
    "open": "open ground / desert",
    "scrub": "vegetation (North Africa: scrub, G-10): vehicles test for bogging (G-63)",
    "forest": "vegetation (forest): vehicles test for bogging (G-63)",
    "hills": "hills: vehicles test for bogging (G-63); defender x5/4 (G-P)",
    "heights": "heights (G-13): defender x5/4 (G-P)",
    "mountains": "mountains and cliffs: no mechanised company may enter (13, G-64)",
    "town": "village or town: defender x5/4 (G-P); an objective (G-02)",
    "city": "large city: defender x5/4 (G-P)",
}
CROSSINGS = ("none", "ford", "road_bridge", "rail_bridge")
# Defender cover and attacker vehicle penalties (G-P step 3)
COVER = ("scrub", "forest", "hills", "heights", "town", "city")
VEHICLE_HINDRANCE = ("scrub", "forest", "hills", "town", "city")


def point_of(col: int, row: int) -> int:
    """1-based column and row -> point number."""
    return (row - 1) * SIZE + col


def col_row(p: int) -> tuple[int, int]:
    return (p - 1) % SIZE + 1, (p - 1) // SIZE + 1


def _hex_of(p: int) -> Hex:
    c, r = col_row(p)
    return offset_to_axial(c - 1, r - 1, "flat", "odd")


_HEXES = {p: _hex_of(p) for p in POINTS}
_BY_HEX = {h: p for p, h in _HEXES.items()}


def hex_of(p: int) -> Hex:
    return _HEXES[p]


def point_at(h: tuple[int, int] | None) -> int | None:
    return None if h is None else _BY_HEX.get(Hex(*h))


def _neighbours(p: int) -> tuple[tuple[int, int], ...]:
    h = _HEXES[p]
    out = []
    for d in range(6):
        n = _BY_HEX.get(hex_neighbor(h, d))
        if n is not None:
            out.append((d, n))
    return tuple(out)


_NEIGHBOURS = {p: _neighbours(p) for p in POINTS}
_DIRECTION = {(p, n): d for p in POINTS for d, n in _NEIGHBOURS[p]}


def neighbours(p: int) -> tuple[tuple[int, int], ...]:
    """(direction, point) for every on-map neighbour of ``p``, by direction."""
    return _NEIGHBOURS.get(p, ())


def adjacent(a: int, b: int) -> bool:
    return (a, b) in _DIRECTION


def direction(a: int, b: int) -> int | None:
    return _DIRECTION.get((a, b))


def _distance(a: int, b: int) -> int:
    ha, hb = hex_of(a), hex_of(b)
    dq, dr = ha[0] - hb[0], ha[1] - hb[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


_DISTANCE = {(a, b): _distance(a, b) for a in POINTS for b in POINTS}


def distance(a: int, b: int) -> int:
    """Hex distance via the cube coordinates of spec 2.8 (the axial form is the same); a table
    for the map's points, as the computer asks it hundreds of thousands of times a game."""
    d = _DISTANCE.get((a, b))
    return _distance(a, b) if d is None else d


def edge_points(edge: str) -> list[int]:
    rows = {"north": [(c, 1) for c in range(1, 7)], "south": [(c, 6) for c in range(1, 7)],
            "west": [(1, r) for r in range(1, 7)], "east": [(6, r) for r in range(1, 7)]}[edge]
    return sorted(point_of(c, r) for c, r in rows)


def rows_from(p: int, edge: str) -> int:
    c, r = col_row(p)
    return {"north": r - 1, "south": SIZE - r, "west": c - 1, "east": SIZE - c}[edge]


OPPOSITE_EDGE = {"north": "south", "south": "north", "east": "west", "west": "east"}


@dataclass(frozen=True)
class CampaignMap:
    terrain: dict[int, str]
    roads: frozenset[tuple[int, int]]          # (a, b) with a < b: a road joins the two points
    railway: tuple[int, ...]                   # the railway chain, north to south
    river_sides: dict[int, tuple[int, int]]     # river hex -> its two river directions
    crossing: dict[int, str]                   # river hex -> none | ford | road_bridge | rail_bridge
    objectives: tuple[int, ...]

    def base(self, p: int) -> str:
        return self.terrain.get(p, "open")

    def road(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.roads

    def has_road(self, p: int) -> bool:
        return any(p in pair for pair in self.roads)

    def bank(self, p: int, d: int) -> str | None:
        """Which bank of river hex ``p`` the hexside in direction ``d`` lies on ("a" or "b"), or
        None when ``d`` is one of the river's own hexsides or ``p`` holds no river."""
        sides = self.river_sides.get(p)
        if sides is None or d in sides:
            return None
        lo, hi = sides
        return "a" if lo < d < hi else "b"

    def crossing_allowed(self, p: int, bridges: dict[str, str], fords_ok: bool) -> bool:
        kind = self.crossing.get(p, "none")
        if kind == "none":
            return False
        if kind == "ford":
            return fords_ok
        return bridges.get(str(p), "intact") == "intact"

    def step(self, p: int, bank: str | None, n: int, bridges: dict[str, str],
             fords_ok: bool) -> tuple[bool, str | None]:
        """Can a company in ``p`` (on ``bank`` of its river, if any) step to neighbour ``n``?
        Returns (allowed, its bank in ``n``)."""
        d = direction(p, n)
        if d is None:
            return False, None
        leaving = self.bank(p, d)
        if bank is not None and leaving is not None and leaving != bank:
            if not self.crossing_allowed(p, bridges, fords_ok):
                return False, None
        back = (d + 3) % 6
        if leaving is None and p in self.river_sides and n in self.river_sides:
            # along the river: the same bank continues into the next river hex (the hexes
            # either side of a shared hexside d meet at d+1 / d-1 here and back-1 / back+1 there)
            if bank is None:
                return True, None
            turn = 1 if self.bank(p, (d + 1) % 6) == bank else -1
            for k in (1, 2):
                nb = self.bank(n, (back - k * turn) % 6)
                if nb is not None:
                    return True, nb
            return True, None
        return True, self.bank(n, back)

    def rail_to_edge(self, edge: str, blocked: set[int], bridges: dict[str, str]) -> set[int]:
        """Railway hexes joined to ``edge`` by unbroken railway: no enemy, rail bridges intact."""
        chain = list(self.railway)
        if edge == "north":
            order = chain
        elif edge == "south":
            order = chain[::-1]
        else:
            return set()
        out: set[int] = set()
        for i, p in enumerate(order):
            if i == 0 and rows_from(p, edge) != 0:
                break
            if p in blocked:
                break
            if self.crossing.get(p) == "rail_bridge" and bridges.get(str(p), "intact") != "intact":
                break
            out.add(p)
        return out


def river_directions(chain: list[int]) -> dict[int, tuple[int, int]]:
    """The two river hexsides of each hex in a chain that runs edge to edge: towards the previous
    and next hex, and off the map at both ends (the off-map direction nearest to straight on)."""
    out: dict[int, tuple[int, int]] = {}
    for i, p in enumerate(chain):
        ds = []
        for j in (i - 1, i + 1):
            if 0 <= j < len(chain):
                ds.append(direction(p, chain[j]))
            else:
                inner = direction(p, chain[i + 1 if j < i else i - 1]) if len(chain) > 1 else 0
                off = [d for d in range(6) if d not in dict(neighbours(p))]
                pref = [(inner + 3 + k) % 6 for k in (0, 1, -1, 2, -2)]
                ds.append(next((d for d in pref if d in off), off[0] if off else None))
        a, b = ds
        out[p] = (min(a, b), max(a, b))  # type: ignore[type-var]
    return out


def parse_point(value: Any) -> int | None:
    """A point from a scenario: a CCRR label on the 6x6 map."""
    if not isinstance(value, str) or len(value) != 4 or not value.isdigit():
        return None
    c, r = int(value[:2]), int(value[2:])
    if not (1 <= c <= SIZE and 1 <= r <= SIZE):
        return None
    return point_of(c, r)


def map_problems(scenario: "Scenario") -> list[str]:
    """Everything wrong with the campaign map parts of a scenario (empty when fine)."""
    out = []
    m = scenario.map
    if (m.width, m.height, m.orientation, m.parity) != (SIZE, SIZE, "flat", "odd"):
        out.append("map: the campaign map is 6x6, orientation = \"flat\", parity = \"odd\" (spec 2.8)")
        return out
    rules = scenario.rules
    rail = rules.get("railway", [])
    if not isinstance(rail, list) or not all(parse_point(x) for x in rail):
        out.append("rules.railway: a list of CCRR points from the north edge to the south edge")
    else:
        pts = [parse_point(x) for x in rail]
        if pts and not all(adjacent(a, b) for a, b in zip(pts, pts[1:])):  # type: ignore[arg-type]
            out.append("rules.railway: consecutive railway points must be adjacent")
    rivers = rules.get("rivers", [])
    if not isinstance(rivers, list):
        out.append("rules.rivers: a list of rivers, each a list of CCRR points edge to edge")
        rivers = []
    for i, chain in enumerate(rivers):
        if not isinstance(chain, list) or len(chain) < 2 or not all(parse_point(x) for x in chain):
            out.append(f"rules.rivers[{i}]: a list of at least two CCRR points")
            continue
        pts = [parse_point(x) for x in chain]
        if not all(adjacent(a, b) for a, b in zip(pts, pts[1:])):  # type: ignore[arg-type]
            out.append(f"rules.rivers[{i}]: consecutive river points must be adjacent")
        elif len(set(pts)) != len(pts):
            out.append(f"rules.rivers[{i}]: a river visits a point twice")
        else:
            for end in (pts[0], pts[-1]):
                if len(neighbours(end)) == 6:  # type: ignore[arg-type]
                    out.append(f"rules.rivers[{i}]: a river runs edge to edge (ends on the map edge)")
                    break
    crossings = rules.get("crossings", {})
    if not isinstance(crossings, dict):
        out.append("rules.crossings: a table point = \"ford\" | \"road_bridge\" | \"rail_bridge\"")
    else:
        for k, v in crossings.items():
            if parse_point(k) is None or v not in CROSSINGS:
                out.append(f"rules.crossings.{k}: a CCRR point = one of {', '.join(CROSSINGS)}")
    objectives = rules.get("objectives", [])
    if not isinstance(objectives, list) or not all(parse_point(x) for x in objectives):
        out.append("rules.objectives: a list of CCRR points")
    return out


_CACHE: dict[str, CampaignMap] = {}


def campaign_map(scenario: "Scenario") -> CampaignMap:
    """The campaign map of a checked scenario, built once per scenario content."""
    key = scenario.source_hash + "|" + scenario.id
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    m = scenario.map
    terrain = {p: m.terrain_at(hex_of(p)) for p in POINTS}
    roads = set()
    for side in m.roads:
        a = point_at(side.hex)
        b = point_at(hex_neighbor(side.hex, side.dir))
        if a is not None and b is not None:
            roads.add((min(a, b), max(a, b)))
    rules = scenario.rules
    railway = tuple(p for x in rules.get("railway", []) if (p := parse_point(x)))
    river_sides: dict[int, tuple[int, int]] = {}
    for chain in rules.get("rivers", []):
        river_sides.update(river_directions([p for x in chain if (p := parse_point(x))]))
    crossing = {p: "none" for p in river_sides}
    for k, v in rules.get("crossings", {}).items():
        p = parse_point(k)
        if p in river_sides:
            crossing[p] = v
    for p in railway:
        if p in river_sides:
            crossing[p] = "rail_bridge"
    objectives = set(p for x in rules.get("objectives", []) if (p := parse_point(x)))
    objectives.update(p for p in POINTS if terrain[p] in ("town", "city"))
    objectives.update(p for p, c in crossing.items() if c == "rail_bridge")
    cm = CampaignMap(terrain, frozenset(roads), railway, river_sides, crossing,
                     tuple(sorted(objectives)))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = cm
    return cm


def cheapest(cmap: CampaignMap, start: int, start_bank: str | None, goals: set[int],
             blocked: set[int], bridges: dict[str, str], fords_ok: bool) -> int | None:
    """Supply-line cost in half points (G-47): 2 for the start point, 1 per road step, 2 per other
    step, through points not in ``blocked``; None if no goal is reachable."""
    best: dict[tuple[int, str | None], int] = {(start, start_bank): 2}
    heap: list[tuple[int, int, str]] = [(2, start, start_bank or "")]
    while heap:
        cost, p, b = heapq.heappop(heap)
        bank = b or None
        if best.get((p, bank), 1 << 30) < cost:
            continue
        if p in goals:
            return cost
        for _, n in neighbours(p):
            if n in blocked:
                continue
            ok, nb = cmap.step(p, bank, n, bridges, fords_ok)
            if not ok:
                continue
            c = cost + (1 if cmap.road(p, n) else 2)
            if c < best.get((n, nb), 1 << 30):
                best[(n, nb)] = c
                heapq.heappush(heap, (c, n, nb or ""))
    return None
