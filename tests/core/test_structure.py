"""The core's shape (issue 18): it imports no game, its modules import one another without a
circle (lazy imports inside functions count too: a circle hidden in a function is still one;
imports for annotations only, under ``if TYPE_CHECKING:``, are not run and do not), and no
function of it is longer than 60 lines.

Read from the source (ast), nothing is imported.
"""
import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "pbem" / "core"
MAX_LINES = 60
# Longer functions the kernel's rework (issue 18: one phase loop) is to shorten: only these may
# be longer, and only while they are; a new long function fails.
KNOWN_LONG: set[tuple[str, str]] = set()


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(CORE.glob("*.py"))}


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``: never run, they name the seam's
    types (``Game[RS]``, ``Campaign``, ``Outcome``) for mypy where they are used (issue 30); a
    circle among them is not one of the imports that run (those inside functions count)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def _imports(tree: ast.Module, *, run: bool = False) -> set[str]:
    """The absolute names a module imports (``.x`` in pbem.core is ``pbem.core.x``); ``run``: only
    those it imports when it runs."""
    out = set()
    skip = _type_only(tree) if run else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = {0: "", 1: "pbem.core", 2: "pbem"}[node.level]
            module = ".".join(x for x in (base, node.module or "") if x)
            out.add(module)
            out |= {f"{module}.{a.name}" for a in node.names}    # `from . import sealed`
    return out


def test_the_core_imports_no_game():
    for name, tree in _modules().items():
        games = sorted(m for m in _imports(tree) if m.startswith(("pbem.bfg", "pbem.blitzwar")))
        assert not games, f"pbem/core/{name}.py imports {games}"


def test_the_core_modules_import_one_another_without_a_circle():
    modules = _modules()
    edges = {name: {m.split(".")[2] for m in _imports(tree, run=True) if m.startswith("pbem.core.") and m.split(".")[2] in modules}
             - {name} for name, tree in modules.items()}
    circles = []
    state: dict[str, int] = {}      # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(edges[name]):
            if state.get(other) == 1:
                circles.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [name])
    assert circles == [], "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_no_core_function_is_longer_than_60_lines():
    long = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES and (f"{name}.py", node.name) not in KNOWN_LONG:
                    long.append(f"pbem/core/{name}.py:{node.lineno} {node.name}: {lines} lines")
    assert long == [], "split these functions: " + "; ".join(long)
