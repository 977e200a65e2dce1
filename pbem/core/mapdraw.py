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


# ----------------------------------------------------------------------------- a picture as drawn
# A game's writer may keep what it draws as items instead of text (issue 35: the mail's preview
# drew the map as a megabyte of SVG text, then parsed it back to paint it): a Picture gives the
# SVG text (``pbem map``, the book, the --svg attachment) and the element tree pbem's rasteriser
# paints (:func:`pbem.core.raster.render` takes either) from the same items, so that what is drawn
# has one source. An item is a raw line of SVG text (str), a :class:`Piece`, or an element line:
# an object whose ``str()`` is its line of text, with ``kind`` (EMPTY: a whole element, OPEN,
# CLOSE) and ``node()`` (an ``xml.etree.ElementTree.Element`` as the text parses to, for EMPTY and
# OPEN: the rasteriser's attributes, ``class`` and ``data-*`` aside).
EMPTY, OPEN, CLOSE = 0, 1, 2


class Piece:
    """Items drawn once and written again on many pictures (a game's shared piece): its text,
    one :class:`Shared` made on first use, is the same object every time."""
    __slots__ = ("items", "_text")

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self._text: Shared | None = None

    def shared(self) -> Shared:
        if self._text is None:
            self._text = Shared("\n".join(_lines(self.items)))
        return self._text


def _lines(items: list[Any]) -> list[str]:
    return [it.shared() if it.__class__ is Piece else it if it.__class__ is str or isinstance(it, str) else str(it)
            for it in items]


class Picture:
    """A map picture as its writer drew it: the root's start tag ``head`` (one line), the items
    and the last line ``tail``. :meth:`text` is the SVG, :meth:`parts` the same as the book's
    parts, :meth:`tree` the elements for :func:`pbem.core.raster.render`; ``head`` given to
    either: another start tag (the preview's window, :func:`pbem.core.png.focused`)."""

    def __init__(self, head: str, items: list[Any], tail: str) -> None:
        self.head, self.items, self.tail = head, items, tail

    def parts(self, head: str | None = None) -> list[str]:
        """The text as parts: each top-level Piece one (its :class:`Shared` text), the lines between joined."""
        parts: list[str] = []
        lines = [self.head if head is None else head]
        for it in self.items:
            if it.__class__ is Piece:
                parts.append("\n".join(lines))
                parts.append(it.shared())
                lines = []
            else:
                lines.append(it if isinstance(it, str) else str(it))
        parts.append("\n".join(lines + [self.tail]))
        return [p for p in parts if p]

    def text(self, head: str | None = None) -> str:
        return "\n".join(self.parts(head))

    def tree(self, head: str | None = None, specks: Any = None) -> Any:
        """The root element (``xml.etree.ElementTree``) of what the text parses to, as far as
        the rasteriser reads it; raw lines are parsed (a run of them must be whole elements).
        ``specks``: a function of the root giving :func:`pbem.core.raster.specks`'s test; a
        drawn element that is a speck by it (its ``speck(test)``: a tiny text) is left out, not
        made (the whole BlitzWAR map's 1,000 place names in a mail's preview), where only
        groups hold it (a pattern's tile is drawn at another scale)."""
        import xml.etree.ElementTree as ET  # lazy: only for a picture painted
        root = ET.fromstring((self.head if head is None else head) + "</svg>")
        stack = [root]
        raw: list[str] = []
        test = specks(root) if specks is not None else None
        grouped = [True]     # whether every element open is the root or a group

        def flush() -> None:
            if raw:
                stack[-1].extend(ET.fromstring("<r>" + "\n".join(raw) + "</r>"))
                raw.clear()

        def add(items: list[Any]) -> None:
            for it in items:
                c = it.__class__
                if c is str or isinstance(it, str):
                    raw.append(it)
                    continue
                flush()
                if c is Piece:
                    add(it.items)
                elif it.kind == CLOSE:
                    stack.pop()
                    grouped.pop()
                elif test is not None and it.kind != OPEN and grouped[-1] and it.speck(test):
                    continue
                else:
                    node = it.node()
                    stack[-1].append(node)
                    if it.kind == OPEN:
                        stack.append(node)
                        grouped.append(grouped[-1] and node.tag in ("g", "a"))
        add(self.items)
        flush()
        if len(stack) != 1:
            raise ValueError("a picture's elements not closed")
        return root
