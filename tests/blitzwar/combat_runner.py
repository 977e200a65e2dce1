"""A small runner for the BlitzWAR combat cases (tests/blitzwar/combat-cases/16.*, 17.*, 20.*-combat*):
a position on the BlitzWAR map, then steps, each a phase run with orders, scripted dice and
answers, and what must come out (stopped, issue codes, events as an ordered subsequence of
subset matches, counters, control, supply, flags, the pending decision).

A step that stops (pending decision, refused orders) leaves the state as it was at its start,
as the kernel does; the next step may run the same phase again with ``answers``."""
from __future__ import annotations

import copy
from pathlib import Path

from pbem.blitzwar import combat
from pbem.blitzwar.context import Ctx, NeedDecision, PhaseOrdersInvalid
from pbem.core.dice import ScriptedDice
from pbem.core.yamlio import load_yaml

CASE_DIR = Path(__file__).resolve().parent / "combat-cases"


def combat_cases() -> list[Path]:
    return sorted(p for p in CASE_DIR.glob("*.yaml")
                  if p.name.startswith(("16.", "17.")) or (p.name.startswith("20.") and "-combat" in p.name))


def load_case(path: Path) -> dict:
    return load_yaml(path.read_bytes(), str(path)).data


def make_state(case: dict) -> dict:
    counters: dict[str, dict] = {}
    for where in ("position", "at_sea", "elsewhere"):
        for zone, cs in (case.get(where) or {}).items():
            for c in cs:
                c = dict(c)
                cid = c.pop("id")
                assert cid not in counters, cid
                c["at"] = zone
                counters[cid] = c
    return {
        "sides": dict(case.get("sides") or {"axis": "axis", "allies": "allies", "ussr": "ussr"}),
        "counters": counters,
        "control": dict(case.get("control") or {}),
        "supply": {k: str(v) for k, v in (case.get("supply") or {"axis": 10, "allies": 10, "ussr": 10}).items()},
        "war": dict(case.get("war") or {}),
        "marks": sorted(case.get("marks") or []),
        "flags": copy.deepcopy(case.get("flags") or {}),
        "standing": copy.deepcopy(case.get("standing") or {}),
        **({"combat": copy.deepcopy(case["combat"])} if "combat" in case else {}),
    }


def _subset(want, got) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_subset(a, b) for a, b in zip(want, got))
    return want == got


class StepOut:
    def __init__(self):
        self.stopped = "complete"
        self.events: list[dict] = []
        self.issues = []
        self.pending: dict | None = None
        self.state: dict = {}
        self.rolls: list = []


def run_step(w, state: dict, turn: int, step: dict) -> StepOut:
    phase = step["phase"]
    side = phase.split(".")[0]
    work = copy.deepcopy(state)
    ctx = Ctx(rs=w, state=work, turn=turn, phase=phase, side=side, player=work["sides"][side],
              dice=ScriptedDice(step.get("dice") or {}), answers=dict(step.get("answers") or {}),
              auto_players=frozenset(step.get("auto_players") or ()))
    orders = dict(step.get("orders") or {})
    orders.setdefault("phase", phase)
    orders = combat.normalize_combat(orders, 0)
    out = StepOut()
    run = combat.run_blitz if ".8." in phase else combat.run_normal_combat
    try:
        if step.get("validate_only"):
            out.issues = combat.check_attacks(ctx, orders)
            out.stopped = "orders-invalid" if out.issues else "complete"
            out.state = state
            return out
        run(ctx, orders)
        out.state = work
    except NeedDecision as nd:
        out.stopped = "pending"
        out.pending = nd.decision
        out.state = state
    except PhaseOrdersInvalid as e:
        out.stopped = "orders-invalid"
        out.issues = e.issues
        out.state = state
    out.events = ctx.events
    out.rolls = [r.to_dict() for r in ctx.dice.log]
    return out


def check(exp: dict, out: StepOut, label: str) -> None:
    if "stopped" in exp:
        assert out.stopped == exp["stopped"], f"{label}: stopped {out.stopped}; issues {[(i.code, i.message) for i in out.issues]}; pending {out.pending}"
    if "issues" in exp:
        assert [i.code for i in out.issues] == exp["issues"], f"{label}: issues {[(i.code, i.message) for i in out.issues]}"
    if "events" in exp:
        k = 0
        for want in exp["events"]:
            while k < len(out.events) and not _subset(want, out.events[k]):
                k += 1
            assert k < len(out.events), f"{label}: no event matching {want} (in order) among:\n" + "\n".join(map(str, out.events))
            k += 1
    for want in exp.get("no_events") or []:
        assert not any(_subset(want, e) for e in out.events), f"{label}: unexpected event {want}"
    if "pending" in exp:
        assert out.pending is not None, f"{label}: no pending decision"
        assert _subset(exp["pending"], out.pending), f"{label}: pending {out.pending}"
    for cid, want in (exp.get("counters") or {}).items():
        got = out.state["counters"][cid]
        if isinstance(want, dict):
            assert _subset(want, got), f"{label}: {cid} is {got}, want {want}"
        else:
            assert got["at"] == want, f"{label}: {cid} is at {got['at']}, want {want}"
    for cid, keys in (exp.get("absent") or {}).items():
        for k in keys:
            assert k not in out.state["counters"][cid], f"{label}: {cid} still has {k}: {out.state['counters'][cid]}"
    for key in ("control", "supply", "flags"):
        if key in exp:
            assert _subset(exp[key], out.state.get(key, {})), f"{label}: {key} {out.state.get(key)}, want {exp[key]}"
    if "rolls" in exp:
        assert out.rolls == exp["rolls"], f"{label}: rolls {out.rolls}"


def run_case(w, case: dict, name: str) -> list[StepOut]:
    state = make_state(case)
    outs = []
    for i, step in enumerate(case["steps"]):
        if step.get("from_start"):
            state = make_state(case)
        for cid, extra in ((step.get("patch") or {}).get("counters") or {}).items():
            state = copy.deepcopy(state)
            state["counters"][cid].update(extra)
        out = run_step(w, state, int(case["turn"]), step)
        check(step.get("expect") or {}, out, f"{name} step {i + 1} ({step['phase']})")
        # every event this module emits can be described
        for ev in out.events:
            lines = combat.describe_combat_event(w, ev)
            assert lines, f"{name}: no description for {ev}"
        state = out.state
        outs.append(out)
    return outs
