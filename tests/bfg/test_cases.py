"""Table-driven rule cases (like the Diplomacy DATC): tests/cases/bfg/<section>-<name>.yaml.

Each case gives a small synthetic map, the units and where they stand, the phase, the orders,
the scripted dice, and what must come out: issue codes, events (a subsequence, each a subset
match), unit locations, the pending decision, parts of the state. A case may name the
scenario whose way of playing it uses (``scenario: bfg-three-player``: players, sequence,
command of the forces, scenario rules, replacement overrides, turns), turn on optional rules
(``options: [ss_to_western]``) and set single scenario rules (``rules: {name: value}``). A case may continue with
``then:`` steps (answers to decisions, next phases). A case with a top-level ``xfail: "reason"``
states a rule the engine does not apply yet: it is reported as xfail while it fails and as a
failure (XPASS) once it passes."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.canon import state_hash
from pbem.core.schema import validate
from pbem.core.yamlio import load_yaml

from synth import orders as mk_orders, ruleset, scripted, state as mk_state, sub, unit

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "bfg").glob("*.yaml"))


def _subset(want, got) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_subset(a, b) for a, b in zip(want, got))
    return want == got


def _check(exp: dict, out, label: str) -> None:
    from pbem.core.errors import Severity
    if "stopped" in exp:
        assert out.stopped == exp["stopped"], f"{label}: stopped {out.stopped}, issues {[i.code + ' ' + i.message for i in out.issues]}"
    if "issues" in exp:
        got = [i.code for i in out.issues if i.severity == Severity.ERROR or exp.get("warnings_too")]
        assert got == exp["issues"], f"{label}: issues {[(i.code, i.message) for i in out.issues]}"
    if "events" in exp:
        k = 0
        for want in exp["events"]:
            while k < len(out.events) and not _subset(want, out.events[k]):
                k += 1
            assert k < len(out.events), f"{label}: no event matching {want} (in order) among:\n" + "\n".join(map(str, out.events))
            k += 1
    if "no_events" in exp:
        for want in exp["no_events"]:
            assert not any(_subset(want, e) for e in out.events), f"{label}: unexpected event {want}"
    if "units" in exp:
        for uid, loc in exp["units"].items():
            u = out.state["units"][uid]
            if isinstance(loc, dict):
                assert _subset(loc, u), f"{label}: {uid} is {u}, want {loc}"
            else:
                assert u["at"] == loc, f"{label}: {uid} is at {u['at']}, want {loc}"
    if "pending" in exp:
        assert out.state["pending"], f"{label}: no pending decision"
        assert _subset(exp["pending"], out.state["pending"][0]), f"{label}: pending {out.state['pending'][0]}"
    if "state" in exp:
        for k2, v in exp["state"].items():
            assert _subset(v, out.state[k2]), f"{label}: state.{k2} = {out.state[k2]}, want {v}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = load_yaml(path.read_bytes(), str(path)).data
    if not case.get("xfail"):
        _run(path, case)
        return
    # ``xfail: "reason"``: the case states the rule as pbem should apply it; the engine does not yet.
    try:
        _run(path, case)
    except Exception as e:  # noqa: BLE001 - any failure of an xfail case is the expected one
        pytest.xfail(f"{case['xfail']} [{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}]")
    pytest.fail(f"XPASS: {path.stem} passes; remove its `xfail:` ({case['xfail']})")


def _run(path: Path, case: dict) -> None:
    from pbem.bfg.engine import adjudicate
    units = [unit(u[0], u[1], u[2], u[3], **({"nation": u[4]} if len(u) > 4 and u[4] else {}),
                  **({"type_": u[5]} if len(u) > 5 else {})) for u in case["units"]]
    rs = ruleset(units, crt=case.get("crt"), scenario=case.get("scenario"), rules=case.get("rules"),
                 **case.get("map", {}))
    start = case["start"]
    st = mk_state(rs, turn=start.get("turn", rs.first_turn), phase=start["phase"], standing=start.get("standing"),
                  options={k: True for k in case.get("options", [])})
    for k, v in (start.get("patch") or {}).items():
        st[k] = v
    for uid, extra in (start.get("unit_state") or {}).items():
        st["units"][uid].update(extra)
    st["hash"] = state_hash({k: v for k, v in st.items() if k != "hash"})
    steps = [{"orders": case["orders"], "expect": case["expect"], "dice": case.get("dice", {})}] + list(case.get("then", []))
    dice = case.get("dice", {})
    for n, step in enumerate(steps):
        dice = step.get("dice", dice)
        o = dict(step["orders"])
        player = o.pop("player")
        doc = mk_orders(player, st, o.pop("phases", []), **o)
        if not doc["phases"]:
            doc.pop("phases")
        out = adjudicate(rs, st, [sub(doc)], scripted(dice))
        _check(step["expect"], out, f"{path.stem} step {n}")
        if out.state is None:
            continue  # refused: the state is unchanged; later steps start from the same one
        st = dict(out.state)
        st["hash"] = state_hash(out.state)
        bad = [i for i in validate(st, "state") if i.is_error]
        assert not bad, f"{path.stem} step {n}: the state breaks its schema: " + "; ".join(i.format() for i in bad)
