"""Leaving the map (DG2 9.0-9.3).

Only German units may leave, through the west edge 1601-2301, the east edge 0926-3526 or the
south edge 0112-0117, paying 4 MP (9.3). The German player may then remove the two Allied or
Soviet units nearest the exit hex (counted in hexes; ties are the German player's choice): they
are flipped, keep their ZOC until the end of that movement phase, then leave for good (9.1).
If every enemy unit of the exit's theatre is already destroyed, up to two units are taken out of
that theatre's destroyed-unit boxes instead (9.2).
"""
from __future__ import annotations

from ..core.errors import Issue
from .context import Ctx

# 9.2: the destroyed-unit boxes of each theatre. pbem's reading (the rule does not say): the
# theatre of an exit is the side of the boundary of the exit hex (the south exit, in Italy, is
# the west); the west theatre's boxes are Western Allied and Allied/Italy, the east theatre's
# the Soviet box; the order names the box units in `remove`.
THEATRE_BOXES = {"east": ("soviet",), "west": ("western-allied", "allied-italy")}


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
    theatre = ctx.rs.theater(h)
    boxes = THEATRE_BOXES.get(theatre, ())
    in_theatre = [u for _, u in cands if ctx.rs.theater(b.at(u)) == theatre]
    if remove and boxes and not in_theatre:
        # 9.2: every enemy unit of this theatre is gone: take up to two from its boxes instead.
        boxed = {u for box in boxes for u in b.box_units(box)}
        bad = [r for r in remove if r not in boxed]
        if bad:
            return Issue("BFG-EXIT-REMOVE", f"{', '.join(map(str, bad))} not in the {' or '.join(boxes)} box; no enemy unit is left in the {theatre} theatre, so the units come from its destroyed-unit box",
                         path=where, text=text, rule="DG2 9.2")
        b.place(uid, "exited")
        ctx.emit("exit", unit=uid, hex=h, zone=zone, rule="DG2 9.0, 9.3")
        for r in remove:
            box = b.at(r)
            b.place(r, "removed")
            ctx.emit("removed", unit=r, hex=box, rule="DG2 9.2", text="taken out of its destroyed-unit box for good")
        return None
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
