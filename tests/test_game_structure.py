"""The games' shape (issue 30), as tests/core/test_structure.py checks the core's: the modules of
pbem/blitzwar and pbem/bfg import one another without a circle (imports inside functions count:
a circle hidden in a function is still one; imports under ``if TYPE_CHECKING:`` are never run and
do not), each module imports only modules of its own layer or lower ones (the layers, by rulebook
chapter, are declared below as data), and every import inside a function says why in a comment
(on its line or the line above): such an import is a cut in the layers and must be explained.

Read from the source (ast), nothing is imported.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Layers, lowest first: a module may import its own layer and the layers before it.
LAYERS: dict[str, list[list[str]]] = {
    "blitzwar": [
        # the world and its state: names, the turn's sequence, the standing orders, the map and
        # counters (world), the context every rule works on, the victory points read from it (19)
        ["names", "sequence", "standing", "world", "context", "victory"],
        # the land war's common rules: sides, control, stacking, weather (2, 4-6); the set-up and
        # counters put on the map (3, 11.5); combat's common helpers, air superiority among them
        # (13.2, 15), which the air rules read
        ["land", "setup", "placing", "combat_common"],
        # diplomacy: neutrals, surrenders, Vichy, the calendar's dated events (9, 11.7, 11.8)
        ["vichy", "dated", "diplomacy"],
        # the sea and the air (12, 13)
        ["seacontrol", "air"],
        # supply lines and paying supply: through the zones, by sea, to beachheads (7, 17.5)
        ["supply"],
        # combat's odds, losses, retreats and advances (15, 16)
        ["combat_odds", "combat_losses", "combat_retreat", "combat_moves"],
        # movement, sea transport, naval moves, partisans (8, 11, 14)
        ["movement", "naval", "transport", "partisans"],
        # the combat phase (15, 16)
        ["combat"],
        # cards, supply losses, replacements (10, 11, 17)
        ["cards", "supply_losses", "replacements"],
        # the phases in order, the orders' checks, the rule-case kit
        ["phases", "phasetable", "orders", "checks", "cases"],
        # the views: the report's words, the text, the map
        ["describe", "text", "draw_base", "draw_panel", "stepmarks", "draw"],
        # the seam to the core (pbem.core.game.Game)
        ["game", "__init__"],
    ],
    "bfg": [
        # the map, the sequence of play (3.0), the scenarios' play options
        ["hexmap", "sequence", "play"],
        # the component data, the board, the context every rule works on, entering a hex,
        # victory points (17)
        ["ruleset", "board", "context", "events", "victory"],
        # orders, the set-up (and the boundary's lapse, 13.1), garrisons (5.5), exits (5.6)
        ["orders", "scenario", "garrison", "exiting"],
        # a unit eliminated (7.1, 7.12, 13.2)
        ["losses"],
        # the boundary's obligations (5.4, 14.0), movement (6), combat (7)
        ["boundary", "movement", "combat"],
        # the Courland pocket (DG2 8.0), read by the replacement phase
        ["courland"],
        # replacements (5.3, 11)
        ["replacements"],
        # the phases in order, the synthetic positions, the rule-case kit
        ["engine", "phasetable"],
        # the views, the data's checks and the position's summary
        ["describe", "template", "draw", "checks"],
        # the seam to the core: the plug-in, the package that holds it, the rule-case kit and its
        # synthetic map (they adjudicate with the plug-in)
        ["game", "__init__", "synth", "cases"],
    ],
}

def _modules(game: str) -> dict[str, ast.Module]:
    pkg = ROOT / "pbem" / game
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(pkg.glob("*.py"))}


def _sources(game: str) -> dict[str, list[str]]:
    pkg = ROOT / "pbem" / game
    return {p.stem: p.read_text(encoding="utf-8").splitlines() for p in sorted(pkg.glob("*.py"))}


def _type_only(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def _in_functions(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out |= {id(n) for n in ast.walk(node)}
    return out


def _run_imports(game: str, tree: ast.Module, names: set[str]) -> list[tuple[ast.stmt, set[str]]]:
    """(import node, the modules of the game it names) for each import that runs."""
    skip = _type_only(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                targets = {node.module}
            elif node.level == 1:     # `from . import x`: the module x, or a name of the package's __init__
                targets = {a.name if a.name in names else "__init__" for a in node.names}
            elif node.level == 0 and (node.module or "").startswith(f"pbem.{game}."):
                targets = {(node.module or "").split(".")[2]}
            elif node.level == 0 and node.module == f"pbem.{game}":
                targets = {a.name if a.name in names else "__init__" for a in node.names}
            else:
                continue
        elif isinstance(node, ast.Import):
            targets = {a.name.split(".")[2] for a in node.names if a.name.startswith(f"pbem.{game}.")}
        else:
            continue
        out.append((node, {t for t in targets if t in names}))
    return out


def _edges(game: str) -> dict[str, set[str]]:
    modules = _modules(game)
    return {name: set().union(*(t for _, t in _run_imports(game, tree, set(modules)))) - {name}
            for name, tree in modules.items()}


def _circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_every_module_has_a_layer(game):
    declared = [m for layer in LAYERS[game] for m in layer]
    assert len(declared) == len(set(declared)), "a module in two layers"
    assert sorted(set(declared)) == sorted(_modules(game)), "declare each module's layer in LAYERS"


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_no_import_circle(game):
    circles = [sorted(c) for c in _circles(_edges(game))]
    assert circles == [], f"import circles in pbem/{game}: {circles}"


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_each_layer_imports_only_lower_layers(game):
    level = {m: i for i, layer in enumerate(LAYERS[game]) for m in layer}
    up = sorted((a, b) for a, targets in _edges(game).items() for b in targets if level[b] > level[a])
    assert up == [], f"pbem/{game}: (module, the higher layer's module it imports): {up}"


def _has_reason(lines: list[str], node: ast.stmt) -> bool:
    here = lines[node.lineno - 1]
    above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
    return "#" in here or above.startswith("#")


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_every_import_inside_a_function_says_why(game):
    modules, sources = _modules(game), _sources(game)
    bare: dict[str, int] = {}
    for name, tree in modules.items():
        inside = _in_functions(tree)
        n = sum(1 for node, targets in _run_imports(game, tree, set(modules))
                if id(node) in inside and targets and not _has_reason(sources[name], node))
        if n:
            bare[name] = n
    assert bare == {}, f"pbem/{game}: imports inside functions without a reason comment: {bare}"
