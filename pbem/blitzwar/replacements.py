"""Replacements (11): the phase 3.replacements (the cards it reveals are pbem/blitzwar/cards.py,
the supply losses of 11.3 pbem/blitzwar/supply_losses.py).

The replacement phase (from turn 2, 11.1) gives the minor powers and minor countries their
replacements first (11.2; 8, 11.1: that sub-phase comes before the major powers'), then reveals
each side's card of the turn, takes the supply losses (11.3: one per national strategic point
of the side occupied by the enemy; blockade 12.4 and strategic bombing 13.3 count 0 until their
rules come) and places the units (11.5; ``place:``, default below); Soviet modernisation (11.8, ``modernise:``) and the special Soviet
replacements (11.9) come before the placement; lend-lease (11.4, ``lend_lease:``) between the
Allied card and the Soviet placement (pbem/blitzwar/transport.py). The German elite units
(11.7) need the diplomacy rules (event ``later``). Rulings: rules/blitzwar/rulings.yaml ``card-*``, ``repl-*``.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..core.errors import Issue
from .cards import (
    MAJOR_NATION,
    card_of,
    free_cards,
    major_nations,
    pick_turns,
    picking_deck,
    reveal,
    seal_id,
    side_cards,
    summary,
    turn_card,
)
from .context import SIDES, Ctx, PhaseOrdersInvalid, has_surrendered, zone_controls
from .land import control, stack_limit
from .names import zone_guess
from .placing import (  # the mixes' counters onto the map: a layer below (issue 30)
    FILL_TYPE,
    LETTER,
    MODERNISE_TYPES,
    PLACE_TYPES,
    _index,
    _put_minor,
    _used,
    fill_reduced,
    fit,
    indexed,
    modernised,
    put,
    reduced_room,
    reduced_room_of,
)
from .setup import kind_key
from .supply import own_sources, sources
from .supply_losses import BRITISH_GIVEN_UP, strategic_losses, supply_losses
from .vichy import free_france_due
from .world import is_provisional

# 11.2: corps at each season start (mark minors-1) or winter and summer (minors-2)
MINORS_1 = ("POL", "RUM", "YUG", "SP", "TUR")
NO_REPLACEMENTS = ("DEN", "NOR", "VF")          # 11.2; 9.4: VFは、補充を受け取れない
ANYWHERE = ("FRA", "FIN", "GRE")


def run_replacements(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    """11.1 and 8 (phase 3): the sub-phases in their order, each by every side before the next
    (各サブ・フェイズ手順は、その順番通りに、各陣営プレイヤーによって執り行われてから、次の
    サブ・フェイズ手順に移ります): the minor powers' and minor countries' replacements (11.2)
    first, then the major powers' (the card, 11.8/11.9, the supply losses of 11.3, the placement
    of 11.5). Every problem of every side at once."""
    st = ctx.state
    issues: list[Issue] = []
    for player, o in sorted(orders_by_player.items()):
        p = o.get("_path", ("phases",))
        for key in ("place", "cover", "modernise"):
            for side in sorted(o.get(key) or {}):
                if st["sides"].get(side) != player:
                    issues.append(Issue("BW-PLACE-SIDE", f"{key}: the {side} side belongs to the {st['sides'].get(side)} player, not {player}",
                                        path=p + (key, side), text=side, rule="11.5"))
    if issues:
        ctx.refuse(issues)
    sides = [s for s in SIDES if s in st["sides"]]
    orders = {s: orders_by_player.get(st["sides"][s]) or {} for s in sides}
    paths: dict = {None: ("phases",)}
    paths.update({s: orders[s].get("_path", ("phases",)) + ("place", s) for s in sides})
    entries = {s: list((orders[s].get("place") or {}).get(s) or []) for s in sides}
    try:
        minor_replacements(ctx, orders_by_player, entries, paths)      # 11.2 first (8, 11.1)
    except PhaseOrdersInvalid as e:
        issues += e.issues
    lend: dict = {}     # 11.4: what the Allies send the USSR (transport.send_lend_lease)
    for side in sides:
        try:
            # every side's problems at once: a refusal of one side's orders does not hide the next one's
            _major(ctx, side, orders[side], entries[side], lend)
        except PhaseOrdersInvalid as e:
            issues += e.issues
    if issues:
        ctx.refuse(issues)
    from .partisans import run as partisans  # loaded when the phase runs, not by `pbem show` (start-up)
    partisans(ctx)      # 9.5: after every order of the phase is checked (its die)


def _major(ctx: Ctx, side: str, o: dict, entries: list, lend: dict | None = None) -> None:
    """11.3, 11.5, 11.8, 11.9: a major side's card revealed, its modernisations, the special
    Soviet replacements, its supply losses and its placement."""
    p = o.get("_path", ("phases",))
    units = {k: v for k, v in (reveal(ctx, side) or {}).items() if v}
    if units.get("modernisation"):
        modernise(ctx, side, units, list((o.get("modernise") or {}).get(side) or []), p + ("modernise", side))
    special = special_soviet(ctx, side)
    if special:
        units["infantry"] = int(units.get("infantry", 0)) + special
    units = supply_losses(ctx, side, units, list((o.get("cover") or {}).get(side) or []), p + ("cover", side))
    lend = {} if lend is None else lend
    from .transport import (  # loaded when the phase runs, not by `pbem show` (start-up)
        receive_lend_lease,
        send_lend_lease,
    )
    units = receive_lend_lease(ctx, side, send_lend_lease(ctx, side, units, o, p, lend), lend)     # 11.4
    place_major(ctx, side, units, entries, p + ("place", side))


def modernise(ctx: Ctx, side: str, units: dict, wanted: list, path: tuple) -> None:
    """11.8: each modernisation of the card makes one withheld Soviet counter available for good
    (``modernise: {ussr: [infantry | armour | air | supply, ...]}``; an air counter only when the
    card gives air). Default: the first kind of the mix still withheld (3-corps infantry, then
    armour, air, supply)."""
    w = ctx.rs
    sc = side_cards(ctx.state, side)
    mod = modernised(ctx.state, "USSR")
    kinds = [(i, k) for i, k in enumerate(w.counters.get("USSR", [])) if k.available == "modernisation"]
    n = int(units.get("modernisation", 0))
    if len(wanted) > n:
        ctx.refuse([Issue("BW-MODERNISE", f"{len(wanted)} modernisations named; the card gives {n} (11.8)", path=path, rule="11.8")])
    for j in range(n):
        def left(t):
            return [(i, k) for i, k in kinds if k.type == t and mod.get(i, 0) < k.count and (t != "air" or units.get("air"))]
        if j < len(wanted):
            t = wanted[j]
            if t not in MODERNISE_TYPES or not left(t):
                ctx.refuse([Issue("BW-MODERNISE", f"modernise {t}: no withheld Soviet {t} counter can come now (11.8"
                                  + (": air only with a card that gives air)" if t == "air" else ")"), path=path + (j,), text=str(t), rule="11.8",
                                  hint="withheld now: " + ", ".join(x for x in MODERNISE_TYPES if left(x)))])
            how = "order"
        else:
            t = next((x for x in MODERNISE_TYPES if left(x)), None)
            how = "default"
            if t is None:
                ctx.emit("modernised", rule="11.8", side=side, kind=None, how=how, text="nothing withheld is left")
                continue
        i, k = left(t)[0]
        mod[i] = mod.get(i, 0) + 1
        sc["modernised"] = {str(x): mod[x] for x in sorted(mod)}
        ctx.emit("modernised", rule="11.8", side=side, kind=kind_key(k), counter_type=t, how=how, available=mod[i])


def special_soviet(ctx: Ctx, side: str) -> int:
    """11.9: three turns after the first Axis attack on the USSR or East Poland the USSR gets 12
    infantry corps besides its card."""
    f = ctx.state.get("flags") or {}
    if side != "ussr" or f.get("first_attack_ussr") is None or ctx.turn != int(f["first_attack_ussr"]) + 3:
        return 0
    ctx.emit("special-soviet", rule="11.9", side=side, infantry=12, attacked=int(f["first_attack_ussr"]))
    return 12


# ------------------------------------------------------------------------------ 11.5 placement
def allowed_zones(ctx: Ctx, side: str, nation: str, type_: str) -> list[str]:
    """11.5: where a major nation's replacements of ``type_`` may be placed now (during a
    placement, worked out once: placing counters changes no zone's control, 5)."""
    ix = _index(ctx)
    if ix is None or type_ == "air":
        return _allowed_zones(ctx, side, nation, type_)
    key = (side, nation, type_, tuple(ctx.state.get("marks") or []))
    if key not in ix.zones:
        ix.zones[key] = _allowed_zones(ctx, side, nation, type_)
    return list(ix.zones[key])


def _allowed_zones(ctx: Ctx, side: str, nation: str, type_: str) -> list[str]:
    w = ctx.rs
    own = own_sources(ctx, side)
    if type_ in ("infantry", "armour", "supply"):
        if nation == "US":
            zs = [z for z in own if w.zones[z].country == "US"]
            if "us-replacements-britain" in set(ctx.state.get("marks") or []):
                zs += [z for z in own if w.zones[z].country == "UK" and w.zones[z].region == "europe"]
            return zs
        home = [z for z in own if w.zones[z].supply_nation == nation]
        return home + [z for z in own if z not in home]
    if type_ in ("fleet", "uboat"):
        bases = [z.id for z in w.zones.values() if z.naval_base]
        zs = [z for z, c in zip(bases, zone_controls(w, ctx.state, bases)) if c == side]
        if nation == "US":
            zs = [z for z in zs if w.zones[z].country == "US"] + ([z for z in zs if w.zones[z].country == "UK" and w.zones[z].region == "europe"]
                                                                if "us-replacements-britain" in set(ctx.state.get("marks") or []) else [])
        home = [z for z in zs if w.zones[z].country == nation]
        return home + [z for z in zs if z not in home]
    return list(_air_zones(ctx, side, nation, own))


def _air_zones(ctx: Ctx, side: str, nation: str, own: list[str] | None = None) -> Iterator[str]:
    """11.5: the zones air replacements may go to, in the order the default tries them: any
    supplied land zone of the side, its supply sources first (American ones where American land
    replacements go). A generator: the default stops at the first that takes them, before the
    supply of every other zone is traced."""
    if nation == "US":
        yield from allowed_zones(ctx, side, nation, "infantry")
        return
    w = ctx.rs
    if own is None:
        own = own_sources(ctx, side)
    yield from own
    mine = set(own)
    for z in sorted(w.zones):
        if z not in mine and control(ctx, z) == side and zone_in_supply(ctx, side, z):
            yield z


def zone_in_supply(ctx: Ctx, side: str, zone: str) -> bool:
    """11.5, 7: a land zone is in supply when a supply line from it reaches one of the side's
    supply sources or one of its supply counters (補給拠点ゾーンと補給コマから供給される)."""
    src, counters = sources(ctx, side, zone)
    return src or bool(counters)


def air_zone_ok(ctx: Ctx, side: str, nation: str, zone: str) -> bool:
    """11.5: air replacements go to any land zone the side controls in supply (7, note: 自軍支配下
    のゾーン); American ones where American land replacements go."""
    if nation == "US":
        return zone in allowed_zones(ctx, side, nation, "infantry")
    return zone in ctx.rs.zones and control(ctx, zone) == side and zone_in_supply(ctx, side, zone)


def _split_allies(ctx: Ctx, side: str, units: dict, entries: list) -> dict[str, dict]:
    """nation -> units of the card: the whole Allied limited card is British; on a total card
    one infantry (else armour) corps is British, the rest American (11.5); armour when the
    player places a British armour corps and no British infantry."""
    nat = MAJOR_NATION[side]
    if side != "allies":
        return {nat: dict(units)}
    card = turn_card(ctx, side)
    if card is None or card.kind != "total":
        return {"UK": dict(units)}
    # clarification 4: a corps of the card given up for supply losses was the British one
    n = max(0, (ctx.rs.decks[("allies", "total")].british_corps or 1) - int(units.get(BRITISH_GIVEN_UP, 0)))
    uk: dict = {}
    us = dict(units)
    uk_named = [e for e in entries if isinstance(e, dict) and e.get("nation") == "UK"]
    first = ("armour", "infantry") if any(e.get("armour") for e in uk_named) and not any(e.get("infantry") for e in uk_named) \
        else ("infantry", "armour")
    for k in first:
        take = min(n, int(us.get(k, 0)))
        if take:
            uk[k] = take
            us[k] = int(us[k]) - take
            n -= take
    return {"UK": uk, "US": us}


def place_major(ctx: Ctx, side: str, units: dict, entries: list, path: tuple) -> None:
    supply = int(units.get("supply", 0))
    if supply:
        # 11.5, ruling setup-supply: supply placed at the side's sources joins the supply held
        ctx.set_supply(side, ctx.supply(side) + supply)
        ctx.emit("supply-received", rule="11.5", side=side, supply=supply, held=ctx.state["supply"][side])
    by_nation = _split_allies(ctx, side, units, entries)
    nations = list(by_nation)
    issues: list[Issue] = []
    # the player's placements first (each checked), then the default for what is left
    plan: list[tuple[str, str, str, int, str]] = []     # nation, zone, type, n, how
    left = {n: {k: int(v) for k, v in u.items() if k in PLACE_TYPES and v} for n, u in by_nation.items()}
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or (e.get("nation") in ctx.rs.countries and ctx.rs.countries[e["nation"]].kind != "major"):
            continue   # a minor's placement (11.2)
        # unnamed entries: American on an Allied total card (the British corps: nation UK), else the side's nation
        nation = e.get("nation") or ("US" if "US" in by_nation else nations[0])
        zone = e.get("zone")
        if nation not in by_nation:
            issues.append(Issue("BW-PLACE-NATION", f"no {nation} replacements on the {side} card this turn (11.5)",
                                path=path + (i, "nation"), text=str(nation), rule="11.5", hint="nations now: " + ", ".join(nations)))
            continue
        for t in PLACE_TYPES:
            n = int(e.get(t) or 0)
            if not n:
                continue
            # every problem at once: the count and the zone are both checked; units placed in a
            # wrong zone are spoken for all the same (the next entry is not blamed for them)
            bad = False
            if n > left[nation].get(t, 0):
                issues.append(Issue("BW-PLACE-TOO-MANY", f"{n} {t} of {nation} placed; only {left[nation].get(t, 0)} {t} of "
                                    f"{nation} are left to place from the card of turn {ctx.turn} (11.3, 11.5)", path=path + (i, t), rule="11.5",
                                    hint="place what the card gives; the rest gets the default placement"))
                bad = True
            ok = isinstance(zone, str) and (air_zone_ok(ctx, side, nation, zone) if t == "air"
                                            else zone in allowed_zones(ctx, side, nation, t))
            if not ok:
                where = {"air": "a land zone of the side in supply", "fleet": "a naval base of the side",
                         "uboat": "a naval base of the side"}.get(t, "a supply source of the side")
                possible = allowed_zones(ctx, side, nation, t)
                guess = zone_guess(ctx.rs, zone, possible) if zone not in ctx.rs.zones else ""
                issues.append(Issue("BW-PLACE-ZONE", f"{zone}: {nation} {t} replacements go to {where}{guess} (11.5)",
                                    path=path + (i, "zone"), text=str(zone), rule="11.5",
                                    hint="possible: " + ", ".join(possible[:12])))
                bad = True
            left[nation][t] = max(0, left[nation].get(t, 0) - n)
            if bad or not isinstance(zone, str):     # (no zone named: refused above, BW-PLACE-ZONE)
                continue
            plan.append((nation, zone, t, n, "order"))
    if issues:
        ctx.refuse(issues)
    # group the player's entries zone by zone (land types together); from here only the
    # placement moves counters (the pool, the stacks read from one index: placing.indexed)
    with indexed(ctx):
        back = _apply_plan(ctx, side, plan, path)
        for nation in nations:
            for t, n in back.get(nation, {}).items():
                left[nation][t] = left[nation].get(t, 0) + n
            _default(ctx, side, nation, left[nation])


def _apply_plan(ctx: Ctx, side: str, plan: list, path: tuple) -> dict[str, dict]:
    """The player's placements, zone by zone; returns what the counter mix could not hold
    there (nation -> {type: n}), for the default placement to try elsewhere (11.5)."""
    by: dict[tuple[str, str], dict] = {}
    for nation, zone, t, n, _how in plan:
        d = by.setdefault((nation, zone), {})
        d[t] = d.get(t, 0) + n
    back: dict[str, dict] = {}
    missed: dict[str, dict] = {}
    for (nation, zone), d in by.items():
        land = {"I": d.get("infantry", 0), "C": d.get("armour", 0)}
        if land["I"] or land["C"]:
            # refused only when the zone's limit (4) is what keeps units out, not the mix (11.5)
            _, fits = fit(ctx, nation, zone, land, convert=False, pool=False)
            _, anywhere = fit(ctx, nation, zone, land, convert=False, pool=False, room=False)
            lack = {k: sum(n for _, x, n in reduced_room(ctx, nation, zone) if x == k and stack_limit(ctx, zone)[0] != "corps")
                    for k in ("I", "C")}
            if fits != anywhere and any(anywhere[k] - fits[k] > lack[k] for k in ("I", "C")):
                there = [f"{c} ({ctx.counters[c]['nation']} {ctx.counters[c]['type']} {ctx.counters[c]['units']})"
                         for c in ctx.in_zone(zone) if ctx.counters[c]["type"] in ("infantry", "armour", "white-tank")]
                ctx.refuse([Issue("BW-PLACE-STACK", f"{zone}: {land['I']} infantry and {land['C']} armour corps of {nation} do not fit "
                                  f"the stacking limit there (4); standing there now: {', '.join(there) or 'nothing'}",
                                  path=path, text=zone, rule="4",
                                  hint="place them in several zones; pbem show lists what stands where")])
            got = _place(ctx, side, nation, zone, land, "order", convert=False, fill=True)
            for t, k in (("infantry", "I"), ("armour", "C")):
                if land[k] - got.get(k, 0):
                    back.setdefault(nation, {})[t] = back.get(nation, {}).get(t, 0) + land[k] - got.get(k, 0)
                    missed.setdefault(nation, {})[t] = missed.get(nation, {}).get(t, 0) + land[k] - got.get(k, 0)
        for t in ("air", "fleet", "uboat"):
            if d.get(t):
                got = _place(ctx, side, nation, zone, {LETTER[t]: d[t]}, "order", convert=False, fill=True)
                if d[t] - got.get(LETTER[t], 0):
                    back.setdefault(nation, {})[t] = back.get(nation, {}).get(t, 0) + d[t] - got.get(LETTER[t], 0)
                    missed.setdefault(nation, {})[t] = missed.get(nation, {}).get(t, 0) + d[t] - got.get(LETTER[t], 0)
        for nat, units in missed.items():
            # the player's placement the counter mix cannot hold there goes to the default: say so,
            # or the report calls the player's own units a default placement without a reason
            ctx.emit("replacements-not-held", rule="11.5", side=side, nation=nat, zone=zone, units=units)
        missed = {}
    return back


def _place(ctx: Ctx, side: str, nation: str, zone: str, need: dict, how: str, *, convert: bool,
           fill: bool = False) -> dict:
    cs, got = fit(ctx, nation, zone, need, convert=convert)
    ids = put(ctx, cs) if cs else []
    filled: list[str] = []
    if fill:
        # ruling repl-fill-reduced: what the pool cannot hold here tops up the nation's reduced counters here
        rest = {"I": need.get("I", 0) - got.get("I", 0), "C": need.get("C", 0) - got.get("C", 0)} if ("I" in need or "C" in need) \
            else {k: v - got.get(k, 0) for k, v in need.items()}
        if convert and "I" in rest and rest["I"] < 0:      # armour already turned to infantry by fit
            rest = {"I": 0, "C": rest["C"] + rest["I"]}
        filled, more = fill_reduced(ctx, nation, zone, rest, convert=convert)
        got = {k: got.get(k, 0) + more.get(k, 0) for k in set(got) | set(more)}
    if ids or filled:
        ctx.emit("replacements", rule="11.5", side=side, nation=nation, zone=zone, counters=ids + filled,
                 units={k: v for k, v in got.items() if v}, how=how, **({"filled": filled} if filled else {}))
    return got


def _default(ctx: Ctx, side: str, nation: str, rest: dict) -> None:
    """The default placement (always legal): land corps into the nation's supply sources in
    map order, as much as each holds (armour turned to infantry only when no zone takes it),
    fleets and U-boats into the first naval base, air onto the first source; what the counter
    mix cannot hold is lost (11.5)."""
    rest = {t: int(n) for t, n in rest.items() if int(n) > 0}
    if not rest:
        return
    need = {"I": rest.get("infantry", 0), "C": rest.get("armour", 0)}
    # counters of the pool first; then what they cannot hold tops up reduced counters (ruling
    # repl-fill-reduced); armour turned to infantry only when neither takes it as armour
    for fill, convert in ((False, False), (True, False), (False, True), (True, True)):
        if not (need["I"] or need["C"]):
            break
        # zones where nothing can be placed are passed over unasked (the same outcome, found
        # once): without a counter of the pool that holds any of it, only a zone with a reduced
        # counter to top up takes anything; asked again after each zone that takes some
        tried = _worth_trying(ctx, nation, need, convert, fill)
        for z in allowed_zones(ctx, side, nation, "infantry"):
            if not (need["I"] or need["C"]) or tried == set():
                break
            if tried is not None and z not in tried:
                continue
            got = _place(ctx, side, nation, z, need, "default", convert=convert, fill=fill)
            c_used = got.get("C", 0)
            i_used = got.get("I", 0)
            from_i = min(i_used, need["I"])
            need = {"I": need["I"] - from_i, "C": need["C"] - c_used - (i_used - from_i)}
            if any(got.values()) and (need["I"] or need["C"]):
                tried = _worth_trying(ctx, nation, need, convert, fill)
    lost = {}
    if need["I"] or need["C"]:
        lost.update({k: v for k, v in (("infantry", need["I"]), ("armour", need["C"])) if v})
    for t in ("fleet", "uboat", "air"):
        n = rest.get(t, 0)
        if not n:
            continue        # (nothing to place: the zones are not worked out)
        for fill in (False, True):
            if not n:
                break
            tried = _worth_trying(ctx, nation, {LETTER[t]: n}, False, fill)
            for z in (_air_zones(ctx, side, nation) if t == "air" else allowed_zones(ctx, side, nation, t)):
                if not n or tried == set():
                    break
                if tried is not None and z not in tried:
                    continue
                got = _place(ctx, side, nation, z, {LETTER[t]: n}, "default", convert=False, fill=fill)
                n -= got.get(LETTER[t], 0)
                if got.get(LETTER[t]) and n:
                    tried = _worth_trying(ctx, nation, {LETTER[t]: n}, False, fill)
        if n:
            lost[t] = n
    if lost:
        ctx.emit("replacements-lost", rule="11.5", side=side, nation=nation, units=lost, text=lost_why(ctx, side, nation, lost),
                 **mix_decided(ctx, nation, lost))


def _worth_trying(ctx: Ctx, nation: str, need: dict, convert: bool, fill: bool) -> set[str] | None:
    """The zones where the default's pass may place any of ``need``: None (every zone) when the
    pool has a counter that holds some of it (with room: the zone decides); else the zones of
    the nation's reduced counters when the pass tops them up (ruling repl-fill-reduced), or none.
    A zone's room only narrows what the pool gives (:func:`fit`), so a pool that holds nothing
    with unlimited room holds nothing anywhere."""
    cs, _ = fit(ctx, nation, "", need, convert=convert, room=False)
    if cs:
        return None
    types = {FILL_TYPE[k] for k in need if k in FILL_TYPE}
    if not fill or not types:
        return set()       # (air is never topped up)
    marks = frozenset(ctx.state.get("marks") or [])
    ix = _index(ctx)
    mine = (ctx.counters[x] for x in ix.mine(nation)) if ix is not None else ctx.counters.values()
    return {c["at"] for c in mine if c["nation"] == nation and c["type"] in types
            and c["at"] in ctx.rs.zones and reduced_room_of(ctx, c, marks)}


def _none_left(room: dict[str, int], lost: dict) -> list[str]:
    """The lost types no counter off the map can hold (armour fits an infantry counter, 11.5)."""
    return [t for t in lost if not room.get(t) and not (t == "armour" and room.get("infantry"))]


def mix_decided(ctx: Ctx, nation: str, lost: dict) -> dict:
    """``provisional`` for the replacements-lost event when the counter mix decided the loss
    (every counter of a type in play) and the mix's split is provisional (component data: the
    counter sheets are not public): the report says so, with the counters of those types."""
    prov = ctx.rs.nation_prov.get(nation)
    none = _none_left(mix_room(ctx, nation), lost)
    if not none or not is_provisional(prov):
        return {}
    kinds = [k for k in ctx.rs.counters.get(nation, []) if k.type in none or (k.type == "infantry" and "armour" in none)]
    mix = ", ".join(f"{k.count} x {k.type} {k.units}" + ("" if k.available == "start" else f" [{k.available}]")
                    for k in kinds if not k.elite) or "none"
    return {"provisional": [{"item": f"counter mix of {nation} for {' and '.join(none)}: {mix}",
                             "note": (prov or {}).get("note", "")}]}


def lost_why(ctx: Ctx, side: str, nation: str, lost: dict) -> str:
    """What kept the lost units out (11.5, 4): no counter of their type left off the map (the
    counters off the map named: the pool of surrendered countries' or of other types holds
    none for them), or counters left but no zone with room or none where they may go."""
    room = mix_room(ctx, nation)
    none = _none_left(room, lost)
    rest = [t for t in lost if t not in none]
    off = ", ".join(f"{t} {n}" for t, n in room.items() if n and t in PLACE_TYPES) or "nothing"
    parts = []
    if none:
        reduced = [t for t in none if t != "air"]
        parts.append(f"every {nation} {' and '.join(none)} counter of the mix is in play"
                     + (", none below strength where they may go" if reduced else "")
                     + f" (off the map, {nation} counters hold: {off})")
    for t in rest:
        where = {"fleet": "naval base", "uboat": "naval base"}.get(t, "supply source" if t != "air" else "supplied land zone")
        parts.append(f"{nation} counters that can hold {t} are left, but no {where} of the {side} has room for them (4)"
                     if allowed_zones(ctx, side, nation, t) else f"no {where} of the {side} to place {t} in")
    return "; ".join(parts) + ": lost"


# ------------------------------------------------------------------------------ 11.2 minors
def minor_due(ctx: Ctx, code: str) -> tuple[dict, str] | None:
    """(units, rule text) the minor power or minor country receives this turn (11.2)."""
    marks = set(ctx.rs.turns[ctx.turn].marks)
    war = ctx.state.get("war", {}).get(code, "neutral")
    if code == "FRA" and "free_france" in (ctx.state.get("flags") or {}):
        return free_france_due(ctx)     # 9.4: Free France, anywhere in its territory
    if has_surrendered(ctx.rs, ctx.state, ctx.turn, code):
        return None
    if code in NO_REPLACEMENTS or code not in ctx.rs.countries or ctx.rs.countries[code].kind == "major":
        return None
    if war not in SIDES and code != "FIN":
        return None
    if code == "FRA":
        return {"infantry": 1}, "1 corps a turn"
    if code == "ITA":
        return ({"supply": 4, "choice": 2}, "4 supply and 2 units at each season start") if "minors-1" in marks else None
    if code in MINORS_1:
        return ({"infantry": 1}, "1 corps at each season start") if "minors-1" in marks else None
    return ({"infantry": 1}, "1 corps at the start of winter and summer") if "minors-2" in marks else None


def minor_replacements(ctx: Ctx, orders_by_player: dict, entries: dict[str, list], paths: dict[str, tuple]) -> None:
    """11.2: each minor power and minor country due this turn gets its units (a side's player
    may place them with ``place: {side: [{nation: FRA, zone: Z, infantry: 1}]}``; default: the
    capital, else the first zone of the country the owner holds)."""
    issues: list[Issue] = []
    for code in sorted(ctx.rs.countries):
        due = minor_due(ctx, code)
        if due is None:
            continue
        try:
            _minor(ctx, code, due, entries, paths)
        except PhaseOrdersInvalid as e:
            issues += e.issues
    if issues:
        ctx.refuse(issues)


def _minor(ctx: Ctx, code: str, due: tuple, entries: dict[str, list], paths: dict[str, tuple]) -> None:
    """11.2: one minor power's or minor country's replacements of this turn (Italy: _italy)."""
    units, why = due
    side = ctx.state["war"].get(code)
    side = side if side in SIDES else None
    owner = side or "neutral"
    # a neutral's replacements (no side) are placed by no player: no entries of anyone's
    listed = (entries.get(side) or []) if side else []
    mine = [(i, e) for i, e in enumerate(listed) if isinstance(e, dict) and e.get("nation") == code]
    where = paths.get(side, ("phases",)) if side else ("phases",)
    if code == "ITA":
        _italy(ctx, side, units, why, mine, where)
        return
    _minor_count(ctx, code, units, why, mine, where)
    zone = _minor_zone(ctx, code, owner, mine, where)
    there = {c for c, v in ctx.counters.items() if v["at"] == zone}
    placed = _put_minor(ctx, code, zone, units) if zone else []
    filled = [c for c in placed if c in there]      # ruling repl-fill-reduced: topped up, not new
    capital = ctx.rs.countries[code].capital
    lost = ("no zone of the country held: lost" if code in ANYWHERE else
            f"its capital {capital} is held by the {control(ctx, capital)} side and the replacements go to the capital "
            "only: lost")
    if zone and not placed:
        # 11.5: say what is missing (a player read "no counter left" beside counters of surrendered countries in the pool)
        lost = f"every {code} counter that could hold it is in play, none below strength in {zone}"
    ctx.emit("minor-replacements", rule="11.2", nation=code, side=owner, units=units, zone=zone, counters=placed,
             why=why, how="order" if mine else "default", **({"text": lost} if not (zone and placed) else {}),
             **({"filled": filled} if filled else {}))


def _minor_count(ctx: Ctx, code: str, units: dict, why: str, mine: list, path: tuple) -> None:
    """11.2: a minor receives what the rules give it (1 corps): an entry naming more, another
    kind, or a second entry, is refused (it was ignored without a word: the player thought two
    Polish corps were coming)."""
    named: dict = {}
    for _, e in mine:
        for t in PLACE_TYPES:
            if e.get(t):
                named[t] = named.get(t, 0) + int(e[t])
    due_units = {t: n for t, n in units.items() if t in PLACE_TYPES and n}
    if len(mine) > 1 or any(named.get(t, 0) > due_units.get(t, 0) for t in named):
        gives = ", ".join(f"{n} {t}" for t, n in due_units.items())
        i = mine[1][0] if len(mine) > 1 else mine[0][0]
        ctx.refuse([Issue("BW-PLACE-TOO-MANY", f"{code} receives {gives} this turn ({why}, 11.2); the file places "
                          + ", ".join(f"{n} {t}" for t, n in named.items()) + (f" in {len(mine)} entries" if len(mine) > 1 else ""),
                          path=path + (i,), rule="11.2",
                          hint=f"one entry: {{nation: {code}, zone: ZONE}} (the kind and number are the rules'; leave them out)")])


def _minor_zone(ctx: Ctx, code: str, owner: str, mine: list, path: tuple) -> str | None:
    """11.2: the zone of a minor's replacements: the one its entry names, checked (France,
    Finland and Greece anywhere in the country, the others at the capital; held by its side),
    else the capital, else (France, Finland, Greece) the first zone of the country held."""
    w = ctx.rs
    capital = w.countries[code].capital
    if not (mine and mine[0][1].get("zone")):
        # the first held (the zones after it are not asked)
        return next((z for z in [capital] + (w.country_zones(code) if code in ANYWHERE else []) if control(ctx, z) == owner), None)
    z = mine[0][1]["zone"]
    where_ok = z in w.zones and w.zones[z].country == code and (code in ANYWHERE or z == capital)
    if where_ok and control(ctx, z) == owner:
        return z
    held = [x for x in ([capital] if code not in ANYWHERE else w.country_zones(code)) if control(ctx, x) == owner]
    if where_ok:
        # the right zone, held by the enemy: say that (not "go to the capital Warsaw" for Warsaw)
        why = f"{z} is held by the {control(ctx, z)} side" + (f", and {code}'s replacements go to its capital only"
                                                              if code not in ANYWHERE else "")
    else:
        why = (f"{code}'s replacements go to a zone of the country its side holds" if code in ANYWHERE
               else f"{code}'s replacements go to its capital {capital}, nowhere else")
    ctx.refuse([Issue("BW-PLACE-ZONE", f"{z}: {why} (11.2){zone_guess(w, z, held) if z not in w.zones else ''}",
                      text=str(z), rule="11.2", path=path + (mine[0][0], "zone"),
                      hint=(f"possible now: {', '.join(held)}" if held else
                            f"nowhere now: {code}'s corps of this turn is lost unless {capital if code not in ANYWHERE else 'a zone of it'} "
                            "is held (ruling repl-minors); leave the entry out"))])
    return None


# 11.2 Italy: 4 supply and 2 units of infantry, armour, air, fleet (at most 1 fleet) at each season start
ITALY_TYPES = ("infantry", "armour", "air", "fleet")


def italy_zones(ctx: Ctx, side: str, type_: str) -> list[str]:
    """11.2: where Italy's replacements of ``type_`` may go now: corps to the capital (その他の国の
    補充は、首都に配置); fleets to a port of Italy, naval bases first (イタリアの艦隊は、イタリア内
    の港に任意に配置: Italy's home zones of 9.2, the colonies are not Italy); air to the capital
    or to any zone its side controls in supply (イタリア空軍は、その補給が届く支配下のゾーンにも)."""
    w = ctx.rs
    capital = [w.countries["ITA"].capital] if control(ctx, w.countries["ITA"].capital) == side else []
    if type_ == "fleet":
        return [z for _, z in sorted((not w.zones[z].naval_base, z) for z in w.areas.get("italy-home", ())
                                     if w.zones[z].port and control(ctx, z) == side)]
    if type_ == "air":
        return capital + [z for z in sorted(w.zones) if z not in capital and control(ctx, z) == side
                          and zone_in_supply(ctx, side, z)]
    return capital


def _italy(ctx: Ctx, side: str | None, units: dict, why: str, mine: list, path: tuple) -> None:
    """11.2 Italy: the supply to its side's supply held, then each unit where its own entry puts
    it (checked by italy_zones; every problem at once); default 2 infantry corps at the capital."""
    if side is None:
        return
    if units.get("supply"):
        ctx.set_supply(side, ctx.supply(side) + units["supply"])
        ctx.emit("supply-received", rule="11.2", side=side, nation="ITA", supply=units["supply"], held=ctx.state["supply"][side])
    chosen = {t: sum(int(e.get(t) or 0) for _, e in mine) for t in ITALY_TYPES}
    if mine and (sum(chosen.values()) != 2 or chosen["fleet"] > 1):
        ctx.refuse([Issue("BW-PLACE-ITALY", "Italy receives 2 units of infantry, armour, air or fleet (at most 1 fleet) (11.2)",
                          path=path + (mine[0][0],), rule="11.2")])
    plan, issues = [], []
    for i, e in mine or [(None, {"infantry": 2})]:
        for t in ITALY_TYPES:
            if not e.get(t):
                continue
            ok = italy_zones(ctx, side, t)
            zone = e.get("zone") or (ok[0] if ok else None)
            if e.get("zone") and zone not in ok:
                where = {"fleet": "a port of Italy", "air": "Rome or a zone of its side in supply"}.get(t, "its capital Rome")
                issues.append(Issue("BW-PLACE-ZONE", f"{zone}: Italian {t} replacements go to {where}, held by the {side} (11.2)"
                                    + (zone_guess(ctx.rs, zone, ok) if zone not in ctx.rs.zones else ""), text=str(zone),
                                    rule="11.2", path=path + (i, "zone"), hint="possible now: " + (", ".join(ok[:12]) or "none")))
            plan.append((zone, t, int(e[t]), "order" if mine else "default"))
    if issues:
        ctx.refuse(issues)
    for zone, t, n, how in plan:
        there = {c for c, v in ctx.counters.items() if v["at"] == zone}
        placed = _put_minor(ctx, "ITA", zone, {t: n}) if zone else []
        filled = [c for c in placed if c in there]      # ruling repl-fill-reduced
        ctx.emit("minor-replacements", rule="11.2", nation="ITA", side=side, units={t: n}, zone=zone, counters=placed,
                 why=why, how=how, **({} if zone else {"text": f"no zone for Italian {t} held: lost"}),
                 **({"filled": filled} if filled else {}))


# ------------------------------------------------------------------------------ text
def summary_lines(w, state: dict) -> list[str]:
    out = []
    ctx = Ctx(rs=w, state=state, turn=state["turn"], phase=state["phase"])
    for side, s in summary(w, state).items():
        q = ", ".join(f"t{x['turn']} {x['card']}" for x in s["queue"]) or "empty"
        last = f"; last played t{s['last']['turn']} {s['last']['card']}" if s["last"] else ""
        out.append(f"{side} cards ({s['deck']}-war deck, 10): queue {q}{last}; supply held {state['supply'].get(side, '0')}")
        nxt = s["queue"][0] if s["queue"] else None
        if nxt and nxt["card"] != "sealed" and card_of(w, nxt["card"]) is not None:
            lost = forecast_lost(ctx, side, card_of(w, nxt["card"]).units, card_of(w, nxt["card"]).kind)
            if lost:
                out.append(f"  {side}: the counter mix has no counter left for {lost_text(lost)} of card {nxt['card']} "
                           f"(turn {nxt['turn']}): lost unless counters come off the map before (11.5)")
    return out


def mix_room(ctx: Ctx, nation: str) -> dict[str, int]:
    """Units of each type the nation's counters not on the map can still hold (the counter mix,
    3, 11.5; elite counters come by 11.7 only)."""
    marks = frozenset(ctx.state.get("marks") or [])
    used = _used(ctx, nation)          # as _Pool counts them (one pass, no copies: `show` stays fast)
    mod = modernised(ctx.state, nation)
    out: dict[str, int] = {}
    for i, k in enumerate(ctx.rs.counters.get(nation, [])):
        if not k.elite:
            n = max(0, (k.count if k.available == "start" else mod.get(i, 0)) - used.get(i, 0))
            out[k.type] = out.get(k.type, 0) + n * k.units_on(marks)
    return out


def forecast_lost(ctx: Ctx, side: str, units: dict, kind: str | None = None) -> dict[str, int]:
    """11.5: what of the card's ``units`` the counter mix cannot hold and will be lost (armour
    turned to infantry first), by type; before the phase (the template, `pbem show`). The units
    go to the nations the card gives them to (``kind`` the card's: an Allied limited-war card is
    all British, a total-war one British for its British corps and American for the rest, as
    :func:`_split_allies` places them), each into its own nation's counters: the American
    counters do not hold a British card's air units (the forecast said nothing while one was lost)."""
    if side == "allies":
        if kind == "total":
            n = ctx.rs.decks[("allies", "total")].british_corps or 1
            uk: dict = {}
            us = {k: int(v) for k, v in units.items()}
            for k in ("infantry", "armour"):
                take = min(n, us.get(k, 0))
                if take:
                    uk[k] = take
                    us[k] -= take
                    n -= take
            split = {"UK": uk, "US": us}
        else:
            split = {"UK": dict(units)}
    else:
        split = {major_nations(ctx, side)[0]: dict(units)}
    lost: dict[str, int] = {}
    for nation, u in split.items():
        room = mix_room(ctx, nation)
        for t, n in reduced_in_reach(ctx, side, nation).items():     # ruling repl-fill-reduced
            room[t] = room.get(t, 0) + n
        for t, n in _lost_in(room, u).items():
            lost[t] = lost.get(t, 0) + n
    return {t: lost[t] for t in ("infantry", "armour", "fleet", "uboat", "air") if lost.get(t)}


def reduced_in_reach(ctx: Ctx, side: str, nation: str) -> dict[str, int]:
    """Corps (units) the nation's reduced counters can still take where replacements of their
    type may go now (ruling repl-fill-reduced), by type."""
    out: dict[str, int] = {}
    for t, letter in (("infantry", "I"), ("armour", "C"), ("fleet", "F"), ("uboat", "U")):
        for z in allowed_zones(ctx, side, nation, t):
            out[t] = out.get(t, 0) + sum(n for _, x, n in reduced_room(ctx, nation, z) if x == letter)
    return out


def _lost_in(room: dict, units: dict) -> dict[str, int]:
    lost: dict[str, int] = {}
    room = {t: room.get(t, 0) for t in ("infantry", "armour", "fleet", "uboat", "air")}
    a = int(units.get("armour", 0))
    i = int(units.get("infantry", 0))
    put_a = min(a, room["armour"])
    put_i = min(i + a - put_a, room["infantry"])
    over_i = max(0, i - put_i)
    over_a = (i + a - put_a - put_i) - over_i
    if over_i:
        lost["infantry"] = over_i
    if over_a:
        lost["armour"] = over_a
    for t in ("fleet", "uboat", "air"):
        n = int(units.get(t, 0)) - room[t]
        if n > 0:
            lost[t] = n
    return lost


def lost_text(lost: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in lost.items())


def template_lines(w, state: dict, ph: str, player: str) -> list[str]:
    """The order template's lines for the cards phase (10.1) and the replacement phase (11)."""
    sides = [s for s in SIDES if state["sides"].get(s) == player]
    if ph == "2.cards":
        return _cards_template(w, state, player, sides)
    if ph != "3.replacements":
        return []
    ctx = Ctx(rs=w, state=state, turn=state["turn"], phase=ph)
    L = ["    # 11.3, 11.5: your card of this turn is revealed; a sealed one must be opened in this file:"]
    for s in sides:
        L += _major_template(ctx, s)
    L += _minors_template(ctx, sides)
    L.append("    # place: {SIDE: [{zone: Z, infantry: N, armour: N, fleet: N, uboat: N, air: N, nation: UK|US|FRA|ITA...}]}")
    L.append("    # units of the card not placed here get the default placement (first sources in map order)")
    L.append("    place: {}")
    return L


def _cards_template(w, state: dict, player: str, sides: list[str]) -> list[str]:
    """10.1: the picks of the cards phase, the free cards, the seal command."""
    turns = pick_turns(w, state["turn"])
    if not turns:
        return ["    # no card to pick this turn (the game ends before it would be used)"]
    L = [f"    # 10.1: pick the card(s) of turn(s) {', '.join(map(str, turns))}, OPEN here or SEALED with",
         f"    #   pbem seal STATE --player {player} --id cards-SIDE-tNN --choice CARD -o OPENING.yaml",
         "    #   (put the seal: entry it prints at the top level of this file and delete the side's line below)",
         "    # no pick: pbem picks openly the first free card in deck order (the default)",
         "    cards:"]
    for s in sides:
        free = free_cards(w, state, s)
        sc = (state.get("cards") or {}).get(s) or {}
        deck = picking_deck(w, state, s)      # 10.2: the deck this turn's cards phase picks from
        L.append(f"      # {s}: free ({deck}-war deck): " + "; ".join(
            f"{c} ({', '.join(f'{k} {v}' for k, v in card_of(w, c).units.items())})" for c in free))
        L.append(f"      # {s} seal ids: {', '.join(seal_id(s, t) for t in turns)}")
        sealed = [q["turn"] for q in sc.get("queue", []) if q["card"] == "sealed"]
        if sealed and state["turn"] != w.first_turn:
            # 10.1: a card sealed for an earlier turn is not free, but pbem cannot see it:
            # no card is written in for the player (the first free one may be a sealed one)
            L.append(f"      # you sealed the card(s) of turn(s) {', '.join(map(str, sealed))}: pbem cannot see them, so the "
                     "free cards above may include them; a sealed card is not free (10.1) and a pick of it is void "
                     "(ruling card-void): pick one that is not in your opening files")
            L.append(f"      {s}: []   # write your pick, e.g. [{free[0] if free else 'CARD'}]")
        else:
            L.append(f"      {s}: [{', '.join(free[:len(turns)])}]")
    return L


def _major_template(ctx: Ctx, s: str) -> list[str]:
    """11.3, 11.5: a major side's card of the turn, what the mix cannot hold, its supply losses
    and where its units may go."""
    w, state = ctx.rs, ctx.state
    L: list[str] = []
    sc = (state.get("cards") or {}).get(s) or {}
    q = next((x for x in sc.get("queue", []) if x["turn"] == state["turn"]), None)
    if q and q["card"] == "sealed":
        L.append(f"    #   copy the open: entry of your opening file for {seal_id(s, state['turn'])} (top level of this file)")
    elif q:
        L.append(f"    #   {s}: card {q['card']} ({', '.join(f'{k} {v}' for k, v in card_of(w, q['card']).units.items())})")
    if q and q["card"] != "sealed" and card_of(w, q["card"]) is not None:
        lost = forecast_lost(ctx, s, card_of(w, q["card"]).units, card_of(w, q["card"]).kind)
        if lost:
            # 11.5: what no counter of the mix is left for is lost: say it before, not only in the report
            L.append(f"    #   {s}: the counter mix has no counter left for {lost_text(lost)} of this card: "
                     "lost (11.5; only counters off the map hold replacements)")
    pts = strategic_losses(ctx, s)
    L.append(f"    #   {s}: supply losses {len(pts)} ({', '.join(pts) or 'no national strategic point occupied'}); "
             "cover: {" + s + ": [{counter: ID} | {infantry: N} | {armour: N} | {fleet: N}]} gives units up instead")
    for n in major_nations(ctx, s):
        if n == "US" and sc.get("deck", "limited") != "total" and not (q and q.get("deck") == "total"):
            continue   # 11.5: American units come on Allied total-war cards only
        L.append(f"    #   {s} {n}: land/supply to {', '.join(allowed_zones(ctx, s, n, 'infantry')) or 'nowhere now'}; "
                 f"fleets to {', '.join(allowed_zones(ctx, s, n, 'fleet')[:8]) or 'nowhere now'}; air to a supplied land zone"
                 + ("; a fleet placed at asia reaches only the Persian Gulf and never leaves it (11.4)"
                    if "asia" in allowed_zones(ctx, s, n, "fleet") else ""))
    return L


def _minors_template(ctx: Ctx, sides: list[str]) -> list[str]:
    """11.2: each minor of the player's sides due this turn, where its units go, what is lost."""
    w, state = ctx.rs, ctx.state
    L: list[str] = []
    for code in sorted(w.countries):
        due = minor_due(ctx, code)
        side = state.get("war", {}).get(code)
        if not due or side not in sides:
            continue
        cap = w.countries[code].capital
        held = [z for z in ([cap] if code not in ANYWHERE else w.country_zones(code)) if control(ctx, z) == side]
        where = "anywhere in the country" if code in ANYWHERE else f"at {cap}"
        if code == "ITA":
            where = (f"corps at {cap}, a fleet in a port of Italy ({', '.join(italy_zones(ctx, side, 'fleet')[:4]) or 'none held'}), "
                     f"air at {cap} or a zone of the {side} in supply; name 2 units: infantry, armour, air, fleet <= 1, "
                     "each entry with its zone")
        if not held and code != "ITA":
            # 11.2, ruling repl-minors: nowhere to place them: say so before, rather than suggest an enemy's zone
            L.append(f"    #   11.2 {code} ({side}): {due[1]}, {where} - "
                     + (f"{cap} is held by the {control(ctx, cap)} side" if code not in ANYWHERE else "no zone of it is held")
                     + ": nothing can be placed, it is lost this turn (ruling repl-minors)")
            continue
        room = mix_room(ctx, code)
        short = int(due[0].get("infantry", 0)) - room.get("infantry", 0) - room.get("armour", 0)
        L.append(f"    #   11.2 {code} ({side}): {due[1]}, {where}"
                 + (f"; e.g. {{nation: {code}, zone: {held[0]}" + (", infantry: 2}" if code == "ITA" else "}") if held else "")
                 + (f" - no {code} counter left in the mix for {short} of them: lost (11.5)" if short > 0 else ""))
    return L
