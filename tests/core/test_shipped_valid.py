"""pbem's own data files are checked against their schemas when their list is made, and a
command recognises them by it (pbem.core.schema, "The shipped data"; issue 35): the list must be
the one the files give, a recognised file must come out as a full check gives it, and any other
bytes -- a user's edited copy -- must be checked in full."""
import copy
import json
import marshal
from pathlib import Path

import pytest

from pbem.core import data, schema
from pbem.core.errors import PbemError
from pbem.core.yamlio import load_known_yaml, load_yaml

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


@pytest.mark.parametrize("name,key,entry", _entries(), ids=lambda v: v["file"] if isinstance(v, dict) else "")
def test_a_listed_file_is_read_as_load_yaml_reads_it(name, key, entry):
    """load_known_yaml (a listed file: no marks, no checks) gives load_yaml's data, its types."""
    raw = (ROOT / entry["file"]).read_bytes()
    assert schema.shipped_listed(name, raw)
    with schema.check_fully():
        assert not schema.shipped_listed(name, raw)        # `pbem data check`: read in full
    known, full = load_known_yaml(raw, entry["file"]).data, load_yaml(raw, entry["file"]).data
    assert marshal.dumps(known) == marshal.dumps(full)      # marshal tells 1 from True, "1" from 1


def test_what_a_known_file_never_holds_goes_to_load_yaml():
    for text, code in (("a: 1\na: 2\n", None), ("a: &x 1\nb: *x\n", "YAML-ALIAS"), ("a: !!float 1\n", "YAML-TAG"),
                       ("a: 1\n---\nb: 2\n", "YAML-MULTIDOC"), ("", "YAML-EMPTY"), ("{[a]: 1}\n", "YAML-NONSTRING-KEY"),
                       ("<<: {a: 1}\n", "YAML-ALIAS"), ("a: [1, !!int 0x1]\n", "YAML-TAG")):
        raw = text.encode()
        if code is None:      # a duplicate key: only load_yaml looks for one (a listed file has none)
            assert load_known_yaml(raw).data == {"a": 2}
            continue
        with pytest.raises(PbemError) as e:
            load_known_yaml(raw)
        assert code in [i.code for i in e.value.issues], text
    assert load_known_yaml(b"a: [1, '1', 0101, true, ~, !!str 2, !!int 3, {b: }]\n").data == \
        {"a": [1, "1", "0101", True, None, "2", 3, {"b": None}]}
