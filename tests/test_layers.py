"""The layers point one way: every import read with ``ast`` (function-level ones included).

    hexwar/cli*.py  the command line        may import everything below
    tui/            the Textual app         -> net, record, scenarios, engine
    net/            SSH, framing, lockstep  -> record, scenarios, engine
    hexwar/         the game record         -> scenarios, engine
    scenarios/      scenario files, loader  -> engine
    engine/         pure rules              -> only engine/ and the standard library

Besides the direction, no two modules of the engine may import each other in a loop.
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
