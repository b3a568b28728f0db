"""The layers point one way: every import read with ``ast`` (function-level ones included).

    hexwar/cli*.py  the command line        may import everything below
    tui/            the Textual app         -> net, record, scenarios, engine
    net/            SSH, framing, lockstep  -> record, scenarios, engine
    hexwar/         the game record         -> scenarios, engine
    scenarios/      scenario files, loader  -> engine
    engine/         pure rules              -> only engine/ and the standard library

Besides the direction, no two modules of the engine, of net/ or of tui/ may import each other in
a loop. Inside tui/ the screens point one way too (tui/__init__.py draws it):

    hexwar/cli*.py  the entry points: the only modules that import tui/app.py
    tui/app.py, tui/router.py   the app and its router: the one place that knows every screen
    tui/screen_*.py             the screens: none imports another screen, the router or the app
    every other tui/ module     widgets, dialogs, words, sessions: no screen, no router, no app
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"engine": "hexwar.engine", "scenarios": "hexwar.scenarios", "net": "hexwar.net",
           "tui": "hexwar.tui", "hexwar": "hexwar"}
LAYERS = ["engine", "scenarios", "record", "net", "tui", "cli"]


def layer_of(module: str) -> str | None:
    """The layer a hexwar module belongs to (None for anything outside hexwar)."""
    parts = module.split(".")
    if parts[0] != "hexwar":
        return None
    if len(parts) == 1:
        return "record"
    top = parts[1]
    if top in ("engine", "scenarios", "net", "tui"):
        return top
    if top == "__main__" or top == "cli" or top.startswith("cli_"):
        return "cli"
    return "record"


def module_files() -> dict[str, Path]:
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def imports_of(module: str, path: Path) -> list[tuple[int, str]]:
    """Every module ``module`` imports, absolute, with its line number."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from . import units`` names a module; ``from .units import X`` names a name
            out.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return out


def known(name: str, modules: dict[str, Path]) -> str | None:
    """The hexwar module or package ``name`` refers to (None if it is a name, not a module)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def graph() -> dict[str, list[tuple[int, str]]]:
    modules = module_files()
    edges: dict[str, list[tuple[int, str]]] = {}
    for module, path in modules.items():
        targets = []
        for line, name in imports_of(module, path):
            target = known(name, modules) if name.startswith("hexwar") else name
            if target and target != module and (line, target) not in targets:
                targets.append((line, target))
        edges[module] = targets
    return edges


def upward_imports(edges: dict[str, list[tuple[int, str]]]) -> list[str]:
    problems = []
    for module, targets in sorted(edges.items()):
        mine = layer_of(module)
        for line, target in targets:
            theirs = layer_of(target)
            if theirs is None:
                continue
            if LAYERS.index(theirs) > LAYERS.index(mine):
                problems.append(f"{module}:{line} ({mine}) imports {target} ({theirs}), a layer above")
    return problems


def foreign_engine_imports(edges: dict[str, list[tuple[int, str]]]) -> list[str]:
    """The engine imports only itself and the standard library."""
    problems = []
    for module, targets in sorted(edges.items()):
        if layer_of(module) != "engine":
            continue
        for line, target in targets:
            top = target.split(".")[0]
            if target.startswith("hexwar") and layer_of(target) != "engine":
                problems.append(f"{module}:{line} imports {target}, outside engine/")
            elif top not in ("hexwar", "__future__") and top not in sys.stdlib_module_names:
                problems.append(f"{module}:{line} imports {target}, not the standard library")
    return problems


def cycles(edges: dict[str, list[tuple[int, str]]], nodes: list[str]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for _, w in edges.get(v, []):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in nodes:
        if v not in index:
            visit(v)
    return found


def layer_edges(edges: dict[str, list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {layer: [] for layer in LAYERS}
    for module, targets in edges.items():
        for line, target in targets:
            a, b = layer_of(module), layer_of(target)
            if b is not None and a != b and (0, b) not in out[a]:
                out[a].append((0, b))
    return out


# --- inside tui/: parts, screens, the router and the app ----------------------------------------

TUI_TOP = ("hexwar.tui.app", "hexwar.tui.router")
TUI_DIALOGS = "hexwar.tui.screen_dialogs"  # the small dialogs every screen opens: a part, not a place
TUI_LEVELS = ["part", "screen", "top"]


def tui_level(module: str) -> str | None:
    """Where a tui/ module sits: ``top`` (app, router), ``screen`` or ``part`` (None outside tui/)."""
    if layer_of(module) != "tui":
        return None
    if module in TUI_TOP:
        return "top"
    name = module.rpartition(".")[2]
    return "screen" if name.startswith("screen_") and module != TUI_DIALOGS else "part"


def tui_problems(edges: dict[str, list[tuple[int, str]]]) -> list[str]:
    """Upward imports inside tui/, screens importing screens, and imports of the app from
    anywhere but the command line."""
    problems = []
    for module, targets in sorted(edges.items()):
        mine = tui_level(module)
        for line, target in targets:
            theirs = tui_level(target)
            if target == "hexwar.tui.app" and layer_of(module) != "cli":
                problems.append(f"{module}:{line} imports the app; only the entry points may")
                continue
            if mine is None or theirs is None:
                continue
            if mine == theirs == "screen":
                problems.append(f"{module}:{line} imports {target}: a screen imports another screen")
            elif TUI_LEVELS.index(theirs) > TUI_LEVELS.index(mine):
                problems.append(f"{module}:{line} ({mine}) imports {target} ({theirs}), a level above")
    return problems


def test_no_layer_imports_a_layer_above_it():
    assert upward_imports(graph()) == []


def test_engine_imports_only_engine_and_the_standard_library():
    assert foreign_engine_imports(graph()) == []


def test_no_loop_between_layers():
    assert cycles(layer_edges(graph()), LAYERS) == []


def test_no_import_loop_inside_the_engine():
    edges = graph()
    engine = sorted(m for m in edges if layer_of(m) == "engine")
    assert cycles(edges, engine) == []


def test_no_import_loop_inside_net_or_tui():
    edges = graph()
    for layer in ("net", "tui"):
        modules = sorted(m for m in edges if layer_of(m) == layer)
        assert cycles(edges, modules) == [], layer


def test_tui_screens_point_one_way():
    assert tui_problems(graph()) == []


def test_tui_knows_its_router_and_screens():
    """The classification is not empty: the checks above look at real modules."""
    levels = {m: tui_level(m) for m in graph() if layer_of(m) == "tui"}
    assert levels["hexwar.tui.router"] == levels["hexwar.tui.app"] == "top"
    assert levels["hexwar.tui.screen_game"] == levels["hexwar.tui.screen_menu"] == "screen"
    assert levels[TUI_DIALOGS] == levels["hexwar.tui.describe"] == "part"


# --- the checks themselves must be able to fail -------------------------------------------------

def test_an_upward_import_is_caught():
    edges = {"hexwar.engine.game": [(3, "hexwar.tui.app")], "hexwar.net.server": [(9, "hexwar.cli")]}
    assert upward_imports(edges) == [
        "hexwar.engine.game:3 (engine) imports hexwar.tui.app (tui), a layer above",
        "hexwar.net.server:9 (net) imports hexwar.cli (cli), a layer above"]


def test_an_engine_import_of_a_third_party_package_is_caught():
    edges = {"hexwar.engine.codec": [(1, "msgpack"), (2, "hashlib"), (3, "hexwar.match")]}
    assert foreign_engine_imports(edges) == ["hexwar.engine.codec:1 imports msgpack, not the standard library",
                                             "hexwar.engine.codec:3 imports hexwar.match, outside engine/"]


def test_a_loop_is_caught():
    edges = {"a": [(1, "b")], "b": [(1, "c")], "c": [(1, "a")], "d": [(1, "a")]}
    assert cycles(edges, ["a", "b", "c", "d"]) == [["a", "b", "c"]]


def test_a_loop_inside_tui_is_caught():
    edges = {"hexwar.tui.app": [(5, "hexwar.tui.net_session")], "hexwar.tui.net_session": [(39, "hexwar.tui.app")],
             "hexwar.tui.describe": [(3, "hexwar.engine")]}
    tui = ["hexwar.tui.app", "hexwar.tui.describe", "hexwar.tui.net_session"]
    assert cycles(edges, tui) == [["hexwar.tui.app", "hexwar.tui.net_session"]]


def test_a_screen_importing_a_screen_is_caught():
    edges = {"hexwar.tui.screen_game": [(36, "hexwar.tui.screen_victory"), (25, "hexwar.tui.screen_dialogs")],
             "hexwar.tui.screen_campaign": [(19, "hexwar.tui.screen_game")]}
    assert tui_problems(edges) == [
        "hexwar.tui.screen_campaign:19 imports hexwar.tui.screen_game: a screen imports another screen",
        "hexwar.tui.screen_game:36 imports hexwar.tui.screen_victory: a screen imports another screen"]


def test_an_upward_import_inside_tui_is_caught():
    edges = {"hexwar.tui.describe": [(3, "hexwar.tui.screen_menu")],
             "hexwar.tui.screen_menu": [(7, "hexwar.tui.router"), (8, "hexwar.tui.session")],
             "hexwar.tui.session": [(2, "hexwar.tui.describe")]}
    assert tui_problems(edges) == [
        "hexwar.tui.describe:3 (part) imports hexwar.tui.screen_menu (screen), a level above",
        "hexwar.tui.screen_menu:7 (screen) imports hexwar.tui.router (top), a level above"]


def test_only_the_entry_points_import_the_app():
    edges = {"hexwar.tui.net_session": [(39, "hexwar.tui.app")], "hexwar.tui.screen_lobby": [(21, "hexwar.tui.app")],
             "hexwar.cli_play": [(66, "hexwar.tui.app")], "hexwar.net.serve": [(12, "hexwar.tui.app")]}
    assert tui_problems(edges) == [
        "hexwar.net.serve:12 imports the app; only the entry points may",
        "hexwar.tui.net_session:39 imports the app; only the entry points may",
        "hexwar.tui.screen_lobby:21 imports the app; only the entry points may"]


@pytest.mark.parametrize("module, layer", [
    ("hexwar.cli", "cli"), ("hexwar.cli_net", "cli"), ("hexwar.__main__", "cli"), ("hexwar.match", "record"),
    ("hexwar.journal", "record"), ("hexwar", "record"), ("hexwar.net.session", "net"), ("hexwar.tui.app", "tui"),
    ("hexwar.engine.rulesets.poltava.rules", "engine"), ("hexwar.scenarios.loader", "scenarios"), ("textual", None)])
def test_every_module_has_its_layer(module, layer):
    assert layer_of(module) == layer


def test_relative_imports_are_resolved():
    modules = module_files()
    names = {t for _, t in imports_of("hexwar.net.runner", modules["hexwar.net.runner"])}
    assert "hexwar.net.errors.HexwarNetError" in names          # from .errors import HexwarNetError
    names = {t for _, t in imports_of("hexwar.engine.rulesets", modules["hexwar.engine.rulesets"])}
    assert "hexwar.engine.ruleset.Ruleset" in names              # from ..ruleset import Ruleset (a package)
