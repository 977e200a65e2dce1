"""Supply lines and paying supply (7, 12.1, 12.3, 13.4.5, 17.5), and the Vichy and Free French
units always in supply in their territory (9.4).

A layer above the land war's common rules (pbem/blitzwar/land.py: sides, control, stacking,
weather) and above the sea and the air (seacontrol.py, air.py): a supply line runs through the
zones a side controls and by sea where it holds sea control (12.3) or a beachhead (13.4.5), so
it reads them; they do not read it (issue 30: the layers by rulebook chapter).

Every function works on a :class:`pbem.blitzwar.context.Ctx`; events name their section."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from ..core.errors import Issue
from .air import beachheads, head_seas
from .context import (
    LAND,
    SIDES,
    Ctx,
    as_fraction,
    enemies,
    fmt_supply,
    nation_side,
    typed_ids,
    vichy_stands,
    zone_controls,
    zone_owners,
)
from .land import PARTNER, control, land_counters, side_of
from .seacontrol import sea_control, sea_control_map as scm


# ------------------------------------------------------------------------------ supply (7)
def _sea_ok(ctx: Ctx, side: str, sea: str, ctrl: dict[str, str] | None = None) -> bool:
    """``ctrl``: who controls each land zone, when the caller has it (the network's)."""
    sc = sea_control(ctx, sea)      # 12.3, as the naval phase recorded it
    if sc and enemies(side, sc):
        return False
    # 7: every sea zone of the line has a friendly port
    if ctrl is not None:
        return any(ctrl[p] == side for p in ctx.rs.ports_on_sea(sea))
    return any(control(ctx, p) == side for p in ctx.rs.ports_on_sea(sea))


def _beachhead_key(ctx: Ctx) -> tuple:
    """The beachheads of a position as the supply lines read them (13.4.5: air placed as one, or
    air superiority over a coastal zone, read live: an air unit lost in a blitz ends it): the
    network is built again when they change."""
    if not ctx.state.get("sea_air"):
        return ()
    return tuple(sorted((z, h.get("side"), tuple(sorted(head_seas(h)))) for z, h in beachheads(ctx).items()))


def _beachhead_stamp(ctx: Ctx) -> tuple:
    """What :func:`_beachhead_key` reads besides the control, ``war`` and sea control the
    network compares anyway: the recorded beachheads and air superiority, the turn (its
    weather) and the flying air units over the zones of that air superiority. Read from the air
    units alone (context.typed_ids), where the key looks at each zone's counters in turn: the
    key is worked out again only when this changes (:meth:`_Network.current`)."""
    sa = ctx.state.get("sea_air")
    if not sa:
        return ()
    sup = sa.get("air_superiority") or {}
    cs = ctx.counters       # the air units over those zones, read from the air units' ids
    flying = sorted((cid, cs[cid]["at"], cs[cid]["nation"]) for cid in typed_ids(cs).get("air", ())
                    if cs[cid].get("flying") and cs[cid]["at"] in sup) if sup else []
    return ctx.turn, repr(sa.get("beachheads")), repr(sup), flying


def _owner_flags(state: dict) -> tuple:
    """What a zone's owner reads besides ``war`` (context.zone_owner): the countries that have
    surrendered (East Poland, 9.2; Vichy's end) and whether Vichy stands (9.4)."""
    f = state.get("flags") or {}
    return tuple(f.get("surrendered") or ()), f.get("vichy")


class _Network:
    """The supply lines of one position (7, 12.1, 12.3): for each side (and for defence, 7)
    the zones a line may step to from each land or sea zone, and the reach already traced
    from each start. A line depends only on who controls the zones and the seas (``control``,
    ``war``, ``sea_control``, and the surrenders and Vichy that decide a zone's owner), not on where the counters stand, so the network is worked out
    once and kept for as long as those stay as they are: a unit that moves without taking a
    zone leaves it current; taking a zone (or a change of sea control or of a country's side)
    makes the next line build it again (:func:`_network`)."""

    def __init__(self, ctx: Ctx):
        st = ctx.state
        self.rs = ctx.rs
        self.control = dict(st.get("control") or {})
        self.war = dict(st.get("war") or {})
        self.sea_control = sea_control_map(st)
        self.owners = _owner_flags(st)
        self.heads = _beachhead_key(ctx)
        self.stamp = _beachhead_stamp(ctx)
        ctl = st.get("control") or {}      # control(), the marker read once (context.zone_control)
        ctrl = self.ctrl = zone_owners(ctx.rs, st)     # (a copy: every land zone, in the map's order)
        for z, c in ctl.items():
            if c and z in ctrl:
                ctrl[z] = c
        self.steps: dict[tuple[str, bool], dict[str, list[str]]] = {}
        self.back: dict[tuple[str, bool], dict[str, list[str]]] = {}
        self.reach: dict[tuple[str, bool, str], dict[str, int]] = {}
        self.to: dict[tuple[str, bool, tuple[str, ...]], dict[str, int]] = {}
        self.own_sources: dict[str, tuple[str, ...]] = {}
        self.by_sea: dict[str, tuple[dict[str, bool], dict[str, list[str]]]] = {}

    def current(self, ctx: Ctx) -> bool:
        st = ctx.state
        if not (self.rs is ctx.rs and self.control == (st.get("control") or {}) and self.war == (st.get("war") or {})
                and self.sea_control == sea_control_map(st) and self.owners == _owner_flags(st)):
            return False
        stamp = _beachhead_stamp(ctx)
        if stamp == self.stamp:
            return True         # the beachheads read from the same inputs: the same
        if self.heads != _beachhead_key(ctx):
            return False
        self.stamp = stamp
        return True

    def steps_of(self, ctx: Ctx, side: str, defence: bool) -> dict[str, list[str]]:
        key = (side, defence)
        if key not in self.steps:
            self.steps[key] = self._steps(ctx, side, defence)
        return self.steps[key]

    def back_of(self, ctx: Ctx, side: str, defence: bool) -> dict[str, list[str]]:
        """:meth:`steps_of` the other way round: zone -> the zones whose line steps to it (each
        as often as it steps there; in another order, which no reader of it depends on: the
        searches back find distances and sets). Made from the map's land links read backwards
        (a line steps onto a land zone of the side from every zone linked to it:
        :attr:`World.land_links_to`) and the same sea steps, not from :meth:`steps_of`."""
        key = (side, defence)
        if key not in self.back:
            w, ctrl = self.rs, self.ctrl
            own, sea_ok = self._own_seas(ctx, side, defence)
            to = w.land_links_to
            back: dict[str, list[str]] = {x: list(to[x]) for x, c in ctrl.items() if c in own and to[x]}
            for n, seas in w.port_coasts:
                if ctrl[n] == side:
                    for x in seas:
                        if sea_ok[x]:
                            back.setdefault(x, []).append(n)
            sea_from = self._sea_of(ctx, side)[1]
            for n in w.sea_nodes:
                for x in sea_from[n]:
                    back.setdefault(x, []).append(n)
            # the beachheads' lines from the network's own key of them, current with it
            # (:meth:`current`): their order does not matter here
            for zid, sea in self._heads(side, sea_ok, self.heads):
                back.setdefault(sea, []).append(zid)
                back.setdefault(zid, []).append(sea)
            self.back[key] = back
        return self.back[key]

    def reaching(self, ctx: Ctx, side: str, defence: bool, ends: tuple[str, ...]) -> dict[str, int]:
        """Zone -> the length of the shortest line of ``side`` from it to one of ``ends``: one
        search back along :meth:`back_of` (a zone's distance to a place is the distance the
        search forward from the zone, :func:`_reach`, finds for that place)."""
        key = (side, defence, ends)
        dist = self.to.get(key)
        if dist is None:
            dist = self.to[key] = _distances(ends, self.back_of(ctx, side, defence))
        return dist

    def _own_seas(self, ctx: Ctx, side: str, defence: bool) -> tuple[set[str], dict[str, bool]]:
        """(the sides whose zones a line of ``side`` runs through, the seas it may use)."""
        own = {side, PARTNER[side]} if defence and side in PARTNER else {side}
        return own, self._sea_of(ctx, side)[0]

    def _sea_of(self, ctx: Ctx, side: str) -> tuple[dict[str, bool], dict[str, list[str]]]:
        """(the seas a line of ``side`` may use, each sea node -> :meth:`sea_steps` from it),
        worked out once a side: neither depends on the line being held for defence (7, 12.3:
        the sea control and the ports of the side itself), so the lines for attack and for
        defence, forward and back, share them (to read, never to change)."""
        got = self.by_sea.get(side)
        if got is None:
            sea_ok = {s: _sea_ok(ctx, side, s, self.ctrl) for s in self.rs.seas}
            got = self.by_sea[side] = (sea_ok, {n: self.sea_steps(ctx, side, n, sea_ok) for n in self.rs.sea_nodes})
        return got

    def _heads(self, side: str, sea_ok: dict[str, bool], heads: Iterable[tuple[str, Any, Iterable[str]]]) -> list[tuple[str, str]]:
        """7: 補給線は、港から港または橋頭堡へと、海ゾーンを通して連絡する: a line also runs by sea
        to the side's beachheads (13.4.5), between the beachhead's zone and its sea: (zone, sea)
        of each of ``heads`` (zone, side, its seas), both ways."""
        w = self.rs
        return [(zid, sea) for zid, hside, seas in heads for sea in seas
                if hside == side and (zid in w.zones or zid in w.sea_nodes)
                and (sea in w.zones or sea in w.sea_nodes) and sea_ok.get(sea)]

    def _steps(self, ctx: Ctx, side: str, defence: bool) -> dict[str, list[str]]:
        """Zone -> the zones a line of ``side`` steps to from it, in the order supply_reach
        always tried them (land links, then sea zones; sea links, then ports)."""
        w, ctrl = self.rs, self.ctrl
        own, sea_ok = self._own_seas(ctx, side, defence)
        mine = {z for z, c in ctrl.items() if c in own}
        out: dict[str, list[str]] = {n: [x for x in links if x in mine] for n, links in w.land_links.items()}
        for n, seas in w.port_coasts:
            if ctrl[n] == side:
                out[n] += [s for s in seas if sea_ok[s]]
        sea_from = self._sea_of(ctx, side)[1]
        for n in w.sea_nodes:
            out[n] = list(sea_from[n])
        for zid, sea in self._heads(side, sea_ok, ((z, h.get("side"), head_seas(h)) for z, h in sorted(beachheads(ctx).items()))):
            out[zid] = out[zid] + [sea]
            out[sea] = out[sea] + [zid]
        return out

    def sea_steps(self, ctx: Ctx, side: str, n: str, sea_ok: dict[str, bool]) -> list[str]:
        """From a sea zone: along the sea links (not through a strait whose city the side does
        not hold, 12.1) to a sea it may use, then to its friendly ports that are not far ports."""
        w, ctrl = self.rs, self.ctrl
        nxt = []
        for o, strait in w.sea_links_from(n):
            if strait and ctrl[w.straits[strait].city] != side:
                continue
            if sea_ok[o] if o in sea_ok else _sea_ok(ctx, side, o, ctrl):
                nxt.append(o)
        return nxt + [p for p in w.ports_on_sea(n) if not w.zones[p].far_port and ctrl[p] == side]


def sea_control_map(st: dict) -> dict[str, str]:
    return scm(st)


_NETWORK: list[_Network] = []      # the network of the position last asked about


def _network(ctx: Ctx) -> _Network:
    net = _NETWORK[0] if _NETWORK else None
    if net is None or not net.current(ctx):
        net = _Network(ctx)
        _NETWORK[:] = [net]
    return net


def _reach(ctx: Ctx, side: str, start: str, defence: bool) -> dict[str, int]:
    """:func:`supply_reach`, shared with the network's other readers: do not change it."""
    return _reach_on(_network(ctx), ctx, side, start, defence)


def _distances(starts: tuple[str, ...], steps: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Place -> the fewest steps from the nearest of ``starts`` along ``steps`` (place -> the
    places one step on), breadth first, in the order the places are reached."""
    dist = dict.fromkeys(starts, 0)
    # level by level: the places of one distance in the order they were reached, as a queue
    # takes them (held to the queue by tests/blitzwar/test_supply_network.py)
    level, d = list(dist), 0
    get = steps.get
    while level:
        d += 1
        nxt = []
        for n in level:
            for x in get(n, ()):
                if x not in dist:
                    dist[x] = d
                    nxt.append(x)
        level = nxt
    return dist


def _reach_on(net: _Network, ctx: Ctx, side: str, start: str, defence: bool) -> dict[str, int]:
    """:func:`_reach` on the network of the position (current)."""
    key = (side, defence, start)
    dist = net.reach.get(key)
    if dist is None:
        steps = net.steps_of(ctx, side, defence)
        if start not in steps:      # not a land or sea zone of the map (a counter in the pool)
            steps = {**steps, start: net.sea_steps(ctx, side, start, {})}
        dist = net.reach[key] = _distances((start,), steps)
    return dist


def supply_reach(ctx: Ctx, side: str, start: str, *, defence: bool = False) -> dict[str, int]:
    """Land zones (and sea zones) a supply line from ``start`` reaches, with their distance:
    through zones the side controls (7), by sea from a friendly port to a friendly port through
    sea zones without enemy sea control (12.3), never through far ports (Suez, the Asia base)
    or a strait whose city the side does not hold (12.1). Neutral Sweden is never the Axis'
    (a zone the side does not control is never on its line). ``defence``: the Allies and the
    Soviets trace lines for defence through each other's zones too (7). Traced on the
    position's supply network (:class:`_Network`), worked out once per position."""
    return dict(_reach(ctx, side, start, defence))


def supply_counter_left(c: dict) -> Fraction:
    return as_fraction(c["units"]) - as_fraction(c.get("spent", "0"))


def minor_at_home(ctx: Ctx, cid: str) -> bool:
    c = ctx.counters[cid]
    country = ctx.rs.countries.get(c["nation"])
    if c["nation"] in ("VF", "FRA") and "vichy" in (ctx.state.get("flags") or {}):
        return always_supplied(ctx, cid)    # 9.4: Vichy and Free France in their territory
    return bool(country and country.kind == "minor" and c["at"] in ctx.rs.zones
                and ctx.rs.zones[c["at"]].country == c["nation"])


def _supply_counters(ctx: Ctx) -> list[str]:
    """The ids of the supply counters (wherever they are): context.typed_ids."""
    return typed_ids(ctx.counters).get("supply", [])


def own_sources(ctx: Ctx, side: str) -> list[str]:
    """The side's supply sources it controls (7), in the map's order: their control read in
    one pass (context.zone_controls)."""
    src = ctx.rs.supply_sources(side)
    return [z for z, c in zip(src, zone_controls(ctx.rs, ctx.state, src)) if c == side]


def sources(ctx: Ctx, side: str, zone: str, *, defence: bool = False) -> tuple[bool, list[tuple[int, str]]]:
    """(a supply source of the side is on the line, [(distance, supply counter)]) from ``zone``.
    Read from searches back from the side's sources and from each supply counter's place along
    the position's lines (:meth:`_Network.reaching`, made once per position: the fleets' ports
    of a naval phase, the moves of a movement phase ask many zones of few sources and supply
    counters), where a line was traced forward from each zone asked (:func:`_reach`, kept for
    a place off the map): the same answers."""
    return sources_at(ctx, side, [zone], defence=defence)[0]


def sources_at(ctx: Ctx, side: str, zones: list[str], *, defence: bool = False) -> list[tuple[bool, list[tuple[int, str]]]]:
    """:func:`sources` of each of ``zones``, in their order: the network made current and the
    side's supply counters found once for them all (asking changes nothing of the position:
    what the first zone finds stands for the next; naval_supply asks each port a fleet may
    reach, 7). Held to :func:`sources` zone by zone by tests/blitzwar/test_sources_at.py."""
    net = _network(ctx)
    rs, st, counters = ctx.rs, ctx.state, ctx.counters
    sides: dict[str, str] = {}      # nation -> its side (side_of, read once a nation)
    mine = []                       # (supply counter of the side, its place)
    for cid in _supply_counters(ctx):
        c = counters[cid]
        n = c["nation"]
        if n not in sides:
            sides[n] = nation_side(rs, st, n)
        if sides[n] == side:
            mine.append((cid, c["at"]))
    return [_sources_on(net, ctx, side, zone, defence, mine) for zone in zones]


def _sources_on(net: _Network, ctx: Ctx, side: str, zone: str, defence: bool,
                mine: list[tuple[str, str]]) -> tuple[bool, list[tuple[int, str]]]:
    """:func:`sources` of ``zone`` on the position's network ``net`` (current), ``mine`` the
    side's supply counters and their places."""
    w = ctx.rs
    dist_of: Callable[[str], int | None]
    if zone in w.zones or zone in w.sea_nodes:
        own = net.own_sources.get(side)
        if own is None:     # (control is part of what keeps the network current)
            own = net.own_sources[side] = tuple(own_sources(ctx, side))
        src = zone in net.reaching(ctx, side, defence, own)

        def dist_of(at: str) -> int | None:
            return net.reaching(ctx, side, defence, (at,)).get(zone)
    else:
        reach = _reach_on(net, ctx, side, zone, defence)
        src = any(s in reach for s in own_sources(ctx, side))
        dist_of = reach.get
    near = set(w.zones[zone].links) | {zone} if zone in w.zones else {zone}
    cs = []
    for cid, at in mine:
        d = dist_of(at)
        if d is not None:
            cs.append((d, cid))
        elif at in near:
            # 7: an Allied unit in a Soviet zone (or the reverse) acts on a supply counter in
            # its zone or next to it
            cs.append((0 if at == zone else 1, cid))
    return src, sorted(set(cs))


def in_supply(ctx: Ctx, cid: str) -> bool:
    """17.5 / 7: a supply line to a source or a supply counter; minors always at home; the
    Allies and the Soviets through each other's zones (the line held for defence, 7)."""
    if minor_at_home(ctx, cid):
        return True
    c = ctx.counters[cid]
    if c["at"] not in ctx.rs.zones:
        return False
    side = side_of(ctx, cid)
    src, cs = sources(ctx, side, c["at"], defence=True)
    return src or any(x != cid for _, x in cs)


def defends_in_supply(ctx: Ctx, cid: str) -> bool:
    """Whether a defending counter is in supply (7, 16.3.1, 17.2): unless marked out of supply
    (the line held at the end of its own turn counts through the enemy's, 7, 17.5); a marked
    one stacked with a unit of an allied minor country (9.1) in supply counts as in supply when
    defending (7: 補給下にある同盟関係にある他の小国ユニットとスタックしている補給切れユニットは、
    防御時にのみは補給下にあるものとする; ruling minor-stack-defends-in-supply)."""
    c = ctx.counters[cid]
    if not c.get("out_of_supply"):
        return True
    side = side_of(ctx, cid)
    for o in land_counters(ctx, c["at"]):
        oc = ctx.counters[o]
        country = ctx.rs.countries.get(oc["nation"])
        if (oc["nation"] != c["nation"] and country is not None and country.kind == "minor"
                and side_of(ctx, o) == side and not oc.get("out_of_supply")):
            return True
    return False


def pay(ctx: Ctx, cid: str, amount: Fraction, action: str, via: str | None = None, *, path=None) -> dict:
    """Pay ``amount`` of supply for ``cid``'s ``action`` from supply its line reaches (7): the
    side's supply held at its sources when a source is on the line, else a supply counter on
    the line (nearest first; 20.1: Africa pays from the supply counter in Tripoli). ``via``
    ("held" or a supply counter id) chooses. Supply never goes negative: the action is refused."""
    side = side_of(ctx, cid)
    at = ctx.counters[cid]["at"]
    held = ctx.supply(side)
    cs: list[tuple[int, str]]   # (distance, supply counter)
    if minor_at_home(ctx, cid):
        src, cs = True, []
    else:
        src, cs = sources(ctx, side, at)
    cs = [(d, x) for d, x in cs if x != cid and supply_counter_left(ctx.counters[x]) >= amount]
    options: list[str] = []
    if src and held >= amount:
        options.append("held")
    options += [x for _, x in cs]
    where = path or ("phases",)
    if via is not None:
        if via not in options:
            ctx.refuse([Issue("BW-SUPPLY-SOURCE", f"{cid}: cannot pay {fmt_supply(amount)} supply for {action} from {via} "
                              f"(its supply line reaches: {', '.join(options) or 'no supply'})", path=where, rule="7")])
        choice = via
    elif options:
        choice = options[0]
    else:
        ctx.refuse([Issue("BW-SUPPLY", f"{cid} in {ctx.rs.zones[at].name if at in ctx.rs.zones else at}: {action} costs "
                          f"{fmt_supply(amount)} supply and its supply line reaches "
                          + (f"only {fmt_supply(held)} held" if src else "no source and no supply counter with enough")
                          + " (7: supply never goes negative)", path=where, rule="7",
                          hint=("the orders are paid in the order written, so an earlier one may have spent it: leave an "
                                "order out, or" if src else "bring a supply counter within reach of its line, or")
                          + " pay from a supply counter its line reaches (`pay: COUNTER`); `pbem show` lists the supply "
                          "held and where the supply counters stand")])
    if choice == "held":
        ctx.set_supply(side, held - amount)
        left = ctx.supply(side)
        frm = "held"
    else:
        left, src_zone = spend_counter(ctx, choice, amount)
        frm = choice
    ev = ctx.emit("supply", rule="7", side=side, counter=cid, action=action, paid=fmt_supply(amount), source=frm,
                  left=fmt_supply(left))
    if frm != "held":
        ev["source_zone"] = src_zone
    return ev


def spend_counter(ctx: Ctx, sid: str, amount: Fraction) -> tuple[Fraction, str]:
    """Spend ``amount`` of the supply counter ``sid`` (7): (what it has left, the zone it was
    spent in); an emptied counter goes to the pool."""
    sc = ctx.counters[sid]
    src_zone = sc["at"]        # where it was paid from, before an emptied counter goes to the pool
    spent = as_fraction(sc.get("spent", "0")) + amount
    left = supply_counter_left(sc) - amount
    if left == 0:
        sc.pop("spent", None)
        ctx.move(sid, "pool")
    else:
        sc["spent"] = fmt_supply(spent)
    return left, src_zone


def mark_out_of_supply(ctx: Ctx, side: str) -> None:
    """17.5: at the end of the side's turn its land units without a supply line are marked out
    of supply; those with one lose the marker. :func:`in_supply` of every land counter of the
    side, the lines found at once (:func:`_supplied_zones`: a marker moves nothing)."""
    supplied, near = _supplied_zones(ctx, side)
    rs, st, counters, zones = ctx.rs, ctx.state, ctx.counters, ctx.rs.zones
    sides: dict[str, str] = {}      # nation -> its side (side_of, read once a nation: a marker changes none)
    for cid in sorted(counters):
        c = counters[cid]
        at = c["at"]
        if c["type"] not in LAND or at not in zones:
            continue
        n = c["nation"]
        if n not in sides:
            sides[n] = nation_side(rs, st, n)
        if sides[n] != side:
            continue
        ok = at in supplied or at in near or not near.isdisjoint(zones[at].links) or minor_at_home(ctx, cid)
        if not ok and not c.get("out_of_supply"):
            c["out_of_supply"] = True
            ctx.emit("out-of-supply", rule="17.5", counter=cid, zone=c["at"])
        elif ok and c.get("out_of_supply"):
            del c["out_of_supply"]
            ctx.emit("in-supply", rule="17.5", counter=cid, zone=c["at"])


def _supplied_zones(ctx: Ctx, side: str) -> tuple[set[str], set[str]]:
    """What :func:`in_supply` finds for a land counter of ``side`` (a line held for defence, 7)
    in every zone at once: (the zones whose line reaches a source the side controls or one of
    its supply counters, the places of its supply counters: a unit in a zone next to one, or in
    its zone, acts on it, 7). One search back from the sources and the supply counters along
    the network's steps, where :func:`sources` searches forward from each zone in turn."""
    net = _network(ctx)
    back = net.back_of(ctx, side, True)
    at = {ctx.counters[x]["at"] for x in _supply_counters(ctx) if side_of(ctx, x) == side}
    seen = set(own_sources(ctx, side)) | at
    q = deque(seen)
    while q:
        for x in back.get(q.popleft(), ()):
            if x not in seen:
                seen.add(x)
                q.append(x)
    return seen, at


def always_supplied(ctx: Ctx, cid: str) -> bool:
    """9.4: Vichy's and Free France's units in their own territory are always in supply."""
    c = ctx.counters[cid]
    z = c["at"]
    if z not in ctx.rs.zones or c["type"] not in LAND:
        return False
    if c["nation"] == "VF":
        return vichy_stands(ctx.rs, ctx.state, z)
    f = ctx.state.get("flags") or {}
    return c["nation"] == "FRA" and "free_france" in f and ctx.rs.zones[z].country == "FRA" and ctx.control(z) in SIDES \
        and ctx.control(z) == ctx.side_of(cid)
