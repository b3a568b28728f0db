"""Who is where and what they are: unit classes, formations, states, terrain access.

One stand = one hex (spec 21.2). A unit's hex is its anchor; ``stand_hexes`` says where all its
stands are (the 21.5 layout, or the stands a disordered unit keeps in ``marks.stands``); see
NOTES.md "H-1". ``strength`` counts stands or gunners. Formation and state are unit marks:

* ``formation``: line / column / square / limbered / unlimbered / standard;
* ``state``: formed / disordered / fleeing (off the table) / restored (rallied, off the table,
  waiting to appear) / reserve / destroyed / captured;
* ``dismounted``: mounted chasseurs fighting on foot (9.9).

``facing`` is a vertex facing 0..5 (see geometry); squares and disordered units have none.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.engine.state import State, Unit

from . import data as D
from .footprint import layout as _layout

ON_TABLE = ("formed", "disordered")


def arm(u: Unit) -> str:
    return str(u.stat("arm", "inf"))


def state_of(u: Unit) -> str:
    return str(u.marks.get("state", "formed"))


def formation(u: Unit) -> str:
    return str(u.marks.get("formation", u.stat("formation", "standard")))


def on_table(u: Unit) -> bool:
    return u.hex is not None and state_of(u) in ON_TABLE and u.strength > 0


def is_general(u: Unit) -> bool:
    return arm(u) == "gen"


def is_combat(u: Unit) -> bool:
    """Infantry, cavalry and artillery (22.6, 22.10)."""
    return arm(u) in ("inf", "cav", "art")


def mounted(u: Unit) -> bool:
    return arm(u) == "cav" and not u.marks.get("dismounted")


def foot(u: Unit) -> bool:
    """Infantry, dismounted chasseurs, engineers and gunners outside their battery: who may
    enter forest, swamp and ravine, at 2 MP (22.7)."""
    return arm(u) in ("inf", "eng") or (arm(u) == "cav" and bool(u.marks.get("dismounted"))) \
        or (arm(u) == "art" and formation(u) == "gunners")


def infantry_like(u: Unit) -> bool:
    """Infantry or dismounted chasseurs: the arm that forms squares and lines on foot."""
    return arm(u) == "inf" or (arm(u) == "cav" and bool(u.marks.get("dismounted")))


def guard(u: Unit) -> bool:
    return u.kind == "INF_GUARD" or bool(u.stat("guard", False))


def experience(u: Unit) -> int:
    """Experience score (3.0, 22.1): guard units are always veterans."""
    grade = "veteran" if guard(u) else u.grade
    return D.EXPERIENCE.get(grade, D.EXPERIENCE["recruit"])


def veteran(u: Unit) -> bool:
    return guard(u) or u.grade == "veteran"


def melee_rank(u: Unit) -> int:
    rank = int(u.stat("rank", 0))
    if arm(u) == "cav" and guard(u):
        rank += D.GUARD_CAV_RANK
    return rank


def melee_dice(u: Unit) -> int:
    return max(1, int(u.stat("melee", 1)))


def morale_dice(u: Unit) -> int:
    n = int(u.stat("morale", 1))
    if guard(u) and arm(u) in ("cav", "art"):
        n += D.GUARD_MORALE_DICE
    return max(1, n)


def garrison(u: Unit) -> bool:
    """In a settlement (20, 22.7): occupied by the occupy action."""
    return bool(u.marks.get("garrison"))


def faced(u: Unit) -> bool:
    """Whether the unit has front, flanks and rear (5.6); squares, disordered units and
    settlement garrisons (22.7) do not."""
    if garrison(u):
        return False
    if state_of(u) == "disordered" and arm(u) != "art":
        return False
    return formation(u) != "square"


def facing(u: Unit) -> int | None:
    return u.facing if faced(u) else None


def front_rank(u: Unit) -> int:
    """Stands in the front rank: what a wheel costs per 60 degrees (21.8)."""
    return u.strength if formation(u) == "line" and arm(u) in ("inf", "cav") else 1


def gun_id(u: Unit) -> str:
    """Which gun a battery serves: its own, or the one its gunners re-manned (22.9). A gun is
    named by the battery it came with."""
    return str(u.marks.get("gun", u.id))


def gun_kind(u: Unit) -> str:
    """The type of the gun a battery serves, which sets its movement and fire (21.3, 22.2)."""
    return str(u.marks.get("gun_kind", u.kind))


def formations_for(u: Unit) -> tuple[str, ...]:
    if arm(u) == "cav" and u.marks.get("dismounted"):
        return D.FORMATIONS["dismounted"]
    return D.FORMATIONS.get(arm(u), ("standard",))


def allowance(u: Unit) -> tuple[int, int, int | None]:
    """(forward, backward, sideways) MP in the current formation; disordered units cannot move."""
    if state_of(u) == "disordered":
        return 0, 0, 0
    a, f = arm(u), formation(u)
    if a == "gen":
        return D.GENERAL_MOVE, D.GENERAL_MOVE, D.GENERAL_MOVE
    if infantry_like(u):
        return D.MOVE_INF.get(f, (0, 0, 0))
    if a == "cav":
        return D.MOVE_CAV.get(u.kind, D.MOVE_CAV["CAV_LIGHT"]).get(f, (0, 0, 0))
    if a == "art" and f == "gunners":
        back = D.MOVE_GUNNERS if D.GUNNERS_BACKWARD_FULL else D.MOVE_GUNNERS // 2
        return D.MOVE_GUNNERS, back, None
    if a == "art":
        mp = D.MOVE_ART.get(gun_kind(u), D.MOVE_ART["ART_MEDIUM"]).get(f, 0)
        return mp, mp, None
    return D.MOVE_OTHER.get(u.kind, (2, 1, None))


def encode_stands(hexes: Iterable[Hex]) -> str:
    """Stored stand hexes as a mark: "q,r;q,r;..." in the unit's own stand order."""
    return ";".join(f"{h[0]},{h[1]}" for h in hexes)


@lru_cache(maxsize=16384)
def decode_stands(text: str) -> tuple[Hex, ...]:
    out = []
    for part in text.split(";"):
        q, r = part.split(",")
        out.append(Hex(int(q), int(r)))
    return tuple(out)


def compact(u: Unit) -> bool:
    """Units whose stands all stand in their one hex: everything but infantry and cavalry, a
    settlement garrison (laid out on its village hexes, one stand a hex, 22.7, not from a
    template) and a unit on a fort wall (22.7)."""
    return arm(u) not in ("inf", "cav") or garrison(u) or bool(u.marks.get("on_wall"))


def layout_of(u: Unit, anchor: Hex, facing: int, form: str | None = None,
              stands: int | None = None, outside: bool = False) -> tuple[Hex, ...]:
    """The hexes a formed unit's stands would fill with its anchor in ``anchor`` facing
    ``facing`` (21.5): the line's left end, the column's head, the square's pivot.
    ``outside``: as it will stand once out of its settlement or off its wall."""
    n = u.strength if stands is None else stands
    if arm(u) not in ("inf", "cav") or (compact(u) and not outside):
        return (anchor,)
    return _layout(formation(u) if form is None else form, Hex(anchor[0], anchor[1]), facing, n,
                   bool(u.marks.get("mirror")))


def stand_hexes(u: Unit) -> tuple[Hex, ...]:
    """The hexes the unit's stands (or a general's figure) stand in; empty off the table.
    Stored hexes (``marks.stands``: a disordered unit, or stands placed off their layout by an
    attack) win; otherwise the 21.5 layout from the anchor ``u.hex`` and the facing."""
    if not on_table(u):
        return ()
    stored = u.marks.get("stands")
    if isinstance(stored, str) and stored:
        return decode_stands(stored)
    return layout_of(u, u.hex, u.facing)


def freeze_stands(u: Unit) -> None:
    """Keep the stands exactly where they are now (a unit becoming disordered, 21.5 [P])."""
    if on_table(u) and not compact(u) and u.strength > 1:
        u.mark("stands", encode_stands(stand_hexes(u)))


def unfreeze_stands(u: Unit) -> None:
    u.marks.pop("stands", None)


def move_stands(u: Unit, d: int) -> None:
    """Translate a unit one hex in direction ``d``, every stand with it (21.8)."""
    stored = u.marks.get("stands")
    u.hex = hex_neighbor(u.hex, d)
    if isinstance(stored, str) and stored:
        u.mark("stands", encode_stands(hex_neighbor(h, d) for h in decode_stands(stored)))


def drop_stand(u: Unit) -> None:
    """A lost stand leaves from the rear of the layout (the line's right end, the column's
    tail); a stored footprint loses its last stand."""
    stored = u.marks.get("stands")
    if isinstance(stored, str) and stored:
        rest = decode_stands(stored)[:max(1, u.strength)]
        if len(rest) <= 1 or u.strength <= 1:
            u.marks.pop("stands", None)
            if rest:
                u.hex = rest[0]
        else:
            u.mark("stands", encode_stands(rest))


def near(a: Iterable[Hex], b: Iterable[Hex]) -> int:
    """Hex distance between the nearest of two sets of hexes (21.2: source distances run
    between nearest points); 99 when either is empty."""
    bs = tuple(b)
    return min((hex_distance(x, y) for x in a for y in bs), default=99)


def gap(u: Unit, t: Unit) -> int:
    """Hex distance between the two units' nearest stands (21.2)."""
    return near(stand_hexes(u), stand_hexes(t))


def any_on(hmap: HexMap, u: Unit, terrains: tuple[str, ...]) -> bool:
    """Whether any part of the unit stands on one of ``terrains`` (7.9: "any part, however small")."""
    return any(hmap.terrain_at(h) in terrains for h in stand_hexes(u))


def head_stands(u: Unit) -> tuple[Hex, ...]:
    """The stands whose front is the unit's front for 21.6's "middle of the front": the whole
    line, else the head (the anchor) alone."""
    hexes = stand_hexes(u)
    return hexes if formation(u) == "line" else hexes[:1]


# --- the table ---------------------------------------------------------------------------------
class View:
    """Occupancy of the table at one moment, built once per question."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.stands: dict[Hex, Unit] = {}      # combat units, engineers, train
        self.generals: dict[Hex, list[Unit]] = {}
        # bridges closed by a barricade still standing (22.7, 22.9)
        self.barricades: frozenset[Hex] = frozenset(Hex(q, r) for q, r in state.vars.get("barricades", []))
        for uid in sorted(state.units):
            u = state.units[uid]
            if not on_table(u):
                continue
            if is_general(u):
                self.generals.setdefault(u.hex, []).append(u)
            else:
                for h in stand_hexes(u):
                    self.stands[h] = u

    def enemy_stands(self, side: str) -> list[Unit]:
        """The enemy units on the table (not generals), each once, in the order of their
        first stand on the map."""
        out: dict[str, Unit] = {}
        for _h, u in sorted(self.stands.items()):
            if u.side != side:
                out.setdefault(u.id, u)
        return list(out.values())

    def adjacent_enemy(self, h: tuple[int, int], side: str) -> bool:
        """Whether an enemy stand touches hex ``h`` (or stands in it)."""
        return any(e.side != side and hex_distance(x, h) <= 1 for x, e in self.stands.items())

    def nearest_enemy_d(self, h: tuple[int, int], side: str) -> int:
        ds = [hex_distance(x, h) for x, e in self.stands.items() if e.side != side]
        return min(ds) if ds else 99


def mover_class(u: Unit) -> str:
    """Terrain treats units in four classes: generals, foot, batteries in firing position (no
    ford, 22.7) and everything else."""
    if is_general(u):
        return "gen"
    if foot(u):
        return "foot"
    return "unlimbered" if arm(u) == "art" and formation(u) == "unlimbered" else "wheeled"


def enter_cost(hmap: HexMap, u: Unit, a: Hex, b: Hex) -> int | None:
    """MP to step from ``a`` into ``b`` (22.7), or None when the unit may not go there."""
    table = hmap.__dict__.get("_napoleonica_costs")
    if table is None:
        table = {}
        object.__setattr__(hmap, "_napoleonica_costs", table)
    key = (mover_class(u), a, b)
    if key not in table:
        table[key] = _step_cost(hmap, key[0], a, b)
    return table[key]


def step_cost(hmap: HexMap, view: "View", u: Unit, a: Hex, b: Hex) -> int | None:
    """``enter_cost`` on the table as it is now: a barricaded bridge may not be entered until
    the barricade is dismantled (22.7)."""
    if b in view.barricades:
        return None
    return enter_cost(hmap, u, a, b)


def barricade_marks(hmap: HexMap) -> list[tuple[Hex, Hex]]:
    """The map's ``barricade`` hexsides, each as its two hexes (lower first)."""
    out = []
    for side, feats in hmap.hexside_features.items():
        if "barricade" in feats:
            a, b = side.hex, hex_neighbor(side.hex, side.dir)
            out.append((min(a, b), max(a, b)))
    return sorted(out)


def barricaded_bridges(hmap: HexMap) -> list[list[int]]:
    """The bridges a scenario barricades, as sorted [q, r] rows: a ``barricade`` hexside drawn
    on a side of a bridge hex closes that bridge (the game keeps the ones still standing in its
    state)."""
    out = {tuple(h) for pair in barricade_marks(hmap) for h in pair if is_bridge(hmap, h)}
    return [list(h) for h in sorted(out)]


def is_bridge(hmap: HexMap, h: Hex) -> bool:
    """A bridge is a river hex with a road through it (22.7)."""
    return h in hmap and hmap.terrain_at(h) == "river" and hmap.on_road(h)


def _step_cost(hmap: HexMap, mover: str, a: Hex, b: Hex) -> int | None:
    if b not in hmap:
        return None
    on_foot = mover in ("foot", "gen")
    t = hmap.terrain_at(b)
    if t == "village" and mover != "gen":
        return None          # only the occupy action enters a settlement ([F] 20)
    feats = hmap.features_between(a, b)
    if t == "rampart":
        return None          # only the climb action (22.7)
    if "courtyard" in (t, hmap.terrain_at(a)) and hmap.terrain_at(a) != t:
        # in or out of a fort: only through the gate, as the gate action (generals walk it)
        return 1 if mover == "gen" and "gate" in feats else None
    if t == "river" and hmap.road_between(a, b):
        return 1             # a bridge: along the road only (22.7)
    if "wall" in feats or t in ("lake", "river"):
        return None
    if t == "ford" and mover == "unlimbered":
        return None
    cost = 2 if t == "ford" else 1
    if t in ("forest", "swamp", "ravine"):
        if not on_foot:
            return None
        cost = 2
    climb = hmap.elevation_at(b) - hmap.elevation_at(a)
    if climb > 0:
        cost += climb
    if "obstacle" in feats or "earthwork" in feats:
        cost += 1
    return cost


def cover(hmap: HexMap, state: State | None, h: Hex, mods: dict) -> int:
    """The cover modifier of a hex (22.2, 22.4, 22.7): forest or settlement, a fortified
    settlement more; 0 in the open."""
    t = hmap.terrain_at(h)
    if t == "village" and state is not None and [h[0], h[1]] in state.vars.get("fortified", []):
        return int(mods["fortified_cover"])
    if t in ("forest", "village", "rampart"):
        return int(mods["cover"])
    return 0


def behind_earthwork(hmap: HexMap, battery: Hex, other: Hex) -> bool:
    """Whether a battery in ``battery`` has an artillery fortification between it and ``other``
    (spec 3.3, 17, 22.7): an earthwork on a hexside of its hex that faces ``other`` (the hex
    across it is nearer to ``other``)."""
    d = hex_distance(battery, other)
    for k in range(6):
        n = hex_neighbor(battery, k)
        if "earthwork" in hmap.features_between(battery, n) and hex_distance(n, other) < d:
            return True
    return False


def edge_of(scenario, side: str) -> str:
    return scenario.side(side).home_edge or ("south" if side == scenario.sides[0].id else "north")
