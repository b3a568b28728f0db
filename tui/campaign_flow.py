"""A Flames of War campaign in the game screen: the hooks the screen asks before anything else.

The engine's secret plans (engine/secret.py) and battle reports come between orders: after
each order the game screen asks ``offer`` (local games) or ``offer_net`` (network games) whether
a plan is due, a sealed plan is to be revealed or a battle report is to be read; each opens the
screen it needs by name through the app's router (``plan``, ``hand-over``, ``battle-report``,
``campaign``) and says True when it took over. ``pick_on_map`` turns enter on a campaign point
into the orders there (steps 3 and 8). The texts come from the ruleset's own words
(``engine/rulesets/fow/words.py``, ``mapview.py``).
"""

from __future__ import annotations

from typing import Any

from hexwar.engine import secret
from hexwar.engine.orders import IllegalOrderError

from .describe import phase_title, side_name
from .screen_dialogs import ChooseOrder


def planform() -> Any:
    from hexwar.engine.rulesets.fow import planform as form
    return form


def has_plan_form(game: Any) -> bool:
    return game.ruleset.id == "fow"


# --- battle reports and the campaign map, in words --------------------------------------------

def _words() -> Any:
    from hexwar.engine.rulesets.fow import words
    return words


def finished_battles(game: Any, events: list[Any]) -> list[tuple[int, int]]:
    """(first, end) event indexes of the battles that are over."""
    spans = _words().battles_in(events)
    if spans and (game.state.vars.get("battle") is not None or game.state.pending):
        spans = spans[:-1]  # the last one still waits for a decision
    return spans


def report_text(game: Any, events: list[Any], spans: list[tuple[int, int]]) -> str:
    words = _words()
    out = []
    for n, (i, j) in enumerate(spans):
        title, lines = words.battle_report(game, events[i:j])
        if len(spans) > 1:
            title = f"{n + 1}/{len(spans)}. {title}"
        out += [title, "-" * min(78, len(title))] + lines + [""]
    return "\n".join(out).rstrip()


def offer_reports(screen: Any) -> bool:
    """Show the battles finished since the last report; True when a report was opened (the game
    screen goes on once it is closed)."""
    game = screen.session.game
    events = screen.session.events
    spans = finished_battles(game, events)
    seen = getattr(screen, "_battles_reported", 0)
    if len(spans) < seen:  # undo took events back
        seen = len(spans)
    new = spans[seen:]
    screen._battles_reported = len(spans)  # type: ignore[attr-defined]
    if not new:
        return False
    screen.app.router.go("battle-report", report_text(game, events, new), then=lambda _: screen.after_order())
    return True


def all_reports(screen: Any) -> str:
    game = screen.session.game
    events = screen.session.events
    return report_text(game, events, finished_battles(game, events)) or "No battle has been fought yet."


def campaign_text(game: Any, marked: int | None = None) -> str:
    from hexwar.engine.rulesets.fow import mapview as mv
    state = game.state
    who = game.to_act()
    head = (f"Campaign map · T{state.turn}/{game.scenario.turns} · {phase_title(game)} · "
            f"{side_name(game, who) if who else 'game over'} to act")
    lines = [head, ""] + mv.map_lines(game, marked) + [""] + mv.legend(game) + [""] + mv.side_panel(game)
    lines += [""] + mv.group_lines(game)
    return "\n".join(lines)


def open_campaign(screen: Any) -> None:
    game = screen.session.game
    if game.ruleset.id != "fow":
        screen.notify("This game has no campaign map: v shows the whole map.", severity="warning")
        return
    from hexwar.engine.rulesets.fow import geo
    marked = geo.point_at(tuple(screen.map_view.cursor))
    screen.app.router.go("campaign", campaign_text(game, marked), all_reports(screen))


# --- secret plans, and pointing on the campaign map --------------------------------------------

def offer(screen: Any) -> bool:
    """Called first by ``GameScreen.after_order``: True when it took over (a plan to enter, a
    sealed plan to reveal, a battle report to read)."""
    session = screen.session
    game = session.game
    if getattr(session, "network", False) or not has_plan_form(game):
        return False
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


def offer_net(screen: Any) -> bool:
    """The network game's hook (``NetControls.after_order``): battle reports, then this side's
    plan form when it is to commit, its reveal once every side has committed. True when it took
    over. The other side's plan reaches us only in its ``unseal``, after both seals."""
    session = screen.session
    game = session.game
    if not has_plan_form(game):
        return False
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
    screen.app.router.go("plan", game, side, then=lambda plan: _net_committed(screen, plan))
    return True


def waiting_words(game: Any, side: str) -> str | None:
    """The turn bar's words while the other side of a secret round is to act, else None."""
    if not has_plan_form(game):
        return None
    rnd = game.ruleset.secret_round(game)
    if rnd is None or game.to_act() == side:
        return None
    what = "deployment" if planform().deploying(game) else "plan"
    if secret.stage(rnd) == "commit":
        return f"waiting for the other side's {what}"
    return f"waiting for the other side to reveal its {what}"


def _net_committed(screen: Any, plan: list | None) -> None:
    if plan is None:
        screen._plan_busy = None  # type: ignore[attr-defined]
        screen.notify("Your plan is not committed yet: o opens it again.", severity="warning")
        screen.refresh_all()
        return
    screen.run_worker(_net_send(screen, "commit", plan), group="net-submit", exit_on_error=False)


async def _net_send(screen: Any, what: str, plan: list | None = None) -> None:
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


def _hotseat(screen: Any) -> bool:
    return all(screen.session.is_human(s.id) for s in screen.session.game.scenario.sides)


def open_plan(screen: Any) -> None:
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
        screen.app.router.go("hand-over", side_name(game, side), sealed, then=ready)
        return
    screen.app.router.go("plan", game, side, then=lambda plan: _committed(screen, side, plan))


def _committed(screen: Any, side: str, plan: list | None) -> None:
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


def _reveal(screen: Any, side: str) -> None:
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


def _command_pick(screen: Any, p: int) -> bool:
    """Step 3 by pointing: enter on a point with a commander who has not moved picks him; enter
    on another point offers his moves there (with the companies of his point, or alone) that
    the rules accept. The engine judges each; the first refusal is shown when none is."""
    from hexwar.engine import Order
    from hexwar.engine.rulesets.fow import forces as F
    from hexwar.engine.rulesets.fow.words import commander_name
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


def pick_on_map(screen: Any) -> bool:
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


__all__ = ["all_reports", "campaign_text", "finished_battles", "has_plan_form", "offer", "offer_net", "offer_reports",
           "open_campaign", "open_plan", "pick_on_map", "planform", "report_text", "waiting_words"]
