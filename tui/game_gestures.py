"""What the game screen does with the player's keys and clicks on the map.

A mixin of ``screen_game.GameScreen``: key presses and clicks become gestures (move the cursor,
select this unit, act on that hex, end the phase) and ``picking.Legal`` finds the legal order
that matches; the engine judges everything, and a refusal says its reason.
"""

from __future__ import annotations

from typing import Any

from textual.events import Key

from hexwar.engine import Order
from hexwar.engine.hexgrid import Hex, hex_distance, hex_neighbor

from . import keys
from ._hex_map import HexMapView
from .campaign_flow import open_plan, pick_on_map
from .campaign_points import jump_prompt, jump_target, jump_width
from .describe import side_name, unit_title
from .picking import path_end, target_hexes
from .screen_dialogs import ChooseOrder, ChooseUnit, Confirm, JumpTo


class Gestures:
    """The input half of the game screen (``session``, ``legal``, ``selected``, ``map_view``,
    ``play``, ``net`` are the screen's)."""

    session: Any
    legal: Any
    selected: str | None
    digits: str
    net: Any

    #: ask before an end-phase that leaves units able to act (tests of other things turn it off)
    ASK_BEFORE_ENDING = True

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

    def action_select(self) -> None:
        if not self._my_turn():
            return
        game = self.session.game
        if game.state.pending:
            self.open_decision()
            return
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
        if not enders:
            self.notify("The phase cannot end yet: the rules need an order first.", severity="warning")
            return
        could = len(self.legal.actors())
        if could and self.ASK_BEFORE_ENDING:
            who = side_name(game, game.to_act())
            units = "1 unit" if could == 1 else f"{could} units"
            tab = keys.display(keys.table()["next_unit"].keys.split(",")[0])
            self.app.push_screen(Confirm(f"{who}: end the phase?",
                                         f"{units} could still act ({tab} shows them). Ending the phase "
                                         "gives up their orders."),
                                 lambda yes: self._end_phase(enders) if yes else None)
            return
        self._end_phase(enders)

    def _end_phase(self, enders: list[Order]) -> None:
        if len(enders) == 1:
            self.selected = None
            self.play(enders[0])
        else:
            self.app.push_screen(ChooseOrder(self.session.game, enders, "End the phase how?"), self._chosen)

    def action_orders(self) -> None:
        if self.net is not None and self.net.orders():  # o reopens a network game's plan form
            return
        if not self._my_turn():
            return
        game = self.session.game
        if game.ruleset.secret_round(game) is not None:
            open_plan(self)  # a secret plan is entered on its own screen, never from the list
            return
        orders = self.legal.for_unit(self.selected) if self.selected else self.legal.orders
        orders = [o for o in orders if o.kind != "resign"]  # resigning is its own command (R)
        title = f"Orders for {unit_title(game, self.selected)}" if self.selected else "All legal orders"
        if not orders:
            self.notify("No legal orders.", severity="warning")
            return
        self.app.push_screen(ChooseOrder(game, orders, title), self._chosen)

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

    def action_zoom(self, delta: int) -> None:
        self.map_view.zoom = self.map_view.zoom + delta


__all__ = ["Gestures"]
