"""The counters of a place read from one index within a stretch of a rule where no counter moves
(Ctx.no_moves; issue 35 "Speed") are those the plain scan of every counter finds, at every
call, in a replay of the whole example campaign; and a position kept aside
(pbem.core.canon.snapshot_json) is built back as the copy the plain copy would be."""
from __future__ import annotations

from replayed import EXAMPLE, replay_copy

from pbem.blitzwar import context
from pbem.blitzwar.context import Ctx, counters_by_place
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.canon import copy_json, restore_json as restored, snapshot_json as snapshot
from pbem.core.data import load_ruleset

_, W = load_ruleset("blitzwar-1939")


def plain(ctx: Ctx, zone: str) -> list[str]:
    return sorted([c for c, v in ctx.counters.items() if v["at"] == zone])


def test_in_zone_within_no_moves_is_the_plain_scan_throughout_a_replay(tmp_path, monkeypatch):
    real = Ctx.in_zone
    seen = {"indexed": 0}

    def checked(self: Ctx, zone: str) -> list[str]:
        got = real(self, zone)
        assert got == plain(self, zone), (self.phase, zone)
        if self._still:
            seen["indexed"] += 1
        return got

    monkeypatch.setattr(Ctx, "in_zone", checked)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["indexed"] > 100      # the index was read, not only the scan


def test_no_moves_nests_and_ends_with_its_outermost_stretch():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[40]))
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    zone = next(v["at"] for v in ctx.counters.values() if v["at"] in W.zones)
    with ctx.no_moves():
        with ctx.no_moves():
            assert ctx.in_zone(zone) == plain(ctx, zone)
        assert ctx._placed is not None
    assert ctx._placed is None and not ctx._still
    cid = ctx.in_zone(zone)[0]
    ctx.counters[cid]["at"] = "pool"        # outside a stretch: the scan, the move seen
    assert cid not in ctx.in_zone(zone) and ctx.in_zone(zone) == plain(ctx, zone)
    assert sorted(counters_by_place(ctx.counters)["pool"]) == plain(ctx, "pool")


def test_snapshot_builds_back_the_plain_copy_fresh_and_unshared():
    camp = Campaign(EXAMPLE)
    for d in camp.step_dirs()[::10]:
        state, _ = load_state_file(camp.state_path(d))
        snap = snapshot(state)
        assert isinstance(snap, bytes)
        a, b = restored(snap), restored(snap)
        assert a == copy_json(state) == state and list(a) == list(state)
        assert a["counters"] is not b["counters"] and a["counters"] is not state["counters"]
    shared = [1, 2]
    st = {"x": shared, "y": shared}
    back = restored(snapshot(st))
    assert back == st and back["x"] is not back["y"]        # no back-references, as copy_json
    odd = {"x": context.Fraction(1, 2)}                     # orjson refuses it: copy_json keeps it
    assert not isinstance(snapshot(odd), bytes) and restored(snapshot(odd)) == odd


def test_zone_owners_is_zone_owner_of_every_zone():
    camp = Campaign(EXAMPLE)
    variants = [
        lambda st: None,
        lambda st: st.setdefault("flags", {}).update(surrendered=["POL"]),
        lambda st: st.setdefault("flags", {}).update(vichy=5, surrendered=["FRA", "POL"]),
        lambda st: (st.setdefault("flags", {}).update(vichy=5), st.setdefault("war", {}).update(VF="axis", SP="allies")),
        lambda st: st.setdefault("flags", {}).update(vichy=5, surrendered=["VF"]),
        lambda st: st.update(war={"TUR": "axis", "VF": None}),
    ]
    for d in camp.step_dirs()[::15]:
        state, _ = load_state_file(camp.state_path(d))
        for change in variants:
            st = copy_json(state)
            change(st)
            assert context.zone_owners(W, st) == {z: context.zone_owner(W, st, z) for z in W.zones}


def test_land_links_are_the_links_to_land_zones():
    for zid, z in W.zones.items():
        assert W.land_links[zid] == tuple(x for x in z.links if x in W.zones)
