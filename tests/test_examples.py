"""Every example campaign in examples/ replays byte for byte: states, reports (JSON and the
fixed-width text report: these are the golden reports) and every die."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.replay import replay_campaign

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = sorted(p.parent for p in (ROOT / "examples").glob("*/campaign.yaml"))


@pytest.mark.parametrize("folder", CAMPAIGNS, ids=[p.name for p in CAMPAIGNS])
def test_example_replays(folder: Path) -> None:
    res = replay_campaign(folder)
    assert not [i for i in res.issues if i.is_error], "\n".join(i.format() for i in res.issues)
    assert res.steps == len([d for d in (folder / "steps").iterdir() if d.name.isdigit()]) - 1
    assert res.rolls > 0
