"""ruff and mypy pass on the repository, with the settings of pyproject.toml ([tool.ruff],
[tool.mypy]; the README's developer section says what each checks).

They run here, as subprocesses of this virtualenv's own executables (the versions the `test`
extra pins), so that the README's test command, and so `.ci/run`, covers them.
"""
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
