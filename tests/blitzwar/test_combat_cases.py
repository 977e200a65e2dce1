"""Table-driven cases of the BlitzWAR land combat (16, 17, clar. 6 and 8, examples 20.1 and
20.2): tests/cases/blitzwar/16.*.yaml, 17.*.yaml and 20.*-combat*.yaml, run by combat_runner."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from combat_runner import combat_cases, load_case, run_case  # noqa: E402

from pbem.core.data import load_ruleset  # noqa: E402

CASES = combat_cases()


@pytest.fixture(scope="module")
def w():
    return load_ruleset("blitzwar-1939")[1]


def test_there_are_cases_for_both_phases_and_the_examples():
    names = [p.name for p in CASES]
    assert any(n.startswith("16.") for n in names) and any(n.startswith("17.") for n in names)
    assert any(n.startswith("20.1") for n in names) and any(n.startswith("20.2") for n in names)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(w, path: Path) -> None:
    run_case(w, load_case(path), path.stem)


def test_attack_orders_of_the_cases_fit_the_order_schema():
    import jsonschema

    from pbem.blitzwar.combat import ORDER_SCHEMA
    schema = {"type": "object", "properties": ORDER_SCHEMA}
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for p in CASES:
        for step in load_case(p)["steps"]:
            errs = list(v.iter_errors({k: step.get("orders", {})[k] for k in ("attacks", "moves") if k in step.get("orders", {})}))
            assert not errs, (p.name, [e.message for e in errs])
