"""Tests for pbem.core.canon, files, schema and errors."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from pbem.core import files as files_module, schema as schema_module
from pbem.core.canon import canonical_json, digest, sha256_hex, state_hash
from pbem.core.errors import ExitCode, Issue, PbemError, Severity, exit_code_for
from pbem.core.files import atomic_write, ensure_inside, read_bytes_limited
from pbem.core.schema import load_schema, schema_dir, validate
from pbem.core.yamlio import load_yaml

# ---------------------------------------------------------------------------
# canon


def test_canonical_json_known_bytes():
    obj = {"b": [1, ("x", None)], "a": True, "\u00e9": -5, "A": "\u00e9\"\\\n"}
    expected = '{"A":"é\\"\\\\\\n","a":true,"b":[1,["x",null]],"é":-5}'
    assert canonical_json(obj) == expected.encode()
    assert digest({"b": [1, "é"], "a": None}) == \
        "f8f17faab95c024891d173fa43442b0e52007736a1f36715ac721ab22deeefc5"
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_canonical_json_normalises_to_nfc():
    decomposed = {"cafe\u0301": "cafe\u0301"}
    assert canonical_json(decomposed) == canonical_json({"caf\u00e9": "caf\u00e9"})


def test_canonical_json_refuses_nfc_key_collision():
    with pytest.raises(ValueError):
        canonical_json({"cafe\u0301": 1, "caf\u00e9": 2})


@pytest.mark.parametrize("bad", [1.0, {"x": [0.5]}, float("nan"), {1: "a"}, {"x": {1, 2}},
                                 b"bytes"])
def test_canonical_json_refuses_non_json(bad):
    with pytest.raises(TypeError):
        canonical_json(bad)


@given(st.dictionaries(st.text(), st.integers() | st.text() | st.none()))
def test_canonical_json_ignores_insertion_order(d):
    assert canonical_json(d) == canonical_json(dict(reversed(list(d.items()))))


def test_state_hash_ignores_hash_key_without_mutating():
    state = {"turn": 3, "hash": "old", "units": {"a": 1}}
    copy = json.loads(json.dumps(state))
    h = state_hash(state)
    assert state == copy
    assert h == digest({"turn": 3, "units": {"a": 1}})
    assert state_hash({**state, "hash": "other"}) == h
    assert state_hash({**state, "turn": 4}) != h


# ---------------------------------------------------------------------------
# files


def test_atomic_write_creates_and_refuses_overwrite(tmp_path: Path):
    target = tmp_path / "state-t03.yaml"
    atomic_write(target, "turn: 3\n")
    assert target.read_bytes() == b"turn: 3\n"
    with pytest.raises(PbemError) as info:
        atomic_write(target, b"turn: 4\n")
    (issue,) = info.value.issues
    assert issue.code == "FILE-EXISTS"
    assert issue.hint == "pbem never overwrites an archived file"
    assert info.value.exit_code == ExitCode.IO
    assert target.read_bytes() == b"turn: 3\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state-t03.yaml"]


def test_atomic_write_overwrite(tmp_path: Path):
    target = tmp_path / "report.txt"
    atomic_write(target, "one")
    atomic_write(target, "twø", overwrite=True)
    assert target.read_text(encoding="utf-8") == "twø"
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]


def test_atomic_write_refuses_when_target_appears_during_write(tmp_path: Path, monkeypatch):
    """The race: the target is created after the early check; os.link still refuses."""
    target = tmp_path / "orders.yaml"
    real_write_temp = files_module._write_temp

    def write_temp_then_race(directory, name, data):
        tmp = real_write_temp(directory, name, data)
        target.write_bytes(b"other writer\n")
        return tmp

    monkeypatch.setattr(files_module, "_write_temp", write_temp_then_race)
    with pytest.raises(PbemError) as info:
        atomic_write(target, b"mine\n")
    assert info.value.issues[0].code == "FILE-EXISTS"
    assert target.read_bytes() == b"other writer\n"
    assert [p.name for p in tmp_path.iterdir()] == ["orders.yaml"]


def test_atomic_write_without_hard_links(tmp_path: Path, monkeypatch):
    def no_link(src, dst):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(files_module.os, "link", no_link)
    target = tmp_path / "a.yaml"
    atomic_write(target, b"x\n")
    assert target.read_bytes() == b"x\n"
    with pytest.raises(PbemError) as info:
        atomic_write(target, b"y\n")
    assert info.value.issues[0].code == "FILE-EXISTS"
    assert target.read_bytes() == b"x\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_atomic_write_into_missing_directory(tmp_path: Path):
    with pytest.raises(PbemError) as info:
        atomic_write(tmp_path / "nope" / "a.yaml", b"x")
    assert info.value.issues[0].code == "FILE-WRITE"
    assert info.value.exit_code == ExitCode.IO


def test_read_bytes_limited(tmp_path: Path):
    path = tmp_path / "orders.yaml"
    path.write_bytes(b"x" * 10)
    assert read_bytes_limited(path, 10) == b"x" * 10
    with pytest.raises(PbemError) as info:
        read_bytes_limited(path, 9)
    assert info.value.issues[0].code == "FILE-TOO-LARGE"
    with pytest.raises(PbemError) as info:
        read_bytes_limited(tmp_path / "missing.yaml", 10)
    assert info.value.issues[0].code == "FILE-NOT-FOUND"
    assert info.value.exit_code == ExitCode.INVALID
    with pytest.raises(PbemError) as info:
        read_bytes_limited(tmp_path, 10)
    assert info.value.issues[0].code == "FILE-UNREADABLE"


def test_ensure_inside(tmp_path: Path):
    base = tmp_path / "game"
    (base / "turns").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("s")
    assert ensure_inside(base, Path("turns/t01.yaml")) == (base / "turns" / "t01.yaml").resolve()
    assert ensure_inside(base, base / "turns") == (base / "turns").resolve()
    assert ensure_inside(base, Path("turns/../state.yaml")) == (base / "state.yaml").resolve()
    assert ensure_inside(base, Path(".")) == base.resolve()
    for escaping in (Path("../secret.txt"), Path("turns/../../secret.txt"),
                     tmp_path / "secret.txt", Path("/etc/passwd")):
        with pytest.raises(PbemError) as info:
            ensure_inside(base, escaping)
        assert info.value.issues[0].code == "FILE-OUTSIDE"
    os.symlink(tmp_path / "secret.txt", base / "link.txt")
    with pytest.raises(PbemError):
        ensure_inside(base, Path("link.txt"))
    os.symlink(tmp_path, base / "up")
    with pytest.raises(PbemError):
        ensure_inside(base, Path("up/secret.txt"))


def test_ensure_inside_symlink_back_inside_is_fine(tmp_path: Path):
    base = tmp_path / "game"
    (base / "turns").mkdir(parents=True)
    os.symlink(tmp_path, base / "up")
    assert ensure_inside(base, Path("up/game/turns")) == (base / "turns").resolve()


# ---------------------------------------------------------------------------
# errors


def test_issue_format_and_dict():
    issue = Issue("BFG-MOVE-ZOC", "A12 cannot leave an enemy ZOC", file="orders.yaml",
                  line=12, column=5, path=("phases", 1, "moves", 3), text="A12: 0101-0102",
                  rule="DG2 4.3", hint="stop in the first ZOC hex")
    assert issue.format() == (
        "orders.yaml:12:5: error BFG-MOVE-ZOC: A12 cannot leave an enemy ZOC [DG2 4.3]\n"
        "    > A12: 0101-0102\n"
        "    hint: stop in the first ZOC hex")
    assert issue.to_dict() == {
        "code": "BFG-MOVE-ZOC", "message": "A12 cannot leave an enemy ZOC",
        "severity": "error", "file": "orders.yaml", "line": 12, "column": 5,
        "path": ["phases", 1, "moves", 3], "text": "A12: 0101-0102", "rule": "DG2 4.3",
        "hint": "stop in the first ZOC hex"}
    json.dumps(issue.to_dict())
    bare = Issue("X", "m", severity=Severity.WARNING, path=("a", 0))
    assert bare.to_dict() == {"code": "X", "message": "m", "severity": "warning",
                              "path": ["a", 0]}
    assert bare.format() == "warning X: m (at a[0])"


def test_issue_located_uses_longest_prefix():
    marks = {(): (1, 1), ("phases",): (2, 3), ("phases", 1): (9, 5)}
    issue = Issue("X", "m", path=("phases", 1, "moves", 3))
    located = issue.located("o.yaml", marks)
    assert (located.file, located.line, located.column) == ("o.yaml", 9, 5)
    assert issue.line is None  # frozen original untouched
    assert Issue("X", "m", path=("other",)).located("o.yaml", marks).line == 1
    already = Issue("X", "m", line=3, column=2, path=("phases",))
    assert already.located("o.yaml", marks).line == 3
    assert Issue("X", "m").located("o.yaml", None).file == "o.yaml"


def test_exit_code_for():
    def issues(*codes, severity=Severity.ERROR):
        return [Issue(code, "m", severity=severity) for code in codes]

    assert exit_code_for([]) == ExitCode.OK
    assert exit_code_for(issues("YAML-SYNTAX", severity=Severity.WARNING)) == ExitCode.OK
    assert exit_code_for(issues("BFG-MOVE-ZOC", "SCHEMA-TYPE")) == ExitCode.INVALID
    assert exit_code_for(issues("FILE-NOT-FOUND")) == ExitCode.INVALID
    assert exit_code_for(issues("BFG-X", "HASH-STATE")) == ExitCode.MISMATCH
    assert exit_code_for(issues("REPLAY-X", "DICE-X")) == ExitCode.MISMATCH
    assert exit_code_for(issues("HASH-X", "YAML-TAB")) == ExitCode.INVALID
    assert exit_code_for(issues("BFG-MOVE-ZOC")) == ExitCode.ILLEGAL
    assert (ExitCode.PENDING, ExitCode.USAGE, ExitCode.IO, ExitCode.INTERNAL) == (5, 64, 74, 70)


def test_pbem_error():
    error = PbemError([Issue("SCHEMA-TYPE", "bad"), Issue("BFG-X", "worse")])
    assert error.exit_code == ExitCode.INVALID
    assert "SCHEMA-TYPE" in str(error) and "BFG-X" in str(error)
    single = PbemError(Issue("BFG-X", "m"), ExitCode.PENDING)
    assert single.issues[0].code == "BFG-X" and single.exit_code == ExitCode.PENDING


# ---------------------------------------------------------------------------
# schema

ORDERS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["side", "moves"],
    "properties": {
        "side": {"enum": ["soviet", "german"], "description": "The side giving these orders."},
        "final": {"type": "boolean"},
        "count": {"type": "integer"},
        "turn": {"const": 3},
        "hex": {"type": "string"},
        "either": {"type": ["string", "integer"]},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                 "items": {"type": "string"}},
        "units": {"type": "object", "patternProperties": {"^u": {"type": "string"}},
                  "additionalProperties": {"$ref": "#/$defs/hexid"}},
        "moves": {"type": "array", "items": {"$ref": "#/$defs/move"}},
        "note": {"type": "string", "maxLength": 5},
    },
    "$defs": {
        "hexid": {"type": "string", "pattern": "^[0-9]{4}$", "description": "A four-digit hex id."},
        "move": {
            "type": "object",
            "additionalProperties": False,
            "required": ["unit", "to"],
            "properties": {
                "unit": {"type": "string", "description": "The unit id."},
                "to": {"$ref": "#/$defs/hexid"},
                "path": {"type": "array", "items": {"$ref": "#/$defs/hexid"}},
            },
        },
    },
}


def test_ints_normalised_to_strings_where_schema_wants_strings():
    loaded = load_yaml(
        "side: soviet\nhex: 1005\ncount: 7\neither: 12\nfinal: true\n"
        "pair: [10, 20, 30]\nunits: {u1: 5, x9: 1005}\n"
        "moves:\n  - unit: 12\n    to: 1005\n    path: [0101, 1005]\n")
    doc = loaded.data
    assert doc["hex"] == 1005  # as loaded
    issues = validate(doc, ORDERS_SCHEMA)
    assert issues == []
    assert doc["hex"] == "1005"
    assert doc["count"] == 7 and doc["either"] == 12 and doc["final"] is True
    assert doc["pair"] == ["10", 20, "30"]
    assert doc["units"] == {"u1": "5", "x9": "1005"}
    assert doc["moves"] == [{"unit": "12", "to": "1005", "path": ["0101", "1005"]}]


def test_schema_issue_codes_and_messages():
    text = (
        "side: sovjet\n"           # 1
        "final: no\n"              # 2
        "turn: 4\n"                # 3
        "count: '3'\n"             # 4
        "moves:\n"                 # 5
        "  - unit: A1\n"           # 6
        "    too: 0102\n"          # 7
        "  - unit: B2\n"           # 8
        "    to: 12345\n"          # 9
        "    colour: red\n"        # 10
        "    speed: 2\n"           # 11
        "note: " + "x" * 100 + "\n"  # 12
    )
    loaded = load_yaml(text, "orders.yaml")
    issues = validate(loaded.data, ORDERS_SCHEMA, marks=loaded.marks, filename="orders.yaml")
    by_code = {}
    for issue in issues:
        by_code.setdefault(issue.code, []).append(issue)
        assert issue.file == "orders.yaml"
    assert set(by_code) == {"SCHEMA-ENUM", "SCHEMA-TYPE", "SCHEMA-CONST", "SCHEMA-REQUIRED",
                            "SCHEMA-ADDITIONALPROPERTIES", "SCHEMA-PATTERN", "SCHEMA-MAXLENGTH"}

    (enum,) = by_code["SCHEMA-ENUM"]
    assert "soviet, german" in enum.message and "did you mean 'soviet'" in enum.message
    assert enum.path == ("side",) and enum.line == 1
    assert enum.hint == "The side giving these orders."
    assert enum.text == "'sovjet'"

    final, count = sorted(by_code["SCHEMA-TYPE"], key=lambda i: i.line)
    assert "write true or false" in final.message and final.line == 2
    assert "whole number" in count.message and count.line == 4

    (const,) = by_code["SCHEMA-CONST"]
    assert "3" in const.message and const.line == 3

    (required,) = by_code["SCHEMA-REQUIRED"]
    assert "'to'" in required.message
    assert required.path == ("moves", 0) and required.line == 6
    assert required.hint == "A four-digit hex id."

    extra_one, extra_two = sorted(by_code["SCHEMA-ADDITIONALPROPERTIES"], key=lambda i: i.path)
    assert "'too'" in extra_one.message and "did you mean 'to'" in extra_one.message
    assert "allowed fields: unit, to, path" in extra_one.message
    assert extra_one.path == ("moves", 0) and extra_one.line == 7
    assert "'colour', 'speed'" in extra_two.message and extra_two.line == 10

    (pattern,) = by_code["SCHEMA-PATTERN"]
    assert pattern.path == ("moves", 1, "to") and pattern.line == 9
    assert pattern.hint == "A four-digit hex id."

    (long_note,) = by_code["SCHEMA-MAXLENGTH"]
    assert len(long_note.text) == 80 and long_note.text.endswith("...")

    # sorted by path
    paths = [issue.path for issue in issues]
    assert paths == sorted(paths, key=lambda p: [(0, x, "") if isinstance(x, int)
                                                 else (1, 0, x) for x in p])
    assert all(issue.format().startswith("orders.yaml:") for issue in issues)


def test_type_messages_for_yaml_words():
    schema = {"properties": {"name": {"type": "string"}, "other": {"type": "string"},
                             "flag": {"type": "boolean"}, "n": {"type": ["integer", "null"]}}}
    loaded = load_yaml("name: true\nother:\nflag: Yes\nn: 1.5\n")
    issues = validate(loaded.data, schema, marks=loaded.marks)
    assert [i.line for i in issues] == [3, 4, 1, 2]
    flag, n, name, other = (i.message for i in issues)
    assert "write true or false" in flag
    assert "an integer or null" in n and "'1.5'" in n
    assert 'write "true" in quotes' in name
    assert "empty" in other


def test_missing_required_and_wrong_root_type():
    issues = validate({}, ORDERS_SCHEMA)
    assert [i.code for i in issues] == ["SCHEMA-REQUIRED", "SCHEMA-REQUIRED"]
    assert {i.message for i in issues} == {"missing required field 'side'",
                                           "missing required field 'moves'"}
    assert all(i.path == () and i.line is None for i in issues)
    (issue,) = validate(["x"], ORDERS_SCHEMA)
    assert issue.code == "SCHEMA-TYPE" and "object" in issue.message


def test_load_schema_by_name(tmp_path: Path, monkeypatch):
    assert schema_dir() == Path(schema_module.__file__).resolve().parents[2] / "schemas"
    (tmp_path / "orders.schema.json").write_text(json.dumps(ORDERS_SCHEMA), encoding="utf-8")
    monkeypatch.setattr(schema_module, "schema_dir", lambda: tmp_path)
    load_schema.cache_clear()
    schema_module._named_validator.cache_clear()
    try:
        assert load_schema("orders") == ORDERS_SCHEMA
        assert load_schema("orders") is load_schema("orders")
        doc = {"side": "german", "moves": [{"unit": "A", "to": 1234}]}
        assert validate(doc, "orders") == []
        assert doc["moves"][0]["to"] == "1234"
        with pytest.raises(ValueError):
            load_schema("../secrets")
    finally:
        load_schema.cache_clear()
        schema_module._named_validator.cache_clear()
