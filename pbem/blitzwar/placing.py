"""Counters onto the map (11.5, 11.2, 11.8): a nation's pool as a counter mix, what fits in a
zone, full-strength counters first and reduced ones filled (ruling repl-fill-reduced), a minor
country's units placed in its mix.

The layer below the replacement phase (pbem/blitzwar/replacements.py), which re-exports these
names: the diplomacy phase's dated events (dated.py), Vichy (vichy.py) and the partisans
(partisans.py) put counters on the map too, and they stand below the replacement phase
(issue 30: the layers by rulebook chapter)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .context import LAND, Ctx, add_counter, placed, sorted_counters
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


class _Index:
    """The counters by nation, and each nation's counters of each kind off the map (``pool``)
    and not, from one pass, for one placement (:func:`indexed`; the counters by place are
    context.placed's, kept as every rule moves and adds them): the default
    placement tries zone after zone, kind after kind (11.5), and each try read every counter of
    the game again while only the few it puts changed. Only :func:`put` moves counters while
    it holds (it keeps the index current); :func:`fill_reduced` changes a counter's strength,
    which is read from the counter itself, never kept here."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.counters = ctx.counters        # the dict indexed (put replaces it: followed)
        self.of: dict[str, list[str]] = {}
        self.used: dict[str, dict[int, int]] = {}
        self.pool: dict[tuple[str, int], list[str]] = {}
        self.zones: dict[tuple, list[str]] = {}      # allowed_zones (replacements.py) by its arguments
        self.stems: dict[str, int] = {}              # id stem -> its highest number (:meth:`last`)

    def nation(self, nation: str) -> dict[int, int]:
        """kind -> the nation's counters of the kind not in the pool; its counters, and those in
        the pool by kind, kept too (one pass, at the first question about the nation)."""
        used = self.used.get(nation)
        if used is None:
            used = self.used[nation] = {}
            mine = self.of[nation] = [cid for cid, c in self.counters.items() if c["nation"] == nation]
            for cid in mine:
                c = self.counters[cid]
                if c["at"] == "pool":
                    self.pool.setdefault((nation, c["kind"]), []).append(cid)
                else:
                    used[c["kind"]] = used.get(c["kind"], 0) + 1
        return used

    def last(self, stem: str) -> int:
        """:func:`last_number` of the counters' ids for ``stem``, read once per stem (only
        :func:`put` adds ids while the index holds, and it records the numbers it gives)."""
        n = self.stems.get(stem)
        if n is None:
            n = self.stems[stem] = last_number(self.counters, stem)
        return n

    def mine(self, nation: str) -> list[str]:
        """The ids of the nation's counters."""
        self.nation(nation)
        return self.of[nation]

    def pooled(self, nation: str, kind: int) -> list[str]:
        """The nation's counters of the kind in the pool."""
        self.nation(nation)
        return self.pool.get((nation, kind), [])

    def add(self, cid: str, c: dict) -> None:
        """A new counter, put on the map (a nation not asked about yet, places not yet: found
        by its pass)."""
        used = self.used.get(c["nation"])
        if used is not None:
            self.of[c["nation"]].append(cid)
            used[c["kind"]] = used.get(c["kind"], 0) + 1

    def from_pool(self, cid: str) -> None:
        """A counter of the pool put on the map (``at`` was ``pool``; nation and kind kept)."""
        c = self.counters[cid]
        used = self.used.get(c["nation"])
        if used is not None:
            self.pool[(c["nation"], c["kind"])].remove(cid)
            used[c["kind"]] = used.get(c["kind"], 0) + 1


#: the index of the placement under way (:func:`indexed`), None outside one
_ACTIVE: _Index | None = None


@contextmanager
def indexed(ctx: Ctx) -> Iterator[None]:
    """A stretch of the replacement phase in which only :func:`put` moves counters and only
    :func:`fill_reduced` changes them (a major nation's placement, 11.5): the pool, the zones'
    stacks and the reduced counters are read from one index (:class:`_Index`) instead of a scan
    of every counter at each zone tried; nothing else (no control, no supply) changes either."""
    global _ACTIVE
    ix = _ACTIVE
    if ix is not None and ix.ctx is ctx and ix.counters is ctx.counters:
        yield           # within a placement already: its index (kept current by put) holds
        return
    outer, _ACTIVE = _ACTIVE, _Index(ctx)
    try:
        yield
    finally:
        _ACTIVE = outer


def _index(ctx: Ctx) -> _Index | None:
    """The index of the placement under way if it is ``ctx``'s and still its counters'."""
    ix = _ACTIVE
    if ix is None or ix.ctx is not ctx or ix.counters is not ctx.counters:
        return None
    return ix


def _used(ctx: Ctx, nation: str) -> dict[int, int]:
    """kind index -> the nation's counters of the kind not in the pool (on the map or out)."""
    ix = _index(ctx)
    if ix is not None:
        return ix.nation(nation)
    used: dict[int, int] = {}
    for c in ctx.counters.values():
        if c["nation"] == nation and c["at"] != "pool":
            used[c["kind"]] = used.get(c["kind"], 0) + 1
    return used


def _in_zone(ctx: Ctx, zone: str) -> list[str]:
    """The ids of the counters at ``zone`` (context.placed: shared, to read)."""
    return placed(ctx.counters).get(zone, [])


class _Pool:
    """The nation's counters not on the map, as a counter mix for setup.group()."""

    def __init__(self, ctx: Ctx, nation: str, slots: int):
        self.stacking_default = slots
        used = _used(ctx, nation)
        mod = modernised(ctx.state, nation)
        karelia = "karelia" in (ctx.state.get("flags") or {})    # clar. 5: the Karelia counters (pbem/blitzwar/dated.py)
        self.key = key = (nation, tuple(sorted(used.items())), tuple(sorted(mod.items())), karelia)
        kept = _POOLS.get(key)
        if kept is not None and kept[0] is ctx.rs:
            self.counters = {nation: kept[1]}
            return
        # a withheld Soviet counter made available by modernisation (11.8) counts as one of the start
        kinds = [k.replace(available="start",
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
    # 4: the land counters of every nation there (as land.land_counters; the order is not needed)
    land = [c for c in _in_zone(ctx, zone) if ctx.counters[c]["type"] in LAND]
    if kind == "corps":
        return max(0, lim - sum(int(ctx.counters[c]["units"]) for c in land))
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
    # what follows depends on the pool, the room and the question only (the zone is only the
    # counters' place): the same question about the same pool is asked again (the placement's
    # next pass, the next zone with as much room, the phase run again to check later orders)
    # and answered once (copies: the counters made are the caller's)
    key = (src.key, marks, slots, tuple(sorted(need.items())), convert, pool)
    kept = _FITS.get(key)
    if kept is not None and kept[0] is ctx.rs:
        return [{**c, "at": zone} for c in kept[1]], dict(kept[2])
    cs, got = _fit(ctx, src, nation, zone, need, slots, marks, convert=convert, pool=pool)
    if len(_FITS) > 1024:
        _FITS.clear()
    _FITS[key] = (ctx.rs, [dict(c) for c in cs], dict(got))
    return cs, got


#: fit's answers by what they follow from: (the pool's key, marks, room, need, convert, pool)
#: -> (world, counters, what they hold)
_FITS: dict[tuple, tuple[Any, list[dict], dict]] = {}


def _fit(ctx: Ctx, src: _Pool, nation: str, zone: str, need: dict, slots: int, marks: frozenset, *,
         convert: bool, pool: bool) -> tuple[list[dict], dict]:
    """:func:`fit` once the room is known: the pool's counters for ``need`` in ``zone``."""
    land = "I" in need or "C" in need
    if not pool:
        src.counters = {nation: [k.replace(count=k.count if k.available == "start" else 0) for k in ctx.rs.counters.get(nation, [])]}
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
        return _under_strength(ctx, src, nation, zone, best, {"I": n_inf, "C": n_arm}, slots, marks)
    (letter, n), = need.items()
    can = reachable(src, nation, NOTATION[letter], marks, (n, 0))
    for m in range(n, 0, -1):
        if (m, 0) not in can:
            continue
        cs = group(src, nation, [(zone, {letter: m})], marks)
        if cs is not None:
            return cs, {letter: m}
    return [], {letter: 0}


def _under_strength(ctx: Ctx, src: _Pool, nation: str, zone: str, best: tuple[list[dict], dict], need: dict,
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
        ix = _index(ctx)
        back = (ix.pooled(c["nation"], c["kind"]) if ix is not None else
                [x for x, v in ctx.counters.items() if v["at"] == "pool" and v["nation"] == c["nation"] and v["kind"] == c["kind"]])
        if back:
            cid = min(back)
            for f in ("moved", "active", "strategic", "attacked", "entrenched", "out_of_supply", "spent", "flying"):
                ctx.counters[cid].pop(f, None)
            ctx.move(cid, c["at"])
            ctx.counters[cid].update(c)
            if ix is not None:
                ix.from_pool(cid)
        else:
            n = 1 + (ix.last(stem) if ix is not None else last_number(ctx.counters, stem))
            cid = f"{stem}-{n}"
            add_counter(ctx.counters, cid, dict(c))
            if ix is not None:
                ix.add(cid, ctx.counters[cid])
                ix.stems[stem] = n
        out.append(cid)
    # the counters sorted by id, the new ones among them (a campaign's first states keep the
    # scenario's order until a counter is put on the map: sorted even when none was added)
    ix = _index(ctx)
    ctx.state["counters"] = sorted_counters(ctx.counters)
    if ix is not None:
        ix.counters = ctx.counters      # the same counters, sorted anew: still indexed
    return out


def last_number(counters: dict[str, dict], stem: str) -> int:
    """The highest ``n`` of the counter ids ``<stem>-<n>`` (0: none): those whose last ``-``
    follows the stem (held to the ids split one by one by tests/blitzwar/test_placing_index.py).
    The ids are joined into one text, one a line, and the stem's lines found by the string
    search, not by a test of each id (30 -> 14 us a new counter, with 165 counters: issue 35); an id
    is a name without a line break (the state schema: ``^[a-z][a-z0-9-]*$``)."""
    text = "\n" + "\n".join(counters) + "\n"
    head = "\n" + stem + "-"
    k, best = len(head), 0
    i = text.find(head)
    while i >= 0:
        end = text.index("\n", i + 1)
        rest = text[i + k:end]
        if "-" not in rest:
            best = max(best, int(rest))
        i = text.find(head, end)
    return best


FILL_TYPE = {"I": "infantry", "C": "armour", "F": "fleet", "U": "uboat"}


FILL_LETTER = {v: x for x, v in FILL_TYPE.items()}


def _fillable(ctx: Ctx, nation: str, zone: str) -> list[str]:
    """The nation's counters in ``zone`` of a type :func:`fill_reduced` tops up (one pass)."""
    return [cid for cid in _in_zone(ctx, zone)
            if ctx.counters[cid]["nation"] == nation and ctx.counters[cid]["type"] in FILL_LETTER]


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
    fillable = _fillable(ctx, nation, zone)      # (topping up moves no counter)
    if not fillable:
        return [], {}       # no counter of the nation there to top up
    kind, lim = stack_limit(ctx, zone)
    room = zone_slots(ctx, zone, "infantry") if kind == "corps" else 99
    got: dict[str, int] = {}
    ids: list[str] = []
    lacks = None        # what the counters lack, worked out again after a counter is topped up
    for src, into in (("I", "I"), ("C", "C"), ("C", "I"), ("F", "F"), ("U", "U")):
        if src != into and not convert:
            continue
        if lacks is None:
            lacks = reduced_room(ctx, nation, zone, fillable)
        for cid, letter, lack in lacks:
            n = min(lack, left.get(src, 0), room if letter in "IC" else 99)
            if letter != into or n <= 0:
                continue
            ctx.counters[cid]["units"] = int(ctx.counters[cid]["units"]) + n
            lacks = None
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
