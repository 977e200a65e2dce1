"""Property test of the air phase (13.2, 13.4.2): whatever the air units committed and however
the other side answers each interception, no counter is lost or duplicated: every counter is
still in the state, each air unit is at its base, over its target, or in the pool, and the units
that left the map are exactly the pairs of the interceptions and duels reported, two for each."""
from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.blitzwar import air
from pbem.blitzwar.context import Ctx, NeedDecision
from pbem.core.data import load_ruleset
from pbem.core.dice import ScriptedDice

W = load_ruleset("blitzwar-1939")[1]
AXIS_BASES = ["sirte", "el-agheila", "tripoli"]
UK_BASES = ["derna", "tobruk", "gazala"]
TARGETS = ["mechili", "el-agheila", "derna", "south-central-med"]


def run(state: dict, orders: list[dict], answers: dict) -> tuple[dict, list[dict]]:
    return run_side(state, orders, answers, 13, "axis")


def run_side(state: dict, orders: list[dict], answers: dict, turn: int, side: str) -> tuple[dict, list[dict]]:
    """The side's air phase run to its end, each interception answered from ``answers["_picks"]``
    (an index into the options; a decision not listed: the first option, none, as the
    missing-orders default would)."""
    while True:
        work = copy.deepcopy(state)
        ctx = Ctx(rs=W, state=work, turn=turn, phase=f"{side}.5.air", side=side, player=side,
                  dice=ScriptedDice({}), answers=dict(answers))
        try:
            air.run_air(ctx, {"air": orders, "_path": ("phases", 0)})
            return work, ctx.events
        except NeedDecision as nd:
            d = nd.decisions[0] if hasattr(nd, "decisions") else nd.decision
            pick = answers.get("_picks", {}).get(d["id"], 0) % len(d["options"])
            answers[d["id"]] = d["options"][pick]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(axis=st.lists(st.tuples(st.sampled_from(AXIS_BASES), st.sampled_from(TARGETS)), min_size=1, max_size=5),
       uk=st.lists(st.sampled_from(UK_BASES), max_size=4), uk_over=st.booleans(),
       picks=st.lists(st.integers(0, 4), min_size=8, max_size=8))
def test_interception_never_loses_or_duplicates_a_unit(axis, uk, uk_over, picks):
    counters = {}
    for k, (base, _) in enumerate(axis):
        counters[f"ger-a{k}"] = {"nation": "GER", "type": "air", "units": 1, "at": base}
    for k, base in enumerate(uk):
        counters[f"uk-a{k}"] = {"nation": "UK", "type": "air", "units": 1, "at": base}
    if uk_over:
        counters["uk-over"] = {"nation": "UK", "type": "air", "units": 1, "at": "mechili", "flying": True}
    state = {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters,
             "control": {"el-agheila": "axis", "sirte": "axis", "tripoli": "axis", "mechili": "allies", "derna": "allies",
                         "tobruk": "allies", "gazala": "allies"},
             "supply": {"axis": "5", "allies": "5", "ussr": "5"}, "war": {"ITA": "axis"}, "marks": [], "flags": {},
             "standing": {}}
    # targets out of range are refused before any unit flies (case 13.4.1-bad-orders): left out here
    orders = [{"counter": f"ger-a{k}", "to": t} for k, (b, t) in enumerate(axis)
              if (W.in_air_range(b, t) if t in W.zones else t in W.zones[b].coasts)]
    ids = [f"t13.axis.5.air.air{n}.intercept.allies" for n in range(1, 9)]
    after, events = run(state, orders, {"_picks": dict(zip(ids, picks))})
    assert set(after["counters"]) == set(counters)
    gone = sorted(c for c, v in after["counters"].items() if v["at"] == "pool")
    paired = sorted(x for e in events if e["type"] == "interception" for x in (e["counter"], e["by"]))
    paired += sorted(x for e in events if e["type"] == "air-duel" for x in (e["counter"], e["foe"]))
    assert gone == sorted(paired) and len(set(paired)) == len(paired)
    flew = {e["counter"]: e["zone"] for e in events if e["type"] == "air-mission"}
    for cid, c in after["counters"].items():
        if c["at"] == "pool":
            continue
        was = counters[cid]
        assert c["at"] == was["at"] or (cid in flew and c["at"] == flew[cid] and c.get("flying"))
    n_inter = sum(e["type"] == "interception" for e in events)
    assert n_inter <= len(uk)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_uk=st.integers(1, 6), n_ger=st.integers(0, 4), picks=st.lists(st.integers(0, 4), min_size=8, max_size=8),
       turn=st.sampled_from([31, 39]))
def test_bombing_never_loses_or_duplicates_a_unit(n_uk, n_ger, picks, turn):
    """13.3: bombers are intercepted one for one or bomb; at most 3 bomb; the Axis owes 3 supply a
    bomber (4 from 1944); no counter appears or vanishes."""
    counters = {f"uk-b{k}": {"nation": "UK", "type": "air", "units": 1, "at": ["london", "birmingham"][k % 2]}
                for k in range(n_uk)}
    counters.update({f"ger-f{k}": {"nation": "GER", "type": "air", "units": 1, "at": ["berlin", "hamburg"][k % 2]}
                     for k in range(n_ger)})
    state = {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters, "control": {},
             "supply": {"axis": "30", "allies": "5", "ussr": "5"}, "war": {}, "marks": [], "flags": {}, "standing": {}}
    orders = [{"counter": f"uk-b{k}", "mission": "bombing"} for k in range(n_uk)]
    ids = [f"t{turn}.allies.5.air.air{n}.intercept.axis" for n in range(1, 9)]
    after, events = run_side(state, orders, {"_picks": dict(zip(ids, picks))}, turn, "allies")
    assert set(after["counters"]) == set(counters)
    inter = [e for e in events if e["type"] == "interception"]
    bombs = [e for e in events if e["type"] == "bombing"]
    assert len(bombs) <= 3 and len(inter) <= n_ger
    box = sorted(c for c, v in after["counters"].items() if v["at"] == air.BOMBING_BOX)
    assert box == sorted(e["counter"] for e in bombs)
    pool = sorted(c for c, v in after["counters"].items() if v["at"] == "pool")
    assert pool == sorted(x for e in inter for x in (e["counter"], e["by"]))
    per = 4 if turn >= 36 else 3
    assert air.bombing_due(after).get("supply", 0) == per * len(bombs)
    assert len(bombs) == min(3, n_uk - len(inter))


UK_NEAR_LONDON = ["london", "birmingham", "bristol", "portsmouth"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_ger=st.integers(2, 7), uk=st.lists(st.sampled_from(UK_NEAR_LONDON), min_size=1, max_size=4),
       dice=st.lists(st.integers(1, 6), min_size=12, max_size=12), picks=st.lists(st.integers(0, 4), min_size=40, max_size=40))
def test_battle_of_britain_never_loses_or_duplicates_a_unit(n_ger, uk, dice, picks):
    """13.4.3 (ruling bob-loss-choice): whatever the dice and whichever units each side picks as
    its losses, the units destroyed are exactly those the rounds report, each side's own, as
    many as the table says (or all it had), none twice; no counter appears or vanishes."""
    n_ger = max(n_ger, len(uk) + 1)     # the battle is fought only while the Germans outnumber (refused otherwise)
    counters = {f"ger-a{k}": {"nation": "GER", "type": "air", "units": 1, "at": "lille"} for k in range(n_ger)}
    counters.update({f"uk-a{k}": {"nation": "UK", "type": "air", "units": 1, "at": z} for k, z in enumerate(uk)})
    state = {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters,
             "control": {"lille": "axis"}, "supply": {"axis": "5", "allies": "5", "ussr": "5"}, "war": {},
             "marks": [], "flags": {}, "standing": {}}
    answers: dict = {}
    rolls = {f"bob{k + 1}/d6": v for k, v in enumerate(dice)}
    k = 0
    while True:
        work = copy.deepcopy(state)
        ctx = Ctx(rs=W, state=work, turn=8, phase="axis.5.air", side="axis", player="axis",
                  dice=ScriptedDice(rolls), answers=dict(answers))
        try:
            air.run_air(ctx, {"battle_of_britain": {"rounds": "all"}, "_path": ("phases", 0)})
            break
        except NeedDecision as nd:
            d = nd.decisions[0] if hasattr(nd, "decisions") else nd.decision
            answers[d["id"]] = d["options"][picks[k % len(picks)] % len(d["options"])]
            k += 1
    assert set(work["counters"]) == set(counters)
    rounds = [e for e in ctx.events if e["type"] == "battle-of-britain"]
    lost_g = [x for e in rounds for x in e["axis_lost"]]
    lost_a = [x for e in rounds for x in e["allies_lost"]]
    assert len(set(lost_g + lost_a)) == len(lost_g + lost_a)
    assert all(x.startswith("ger-") for x in lost_g) and all(x.startswith("uk-") for x in lost_a)
    pool = sorted(c for c, v in work["counters"].items() if v["at"] == "pool")
    assert pool == sorted(lost_g + lost_a)
    for e in rounds:
        res = W.battle_of_britain[e["roll"]["value"] - 1]
        assert len(e["allies_lost"]) == int(res["allies"])
        assert len(e["axis_lost"]) == int(res["axis"])
    for c, v in work["counters"].items():
        assert v["at"] in ("pool", counters[c]["at"])
