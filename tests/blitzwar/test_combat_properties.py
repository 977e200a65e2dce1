"""Property tests of the BlitzWAR land combat (16, 17): whatever the forces, the die and the
owners' default choices, corps are conserved (every corps that leaves the map is a reported
loss and its counter, once empty, is in the pool), no counter is left on the map without a
corps, defender survivors never share a zone with the attacker, and every event has a report
line naming its rule section."""
from __future__ import annotations

import copy
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.blitzwar import combat, combat_common
from pbem.blitzwar.context import Ctx, NeedDecision, PhaseOrdersInvalid, nation_side
from pbem.blitzwar.describe import describe
from pbem.core.data import load_ruleset
from pbem.core.dice import ScriptedDice

W = load_ruleset("blitzwar-1939")[1]


def run_step(w, state: dict, turn: int, step: dict):
    """One combat phase handler run on a partial position (the rule cases go through the kernel:
    tests/cases/blitzwar/combat; here thousands of random positions are run fast)."""
    phase = step["phase"]
    side = phase.split(".")[0]
    work = copy.deepcopy(state)
    ctx = Ctx(rs=w, state=work, turn=turn, phase=phase, side=side, player=work["sides"][side],
              dice=ScriptedDice(step.get("dice") or {}), answers={},
              auto_players=frozenset(step.get("auto_players") or ()))
    orders = combat_common.normalize_combat(dict(step.get("orders") or {}, phase=phase), 0)
    run = combat.run_blitz if ".8." in phase else combat.run_normal_combat
    out = SimpleNamespace(stopped="complete", pending=None, issues=[], state=work)
    try:
        run(ctx, orders)
    except NeedDecision as nd:
        out.stopped, out.pending, out.state = "pending", nd.decision, state
    except PhaseOrdersInvalid as e:
        out.stopped, out.issues, out.state = "orders-invalid", e.issues, state
    out.events = ctx.events
    return out

att_counter = st.sampled_from([("infantry", 1, 0), ("infantry", 2, 0), ("infantry", 3, 0), ("armour", 0, 1),
                               ("armour", 0, 2), ("white-tank", 1, 1), ("white-tank", 1, 2)])
def_counter = st.sampled_from([("infantry", 1, 0, False), ("infantry", 2, 0, False), ("infantry", 1, 0, True),
                               ("armour", 0, 1, False), ("white-tank", 1, 1, False)])


def _land(t, i, a):
    c = {"type": t, "units": i + a}
    if t == "white-tank":
        c.update(infantry=i, armour=a)
    return c


def _map_corps(state) -> int:
    return sum(combat_common.n_corps(c) for c in state["counters"].values()
               if c["type"] in combat_common.LAND and c["at"] not in ("pool", "out"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(att=st.lists(att_counter, min_size=1, max_size=3), dfn=st.lists(def_counter, min_size=1, max_size=3),
       die=st.integers(1, 6), blitz=st.booleans(), air=st.booleans(), elite=st.booleans(),
       retreat_zone_taken=st.booleans())
def test_corps_conserved(att, dfn, die, blitz, air, elite, retreat_zone_taken):
    counters = {}
    for k, (t, i, a) in enumerate(att):
        counters[f"a{k}"] = dict(_land(t, i, a), nation="GER", at="el-agheila", active=True,
                                 **({"elite": True} if elite and k == 0 and t == "white-tank" else {}))
    for k, (t, i, a, ent) in enumerate(dfn):
        counters[f"d{k}"] = dict(_land(t, i, a), nation="UK", at="mechili", **({"entrenched": True} if ent else {}))
    if air:
        counters["ger-air"] = {"nation": "GER", "type": "air", "units": 1, "at": "mechili", "flying": True}
    counters["sup"] = {"nation": "UK", "type": "supply", "units": 1, "at": "mechili"}
    if retreat_zone_taken:
        counters["x"] = {"nation": "GER", "type": "infantry", "units": 1, "at": "gazala"}
    state = {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters,
             "control": {"el-agheila": "axis", "mechili": "allies", "derna": "allies", "gazala": "allies",
                         "benghazi": "axis"},
             "supply": {"axis": "5", "allies": "5", "ussr": "5"}, "war": {}, "marks": [], "flags": {}, "standing": {}}
    phase = "axis.8.blitz" if blitz else "axis.9.combat"
    step = {"phase": phase, "orders": {"attacks": [{"target": "mechili", "counters": sorted(c for c in counters if c.startswith("a"))}]},
            "dice": {"c1-mechili/d6": die}, "auto_players": ["axis", "allies", "ussr"]}
    before = _map_corps(state)
    out = run_step(W, state, 13, step)
    if out.stopped == "orders-invalid":
        assert blitz and all(t == "infantry" for t, _, _ in att)       # only a blitz without armour is refused
        return
    assert out.stopped == "complete", out.pending
    after = _map_corps(out.state)
    lost = sum(1 for e in out.events if e["type"] == "losses" for x in e["losses"] if x["effect"] != "absorbed")
    lost += sum(e["corps"] for e in out.events if e["type"] == "retreat-eliminated")
    assert before - after == lost
    for cid, c in out.state["counters"].items():
        if c["type"] in combat_common.LAND and c["at"] not in ("pool", "out"):
            assert combat_common.n_corps(c) >= 1, (cid, c)
    sides_in = {}
    for _cid, c in out.state["counters"].items():
        if c["type"] in combat_common.LAND and c["at"] not in ("pool", "out"):
            sides_in.setdefault(c["at"], set()).add(nation_side(W, out.state, c["nation"]))
    assert all(len(s) == 1 for s in sides_in.values()), sides_in
    for e in out.events:
        assert e.get("rule")
        assert describe(W, e)
