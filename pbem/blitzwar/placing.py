"""Counters onto the map (11.5, 11.2, 11.8): a nation's pool as a counter mix, what fits in a
zone, full-strength counters first and reduced ones filled (ruling repl-fill-reduced), a minor
country's units placed in its mix.

The layer below the replacement phase (pbem/blitzwar/replacements.py), which re-exports these
names: the diplomacy phase's dated events (dated.py), Vichy (vichy.py) and the partisans
(partisans.py) put counters on the map too, and they stand below the replacement phase
(issue 30: the layers by rulebook chapter)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .context import LAND, Ctx
from .land import stack_limit
from .setup import group, kind_key, make_counter, reachable
from .world import NOTATION

PLACE_TYPES = ("infantry", "armour", "fleet", "uboat", "air")


LETTER = {"infantry": "I", "armour": "C", "fleet": "F", "uboat": "U", "air": "A", "supply": "S"}


# ------------------------------------------------------------------------------ 11.8, 11.9 the Soviet specials
MODERNISE_TYPES = ("infantry", "armour", "air", "supply")


def modernised(state: dict, nation: str) -> dict[int, int]:
    """kind index -> counters of the kind made available by modernisation (11.8)."""
    if nation != "USSR":
        return {}
    m = ((state.get("cards") or {}).get("ussr") or {}).get("modernised") or {}
    return {int(k): int(v) for k, v in m.items()}


class _Pool:
    """The nation's counters not on the map, as a counter mix for setup.group()."""

    def __init__(self, ctx: Ctx, nation: str, slots: int):
        self.stacking_default = slots
        used: dict[int, int] = {}
        for c in ctx.counters.values():
            if c["nation"] == nation and c["at"] != "pool":
                used[c["kind"]] = used.get(c["kind"], 0) + 1
        mod = modernised(ctx.state, nation)
        karelia = "karelia" in (ctx.state.get("flags") or {})    # clar. 5: the Karelia counters (pbem/blitzwar/dated.py)
        key = (nation, tuple(sorted(used.items())), tuple(sorted(mod.items())), karelia)
        self.key = key
        kept = _POOLS.get(key)
        if kept is not None and kept[0] is ctx.rs:
            self.counters = {nation: kept[1]}
            return
        # a withheld Soviet counter made available by modernisation (11.8) counts as one of the start
        kinds = [replace(k, available="start",
                         count=max(0, (k.count if k.available == "start" or (k.available == "karelia" and karelia)
                                       else mod.get(i, 0)) - used.get(i, 0)))
                 for i, k in enumerate(ctx.rs.counters.get(nation, []))]
        if len(_POOLS) > 512:
            _POOLS.clear()
        _POOLS[key] = (ctx.rs, kinds)
        self.counters = {nation: kinds}


#: the pool's counter kinds (frozen, read only) by what they follow from: (nation, counters of
#: each kind on the map, modernised kinds, Karelia's counters out) -> (world, kinds)
_POOLS: dict[tuple, tuple[Any, list]] = {}


def zone_slots(ctx: Ctx, zone: str, type_: str) -> int:
    if type_ not in ("infantry", "armour"):
        return 99
    kind, lim = stack_limit(ctx, zone)
    if lim is None:
        return 99
    # the zone's land counters (land_counters), in one pass: a count and a sum need no order
    land = [c for c in ctx.counters.values() if c["at"] == zone and c["type"] in LAND]
    if kind == "corps":
        return max(0, lim - sum(int(c["units"]) for c in land))
    return max(0, lim - len(land))


def fit(ctx: Ctx, nation: str, zone: str, need: dict, *, convert: bool, pool: bool = True,
        room: bool = True) -> tuple[list[dict] | None, dict]:
    """The counters that hold the most of ``need`` ({I, C} or {A}/{F}/{U}) in ``zone`` (armour
    turned to infantry if ``convert``, 11.5), and what they hold."""
    marks = frozenset(ctx.state.get("marks") or [])
    land = "I" in need or "C" in need
    slots = zone_slots(ctx, zone, "infantry" if land else "air") if room else 99
    if land and room and ctx.rs.zones[zone].corps_limit is not None:
        i, c = need.get("I", 0), need.get("C", 0)
        corps_room = slots
        need = {"I": min(i, corps_room), "C": min(c, max(0, corps_room - min(i, corps_room)))}
        slots = 99
    if land and room and (slots == 0 or not (need.get("I") or need.get("C"))):
        return [], {"I": 0, "C": 0}     # no room (4): what group() and _under_strength would find
    src = _Pool(ctx, nation, slots)
    # what follows reads only the pool's kinds (its key), the room and the arguments: the same
    # question (the validating run of the phase, then its run; a zone asked again in the next
    # pass of the default placement) is answered from what it found, as fresh copies
    key = (src.key if pool else ("printed", nation), zone, tuple(sorted(need.items())), convert, slots, marks)
    kept = _FITS.get(key)
    if kept is not None and kept[0] is ctx.rs:
        return [dict(c) for c in kept[1]], dict(kept[2])
    if not pool:
        src.counters = {nation: [replace(k, count=k.count if k.available == "start" else 0) for k in ctx.rs.counters.get(nation, [])]}
    cs, got = _fit(src, nation, zone, need, convert, slots, marks)
    if len(_FITS) > 4096:
        _FITS.clear()
    _FITS[key] = (ctx.rs, [dict(c) for c in cs], dict(got))
    return cs, got


#: :func:`fit`'s answers past the room and the pool (read only): (pool key, zone, need, convert,
#: room, marks) -> (world, counters, what they hold)
_FITS: dict[tuple, tuple[Any, list[dict], dict]] = {}


def _fit(src: _Pool, nation: str, zone: str, need: dict, convert: bool, slots: int,
         marks: frozenset) -> tuple[list[dict], dict]:
    """:func:`fit` once the room and the pool are known: it reads nothing else."""
    land = "I" in need or "C" in need
    if land:
        n_inf, n_arm = need.get("I", 0), need.get("C", 0)
        best: tuple[list[dict], dict] = ([], {"I": 0, "C": 0})
        # the splits the pool can hold, found at once: group() asked only for the first of them
        can = reachable(src, nation, "land", marks, (n_inf + (n_arm if convert else 0), n_arm))
        for tot in range(n_inf + n_arm, 0, -1):
            for c in range(min(n_arm, tot), -1, -1):
                i = tot - c
                if i > n_inf + ((n_arm - c) if convert else 0) or (i, c) not in can:
                    continue
                cs = group(src, nation, [(zone, {"I": i, "C": c})], marks)
                if cs is not None:
                    best = (cs, {"I": i, "C": c})
                    break
            if best[0]:
                break
        return _under_strength(src, nation, zone, best, {"I": n_inf, "C": n_arm}, slots, marks)
    (letter, n), = need.items()
    can = reachable(src, nation, NOTATION[letter], marks, (n, 0))
    for m in range(n, 0, -1):
        if (m, 0) not in can:
            continue
        cs = group(src, nation, [(zone, {letter: m})], marks)
        if cs is not None:
            return cs, {letter: m}
    return [], {letter: 0}


def _under_strength(src: _Pool, nation: str, zone: str, best: tuple[list[dict], dict], need: dict,
                    slots: int, marks) -> tuple[list[dict], dict]:
    """Ruling repl-under-strength: corps the counters of the pool cannot hold exactly go into
    the smallest larger counter of their type left in the pool, below its printed strength, as
    a counter reduced by a loss stands (ruling combat-r6-reduced-counters); only corps with no
    counter of their type left are lost (11.5)."""
    cs, got = list(best[0]), dict(best[1])
    # what is still to place, by type (armour already turned to infantry counts as placed)
    left_i = max(0, need.get("I", 0) - got.get("I", 0))
    todo = {"I": left_i, "C": max(0, need.get("I", 0) + need.get("C", 0) - got.get("I", 0) - got.get("C", 0) - left_i)}
    for letter, type_ in (("I", "infantry"), ("C", "armour")):
        left = todo[letter]
        if left <= 0 or len(cs) >= slots:
            continue
        used: dict[int, int] = {}
        for c in cs:
            used[c["kind"]] = used.get(c["kind"], 0) + 1
        kinds = [(k.units_on(marks), i, k) for i, k in enumerate(src.counters.get(nation, []))
                 if k.type == type_ and not k.elite and k.units_on(marks) > left and k.count - used.get(i, 0) > 0]
        if not kinds:
            continue
        _, i, k = min(kinds, key=lambda x: (x[0], x[1]))
        c = make_counter(k, i, zone, marks)
        c["units"] = left
        cs.append(c)
        got[letter] = got.get(letter, 0) + left
    return cs, got


def put(ctx: Ctx, cs: list[dict]) -> list[str]:
    """Counters onto the map: a counter of the same kind in the pool first (its id), else a new id."""
    out = []
    for c in cs:
        k = ctx.rs.counters[c["nation"]][c["kind"]]
        stem = kind_key(k)
        back = sorted(x for x, v in ctx.counters.items() if v["at"] == "pool" and v["nation"] == c["nation"] and v["kind"] == c["kind"])
        if back:
            cid = back[0]
            for f in ("moved", "active", "strategic", "attacked", "entrenched", "out_of_supply", "spent", "flying"):
                ctx.counters[cid].pop(f, None)
            ctx.counters[cid].update(c)
        else:
            n = 1 + max([int(x.rsplit("-", 1)[1]) for x in ctx.counters if x.rsplit("-", 1)[0] == stem] or [0])
            cid = f"{stem}-{n}"
            ctx.counters[cid] = dict(c)
        out.append(cid)
    ctx.state["counters"] = dict(sorted(ctx.counters.items()))
    return out


FILL_TYPE = {"I": "infantry", "C": "armour", "F": "fleet", "U": "uboat"}


FILL_LETTER = {v: x for x, v in FILL_TYPE.items()}


def _fillable(ctx: Ctx, nation: str, zone: str) -> list[str]:
    """The nation's counters in ``zone`` of a type :func:`fill_reduced` tops up (one pass)."""
    return [cid for cid, c in ctx.counters.items()
            if c["at"] == zone and c["nation"] == nation and c["type"] in FILL_LETTER]


def reduced_room(ctx: Ctx, nation: str, zone: str, fillable: list[str] | None = None) -> list[tuple[str, str, int]]:
    """(counter, letter, corps it lacks) of the nation's counters in ``zone`` standing below the
    strength they may show now (11.6; combat-r6-reduced-counters, repl-under-strength); not
    white-tank or elite counters. ``fillable``: :func:`_fillable`, when the caller has it (the
    counters in the zone stay while their strength changes)."""
    marks = frozenset(ctx.state.get("marks") or [])
    out = []
    # one pass over the counters, the few in the zone sorted after (called per zone tried)
    for cid in _fillable(ctx, nation, zone) if fillable is None else fillable:
        c = ctx.counters[cid]
        lack = reduced_room_of(ctx, c, marks)
        if lack:
            out.append((cid, FILL_LETTER[c["type"]], lack))
    return sorted(out)


def fill_reduced(ctx: Ctx, nation: str, zone: str, need: dict, *, convert: bool) -> tuple[list[str], dict]:
    """Ruling repl-fill-reduced (11.5, 11.10): replacement units for which the pool has no
    counter left top up the nation's counters of their type standing below strength in the
    zone (armour as infantry if ``convert``), within a corps limit (4); returns the counters
    filled and what they took ({I, C} or {F}/{U})."""
    left = {k: int(v) for k, v in need.items() if int(v) > 0}
    if not left:
        return [], {}       # nothing left to top up with (most calls: the pool held it all)
    kind, lim = stack_limit(ctx, zone)
    room = zone_slots(ctx, zone, "infantry") if kind == "corps" else 99
    got: dict[str, int] = {}
    ids: list[str] = []
    fillable = _fillable(ctx, nation, zone)      # (topping up moves no counter)
    for src, into in (("I", "I"), ("C", "C"), ("C", "I"), ("F", "F"), ("U", "U")):
        if src != into and not convert:
            continue
        for cid, letter, lack in reduced_room(ctx, nation, zone, fillable):
            n = min(lack, left.get(src, 0), room if letter in "IC" else 99)
            if letter != into or n <= 0:
                continue
            ctx.counters[cid]["units"] = int(ctx.counters[cid]["units"]) + n
            left[src] -= n
            got[into] = got.get(into, 0) + n
            room -= n if letter in "IC" else 0
            ids += [] if cid in ids else [cid]
    return ids, got


def reduced_room_of(ctx: Ctx, c: dict, marks: frozenset | None = None) -> int:
    """The corps a counter lacks of the strength it may show now (0: none; white-tank and elite
    counters are never topped up). ``marks``: the calendar marks, when the caller has them."""
    k = ctx.rs.counters[c["nation"]][c["kind"]]
    if marks is None:
        marks = frozenset(ctx.state.get("marks") or [])
    lack = k.units_on(marks) - int(c["units"])
    return lack if lack > 0 and not k.elite else 0


def _put_minor(ctx: Ctx, code: str, zone: str, units: dict) -> list[str]:
    """The minor's units into counters of its mix in ``zone`` (what the mix cannot hold is lost, 11.5)."""
    placed: list[str] = []
    for t, n in units.items():
        if t not in PLACE_TYPES or not n:
            continue
        need = {"I": n, "C": 0} if t == "infantry" else ({"I": 0, "C": n} if t == "armour" else {LETTER[t]: n})
        cs, got = fit(ctx, code, zone, need, convert=True)
        if cs:
            placed += put(ctx, cs)
        rest = {k: v - got.get(k, 0) for k, v in need.items()}
        if rest.get("I", 0) < 0:      # armour turned to infantry
            rest = {"I": 0, "C": rest["C"] + rest["I"]}
        placed += [c for c in fill_reduced(ctx, code, zone, rest, convert=True)[0] if c not in placed]   # ruling repl-fill-reduced
    return placed
