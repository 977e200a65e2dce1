"""The BlitzWAR air cases (13, example 20.1's air phase): tests/cases/blitzwar/air/*.yaml, run by
the core's case runner (tests/test_cases.py, with BlitzWAR's kit) through the kernel. Here: what
only BlitzWAR asks of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "air").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_case_file_is_named_by_its_section(path: Path):
    case = load_case(path)
    assert case["case"].split(" ")[0] == path.stem.split("-")[0]
    assert str(case["rule"]).split(",")[0].split(" ")[0] == path.stem.split("-")[0]
