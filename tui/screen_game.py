"""The game screen: map, turn bar, unit/terrain panel, combat preview, side status, event log.

One screen for every game: hotseat, against the computer, over the network (host, guest or
spectator). Its jobs are split by module: ``game_panels`` draws, ``game_gestures`` turns keys
and clicks into orders, this module runs the flow (an order played, what comes next: a
decision, the computer's move, the end), and a network session's own part (events, chat,
draw, its rules for when the player may act) is ``net_controls.NetControls``. The computer
player thinks in a worker thread so the screen stays responsive. Other screens are opened
by name through the app's router (``self.app.router.go("help")``), never imported.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import RichLog, Static

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import Hex
from hexwar.engine.levels import computer_for
from hexwar.engine.orders import IllegalOrderError
from hexwar.plaintext import plain_text

from . import keys
from ._hex_map import HexMapView
from .campaign_flow import offer, open_campaign
from .describe import (ascii_only, card_lines, event_text, hex_lines, order_text, passes_by_itself, plain,
                       side_name, unit_title)
from .game_gestures import Gestures
from .game_panels import Panels
from .glyphs import ASCII, UNICODE
from .net_controls import NetControls
from .picking import Legal, nothing_to_decide, path_end, target_hexes, units_of
from .screen_dialogs import ChooseOrder, Confirm, Message
from .session import Session
from .turn_summary import Snapshot, notice_lines, summary_lines

#: the network game's commands (keys.NET_KEYS): bound always, enabled with a network session
NET_ACTIONS = {s.action for s in keys.NET_KEYS.values()}


def net_bindings() -> list[Binding]:
    return [Binding(s.keys, s.action, s.short or s.description, show=s.show, id=name)
            for name, s in keys.NET_KEYS.items()]


class GameScreen(Panels, Gestures, Screen):
    """Play one match: hotseat, against the computer, or over the network."""

    BINDINGS = keys.bindings() + net_bindings()

    def __init__(self, session: Session | Any) -> None:  # a local Session, or net_session.NetPlay / WatchPlay
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
        self.sending = False  # a network order (or sealed plan) is on its way
        #: a network session's own commands and events; None for a game on this machine
        self.net = NetControls(self) if getattr(session, "network", False) else None

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
        if self.net is not None:  # the session's events, once the screen below is drawn
            self.call_after_refresh(self.net.mount)
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

    def notify(self, message: str, *, title: str = "", **kwargs) -> None:  # type: ignore[override]
        if self.app.ascii:
            message, title = ascii_only(message), ascii_only(title)
        super().notify(message, title=title, **kwargs)

    def write_log(self, text: str) -> None:
        """One line of the log, as plain text (chat, names and reasons come from outside)."""
        text = plain_text(text)
        self.query_one("#log", RichLog).write(ascii_only(text) if self.app.ascii else text)

    def _log_new_events(self) -> None:
        events = self._events()
        dice = "die" if self.app.ascii else "\u2684"
        for ev in events[self.logged:]:
            self.write_log(event_text(self.session.game, ev, dice))
        self.logged = len(events)

    # --- playing orders -------------------------------------------------------------------
    def play(self, order: Order) -> bool:
        """Play one order for the side to act; refusals become a message, never a traceback.
        Over the network the order is sent, and the board changes when both sides have it."""
        if self.net is not None:
            return self.net.play(order)
        actor = self.session.game.to_act()
        try:
            self.session.play(order)
            if not self.session.can_undo:
                self._final_by = actor  # whose order made everything before it final (a die roll)
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
        if self.net is not None:
            self.net.after_order()
            return
        game = self.session.game
        if offer(self):  # secret plans and battle reports of a campaign (tui/screen_plan.py)
            return
        if game.over:
            self.app.router.go("victory", self.session)
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

    def _my_turn(self) -> bool:
        if self.net is not None:
            return self.net.may_act()
        game = self.session.game
        if game.over:
            return False
        if not self.session.is_human(game.to_act()):
            self.notify("The computer is playing; wait for it.", severity="warning")
            return False
        return True

    def action_undo(self) -> None:
        if self.net is not None:
            self.notify("No undo in network games: an order is final once the opponent has it.",
                        severity="warning")
            return
        if self.thinking:
            self.notify("Wait for the computer to finish.", severity="warning")
            return
        n = self.session.undo()
        # an order the screen played by itself (a phase with nothing to decide) is taken back too
        while n and self.session.can_undo and nothing_to_decide(Legal(self.session.game)) is not None:
            n += self.session.undo()
        if not n:
            self.notify(self._why_no_undo(), severity="warning")
            return
        self.write_log(f"< undid {n} order(s)")
        self.logged = len(self._events())
        self.selected = None
        self.legal = Legal(self.session.game)
        self._last_to_act = self.session.game.to_act()
        self._shown_decision = -1  # undoing back into a decision opens it again
        self.refresh_all()
        self.after_order()

    _final_by: str | None = None

    def _why_no_undo(self) -> str:
        """Why ``u`` takes nothing back, in the player's words (issue 34 item 2)."""
        game = self.session.game
        if self._final_by is None:
            if game.state.seq == 0:
                return "Nothing to undo: no order has been played yet."
            return "Nothing to undo: the last order rolled dice (or sealed a plan), and that is final."
        who = self._final_by
        if not self.session.is_human(who):
            return (f"Nothing to undo: the computer ({side_name(game, who)}) rolled dice since your "
                    "last order, and a roll is final.")
        return "Nothing to undo: your last order rolled dice, and a roll is final."

    def action_overview(self) -> None:
        view = self.map_view
        self.app.router.go("overview", self.session.game, view.visible_hexes(), view.cursor, view.glyphs,
                           view.palette, then=self._jump_to_hex)

    def _jump_to_hex(self, h: Hex | None) -> None:
        if h is not None:
            self.map_view.cursor = h

    def action_help(self) -> None:
        self.app.router.go("help", network=self.net is not None)

    def action_aid(self) -> None:
        self.app.router.go("aid", self.session.game, ascii=self.app.ascii)

    def action_resign(self) -> None:
        """Resigning is a command of its own that asks first, never an answer in a dialog."""
        if self.net is not None:
            self.net.resign()
            return
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
        text = "\n".join(event_text(game, ev, dice) for ev in self._events()) or "(no events yet)"
        self.app.push_screen(Message("Event log", text))

    def action_menu(self) -> None:
        if self.net is not None:
            self.net.leave()  # asks first: the opponent sees a disconnect
            return
        self.app.router.go("menu")

    # --- network games only (keys.NET_KEYS) ---------------------------------------------------
    def action_chat(self) -> None:
        if self.net is not None:
            self.net.chat()

    def action_draw(self) -> None:
        if self.net is not None:
            self.net.draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Chat and draw offers exist in network games only."""
        return self.net is not None or action not in NET_ACTIONS

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
