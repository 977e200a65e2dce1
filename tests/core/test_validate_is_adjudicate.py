"""`pbem validate` is the adjudication run with dice that refuse to roll (issue 18,
pbem.core.kernel.check_run): over steps of the example archives, every error validate reports is
a refusal of adjudicate, and every file adjudicate refuses (before a die: a refusal is always
before one) validate reports. The archived files (all accepted) and files spoiled on purpose
(an unknown unit, a place that is not on the map) are checked both ways."""
from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from pbem.core.campaign import Campaign, load_order_file, load_state_file
from pbem.core.data import load_ruleset
from pbem.core.dice import Dice
from pbem.core.kernel import adjudicate, validate
from pbem.core.step import submissions

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGNS = sorted(p.parent for p in (ROOT / "examples").glob("*/campaign.yaml"))
STEPS = 3          # steps of each archive checked (the test stays fast)


def _dice(**_):
    return Dice("11" * 32)


def _steps(folder: Path):
    """(state, order files) of steps spread over an archive whose files give orders to spoil."""
    camp = Campaign(folder)
    dirs = camp.step_dirs()
    found = []
    for before, d in zip(dirs, dirs[1:]):
        listed = [o["file"] for o in json.loads((d / "report.json").read_text())["orders"]]
        ofs = [load_order_file(d / name, name=name) for name in listed]
        if any(_spoiled(of.doc) for of in ofs):
            found.append((before, ofs))
    chosen = found[::max(1, len(found) // STEPS)][:STEPS]
    return [(load_state_file(camp.state_path(before))[0], ofs) for before, ofs in chosen]


def _spoiled(doc: dict) -> list[dict]:
    """The document spoiled in one place per way: an unknown unit, a place not on the map."""
    out = []
    for i, ph in enumerate(doc.get("phases") or []):
        for key in ("moves", "attacks", "replacements", "place", "activate", "strategic"):
            for j, e in enumerate(ph.get(key) or []):
                if not isinstance(e, dict):
                    continue
                for field, bad in (("unit", "zz-nobody"), ("counter", "zz-nobody"), ("to", "atlantis"),
                                   ("hex", "9999"), ("target", "atlantis"), ("zone", "atlantis")):
                    if isinstance(e.get(field), str):
                        d = copy.deepcopy(doc)
                        d["phases"][i][key][j][field] = bad
                        out.append(d)
                if len(out) >= 3:
                    return out
    return out


def _both(g, rs, state, subs) -> tuple[set, set, str]:
    v = {i.code for i in validate(g, rs, state, subs) if i.is_error}
    out = adjudicate(g, rs, state, subs, _dice)
    a = {i.code for i in out.issues if i.is_error} if out.stopped == "refused" else set()
    return v, a, out.stopped


@pytest.mark.parametrize("folder", CAMPAIGNS, ids=[p.name for p in CAMPAIGNS])
def test_validate_reports_what_adjudicate_refuses(folder: Path) -> None:
    steps = _steps(folder)
    assert steps
    g, rs = load_ruleset(steps[0][0]["scenario"])
    tried = 0
    for state, ofs in steps:
        subs = submissions(ofs)
        v, a, stopped = _both(g, rs, state, subs)
        assert not v and not a, (folder.name, state["step"], v, a, stopped)
        for sub in subs:
            for doc in _spoiled(sub.doc):
                bad = replace(sub, doc=doc, digest="0" * 64)
                v, a, stopped = _both(g, rs, state, [bad])
                assert v == a, (folder.name, state["step"], sub.name, doc, v, a, stopped)
                tried += bool(v)
    assert tried, "no spoiled file was refused"


def test_what_follows_a_decision_is_a_warning_as_adjudicate_does_not_refuse_it():
    """DG2 7.21: the adjudication stops at a replacement tie; the movement after it is checked
    on resumption (an order that no longer fits is void then), so validate warns, naming the
    default it assumed, and does not call the file refused."""
    from pbem.bfg import GAME
    from pbem.bfg.cases import kit
    k = kit()
    rs, st = k.setup({"units": [["wg-244", "west-german", "2-4-4", "box:west-german"],
                                ["wg-234", "west-german", "2-3-4", "box:west-german"]],
                      "start": {"turn": 4, "phase": "west-german.replacement"}})
    sub = k.submission(st, {"player": "soviet", "phases": [
        {"phase": "west-german.replacement", "replacements": [{"hex": "1005"}]},
        {"phase": "west-german.movement", "moves": [{"unit": "wg-244", "path": ["1006"]}]}]})
    issues = validate(GAME, rs, st, [sub])
    assert [(i.code, i.is_error) for i in issues] == [("BFG-DECISION-AHEAD", False), ("BFG-UNIT-OFF-MAP", False)]
    assert "if decision t04.west-german.replacement.r1 (wg-234, wg-244) takes its default" in issues[1].message
    assert adjudicate(GAME, rs, st, [sub], _dice).stopped == "pending"
