"""The control of many zones read in one pass (context.zone_controls; issue 35 "Speed") is
zone_control zone by zone; the surrender conditions of 9.2 read from it (diplomacy._occupied_of)
and the strategic points (9.3, 18) are those of the straightforward zone-by-zone reading; the
calendar's marks kept per turn and has_surrendered without the union of the marks are what
World.marks_by and marks_reached say: on the positions of the example campaign, with the
variants that change who owns a zone (Poland's and France's surrender, Vichy, a neutral's side)."""
from __future__ import annotations

from pathlib import Path

from pbem.blitzwar import context, diplomacy
from pbem.blitzwar.context import SIDES, Ctx, enemies, marks_reached, surrendered_countries, zone_control
from pbem.core.campaign import Campaign, load_state_file
from pbem.core.canon import copy_json
from pbem.core.data import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"
_, W = load_ruleset("blitzwar-1939")

VARIANTS = [
    lambda st: None,
    lambda st: st.setdefault("flags", {}).update(surrendered=["POL"]),
    lambda st: st.setdefault("flags", {}).update(vichy=5, surrendered=["FRA", "POL"]),
    lambda st: (st.setdefault("flags", {}).update(vichy=5), st.setdefault("war", {}).update(VF="axis", SP="allies")),
    lambda st: st.setdefault("flags", {}).update(vichy=5, surrendered=["VF"]),
    lambda st: st.update(war={"TUR": "axis", "VF": None, "POL": "allies", "ITA": "axis", "GER": "axis", "USSR": "ussr"}),
    lambda st: st.update(control={z: ("allies" if i % 3 else "axis") for i, z in enumerate(sorted(W.zones))}),
]


def positions(step: int = 6):
    camp = Campaign(EXAMPLE)
    for d in camp.step_dirs()[::step]:
        state, _ = load_state_file(camp.state_path(d))
        for change in VARIANTS:
            st = copy_json(state)
            change(st)
            yield st


def _occupied_plain(ctx: Ctx, zone: str, code: str) -> bool:
    s = context.nation_side(ctx.rs, ctx.state, code)
    return s in SIDES and enemies(s, zone_control(ctx.rs, ctx.state, zone))


def surrender_condition_plain(ctx: Ctx, code: str) -> tuple[bool, str]:
    """diplomacy.surrender_condition as it read the zones one by one (before zone_controls)."""
    w = ctx.rs
    cty = w.countries[code]
    zones = w.country_zones(code)
    occ = sorted(z for z in zones if _occupied_plain(ctx, z, code))
    if code in diplomacy.NEVER_SURRENDER:
        return False, "never surrenders"
    if code in diplomacy.CAPITAL_AND_FOUR:
        cap = _occupied_plain(ctx, cty.capital, code)
        others = [z for z in occ if z != cty.capital]
        return cap and len(others) >= 4, (f"capital {cty.capital} {'occupied' if cap else 'held'}, "
                                          f"{len(others)} other zones occupied ({', '.join(others) or 'none'}); needs the capital and 4")
    if code == "ITA":
        if "italy-may-surrender" not in marks_reached(ctx.rs, ctx.state, ctx.turn):
            return False, "not before 1941"
        home = [z for z in w.areas.get("italy-home", ()) if _occupied_plain(ctx, z, code)]
        side = context.nation_side(ctx.rs, ctx.state, code)
        corps = sum(diplomacy._enemy_corps(ctx, z, side) for z in home)
        return len(home) >= 3 and corps >= 10, (f"{len(home)} home zones occupied ({', '.join(home) or 'none'}) by {corps} "
                                                 "enemy corps; needs 3 zones and 10 corps")
    if cty.kind == "major":
        src = sorted(z.id for z in w.zones.values() if z.supply_nation == code)
        held = [z for z in src if not _occupied_plain(ctx, z, code)]
        return bool(src) and not held, f"supply sources held: {', '.join(held) or 'none'}; needs all of {', '.join(src)} occupied"
    cap = _occupied_plain(ctx, cty.capital, code)
    return cap, f"capital {cty.capital} {'occupied' if cap else 'held'}"


def test_zone_controls_is_zone_control_of_each_zone():
    zones = sorted(W.zones)
    for st in positions():
        assert context.zone_controls(W, st, zones) == [zone_control(W, st, z) for z in zones]
        assert context.zone_controls(W, st, reversed(zones)) == [zone_control(W, st, z) for z in reversed(zones)]
        assert context.zone_controls(W, st, []) == []


def test_surrender_conditions_and_strategic_points_are_the_zone_by_zone_reading():
    met = 0
    for st in positions():
        for turn in (st["turn"], 20):       # (20: after the mark italy-may-surrender)
            ctx = Ctx(rs=W, state=st, turn=turn, phase="1.diplomacy")
            for code in sorted(W.countries):
                got = diplomacy.surrender_condition(ctx, code)
                assert got == surrender_condition_plain(ctx, code), (code, turn)
                met += got[0]
                zones = W.country_zones(code)
                assert diplomacy._occupied_of(ctx, zones, code) == [z for z in zones if diplomacy.occupied(ctx, z, code)]
        pts = {s: 0 for s in SIDES}
        for z in W.strategic_zones():
            c = zone_control(W, st, z.id)
            if c in pts:
                pts[c] += 1
        if (st.get("flags") or {}).get("axis_strategic_points") is None:
            assert context.strategic_points(W, st) == pts
    assert met > 10         # conditions met as well as not


def test_calendar_marks_and_has_surrendered_read_as_the_union():
    for turn in sorted(W.turns):
        assert context.calendar_marks(W, turn) == W.marks_by(turn)
    for st in positions(step=20):
        for turn in (1, st["turn"], 30, max(W.turns)):
            for code in sorted(W.countries) + ["XX"]:
                plain = code in surrendered_countries(st) or f"{code}-surrendered" in marks_reached(W, st, turn)
                assert context.has_surrendered(W, st, turn, code) == plain
        st["marks"] = sorted(set(st.get("marks") or []) | {"YUG-surrendered"})
        assert context.has_surrendered(W, st, 1, "YUG")


def test_placement_zones_read_the_zones_control_in_one_pass():
    """replacements._allowed_zones (11.5) and the minors' default zone (11.2) with the sources'
    and naval bases' control read by zone_controls: what reading them one by one gives."""
    from pbem.blitzwar import replacements as r
    from pbem.blitzwar.supply import own_sources

    def own_plain(ctx, side):
        return [z for z in W.supply_sources(side) if zone_control(W, ctx.state, z) == side]

    def bases_plain(ctx, side):
        return [z.id for z in W.zones.values() if z.naval_base and zone_control(W, ctx.state, z.id) == side]

    def allowed_plain(ctx, side, nation, type_):       # replacements._allowed_zones, zone by zone
        w = W
        own = own_plain(ctx, side)
        if type_ in ("infantry", "armour", "supply"):
            if nation == "US":
                zs = [z for z in own if w.zones[z].country == "US"]
                if "us-replacements-britain" in set(ctx.state.get("marks") or []):
                    zs += [z for z in own if w.zones[z].country == "UK" and w.zones[z].region == "europe"]
                return zs
            home = [z for z in own if w.zones[z].supply_nation == nation]
            return home + [z for z in own if z not in home]
        zs = bases_plain(ctx, side)
        if nation == "US":
            zs = [z for z in zs if w.zones[z].country == "US"] + ([z for z in zs if w.zones[z].country == "UK" and w.zones[z].region == "europe"]
                                                                if "us-replacements-britain" in set(ctx.state.get("marks") or []) else [])
        home = [z for z in zs if w.zones[z].country == nation]
        return home + [z for z in zs if z not in home]

    for st in positions(step=12):
        ctx = Ctx(rs=W, state=st, turn=st["turn"], phase="3.replacements")
        for side in SIDES:
            assert own_sources(ctx, side) == own_plain(ctx, side)
            for nation in ("GER", "UK", "US", "USSR", "ITA"):
                for t in ("infantry", "supply", "fleet", "uboat"):
                    assert r._allowed_zones(ctx, side, nation, t) == allowed_plain(ctx, side, nation, t)
        for code in r.ANYWHERE + ("POL", "RUM"):
            owner = context.nation_side(W, st, code)
            capital = W.countries[code].capital
            opts = [z for z in [capital] + (W.country_zones(code) if code in r.ANYWHERE else [])
                    if zone_control(W, st, z) == owner]
            assert r._minor_zone(ctx, code, owner, [], ("phases",)) == (opts[0] if opts else None)


def test_zone_owners_kept_is_worked_out_anew_and_unshared():
    """context.zone_owners kept while ``war``, Poland's surrender and Vichy stay as they were:
    each answer is zone_owner of every zone, a copy the caller may change; and the supply
    network's control of every zone is zone_control's."""
    from pbem.blitzwar import supply
    for st in positions(step=10):
        for _ in range(2):
            got = context.zone_owners(W, st)
            assert got == {z: context.zone_owner(W, st, z) for z in W.zones} and list(got) == list(W.zones)
            got[next(iter(got))] = "changed"
        ctx = Ctx(rs=W, state=st, turn=st["turn"], phase=st["phase"])
        net = supply._Network(ctx)
        assert net.ctrl == {z: zone_control(W, st, z) for z in W.zones} and list(net.ctrl) == list(W.zones)
