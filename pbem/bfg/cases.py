"""Battle for Germany's side of the rule cases (tests/cases/bfg/*.yaml, run by
pbem/core/cases.py): build the synthetic ruleset and state a case describes, and adjudicate or
validate an order file on it. A case gives a small map (``map``: pbem.bfg.synth.synth_map
arguments), the units (``[id, force, strength, hex, nation?, type?]``), optionally a real
scenario's way of playing (``scenario``), optional rules (``options``), single scenario rules
(``rules``), a replacement CRT row set (``crt``) and the start (turn, phase, ``patch`` of state
keys, ``unit_state`` per unit)."""
from __future__ import annotations

from typing import Any

from ..core.canon import state_hash
from . import synth


class Kit:
    """What the game-neutral runner needs of Battle for Germany."""

    def setup(self, case: dict) -> tuple[Any, dict]:
        units = [synth.unit(u[0], u[1], u[2], u[3], **({"nation": u[4]} if len(u) > 4 and u[4] else {}),
                            **({"type_": u[5]} if len(u) > 5 else {})) for u in case["units"]]
        rs = synth.ruleset(units, crt=case.get("crt"), scenario=case.get("scenario"), rules=case.get("rules"),
                           **case.get("map", {}))
        start = case["start"]
        st = synth.state(rs, turn=start.get("turn", rs.first_turn), phase=start["phase"], standing=start.get("standing"),
                         options={k: True for k in case.get("options", [])})
        for k, v in (start.get("patch") or {}).items():
            st[k] = v
        for uid, extra in (start.get("unit_state") or {}).items():
            st["units"][uid].update(extra)
        return rs, self.rehash(st)

    @staticmethod
    def rehash(st: dict) -> dict:
        st = dict(st)
        st["hash"] = state_hash({k: v for k, v in st.items() if k != "hash"})
        return st

    def submission(self, st: dict, orders: dict):
        o = dict(orders)
        player = o.pop("player")
        doc = synth.orders(player, st, o.pop("phases", []), **o)
        if not doc["phases"]:
            doc.pop("phases")
        return synth.sub(doc)

    def dice(self, values: dict):
        return synth.scripted(values)

    def adjudicate(self, rs, st: dict, subs: list, dice, *, missing_orders: bool = False):
        from . import adjudicate  # the package holds GAME, which it hands the kernel (issue 30)
        return adjudicate(rs, st, subs, dice, missing_orders=missing_orders)

    def validate(self, rs, st: dict, subs: list):
        from ..core.kernel import validate
        from . import GAME  # the case kit loads the rules when a case runs
        return validate(GAME, rs, st, subs)


def kit() -> Kit:
    return Kit()
