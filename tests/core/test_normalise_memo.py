"""schema.normalise works out what each key leads to once a call (issue 35): the documents it
gives are those of the walk that asked the schemas at every value (kept here as the reference),
for every state of the examples and every shipped data file."""
from __future__ import annotations

import copy
import marshal
from pathlib import Path
from typing import Any

import pytest

from pbem.core import data, schema
from pbem.core.campaign import _game_schema
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def _reference(doc: Any, sch: dict[str, Any]) -> None:
    stack = [(doc, schema._expand(sch, sch))]
    while stack:
        node, schemas = stack.pop()
        if not schemas:
            continue
        if isinstance(node, dict):
            children = [(key, schema._property_schemas(schemas, key)) for key in list(node)]
        elif isinstance(node, list):
            children = [(index, schema._item_schemas(schemas, index)) for index in range(len(node))]
        else:
            continue
        for key, subschemas in children:
            expanded = [s for sub in subschemas for s in schema._expand(sch, sub)]
            if not expanded:
                continue
            value = node[key]
            if type(value) is int and schema._wants_string(expanded):
                node[key] = str(value)
            elif isinstance(value, (dict, list)):
                stack.append((value, expanded))


def _documents():
    for example in sorted((ROOT / "examples").iterdir()):
        states = sorted(example.glob("steps/*/*.yaml"))
        for p in states[:3] + states[-2:]:
            if not p.name.startswith(("orders-", "reveal-")):
                yield p, None
    for gid in ("bfg", "blitzwar"):
        for rel, name in data.game(gid).data_files.values():
            yield ROOT / rel, name


@pytest.mark.parametrize("path,name", list(_documents()), ids=lambda v: str(v)[-60:] if v else "")
def test_the_same_documents_as_the_walk_without_memo(path, name):
    doc = load_yaml(path.read_bytes(), path.name).data
    sch = schema.load_schema(name or _game_schema(doc, "state"))
    mine, ref = copy.deepcopy(doc), copy.deepcopy(doc)
    schema.normalise(mine, sch)
    _reference(ref, sch)
    assert marshal.dumps(mine) == marshal.dumps(ref)
