"""The main menu, the scenario picker with who plays each side, saved-game picker, settings.

Each opens the next by name through the app's router (``self.app.router.go("sides", scenario)``)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.events import Key
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from hexwar.plaintext import plain_line, plain_text

from .describe import ascii_only
from .screen_dialogs import AskText, Message
from .net_session import NetStart, host_args, join_args
from .picking import PICK_HINT, NumberPick
from .session import COMPUTER, HUMAN, saved_games, summarize_save
from .themes import THEMES

def net_available() -> bool:
    try:
        import asyncssh  # noqa: F401
        import hexwar.net.session  # noqa: F401
    except ImportError:
        return False
    return True


def served_lobby() -> bool:
    """Whether the server that started this process offers its lobby (matches with others)."""
    try:
        from hexwar.net.lobby import served
    except ImportError:
        return False
    return served() is not None


class MenuScreen(Screen):
    """New game, load, replay, host, join, settings, quit."""

    BINDINGS = [Binding("escape", "app.quit", "Quit")]
    ITEMS = [("new", "New game"), ("load", "Load a saved game"), ("replay", "Replay a game"),
             ("host", "Host a network game"), ("join", "Join a network game"),
             ("settings", "Settings (theme, ASCII)"), ("quit", "Quit")]

    #: a served player plays on the server: no ports of their own to open, no other machine to join
    SERVED_HIDDEN = ("host", "join")

    def compose(self) -> ComposeResult:
        served = self.app.served
        items = [(k, t) for k, t in self.ITEMS if not (served and k in self.SERVED_HIDDEN)]
        if served and served_lobby():
            items.insert(0, ("lobby", "Lobby: play other players, your matches, watch"))
        title = "H E X W A R\nhex-and-counter wargames in the terminal"
        if served:
            title += f"\nplaying as {plain_line(served)} · your games are kept here for when you come back"
        with Vertical(classes="dialog", id="menu"):
            yield Static(ascii_only(title) if self.app.ascii else title, id="menu-title", markup=False)
            yield OptionList(*[Option(Text(text), id=key) for key, text in items], id="menu-list")
            yield Label("arrows + enter, ? help in game, ctrl+p commands", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        app = self.app
        if key == "lobby":
            app.router.go("lobby")
        elif key == "new":
            app.router.go("scenarios")
        elif key in ("load", "replay"):
            app.router.go("saved-games", key)
        elif key in ("host", "join") and not net_available():
            app.push_screen(Message("Network play", "Network play needs the asyncssh package."))
        elif key == "host":
            app.router.go("scenarios", host=True)
        elif key == "join":
            app.push_screen(AskText("Join: the host's address, HOST[:PORT] (default port 2222)"), self._join_address)
        elif key == "settings":
            app.router.go("settings")
        elif key == "quit":
            app.exit(0)

    def _join_address(self, address: str | None) -> None:
        if not address:
            return
        self.app.push_screen(AskText("Invite code (leave empty if this host knows you already)"),
                             lambda code: self._join(address, code))

    def _join(self, address: str, code: str | None) -> None:
        self.app.router.go("network", NetStart("join", join_args(address, code or None)))


class ScenarioPicker(NumberPick, Screen):
    """Pick a built-in scenario, then who plays each side."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, host: bool = False, served_match: bool = False) -> None:
        super().__init__()
        self.host = host  # picking the scenario of a network game to host
        self.served_match = served_match  # ... or of a new match on the server (the lobby)

    def compose(self) -> ComposeResult:
        from hexwar.scenarios.loader import ScenarioError, builtin_paths, load_scenario
        self.scenarios = []
        problems = []
        for path in builtin_paths():
            try:
                self.scenarios.append(load_scenario(path))
            except ScenarioError as exc:
                problems.append(exc.problems[0])
        self.scenarios += self.app.extra_scenarios
        with Vertical(classes="dialog", id="picker"):
            title = ("Host which scenario?" if self.host else
                     "New match against a person: which scenario?" if self.served_match else "Choose a scenario")
            yield Label(title, classes="dialog-title")
            yield OptionList(*[Option(Text(plain_line(f"{i + 1}. {s.title} [{s.id}] - {s.ruleset}, {s.turns} turns, "
                                                      f"{' vs '.join(x.name for x in s.sides)}")), id=str(i))
                               for i, s in enumerate(self.scenarios)], id="scenario-list")
            yield Label(PICK_HINT, classes="dialog-hint", markup=False)
            yield Static("", id="scenario-notes", markup=False)
            if problems:
                yield Label(f"{len(problems)} scenario file(s) could not be read", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        if not self.scenarios:
            self.app.push_screen(Message("No scenarios", "No scenario could be loaded."))

    def on_key(self, event: Key) -> None:
        self.pick_number(event, self.query_one("#scenario-list", OptionList), len(self.scenarios))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        s = self.scenarios[event.option_index]
        m = s.map
        self.query_one("#scenario-notes", Static).update(plain_text(
            f"map {m.width}x{m.height} · {len(s.units)} units\n{(s.notes or '').strip()[:400]}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        scenario = self.scenarios[event.option_index]
        if self.served_match:
            self.app.router.go("served-side", scenario)
            return
        self.app.router.go("host-side" if self.host else "sides", scenario)


class SidesDialog(NumberPick, ModalScreen[None]):
    """Who plays each side: human (hotseat) or the computer."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, scenario) -> None:
        super().__init__()
        self.scenario = scenario
        a, b = (s for s in scenario.sides)
        self.choices = [
            (f"{a.name} (you) against {b.name} (computer)", {a.id: HUMAN, b.id: COMPUTER}),
            (f"{b.name} (you) against {a.name} (computer)", {a.id: COMPUTER, b.id: HUMAN}),
            ("Hotseat: both sides human", {a.id: HUMAN, b.id: HUMAN}),
            ("Watch: computer against computer", {a.id: COMPUTER, b.id: COMPUTER}),
        ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain_line(f"{self.scenario.title}: who plays?"), classes="dialog-title", markup=False)
            yield OptionList(*[Option(Text(plain_line(f"{i + 1}. {t}")), id=str(i))
                              for i, (t, _) in enumerate(self.choices)], id="sides-list")
            yield Label(PICK_HINT, classes="dialog-hint", markup=False)

    def on_key(self, event: Key) -> None:
        self.pick_number(event, self.query_one(OptionList), len(self.choices))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        players = self.choices[event.option_index][1]
        if COMPUTER in players.values():
            self.app.router.go("level", self.scenario, players)
        else:
            self.app.router.go("new-game", self.scenario, players)


#: what each computer level means to a player, in the order offered (the default first)
LEVEL_CHOICES = (
    ("strong", "Strong: weighs the dice and looks ahead before it decides"),
    ("basic", "Basic: plays the best-looking order of the moment"),
)


class LevelDialog(NumberPick, ModalScreen[None]):
    """How well the computer plays this game; the choice becomes the app's ``ai_level``."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, scenario, players: dict[str, str]) -> None:
        super().__init__()
        self.scenario = scenario
        self.players = players

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("How well should the computer play?", classes="dialog-title")
            yield OptionList(*[Option(Text(f"{i + 1}. {t}"), id=lv) for i, (lv, t) in enumerate(LEVEL_CHOICES)],
                             id="level-list")
            yield Label(PICK_HINT, classes="dialog-hint", markup=False)

    def on_key(self, event: Key) -> None:
        self.pick_number(event, self.query_one(OptionList), len(LEVEL_CHOICES))

    def on_mount(self) -> None:
        # the level last chosen (or given with ``play --level``) is highlighted
        levels = [lv for lv, _ in LEVEL_CHOICES]
        if self.app.ai_level in levels:
            self.query_one("#level-list", OptionList).highlighted = levels.index(self.app.ai_level)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.app.ai_level = LEVEL_CHOICES[event.option_index][0]
        self.app.router.go("new-game", self.scenario, self.players)


class HostSideDialog(NumberPick, ModalScreen[None]):
    """Hosting: which side the host plays, then the port to listen on."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, scenario) -> None:
        super().__init__()
        self.scenario = scenario

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain_line(f"{self.scenario.title}: you play which side? (the guest plays the other)"),
                        classes="dialog-title", markup=False)
            yield OptionList(*[Option(Text(plain_line(f"{i + 1}. {s.name}")), id=s.id)
                               for i, s in enumerate(self.scenario.sides)], id="sides-list")
            yield Label(PICK_HINT, classes="dialog-hint", markup=False)

    def on_key(self, event: Key) -> None:
        self.pick_number(event, self.query_one(OptionList), len(self.scenario.sides))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        side = event.option.id
        self.app.push_screen(AskText("TCP port to listen on (0: any free port)", "2222"),
                             lambda port: self._host(side, port))

    def _host(self, side: str | None, port: str | None) -> None:
        if port is None:
            return
        try:
            number = int(port)
        except ValueError:
            self.app.push_screen(Message("Host", f"{port}: the port must be a number"))
            return
        self.app.router.go("network", NetStart("host", host_args(self.scenario, side, number)))


class SavedGamePicker(Screen):
    """Saved games, newest first, or any file by name."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("o", "other", "Other file…")]

    def __init__(self, purpose: str) -> None:
        super().__init__()
        self.purpose = purpose

    def compose(self) -> ComposeResult:
        self.paths = saved_games()
        verb = "Load" if self.purpose == "load" else "Replay"
        # a served player sees only their own folder: no file names typed in
        other = [] if self.app.served else [Option(Text("Other file…"), id="other")]
        hint = "" if self.app.served else " (o: type a file name)"
        with Vertical(classes="dialog", id="saves"):
            yield Label(f"{verb} which game?{hint}", classes="dialog-title")
            shown = ascii_only if self.app.ascii else str
            yield OptionList(*[Option(Text(shown(plain_line(summarize_save(p).text()))), id=str(i))
                               for i, p in enumerate(self.paths)]
                             + other, id="save-list")
            yield Static("", id="save-file", markup=False)
        yield Footer()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if index < len(self.paths):  # a served player's own folder: the file name is enough
            where = self.paths[index].name if self.app.served else str(self.paths[index])
        else:
            where = "type the path of a journal file"
        self.query_one("#save-file", Static).update(plain_text(where))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "other":
            self.action_other()
        else:
            self._open(str(self.paths[event.option_index]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "other" and self.app.served)  # a served player types no file names

    def action_other(self) -> None:
        self.app.push_screen(AskText("Journal file:"), lambda p: p and self._open(p))

    def _open(self, path: str) -> None:
        self.app.router.go("load" if self.purpose == "load" else "replay", Path(path))


class SettingsScreen(ModalScreen[None]):
    """Theme and character set; applied at once."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        opts = [Option(Text(f"Theme: {t}" + ("  (current)" if t == self.app.hexwar_theme else "")), id=f"theme:{t}")
                for t in THEMES]
        opts.append(Option(Text(f"Characters: {'ASCII' if self.app.ascii else 'Unicode'} (toggle)"), id="ascii"))
        with Vertical(classes="dialog"):
            yield Label("Settings", classes="dialog-title")
            yield OptionList(*opts, id="settings-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id or ""
        if key.startswith("theme:"):
            self.app.set_hexwar_theme(key.split(":", 1)[1])
        elif key == "ascii":
            self.app.set_ascii(not self.app.ascii)
        self.dismiss(None)
