"""Secret plans in the UI (engine/secret.py): the plan-entry screen and the hotseat hand-over
screen. When a plan is due is the game screen's question (``campaign_flow.offer``).

A local player fills in the form of ``engine/rulesets/fow/planform.py`` (keyboard only), the
engine says why a plan is refused, and Enter commits it through ``Session.commit_plan``: only
the commitment enters the state and the journal; plan and salt stay in memory until every side
has committed, then the screen reveals them by itself. In hotseat a hand-over screen that shows
nothing of the game comes before each side's plan, so neither player sees the other's form.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from hexwar.plaintext import plain_text

from .campaign_flow import planform as _planform
from .describe import ascii_only, side_name


def _mapview() -> Any:
    from hexwar.engine.rulesets.fow import mapview
    return mapview


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
        self.app.router.go("aid", self.game, ascii=getattr(self.app, "ascii", False))

    def action_commit(self) -> None:
        cost, why = _planform().check(self.game, self.side, self.fields)
        if why:
            self.app.bell()
            self.notify(self._w(f"Not committed: {why}"), severity="error")
            return
        self.dismiss(_planform().rows(self.fields))

    def action_leave(self) -> None:
        self.dismiss(None)


__all__ = ["HandOverScreen", "PlanScreen"]
