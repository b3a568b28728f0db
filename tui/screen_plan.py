"""Secret plans in the UI (engine/secret.py): the plan-entry screen, the hotseat hand-over screen,
and the hook that the game screen asks before anything else whether a plan is due.

A local player fills in the form of ``engine/rulesets/fow/planform.py`` (keyboard only), the
engine says why a plan is refused, and Enter commits it through ``Session.commit_plan``: only
the commitment enters the state and the journal; plan and salt stay in memory until every side
has committed, then the screen reveals them by itself. In hotseat a hand-over screen that shows
nothing of the game comes before each side's plan, so neither player sees the other's form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from hexwar.engine import secret
from hexwar.engine.orders import IllegalOrderError
from hexwar.plaintext import plain_text

from .describe import ascii_only, side_name

if TYPE_CHECKING:
    from .screen_game import GameScreen


def _planform() -> Any:
    from hexwar.engine.rulesets.fow import planform
    return planform


def _mapview() -> Any:
    from hexwar.engine.rulesets.fow import mapview
    return mapview


def has_plan_form(game: Any) -> bool:
    return game.ruleset.id == "fow"


class HandOverScreen(Screen[None]):
    """Hotseat: a blank screen between the two players' secret plans."""

    BINDINGS = [Binding("enter", "ready", "Ready")]

    def __init__(self, who: str, sealed: list[str]) -> None:
        super().__init__()
        self.who = who
        self.sealed = sealed

    def compose(self) -> ComposeResult:
        lines = ["Secret plans", ""]
        if self.sealed:
            lines.append(f"The plan of {' and '.join(self.sealed)} is sealed: nobody can see it until "
                         "both plans are committed.")
        lines += [f"Pass the keyboard to the {self.who} player,", "then press Enter."]
        text = plain_text("\n".join(lines))
        yield Static(ascii_only(text) if getattr(self.app, "ascii", False) else text,
                     markup=False, id="handover-text", classes="dialog")

    def action_ready(self) -> None:
        self.dismiss(None)


class PlanScreen(Screen[list | None]):
    """Enter one side's plan: posture, each commander's order and participants, support bought."""

    BINDINGS = [Binding("up,w,k", "move(-1)", "Up", show=False),
                Binding("down,x,j", "move(1)", "Down", show=False),
                Binding("left,a,h", "cycle(-1)", "Previous choice", show=False),
                Binding("right,d,l,space", "cycle(1)", "Next choice", show=False),
                Binding("enter", "commit", "Commit"),
                Binding("s", "suggest", "Suggest"),
                Binding("m", "map", "Map"),
                Binding("p", "aid", "Aid"),
                Binding("escape", "leave", "Back")]

    def __init__(self, game: Any, side: str) -> None:
        super().__init__()
        self.game = game
        self.side = side
        pf = _planform()
        self.fields = pf.build(game, side)
        self.cursor = 0
        self.show_map = False

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="plan-head", markup=False)
        with Horizontal(id="plan-main"):
            with VerticalScroll(id="plan-form"):
                yield Static("", id="plan-fields")
            with VerticalScroll(id="plan-side"):
                yield Static("", id="plan-map", markup=False)
        yield Static("", id="plan-check", markup=False)
        yield Static("", id="plan-keys", markup=False)

    def on_mount(self) -> None:
        self._layout()
        self.redraw()

    def on_resize(self, event: Any) -> None:
        self._layout()

    def _layout(self) -> None:
        wide = self.size.width >= 120
        form, side = self.query_one("#plan-form"), self.query_one("#plan-side")
        form.display = wide or not self.show_map
        side.display = wide or self.show_map
        form.styles.width = "1fr"
        side.styles.width = 78 if wide else "1fr"

    def _w(self, text: str) -> str:
        """Plain text (names come from the scenario file), ASCII under ``--ascii``."""
        text = plain_text(text)
        return ascii_only(text) if getattr(self.app, "ascii", False) else text

    def redraw(self) -> None:
        game, state = self.game, self.game.state
        s = state.sides[self.side]
        if _planform().deploying(game):
            head = (f"Before turn 1 · secret deployment (5, G-59) · {side_name(game, self.side)}: "
                    "a point for every company")
        else:
            head = (f"T{state.turn}/{game.scenario.turns} · Steps 4-7 secret plan · {side_name(game, self.side)} · "
                    f"{s['rp']} RP · weather {state.vars['weather']}")
        self.query_one("#plan-head", Static).update(self._w(head))
        body = Text()
        for i, f in enumerate(self.fields):
            pad = " " * f.indent
            if f.kind == "note":
                line = f"  {pad}{f.label}"
            else:
                line = f"{'>' if i == self.cursor else ' '} {pad}{f.label}: < {f.text} >"
            body.append(self._w(line) + "\n", style="reverse" if i == self.cursor else "")
        self.query_one("#plan-fields", Static).update(body)
        cost, why = _planform().check(game, self.side, self.fields)
        verdict = f"not yet: {why}" if why else "the rules accept this plan: enter commits it"
        self.query_one("#plan-check", Static).update(self._w(f"Cost {cost} of {s['rp']} RP · {verdict}"))
        keys = "up/down field · left/right change · enter commit · s suggest · m map · p aid · esc back"
        self.query_one("#plan-keys", Static).update(self._w(keys))
        mv = _mapview()
        side_text = "\n".join(mv.map_lines(game) + [""] + mv.legend(game) + [""] + mv.side_panel(game)
                              + [""] + mv.group_lines(game))
        self.query_one("#plan-map", Static).update(self._w(side_text))
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        form = self.query_one("#plan-form", VerticalScroll)
        h = max(1, form.size.height)
        if self.cursor < form.scroll_y or self.cursor >= form.scroll_y + h:
            form.scroll_to(y=max(0, self.cursor - h // 2), animate=False)

    # --- keys -----------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        n = len(self.fields)
        i = self.cursor
        for _ in range(n):
            i = (i + step) % n
            if self.fields[i].kind != "note":
                break
        self.cursor = i
        self.redraw()

    def action_cycle(self, step: int) -> None:
        f = self.fields[self.cursor]
        if f.kind == "note":
            return
        f.cycle(step)
        pf = _planform()
        if f.kind == "posture":
            pf.refresh(self.game, self.side, self.fields)
        elif f.kind == "with" and f.value:
            for g in self.fields:  # a company takes part in one order only (G-55)
                if g is not f and g.kind == "with" and g.company == f.company:
                    g.choose(False)
        self.redraw()

    def action_suggest(self) -> None:
        """Fill the form with the computer's plan for this side (from the shared state only)."""
        _planform().fill(self.game, self.side, self.fields, self.game.ruleset.ai_plan(self.game, self.side))
        self.notify("The form holds the computer's suggestion; change what you like.")
        self.redraw()

    def action_map(self) -> None:
        self.show_map = not self.show_map
        self._layout()

    def action_aid(self) -> None:
        from .screen_aid import PlayerAidScreen
        self.app.push_screen(PlayerAidScreen(self.game, ascii=getattr(self.app, "ascii", False)))

    def action_commit(self) -> None:
        cost, why = _planform().check(self.game, self.side, self.fields)
        if why:
            self.app.bell()
            self.notify(self._w(f"Not committed: {why}"), severity="error")
            return
        self.dismiss(_planform().rows(self.fields))

    def action_leave(self) -> None:
        self.dismiss(None)


# --- the game screen's hook ------------------------------------------------------------------

def offer(screen: "GameScreen") -> bool:
    """Called first by ``GameScreen.after_order``: True when it took over (a plan to enter, a
    sealed plan to reveal, a battle report to read)."""
    session = screen.session
    game = session.game
    if getattr(session, "network", False) or not has_plan_form(game):
        return False
    from .screen_battle_report import offer_reports
    if offer_reports(screen):
        return True
    rnd = game.ruleset.secret_round(game)
    side = game.to_act()
    if rnd is None or not session.is_human(side):
        return False
    if secret.stage(rnd) == "reveal":
        _reveal(screen, side)
        return True
    open_plan(screen)
    return True


def offer_net(screen: "GameScreen") -> bool:
    """The network game's hook (``NetGameScreen.after_order``): battle reports, then this side's
    plan form when it is to commit, its reveal once every side has committed. True when it took
    over. The other side's plan reaches us only in its ``unseal``, after both seals."""
    session = screen.session
    game = session.game
    if not has_plan_form(game):
        return False
    from .screen_battle_report import offer_reports
    if offer_reports(screen):
        return True
    rnd = game.ruleset.secret_round(game)
    if rnd is None or session.spectator or game.to_act() != session.side or not session.connected:
        return False
    busy = getattr(screen, "_plan_busy", None)
    if busy == game.state.seq:
        return True  # the form is open, or our seal / unseal is on its way
    screen._plan_busy = game.state.seq  # type: ignore[attr-defined]
    if secret.stage(rnd) == "reveal":
        screen.run_worker(_net_send(screen, "reveal"), group="net-submit", exit_on_error=False)
        return True
    side = session.side
    screen.app.push_screen(PlanScreen(game, side), lambda plan: _net_committed(screen, plan))
    return True


def waiting_words(game: Any, side: str) -> str | None:
    """The turn bar's words while the other side of a secret round is to act, else None."""
    if not has_plan_form(game):
        return None
    rnd = game.ruleset.secret_round(game)
    if rnd is None or game.to_act() == side:
        return None
    what = "deployment" if _planform().deploying(game) else "plan"
    if secret.stage(rnd) == "commit":
        return f"waiting for the other side's {what}"
    return f"waiting for the other side to reveal its {what}"


def _net_committed(screen: "GameScreen", plan: list | None) -> None:
    if plan is None:
        screen._plan_busy = None  # type: ignore[attr-defined]
        screen.notify("Your plan is not committed yet: o opens it again.", severity="warning")
        screen.refresh_all()
        return
    screen.run_worker(_net_send(screen, "commit", plan), group="net-submit", exit_on_error=False)


async def _net_send(screen: "GameScreen", what: str, plan: list | None = None) -> None:
    """Seal ``plan`` (what = "commit") or open the sealed one (what = "reveal") through the
    network session; a refusal is shown and the form may be opened again."""
    from hexwar.net.errors import HexwarNetError
    net = screen.session.net
    game = screen.session.game
    screen.sending = True  # type: ignore[attr-defined]
    try:
        if what == "commit":
            await net.commit_plan(plan)
            screen.write_log(f"> {side_name(game, net.side)} committed a sealed plan")
        else:
            await net.reveal_plan()
            screen.write_log(f"> {side_name(game, net.side)} revealed its plan")
    except (IllegalOrderError, HexwarNetError) as exc:
        screen._plan_busy = None  # type: ignore[attr-defined]
        screen.app.bell()
        screen.notify(f"Refused: {exc.reason}", severity="error")
    finally:
        screen.sending = False  # type: ignore[attr-defined]
        if screen.is_mounted:
            screen.refresh_all()


def _hotseat(screen: "GameScreen") -> bool:
    return all(screen.session.is_human(s.id) for s in screen.session.game.scenario.sides)


def open_plan(screen: "GameScreen") -> None:
    """Hand over first in hotseat, then the side's plan screen."""
    game = screen.session.game
    side = game.to_act()
    if side is None:
        return
    if _hotseat(screen) and getattr(screen, "_handed_to", None) != (game.state.seq, side):
        rnd = game.ruleset.secret_round(game) or {}
        sealed = [side_name(game, s) for s in rnd.get("commits", {})]

        def ready(_: None) -> None:
            screen._handed_to = (screen.session.game.state.seq, side)  # type: ignore[attr-defined]
            open_plan(screen)
        screen.app.clear_notifications()  # nothing of the last player's turn stays on screen
        screen.app.call_after_refresh(screen.app.clear_notifications)  # nor notices posted just now
        screen.app.push_screen(HandOverScreen(side_name(game, side), sealed), ready)
        return
    screen.app.push_screen(PlanScreen(game, side), lambda plan: _committed(screen, side, plan))


def _committed(screen: "GameScreen", side: str, plan: list | None) -> None:
    if plan is None:
        screen.notify("Your plan is not committed yet: o opens it again.", severity="warning")
        screen.refresh_all()
        return
    try:
        screen.session.commit_plan(plan, side)
    except IllegalOrderError as exc:
        screen.app.bell()
        screen.notify(f"Refused: {exc.reason}", severity="error")
        return
    screen.write_log(f"> {side_name(screen.session.game, side)} committed a sealed plan")
    screen._changed()


def _reveal(screen: "GameScreen", side: str) -> None:
    try:
        screen.session.reveal_plan(side)
    except IllegalOrderError as exc:
        screen.notify(f"Could not reveal the plan: {exc.reason}", severity="error")
        return
    screen.write_log(f"> {side_name(screen.session.game, side)} revealed its plan")
    screen._changed()


def _paths(start: int, goal: int, limit: int, blocked: set[int]) -> list[list[int]]:
    """Every shortest path (points after ``start``) of at most ``limit`` steps to ``goal``
    through points not ``blocked``, in point order."""
    from hexwar.engine.rulesets.fow import geo
    out: list[list[int]] = []
    frontier = [[start]]
    for _ in range(limit):
        nxt = []
        for path in frontier:
            for _, n in geo.neighbours(path[-1]):
                if n in path or n in blocked:
                    continue
                if n == goal:
                    out.append(path[1:] + [n])
                nxt.append(path + [n])
        if out:
            return sorted(out)
        frontier = nxt
    return out


def _command_pick(screen: "GameScreen", p: int) -> bool:
    """Step 3 by pointing: enter on a point with a commander who has not moved picks him; enter
    on another point offers his moves there (with the companies of his point, or alone) that
    the rules accept. The engine judges each; the first refusal is shown when none is."""
    from hexwar.engine import Order
    from hexwar.engine.rulesets.fow import forces as F
    from hexwar.engine.rulesets.fow.words import commander_name
    from .screen_dialogs import ChooseOrder
    game = screen.session.game
    state = game.state
    side = game.to_act() or ""
    picked = getattr(screen, "_fow_commander", None)
    if picked is None or F.commanders(state).get(picked, {}).get("point") == p:
        ks = [k for k in F.commanders_at(state, side, p) if not F.commanders(state)[k]["moved"]]
        if not ks:
            return False
        k = ks[(ks.index(picked) + 1) % len(ks)] if picked in ks else ks[0]
        screen._fow_commander = k  # type: ignore[attr-defined]
        screen.notify(f"{commander_name(game, k)} picked: move the cursor up to 3 points away and "
                      "press enter (esc forgets him).")
        return True
    start = F.commanders(state)[picked]["point"]
    enemy = F.occupied(state, state.enemy_of(side))
    orders, why = [], None
    for path in _paths(start, p, 3, enemy):
        for cids in (F.at(state, start, side), []):
            o = Order.make("move-commander", commander=picked, path=path, companies=list(cids))
            reason = game.validate(o)
            if reason is None:
                if o not in orders:
                    orders.append(o)
            elif why is None:
                why = reason
    screen._fow_commander = None  # type: ignore[attr-defined]
    if not orders:
        screen.app.bell()
        screen.notify(f"Refused: {why or f'{p:02d} is more than 3 points away or behind the enemy (12)'}",
                      severity="error")
        return True
    screen.app.push_screen(ChooseOrder(game, orders, f"Move {commander_name(game, picked)} to {p:02d}"),
                           screen._chosen)
    return True


def pick_on_map(screen: "GameScreen") -> bool:
    """Steps 3 and 8 by pointing. Step 8: enter on a point lists the orders of the groups there
    and the orders that end there (their words carry the odds of an attack). Step 3: see
    ``_command_pick``. True when it handled the key."""
    game = screen.session.game
    state = game.state
    if not has_plan_form(game) or state.pending:
        return False
    if state.phase == "command":
        from hexwar.engine.rulesets.fow import geo
        p = geo.point_at(tuple(screen.map_view.cursor))
        return p is not None and _command_pick(screen, p)
    if state.phase != "execute":
        return False
    from hexwar.engine.rulesets.fow import geo
    from .screen_dialogs import ChooseOrder
    p = geo.point_at(tuple(screen.map_view.cursor))
    if p is None:
        return False
    side = game.to_act() or ""
    orders = []
    for o in screen.legal.orders:
        if o.kind != "act":
            continue
        actor = o.get("actor")
        start = state.vars["orders"].get(side, {}).get(actor, {}).get("point")
        path = list(o.get("path") or ())
        if start == p or (path and path[-1] == p):
            orders.append(o)
    if not orders:
        screen.app.bell()
        screen.notify(f"No order of {side_name(game, side)} starts or ends at point {p:02d}: "
                      "o lists every order of this step.", severity="warning")
        return True
    screen.app.push_screen(ChooseOrder(game, orders, f"Orders at point {p:02d}"), screen._chosen)
    return True


__all__ = ["HandOverScreen", "PlanScreen", "has_plan_form", "offer", "offer_net", "open_plan", "pick_on_map",
           "waiting_words"]
