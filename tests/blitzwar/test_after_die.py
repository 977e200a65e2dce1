"""Issue 35 "Speed": the position after an attack's die kept as copies of only what the rest of
the attack may change (pbem.blitzwar.combat_common.AfterDie), and the second pass of issue 33's
look ahead (combat_losses.ask_together) left out where it answers as the first, give what the
full copy and both passes give: at every run of the rest of every attack of the example's
replay and of every BlitzWAR combat case. More replays (the benchmark's whole campaigns):
``PBEM_KEPT_FOLDERS=folder:folder`` (tests/blitzwar/replayed.py)."""
from __future__ import annotations

import marshal
import shutil
from pathlib import Path
from typing import Any

import pytest
from replayed import folders

from pbem.blitzwar import combat, combat_common, combat_losses
from pbem.blitzwar.combat_common import AFTER_DIE, AfterDie
from pbem.blitzwar.combat_losses import _leading
from pbem.core.cases import has_kit, load_case, run_case
from pbem.core.game import NeedDecision
from pbem.core.replay import replay_campaign

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"
CASES = sorted((ROOT / "tests" / "cases" / "blitzwar").glob("**/*.yaml")) if has_kit("blitzwar") else []
EXTRA = folders()[1:]      # (the example is replayed on its own below)


def both_passes(ctx, step, first: NeedDecision) -> NeedDecision:
    """ask_together as it was: both passes always run (the straightforward way)."""
    saved, events, answers = dict(ctx.state), list(ctx.events), dict(ctx.answers)

    def explore(last: bool) -> list[Any]:
        asked = list(first.decisions)
        for _ in range(12):
            ctx.answers.clear()
            ctx.answers.update(answers)
            ctx.answers.update({d["id"]: _leading(d, last) for d in asked if d["id"] not in answers})
            try:
                step()
                break
            except NeedDecision as nd:
                new = [d for d in nd.decisions if all(d["id"] != a["id"] for a in asked)]
                if not new:
                    break
                asked += new
        return asked[len(first.decisions):]
    try:
        one, other = explore(False), explore(True)
    finally:
        ctx.state.clear()
        ctx.state.update(saved)
        ctx.events[:] = events
        ctx.answers.clear()
        ctx.answers.update(answers)
    same = {d["id"]: d.get("options") for d in other}
    ahead: list[Any] = [dict(d, prompt=d["prompt"] + combat_losses.AHEAD) for d in one
                        if d["id"] in same and same[d["id"]] == d.get("options")]
    return NeedDecision(list(first.decisions) + ahead)


def _rest_of(state: dict, shared: list[str]) -> bytes:
    """What AfterDie keeps as it is: the state's other parts, the counters out of reach."""
    cs = state.get("counters") or {}
    return marshal.dumps([(k, v) for k, v in state.items() if k not in AFTER_DIE] + [cs.get(c) for c in shared], 2)


@pytest.fixture
def checked(monkeypatch):
    """Every position kept compared with the full copy when put back; every run of the rest of
    an attack checked to leave the state's other parts as they were; every look ahead compared
    with both passes run."""
    seen = {"kept": 0, "shared": 0, "put_back": 0, "runs": 0, "asked": 0, "runs_saved": 0}
    shared: list[str] = []      # the counters out of reach of the attack being resolved
    full: dict[int, tuple[AfterDie, bytes]] = {}
    real_init, real_put, real_after, real_ask = AfterDie.__init__, AfterDie.put_back, combat._after_result, combat.ask_together

    def init(self, state, counters=None):
        real_init(self, state, counters)
        full[id(self)] = (self, marshal.dumps(state, 2))
        seen["kept"] += 1
        if counters is not None:        # an attack's (not _also_asked's, which keeps every counter)
            shared[:] = [c for c in state["counters"] if c not in counters]
            seen["shared"] += bool(shared)

    def put_back(self, state, *, fresh=True):
        real_put(self, state, fresh=fresh)
        assert marshal.dumps(state, 2) == full[id(self)][1]
        seen["put_back"] += 1

    def after(ctx, *a, **k):
        ids = list(shared)
        before = _rest_of(ctx.state, ids)
        try:
            return real_after(ctx, *a, **k)
        finally:
            assert _rest_of(ctx.state, ids) == before, "the rest of an attack changed a part AfterDie shares"
            seen["runs"] += 1

    def ask(ctx, step, first):
        n = [0, 0]

        def counted(i):
            def run():
                n[i] += 1
                step()
            return run
        want = both_passes(ctx, counted(0), first)
        state, events, answers = marshal.dumps(ctx.state, 2), list(ctx.events), dict(ctx.answers)
        got = real_ask(ctx, counted(1), first)
        assert got.decisions == want.decisions
        assert marshal.dumps(ctx.state, 2) == state and ctx.events == events and ctx.answers == answers
        seen["asked"] += 1
        seen["runs_saved"] += n[0] - n[1]
        return got

    monkeypatch.setattr(AfterDie, "__init__", init)
    monkeypatch.setattr(AfterDie, "put_back", put_back)
    monkeypatch.setattr(combat, "_after_result", after)
    monkeypatch.setattr(combat, "ask_together", ask)
    assert combat_common.AfterDie is AfterDie
    return seen


def test_the_example_replay(tmp_path, checked):
    folder = tmp_path / "camp"
    shutil.copytree(EXAMPLE, folder)
    replay_campaign(folder)
    # the example asks the losses of both sides of an attack in one go, again and again
    assert checked["kept"] > 30 and checked["shared"] > 30 and checked["put_back"] > 20 and checked["asked"] >= 5, checked


def test_every_combat_case(checked):
    for path in CASES:
        case = load_case(path)
        if case.get("xfail"):
            continue
        run_case(path, case)
    # a retreat asked with the advances after it: the second pass is not run
    assert checked["asked"] >= 3 and checked["runs_saved"] >= 1, checked


if EXTRA:     # (only when named: whole campaigns take minutes; no test skipped in the suite)
    @pytest.mark.parametrize("folder", EXTRA, ids=[p.name for p in EXTRA])
    def test_more_replays(tmp_path, checked, folder):
        copy = tmp_path / "camp"
        shutil.copytree(folder, copy)
        replay_campaign(copy)
        assert checked["kept"] > 0, checked


def test_a_counter_that_is_not_flat_is_copied_whole():
    """A counter of the schema is flat (copied by dict.copy); one that is not is copied whole,
    as every other part kept: what the runs do to it never reaches the position kept."""
    state = {"turn": 3, "counters": {"a": {"at": "x", "units": 1}, "b": {"at": "y", "path": ["x", "y"]}},
             "control": {"x": "axis"}, "war": {"GER": "axis"}}
    want = marshal.dumps(state, 2)
    kept = AfterDie(state)
    for _ in range(2):
        kept.put_back(state)
        state["counters"]["a"]["units"] = 2
        state["counters"]["b"]["path"].append("z")
        state["control"]["y"] = "axis"
        state["flags"] = {"new": True}
    kept.put_back(state)
    assert marshal.dumps(state, 2) == want and list(state) == ["turn", "counters", "control", "war"]
    kept.put_back(state, fresh=False)
    assert marshal.dumps(state, 2) == want


def test_the_counters_out_of_reach_are_kept_as_they_are():
    state = {"counters": {"a": {"at": "x"}, "b": {"at": "far"}, "c": {"at": "x", "path": ["x"]}}, "war": {}}
    want = marshal.dumps(state, 2)
    b = state["counters"]["b"]
    kept = AfterDie(state, {"a", "c"})
    kept.put_back(state)
    state["counters"]["a"]["at"] = "y"
    state["counters"]["c"]["path"].append("y")
    kept.put_back(state)
    assert marshal.dumps(state, 2) == want and state["counters"]["b"] is b
    assert list(state["counters"]) == ["a", "b", "c"]
