"""Soviet garrisons (DG2 10.0-10.3).

Once Soviet units have occupied (a unit ended its movement, advance, retreat or placement in
it) Warsaw, Prague, Vienna or Berlin, a Front must stand there at the end of the Soviet
movement phase right after the capture (rulings.yaml ``garrison_deadline``: the first Soviet
movement phase that begins after the capturing phase, or the capturing movement phase itself).
A Front standing there at the end of a Soviet movement phase up to that deadline becomes the
city's garrison, never moves again, attacks and defends normally and ignores retreat results.
If the deadline passes without one, the deadline is missed: the city can no longer be
garrisoned and gives the Soviet player no victory points (10.1); the next order template and
``pbem validate`` remind the Soviet player before that happens. At the end of the game
(10.1) a Front standing in a city whose deadline has not passed counts as its garrison
(``victory._garrison_missing``, final scoring).
"""
from __future__ import annotations

from ..core.errors import Issue, Severity
from .context import Ctx
from .sequence import turn_phases


def garrison_of(ctx: Ctx, h: str) -> str | None:
    for uid in ctx.board.units_in(h):
        if ctx.board.units[uid].get("garrison") == h:
            return uid
    return None


def due_turn(rs, state: dict, cap: dict) -> int:
    """Turn of the Soviet movement phase by whose end the city must be garrisoned (10.0): the
    capturing turn if the capture came before that turn's Soviet movement phase, else the next."""
    ids = [p for p, _, _ in turn_phases(rs, {**state, "turn": cap["turn"]})]
    mv = f"{rs.play.group_of_force('soviet')}.movement"
    if cap["phase"] in ids and mv in ids and ids.index(cap["phase"]) < ids.index(mv):
        return cap["turn"]
    return cap["turn"] + 1


def due_garrisons(rs, state: dict) -> list[dict]:
    """Captured garrison cities still waiting for their first garrison, with their deadline."""
    out = []
    had = {u.get("garrison") for u in state["units"].values() if u.get("garrison")}
    for h, cap in sorted(state.get("captured", {}).items()):
        if cap.get("missed") or h in had:
            continue
        out.append({"hex": h, "city": rs.cities[h].name, "due": due_turn(rs, state, cap)})
    return out


def check_garrisons(ctx: Ctx) -> None:
    b = ctx.board
    rs = ctx.rs
    had = {u.get("garrison") for u in b.units.values() if u.get("garrison")}
    for h, cap in sorted(ctx.state["captured"].items()):
        if garrison_of(ctx, h) or cap.get("missed"):
            continue
        fronts = [u for u in b.units_in(h) if rs.units[u].is_front and b.camp(u) == "soviet"]
        if fronts:
            uid = fronts[0]
            b.units[uid]["garrison"] = h
            ctx.emit("garrison", unit=uid, hex=h, city=rs.cities[h].name, rule="DG2 10.0")
            continue
        if h in had:
            continue   # its garrison was destroyed: a Front may still take its place later
        due = due_turn(rs, ctx.state, cap)
        if ctx.turn >= due:
            cap["missed"] = True
            ctx.emit("garrison-missed", hex=h, city=rs.cities[h].name, rule="DG2 10.0, 10.1",
                     text=f"no Front garrisoned {rs.cities[h].name} by the end of the Soviet movement phase of turn {due}: "
                          "it can no longer be garrisoned and gives the Soviet player no VP")
        elif not cap.get("warned"):
            cap["warned"] = True
            ctx.emit("garrison-missing", hex=h, city=rs.cities[h].name, rule="DG2 10.0, 10.1",
                     text="no Front garrisons the city: it gives no Soviet VP at the end unless one does")


def deadline_warnings(ctx: Ctx, path: tuple) -> list:
    """``pbem validate``: obligations the checked orders would miss, as warnings, before they
    are missed (10.0 garrison deadline; 5.42, 5.51, 5.52, 14.0 returns; 8.0 Courland entry)."""
    out = []
    for ev in ctx.events:
        if ev["type"] == "garrison-missed":
            out.append(Issue("BFG-GARRISON-DUE", f"{ev['city']} ({ev['hex']}) needs a Soviet Front standing in it at the end of this phase: "
                             "with these orders the deadline is missed, the city can never be garrisoned and gives the Soviet player no VP",
                             severity=Severity.WARNING, path=path, rule="DG2 10.0, 10.1",
                             hint="end a Front's move in the city (rulings.yaml garrison_deadline)"))
        elif ev["type"] == "obligation-failed":
            out.append(Issue("BFG-OBLIGATION-DUE", f"{ev['unit']} must be back by the end of this phase ({ev['rule']}): with these orders it is eliminated",
                             severity=Severity.WARNING, path=path, rule=ev["rule"]))
        elif ev["type"] == "courland-closed":
            out.append(Issue("BFG-COURLAND-DUE", f"this is the only phase in which {', '.join(ev['units'])} may leave Courland: without a courland_entry they stay there for the rest of the game",
                             severity=Severity.WARNING, path=path, rule="DG2 8.0"))
    return out
