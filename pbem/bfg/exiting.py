"""Leaving the map (DG2 9.0-9.3).

Only German units may leave, through the west edge 1601-2301, the east edge 0926-3526 or the
south edge 0112-0117, paying 4 MP (9.3). The German player may then remove the two Allied or
Soviet units nearest the exit hex (counted in hexes; ties are the German player's choice): they
are flipped, keep their ZOC until the end of that movement phase, then leave for good (9.1).
"""
from __future__ import annotations

from ..core.errors import Issue
from .context import Ctx


def nearest_candidates(ctx: Ctx, exit_hex: str) -> list[tuple[int, str]]:
    b = ctx.board
    out = []
    for uid in b.on_map_units():
        if b.camp(uid) in ("soviet", "western") and not b.units[uid].get("flipped"):
            out.append((ctx.rs.grid.distance(exit_hex, b.at(uid)), uid))
    return sorted(out)


def carry_out_exit(ctx: Ctx, uid: str, zone: str, remove: list, where: tuple, text: str) -> Issue | None:
    b = ctx.board
    h = b.at(uid)
    cands = nearest_candidates(ctx, h)
    remove = list(remove)
    if len(remove) > 2 or len(set(remove)) != len(remove):
        return Issue("BFG-EXIT-REMOVE", "at most two different units may be removed", path=where, text=text, rule="DG2 9.1")
    dist = {u: d for d, u in cands}
    for r in remove:
        if r not in dist:
            return Issue("BFG-EXIT-REMOVE", f"{r!r} is not an Allied or Soviet unit on the map", path=where, text=text, rule="DG2 9.1")
    if remove:
        worst = max(dist[r] for r in remove)
        closer = [u for d, u in cands if u not in remove and d < worst]
        if closer:
            return Issue("BFG-EXIT-NEAREST", f"{', '.join(closer)} stand nearer to {h} than {', '.join(remove)}",
                         path=where, text=text, rule="DG2 9.1",
                         hint="the removed units must be the nearest ones: " + ", ".join(f"{u} ({d})" for d, u in cands[:4]))
    b.place(uid, "exited")
    ctx.emit("exit", unit=uid, hex=h, zone=zone, rule="DG2 9.0, 9.3")
    for r in remove:
        b.units[r]["flipped"] = True
        ctx.emit("flipped", unit=r, hex=b.at(r), distance=dist[r], rule="DG2 9.1",
                 text="removed at the end of this movement phase; keeps its ZOC until then")
    return None
