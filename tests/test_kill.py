"""A pbem process killed while it writes a step leaves the campaign as it was (or, once the
step folder is renamed into place, complete), and the campaign can go on.

``pbem adjudicate`` runs in a real subprocess with the test hook PBEM_TEST_CRASH_AFTER_FILES
(read only by ``Campaign.write_step``, see ``pbem.core.campaign._test_crash``): the process
dies by ``os._exit(137)`` -- no cleanup, no ``finally``, like a ``kill -9`` -- after N files of
the step are in the temporary folder ``steps/.NNN.tmp-<pid>``, or just after the rename.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign

KEY = "5" * 64
HOOK = "PBEM_TEST_CRASH_AFTER_FILES"
# Soviet orders with a move and an attack (a die is rolled, so replay recomputes a roll).
BODY = ("phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: 0422}\n"
        "  - phase: soviet.combat\n    attacks:\n      - {target: 2424, units: [sov-1gt, sov-2gt, sov-8ga]}\n"
        "standing: {retreat: auto, advance: none, ex_losses: auto}\n")
STEP_FILES = 4  # the order file, report.json, report.txt, the new state


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def files(root: Path) -> dict[str, str]:
    """Every file under ``root`` (hidden ones too) with the sha256 of its bytes."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            p = Path(dirpath) / n
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def make_campaign(folder: Path, tmp: Path) -> Path:
    new_campaign(folder, scenario="bfg-historical", campaign_id="k1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY)
    _, st = Campaign(folder).current()
    p = tmp / "soviet-t01.yaml"
    if not p.exists():
        p.write_text(f"schema: pbem/orders/v1\ngame: bfg\ncampaign: k1\nplayer: soviet\nturn: 1\n"
                     f"state: {st['hash']}\n" + BODY)
    return p


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """steps/001 as an uninterrupted adjudication writes it."""
    tmp = tmp_path_factory.mktemp("reference")
    camp = tmp / "camp"
    orders = make_campaign(camp, tmp)
    r = cli("adjudicate", camp, orders)
    assert r.exit_code in (0, 5), r.output
    return files(camp / "steps" / "001")


@pytest.mark.parametrize("point", [str(n) for n in range(STEP_FILES + 1)] + ["rename"])
def test_killed_while_writing_a_step(point: str, tmp_path: Path, reference) -> None:
    camp = tmp_path / "camp"
    orders = make_campaign(camp, tmp_path)
    before = files(camp)
    env = dict(os.environ, **{HOOK: point})
    proc = subprocess.run([sys.executable, "-m", "pbem", "adjudicate", str(camp), str(orders)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 137, proc.stdout + proc.stderr
    assert len(reference) == STEP_FILES

    steps = camp / "steps"
    leftovers = [p for p in steps.iterdir() if p.name.startswith(".001.tmp-")]
    renamed = point == "rename"
    after = files(camp)
    # what was there before is intact, byte for byte
    assert {k: v for k, v in after.items() if k in before} == before
    if renamed:
        # the step is complete and identical to an uninterrupted one; nothing else is left
        assert not leftovers
        assert files(steps / "001") == reference
        assert set(after) == set(before) | {f"steps/001/{n}" for n in reference}
    else:
        # no partial steps/001; at most the temporary folder, holding only complete files
        assert not (steps / "001").exists()
        assert len(leftovers) == 1 and leftovers[0].is_dir()
        left = files(leftovers[0])
        assert len(left) == int(point)
        assert all(reference.get(name) == digest for name, digest in left.items())
        assert set(after) - set(before) == {f"steps/{leftovers[0].name}/{n}" for n in left}

    # the campaign opens; show works and gives the previous state (or the new one)
    path, st = Campaign(camp).current()
    assert st["step"] == (1 if renamed else 0)
    r = cli("show", camp)
    assert r.exit_code == 0 and f"step {st['step']}" in r.output, r.output

    # the same orders again: adjudicated now (identical to the uninterrupted run), or, if the
    # step was complete, refused as written against an older state, with nothing written
    if leftovers:
        # replay says it is there and not part of the archive (issue 17: it was never reported)
        r = cli("replay", camp)
        assert "REPLAY-STALE-TEMP" in r.output and leftovers[0].name in r.output, r.output
    r = cli("adjudicate", camp, orders)
    if renamed:
        assert r.exit_code == 4 and "HASH-ORDERS-REPLAYED" in r.output, r.output
        assert files(camp) == after
    else:
        assert r.exit_code in (0, 5), r.output
        assert files(steps / "001") == reference
    # a leftover temporary folder is removed by the next adjudication, which says so (issue 17:
    # it was left for ever, unreported)
    for lo in leftovers:
        assert not lo.exists() and "FILE-STALE-TEMP" in r.output and lo.name in r.output, r.output

    r = cli("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK: 1 step(s)" in r.output, r.output
    r = cli("orders", "template", camp, "--player", "soviet")
    assert r.exit_code == 0, r.output


def test_the_hook_is_only_read_in_write_step() -> None:
    """The crash hook is one small seam: the variable is read in one place only."""
    root = Path(__file__).resolve().parents[1] / "pbem"
    uses = [(p, n) for p in root.rglob("*.py") for n, line in enumerate(p.read_text().splitlines(), 1)
            if HOOK in line]
    assert {p.name for p, _ in uses} == {"campaign.py"}
    text = (root / "core" / "campaign.py").read_text()
    assert text.count(f'os.environ.get("{HOOK}")') == 1 and text.count("os.environ") == 1
    assert HOOK not in os.environ
