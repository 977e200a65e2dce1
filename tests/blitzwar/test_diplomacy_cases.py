"""The BlitzWAR diplomacy cases (tests/cases/blitzwar/diplomacy/<section>-<name>.yaml) are run by
the core's case runner (tests/test_cases.py, which also checks that validation agrees with
adjudication on each). Here: what only BlitzWAR asks of them, and the parts of section 9 that
are data rather than cases."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "diplomacy").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_case_file_is_named_by_its_section(path: Path):
    case = load_case(path)
    assert path.stem.split("-")[0] == str(case["rule"]).split(",")[0].split(" ")[0]
    assert case["case"].split(" ")[0] == path.stem.split("-")[0]


def test_there_are_cases_for_every_section():
    assert {p.stem.split("-")[0] for p in CASES} >= {"9.2", "9.3", "9.6"}


def test_every_country_of_the_limits_and_surrender_lists_is_on_the_map():
    from pbem.blitzwar import diplomacy as d
    from pbem.blitzwar.cases import world
    _, w = world()
    for code in d.CAPITAL_AND_FOUR + d.NEVER_SURRENDER + d.STAY_HOME + d.NEXT_DOOR + d.ITALIAN_AREA:
        assert code in w.countries, code
    for code, c in w.countries.items():
        # Vichy France (9.4) governs zones of France: its capital lies in its area
        assert c.capital in w.zones and (w.zones[c.capital].country == code
                                         or (code == "VF" and c.capital in w.areas["vichy"])), code
    # 9.2: Germany and the USSR surrender by their supply sources: each has some
    assert all(any(z.supply_nation == n for z in w.zones.values()) for n in ("GER", "USSR"))
    assert set(w.areas["east-poland"]) <= set(w.country_zones("POL"))


# ------------------------------------------------------------------------------ properties (9.2)
from hypothesis import given, settings, strategies as st  # noqa: E402

POLAND = ["gdynia", "poznan", "warsaw", "lodz", "krakow", "bialystok", "wilno", "brest-litovsk", "pinsk", "lwow"]


@settings(max_examples=40, deadline=None)
@given(occupied=st.sets(st.sampled_from(POLAND)), axis_in=st.sets(st.sampled_from(POLAND)))
def test_poland_surrenders_exactly_when_9_2_says_and_leaves_nothing_behind(occupied, axis_in):
    """9.2: Poland surrenders iff Warsaw and 4 other zones are occupied; then no Polish counter
    is on the map, every Polish zone is the Axis' or (East Poland) the USSR's, and an East Polish
    zone with Axis units stays the Axis' (ruling east-poland)."""
    from pbem.blitzwar import diplomacy as d
    from pbem.blitzwar.cases import case_state, world
    from pbem.blitzwar.context import Ctx
    g, w = world()
    s = case_state(w, g, {"start": {"phase": "1.diplomacy", "turn": 4}})
    s["setup_choices"] = {k: "made" for k in s["setup_choices"]}
    for z in occupied | axis_in:
        s["control"][z] = "axis"
    for i, z in enumerate(sorted(axis_in)):
        s["counters"][f"ger-x-{i}"] = {"nation": "GER", "type": "infantry", "kind": 0, "units": 1, "at": z}
    for cid in [c for c, v in s["counters"].items() if v["nation"] == "POL" and v["at"] in axis_in]:
        s["counters"][cid]["at"] = "pool"
    ctx = Ctx(rs=w, state=s, turn=4, phase="1.diplomacy", dice=None)
    occ = occupied | axis_in
    d.run_diplomacy(ctx)
    meets = "warsaw" in occ and len(occ - {"warsaw"}) >= 4
    assert ("POL" in (s["flags"].get("surrendered") or [])) == meets
    if meets:
        assert not [c for c, v in s["counters"].items() if v["nation"] == "POL" and v["at"] != "out"]
        east = set(w.areas["east-poland"])
        for z in POLAND:
            want = "axis" if (z not in east or z in axis_in) else "ussr"
            assert ctx.control(z) == want, (z, ctx.control(z))
