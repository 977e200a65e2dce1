"""BlitzWAR's side of the rule cases (tests/cases/blitzwar/**/<section>-<name>.yaml, run by the
game-neutral runner pbem/core/cases.py).

A BlitzWAR case gives, besides the core keys (``case``, ``title``, ``rule``, ``start`` with
``turn`` (default 1) and ``phase``, ``orders`` (one order file or a list, one per player),
``dice``, ``expect``, ``then``):

- ``players``: ``three`` (default) or ``two``;
- ``position``: zone -> counters ``{id?, nation, type, units, ...}`` (it replaces the set-up;
  a counter without ``id`` is numbered after its kind);
- ``at_sea`` and ``elsewhere``: counters at sea or off the map, as ``position``;
- ``supply`` (side -> held), ``control`` (zone -> side), ``war`` (added), ``sea_control``,
  ``marks`` (added), ``flags`` (added), ``combat`` (the turn's combat record);
- ``start.standing``: standing orders by player; ``start.patch``: state keys merged in (e.g.
  ``cards``, the replacement cards queued, 10.1).

and expects, besides the core's: ``counters`` (id -> its zone, or keys the counter must have),
``supply`` (side -> held), ``control`` (zone -> side, or null for the map's), ``flags`` (subset),
``absent`` (counter id -> keys it must not have). Its ``at_phase`` lets a step go straight to
the phase it is about.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..core.canon import state_hash

# The keys a BlitzWAR case may add to the core's case schema (schemas/case.schema.json,
# "game extension"): top-level keys of the case and keys of ``expect``.
CASE_KEYS = {
    "case": {
        "players": {"type": "string", "enum": ["three", "two"], "description": "Three players (axis, allies, ussr) or two (axis, allies)."},
        "position": {"type": "object", "additionalProperties": {"type": "array", "items": {
            "type": "object", "required": ["nation", "type", "units"],
            "description": "A counter: {id?, nation, type, units, elite?, ...state keys}."}},
            "description": "Zone -> the counters standing there (replaces the set-up)."},
        "supply": {"type": "object", "additionalProperties": {"type": ["integer", "string"]}, "description": "Side -> supply held (7)."},
        "control": {"type": "object", "description": "Zone -> side controlling it."},
        "war": {"type": "object", "description": "War states added to the set-up's."},
        "sea_control": {"type": "object", "description": "Sea zone -> side (12.3; the state's sea_air.sea_control)."},
        "air_at_sea": {"type": "object", "description": "Sea zone -> {side: air units} (13.4.4; the state's sea_air.air_at_sea)."},
        "marks": {"type": "array", "items": {"type": "string"}, "description": "Marks added to the set-up's."},
        "at_sea": {"$ref": "#/properties/position", "description": "Sea zone -> the counters at sea there (as position)."},
        "elsewhere": {"$ref": "#/properties/position", "description": "Place off the map (pool, ...) -> the counters there (as position)."},
        "flags": {"type": "object", "description": "State flags set (first attacks, German windows, destroyed fortress lines, ...)."},
        "combat": {"type": "object", "description": "The combat record of the turn so far (attacks made, zones attacked)."},
    },
    "expect": {
        "sea_control": {"type": "object", "description": "Sea zone -> the side that must have sea control (null: none) (12.3)."},
        "counters": {"type": "object", "description": "Counter id -> its zone, or keys the counter must have (subset match)."},
        "supply": {"type": "object", "description": "Side -> the supply it must hold."},
        "control": {"type": "object", "description": "Zone -> the side that must control it (null: none)."},
        "flags": {"type": "object", "description": "Flags the state must have (subset match)."},
        "absent": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
                   "description": "Counter id -> keys the counter must not have."},
    },
}


def world():
    """(game, ruleset) of BlitzWAR's 1939 campaign."""
    from ..core.data import load_ruleset
    return load_ruleset("blitzwar-1939")


def kind_of(w, nation: str, type_: str, units: int, elite: bool = False) -> int:
    for i, k in enumerate(w.counters[nation]):
        if k.type == type_ and (k.units == units or k.units_on() == units) and k.elite == elite:
            return i
    raise AssertionError(f"no {nation} {type_} {units} in the mix")


def case_state(w, g, case: dict) -> dict:
    """The state a case describes (on BlitzWAR's real map and mix)."""
    from .sequence import acting_players_of  # the case kit loads the rules when a case runs
    from .setup import kind_key  # the case kit loads the rules when a case runs
    start = case["start"]
    players = ["axis", "allies", "ussr"] if case.get("players", "three") == "three" else ["axis", "allies"]
    st = g.new_state(w, campaign="case", players={p: p for p in players}, commitment="0" * 64,
                     algorithm="hmac-sha256-rej64/v1", options={}, engine_version="test")
    if "position" in case:
        counters: dict[str, dict] = {}
        n: dict[str, int] = {}
        for zone, cs in [z for k in ("position", "at_sea", "elsewhere") for z in (case.get(k) or {}).items()]:
            for c in cs:
                c = dict(c)
                kind = kind_of(w, c["nation"], c["type"], int(c["units"]), bool(c.get("elite")))
                cid = c.pop("id", None)
                if cid is None:
                    stem = kind_key(w.counters[c["nation"]][kind])
                    n[stem] = n.get(stem, 0) + 1
                    cid = f"{stem}-{n[stem]}"
                c.update(kind=kind, at=zone, units=int(c["units"]))
                if c["type"] == "white-tank":
                    k = w.counters[c["nation"]][kind]
                    c.setdefault("infantry", k.infantry)
                    c.setdefault("armour", k.armour)
                assert cid not in counters, f"counter {cid} twice"
                counters[cid] = c
        st["counters"] = dict(sorted(counters.items()))
    st["turn"] = start.get("turn", 1)
    st["phase"] = start["phase"]
    for k in ("control", "war"):
        if k in case:
            st[k] = dict(st.get(k, {}), **case[k]) if k == "war" else dict(case[k])
    if "sea_control" in case:       # 12.3: the sea control in force (pbem/blitzwar/seacontrol.py)
        st["sea_air"] = dict(st.get("sea_air") or {}, sea_control=dict(sorted(case["sea_control"].items())))
    if "air_at_sea" in case:        # 13.4.4: air units at sea, as air.py records them
        st["sea_air"] = dict(st.get("sea_air") or {}, air_at_sea=case["air_at_sea"])
    for s, v in (case.get("supply") or {}).items():
        st["supply"][s] = str(v)
    if "marks" in case:
        st["marks"] = sorted(set(st["marks"]) | set(case["marks"]))
    if "flags" in case:
        st["flags"] = dict(st.get("flags") or {}, **case["flags"])
    if "combat" in case:
        st["combat"] = case["combat"]
    for p, orders in (start.get("standing") or {}).items():
        st["standing"][p] = dict(st["standing"].get(p) or {}, **orders)
    if "position" in case:
        st["setup_choices"] = {k: "made" for k in st["setup_choices"]}
    if start.get("patch"):
        # state keys set as given (e.g. the replacement cards queued, 10.1)
        from ..core.cases import merge
        st = merge(st, start["patch"])
    aw = [{"player": p, "for": "orders"} for p in acting_players_of(w, st)]
    st["awaiting"] = aw[0] if len(aw) == 1 else aw
    st["hash"] = state_hash(st)
    return st


class Kit:
    """What the game-neutral runner needs of BlitzWAR."""

    case_keys = CASE_KEYS

    def __init__(self):
        self.game, self.rs = world()

    def setup(self, case: dict) -> tuple[Any, dict]:
        return self.rs, case_state(self.rs, self.game, case)

    @staticmethod
    def rehash(st: dict) -> dict:
        st = dict(st)
        st["hash"] = state_hash({k: v for k, v in st.items() if k != "hash"})
        return st

    def at_phase(self, rs, st: dict, phase: str) -> dict:
        """The state ``st`` at ``phase`` of its turn, awaiting that phase's players (the phases
        between are skipped: a case goes straight to the phase its next step is about)."""
        from .sequence import acting_players_of  # the case kit loads the rules when a case runs
        st = dict(st, phase=phase, pending=[])
        st.pop("resume", None)
        aw = [{"player": p, "for": "orders"} for p in acting_players_of(rs, st)]
        st["awaiting"] = aw[0] if len(aw) == 1 else aw
        return st

    def submission(self, st: dict, orders: dict):
        from ..core.game import Submission
        doc = {"schema": "pbem/orders/v1", "game": "blitzwar", "campaign": "case", "player": orders["player"],
               "turn": st["turn"], "state": st["hash"],
               **{k: v for k, v in orders.items() if k != "player"}}
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
        return Submission(player=orders["player"], doc=doc, digest=digest, name=f"{orders['player']}.yaml")

    def dice(self, values: dict):
        from ..core.dice import ScriptedDice

        def make(*, step, orders_digest, state_hash):
            return ScriptedDice(values or {}, prefix=f"blitzwar/t/{step}/")
        return make

    def adjudicate(self, rs, st: dict, subs: list, dice, *, missing_orders: bool = False):
        from ..core.kernel import adjudicate
        return adjudicate(self.game, rs, st, subs, dice, missing_orders=missing_orders)

    def validate(self, rs, st: dict, subs: list):
        from ..core.kernel import validate
        return validate(self.game, rs, st, subs)

    def check(self, exp: dict, out, label: str) -> None:
        """BlitzWAR's expectations: counters, supply, control."""
        from ..core.cases import _fail as fail, subset
        for cid, want in (exp.get("counters") or {}).items():
            c = out.state["counters"].get(cid)
            fail(c is not None, f"{label}: no counter {cid}")
            fail(subset(want, c) if isinstance(want, dict) else c["at"] == want, f"{label}: {cid} is {c}, want {want}")
        for s, v in (exp.get("supply") or {}).items():
            fail(out.state["supply"][s] == str(v), f"{label}: {s} supply {out.state['supply'][s]}, want {v}")
        for z, s in (exp.get("control") or {}).items():
            fail(out.state["control"].get(z) == s, f"{label}: control of {z} is {out.state['control'].get(z)}, want {s}")
        if "flags" in exp:
            fail(subset(exp["flags"], out.state.get("flags") or {}), f"{label}: flags {out.state.get('flags')}, want {exp['flags']}")
        for sea, s in (exp.get("sea_control") or {}).items():
            got = ((out.state.get("sea_air") or {}).get("sea_control") or {}).get(sea)
            fail(got == s, f"{label}: sea control of {sea} is {got}, want {s}")
        for cid, keys in (exp.get("absent") or {}).items():
            for k in keys:
                fail(k not in out.state["counters"][cid], f"{label}: {cid} still has {k}: {out.state['counters'][cid]}")


_KIT: Kit | None = None


def kit() -> Kit:
    global _KIT
    if _KIT is None:
        _KIT = Kit()
    return _KIT
