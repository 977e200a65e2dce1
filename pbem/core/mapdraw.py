"""Map pictures: the game-neutral dispatch. A game that can draw its map has a ``draw_map``
(:class:`pbem.core.game.Game`; Battle for Germany's hex map is :mod:`pbem.bfg.draw`); it draws with the
primitives of :mod:`pbem.core.svg`, the pieces of :mod:`pbem.core.mappieces` and, for a hex
grid, the layout of :mod:`pbem.core.hexlayout`. PNG conversion is :mod:`pbem.core.png`; the
input handling of ``pbem map`` lives with the command in :mod:`pbem.cli`.
"""
from __future__ import annotations

from typing import Any

from .data import load_ruleset
from .errors import ExitCode, Issue, PbemError


def draw_state(state: dict[str, Any], report: dict[str, Any] | None = None, **opts: Any) -> str:
    """The SVG of a state (with the marks of ``report``), drawn by the state's game."""
    g, rs = load_ruleset(state["scenario"])
    fn = getattr(g, "draw_map", None)
    if fn is None:
        raise PbemError([Issue("MAP-UNSUPPORTED", f"pbem cannot draw maps of {g.title or state['game']} yet")],
                        ExitCode.USAGE)
    return str(fn(rs, state, report, **opts))
