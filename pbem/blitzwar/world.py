"""The BlitzWAR world as typed objects: the zone map (5), the counter mix (3, 11.6-11.8), the
set-up (19), the calendar (6, 8), the replacement cards (1, 10) and the tables (12.2, 13, 16.2,
18), built from the YAML documents under ``scenarios/blitzwar`` and ``rules/blitzwar``. Every
value keeps the provenance of its document so that ``pbem data check`` can list what is
provisional. No rule is applied here: the later BlitzWAR issues read these objects."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from operator import attrgetter
from typing import Any

from ..core.graph import distances

MAP_FILE = "scenarios/blitzwar/map.yaml"
COUNTERS_FILE = "rules/blitzwar/counters.yaml"
CALENDAR_FILE = "rules/blitzwar/calendar.yaml"
CARDS_FILE = "rules/blitzwar/cards.yaml"
TABLES_FILE = "rules/blitzwar/tables.yaml"

SIDES = ("axis", "allies", "ussr")
LAND_TYPES = ("infantry", "armour", "white-tank")
# set-up notation of 19 -> counter types that carry it
NOTATION = {"I": "infantry", "C": "armour", "S": "supply", "A": "air", "U": "uboat", "F": "fleet"}
CARD_KINDS = ("infantry", "armour", "fleet", "air", "uboat", "supply", "modernisation")


def is_provisional(prov: dict | None) -> bool:
    return (prov or {}).get("status", "provisional") == "provisional"


def _prov(*candidates: dict | None) -> dict:
    for c in candidates:
        if isinstance(c, dict) and isinstance(c.get("provenance"), dict):
            return c["provenance"]
    return {"status": "provisional"}


# ---------------------------------------------------------------------------------------------
# The records of the world. They were ``@dataclass`` classes; ``dataclasses.dataclass`` writes
# each class's methods as source text and compiles it when the module is imported: about 20 ms
# of every BlitzWAR command, a tenth of a first `pbem validate` (issue 35), and every one of
# them is made when the world is built, so a dataclass made on first use (pbem.core.lazyclass)
# would cost the same. They are written out here instead, with what the dataclasses gave: the
# same __init__ (the same arguments and defaults), __repr__, __eq__ (the compared fields of two
# instances of one class), __hash__ of the frozen ones and their refusal to be changed, and
# :meth:`_Record.replace` for ``dataclasses.replace`` (placing: a CounterKind made available;
# tests/blitzwar/test_world_records.py compares each with the dataclass it was).

class _Record:
    """The dataclass methods of a record with the fields ``_fields`` (in their order), of which
    ``_key`` gives the compared ones as a tuple; ``frozen``: hashable, its fields not settable."""

    _fields: tuple[str, ...] = ()
    _key: Any = None

    def __init_subclass__(cls, fields: str = "", uncompared: str = "", frozen: bool = False, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._fields = tuple(fields.split())
        cls._key = staticmethod(attrgetter(*(f for f in cls._fields if f not in uncompared.split())))
        if frozen:
            cls.__hash__ = _Record._hash  # type: ignore[method-assign, assignment]
            cls.__setattr__ = _Record._frozen_setattr  # type: ignore[method-assign, assignment]
            cls.__delattr__ = _Record._frozen_delattr  # type: ignore[method-assign, assignment]

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields) + ")"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._key(self) == self._key(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mutable record (eq without frozen, as dataclass)

    def replace(self, **changes: Any) -> Any:
        """A new record of the same class with ``changes`` (``dataclasses.replace``)."""
        return self.__class__(**{f: changes.pop(f) if f in changes else getattr(self, f) for f in self._fields}, **changes)

    def _hash(self) -> int:
        return hash(self._key(self))

    def _frozen_setattr(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def _frozen_delattr(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


_set = object.__setattr__   # the __init__ of a frozen record (as the dataclass's)
_FACTORY: Any = object()    # a field left to its default_factory (a new dict)


class Play(_Record, fields="players modes", frozen=True):
    players: list
    modes: dict

    def __init__(self, players: list, modes: dict) -> None:
        _set(self, "players", players)
        _set(self, "modes", modes)


class Country(_Record, fields="code name kind capital side", frozen=True):
    code: str
    name: str
    kind: str        # major | minor-power | minor (9.1)
    capital: str
    side: str        # axis | allies | ussr | neutral at the start

    def __init__(self, code: str, name: str, kind: str, capital: str, side: str) -> None:
        _set(self, "code", code)
        _set(self, "name", name)
        _set(self, "kind", kind)
        _set(self, "capital", capital)
        _set(self, "side", side)


class SeaZone(_Record, fields="id name climate at", frozen=True):
    id: str
    name: str
    climate: str     # snow | mild (6)
    at: tuple[str, str] | None

    def __init__(self, id: str, name: str, climate: str, at: tuple[str, str] | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "climate", climate)
        _set(self, "at", at)


class Strait(_Record, fields="id name city seas", frozen=True):
    id: str
    name: str
    city: str
    seas: tuple[str, str]

    def __init__(self, id: str, name: str, city: str, seas: tuple[str, str]) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "city", city)
        _set(self, "seas", seas)


class Zone(_Record, fields="id name country control terrain region climate at links rivers blue coasts thick port "
                          "naval_base far_port fortress fortress_line east_poland strategic strategic_side "
                          "supply_source supply_nation stacking box fixed provenance"):
    id: str
    name: str
    country: str
    control: str
    terrain: str
    region: str
    climate: str
    at: tuple[str, str]
    links: tuple[str, ...]
    rivers: tuple[str, ...]
    blue: tuple[str, ...]
    coasts: tuple[str, ...]
    thick: tuple[str, ...]
    port: bool
    naval_base: bool
    far_port: bool
    fortress: bool
    fortress_line: tuple[str, ...]
    east_poland: bool
    strategic: str | None          # general | national
    strategic_side: str | None     # national points: the side that loses supply (5)
    supply_source: str | None      # side
    supply_nation: str | None
    stacking: Any                  # None (3 counters), "unlimited", or {"corps": n}
    box: bool
    fixed: dict
    provenance: dict

    def __init__(self, id: str, name: str, country: str, control: str, terrain: str, region: str, climate: str,
                 at: tuple[str, str], links: tuple[str, ...], rivers: tuple[str, ...] = (), blue: tuple[str, ...] = (),
                 coasts: tuple[str, ...] = (), thick: tuple[str, ...] = (), port: bool = False, naval_base: bool = False,
                 far_port: bool = False, fortress: bool = False, fortress_line: tuple[str, ...] = (),
                 east_poland: bool = False, strategic: str | None = None, strategic_side: str | None = None,
                 supply_source: str | None = None, supply_nation: str | None = None, stacking: Any = None,
                 box: bool = False, fixed: Any = _FACTORY, provenance: Any = _FACTORY) -> None:
        self.id, self.name, self.country, self.control, self.terrain = id, name, country, control, terrain
        self.region, self.climate, self.at, self.links, self.rivers = region, climate, at, links, rivers
        self.blue, self.coasts, self.thick, self.port, self.naval_base = blue, coasts, thick, port, naval_base
        self.far_port, self.fortress, self.fortress_line, self.east_poland = far_port, fortress, fortress_line, east_poland
        self.strategic, self.strategic_side, self.supply_source = strategic, strategic_side, supply_source
        self.supply_nation, self.stacking, self.box = supply_nation, stacking, box
        self.fixed = {} if fixed is _FACTORY else fixed
        self.provenance = {} if provenance is _FACTORY else provenance

    @property
    def lat(self) -> float:
        return float(self.at[0])

    @property
    def lon(self) -> float:
        return float(self.at[1])

    @property
    def beaches(self) -> tuple[str, ...]:
        """Sea zones from which a landing is possible: coasts not drawn thick (5)."""
        return tuple(s for s in self.coasts if s not in self.thick)

    @property
    def corps_limit(self) -> int | None:
        return self.stacking["corps"] if isinstance(self.stacking, dict) else None


class CounterKind(_Record, fields="nation type units count infantry armour back full_side_from elite available "
                                 "provenance", uncompared="provenance", frozen=True):
    nation: str
    type: str
    units: int
    count: int
    infantry: int     # corps of infantry in the counter (white tank: its infantry)
    armour: int
    back: str | None
    full_side_from: str | None
    elite: bool
    available: str
    provenance: dict

    def __init__(self, nation: str, type: str, units: int, count: int, infantry: int = 0, armour: int = 0,
                 back: str | None = None, full_side_from: str | None = None, elite: bool = False,
                 available: str = "start", provenance: Any = _FACTORY) -> None:
        _set(self, "nation", nation)
        _set(self, "type", type)
        _set(self, "units", units)
        _set(self, "count", count)
        _set(self, "infantry", infantry)
        _set(self, "armour", armour)
        _set(self, "back", back)
        _set(self, "full_side_from", full_side_from)
        _set(self, "elite", elite)
        _set(self, "available", available)
        _set(self, "provenance", {} if provenance is _FACTORY else provenance)

    @property
    def land(self) -> bool:
        return self.type in LAND_TYPES

    def units_on(self, marks: frozenset[str] = frozenset()) -> int:
        """Units it holds with the calendar marks reached so far: a 3-corps counter shows its
        2-corps side before its ``full_side_from`` mark (11.6)."""
        if self.back == "two-corps" and self.full_side_from and self.full_side_from not in marks:
            return 2
        return self.units

    def land_units_on(self, marks: frozenset[str] = frozenset()) -> tuple[int, int]:
        """(infantry corps, armour corps) of a land counter."""
        n = self.units_on(marks)
        if self.type == "white-tank":
            return (self.infantry, self.armour)
        return (n, 0) if self.type == "infantry" else (0, n)


class Placement(_Record, fields="nation zone units provenance", uncompared="provenance", frozen=True):
    nation: str
    zone: str
    units: dict       # notation letter -> count
    provenance: dict

    def __init__(self, nation: str, zone: str, units: dict, provenance: Any = _FACTORY) -> None:
        _set(self, "nation", nation)
        _set(self, "zone", zone)
        _set(self, "units", units)
        _set(self, "provenance", {} if provenance is _FACTORY else provenance)


class Turn(_Record, fields="turn year season half months weather marks", frozen=True):
    turn: int
    year: int
    season: str
    half: int
    months: str
    weather: str
    marks: tuple[str, ...]

    def __init__(self, turn: int, year: int, season: str, half: int, months: str, weather: str,
                 marks: tuple[str, ...] = ()) -> None:
        _set(self, "turn", turn)
        _set(self, "year", year)
        _set(self, "season", season)
        _set(self, "half", half)
        _set(self, "months", months)
        _set(self, "weather", weather)
        _set(self, "marks", marks)


class Card(_Record, fields="id side kind units", frozen=True):
    id: str
    side: str
    kind: str        # limited | total
    units: dict      # card kind -> count

    def __init__(self, id: str, side: str, kind: str, units: dict) -> None:
        _set(self, "id", id)
        _set(self, "side", side)
        _set(self, "kind", kind)
        _set(self, "units", units)

    def value(self, weights: dict[str, Fraction]) -> Fraction:
        return sum((weights[k] * n for k, n in self.units.items()), Fraction(0))


class Deck(_Record, fields="side kind value cards british_corps provenance"):
    side: str
    kind: str
    value: Fraction
    cards: list[Card]
    british_corps: int | None
    provenance: dict

    def __init__(self, side: str, kind: str, value: Fraction, cards: list[Card], british_corps: int | None = None,
                 provenance: Any = _FACTORY) -> None:
        self.side, self.kind, self.value, self.cards, self.british_corps = side, kind, value, cards, british_corps
        self.provenance = {} if provenance is _FACTORY else provenance


class World:
    """All BlitzWAR component data of one scenario (the ``ruleset`` of the core)."""

    game_id = "blitzwar"

    def __init__(self, docs: dict[str, Any], digest: str):
        self.docs = docs
        self.digest = digest
        sc = docs["scenario"]
        self.scenario_id = sc["id"]
        self.title = sc["title"]
        self._load_map(docs["map"])
        self._load_counters(docs["counters"])
        self._load_setup(sc)
        self._load_calendar(docs["calendar"])
        self._load_cards(docs["cards"])
        self._load_tables(docs["tables"])

    def _load_map(self, m: dict) -> None:
        """rules/blitzwar/map.yaml: countries, sea zones and links, straits, areas, land zones."""
        self.map_prov = m["provenance"]
        self.stacking_default = int(m["stacking_default"]["counters"])
        self.countries = {c: Country(c, v["name"], v["kind"], v["capital"], v["side"])
                          for c, v in m["countries"].items() if c != "provenance"}
        self.seas = {s: SeaZone(s, v["name"], v["climate"], tuple(v["at"]) if "at" in v else None)
                     for s, v in m["sea_zones"].items() if s != "provenance"}
        self.sea_links: list[tuple[str, str, str | None]] = [
            (lk["seas"][0], lk["seas"][1], lk.get("strait")) for lk in m["sea_links"]["links"]]
        self.straits = {s: Strait(s, v["name"], v["city"], tuple(v["seas"]))
                        for s, v in m["straits"].items() if s != "provenance"}
        self.areas = {a: tuple(v["zones"]) for a, v in m["areas"].items()}
        self.area_prov = {a: v["provenance"] for a, v in m["areas"].items()}
        self.zones: dict[str, Zone] = {}
        for zid, v in m["zones"].items():
            st = v.get("strategic") or {}
            ss = v.get("supply_source") or {}
            self.zones[zid] = Zone(
                id=zid, name=v["name"], country=v["country"], control=v["control"], terrain=v["terrain"],
                region=v["region"], climate=v["climate"], at=tuple(v["at"]), links=tuple(v["links"]),
                rivers=tuple(v.get("rivers", ())), blue=tuple(v.get("blue", ())), coasts=tuple(v.get("coasts", ())),
                thick=tuple(v.get("thick", ())), port=bool(v.get("port")), naval_base=bool(v.get("naval_base")),
                far_port=bool(v.get("far_port")), fortress=bool(v.get("fortress")),
                fortress_line=tuple(v.get("fortress_line", ())), east_poland=bool(v.get("east_poland")),
                strategic=st.get("kind"), strategic_side=st.get("side"), supply_source=ss.get("side"),
                supply_nation=ss.get("nation"), stacking=v.get("stacking"), box=bool(v.get("box")),
                fixed=dict(v.get("fixed") or {}), provenance=v.get("provenance") or self.map_prov)

    def _load_counters(self, c: dict) -> None:
        """rules/blitzwar/counters.yaml: each nation's counter mix (3)."""
        self.counters_total = int(c["total"]["military_counters"])
        self.counters: dict[str, list[CounterKind]] = {}
        self.nation_prov = {n: _prov(v, c) for n, v in c["nations"].items()}
        for n, v in c["nations"].items():
            out = []
            for k in v["counters"]:
                t = k["type"]
                inf = k.get("infantry", k["units"] if t == "infantry" else 0)
                arm = k.get("armour", k["units"] if t == "armour" else 0)
                out.append(CounterKind(n, t, int(k["units"]), int(k["count"]), int(inf), int(arm), k.get("back"),
                                       k.get("full_side_from"), bool(k.get("elite")), k.get("available", "start"),
                                       _prov(k, v, c)))
            self.counters[n] = out

    def _load_setup(self, sc: dict) -> None:
        """The scenario: turns, sides and players, the set-up placements and choices (19)."""
        self.first_turn = int(sc["turns"]["first"])
        self.last_turn = int(sc["turns"]["last"])
        self.side_order = tuple(sc["sides"]["order"])
        self.side_titles = dict(sc["sides"]["titles"])
        self.player_modes = {"three": dict(sc["players"]["three"]), "two": dict(sc["players"]["two"])}
        # what the core reads of every ruleset: the players (three-player mode, 2)
        self.play = Play(players=list(self.player_modes["three"]), modes=self.player_modes)
        self.placements: list[Placement] = []
        for n, zones in sc["placements"].items():
            for zid, u in zones.items():
                units = {k: int(x) for k, x in u.items() if k in NOTATION and int(x) > 0}
                self.placements.append(Placement(n, zid, units, _prov(u, sc)))
        self.choices = list(sc.get("choices", []))
        self.markers = {mk["id"]: int(mk["turn"]) for mk in sc.get("markers", [])}

    def _load_calendar(self, cal: dict) -> None:
        """rules/blitzwar/calendar.yaml: turns, weather, marks (6, 8)."""
        self.turns_total = int(cal["turns_total"])
        self.first_replacement_turn = int(cal["first_replacement_turn"])
        self.marks = {k: v for k, v in cal["marks"].items()}
        self.turns = {int(t["turn"]): Turn(int(t["turn"]), int(t["year"]), t["season"], int(t["half"]),
                                           t.get("months", ""), t["weather"], tuple(t.get("marks", ())))
                      for t in cal["turns"]}
        self.turn_list = [int(t["turn"]) for t in cal["turns"]]

    def _load_cards(self, cd: dict) -> None:
        """rules/blitzwar/cards.yaml: the replacement card decks (10)."""
        self.weights = {k: Fraction(str(cd["weights"][k])) for k in CARD_KINDS}
        self.cards_per_deck = int(cd["per_deck"]["cards"])
        self.decks: dict[tuple[str, str], Deck] = {}
        for side, kinds in cd["sides"].items():
            for kind, d in kinds.items():
                cards = [Card(x["id"], side, kind, {k: int(x[k]) for k in CARD_KINDS if k in x}) for x in d["cards"]]
                self.decks[(side, kind)] = Deck(side, kind, Fraction(str(d["value"])), cards,
                                                d.get("british_corps"), _prov(d, cd))

    def _load_tables(self, tb: dict) -> None:
        """rules/blitzwar/tables.yaml: land combat (16.2), terrain, naval, Battle of Britain, victory,
        the strategic point track."""
        lc = tb["land_combat"]
        self.crt_columns: list[str] = list(lc["columns"])
        # each column with the odds it stands for ("3-2": 3/2), read once (each attack reads them)
        self.crt_ratios: list[tuple[str, Fraction]] = [(c, Fraction(*map(int, c.split("-")))) for c in self.crt_columns]
        self.crt_results: dict[str, list[str]] = {k: list(v) for k, v in lc["results"].items()}
        self.crt_prov = lc["provenance"]
        self.crt_cell_prov = {(x["column"], int(x["die"])): x["provenance"] for x in lc["cells"]}
        self.crt_reductions = list(lc["reductions"]["rules"])
        a, b = lc["below"]["ratio"].split("-")           # the schema's pattern: "2-3"
        self.crt_below = Fraction(int(a), int(b))        # lowest odds allowed (16.2)
        self.terrain_effects = {k: v for k, v in tb["terrain_effects"].items() if k != "provenance"}
        self.naval_before = list(tb["naval"]["before_change"])
        self.naval_after = list(tb["naval"]["after_change"]["results"])
        self.naval_change_mark = tb["naval"]["after_change"]["mark"]
        self.battle_of_britain = list(tb["battle_of_britain"]["results"])
        self.strategic_bombing = {k: v for k, v in tb["strategic_bombing"].items() if k != "provenance"}   # 13.3 (air)
        self.victory_surrender = list(tb["victory"]["surrender"])
        self.victory_points = list(tb["victory"]["no_surrender"])
        self.german_defence_at = int(tb["strategic_track"]["german_defence_at"])
        self.italy_hungary_entry_at = int(tb["strategic_track"]["italy_hungary_entry_at"])
        self._index()

    def _index(self) -> None:
        """What the rules look up again and again (every supply line asks for the ports of a
        sea), indexed once: each list keeps the map's zone order, as a scan of the zones would."""
        self._zones_on_sea: dict[str, tuple[str, ...]] = {}
        self._ports_on_sea: dict[str, tuple[str, ...]] = {}
        self._country_zones: dict[str, tuple[str, ...]] = {}
        self._supply_sources: dict[str, tuple[str, ...]] = {}
        self._by_name: dict[str, Zone] = {}
        for z in self.zones.values():
            for s in z.coasts:
                self._zones_on_sea[s] = self._zones_on_sea.get(s, ()) + (z.id,)
                if z.port:
                    self._ports_on_sea[s] = self._ports_on_sea.get(s, ()) + (z.id,)
            self._country_zones[z.country] = self._country_zones.get(z.country, ()) + (z.id,)
            if z.supply_source:
                self._supply_sources[z.supply_source] = self._supply_sources.get(z.supply_source, ()) + (z.id,)
            self._by_name.setdefault(z.name.lower(), z)
        self._sea_neighbours: dict[str, tuple[str, ...]] = {}
        self._sea_links_from: dict[str, tuple[tuple[str, str | None], ...]] = {}
        # the distances from a zone over the map, worked out on first use (the map never changes)
        self._land_dist: dict[str, dict[str, int]] = {}
        self._air_dist: dict[str, dict[str, int]] = {}
        for a, b, strait in self.sea_links:
            self._sea_neighbours[a] = self._sea_neighbours.get(a, ()) + (b,)
            self._sea_links_from[a] = self._sea_links_from.get(a, ()) + ((b, strait),)
            if b != a:
                self._sea_neighbours[b] = self._sea_neighbours.get(b, ()) + (a,)
                self._sea_links_from[b] = self._sea_links_from.get(b, ()) + ((a, strait),)
        self._strategic = tuple(z for z in self.zones.values() if z.strategic)
        # each land zone's links to land zones, in the map's order (a supply line's steps, 7)
        self.land_links: dict[str, tuple[str, ...]] = {
            zid: tuple(x for x in z.links if x in self.zones) for zid, z in self.zones.items()}
        # land zone -> the land zones linked to it (a supply line's steps read backwards, 7)
        to: dict[str, list[str]] = {zid: [] for zid in self.zones}
        for zid, links in self.land_links.items():
            for x in links:
                to[x].append(zid)
        self.land_links_to: dict[str, tuple[str, ...]] = {zid: tuple(v) for zid, v in to.items()}
        # the ports a supply line leaves by sea (not far ports, 7) with their sea zones, in the
        # map's order, and the places of the sea links that are no land zone (its sea steps)
        self.port_coasts: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
            (zid, tuple(s for s in z.coasts if s in self.seas)) for zid, z in self.zones.items() if z.port and not z.far_port)
        self.sea_nodes: tuple[str, ...] = tuple(
            n for n in dict.fromkeys([*self.seas, *(x for a, b, _ in self.sea_links for x in (a, b))]) if n not in self.zones)
        # 4: each zone's stacking as (kind, limit): ``unlimited``, ``corps`` (its corps limit) or
        # ``counters`` (the map's default)
        self._stack_limits: dict[str, tuple[str, int | None]] = {
            zid: (("unlimited", None) if z.stacking == "unlimited" else ("corps", z.corps_limit)
                  if z.corps_limit is not None else ("counters", self.stacking_default))
            for zid, z in self.zones.items()}
        self.stack_limits = self._stack_limits      # (read as a mapping where every zone is asked)

    # ------------------------------------------------------------------ the map
    def zone_named(self, name: str) -> Zone | None:
        return self._by_name.get(name.lower())

    def land_neighbours(self, zid: str) -> tuple[str, ...]:
        z = self.zones.get(zid)
        return z.links if z else ()

    def air_neighbours(self, zid: str) -> tuple[str, ...]:
        """One zone away for air units: a land link or a blue dashed line (13.4.1)."""
        z = self.zones.get(zid)
        return (z.links + z.blue) if z else ()

    def land_distance(self, a: str, b: str) -> int | None:
        if a not in self._land_dist:
            self._land_dist[a] = distances(a, self.land_neighbours)
        return self._land_dist[a].get(b)

    def air_distance(self, a: str, b: str) -> int | None:
        if a not in self._air_dist:
            self._air_dist[a] = distances(a, self.air_neighbours)
        return self._air_dist[a].get(b)

    def in_air_range(self, base: str, target: str) -> bool:
        """13.4.1: within 3 zones (land or blue links), or both zones on the coast of one sea."""
        d = self.air_distance(base, target)
        if d is not None and d <= 3:
            return True
        return bool(set(self.zones[base].coasts) & set(self.zones[target].coasts))

    def zones_on_sea(self, sea: str) -> list[str]:
        return list(self._zones_on_sea.get(sea, ()))

    def ports_on_sea(self, sea: str) -> tuple[str, ...]:
        return self._ports_on_sea.get(sea, ())

    def sea_neighbours(self, sea: str) -> tuple[str, ...]:
        return self._sea_neighbours.get(sea, ())

    def stack_limit(self, zid: str) -> tuple[str, int | None]:
        """(kind, limit) of a zone's stacking (4): ``unlimited`` (None), ``corps`` (its corps
        limit) or ``counters`` (:attr:`stacking_default`)."""
        return self._stack_limits[zid]

    def sea_links_from(self, sea: str) -> tuple[tuple[str, str | None], ...]:
        """(the sea zone linked to ``sea``, the strait of the link) of each sea link at ``sea``, in
        the order of the map's sea links (:meth:`sea_neighbours` with the straits, 12.1)."""
        return self._sea_links_from.get(sea, ())

    def strategic_zones(self, side: str | None = None) -> list[Zone]:
        """Zones worth a strategic point, controlled by ``side`` at the start (all with None)."""
        return [z for z in self._strategic if side is None or z.control == side]

    def supply_sources(self, side: str) -> list[str]:
        return list(self._supply_sources.get(side, ()))

    def country_zones(self, country: str) -> list[str]:
        return list(self._country_zones.get(country, ()))

    def start_side(self, nation: str) -> str:
        """The side the map prints for a country at the set-up (neutral for the 1939 neutrals);
        not the side its counters fight for now, which is context.nation_side (its ``war`` entry)."""
        c = self.countries.get(nation)
        return c.side if c else "neutral"

    def weather(self, turn: int, zone_or_sea: str) -> str:
        """Weather in one land or sea zone on ``turn`` (6): snow only where the climate snows."""
        t = self.turns[turn]
        if t.weather != "snow":
            return t.weather
        place = self.zones.get(zone_or_sea) or self.seas.get(zone_or_sea)
        return "snow" if place is not None and place.climate == "snow" else "fine"

    def turn_date(self, turn: int) -> str:
        """The turn's date as `pbem show` prints it, e.g. "summer 1939, 2nd half" (8)."""
        t = self.turns.get(turn)
        return f"{t.season} {t.year}, {'1st' if t.half == 1 else '2nd'} half" if t else ""

    def marks_by(self, turn: int) -> frozenset[str]:
        """Calendar marks printed on turns up to ``turn``."""
        return frozenset(m for t in self.turn_list if t <= turn for m in self.turns[t].marks)

    # ------------------------------------------------------------------ provenance
    def provisional_items(self) -> list[dict]:
        """Every provisional value or block, for ``pbem data check``."""
        out: list[dict] = []
        file_provs = [self.docs[k].get("provenance") for k in ("map", "counters", "scenario", "cards", "tables")]

        def add(file: str, item: str, prov: dict | None, extra: str = "") -> None:
            if any(prov is fp for fp in file_provs) and not item.startswith("file "):
                # the file's own note is listed once; its items only point to it
                prov = {"status": "provisional", "note": "see the file's provenance"}
            if is_provisional(prov):
                note = (prov or {}).get("note", "")
                out.append({"file": file, "item": item, "note": (extra + ("; " if extra and note else "") + note) if extra else note})

        add(MAP_FILE, "file map: the whole reconstruction", self.map_prov)
        m = self.docs["map"]
        add(MAP_FILE, "sea zones", m["sea_zones"]["provenance"])
        add(MAP_FILE, "sea links", m["sea_links"]["provenance"])
        for a, p in self.area_prov.items():
            add(MAP_FILE, f"area {a}: {', '.join(self.areas[a])}", p)
        for z in self.zones.values():
            fixed = "; ".join(f"{k} by {v}" for k, v in z.fixed.items())
            add(MAP_FILE, f"zone {z.name}: " + ", ".join(_zone_facts(z)), z.provenance,
                f"rulebook: {fixed}; the rest provisional" if fixed else "")
        add(COUNTERS_FILE, "file counter mix: the split of the 251 counters", self.docs["counters"]["provenance"])
        for n, kinds in self.counters.items():
            for k in kinds:
                add(COUNTERS_FILE, f"{n} {k.count} x {k.type} {k.units}" + (" (elite)" if k.elite else "")
                    + ("" if k.available == "start" else f" [{k.available}]"), k.provenance)
        sf = f"scenarios/blitzwar/{self.scenario_id.replace('blitzwar-', 'setup-')}.yaml"
        add(sf, "file set-up: the placements of section 19", self.docs["scenario"]["provenance"])
        for p in self.placements:
            add(sf, f"set-up {p.nation} {self.zones[p.zone].name if p.zone in self.zones else p.zone}: "
                + ", ".join(f"{k}{v}" for k, v in p.units.items()), p.provenance)
        for ch in self.choices:
            add(sf, f"default for choice {ch['id']}: " + "; ".join(
                f"{z} " + ", ".join(f"{k}{v}" for k, v in u.items() if k in NOTATION)
                for z, u in ch["default"]["zones"].items()), ch["default"]["provenance"])
        for mid, v in self.marks.items():
            add(CALENDAR_FILE, f"mark {mid}", v["provenance"])
        add(CARDS_FILE, "file cards: the contents of the 48 cards", self.docs["cards"]["provenance"])
        for (side, kind), d in self.decks.items():
            add(CARDS_FILE, f"{side} {kind}-war cards ({len(d.cards)} of value {d.value})", d.provenance)
        for col in self.crt_columns:
            for die in range(1, 7):
                res = self.crt_results.get(col, ["?"] * 6)
                add(TABLES_FILE, f"land combat {col} die {die} = {res[die - 1] if len(res) >= die else '?'}",
                    self.crt_cell_prov.get((col, die), self.crt_prov))
        for r in self.crt_reductions:
            if r.get("provenance"):
                add(TABLES_FILE, f"land combat reduction: {' and '.join(r['results'])} become {r['becomes']} "
                    f"({r['when'].replace('-', ' ')})", r["provenance"])
        st = self.docs["tables"]["strategic_track"]
        add(TABLES_FILE, f"strategic point track length {st['length']}", st.get("length_provenance"))
        return out


def _zone_facts(z: Zone) -> list[str]:
    """What the map says of a zone, in words (``pbem data check``'s provisional list)."""
    facts = [z.terrain, f"{len(z.links)} links"]
    if z.coasts:
        facts.append("coast " + "/".join(z.coasts))
    for flag in ("port", "naval_base", "fortress", "east_poland"):
        if getattr(z, flag):
            facts.append(flag.replace("_", " "))
    if z.strategic:
        facts.append(f"{z.strategic} point" + (f" ({z.strategic_side})" if z.strategic_side else ""))
    if z.supply_source:
        facts.append(f"supply source {z.supply_source}")
    return facts
