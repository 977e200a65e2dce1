"""Movement (DG2 4.0-4.4 zones of control, 5.0-5.2 movement, 5.3 stacking, 9.0 exiting).

Moves are checked and carried out one by one in the order written. A move gives either the
``path`` (every hex entered, in order) or only ``to``; then pbem picks the cheapest legal
path (fewest hexes, then the lowest hex ids, so the choice is reproducible) and reports it.
"""
from __future__ import annotations

import heapq

from ..core.errors import Issue, did_you_mean
from .board import CAMP_OF, Board, camp, is_hex
from .boundary import check_obligations, entry_violation, follow_side
from .context import Ctx, PhaseOrdersInvalid
from .events import touch_hex
from .exiting import carry_out_exit
from .garrison import check_garrisons
from .hexmap import HexGrid
from .sequence import FORCE_TITLES, split, with_article

EXIT_COST = 4  # 9.3


def allowance(ctx: Ctx, uid: str) -> int:
    u = ctx.board.units[uid]
    d = ctx.rs.units[uid]
    ma = d.move
    if u.get("entered", {}).get("double") and u["entered"].get("turn") == ctx.turn:
        ma *= 2  # 7.22
    if u.get("ss_half"):
        ma //= 2  # 13.2 (Expanded Historical optional rule)
    return ma


def hex_step_problem(grid: HexGrid, cur: str | None, nxt: str) -> tuple[str, str, str] | None:
    """DG2 5.1: a step of a path onto a hex of the map next to the hex before it (``cur``; None:
    not known yet). Whatever the position: the static check (pbem/bfg/phasetable.py) reads it too."""
    if nxt not in grid:
        return ("BFG-MOVE-OFF-MAP", "DG2 5.1", f"{nxt} is not a hex of the map")
    if cur is not None and not grid.adjacent(cur, nxt):
        return ("BFG-MOVE-NOT-ADJACENT", "DG2 5.1", f"{nxt} is not adjacent to {cur}; a path lists every hex entered")
    return None


def step_problem(board: Board, uid: str, start: str, cur: str, nxt: str, start_in_zoc: bool,
                 mode: str = "move") -> tuple[str, str, str] | None:
    rs = board.rs
    my = board.camp(uid)
    bad = hex_step_problem(rs.grid, cur, nxt)
    if bad:
        return bad
    if cur != start and board.in_enemy_zoc(cur, my):
        return ("BFG-MOVE-ZOC", "DG2 4.0", f"{cur} is in an enemy ZOC: the unit must stop there")
    v = entry_violation(board, uid, cur, nxt, mode)
    if v:
        return v
    if board.enemy_in_hex(nxt, my):
        return ("BFG-MOVE-ENEMY", "DG2 5.2", f"{nxt} holds enemy units")
    if board.other_side_in_hex(nxt, my):
        return ("BFG-MOVE-OTHER-SIDE", "DG2 5.2, 5.3, 11.0", f"{nxt} holds units of another side; units of two sides never share a hex")
    if cur == start and start_in_zoc and board.in_enemy_zoc(nxt, my):
        return ("BFG-MOVE-ZOC-TO-ZOC", "DG2 4.3", f"a unit may not move directly from one enemy ZOC ({cur}) to another ({nxt})")
    return None


def find_path(board: Board, uid: str, goal: str, ma: int, mode: str = "move") -> list[str] | None:
    """Cheapest legal path to ``goal`` within ``ma``; ties: fewer hexes, then lowest ids."""
    rs = board.rs
    start = board.at(uid)
    my = board.camp(uid)
    start_in_zoc = board.in_enemy_zoc(start, my)
    best: dict[str, tuple] = {start: (0, 0, ())}
    heap: list[tuple[int, int, tuple[str, ...], str]] = [(0, 0, (), start)]   # (cost, hexes, path, hex)
    while heap:
        cost, n, path, cur = heapq.heappop(heap)
        if best.get(cur, (None,))[0:3] != (cost, n, path):
            continue
        if cur == goal:
            return list(path)
        if cur != start and board.in_enemy_zoc(cur, my):
            continue
        for nxt in rs.neighbours(cur):
            if step_problem(board, uid, start, cur, nxt, start_in_zoc, mode):
                continue
            c2 = cost + rs.enter_cost(cur, nxt)
            if c2 > ma:
                continue
            p2 = path + (nxt,)
            key = (c2, n + 1, p2)
            if nxt not in best or key < best[nxt]:
                best[nxt] = key
                heapq.heappush(heap, (c2, n + 1, p2, nxt))
    return None


def unknown_unit(ctx: Ctx, uid, where: tuple, text: str | None = None, mine=None) -> Issue:
    """BFG-UNIT-UNKNOWN with a "did you mean" among ``mine`` (the units the player could name
    here), else among every unit of the game."""
    guess = did_you_mean(uid, mine or (), ctx.rs.units)
    return Issue("BFG-UNIT-UNKNOWN", f"unknown unit {uid!r}{guess}", path=where, text=text if text is not None else str(uid),
                 hint="unit ids are listed by `pbem show` and in the order template")


def check_unit_for_phase(ctx: Ctx, uid, where: tuple, what: str) -> Issue | None:
    """Unknown unit, unit of another force or of another player, unit not on the map.
    ``where``: the document path of the unit id itself (its line is the one reported)."""
    rs = ctx.rs
    forces = phase_forces(ctx)
    if type(uid) is str and uid in rs.units:
        # (the usual answer first: a unit of the phase's forces, commanded by the player, on a hex)
        u = ctx.board.units[uid]
        uf, at = u["force"], u["at"]
        if uf in forces and len(at) == 4 and at.isdigit() and ctx.board.controller_of_force(uf) == ctx.player:
            return None
    elif not isinstance(uid, str) or uid not in rs.units:
        mine = [u for u, st in ctx.board.units.items() if st.get("force") in forces and is_hex(st.get("at", ""))]
        return unknown_unit(ctx, uid, where, mine=mine)
    board = ctx.board
    u = board.units[uid]
    uf = u["force"]
    owner = board.controller_of_force(uf)
    if uf not in forces:
        return Issue("BFG-UNIT-NOT-YOURS",
                     f"{uid} is {with_article(FORCE_TITLES[uf])} unit (run by the {owner} player); only {' and '.join(FORCE_TITLES[f] for f in forces)} units {what} in the {ctx.phase} phase",
                     path=where, text=uid, rule="DG2 2.5, 3.0")
    if owner != ctx.player:
        # Command can change in play (5.41, 13.2): the player who commands the unit now orders it.
        return Issue("BFG-UNIT-NOT-YOURS",
                     f"{uid} is commanded by the {owner} player, not by the {ctx.player} player",
                     path=where, text=uid, rule="DG2 2.5, 13.2, 16.0, 17.0")
    if not is_hex(u["at"]):
        return Issue("BFG-UNIT-OFF-MAP", f"{uid} is not on the map (it is in {u['at']})",
                     path=where, text=uid, rule="DG2 7.0")
    return None


def run_movement(ctx: Ctx, orders: dict) -> None:
    """Check every move, then carry them out. Raises PhaseOrdersInvalid with every problem."""
    board = ctx.board
    issues: list[Issue] = []
    moved: set[str] = set()
    tripled: list[str] = []
    plans = []
    for i, mv in enumerate(orders.get("moves", [])):
        where = tuple(mv.get("_path", ())) or ("moves", i)
        uid = mv.get("unit")
        text = _move_text(mv)
        bad = _unit_may_move(ctx, uid, moved, where, text)
        if bad:
            issues.append(bad)
            continue
        ma = allowance(ctx, uid)
        start = board.at(uid)
        mode = "move"
        if mv.get("triple"):
            why = triple_problem(ctx, uid, start, tripled)   # (code, rule, text), not an Issue
            if why:
                issues.append(Issue(why[0], f"{uid}: {why[2]}", path=where, text=text, rule=why[1]))
                continue
            tripled.append(uid)
            ma = ctx.rs.units[uid].move * 3   # 16.32: the printed allowance tripled
            mode = "triple"
        path = mv.get("path")
        if path is None and mv.get("to") is not None:
            path = find_path(board, uid, mv["to"], ma - (EXIT_COST if mv.get("exit") else 0), mode)
            if path is None:
                issues.append(Issue("BFG-MOVE-NO-PATH", f"{uid} cannot reach {mv['to']} from {start} with {ma} MP",
                                    path=where, text=text, rule="DG2 4.0, 5.1",
                                    hint="give the path hex by hex to see which step is refused"))
                continue
        path = list(path or [])
        cur, spent, problem = _walk(board, uid, start, path, ma, mode)
        if problem:
            code, rule, msg = problem
            issues.append(Issue(code, f"{uid}: {msg}", path=where, text=text, rule=rule,
                                hint=_hint(code)))
            continue
        exit_zone = None
        if mv.get("exit"):
            bad, exit_zone, spent = _exit_checks(ctx, uid, mv, cur, bool(path), spent, ma, where, text)
            if bad:
                issues.append(bad)
                continue
        elif mv.get("remove"):
            issues.append(Issue("BFG-EXIT-REMOVE", f"{uid}: `remove` is only allowed with `exit`",
                                path=where, text=text, rule="DG2 9.1"))
            continue
        plans.append((i, where, uid, start, path, spent, ma, exit_zone, mv, text))
    issues += _carry_out(ctx, plans)
    ends = {board.at(p[2]): p[1] for p in plans if is_hex(board.at(p[2]))}
    issues.extend(stacking_issues(ctx, orders, ends))
    if issues:
        raise PhaseOrdersInvalid(issues)


def _unit_may_move(ctx: Ctx, uid, moved: set[str], where: tuple, text: str) -> Issue | None:
    """Why ``uid`` may not move in this phase at all (adds it to ``moved`` when it may)."""
    bad = check_unit_for_phase(ctx, uid, where + ("unit",), "move")
    if bad:
        return bad
    if uid in moved:
        return Issue("BFG-UNIT-TWICE", f"{uid} is given more than one move in this phase",
                     path=where, text=text, rule="DG2 5.0", hint="merge the moves into one path")
    moved.add(uid)
    u = ctx.board.units[uid]
    if u.get("garrison"):
        return Issue("BFG-GARRISON-MOVE", f"{uid} garrisons {ctx.rs.cities[u['garrison']].name} and may not move",
                     path=where, text=text, rule="DG2 10.2, 10.3")
    ent = u.get("entered", {})
    if ent.get("turn") == ctx.turn and ent.get("in_zoc") and ent.get("phase_force") in phase_forces(ctx):
        return Issue("BFG-REPLACEMENT-ZOC", f"{uid} entered as a replacement in an enemy ZOC and may not move this phase",
                     path=where, text=text, rule="DG2 7.26")
    return None


def _walk(board: Board, uid: str, start: str, path: list[str], ma: int,
          mode: str) -> tuple[str, int, tuple[str, str, str] | None]:
    """Follow ``path`` from ``start``: (the hex reached, the MP spent, the first problem as
    (code, rule, text) or None)."""
    rs = board.rs
    start_in_zoc = board.in_enemy_zoc(start, board.camp(uid))
    cur = start
    spent = 0
    problem = None
    for nxt in path:
        problem = step_problem(board, uid, start, cur, nxt, start_in_zoc, mode)
        if problem:
            break
        spent += rs.enter_cost(cur, nxt)
        if spent > ma:
            problem = ("BFG-MOVE-MP", "DG2 5.0, 5.1",
                       f"entering {nxt} brings the cost to {spent} MP; {uid} has {ma}")
            break
        cur = nxt
    if not problem and mode == "triple":
        problem = triple_end_problem(board, uid, start, cur)
    return cur, spent, problem


def _exit_checks(ctx: Ctx, uid: str, mv: dict, cur: str, went: bool, spent: int, ma: int, where: tuple,
                 text: str) -> tuple[Issue | None, str | None, int]:
    """9.0-9.3, a move that leaves the map from ``cur``: (its problem, the exit zone, the MP
    spent with the exit's cost)."""
    board = ctx.board
    exit_zone = ctx.rs.exit_hexes.get(cur)
    if board.camp(uid) != "german":
        return Issue("BFG-EXIT-NOT-GERMAN", f"{uid}: only German units may leave the map",
                     path=where, text=text, rule="DG2 9.0"), exit_zone, spent
    if exit_zone is not None and mv["exit"] != exit_zone:
        return Issue("BFG-EXIT-HEX", f"{uid}: {cur} is on the {exit_zone} exit edge, not the {mv['exit']} one",
                     path=where, text=text, rule="DG2 9.0"), exit_zone, spent
    if exit_zone is None:
        return Issue("BFG-EXIT-HEX", f"{uid}: {cur} is not an exit hex (west 1601-2301, east 0926-3526, south 0112-0117)",
                     path=where, text=text, rule="DG2 9.0"), exit_zone, spent
    if went and board.in_enemy_zoc(cur, board.camp(uid)):
        return Issue("BFG-MOVE-ZOC", f"{uid}: {cur} is in an enemy ZOC, so the unit stops there and cannot exit",
                     path=where, text=text, rule="DG2 4.0, 9.3"), exit_zone, spent
    if spent + EXIT_COST > ma:
        return Issue("BFG-EXIT-MP", f"{uid}: leaving the map costs {EXIT_COST} MP; {spent} spent of {ma}",
                     path=where, text=text, rule="DG2 9.3"), exit_zone, spent
    return None, exit_zone, spent + EXIT_COST


def _carry_out(ctx: Ctx, plans: list[tuple]) -> list[Issue]:
    """Carry the checked moves out in order (enemy positions do not change while moving): the
    problems of exits found while doing it."""
    board = ctx.board
    issues: list[Issue] = []
    for (_i, where, uid, start, path, spent, ma, exit_zone, mv, text) in plans:
        for k, h in enumerate(path):
            board.place(uid, h)
            touch_hex(ctx, uid, h, ends=k == len(path) - 1)   # occupy = end the move there
        ev = ctx.emit("move", unit=uid, **{"from": start}, path=path, cost=spent, allowance=ma,
                      auto_path=mv.get("path") is None and bool(path))
        if mv.get("triple"):
            ev["triple"] = True
            ev["rule"] = "DG2 16.32"
        if not exit_zone and board.rs.play.rule("boundary") == "lifted":
            follow_side(board, uid, ctx)
        if exit_zone:
            err = carry_out_exit(ctx, uid, exit_zone, mv.get("remove") or [], where, text)
            if err:
                issues.append(err)
            ev["exit"] = exit_zone
    return issues


def phase_forces(ctx: Ctx) -> tuple[str, ...]:
    """The forces whose units act in the current phase (3.0; 16.1: both German forces)."""
    cache = ctx.rs.phase_forces_kept   # (asked for every unit named: once a phase)
    forces = cache.get(ctx.phase)
    if forces is None:
        gid, _ = split(ctx.phase)
        play = ctx.rs.play
        forces = cache[ctx.phase] = play.group(gid).forces if play.has_group(gid) else (gid,)
    return forces


def triple_problem(ctx: Ctx, uid: str, start: str, tripled: list[str]) -> tuple[str, str, str] | None:
    """16.32 before the move: the scenario allows it, a German unit, once a German movement
    phase, not starting in an enemy ZOC, on one side of the boundary."""
    board = ctx.board
    if not ctx.rs.play.rule("triple_move"):
        return ("BFG-TRIPLE", "DG2 16.32", "triple movement belongs to the three-player game only")
    if board.camp(uid) != "german":
        return ("BFG-TRIPLE", "DG2 16.32", "only a German unit may triple its movement allowance")
    if tripled:
        return ("BFG-TRIPLE-TWICE", "DG2 16.32", f"only one German unit may triple its movement in a movement phase ({tripled[0]} already does)")
    if board.in_enemy_zoc(start, "german"):
        return ("BFG-TRIPLE-ZOC", "DG2 16.32", f"{start} is in an enemy ZOC: a unit moving triple may not start its move in one")
    if ctx.rs.theater(start) not in ("east", "west"):
        return ("BFG-TRIPLE-CROSS", "DG2 16.32", f"{start} is on the boundary itself: the unit must start on one side and end on the other")
    return None


def triple_end_problem(board: Board, uid: str, start: str, end: str) -> tuple[str, str, str] | None:
    """16.32 after the move: on the other side of the boundary, outside every enemy ZOC."""
    rs = board.rs
    a, b = rs.theater(start), rs.theater(end)
    if b == a or b not in ("east", "west"):
        return ("BFG-TRIPLE-CROSS", "DG2 16.32",
                f"a unit moving triple must cross the German Theater Boundary and end its move on the other side ({start} is {a}, {end} is {b})")
    if board.in_enemy_zoc(end, board.camp(uid)):
        return ("BFG-TRIPLE-ZOC", "DG2 16.32", f"{end} is in an enemy ZOC: a unit moving triple may not end its move in one")
    return None


def _move_text(mv: dict) -> str:
    parts = [f"unit: {mv.get('unit')}"]
    if mv.get("path") is not None:
        parts.append("path: [" + ", ".join(str(x) for x in mv["path"]) + "]")
    if mv.get("to") is not None:
        parts.append(f"to: {mv['to']}")
    if mv.get("exit"):
        parts.append(f"exit: {mv['exit']}")
    if mv.get("triple"):
        parts.append("triple: true")
    return "{" + ", ".join(parts) + "}"


def _hint(code: str) -> str | None:
    return {
        "BFG-MOVE-ZOC": "a unit stops on entering an enemy ZOC; it may leave one only at the start of its move",
        "BFG-MOVE-ZOC-TO-ZOC": "leave the ZOC into a hex outside every enemy ZOC first",
        "BFG-MOVE-MP": "see the TEC costs in rules/bfg/terrain.yaml; rivers cost extra",
        "BFG-MOVE-NOT-ADJACENT": "list every hex entered, in order, without the starting hex",
        "BFG-BOUNDARY": "only a forced retreat crosses the German Theater Boundary",
    }.get(code)


def stacking_issues(ctx: Ctx, orders: dict, ends: dict | None = None) -> list[Issue]:
    """5.3: at the end of the movement phase at most two friendly units a hex, one Front."""
    board = ctx.board
    forces = phase_forces(ctx)
    camps = {_camp_of(f) for f in forces}
    units, defs = board.units, ctx.rs.units
    out = []
    # (one unit never overstacks; a hex is looked at closer only when three of its units count,
    # or two Fronts)
    over = []
    for h, lst in board.occ.items():
        if len(lst) > 1:
            us = [u for u in lst if (f := units[u]["force"]) in forces or CAMP_OF.get(f, "western") in camps]
            if len(us) > 2 or (len(us) == 2 and defs[us[0]].is_front and defs[us[1]].is_front):
                over.append(h)
    for h in sorted(over):
        us = [u for u in board.units_in(h) if board.force(u) in forces or board.camp(u) in camps]
        if len(us) > 2:
            out.append(Issue("BFG-STACK", f"{h} would hold {len(us)} units ({', '.join(us)}); at most 2 may stack",
                             path=(ends or {}).get(h, ("moves",)), text=h, rule="DG2 5.3",
                             hint="stacking counts at the end of the movement phase"))
        fronts = [u for u in us if ctx.rs.units[u].is_front]
        if len(fronts) > 1:
            out.append(Issue("BFG-STACK-FRONT", f"{h} would hold two Fronts ({', '.join(fronts)})",
                             path=(ends or {}).get(h, ("moves",)), text=h, rule="DG2 5.3"))
    return out


def _camp_of(force: str) -> str:
    return camp(force)


def end_of_movement(ctx: Ctx) -> None:
    """Removals after exits (9.1), obligations (5.42, 5.52), garrisons (10.0)."""
    board = ctx.board
    units = board.units
    for uid in sorted([uid for lst in board.occ.values() for uid in lst if units[uid].get("flipped")]):
        if board.units[uid].get("flipped"):
            board.units[uid].pop("flipped")
            h = board.at(uid)
            board.place(uid, "removed")
            ctx.emit("removed", unit=uid, hex=h, rule="DG2 9.1", text="removed after a German unit left the map")
    check_obligations(ctx, ctx.phase)
    if "soviet" in phase_forces(ctx):
        check_garrisons(ctx)
