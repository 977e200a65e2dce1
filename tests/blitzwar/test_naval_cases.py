"""The BlitzWAR naval cases (12.1-12.4): tests/cases/blitzwar/naval/*.yaml, run by the core's case
runner (tests/test_cases.py, with BlitzWAR's kit) through the kernel. Here: what only BlitzWAR
asks of them, and the naval pieces other modules call (straits, sea control, blockade)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case, run_case, steps_of
from pbem.core.data import load_ruleset

CASE_DIR = Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "naval"
CASES = sorted(CASE_DIR.glob("*.yaml"))


@pytest.fixture(scope="module")
def w():
    return load_ruleset("blitzwar-1939")[1]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_case_file_is_named_by_its_section(path: Path):
    case = load_case(path)
    assert path.stem.split("-")[0] == str(case["rule"]).split(",")[0]
    assert case["case"].split(" ")[0] == path.stem.split("-")[0]


def test_every_section_of_12_has_cases():
    assert {p.stem.split("-")[0] for p in CASES} >= {"12.1", "12.2", "12.3", "12.4"}


def test_naval_orders_of_the_cases_fit_the_order_schema():
    import jsonschema

    from pbem.core.schema import load_schema
    full = load_schema("blitzwar-orders")
    v = jsonschema.Draft202012Validator({"$ref": "#/$defs/phase", "$defs": full["$defs"]})
    n = 0
    for p in CASES:
        for step in steps_of(load_case(p)):
            orders = step.get("orders") or []
            for o in orders if isinstance(orders, list) else [orders]:
                for ph in o.get("phases") or []:
                    errs = list(v.iter_errors(ph))
                    assert not errs, (p.name, [e.message for e in errs])
                    n += "fleet_moves" in ph or "naval_attacks" in ph
    assert n >= 4


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_event_of_a_case_can_be_described(w, path: Path):
    from pbem.blitzwar import GAME
    _, steps = run_case(path, check=False)
    for s in steps:
        for ev in s.outcome.events:
            assert GAME.describe_event(w, ev), f"{path.stem}: no description for {ev}"


def test_strait_open_follows_the_city(w):
    """12.1: the Copenhagen strait is the Axis' once it controls Copenhagen, never before; land
    supply's sea links make the same test."""
    from pbem.blitzwar.context import Ctx
    from pbem.blitzwar.seacontrol import strait_open
    st = {"control": {}, "war": {}, "counters": {}}
    ctx = Ctx(rs=w, state=st, turn=1, phase="axis.4.naval", side="axis")
    assert not strait_open(ctx, "axis", "copenhagen")
    assert strait_open(ctx, "allies", "gibraltar") and not strait_open(ctx, "axis", "gibraltar")
    st["control"] = {"copenhagen": "axis", "gibraltar": "axis"}
    assert strait_open(ctx, "axis", "copenhagen") and strait_open(ctx, "axis", "gibraltar")
    assert not strait_open(ctx, "allies", "gibraltar")


def test_a_supply_line_crosses_no_sea_the_enemy_controls(w):
    """7, 12.3: the sea control the naval phase records is what land supply reads."""
    from pbem.blitzwar.context import Ctx
    from pbem.blitzwar.supply import supply_reach
    st = {"control": {}, "war": {"ITA": "axis"}, "counters": {}, "sea_air": {}}
    ctx = Ctx(rs=w, state=st, turn=10, phase="axis.7.movement", side="axis")
    assert "tripoli" in supply_reach(ctx, "axis", "naples")
    st["sea_air"] = {"sea_control": {"south-central-med": "allies"}}
    assert "tripoli" not in supply_reach(ctx, "axis", "naples")
