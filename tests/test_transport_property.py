"""Issue 20, sea transport (14): whatever the orders, the sea transport phase never loses nor
duplicates a unit: the counters after the phase are the counters before it, each with its
units; a counter leaves the map only when the phase says so (a unit on a beachhead no beachhead
serves, ``beachhead-lost``; a supply counter emptied paying, ``supply``); a refused phase changes
nothing a player sees (the kernel keeps the state it had)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pbem.blitzwar.cases import case_state, world
from pbem.blitzwar.context import Ctx, PhaseOrdersInvalid
from pbem.blitzwar.transport import run_sea_transport

G, W = world()
CASE = {
    "war": {"US": "allies", "ITA": "axis"},
    "supply": {"allies": 12},
    "control": {"sicily": "axis", "sardinia": "axis"},
    "position": {
        "tunis": [{"id": "uk-i2-1", "nation": "UK", "type": "infantry", "units": 2}],
        "malta": [{"id": "uk-i1-1", "nation": "UK", "type": "infantry", "units": 1}],
        "liverpool": [{"id": "uk-c2-1", "nation": "UK", "type": "armour", "units": 2},
                      {"id": "uk-a1-1", "nation": "UK", "type": "air", "units": 1}],
        "america": [{"id": "us-c2-1", "nation": "US", "type": "armour", "units": 2},
                    {"id": "us-s2-1", "nation": "US", "type": "supply", "units": 2}],
        "sicily": [{"id": "ita-i1-1", "nation": "ITA", "type": "infantry", "units": 1}],
    },
    "at_sea": {"south-central-med": [{"id": "uk-i1-9", "nation": "UK", "type": "infantry", "units": 1,
                                      "beachhead": "calabria"}],
               "western-med": [{"id": "us-f2-1", "nation": "US", "type": "fleet", "units": 2}]},
    "start": {"phase": "allies.6.sea-transport", "turn": 15,
              "patch": {"sea_air": {"beachheads": {"sicily": {"side": "allies", "sea": "south-central-med", "n": 1},
                                                   "sardinia": {"side": "allies", "sea": "western-med", "n": 1}}}}},
}
MOVERS = ["uk-i2-1", "uk-i1-1", "uk-c2-1", "uk-a1-1", "us-c2-1", "us-s2-1", "uk-i1-9", "us-f2-1", "ita-i1-1", "nobody"]
PLACES = ["sicily", "sardinia", "calabria", "liverpool", "plymouth", "gibraltar", "alexandria", "suez", "malta", "tunis",
          "naples", "america", "nowhere"]
entry = st.fixed_dictionaries({"counter": st.sampled_from(MOVERS), "to": st.sampled_from(PLACES)})
land = st.fixed_dictionaries({"counter": st.sampled_from(MOVERS), "beachhead": st.sampled_from(PLACES)})


@settings(max_examples=60, deadline=None)
@given(st.lists(entry, max_size=4), st.lists(land, max_size=4), st.lists(entry, max_size=2))
def test_transport_never_loses_nor_duplicates_a_unit(transport, landings, back):
    state = case_state(W, G, CASE)
    before = {cid: dict(c) for cid, c in state["counters"].items()}
    ctx = Ctx(rs=W, state=state, turn=15, phase="allies.6.sea-transport", side="allies", player="allies")
    try:
        run_sea_transport(ctx, {"transport": transport, "land": landings, "back": back})
    except PhaseOrdersInvalid:
        return      # refused: the kernel keeps the state it had (nothing written)
    after = state["counters"]
    assert set(after) == set(before)
    lost = {e["counter"] for e in ctx.events if e["type"] == "beachhead-lost"}
    emptied = {e["source"] for e in ctx.events if e["type"] == "supply" and e["source"] != "held" and e["left"] == "0"}
    for cid, c in after.items():
        assert c["units"] == before[cid]["units"], cid
        assert c["type"] == before[cid]["type"], cid
        if c["at"] == "pool" and before[cid]["at"] != "pool":
            assert cid in lost | emptied, f"{cid} left the map without a word"
    # every counter shipped or landed is where its event says
    for e in ctx.events:
        if e["type"] == "sea-transport":
            assert after[e["counter"]]["at"] == e["path"][-1]
        if e["type"] == "landing":
            assert after[e["counter"]]["at"] == e["sea"] and after[e["counter"]]["beachhead"] == e["path"][-1]
