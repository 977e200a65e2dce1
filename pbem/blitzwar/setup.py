"""The campaign's first state: the set-up of late summer 1939 (19) grouped into counters of the mix
(3), the two- or three-player sides (2), supply held, who is at war (9).

Grouping (19 lets the owner group a zone's units into counters "as he likes"; pbem needs one
default, rules/blitzwar/rulings.yaml ``setup-grouping``): in every zone, the fewest counters of
the nation's mix that hold exactly the units placed there, larger counters first; a nation's
zones are grouped in the order of the set-up file and never use more counters of a kind than
the mix has.

Supply (7; ruling ``setup-supply``): supply units set up in a supply source of the owner's side
are the side's supply held there (``supply``); supply units anywhere else are supply counters.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Protocol

from .context import fmt_supply
from .sequence import acting_players_of, first_phase
from .standing import keys_for
from .world import NOTATION, CounterKind, World

LETTER = {"infantry": "i", "armour": "c", "white-tank": "w", "air": "a", "fleet": "f", "uboat": "u", "supply": "s"}


def kind_key(k) -> str:
    """The id stem of a counter kind: nation, type letter, units, ``t`` for an entrenched
    reverse, ``e`` for elite (e.g. ``ger-i1t``, ``uk-i3``)."""
    return f"{k.nation.lower()}-{LETTER[k.type]}{k.units}" + ("t" if k.back == "entrenched" else "") + ("e" if k.elite else "")


def _combos(kinds, left, need, limit):
    """Counts per kind making exactly ``need`` (infantry, armour) / (units, 0), fewest counters
    first, larger counters before smaller ones."""
    res = []

    def rec(i, rest, used, acc):
        if rest == (0, 0):
            res.append(tuple(acc + [0] * (len(kinds) - i)))
            return
        if i == len(kinds) or used == limit:
            return
        ci, ca = kinds[i]
        n = 0
        while n <= left[i] and used + n <= limit and rest[0] - n * ci >= 0 and rest[1] - n * ca >= 0:
            rec(i + 1, (rest[0] - n * ci, rest[1] - n * ca), used + n, acc + [n])
            n += 1
            if ci == 0 and ca == 0:
                break
    rec(0, need, 0, [])
    res.sort(key=lambda c: (sum(c), [-x for x in c]))
    return res


class CounterMix(Protocol):
    """What :func:`group` reads of a counter mix: the World's (3), or a nation's counters not on
    the map (replacements.py's pool, 11.5)."""
    counters: dict[str, list[CounterKind]]
    stacking_default: int


def _group_kinds(w: CounterMix, nation: str, gname: str, marks) -> tuple[list, list[tuple[int, int]], int]:
    """The counter kinds of the mix :func:`group` uses for one group of types (``land``, or a
    type of another group): [(kind index, kind)], their sizes as (units, armour) demands are
    written, and the most counters one demand may take."""
    kinds = [(i, k) for i, k in enumerate(w.counters.get(nation, [])) if k.available == "start"]
    if gname == "land":
        ks = [(i, k) for i, k in kinds if k.land]
        return ks, [k.land_units_on(marks) for _, k in ks], w.stacking_default
    ks = [(i, k) for i, k in kinds if k.type == gname]
    return ks, [(k.units_on(marks), 0) for _, k in ks], 99


def reachable(w: CounterMix, nation: str, gname: str, marks, bound: tuple[int, int]) -> frozenset[tuple[int, int]]:
    """The demands (a, b), a <= bound[0] and b <= bound[1], that :func:`group` can hold exactly
    with the mix for one zone (one demand): a single pass instead of asking :func:`group`
    demand by demand (the replacement placement tries every split of what it places, 11.5)."""
    ks, sizes, limit = _group_kinds(w, nation, gname, marks)
    return _reachable(tuple((s, k.count) for s, (_, k) in zip(sizes, ks)), limit, bound)


@lru_cache(maxsize=4096)
def _reachable(kinds: tuple[tuple[tuple[int, int], int], ...], limit: int,
               bound: tuple[int, int]) -> frozenset[tuple[int, int]]:
    """Bounded knapsack over ``kinds`` ((size, count) each): every sum within ``bound`` made
    of at most ``limit`` counters, each kind at most ``count`` times (what :func:`_combos`
    finds a combination for)."""
    fewest = {(0, 0): 0}
    for (ci, ca), count in kinds:
        if ci == 0 and ca == 0:
            continue
        more = dict(fewest)
        for (a, b), used in fewest.items():
            for n in range(1, count + 1):
                x, y, u = a + n * ci, b + n * ca, used + n
                if x > bound[0] or y > bound[1] or u > limit:
                    break
                if more.get((x, y), limit + 1) > u:
                    more[(x, y)] = u
        fewest = more
    return frozenset(fewest)


def group(w: CounterMix, nation: str, zones: list[tuple[str, dict]], marks) -> list[dict] | None:
    """Counters (dicts of the state) for a nation's placements ``zones`` [(zone, {letter: n})],
    or None if they cannot be grouped within the mix."""
    out: list[dict] = []
    for gname in ("land", "air", "fleet", "uboat", "supply"):
        if gname == "land":
            demands = [(z, (u.get("I", 0), u.get("C", 0))) for z, u in zones if u.get("I", 0) or u.get("C", 0)]
        else:
            letter = next(a for a, t in NOTATION.items() if t == gname)
            demands = [(z, (u.get(letter, 0), 0)) for z, u in zones if u.get(letter, 0)]
        if not demands:
            continue
        ks, sizes, limit = _group_kinds(w, nation, gname, marks)
        # larger counters first
        order = sorted(range(len(ks)), key=lambda j: (-(sizes[j][0] + sizes[j][1]), j))
        ks = [ks[j] for j in order]
        sizes = [sizes[j] for j in order]
        memo: dict = {}

        def go(d: int, left: tuple[int, ...], demands=demands, memo=memo, sizes=sizes, limit=limit, ks=ks):
            if d == len(demands):
                return ()
            key = (d, left)
            if key in memo:
                return memo[key]
            res = None
            for c in _combos(sizes, left, demands[d][1], limit):
                rest = go(d + 1, tuple(left[j] - c[j] for j in range(len(ks))))
                if rest is not None:
                    res = (c,) + rest
                    break
            memo[key] = res
            return res
        plan = go(0, tuple(k.count for _, k in ks))
        if plan is None:
            return None
        for (zone, _), counts in zip(demands, plan):
            for j, n in enumerate(counts):
                for _ in range(n):
                    out.append(make_counter(ks[j][1], ks[j][0], zone, marks))
    return out


def make_counter(k, kind_index: int, zone: str, marks) -> dict:
    c = {"nation": k.nation, "type": k.type, "kind": kind_index, "units": k.units_on(marks), "at": zone}
    if k.type == "white-tank":
        c["infantry"], c["armour"] = k.infantry, k.armour
    if k.elite:
        c["elite"] = True
    return c


def name_counters(w: World, counters: list[dict]) -> dict[str, dict]:
    """Stable ids: ``<kind key>-<n>``, numbered per kind in set-up order."""
    seen: dict[str, int] = {}
    out: dict[str, dict] = {}
    for c in counters:
        stem = kind_key(w.counters[c["nation"]][c["kind"]])
        seen[stem] = seen.get(stem, 0) + 1
        out[f"{stem}-{seen[stem]}"] = c
    return out


def initial_war(w: World) -> dict[str, str]:
    return {c: (v.side if v.side in ("axis", "allies", "ussr") else "neutral") for c, v in sorted(w.countries.items())}


def place_choice(w: World, choice: dict, zones: dict[str, dict], marks) -> list[dict] | None:
    units = [(z, {k: int(v) for k, v in u.items() if k in NOTATION and int(v) > 0}) for z, u in zones.items()]
    return group(w, choice["nation"], units, marks)


def initial_position(w: World) -> dict:
    marks = w.marks_by(w.first_turn)
    by_nation: dict[str, list[tuple[str, dict]]] = {}
    for p in w.placements:
        by_nation.setdefault(p.nation, []).append((p.zone, dict(p.units)))
    war = initial_war(w)
    supply = {s: Fraction(0) for s in w.side_order}
    placed: list[dict] = []
    for n, zones in by_nation.items():
        side = war.get(n, "neutral")
        kept = []
        for z, u in zones:
            u = dict(u)
            if u.get("S") and side in supply and w.zones[z].supply_source == side:
                supply[side] += u.pop("S")
            kept.append((z, u))
        cs = group(w, n, kept, marks)
        if cs is None:
            raise ValueError(f"the set-up of {n} does not fit its counter mix (pbem data check)")
        placed += cs
    for ch in w.choices:
        cs = place_choice(w, ch, ch["default"]["zones"], marks)
        if cs is None:
            raise ValueError(f"the default of choice {ch['id']} does not fit the mix")
        placed += cs
    counters = name_counters(w, placed)
    return {
        "sides": {},
        "counters": counters,
        "control": {},
        "supply": {s: fmt_supply(v) for s, v in supply.items()},
        "war": war,
        "marks": sorted(marks),
        "flags": {},
        "setup_choices": {ch["id"]: "default" for ch in w.choices},
    }


def sides_of_players(w: World, players) -> dict[str, str]:
    """side -> player: the mode (three or two players) whose players were given (2)."""
    for mode in ("three", "two"):
        m = w.player_modes[mode]
        if set(m) == set(players):
            return {side: p for p, sides in m.items() for side in sides}
    raise ValueError(f"no player mode for {sorted(players)}")


def initial_state(w: World, *, campaign, players, commitment, algorithm, options, engine_version, standing=None) -> dict:
    st = {
        "schema": "pbem/state/v1", "game": "blitzwar", "campaign": campaign, "scenario": w.scenario_id,
        "ruleset": {"id": "blitzwar", "version": "1", "digest": w.digest}, "engine": engine_version,
        "dice": {"algorithm": algorithm, "commitment": commitment}, "players": dict(sorted(players.items())),
        "options": {}, "step": 0, "previous": None, "turn": w.first_turn, "phase": "",
        "awaiting": None, "standing": {p: {k: v for k, v in (standing or {}).items() if k in keys_for(p)} for p in sorted(players)}, "pending": [], "result": None,
    }
    pos = initial_position(w)
    pos["sides"] = {s: p for s, p in sorted(sides_of_players(w, players).items())}
    st.update(pos)
    st["phase"] = first_phase(w, st)
    aw = [{"player": p, "for": "orders"} for p in acting_players_of(w, st)]
    st["awaiting"] = aw[0] if len(aw) == 1 else aw
    return st
