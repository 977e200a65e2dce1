"""The BlitzWAR land combat cases (16, 17, clar. 6 and 8, examples 20.1 and 20.2):
tests/cases/blitzwar/combat/*.yaml, run by the core's case runner (tests/test_cases.py, with
BlitzWAR's kit pbem/blitzwar/cases.py) through the kernel. Here: what only BlitzWAR asks of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case, run_case, steps_of
from pbem.core.data import load_ruleset

CASE_DIR = Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "combat"
CASES = sorted(CASE_DIR.glob("*.yaml"))


@pytest.fixture(scope="module")
def w():
    return load_ruleset("blitzwar-1939")[1]


def test_there_are_cases_for_both_phases_and_the_examples():
    names = [p.name for p in CASES]
    assert any(n.startswith("16.") for n in names) and any(n.startswith("17.") for n in names)
    assert any(n.startswith("20.1") for n in names) and any(n.startswith("20.2") for n in names)


def _phase_entries(case: dict):
    for step in steps_of(case):
        orders = step.get("orders") or []
        for o in orders if isinstance(orders, list) else [orders]:
            yield from o.get("phases") or []


def test_attack_orders_of_the_cases_fit_the_order_schema():
    """The attacks and moves of every combat case are valid under the game's orders schema
    (schemas/blitzwar-orders.schema.json, the one definition of the order format)."""
    import jsonschema

    from pbem.core.schema import load_schema
    full = load_schema("blitzwar-orders")
    props = full["$defs"]["phase"]["properties"]
    schema = {"type": "object", "properties": {k: props[k] for k in ("attacks", "moves")}, "$defs": full["$defs"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    n = 0
    for p in CASES:
        for ph in _phase_entries(load_case(p)):
            errs = list(v.iter_errors({k: ph[k] for k in ("attacks", "moves") if k in ph}))
            assert not errs, (p.name, [e.message for e in errs])
            n += "attacks" in ph
    assert n > len(CASES)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_event_of_a_case_can_be_described(w, path: Path):
    from pbem.blitzwar import GAME
    _, steps = run_case(path, check=False)
    for s in steps:
        for ev in s.outcome.events:
            assert GAME.describe_event(w, ev), f"{path.stem}: no description for {ev}"


def test_report_lines_of_example_20_1(w):
    """The report of 20.1's combat names every shift, the column, the die, the losses and who
    chose them, each with its section."""
    from pbem.blitzwar.describe import describe
    _, steps = run_case(CASE_DIR / "20.1-north-africa-combat.yaml")
    lines = [ln for s in steps if s.outcome.stopped == "complete" for e in s.outcome.events
             for ln in describe(w, e)]
    text = "\n".join(lines)
    for want in ("corps 5:4: column 1-1", "right 2: attacker's air superiority [16.3.1]",
                 "net shift +4 -> column 4-1; die 1 (blitzwar/t/t13/axis.8.blitz/c1-mechili/d6) -> 0/1",
                 "uk-wt-1 infantry corps: reduced (UK white-tank 2 (1 infantry + 1 armour) -> UK armour 1)",
                 "air unit ger-air-2 (GER) over Mechili is removed to the pool [16.1]",
                 "corps 5:3: column 3-2", "net shift +2 -> column 3-1; die 6 (blitzwar/t/t13/axis.9.combat/c1-mechili/d6) -> C/2",
                 "the axis lose 1 (axis, only option; must: C: an armour corps, an elite counter attacked: a corps of it) [16.2]",
                 "uk-wt-2 retreat from Mechili to Gazala (allies, answer) [17.2, clar. 8]",
                 "ger-elite does not advance (axis, order) [17.3]"):
        assert want in text, want


def test_checking_does_not_touch_the_state(w):
    """check_attacks is validation without dice: it leaves the state as it found it."""
    import copy

    from pbem.blitzwar.cases import kit
    from pbem.blitzwar.combat import check_attacks
    from pbem.blitzwar.combat_common import normalize_combat
    from pbem.blitzwar.context import Ctx
    case = load_case(CASE_DIR / "20.1-north-africa-combat.yaml")
    _, state = kit().setup(case)
    before = copy.deepcopy(state)
    ctx = Ctx(rs=w, state=state, turn=13, phase="axis.8.blitz", side="axis", player="axis")
    attacks = case["orders"][0]["phases"][0]["attacks"]
    orders = normalize_combat({"phase": "axis.8.blitz", "attacks": attacks,
                               "moves": [{"counter": "ita-1", "to": "nofilia"}]}, 0)
    assert [i.code for i in check_attacks(ctx, orders)] == ["BW-MOVE-USED"]
    assert state == before
