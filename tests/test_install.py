"""A real install (docs/install.md): the wheel carries the rules, scenarios and schemas, and the
`pbem` it installs works from any folder, with no repository beside it.

The wheel is built from a copy of the source tree (so the test leaves no build/ behind and
would notice a file the build needs but the copy lacks), offline (--no-build-isolation, the
setuptools of the test extra), and installed into a fresh virtual environment without pip whose
only way to the dependencies (click, pyyaml, rich, jsonschema) is a .pth file naming the
folders they are installed in here: nothing is downloaded.
"""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from pbem import __version__

ROOT = Path(__file__).resolve().parents[1]
NOT_COPIED = {".git", ".venv", "venv", "build", "dist", "tests", "examples", "benchmarks", ".hypothesis",
              ".pytest_cache"}
DEPENDENCIES = ("click", "yaml", "rich", "jsonschema", "jinja2", "markupsafe")


def _ignore(folder, names):
    top = Path(folder) == ROOT
    return [n for n in names if n == "__pycache__" or n.endswith((".pyc", ".egg-info"))
            or (top and n in NOT_COPIED) or (Path(folder) == ROOT / "pbem" and n == "data")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src") / "pbem"
    shutil.copytree(ROOT, src, ignore=_ignore)
    out = src.parent / "dist"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "-q", "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    (whl,) = out.glob("pbem-*.whl")
    return whl


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The bin folder of a fresh virtual environment with the wheel installed."""
    env = tmp_path_factory.mktemp("venv") / "env"
    # pip >= 22.3 installs into another environment (--python); an older one needs its own pip
    # there (ensurepip: offline, a few seconds more).
    outer_pip = tuple(int(x) for x in importlib.import_module("pip").__version__.split(".")[:2])
    own_pip = outer_pip < (22, 3)
    venv.EnvBuilder(with_pip=own_pip, symlinks=os.name != "nt").create(env)
    bindir = env / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dep_dirs = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    dep_dirs |= {str(Path(importlib.import_module(m).__file__).resolve().parents[1]) for m in DEPENDENCIES}
    Path(site, "_pbem_test_dependencies.pth").write_text("\n".join(sorted(dep_dirs)) + "\n")
    pip = [str(python), "-m", "pip"] if own_pip else [sys.executable, "-m", "pip", "--python", str(python)]
    r = subprocess.run([*pip, "install", "--no-deps", "--no-index", "-q", str(wheel)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return bindir


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PBEM_")) or k == "PBEM_CACHE_DIR"}
    env["NO_COLOR"] = "1"
    return env


def pbem(bindir: Path, cwd: Path, *args, env=None) -> subprocess.CompletedProcess:
    exe = bindir / ("pbem.exe" if os.name == "nt" else "pbem")
    return subprocess.run([str(exe), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=env or _env())


def test_wheel_ships_every_data_folder(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("rules", "scenarios", "schemas"):
        shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                   if p.is_file() and not p.name.startswith(".") and "__pycache__" not in p.parts}
        assert shipped, folder
        missing = {f for f in shipped if f"pbem/data/{f}" not in names}
        assert not missing, missing


def test_wheel_ships_the_books_templates(wheel):
    """`pbem book` renders its pages from Jinja2 templates: package data of pbem.core (issue 22)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {f"pbem/core/book_templates/{p.name}" for p in (ROOT / "pbem" / "core" / "book_templates").glob("*.j2")}
    assert templates and templates <= names, templates - names


def test_wheel_ships_the_list_of_the_shipped_data_found_valid(wheel):
    """A first run after an install recognises pbem's own data files by this list instead of
    checking them again (pbem.core.schema, "The shipped data"; issue 35)."""
    assert "pbem/core/shipped-valid.json" in set(zipfile.ZipFile(wheel).namelist())


def test_wheel_ships_py_typed(wheel):
    # PEP 561: an outside game type-checks against pbem's annotations (issue 30's typed seam)
    assert "pbem/py.typed" in set(zipfile.ZipFile(wheel).namelist())


def test_installed_pbem_writes_a_book(installed, tmp_path):
    r = pbem(installed, tmp_path, "new", "camp", "--scenario", "bfg-redstar", "--id", "bk",
             "--player", "soviet=Anna", "--player", "western=Ben")
    assert r.returncode == 0, r.stdout + r.stderr
    r = pbem(installed, tmp_path, "book", "camp", "-o", "book")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "<svg" in (tmp_path / "book" / "step-000.html").read_text() and (tmp_path / "book" / "index.html").is_file()


def test_installed_pbem_plays_from_any_folder(installed, tmp_path):
    work = tmp_path / "anywhere"
    work.mkdir()
    r = pbem(installed, work, "--version")
    assert r.returncode == 0 and __version__ in r.stdout, r.stdout + r.stderr
    # the package and its data come from the virtual environment, not from this repository
    python = installed / ("python.exe" if os.name == "nt" else "python")
    r = subprocess.run([str(python), "-c", "import pbem, pbem.core.data as d; print(pbem.__file__); print(d.data_root())"],
                       cwd=work, capture_output=True, text=True, env=_env())
    pkg, data = r.stdout.split()
    env_root = installed.parent.resolve()
    assert Path(pkg).resolve().is_relative_to(env_root) and Path(data).resolve().is_relative_to(env_root), r.stdout
    assert Path(data).name == "data"

    r = pbem(installed, work, "new", "camp", "--scenario", "bfg-redstar", "--id", "inst",
             "--player", "soviet=Anna", "--player", "western=Ben")
    assert r.returncode == 0, r.stdout + r.stderr
    r = pbem(installed, work, "orders", "template", "camp", "--player", "soviet", "-o", "soviet.yaml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "yaml-language-server: $schema=" in (work / "soviet.yaml").read_text()
    r = pbem(installed, work, "validate", "camp", "soviet.yaml")
    assert r.returncode == 0 and "OK: 0 error(s)" in r.stdout, r.stdout + r.stderr
    r = pbem(installed, work, "adjudicate", "camp", "soviet.yaml")
    assert r.returncode == 0 and "archived in" in r.stdout, r.stdout + r.stderr
    r = pbem(installed, work, "show", "camp")
    assert r.returncode == 0 and "awaiting" in r.stdout, r.stdout + r.stderr
    r = pbem(installed, work, "data", "check", "--quiet")
    assert r.returncode == 0 and "data set complete and consistent" in r.stdout, r.stdout + r.stderr
    # usage errors and the exit-code list work the same installed
    r = pbem(installed, work, "no-such-command")
    assert r.returncode == 64, r.stdout + r.stderr
    assert "64 usage" in " ".join(pbem(installed, work, "--help").stdout.split())


def test_installed_pbem_reads_a_users_data_folder(installed, tmp_path):
    """An owner of the game types the published CRT into their own folder: pbem --data DIR
    (or PBEM_DATA) reads that file and the shipped data for everything else."""
    mine = tmp_path / "mydata"
    (mine / "rules" / "bfg").mkdir(parents=True)
    shutil.copyfile(ROOT / "rules" / "bfg" / "crt.yaml", mine / "rules" / "bfg" / "crt.yaml")
    r = pbem(installed, tmp_path, "--data", mine, "data", "check", "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"data folder {mine.resolve()}: replaces rules/bfg/crt.yaml" in r.stdout
    (mine / "rules" / "bfg" / "crt.yaml").write_text("not: [valid\n")
    r = pbem(installed, tmp_path, "data", "check", "--quiet", env=_env() | {"PBEM_DATA": str(mine)})
    assert r.returncode == 2 and str(mine / "rules" / "bfg" / "crt.yaml") in r.stdout + r.stderr, r.stdout + r.stderr


# In-process: where the data is read from.

def test_a_checkout_reads_its_own_folders():
    from pbem.core import data
    from pbem.core.schema import schema_dir
    assert not (ROOT / "pbem" / "data").exists(), "pbem/data is made in the wheel only (setup.py)"
    assert data.data_root() == ROOT and schema_dir() == ROOT / "schemas"
    assert data.data_path("rules/bfg/crt.yaml") == ROOT / "rules" / "bfg" / "crt.yaml"


def test_a_users_folder_replaces_file_by_file(tmp_path):
    from pbem.core import data
    mine = tmp_path / "mine"
    for rel in ("rules/bfg/crt.yaml", "rules/bfg/CRT.yml", "schemas/orders.schema.json", "notes.txt"):
        (mine / rel).parent.mkdir(parents=True, exist_ok=True)
        (mine / rel).write_text((ROOT / rel).read_text("utf-8") if (ROOT / rel).exists() else "x")
    try:
        data.set_user_data(mine)
        assert data.data_path("rules/bfg/crt.yaml") == mine.resolve() / "rules" / "bfg" / "crt.yaml"
        assert data.data_path("rules/bfg/terrain.yaml") == ROOT / "rules" / "bfg" / "terrain.yaml"
        assert data.data_path("schemas/orders.schema.json") == ROOT / "schemas" / "orders.schema.json"
        used, warnings = data.user_data_files()
        assert used == ["rules/bfg/crt.yaml"]
        assert sorted(Path(w.file).name for w in warnings) == ["CRT.yml", "orders.schema.json"]
        assert all(w.code == "DATA-USER-UNUSED" and not w.is_error for w in warnings)
        g, rs = data.load_ruleset("bfg-historical")
        assert rs is not None
    finally:
        data.set_user_data(None)
    assert data.user_data() is None and data.data_path("rules/bfg/crt.yaml") == ROOT / "rules" / "bfg" / "crt.yaml"
