"""The README's test command is what CI runs, and the declared ranges are the ones CI tests.

README: "CI (`.ci/run`) runs exactly that line, then the same suite at the lower end of every declared
dependency range" (docs/development.md, "Continuous integration") (issue 16: a fresh machine was red while CI,
with an older PyYAML resolved, was green).
"""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def _lower_bounds() -> dict[str, str]:
    """name -> lower bound of [project]'s dependencies and extras (not the build system's).

    An exact pin (`ruff==0.17.6`: the linters) is its own lower bound.
    """
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text[text.index("[project]"):text.index("[project.scripts]")]
    bounds = {}
    for name, version in re.findall(r'"([A-Za-z0-9_.-]+)(?:>=|==)([0-9][0-9.]*)"', project):
        assert bounds.get(name.lower(), version) == version, f"{name}: two lower bounds"
        bounds[name.lower()] = version
    return bounds


def _requirements() -> list[str]:
    """Every requirement string of [project]'s dependencies and extras."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    runtime = text[text.index("\ndependencies = ["):text.index("[project.optional-dependencies]")]
    extras = text[text.index("[project.optional-dependencies]"):text.index("[project.scripts]")]
    blocks = [runtime[:runtime.index("]")]] + re.findall(r"^[a-z]+ = \[(.*?)\]", extras, re.S | re.M)
    return [req for block in blocks for req in re.findall(r'"([^"]*)"', block)]


def test_every_requirement_is_a_lower_bound_or_an_exact_pin():
    """Anything else (`<`, `~=`, no version) would escape the lowest constraints; the linters
    are pinned exactly (a new release adds checks: a fresh machine would be red)."""
    requirements = _requirements()
    for requirement in requirements:
        assert re.fullmatch(r"[A-Za-z0-9_.-]+(>=|==)[0-9][0-9.]*", requirement), requirement
    for linter in ("ruff", "mypy"):
        assert any(req.startswith(f"{linter}==") for req in requirements), linter


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_command = next(block.strip() for block in _sh_blocks(readme)
                        if "pytest" in block and "pip install" in block)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci.splitlines()
    assert "--clear" in test_command and "PIP_NO_CACHE_DIR=1" in test_command
    assert test_command.startswith(".ci/system-packages && ")
    assert "'.[test]'" in test_command and test_command.endswith(".venv/bin/python -m pytest")


def test_the_system_packages_script_installs_what_the_tests_need_where_missing():
    """The README's one line calls .ci/system-packages: cairo and the DejaVu fonts (PNG tests), chromium and its driver
    (the campaign book's browser test), dovecot (the judge's IMAP tests), each only where missing."""
    script = ROOT / ".ci" / "system-packages"
    assert script.stat().st_mode & 0o111, "executable: the README's line runs it by path"
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in text
    for check, package in (("find_library('cairo')", "libcairo2"),
                           ("command -v chromedriver", "chromium chromium-driver"),
                           ("[ -x /usr/sbin/dovecot ]", "dovecot-imapd"),
                           ("DejaVuSans-Bold.ttf", "fonts-dejavu-core")):
        line = next(line for line in text.splitlines() if check in line)
        assert "|| { apt-get update -qq && " in line and f"install -y -qq {package};" in line, line


def test_the_lowest_constraints_pin_every_declared_lower_bound():
    pins = {}
    for line in (ROOT / ".ci" / "lowest.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    bounds = _lower_bounds()
    assert set(pins) == set(bounds), "every declared range, and only those, is pinned"

    def release(version: str) -> tuple[int, ...]:
        parts = tuple(int(part) for part in version.split("."))
        return parts + (0,) * (3 - len(parts))

    for name, version in bounds.items():
        assert release(pins[name]) == release(version), \
            f"{name}: pyproject.toml declares >={version}, .ci/lowest.txt pins {pins[name]}"


def test_nothing_generated_is_committed():
    """No wheel, sdist, egg-info, bytecode, cache or virtualenv in git (issue 18: a pyflakes
    wheel lay at the repository root); the root holds only the project's own files."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run([git, "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    generated = re.compile(r"(^|/)(__pycache__|\.venv[^/]*|venv|build|dist|\.pytest_cache|\.mypy_cache|\.ruff_cache"
                           r"|\.hypothesis|[^/]+\.egg-info)/|\.(whl|pyc|pyo|tar\.gz|egg)$")
    assert [p for p in tracked if generated.search(p)] == []
    root = sorted(p for p in tracked if p and "/" not in p)
    assert root == [".gitignore", "MANIFEST.in", "README.md", "mkdocs.yml", "pyproject.toml", "setup.py"], root
