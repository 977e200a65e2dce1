"""The land war's common rules: sides and enemies (2, 9), control (5), stacking (4), weather (6)
as it touches the land war. Supply lines and paying supply (7, 17.5) read the sea and the air
above this layer: they are pbem/blitzwar/supply.py (issue 30: the layers by rulebook chapter).

Every function works on a :class:`pbem.blitzwar.context.Ctx`; events name their section."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import compress
from operator import itemgetter, ne

from ..core.errors import Issue
from .context import (
    LAND,
    SIDES,
    Ctx,
    control_after_entry,
    enemies,
    moves_made,
    n_corps,
    nation_side,
    set_control,
    zone_control,
)
from .names import counter_guess

PARTNER = {"allies": "ussr", "ussr": "allies"}


# ------------------------------------------------------------------------------ sides (2, 9)
def side_of(ctx: Ctx, cid: str) -> str:
    """The side a counter fights for: its nation's entry in ``war`` (neutral until it joins, 9):
    :func:`pbem.blitzwar.context.nation_side`."""
    return nation_side(ctx.rs, ctx.state, ctx.counters[cid]["nation"])


def counter_guess_of(ctx: Ctx, cid, sides: set | None = None) -> str:
    """A did-you-mean for a counter id that does not exist (3): the closest among the counters on
    the map of ``sides`` (default: the acting side), then among every counter of the game. The one
    helper of the static checks (pbem/blitzwar/phasetable.py) and of the phases' own refusals."""
    sides = {ctx.side} if sides is None else sides
    mine = [c for c, v in ctx.counters.items() if v.get("at") not in ("pool", "out") and side_of(ctx, c) in sides]
    return counter_guess(ctx.state, cid, mine)


def control(ctx: Ctx, zone: str) -> str:
    """Who controls a land zone (5): the state's marker, else the map's colour; a neutral
    country's zones belong to the side it joined (9). One definition: :func:`zone_control`."""
    return zone_control(ctx.rs, ctx.state, zone)


def land_counters(ctx: Ctx, zone: str) -> list[str]:
    return [c for c in ctx.in_zone(zone) if ctx.counters[c]["type"] in LAND]


def enemy_land(ctx: Ctx, side: str, zone: str) -> list[str]:
    return [c for c in land_counters(ctx, zone) if enemies(side, side_of(ctx, c))]


_HALF, _ONE = Fraction(1, 2), Fraction(1)     # (a Fraction never changes: made once)


def cost_of(c: dict) -> Fraction:
    """7: one supply unit per infantry, armour or supply counter; half for a one-corps land
    counter."""
    if c["type"] in LAND and n_corps(c) == 1:
        return _HALF
    return _ONE


# ------------------------------------------------------------------------------ control (5)
def enter(ctx: Ctx, cid: str, zone: str, rule: str = "5") -> None:
    """A ground unit enters ``zone``: control changes to its side; the Allies and the Soviets
    never take each other's zones, and the red and khaki ones return to their owner when
    retaken from the Axis (7; East Poland is the USSR's after 9.2): :func:`control_after_entry`."""
    new = control_after_entry(ctx.rs, ctx.state, zone, side_of(ctx, cid))
    if new is None:
        return
    now = control(ctx, zone)
    set_control(ctx.rs, ctx.state, zone, new)
    ctx.emit("control", rule=rule, zone=zone, side=new, before=now, by=cid)


# ------------------------------------------------------------------------------ stacking (4)
def stack_limit(ctx: Ctx, zone: str) -> tuple[str, int | None]:
    """(kind, limit) of a zone's stacking (4): ``unlimited``, ``corps`` or ``counters``: the
    map's (:meth:`pbem.blitzwar.world.World.stack_limit`)."""
    return ctx.rs.stack_limit(zone)


def overstacked(ctx: Ctx, zone: str, land: list[str] | None = None) -> int:
    """How much a zone is over its limit (counters or corps), 0 if within it; ``land``: the
    zone's land counters when the caller has them already."""
    kind, lim = stack_limit(ctx, zone)
    if lim is None:
        return 0
    if land is None:
        land = land_counters(ctx, zone)
    n = sum(n_corps(ctx.counters[c]) for c in land) if kind == "corps" else len(land)
    return max(0, n - lim)


_AT, _TYPE = itemgetter("at"), itemgetter("type")
#: what :func:`_over_limit` found last: [world, (ids, places, types), zone -> its land counters
#: (the zones of the map that hold some), zones over by counters, zone -> limit of the zones
#: limited by corps that hold land counters, the counters read, context.moves_made() then]
_STACKS: list = [None, None, {}, set(), {}, None, None]


def _over_limit(ctx: Ctx) -> list[str]:
    """The zones over their stacking limit (4), sorted: :func:`overstacked` of every zone with
    land counters. The land counters by zone are kept while no counter has moved, come or gone
    since (context.moves_made: the phases that move no counter find them again, unread), else
    while the same ids stand at the same places with the same types (read in one pass of C
    code); when the same ids of the same types stand elsewhere (any counter moved:
    a fleet, an air unit, a supply counter, a land counter), the zones the land counters among
    them left and entered are the only ones read again (:func:`_mend_stacks`). A zone limited
    by counters is over by how many it holds; a zone limited by corps is summed anew (the
    corps of its counters change). Held to the zone-by-zone reading by
    tests/blitzwar/test_stacking_kept.py."""
    cs, rs = ctx.counters, ctx.rs
    if _STACKS[0] is not rs or _STACKS[5] is not cs or _STACKS[6] != moves_made():
        vals = cs.values()
        key = (list(cs), list(map(_AT, vals)), list(map(_TYPE, vals)))
        old = _STACKS[1]
        if _STACKS[0] is not rs or old is None or old[0] != key[0] or old[2] != key[2]:
            _STACKS[:] = [rs, key, {}, set(), {}, None, None]
            _mend_stacks(rs, key, range(len(key[0])), ())
        elif old[1] != key[1]:
            _mend_stacks(rs, key, compress(range(len(key[0])), map(ne, old[1], key[1])), old[1])
            _STACKS[1] = key
        _STACKS[5:] = [cs, moves_made()]
    land_in, by_count, by_corps = _STACKS[2:5]
    over = [*by_count, *(z for z, lim in by_corps.items() if sum(n_corps(cs[c]) for c in land_in[z]) > lim)]
    return sorted(over)


def _mend_stacks(rs, key: tuple[list, list, list], moved: Iterable[int], old_ats: Sequence) -> None:
    """The land counters among the counters of indices ``moved`` (``key``: ids, places, types)
    leave the zone they stood in (``old_ats``; none: all are placed anew) and enter the zone
    they stand in; each zone left or entered is then over by counters, limited by corps (its
    sum asked at each call) or neither (4). The order of a zone's counters is not kept: a count
    and a sum do not read it."""
    ids, ats, types = key
    land_in, by_count, by_corps = _STACKS[2:5]
    zones, limits = rs.zones, rs.stack_limits
    touched = set()
    for i in moved:
        if types[i] in LAND:
            if old_ats and old_ats[i] in zones:
                land_in[old_ats[i]].remove(ids[i])
                touched.add(old_ats[i])
            if ats[i] in zones:
                if ats[i] in land_in:
                    land_in[ats[i]].append(ids[i])
                else:
                    land_in[ats[i]] = [ids[i]]
                touched.add(ats[i])
    for z in touched:
        by_count.discard(z)
        by_corps.pop(z, None)
        if not land_in[z]:      # a zone without land counters is never over its limit
            del land_in[z]
            continue
        kind, lim = limits[z]
        if lim is None:
            continue
        if kind == "counters":
            if len(land_in[z]) > lim:
                by_count.add(z)
        else:
            by_corps[z] = lim


def stacking_issues(ctx: Ctx, zones=None) -> list[Issue]:
    out = []
    for z in sorted(zones if zones is not None else {v["at"] for v in ctx.counters.values() if v["at"] in ctx.rs.zones}):
        if z not in ctx.rs.zones:
            continue
        over = overstacked(ctx, z)
        if over:
            kind, lim = stack_limit(ctx, z)
            out.append(Issue("BW-STACK", f"{ctx.rs.zones[z].name} would hold {over} {kind if over > 1 else kind[:-1]} too many at the end of the phase "
                             f"(at most {lim} {kind}, 4)", rule="4"))
        sides = {side_of(ctx, c) for c in land_counters(ctx, z)}
        if any(enemies(a, b) for a in sides for b in sides):
            out.append(Issue("BW-STACK-ENEMY", f"enemy land units would share {ctx.rs.zones[z].name} (4)", rule="4"))
    return out


def enforce_stacking(ctx: Ctx) -> None:
    """End of every phase (4): the owner removes what is over the limit (decision ``stack-…``;
    default: the smallest counters first)."""
    for z in _over_limit(ctx):
        k = 0
        while overstacked(ctx, z):
            land = sorted(land_counters(ctx, z), key=lambda c: (n_corps(ctx.counters[c]), c))
            side = side_of(ctx, land[0])
            if side not in SIDES:
                side = ctx.side or "axis"
            k += 1
            choice, how = ctx.decide(id=f"stack-{z}-{k}", side=side, kind="stacking-removal", options=land,
                                     prompt=f"{ctx.rs.zones[z].name} is over its stacking limit (4): remove which counter?",
                                     auto=lambda: land[0], standing_key=None, rule="4")  # noqa: B023 - called in this iteration
            ctx.move(choice, "pool")
            ctx.emit("removed", rule="4", counter=choice, zone=z, how=how, why="over the stacking limit")


# ------------------------------------------------------------------------------ weather (6)
def weather(ctx: Ctx, zone: str) -> str:
    return ctx.rs.weather(ctx.turn, zone)


def blitz_allowed(ctx: Ctx, side: str, zone: str | None = None) -> tuple[bool, str]:
    """(allowed, why) for a blitz by ``side`` (into ``zone``) this turn (6): none in mud; in
    snow zones none for the Soviets before the ``soviet-blitz`` mark, for the Axis and the
    Allies before ``allied-german-blitz``."""
    t = ctx.rs.turns[ctx.turn]
    if t.weather == "mud":
        return False, "mud: no blitz phase this turn (6)"
    if t.weather == "snow" and (zone is None or weather(ctx, zone) == "snow"):
        marks = ctx.rs.marks_by(ctx.turn)
        need = "soviet-blitz" if side == "ussr" else "allied-german-blitz"
        if need not in marks:
            return False, f"snow: no blitz before the {need} mark (6)"
    return True, ""


# ------------------------------------------------------------------------------ 10.2 (Finland)
def _entered(ev: dict) -> tuple[list[str], list[str]]:
    """(counters, zones entered) of a move (15.2, 15.3, 17.5), one-zone move (16.5, 17.4),
    advance (16.4, 17.3), retreat (17.2) or sea transport into a port (14.1) event; nothing for
    another event."""
    t = ev.get("type")
    if t == "sea-transport":
        return [ev["counter"]], list(ev.get("path") or [])[-1:]
    if t == "move":
        return [ev["counter"]], list(ev.get("path") or [])[1:]
    if t == "one-zone-move":
        return [ev["counter"]], [ev["to"]]
    if t == "advance":
        return [ev["counter"]], list(ev.get("path") or [])
    if t == "retreat":
        return list(ev.get("counters") or []), [ev["to"]]
    return [], []


def note_german_in_finland(ctx: Ctx) -> None:
    """10.2: the USSR's total-war cards come the turn after ドイツ軍ユニットがフィンランドに移動した
    ("German units moved into Finland"): the first turn a German unit enters a Finnish zone, by
    any move of this phase or by sea (14.1), is recorded (``flags.german_in_finland``, read by the cards phase;
    issue 19, departure 9)."""
    if "german_in_finland" in (ctx.state.get("flags") or {}):
        return
    for ev in ctx.events:
        cids, zones = _entered(ev)
        ger = [c for c in cids if (ctx.counters.get(c) or {}).get("nation") == "GER"]
        fin = [z for z in zones if z in ctx.rs.zones and ctx.rs.zones[z].country == "FIN"]
        if ger and fin:
            ctx.state["flags"] = dict(ctx.state.get("flags") or {}, german_in_finland=ctx.turn)
            ctx.emit("german-in-finland", rule="10.2", counter=ger[0], zone=fin[0])
            return
