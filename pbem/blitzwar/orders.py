"""Checks of a BlitzWAR order file's phases before anything is carried out (the schema has
checked their shape): phases the player may give now, in order of play, set-up choices only in
the first order file, counters that exist."""
from __future__ import annotations

from ..core.errors import Issue
from .sequence import orderable, step_of


def check_phases(w, state, sub) -> list[Issue]:
    out: list[Issue] = []
    allowed = orderable(w, state, sub.player)
    last = -1
    for i, ph in enumerate(sub.doc.get("phases") or []):
        name = ph.get("phase")
        if name not in allowed:
            out.append(Issue("BW-PHASE", f"the {sub.player} player cannot give orders for {name!r} now",
                             path=("phases", i, "phase"), text=str(name), rule="8",
                             hint="phases now: " + ", ".join(allowed)))
            continue
        k = allowed.index(name)
        if k <= last:
            out.append(Issue("BW-PHASE-ORDER", f"{name} is listed out of the order of play (8)", path=("phases", i, "phase"),
                             text=str(name), rule="8"))
        last = max(last, k)
        if ph.get("setup") is not None and not (name == "1.diplomacy" and state["turn"] == w.first_turn):
            out.append(Issue("BW-SETUP", "set-up choices (19) go in the turn-1 1.diplomacy orders", path=("phases", i, "setup"),
                             rule="19"))
        step = step_of(name)
        for key in ("moves", "strategic", "activate", "entrench", "revert", "reorganise"):
            if key in ph and step != "movement":
                out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the movement phase, not {name}", path=("phases", i, key)))
        if "attacks" in ph and step not in ("blitz", "combat"):
            out.append(Issue("BW-PHASE-KEY", f"attacks belong to the blitz and combat phases, not {name}", path=("phases", i, "attacks")))
        for key in ("moves", "strategic", "activate", "entrench", "revert"):
            for j, m in enumerate(ph.get(key) or []):
                cid = m.get("counter") if isinstance(m, dict) else m
                if cid not in state["counters"]:
                    out.append(Issue("BW-COUNTER", f"no counter {cid!r}", path=("phases", i, key, j), text=str(cid),
                                     hint="pbem show lists the counters"))
    return out
