"""The lobby of a served hexwar: the player's own matches (whose turn), open seats, matches to
watch, and a new match against a person. Only a process the server started has one: it asks the
server through ``hexwar.net.lobby`` and opens a match with the same network game screen as
``hexwar join`` (a seat) or ``hexwar watch`` (read-only)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from hexwar.plaintext import plain_line, plain_text

from .net_session import NetStart, join_args
from .screen_dialogs import Confirm, Message


def match_line(row: dict[str, Any], who: str) -> str:
    """One match as the lobby lists it, in words: scenario, turn, who holds each seat, and
    for the player's own matches whose turn it is."""
    seats = " vs ".join(f"{side} {name or '(open)'}" for side, name in row["seats"].items())
    head = f"{row['scenario']} · turn {row['turn']} · {seats}"
    if row.get("turn_time"):  # the server's clock ends a decision that takes longer
        head += f" · {row['turn_time']} s a decision"
    if row["over"]:
        r = row.get("result") or {}
        return f"{head} · over: {r.get('winner') or 'draw'} ({r.get('reason', '')})"
    if who == "mine":
        if row.get("your_turn"):
            state = "YOUR TURN"
        elif None in row["seats"].values():
            state = "waiting for an opponent"
        else:
            state = f"{row['to_act_player'] or row['to_act']}'s turn"
        if None in row["seats"].values() and row.get("your_turn"):
            state += " (the other seat is still open)"
        code = f" · invite code {row['code']}" if row.get("code") else ""
        return f"{head} · you: {row['side']} · {state}{code}"
    if who == "open":
        return f"{head} · join as {row['side']}"
    return f"{head} · {row['to_act_player'] or row['to_act']}'s turn"


class ServedLobbyScreen(Screen):
    """What the server offers this player; enter opens, n starts a new match, r refreshes."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("r", "refresh", "Refresh"),
                Binding("n", "new", "New match")]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, dict[str, Any] | None]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="served-lobby"):
            yield Label(plain_line(f"Lobby · playing as {self.app.served}"), classes="dialog-title", markup=False)
            yield OptionList(id="lobby-list")
            yield Static("asking the server…", id="lobby-status", markup=False)
            yield Label("enter: open · n: new match against a person · r: refresh · esc: back",
                        classes="dialog-hint")
        yield Footer()

    REFRESH_SECONDS = 15.0  # without the server's change notes, the lobby asks this often

    def on_mount(self) -> None:
        self.action_refresh()
        self.run_worker(self._follow(), group="follow", exit_on_error=False)

    async def _follow(self) -> None:
        """Redraw when the server says something changed (nothing is polled meanwhile)."""
        from hexwar.net import lobby
        from hexwar.net.errors import HexwarNetError
        try:
            async for _ in lobby.follow():
                self.action_refresh()
        except (HexwarNetError, OSError):
            self.set_interval(self.REFRESH_SECONDS, self.action_refresh)

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="lobby", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        from hexwar.net import lobby
        from hexwar.net.errors import HexwarNetError
        try:
            data = await lobby.ask("lobby")
        except HexwarNetError as exc:
            self.query_one("#lobby-status", Static).update(plain_text(f"The server did not answer: {exc.reason}"))
            return
        self.show(data)

    def show(self, data: dict[str, Any]) -> None:
        listing = self.query_one("#lobby-list", OptionList)
        at = listing.highlighted
        was = self.rows[at] if at is not None and at < len(self.rows) else None
        keep = (was[0], (was[1] or {}).get("id")) if was else None  # stay on the same entry
        listing.clear_options()
        self.rows = []
        sections = [("mine", "Your matches"), ("open", "Open matches to join"), ("watch", "Matches to watch")]
        for key, title in sections:
            listing.add_option(Option(Text(f"— {title} ({len(data.get(key, []))})"), disabled=True))
            self.rows.append(("", None))
            for row in data.get(key, []):
                listing.add_option(Option(Text(plain_line(match_line(row, key)))))  # names are other players'
                self.rows.append((key, row))
        listing.add_option(Option(Text("New match against a person…")))
        self.rows.append(("new", None))
        listing.add_option(Option(Text("New game against the computer (or hotseat)…")))
        self.rows.append(("computer", None))
        turns = sum(1 for r in data.get("mine", []) if r.get("your_turn"))
        self.query_one("#lobby-status", Static).update(
            f"{turns} of your matches {'waits' if turns == 1 else 'wait'} for you" if turns
            else "none of your matches waits for you")
        same = [i for i, (kind, r) in enumerate(self.rows) if keep and (kind, (r or {}).get("id")) == keep]
        listing.highlighted = same[0] if same else next(i for i, (kind, _) in enumerate(self.rows) if kind)
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        kind, row = self.rows[event.option_index]
        if kind == "new":
            self.action_new()
        elif kind == "computer":  # played in this process, kept in the player's own folder
            self.app.router.go("scenarios")
        elif row is not None:
            open_match(self.app, row["id"], watch=kind == "watch")

    def action_new(self) -> None:
        self.app.router.go("scenarios", served_match=True)


class ServedSideDialog(ModalScreen[None]):
    """A new match against a person: which side you play; the other seat is opened to all."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, scenario: Any) -> None:
        super().__init__()
        self.scenario = scenario

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain_line(f"{self.scenario.title}: you play which side? (another player takes the other)"),
                        classes="dialog-title", markup=False)
            yield OptionList(*[Option(Text(plain_line(s.name)), id=s.id) for s in self.scenario.sides], id="sides-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        side = event.option.id
        self.app.push_screen(Confirm("Invite code", "Also make an invite code for a player with an "
                                     "installed hexwar ('hexwar join')?"),
                             lambda yes: self.app.run_worker(self._create(side, bool(yes)), exit_on_error=False))

    async def _create(self, side: str, invite: bool) -> None:
        from hexwar.net import lobby
        from hexwar.net.errors import HexwarNetError
        try:
            made = await lobby.ask("create", scenario=self.scenario.id, side=side, invite=invite)
        except HexwarNetError as exc:
            self.app.push_screen(Message("New match", f"The server refused: {exc.reason}"))
            return
        open_match(self.app, made["match"])
        if made.get("code"):
            self.app.notify(f"Invite code for 'hexwar join {made.get('address', 'HOST:PORT')} --server --code "
                            f"{made['code']}': {made['code']}", timeout=30)


def open_match(app: Any, match: str, *, watch: bool = False) -> None:
    """Open a served match: the seat (resuming this player's own journal of it, if any) or,
    for someone else's match, a read-only view."""
    from hexwar.net import lobby
    from hexwar.paths import data_dir

    if watch:
        app.router.go("network", NetStart("watch", join_args("the server", opener=lobby.opener("watch", match))))
        return
    journal = data_dir() / "matches" / f"{match}-guest.journal"
    app.router.go("network", NetStart("join", join_args(
        "the server", opener=lobby.opener("play", match), give_up=30.0,
        resume=str(journal) if journal.exists() else None)))


__all__ = ["ServedLobbyScreen", "ServedSideDialog", "match_line", "open_match"]
