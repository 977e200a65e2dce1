"""The Battle for Germany ruleset: component data turned into lookup structures.

Nothing here reads files: the core loads ``rules/bfg/*.yaml`` and ``scenarios/bfg/*.yaml`` and
passes the parsed documents to :func:`build_ruleset`. The engine never hard-codes a component;
every table, hex and counter comes from this object, and every value keeps its provenance so a
report can say when a provisional value decided an outcome.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .hexmap import HexGrid
from .play import build_play

RULESET_ID = "bfg"
RULESET_VERSION = "1"

# The five destroyed-unit boxes (7.0).
BOXES = ("western-allied", "allied-italy", "east-german", "west-german", "soviet")


@dataclass(frozen=True)
class UnitDef:
    id: str
    name: str
    nation: str
    force: str          # force at the start of the scenario
    type: str           # corps | army | front
    attack: int
    defense: int
    move: int
    hex: str            # set-up hex or "courland"
    provenance: dict
    garrison: bool = False   # a garrison at the start of the scenario (10.2, 15.0)

    @property
    def is_front(self) -> bool:
        return self.type == "front"

    @property
    def strength(self) -> str:
        return f"{self.attack}-{self.defense}-{self.move}"


@dataclass(frozen=True)
class City:
    hex: str
    name: str
    vp: int
    berlin: bool = False
    garrison: bool = False
    courland_port: bool = False
    provenance: dict = field(default_factory=dict)


def _prov(block: dict | None, item: dict | None = None) -> dict:
    if item and isinstance(item.get("provenance"), dict):
        return item["provenance"]
    if block and isinstance(block.get("provenance"), dict):
        return block["provenance"]
    return {"status": "provisional"}


def _field_prov(entry: dict, name: str) -> dict:
    p = entry.get("provenance") or {"status": "provisional"}
    if "status" in p:
        return p
    return p.get(name, {"status": "provisional"})


def _pairs(side: frozenset) -> tuple[tuple[str, str], ...]:
    """A hexside (the set of its two hexes) as ordered pairs, both ways."""
    t = tuple(side)
    return ((t[0], t[-1]), (t[-1], t[0]))


def is_provisional(prov: dict) -> bool:
    return prov.get("status") == "provisional"


def parse_ratio(col: str) -> Fraction:
    a, d = col.split(":")
    return Fraction(int(a), int(d))


class Ruleset:
    """All component data of one Battle for Germany scenario, indexed for the engine."""

    def __init__(self, *, map_doc: dict, scenario_doc: dict, crt_doc: dict, terrain_doc: dict,
                 turns_doc: dict, rulings_doc: dict, digest: str, setup_doc: dict | None = None):
        self.digest = digest
        self.id = RULESET_ID
        self.version = RULESET_VERSION
        self.scenario_id = scenario_doc["id"]
        self.scenario_title = scenario_doc.get("title", self.scenario_id)
        self.first_turn = int(scenario_doc["turns"]["first"])
        self.last_turn = int(scenario_doc["turns"]["last"])
        self.docs = {"map": map_doc, "scenario": scenario_doc, "crt": crt_doc,
                     "terrain": terrain_doc, "turns": turns_doc, "rulings": rulings_doc}
        if setup_doc is not None:
            self.docs["setup"] = setup_doc
        # --- how the scenario is played (players, sequence, scenario rules: 3.0, 12-17) ---
        self.play = build_play(scenario_doc.get("play"))
        self._read_map(map_doc, terrain_doc)
        self._read_units(scenario_doc, setup_doc)
        self._read_crt(crt_doc)
        self._read_turns(turns_doc, scenario_doc)
        # --- rulings ---------------------------------------------------------------
        self.rulings = rulings_doc
        self.retreat_hexes = int(rulings_doc["retreat_hexes"]["value"])

    def _read_map(self, map_doc: dict, terrain_doc: dict) -> None:
        """The map: grid, terrain, hexsides, cities, the theater boundary (5.4), the edges."""
        g = map_doc["grid"]
        self.grid = HexGrid(int(g["rows"]), int(g["columns"]), g["offset"])
        legend = map_doc["terrain"]["legend"]
        self.terrain: dict[str, str] = {}
        rows = map_doc["terrain"]["rows"]
        for rkey, line in rows.items():
            r = int(rkey)
            for c, ch in enumerate(line, start=1):
                self.terrain[f"{r:02d}{c:02d}"] = legend[ch]
        self.terrain_prov = _prov(map_doc["terrain"])
        tec = terrain_doc["terrain"]
        self.tec = tec
        self.features = terrain_doc["features"]
        self.cumulative_rule = terrain_doc["cumulative"]["rule"]
        self.playable = frozenset(h for h, t in self.terrain.items()
                                  if not tec.get(t, {}).get("prohibited", False))
        hs = map_doc.get("hexsides", {})
        self.rivers: dict[frozenset, str] = {}
        for river in hs.get("rivers", []):
            for side in river["hexsides"]:
                a, b = side.split("/")
                self.rivers[frozenset((a, b))] = river["name"]
        self.prohibited_sides = frozenset(frozenset(s.split("/")) for s in hs.get("prohibited", []))
        # the same hexsides as ordered pairs, both ways (asked for every step: no set built per question)
        self._river_pairs = {p: name for side, name in self.rivers.items() for p in _pairs(side)}
        self._prohibited_pairs = frozenset(p for side in self.prohibited_sides for p in _pairs(side))
        self._theater: dict[str, str] = {}
        self.cities: dict[str, City] = {}
        cblock = map_doc.get("cities", {})
        for c in cblock.get("list", []):
            self.cities[c["hex"]] = City(hex=c["hex"], name=c["name"], vp=int(c["vp"]),
                                         berlin=bool(c.get("berlin", False)),
                                         garrison=bool(c.get("garrison", False)),
                                         courland_port=bool(c.get("courland_port", False)),
                                         provenance=_prov(cblock, c))
        self.city_by_name = {c.name.lower(): c for c in self.cities.values()}
        self.city_hexes = tuple(sorted(self.cities))   # (city control goes through them in this order, 11.0)
        berlins = [c.hex for c in self.cities.values() if c.berlin]
        self.berlin = berlins[0] if berlins else None
        self.fortresses = frozenset(map_doc.get("fortresses", {}).get("hexes", []))
        tb = map_doc["theater_boundary"]
        self.east_from = {int(k): int(v) for k, v in tb["east_from"].items()}
        self.theater_both = frozenset(tb.get("both", []))
        self.yugoslavia = frozenset(map_doc.get("yugoslavia", {}).get("hexes", []))
        self.italy = frozenset(map_doc.get("italy", {}).get("hexes", []))
        e = map_doc["edges"]
        self.german_exit = {k: tuple(v) for k, v in e["german_exit"].items()}
        self.exit_hexes = {h: zone for zone, hexes in self.german_exit.items() for h in hexes}
        self.soviet_entry = tuple(e["soviet_replacement"])
        self.western_entry = tuple(e["western_replacement"])
        self.italy_entry = tuple(e["italy_replacement"])
        self.courland_entry = tuple(e["courland_entry"])
        self.map_prov = _prov(map_doc)

    def _read_units(self, scenario_doc: dict, setup_doc: dict | None) -> None:
        """The units of the scenario (after ``self.play``, whose forces a shared set-up keeps).
        Either the scenario's own set-up, or another scenario's (``setup.from``: 14.0, 16.2,
        17.1 use the Historical set-up) keeping only the forces in play (14.0)."""
        self.units: dict[str, UnitDef] = {}
        sblock = scenario_doc
        unit_list = scenario_doc.get("units")
        keep = None
        if unit_list is None and setup_doc is not None:
            sblock = setup_doc
            unit_list = setup_doc["units"]
            keep = set(scenario_doc["setup"].get("forces") or self.play.forces)
        for u in unit_list or []:
            if keep is not None and u["force"] not in keep:
                continue
            self.units[u["id"]] = UnitDef(id=u["id"], name=u.get("name", u["id"]), nation=u["nation"],
                                          force=u["force"], type=u["type"], attack=int(u["attack"]),
                                          defense=int(u["defense"]), move=int(u["move"]),
                                          hex=u["hex"], provenance=_prov(sblock, u),
                                          garrison=bool(u.get("garrison", False)))

    def _read_crt(self, crt_doc: dict) -> None:
        self.crt_columns = list(crt_doc["columns"])
        self.crt_ratios = [parse_ratio(c) for c in self.crt_columns]
        #: (column, p, q) of each column's odds p:q, in order (combat.odds_column compares in integers)
        self.crt_pq = [(c, r.numerator, r.denominator) for c, r in zip(self.crt_columns, self.crt_ratios)]
        self.crt_results = {col: list(v) for col, v in crt_doc["results"].items()}
        self.crt_below = crt_doc["below_lowest"]
        self.crt_above = crt_doc["above_highest"]
        self.crt_prov = _prov(crt_doc)
        self.crt_cell_prov = {(c["column"], int(c["die"])): c["provenance"] for c in crt_doc.get("cells", [])}

    def _read_turns(self, turns_doc: dict, scenario_doc: dict) -> None:
        """The turn record, and a scenario's replacement numbers that replace the track's."""
        self.turns = {int(t["turn"]): t for t in turns_doc["turns"]}
        self.turns_prov = _prov(turns_doc)
        self.wa_repl_prov = turns_doc.get("western_allied_provenance", self.turns_prov)
        # A scenario may replace replacement numbers of the track (14.0, 15.0): a list of
        # {boxes: {box: n}, turns: [..] (default all), provenance}.
        self.repl_overrides = [(dict(o["boxes"]), frozenset(o.get("turns") or ()), _prov(None, o))
                               for o in scenario_doc.get("replacements") or []]
        # What the rules work out once per ruleset, kept as they ask (declared here, never put
        # into the instance's __dict__ by hand: reading __dict__ makes Python 3.11 read every
        # attribute of the object the slow way, twice as long: issue 35)
        self.zoc_neighbours_kept: dict[str, tuple[str, ...]] = {}  # hex -> :meth:`zoc_neighbours`
        self.zoc_sources_kept: dict[str, tuple[str, ...]] = {}     # hex -> :meth:`zoc_sources`
        self.turn_phases_kept: dict[Any, Any] = {}    # (skips, lost player-turns) -> the phases (sequence.py)
        self.phase_forces_kept: dict[str, tuple[str, ...]] = {}  # phase -> its forces (movement.py)
        self.terrain_defense_kept: dict[str, Any] = {}  # hex -> its terrain defence and note (combat.py)
        self.to_berlin_kept: dict[str, int] = {}      # hex -> its distance to Berlin (combat.py)
        self.city_zoc_from_kept: dict[str, tuple[str, ...]] | None = None  # (victory.py)

    # ------------------------------------------------------------------ map queries
    def theater(self, h: str) -> str:
        """'east', 'west' or 'both' (5.4; Berlin belongs to both, see rulings)."""
        th = self._theater.get(h)
        if th is None:
            if h in self.theater_both:
                th = "both"
            else:
                r, c = int(h[:2]), int(h[2:])
                th = "east" if c >= self.east_from[r] else "west"
            self._theater[h] = th
        return th

    def hexside_river(self, a: str, b: str) -> str | None:
        return self._river_pairs.get((a, b))

    def hexside_prohibited(self, a: str, b: str) -> bool:
        return (a, b) in self._prohibited_pairs

    def neighbours(self, h: str) -> tuple[str, ...]:
        return self.grid.neighbours(h)

    def zoc_neighbours(self, h: str) -> tuple[str, ...]:
        """The hexes a unit in ``h`` exerts its ZOC into (4.1): its playable neighbours not
        across a prohibited hexside. Worked out once per hex."""
        cache = self.zoc_neighbours_kept
        out = cache.get(h)
        if out is None:
            out = cache[h] = tuple(n for n in self.neighbours(h)
                                   if n in self.playable and not self.hexside_prohibited(h, n))
        return out

    def zoc_sources(self, h: str) -> tuple[str, ...]:
        """The hexes from which a unit exerts its ZOC into ``h`` (those whose
        :meth:`zoc_neighbours` hold ``h``; the grid's adjacency is symmetric). Worked out once
        per hex."""
        cache = self.zoc_sources_kept
        out = cache.get(h)
        if out is None:
            out = cache[h] = tuple(x for x in self.neighbours(h) if h in self.zoc_neighbours(x))
        return out

    def enter_cost(self, a: str, b: str) -> int:
        cost = int(self.tec[self.terrain[b]]["move_cost"])
        if self.hexside_river(a, b):
            cost += int(self.features["river"]["move_cost"])
        return cost

    def terrain_defense(self, h: str) -> int:
        return int(self.tec[self.terrain[h]].get("defense", 1))

    def terrain_defense_prov(self, h: str) -> dict:
        return _field_prov(self.tec[self.terrain[h]], "defense")

    def _override(self, turn: int | None, box: str):
        for boxes, turns, prov in self.repl_overrides:
            if box in boxes and (not turns or turn is None or turn in turns):
                return boxes[box], prov
        return None

    def replacements(self, turn: int, box: str) -> int:
        o = self._override(turn, box)
        if o is not None:
            return int(o[0])
        t = self.turns.get(turn)
        if not t:
            return 0
        return int(t["replacements"].get(box, 0))

    def replacement_prov(self, box: str, turn: int | None = None) -> dict:
        o = self._override(turn, box)
        if o is not None:
            return o[1]
        return self.wa_repl_prov if box == "western-allied" else self.turns_prov

    def turn_date(self, turn: int) -> str:
        t = self.turns.get(turn)
        return t.get("date", "") if t else ""

    # ------------------------------------------------------------------ provenance
    def provisional_items(self) -> list[dict]:
        """Every provisional value or block, for ``pbem data check``."""
        out: list[dict] = []

        def add(file: str, what: str, prov: dict) -> None:
            if is_provisional(prov):
                out.append({"file": file, "item": what, "note": prov.get("note", "")})

        add("scenarios/bfg/map.yaml", "map (whole reconstruction)", self.map_prov)
        add("scenarios/bfg/map.yaml", "terrain of every hex", self.terrain_prov)
        m = self.docs["map"]
        for key in ("hexsides", "fortresses", "theater_boundary", "yugoslavia", "italy", "edges"):
            if key in m:
                add("scenarios/bfg/map.yaml", key, _prov(m[key]) if isinstance(m[key], dict) else {})
        for c in self.cities.values():
            add("scenarios/bfg/map.yaml", f"city {c.name} ({c.hex}, {c.vp} VP)", c.provenance)
        sc = f"scenarios/bfg/{self.docs['scenario'].get('file', self.scenario_id.replace('bfg-', '') + '.yaml')}"
        tp = self.docs["scenario"]["turns"].get("provenance")
        if tp:
            add(sc, f"turns {self.first_turn}-{self.last_turn}", tp)
        usc = sc
        if "setup" in self.docs and "units" not in self.docs["scenario"]:
            usc = f"scenarios/bfg/{self.docs['scenario']['setup']['from']}"
        for u in self.units.values():
            add(usc, f"unit {u.id} {u.strength} at {u.hex}", u.provenance)
        add("rules/bfg/crt.yaml", "CRT columns", self.docs["crt"].get("columns_provenance", self.crt_prov))
        for col in self.crt_columns:
            for die in range(1, 7):
                p = self.crt_cell_prov.get((col, die), self.crt_prov)
                add("rules/bfg/crt.yaml", f"CRT {col} die {die} = {self.crt_results[col][die - 1]}", p)
        add("rules/bfg/crt.yaml", "odds below the lowest column", self.crt_below.get("provenance", self.crt_prov))
        add("rules/bfg/crt.yaml", "odds above the highest column", self.crt_above.get("provenance", self.crt_prov))
        for name, entry in self.tec.items():
            for f in ("move_cost", "defense"):
                if f in entry:
                    add("rules/bfg/terrain.yaml", f"{name} {f} = {entry[f]}", _field_prov(entry, f))
        for name, entry in self.features.items():
            for f in ("move_cost", "defense"):
                if f in entry:
                    add("rules/bfg/terrain.yaml", f"{name} {f} = {entry[f]}", _field_prov(entry, f))
        for t in sorted(self.turns):
            for box, n in self.turns[t]["replacements"].items():
                if self._override(t, box) is None:
                    add("rules/bfg/turns.yaml", f"turn {t} {box} replacements = {n}", self.replacement_prov(box))
        for boxes, turns, prov in self.repl_overrides:
            when = f"turns {', '.join(str(t) for t in sorted(turns))}" if turns else "every turn"
            add(sc, f"replacements {', '.join(f'{b} {n}' for b, n in boxes.items())} ({when})", prov)
        if self.play.from_data:
            for k in sorted(self.play.rules_prov):
                if k in (self.docs["scenario"].get("play", {}).get("rules") or {}):
                    add(sc, f"scenario rule {k} = {self.play.rules[k]}", self.play.rules_prov[k])
        for key, entry in self.rulings.items():
            if isinstance(entry, dict) and "value" in entry:
                add("rules/bfg/rulings.yaml", f"ruling {key} = {entry['value']}", entry.get("provenance", {}))
        return out


def build_ruleset(docs: dict[str, Any], digest: str) -> Ruleset:
    return Ruleset(map_doc=docs["map"], scenario_doc=docs["scenario"], crt_doc=docs["crt"],
                   terrain_doc=docs["terrain"], turns_doc=docs["turns"], rulings_doc=docs["rulings"],
                   digest=digest, setup_doc=docs.get("setup"))
