"""BlitzWAR land combat: the one-zone moves (16.5, 17.4), paid as tactical moves (7, 8 note
(1)). The free move of out-of-supply units (17.5) is pbem/blitzwar/movement.py's
``out_of_supply_moves``.
"""
from __future__ import annotations

from fractions import Fraction

from ..core.canon import copy_json
from ..core.errors import Issue
from . import diplomacy
from .combat_common import (
    _counter_guess,
    _issue,
    _moves,
    blitz_barred,
    combat_record,
    enemy_land_in,
    is_land,
    kind_of,
    n_corps,
    peek_record,
    side_of,
)
from .combat_retreat import _enter
from .context import Ctx, PhaseOrdersInvalid, fmt_supply
from .land import stacking_issues
from .names import unknown_zone
from .supply import pay


def check_moves(ctx: Ctx, orders: dict, attackers: dict | None = None) -> list[Issue]:
    """The one-zone moves (16.5, 17.4), at the position now: each is a paid tactical move of a
    counter that neither moved nor attacked this turn (8 note (1), 16.5, 17.4), with a supply
    line to what pays it (7). Last turn's out-of-supply marker makes none free: the free move
    is 17.5's, after this turn's marking (``out_of_supply_moves``; issue 19, departure 3)."""
    kind = kind_of(ctx)
    rec = peek_record(ctx)
    issues = []
    seen = set()
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
        c = ctx.counters.get(cid) if isinstance(cid, str) else None
        if c is None or not isinstance(cid, str) or not is_land(c) or side_of(ctx, cid) != ctx.side:
            issues.append(_issue("BW-MOVE-COUNTER", f"{cid!r} is not a land counter of the {ctx.side}"
                                 + (_counter_guess(ctx, cid) if cid not in ctx.counters else ""), None, rule, path=m["_path"]))
            continue
        if cid in seen:
            issues.append(_issue("BW-MOVE-TWICE", f"{cid} moves one zone once", None, rule, path=m["_path"]))
            continue
        seen.add(cid)
        if (c.get("moved") or c.get("strategic") or c.get("entrenched") or c.get("shipped") or cid in rec["fought"]
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
        if diplomacy.neutral_zone(ctx, to) and not diplomacy.passage(ctx, cid, to):     # 9.3 (ruling passage)
            issues.append(diplomacy.neutral_issue(ctx, to, f"{cid} moves one zone", m["_path"]))
            continue
        why = diplomacy.end_issue(ctx, cid, to)
        if why:
            issues.append(_issue("BW-LIMIT", f"{cid}: {why}", None, "9.6", path=m["_path"]))
            continue
        fit.append(m)
    stacking = _move_stacking(ctx, fit)
    return issues + stacking + (_move_payments(ctx, fit) if not stacking else [])


def _move_payments(ctx: Ctx, moves: list[dict]) -> list[Issue]:
    """7: each one-zone move paid in turn as the phase will pay it (:func:`pay`: a line to a
    supply source for the supply held, or to a supply counter, 20.1; never below zero), on a
    copy of the position: the refusals, at their moves."""
    if not moves:
        return []
    scratch = Ctx(rs=ctx.rs, state=copy_json(ctx.state), turn=ctx.turn, phase=ctx.phase, side=ctx.side,
                  player=ctx.player, validating=True)
    out: list[Issue] = []
    for m in moves:
        try:
            _make_move(scratch, m)
        except PhaseOrdersInvalid as e:
            out += e.issues
    # 9.3: at most 3 Axis corps stay in a neutral Romania they pass through, at the last move into it
    into = [m for m in moves if scratch.rs.zones[m["to"]].country == "RUM"]
    if into and not out:
        out += [Issue(x.code, x.message, path=into[-1]["_path"], rule=x.rule) for x in diplomacy.passage_issues(scratch)]
    return out


def _move_stacking(ctx: Ctx, moves: list[dict]) -> list[Issue]:
    """4 and pbem's stacking ruling: a one-zone move (16.5, 17.4) may not fill a zone over its
    limit, like every other move (issue 19, departure 14): refused at the move, before any die,
    at the position the phase starts from; one that a retreat or an advance makes no longer fit
    is void then."""
    if not moves:
        return []
    was = {m["counter"]: ctx.counters[m["counter"]]["at"] for m in moves}
    try:
        for m in moves:
            ctx.move(m["counter"], m["to"])
        over = {m["to"] for m in moves if any(x.code == "BW-STACK" for x in stacking_issues(ctx, {m["to"]}))}
    finally:
        for cid, at in was.items():
            ctx.move(cid, at)
    return [_issue("BW-STACK", f"{m['counter']}: {ctx.rs.zones[m['to']].name} would be over its stacking limit", None, "4",
                   path=m["_path"], hint="pbem show lists what is in the zone")
            for m in moves if m["to"] in over]


def move_cost(c: dict) -> Fraction:
    return Fraction(1, 2) if n_corps(c) == 1 else Fraction(1)


# ============================================================================ one-zone moves
def run_moves(ctx: Ctx, orders: dict) -> None:
    """16.5, 17.4: the one-zone moves, each paid as a tactical move (7, 8 note (1))."""
    issues = check_moves(ctx, orders)
    if issues:
        ctx.refuse(issues)
    for m in _moves(orders):
        _make_move(ctx, m)


def _make_move(ctx: Ctx, m: dict) -> None:
    """One one-zone move: paid from what the counter's supply line reaches (7, 20.1: a supply
    counter too; issue 19, departure 2), then the counter enters the zone (15.3, 5)."""
    kind = kind_of(ctx)
    rule = "16.5" if kind == "blitz" else "17.4"
    cid, to = m["counter"], m["to"]
    c = ctx.counters[cid]
    cost = move_cost(c)
    paid = pay(ctx, cid, cost, f"one-zone move ({rule})", m.get("pay"), path=tuple(m["_path"]))
    frm = c["at"]
    if diplomacy.neutral_zone(ctx, to):
        ctx.move(cid, to)        # 9.3: passage through a neutral (Romania, Turkey) takes nothing (ruling passage)
    else:
        _enter(ctx, cid, to, None, rule)
    combat_record(ctx)["moved"].append(cid)
    if kind == "blitz":
        c["active"] = True
    ctx.emit("one-zone-move", counter=cid, **{"from": frm}, to=to, cost=fmt_supply(cost), source=paid["source"],
             supply_left=fmt_supply(ctx.supply(ctx.acting_side)), rule=rule)
