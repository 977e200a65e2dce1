"""SVG primitives: a small, game-independent SVG document writer and the plane geometry it
needs. No third-party package is used.

:class:`Svg` writes polygons (hexes, zones), lines and polylines (rivers, boundaries), arrows with
arrowheads (moves, retreats, advances), circles, rectangles and text labels. Every drawn element
carries a ``class`` (``hex terrain-rough``, ``river``, ``arrow move`` ...) and, where it stands for
something, ``data-`` attributes with its id (``data-hex``, ``data-unit``, ``data-at``), so that
tests can count and players' tools can query the picture. The output is deterministic: the same
calls give the same bytes (numbers are rounded to two decimals, attributes are written in a fixed
order, nothing depends on the clock, the platform or dict hashing).

Only SVG that every common converter renders alike is written (browsers, cairosvg,
rsvg-convert, inkscape): no ``paint-order``, markers, filters or CSS; a label's halo is a stroked
copy drawn under it.

The composite pieces of a wargame map (counters, boxes, legend, title) are in
:mod:`pbem.core.mappieces`, the layout of a hex grid in :mod:`pbem.core.hexlayout`, the PNG
conversion in :mod:`pbem.core.png`.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# ----------------------------------------------------------------------------- text helpers
# what escaping changes: a text without any is written as it is (one scan instead of five: a
# map's path data is a megabyte of digits)
_ESCAPED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff&<>]")
_ESCAPED_ATTR = re.compile("[\x00-\x1f\ufffe\uffff&<>\"]")


def esc(text: object) -> str:
    """XML-escape text content (and drop characters XML 1.0 cannot carry)."""
    s = str(text)
    if not _ESCAPED.search(s):
        return s
    s = _BAD_XML.sub("", s)
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def attr(text: object) -> str:
    """XML-escape an attribute value written between double quotes."""
    s = str(text)
    if not _ESCAPED_ATTR.search(s):
        return s
    return esc(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def num(v: float) -> str:
    """A number as SVG text: at most two decimals, no trailing zeros, never ``-0``."""
    s = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pts(points: Iterable[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def text_width(text: str, size: float) -> float:
    """Rough width of ``text`` at font ``size`` (sans-serif): for layout, not typesetting."""
    w = 0.0
    for ch in text:
        if ch in "il.,:;'|!I1()[] ":
            w += 0.34
        elif ch in "mwMW":
            w += 0.86
        elif ch.isupper() or ch.isdigit():
            w += 0.64
        else:
            w += 0.56
    return w * size


def fit_size(text: str, size: float, width: float, minimum: float = 1.0) -> float:
    """The font size (at most ``size``) at which ``text`` fits into ``width``."""
    tw = text_width(text, size)
    if tw <= width or tw == 0:
        return size
    return max(minimum, size * width / tw)


# ----------------------------------------------------------------------------- geometry
def shorten(points: Sequence[Point], start: float = 0.0, end: float = 0.0) -> list[Point]:
    """The polyline with ``start`` cut off its first segment and ``end`` off its last (never
    past a segment's length: very short segments keep a tenth of their length)."""
    p: list[Point] = [(float(q[0]), float(q[1])) for q in points]
    if len(p) < 2:
        return p
    def cut(a: Point, b: Point, d: float) -> Point:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return a
        d = min(d, 0.9 * length)
        return (a[0] + dx * d / length, a[1] + dy * d / length)
    if start:
        p[0] = cut(p[0], p[1], start)
    if end:
        p[-1] = cut(p[-1], p[-2], end)
    return p


def chain_segments(segments: Iterable[tuple[Point, Point]]) -> list[list[Point]]:
    """Join line segments that share end points into polylines (deterministically: in the order
    of the segments, starting each chain at a free end where there is one)."""
    def key(p: Point) -> tuple[int, int]:
        return (round(p[0] * 20), round(p[1] * 20))
    segs: list[tuple[Point, Point]] = [((a[0], a[1]), (b[0], b[1])) for a, b in segments]
    at: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(segs):
        at.setdefault(key(a), []).append(i)
        at.setdefault(key(b), []).append(i)
    used = [False] * len(segs)

    def walk(i: int, start: Point) -> list[Point]:
        line = [start]
        cur = i
        here = start
        while True:
            used[cur] = True
            a, b = segs[cur]
            nxt = b if key(a) == key(here) else a
            line.append(nxt)
            here = nxt
            cand = [j for j in at[key(here)] if not used[j]]
            if len(cand) != 1:
                return line
            cur = cand[0]

    out: list[list[Point]] = []
    order = list(range(len(segs)))
    for i in order:  # chains starting at a free end
        if used[i]:
            continue
        a, b = segs[i]
        if len(at[key(a)]) == 1:
            out.append(walk(i, a))
        elif len(at[key(b)]) == 1:
            out.append(walk(i, b))
    for i in order:  # what is left: closed rings and branches
        if not used[i]:
            out.append(walk(i, segs[i][0]))
    return out


# ----------------------------------------------------------------------------- the document
class Svg:
    """An SVG document built element by element; :meth:`render` gives the text."""

    def __init__(self, width: float, height: float, *, title: str | None = None, desc: str | None = None,
                 background: str | None = "#ffffff", font: str = FONT):
        self.width = width
        self.height = height
        self._out: list[str] = []
        self._depth = 1
        self._open: list[str] = []
        self.title = title
        self.desc = desc
        self.background = background
        self.font = font

    # -- low level
    def _attrs(self, cls: str | None, data: dict[str, Any] | None, attrs: dict[str, Any]) -> str:
        parts = []
        if cls:
            parts.append(f'class="{attr(cls)}"')
        for k, v in (data or {}).items():
            if v is not None:
                parts.append(f'data-{k}="{attr(v)}"')
        for k, v in attrs.items():
            if v is None:
                continue
            name = k.rstrip("_").replace("_", "-")
            if isinstance(v, float):
                v = num(v)
            parts.append(f'{name}="{attr(v)}"')
        return (" " + " ".join(parts)) if parts else ""

    def element(self, tag: str, cls: str | None = None, *, data: dict[str, Any] | None = None, text: str | None = None,
                title: str | None = None, raw: str | None = None, **attrs: Any) -> None:
        a = self._attrs(cls, data, attrs)
        pad = " " * self._depth
        inner = ""
        if title:
            inner += f"<title>{esc(title)}</title>"
        if text is not None:
            inner += esc(text)
        if raw is not None:
            inner += raw
        if inner:
            self._out.append(f"{pad}<{tag}{a}>{inner}</{tag}>")
        else:
            self._out.append(f"{pad}<{tag}{a}/>")

    def open(self, tag: str = "g", cls: str | None = None, *, data: dict[str, Any] | None = None,
             title: str | None = None, **attrs: Any) -> None:
        self._out.append(f"{' ' * self._depth}<{tag}{self._attrs(cls, data, attrs)}>")
        self._depth += 1
        self._open.append(tag)
        if title:
            self._out.append(f"{' ' * self._depth}<title>{esc(title)}</title>")

    def close(self) -> None:
        tag = self._open.pop()
        self._depth -= 1
        self._out.append(f"{' ' * self._depth}</{tag}>")

    @contextmanager
    def group(self, cls: str | None = None, *, data: dict[str, Any] | None = None, title: str | None = None,
              **attrs: Any) -> Iterator[None]:
        self.open("g", cls, data=data, title=title, **attrs)
        try:
            yield
        finally:
            self.close()

    # -- primitives
    def polygon(self, points: Iterable[Point], cls: str, *, data: dict[str, Any] | None = None, title: str | None = None,
                fill: str = "none", stroke: str | None = None, stroke_width: float | str | None = None, **style: Any) -> None:
        self.element("polygon", cls, data=data, title=title, points=pts(points), fill=fill, stroke=stroke,
                     stroke_width=stroke_width, **style)

    def polyline(self, points: Iterable[Point], cls: str, *, data: dict[str, Any] | None = None, title: str | None = None,
                 stroke: str = "#000000", stroke_width: float = 1.0, **style: Any) -> None:
        self.element("polyline", cls, data=data, title=title, points=pts(points), fill="none", stroke=stroke,
                     stroke_width=stroke_width, stroke_linecap=style.pop("stroke_linecap", "round"),
                     stroke_linejoin=style.pop("stroke_linejoin", "round"), **style)

    def line(self, a: Point, b: Point, cls: str, *, data: dict[str, Any] | None = None, stroke: str = "#000000",
             stroke_width: float = 1.0, **style: Any) -> None:
        self.element("line", cls, data=data, x1=num(a[0]), y1=num(a[1]), x2=num(b[0]), y2=num(b[1]),
                     stroke=stroke, stroke_width=stroke_width, stroke_linecap=style.pop("stroke_linecap", "round"),
                     **style)

    def rect(self, x: float, y: float, w: float, h: float, cls: str | None, *, data: dict[str, Any] | None = None,
             title: str | None = None, rx: float | None = None, fill: str = "none", stroke: str | None = None,
             stroke_width: float | str | None = None, **style: Any) -> None:
        self.element("rect", cls, data=data, title=title, x=num(x), y=num(y), width=num(w), height=num(h),
                     rx=None if rx is None else num(rx), fill=fill, stroke=stroke, stroke_width=stroke_width, **style)

    def circle(self, x: float, y: float, r: float, cls: str | None, *, data: dict[str, Any] | None = None,
               title: str | None = None, fill: str = "none", stroke: str | None = None,
               stroke_width: float | str | None = None, **style: Any) -> None:
        self.element("circle", cls, data=data, title=title, cx=num(x), cy=num(y), r=num(r), fill=fill,
                     stroke=stroke, stroke_width=stroke_width, **style)

    def text(self, x: float, y: float, s: str, cls: str | None, *, size: float, anchor: str = "middle",
             fill: str = "#000000", weight: str | None = None, halo: str | None = None, halo_width: float | None = None,
             data: dict[str, Any] | None = None, title: str | None = None, baseline: str = "central", **style: Any) -> None:
        """A label; ``halo`` draws an outline of that colour under the glyphs (readable on any
        background). ``baseline`` ``central`` centres it on ``y``.

        The halo is a copy of the label (class ``halo``, hidden from screen readers) stroked and
        filled in the halo colour and written just before it: every converter renders that alike,
        while ``paint-order`` (the one-element way) is ignored by cairosvg, which then paints the
        outline over the glyphs and leaves a blob."""
        common: dict[str, Any] = dict(x=num(x), y=num(y), font_size=num(size), text_anchor=anchor, dominant_baseline=baseline,
                      font_weight=weight)
        if halo:
            self.element("text", "halo", text=s, aria_hidden="true", **common, fill=halo, stroke=halo,
                         stroke_width=num(halo_width if halo_width is not None else size * 0.28),
                         stroke_linejoin="round", **style)
        self.element("text", cls, data=data, title=title, text=s, **common, fill=fill, **style)

    def arrow(self, points: Sequence[Point], cls: str, *, color: str, width: float, head: float | None = None,
              dash: str | None = None, data: dict[str, Any] | None = None, title: str | None = None,
              outline: str | None = "#ffffff", opacity: float | None = None) -> None:
        """A polyline ending in a filled arrowhead (a polygon, so any renderer shows it in the
        line's colour). ``outline`` draws a thin light edge under it so it stays visible on
        dark ground. One ``<g class="arrow ...">`` per arrow."""
        p: list[Point] = [(float(q[0]), float(q[1])) for q in points]
        if len(p) < 2:
            return
        head = head if head is not None else width * 3.2
        (x1, y1), (x2, y2) = p[-2], p[-1]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        base = (x2 - ux * head, y2 - uy * head)
        shaft = p[:-1] + [(x2 - ux * head * 0.6, y2 - uy * head * 0.6)]
        left = (base[0] - uy * head * 0.5, base[1] + ux * head * 0.5)
        right = (base[0] + uy * head * 0.5, base[1] - ux * head * 0.5)
        with self.group(cls, data=data, title=title, opacity=None if opacity is None else num(opacity)):
            if outline:
                self.polyline(shaft, "arrow-edge", stroke=outline, stroke_width=width + max(1.0, width * 0.6))
                self.polygon([(x2, y2), left, right], "arrow-edge", fill=outline, stroke=outline,
                             stroke_width=max(1.0, width * 0.6), stroke_linejoin="round")
            self.polyline(shaft, "shaft", stroke=color, stroke_width=width, stroke_dasharray=dash)
            self.polygon([(x2, y2), left, right], "head", fill=color)

    # -- output
    def elements(self) -> list[str]:
        """The elements written so far, without the document's head: for a game whose picture
        is written by a writer of its own to take pieces (arrows, a legend) drawn here."""
        if self._open:
            raise RuntimeError(f"unclosed elements: {self._open}")
        return list(self._out)

    def render(self) -> str:
        head = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{num(self.width)}" '
            f'height="{num(self.height)}" viewBox="0 0 {num(self.width)} {num(self.height)}" '
            f'font-family="{attr(self.font)}">',
        ]
        if self.title:
            head.append(f" <title>{esc(self.title)}</title>")
        if self.desc:
            head.append(f" <desc>{esc(self.desc)}</desc>")
        if self.background:
            head.append(f' <rect class="background" x="0" y="0" width="{num(self.width)}" '
                        f'height="{num(self.height)}" fill="{attr(self.background)}"/>')
        if self._open:
            raise RuntimeError(f"unclosed elements: {self._open}")
        return "\n".join(head + self._out + ["</svg>"]) + "\n"
