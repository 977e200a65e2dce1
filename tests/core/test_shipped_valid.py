"""pbem's own data files are checked against their schemas when their list is made, and a
command recognises them by it (pbem.core.schema, "The shipped data"; issue 35): the list must be
the one the files give, a recognised file must come out as a full check gives it, and any other
bytes -- a user's edited copy -- must be checked in full."""
import copy
import json
from pathlib import Path

import pytest

from pbem.core import data, schema
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_is_current():
    listed = schema.SHIPPED_LIST.read_text(encoding="utf-8")
    assert listed == data.shipped_valid_text(), (
        "pbem/core/shipped-valid.json is stale (a data file or a schema changed): run "
        "`python tools/make_shipped_valid.py` and commit the list")


def _entries():
    listed = json.loads(schema.SHIPPED_LIST.read_text(encoding="utf-8"))
    return [(name, key, e) for name, entries in listed["schemas"].items() for key, e in entries.items()]


def test_the_list_names_every_data_file_of_a_scenario():
    files = {e["file"] for _, _, e in _entries()}
    for gid in ("bfg", "blitzwar"):
        g = data.game(gid)
        assert {rel for rel, _ in g.data_files.values()} <= files
        assert {info["file"] for info in g.scenarios().values()} <= files


@pytest.mark.parametrize("name,key,entry", _entries(), ids=lambda v: v["file"] if isinstance(v, dict) else "")
def test_a_listed_file_comes_out_as_a_full_check_gives_it(name, key, entry):
    raw = (ROOT / entry["file"]).read_bytes()
    assert schema.shipped_key(name, raw) == key
    fast = load_yaml(raw, entry["file"]).data
    full = copy.deepcopy(fast)
    assert schema.validate(fast, name, raw=raw) == []
    with schema.check_fully():
        assert schema.validate(full, name, raw=raw) == []
    assert json.dumps(fast) == json.dumps(full)


def test_other_bytes_are_checked_in_full():
    raw = (ROOT / "rules" / "bfg" / "crt.yaml").read_bytes()
    doc = load_yaml(raw, "crt.yaml").data
    assert schema._shipped_valid(copy.deepcopy(doc), "bfg-crt", raw)
    edited = raw + b"unknown_field: 1\n"
    assert not schema._shipped_valid(load_yaml(edited, "crt.yaml").data, "bfg-crt", edited)
    issues = schema.validate(load_yaml(edited, "crt.yaml").data, "bfg-crt", raw=edited)
    assert [i.code for i in issues] == ["SCHEMA-ADDITIONALPROPERTIES"]
    # the same bytes against another schema are not the listed file
    assert not schema._shipped_valid(copy.deepcopy(doc), "bfg-terrain", raw)


def test_a_user_file_with_a_problem_is_reported_although_the_shipped_one_is_listed(tmp_path):
    mine = tmp_path / "mine"
    (mine / "rules" / "bfg").mkdir(parents=True)
    text = (ROOT / "rules" / "bfg" / "crt.yaml").read_text("utf-8")
    (mine / "rules" / "bfg" / "crt.yaml").write_text(text + "unknown_field: 1\n", "utf-8")
    try:
        data.set_user_data(mine)
        _, _, issues = data.load_scenario_docs("bfg-historical")
    finally:
        data.set_user_data(None)
    assert any(i.code == "SCHEMA-ADDITIONALPROPERTIES" for i in issues)


def test_a_first_run_checks_no_shipped_file_and_data_check_checks_them_all(monkeypatch):
    seen = []
    real = schema._errors

    def spy(doc, name, s):
        seen.append(name)
        return real(doc, name, s)
    monkeypatch.setattr(schema, "_errors", spy)
    monkeypatch.setenv("PBEM_NO_CACHE", "1")      # a first run: no validity marker
    data.load_ruleset.cache_clear()
    _, docs, issues = data.load_scenario_docs("blitzwar-1939")
    assert not issues and seen == []
    with schema.check_fully():
        _, docs2, issues2 = data.load_scenario_docs("blitzwar-1939")
    assert not issues2 and len(seen) == len(docs2) and docs == docs2
