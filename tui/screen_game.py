"""The game screen: map, turn bar, unit/terrain panel, combat preview, side status, event log.

It turns key presses and clicks into gestures (select this unit, act on that hex) and asks
``picking.Legal`` for the legal order that matches; the engine judges everything. The computer
player thinks in a worker thread so the screen stays responsive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import RichLog, Static

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import Hex, hex_distance, hex_linedraw, hex_neighbor
from hexwar.engine.levels import computer_for
from hexwar.engine.orders import IllegalOrderError
from hexwar.plaintext import plain_text

from . import keys
from ._hex_map import HexMapView, Marks
from .campaign_points import jump_prompt, jump_target, jump_width
from .describe import (ascii_only, card_lines, event_text, fit, hex_lines, order_text, passes_by_itself,
                       phase_title, plain, preview_lines, side_lines, side_name, unit_title)
from .glyphs import ASCII, UNICODE
from .picking import Legal, nothing_to_decide, path_end, target_hexes, units_of
from .screen_dialogs import ChooseOrder, ChooseUnit, Confirm, JumpTo, Message
from .session import Session
from .turn_summary import Snapshot, notice_lines, summary_lines

if TYPE_CHECKING:
    from .app import HexwarApp


class GameScreen(Screen):
    """Play one match, hotseat or against the computer."""

    BINDINGS = keys.bindings()
    app: "HexwarApp"

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.legal = Legal(session.game)
        self.selected: str | None = None
        self.digits = ""
        self.thinking = False
        self.logged = 0
        self._shown_decision = -1
        #: where every unit stood when a local player last had the move: the other side's
        #: turn is summarised against it (None while no other side has played since)
        self._snapshot: Snapshot | None = None
        self._away: set[str] = set()  # other sides (computer, network opponent) that played since
        self.highlight: list[Hex] = []  # where the other side's moved units stand now
        self.choice: list[Hex] = []  # where the highlighted answer of a decision dialog happens
        self._last_to_act: str | None = None

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        app = self.app
        yield Static("", id="turnbar", markup=False)
        with Horizontal(id="main"):
            yield HexMapView(self.session.game, glyphs=ASCII if app.ascii else UNICODE,
                             palette=app.hexwar_theme, id="map")
            with Vertical(id="panel"):
                yield Static("", id="info", markup=False)
                yield Static("", id="preview", markup=False)
                yield Static("", id="status", markup=False)
                yield RichLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=20)
        yield Static("", id="keyrow", markup=False)

    @property
    def map_view(self) -> HexMapView:
        return self.query_one("#map", HexMapView)

    def on_resize(self, event) -> None:
        self.set_class(self.size.width >= 120, "-wide")
        self.set_class(self.size.height >= 40, "-tall")
        if self.is_mounted:
            self._update_turnbar()
            self._update_keyrow()

    def on_mount(self) -> None:
        self.set_class(self.size.width >= 120, "-wide")
        self.set_class(self.size.height >= 40, "-tall")
        self.map_view.focus()
        path = self.session.path
        if path is None:
            self.write_log(f"{self.session.scenario.title}: not saved (--no-save)")
        elif getattr(self.session, "saved", True):
            self.write_log(f"{self.session.scenario.title}: saved in {path}")
        else:
            self.write_log(f"{self.session.scenario.title}: will be saved in {path} from the first order")
        self._log_new_events()
        self._last_to_act = self.session.game.to_act()
        self._snapshot = Snapshot.take(self.session.game, len(self._events()))
        actors = self.legal.actors()
        if actors and self.session.is_human(self.session.game.to_act()):
            u = self.session.game.state.units[actors[0]]
            if u.hex is not None:
                self.map_view.cursor = Hex(*u.hex)
        self.refresh_all()
        self.call_after_refresh(self.after_order)

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
            return [(k("select"), "decide"), (k("aid"), "aid"), (k("undo"), "undo"), (k("resign"), "resign"),
                    (k("help"), "help")]
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
        self._set("#info", "\n".join(info), layout=False)
        self._set("#preview", "\n".join(self._preview_lines(h)), layout=False)
        status = side_lines(game, None if self.size.height >= 40 else 2)
        self._set("#status", "\n".join(status))

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

    def notify(self, message: str, *, title: str = "", **kwargs) -> None:  # type: ignore[override]
        if self.app.ascii:
            message, title = ascii_only(message), ascii_only(title)
        super().notify(message, title=title, **kwargs)

    def write_log(self, text: str) -> None:
        """One line of the log, as plain text (chat, names and reasons come from outside)."""
        text = plain_text(text)
        self.query_one("#log", RichLog).write(ascii_only(text) if self.app.ascii else text)

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

    def _log_new_events(self) -> None:
        events = self._events()
        dice = "die" if self.app.ascii else "\u2684"
        for ev in events[self.logged:]:
            self.write_log(event_text(self.session.game, ev, dice))
        self.logged = len(events)

    # --- playing orders -------------------------------------------------------------------
    def play(self, order: Order) -> bool:
        """Play one order for the side to act; refusals become a message, never a traceback."""
        try:
            self.session.play(order)
        except IllegalOrderError as exc:
            self.app.bell()
            self.notify(f"Refused: {exc.reason}", severity="error")
            return False
        except OSError as exc:
            self.notify(f"Could not save the order: {exc}", severity="error")
            return False
        except Exception as exc:  # a ruleset bug must not take the player's game down
            self.notify(f"The rules engine failed on {order.to_text()}: {exc!r}", severity="error")
            return False
        self.write_log(f"> {order_text(self.session.game, order)}")
        self._changed()
        return True

    def _changed(self) -> None:
        game = self.session.game
        actor, self._last_to_act = self._last_to_act, game.to_act()
        self.legal = Legal(game)
        if self.selected is not None and not self.legal.for_unit(self.selected):
            self.selected = None
        self._log_new_events()
        if self.session.is_human(actor):
            self.highlight = []  # the player moved on: forget the other side's marks
        elif actor is not None:
            self._away.add(actor)
        # the player has the move again (not just a decision in the middle of the other turn)
        human = self.session.is_human
        if game.over or (human(self._last_to_act) and (not game.state.pending or human(game.state.active))):
            if self._away:
                self._summarise_other_side()
            self._snapshot = Snapshot.take(game, len(self._events()))
        if self._last_to_act != actor and self._hotseat() and self.session.is_human(self._last_to_act):
            self.notify(f"{side_name(game, self._last_to_act)} to act: hand over the keyboard.",
                        title="Hotseat")
        self.refresh_all()
        self.after_order()

    def _hotseat(self) -> bool:
        game = self.session.game
        return (not getattr(self.session, "network", False)
                and all(self.session.is_human(s.id) for s in game.scenario.sides))

    def _summarise_other_side(self) -> None:
        """The other side has finished: log and show what it did, mark its moved units."""
        actors, self._away = sorted(self._away), set()
        snap = self._snapshot
        if snap is None:
            return
        game = self.session.game
        lines, moved = summary_lines(game, snap, self._events()[snap.events:], actors)
        if not lines:
            return
        self.highlight = moved
        for line in lines:
            self.write_log(f"= {line}")
        # a notice, not a dialog: it must not swallow the player's next key; short, so it does not
        # cover the map of a small terminal (the whole account is in the log)
        self.notify("\n".join(notice_lines(lines, self.map_view.glyphs.moved, keys.display(keys.table()["log"].keys.split(",")[0]))),
                    title=lines[0], timeout=12)

    def after_order(self) -> None:
        """What comes next: the victory screen, a decision dialog, or the computer's move."""
        game = self.session.game
        from .screen_plan import offer
        if offer(self):  # secret plans and battle reports of a campaign (tui/screen_plan.py)
            return
        if game.over:
            from .screen_victory import VictoryScreen
            self.app.push_screen(VictoryScreen(self.session))
            return
        side = game.to_act()
        if not self.session.is_human(side):
            self.selected = None
            self.computer_turn()
            return
        only = nothing_to_decide(self.legal)
        if only is not None:
            self.write_log(passes_by_itself(game, side))
            self.play(only)
            return
        if game.state.pending and self._shown_decision != game.state.seq:
            self._shown_decision = game.state.seq
            self.open_decision()

    def open_decision(self) -> None:
        """The rules ask the player something: a dialog that offers only the answers (resigning
        is its own command, never one of them)."""
        game = self.session.game
        p = game.state.pending[0]
        why = p.get("why") or p.get("reason") or ""
        kind = str(p.get("kind", "")).replace("-", " ")
        about = p.get("unit")
        title = f"{side_name(game, p.get('side'))}: decide {kind}"
        if isinstance(about, str) and about in game.state.units:
            title += f" for {unit_title(game, about)}"
        elif (division := _one_division(game, p.get("units"))) is not None:
            title += f" in {division}"
        if why:
            title += f" ({plain(game, str(why))})"
        left = p.get("count")
        if kind.endswith("loss") and isinstance(left, int) and left > 0:
            title += f": {left} step{'s' if left != 1 else ''} still to lose"
        orders = [o for o in self.legal.orders if o.kind != "resign"]
        if not orders:
            return
        dice = "die" if self.app.ascii else "\u2684"
        recent = "\n".join(event_text(game, ev, dice) for ev in self._events()[-4:])
        # a notice must not cover the answers (the log keeps it); notices are messages, so one
        # posted just now (the other side's summary) is only cleared after it has arrived
        self.app.call_later(self.app.clear_notifications)
        self.app.push_screen(ChooseOrder(game, orders, title, can_cancel=False,
                                         context=f"What just happened:\n{recent}" if recent else "",
                                         show=self._show_choice),
                             self._chosen)

    def _show_choice(self, order: Order) -> None:
        """Mark where a decision's highlighted answer happens (the retreat's end, the unit
        that would lose a step) and put the cursor there, so the map below tells the answers apart."""
        game = self.session.game
        end = path_end(order)
        hexes = [end] if end is not None else target_hexes(game, order)
        if not hexes:
            hexes = [Hex(*game.state.units[uid].hex) for uid in units_of(order)
                     if uid in game.state.units and game.state.units[uid].hex is not None]
        self.choice = hexes
        if hexes:
            self.map_view.cursor = hexes[0]
        self._update_map()

    def _chosen(self, order: Order | None) -> None:
        self.choice = []
        if order is not None:
            self.play(order)
        else:
            self._update_map()

    @work(thread=True, exclusive=True, group="computer")
    def computer_turn(self) -> None:
        """Let the computer choose in a thread; the order is played on the UI thread."""
        self.thinking = True
        self.app.call_from_thread(self._thinking_shown)
        game = self.session.game.copy()
        side = game.to_act()
        try:
            computer = self.app.computers.get(side)
            if computer is None:
                computer = self.app.computers[side] = computer_for(self.app.ai_level, f"ui:{side}")
            order = computer.choose(game)
        except Exception as exc:  # report, don't crash: the player can still save and quit
            self.app.call_from_thread(self._computer_failed, exc)
            return
        self.app.call_from_thread(self._computer_played, order, game.state.seq)

    def _thinking_shown(self) -> None:
        if self.is_mounted:  # the player may have left the game while the computer thought
            self._update_turnbar()

    def _computer_failed(self, exc: Exception) -> None:
        self.thinking = False
        self._update_turnbar()
        self.app.push_screen(Message("The computer player failed", f"{exc!r}\nThe game is saved."))

    def _computer_played(self, order: Order, seq: int) -> None:
        self.thinking = False
        if not self.is_mounted or self.session.game.state.seq != seq:
            return  # the position changed (undo) while the computer thought
        self.play(order)

    # --- cursor and selection -------------------------------------------------------------
    def action_step(self, direction: str) -> None:
        m = self.session.game.map
        table = keys.SCREEN_DIRECTIONS[m.orientation]
        cur = self.map_view.cursor
        d = table[direction]
        if d is None:  # zig-zag along the axis that has no true neighbour
            col, row = m.offset(cur)
            if direction in ("n", "s"):
                row += -1 if direction == "n" else 1
            else:
                col += -1 if direction == "w" else 1
            from hexwar.engine.hexgrid import offset_to_axial
            nxt = offset_to_axial(col, row, m.orientation, m.parity)
        else:
            nxt = hex_neighbor(cur, d)
        if nxt in m:
            self.map_view.cursor = Hex(*nxt)

    def on_hex_map_view_cursor_moved(self, event: HexMapView.CursorMoved) -> None:
        if self.selected is not None:
            self._update_map()
        self._update_panel()

    def on_hex_map_view_hex_clicked(self, event: HexMapView.HexClicked) -> None:
        self.action_select()

    def _select(self, uid: str | None) -> None:
        self.selected = uid
        self._update_map()
        self._update_panel()
        self._update_keyrow()

    def _my_turn(self) -> bool:
        game = self.session.game
        if game.over:
            return False
        if not self.session.is_human(game.to_act()):
            self.notify("The computer is playing; wait for it.", severity="warning")
            return False
        return True

    def action_select(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        if game.state.pending:
            self.open_decision()
            return
        from .screen_plan import pick_on_map
        if pick_on_map(self):  # a campaign's step 8: the orders at the point under the cursor
            return
        h = self.map_view.cursor
        if self.selected is not None:
            unit = game.state.units[self.selected]
            if h in game.ruleset.occupied_hexes(game, unit.id):
                self._cycle_stack(h)
                return
            moves = self.legal.moves_to(self.selected, h)
            if len(moves) == 1:
                self.play(moves[0])
                return
            if moves:
                title = f"Move to {game.map.label(h)}"
                if all(o.get("facing") is not None for o in moves):
                    title += ": which facing? (a direction key or a digit)"
                self.app.push_screen(ChooseOrder(game, moves, title), self._chosen)
                return
            if self.legal.at_target(self.selected, h):
                self.action_fire()
                return
        here = self._actors_at(h)
        if len(here) > 1:
            self._choose_unit(h, here)
            return
        if here:
            self._select(here[0])
            return
        if self.selected is not None:
            self._refuse(self.selected, h)
        elif self._units_at(h):
            alive = [u for u in self._units_at(h) if u.alive]
            if alive:
                self.app.bell()
                self.notify(f"Cannot select: {self._why_not(alive[0].id, h)}", severity="warning")

    def _actors_at(self, h: Hex) -> list[str]:
        """The units in ``h`` that can act now, a regiment before the leader stacked with it."""
        return [u.id for u in self._units_for_cards(h) if self.legal.for_unit(u.id)]

    def _choose_unit(self, h: Hex, here: list[str], orders_of: str | None = None) -> None:
        """Several units in ``h`` can act: the player picks one (``orders_of``, the selected
        unit, is offered as its orders here)."""
        game = self.session.game

        def line(uid: str) -> str:
            return f"{unit_title(game, uid)}: its orders here" if uid == orders_of else unit_title(game, uid)

        def picked(uid: str | None) -> None:
            if uid is None:
                return
            if uid == orders_of:
                self._local_orders(uid)
            else:
                self._select(uid)
        self.app.push_screen(ChooseUnit(f"Which unit in {game.map.label(h)}?", [(u, line(u)) for u in here]),
                             picked)

    def _in_place(self, uid: str, order: Order) -> bool:
        """An order the unit carries out where it stands: no path, and no hex but its own stands
        (an about-face names the stand that becomes the anchor, 9.8; it is still done in place)."""
        if path_end(order) is not None:
            return False
        game = self.session.game
        aims = target_hexes(game, order)
        return not aims or set(aims) <= set(game.ruleset.occupied_hexes(game, uid))

    def _local_orders(self, uid: str) -> bool:
        """Open the unit's orders that need no hex (facing, rally...); False when it has none."""
        game = self.session.game
        local = [o for o in self.legal.for_unit(uid) if self._in_place(uid, o)]
        if local:
            self.app.push_screen(ChooseOrder(game, local, f"Orders for {unit_title(game, uid)}",
                                             show=self._show_choice), self._chosen)
        return bool(local)

    def _cycle_stack(self, h: Hex) -> None:
        """Enter on the selected unit: its orders that need no hex (facing, rally...), or, with
        another unit of the stack able to act, a choice between those orders and that unit;
        else the next unit of the stack, else a hint."""
        uid = self.selected
        assert uid is not None
        others = [x for x in self._actors_at(h) if x != uid]
        has_local = any(self._in_place(uid, o) for o in self.legal.for_unit(uid))
        if others and has_local:
            self._choose_unit(h, [uid] + others, orders_of=uid)
            return
        if self._local_orders(uid):
            return
        here = [u.id for u in sorted(self._units_at(h), key=lambda u: u.id) if self.legal.for_unit(u.id)]
        if len(here) > 1 and uid in here:
            self._select(here[(here.index(uid) + 1) % len(here)])
        else:
            self.notify("Move the cursor to a marked hex and press enter (esc deselects).")

    def _refuse(self, uid: str, h: Hex) -> None:
        """Say why nothing can be done there: the engine answers, the screen only shows it."""
        self.app.bell()
        self.notify(f"Refused: {self._why_not(uid, h)}", severity="error")

    def action_fire(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        h = self.map_view.cursor
        uid = self.selected
        if uid is None:
            shooters = [a for a in self.legal.actors() if self.legal.at_target(a, h)]
            if not shooters:
                self._nobody_can_fire(h)
                return
            uid = shooters[0]
            self._select(uid)
        options = self.legal.at_target(uid, h)
        if not options:
            self._refuse(uid, h)
            return
        arrow = "->" if self.app.ascii else "→"
        self.app.push_screen(ChooseOrder(game, options, f"{unit_title(game, uid)} {arrow} {game.map.label(h)}: confirm"),
                             self._chosen)

    def _nobody_can_fire(self, h: Hex) -> None:
        """No unit of the player's can fire at or attack ``h``: say why for the nearest one."""
        game = self.session.game
        actors = [a for a in self.legal.actors() if game.state.units[a].hex is not None]
        if not actors:
            self.notify("No unit can act now; E ends the phase.", severity="warning")
            return
        nearest = min(actors, key=lambda a: (hex_distance(Hex(*game.state.units[a].hex), h), a))
        self.app.bell()
        self.notify(f"No unit can fire at or attack {game.map.label(h)}. "
                    f"{unit_title(game, nearest)}: {self._why_not(nearest, h)}", severity="warning")

    def action_cancel(self) -> None:
        self._fow_commander = None  # a commander picked on a campaign map (tui/screen_plan.py)
        if self.selected is not None:
            self._select(None)
        self.digits = ""
        self._update_turnbar()

    def _cycle(self, step: int) -> None:
        actors = self.legal.actors()
        if not actors:
            self.notify("No unit can act; E ends the phase.")
            return
        if self.selected in actors:
            uid = actors[(actors.index(self.selected) + step) % len(actors)]
        else:
            uid = actors[0 if step > 0 else -1]
        u = self.session.game.state.units[uid]
        self.selected = uid
        if u.hex is not None:
            self.map_view.cursor = Hex(*u.hex)
        else:
            entry = self._entry_hex(uid)
            if entry is not None:
                self.map_view.cursor = entry
        self._update_map()
        self._update_panel()
        self._update_keyrow()

    def _entry_hex(self, uid: str) -> Hex | None:
        """Where a unit that is not yet on the map comes on: the start of its cheapest route."""
        reach = self.session.game.reachable(uid)
        if not reach:
            return None
        route = min(reach.values(), key=lambda r: (r.cost, len(r.path), r.path))
        return Hex(*route.path[0])

    def action_next_unit(self) -> None:
        self._cycle(1)

    def action_prev_unit(self) -> None:
        self._cycle(-1)

    def action_end_phase(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        if game.state.pending:
            self.open_decision()
            return
        enders = self.legal.phase_enders()
        if len(enders) == 1:
            self.selected = None
            self.play(enders[0])
        elif enders:
            self.app.push_screen(ChooseOrder(game, enders, "End the phase how?"), self._chosen)
        else:
            self.notify("The phase cannot end yet: the rules need an order first.", severity="warning")

    def action_orders(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        if game.ruleset.secret_round(game) is not None and not getattr(self.session, "network", False):
            from .screen_plan import open_plan
            open_plan(self)  # a secret plan is entered on its own screen, never from the list
            return
        orders = self.legal.for_unit(self.selected) if self.selected else self.legal.orders
        orders = [o for o in orders if o.kind != "resign"]  # resigning is its own command (R)
        title = f"Orders for {unit_title(game, self.selected)}" if self.selected else "All legal orders"
        if not orders:
            self.notify("No legal orders.", severity="warning")
            return
        self.app.push_screen(ChooseOrder(game, orders, title), self._chosen)

    def action_undo(self) -> None:
        if self.thinking:
            self.notify("Wait for the computer to finish.", severity="warning")
            return
        n = self.session.undo()
        # an order the screen played by itself (a phase with nothing to decide) is taken back too
        while n and self.session.can_undo and nothing_to_decide(Legal(self.session.game)) is not None:
            n += self.session.undo()
        if not n:
            self.notify("Nothing to undo: the last order rolled dice (or none was played).",
                        severity="warning")
            return
        self.write_log(f"< undid {n} order(s)")
        self.logged = len(self._events())
        self.selected = None
        self.legal = Legal(self.session.game)
        self._last_to_act = self.session.game.to_act()
        self._shown_decision = -1  # undoing back into a decision opens it again
        self.refresh_all()
        self.after_order()

    def action_jump(self) -> None:
        self.app.push_screen(JumpTo(self.digits, jump_prompt(self.session.game)), self._jump)
        self.digits = ""

    def _jump(self, label: str | None) -> None:
        if not label:
            return
        try:
            self.map_view.cursor = jump_target(self.session.game, label)
        except ValueError as exc:
            self.notify(str(exc), severity="error")

    def on_key(self, event: Key) -> None:
        """Digits typed anywhere on the map jump to that hex once a whole label (on a campaign
        map, a point number) is typed."""
        if event.character and event.character.isdigit() and len(event.key) == 1:
            event.stop()
            self.digits += event.character
            need = jump_width(self.session.game)
            if len(self.digits) >= need:
                label, self.digits = self.digits[:need], ""
                self._jump(label)
            self._update_turnbar()

    def _marks(self) -> dict[Hex, Marks]:
        marks = self._selection_marks()
        for h in self.highlight:
            marks.setdefault(h, Marks()).moved = True
        for h in self.choice:
            marks.setdefault(h, Marks()).target = True
        return marks

    def action_zoom(self, delta: int) -> None:
        self.map_view.zoom = self.map_view.zoom + delta

    def action_overview(self) -> None:
        from .screen_overview import Overview
        view = self.map_view
        self.app.push_screen(Overview(self.session.game, view.visible_hexes(), view.cursor,
                                      view.glyphs, view.palette), self._jump_to_hex)

    def _jump_to_hex(self, h: Hex | None) -> None:
        if h is not None:
            self.map_view.cursor = h

    def action_help(self) -> None:
        from .screen_help import HelpScreen
        self.app.push_screen(HelpScreen())

    def action_aid(self) -> None:
        from .screen_aid import PlayerAidScreen
        self.app.push_screen(PlayerAidScreen(self.session.game, ascii=self.app.ascii))

    def action_resign(self) -> None:
        """Resigning is a command of its own that asks first, never an answer in a dialog."""
        if not self._my_turn():
            return
        game = self.session.game
        who = game.to_act()
        others = " and ".join(side_name(game, s.id) for s in game.scenario.sides if s.id != who)
        self.app.push_screen(Confirm(f"{side_name(game, who)}: resign the game?",
                                     f"{others} will win. This cannot be undone."), self._resign)

    def _resign(self, yes: bool | None) -> None:
        if not yes:
            return
        order = next((o for o in self.legal.orders if o.kind == "resign"), None)
        if order is None:
            self.notify("The rules offer no resignation now.", severity="warning")
            return
        self.play(order)

    def action_campaign(self) -> None:
        from .screen_campaign import open_campaign
        open_campaign(self)

    def action_card(self) -> None:
        """The side panel shows what fits; this shows every row of the cards under the cursor
        (the selected unit's when the cursor is on an empty hex), which at 80x24 is the only
        place to read them whole."""
        game = self.session.game
        h = self.map_view.cursor
        units = self._units_for_cards(h)
        if not units and self.selected in game.state.units:
            units = [game.state.units[self.selected]]
            h = units[0].hex if units[0].hex is not None else h
        lines = hex_lines(game, h)
        for u in units:
            lines += [""] + card_lines(game, u.id)
        title = "Unit card" if units else "Hex (no unit here)"
        self.app.clear_notifications()  # a notice must not cover the card (the log keeps it)
        self.app.push_screen(Message(title, "\n".join(lines)))

    def action_log(self) -> None:
        game = self.session.game
        dice = "die" if self.app.ascii else "\u2684"
        text = "\n".join(event_text(game, ev, dice) for ev in self.session.match.events) or "(no events yet)"
        self.app.push_screen(Message("Event log", text))

    def action_menu(self) -> None:
        self.app.back_to_menu()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "computer")


def _one_division(game: Game, uids: Any) -> str | None:
    """The name of the one division every unit of a decision belongs to (a set-up loss falls on
    one division), else None."""
    if not isinstance(uids, list) or not uids:
        return None
    units = game.state.units
    divisions = {units[u].division for u in uids if isinstance(u, str) and u in units}
    if len(divisions) != 1 or None in divisions:
        return None
    div = divisions.pop()
    return next((d.name for d in game.scenario.divisions if d.id == div), None)
