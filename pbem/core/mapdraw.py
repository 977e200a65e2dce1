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


class Shared(str):
    """A piece of a map picture (whole lines of its SVG) that its game draws the same on many
    pictures: the map's unchanging base, or a counter that has not moved. A game's
    ``draw_map_parts`` gives a picture as a list of texts, the SVG being their lines joined;
    the campaign book (:mod:`pbem.core.book`) writes each Shared text found on two pages or more
    once, for every page. A str, so that the parts joined are the picture."""
    __slots__ = ()


def draw_parts(state: dict[str, Any], report: dict[str, Any] | None = None, **opts: Any) -> list[str]:
    """The SVG of a state as its parts (``"\\n".join(parts)`` is the picture, :class:`Shared`
    the pieces many pictures share): the game's ``draw_map_parts``, or its whole ``draw_map``
    as one part in a game that does not split its pictures."""
    g, rs = load_ruleset(state["scenario"])
    fn = getattr(g, "draw_map_parts", None)
    if fn is None:
        return [draw_state(state, report, **opts)]
    return list(fn(rs, state, report, **opts))
