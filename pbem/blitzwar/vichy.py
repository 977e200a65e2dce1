"""Vichy France and Free France (9.4).

フランスは、その降伏を特別なルールに従って行う: France surrenders by a special rule. When it meets
its condition of 9.2 (the capital and 4 other zones occupied) at a turn's start:

* France surrenders as 9.2 says (its units leave the game, its zones without Allied units pass
  to the Axis: occupied France), except the blue zones (map area ``vichy``): Vichy France (VF)
  is set up there (``flags.vichy``: the turn), its government controls them and is neutral;
  every unit in them is moved to the nearest zone of occupied France (その領域内の全てのユニット
  は、至近の占領下フランス・ゾーンに移動させられます; ruling vichy-units-moved);
* Vichy's infantry is placed (1 corps in Casablanca, Algeria and Mareth, 2 in Tunis; tables
  ``vichy.setup``); Vichy receives no replacements;
* everything keyed to France's surrender follows from ``FRA`` in ``flags.surrendered``: Italy
  and Hungary join the Axis, the Axis' Spanish roll, German passage through Romania (9.3, clar.
  2), the end of the British limit in French North Africa (9.6), and the first German elite
  counter (11.7: mark ``elite-first``, placed now in a German supply source the Axis holds, a
  decision of the Axis player, default the first in zone order).

Vichy is a neutral: entering or attacking its zones or units needs ``attack_neutral: [VF]``
and it joins the other side (9.3; ruling vichy-neutral). It never surrenders to the Axis; it
surrenders to the Allies when 3 ports of Vichy or occupied France are occupied by the Allies
(VFまたは占領下フランスの港3箇所が占領された場合): its units leave the game, Free France is born
(``flags.free_france``: the turn) and the French zones the Allies do not hold stay (or pass to)
the Axis. Free France receives 2 infantry corps a turn, and one more from the third turn after
Paris is liberated (``flags.paris_liberated``), anywhere in its territory (replacements.py,
11.2). Vichy's and Free France's units in their territory are always in supply.
"""
from __future__ import annotations

from .context import Ctx, vichy_stands
from .dated import elite_arrives


def _tables(ctx: Ctx) -> dict:
    return ctx.rs.docs["tables"]["vichy"]


def vichy_zones(ctx: Ctx) -> list[str]:
    return [z for z in ctx.rs.areas.get("vichy", ()) if z in ctx.rs.zones]


def occupied_france(ctx: Ctx) -> list[str]:
    """The zones of occupied France: France's zones outside Vichy that the Axis controls."""
    blue = set(vichy_zones(ctx))
    return [z for z in sorted(ctx.rs.country_zones("FRA")) if z not in blue and ctx.control(z) == "axis"]


def _nearest(ctx: Ctx, start: str, goals: set[str]) -> str | None:
    """The goal zone fewest land links away from ``start`` (ties: zone order)."""
    seen, ring = {start}, [start]
    while ring:
        hit = sorted(z for z in ring if z in goals)
        if hit:
            return hit[0]
        nxt = []
        for z in ring:
            for x in ctx.rs.zones[z].links:
                if x in ctx.rs.zones and x not in seen:
                    seen.add(x)
                    nxt.append(x)
        ring = nxt
    return None


def _move_out(ctx: Ctx) -> dict[str, str]:
    """9.4: every unit in Vichy's zones goes to the nearest zone of occupied France (ruling
    vichy-units-moved: an Allied or Soviet unit, which cannot stand in an Axis zone, to the
    nearest zone its side controls; a fleet to such a zone with a port; none: the pool)."""
    blue = set(vichy_zones(ctx))
    moved: dict[str, str] = {}
    occ = set(occupied_france(ctx))
    for cid in sorted(ctx.counters):
        c = ctx.counters[cid]
        if c["at"] not in blue or c["nation"] == "VF":
            continue
        side = ctx.side_of(cid)
        if side == "axis":
            goals = occ or {z for z in ctx.rs.zones if z not in blue and ctx.control(z) == "axis"}
        else:
            goals = {z for z in ctx.rs.zones if z not in blue and ctx.control(z) == side}
        if c["type"] == "fleet":
            goals = {z for z in goals if ctx.rs.zones[z].port}
        to = _nearest(ctx, c["at"], goals) or "pool"
        ctx.move(cid, to)
        for fl in ("active", "moved", "strategic", "attacked", "entrenched", "out_of_supply"):
            c.pop(fl, None)
        moved[cid] = to
    return moved


def first_elite(ctx: Ctx) -> str | None:
    """11.7: the first German elite counter arrives as a replacement on the turn France
    surrenders (mark ``elite-first``; pbem/blitzwar/dated.py places it)."""
    return elite_arrives(ctx, "elite-first", "France surrendered")


def surrender_ports(ctx: Ctx) -> list[str]:
    """9.4: the ports of Vichy or occupied France (France's zones) the Allies occupy."""
    return sorted(z for z in ctx.rs.country_zones("FRA") if ctx.rs.zones[z].port and ctx.control(z) == "allies")


def check_surrender(ctx: Ctx) -> None:
    """9.4: at the turn's start, Vichy surrenders to the Allies when the Allies occupy 3 ports
    of Vichy or occupied France (it never surrenders to the Axis: not when it fights for the
    Allies). Free France is born; French zones the Allies do not hold stay the Axis'."""
    if not vichy_stands(ctx.rs, ctx.state) or (ctx.state.get("war") or {}).get("VF") == "allies":
        return
    ports = surrender_ports(ctx)
    if len(ports) < int(_tables(ctx)["surrender_ports"]):
        return
    blue = vichy_zones(ctx)
    removed = []
    for cid in sorted(ctx.counters):
        c = ctx.counters[cid]
        if c["nation"] == "VF" and c["at"] != "out":
            ctx.move(cid, "out")
            removed.append(cid)
    to_axis = [z for z in blue if ctx.control(z) != "allies"]
    f = ctx.state.setdefault("flags", {})
    f["surrendered"] = sorted(set(f.get("surrendered") or []) | {"VF"})
    f["free_france"] = ctx.turn
    for cid, c in ctx.counters.items():
        if c["nation"] == "FRA" and c["at"] == "out":
            ctx.move(cid, "pool")      # France's counters serve Free France's replacements again (3)
    ctl = dict(ctx.state.get("control") or {})
    for z in to_axis:
        ctl[z] = "axis"
    ctx.state["control"] = dict(sorted(ctl.items()))
    ctx.emit("vichy-surrender", rule="9.4", ports=ports, removed=removed, control={z: "axis" for z in to_axis},
             text="Vichy France surrenders to the Allies: Free France is born; the French zones the Allies do not hold "
                  "stay the Axis'")


def note_paris(ctx: Ctx) -> None:
    """9.4: the turn Paris is liberated (Allied again after France's fall), for Free France's
    third corps."""
    f = ctx.state.get("flags") or {}
    if "FRA" in (f.get("surrendered") or ()) and "paris_liberated" not in f and \
            ctx.control(ctx.rs.countries["FRA"].capital) == "allies":
        f["paris_liberated"] = ctx.turn


def free_france_due(ctx: Ctx) -> tuple[dict, str] | None:
    """9.4: Free France's replacements this turn (2 infantry corps from its birth, one more from
    the third turn after Paris's liberation), or None."""
    f = ctx.state.get("flags") or {}
    if "free_france" not in f:
        return None
    t = _tables(ctx)["free_france"]
    n, why = int(t["infantry"]), "Free France: 2 infantry corps a turn (9.4)"
    if "paris_liberated" in f and ctx.turn >= int(f["paris_liberated"]) + int(t["paris_delay"]):
        n += int(t["after_paris"])
        why += f", and 1 more from 3 turns after Paris's liberation (turn {f['paris_liberated']})"
    return {"infantry": n}, why
