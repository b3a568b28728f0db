"""Read and check scenario files (TOML). The format is documented in scenarios/FORMAT.md.

Every problem is collected, not just the first, and reported as ``file: where: what is wrong``
where "where" is a field path (``units[3].hex``) with the file line when it can be found. A bad
file raises ``ScenarioError`` carrying the whole list; nothing here prints a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hexwar.engine.blake import blake2b
from hexwar.engine.hexgrid import (
    DIRECTION_NAMES, ORIENTATIONS, PARITIES, Hex, hexside_between, offset_to_axial,
)
from hexwar.engine.hexmap import EDGES, HexMap
from hexwar.engine.plain import PlainRecord
from hexwar.engine.rulesets import KNOWN, get_ruleset
from hexwar.engine.scenario import DivisionSpec, Scenario, SideSpec, UnitSpec
from hexwar.engine.board import Board, Place

from .area_loader import build_area_map, build_cards

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
_FIELD = re.compile(r"^[a-z_]+(\[\d+\])?(\.[A-Za-z_]+(\[\d+\])?)*$")
MAX_MAP_SIDE = 200
MAX_UNITS = 2000


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``problems`` lists every reason."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(problems))


class _Ctx(PlainRecord):
    """What a check of one file needs: its name and text (for line numbers) and the problems
    found so far."""

    __match_args__ = ("path", "text", "problems")

    def __init__(self, path: str, text: str, problems: list[str]) -> None:
        self.path = path
        self.text = text
        self.problems = problems

    def bad(self, where: str, what: str) -> None:
        line = self.line_of(where)
        loc = f"{where} (line {line})" if line else where
        self.problems.append(f"{self.path}: {loc}: {what}")

    def line_of(self, where: str) -> int | None:
        """Best-effort file line for a field path such as ``units[2].hex`` or ``map.rows[4]``."""
        m = re.match(r"^(\w+)\[(\d+)\]", where)
        if m and m.group(1) in ("units", "sides", "divisions", "spaces", "seas", "cards"):
            hits = [i for i, ln in enumerate(self.text.splitlines(), 1)
                    if ln.strip() == f"[[{m.group(1)}]]"]
            idx = int(m.group(2))
            if idx < len(hits):
                field = where.split(".", 1)[1] if "." in where else None
                start = hits[idx]
                end = hits[idx + 1] if idx + 1 < len(hits) else None
                if field:
                    key = field.split("[")[0]
                    lines = self.text.splitlines()
                    for n in range(start, (end or len(lines) + 1) - 1):
                        if re.match(rf"^\s*{re.escape(key)}\s*=", lines[n]):
                            return n + 1
                return start
        m = re.match(r"^map\.(rows|connections)\[(\d+)\]", where)
        if m:
            lines = self.text.splitlines()
            for i, ln in enumerate(lines):
                if re.match(rf"^\s*{m.group(1)}\s*=", ln):
                    # rows are one per line after "rows = [" (the documented layout)
                    target = i + 2 + int(m.group(2))
                    return target if target <= len(lines) else None
        key = where.rsplit(".", 1)[-1]
        if re.match(r"^\w+$", key):
            for i, ln in enumerate(self.text.splitlines(), 1):
                if re.match(rf"^\s*{re.escape(key)}\s*=", ln):
                    return i
        return None


def builtin_dir() -> Path:
    # imported here: importlib.resources brings tempfile and random with it, about 4 ms that a
    # replay (which reads its scenario from the journal) never needs
    from importlib import resources
    return Path(str(resources.files("hexwar.scenarios")))


def builtin_paths() -> list[Path]:
    return sorted(builtin_dir().glob("*.toml"))


def find_scenario(name: str) -> Path:
    """A scenario by file path, or by the id of a built-in scenario."""
    p = Path(name)
    if p.suffix == ".toml" and p.exists():
        return p
    for path in builtin_paths():
        if path.stem == name:
            return path
    for path in builtin_paths():
        try:
            if load_scenario(path).id == name:
                return path
        except ScenarioError:
            continue
    raise ScenarioError(name, [f"{name}: no such scenario file or built-in scenario id "
                               f"(see 'hexwar scenarios')"])


def load_named(name: str) -> Scenario:
    """The scenario a user named: a ``.toml`` path or a built-in id. Raises ``ScenarioError``."""
    return load_scenario(find_scenario(name))


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(str(path), [f"{path}: cannot read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError:
        raise ScenarioError(str(path), [f"{path}: not UTF-8 text"]) from None
    return parse_scenario(text, str(path))


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    return scenario_from_data(parse_toml(text, path), text, path)


def parse_toml(text: str, path: str = "<scenario>") -> dict[str, Any]:
    """The TOML of a scenario file as plain data, not yet checked. ``tomllib`` is imported
    here, not with the module: a replay that finds the parse cached never needs it."""
    import tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(path, [f"{path}: TOML syntax: {exc}"]) from None


def scenario_from_data(data: dict[str, Any], text: str = "", path: str = "<scenario>") -> Scenario:
    """Check already-parsed TOML data; ``text`` is only used to find line numbers and hashes."""
    ctx = _Ctx(path, text, [])
    scenario = _build(ctx, data)
    if ctx.problems or scenario is None:
        raise ScenarioError(path, ctx.problems or [f"{path}: unusable scenario"])
    return scenario


# --- field helpers ---------------------------------------------------------------------------

def _get(ctx: _Ctx, table: dict, key: str, where: str, kind: type | tuple, required: bool = True,
         default: Any = None) -> Any:
    if key not in table:
        if required:
            ctx.bad(f"{where}.{key}" if where else key, "missing")
        return default
    value = table[key]
    if isinstance(value, bool) and kind is not bool and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        ctx.bad(f"{where}.{key}" if where else key, f"expected {_kind_name(kind)}, got a boolean")
        return default
    if not isinstance(value, kind):
        ctx.bad(f"{where}.{key}" if where else key,
                f"expected {_kind_name(kind)}, got {type(value).__name__}")
        return default
    return value


def _kind_name(kind: type | tuple) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "text", int: "an integer", list: "a list", dict: "a table", bool: "true/false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _hex(ctx: _Ctx, hmap: Board | None, value: Any, where: str) -> Place | None:
    """A hex label (a space's id or name on an area map) read to its place on the board."""
    if not isinstance(value, str):
        what = "a space is written as its id" if hmap is not None and hmap.kind == "area" \
            else "a hex is written as a CCRR label like \"0304\""
        ctx.bad(where, f"{what}, got {value!r}")
        return None
    if hmap is None:
        return None
    try:
        return hmap.parse(value)
    except ValueError as exc:
        ctx.bad(where, str(exc))
        return None


# --- the sections ---------------------------------------------------------------------------

def _build(ctx: _Ctx, data: dict) -> Scenario | None:
    known_top = {"scenario", "map", "sides", "divisions", "units", "victory", "rules",
                 "spaces", "seas", "cards"}
    for key in data:
        if key not in known_top:
            ctx.bad(key, f"unknown section (expected one of: {', '.join(sorted(known_top))})")
    head = _get(ctx, data, "scenario", "", dict) or {}
    sid = _get(ctx, head, "id", "scenario", str)
    if sid is not None and not _ID.match(sid):
        ctx.bad("scenario.id", "use letters, digits, '-', '_' or '.' (at most 40)")
    title = _get(ctx, head, "title", "scenario", str, default="")
    ruleset_id = _get(ctx, head, "ruleset", "scenario", str)
    turns = _get(ctx, head, "turns", "scenario", int)
    if turns is not None and not 1 <= turns <= 999:
        ctx.bad("scenario.turns", "must be between 1 and 999")
    notes = _get(ctx, head, "notes", "scenario", str, required=False, default="")
    ruleset = None
    if ruleset_id is not None:
        if ruleset_id not in KNOWN:
            ctx.bad("scenario.ruleset", f"unknown ruleset {ruleset_id!r} (known: {', '.join(sorted(KNOWN))})")
        else:
            ruleset = get_ruleset(ruleset_id)

    map_table = _get(ctx, data, "map", "", dict) or {}
    board_kind = map_table.get("kind", "hex")
    hmap: Board | None = None
    if board_kind == "area":  # named spaces and connections (area_loader.py); sides first
        sides = _build_sides(ctx, _get(ctx, data, "sides", "", list, default=[]) or [])
        hmap = build_area_map(ctx, map_table, data, ruleset, [s.id for s in sides])
    else:
        if board_kind != "hex":
            ctx.bad("map.kind", "a map is \"hex\" (the default) or \"area\"")
        for key in ("spaces", "seas"):
            if key in data:
                ctx.bad(key, "only an area map ([map] kind = \"area\") has spaces and sea zones")
        hmap = _build_map(ctx, map_table, ruleset) if board_kind == "hex" else None
        sides = _build_sides(ctx, _get(ctx, data, "sides", "", list, default=[]) or [])
    side_ids = [s.id for s in sides]
    cards = build_cards(ctx, data["cards"], side_ids) if "cards" in data else ()
    first = _get(ctx, head, "first_player", "scenario", str, required=False)
    if first is not None and first not in side_ids:
        ctx.bad("scenario.first_player", f"{first!r} is not a side ({', '.join(side_ids)})")
    divisions = _build_divisions(ctx, _get(ctx, data, "divisions", "", list, required=False, default=[]) or [], side_ids)
    units = _build_units(ctx, _get(ctx, data, "units", "", list, default=[]) or [], hmap, ruleset,
                         side_ids, {d.id: d.side for d in divisions})
    victory = _get(ctx, data, "victory", "", dict, required=False, default={}) or {}
    rules = _get(ctx, data, "rules", "", dict, required=False, default={}) or {}
    if ctx.problems or hmap is None or ruleset is None:
        return None
    scenario = Scenario(
        id=sid, title=title, ruleset=ruleset_id, map=hmap, sides=tuple(sides),
        units=tuple(units), turns=turns, divisions=tuple(divisions), first_player=first,
        victory=victory, rules=rules, notes=notes, cards=cards, source_path=ctx.path,
        source_text=ctx.text,
        source_hash=blake2b(ctx.text.encode("utf-8"), digest_size=16).hexdigest(),
    )
    for problem in ruleset.check_scenario(scenario):
        field, sep, what = problem.partition(": ")
        if sep and _FIELD.match(field):
            ctx.bad(field, what)          # "units[3].strength: ..." gets its file line too
        else:
            ctx.problems.append(f"{ctx.path}: {problem}")
    return None if ctx.problems else scenario


def _build_map(ctx: _Ctx, m: dict, ruleset: Any) -> HexMap | None:
    width = _get(ctx, m, "width", "map", int)
    height = _get(ctx, m, "height", "map", int)
    orientation = _get(ctx, m, "orientation", "map", str, required=False, default="pointy")
    parity = _get(ctx, m, "parity", "map", str, required=False, default="odd")
    if orientation not in ORIENTATIONS:
        ctx.bad("map.orientation", f"must be one of {', '.join(ORIENTATIONS)}")
        return None
    if parity not in PARITIES:
        ctx.bad("map.parity", f"must be one of {', '.join(PARITIES)}")
        return None
    if width is None or height is None:
        return None
    if not (1 <= width <= MAX_MAP_SIDE and 1 <= height <= MAX_MAP_SIDE):
        ctx.bad("map.width", f"map sides must be between 1 and {MAX_MAP_SIDE}")
        return None
    blank = HexMap(width, height, orientation, parity)
    legend = _get(ctx, m, "legend", "map", dict) or {}
    terrain_ok = set(ruleset.terrain_types) if ruleset else None
    codes: dict[str, tuple[str, int]] = {}
    for ch, val in legend.items():
        where = f"map.legend.{ch}"
        if len(ch) != 1 or ch.isspace():
            ctx.bad("map.legend", f"legend key {ch!r} must be one visible character")
            continue
        if isinstance(val, str):
            terrain, level = val, 0
        elif isinstance(val, dict):
            terrain = val.get("terrain")
            level = val.get("elevation", 0)
            if not isinstance(terrain, str) or not isinstance(level, int) or isinstance(level, bool):
                ctx.bad(where, "expected {terrain = \"...\", elevation = N}")
                continue
        else:
            ctx.bad(where, "expected a terrain name or {terrain = ..., elevation = N}")
            continue
        if terrain_ok is not None and terrain not in terrain_ok:
            ctx.bad(where, f"terrain {terrain!r} is not in ruleset {ruleset.id} "
                           f"(known: {', '.join(sorted(terrain_ok))})")
            continue
        codes[ch] = (terrain, level)
    rows = _get(ctx, m, "rows", "map", list) or []
    terrain_map: dict[Hex, str] = {}
    elevation: dict[Hex, int] = {}
    if len(rows) != height:
        ctx.bad("map.rows", f"{len(rows)} rows drawn, map height is {height}")
    for r, row in enumerate(rows[:height]):
        if not isinstance(row, str):
            ctx.bad(f"map.rows[{r}]", "each row is a string of terrain characters")
            continue
        cells = [c for c in row if not c.isspace()]
        if len(cells) != width:
            ctx.bad(f"map.rows[{r}]", f"row {r + 1} has {len(cells)} hexes, map width is {width}")
            continue
        for c, ch in enumerate(cells):
            if ch not in codes:
                if ch not in legend:
                    ctx.bad(f"map.rows[{r}]", f"character {ch!r} (column {c + 1}) is not in map.legend")
                continue
            h = offset_to_axial(c, r, orientation, parity)
            terrain, level = codes[ch]
            terrain_map[h] = terrain
            if level:
                elevation[h] = level
    roads: set = set()
    for i, chain in enumerate(_get(ctx, m, "roads", "map", list, required=False, default=[]) or []):
        where = f"map.roads[{i}]"
        if not isinstance(chain, list) or len(chain) < 2:
            ctx.bad(where, "a road is a list of at least two adjacent hexes")
            continue
        hexes = [_hex(ctx, blank, h, where) for h in chain]
        for a, b in zip(hexes, hexes[1:]):
            if a is None or b is None:
                continue
            side = hexside_between(a, b)
            if side is None:
                ctx.bad(where, f"{blank.label(a)} and {blank.label(b)} are not adjacent")
            else:
                roads.add(side)
    features: dict = {}
    allowed_features = set(ruleset.hexside_types) if ruleset else None
    for i, item in enumerate(_get(ctx, m, "hexsides", "map", list, required=False, default=[]) or []):
        where = f"map.hexsides[{i}]"
        if not isinstance(item, dict):
            ctx.bad(where, "expected a table with feature and between")
            continue
        feature = _get(ctx, item, "feature", where, str)
        pairs = _get(ctx, item, "between", where, list) or []
        if feature is not None and allowed_features is not None and feature not in allowed_features:
            ctx.bad(f"{where}.feature", f"hexside feature {feature!r} is not in ruleset {ruleset.id} "
                                        f"(known: {', '.join(sorted(allowed_features)) or 'none'})")
            continue
        for j, pair in enumerate(pairs):
            if not (isinstance(pair, list) and len(pair) == 2):
                ctx.bad(f"{where}.between[{j}]", "each entry is a pair of adjacent hexes [\"0304\", \"0305\"]")
                continue
            a, b = (_hex(ctx, blank, h, f"{where}.between[{j}]") for h in pair)
            if a is None or b is None:
                continue
            side = hexside_between(a, b)
            if side is None:
                ctx.bad(f"{where}.between[{j}]", f"{pair[0]} and {pair[1]} are not adjacent")
            elif feature is not None:
                features[side] = features.get(side, frozenset()) | {feature}
    labels = {}
    for name, label in (_get(ctx, m, "labels", "map", dict, required=False, default={}) or {}).items():
        h = _hex(ctx, blank, label, f"map.labels.{name}")
        if h is not None:
            labels[name] = h
    default = _get(ctx, m, "default_terrain", "map", str, required=False, default="clear")
    return HexMap(width, height, orientation, parity, terrain_map, elevation, features,
                  frozenset(roads), labels, default)


def _build_sides(ctx: _Ctx, items: list) -> list[SideSpec]:
    sides = []
    for i, s in enumerate(items):
        where = f"sides[{i}]"
        if not isinstance(s, dict):
            ctx.bad(where, "expected a table")
            continue
        sid = _get(ctx, s, "id", where, str)
        name = _get(ctx, s, "name", where, str, required=False, default=sid)
        edge = _get(ctx, s, "home_edge", where, str, required=False, default="")
        if edge and edge not in EDGES:
            ctx.bad(f"{where}.home_edge", f"must be one of {', '.join(EDGES)}")
        if sid is not None:
            if not _ID.match(sid):
                ctx.bad(f"{where}.id", "use letters, digits, '-', '_' or '.'")
            elif any(x.id == sid for x in sides):
                ctx.bad(f"{where}.id", f"side {sid!r} is defined twice")
            else:
                sides.append(SideSpec(sid, name or sid, edge or ""))
    if len(sides) != 2 and not any("sides" in p for p in ctx.problems):
        ctx.bad("sides", f"a scenario has exactly two sides, found {len(sides)}")
    return sides


def _build_divisions(ctx: _Ctx, items: list, side_ids: list[str]) -> list[DivisionSpec]:
    out: list[DivisionSpec] = []
    for i, d in enumerate(items):
        where = f"divisions[{i}]"
        if not isinstance(d, dict):
            ctx.bad(where, "expected a table")
            continue
        did = _get(ctx, d, "id", where, str)
        side = _get(ctx, d, "side", where, str)
        name = _get(ctx, d, "name", where, str, required=False, default=did)
        rout = _get(ctx, d, "rout_threshold", where, int, required=False)
        if side is not None and side not in side_ids:
            ctx.bad(f"{where}.side", f"{side!r} is not a side ({', '.join(side_ids)})")
        if rout is not None and rout < 1:
            ctx.bad(f"{where}.rout_threshold", "must be at least 1")
        if did is not None:
            if any(x.id == did for x in out):
                ctx.bad(f"{where}.id", f"division {did!r} is defined twice")
            elif side is not None:
                out.append(DivisionSpec(did, side, name or did, rout))
    return out


def _build_units(ctx: _Ctx, items: list, hmap: Board | None, ruleset: Any, side_ids: list[str],
                 divisions: dict[str, str]) -> list[UnitSpec]:
    out: list[UnitSpec] = []
    seen: set[str] = set()
    placed: dict[Hex, list[UnitSpec]] = {}
    if len(items) > MAX_UNITS:
        ctx.bad("units", f"at most {MAX_UNITS} units")
        return out
    area = hmap is not None and hmap.kind == "area"
    names = DIRECTION_NAMES[hmap.orientation] if hmap and not area else DIRECTION_NAMES["pointy"]
    # where a unit starts: a hex on a hex map, a space on an area map (its id or name)
    place_key, other_key = ("space", "hex") if area else ("hex", "space")
    for i, u in enumerate(items):
        where = f"units[{i}]"
        if not isinstance(u, dict):
            ctx.bad(where, "expected a table")
            continue
        uid = _get(ctx, u, "id", where, str)
        side = _get(ctx, u, "side", where, str)
        kind = _get(ctx, u, "kind", where, str)
        name = _get(ctx, u, "name", where, str, required=False, default=uid)
        grade = _get(ctx, u, "grade", where, str, required=False, default="average")
        division = _get(ctx, u, "division", where, str, required=False, default="")
        overrides = _get(ctx, u, "stats", where, dict, required=False, default={}) or {}
        if uid is not None:
            if not _ID.match(uid):
                ctx.bad(f"{where}.id", "use letters, digits, '-', '_' or '.' (at most 40)")
            elif uid in seen:
                ctx.bad(f"{where}.id", f"unit id {uid!r} is used twice")
            seen.add(uid)
        if side is not None and side not in side_ids:
            ctx.bad(f"{where}.side", f"{side!r} is not a side ({', '.join(side_ids)})")
        if division and division not in divisions:
            ctx.bad(f"{where}.division", f"no division {division!r} in [[divisions]]")
        elif division and side is not None and divisions[division] != side:
            ctx.bad(f"{where}.division", f"division {division!r} belongs to {divisions[division]}")
        stats: dict[str, Any] = {}
        if ruleset is not None and kind is not None:
            if kind not in ruleset.unit_types:
                ctx.bad(f"{where}.kind", f"unit kind {kind!r} is not in ruleset {ruleset.id} "
                                         f"(known: {', '.join(sorted(ruleset.unit_types))})")
            else:
                stats = dict(ruleset.unit_types[kind])
            if grade not in ruleset.grades:
                ctx.bad(f"{where}.grade", f"grade {grade!r} is not one of {', '.join(ruleset.grades)}")
        for k, v in overrides.items():
            if not isinstance(v, (int, str, bool)):
                ctx.bad(f"{where}.stats.{k}", "stats are integers, text or true/false")
            else:
                stats[k] = v
        strength = _get(ctx, u, "strength", where, int, required=False, default=stats.get("strength"))
        if not isinstance(strength, int) or isinstance(strength, bool) or strength < 1:
            if uid is not None and kind is not None and (ruleset is None or kind in getattr(ruleset, "unit_types", {})):
                ctx.bad(f"{where}.strength", "needs a strength of at least 1")
            strength = 1
        facing_raw = u.get("facing", 0)
        facing = 0
        if isinstance(facing_raw, int) and not isinstance(facing_raw, bool) and 0 <= facing_raw <= 5:
            facing = facing_raw
        elif isinstance(facing_raw, str) and facing_raw.upper() in names:
            facing = names.index(facing_raw.upper())
        else:
            ctx.bad(f"{where}.facing", f"a direction 0-5 or one of {', '.join(names)}")
        h = None
        if other_key in u:
            ctx.bad(f"{where}.{other_key}", f"units on this map start in a {place_key}, not a {other_key}")
        if place_key in u:
            h = _hex(ctx, hmap, u[place_key], f"{where}.{place_key}")
        entry_turn = _get(ctx, u, "entry_turn", where, int, required=False)
        entry_hexes = tuple(x for j, e in enumerate(_get(ctx, u, "entry_hexes", where, list, required=False, default=[]) or [])
                            if (x := _hex(ctx, hmap, e, f"{where}.entry_hexes[{j}]")) is not None)
        box = _get(ctx, u, "box", where, str, required=False, default="")
        if box and not _ID.match(box):
            ctx.bad(f"{where}.box", "a box name uses letters, digits, '-', '_' or '.'")
        if sum((place_key in u, entry_turn is not None, bool(box))) != 1:
            ctx.bad(where, f"a unit needs exactly one of: a start {place_key}, an entry_turn "
                           "(reinforcements) or a box (starts off the map, e.g. box = \"rout\")")
        if h is not None and not area and ruleset is not None and kind in getattr(ruleset, "unit_types", {}):
            problem = _stacking_problem(ruleset, stats, side, placed.get(h, []))
            if problem:
                ctx.bad(f"{where}.hex", f"{u['hex']}: {problem}")
            placed.setdefault(h, []).append(UnitSpec(uid or "?", side or "", kind, name or "", h,
                                                     facing, stats, strength))
        if uid is not None and side is not None and kind is not None:
            out.append(UnitSpec(uid, side, kind, name or uid, h, facing, stats, strength,
                                division, grade, entry_turn, entry_hexes, box))
    return out


def _stacking_problem(ruleset: Any, stats: dict, side: str | None, already: list[UnitSpec]) -> str:
    """Why a unit may not start in a hex that already holds ``already`` ("" when it may).

    Enemies never share a hex at set-up; whether friends may (a commander with a unit, two
    batteries) is the ruleset's ``may_stack_at_setup(stats, other_stats)``, asked for every pair.
    """
    for other in already:
        if other.side != side:
            return f"already holds enemy unit {other.id}"
        check = getattr(ruleset, "may_stack_at_setup", None)
        if not (check and check(stats, other.stats)):
            return f"already holds {other.id}"
    return ""
