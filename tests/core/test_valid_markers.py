"""Validity markers (pbem.core.schema, docs/install.md, "Speed"): component data and states whose exact
bytes were found valid are not checked against their schemas again; anything else is."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem.core.schema as schema_module
from pbem.cli import main
from pbem.core import data
from pbem.core.canon import digest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE_DIR", str(folder))
    monkeypatch.delenv("PBEM_NO_CACHE", raising=False)
    data.load_ruleset.cache_clear()
    yield folder
    data.set_user_data(None)
    data.load_ruleset.cache_clear()


@pytest.fixture()
def checks(monkeypatch) -> list:
    """The documents really checked against their schemas (by schema name; by
    pbem.core.fastschema, then jsonschema when that does not find them valid)."""
    seen: list = []
    real = schema_module._errors
    # the markers on their own: without the list of the shipped data found valid, which spares
    # pbem's own files even the first check (tests/core/test_shipped_valid.py)
    monkeypatch.setattr(schema_module, "_shipped_list", lambda: {})

    def spy(doc, name, schema):
        seen.append(name)
        return real(doc, name, schema)
    monkeypatch.setattr(schema_module, "_errors", spy)
    return seen


def test_data_checked_once_then_only_normalised(cache, checks):
    _, docs1, issues1 = data.load_scenario_docs("bfg-historical")
    assert not issues1 and checks, "the first load checks every file"
    markers = sorted((cache / "valid").iterdir())
    assert len(markers) == len(checks)
    for m in markers:
        assert m.read_bytes() == m.name.encode() + b"\n"
        assert (cache / "docs" / m.name).read_bytes().startswith(m.name.encode() + b"\n{")
    checks.clear()
    _, docs2, issues2 = data.load_scenario_docs("bfg-historical")
    assert not issues2 and checks == []
    # the same documents (normalised the same way: e.g. hex ids as strings), the same digest
    assert docs1 == docs2 and digest(docs1) == digest(docs2)


def test_damaged_or_missing_marker_means_a_full_check(cache, checks):
    data.load_scenario_docs("bfg-historical")
    n = len(checks)
    markers = sorted((cache / "valid").iterdir())
    kept = [cache / "docs" / m.name for m in markers]
    assert all(k.is_file() for k in kept)
    for files in (markers, kept):
        files[0].write_bytes(b"garbage")
        files[1].unlink()
        files[2].write_bytes(b"")
    # a kept document whose JSON is damaged behind a good first line is not used either
    kept[3].write_bytes(kept[3].read_bytes()[:-5])
    markers[3].unlink()
    checks.clear()
    _, _, issues = data.load_scenario_docs("bfg-historical")
    assert not issues and len(checks) == 4 and n > 4
    checks.clear()
    data.load_scenario_docs("bfg-historical")
    assert checks == []  # rewritten


def test_no_cache_and_unwritable_cache_still_work(tmp_path, monkeypatch, checks):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PBEM_CACHE_DIR", str(blocker / "cache"))
    for _ in range(2):
        _, _, issues = data.load_scenario_docs("bfg-historical")
        assert not issues
    first = len(checks) // 2
    assert first and len(checks) == 2 * first
    monkeypatch.setenv("PBEM_NO_CACHE", "1")
    checks.clear()
    data.load_scenario_docs("bfg-historical")
    assert len(checks) == first


def test_changed_data_is_checked_and_invalid_data_never_marked(cache, checks, tmp_path):
    data.load_scenario_docs("bfg-historical")
    mine = tmp_path / "mine"
    (mine / "rules" / "bfg").mkdir(parents=True)
    crt = (ROOT / "rules" / "bfg" / "crt.yaml").read_text("utf-8")
    (mine / "rules" / "bfg" / "crt.yaml").write_text(crt + "\n# typed in by an owner\n", "utf-8")
    data.set_user_data(mine)
    checks.clear()
    _, _, issues = data.load_scenario_docs("bfg-historical")
    assert not issues and checks == ["bfg-crt"]  # other bytes, another digest
    (mine / "rules" / "bfg" / "crt.yaml").write_text(crt.replace("provenance:", "provenanse:", 1), "utf-8")
    for _ in range(2):
        checks.clear()
        _, _, issues = data.load_scenario_docs("bfg-historical")
        assert checks == ["bfg-crt"] and any(i.code.startswith("SCHEMA-") for i in issues)
        assert all(i.file == str(mine / "rules" / "bfg" / "crt.yaml") for i in issues)


def test_other_schemas_or_version_are_another_digest(cache, monkeypatch):
    key = schema_module._valid_key("bfg-crt", b"x: 1\n")
    schema_module._schemas_digest.cache_clear()
    monkeypatch.setattr("pbem.__version__", "99.0")
    try:
        assert schema_module._valid_key("bfg-crt", b"x: 1\n") != key
    finally:
        schema_module._schemas_digest.cache_clear()
    assert schema_module._valid_key("bfg-map", b"x: 1\n") != schema_module._valid_key("bfg-crt", b"x: 1\n")
    assert schema_module._valid_key("bfg-crt", b"x: 2\n") != schema_module._valid_key("bfg-crt", b"x: 1\n")


def test_data_check_checks_everything(cache, checks):
    data.load_scenario_docs("bfg-historical")
    checks.clear()
    r = CliRunner().invoke(main, ["data", "check", "--quiet", "--scenario", "bfg-historical"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert len(checks) >= 6


def test_a_campaign_state_is_marked_too(cache, checks, tmp_path):
    from pbem.core.actions import new_campaign
    from pbem.core.campaign import load_state_file
    camp = new_campaign(tmp_path / "c", scenario="bfg-historical", campaign_id="c",
                        players={"soviet": {"name": "A"}, "western": {"name": "B"}}, options={}, key_hex="5" * 64)
    path, _ = camp.current()
    load_state_file(path)
    checks.clear()
    st, _ = load_state_file(path)
    assert checks == [] and st["turn"] == 1
    # an edited state is a new digest: checked, and refused
    path.write_text(path.read_text().replace("turn: 1", "turn: one", 1))
    with pytest.raises(Exception) as info:
        load_state_file(path)
    assert checks == ["bfg-state"] and "SCHEMA-" in str(info.value)


def test_the_cache_stays_small(cache, monkeypatch):
    monkeypatch.setattr(schema_module, "_MAX_MARKERS", 4)
    monkeypatch.setattr(schema_module, "_shipped_list", lambda: {})   # (see checks)
    data.load_scenario_docs("bfg-historical")  # 6 documents
    assert 1 <= len(list((cache / "valid").iterdir())) <= 4


def test_the_scenario_index_is_the_same_from_kept_documents(cache):
    from pbem.bfg import GAME
    data._index_memo.clear()
    first = data.scenario_index(GAME)
    for sid in first:
        data.load_scenario_docs(sid)  # keeps every scenario document
    data._index_memo.clear()
    assert data.scenario_index(GAME) == first
