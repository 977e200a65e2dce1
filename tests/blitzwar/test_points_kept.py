"""The strategic points (9.3, 18) kept while what the control of their zones reads stays the
same (context._POINTS; issue 35 "Speed") are the zones counted anew: at every count of a replay
of the example campaign (and, named in ``PBEM_KEPT_FOLDERS=folder:folder``, of more campaigns:
the benchmark's whole campaigns), and after each thing a zone's control reads changes in place:
a control marker, a country's side, Poland's surrender, Vichy."""
from __future__ import annotations

import pytest
from replayed import EXAMPLE, folders, replay_checking

from pbem.blitzwar import context, text
from pbem.blitzwar.context import SIDES, zone_control
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset

_, W = load_ruleset("blitzwar-1939")


def points_plain(rs, state) -> dict[str, int]:
    """Each strategic zone's control read zone by zone (5, 9), the track's override applied."""
    pts = {s: 0 for s in SIDES}
    for z in rs.strategic_zones():
        c = zone_control(rs, state, z.id)
        if c in pts:
            pts[c] += 1
    over = (state.get("flags") or {}).get("axis_strategic_points")
    if over is not None:
        pts["axis"] = int(over)
    return pts


def test_kept_points_follow_every_change_in_place():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[40]))

    def same():
        assert context.strategic_points(W, state) == points_plain(W, state)
        got = context.strategic_points(W, state)        # (the kept count)
        assert got == points_plain(W, state)
        got["axis"] = -1                                # a reader's copy: the kept count unchanged
        assert context.strategic_points(W, state) == points_plain(W, state)

    same()
    zones = [z.id for z in W.strategic_zones()]
    ctl = state.setdefault("control", {})
    for i, z in enumerate(zones[:12]):
        ctl[z] = "allies" if i % 2 else "axis"          # markers set in the same dict
        same()
    del ctl[zones[0]]
    same()
    war = state.setdefault("war", {})
    for code in ("ITA", "SP", "TUR", "SWE"):
        war[code] = "allies"                            # a neutral's side changes in place
        same()
    flags = state.setdefault("flags", {})
    flags["surrendered"] = ["POL"]                      # East Poland the USSR's (9.2)
    same()
    flags["vichy"] = 5                                  # Vichy's zones (9.4)
    same()
    flags["surrendered"] = ["POL", "VF"]
    same()
    flags["axis_strategic_points"] = 17                 # the track set by a case
    same()


@pytest.mark.parametrize("folder", folders(), ids=lambda p: p.name)
def test_kept_points_are_the_zones_counted_throughout_a_replay(folder, tmp_path, monkeypatch):
    def check(got, rs, state):
        assert got == points_plain(rs, state)

    assert replay_checking(folder, tmp_path, monkeypatch, [context, text], "strategic_points", check) > 50
