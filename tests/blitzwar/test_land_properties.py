"""Properties of the BlitzWAR land rules under random movement orders (7, 3, 4): supply never
goes negative, no nation has more counters of a kind in play than the mix holds, corps are
conserved by movement, and a refused order changes nothing."""
from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.blitzwar.cases import case_state, world
from pbem.blitzwar.context import LAND
from pbem.core.canon import state_hash
from pbem.core.dice import ScriptedDice
from pbem.core.game import Submission
from pbem.core.kernel import adjudicate


def _start():
    g, w = world()
    s = case_state(w, g, {"start": {"phase": "axis.7.movement"}})
    return g, w, s


G, W, START = _start()
AXIS_LAND = sorted(c for c, v in START["counters"].items() if v["nation"] == "GER" and v["type"] in LAND + ("supply",)
                   and v["at"] in W.zones)


@st.composite
def movement_orders(draw):
    moves, seen = [], set()
    for _ in range(draw(st.integers(0, 8))):
        cid = draw(st.sampled_from(AXIS_LAND))
        if cid in seen:
            continue
        seen.add(cid)
        at, path = START["counters"][cid]["at"], []
        for _ in range(draw(st.integers(1, 5))):
            nxt = draw(st.sampled_from(sorted(W.zones[at].links)))
            path.append(nxt)
            at = nxt
        moves.append({"counter": cid, "path": path})
    acts = [{"counter": c} for c in draw(st.lists(st.sampled_from(AXIS_LAND), max_size=3, unique=True)) if c not in seen]
    strategic = []
    return {"moves": moves, "activate": acts, "strategic": strategic}


def _mix_ok(w, state) -> bool:
    n: dict[tuple, int] = {}
    for c in state["counters"].values():
        if c["at"] in ("pool", "out"):
            continue
        key = (c["nation"], c["kind"])
        n[key] = n.get(key, 0) + 1
    return all(k <= w.counters[nat][i].count for (nat, i), k in n.items())


def _corps(state, nation="GER") -> int:
    return sum(int(c["units"]) for c in state["counters"].values() if c["nation"] == nation and c["type"] in LAND)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(movement_orders(), st.sampled_from(["0", "0.5", "2", "4", "20"]))
def test_supply_never_negative_and_mix_respected(entry, held):
    s = copy.deepcopy(START)
    s["supply"]["axis"] = held
    s["hash"] = state_hash(s)
    doc = {"schema": "pbem/orders/v1", "game": "blitzwar", "campaign": "case", "player": "axis", "turn": 1,
           "state": s["hash"], "phases": [dict(entry, phase="axis.7.movement")]}
    sub = Submission(player="axis", doc=doc, digest="0" * 64, name="axis.yaml")
    out = adjudicate(G, W, s, [sub], lambda **k: ScriptedDice({}, prefix="x/"))
    if out.stopped == "refused":
        assert out.state is None and out.issues
        return
    assert out.stopped in ("complete", "pending"), out.issues
    st2 = out.state
    for _side, v in st2["supply"].items():
        assert Fraction(v) >= 0
    for c in st2["counters"].values():
        if c["type"] == "supply" and c.get("spent"):
            assert Fraction(c["units"]) - Fraction(c["spent"]) > 0
    assert _mix_ok(W, st2)
    assert _corps(st2) == _corps(START)
    paid = sum(Fraction(e["paid"]) for e in out.events if e["type"] == "supply" and e["source"] == "held")
    assert Fraction(held) - paid == Fraction(st2["supply"]["axis"])


def test_the_setup_is_within_the_mix_and_the_stacking_limit():
    assert _mix_ok(W, START)
    for z in {c["at"] for c in START["counters"].values() if c["at"] in W.zones}:
        land = [c for c in START["counters"].values() if c["at"] == z and c["type"] in LAND]
        lim = W.zones[z]
        if lim.stacking == "unlimited":
            continue
        if lim.corps_limit is not None:
            assert sum(c["units"] for c in land) <= lim.corps_limit, z
        else:
            assert len(land) <= W.stacking_default, z


def test_every_ruling_the_code_names_is_written_down():
    import re
    from pathlib import Path

    from pbem.core.yamlio import load_yaml
    root = Path(__file__).resolve().parents[2]
    doc = load_yaml((root / "rules" / "blitzwar" / "rulings.yaml").read_bytes(), "rulings").data
    ids = {r["id"] for r in doc["rulings"]}
    assert all(r["reason"] and r["section"] and r["ruling"] for r in doc["rulings"])
    named = set()
    for p in (root / "pbem" / "blitzwar").glob("*.py"):
        named |= set(re.findall(r"ruling[s:]*\W+``?([a-z][a-z0-9-]+)", p.read_text("utf-8")))
    named -= {"s", "yaml"}
    assert named <= ids, named - ids


def test_the_sequence_runs_47_turns_and_ends():
    """8: nine phases a turn (no replacement phase on turn 1), sides in the order Axis, Allies,
    USSR, 47 turns, then the end."""
    from pbem.blitzwar.phases import advance
    s = copy.deepcopy(START)
    s["phase"] = "1.diplomacy"
    seen: list[tuple[int, str]] = []
    events: list[dict] = []
    while s["phase"] != "end":
        seen.append((s["turn"], s["phase"]))
        advance(W, s, events)
        assert len(seen) < 2000
    assert seen[0] == (1, "1.diplomacy") and (1, "3.replacements") not in seen and (2, "3.replacements") in seen
    assert [p for t, p in seen if t == 2][3:9] == [f"axis.{x}" for x in ("4.naval", "5.air", "6.sea-transport", "7.movement",
                                                                        "8.blitz", "9.combat")]
    assert [p for t, p in seen if t == 2][-1] == "ussr.9.combat"
    assert seen[-1] == (47, "ussr.9.combat") and len(seen) == 47 * 21 - 1
    # 18: Germany did not surrender: the Axis player wins, the points by its strategic points
    assert s["result"]["winner"] == s["sides"]["axis"] and events[-1]["type"] == "game-over"
    assert sum(s["result"]["points"].values()) == 10
    assert "three-corps" in s["marks"]
