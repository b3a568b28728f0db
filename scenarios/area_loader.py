"""Read and check an area map (``[map] kind = "area"``) and a scenario's cards.

The other half of ``loader.py``'s map reading: spaces (``[[spaces]]``), sea zones (``[[seas]]``)
and the connections between spaces (``map.connections``, one ``["a", "b"]`` pair a line, an
optional third item naming the connection's kind). Problems go to the loader's context as
``field: what`` with the file line, like every other problem; nothing here raises.
"""

from __future__ import annotations

import re
from typing import Any

from hexwar.engine.areamap import AreaMap, Connection, SeaZone, Space

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
MAX_SPACES = 500
SPACE_KEYS = {"id", "name", "terrain", "fort", "vp", "sea_zones", "control", "home", "capital", "at"}
SEA_KEYS = {"id", "name", "control", "contestable"}
CARD_KEYS = {"id", "deck", "title", "text", "value", "add_in_year", "effect", "side", "space",
             "leader", "power", "amount", "zone", "cause"}
DECKS = ("event", "action")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(ctx: Any, table: dict, key: str, where: str, default: str = "") -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        ctx.bad(f"{where}.{key}", f"expected text, got {type(value).__name__}")
        return default
    return value


def build_area_map(ctx: Any, m: dict, data: dict, ruleset: Any, side_ids: list[str]) -> AreaMap | None:
    """The area map of a scenario file, or None when it is too broken to use."""
    for key in m:
        if key not in ("kind", "connections", "labels"):
            ctx.bad(f"map.{key}", "an area map has kind, connections and labels; its spaces "
                                  "are [[spaces]] and its sea zones [[seas]]")
    terrains = set(getattr(ruleset, "terrain_types", {}) or ()) if ruleset else None
    seas = _build_seas(ctx, data.get("seas", []), side_ids)
    sea_ids = {z.id for z in seas}
    spaces = _build_spaces(ctx, data.get("spaces"), terrains, sea_ids, side_ids)
    known = {s.id for s in spaces}
    lines = _build_connections(ctx, m.get("connections", []), known)
    labels: dict[str, str] = {}
    raw_labels = m.get("labels", {})
    if not isinstance(raw_labels, dict):
        ctx.bad("map.labels", "expected a table of name = \"space id\"")
    else:
        for name, sid in raw_labels.items():
            if sid not in known:
                ctx.bad(f"map.labels.{name}", f"no space {sid!r} on the map")
            else:
                labels[name] = sid
    if not spaces:
        return None
    board = AreaMap(tuple(spaces), tuple(lines), tuple(seas), labels)
    used = {z for s in spaces for z in s.sea_zones}
    for z in seas:
        if z.id not in used:
            ctx.bad(f"seas[{seas.index(z)}].id", f"sea zone {z.id!r} has no port")
    parts = _sea_and_land_parts(board)
    if len(parts) > 1:
        main = parts[0]
        for part in parts[1:]:
            ctx.bad("map.connections", f"the map is not connected: {', '.join(part)} cannot be "
                                       f"reached from {main[0]} by land or sea")
    return board


def _sea_and_land_parts(board: AreaMap) -> list[tuple[str, ...]]:
    """The map's parts when every sea zone may be crossed (an island joined by sea is part of
    the map; a space nothing joins is not)."""
    zones = [z.id for z in board.sea_zones]
    seen: set[str] = set()
    parts = []
    for sid in board.ids():
        if sid not in seen:
            part = board.reach(sid, zones)
            seen.update(part)
            parts.append(part)
    return sorted(parts, key=lambda p: (-len(p), p[0]))


def _build_seas(ctx: Any, items: Any, side_ids: list[str]) -> list[SeaZone]:
    out: list[SeaZone] = []
    if not isinstance(items, list):
        ctx.bad("seas", "expected [[seas]] tables")
        return out
    for i, z in enumerate(items):
        where = f"seas[{i}]"
        if not isinstance(z, dict):
            ctx.bad(where, "expected a table")
            continue
        for key in sorted(set(z) - SEA_KEYS):
            ctx.bad(f"{where}.{key}", f"unknown field (known: {', '.join(sorted(SEA_KEYS))})")
        zid = z.get("id")
        if not isinstance(zid, str) or not _ID.match(zid):
            ctx.bad(f"{where}.id", "a sea zone needs an id of letters, digits, '-', '_' or '.'")
            continue
        if any(x.id == zid for x in out):
            ctx.bad(f"{where}.id", f"sea zone {zid!r} is defined twice")
            continue
        control = _text(ctx, z, "control", where)
        if control and control not in side_ids:
            ctx.bad(f"{where}.control", f"{control!r} is not a side ({', '.join(side_ids)})")
        contestable = z.get("contestable", True)
        if not isinstance(contestable, bool):
            ctx.bad(f"{where}.contestable", "expected true/false")
            contestable = True
        out.append(SeaZone(zid, _text(ctx, z, "name", where, zid) or zid, control, contestable))
    return out


def _build_spaces(ctx: Any, items: Any, terrains: set[str] | None, sea_ids: set[str],
                  side_ids: list[str]) -> list[Space]:
    out: list[Space] = []
    if not isinstance(items, list) or not items:
        ctx.bad("spaces", "an area map needs [[spaces]]")
        return out
    if len(items) > MAX_SPACES:
        ctx.bad("spaces", f"at most {MAX_SPACES} spaces")
        return out
    for i, s in enumerate(items):
        where = f"spaces[{i}]"
        if not isinstance(s, dict):
            ctx.bad(where, "expected a table")
            continue
        for key in sorted(set(s) - SPACE_KEYS):
            ctx.bad(f"{where}.{key}", f"unknown field (known: {', '.join(sorted(SPACE_KEYS))})")
        sid = s.get("id")
        if not isinstance(sid, str) or not _ID.match(sid):
            ctx.bad(f"{where}.id", "a space needs an id of letters, digits, '-', '_' or '.'")
            continue
        if any(x.id == sid for x in out):
            ctx.bad(f"{where}.id", f"space {sid!r} is defined twice")
            continue
        terrain = _text(ctx, s, "terrain", where)
        if not terrain:
            ctx.bad(f"{where}.terrain", "missing")
        elif terrains is not None and terrain not in terrains:
            ctx.bad(f"{where}.terrain", f"terrain {terrain!r} is not one of {', '.join(sorted(terrains))}")
        fort = s.get("fort", 0)
        if not _int(fort) or not 0 <= fort <= 3:
            ctx.bad(f"{where}.fort", "a fortress level is 0 (none) to 3")
            fort = 0
        vp = s.get("vp")
        if vp is not None and (not _int(vp) or vp < 0):
            ctx.bad(f"{where}.vp", "printed VP is a whole number, 0 or more")
            vp = None
        zones = s.get("sea_zones", [])
        if not isinstance(zones, list) or not all(isinstance(z, str) for z in zones):
            ctx.bad(f"{where}.sea_zones", "expected a list of sea zone ids")
            zones = []
        for z in zones:
            if z not in sea_ids:
                ctx.bad(f"{where}.sea_zones", f"no sea zone {z!r} in [[seas]]")
        control = _text(ctx, s, "control", where)
        if control and control not in side_ids:
            ctx.bad(f"{where}.control", f"{control!r} is not a side ({', '.join(side_ids)})")
        at = s.get("at")
        if at is not None and not (isinstance(at, list) and len(at) == 2 and all(_int(v) for v in at)):
            ctx.bad(f"{where}.at", "a drawing position is [column, row]")
            at = None
        out.append(Space(sid, _text(ctx, s, "name", where, sid) or sid, terrain, fort, vp,
                         tuple(z for z in zones if z in sea_ids), control,
                         _text(ctx, s, "home", where), _text(ctx, s, "capital", where),
                         tuple(at) if at else None))
    return out


def _build_connections(ctx: Any, items: Any, known: set[str]) -> list[Connection]:
    out: list[Connection] = []
    seen: set[tuple[str, str]] = set()
    if not isinstance(items, list):
        ctx.bad("map.connections", "expected a list of [\"space\", \"space\"] pairs")
        return out
    for i, c in enumerate(items):
        where = f"map.connections[{i}]"
        if not (isinstance(c, list) and len(c) in (2, 3) and all(isinstance(x, str) for x in c)):
            ctx.bad(where, "a connection is [\"space\", \"space\"] or [\"space\", \"space\", \"kind\"]")
            continue
        a, b = c[0], c[1]
        bad = [x for x in (a, b) if x not in known]
        for x in bad:
            ctx.bad(where, f"connection to unknown space {x!r}")
        if bad:
            continue
        if a == b:
            ctx.bad(where, f"{a} is connected to itself")
            continue
        key = (min(a, b), max(a, b))
        if key in seen:
            ctx.bad(where, f"{a} and {b} are connected twice")
            continue
        seen.add(key)
        out.append(Connection(a, b, c[2] if len(c) == 3 else ""))
    return out


def build_cards(ctx: Any, items: Any, side_ids: list[str]) -> tuple[dict[str, Any], ...]:
    """``[[cards]]``: each card's id, deck (event or action) and the fields its effect reads;
    what the effect means is the ruleset's (its ``check_scenario`` checks the rest)."""
    out: list[dict[str, Any]] = []
    if not isinstance(items, list):
        ctx.bad("cards", "expected [[cards]] tables")
        return ()
    for i, c in enumerate(items):
        where = f"cards[{i}]"
        if not isinstance(c, dict):
            ctx.bad(where, "expected a table")
            continue
        for key in sorted(set(c) - CARD_KEYS):
            ctx.bad(f"{where}.{key}", f"unknown field (known: {', '.join(sorted(CARD_KEYS))})")
        cid = c.get("id")
        if not isinstance(cid, str) or not _ID.match(cid):
            ctx.bad(f"{where}.id", "a card needs an id of letters, digits, '-', '_' or '.'")
            continue
        if any(x["id"] == cid for x in out):
            ctx.bad(f"{where}.id", f"card {cid!r} is defined twice")
            continue
        if c.get("deck") not in DECKS:
            ctx.bad(f"{where}.deck", f"a card's deck is one of {', '.join(DECKS)}")
            continue
        side = c.get("side")
        if side is not None and side not in side_ids:
            ctx.bad(f"{where}.side", f"{side!r} is not a side ({', '.join(side_ids)})")
        for key in ("value", "add_in_year", "amount"):
            if key in c and not _int(c[key]):
                ctx.bad(f"{where}.{key}", "expected a whole number")
        out.append({k: v for k, v in sorted(c.items())
                    if isinstance(v, (str, int, bool)) and not isinstance(v, float)})
    return tuple(out)
