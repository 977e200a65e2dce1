"""Battle for Germany's phases as data (issue 30): kind of phase -> its static check, its check
against the position and its run (:class:`pbem.core.game.PhaseKind`). The kernel alone goes through
them, in ``adjudicate`` and in ``validate``.

Static checks (what no die and no answer changes, checked for every phase of an order file when
it arrives, 3.0): the units named exist and are of the phase's force and player (2.5, 3.0), every
hex named is a hex of the map (5.1, 6.0), each step of a stated path is adjacent to the step before
it (5.1). The check against the position (:func:`check`) is what the phase checks before its
first die, without its dice (the Courland die, 8.0, and the combat results): a validating run
checks with it the phases that come after a die or a decision, as warnings.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Issue
from ..core.game import PhaseKind, PhaseRun, StaticCheck

# (what every phase and every static check uses: loaded with the table, once, not at each call)
from .board import Board, board_for
from .context import Ctx
from .orders import normalize_phase
from .sequence import split
from .victory import update_control

if TYPE_CHECKING:
    from .ruleset import Ruleset


def _ctx(rs: Ruleset, state: dict, phase: str, player: str, turn: int, *, index: bool = True) -> Ctx:
    return Ctx(rs=rs, board=Board(rs, state, index=index), turn=turn, phase=phase, player=player, validating=True)


def units(chk: StaticCheck[Ruleset]) -> list[Issue]:
    """2.5, 3.0: every unit a move or an attack names is known, of the phase's force and
    commanded by the player (a did-you-mean among the player's units)."""
    from .movement import check_unit_for_phase  # the chapter loads when its phase first runs
    # (the units' own force, place and command only: a board without its occupancy index)
    ctx = _ctx(chk.rs, chk.state, chk.phase, chk.player, chk.turn, index=False)
    orders = normalize_phase(chk.entry, chk.index)
    out = []
    keep = ("BFG-UNIT-UNKNOWN", "BFG-UNIT-NOT-YOURS")
    for m in orders.get("moves", []):
        bad = check_unit_for_phase(ctx, m.get("unit"), tuple(m["_path"]) + ("unit",), "move")
        if bad and bad.code in keep:
            out.append(bad)
    for a in orders.get("attacks", []):
        for k, u in enumerate(a["units"]):
            bad = check_unit_for_phase(ctx, u, tuple(a["_path"]) + ("units", k), "attack")
            if bad and bad.code in keep:
                out.append(bad)
    return out


def hexes(chk: StaticCheck[Ruleset]) -> list[Issue]:
    """5.1, 6.0: the hexes of a move's path or destination and of an attack are hexes of the
    map; each step of a stated path is adjacent to the step before it (the first step's
    neighbour is where the unit stands when the phase comes: the phase checks it)."""
    from .movement import hex_step_problem  # the chapter loads when its phase first runs
    grid = chk.rs.grid
    out = []
    for j, m in enumerate(chk.entry.get("moves") or []):
        if not isinstance(m, dict):
            continue
        where = chk.path + ("moves", j)
        uid = m.get("unit")
        path = m.get("path")
        steps = [str(h) for h in path] if isinstance(path, list) else ([str(m["to"])] if m.get("to") is not None else [])
        prev = None
        for h in steps:
            bad = hex_step_problem(grid, prev, h)
            if bad:
                code, rule, msg = bad
                out.append(Issue(code, f"{uid}: {msg}", path=where, text=h, rule=rule))
                break
            prev = h
    for j, a in enumerate(chk.entry.get("attacks") or []):
        if not isinstance(a, dict):
            continue
        t = a.get("target", a.get("targets"))
        for h in [t] if isinstance(t, str) else list(t or []):
            if str(h) not in grid:
                out.append(Issue("BFG-ATTACK-HEX", f"{h} is not a hex of the map", path=chk.path + ("attacks", j),
                                 text=str(h), rule="DG2 6.0"))
    return out


def static_check(chk: StaticCheck[Ruleset]) -> list[Issue]:
    return units(chk) + hexes(chk)


def check(run: PhaseRun[Ruleset]) -> list[Issue]:
    """The phase's checks against the position of ``run.state`` before its first die (it moves
    the units there, as the phase would): refusals, and in a combat phase the answers that would
    be ignored (6.2, 6.92). The Courland exit's die is unknown: only what comes before it."""
    from .combat import check_attacks  # the chapter loads when its phase first runs
    from .context import NeedDecision, PhaseOrdersInvalid  # the chapter loads when its phase first runs
    from .engine import _combat_warnings  # the chapter loads when its phase first runs
    from .movement import end_of_movement, run_movement  # the chapter loads when its phase first runs
    from .replacements import run_replacement  # the chapter loads when its phase first runs
    _, step = split(run.phase)
    ctx = _ctx(run.rs, run.state, run.phase, run.player, run.turn)
    ctx.auto_players = run.auto_players
    orders = run.orders.get(run.player) or {}
    try:
        if step == "combat":
            found = check_attacks(ctx, orders)
            return found + _combat_warnings(ctx, orders, found)
        if step == "replacement":
            run_replacement(ctx, {k: v for k, v in orders.items() if k != "courland_exit"})
            if "courland_exit" in orders:
                from .courland import check_courland_exit  # the chapter loads when its phase first runs
                check_courland_exit(ctx, orders["courland_exit"])
        else:
            run_movement(ctx, orders)
            end_of_movement(ctx)
    except PhaseOrdersInvalid as e:
        return e.issues
    except NeedDecision:
        pass
    return []


def _replacement(ctx, orders: dict) -> None:
    from .replacements import run_replacement  # the chapter loads when its phase first runs
    run_replacement(ctx, orders)                 # 7.0, 8.0 (Courland)


def _movement(ctx, orders: dict) -> None:
    from .movement import end_of_movement, run_movement  # the chapter loads when its phase first runs
    run_movement(ctx, orders)                    # 4.0, 5.0, 9.0
    end_of_movement(ctx)


def _combat(ctx, orders: dict) -> None:
    from .boundary import check_obligations  # the chapter loads when its phase first runs
    from .combat import run_combat  # the chapter loads when its phase first runs
    run_combat(ctx, orders)                      # 6.0
    check_obligations(ctx, ctx.phase)            # 5.4, 5.5


#: what each kind of phase of a player-turn does (3.0)
RUNS = {"replacement": _replacement, "movement": _movement, "combat": _combat}


def run_kind(run: PhaseRun[Ruleset], kind: str | None = None) -> None:
    """Carry out one phase of kind ``kind`` (default: the phase's), then city control (11.0)."""
    ctx = Ctx(rs=run.rs, board=board_for(run.rs, run.state), turn=run.turn, phase=run.phase, player=run.player,
              dice=run.dice, answers=run.answers, auto_players=run.auto_players)
    ctx.events = run.events
    RUNS[kind or split(run.phase)[1]](ctx, run.orders[run.player])
    update_control(ctx)


def _row(kind: str) -> PhaseKind[Ruleset]:
    return PhaseKind(run=lambda run: run_kind(run, kind), static=static_check, check=check)


#: Battle for Germany's phase table (3.0): a player-turn's replacement, movement and combat phases
TABLE: dict[str, PhaseKind[Ruleset]] = {k: _row(k) for k in RUNS}
