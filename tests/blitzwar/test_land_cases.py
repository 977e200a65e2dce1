"""The BlitzWAR land cases (tests/cases/blitzwar/land/<section>-<name>.yaml) are run by the core's
case runner (tests/test_cases.py, with BlitzWAR's case kit pbem/blitzwar/cases.py), which also
checks that validation agrees with adjudication on each. Here: what only BlitzWAR asks of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "land").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_case_file_is_named_by_its_section(path: Path):
    case = load_case(path)
    assert path.stem.split("-")[0].replace("_", ".") == str(case["rule"]).split(",")[0].split(" ")[0]
    assert case["case"].split(" ")[0] == path.stem.split("-")[0]


def test_there_are_cases_for_every_section():
    sections = {p.stem.split("-")[0] for p in CASES}
    assert {"4", "5", "6", "7", "15.1", "15.2", "15.3", "17.5", "19", "20.1"} <= sections, sections
