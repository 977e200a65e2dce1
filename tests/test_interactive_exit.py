"""`pbem show`, `validate`, `orders template` and `mail` in a process of their own end without the
interpreter's teardown, the collector paused while they run (pbem.cli.common.interactive;
issue 35): what they print, the files they write and their exit codes are those of the same
command run in this process by click's runner, which ends the usual way."""
from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign


def _process(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200", PBEM_NO_CACHE="1")
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          check=False)


def _here(args: list[str], monkeypatch) -> tuple[int, str]:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    r = CliRunner().invoke(main, args)
    return r.exit_code, r.output


def test_a_process_of_its_own_prints_and_exits_the_same(tmp_path, monkeypatch):
    camp = tmp_path / "c"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex="5" * 64)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("phases: [1]\n", "utf-8")
    for args in (["show", "c"], ["orders", "template", "c", "--player", "soviet"],
                 ["orders", "template", "c", "--player", "nobody"], ["validate", "c", "bad.yaml"],
                 ["show", "c", "--zone", "nowhere"]):
        p = _process(args, tmp_path)
        code, out = _here(args, monkeypatch)
        assert (p.returncode, p.stdout + p.stderr) == (code, out), args
    p = _process(["orders", "template", "c", "--player", "soviet", "-o", "t.yaml"], tmp_path)
    assert p.returncode == 0 and p.stdout == "wrote t.yaml\n"
    assert (tmp_path / "t.yaml").read_text("utf-8").endswith("# end of the order file (keep this line; write above it)\n")
    p = _process(["validate", "c", "t.yaml"], tmp_path)
    assert (p.returncode, p.stdout + p.stderr) == _here(["validate", "c", "t.yaml"], monkeypatch)
    assert p.stdout.endswith("error(s), 0 warning(s)\n")


def test_the_collector_is_as_it_was_after_the_command(tmp_path, monkeypatch):
    camp = tmp_path / "c"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex="5" * 64)
    assert gc.isenabled()
    assert _here(["show", str(camp)], monkeypatch)[0] == 0
    assert gc.isenabled()
    gc.disable()
    try:
        assert _here(["show", str(camp)], monkeypatch)[0] == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_pbem_mail_in_a_process_of_its_own_writes_the_same_messages(tmp_path, monkeypatch):
    """`pbem mail` ends the same way (every .eml is written whole before it returns): the same
    files, byte for byte, and the same output as in this process."""
    example = Path(__file__).resolve().parents[1] / "examples" / "bfg-historical"
    monkeypatch.chdir(tmp_path)
    p = _process(["mail", str(example), "-o", "out1"], tmp_path)
    code, out = _here(["mail", str(example), "-o", "out2"], monkeypatch)
    assert p.returncode == code == 0, p.stderr
    assert (p.stdout + p.stderr).replace("out1", "out2") == out
    one, two = sorted((tmp_path / "out1").iterdir()), sorted((tmp_path / "out2").iterdir())
    assert [f.name for f in one] == [f.name for f in two] and one
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(one, two))
