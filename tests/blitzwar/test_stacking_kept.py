"""What is kept while no counter moves (issue 35 "Speed"): the zones over their stacking limit
(land._over_limit, kept by where the land counters stand) are those the zone-by-zone reading of
overstacked finds, and the counters by place kept as they move (context.placed) are
counters_by_place, at every call in a replay of the example campaign and after a counter
moves, changes type or strength, comes or goes; the zones over their limit
mended where counters moved (land._mend_stacks) are the zone-by-zone reading at every call of a
replay of the example and, named in ``PBEM_KEPT_FOLDERS=folder:folder``, of more campaigns
(the benchmark's whole campaigns)."""
from __future__ import annotations

import pytest
from replayed import EXAMPLE, folders, replay_copy

from pbem.blitzwar import context, land
from pbem.blitzwar.context import LAND, Ctx, counters_by_place, n_corps
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset

_, W = load_ruleset("blitzwar-1939")


def over_plain(ctx: Ctx) -> list[str]:
    """Every zone with land counters, its limit read as overstacked does (4)."""
    zones = sorted({v["at"] for v in ctx.counters.values() if v["type"] in LAND and v["at"] in ctx.rs.zones})
    return [z for z in zones if land.overstacked(ctx, z)]


def sorted_by_place(counters: dict) -> dict:
    return {at: sorted(ids) for at, ids in counters_by_place(counters).items()}


def test_over_limit_and_placed_are_the_plain_readings_throughout_a_replay(tmp_path, monkeypatch):
    real_over, real_placed = land._over_limit, context.placed
    seen = {"over": 0, "placed": 0}

    def over(ctx):
        got = real_over(ctx)
        assert got == over_plain(ctx), ctx.phase
        seen["over"] += 1
        return got

    def placed(counters):
        got = real_placed(counters)
        assert got == sorted_by_place(counters)
        seen["placed"] += 1
        return got

    monkeypatch.setattr(land, "_over_limit", over)
    monkeypatch.setattr(context, "placed", placed)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["over"] > 100 and seen["placed"] > 100


def test_kept_answers_follow_every_change():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[60]))
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    cs = ctx.counters

    def same():
        assert land._over_limit(ctx) == over_plain(ctx)
        assert land._over_limit(ctx) == over_plain(ctx)        # (the kept answer)
        assert context.placed(cs) == sorted_by_place(cs)
        assert context.placed(cs) == sorted_by_place(cs)       # (the kept index)

    same()
    inf = [c for c, v in cs.items() if v["type"] == "infantry" and v["at"] in W.zones]
    zone = cs[inf[0]]["at"]
    limit = W.stack_limits[zone][1]
    for c in inf[1:limit + 2]:
        context.move_counter(cs, c, zone)   # counters moved in: over its limit
        same()
    assert zone in land._over_limit(ctx)
    cs[inf[1]]["type"] = "air"              # a type changes (no rule does: told as a counter that goes and comes)
    context.forget_places()
    same()
    corps_zone = next(z for z, (kind, _) in W.stack_limits.items() if kind == "corps")
    for c in inf[-6:]:
        context.move_counter(cs, c, corps_zone)
        same()
    for c in inf[-6:]:
        cs[c]["units"] = 3                  # strength changes (nobody moves): corps summed anew
        same()
    assert corps_zone in land._over_limit(ctx) or sum(n_corps(cs[c]) for c in inf[-6:]) <= W.stack_limits[corps_zone][1]
    cs["zz-new-1"] = dict(cs[inf[2]])       # a counter comes
    context.forget_places()
    same()
    del cs[inf[3]]                          # and goes
    context.forget_places()
    same()
    ctx.state["counters"] = cs = dict(sorted(cs.items(), reverse=True))     # the order changes
    same()


def test_readers_of_the_kept_places_are_the_plain_scans_throughout_a_replay(tmp_path, monkeypatch):
    """Romania's Axis corps (9.3) and the supply network's stamp (the air units flying over
    zones of air superiority) read from the kept places are what the scan of every counter finds."""
    from pbem.blitzwar import diplomacy, supply

    def rum_plain(ctx):
        return sum(int(c["units"]) for x, c in ctx.counters.items() if c["type"] in LAND and c["at"] in ctx.rs.zones
                   and ctx.rs.zones[c["at"]].country == "RUM" and land.side_of(ctx, x) == "axis")

    def stamp_plain(ctx):
        sa = ctx.state.get("sea_air")
        if not sa:
            return ()
        sup = sa.get("air_superiority") or {}
        flying = sorted((cid, c["at"], c["nation"]) for cid, c in ctx.counters.items()
                        if c["type"] == "air" and c.get("flying") and c["at"] in sup) if sup else []
        return ctx.turn, repr(sa.get("beachheads")), repr(sup), flying

    real_issues, real_stamp = diplomacy.passage_issues, supply._beachhead_stamp
    seen = {"rum": 0, "flying": 0}

    def issues(ctx):
        got = real_issues(ctx)
        n = rum_plain(ctx)
        assert [x.message for x in got] == ([f"{n} Axis corps would stay in neutral Romania: at most 3 (9.3)"]
                                            if diplomacy.is_neutral(ctx, "RUM") and n > 3 else [])
        seen["rum"] += 1
        return got

    def stamp(ctx):
        got = real_stamp(ctx)
        assert got == stamp_plain(ctx)
        seen["flying"] += bool(got and got[3])
        return got

    monkeypatch.setattr(diplomacy, "passage_issues", issues)
    monkeypatch.setattr(supply, "_beachhead_stamp", stamp)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["rum"] > 10 and seen["flying"] > 0


def test_country_zones_are_the_map_scan():
    for code in sorted(W.countries):
        assert W.country_zones(code) == [z for z in W.zones if W.zones[z].country == code]


def test_romania_corps_counted_by_place():
    from pbem.blitzwar import diplomacy
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[10]))
    state.setdefault("war", {}).pop("RUM", None)
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    assert diplomacy.is_neutral(ctx, "RUM")
    rum = W.country_zones("RUM")
    ger = [c for c, v in ctx.counters.items() if v["nation"] == "GER" and v["type"] in LAND]
    for i, c in enumerate(ger[:5]):
        ctx.counters[c]["at"] = rum[i % len(rum)]
    n = sum(int(ctx.counters[c]["units"]) for c in ger[:5]) + sum(
        int(v["units"]) for c, v in ctx.counters.items() if c not in ger[:5] and v["type"] in LAND and v["at"] in rum
        and land.side_of(ctx, c) == "axis")
    assert n > 3
    assert [x.message for x in diplomacy.passage_issues(ctx)] == [f"{n} Axis corps would stay in neutral Romania: at most 3 (9.3)"]


@pytest.mark.parametrize("folder", folders(), ids=lambda p: p.name)
def test_over_limit_mended_where_counters_moved_is_the_plain_reading(folder, tmp_path, monkeypatch):
    """Every call of _over_limit in a whole replay gives the zone-by-zone reading, those that
    find counters moved among the same ids mending the zones they left and entered (all read
    anew when counters come or go: a replacement, a phase run again on the position before)."""
    real_over, real_mend = land._over_limit, land._mend_stacks
    seen = {"over": 0, "mended": 0, "whole": 0}

    def over(ctx):
        got = real_over(ctx)
        assert got == over_plain(ctx), ctx.phase
        seen["over"] += 1
        return got

    def mend(rs, key, moved, old_ats):
        seen["mended" if old_ats else "whole"] += 1
        return real_mend(rs, key, moved, old_ats)

    monkeypatch.setattr(land, "_over_limit", over)
    monkeypatch.setattr(land, "_mend_stacks", mend)
    replay_copy(folder, tmp_path)
    assert seen["over"] > 100 and seen["mended"] >= 10, seen
