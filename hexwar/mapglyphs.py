"""The one glyph table of a scenario's map, shared by the terminal UI and ``hexwar describe --map``.

Each terrain and hexside feature the scenario uses gets its own plain-ASCII character, distinct
from every other one and from the hex outlines, so the same character means the same thing on
the screen, in the ``--ascii`` screen and in the text map. Unit types are drawn with the letters
the ruleset itself names (``engine/rulesets/<r>/drawing.py``).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable
from dataclasses import dataclass

ROAD = "+"
OUTLINE = "_/\\| "
#: Preferred glyphs of known hexside features, in drawing priority (the first wins an edge).
HEXSIDE_GLYPHS = {"impassable": "X%", "retrenchment": "#", "redoubt_line": "=", "river": "~\"",
                  "stream": "~:", "obstacle": "#="}
#: Preferred glyphs of known terrains (designed: symbols, not letters, so that a terrain is never
#: read as a unit type or a side).
TERRAIN_GLYPHS = {"clear": ".", "open": ".", "plain": ".", "woods": "&", "forest": "&",
                  "village": "%", "town": "%", "hill": "^", "redoubt": "*", "camp": ":",
                  "battery": "!", "river": "~\"", "deep-river": "=\"", "fortification": "#",
                  "marsh": ",", "swamp": ",", "rough": ";", "scrub": ";", "water": "~=",
                  "hills": "^", "heights": "'^", "mountains": "@", "mountain": "@"}
#: Glyphs for names no table knows yet; never a letter of the name.
SPARE = "%&$@!?^;:'`<>*=\",~#"


@dataclass(frozen=True)
class MapGlyphs:
    """The characters one map uses; no two meanings share a character."""

    terrain: dict[str, str]
    hexsides: dict[str, str]                         # in drawing priority
    sides: dict[str, str]                            # side id -> initial
    road: str = ROAD


def _allocate(wanted: list[tuple[str, str]], taken: set[str]) -> dict[str, str]:
    """A distinct glyph for each (name, preferred glyphs), none of them in ``taken``.

    Everyone's first choice is served before anyone's second, then the spare symbols.
    """
    taken = set(taken)
    out: dict[str, str] = {}
    rounds = [lambda prefs: prefs[:1], lambda prefs: prefs, lambda prefs: SPARE]
    for choices in rounds:
        for name, prefs in wanted:
            if name in out:
                continue
            for c in choices(prefs):
                if c not in taken:
                    out[name] = c
                    taken.add(c)
                    break
    return {name: out.get(name, "?") for name, _ in wanted}


def _side_letters(scenario) -> dict[str, str]:
    """One distinct capital per side: its initial, else the next free letter of its id."""
    out: dict[str, str] = {}
    for s in scenario.sides:
        for ch in s.id.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if ch.isalpha() and ch not in out.values():
                out[s.id] = ch
                break
    return out


def choose_glyphs(scenario) -> MapGlyphs:
    """Glyphs for what this map holds. Hexside features choose first, then terrain, so a stream
    keeps '~' and a river hex on the same map takes another glyph."""
    m = scenario.map
    sides = _side_letters(scenario)
    taken = set(OUTLINE + ROAD + ".") | set(sides.values())
    features = {f for feats in m.hexside_features.values() for f in feats if f != "road"}
    order = [f for f in HEXSIDE_GLYPHS if f in features] + sorted(features - set(HEXSIDE_GLYPHS))
    hexsides = _allocate([(f, HEXSIDE_GLYPHS.get(f, "")) for f in order], taken)
    taken |= set(hexsides.values())
    terrains = sorted({m.terrain_at(h) for h in m.hexes}, key=lambda t: (t != m.default_terrain, t))
    wanted = [(t, "." if t == m.default_terrain else TERRAIN_GLYPHS.get(t, "")) for t in terrains]
    terrain = _allocate(wanted, taken - {"."})
    return MapGlyphs(terrain, hexsides, sides)


@dataclass(frozen=True)
class UnitDrawing:
    """How a ruleset's counters are drawn: a symbol and type name per kind, and facing or not."""

    facing: bool
    units: dict[str, tuple[str, str, str]]          # kind -> (symbol, type name, role)
    vertex: bool = False                            # a facing names a hex vertex, not a side
    #: unit -> one character for its formation or state ("" for none); None: the ruleset has none
    mark: Callable[[Any], str] | None = None
    mark_names: tuple[tuple[str, str], ...] = ()    # (character, meaning) for the map key
    #: unit -> whether its counter shows the facing arrow (None: every unit of a facing ruleset)
    faces: Callable[[Any], bool] | None = None

    def mark_of(self, u: Any) -> str:
        return self.mark(u) if self.mark is not None else ""

    def shows_facing(self, u: Any) -> bool:
        return self.facing and (self.faces is None or self.faces(u))

    def symbol(self, kind: str) -> str:
        return self.units[kind][0] if kind in self.units else "?"

    def type_name(self, kind: str) -> str:
        return self.units[kind][1] if kind in self.units else kind

    def is_leader(self, kind: str) -> bool:
        return kind in self.units and self.units[kind][2] == "leader"


def unit_drawing(scenario) -> UnitDrawing:
    """The ruleset's own drawing table; a ruleset without one (a test ruleset) gets distinct
    letters handed out in kind order, and no facing."""
    try:
        mod = importlib.import_module(f"hexwar.engine.rulesets.{scenario.ruleset}.drawing")
    except ImportError:
        mod = None
    units = dict(getattr(mod, "UNITS", {}))
    kinds = sorted({u.kind for u in scenario.units} - set(units))
    free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in {v[0] for v in units.values()}]
    for kind, letter in zip(kinds, free):
        units[kind] = (letter, kind, "")
    facing = getattr(mod, "FACING", False)
    return UnitDrawing(bool(facing), units, facing == "vertex", getattr(mod, "counter_mark", None),
                       tuple(getattr(mod, "MARK_NAMES", {}).items()), getattr(mod, "shows_facing", None))


def legend(scenario, g: MapGlyphs | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The scenario's map key, group by group: (group, [(glyph, meaning)])."""
    g = g or choose_glyphs(scenario)
    m = scenario.map
    rows: list[tuple[str, list[tuple[str, str]]]] = [("terrain", [(c, t) for t, c in g.terrain.items()])]
    if g.hexsides:
        rows.append(("hexsides", [(c, f.replace("_", " ")) for f, c in g.hexsides.items()]))
    if any(m.on_road(h) for h in m.hexes):
        rows.append(("roads", [(g.road, "a road runs through the hex")]))
    drawing = unit_drawing(scenario)
    kinds = sorted({u.kind for u in scenario.units})
    seen: dict[str, str] = {}
    for k in kinds:
        seen.setdefault(drawing.symbol(k), drawing.type_name(k))
    if seen:
        rows.append(("units", sorted(seen.items())))
    if drawing.mark_names:
        rows.append(("marks", list(drawing.mark_names)))
    return rows
