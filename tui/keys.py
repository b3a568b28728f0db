"""The key table of the game screen, with the player's own bindings merged in.

Keys are grouped by action so the help screen, the footer and ``tui/NOTES.md`` all show the
same table. A player may rebind any action in ``$XDG_CONFIG_HOME/hexwar/keys.toml``::

    [keys]
    end_phase = "E,f10"
    dir_nw = "y"

Directions are screen directions. On a pointy-top map (rows offset) the true neighbours are
up-left, up-right, left, right, down-left, down-right, and up/down zig-zag; on a flat-top map
(columns offset) left/right zig-zag instead. The eight keys sit around ``s`` like a compass.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual.binding import Binding


@dataclass(frozen=True)
class KeySpec:
    action: str  # Textual action string
    keys: str  # comma-separated Textual key names
    description: str
    show: bool = False  # shown in the footer
    short: str = ""  # footer label


DEFAULTS: dict[str, KeySpec] = {
    "dir_nw": KeySpec("step('nw')", "q", "cursor up-left"),
    "dir_n": KeySpec("step('n')", "w,up", "cursor up"),
    "dir_ne": KeySpec("step('ne')", "e", "cursor up-right"),
    "dir_w": KeySpec("step('w')", "a,left", "cursor left"),
    "dir_e": KeySpec("step('e')", "d,right", "cursor right"),
    "dir_sw": KeySpec("step('sw')", "z", "cursor down-left"),
    "dir_s": KeySpec("step('s')", "x,down", "cursor down"),
    "dir_se": KeySpec("step('se')", "c", "cursor down-right"),
    "select": KeySpec("select", "enter,space", "select unit / move here / attack here / confirm", True, "Go"),
    "cancel": KeySpec("cancel", "escape", "cancel selection or dialog", True, "Cancel"),
    "fire": KeySpec("fire", "f", "fire / attack the hex under the cursor", True, "Fire"),
    "orders": KeySpec("orders", "o", "list every legal order (selected unit or phase)", True, "Orders"),
    "next_unit": KeySpec("next_unit", "tab,n", "next unit that can still act", True, "Next"),
    "prev_unit": KeySpec("prev_unit", "shift+tab,b", "previous unit that can still act"),
    "end_phase": KeySpec("end_phase", "E,full_stop", "end the phase", True, "End phase"),
    "undo": KeySpec("undo", "u,ctrl+z", "undo (back to the last die roll)", True, "Undo"),
    "aid": KeySpec("aid", "p", "player aid: sequence of play, tables, terrain, unit types", True, "Aid"),
    "resign": KeySpec("resign", "R", "resign the game (asks first)", True, "Resign"),
    "jump": KeySpec("jump", "g,colon", "jump to a hex (CCRR number) or a campaign point (its number)"),
    "zoom_in": KeySpec("zoom(1)", "plus,equals_sign,right_square_bracket", "zoom in (counters and labels)"),
    "zoom_out": KeySpec("zoom(-1)", "minus,left_square_bracket", "zoom out (overview)"),
    "log": KeySpec("log", "l", "show the whole event log"),
    "card": KeySpec("card", "i", "the whole card of each unit under the cursor (or the selected one)"),
    "campaign": KeySpec("campaign", "C", "campaign map, groups and battle reports (campaign games)"),
    "overview": KeySpec("overview", "v", "overview: the whole map and its key; enter jumps there"),
    "help": KeySpec("help", "question_mark,f1", "this help", True, "Help"),
    "menu": KeySpec("menu", "M", "back to the main menu (the game is saved)"),
}
# Network games only (tui/net_controls.py): disabled in a local game, not in its palette.
NET_KEYS: dict[str, KeySpec] = {
    "chat": KeySpec("chat", "exclamation_mark", "network: chat with the opponent (!)", True, "Chat"),
    "draw": KeySpec("draw", "D", "network: offer a draw, or answer the opponent's offer", True, "Draw"),
}
APP_KEYS = [("ctrl+p", "command palette: every action by name"), ("ctrl+q", "quit (the game is saved)"),
            ("0-9", "type a hex number, e.g. 0304, to jump there")]


# Screen direction -> hex direction index, per orientation; None means "zig-zag" (no true
# neighbour that way). Also how a facing is chosen with one key press.
SCREEN_DIRECTIONS = {
    "pointy": {"e": 0, "ne": 1, "nw": 2, "w": 3, "sw": 4, "se": 5, "n": None, "s": None},
    "flat": {"se": 0, "ne": 1, "n": 2, "nw": 3, "sw": 4, "s": 5, "e": None, "w": None},
}


# For units that face a hex vertex (``drawing.FACING = "vertex"``): screen direction -> vertex
# facing index (the vertex between hex directions f and f + 1), so the key points where the
# counter's arrow will.
VERTEX_DIRECTIONS = {
    "pointy": {"ne": 0, "n": 1, "nw": 2, "sw": 3, "s": 4, "se": 5, "e": None, "w": None},
    "flat": {"e": 0, "ne": 1, "nw": 2, "w": 3, "sw": 4, "se": 5, "n": None, "s": None},
}


def facing_directions(orientation: str, vertex: bool) -> dict[str, int | None]:
    """Screen direction -> facing index, for hexside or vertex facings."""
    return (VERTEX_DIRECTIONS if vertex else SCREEN_DIRECTIONS)[orientation]


def direction_keys(specs: dict[str, KeySpec] | None = None) -> dict[str, str]:
    """Textual key name -> screen direction, from the (possibly rebound) cursor keys."""
    out: dict[str, str] = {}
    for name, spec in (specs or table()).items():
        if name.startswith("dir_"):
            for key in spec.keys.split(","):
                out[key] = name[4:]
    return out


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hexwar" / "keys.toml"


def shown_config_path() -> str:
    """The rebinding file as a player would type it: under the home folder it starts with ``~``,
    so the help reads the same for every user and stays short at 80 columns."""
    path, home = config_path(), Path.home()
    try:
        return "~/" + path.relative_to(home).as_posix()
    except ValueError:
        return str(path)


def load_overrides(path: Path | None = None) -> dict[str, str]:
    """The player's rebinding, ignoring unknown actions; a broken file is ignored, not fatal."""
    path = path or config_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
    keys = data.get("keys", {})
    return {k: v for k, v in keys.items() if k in DEFAULTS and isinstance(v, str) and v.strip()}


def table(overrides: dict[str, str] | None = None) -> dict[str, KeySpec]:
    out = dict(DEFAULTS)
    for name, keys in (overrides if overrides is not None else load_overrides()).items():
        spec = out[name]
        out[name] = KeySpec(spec.action, keys, spec.description, spec.show, spec.short)
    return out


def bindings(specs: dict[str, KeySpec] | None = None) -> list[Binding]:
    specs = specs or table()
    return [Binding(s.keys, s.action, s.short or s.description.split(" (")[0].capitalize(),
                    show=s.show, id=name) for name, s in specs.items()]


def display(keys: str) -> str:
    names = {"question_mark": "?", "full_stop": ".", "equals_sign": "=", "plus": "+", "minus": "-",
             "left_square_bracket": "[", "right_square_bracket": "]", "colon": ":",
             "shift+tab": "shift+tab", "escape": "esc", "exclamation_mark": "!", "enter": "enter"}
    return " ".join(names.get(k, k) for k in keys.split(","))
