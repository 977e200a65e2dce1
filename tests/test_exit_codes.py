"""Exit codes as documented (docs/game-master.md, `pbem --help`): one enum, one table from issue
codes to exit codes, click's usage errors as 64, an unexpected exception as 70 with a short
message and no traceback unless asked for."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import __version__
from pbem.cli import main
from pbem.core.errors import (
    EXIT_BY_CODE,
    EXIT_BY_PREFIX,
    EXIT_MEANINGS,
    ExitCode,
    Issue,
    PbemError,
    exit_code_for,
    exit_code_of,
    exit_help,
)

ROOT = Path(__file__).resolve().parents[1]


def run(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)


def _words(text: str) -> str:
    return " ".join(text.split())


def test_every_code_has_a_meaning_and_its_own_value():
    assert set(EXIT_MEANINGS) == set(ExitCode)
    assert len({int(c) for c in ExitCode}) == len(ExitCode)
    assert (ExitCode.PENDING, ExitCode.WAITING, ExitCode.USAGE, ExitCode.INTERNAL, ExitCode.IO) == (5, 6, 64, 70, 74)


def test_help_lists_the_codes_from_the_enum():
    r = run("--help")
    assert r.exit_code == 0
    out = _words(r.output)
    assert _words(exit_help()) in out
    for code in ExitCode:
        assert f"{int(code)} {EXIT_MEANINGS[code]}" in out
    # commands repeat the list in their own help
    assert _words(exit_help()) in _words(run("validate", "--help").output)


def test_the_game_masters_guide_lists_the_codes_from_the_enum():
    """The list moved with the walk-through from the README into docs/game-master.md."""
    assert _words(exit_help()) in _words((ROOT / "docs" / "game-master.md").read_text("utf-8"))


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.output


@pytest.mark.parametrize("args", [
    ["no-such-command"],
    ["new"],  # missing argument and options
    ["new", "x", "--id", "a", "--player", "soviet=A"],  # missing --scenario
    ["show"],
    ["map", "--scale", "100", "x"],  # bad option value
    ["--no-such-option"],
    ["orders", "nope"],
])
def test_usage_errors_exit_64(args):
    r = run(*args)
    assert r.exit_code == ExitCode.USAGE, r.output
    assert "Traceback" not in r.output


def test_unexpected_exception_exits_70_with_a_short_message(monkeypatch):
    import pbem.core.actions as actions

    def boom(*a, **k):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(actions, "data_check", boom)
    monkeypatch.delenv("PBEM_DEBUG", raising=False)
    r = run("data", "check")
    assert r.exit_code == ExitCode.INTERNAL == 70, r.output
    assert "internal error: RuntimeError: kaboom" in r.output
    assert "report" in r.output and "--debug" in r.output
    assert "Traceback" not in r.output
    for how in (["--debug", "data", "check"], ["data", "check"]):
        env = {"PBEM_DEBUG": "1"} if "--debug" not in how else None
        r = run(*how, env=env)
        assert r.exit_code == 70 and "Traceback" in r.output and "kaboom" in r.output, r.output


def test_the_table():
    assert exit_code_of("YAML-TAB") == ExitCode.INVALID
    assert exit_code_of("DATA-CRT") == ExitCode.INVALID
    assert exit_code_of("FILE-NOT-FOUND") == ExitCode.INVALID
    assert exit_code_of("FILE-EXISTS") == exit_code_of("FILE-WRITE") == ExitCode.IO
    assert exit_code_of("ORDERS-GAME") == exit_code_of("ORDERS-CAMPAIGN") == ExitCode.MISMATCH
    assert exit_code_of("HASH-STATE") == exit_code_of("DICE-KEY-MISMATCH") == ExitCode.MISMATCH
    assert exit_code_of("USAGE-PLAYER") == exit_code_of("NEW-ID") == ExitCode.USAGE
    assert exit_code_of("ORDERS-NO-DEFAULT") == exit_code_of("DICE-REVEAL-UNNEEDED") == ExitCode.USAGE
    assert exit_code_of("BFG-MOVE-ZOC") == exit_code_of("ORDERS-PHASE") == ExitCode.ILLEGAL
    assert all(v in ExitCode for v in [*EXIT_BY_CODE.values(), *EXIT_BY_PREFIX.values()])
    # the more serious class wins when several are present
    both = [Issue("BFG-X", "m"), Issue("FILE-EXISTS", "m"), Issue("HASH-X", "m")]
    assert exit_code_for(both) == ExitCode.IO
    assert exit_code_for([Issue("USAGE-X", "m"), Issue("FILE-EXISTS", "m")]) == ExitCode.USAGE
    assert exit_code_for([Issue("FILE-EXISTS", "m", severity="warning")]) == ExitCode.OK


def test_a_raise_site_cannot_give_a_code_another_exit_status():
    # wherever FILE-EXISTS is raised (pbem new used to say 2, map and mail 74), it is 74
    assert PbemError(Issue("FILE-EXISTS", "m"), ExitCode.INVALID).exit_code == ExitCode.IO
    assert PbemError(Issue("FILE-EXISTS", "m")).exit_code == ExitCode.IO
    # stops that are not a class of problem are kept
    assert PbemError(Issue("BFG-X", "m"), ExitCode.WAITING).exit_code == ExitCode.WAITING
    assert PbemError([], ExitCode.INVALID).exit_code == ExitCode.INVALID
    assert PbemError([]).exit_code == ExitCode.INTERNAL


def test_file_exists_is_74_from_new_too(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "x").write_text("x")
    r = run("new", tmp_path / "g", "--scenario", "bfg-historical", "--id", "t",
            "--player", "soviet=A", "--player", "western=B")
    assert r.exit_code == 74 and "FILE-EXISTS" in r.output, r.output


def test_raise_sites_agree_with_the_table():
    """A raise site that names an exit code for an issue code must name the table's: the table
    decides anyway, so a different one would only mislead the reader (and did: FILE-EXISTS
    said 2 in campaign.py and 74 in files.py). A new code goes into EXIT_BY_CODE."""
    import ast
    stops = {"PENDING", "WAITING", "INTERNAL"}
    wrong = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "PbemError"):
                continue
            given = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "exit_code"), None)
            if not (isinstance(given, ast.Attribute) and isinstance(given.value, ast.Name) and given.value.id == "ExitCode"):
                continue
            if given.attr in stops or not node.args:
                continue
            for call in ast.walk(node.args[0]):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Issue" and call.args \
                        and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
                    code = call.args[0].value
                    if exit_code_of(code) != ExitCode[given.attr]:
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {code} raised with {given.attr}, "
                                     f"the table says {exit_code_of(code).name}")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- one meaning, one code (issue 16)
def _bw_campaign(tmp_path):
    folder = tmp_path / "c"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "c1",
            *[a for p in ("axis", "allies", "ussr") for a in ("--player", f"{p}={p.upper()}")])
    assert r.exit_code == 0, r.output
    return folder


def test_a_file_already_received_is_4_from_validate_and_adjudicate(tmp_path):
    folder = _bw_campaign(tmp_path)
    axis = tmp_path / "axis.yaml"
    assert run("orders", "template", folder, "--player", "axis", "-o", axis).exit_code == 0
    r = run("adjudicate", folder, axis)
    assert r.exit_code == ExitCode.WAITING, r.output
    # the same file again: the same meaning and code whichever command sees it
    r = run("validate", folder, axis)
    assert r.exit_code == ExitCode.MISMATCH, r.output
    # said once, as adjudicate says it (issue 16 by mail: it also said the file was written
    # against another state and to write a new one, which the player cannot send)
    assert "HASH-ORDERS-REPLAYED" in r.output and "ORDERS-ALREADY-RECEIVED" not in r.output
    assert "HASH-ORDERS-STATE" not in r.output and "received already in step 001" in r.output
    assert "nothing more is needed from the axis player now; still awaited: allies, ussr" in r.output
    r = run("adjudicate", folder, axis)
    assert r.exit_code == ExitCode.MISMATCH and "HASH-ORDERS-REPLAYED" in r.output, r.output
    # another file of the same player for the same phase: the same meaning, the same code
    other = tmp_path / "axis2.yaml"
    other.write_text(axis.read_text() + "# changed my mind\n")
    for cmd in ("validate", "adjudicate"):
        r = run(cmd, folder, other)
        assert r.exit_code == ExitCode.MISMATCH and "ORDERS-ALREADY-RECEIVED" in r.output, (cmd, r.output)


def test_a_step_that_stops_for_new_orders_exits_waiting(tmp_path, monkeypatch):
    """Orders of a later phase set aside at the position the dice left (stopped
    "orders-invalid"): the step is archived and waits for orders, as one that waits for other
    players does (6), not 0."""
    import pbem.core.step as step
    real = step.run_step

    def stopped_for_new_orders(*a, **k):
        out = real(*a, **k)
        out[0].stopped = "orders-invalid"
        return out
    folder = _bw_campaign(tmp_path)
    files = [tmp_path / f"{p}.yaml" for p in ("axis", "allies", "ussr")]
    for f in files:
        assert run("orders", "template", folder, "--player", f.stem, "-o", f).exit_code == 0
    monkeypatch.setattr(step, "run_step", stopped_for_new_orders)
    r = run("adjudicate", folder, *files)     # complete, it would exit 0
    assert r.exit_code == ExitCode.WAITING, r.output
    assert exit_code_of("ORDERS-ALREADY-RECEIVED") == exit_code_of("HASH-ORDERS-REPLAYED") == ExitCode.MISMATCH
