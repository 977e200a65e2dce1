"""ruff and mypy pass on the repository, with the settings of pyproject.toml ([tool.ruff],
[tool.mypy]; the README's developer section says what each checks).

They run here, as subprocesses of this virtualenv's own executables (the versions the `test`
extra pins), so that the README's test command, and so `.ci/run`, covers them.
"""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = BIN / tool
    if not exe.exists():
        pytest.fail(f"{tool} is not installed next to {sys.executable}: pip install -e '.[test]'")
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    # a cold run every time (a few seconds): no cache left behind in the repository, none stale
    result = _run("mypy", "--cache-dir", os.devnull)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing_in_the_core():
    # the seam outside games are typed against (issue 30): `mypy --strict pbem/core` as CI runs it
    # (pyproject.toml's override for pbem.core.* holds the same flags, so plain mypy enforces them),
    # with the toy game of tests/toygame, an outside game typed against it (Game[Ruleset])
    result = _run("mypy", "--strict", "--cache-dir", os.devnull, "pbem/core", "tests/toygame")
    assert result.returncode == 0, result.stdout + result.stderr


MAX_LINES = 60
# Functions of pbem/ that may be longer than MAX_LINES (issue 18: "no function over ~60 lines"):
# none now. An entry is ("pbem/FILE.py", "function") with a comment saying why it may be; it
# holds only while the function is long (a stale entry fails, as does a new long function).
KNOWN_LONG: set[tuple[str, str]] = set()


def _function_lengths() -> dict[tuple[str, str], list[tuple[int, int]]]:
    """(file, function name) -> [(first line, length in lines)] of every function in pbem/."""
    out: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                out.setdefault((rel, node.name), []).append((node.lineno, node.end_lineno - node.lineno + 1))
    return out


def test_no_function_in_pbem_is_longer_than_60_lines():
    lengths = _function_lengths()
    long = [f"{f}:{line} {name}: {n} lines" for (f, name), found in sorted(lengths.items())
            for line, n in found if n > MAX_LINES and (f, name) not in KNOWN_LONG]
    assert long == [], "split these functions: " + "; ".join(long)
    shorter = sorted(k for k in KNOWN_LONG if all(n <= MAX_LINES for _, n in lengths.get(k, [])))
    assert shorter == [], f"no longer over {MAX_LINES} lines (or gone): take them off KNOWN_LONG: {shorter}"
