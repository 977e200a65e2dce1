"""Where a unit may go: the German Theater Boundary (5.4), Berlin (5.43), Yugoslavia (5.5).

``entry_violation`` answers for one step from ``frm`` to ``to`` by a unit that moves
(``move``), advances after combat (``advance``) or retreats (``retreat``). Retreats may cross
the boundary and the Yugoslav border; what follows from that (change of side, obligation to
return) is applied by :func:`after_retreat`.
"""
from __future__ import annotations

from .board import Board, is_hex
from .losses import eliminate

YUGOSLAV = "yugoslav"
SOVIET_BLOC = ("soviet", "romanian", "polish-communist", "bulgarian")


def obligations(u: dict) -> list[dict]:
    """Every obligation a unit carries (5.42, 5.51, 5.52, 14.0): ``must_return`` holds one
    obligation, or a list when the unit has incurred several (a Yugoslav unit retreated out of
    Yugoslavia across the boundary carries both 5.42 and 5.51)."""
    ob = u.get("must_return")
    if not ob:
        return []
    return list(ob) if isinstance(ob, list) else [ob]


def set_obligations(u: dict, obs: list[dict]) -> None:
    if not obs:
        u.pop("must_return", None)
    else:
        u["must_return"] = obs[0] if len(obs) == 1 else obs


def _has(u: dict, rule: str) -> bool:
    return any(o.get("rule") == rule for o in obligations(u))


def _add(u: dict, ob: dict) -> None:
    set_obligations(u, obligations(u) + [ob])


def home_theater(force: str) -> str | None:
    if force in ("east-german", "soviet"):
        return "east"
    if force in ("west-german", "western-allied"):
        return "west"
    return None


def boundary_active(board: Board) -> bool:
    """The boundary binds (5.41, 5.42; 17.31) unless the scenario lifts it (15.24, 16.33) or
    the Germans have left the map (12.2.2, 13.1)."""
    return (board.rs.play.rule("boundary") == "binding"
            and not board.state.get("flags", {}).get("boundary_lapsed", False))


def german_retreat_returns(board: Board) -> bool:
    """14.0: a German unit forced back across the boundary returns east in the following turn
    or dies (instead of changing side, 5.41)."""
    return board.rs.play.rule("german_retreat_across") == "return-next-turn"


def map_closed(board: Board, h: str) -> bool:
    """14.0: only the map east of the boundary is used (the west counts as prohibited)."""
    return board.rs.play.rule("map_area") == "east" and board.rs.theater(h) == "west"


def _map_area(to: str, german: bool) -> tuple[str, str, str]:
    return ("BFG-MAP-AREA", "DG2 14.0",
            f"{to} lies west of the German Theater Boundary: this scenario uses only the map east of it"
            + (" (German units may only be forced back across it)" if german else ""))


def entry_violation(board: Board, uid: str, frm: str, to: str, mode: str) -> tuple[str, str, str] | None:
    """Return (code, rule, message) if the unit may not step from ``frm`` into ``to``."""
    rs = board.rs
    if to not in rs.playable:
        return ("BFG-HEX-PROHIBITED", "DG2 5.1, 6.21", f"{to} is a prohibited hex ({rs.terrain.get(to, 'off map')})")
    if rs.hexside_prohibited(frm, to):
        return ("BFG-HEXSIDE-PROHIBITED", "DG2 6.21", f"the hexside {frm}/{to} may not be crossed")
    u = board.units[uid]
    force = u["force"]
    # An SS unit the Western Allied player commands (13.2) is still a German unit (rulings
    # ``ss_cities``): 5.41 and 5.43 bind it while the boundary binds (``boundary_lapse_with_ss``).
    ss = bool(u.get("ss_half"))
    german = force in ("east-german", "west-german") or ss
    # (the scenario's rules read here as :func:`map_closed`, :func:`german_retreat_returns` and
    # :func:`boundary_active` read them: asked for every hex next to a retreat and every advance)
    rules = rs.play.rules
    if german and to == rs.berlin and rules["german_berlin"] == "forbidden" \
            and not board.state.get("flags", {}).get("germans_may_enter_berlin"):
        return ("BFG-BERLIN", "DG2 5.43", "German units may never enter, retreat into or advance into Berlin")
    closed = rules["map_area"] == "east" and rs.theater(to) == "west"      # map_closed
    if mode == "retreat":
        # (a retreat crosses the boundary and the Yugoslav border: after_retreat says what follows)
        if closed and not (german and rules["german_retreat_across"] == "return-next-turn"):
            return _map_area(to, german)
        return None
    d = rs.units[uid]
    if closed:
        return _map_area(to, german)
    # ``triple``: the one German move of 16.32 that must cross the boundary.
    if mode != "triple" and rules["boundary"] == "binding" \
            and not board.state.get("flags", {}).get("boundary_lapsed", False):      # boundary_active
        t_to = rs.theater(to)
        t_from = rs.theater(frm)
        # 5.41: an SS unit stays on the side of the boundary it stands on
        home = (t_from if t_from != "both" else None) if ss else home_theater(force)
        if home and t_to not in (home, "both"):
            if german:
                return ("BFG-BOUNDARY", "DG2 5.41",
                        f"{d.id} is {force.replace('-', ' ')} and may not cross the German Theater Boundary into {to}")
            # Allied units already on the far side (after a forced retreat) may move there and back.
            if t_from in (home, "both"):
                return ("BFG-BOUNDARY", "DG2 5.42",
                        f"{d.id} may not cross the German Theater Boundary into {to} unless forced by a retreat")
    in_yu_from = frm in rs.yugoslavia
    in_yu_to = to in rs.yugoslavia
    if d.nation == YUGOSLAV:
        if mode == "advance" and in_yu_from != in_yu_to:
            return ("BFG-YUGOSLAVIA", "DG2 5.51", "Yugoslav units may not advance across the Yugoslav border")
        if in_yu_from and not in_yu_to:
            return ("BFG-YUGOSLAVIA", "DG2 5.51", "Yugoslav units may not leave Yugoslavia unless forced by a retreat")
    elif d.nation in SOVIET_BLOC and force == "soviet":
        if mode == "advance" and in_yu_from != in_yu_to:
            return ("BFG-YUGOSLAVIA", "DG2 5.52", "Soviet units may not advance across the Yugoslav border")
        if in_yu_to and not in_yu_from:
            return ("BFG-YUGOSLAVIA", "DG2 5.52", "Soviet (and Romanian, Polish, Bulgarian) units may not enter Yugoslavia")
    return None


def after_retreat(board: Board, uid: str, frm: str, to: str, ctx) -> None:
    """Consequences of a forced retreat across the boundary or the Yugoslav border."""
    rs = board.rs
    u = board.units[uid]
    d = rs.units[uid]
    force = u["force"]
    if force in ("east-german", "west-german") and german_retreat_returns(board):
        # 14.0: forced back across the boundary: back east during the following turn or die.
        if rs.theater(to) == "west" and not _has(u, "DG2 14.0"):
            _add(u, {"rule": "DG2 14.0", "to": "east",
                     "check": f"{rs.play.group_of_force(force)}.movement",
                     "since": f"{ctx.turn}:{ctx.phase}", "turn": ctx.turn + 1})
            ctx.emit("obligation", unit=uid, rule="DG2 14.0",
                     text=f"must be back east of the boundary by the end of the {rs.play.group_of_force(force)} movement phase of turn {ctx.turn + 1} or be eliminated")
    elif force in ("east-german", "west-german") and not boundary_active(board) and rs.play.rule("boundary") == "lifted":
        follow_side(board, uid, ctx)
    elif boundary_active(board):
        t_to = rs.theater(to)
        if force in ("east-german", "west-german") and t_to in ("east", "west"):
            new_force = "east-german" if t_to == "east" else "west-german"
            if new_force != force:
                board.set_force(uid, new_force)
                ctx.emit("change-side", unit=uid, old=force, new=new_force, hex=to, rule="DG2 5.41",
                         controller=board.controller_of_force(new_force))
        elif force in ("soviet", "western-allied") and not u.get("ss_half"):
            # (an SS unit under 13.2 is German: forced across, it only stands on the other side, 5.41)
            home = home_theater(force)
            if t_to not in (home, "both") and not _has(u, "DG2 5.42"):
                _add(u, {"rule": "DG2 5.42", "to": home, "check": f"{rs.play.group_of_force(force)}.movement",
                         "since": f"{ctx.turn}:{ctx.phase}"})
                ctx.emit("obligation", unit=uid, rule="DG2 5.42",
                         text="must recross the boundary by the end of its next movement phase or be eliminated")
    if d.nation == YUGOSLAV and frm in rs.yugoslavia and to not in rs.yugoslavia and not _has(u, "DG2 5.51"):
        _add(u, {"rule": "DG2 5.51", "to": "yugoslavia", "check": f"{rs.play.group_of_force('soviet')}.combat",
                 "since": f"{ctx.turn}:{ctx.phase}"})
        ctx.emit("obligation", unit=uid, rule="DG2 5.51",
                 text="must re-enter Yugoslavia by the end of the next Soviet combat phase or be eliminated")
    elif d.nation in SOVIET_BLOC and force == "soviet" and to in rs.yugoslavia and not _has(u, "DG2 5.52"):
        _add(u, {"rule": "DG2 5.52", "to": "outside-yugoslavia", "check": f"{rs.play.group_of_force('soviet')}.movement",
                 "since": f"{ctx.turn}:{ctx.phase}"})
        ctx.emit("obligation", unit=uid, rule="DG2 5.52",
                 text="must leave Yugoslavia during the following turn or be eliminated")


def obligation_met(board: Board, uid: str, ob: dict | None = None) -> bool:
    u = board.units[uid]
    if ob is None:
        return all(obligation_met(board, uid, o) for o in obligations(u))
    h = u["at"]
    rs = board.rs
    to = ob["to"]
    if to in ("east", "west"):
        if ob.get("rule") == "DG2 14.0":
            return rs.theater(h) in (to, "both")
        return rs.theater(h) in (to, "both") or not boundary_active(board)
    if to == "yugoslavia":
        return h in rs.yugoslavia
    if to == "outside-yugoslavia":
        return h not in rs.yugoslavia
    return True


def check_obligations(ctx, finished_phase: str) -> None:
    """At the end of ``finished_phase``: units whose deadline it is return or die (5.42, 5.51,
    5.52, 14.0); each obligation a unit carries is checked on its own."""
    board = ctx.board
    units = board.units
    # the units on the map that carry an obligation (most carry none), in id order
    for uid in sorted([uid for lst in board.occ.values() for uid in lst if units[uid].get("must_return")]):
        u = units[uid]
        obs = obligations(u)
        keep = []
        failed = None
        for ob in obs:
            if ob.get("since") == f"{ctx.turn}:{finished_phase}":
                keep.append(ob)
                continue
            if obligation_met(board, uid, ob):
                if ob["check"] == finished_phase:
                    ctx.emit("obligation-met", unit=uid, rule=ob["rule"])
                else:
                    keep.append(ob)
                continue
            if ob["check"] == finished_phase and ctx.turn >= ob.get("turn", 0) and failed is None:
                failed = ob
                continue
            keep.append(ob)
        if obs:
            set_obligations(u, keep)
        if failed is not None:
            ctx.emit("obligation-failed", unit=uid, rule=failed["rule"], hex=u["at"])
            eliminate(ctx, uid, reason=f"did not return in time ({failed['rule']})")


def follow_side(board: Board, uid: str, ctx) -> None:
    """Where the boundary no longer binds the Germans (16.33) a German unit is East or West
    German by the side it stands on (7.11), so it changes side when it ends a move, a retreat
    or an advance across the boundary (16.32); Berlin, on the boundary, changes nothing."""
    rs = board.rs
    u = board.units[uid]
    force = u["force"]
    if force not in ("east-german", "west-german") or not is_hex(u["at"]):
        return
    th = rs.theater(u["at"])
    if th not in ("east", "west"):
        return
    new_force = "east-german" if th == "east" else "west-german"
    if new_force != force:
        board.set_force(uid, new_force)
        ctx.emit("change-side", unit=uid, old=force, new=new_force, hex=u["at"], rule="DG2 16.32, 16.33",
                 controller=board.controller_of_force(new_force))
