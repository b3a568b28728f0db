"""An area map: named spaces joined by connections, and sea zones that join their ports.

The other kind of board (``HexMap`` is the first): a point-to-point map of the kind strategic
games print, where a space is a region, not a cell. Nothing here comes from coordinates: a
space's neighbours are exactly the spaces the connection list joins it to, and ``at`` (where the
space is drawn) is for display only. A sea zone is a hyper-edge: every port on it reaches every
other port on it, but only for a side the rules let use the zone (its controller), which is the
game state's and the ruleset's business, so the board answers for a given set of usable zones.

Like a hex map, an area map never changes during a game: who controls a space or a zone, and
what stands in it, lives in the state. The attributes are plain strings and integers whose
meaning (a terrain class's stacking limit, what a fortress level scores) belongs to the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

#: which kind of board this is (``HexMap.kind`` is "hex"): what a loader, a screen or a test
#: asks before reading the board's own fields; a ruleset knows its kind and never asks
AREA = "area"


@dataclass(frozen=True)
class Space:
    """One space as the map prints it.

    ``terrain`` is the ruleset's class (a stacking class, say); ``fort`` a fortress level (0 for
    none); ``vp`` the number printed beside it, None where nothing is printed (the ruleset's
    default then applies); ``sea_zones`` the zones a port touches (empty: not a port);
    ``control`` the side that holds it at the start ("" for none); ``home`` the power whose home
    space it is; ``capital`` the power whose capital it is; ``at`` a (column, row) for drawing."""

    id: str
    name: str
    terrain: str
    fort: int = 0
    vp: int | None = None
    sea_zones: tuple[str, ...] = ()
    control: str = ""
    home: str = ""
    capital: str = ""
    at: tuple[int, int] | None = None

    @property
    def is_port(self) -> bool:
        return bool(self.sea_zones)


@dataclass(frozen=True)
class Connection:
    """A line between two spaces; ``kind`` is an attribute a ruleset may give meaning (a
    mountain pass, a river crossing), "" for a plain line."""

    a: str
    b: str
    kind: str = ""


@dataclass(frozen=True)
class SeaZone:
    """A sea zone: its controller at the start ("" for none) and whether play can change it
    (``contestable`` false: the scenario fixes who controls it for the whole game)."""

    id: str
    name: str
    control: str = ""
    contestable: bool = True


@dataclass(frozen=True)
class AreaMap:
    """Spaces, the connections between them and the sea zones their ports touch.

    Neighbour lists, the ports of each zone and a look-up by id are built once; every list a
    method returns is in id order, so rules that walk it are deterministic."""

    spaces: tuple[Space, ...]
    connections: tuple[Connection, ...] = ()
    sea_zones: tuple[SeaZone, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)

    kind = AREA

    def __post_init__(self) -> None:
        by_id = {s.id: s for s in self.spaces}
        neigh: dict[str, set[str]] = {s.id: set() for s in self.spaces}
        lines: dict[tuple[str, str], Connection] = {}
        for c in self.connections:
            if c.a in neigh and c.b in neigh and c.a != c.b:
                neigh[c.a].add(c.b)
                neigh[c.b].add(c.a)
                lines[(c.a, c.b)] = c
                lines[(c.b, c.a)] = c
        ports: dict[str, list[str]] = {z.id: [] for z in self.sea_zones}
        for s in sorted(self.spaces, key=lambda s: s.id):
            for z in s.sea_zones:
                if z in ports:
                    ports[z].append(s.id)
        set_ = object.__setattr__
        set_(self, "_by_id", by_id)
        set_(self, "_neighbors", {k: tuple(sorted(v)) for k, v in neigh.items()})
        set_(self, "_lines", lines)
        set_(self, "_ports", {k: tuple(v) for k, v in ports.items()})
        set_(self, "_zones", {z.id: z for z in self.sea_zones})

    # --- membership and names -------------------------------------------------------------
    def __contains__(self, space_id: object) -> bool:
        return space_id in self._by_id  # type: ignore[attr-defined]

    def ids(self) -> tuple[str, ...]:
        """Every space id, sorted."""
        return tuple(sorted(self._by_id))  # type: ignore[attr-defined]

    def space(self, space_id: str) -> Space:
        """The space with this id; KeyError for an unknown id."""
        return self._by_id[space_id]  # type: ignore[attr-defined]

    def label(self, space_id: str) -> str:
        """What a player reads for a space: its name (the id for an unknown one)."""
        s = self._by_id.get(space_id)  # type: ignore[attr-defined]
        return s.name if s is not None else str(space_id)

    def parse(self, text: str) -> str:
        """A space typed by a person: its id, its name or a label, case-insensitive."""
        by_id = self._by_id  # type: ignore[attr-defined]
        if text in by_id:
            return text
        low = text.strip().casefold()
        for sid in sorted(by_id):
            if sid.casefold() == low or by_id[sid].name.casefold() == low:
                return sid
        for name, sid in sorted(self.labels.items()):
            if name.casefold() == low and sid in by_id:
                return sid
        raise ValueError(f"no space named {text!r} on this map")

    # --- the land graph -------------------------------------------------------------------
    def neighbors(self, space_id: str) -> tuple[str, ...]:
        """The spaces a connection joins ``space_id`` to, in id order (land only)."""
        return self._neighbors.get(space_id, ())  # type: ignore[attr-defined]

    def connection(self, a: str, b: str) -> Connection | None:
        """The line between ``a`` and ``b``, or None when they are not adjacent."""
        return self._lines.get((a, b))  # type: ignore[attr-defined]

    def components(self) -> list[tuple[str, ...]]:
        """The connected parts of the land graph, each sorted, largest first (then by first
        id): one part for a map where every space can be reached from every other by land."""
        seen: set[str] = set()
        parts: list[tuple[str, ...]] = []
        for start in self.ids():
            if start in seen:
                continue
            part, todo = {start}, [start]
            while todo:
                for n in self.neighbors(todo.pop()):
                    if n not in part:
                        part.add(n)
                        todo.append(n)
            seen |= part
            parts.append(tuple(sorted(part)))
        return sorted(parts, key=lambda p: (-len(p), p[0]))

    # --- the sea --------------------------------------------------------------------------
    def zone(self, zone_id: str) -> SeaZone:
        return self._zones[zone_id]  # type: ignore[attr-defined]

    def ports(self, zone_id: str) -> tuple[str, ...]:
        """The ports on a sea zone, in id order."""
        return self._ports.get(zone_id, ())  # type: ignore[attr-defined]

    def sea_neighbors(self, space_id: str, usable: Iterable[str]) -> tuple[str, ...]:
        """The ports ``space_id`` reaches in one step by sea, through the zones in ``usable``
        that it touches: the hyper-edge of each such zone, less the port itself. A space that
        is not a port reaches none."""
        allowed = set(usable)
        out: set[str] = set()
        for z in self.space(space_id).sea_zones:
            if z in allowed:
                out.update(self.ports(z))
        out.discard(space_id)
        return tuple(sorted(out))

    def reach(self, start: str, usable: Iterable[str], passable=None) -> tuple[str, ...]:  # noqa: ANN001
        """Every space joined to ``start`` by land connections and the sea hyper-edges of the
        ``usable`` zones, through spaces ``passable(space_id)`` accepts (all when None; the
        start and the end of each step must pass). Sorted; ``start`` included."""
        zones = tuple(sorted(set(usable)))
        if passable is not None and not passable(start):
            return ()
        found, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for n in self.neighbors(here) + self.sea_neighbors(here, zones):
                if n not in found and (passable is None or passable(n)):
                    found.add(n)
                    todo.append(n)
        return tuple(sorted(found))


__all__ = ["AREA", "AreaMap", "Connection", "SeaZone", "Space"]
