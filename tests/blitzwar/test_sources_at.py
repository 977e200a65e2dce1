"""The supply found from many zones at once (supply.sources_at: the network made current and the
side's supply counters found once; issue 35 "Speed") is supply.sources asked zone by zone, at
every call of a replay of the example campaign (and, named in
``PBEM_KEPT_FOLDERS=folder:folder``, of more campaigns: the benchmark's whole campaigns)."""
from __future__ import annotations

import pytest
from replayed import folders, replay_copy

from pbem.blitzwar import naval, supply


@pytest.mark.parametrize("folder", folders(), ids=lambda p: p.name)
def test_sources_at_is_sources_zone_by_zone_throughout_a_replay(folder, tmp_path, monkeypatch):
    real = supply.sources_at
    seen = {"many": 0, "zones": 0}

    def alone(ctx, side, zone, defence):
        supply._NETWORK.clear()         # each zone on a network made anew, as a fresh position
        return supply.sources(ctx, side, zone, defence=defence)

    def checked(ctx, side, zones, *, defence=False):
        got = real(ctx, side, zones, defence=defence)
        assert got == [alone(ctx, side, z, defence) for z in zones], (ctx.phase, side, zones)
        seen["many"] += len(zones) > 1
        seen["zones"] += len(zones)
        return got

    monkeypatch.setattr(naval, "sources_at", checked)
    replay_copy(folder, tmp_path)
    assert seen["many"] > 5 and seen["zones"] > 50, seen
