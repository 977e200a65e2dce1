"""The situations of the worked examples 20.1 and 20.2 can be placed on the BlitzWAR map as case
positions (tests/blitzwar/positions/): every zone exists, every counter is a kind of the mix, stacking
holds, and the legs the examples use (movement, air range, sea supply, landing, retreat) exist
with the lengths the examples give."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.data import load_ruleset
from pbem.core.yamlio import load_yaml

# the example positions (20.*): not rule cases (the combat cases of the examples, 20.*-combat,
# are in tests/cases/blitzwar/, run by the core's case runner)
CASES = sorted((Path(__file__).resolve().parent / "positions").glob("20.*.yaml"))


@pytest.fixture(scope="module")
def w():
    return load_ruleset("blitzwar-1939")[1]


def _case(path: Path) -> dict:
    return load_yaml(path.read_bytes(), path.name).data


def test_both_examples_have_cases():
    assert [p.name.split("-")[0] for p in CASES] == ["20.1", "20.2"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_position_is_placeable(w, path):
    case = _case(path)
    mix = {(k.nation, k.type, k.units) for ks in w.counters.values() for k in ks}
    entrenched = {(k.nation, k.units) for ks in w.counters.values() for k in ks if k.back == "entrenched"}
    for zid, counters in case["position"].items():
        z = w.zones[zid]                       # the zone exists
        land = [c for c in counters if c["type"] in ("infantry", "armour", "white-tank")]
        assert len(land) <= w.stacking_default, zid
        if z.corps_limit is not None:
            assert sum(c["units"] for c in land) <= z.corps_limit, zid
        for c in counters:
            assert (c["nation"], c["type"], c["units"]) in mix, (zid, c)
            if c.get("entrenched"):
                assert (c["nation"], c["units"]) in entrenched, (zid, c)
    for sea in case.get("at_sea", {}):
        assert sea in w.seas
    for zid in case.get("control", {}):
        assert zid in w.zones
    # the example has a blitz phase: fine weather where it is fought (6)
    if case.get("blitz"):
        for zid in case["position"]:
            assert w.weather(case["turn"], zid) != "mud", zid
        target = next(lg["to"] for lg in case["legs"] if lg["kind"] in ("adjacent", "landing"))
        assert w.weather(case["turn"], target) == "fine"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_legs(w, path):
    case = _case(path)
    for lg in case["legs"]:
        k = lg["kind"]
        if k == "land":
            assert w.land_distance(lg["from"], lg["to"]) == lg["zones"], lg["why"]
        elif k == "adjacent":
            assert lg["to"] in w.zones[lg["from"]].links, lg["why"]
        elif k == "air-range":
            assert w.in_air_range(lg["from"], lg["to"]), lg["why"]
        elif k == "sea":
            a, b = w.zones[lg["from"]], w.zones[lg["to"]]
            assert a.port and b.port and not a.far_port and not b.far_port
            shared = set(a.coasts) & set(b.coasts)
            assert shared == set(lg["seas"]), lg["why"]     # one sea zone: no doubled cost (7)
        elif k == "landing":
            src, dst = w.zones[lg["from"]], w.zones[lg["to"]]
            assert src.port and lg["sea"] in src.coasts                  # 14.1.2: start in a port of that sea
            assert lg["sea"] in dst.beaches and not dst.naval_base      # 13.4.5: a coast, not a naval base
            per = 3 if dst.id in src.blue else 2                          # 14.1.2
            assert per * lg["beachheads"] >= lg["corps"] > 2 * (lg["beachheads"] - 1)
            assert per == 2                                               # 20.2: "there is no blue line"
        elif k == "terrain-shift":
            z = w.zones[lg["zone"]]
            shifts = w.terrain_effects[z.terrain]["shift"] if z.terrain in w.terrain_effects else 0
            assert min(1, max(shifts, 1 if z.beaches else 0)) == lg["shifts"]
            assert w.terrain_effects[z.terrain]["blitz"]
        elif k == "elite":
            elites = [c for c in w.counters[lg["nation"]] if c.elite]
            assert any(c.infantry == lg["infantry"] and c.armour == lg["armour"] for c in elites), lg["why"]
        else:
            raise AssertionError(f"unknown leg kind {k}")


def test_norway_example_keeps_the_german_defence(w):
    case = _case(next(p for p in CASES if p.name.startswith("20.2")))
    assert case["axis_strategic_points"] >= w.german_defence_at
