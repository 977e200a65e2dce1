"""The counters of a place read from the index kept as they move (context.placed, mended by
context.move_counter; issue 35 "Speed") are those the plain scan of every counter finds, at every
call, in a replay of the whole example campaign; no rule module changes a counter's place but
through move_counter; and a position kept aside (pbem.core.canon.snapshot_json) is built back as
the copy the plain copy would be."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from replayed import EXAMPLE, replay_copy

from pbem.blitzwar import context
from pbem.blitzwar.context import Ctx, counters_by_place
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.canon import copy_json, restore_json as restored, snapshot_json as snapshot
from pbem.core.data import load_ruleset

_, W = load_ruleset("blitzwar-1939")


def plain(ctx: Ctx, zone: str) -> list[str]:
    return sorted([c for c, v in ctx.counters.items() if v["at"] == zone])


def test_in_zone_is_the_plain_scan_throughout_a_replay(tmp_path, monkeypatch):
    real, real_placed = Ctx.in_zone, context.placed
    seen = {"asked": 0, "placed anew": 0}

    def checked(self: Ctx, zone: str) -> list[str]:
        got = real(self, zone)
        assert got == plain(self, zone), (self.phase, zone)
        seen["asked"] += 1
        return got

    def placed(counters):
        seen["placed anew"] += context._PLACES[0] is not counters
        return real_placed(counters)

    monkeypatch.setattr(context, "CHECK_PLACES", False)       # (this test checks, the index alone answers)
    monkeypatch.setattr(Ctx, "in_zone", checked)
    monkeypatch.setattr(context, "placed", placed)
    replay_copy(EXAMPLE, tmp_path)
    assert seen["asked"] > 5 * seen["placed anew"] > 100       # the index was kept, not made at each question


def test_move_counter_mends_the_index_and_a_place_changed_otherwise_is_caught():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[40]))
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    zone = next(v["at"] for v in ctx.counters.values() if v["at"] in W.zones)
    assert ctx.in_zone(zone) == plain(ctx, zone)
    cid = ctx.in_zone(zone)[0]
    ctx.move(cid, "pool")
    assert cid not in ctx.in_zone(zone) and ctx.in_zone(zone) == plain(ctx, zone)
    assert cid in ctx.in_zone("pool") and ctx.in_zone("pool") == plain(ctx, "pool")
    ctx.move(cid, zone)
    assert ctx.in_zone(zone) == plain(ctx, zone)
    assert context.placed(ctx.counters) == {at: sorted(ids) for at, ids in counters_by_place(ctx.counters).items()}
    ctx.in_zone(zone).clear()           # the caller's list: the index is not changed by it
    assert ctx.in_zone(zone) == plain(ctx, zone)
    ctx.counters[cid]["at"] = "pool"    # a rule that forgets move_counter: found at the next question
    with pytest.raises(AssertionError, match="move_counter"):
        ctx.in_zone(zone)
    context.forget_places()
    assert ctx.in_zone(zone) == plain(ctx, zone)
    ctx.state["counters"] = dict(ctx.counters)      # another mapping: placed anew
    ctx.counters[cid]["at"] = zone
    assert ctx.in_zone(zone) == plain(ctx, zone)


def test_add_remove_and_sort_mend_the_index():
    camp = Campaign(EXAMPLE)
    state, _ = load_state_file(camp.state_path(camp.step_dirs()[40]))
    ctx = Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])
    zone = next(v["at"] for v in ctx.counters.values() if v["at"] in W.zones)
    old = ctx.in_zone(zone)[0]
    context.add_counter(ctx.counters, "zz-i1-1", {**ctx.counters[old]})
    assert "zz-i1-1" in ctx.in_zone(zone) and ctx.in_zone(zone) == plain(ctx, zone)
    context.remove_counter(ctx.counters, old)
    assert old not in ctx.in_zone(zone) and ctx.in_zone(zone) == plain(ctx, zone)
    ctx.state["counters"] = context.sorted_counters(ctx.counters)
    assert list(ctx.counters) == sorted(ctx.counters)
    assert context._PLACES[0] is ctx.counters       # carried over, not placed anew
    assert context.placed(ctx.counters) == {at: sorted(ids) for at, ids in counters_by_place(ctx.counters).items()}


def test_no_rule_module_changes_a_place_but_through_move_counter():
    """The index stays true only if every change of a counter's ``at`` is move_counter's (the
    case files' runner writes the places of the position it builds, before any rule reads it)."""
    root = Path(context.__file__).parent
    allowed = {("context.py", 'c["at"] = to'), ("cases.py", 'c.update(kind=kind, at=zone, units=int(c["units"]))')}
    bad = []
    for path in sorted(root.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#")[0].strip()
            if re.search(r"""\[\s*["']at["']\s*\]\s*=(?!=)|\.update\([^)]*\bat\s*=|\.update\([^)]*["']at["']\s*:""", code) \
                    and (path.name, code) not in allowed:
                bad.append(f"{path.name}:{n}: {line.strip()}")
    assert not bad, "a counter's place changed other than by context.move_counter:\n" + "\n".join(bad)


def test_no_rule_module_adds_or_removes_a_counter_but_through_context():
    """The index stays true only if every counter added to or removed from a position's
    counters is add_counter's or remove_counter's (then sorted_counters), not a mapping changed
    in place (the case files' runner builds its position before any rule reads it)."""
    root = Path(context.__file__).parent
    allowed = {("context.py", "counters[cid] = c"), ("context.py", "c = counters.pop(cid)"), ("cases.py", "counters[cid] = c"),
               ("world.py", "self.counters[n] = out")}     # (the map's counter mixes, not a position's counters)
    bad = []
    for path in sorted(root.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#")[0].strip()
            if re.search(r"""\bcounters\[[^]]+\]\s*=(?!=)|\bdel\s+\S*counters\[|\bcounters\.(update|pop|popitem|clear|setdefault)\(""", code) \
                    and (path.name, code) not in allowed:
                bad.append(f"{path.name}:{n}: {line.strip()}")
    assert not bad, "a counter added or removed other than by context.add_counter / remove_counter:\n" + "\n".join(bad)


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
