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
    """The attacks and moves of every combat case are valid under the game's orders schema
    (schemas/blitzwar-orders.schema.json, the one definition of the order format)."""
    import jsonschema

    from pbem.core.schema import load_schema
    full = load_schema("blitzwar-orders")
    props = full["$defs"]["phase"]["properties"]
    schema = {"type": "object", "properties": {k: props[k] for k in ("attacks", "moves")}, "$defs": full["$defs"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for p in CASES:
        for step in load_case(p)["steps"]:
            errs = list(v.iter_errors({k: step.get("orders", {})[k] for k in ("attacks", "moves") if k in step.get("orders", {})}))
            assert not errs, (p.name, [e.message for e in errs])


def test_report_lines_of_example_20_1(w):
    """The report of 20.1's combat names every shift, the column, the die, the losses and who
    chose them, each with its section."""
    from pbem.blitzwar.combat import describe_combat_event
    outs = run_case(w, load_case(Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "20.1-north-africa-combat.yaml"), "20.1")
    lines = [ln for o in outs if o.stopped == "complete" for e in o.events for ln in describe_combat_event(w, e)]
    text = "\n".join(lines)
    for want in ("corps 5:4: column 1-1", "right 2: attacker's air superiority [16.3.1]",
                 "net shift +4 -> column 4-1; die 1 (c1-mechili/d6) -> 0/1",
                 "uk-wt-1 infantry corps: reduced (UK white-tank 2 (1 infantry + 1 armour) -> UK armour 1)",
                 "air unit ger-air-2 (GER) over Mechili is removed to the pool [16.1]",
                 "corps 5:3: column 3-2", "net shift +2 -> column 3-1; die 6 (c1-mechili/d6) -> C/2",
                 "the axis lose 1 (axis, only option; must: C: an armour corps, an elite counter attacked: a corps of it) [16.2]",
                 "uk-wt-2 retreat from Mechili to Gazala (allies, answer) [17.2, clar. 8]",
                 "ger-elite does not advance (axis, order) [17.3]"):
        assert want in text, want


def test_checking_does_not_touch_the_state(w):
    """check_attacks is validation without dice: it leaves the state as it found it."""
    import copy

    from combat_runner import make_state

    from pbem.blitzwar.combat import check_attacks, normalize_combat
    from pbem.blitzwar.context import Ctx
    case = load_case(Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "20.1-north-africa-combat.yaml")
    state = make_state(case)
    state.pop("flags", None)
    before = copy.deepcopy(state)
    ctx = Ctx(rs=w, state=state, turn=13, phase="axis.8.blitz", side="axis", player="axis")
    orders = normalize_combat({"phase": "axis.8.blitz", "attacks": case["steps"][0]["orders"]["attacks"],
                               "moves": [{"counter": "ita-1", "to": "nofilia"}]}, 0)
    assert [i.code for i in check_attacks(ctx, orders)] == ["BW-MOVE-USED"]
    assert state == before
