"""BlitzWAR land combat: the one-zone moves (16.5, 17.4) and the free moves of out-of-supply
units (17.5).
"""
from __future__ import annotations

from fractions import Fraction

from ..core.errors import Issue
from . import diplomacy
from .combat_common import (
    _counter_guess,
    _issue,
    _moves,
    blitz_barred,
    enemy_land_in,
    is_land,
    kind_of,
    n_corps,
    peek_record,
    record,
    side_of,
)
from .combat_retreat import _enter
from .context import Ctx, fmt_supply
from .names import unknown_zone


def check_moves(ctx: Ctx, orders: dict, attackers: dict | None = None) -> list[Issue]:
    """The one-zone moves (16.5, 17.4) and the free moves of out-of-supply units (17.5)."""
    kind = kind_of(ctx)
    rec = peek_record(ctx)
    issues = []
    seen = set()
    cost = Fraction(0)
    fit: list[dict] = []
    if kind == "blitz" and blitz_barred(ctx) and _moves(orders):
        # 6: in mud there is no blitz phase, and so no one-zone move of it (16.5): refused with
        # the reason rather than passed over in silence (issue 19, departure 15)
        return [_issue("BW-NO-BLITZ", f"there is no blitz phase on turn {ctx.turn}: the weather is mud; "
                       "no one-zone move of it either (6, 16.5)", None, "6, 16.5", path=m["_path"],
                       hint="move it in the normal combat phase (17.4)") for m in _moves(orders)]
    for m in _moves(orders):
        cid, to = m.get("counter"), m.get("to")
        rule = "16.5" if kind == "blitz" else "17.4"
        c = ctx.counters.get(cid)
        if c is None or not is_land(c) or side_of(ctx, cid) != ctx.side:
            issues.append(_issue("BW-MOVE-COUNTER", f"{cid!r} is not a land counter of the {ctx.side}"
                                 + (_counter_guess(ctx, cid) if cid not in ctx.counters else ""), None, rule, path=m["_path"]))
            continue
        if cid in seen:
            issues.append(_issue("BW-MOVE-TWICE", f"{cid} moves one zone once", None, rule, path=m["_path"]))
            continue
        seen.add(cid)
        oos = kind == "combat" and c.get("out_of_supply")
        if not oos and (c.get("moved") or c.get("strategic") or c.get("entrenched") or cid in rec["fought"]
                        or cid in rec["advanced"] or cid in rec["moved"] or (attackers and cid in attackers)):
            issues.append(_issue("BW-MOVE-USED", f"{cid} moved or attacked this turn: no one-zone move", None, rule, path=m["_path"]))
            continue
        if c.get("entrenched"):
            issues.append(_issue("BW-MOVE-USED", f"{cid} is entrenched", None, "15.1", path=m["_path"]))
            continue
        z = ctx.rs.zones.get(c["at"])
        if z is None or to not in z.links:
            near = z.links if z is not None else ()
            issues.append(_issue("BW-ZONE" if to not in ctx.rs.zones else "BW-MOVE-NOT-ADJACENT",
                                 f"{cid}: {unknown_zone(ctx.rs, to, near)}" if to not in ctx.rs.zones
                                 else f"{cid} at {c['at']} is not next to {to!r}", None, rule, path=m["_path"],
                                 hint=f"zones next to {c['at']}: {', '.join(near)}" if near else None))
            continue
        if enemy_land_in(ctx, to, ctx.side):
            issues.append(_issue("BW-MOVE-ENEMY", f"{to} holds enemy infantry or armour", None, "15.3", path=m["_path"]))
            continue
        if diplomacy.neutral_zone(ctx, to):
            issues.append(diplomacy.neutral_issue(ctx, to, f"{cid} moves one zone", m["_path"]))
            continue
        why = diplomacy.end_issue(ctx, cid, to)
        if why:
            issues.append(_issue("BW-LIMIT", f"{cid}: {why}", None, "9.6", path=m["_path"]))
            continue
        if not oos:
            cost += move_cost(c)
        fit.append(m)
    issues += _move_stacking(ctx, fit)
    if cost and cost > ctx.supply(ctx.side):
        issues.append(_issue("BW-SUPPLY-SHORT", f"the one-zone moves cost {fmt_supply(cost)} supply units; the {ctx.side} hold {fmt_supply(ctx.supply(ctx.side))}",
                             None, "7", path=tuple(orders.get("_path", ())) + ("moves",)))
    return issues


def _move_stacking(ctx: Ctx, moves: list[dict]) -> list[Issue]:
    """4 and pbem's stacking ruling: a one-zone move (16.5, 17.4) may not fill a zone over its
    limit, like every other move (issue 19, departure 14): refused at the move, before any die,
    at the position the phase starts from; one that a retreat or an advance makes no longer fit
    is void then."""
    from .land import stacking_issues
    if not moves:
        return []
    was = {m["counter"]: ctx.counters[m["counter"]]["at"] for m in moves}
    try:
        for m in moves:
            ctx.counters[m["counter"]]["at"] = m["to"]
        over = {m["to"] for m in moves if any(x.code == "BW-STACK" for x in stacking_issues(ctx, {m["to"]}))}
    finally:
        for cid, at in was.items():
            ctx.counters[cid]["at"] = at
    return [_issue("BW-STACK", f"{m['counter']}: {ctx.rs.zones[m['to']].name} would be over its stacking limit", None, "4",
                   path=m["_path"], hint="pbem show lists what is in the zone")
            for m in moves if m["to"] in over]


def move_cost(c: dict) -> Fraction:
    return Fraction(1, 2) if n_corps(c) == 1 else Fraction(1)


# ============================================================================ one-zone moves
def run_moves(ctx: Ctx, orders: dict) -> None:
    kind = kind_of(ctx)
    rec = record(ctx)
    issues = check_moves(ctx, orders)
    if issues:
        ctx.refuse(issues)
    for m in _moves(orders):
        cid, to = m["counter"], m["to"]
        c = ctx.counters[cid]
        oos = kind == "combat" and c.get("out_of_supply")
        cost = Fraction(0) if oos else move_cost(c)
        if cost:
            ctx.set_supply(ctx.side, ctx.supply(ctx.side) - cost)
        frm = c["at"]
        _enter(ctx, cid, to, None, "16.5" if kind == "blitz" else "17.4")
        rec["moved"].append(cid)
        if kind == "blitz":
            c["active"] = True
        ctx.emit("one-zone-move", counter=cid, **{"from": frm}, to=to, cost=fmt_supply(cost), free=bool(oos),
                 supply_left=fmt_supply(ctx.supply(ctx.side)),
                 rule=("17.5" if oos else "16.5" if kind == "blitz" else "17.4"))
