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


def test_the_battle_of_britain_standing_orders_accept_what_a_player_writes():
    """13.4.3 (ruling bob-loss-choice): the values of bob_losses and bob_rounds pbem takes, and
    some it refuses (the kernel checks a standing order's value with ``in``)."""
    from pbem.blitzwar.standing import STANDING_KEYS
    losses, rounds = STANDING_KEYS["bob_losses"], STANDING_KEYS["bob_rounds"]
    for v in ("ask", "auto", "from london", "from lille,bristol"):
        assert v in losses, v
    for v in ("from", "from london bristol", "never", "all", 3):
        assert v not in losses, v
    for v in ("ask", "auto", "stop", "all", "1", "12", "keep 0", "keep 4"):
        assert v in rounds, v
    for v in ("0", "keep", "keep x", "continue", "all keep 2", 3):
        assert v not in rounds, v
