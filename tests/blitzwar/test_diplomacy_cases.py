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
        assert c.capital in w.zones and w.zones[c.capital].country == code, code
    # 9.2: Germany and the USSR surrender by their supply sources: each has some
    assert all(any(z.supply_nation == n for z in w.zones.values()) for n in ("GER", "USSR"))
    assert set(w.areas["east-poland"]) <= set(w.country_zones("POL"))
