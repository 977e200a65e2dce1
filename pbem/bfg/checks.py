"""What ``pbem data check`` and ``pbem show`` read of Battle for Germany: the data's consistency
checks on top of the schemas, a position's summary. Out of the package's __init__ (which holds
the plug-in, GAME) so that the plug-in reads them without importing its own package (issue 30:
no import circle).
"""
from __future__ import annotations

from ..core.errors import Issue


def consistency(rs, game) -> list[Issue]:
    """Checks ``pbem data check`` runs on top of the schemas: every reference resolves, the
    map is symmetric and connected, the set-up is legal, the tables are complete. ``game``: the
    plug-in, whose scenario files the problems name."""
    return _map_consistency(rs) + _table_consistency(rs) + _setup_consistency(rs, game)


def _map_consistency(rs) -> list[Issue]:
    """The map: symmetric, complete, connected; every hex it names playable."""
    from ..core.graph import asymmetric, unreachable
    out: list[Issue] = []

    def err(code, msg, file, **kw):
        out.append(Issue(code, msg, file=file, **kw))
    mapf = "scenarios/bfg/map.yaml"
    g = rs.grid
    for h, n in asymmetric(g.ids, g.neighbours):
        err("DATA-ADJACENCY", f"{h} lists {n} as adjacent but not the reverse", mapf)
    rows = rs.docs["map"]["terrain"]["rows"]
    if len(rows) != g.rows:
        err("DATA-TERRAIN", f"terrain has {len(rows)} rows; the grid has {g.rows}", mapf)
    for k, line in rows.items():
        if len(line) != g.columns:
            err("DATA-TERRAIN", f"terrain row {k} has {len(line)} hexes; the grid has {g.columns} columns", mapf)
    for side, name in rs.rivers.items():
        a, b = sorted(side)
        if a not in g or b not in g or not g.adjacent(a, b):
            err("DATA-RIVER", f"river {name}: hexside {a}/{b} does not join two adjacent hexes", mapf)
        elif a not in rs.playable and b not in rs.playable:
            err("DATA-RIVER", f"river {name}: hexside {a}/{b} lies between two prohibited hexes", mapf)
    for h, c in rs.cities.items():
        if h not in rs.playable:
            err("DATA-CITY", f"city {c.name} at {h} is not on a playable hex", mapf)
    if not rs.berlin:
        err("DATA-BERLIN", "no city is marked berlin: true", mapf)
    else:
        th = [rs.theater(n) for n in rs.neighbours(rs.berlin) if n in rs.playable]
        if th.count("east") < 1 or th.count("west") < 1:
            err("DATA-BERLIN", "Berlin needs entry hexes on both sides of the theatre boundary (7.22, 7.24)", mapf)
    garr = sorted(c.name for c in rs.cities.values() if c.garrison)
    if len(garr) != 4:
        err("DATA-GARRISON", f"10.0 names four garrison cities (Warsaw, Prague, Vienna, Berlin); the map marks {garr}", mapf)
    ports = [c for c in rs.cities.values() if c.courland_port]
    if len(ports) != 2:
        err("DATA-COURLAND", "8.0 names two Courland ports (Stettin, Rostock)", mapf)
    for r in range(1, g.rows + 1):
        if r not in rs.east_from:
            err("DATA-BOUNDARY", f"theater_boundary.east_from lacks row {r:02d}", mapf)
    for key, hexes in (("yugoslavia", rs.yugoslavia), ("italy", rs.italy), ("fortresses", rs.fortresses)):
        for h in sorted(hexes):
            if h not in rs.playable:
                err("DATA-HEX", f"{key}: {h} is not a playable hex", mapf)
    for key, hexes in (("soviet_replacement", rs.soviet_entry), ("western_replacement", rs.western_entry),
                       ("italy_replacement", rs.italy_entry), ("courland_entry", rs.courland_entry)):
        for h in hexes:
            if h not in rs.playable:
                err("DATA-EDGE", f"edges.{key}: {h} is not a playable hex", mapf)
    # connectivity
    land = sorted(rs.playable)
    if land:
        lost = unreachable(land, lambda h: [n for n in rs.neighbours(h) if not rs.hexside_prohibited(h, n)])
        if lost:
            err("DATA-CONNECTED", f"{len(lost)} playable hexes cannot be reached from {land[0]}", mapf,
                hint=", ".join(lost[:10]))
    return out


def _table_consistency(rs) -> list[Issue]:
    """The tables: the CRT, the turn record, the rulings."""
    out: list[Issue] = []

    def err(code, msg, file, **kw):
        out.append(Issue(code, msg, file=file, **kw))
    crtf = "rules/bfg/crt.yaml"
    for col in rs.crt_columns:
        if col not in rs.crt_results or len(rs.crt_results[col]) != 6:
            err("DATA-CRT", f"CRT column {col} needs six results", crtf)
    if sorted(rs.crt_ratios) != rs.crt_ratios:
        err("DATA-CRT", "CRT columns must run from the lowest odds to the highest", crtf)
    for t in range(rs.first_turn, rs.last_turn + 1):
        if t not in rs.turns:
            err("DATA-TURNS", f"turns.yaml has no entry for turn {t}", "rules/bfg/turns.yaml")
    if rs.retreat_hexes < 1:
        err("DATA-RULING", "retreat_hexes must be at least 1", "rules/bfg/rulings.yaml")
    return out


def _setup_consistency(rs, game) -> list[Issue]:
    """How the scenario is played (its play block) and its set-up."""
    from .board import Board  # loaded when `pbem data check` or `pbem show` runs
    out: list[Issue] = []

    def err(code, msg, file, **kw):
        out.append(Issue(code, msg, file=file, **kw))
    scf = game.scenarios().get(rs.scenario_id, {}).get("file", "scenario")
    from .play import consistency as play_consistency  # loaded when `pbem data check` or `pbem show` runs
    for code, msg in play_consistency(rs.play):
        err(code, msg, scf)
    # set-up
    st = {"units": {u: {"at": d.hex, "force": d.force} for u, d in rs.units.items()}, "flags": {}}
    board = Board(rs, st)
    from .boundary import home_theater  # loaded when `pbem data check` or `pbem show` runs
    for uid, d in sorted(rs.units.items()):
        if d.hex == "courland":
            continue
        if d.hex not in rs.grid:
            err("DATA-SETUP", f"{uid} is set up at {d.hex}, which is off the map", scf)
            continue
        if d.hex not in rs.playable:
            err("DATA-SETUP", f"{uid} is set up at {d.hex}, a prohibited hex", scf)
        home = home_theater(d.force)
        if home and rs.play.rule("boundary") == "binding" and rs.theater(d.hex) not in (home, "both"):
            err("DATA-SETUP", f"{uid} ({d.force}) is set up on the wrong side of the theatre boundary at {d.hex}", scf)
        if rs.play.rule("map_area") == "east" and rs.theater(d.hex) == "west":
            err("DATA-SETUP", f"{uid} is set up west of the theatre boundary at {d.hex}; the scenario uses only the east (14.0)", scf)
        if d.force.endswith("german") and d.hex == rs.berlin and rs.play.rule("german_berlin") == "forbidden":
            err("DATA-SETUP", f"{uid}: German units may not stand in Berlin (5.43)", scf)
        if d.force not in rs.play.control:
            err("DATA-SETUP", f"{uid}: force {d.force} is not in play in this scenario", scf)
        if d.garrison and not (d.is_front and d.force == "soviet" and d.hex in rs.cities and rs.cities[d.hex].garrison):
            err("DATA-SETUP", f"{uid}: only a Soviet Front in Warsaw, Prague, Vienna or Berlin can start as a garrison (10.0, 10.2)", scf)
        if d.nation == "yugoslav" and d.hex not in rs.yugoslavia:
            err("DATA-SETUP", f"{uid}: Yugoslav units start in Yugoslavia (5.51)", scf)
    for h, us in sorted(board.occ.items()):
        if len(us) > 2:
            err("DATA-STACK", f"{h} holds {len(us)} units at set-up ({', '.join(us)}); at most 2 (5.3)", scf)
        if sum(1 for u in us if rs.units[u].is_front) > 1:
            err("DATA-STACK", f"{h} holds two Fronts at set-up (5.3)", scf)
        camps = {board.camp(u) for u in us}
        if len(camps) > 1:
            err("DATA-SETUP", f"{h} holds units of opposing sides at set-up", scf)
    cl = [u for u, d in rs.units.items() if d.hex == "courland"]
    n_g = sum(1 for u in cl if rs.units[u].force == "east-german")
    n_s = sum(1 for u in cl if rs.units[u].force == "soviet")
    if (n_g, n_s) != (4, 2) and (cl or "east-german" in rs.play.control):
        err("DATA-COURLAND", f"8.0: Courland starts with 4 East German and 2 Soviet units; the set-up has {n_g} and {n_s}", scf)
    return out


def summary(rs, state) -> dict:
    """What `pbem show` prints: units per side, boxes, VP (in the four-player game, 17.32, the
    Berlin race instead), pending decisions."""
    from .board import Board, is_hex  # loaded when `pbem data check` or `pbem show` runs
    from .sequence import FORCE_TITLES  # loaded when `pbem data check` or `pbem show` runs
    from .victory import victory_points  # loaded when `pbem data check` or `pbem show` runs
    board = Board(rs, state)
    forces: dict[str, dict] = {}
    for uid, u in sorted(state["units"].items()):
        f = u["force"]
        entry = forces.setdefault(f, {"on_map": [], "courland": [], "boxes": {}, "gone": []})
        if is_hex(u["at"]):
            entry["on_map"].append({"unit": uid, "hex": u["at"], "strength": rs.units[uid].strength,
                                    **({"garrison": True} if u.get("garrison") else {})})
        elif u["at"] == "courland":
            entry["courland"].append(uid)
        elif u["at"].startswith("box:"):
            entry["boxes"].setdefault(u["at"][4:], []).append(uid)
        else:
            entry["gone"].append(f"{uid} ({u['at']})")
    boxes: dict[str, list[str]] = {}
    for uid, u in sorted(state["units"].items()):
        if u["at"].startswith("box:"):
            boxes.setdefault(u["at"][4:], []).append(f"{uid} {rs.units[uid].strength}")
    if rs.play.rule("victory") == "berlin-race":
        # 17.32: the four-player game is decided by who entered Berlin, not by victory points.
        from .victory import berlin_race, race_lines
        head = {"berlin_race": berlin_race(rs, state, now=True), "race_explained": race_lines(rs, state)}
    else:
        from .victory import explain  # loaded when `pbem data check` or `pbem show` runs
        vp = victory_points(board)
        head = {"vp_explained": explain(vp), "vp": vp}
    return {**head, "forces": {FORCE_TITLES[f]: v for f, v in forces.items()}, "boxes": boxes,
            "fortresses_destroyed": state["fortresses_destroyed"], "berlin": state["berlin"],
            "control": {rs.cities[h].name: s for h, s in state["control"].items()}}


def summary_lines(rs, state, *, units: bool = True) -> list[str]:
    """`pbem show` as text: victory points (the Berlin race in the four-player game), forces (with their units), boxes, fortresses."""
    summ = summary(rs, state)
    if "race_explained" in summ:
        out = list(summ["race_explained"])     # 17.32: who entered Berlin decides, not VP
    else:
        out = [f"victory points: Soviet {summ['vp']['soviet']}, Western Allies {summ['vp']['western']}"]
        out += [f"  {line}" for line in summ.get("vp_explained") or []]   # which cities score, and why some held do not
    for force, e in summ["forces"].items():
        out.append(f"{force}: {len(e['on_map'])} on the map" + (f", {len(e['courland'])} in Courland" if e['courland'] else "")
                   + (f", {sum(len(v) for v in e['boxes'].values())} destroyed" if e['boxes'] else "")
                   + (f", gone: {', '.join(e['gone'])}" if e['gone'] else ""))
        if units and e["on_map"]:
            # one line: the CLI wraps it to the terminal between entries, never inside one
            out.append("  " + ", ".join(f"{u['unit']} {u['strength']}@{u['hex']}" + ("(G)" if u.get("garrison") else "")
                                        for u in e["on_map"]))
    for b, us in summ["boxes"].items():
        out.append(f"destroyed-unit box {b}: {', '.join(us)}")
    if summ["fortresses_destroyed"]:
        out.append(f"fortresses destroyed: {', '.join(summ['fortresses_destroyed'])}")
    return out
