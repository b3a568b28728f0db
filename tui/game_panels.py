"""What the game screen shows: turn bar, key row, map marks and the panel beside the map.

A mixin of ``screen_game.GameScreen`` (the screen's drawing, apart from its flow and its
keys): every text goes through ``_set``, which shows it as plain text (names and titles come
from a scenario file or a peer) and repaints a panel only when its text changed.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import RichLog, Static

from hexwar.engine.hexgrid import Hex, hex_linedraw
from hexwar.plaintext import plain_text

from . import keys
from ._hex_map import Marks
from .campaign_points import jump_width
from .describe import (ascii_only, card_lines, fit, hex_lines, order_text, phase_title, plain, preview_lines,
                       side_lines, side_name, unit_title)


class Panels:
    """The drawing half of the game screen (``session``, ``legal``, ``selected``, ``map_view``,
    ``net`` are the screen's)."""

    session: Any
    legal: Any
    selected: str | None
    digits: str
    thinking: bool
    highlight: list[Hex]
    choice: list[Hex]
    net: Any

    # --- the log's tail ---------------------------------------------------------------------
    def on_mount(self) -> None:
        """The panel's log keeps whole entries in view: where each entry starts is remembered as
        it is written (by the screen, or the app's network log), and the log is scrolled so its
        top row is always an entry's start, with blank rows below the last entry when needed (a
        wrapped combat result never shows as its last words only). Scrolling back and ``l``
        still give the whole account."""
        log = self.query_one("#log", RichLog)
        self._log_starts: list[int] = []  # where entries start, counted like RichLog._start_line
        self._log_early: list[Any] = []  # entries written before the log knew its width
        self._log_pad = 0
        write = log.write

        def remembered(content: Any, *args: Any, **kwargs: Any) -> RichLog:
            self._unpad_log(log)
            if log._size_known:
                self._log_starts.append(log._start_line + len(log.lines))
                del self._log_starts[:-4000]
            else:
                self._log_early.append(content)
            done = write(content, *args, **kwargs)
            self.call_after_refresh(self._fit_log_tail)
            return done

        log.write = remembered  # type: ignore[method-assign]

    def on_resize(self, event: Any) -> None:
        if self.is_mounted and hasattr(self, "_log_pad"):
            self.call_after_refresh(self._fit_log_tail)

    def _unpad_log(self, log: RichLog) -> None:
        if self._log_pad:
            del log.lines[-self._log_pad:]
            self._log_pad = 0
            log._line_cache.clear()
            log.virtual_size = Size(log._widest_line_width, len(log.lines))

    def _fit_log_tail(self) -> None:
        if not self.is_mounted:
            return
        log = self.query_one("#log", RichLog)
        height = log.scrollable_content_region.height
        if height <= 0 or not log._size_known:
            return
        if self._log_early:  # rendered in order when the log got its width: count their rows
            console = self.app.console
            options = console.options.update_width(max(log.scrollable_content_region.width, log.min_width))
            at, early = 0, []
            for entry in self._log_early:
                text = Text(entry) if isinstance(entry, str) else entry
                early.append(at)
                at += max(1, len(list(Segment.split_lines(console.render(text, options)))))
            self._log_starts = early + self._log_starts
            self._log_early = []
        self._unpad_log(log)
        total = len(log.lines)
        starts = [s - log._start_line for s in self._log_starts if s >= log._start_line]
        if total <= height or not starts:
            return
        fits = [s for s in starts if total - s <= height]
        top = min(fits) if fits else max(starts)  # the latest entry alone overflows: its start
        pad = max(0, top + height - total)
        if pad:
            width = max(log._widest_line_width, 1)
            log.lines.extend(Strip.blank(width) for _ in range(pad))
            self._log_pad = pad
            log._line_cache.clear()
            log.virtual_size = Size(log._widest_line_width, len(log.lines))
        log.scroll_to(y=top, animate=False, immediate=True)
        log.refresh()

    # --- redraw ---------------------------------------------------------------------------
    def refresh_all(self) -> None:
        self._update_turnbar()
        self._update_map()
        self._update_panel()
        self._update_keyrow()

    @property
    def dot(self) -> str:
        return " - " if self.app.ascii else " · "

    def _events(self) -> list:
        return self.session.events

    def _update_turnbar(self) -> None:
        """``T8/12 · Move · Sweden to act`` first, then what else fits the width."""
        if self.net is not None:  # whose turn over the network, the link, spectating
            self._set("#turnbar", self.net.turnbar(self.size.width - 2), layout=False)
            return
        game, s = self.session.game, self.session.game.state
        who = game.to_act()
        dot = self.dot
        first = [f"T{s.turn}/{game.scenario.turns}", phase_title(game)]
        if game.over:
            first.append("game over")
        elif self.thinking:
            first.append(f"{side_name(game, who)} (computer) thinking")
        else:
            role = "" if self.session.is_human(who) else " (computer)"
            first.append(f"{side_name(game, who)} to act{role}")
        extras = []
        if self.digits:
            need = jump_width(game)
            extras.append(f"jump to {self.digits}{'_' * (need - len(self.digits))}")
        if s.pending and not game.over:
            extras.append(f"decide: {s.pending[0].get('kind', '?').replace('-', ' ')}")
        if s.active and s.active != who and not game.over:
            extras.append(f"{side_name(game, s.active)}'s turn")
        extras.append(game.scenario.title)
        self._set("#turnbar", fit(first, extras, dot, self.size.width - 2), layout=False)

    def _key_items(self) -> list[tuple[str, str]]:
        """The keys that do something in the current mode, most useful first."""
        game = self.session.game
        t = keys.table()

        def k(name: str) -> str:
            first = t[name].keys.split(",")[0]
            return keys.display(first)

        if game.over:
            return [(k("menu"), "menu"), (k("log"), "log"), (k("help"), "help"), ("ctrl+q", "quit")]
        if not self.session.is_human(game.to_act()):
            return [(k("aid"), "aid"), (k("log"), "log"), (k("help"), "help"), (k("menu"), "menu")]
        if game.state.pending:
            undo = [(k("undo"), "undo")] if self.session.can_undo else []  # never offer an undo that cannot happen
            return [(k("select"), "decide"), (k("aid"), "aid"), *undo, (k("resign"), "resign"), (k("help"), "help")]
        if self.selected is not None:
            items = [(k("select"), "go"), (k("fire"), "fire"), (k("cancel"), "cancel"), (k("next_unit"), "next"),
                     (k("orders"), "orders"), (k("end_phase"), "end phase")]
        else:
            items = [(k("next_unit"), "next unit"), (k("select"), "select"), (k("orders"), "orders"),
                     (k("end_phase"), "end phase")]
        if self.session.can_undo:
            items.append((k("undo"), "undo"))
        if getattr(self.session, "network", False):
            items += [(keys.display(s.keys.split(",")[0]), s.short.lower()) for s in keys.NET_KEYS.values()]
        extra = [(k("overview"), "overview")] if "overview" in t else []
        return items + [(k("aid"), "aid")] + extra + [(k("help"), "help"), (k("resign"), "resign"),
                                                      ("ctrl+q", "quit")]

    def _update_keyrow(self) -> None:
        parts = [f"{key} {what}" for key, what in self._key_items()]
        self._set("#keyrow", fit(parts[:1], parts[1:], "  ", self.size.width - 2), layout=False)

    def _selection_marks(self) -> dict[Hex, Marks]:
        game = self.session.game
        marks: dict[Hex, Marks] = {}
        uid = self.selected
        if uid is None or uid not in game.state.units:
            return marks
        unit = game.state.units[uid]
        if unit.hex is None:  # waiting to enter: where it can get from its entry hex
            for h, route in game.reachable(uid).items():
                marks.setdefault(Hex(*h), Marks()).reach = route.cost
            return marks
        for h, route in game.reachable(uid).items():
            marks.setdefault(Hex(*h), Marks()).reach = route.cost
        for h in game.targets(uid):
            marks.setdefault(Hex(*h), Marks()).target = True
        for h in game.zoc_hexes(unit.side):
            marks.setdefault(Hex(*h), Marks()).contact = True
        for zone, hexes in self._zones(uid).items():
            for h in hexes:
                marks.setdefault(Hex(*h), Marks()).zone = zone
        cursor = self.map_view.cursor
        if cursor != unit.hex:
            for h in hex_linedraw(unit.hex, cursor)[1:-1]:
                marks.setdefault(Hex(*h), Marks()).line = True
        return marks

    def _units_at(self, h: Hex) -> list:
        """The live units with a stand in ``h`` (a unit may stand in several hexes)."""
        game = self.session.game
        return [u for _, u in sorted(game.state.units.items())
                if u.alive and u.hex is not None and h in game.ruleset.occupied_hexes(game, u.id)]

    def _units_for_cards(self, h: Hex) -> list:
        """The units in ``h`` in card order: a regiment before the leader stacked with it."""
        leader = self.map_view.drawing.is_leader
        return sorted(self._units_at(h), key=lambda u: (leader(u.kind), u.id))

    def _zones(self, uid: str) -> dict[str, tuple[Hex, ...]]:
        """The selected unit's zones, asked once per position (the cursor moves often)."""
        memo = self.legal.zones
        if uid not in memo:
            memo[uid] = self.session.game.unit_zones(uid)
        return memo[uid]

    def zone_legend(self, uid: str) -> str:
        """One line naming the zone glyphs drawn for ``uid`` (empty when it has no zones)."""
        zones = self._zones(uid)
        if not zones:
            return ""
        g = self.map_view.glyphs
        return "zones: " + " ".join(f"{g.zone(z)}{z}" for z in ("front", "flank", "rear") if z in zones)

    def _update_map(self) -> None:
        game = self.session.game
        sel, stands = None, ()
        if self.selected and self.selected in game.state.units:
            h = game.state.units[self.selected].hex
            sel = Hex(*h) if h is not None else None
            stands = tuple(game.ruleset.occupied_hexes(game, self.selected))
        self.map_view.show(game, self._marks(), sel, stands)

    def _update_panel(self) -> None:
        game = self.session.game
        h = self.map_view.cursor
        info = hex_lines(game, h)
        for u in self._units_for_cards(h):
            info += card_lines(game, u.id)
        card_key = keys.display(keys.table()["card"].keys.split(",")[0]) if "card" in keys.table() else "i"
        self._set("#info", "\n".join(self._whole_lines("#info", info, f"{card_key}: every card, whole")),
                  layout=False)
        preview = self._preview_lines(h)
        refused = bool(preview) and preview[-1].startswith("not here:")  # enter there gives the reason whole
        more = "enter: the whole reason" if refused else "f: the whole preview"
        self._set("#preview", "\n".join(self._whole_lines("#preview", preview, more, keep_last=refused)),
                  layout=False)
        status = side_lines(game, None if self.size.height >= 40 else 2)
        self._set("#status", "\n".join(status))

    def _whole_lines(self, selector: str, lines: list[str], more: str, keep_last: bool = False) -> list[str]:
        """``lines`` as the panel ``selector`` can show them whole: a line that would be cut at
        the panel's bottom row (mid-sentence, at 80x24) is left out, and the last row says which
        key shows the rest. With ``keep_last`` the last line (a refusal's reason) is kept before
        the lines above it."""
        widget = self.query_one(selector, Static)
        width, height = widget.content_region.width, widget.content_region.height
        if width <= 0 or height <= 0:
            return lines

        def rows(line: str) -> int:
            return max(1, len(textwrap.wrap(line, width, break_long_words=True, break_on_hyphens=False) or [""]))

        if sum(rows(line) for line in lines) <= height:
            return lines
        order = ([len(lines) - 1] + list(range(len(lines) - 1))) if keep_last and lines else list(range(len(lines)))
        kept: set[int] = set()
        used = rows(more)
        for i in order:
            n = rows(lines[i])
            if used + n > height:
                if i == order[0] and not kept:  # the first line alone does not fit: its start, cut at a word
                    wrapped = textwrap.wrap(lines[i], width, break_on_hyphens=False)[:max(1, height - used)]
                    last = textwrap.wrap(wrapped[-1], max(1, width - 2), break_on_hyphens=False)[0]
                    return [" ".join(wrapped[:-1] + [last + " …"]), more]
                if keep_last:
                    continue
                break
            kept.add(i)
            used += n
        shown = [lines[i] for i in range(len(lines)) if i in kept]
        while len(shown) > 1 and shown[-1].rstrip().endswith(":"):  # a heading whose lines were left out
            shown.pop()
        return shown + [more]

    def _set(self, selector: str, text: str, layout: bool = True) -> None:
        """Update a panel only when its text changes. Panels of fixed height skip the layout
        pass, which would otherwise repaint the whole map on every cursor move."""
        widget = self.query_one(selector, Static)
        text = plain_text(text)  # names and titles may come from a peer or a file
        if self.app.ascii:
            text = ascii_only(text)
        if getattr(widget, "_hexwar_text", None) != text:
            widget._hexwar_text = text  # type: ignore[attr-defined]
            widget.update(text, layout=layout)

    def _preview_lines(self, h: Hex) -> list[str]:
        game = self.session.game
        if self.selected is None:
            n = len(self.legal.actors())
            side = game.to_act()
            if side is None or not self.session.is_human(side):  # the computer, the opponent, a match watched
                return [f"{side_name(game, side)} to act: {n} unit(s) can act" if n else
                        f"{side_name(game, side)} to act"]
            if n:
                return [f"{n} unit(s) can act: tab picks the next"]
            if len(self.legal.phase_enders()) > 1:
                return ["o lists the orders of this step"]
            return ["no unit can act: E ends the phase"]
        lines = [f"selected: {unit_title(game, self.selected)}"]
        legend = self.zone_legend(self.selected)
        if legend:
            lines.append(legend)
        moves = self.legal.moves_to(self.selected, h)
        attacks = self.legal.at_target(self.selected, h)
        if moves:
            route = game.reachable(self.selected).get(h)
            cost = f" (cost {route.cost})" if route is not None else ""
            lines.append(f"enter: {moves[0].kind} to {game.map.label(h)}{cost}")
        if attacks:
            lines.append(f"enter/f: {order_text(game, attacks[0])}")
            lines += preview_lines(game, attacks[0])
        if not moves and not attacks and h != game.state.units[self.selected].hex:
            reason = self._why_not(self.selected, h)
            lines.append(f"not here: {reason}")
        elif h == game.state.units[self.selected].hex:
            lines.append("move the cursor to a marked hex: enter moves there, f fires or attacks")
        return lines

    def _why_not(self, uid: str, h: Hex) -> str:
        """The engine's reason, in the player's words (never a traceback). Remembered for the
        position at hand (``self.legal`` is rebuilt, and this memo with it, after every change)."""
        memo = self.legal.why_not
        if (uid, h) in memo:
            return memo[(uid, h)]
        game = self.session.game
        try:
            reason = game.why_not(uid, h)
        except Exception as exc:  # advisory: a ruleset bug must not take the game down
            reason = f"(the rules could not say why: {exc})"
        memo[(uid, h)] = plain(game, reason or f"{unit_title(game, uid)} has no order for {game.map.label(h)}")
        return memo[(uid, h)]

    def _marks(self) -> dict[Hex, Marks]:
        marks = self._selection_marks()
        for h in self.highlight:
            marks.setdefault(h, Marks()).moved = True
        for h in self.choice:
            marks.setdefault(h, Marks()).target = True
        return marks


__all__ = ["Panels"]
