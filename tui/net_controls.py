"""What the game screen does differently when its session is a network one.

The game screen (``screen_game.GameScreen``) is the same for every game; a network session
(``net_session.NetPlay`` or ``WatchPlay``) gives it one of these, which answers the screen's
few questions (may the player act now, what the turn bar says, what comes after an order) and
adds what only a network game has: the session's events (the peer's orders, chat, draw
offers, refusals, desync, the end) and the chat, draw, resign and leave commands.

An order is sent with ``await session.submit(order)`` in a worker; the board changes only when
the session's ``applied`` event arrives (ours or the peer's), so the screen always shows the
state both peers agreed on.
"""

from __future__ import annotations

import logging
from typing import Any

from hexwar.engine import Order
from hexwar.engine.forced import forced_order
from hexwar.engine.orders import IllegalOrderError

from .campaign_flow import offer_net, waiting_words
from .campaign_points import jump_width
from .describe import fit, order_text, passes_by_itself, phase_title, side_name
from .screen_dialogs import AskText, Confirm, Message

log = logging.getLogger("hexwar.net")


class NetControls:
    """The network half of a game screen: ``screen`` shows, ``screen.session`` plays."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.victory_shown = False
        self.draw_dialog = False

    @property
    def session(self) -> Any:
        return self.screen.session

    def notify(self, message: str, **kwargs: Any) -> None:
        self.screen.notify(message, **kwargs)

    def mount(self) -> None:
        """Once the screen is built: the events that came before it, then the live ones."""
        screen, s = self.screen, self.session
        if s.spectator:
            screen.write_log("SPECTATING: read-only; orders, chat and undo are off.")
        else:
            screen.write_log(f"network game: you play {side_name(s.game, s.side)} against "
                             f"{side_name(s.game, s.peer_side)}. ! chat · R resign · D draw offer/answer · no undo")
        applied = False
        for ev in s.backlog:  # before the screen listened; applied orders are in the events
            if ev.kind == "applied":
                applied = True
                if ev.data.get("automatic"):
                    rec = ev.data.get("record")
                    screen.write_log(passes_by_itself(s.game, rec["side"] if rec else ev.data.get("side"),
                                                      ev.data.get("phase")))
            else:
                self.on_event(ev, replay=True)
        s.backlog.clear()
        s.subscribe(self.on_event)
        if applied:  # e.g. an empty phase passed by itself while the screen was being built
            screen._changed()
        else:
            screen.refresh_all()
            if not s.spectator and not s.over:
                offer_net(screen)  # a campaign may start with our secret deployment

    # --- what the game screen asks ----------------------------------------------------------
    def turn_items(self) -> tuple[list[str], list[str]]:
        """The turn bar: ``T8/12 · Move · your turn`` (or who is awaited) first, then extras."""
        screen, s = self.screen, self.session
        game = s.game
        st = game.state
        first = [f"T{st.turn}/{game.scenario.turns}", phase_title(game)]
        extras = []
        if s.spectator:
            first.insert(0, "SPECTATING (read-only)")
            first.append(f"{side_name(game, game.to_act())} to act")
            if s.over:
                first[-1] = "GAME OVER"
            elif not s.connected:
                extras.append("host gone")
        else:
            if s.stopped_reason:
                first.append(s.stopped_reason)
            elif s.over:
                first.append("GAME OVER")
            elif not s.connected:
                first.append("opponent disconnected — reconnecting…")
            elif s.my_turn:
                first.append("your turn" + (" · sending…" if screen.sending else ""))
            else:
                first.append(waiting_words(game, s.side) or f"waiting for {side_name(game, s.peer_side)}")
            extras.append(f"you: {side_name(game, s.side)}")
        if screen.digits:
            need = jump_width(game)
            extras.insert(0, f"jump to {screen.digits}{'_' * (need - len(screen.digits))}")
        if st.pending:
            extras.append(f"decide: {st.pending[0].get('kind', '?').replace('-', ' ')}")
        extras.append(game.scenario.title)
        return first, extras

    def turnbar(self, width: int) -> str:
        first, extras = self.turn_items()
        return fit(first, extras, self.screen.dot, width)

    def may_act(self) -> bool:
        """Whether an order may be sent now; if not, the player is told why."""
        screen, s = self.screen, self.session
        game = s.game
        if s.spectator:
            self.notify("Spectating: the game is read-only.", severity="warning")
            return False
        if s.stopped_reason:
            self.notify(f"{s.stopped_reason}; no more orders.", severity="error")
            return False
        if s.over:
            self.notify("The match is over.", severity="warning")
            return False
        if not s.my_turn:
            screen.app.bell()
            self.notify(f"Not your turn: waiting for {side_name(game, game.to_act())}.", severity="warning")
            return False
        if not s.connected:
            screen.app.bell()
            self.notify("The opponent is disconnected: you cannot act until they reconnect.",
                        severity="warning")
            return False
        if screen.sending:
            self.notify("Your last order is still on its way.", severity="warning")
            return False
        if s.net.auto_pass and forced_order(game) is not None:
            self.notify("Nothing to decide in this phase: it passes by itself.")
            return False
        return True

    def play(self, order: Order) -> bool:
        if not self.may_act():
            return False
        screen = self.screen
        screen.sending = True
        screen._update_turnbar()
        screen.run_worker(self._submit(order), group="net-submit", exit_on_error=False)
        return True

    async def _submit(self, order: Order) -> None:
        from hexwar.net.errors import HexwarNetError
        screen = self.screen
        try:
            await self.session.net.submit(order)
        except (IllegalOrderError, HexwarNetError) as exc:
            screen.app.bell()
            self.notify(f"Refused: {exc.reason}", severity="error")
        except OSError as exc:
            self.notify(f"Could not save the order: {exc}", severity="error")
        finally:
            screen.sending = False
            if screen.is_mounted:
                screen._update_turnbar()

    def after_order(self) -> None:
        """The end, a campaign's plans and reports, or our decision; never the computer."""
        screen, s = self.screen, self.session
        if s.over:
            if not self.victory_shown:
                self.victory_shown = True
                screen.app.router.go("victory", s)
            return
        if offer_net(screen):  # a campaign's battle reports and secret plans (campaign_flow.py)
            return
        if s.spectator or s.game.to_act() != s.side:
            return
        game = s.game
        if game.state.pending and screen._shown_decision != game.state.seq and s.connected:
            screen._shown_decision = game.state.seq
            screen.open_decision()

    def orders(self) -> bool:
        """``o`` in a secret round reopens the plan form; True when it did (or refused)."""
        screen, s = self.screen, self.session
        game = s.game
        if game.ruleset.secret_round(game) is None or s.spectator:
            return False
        if self.may_act():
            screen._plan_busy = None  # o opens the form again after esc
            self.after_order()
        return True

    # --- session events -----------------------------------------------------------------------
    def on_event(self, ev: Any, replay: bool = False) -> None:
        try:
            self._handle(ev, replay)
        except Exception as exc:  # the screen may be closing; never break the session
            log.debug("net event not shown: %r", exc)

    def _handle(self, ev: Any, replay: bool) -> None:
        screen, s = self.screen, self.session
        say = screen.write_log
        kind = ev.kind
        if kind == "applied":
            rec = ev.data.get("record")
            if ev.data.get("automatic"):
                side = rec["side"] if rec is not None else ev.data.get("side")
                say(passes_by_itself(s.game, side, ev.data.get("phase")))
            if rec is not None:
                order = Order.from_wire(rec["order"])
                mark = ">" if rec["side"] == s.side else "<"
                say(f"{mark} {side_name(s.game, rec['side'])}: {order_text(s.game, order)}")
            else:  # a spectator's record: "seq: side order"
                _, _, rest = ev.text.partition(": ")
                side, _, text = rest.partition(" ")
                try:
                    text = order_text(s.game, Order.from_text(text))
                except Exception:  # the raw wire text is still worth showing
                    pass
                say(f"< {side_name(s.game, side)}: {text}")
            if not replay:
                screen._changed()
            return
        if kind == "chat":
            say(f"[chat] {ev.text}")
            if not ev.data.get("mine") and not replay:
                self.notify(ev.text, title="chat")
        elif kind == "draw":
            say(f"[draw] {ev.text}")
            if ev.data.get("offer") and not replay:
                self.draw_offered()
            elif not ev.data.get("offer"):
                self.notify(ev.text)
        elif kind == "status":
            say(f"[net] {ev.text}")
            if ev.data.get("connected") is False and not s.over:
                self.notify("The opponent is disconnected.", severity="warning")
            elif ev.data.get("connected") is True:
                self.notify(ev.text)
        elif kind == "refused":
            say(f"[refused] {ev.text}")
        elif kind == "desync":
            say(f"[DESYNC] {ev.text}")
            screen.app.push_screen(Message("Desync: play stopped", ev.text))
        elif kind == "over":
            say(f"[end] {ev.text}")
        else:
            say(f"[{kind}] {ev.text}")
        if not replay:
            screen.refresh_all()
            if kind == "over":
                self.after_order()
            elif kind == "status" and ev.data.get("connected") is True and not s.spectator:
                offer_net(screen)  # a plan that waited for the link

    # --- chat, resign, draw, leave ----------------------------------------------------------
    def chat(self) -> None:
        s = self.session
        if s.spectator:
            self.notify("Spectators cannot chat (read-only).", severity="warning")
            return
        self.screen.app.push_screen(AskText(f"Say to {side_name(s.game, s.peer_side)}:"), self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if text:
            self.screen.run_worker(self.session.net.chat(text), group="net-chat", exit_on_error=False)

    def resign(self) -> None:
        s = self.session
        if s.spectator or s.over:
            self.notify("Nothing to resign." if s.over else "Spectating: read-only.", severity="warning")
            return
        self.screen.app.push_screen(Confirm("Resign?", f"{side_name(s.game, s.peer_side)} wins the match."),
                                    self._resign)

    def _resign(self, yes: bool | None) -> None:
        if yes:
            self.screen.run_worker(self.session.net.resign(), group="net-resign", exit_on_error=False)

    def draw(self) -> None:
        s = self.session
        if s.spectator or s.over:
            self.notify("The match is over." if s.over else "Spectating: read-only.", severity="warning")
            return
        if s.net.peer_offers_draw:
            self.draw_offered()
            return
        if not s.connected:
            self.notify("The opponent is disconnected.", severity="warning")
            return
        self.screen.app.push_screen(Confirm("Offer a draw?", "The opponent may accept or decline."), self._offer)

    def _offer(self, yes: bool | None) -> None:
        if yes:
            self.screen.write_log("[draw] you offer a draw")
            self.screen.run_worker(self.session.net.offer_draw(), group="net-draw", exit_on_error=False)

    def draw_offered(self) -> None:
        if self.draw_dialog:
            return
        self.draw_dialog = True
        s = self.session
        self.screen.app.push_screen(Confirm("Draw offered", f"{side_name(s.game, s.peer_side)} offers a draw. Accept?"),
                                    self._answer_draw)

    def _answer_draw(self, yes: bool | None) -> None:
        self.draw_dialog = False
        self.screen.run_worker(self._draw_reply(bool(yes)), group="net-draw", exit_on_error=False)

    async def _draw_reply(self, yes: bool) -> None:
        try:
            if yes:
                await self.session.net.accept_draw()
            else:
                await self.session.net.decline_draw()
                self.screen.write_log("[draw] you decline the draw")
        except IllegalOrderError as exc:
            self.notify(f"Refused: {exc.reason}", severity="error")

    def leave(self) -> None:
        s = self.session
        router = self.screen.app.router
        if s.over or s.spectator:
            router.go("menu")
            return
        text = ("The match stays on the server, your seat kept for you:\ncome back to it from the lobby."
                if getattr(self.screen.app, "served", False) else   # no server paths or CLI advice over ssh
                "The opponent sees you disconnect. The match is journaled in\n"
                f"{s.path}\nand can be continued with --resume.")
        self.screen.app.push_screen(Confirm("Leave the network game?", text),
                                    lambda yes: yes and router.go("menu"))


__all__ = ["NetControls"]
