"""A third game added the way another package adds one (issue 18): through the entry-point
group ``pbem.games`` (pbem.core.games), not by registering it in the process. The test makes
a distribution on the fly, a ``*.dist-info`` folder with ``entry_points.txt`` on PYTHONPATH
(what importlib.metadata reads; no pip install), naming the toy game of tests/toygame, and runs
the ``pbem`` command line in a fresh process: pbem lists the game and its scenario, the help
shows its roles, optional rules and standing keys (from its ``Game`` declarations), and `pbem
new`, `orders template`, `seal`, `validate` and `adjudicate` work for it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core.errors import ExitCode

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding one distribution that declares the toy game as a pbem game."""
    site = tmp_path_factory.mktemp("site")
    info = site / "pbem_toygame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pbem-toygame\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[pbem.games]\ntoy = tests.toygame:GAME\n", encoding="utf-8")
    return site


def pbem(site: Path, cwd: Path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), COLUMNS="200", NO_COLOR="1")
    env.pop("PBEM_DATA", None)
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_entry_point_adds_a_game_to_the_help(site, tmp_path):
    r = pbem(site, tmp_path, "--help")
    assert r.returncode == 0, r.stderr
    assert "(Battle for Germany, BlitzWAR, Toy duel)" in words(r.stdout)
    r = pbem(site, tmp_path, "scenarios")
    assert "toy-duel" in r.stdout and "bfg-historical" in r.stdout and "blitzwar-1939" in r.stdout
    new = words(pbem(site, tmp_path, "new", "--help").stdout)
    assert "toy-duel: amber, blue, cyan" in new                                   # the scenario's roles
    assert "Toy duel: long = a third round" in new                                # its optional rule
    assert "Toy duel: split=ask|auto (how a score is split into attack and defend)" in new   # its standing key
    assert "Toy duel: split=auto" in new                                          # its `auto` standing orders
    assert "e.g. bfg-historical, blitzwar-1939 or toy-duel" in new
    assert "e.g. western:advance=none, axis:losses=" in new and "or amber:split=auto" in new
    tpl = words(pbem(site, tmp_path, "orders", "template", "--help").stdout)
    assert "Toy duel: amber, blue, cyan" in tpl                                   # its roles (Game.roles)
    assert "e.g. soviet, axis or amber" in words(pbem(site, tmp_path, "key", "new", "--help").stdout)


def test_new_template_validate_and_adjudicate_through_the_cli(site, tmp_path):
    camp = tmp_path / "duel"
    r = pbem(site, tmp_path, "new", camp, "--scenario", "toy-duel", "--id", "duel", "--option", "long",
             *[a for p in ("amber", "blue", "cyan") for a in ("--player", f"{p}={p.title()}")])
    assert r.returncode == 0, r.stderr
    assert "campaign duel (toy-duel) created" in r.stdout
    assert "Next: pbem orders template" in r.stdout
    r = pbem(site, tmp_path, "show", camp)
    assert r.returncode == 0 and "Toy duel - campaign duel (toy-duel)" in r.stdout, r.stderr
    r = pbem(site, tmp_path, "orders", "template", camp, "--player", "amber", "-o", "amber.yaml")
    assert r.returncode == 0, r.stderr
    template = (tmp_path / "amber.yaml").read_text("utf-8")
    assert "# toy orders of amber" in template and "game: toy" in template
    # a bet without the turn-1 seal: the game's own check refuses it
    (tmp_path / "amber.yaml").write_text(template + "phases:\n  - {phase: play, bet: 2}\n", "utf-8")
    r = pbem(site, tmp_path, "validate", camp, "amber.yaml")
    assert r.returncode == ExitCode.ILLEGAL, (r.returncode, r.stdout, r.stderr)
    assert "TOY-SEAL" in r.stdout and "REFUSED" in r.stdout
    r = pbem(site, tmp_path, "seal", camp, "--player", "amber", "--id", "secret-amber", "--choice", "2", "-o", "amber.opening")
    assert r.returncode == 0, r.stderr
    seal_entry = r.stdout[r.stdout.index("seal:"):]
    (tmp_path / "amber.yaml").write_text(template + "phases:\n  - {phase: play, bet: 2}\n" + seal_entry, "utf-8")
    r = pbem(site, tmp_path, "validate", camp, "amber.yaml")
    assert r.returncode == 0 and "OK: 0 error(s)" in r.stdout, (r.stdout, r.stderr)
    r = pbem(site, tmp_path, "adjudicate", camp, "amber.yaml")
    assert r.returncode == ExitCode.WAITING, (r.returncode, r.stdout, r.stderr)
    assert "still awaited: blue, cyan" in r.stdout + r.stderr
    assert (camp / "steps" / "001").is_dir()


def test_no_plugin_is_found_without_importing_importlib_metadata(site):
    """`pbem --help` names every game: where no installed distribution names the group
    ``pbem.games`` it is found without importing importlib.metadata (a third of --help's time,
    issue 35); with one (a ``*.dist-info`` on the path), the group is read as before."""
    code = ("import sys; from pbem.core.games import _entry_points; e = _entry_points(); "
            "print(sorted(e), 'importlib.metadata' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["[]", "False"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["['toy']", "True"]
