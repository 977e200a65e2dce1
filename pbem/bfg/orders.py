"""Order files for Battle for Germany: their header checks and their normal form.

An order file names the game, the campaign, the player, the turn and the hash of the state it
was written against, then gives orders for one or several consecutive phases of that player
(``phases``), answers to pending decisions (``decisions``) and standing orders (``standing``)
that answer mid-phase decisions in advance. The JSON Schema ``schemas/orders.schema.json``
checks the shape first; this module checks the rest and turns the phases into plain dicts with
the document path of every order (``_path``) so that errors point at file:line.
"""
from __future__ import annotations

from ..core.errors import Issue
from .play import DEFAULT_CONTROL

STANDING_KEYS: dict[str, tuple[str, ...]] = {
    "retreat": ("ask", "auto"),
    "advance": ("ask", "none"),
    "ex_losses": ("ask", "auto"),
    "replacement_ties": ("ask", "auto"),
    "courland_port": ("ask", "auto"),
}


def standing_keys_of(rs, player: str) -> dict[str, tuple[str, ...]]:
    """The standing orders ``player`` can ever be asked: ``courland_port`` (8.0) only for the
    player who commands the East German units, and only where German units start in Courland
    (not the Soviet or West German player of the four-player game, 17.0, nor anyone in Red
    Star/White Star, 15.23)."""
    keys = dict(STANDING_KEYS)
    commander = rs.play.control.get("east-german") or DEFAULT_CONTROL["east-german"]
    in_courland = any(d.hex == "courland" and d.force == "east-german" for d in rs.units.values())
    if player != commander or not in_courland:
        keys.pop("courland_port")
    return keys


def normalize_phase(entry: dict, idx: int) -> dict:
    base = ("phases", idx)
    out: dict = {"phase": entry["phase"], "_path": base}
    if entry.get("missing_orders"):
        out["_missing"] = True     # the kernel's missing-orders default: the player sent nothing
    if "replacements" in entry:
        out["replacements"] = [dict(r, _path=base + ("replacements", i)) for i, r in enumerate(entry["replacements"] or [])]
    if "moves" in entry:
        out["moves"] = [dict(m, _path=base + ("moves", i)) for i, m in enumerate(entry["moves"] or [])]
    if "attacks" in entry:
        atks = []
        for i, a in enumerate(entry["attacks"] or []):
            t = a.get("target", a.get("targets"))
            targets = [t] if isinstance(t, str) else list(t or [])
            atks.append({"targets": targets, "units": list(a.get("units", [])), "advance": a.get("advance"),
                         "ex_losses": a.get("ex_losses"), "retreats": a.get("retreats") or {},
                         "_path": base + ("attacks", i)})
        out["attacks"] = atks
    if "courland_exit" in entry:
        out["courland_exit"] = dict(entry["courland_exit"], _path=base + ("courland_exit",))
    if "courland_entry" in entry:
        out["courland_entry"] = [dict(c, _path=base + ("courland_entry", i)) for i, c in enumerate(entry["courland_entry"] or [])]
    return out


def player_phases(state: dict, seq: list) -> list[str]:
    """The phases the awaited player may order now: from the current phase to the end of
    that player's consecutive run in this turn. ``seq``: the turn's phases
    (:func:`.sequence.turn_phases`)."""
    ids = [p for p, _, _ in seq]
    if state["phase"] not in ids:
        return []
    i = ids.index(state["phase"])
    player = seq[i][1]
    out = []
    for p, pl, _ in seq[i:]:
        if pl != player:
            break
        out.append(p)
    return out


def check_phases(state: dict, doc: dict, seq: list) -> list[Issue]:
    """The phases of one order file against the state: the phases the player may order now,
    in order, each with the orders that belong in it (3.0). The core's kernel has checked the
    envelope (player, turn, who is awaited, decisions, standing orders)."""
    issues: list[Issue] = []
    player = doc.get("player")
    phases = doc.get("phases") or []
    allowed = player_phases(state, seq)
    last = -1
    for i, ph in enumerate(phases):
        name = ph.get("phase")
        if name not in allowed:
            issues.append(Issue("ORDERS-PHASE", f"phase {name!r} cannot be ordered now; the next phases of the {player} player are: {', '.join(allowed)}",
                                path=("phases", i, "phase"), text=str(name), rule="DG2 3.0"))
            continue
        k = allowed.index(name)
        if k <= last:
            issues.append(Issue("ORDERS-PHASE-ORDER", f"phase {name!r} is out of order or given twice",
                                path=("phases", i, "phase"), text=name, rule="DG2 3.0"))
        last = max(last, k)
        kind = name.split(".")[1]
        wrong = {"replacement": ("moves", "attacks"), "movement": ("replacements", "attacks", "courland_exit", "courland_entry"),
                 "combat": ("replacements", "moves", "courland_exit", "courland_entry")}[kind]
        for key in wrong:
            if key in ph:
                issues.append(Issue("ORDERS-PHASE-CONTENT", f"`{key}` does not belong in a {kind} phase",
                                    path=("phases", i, key), rule="DG2 3.0"))
    return issues
