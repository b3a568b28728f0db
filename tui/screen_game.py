"""The game screen: map, turn bar, unit/terrain panel, combat preview, side status, event log.

It turns key presses and clicks into gestures (select this unit, act on that hex) and asks
``picking.Legal`` for the legal order that matches; the engine judges everything. The computer
player thinks in a worker thread so the screen stays responsive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from hexwar.engine import Order
from hexwar.engine.ai import Computer
from hexwar.engine.hexgrid import Hex, hex_linedraw, hex_neighbor
from hexwar.engine.orders import IllegalOrderError

from . import keys
from ._hex_map import HexMapView, Marks
from .describe import (event_text, hex_lines, odds_lines, order_text, side_lines, side_name,
                       unit_lines)
from .glyphs import ASCII, UNICODE
from .picking import PATH_KEYS, TARGET_KEYS, Legal, path_end, target_hexes
from .screen_dialogs import ChooseOrder, JumpTo, Message
from .session import Session

if TYPE_CHECKING:
    from .app import HexwarApp

# Screen direction -> hex direction index, per orientation; None means "zig-zag".
_POINTY = {"e": 0, "ne": 1, "nw": 2, "w": 3, "sw": 4, "se": 5, "n": None, "s": None}
_FLAT = {"se": 0, "ne": 1, "n": 2, "nw": 3, "sw": 4, "s": 5, "e": None, "w": None}


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
                yield RichLog(id="log", wrap=True, markup=False, max_lines=2000)
        yield Footer()

    @property
    def map_view(self) -> HexMapView:
        return self.query_one("#map", HexMapView)

    def on_resize(self, event) -> None:
        self.set_class(self.size.width >= 120, "-wide")

    def on_mount(self) -> None:
        self.set_class(self.size.width >= 120, "-wide")
        self.map_view.focus()
        log = self.query_one("#log", RichLog)
        log.write(f"{self.session.scenario.title} — saved to {self.session.path or '(not saved)'}")
        self._log_new_events()
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

    def _update_turnbar(self) -> None:
        game, s = self.session.game, self.session.game.state
        who = game.to_act()
        role = "you" if self.session.is_human(who) else "computer"
        bar = (f"{game.scenario.title} · Turn {s.turn}/{game.scenario.turns} · phase {s.phase or '-'}"
               f" · {side_name(game, s.active)} phasing · to act: {side_name(game, who)} ({role})")
        if s.pending:
            bar += f" · {ASCII.pending if self.app.ascii else UNICODE.pending} decision: {s.pending[0].get('kind', '?')}"
        if self.thinking:
            bar += " · computer thinking…"
        if game.over:
            bar += " · GAME OVER"
        if self.digits:
            need = 2 * game.map.label_width
            bar += f" · jump to {self.digits}{'_' * (need - len(self.digits))}"
        self._set("#turnbar", bar, layout=False)

    def _marks(self) -> dict[Hex, Marks]:
        game = self.session.game
        marks: dict[Hex, Marks] = {}
        uid = self.selected
        if uid is None or uid not in game.state.units or game.state.units[uid].hex is None:
            return marks
        unit = game.state.units[uid]
        for h, route in game.reachable(uid).items():
            marks.setdefault(Hex(*h), Marks()).reach = route.cost
        for h in game.targets(uid):
            marks.setdefault(Hex(*h), Marks()).target = True
        for h in game.zoc_hexes(unit.side):
            marks.setdefault(Hex(*h), Marks()).contact = True
        cursor = self.map_view.cursor
        if cursor != unit.hex:
            for h in hex_linedraw(unit.hex, cursor)[1:-1]:
                marks.setdefault(Hex(*h), Marks()).line = True
        return marks

    def _update_map(self) -> None:
        game = self.session.game
        sel = None
        if self.selected and self.selected in game.state.units:
            h = game.state.units[self.selected].hex
            sel = Hex(*h) if h is not None else None
        self.map_view.show(game, self._marks(), sel)

    def _update_panel(self) -> None:
        game = self.session.game
        h = self.map_view.cursor
        info = hex_lines(game, h)
        for u in sorted(game.state.unit_at(h), key=lambda u: u.id):
            if u.alive:
                info += [""] + unit_lines(game, u.id)
        self._set("#info", "\n".join(info), layout=False)
        self._set("#preview", "\n".join(self._preview_lines(h)), layout=False)
        status = side_lines(game)
        if self.session.can_undo:
            status.append("undo available (u)")
        self._set("#status", "\n".join(status))

    def _set(self, selector: str, text: str, layout: bool = True) -> None:
        """Update a panel only when its text changes. Panels of fixed height skip the layout
        pass, which would otherwise repaint the whole map on every cursor move."""
        widget = self.query_one(selector, Static)
        if getattr(widget, "_hexwar_text", None) != text:
            widget._hexwar_text = text  # type: ignore[attr-defined]
            widget.update(text, layout=layout)

    def _preview_lines(self, h: Hex) -> list[str]:
        game = self.session.game
        if self.selected is None:
            n = len(self.legal.actors())
            return [f"{n} unit(s) can act · tab: next · enter: select"] if n else ["no unit can act · E: end phase"]
        lines = [f"selected: {game.state.units[self.selected].name}"]
        moves = self.legal.moves_to(self.selected, h)
        attacks = self.legal.at_target(self.selected, h)
        if moves:
            route = game.reachable(self.selected).get(h)
            cost = f" (cost {route.cost})" if route is not None else ""
            lines.append(f"enter: {moves[0].kind} to {game.map.label(h)}{cost}")
        if attacks:
            lines.append(f"enter/f: {order_text(game, attacks[0])}")
            try:
                lines += odds_lines(game, game.odds(attacks[0]))
            except Exception as exc:  # the preview is advisory; never crash on it
                lines.append(f"(no preview: {exc})")
        if not moves and not attacks and h != game.state.units[self.selected].hex:
            lines.append("no order for this unit here")
        return lines

    def _log_new_events(self) -> None:
        events = self.session.match.events
        log = self.query_one("#log", RichLog)
        dice = "die" if self.app.ascii else "\u2684"
        for ev in events[self.logged:]:
            log.write(event_text(self.session.game, ev, dice))
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
        self.query_one("#log", RichLog).write(f"> {order_text(self.session.game, order)}")
        self._changed()
        return True

    def _changed(self) -> None:
        self.legal = Legal(self.session.game)
        if self.selected is not None and not self.legal.for_unit(self.selected):
            self.selected = None
        self._log_new_events()
        self.refresh_all()
        self.after_order()

    def after_order(self) -> None:
        """What comes next: the victory screen, a decision dialog, or the computer's move."""
        game = self.session.game
        if game.over:
            from .screen_victory import VictoryScreen
            self.app.push_screen(VictoryScreen(self.session))
            return
        side = game.to_act()
        if not self.session.is_human(side):
            self.selected = None
            self.computer_turn()
            return
        if game.state.pending and self._shown_decision != game.state.seq:
            self._shown_decision = game.state.seq
            self.open_decision()

    def open_decision(self) -> None:
        game = self.session.game
        p = game.state.pending[0]
        why = p.get("why") or p.get("reason") or ""
        title = f"{side_name(game, p.get('side'))}: decide {p.get('kind', '')}" + (f" — {why}" if why else "")
        orders = self.legal.orders
        self.app.push_screen(ChooseOrder(game, orders, title, can_cancel=False), self._chosen)

    def _chosen(self, order: Order | None) -> None:
        if order is not None:
            self.play(order)

    @work(thread=True, exclusive=True, group="computer")
    def computer_turn(self) -> None:
        """Let the computer choose in a thread; the order is played on the UI thread."""
        self.thinking = True
        self.app.call_from_thread(self._update_turnbar)
        game = self.session.game.copy()
        side = game.to_act()
        try:
            order = self.app.computers.setdefault(side, Computer(f"ui:{side}")).choose(game)
        except Exception as exc:  # report, don't crash: the player can still save and quit
            self.app.call_from_thread(self._computer_failed, exc)
            return
        self.app.call_from_thread(self._computer_played, order, game.state.seq)

    def _computer_failed(self, exc: Exception) -> None:
        self.thinking = False
        self._update_turnbar()
        self.app.push_screen(Message("The computer player failed", f"{exc!r}\nThe game is saved."))

    def _computer_played(self, order: Order, seq: int) -> None:
        self.thinking = False
        if self.session.game.state.seq != seq:
            return  # the position changed (undo) while the computer thought
        self.play(order)

    # --- cursor and selection -------------------------------------------------------------
    def action_step(self, direction: str) -> None:
        m = self.session.game.map
        table = _POINTY if m.orientation == "pointy" else _FLAT
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
        h = self.map_view.cursor
        if self.selected is not None:
            unit = game.state.units[self.selected]
            if unit.hex == h:
                self._cycle_stack(h)
                return
            moves = self.legal.moves_to(self.selected, h)
            if len(moves) == 1:
                self.play(moves[0])
                return
            if moves:
                self.app.push_screen(ChooseOrder(game, moves, "Which move?"), self._chosen)
                return
            if self.legal.at_target(self.selected, h):
                self.action_fire()
                return
        here = [u.id for u in game.state.unit_at(h) if self.legal.for_unit(u.id)]
        if here:
            self._select(here[0])
            return
        if self.selected is not None:
            self._refuse(self.selected, h)
        elif game.state.unit_at(h):
            names = ", ".join(u.name for u in game.state.unit_at(h) if u.alive)
            self.notify(f"{names}: no order possible now", severity="warning")

    def _cycle_stack(self, h: Hex) -> None:
        """Enter on the selected unit: its orders that need no hex (facing, rally...), else the
        next unit of the stack, else a hint."""
        game = self.session.game
        uid = self.selected
        assert uid is not None
        local = [o for o in self.legal.for_unit(uid)
                 if path_end(o) is None and not target_hexes(game, o)]
        if local:
            self.app.push_screen(ChooseOrder(game, local, f"Orders for {game.state.units[uid].name}"),
                                 self._chosen)
            return
        here = [u.id for u in sorted(game.state.unit_at(h), key=lambda u: u.id) if self.legal.for_unit(u.id)]
        if len(here) > 1 and uid in here:
            self._select(here[(here.index(uid) + 1) % len(here)])
        else:
            self.notify("Move the cursor to a marked hex and press enter (esc deselects).")

    def _refuse(self, uid: str, h: Hex) -> None:
        """Say why nothing can be done: ask the engine about the closest order we can form."""
        game = self.session.game
        probe = None
        for o in self.legal.for_unit(uid):
            args = dict(o.args)
            if any(k in args for k in PATH_KEYS):
                key = next(k for k in PATH_KEYS if k in args)
                args[key] = [list(h)]
            elif any(k in args for k in TARGET_KEYS):
                key = next(k for k in TARGET_KEYS if k in args)
                args[key] = list(h)
            else:
                continue
            probe = Order.make(o.kind, **args)
            break
        reason = game.validate(probe) if probe is not None else None
        name = game.state.units[uid].name
        self.app.bell()
        self.notify(f"Refused: {reason or f'{name} has no order for {game.map.label(h)}'}",
                    severity="error")

    def action_fire(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        h = self.map_view.cursor
        uid = self.selected
        if uid is None:
            shooters = [a for a in self.legal.actors() if self.legal.at_target(a, h)]
            if not shooters:
                self.notify("No unit can fire at or attack this hex.", severity="warning")
                return
            uid = shooters[0]
            self._select(uid)
        options = self.legal.at_target(uid, h)
        if not options:
            self._refuse(uid, h)
            return
        name = game.state.units[uid].name
        self.app.push_screen(ChooseOrder(game, options, f"{name} → {game.map.label(h)}: confirm"),
                             self._chosen)

    def action_cancel(self) -> None:
        if self.selected is not None:
            self._select(None)
        self.digits = ""

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
        self._update_map()
        self._update_panel()

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
        orders = self.legal.for_unit(self.selected) if self.selected else self.legal.orders
        title = f"Orders for {game.state.units[self.selected].name}" if self.selected else "All legal orders"
        if not orders:
            self.notify("No legal orders.", severity="warning")
            return
        self.app.push_screen(ChooseOrder(game, orders, title), self._chosen)

    def action_undo(self) -> None:
        if self.thinking:
            self.notify("Wait for the computer to finish.", severity="warning")
            return
        n = self.session.undo()
        if not n:
            self.notify("Nothing to undo: the last order rolled dice (or none was played).",
                        severity="warning")
            return
        self.query_one("#log", RichLog).write(f"< undid {n} order(s)")
        self.logged = len(self.session.match.events)
        self.selected = None
        self.legal = Legal(self.session.game)
        self.refresh_all()

    def action_jump(self) -> None:
        self.app.push_screen(JumpTo(self.digits), self._jump)
        self.digits = ""

    def _jump(self, label: str | None) -> None:
        if not label:
            return
        m = self.session.game.map
        try:
            self.map_view.cursor = Hex(*m.parse(label))
        except ValueError as exc:
            self.notify(str(exc), severity="error")

    def on_key(self, event: Key) -> None:
        """Digits typed anywhere on the map jump to that hex once a whole label is typed."""
        if event.character and event.character.isdigit() and len(event.key) == 1:
            event.stop()
            self.digits += event.character
            need = 2 * self.session.game.map.label_width
            if len(self.digits) >= need:
                label, self.digits = self.digits[:need], ""
                self._jump(label)
            self._update_turnbar()

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

    def action_log(self) -> None:
        game = self.session.game
        dice = "die" if self.app.ascii else "\u2684"
        text = "\n".join(event_text(game, ev, dice) for ev in self.session.match.events) or "(no events yet)"
        self.app.push_screen(Message("Event log", text))

    def action_menu(self) -> None:
        self.app.back_to_menu()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "computer")
