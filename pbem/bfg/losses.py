"""A unit eliminated (DG2 7.1, 7.12, 13.2): to its nation's replacement box, or dead for good.

Below combat (pbem/bfg/combat.py, which re-exports :func:`eliminate`) and the boundary rules
(boundary.py: a unit that misses its obligation's deadline dies, 5.42, 5.51, 5.52, 14.0): both
eliminate units, and movement, which reads the boundary, is below combat (issue 30: no import
circle, the layers by rulebook chapter)."""
from __future__ import annotations

from .context import Ctx
from .scenario import lapse_boundary


def eliminate(ctx: Ctx, uid: str, *, reason: str, combat: int | None = None) -> None:
    board = ctx.board
    d = ctx.rs.units[uid]
    h = board.at(uid)
    u = board.units[uid]
    u.pop("garrison", None)
    u.pop("must_return", None)
    u.pop("entered", None)
    if d.nation in ("yugoslav", "hungarian") or u.get("ss_half"):
        # 7.12; and (pbem's ruling) SS units under Western Allied command after 13.2 are
        # never replaced: they are not Western Allied units, and German replacements have ended.
        loc = "dead"
        box = None
    else:
        box = board.box_for(uid, h)
        loc = f"box:{box}"
    board.place(uid, loc)
    ctx.events.append({"type": "eliminated", "turn": ctx.turn, "phase": ctx.phase, "unit": uid, "hex": h, "box": box,
                       "reason": reason, "combat": combat,
                       "rule": ("DG2 13.2" if u.get("ss_half") else "DG2 7.12") if box is None else "DG2 7.1"})
    if u.get("ss_half"):
        lapse_boundary(ctx)   # 13.1 with 13.2: the last German unit gone lifts the boundary
