"""Property tests of BlitzWAR naval combat (12.2): whatever the forces, the dice, the table (before
or after the naval change of summer 1943) and the owners' default choices, no unit is lost or
duplicated: every unit that leaves the sea is a reported loss, every counter is still exactly
once in the state (at the sea or, emptied, in the pool at its printed strength); the Axis
defending loses no U-boat while it has a fleet there; the battle ends when a die reaches the
number of defenders or a side has no unit left; sea control (12.3) never counts U-boats."""
from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.blitzwar import naval, seacontrol
from pbem.blitzwar.context import Ctx, NeedDecision, nation_side
from pbem.blitzwar.describe import describe
from pbem.core.data import load_ruleset

W = load_ruleset("blitzwar-1939")[1]
SEA = "north-atlantic"


class ListDice:
    """Dice that return the values given, in turn (then 6s)."""

    prefix = "t/"

    def __init__(self, values):
        self.values, self.i = list(values), 0

    def roll(self, label, sides):
        v = self.values[self.i] if self.i < len(self.values) else 6
        self.i += 1
        return v


def _kind(nation, t, units):
    return next(i for i, k in enumerate(W.counters[nation]) if k.type == t and k.units == units)


naval_counter = st.sampled_from([("fleet", 1), ("fleet", 2), ("uboat", 1)])


def _position(axis, allies):
    counters = {}
    for k, (t, u) in enumerate(axis):
        nation = "GER"
        counters[f"ger-{k}"] = {"nation": nation, "type": t, "units": u, "kind": _kind(nation, t, 1), "at": SEA}
    for k, (t, u) in enumerate(allies):
        t = "fleet"
        counters[f"uk-{k}"] = {"nation": "UK", "type": t, "units": u, "kind": _kind("UK", t, u), "at": SEA}
    return {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters,
            "supply": {"axis": "5", "allies": "5", "ussr": "5"}, "war": {}, "marks": [], "flags": {},
            "standing": {"axis": {"naval_losses": "auto"}, "allies": {"naval_losses": "auto"}}}


def _units(state) -> int:
    return sum(int(c["units"]) for c in state["counters"].values() if c["at"] == SEA)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(axis=st.lists(naval_counter, min_size=1, max_size=5), allies=st.lists(naval_counter, min_size=1, max_size=4),
       dice=st.lists(st.integers(1, 6), min_size=0, max_size=30), axis_attacks=st.booleans(), changed=st.booleans())
def test_naval_combat_never_loses_or_duplicates_a_unit(axis, allies, dice, axis_attacks, changed):
    state = _position(axis, allies)
    before = copy.deepcopy(state)
    side = "axis" if axis_attacks else "allies"
    turn = 32 if changed else 2
    ctx = Ctx(rs=W, state=state, turn=turn, phase=f"{side}.4.naval", side=side, player=side, dice=ListDice(dice))
    try:
        naval.battle(ctx, 1, SEA)
    except NeedDecision as nd:       # never: every owner has the standing order auto
        raise AssertionError(nd.decisions) from None
    (ev,) = [e for e in ctx.events if e["type"] == "naval-battle"]
    lost = sum(len(r["losses"]) for r in ev["rounds"])
    assert _units(before) - _units(state) == lost
    assert set(state["counters"]) == set(before["counters"])
    for cid, c in state["counters"].items():
        assert c["at"] in (SEA, "pool"), (cid, c)
        if c["at"] == "pool":
            assert c["units"] == W.counters[c["nation"]][c["kind"]].units
            assert any(x["counter"] == cid and x["effect"] == "eliminated" for r in ev["rounds"] for x in r["losses"])
        else:
            assert 1 <= c["units"] <= before["counters"][cid]["units"]
    # 12.2: the Axis defending loses no U-boat while a fleet of its is at sea
    if not axis_attacks:
        fleets = sum(1 for t, _ in axis if t == "fleet")
        lost_fleets = 0
        for r in ev["rounds"]:
            for x in r["losses"]:
                if x["side"] == "axis":
                    kind = before["counters"][x["counter"]]["type"]
                    if kind == "uboat":
                        assert lost_fleets >= sum(u for t, u in axis if t == "fleet") or fleets == 0
                    else:
                        lost_fleets += 1
    # the battle ends as 12.2 says
    last = ev["rounds"][-1]
    assert last["roll"]["value"] >= last["defenders"] or not ev["attackers_left"] or not ev["defenders_left"]
    for r in ev["rounds"][:-1]:
        assert r["roll"]["value"] < r["defenders"]
    assert describe(W, ev)
    # 12.3: U-boats never count for sea control
    sc, _ = seacontrol.compute(ctx, SEA)
    kinds = {s: {state["counters"][c]["type"] for c in state["counters"] if state["counters"][c]["at"] == SEA
                 and nation_side(W, state, state["counters"][c]["nation"]) == s} for s in ("axis", "allies")}
    has = {s: "fleet" in kinds[s] for s in kinds}
    assert sc == ("axis" if has["axis"] and not has["allies"] else "allies" if has["allies"] and not has["axis"] else None)


BLACK_SEA_PORTS = ["sevastopol", "odessa", "nikolayev"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held=st.integers(0, 3), axis_ports=st.lists(st.sampled_from(BLACK_SEA_PORTS), unique=True, max_size=3),
       supply=st.lists(st.tuples(st.sampled_from(BLACK_SEA_PORTS), st.sampled_from([1, 2])), max_size=3),
       n_fleets=st.integers(1, 4))
def test_naval_moves_pay_through_the_line_and_lose_nothing(held, axis_ports, supply, n_fleets):
    """7 (ruling naval-supply-line): naval moves either all go, each paid 1 supply from the held
    supply or a supply counter its line reaches, or are all refused with nothing changed; no
    counter appears or vanishes; the supply spent is exactly one a counter moved."""
    from pbem.core.game import PhaseOrdersInvalid
    counters = {f"ger-f{k}": {"nation": "GER", "type": "fleet", "units": 1, "kind": _kind("GER", "fleet", 1),
                              "at": "black-sea"} for k in range(n_fleets)}
    for k, (z, u) in enumerate(supply):
        counters[f"ger-s{k}"] = {"nation": "GER", "type": "supply", "units": u, "kind": _kind("GER", "supply", u), "at": z}
    state = {"sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters,
             "control": {z: "axis" for z in axis_ports}, "supply": {"axis": str(held), "allies": "5", "ussr": "5"},
             "war": {"ITA": "axis"}, "marks": [], "flags": {}, "standing": {}}
    moves = [{"counter": f"ger-f{k}", "path": [axis_ports[k % len(axis_ports)]]} for k in range(n_fleets)] if axis_ports else []
    before = copy.deepcopy(state)
    ctx = Ctx(rs=W, state=state, turn=30, phase="axis.4.naval", side="axis", player="axis", dice=ListDice([]))

    def stock(st_) -> Fraction:
        return Fraction(st_["supply"]["axis"]) * 2 + sum(2 * int(c["units"]) - 2 * _spent(c) for c in st_["counters"].values()
                                                    if c["type"] == "supply" and c["at"] != "pool")
    try:
        naval.run_naval(ctx, {"fleet_moves": moves, "_path": ("phases", 0)})
    except PhaseOrdersInvalid:
        assert state == before
        return
    assert set(state["counters"]) == set(before["counters"])
    moved = [e for e in ctx.events if e["type"] == "fleet-move"]
    assert len(moved) == len(moves)
    assert stock(before) - stock(state) == 2 * len(moves)


def _spent(c) -> Fraction:
    return Fraction(c.get("spent", "0"))
