"""Report formats (issue 8 changed them, issue 10 wants old archives to keep replaying): new
steps are written as pbem/report/v2 (events say `from`, the new report.txt layout); an archive
written in pbem/report/v1 (`frm`, the old layout) still replays byte for byte, and a change to
it is still caught."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.data import load_ruleset
from pbem.core.replay import replay_campaign
from pbem.core.report import LEGACY_SCHEMAS, REPORT_SCHEMA, as_version, render_text, report_json

KEY = "7" * 64
ORDERS = """phases:
  - phase: soviet.movement
    moves:
      - {unit: sov-1bf, to: '2326'}
  - phase: soviet.combat
    attacks:
      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga], advance: sov-8ga}
standing: {retreat: auto, ex_losses: auto, advance: none}
"""


def _campaign(tmp_path: Path) -> Path:
    camp = tmp_path / "c1"
    new_campaign(camp, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY)
    r = CliRunner().invoke(main, ["orders", "template", str(camp), "--player", "soviet"])
    head = [ln for ln in r.output.splitlines() if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    p = tmp_path / "orders.yaml"
    p.write_text("\n".join(head) + "\n" + ORDERS)
    r = CliRunner().invoke(main, ["adjudicate", str(camp), str(p)])
    assert r.exit_code in (0, 5), r.output
    return camp


def _to_v1(camp: Path) -> dict:
    """Rewrite step 001 as an earlier pbem wrote it."""
    step = camp / "steps" / "001"
    rep = json.loads((step / "report.json").read_text("utf-8"))
    old = as_version(rep, LEGACY_SCHEMAS[0])
    g, rs = load_ruleset("bfg-historical")
    (step / "report.json").write_text(report_json(old), "utf-8")
    (step / "report.txt").write_text(render_text(old, g, rs), "utf-8")
    return old


def test_new_reports_are_v2_with_from(tmp_path):
    camp = _campaign(tmp_path)
    rep = json.loads((camp / "steps" / "001" / "report.json").read_text("utf-8"))
    assert rep["schema"] == REPORT_SCHEMA == "pbem/report/v2"
    moves = [e for e in rep["events"] if e["type"] == "move"]
    assert moves and all("from" in e and "frm" not in e for e in moves)


def test_a_v1_archive_still_replays_and_tampering_is_caught(tmp_path):
    camp = _campaign(tmp_path)
    old = _to_v1(camp)
    assert old["schema"] == "pbem/report/v1"
    assert any("frm" in e for e in old["events"] if e["type"] == "move")
    text = (camp / "steps" / "001" / "report.txt").read_text("utf-8")
    assert "stopped: " in text                      # the v1 layout
    res = replay_campaign(camp)
    assert not [i for i in res.issues if i.is_error], [i.format() for i in res.issues]
    assert res.steps == 1
    # the v1 text is still checked byte for byte
    (camp / "steps" / "001" / "report.txt").write_text(text.replace("stopped: ", "stopped:  "), "utf-8")
    res = replay_campaign(camp)
    assert [i.code for i in res.issues if i.is_error] == ["REPLAY-TEXT-DIFFERS"]


def test_the_v1_key_order_is_kept():
    ev = {"type": "move", "turn": 1, "phase": "soviet.movement", "unit": "x", "from": "0101", "path": ["0102"]}
    rep = {"schema": REPORT_SCHEMA, "events": [ev]}
    assert list(as_version(rep, "pbem/report/v1")["events"][0]) == ["type", "turn", "phase", "unit", "frm", "path"]
    assert as_version(rep, REPORT_SCHEMA) is rep
