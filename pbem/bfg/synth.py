"""A small synthetic Battle for Germany map for rule cases and engine unit tests: the real rule tables
(rules/bfg/*.yaml) on a 12x12 grid whose terrain, rivers and set-up each test chooses."""
from __future__ import annotations

from pathlib import Path

from pbem.core.canon import digest
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def rules_docs() -> dict:
    out = {}
    for name in ("crt", "terrain", "turns", "rulings"):
        out[name] = load_yaml((ROOT / "rules" / "bfg" / f"{name}.yaml").read_bytes(), name).data
    return out


def synth_map(rows: int = 12, cols: int = 12, *, terrain: dict | None = None, rivers=(), fortresses=(),
              east_from: int = 7, berlin: str = "1006", cities=(), yugoslavia=(), italy=(),
              prohibited=()) -> dict:
    """``prohibited``: hexsides no unit crosses and no ZOC reaches across (4.4, 6.21), as "AABB/CCDD"."""
    grid_rows = {}
    for r in range(rows, 0, -1):
        line = ""
        for c in range(1, cols + 1):
            h = f"{r:02d}{c:02d}"
            t = (terrain or {}).get(h, "clear")
            line += {"clear": ".", "rough": "r", "mountain": "m", "sea": "~", "prohibited": "x"}[t]
        grid_rows[f"{r:02d}"] = line
    city_list = [{"hex": berlin, "name": "Berlin", "vp": 10, "berlin": True, "garrison": True}]
    city_list += list(cities)
    return {
        "schema": "pbem/bfg-map/v1", "id": "synth", "title": "synthetic",
        "provenance": {"status": "provisional"},
        "grid": {"rows": rows, "columns": cols, "offset": "even-rows-east", "provenance": {"status": "provisional"}},
        "terrain": {"legend": {".": "clear", "r": "rough", "m": "mountain", "~": "sea", "x": "prohibited"},
                    "rows": grid_rows},
        "hexsides": {"rivers": [{"name": "River", "hexsides": list(rivers)}], "prohibited": list(prohibited)},
        "cities": {"list": city_list},
        "fortresses": {"hexes": list(fortresses)},
        "theater_boundary": {"east_from": {f"{r:02d}": east_from for r in range(1, rows + 1)}, "both": [berlin]},
        "yugoslavia": {"hexes": list(yugoslavia)},
        "italy": {"hexes": list(italy)},
        "edges": {
            "german_exit": {"west": [f"{r:02d}01" for r in range(4, 8)], "east": [f"{r:02d}{cols:02d}" for r in range(3, rows + 1)],
                            "south": ["0105", "0106"]},
            "soviet_replacement": [f"{r:02d}{cols:02d}" for r in range(3, rows + 1)],
            "western_replacement": [f"{r:02d}01" for r in range(1, rows + 1)],
            "italy_replacement": [h for h in italy if h.startswith("01")],
            "courland_entry": [f"{rows:02d}{c:02d}" for c in range(cols - 3, cols + 1)],
        },
    }


def unit(uid, force, strength, at, *, nation=None, type_="corps"):
    a, d, m = (int(x) for x in strength.split("-"))
    nation = nation or {"soviet": "soviet", "western-allied": "us", "east-german": "german", "west-german": "german"}[force]
    return {"id": uid, "name": uid, "nation": nation, "force": force, "type": type_, "attack": a, "defense": d,
            "move": m, "hex": at}


def scenario_doc(scenario: str) -> dict:
    """The data file of a real scenario (by id, e.g. bfg-three-player)."""
    from pbem.bfg import GAME  # the case kit loads the rules when a case runs
    rel = GAME.scenarios()[scenario]["file"]
    return load_yaml((ROOT / rel).read_bytes(), rel).data


def ruleset(units: list[dict], *, crt: dict | None = None, scenario: str | None = None,
            rules: dict | None = None, **map_kw):
    """``crt``: {column: [six results]} replacing rows of the (provisional) CRT, for cases that
    need a result the stand-in table does not give at the odds they can reach. ``scenario``: a
    scenario id whose way of playing (``play``: players, sequence, control, scenario rules,
    options), replacement overrides and turns the synthetic game takes; ``rules``: scenario
    rules set on top ({name: value})."""
    from pbem.bfg.ruleset import build_ruleset  # the case kit loads the rules when a case runs
    docs = rules_docs()
    if crt:
        docs["crt"]["results"].update({k: list(v) for k, v in crt.items()})
    docs["map"] = synth_map(**map_kw)
    docs["scenario"] = {"schema": "pbem/bfg-scenario/v1", "id": "bfg-synth", "title": "synth", "map": "synth",
                        "turns": {"first": 1, "last": 10}, "units": units}
    if scenario:
        real = scenario_doc(scenario)
        for key in ("play", "replacements"):
            if key in real:
                docs["scenario"][key] = real[key]
        docs["scenario"]["turns"] = {k: v for k, v in real["turns"].items() if k != "provenance"}
    if rules:
        import copy
        play = docs["scenario"].setdefault("play", copy.deepcopy(scenario_doc("bfg-expanded")["play"]))
        for k, v in rules.items():
            play.setdefault("rules", {})[k] = {"value": v}
    return build_ruleset(docs, digest(docs))


def state(rs, *, turn=1, phase="soviet.replacement", standing=None, campaign="t", options=None):
    from pbem.bfg.engine import _player_of  # the case kit loads the rules when a case runs
    from pbem.bfg.scenario import initial_state  # the case kit loads the rules when a case runs
    players = {p: p[0].upper() + p[1:] for p in rs.play.players}
    st = initial_state(rs, campaign=campaign, players=players, commitment="0" * 64,
                       algorithm="test", options=options or {}, engine_version="test", standing=standing)
    st["turn"] = turn
    st["phase"] = phase
    st["awaiting"] = {"player": _player_of(rs, st, phase), "for": "orders"}
    from pbem.core.canon import state_hash
    st["hash"] = state_hash(st)
    return st


def scripted(values: dict):
    from pbem.core.dice import ScriptedDice

    def make(*, step, orders_digest, state_hash):
        return ScriptedDice(values, prefix=f"bfg/t/{step}/")
    return make


def orders(player, st, phases, **extra):
    doc = {"schema": "pbem/orders/v1", "game": "bfg", "campaign": st["campaign"], "player": player,
           "turn": st["turn"], "state": st["hash"], "phases": phases}
    doc.update(extra)
    return doc


def sub(doc, name="orders.yaml"):
    from pbem.core.game import Submission
    return Submission(player=doc["player"], doc=doc, digest=digest(doc), name=name)
