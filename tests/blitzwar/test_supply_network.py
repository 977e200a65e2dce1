"""Supply lines traced on the network kept per position (7, 12.1, 12.3; issue 18 "Speed") reach
what a line traced from scratch reaches, with the same distances, also after control changes."""
from __future__ import annotations

import copy
from collections import deque
from pathlib import Path

import pytest

from pbem.blitzwar import land, supply
from pbem.blitzwar.context import SIDES, Ctx
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.data import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
CAMP = Campaign(ROOT / "examples" / "blitzwar-1939")
PATHS = [CAMP.state_path(d) for d in CAMP.step_dirs()]
_, W = load_ruleset("blitzwar-1939")


def from_scratch(ctx: Ctx, side: str, start: str, defence: bool) -> dict[str, int]:
    """The supply line as traced before the network (every step asks the map again)."""
    w, control = ctx.rs, land.control
    own = {side, land.PARTNER[side]} if defence and side in land.PARTNER else {side}
    dist, q = {start: 0}, deque([start])
    while q:
        n = q.popleft()
        nxt: list[str] = []
        if n in w.zones:
            z = w.zones[n]
            nxt += [x for x in z.links if x in w.zones and control(ctx, x) in own]
            if z.port and not z.far_port and control(ctx, n) == side:
                nxt += [s for s in z.coasts if s in w.seas and supply._sea_ok(ctx, side, s)]
        else:
            for a, b, strait in w.sea_links:
                if n in (a, b):
                    o = b if a == n else a
                    if strait and control(ctx, w.straits[strait].city) != side:
                        continue
                    if supply._sea_ok(ctx, side, o):
                        nxt.append(o)
            nxt += [p for p in w.ports_on_sea(n) if not w.zones[p].far_port and control(ctx, p) == side]
        for x in nxt:
            if x not in dist:
                dist[x] = dist[n] + 1
                q.append(x)
    return dist


def ctx_of(state: dict) -> Ctx:
    return Ctx(rs=W, state=state, turn=state["turn"], phase=state["phase"])


def inverted(steps: dict[str, list[str]]) -> dict[str, list[str]]:
    back: dict[str, list[str]] = {}
    for n, nxt in steps.items():
        for x in nxt:
            back.setdefault(x, []).append(n)
    return {x: sorted(v) for x, v in back.items()}


@pytest.mark.parametrize("path", PATHS[::6], ids=lambda p: p.parent.name)
def test_the_lines_read_backwards_are_the_steps_inverted(path):
    """_Network.back_of is made from the map's links read backwards (issue 35 "Speed"): the
    same steps as the network's forward steps inverted, zone by zone (order aside), also
    after control and sea control change."""
    state, _ = load_state_file(path)
    state = copy.deepcopy(state)
    ctx = ctx_of(state)
    for i, z in enumerate([None, *sorted(W.zones)[::17]]):
        if z is not None:
            state["control"] = dict(sorted({**state["control"], z: SIDES[i % 3]}.items()))
        if i == 3 and W.seas:
            state["sea_air"] = {**(state.get("sea_air") or {}), "sea_control": {sorted(W.seas)[1]: "allies"}}
        net = supply._network(ctx)
        for side in SIDES:
            for defence in (False, True):
                got = {x: sorted(v) for x, v in net.back_of(ctx, side, defence).items()}
                assert got == inverted(net.steps_of(ctx, side, defence)), (side, defence, z)


@pytest.mark.parametrize("path", PATHS[::6], ids=lambda p: p.parent.name)
def test_network_reach_is_the_reach_traced_from_scratch(path):
    state, _ = load_state_file(path)
    state = copy.deepcopy(state)
    ctx = ctx_of(state)
    starts = sorted(W.zones)[::7] + sorted(W.seas)[::3]
    for side in SIDES:
        for defence in (False, True):
            for z in starts:
                assert list(supply.supply_reach(ctx, side, z, defence=defence).items()) == \
                    list(from_scratch(ctx, side, z, defence).items()), (side, z, defence)
    # the network follows the position: hand zones (and a sea) over and ask again
    for i, z in enumerate(sorted(W.zones)[::11]):
        state["control"] = dict(sorted({**state["control"], z: SIDES[i % 3]}.items()))
        if i == 2 and W.seas:
            state["sea_air"] = {"sea_control": {sorted(W.seas)[0]: "axis"}}
        for side in SIDES:
            for start in starts[::4]:
                assert supply.supply_reach(ctx, side, start, defence=True) == from_scratch(ctx, side, start, True)


def test_network_follows_a_surrender_and_vichy():
    """A zone's owner reads the surrenders (East Poland is the USSR's once Poland has
    surrendered, 9.2) and Vichy (9.4), not only ``control`` and ``war``: the network kept for
    a position is worked out again when they change."""
    state, _ = load_state_file(PATHS[0])
    state = copy.deepcopy(state)
    ctx = ctx_of(state)
    east = sorted(z for z, zz in W.zones.items() if zz.east_poland)
    assert east
    supply.supply_reach(ctx, "ussr", east[0])
    flags = dict(state.get("flags") or {})
    flags["surrendered"] = [*flags.get("surrendered", []), "POL"]
    state["flags"] = flags
    assert land.control(ctx, east[0]) == "ussr"
    assert supply.supply_reach(ctx, "ussr", east[0]) == from_scratch(ctx, "ussr", east[0], False)
    assert supply._network(ctx).ctrl[east[0]] == "ussr"


@pytest.mark.parametrize("path", PATHS[::3], ids=lambda p: p.parent.name)
def test_out_of_supply_markers_found_at_once_are_in_supply_counter_by_counter(path):
    """17.5: the markers of the end of a side's turn, found for every zone at once (one search
    back from the sources and supply counters), are what :func:`in_supply` finds counter by
    counter, for every side, also once zones change hands."""
    state, _ = load_state_file(path)
    state = copy.deepcopy(state)
    ctx = ctx_of(state)
    for round_ in range(2):
        for side in SIDES:
            want = {cid for cid, c in state["counters"].items() if c["type"] in ("infantry", "armour", "white-tank")
                    and c["at"] in W.zones and land.side_of(ctx, cid) == side and not supply.in_supply(ctx, cid)}
            work = copy.deepcopy(state)
            wctx = ctx_of(work)
            supply.mark_out_of_supply(wctx, side)
            got = {cid for cid, c in work["counters"].items() if c.get("out_of_supply") and land.side_of(wctx, cid) == side
                   and c["type"] in ("infantry", "armour", "white-tank") and c["at"] in W.zones}
            assert got == want, (side, sorted(got ^ want))
        for i, z in enumerate(sorted(W.zones)[round_::9]):
            state["control"] = dict(sorted({**state["control"], z: SIDES[i % 3]}.items()))


def test_network_follows_an_air_unit_lost_over_its_beachhead():
    """13.4.5: air superiority over a coastal zone acts as a beachhead, read live; the network
    kept for a position is worked out again when the flying air unit that holds it is gone
    (its stamp reads the flying air units, not only the recorded air superiority)."""
    state, _ = load_state_file(PATHS[0])
    state = copy.deepcopy(state)
    ctx = ctx_of(state)
    zone = next(z for z, zz in sorted(W.zones.items()) if zz.beaches and not zz.naval_base
                and W.weather(state["turn"], z) != "snow" and land.control(ctx, z) == "axis")
    cid = next(c for c, v in sorted(state["counters"].items()) if v["type"] == "air" and land.side_of(ctx, c) == "axis")
    ctx.move(cid, zone)
    state["counters"][cid]["flying"] = True
    state["sea_air"] = {"air_superiority": {zone: "axis"}}
    net = supply._network(ctx)
    assert supply._network(ctx) is net and zone in [h[0] for h in net.heads]      # the beachhead of air superiority
    ctx.move(cid, "pool")
    state["counters"][cid].pop("flying")
    fresh = supply._network(ctx)
    assert fresh is not net and fresh.heads == supply._beachhead_key(ctx) == ()


def forward_sources(ctx: Ctx, side: str, zone: str, defence: bool) -> tuple[bool, list[tuple[int, str]]]:
    """supply.sources as it was: the line traced forward from the zone asked, every time."""
    reach = supply._reach(ctx, side, zone, defence)
    src = any(s in reach and land.control(ctx, s) == side for s in ctx.rs.supply_sources(side))
    near = set(ctx.rs.zones[zone].links) | {zone} if zone in ctx.rs.zones else {zone}
    cs = []
    for cid, c in ctx.counters.items():
        if c["type"] != "supply" or land.side_of(ctx, cid) != side:
            continue
        if c["at"] in reach:
            cs.append((reach[c["at"]], cid))
        elif c["at"] in near:
            cs.append((0 if c["at"] == zone else 1, cid))
    return src, sorted(set(cs))


def test_sources_read_from_the_searches_back_are_the_lines_traced_forward(tmp_path, monkeypatch):
    """sources() reads the lines from searches back from the side's sources and supply counters
    (issue 35 "Speed"): at every call of a replay of the example campaign it finds what the
    line traced forward from the zone finds."""
    import shutil

    from pbem.blitzwar import naval, replacements
    from pbem.core.replay import replay_campaign
    real = supply.sources
    seen = {"back": 0}

    def checked(ctx: Ctx, side: str, zone: str, *, defence: bool = False):
        got = real(ctx, side, zone, defence=defence)
        assert got == forward_sources(ctx, side, zone, defence), (ctx.phase, side, zone, defence)
        seen["back"] += zone in W.zones
        return got

    real_at = supply.sources_at

    def checked_at(ctx: Ctx, side: str, zones: list[str], *, defence: bool = False):
        got = real_at(ctx, side, zones, defence=defence)       # (the naval phase's ports, at once)
        for zone, one in zip(zones, got, strict=True):
            assert one == forward_sources(ctx, side, zone, defence), (ctx.phase, side, zone, defence)
            seen["back"] += zone in W.zones
        return got

    monkeypatch.setattr(supply, "sources", checked)
    monkeypatch.setattr(naval, "sources_at", checked_at)
    monkeypatch.setattr(replacements, "sources", checked)
    folder = tmp_path / "camp"
    shutil.copytree(ROOT / "examples" / "blitzwar-1939", folder)
    replay_campaign(folder)
    assert seen["back"] > 50      # the searches back were read, not only the lines forward
