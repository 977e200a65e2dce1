"""City control and victory (DG2 11.0, 12.2.3).

A city is controlled by the side whose units occupy it; otherwise by the side whose ZOC alone
reaches it (free of the other sides' units and ZOC); otherwise by the side of the last unit to
pass through it or next to it (rulings.yaml ``city_control``). The Soviet player scores the
cities held by Soviet and Soviet-allied units, the Western Allied player those held by Western
Allied units; a Soviet garrison city without its garrison scores nothing (10.1).
"""
from __future__ import annotations

from .board import Board
from .context import Ctx

SIDES = ("soviet", "western", "german")


def city_owner(board: Board, h: str) -> str:
    occ = board.units_in(h)
    if occ:
        return board.camp(occ[0])
    zocs = [c for c in SIDES if h in board.zoc_of_camp(c)]
    if len(zocs) == 1:
        return zocs[0]
    return board.state["city_last"].get(h, "german")


def update_control(ctx: Ctx) -> None:
    st = ctx.state
    ctl = st["control"]
    for h in sorted(ctx.rs.cities):
        new = city_owner(ctx.board, h)
        old = ctl.get(h)
        if new != old:
            ctl[h] = new
            ctx.emit("control", hex=h, city=ctx.rs.cities[h].name, old=old, new=new, rule="DG2 11.0")


def victory_points(ctx_or_board, *, final: bool = False) -> dict:
    board = ctx_or_board.board if hasattr(ctx_or_board, "board") else ctx_or_board
    st = board.state
    rs = board.rs
    vp = {"soviet": 0, "western": 0}
    detail = {"soviet": [], "western": []}
    for h in sorted(rs.cities):
        c = rs.cities[h]
        owner = st["control"].get(h)
        if owner not in vp:
            continue
        if owner == "soviet" and h in st["captured"] and c.garrison:
            g = None
            for uid in board.units_in(h):
                if board.units[uid].get("garrison") == h:
                    g = uid
            if g is None:
                detail["soviet"].append({"city": c.name, "hex": h, "vp": 0, "note": "no garrison (10.1)"})
                continue
        vp[owner] += c.vp
        detail[owner].append({"city": c.name, "hex": h, "vp": c.vp})
    return {"soviet": vp["soviet"], "western": vp["western"], "cities": detail}


def final_result(ctx: Ctx) -> dict:
    vp = victory_points(ctx, final=True)
    st = ctx.state
    if not st["berlin"].get("entered_by") and st.get("scenario_rules", {}).get("draw_without_berlin"):
        return {"winner": None, "draw": True, "reason": "neither side took Berlin (12.2.3)",
                "vp": {"soviet": vp["soviet"], "western": vp["western"]}}
    if vp["soviet"] > vp["western"]:
        w = "soviet"
    elif vp["western"] > vp["soviet"]:
        w = "western"
    else:
        w = None
    return {"winner": w, "draw": w is None, "reason": "more victory points (11.0)" if w else "equal victory points",
            "vp": {"soviet": vp["soviet"], "western": vp["western"]}}
