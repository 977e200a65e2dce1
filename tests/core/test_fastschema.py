"""pbem.core.fastschema: the quick yes/no schema check that spares `pbem validate` importing
jsonschema (issue 18) says "valid" only where jsonschema finds no error: checked against
jsonschema on hand-made edge cases, on every example's states and order files, and on
mutations of them (a fixed seed: the same cases every run)."""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from pbem.core.fastschema import is_valid
from pbem.core.schema import load_schema, normalise
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def _jsonschema_valid(doc, schema) -> bool:
    v = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return not any(True for _ in v.iter_errors(doc))


EDGES = [   # (schema, document): jsonschema's meaning of each keyword
    ({"type": "integer"}, 1.0), ({"type": "integer"}, 1.5), ({"type": "integer"}, True),
    ({"type": "number"}, False), ({"type": ["string", "null"]}, None), ({"type": "object"}, []),
    ({"enum": [1, 2]}, True), ({"enum": [1, 2]}, 1.0), ({"const": [1, "a"]}, [True, "a"]), ({"const": False}, 0),
    ({"uniqueItems": True}, [1, True]), ({"uniqueItems": True}, [1, 1.0]), ({"uniqueItems": True}, [{"a": 1}, {"a": 1}]),
    ({"pattern": "b"}, "abc"), ({"pattern": "^b"}, "abc"), ({"pattern": "^b"}, 5), ({"minLength": 2}, "a"),
    ({"maxLength": 1}, "ab"), ({"minimum": 1}, 0), ({"minimum": 1}, True), ({"maximum": 1}, 2.5),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1), ({"oneOf": [{"type": "string"}, {"type": "number"}]}, 1),
    ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, 2), ({"allOf": [{"minimum": 1}, {"maximum": 3}]}, 4),
    ({"if": {"minimum": 5}, "then": {"maximum": 6}, "else": {"const": 1}}, 7),
    ({"if": {"minimum": 5}, "then": {"maximum": 6}, "else": {"const": 1}}, 2),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"a": "x", "b": 1}),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}, {"a": "x", "b": 1}),
    ({"required": ["a"]}, {"b": 1}), ({"required": ["a"]}, "not an object"), ({"minProperties": 1}, {}),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"A": 1}), ({"items": {"type": "integer"}, "minItems": 2}, [1]),
    ({"items": False}, []), ({"maxItems": 1}, [1, 2]), (False, 1), (True, {"x": 1}),
    ({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n", "minimum": 3}}}, {"a": 2}),
    # campaign.yaml's e-mails (issue 35: without it every cold command imported jsonschema)
    ({"type": "string", "format": "email"}, "a@b"), ({"type": "string", "format": "email"}, "ab"),
    ({"format": "email"}, 5), ({"format": "email"}, "@"),
]


def test_a_campaign_manifest_is_found_valid_without_jsonschema():
    doc = load_yaml((ROOT / "examples" / "blitzwar-1939" / "campaign.yaml").read_bytes()).data
    schema = load_schema("campaign")
    normalise(doc, schema)
    assert is_valid(doc, schema) is True


@pytest.mark.parametrize(("schema", "doc"), EDGES)
def test_edge_cases_as_jsonschema(schema, doc):
    assert is_valid(doc, schema) is _jsonschema_valid(doc, schema)


@pytest.mark.parametrize("schema", [
    {"format": "date"}, {"$ref": "other.schema.json#/$defs/x"}, {"prefixItems": [{"type": "string"}]},
    {"properties": {"a": {"$id": "https://x/y", "type": "string"}}}, {"patternProperties": {"^a": {}}},
    {"type": "integer", "exclusiveMinimum": 1}, {"$ref": "#anchor"},
])
def test_what_it_does_not_know_is_left_to_jsonschema(schema):
    assert is_valid(5, schema) is None


def _mutations(doc, rng: random.Random, n: int):
    values = [0, 1, -1, 1.5, 2.0, True, False, None, "", "x", "axis", [], {}, "0101", 99999, [1, 1], {"zzz": 1}]
    for _ in range(n):
        d = copy.deepcopy(doc)
        nodes: list = []

        def walk(x, parent, key, nodes=nodes):
            nodes.append((parent, key, x))
            for k, v in (x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()):
                walk(v, x, k)
        walk(d, None, None)
        parent, key, x = rng.choice(nodes[1:] or nodes)
        r = rng.random()
        if parent is None:
            pass
        elif r < 0.4:
            parent[key] = rng.choice(values)
        elif r < 0.65:
            del parent[key]
        elif isinstance(x, dict):
            x[rng.choice(["zzz", "phase", "moves", "player", "type", "to"])] = rng.choice(values)
        elif isinstance(x, str):
            parent[key] = x + rng.choice(["x", "-", "1", " ", "/"])
        yield d


def _documents():
    for p in sorted((ROOT / "examples").glob("*/steps/*/*.yaml")):
        doc = load_yaml(p.read_bytes(), str(p), max_bytes=50_000_000, max_nodes=5_000_000).data
        kind = str(doc.get("schema", "")) if isinstance(doc, dict) else ""
        for k in ("orders", "state"):
            if f"/{k}/" in kind and doc.get("game") in ("bfg", "blitzwar"):
                yield p, doc, f"{doc['game']}-{k}"


def test_examples_and_their_mutations_as_jsonschema():
    rng = random.Random(18)
    seen = {True: 0, False: 0}
    by_schema: dict[str, list] = {}
    for p, doc, name in _documents():
        by_schema.setdefault(name, []).append((p, doc))
    for name, docs in sorted(by_schema.items()):
        schema = load_schema(name)
        for p, doc in docs[:12]:
            for d in [copy.deepcopy(doc), *_mutations(doc, rng, 6)]:
                normalise(d, schema)
                fast, slow = is_valid(d, schema), _jsonschema_valid(d, schema)
                assert fast is slow, (p.relative_to(ROOT), name, fast, slow)
                seen[slow] += 1
    assert seen[True] and seen[False]
