"""What each hex of the map shows: terrain, counters, marks and overlays, as text slots.

A mixin of ``_hex_map.HexMapView`` (which paints the slots into canvas lines): given the shown
position, the screen's ``Marks`` and the glyph table, it decides the text and style of each
slot of one hex, for small hexes (one counter) and big ones (a stack). The counter itself comes
from the ruleset's drawing table (``hexwar.mapglyphs.unit_drawing``): its letter, its facing
arrow and any mark of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.style import Style

from hexwar.engine.hexgrid import Hex

from .campaign_points import point_number

if TYPE_CHECKING:
    from hexwar.engine.state import Unit

_UNDERLINE = Style(underline=True)


@dataclass
class Marks:
    """What the screen wants shown on one hex besides terrain and counters."""

    reach: int | None = None  # movement cost to get here
    target: bool = False
    contact: bool = False  # in the enemy's zone of control (the engine says where)
    line: bool = False  # on the line from the selected unit to the cursor
    moved: bool = False  # the other side moved a unit here in its last turn
    zone: str | None = None  # which zone of the selected unit (front, flank, rear) this hex is in


@dataclass
class Face:
    """The text of each slot of one hex, with its style."""

    slots: list[tuple[str, Style | None]] = field(default_factory=list)


class HexFaces:
    """The faces half of the map widget (``game``, ``glyphs``, ``palette``, ``drawing``, ``marks``,
    ``zoom`` and the caches are the widget's)."""

    game: Any
    glyphs: Any
    palette: Any
    drawing: Any
    map_glyphs: Any
    letters: dict[str, str]
    side_index: dict[str, int]
    marks: dict[Hex, "Marks"]
    selected_hexes: frozenset[Hex]
    zoom: int
    _by_hex: dict[Hex, list["Unit"]] | None
    _faces: dict[Hex, "Face"]

    def units_at(self, h: Hex) -> list["Unit"]:
        """The live units of a hex, the one drawn on top first: regiments before leaders, so a
        leader never hides the regiment it rides with."""
        return self._occupancy().get(h, [])

    def _occupancy(self) -> dict[Hex, list["Unit"]]:
        """Live units by every hex they stand in (a unit may spread over several: the ruleset's
        ``occupied_hexes``), regiments before leaders; built once per shown position."""
        if self._by_hex is None:
            game = self.game
            by_hex: dict[Hex, list["Unit"]] = {}
            for u in game.state.units.values():
                if u.alive and u.hex is not None:
                    for h in game.ruleset.occupied_hexes(game, u.id):
                        by_hex.setdefault(Hex(*h), []).append(u)
            for units in by_hex.values():
                units.sort(key=lambda u: (self.drawing.is_leader(u.kind), u.id))
            self._by_hex = by_hex
        return self._by_hex

    def counter(self, u: "Unit", width: int, h: Hex | None = None) -> str:
        """A counter in ``width`` cells: type letter, strength, then facing (where the ruleset
        has facing) or the reduced mark; at 7 cells also the side letter and the formation or
        state mark where the ruleset has one. A unit spread over several hexes shows its
        strength once, in its own hex (a line's end, a column's head); its other stands, ``h``,
        show the stand mark there, so four stands never read as four units."""
        g = self.glyphs
        symbol = self.drawing.symbol(u.kind)
        stand = h is not None and u.hex is not None and h != Hex(*u.hex)
        strength = g.stand if stand else str(u.strength) if u.strength < 10 else "+"
        reduced = g.reduced if u.strength < u.max_strength else ""
        facing = g.facing(self.game.map.orientation, u.facing, self.drawing.vertex) \
            if self.drawing.shows_facing(u) else ""
        if width <= 2:
            return f"{symbol}{strength}"
        if width <= 3:
            return f"{symbol}{strength}{facing or reduced or ' '}"
        side = self.letters.get(u.side, "?")
        mark = self.drawing.mark_of(u)
        shown = g.stand if stand else u.strength
        return f"{side} {symbol}{shown}{mark}{reduced}{facing}"[:width].ljust(width)

    def _has_acted(self, u: "Unit") -> bool:
        """Whether the unit carries a mark worth the "has acted" dot. A ruleset that keeps its
        formation and state in marks (it draws them with a mark of its own) counts only the
        marks its words name; otherwise any mark counts."""
        if self.drawing.mark is None:
            return bool(u.marks)
        return any(k in u.marks for k in self.game.ruleset.mark_words)

    def _side_style(self, u: "Unit") -> Style:
        pal = self.palette
        return pal.sides[self.side_index.get(u.side, 0) % len(pal.sides)]

    def _terrain_text(self, h: Hex) -> str:
        m = self.game.map
        road = self.map_glyphs.road if m.on_road(h) else ""
        return self.map_glyphs.terrain.get(m.terrain_at(h), "?") + road

    def _face(self, h: Hex) -> Face:
        face = self._faces.get(h)
        if face is not None:
            return face
        face = Face(self._small_face(h) if self.zoom == 0 else self._big_face(h))
        self._faces[h] = face
        return face

    def _overlay(self, mk: Marks) -> tuple[str, Style | None]:
        g, pal = self.glyphs, self.palette
        if mk.target:
            return g.target, pal.target
        if mk.contact:
            return g.contact, pal.contact
        if mk.line:
            return g.line, pal.line
        return "", None

    def _small_face(self, h: Hex) -> list[tuple[str, Style | None]]:
        """Pointy: three cells in the middle line, the side's letter above, a mark below. Flat:
        two cells, and two more on the hex's bottom edge (underlined, so the edge still reads):
        the side's letter and a mark."""
        g, pal = self.glyphs, self.palette
        units = self.units_at(h)
        mk = self.marks.get(h, Marks())
        over, over_style = self._overlay(mk)
        pointy = self.game.map.orientation == "pointy"
        width = 3 if pointy else 2
        if units:
            # On a counter only a target mark may stand in for the side letter: zones of
            # control and the line of fire matter for empty hexes, where a unit may go.
            over, over_style = (g.target, pal.target) if mk.target else ("", None)
            top = units[0]
            style = self._side_style(top)
            main = (self.counter(top, width, h), style)
            reduced = g.reduced if top.strength < top.max_strength else ""
            more = g.stack if len(units) > 1 else ""
            marked = g.marked if self._has_acted(top) else ""
            moved = g.moved if mk.moved else ""
            form = self.drawing.mark_of(top)
            if pointy:   # the side's letter above the counter, the most urgent mark below
                lower = over or moved or form or more or (reduced if self.drawing.facing else "") or marked
                return [main, (self.letters.get(top.side, "?"), style), (lower, over_style or style)]
            first = over or self.letters.get(top.side, "?")
            second = moved or form or more or reduced or marked or " "
            return [main, (first + second, self._combined(over_style or style, _UNDERLINE, None))]
        # an empty hex in a zone of the selected unit: its glyph above the middle (pointy), or
        # on the bottom edge where nothing else is (flat)
        zone = (g.zone(mk.zone), pal.line) if mk.zone else ("", None)
        edge_zone = (zone[0].ljust(2), zone[1]) if zone[0] else ("", None)
        if mk.reach is not None:
            text = f"{g.reach}{mk.reach}"
            main = ((text if len(text) <= width else g.reach).center(width), pal.reach)
            lower = over if over != g.line else ""
            return [main, zone, (lower, over_style)] if pointy else \
                [main, (lower.ljust(2), over_style) if lower else edge_zone]
        if over:
            return [(over.center(width), over_style), zone, ("", None)] if pointy else \
                [(over.center(width), over_style), edge_zone]
        if mk.moved:
            return [(g.moved.center(width), pal.line), zone, ("", None)] if pointy else \
                [(g.moved.center(width), pal.line), edge_zone]
        number = point_number(self.game, h)  # a campaign point's number where nothing else is
        if number and not zone[0]:
            return [(self._terrain_text(h).center(width), pal.glyph), ("", None), (number, pal.glyph)] \
                if pointy else [(self._terrain_text(h).center(width), pal.glyph),
                                (number, self._combined(pal.glyph, _UNDERLINE, None))]
        return [(self._terrain_text(h).center(width), pal.glyph), zone, ("", None)] if pointy else \
            [(self._terrain_text(h).center(width), pal.glyph), edge_zone]

    def _big_face(self, h: Hex) -> list[tuple[str, Style | None]]:
        """Four lines: terrain and road; the top counter; the next unit of the stack; overlays."""
        g, pal = self.glyphs, self.palette
        units = self.units_at(h)
        mk = self.marks.get(h, Marks())
        sel = g.selected if h in self.selected_hexes else ""
        marked = g.marked if any(self._has_acted(u) for u in units) else ""
        slots: list[tuple[str, Style | None]] = [
            (f"{sel}{self._terrain_text(h)}{marked}".center(5), pal.selected if sel else pal.glyph)]
        for u in units[:2]:
            slots.append((self.counter(u, 7, h), self._side_style(u)))
        if len(units) > 2:
            slots[-1] = (f"{g.stack}{len(units) - 1} more".ljust(7)[:7], pal.glyph)
        while len(slots) < 3:
            slots.append(("", None))
        number = point_number(self.game, h)
        if number and slots[2] == ("", None):  # a campaign point's number where no second unit is
            slots[2] = (number.center(7), pal.glyph)
        flags = ""
        if mk.moved:
            flags += g.moved
        if mk.zone:
            flags += g.zone(mk.zone)
        if mk.target:
            flags += g.target
        if mk.contact:
            flags += g.contact
        if mk.reach is not None:
            flags += f"{g.reach}{mk.reach}"
        elif mk.line:
            flags += g.line
        style = pal.target if mk.target else pal.contact if mk.contact and mk.reach is None else pal.reach
        slots.append((flags[:5].center(5) if flags else "", style))
        return slots


__all__ = ["Face", "HexFaces", "Marks"]
