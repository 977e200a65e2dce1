"""Issue 35, the mail step: `pbem adjudicate --mail` composes the messages from the state it has
just archived (the StepResult's) rather than reading the state file back (a parse, a schema
check and a hash). Proven here on the last step of the examples adjudicated again: the state
handed over equals the archived file loaded and checked, the messages are byte for byte those
`pbem mail` writes from the archive alone, and the state file is not parsed again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem.core.campaign as campaign_mod
from pbem.cli import main
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.mail import step_messages
from pbem.core.step import adjudicate_campaign

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _without_last_step(src: Path, dst: Path) -> tuple[Path, list[Path]]:
    last = sorted((src / "steps").iterdir())[-1]
    shutil.copytree(src, dst, ignore=lambda d, names: [last.name] if Path(d) == src / "steps" else [])
    orders = dst.parent / f"{dst.name}-orders"
    orders.mkdir()
    return dst, [Path(shutil.copy(f, orders / f.name)) for f in sorted(last.glob("orders-*.yaml"))]


@pytest.mark.parametrize("example", ["blitzwar-1939", "bfg-historical", "bfg-four-player", "bfg-three-player"])
def test_the_state_just_archived_is_the_file_loaded_again(tmp_path, example):
    camp, orders = _without_last_step(EXAMPLES / example, tmp_path / "c")
    res = adjudicate_campaign(camp, orders)
    assert res.step_dir is not None and res.state is not None
    loaded, raw = load_state_file(Campaign(camp).state_path(res.step_dir))
    assert loaded == res.state
    assert repr(loaded) == repr(res.state)      # the same types too (a tuple is no list)
    # and the messages composed from it are those composed from the file
    step = int(res.step_dir.name)
    _, handed, _, _ = step_messages(camp, step, written=res.state)
    campaign_mod._last_state.clear()
    _, read, _, _ = step_messages(camp, step)
    assert [m.message.as_bytes() for m in handed] == [m.message.as_bytes() for m in read]


def test_adjudicate_mail_reads_no_state_back_and_writes_what_pbem_mail_writes(tmp_path, monkeypatch):
    camp, orders = _without_last_step(EXAMPLES / "blitzwar-1939", tmp_path / "c")
    parsed: list[str] = []
    real = campaign_mod._load_state_bytes

    def counting(raw, path):
        parsed.append(Path(path).name)
        return real(raw, path)
    monkeypatch.setattr(campaign_mod, "_load_state_bytes", counting)
    campaign_mod._last_state.clear()
    r = CliRunner().invoke(main, ["adjudicate", str(camp), *map(str, orders), "--mail", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    new = Campaign(camp).state_path(sorted((camp / "steps").iterdir())[-1]).name
    assert new not in parsed, parsed         # only the input state is read (once)
    monkeypatch.setattr(campaign_mod, "_load_state_bytes", real)
    campaign_mod._last_state.clear()
    r = CliRunner().invoke(main, ["mail", str(camp), "-o", str(tmp_path / "again")])
    assert r.exit_code == 0, r.output
    sent = sorted((tmp_path / "out").iterdir())
    assert [p.name for p in sent] == sorted(p.name for p in (tmp_path / "again").iterdir()) and sent
    for p in sent:
        assert p.read_bytes() == (tmp_path / "again" / p.name).read_bytes()


def test_a_state_file_other_than_the_one_handed_over_is_read(tmp_path):
    camp, orders = _without_last_step(EXAMPLES / "blitzwar-1939", tmp_path / "c")
    res = adjudicate_campaign(camp, orders)
    step = int(res.step_dir.name)
    wrong = dict(res.state, hash="0" * 64, turn=-1)    # not the file's: the file is read
    _, msgs, _, _ = step_messages(camp, step, written=wrong)
    _, read, _, _ = step_messages(camp, step)
    assert [m.message.as_bytes() for m in msgs] == [m.message.as_bytes() for m in read]
