"""Dated and event marks of the calendar (19) with an effect that no other module carries:
the German elite counters (11.7) and the Karelia counters (clarification 5, replacing 11.8's
white tank). Checked in the diplomacy phase (9: at the start of each turn).

* 11.7: エリートと記されたドイツ軍コマは、以下の場合に補充として登場します: the first elite
  counter on the turn France surrenders (pbem/blitzwar/vichy.py calls :func:`elite_arrives`),
  the second 6 turns after the Axis first attacks the USSR or East Poland (``flags.axis_ussr_war``
  + 6: mark ``elite-second``); each in a German supply source the Axis holds (11.10), a decision
  of the Axis player (default the first in zone order). ある時点で、同時にソ連内に存在できる
  エリート部隊コマは、1個だけ: at most one elite counter in the USSR at a time
  (:func:`elite_limit`, read by diplomacy.limit_issue for moves, advances and retreats).
* Clarification 5: ソ連軍がカレリア(フィンランド)を占領した場合、1941年の最後のターンに、2個の
  「3個歩兵軍団」コマを、編成に使用可能なコマのプールへと加える: on the last turn of 1941 (mark
  ``karelia-counters``), if the USSR occupies Karelia, its two 3-corps infantry counters
  (``available: karelia``) join the pool (``flags.karelia``: the turn); formed only by
  replacement cards (replacements.py's pool reads the flag). Ruling karelia-counters.
"""
from __future__ import annotations

from .context import Ctx, marks_reached
from .placing import put
from .setup import make_counter

KARELIA = "karelia"       # the zone of clarification 5


def elite_arrives(ctx: Ctx, mark: str, why: str) -> str | None:
    """An elite counter of kind ``available: mark`` arrives (11.7): the mark is recorded, the
    counter placed in a German supply source the Axis holds (the Axis player's choice)."""
    ctx.state["marks"] = sorted(set(ctx.state.get("marks") or []) | {mark})
    kinds = [(i, k) for i, k in enumerate(ctx.rs.counters.get("GER", [])) if k.elite and k.available == mark]
    zones = sorted(z.id for z in ctx.rs.zones.values() if z.supply_nation == "GER" and ctx.control(z.id) == "axis")
    if not kinds or not zones:
        return None
    i, k = kinds[0]
    if sum(1 for c in ctx.counters.values() if c["nation"] == "GER" and c.get("kind") == i) >= k.count:
        return None
    zone, _ = ctx.decide(id=f"t{ctx.turn:02d}.diplomacy.{mark}", side="axis", kind="elite-zone", options=zones,
                         auto=lambda: zones[0], prompt=f"{why}: where does the German elite counter arrive (11.7; a German "
                         "supply source, 11.10)?", rule="11.7")
    return put(ctx, [make_counter(k, i, zone, marks_reached(ctx.rs, ctx.state, ctx.turn))])[0]


def run(ctx: Ctx) -> None:
    """The diplomacy phase's dated marks (see the module's text)."""
    f = ctx.state.get("flags") or {}
    marks = set(ctx.state.get("marks") or [])
    if "axis_ussr_war" in f and "elite-second" not in marks and ctx.turn >= int(f["axis_ussr_war"]) + 6:
        cid = elite_arrives(ctx, "elite-second", f"6 turns since the Axis attacked the USSR (turn {f['axis_ussr_war']})")
        ctx.emit("elite", rule="11.7", mark="elite-second", counter=cid,
                 text="the second German elite counter arrives" + ("" if cid else ": no German supply source held, none"))
    if "karelia-counters" in ctx.rs.turns[ctx.turn].marks and "karelia" not in f and KARELIA in ctx.rs.zones \
            and ctx.control(KARELIA) == "ussr":
        ctx.state.setdefault("flags", {})["karelia"] = ctx.turn
        ctx.emit("karelia", rule="11.8, clar. 5", zone=KARELIA,
                 text="the USSR occupies Karelia on the last turn of 1941: two Soviet 3-corps infantry counters join the pool")


def elite_limit(ctx: Ctx, cid: str, zone: str) -> str | None:
    """11.7: why an elite counter may not go into ``zone``: another elite counter is in the USSR."""
    c = ctx.counters[cid]
    if not c.get("elite") or zone not in ctx.rs.zones or ctx.rs.zones[zone].country != "USSR":
        return None
    other = [x for x, o in ctx.counters.items() if x != cid and o.get("elite") and o["at"] in ctx.rs.zones
             and ctx.rs.zones[o["at"]].country == "USSR"]
    return f"{other[0]} is in the USSR: only one elite counter may be there at a time (11.7)" if other else None
