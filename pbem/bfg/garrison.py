"""Soviet garrisons (DG2 10.0-10.3).

Once Soviet units have entered Warsaw, Prague, Vienna or Berlin, a Front must stand there at
the end of the next Soviet movement phase; it becomes the city's garrison, never moves again,
attacks and defends normally and ignores retreat results. An ungarrisoned city gives the Soviet
player no victory points at the end (10.1).
"""
from __future__ import annotations

from .context import Ctx


def garrison_of(ctx: Ctx, h: str) -> str | None:
    for uid in ctx.board.units_in(h):
        if ctx.board.units[uid].get("garrison") == h:
            return uid
    return None


def check_garrisons(ctx: Ctx) -> None:
    b = ctx.board
    rs = ctx.rs
    for h, cap in sorted(ctx.state["captured"].items()):
        if garrison_of(ctx, h):
            continue
        fronts = [u for u in b.units_in(h) if rs.units[u].is_front and b.camp(u) == "soviet"]
        if fronts:
            uid = fronts[0]
            b.units[uid]["garrison"] = h
            ctx.emit("garrison", unit=uid, hex=h, city=rs.cities[h].name, rule="DG2 10.0")
        elif not cap.get("warned"):
            cap["warned"] = True
            ctx.emit("garrison-missing", hex=h, city=rs.cities[h].name, rule="DG2 10.0, 10.1",
                     text="no Front garrisons the city: it gives no Soviet VP at the end unless one does")
