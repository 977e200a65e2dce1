"""Victory (18): who wins a BlitzWAR campaign, and the ten victory points between the sides.

47ターン以前にドイツが降伏したら、連合国とソ連の勝利。ドイツが降伏しなければ、枢軸の勝ち。
"If Germany surrenders by turn 47 the Allies and the USSR win; if it does not, the Axis wins."
The ten points are split by the turn of Germany's surrender (tables ``victory.surrender``) or,
when Germany has not surrendered after turn 47, by the Axis strategic points at the end
(``victory.no_surrender``; the track of 9.3 and 18: :func:`context.axis_points`, the one
definition).

The result (the state's ``result``; the kernel reports it as the event ``game-over`` of the last
turn): ``winner`` the player of the winning side (the core's one-winner field: the Allied player
when the Allies and the USSR win), ``winners`` both when three play, ``draw`` false, ``points``
``{allies/ussr: N, axis: M}``, ``reason``.

Three players (ruling victory-three-players): the table has one column for the Allies and the
USSR (連合国/ソ連); with three players the Allied player and the Soviet player win or lose
together and each scores that column's points.
"""
from __future__ import annotations

from typing import Any

from .context import axis_points

BOTH = "allies/ussr"


def _winners(state: dict, side: str) -> tuple[str, list[str]]:
    sides = state["sides"]
    if side == "axis":
        return sides["axis"], [sides["axis"]]
    return sides["allies"], sorted({sides["allies"], sides["ussr"]})


def _result(state: dict, side: str, allies: int, axis: int, reason: str) -> dict:
    winner, winners = _winners(state, side)
    res: dict[str, Any] = {"winner": winner, "draw": False, "points": {BOTH: allies, "axis": axis},
                           "reason": f"{reason}; victory points Allies/USSR {allies}, Axis {axis} (18)"}
    if len(winners) > 1:
        res["winners"] = winners
    return res


def on_germany_surrender(rs: Any, state: dict, turn: int) -> dict:
    """18: Germany surrendered on ``turn``: the Allies and the USSR win; the points by the turn."""
    row = next((r for r in rs.victory_surrender if r["turns"][0] <= turn <= r["turns"][1]), None)
    allies, axis = (int(row["allies"]), int(row["axis"])) if row else (5, 5)
    return _result(state, "allies", allies, axis, f"Germany surrendered on turn {turn}: the Allies and the USSR win")


def points_row(rs: Any, pts: int) -> dict:
    return next(r for r in rs.victory_points if r["points"][0] <= pts <= r["points"][1])


def at_end(rs: Any, state: dict) -> dict:
    """18: turn 47 played and Germany has not surrendered: the Axis wins; the points by the Axis
    strategic points at the end."""
    pts = axis_points(rs, state)
    row = points_row(rs, pts)
    return _result(state, "axis", int(row["allies"]), int(row["axis"]),
                   f"turn {rs.turn_list[-1]} played and Germany has not surrendered: the Axis wins with {pts} strategic points")


def show_lines(rs: Any, state: dict) -> list[str]:
    """`pbem show`: the result at the end; during the game, what the end would give now."""
    res = state.get("result")
    if res and "points" in res:
        p = res["points"]
        return [f"victory (18): {res['reason']}", f"  victory points: Allies/USSR {p[BOTH]}, Axis {p['axis']}"]
    if res:
        return []
    pts = axis_points(rs, state)
    row = points_row(rs, pts)
    last = rs.turn_list[-1]
    return [f"victory (18): Germany's surrender by turn {last} wins for the Allies and the USSR; otherwise the Axis wins. "
            f"The Axis holds {pts} strategic points: if turn {last} ended now, Allies/USSR {row['allies']}, Axis {row['axis']}"]
