"""Consistency checks of the BlitzWAR component data for ``pbem data check``, on top of the
schemas: the map is a sound graph (symmetric links, coasts on real seas, everything reachable),
every zone the rules and the worked examples of section 20 name is there with the geometry the
examples need, the counter mix has its 251 counters, the 1939 set-up fits the mix and the
stacking limit (4, 19), the cards of a deck are of equal value (1), the calendar has its 47
turns with the weather of 6, and the tables are complete."""
from __future__ import annotations

from fractions import Fraction
from functools import cache

from ..core.errors import Issue
from ..core.graph import asymmetric, unknown_targets, unreachable
from .setup import _combos as grouping_combos
from .world import (
    CALENDAR_FILE,
    CARDS_FILE,
    COUNTERS_FILE,
    MAP_FILE,
    NOTATION,
    TABLES_FILE,
    CounterKind,
    World,
)

# Zones the rules and the examples name (component-data B.5), by zone name.
NAMED_ZONES = ("London", "Scapa Flow", "Trondheim", "Bergen", "Oslo", "Stockholm", "Copenhagen", "Leningrad",
               "Karelia", "Kouvola", "Nancy", "Paris", "Milan", "Naples", "Sicily", "Sardinia", "Montenegro",
               "Albania", "Bucharest", "Istanbul", "Sevastopol", "Gibraltar", "Malta", "Tobruk", "Tripoli", "Sirte",
               "El Agheila", "Mechili", "Derna", "Gazala", "Benghazi", "Suez", "Basra", "Casablanca", "Algeria",
               "Mareth", "Tunis", "America", "Asia base")
NAMED_SEAS = ("North Atlantic", "Mid-Atlantic", "Norwegian Sea", "North Sea", "Baltic Sea", "Bay of Biscay",
              "Western Mediterranean", "South-Central Mediterranean", "Eastern Mediterranean", "Adriatic Sea",
              "Aegean Sea", "Black Sea", "Persian Gulf")
COUNTRIES_91 = ("GER", "UK", "US", "USSR", "FRA", "ITA", "POL", "BE", "GRE", "YUG", "FIN", "HUN", "RUM", "BUL",
                "DEN", "NOR", "SP", "TUR", "SWE")
MILD_SEAS = ("Mediterranean", "Adriatic", "Aegean", "Persian Gulf")   # 6: the Mediterranean and its seas
REQUIRED_MARKS = ("us-entry", "us-joins-allies", "naval-change", "bombing-3", "bombing-4", "soviet-blitz",
                  "allied-german-blitz", "three-corps", "ger-bul-entry", "yug-diplomacy", "minors-1", "minors-2")


def consistency(w: World) -> list[Issue]:
    out: list[Issue] = []

    def err(code: str, msg: str, file: str, **kw) -> None:
        out.append(Issue(code, msg, file=file, **kw))

    _map(w, err)
    _rulebook_map(w, err)
    _examples(w, err)
    _counters(w, err)
    _setup(w, err)
    _calendar(w, err)
    _cards(w, err)
    _tables(w, err)
    return out


# ---------------------------------------------------------------------------------- the map
def _map(w: World, err) -> None:
    """The map (rules/blitzwar/map.yaml): links, zones, seas and straits, connectedness,
    countries and areas."""
    _map_links(w, err)
    _map_zones(w, err)
    _map_seas(w, err)
    _map_connected(w, err)
    _map_countries(w, err)


def _map_links(w: World, err) -> None:
    Z = w.zones
    for key, what in (("links", "a land link"), ("rivers", "a river edge"), ("blue", "a blue dashed line")):
        nb = (lambda k: (lambda z: getattr(Z[z], k) if z in Z else ()))(key)
        for a, b in unknown_targets(list(Z), nb, Z):
            err("DATA-LINK-UNKNOWN", f"zone {a} lists {what} to {b}, which is not a zone", MAP_FILE)
        for a, b in asymmetric(list(Z), nb):
            if b in Z:
                err("DATA-ADJACENCY", f"{a} lists {b} as {what} but not the reverse", MAP_FILE)


def _map_zones(w: World, err) -> None:
    for z in w.zones.values():
        if z.id in z.links:
            err("DATA-ADJACENCY", f"{z.id} lists itself as a neighbour", MAP_FILE)
        for n in z.rivers:
            if n not in z.links:
                err("DATA-RIVER", f"{z.id}: river edge towards {n}, which is not a land link", MAP_FILE)
        for n in z.fortress_line:
            if n not in z.links:
                err("DATA-FORTRESS-LINE", f"{z.id}: fortress line towards {n}, which is not a land link", MAP_FILE)
        for s in z.coasts:
            if s not in w.seas:
                err("DATA-COAST", f"{z.id}: coast on {s}, which is not a sea zone", MAP_FILE,
                    hint="sea zones: " + ", ".join(w.seas))
        for s in z.thick:
            if s not in z.coasts:
                err("DATA-COAST", f"{z.id}: thick coast on {s}, which is not one of its coasts", MAP_FILE)
        if z.port and not z.coasts and not z.far_port:
            err("DATA-PORT", f"{z.id} is a port without a coast", MAP_FILE)
        if z.naval_base and not z.port:
            err("DATA-PORT", f"{z.id} is a naval base but not a port (a naval base is a port, 5)", MAP_FILE)
        if z.country not in w.countries:
            err("DATA-COUNTRY", f"{z.id}: country {z.country} is not a country of the map", MAP_FILE)
        if z.strategic == "national" and not z.strategic_side:
            err("DATA-STRATEGIC", f"{z.id}: a national strategic point needs its side", MAP_FILE)
        if z.box and z.links:
            err("DATA-ADJACENCY", f"{z.id} is an off-map box and has land links", MAP_FILE)


def _map_seas(w: World, err) -> None:
    Z = w.zones
    for s in w.seas:
        if not w.zones_on_sea(s):
            err("DATA-COAST", f"sea zone {s} touches no land zone", MAP_FILE)
    for a, b, strait in w.sea_links:
        for s in (a, b):
            if s not in w.seas:
                err("DATA-SEA-LINK", f"sea link {a}-{b}: {s} is not a sea zone", MAP_FILE)
        if strait and strait not in w.straits:
            err("DATA-STRAIT", f"sea link {a}-{b}: strait {strait} is not listed", MAP_FILE)
    for sid, st in w.straits.items():
        if st.city not in Z:
            err("DATA-STRAIT", f"strait {sid}: {st.city} is not a zone", MAP_FILE)
            continue
        for s in st.seas:
            if s not in Z[st.city].coasts:
                err("DATA-STRAIT", f"strait {sid}: {Z[st.city].name} has no coast on {s}", MAP_FILE)
        if not any({a, b} == set(st.seas) and t == sid for a, b, t in w.sea_links):
            err("DATA-STRAIT", f"strait {sid}: no sea link between {' and '.join(st.seas)} goes through it", MAP_FILE)


def _map_connected(w: World, err) -> None:
    Z = w.zones
    # every land zone can be reached: by land, along blue lines, or by sea from a coast
    def reach(node):
        if node in Z:
            return Z[node].links + Z[node].blue + tuple("sea:" + s for s in Z[node].coasts if s in w.seas)
        s = node[4:]
        return tuple(w.zones_on_sea(s)) + tuple("sea:" + x for x in w.sea_neighbours(s))
    if Z:
        start = "berlin" if "berlin" in Z else next(iter(Z))
        nodes = [start] + [z for z in Z if z != start] + ["sea:" + s for s in w.seas]
        lost = [n for n in unreachable(nodes, reach) if n in Z]
        if lost:
            err("DATA-CONNECTED", f"{len(lost)} zones cannot be reached from {start} by land, blue line or sea",
                MAP_FILE, hint=", ".join(lost[:10]))


def _map_countries(w: World, err) -> None:
    Z = w.zones
    # countries and areas
    for code in COUNTRIES_91:
        if code not in w.countries:
            err("DATA-COUNTRY", f"country {code} of 9.1 is missing", MAP_FILE)
    for c in w.countries.values():
        if c.capital not in Z:
            err("DATA-COUNTRY", f"{c.code}: capital {c.capital} is not a zone", MAP_FILE)
        elif Z[c.capital].country != c.code and not (c.code == "VF" and c.capital in w.areas.get("vichy", ())):
            # Vichy France (9.4) governs zones of France: its capital lies in its area ``vichy``
            err("DATA-COUNTRY", f"{c.code}: capital {c.capital} lies in {Z[c.capital].country}", MAP_FILE)
        elif c.side != "neutral" and Z[c.capital].control != c.side:
            err("DATA-COUNTRY", f"{c.code}: capital {c.capital} is not controlled by its side {c.side}", MAP_FILE)
    for a, zs in w.areas.items():
        for zid in zs:
            if zid not in Z:
                err("DATA-AREA", f"area {a}: {zid} is not a zone", MAP_FILE)
    ep = sorted(z.id for z in Z.values() if z.east_poland)
    if "east-poland" in w.areas and sorted(w.areas["east-poland"]) != ep:
        err("DATA-AREA", "area east-poland differs from the zones with the East Poland mark", MAP_FILE,
            hint=f"marked: {', '.join(ep)}")


def _rulebook_map(w: World, err) -> None:
    """What the rules themselves say about the map (1, 4, 5, 9, 12.1, 12.4)."""
    Z = w.zones
    for name in NAMED_ZONES:
        if w.zone_named(name) is None:
            err("DATA-NAMED", f"the rules name the zone {name}, which is not on the map", MAP_FILE)
    names = {s.name for s in w.seas.values()}
    for name in NAMED_SEAS:
        if name not in names:
            err("DATA-NAMED", f"the sea zone {name} is missing", MAP_FILE)
    for a in ("east-poland", "west-poland", "italy-home", "britain"):
        if a not in w.areas:
            err("DATA-NAMED", f"the area {a} the rules refer to is missing", MAP_FILE)

    def z(name):
        return w.zone_named(name)
    checks = [
        ("1", "Leningrad is not a port", lambda: not z("Leningrad").port),
        ("1", "Sevastopol is a naval base", lambda: z("Sevastopol").naval_base),
        ("4", "Malta holds 1 corps", lambda: z("Malta").corps_limit == 1),
        ("4", "Gibraltar holds 1 corps", lambda: z("Gibraltar").corps_limit == 1),
        ("4", "Tobruk holds 2 corps", lambda: z("Tobruk").corps_limit == 2),
        ("4", "America has no stacking limit", lambda: z("America").stacking == "unlimited"),
        ("5", "Nancy carries a fortress line", lambda: bool(z("Nancy").fortress_line)),
        ("5", "Kouvola carries a fortress line", lambda: bool(z("Kouvola").fortress_line)),
        ("5", "Bucharest, Trondheim and Milan are Axis national points held by their own countries",
         lambda: all(z(n).strategic == "national" and z(n).strategic_side == "axis" and z(n).control != "axis"
                     for n in ("Bucharest", "Trondheim", "Milan"))),
        ("5", "some zones carry the East Poland mark", lambda: any(x.east_poland for x in Z.values())),
        ("5", "Britain's North Sea coast and Italy's Adriatic coast are thick",
         lambda: all("north-sea" in x.thick for x in Z.values() if x.country == "UK" and "north-sea" in x.coasts)
         and all("adriatic" in x.thick for x in Z.values() if x.id in w.areas.get("italy-home", ()) and "adriatic" in x.coasts)),
        ("12.4", "Britain holds 7 national strategic points",
         lambda: sum(1 for x in w.areas.get("britain", ()) if Z[x].strategic == "national" and Z[x].strategic_side == "allies") == 7),
        ("12.1", "the straits are at Gibraltar, Istanbul and Copenhagen",
         lambda: sorted(s.city for s in w.straits.values()) == ["copenhagen", "gibraltar", "istanbul"]),
        ("11.4", "Basra is a port on the Persian Gulf, as is the Asia base",
         lambda: z("Basra").port and "persian-gulf" in z("Basra").coasts and "persian-gulf" in z("Asia base").coasts),
        ("7, 14.1.1", "Suez and the Asia base are far ports", lambda: z("Suez").far_port and z("Asia base").far_port),
        ("11.4, 11.5", "fleet replacements can be placed in America and the Asia base (naval bases)",
         lambda: z("America").naval_base and z("Asia base").naval_base),
        ("9.4", "Casablanca, Algeria, Mareth and Tunis are French",
         lambda: all(z(n).country == "FRA" for n in ("Casablanca", "Algeria", "Mareth", "Tunis"))),
        ("7, 9.2", "every side has a supply source", lambda: all(w.supply_sources(s) for s in ("axis", "allies", "ussr"))),
        ("9.2", "Germany and the USSR have supply sources of their own",
         lambda: any(x.supply_nation == "GER" for x in Z.values()) and any(x.supply_nation == "USSR" for x in Z.values())),
        ("11.8, clar. 5", "Karelia is a Finnish zone", lambda: z("Karelia").country == "FIN"),
        ("6", "no snow in Africa and Asia", lambda: all(x.climate == "mild" for x in Z.values() if x.region in ("africa", "asia"))),
        ("6", "no snow on the Mediterranean seas and the Persian Gulf, snow on the others",
         lambda: all((s.climate == "mild") == any(k in s.name for k in MILD_SEAS) for s in w.seas.values())),
    ]
    for sec, what in _failed(checks):
        err("DATA-RULEBOOK", f"the map must have: {what} ({sec})", MAP_FILE, rule=sec)


def _failed(checks):
    """(section, what) of each (section, what, test) whose test does not hold; a test that cannot
    be computed (a zone or field missing) does not hold either."""
    for sec, what, test in checks:
        try:
            ok = test()
        except (AttributeError, KeyError, TypeError):
            ok = False
        if not ok:
            yield sec, what


def _examples(w: World, err) -> None:
    """The geometry the worked examples of section 20 need (component-data B.5)."""
    def z(name):
        return w.zone_named(name)

    def adj(a, b):
        return z(b).id in z(a).links

    checks = [
        ("20.1", "El Agheila and Mechili are adjacent (the attack)", lambda: adj("El Agheila", "Mechili")),
        ("20.1", "Mechili and Gazala are adjacent (the retreat)", lambda: adj("Mechili", "Gazala")),
        ("20.1", "Tripoli is three zones from El Agheila (the armour corps moved 3 zones)",
         lambda: w.land_distance(z("Tripoli").id, z("El Agheila").id) == 3),
        ("20.1", "Mechili is within air range of Sirte", lambda: w.in_air_range(z("Sirte").id, z("Mechili").id)),
        ("20.1", "Mechili is within air range of Derna (the interception)", lambda: w.in_air_range(z("Derna").id, z("Mechili").id)),
        ("20.1", "Mechili is clear: blitz allowed, no terrain shift, retreat not refusable, not a fortress",
         lambda: z("Mechili").terrain == "clear" and not z("Mechili").fortress),
        ("20.1", "Naples and Tripoli are ports on the South-Central Mediterranean (one sea leg)",
         lambda: z("Naples").port and z("Tripoli").port and "south-central-med" in z("Naples").coasts
         and "south-central-med" in z("Tripoli").coasts),
        ("20.2", "Scapa Flow is a port on the Norwegian Sea", lambda: z("Scapa Flow").port and "norwegian-sea" in z("Scapa Flow").coasts),
        ("20.2", "Trondheim has a beach on the Norwegian Sea", lambda: "norwegian-sea" in z("Trondheim").beaches),
        ("20.2", "no blue dashed line joins Scapa Flow and Trondheim", lambda: z("Trondheim").id not in z("Scapa Flow").blue),
        ("20.2", "Trondheim allows a blitz (not marsh or high mountain, no fortress line) and is mountain or clear",
         lambda: z("Trondheim").terrain in ("mountain", "clear", "defile") and not z("Trondheim").fortress_line
         and not z("Trondheim").fortress),
        ("20.2", "Trondheim is a national strategic point of the Axis", lambda: z("Trondheim").strategic_side == "axis"),
    ]
    for sec, what in _failed(checks):
        err("DATA-EXAMPLE", f"the example of {sec} needs: {what}", MAP_FILE, rule=sec)


# ---------------------------------------------------------------------------------- counters
def _counters(w: World, err) -> None:
    # Vichy France's counters (9.4) are French counters of the sheets used again: not counted twice
    total = sum(k.count for n, ks in w.counters.items() if n != "VF" for k in ks)
    if total != w.counters_total:
        err("DATA-MIX-TOTAL", f"the mix has {total} military counters; section 3 says {w.counters_total}", COUNTERS_FILE, rule="3")
    for n, ks in w.counters.items():
        if n not in w.countries:
            err("DATA-MIX", f"counters for {n}, which is not a country of the map", COUNTERS_FILE)
        for k in ks:
            if k.type == "white-tank" and (k.infantry != 1 or k.armour not in (1, 2) or k.units != k.infantry + k.armour):
                err("DATA-MIX", f"{n}: a white tank holds 1 infantry and 1-2 armour corps, and units is their sum (3)", COUNTERS_FILE, rule="3")
            if k.type == "air" and k.units != 1:
                err("DATA-MIX", f"{n}: an air counter holds one unit (3)", COUNTERS_FILE, rule="3")
            if k.back == "entrenched" and not (n in ("GER", "UK") and k.type == "infantry" and k.units == 1):
                err("DATA-MIX", f"{n}: only German and British 1-corps infantry counters have an entrenched side (3, 15.1)", COUNTERS_FILE, rule="3, 15.1")
            if k.elite and n != "GER":
                err("DATA-MIX", f"{n}: only German counters are elite (11.7)", COUNTERS_FILE, rule="11.7")
            if k.full_side_from and k.full_side_from not in w.marks:
                err("DATA-MIX", f"{n}: full_side_from {k.full_side_from} is not a calendar mark", COUNTERS_FILE)
    sov = w.counters.get("USSR", [])
    wh = {"air": 0, "land3": 0, "supply6": 0}
    for k in sov:
        if k.available == "modernisation":
            if k.type == "air":
                wh["air"] += k.count
            elif k.land and k.units == 3:
                wh["land3"] += k.count
            elif k.type == "supply" and k.units == 6:
                wh["supply6"] += k.count
    if sov and wh != {"air": 6, "land3": 12, "supply6": 3}:
        err("DATA-MIX", f"11.8 withholds 6 air, 12 three-corps land and 3 six-supply Soviet counters; the mix withholds {wh}",
            COUNTERS_FILE, rule="11.8")
    elites = [k for k in w.counters.get("GER", []) if k.elite]
    if sorted(k.available for k in elites) != ["elite-first", "elite-second"]:
        err("DATA-MIX", "11.7 names two German elite counters (one when France surrenders, one 6 turns after the attack on the USSR)",
            COUNTERS_FILE, rule="11.7")
    for n in ("DEN", "NOR"):
        if w.counters.get(n):
            err("DATA-MIX", f"{n} has no counters (11.2)", COUNTERS_FILE, rule="11.2")


# ---------------------------------------------------------------------------------- set-up
def _start_kinds(w: World, nation: str) -> list[CounterKind]:
    return [k for k in w.counters.get(nation, []) if k.available == "start"]


def _combos(kinds: tuple[tuple[tuple[int, int], int], ...], need: tuple[int, int], limit: int):
    """Every way (as a tuple of counts per kind) to make exactly ``need`` = (infantry, armour)
    corps from at most ``limit`` counters of ``kinds`` ((corps pair, available count)), fewest
    counters first: the set-up grouping's own search (setup._combos)."""
    return grouping_combos([size for size, _ in kinds], [n for _, n in kinds], need, limit)


def pack(kinds: list[tuple[tuple[int, int], int]], demands: list[tuple[int, int]], limit: int) -> list[tuple[int, ...]] | None:
    """Assign counters of ``kinds`` to each demand exactly, at most ``limit`` counters a demand.
    Returns the counts used per demand, or None when the counters cannot cover them (19)."""
    kt = tuple(kinds)

    @cache
    def go(i: int, left: tuple[int, ...]):
        if i == len(demands):
            return ()
        avail = tuple((kt[j][0], left[j]) for j in range(len(kt)))
        for c in _combos(avail, demands[i], limit):
            rest = go(i + 1, tuple(left[j] - c[j] for j in range(len(kt))))
            if rest is not None:
                return (c,) + rest
        return None
    return go(0, tuple(n for _, n in kinds))


def _setup(w: World, err) -> None:
    sf = f"scenarios/blitzwar/{w.scenario_id.replace('blitzwar-', 'setup-')}.yaml"
    start_marks = w.marks_by(w.first_turn)
    by_zone: dict[str, dict[str, dict]] = {}
    for p in w.placements:
        if p.zone not in w.zones:
            err("DATA-SETUP", f"{p.nation} is set up in {p.zone}, which is not a zone", sf)
            continue
        if p.nation not in w.counters:
            err("DATA-SETUP", f"{p.nation} has no counter mix", sf)
            continue
        z = w.zones[p.zone]
        side = w.start_side(p.nation)
        if side == "neutral" and p.nation != "US":
            if z.country != p.nation:
                err("DATA-SETUP", f"neutral {p.nation} is set up in {z.name}, outside its country", sf, rule="19")
        elif z.control not in (side, "allies" if p.nation == "US" else side) and z.country != p.nation:
            err("DATA-SETUP", f"{p.nation} ({side}) is set up in {z.name}, which its side does not control", sf, rule="19")
        if ("F" in p.units or "U" in p.units) and not z.port:
            err("DATA-SETUP", f"{p.nation} fleets or U-boats in {z.name}, which is not a port", sf, rule="12.1")
        by_zone.setdefault(p.zone, {})[p.nation] = p.units
    _setup_stacking(w, err, sf, by_zone, start_marks)
    # the counter mix (3, 19): every nation's units can be grouped into its counters
    nations = sorted({p.nation for p in w.placements if p.nation in w.counters and p.zone in w.zones})
    for n in nations:
        _fits(w, err, sf, n, [(p.zone, p.units) for p in w.placements if p.nation == n and p.zone in w.zones], start_marks)
    for ch in w.choices:
        n = ch["nation"]
        zones = ch["default"]["zones"]
        for zid in zones:
            if zid not in w.zones or w.zones[zid].country != ch["country"]:
                err("DATA-SETUP-CHOICE", f"choice {ch['id']}: {zid} is not a zone of {ch['country']}", sf, rule="19")
        units = [(zid, {k: int(v) for k, v in u.items() if k in NOTATION}) for zid, u in zones.items()]
        used = _fits(w, err, sf, n, units, start_marks)
        if used is not None and ch["counters"] == "all" and used != sum(k.count for k in _start_kinds(w, n)):
            err("DATA-SETUP-CHOICE", f"choice {ch['id']}: the default places {used} of {n}'s "
                f"{sum(k.count for k in _start_kinds(w, n))} counters; all of them must be placed", sf, rule="19")


def _setup_stacking(w: World, err, sf: str, by_zone: dict[str, dict[str, dict]], start_marks) -> None:
    """4 at the set-up: at most 3 land counters, or the zone's corps limit; no enemies together."""
    for zid, nations in sorted(by_zone.items()):
        z = w.zones[zid]
        sides = {w.start_side(n) if w.start_side(n) != "neutral" else f"neutral-{n}" for n in nations}
        if len(sides) > 1 and not sides <= {"allies", "neutral-US"}:
            err("DATA-SETUP", f"{z.name} holds units of different sides at set-up ({', '.join(sorted(nations))})", sf, rule="4")
        corps = sum(u.get("I", 0) + u.get("C", 0) for u in nations.values())
        if z.stacking == "unlimited":
            continue
        if z.corps_limit is not None:
            if corps > z.corps_limit:
                err("DATA-SETUP-STACK", f"{z.name} holds {corps} corps at set-up; at most {z.corps_limit} (4)", sf, rule="4")
            continue
        need = 0
        for n, u in nations.items():
            kinds = [((k.land_units_on(start_marks)), k.count) for k in _start_kinds(w, n) if k.land]
            best = None
            for lim in range(0, 10):
                if _combos(tuple(kinds), (u.get("I", 0), u.get("C", 0)), lim):
                    best = lim
                    break
            need += best if best is not None else 99
        if need > w.stacking_default:
            err("DATA-SETUP-STACK", f"{z.name} needs {need if need < 99 else 'more than 9'} land counters at set-up; "
                f"at most {w.stacking_default} (4)", sf, rule="4")


def _fits(w: World, err, sf: str, n: str, units: list[tuple[str, dict]], marks) -> int | None:
    """Check that ``units`` (zone, notation -> count) fit ``n``'s counters; returns the number of
    counters used, or None after reporting DATA-SETUP-MIX."""
    kinds = _start_kinds(w, n)
    used = 0
    groups = [("land", ("I", "C"))] + [(t, (letter,)) for letter, t in NOTATION.items() if t not in ("infantry", "armour")]
    for gname, letters in groups:
        if gname == "land":
            ks = [((k.land_units_on(marks)), k.count) for k in kinds if k.land]
            demands = [(u.get("I", 0), u.get("C", 0)) for _, u in units if u.get("I", 0) or u.get("C", 0)]
            cap_i = sum(k.land_units_on(marks)[0] * k.count for k in kinds if k.land)
            cap_c = sum(k.land_units_on(marks)[1] * k.count for k in kinds if k.land)
            want_i = sum(d[0] for d in demands)
            want_c = sum(d[1] for d in demands)
            if want_i > cap_i or want_c > cap_c:
                err("DATA-SETUP-MIX", f"{n} sets up {want_i} infantry and {want_c} armour corps; its counters hold "
                    f"{cap_i} and {cap_c} (3, 19)", sf, rule="3, 19")
                return None
            limit = 9
        else:
            ks = [((k.units_on(marks), 0), k.count) for k in kinds if k.type == gname]
            demands = [(u.get(letters[0], 0), 0) for _, u in units if u.get(letters[0], 0)]
            cap = sum(k.units_on(marks) * k.count for k in kinds if k.type == gname)
            want = sum(d[0] for d in demands)
            if want > cap:
                err("DATA-SETUP-MIX", f"{n} sets up {want} {gname} units; its counters hold {cap} (3, 19)", sf, rule="3, 19")
                return None
            limit = 99
        if not demands:
            continue
        res = pack(ks, demands, limit)
        if res is None:
            err("DATA-SETUP-MIX", f"{n}'s {gname} units at set-up cannot be grouped into its {sum(c for _, c in ks)} "
                f"{gname} counters (one zone's units need counters of their own) (3, 19)", sf, rule="3, 19")
            return None
        used += sum(sum(c) for c in res)
    return used


# ---------------------------------------------------------------------------------- calendar
def _calendar(w: World, err) -> None:
    if w.turns_total != 47 or sorted(w.turns) != list(range(1, 48)) or w.turn_list != sorted(w.turn_list):
        err("DATA-CALENDAR", f"the calendar must list turns 1-47 in order (8); it has {len(w.turns)} turns", CALENDAR_FILE, rule="8")
    seasons = ["winter", "spring", "summer", "autumn"]
    prev = None
    for t in w.turn_list:
        tt = w.turns[t]
        key = (tt.year, seasons.index(tt.season), tt.half)
        if prev is not None:
            exp = (prev[0], prev[1], 2) if prev[2] == 1 else ((prev[0], prev[1] + 1, 1) if prev[1] < 3 else (prev[0] + 1, 0, 1))
            if key != exp:
                err("DATA-CALENDAR", f"turn {t} ({tt.season} {tt.half} {tt.year}) does not follow the turn before (two turns a season, 8)",
                    CALENDAR_FILE, rule="8")
        prev = key
        want = "snow" if tt.season == "winter" else "mud" if tt.half == 1 and tt.season in ("spring", "autumn") else "fine"
        if tt.weather != want:
            err("DATA-CALENDAR", f"turn {t} ({tt.season} {tt.half}) has weather {tt.weather}; section 6 gives {want}",
                CALENDAR_FILE, rule="6")
        for m in tt.marks:
            if m not in w.marks:
                err("DATA-CALENDAR", f"turn {t}: mark {m} is not defined under marks", CALENDAR_FILE)
    t1 = w.turns.get(1)
    if t1 and (t1.year, t1.season, t1.half) != (1939, "summer", 2):
        err("DATA-CALENDAR", "turn 1 is the second turn of summer 1939 (8)", CALENDAR_FILE, rule="8")
    placed = {m for tt in w.turns.values() for m in tt.marks}
    for m in REQUIRED_MARKS:
        if m not in placed:
            err("DATA-CALENDAR", f"the rules name the calendar mark {m}, which no turn carries", CALENDAR_FILE)
    for mk, t in w.markers.items():
        if mk not in w.marks or mk not in (w.turns[t].marks if t in w.turns else ()):
            err("DATA-CALENDAR", f"set-up marker {mk} on turn {t} is not that turn's calendar mark", CALENDAR_FILE, rule="19")


# ---------------------------------------------------------------------------------- cards
def _cards(w: World, err) -> None:
    for side in ("axis", "allies", "ussr"):
        for kind in ("limited", "total"):
            d = w.decks.get((side, kind))
            if d is None:
                err("DATA-CARDS", f"{side} has no {kind}-war cards (10.1)", CARDS_FILE, rule="10.1")
                continue
            if len(d.cards) != w.cards_per_deck:
                err("DATA-CARDS", f"{side} has {len(d.cards)} {kind}-war cards; each side has {w.cards_per_deck} (1, 10.1)",
                    CARDS_FILE, rule="1, 10.1")
            values = {c.id: c.value(w.weights) for c in d.cards}
            for cid, v in values.items():
                if v != d.value:
                    err("DATA-CARD-VALUE", f"card {cid} is worth {_num(v)}; every {side} {kind}-war card is worth "
                        f"{_num(d.value)} (1)", CARDS_FILE, rule="1")
                if side != "ussr" and "modernisation" in next(c for c in d.cards if c.id == cid).units:
                    err("DATA-CARDS", f"card {cid}: only Soviet cards carry modernisation (10.1, 11.8)", CARDS_FILE, rule="11.8")
            if side == "allies" and kind == "total" and d.british_corps != 1:
                err("DATA-CARDS", "Allied total-war cards carry exactly one British corps (11.5)", CARDS_FILE, rule="11.5")
    ids = [c.id for d in w.decks.values() for c in d.cards]
    if len(ids) != len(set(ids)):
        err("DATA-CARDS", "card ids must be unique", CARDS_FILE)


def _num(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


# ---------------------------------------------------------------------------------- tables
def _tables(w: World, err) -> None:
    cols = w.crt_columns
    for c in cols:
        if len(w.crt_results.get(c, [])) != 6:
            err("DATA-CRT", f"land combat column {c} needs six results", TABLES_FILE)
    for c in w.crt_results:
        if c not in cols:
            err("DATA-CRT", f"land combat results for {c}, which is not a column", TABLES_FILE)

    def ratio(c):
        a, d = c.split("-")
        return Fraction(int(a), int(d))
    if [ratio(c) for c in cols] != sorted(ratio(c) for c in cols):
        err("DATA-CRT", "land combat columns must run from the lowest odds to the highest", TABLES_FILE)
    run = ["1-1", "3-2", "2-1", "3-1", "4-1"]
    if cols[:5] != run or cols[-1:] != ["7-1"]:
        err("DATA-CRT", "the examples of 20 need the adjacent columns 1-1, 3-2, 2-1, 3-1, 4-1, and 7-1 is the last (16.2)",
            TABLES_FILE, rule="16.2, 20")
    fixed = {("4-1", 1): "0/1", ("3-1", 6): "C/2", ("3-1", 1): "C/1"}
    for (c, d), r in fixed.items():
        got = w.crt_results.get(c, [None] * 6)[d - 1] if len(w.crt_results.get(c, [])) == 6 else None
        if got != r:
            err("DATA-CRT", f"land combat {c} die {d} must be {r} (20.1, 20.2); it is {got}", TABLES_FILE, rule="20")
    for (c, _d) in w.crt_cell_prov:
        if c not in cols:
            err("DATA-CRT", f"a cell provenance names column {c}, which is not a column", TABLES_FILE)
    for name, rows in (("naval before the change", w.naval_before), ("naval after the change", w.naval_after),
                       ("Battle of Britain", w.battle_of_britain)):
        if len(rows) != 6:
            err("DATA-TABLE", f"the {name} table needs six rows", TABLES_FILE)
    if w.naval_change_mark not in w.marks:
        err("DATA-TABLE", f"the naval change mark {w.naval_change_mark} is not a calendar mark", TABLES_FILE)
    turns = [t for r in w.victory_surrender for t in range(r["turns"][0], r["turns"][1] + 1)]
    if turns != list(range(1, 48)):
        err("DATA-VICTORY", "the surrender table must cover turns 1-47 once each, in order (18)", TABLES_FILE, rule="18")
    pts = [r["points"] for r in w.victory_points]
    if not pts or pts[0][0] != 0 or any(pts[i][1] + 1 != pts[i + 1][0] for i in range(len(pts) - 1)):
        err("DATA-VICTORY", "the strategic point table must run from 0 without gaps (18)", TABLES_FILE, rule="18")
