"""Map pictures: a small, game-independent SVG drawing layer.

A game draws its map with these primitives: polygons (hexes, zones), lines and polylines
(rivers, boundaries), arrows with arrowheads (moves, retreats, advances), text labels,
counters (a rounded square with a coloured label box and a factor line such as ``7-4-8``),
off-map boxes listing counters, a legend and a title. No third-party package is used.

Every drawn element carries a ``class`` (``hex terrain-rough``, ``river``, ``counter
side-soviet``, ``arrow move`` ...) and, where it stands for something, ``data-`` attributes
with its id (``data-hex``, ``data-unit``, ``data-at``), so that tests can count and players'
tools can query the picture. The output is deterministic: the same calls give the same bytes
(numbers are rounded to two decimals, attributes are written in a fixed order, nothing depends
on the clock, the platform or dict hashing).

PNG is optional (:func:`svg_to_png`): through ``cairosvg`` when importable, else the
``rsvg-convert`` or ``inkscape`` command when on the PATH, else the error MAP-PNG-UNAVAILABLE.
"""
from __future__ import annotations

import math
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# ----------------------------------------------------------------------------- text helpers
def esc(text: object) -> str:
    """XML-escape text content (and drop characters XML 1.0 cannot carry)."""
    s = _BAD_XML.sub("", str(text))
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def attr(text: object) -> str:
    """XML-escape an attribute value written between double quotes."""
    return esc(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


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
    p = [tuple(map(float, q)) for q in points]
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
    segs = [(tuple(a), tuple(b)) for a, b in segments]
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


class HexLayout:
    """Pixel geometry of an offset grid of pointy-top hexes: ``size`` is the circumradius; row
    ``top_row`` is drawn at the top; ``shifted(row)`` tells which rows stand half a hex east."""

    def __init__(self, *, rows: Sequence[int], columns: Sequence[int], size: float, shifted,
                 origin: Point = (0.0, 0.0)):
        self.rows = list(rows)          # top to bottom
        self.columns = list(columns)    # left to right
        self.size = float(size)
        self.width = math.sqrt(3) * self.size   # flat side to flat side
        self.shifted = shifted
        self.origin = origin
        self._row_index = {r: i for i, r in enumerate(self.rows)}
        self._col_index = {c: i for i, c in enumerate(self.columns)}

    @property
    def pixel_width(self) -> float:
        return (len(self.columns) + 0.5) * self.width

    @property
    def pixel_height(self) -> float:
        return (len(self.rows) - 1) * 1.5 * self.size + 2 * self.size

    def center(self, row: int, col: int) -> Point:
        ox, oy = self.origin
        x = ox + self.width / 2 + self._col_index[col] * self.width + (self.width / 2 if self.shifted(row) else 0)
        y = oy + self.size + self._row_index[row] * 1.5 * self.size
        return (x, y)

    def corners(self, row: int, col: int, scale: float = 1.0) -> list[Point]:
        cx, cy = self.center(row, col)
        r = self.size * scale
        return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)]

    def edge(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[Point, Point]:
        """The side shared by two adjacent hexes."""
        (ax, ay), (bx, by) = self.center(*a), self.center(*b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        px, py = -dy / length * self.size / 2, dx / length * self.size / 2
        p1, p2 = (mx + px, my + py), (mx - px, my - py)
        return (p1, p2) if (round(p1[0], 3), round(p1[1], 3)) <= (round(p2[0], 3), round(p2[1], 3)) else (p2, p1)


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
    def _attrs(self, cls: str | None, data: dict | None, attrs: dict) -> str:
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

    def element(self, tag: str, cls: str | None = None, *, data: dict | None = None, text: str | None = None,
                title: str | None = None, raw: str | None = None, **attrs) -> None:
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

    def open(self, tag: str = "g", cls: str | None = None, *, data: dict | None = None,
             title: str | None = None, **attrs) -> None:
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
    def group(self, cls: str | None = None, *, data: dict | None = None, title: str | None = None,
              **attrs) -> Iterator[None]:
        self.open("g", cls, data=data, title=title, **attrs)
        try:
            yield
        finally:
            self.close()

    # -- primitives
    def polygon(self, points: Iterable[Point], cls: str, *, data: dict | None = None, title: str | None = None,
                fill: str = "none", stroke: str | None = None, stroke_width: float | None = None, **style) -> None:
        self.element("polygon", cls, data=data, title=title, points=pts(points), fill=fill, stroke=stroke,
                     stroke_width=stroke_width, **style)

    def polyline(self, points: Iterable[Point], cls: str, *, data: dict | None = None, title: str | None = None,
                 stroke: str = "#000000", stroke_width: float = 1.0, **style) -> None:
        self.element("polyline", cls, data=data, title=title, points=pts(points), fill="none", stroke=stroke,
                     stroke_width=stroke_width, stroke_linecap=style.pop("stroke_linecap", "round"),
                     stroke_linejoin=style.pop("stroke_linejoin", "round"), **style)

    def line(self, a: Point, b: Point, cls: str, *, data: dict | None = None, stroke: str = "#000000",
             stroke_width: float = 1.0, **style) -> None:
        self.element("line", cls, data=data, x1=num(a[0]), y1=num(a[1]), x2=num(b[0]), y2=num(b[1]),
                     stroke=stroke, stroke_width=stroke_width, stroke_linecap=style.pop("stroke_linecap", "round"),
                     **style)

    def rect(self, x: float, y: float, w: float, h: float, cls: str | None, *, data: dict | None = None,
             title: str | None = None, rx: float | None = None, fill: str = "none", stroke: str | None = None,
             stroke_width: float | None = None, **style) -> None:
        self.element("rect", cls, data=data, title=title, x=num(x), y=num(y), width=num(w), height=num(h),
                     rx=None if rx is None else num(rx), fill=fill, stroke=stroke, stroke_width=stroke_width, **style)

    def circle(self, x: float, y: float, r: float, cls: str | None, *, data: dict | None = None,
               title: str | None = None, fill: str = "none", stroke: str | None = None,
               stroke_width: float | None = None, **style) -> None:
        self.element("circle", cls, data=data, title=title, cx=num(x), cy=num(y), r=num(r), fill=fill,
                     stroke=stroke, stroke_width=stroke_width, **style)

    def text(self, x: float, y: float, s: str, cls: str | None, *, size: float, anchor: str = "middle",
             fill: str = "#000000", weight: str | None = None, halo: str | None = None, halo_width: float | None = None,
             data: dict | None = None, title: str | None = None, baseline: str = "central", **style) -> None:
        """A label; ``halo`` draws an outline of that colour under the glyphs (readable on any
        background). ``baseline`` ``central`` centres it on ``y``."""
        extra = {}
        if halo:
            extra = {"stroke": halo, "stroke_width": num(halo_width if halo_width is not None else size * 0.28),
                     "stroke_linejoin": "round", "paint_order": "stroke"}
        self.element("text", cls, data=data, title=title, text=s, x=num(x), y=num(y), font_size=num(size),
                     text_anchor=anchor, dominant_baseline=baseline, font_weight=weight, fill=fill, **extra, **style)

    def arrow(self, points: Sequence[Point], cls: str, *, color: str, width: float, head: float | None = None,
              dash: str | None = None, data: dict | None = None, title: str | None = None,
              outline: str | None = "#ffffff", opacity: float | None = None) -> None:
        """A polyline ending in a filled arrowhead (a polygon, so any renderer shows it in the
        line's colour). ``outline`` draws a thin light edge under it so it stays visible on
        dark ground. One ``<g class="arrow ...">`` per arrow."""
        p = [tuple(map(float, q)) for q in points]
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


def title_block(svg: Svg, x: float, y: float, lines: Sequence[str], *, size: float) -> float:
    """The picture's title: the first line large and bold, the others smaller. Returns the
    height used."""
    h = 0.0
    with svg.group("title"):
        for i, line in enumerate(lines):
            if not line:
                continue
            fs = size if i == 0 else size * (0.74 if i == 1 else 0.63)
            h += fs * 1.25
            svg.text(x, y + h - fs * 0.5, line, "title-main" if i == 0 else ("title-sub" if i == 1 else "title-status"),
                     size=fs, anchor="start", weight="bold" if i == 0 else None,
                     fill="#000000" if i < 2 else "#444444")
    return h


# ----------------------------------------------------------------------------- counters
@dataclass(frozen=True)
class Counter:
    """One unit counter: ``label`` goes into the coloured box at the top, ``factors`` (e.g.
    ``7-4-8``) below it; ``at`` is where the unit is (a hex, a box ...)."""
    unit: str
    label: str
    factors: str
    fill: str
    ink: str = "#000000"              # colour of the factor line
    band: str | None = None           # colour of the label box (None: the counter's fill)
    band_ink: str | None = None       # colour of the label text
    classes: tuple[str, ...] = ()
    title: str | None = None
    badge: str | None = None          # a one-letter mark in the corner (e.g. G for a garrison)
    double: bool = False              # an inner border (e.g. a Front)
    at: str | None = None


def counter(svg: Svg, cx: float, cy: float, w: float, h: float, c: Counter) -> None:
    """Draw one counter centred on (cx, cy)."""
    x, y = cx - w / 2, cy - h / 2
    r = min(w, h) * 0.12
    cls = " ".join(("counter",) + tuple(c.classes))
    with svg.group(cls, data={"unit": c.unit, "at": c.at}, title=c.title):
        svg.rect(x + w * 0.06, y + h * 0.08, w, h, "shadow", rx=r, fill="#000000", fill_opacity="0.25")
        svg.rect(x, y, w, h, "body", rx=r, fill=c.fill, stroke="#1a1a1a", stroke_width=num(max(0.6, w * 0.03)))
        band_h = h * 0.42
        bw = w * 0.84
        svg.rect(cx - bw / 2, y + h * 0.08, bw, band_h, "label-box", rx=r * 0.5, fill=c.band or c.fill,
                 stroke="#1a1a1a" if c.band else None, stroke_width=num(max(0.4, w * 0.015)) if c.band else None)
        ls = fit_size(c.label, h * 0.3, bw * 0.92)
        svg.text(cx, y + h * 0.08 + band_h / 2, c.label, "label", size=ls, fill=c.band_ink or c.ink, weight="bold")
        fs = fit_size(c.factors, h * 0.38, w * 0.92)
        svg.text(cx, y + h * 0.76, c.factors, "factors", size=fs, fill=c.ink, weight="bold")
        if c.double:
            inset = max(1.0, w * 0.05)
            svg.rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, "front-border", rx=r * 0.7,
                     stroke=c.ink, stroke_width=num(max(0.4, w * 0.02)))
        if c.badge:
            br = h * 0.2
            svg.circle(x + w - br * 0.1, y + br * 0.1, br, "badge", fill="#ffd600", stroke="#1a1a1a",
                       stroke_width=num(max(0.4, w * 0.02)))
            svg.text(x + w - br * 0.1, y + br * 0.15, c.badge, "badge-text", size=br * 1.3, weight="bold")


def stack(svg: Svg, cx: float, cy: float, counters: Sequence[Counter], w: float, h: float,
          gap: float | None = None) -> None:
    """Draw the counters of one place: one is centred, two stand side by side (both readable),
    more are offset one over the other like a stack on the table."""
    n = len(counters)
    if n == 0:
        return
    gap = w * 0.06 if gap is None else gap
    if n == 1:
        counter(svg, cx, cy, w, h, counters[0])
    elif n == 2:
        counter(svg, cx - (w + gap) / 2, cy, w, h, counters[0])
        counter(svg, cx + (w + gap) / 2, cy, w, h, counters[1])
    else:
        # the first n - 1 stand side by side with the last, stacked up and left so that the
        # label box of each counter below stays visible
        dx, dy = w * 0.2, h * 0.45
        for i, c in enumerate(counters[:-1]):
            up = n - 2 - i
            counter(svg, cx - (w + gap) / 2 - up * dx, cy - up * dy, w, h, c)
        counter(svg, cx + (w + gap) / 2, cy, w, h, counters[-1])


def box(svg: Svg, x: float, y: float, width: float, title: str, counters: Sequence[Counter], *, cw: float,
        ch: float, cls: str, data: dict | None = None, fill: str = "#fafafa", note: str | None = None,
        title_size: float | None = None) -> float:
    """An off-map box: a framed area with a title and its counters in rows. Returns its height."""
    ts = title_size or ch * 0.42
    pad = cw * 0.18
    per_row = max(1, int((width - pad) // (cw + pad)))
    rows = max(1, math.ceil(len(counters) / per_row))
    head = ts * 1.7 + (ts * 1.3 if note else 0)
    height = head + rows * (ch + pad) + pad
    with svg.group(cls, data=data):
        svg.rect(x, y, width, height, "box-frame", rx=ch * 0.15, fill=fill, stroke="#333333",
                 stroke_width=num(max(0.8, ch * 0.04)))
        svg.text(x + pad, y + ts * 0.95, title, "box-title", size=ts, anchor="start", weight="bold")
        if note:
            svg.text(x + pad, y + ts * 2.3, note, "box-note", size=ts * 0.8, anchor="start", fill="#555555")
        if not counters:
            svg.text(x + width / 2, y + head + (ch + pad) / 2, "empty", "box-empty", size=ts * 0.85,
                     fill="#888888")
        for i, c in enumerate(counters):
            r, k = divmod(i, per_row)
            counter(svg, x + pad + cw / 2 + k * (cw + pad), y + head + ch / 2 + r * (ch + pad), cw, ch, c)
    return height


# ----------------------------------------------------------------------------- legend
@dataclass(frozen=True)
class LegendItem:
    """``kind``: ``area`` (fill/stroke swatch), ``line`` (stroke, width, dash), ``arrow``,
    ``counter`` (a :class:`Counter`), ``ring`` (a hex outline in a colour)."""
    kind: str
    label: str
    fill: str = "none"
    stroke: str = "#000000"
    width: float = 1.0
    dash: str | None = None
    counter: Counter | None = None
    mark: str | None = None           # for a ring: "dot" (a disc of its colour) or "x" (crossed out)
    mark_colour: str | None = None


def legend(svg: Svg, x: float, y: float, width: float, items: Sequence[LegendItem], *, size: float,
           title: str = "Legend", columns: int = 1) -> float:
    """A framed legend; returns its height."""
    pad = size * 0.6
    row_h = size * 1.9
    col_w = (width - pad) / columns
    rows = math.ceil(len(items) / columns)
    height = size * 2.2 + rows * row_h + pad
    with svg.group("legend"):
        svg.rect(x, y, width, height, "legend-frame", rx=size * 0.3, fill="#ffffff", stroke="#333333",
                 stroke_width=num(max(0.8, size * 0.06)))
        svg.text(x + pad, y + size * 1.1, title, "legend-title", size=size * 1.05, anchor="start", weight="bold")
        sw = size * 2.6
        for i, it in enumerate(items):
            col, row = divmod(i, rows)
            ix = x + pad + col * col_w
            iy = y + size * 2.2 + row * row_h + row_h / 2
            with svg.group("legend-item legend-" + it.kind):
                if it.kind == "area":
                    svg.rect(ix, iy - size * 0.65, sw, size * 1.3, "swatch", fill=it.fill, stroke=it.stroke,
                             stroke_width=num(it.width), stroke_dasharray=it.dash)
                elif it.kind == "line":
                    svg.line((ix, iy), (ix + sw, iy), "swatch", stroke=it.stroke, stroke_width=it.width,
                             stroke_dasharray=it.dash)
                elif it.kind == "arrow":
                    svg.arrow([(ix, iy), (ix + sw, iy)], "swatch", color=it.stroke, width=it.width, dash=it.dash,
                              head=size * 0.9)
                elif it.kind == "ring":
                    hx = [(ix + sw / 2 + size * 0.75 * math.cos(math.radians(a)),
                           iy + size * 0.75 * math.sin(math.radians(a))) for a in (-90, -30, 30, 90, 150, 210)]
                    svg.polygon(hx, "swatch", fill=it.fill, stroke=it.stroke, stroke_width=it.width,
                                stroke_dasharray=it.dash)
                    if it.mark == "dot":
                        svg.circle(ix + sw / 2, iy, size * 0.3, "swatch-mark", fill=it.mark_colour or it.stroke)
                    elif it.mark == "x":
                        svg.line(hx[1], hx[4], "swatch-mark", stroke=it.mark_colour or "#d50000", stroke_width=it.width)
                        svg.line(hx[2], hx[5], "swatch-mark", stroke=it.mark_colour or "#d50000", stroke_width=it.width)
                elif it.kind == "counter" and it.counter is not None:
                    counter(svg, ix + sw / 2, iy, size * 2.3, size * 1.75, it.counter)
                svg.text(ix + sw + pad, iy, it.label, "legend-label", size=size, anchor="start")
    return height


# ----------------------------------------------------------------------------- PNG
def png_converter() -> str | None:
    """The converter :func:`svg_to_png` would use: ``cairosvg``, ``rsvg-convert``,
    ``inkscape`` or None."""
    import importlib.util
    import shutil
    if importlib.util.find_spec("cairosvg") is not None:
        return "cairosvg"
    for cmd in ("rsvg-convert", "inkscape"):
        if shutil.which(cmd):
            return cmd
    return None


def svg_to_png(svg_text: str, *, converter: str | None = None) -> bytes:
    """Convert an SVG document to PNG with the first available converter; raises PbemError
    MAP-PNG-UNAVAILABLE when there is none and MAP-PNG-FAILED when it fails."""
    import os
    import shutil
    import subprocess
    import tempfile
    from .errors import ExitCode, Issue, PbemError
    conv = converter or png_converter()
    data = svg_text.encode("utf-8")
    if conv is None:
        raise PbemError([Issue("MAP-PNG-UNAVAILABLE", "no SVG to PNG converter is available here",
                               hint="install one of: the Python package cairosvg (pip install cairosvg), "
                                    "rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin) or inkscape; "
                                    "or open the SVG in a web browser")], ExitCode.USAGE)
    try:
        if conv == "cairosvg":
            import cairosvg  # type: ignore[import-not-found]
            return cairosvg.svg2png(bytestring=data)
        if conv == "rsvg-convert":
            r = subprocess.run([shutil.which("rsvg-convert") or "rsvg-convert", "--format=png"], input=data,
                               capture_output=True, timeout=300, check=False)
            if r.returncode == 0 and r.stdout.startswith(b"\x89PNG"):
                return r.stdout
            raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        if conv == "inkscape":
            with tempfile.TemporaryDirectory() as d:
                src, dst = os.path.join(d, "map.svg"), os.path.join(d, "map.png")
                with open(src, "wb") as f:
                    f.write(data)
                r = subprocess.run([shutil.which("inkscape") or "inkscape", src, "--export-type=png",
                                    f"--export-filename={dst}"], capture_output=True, timeout=300, check=False)
                if r.returncode == 0 and os.path.isfile(dst):
                    with open(dst, "rb") as f:
                        return f.read()
                raise RuntimeError(r.stderr.decode("utf-8", "replace").strip() or f"exit code {r.returncode}")
        raise RuntimeError(f"unknown converter {conv!r}")
    except PbemError:
        raise
    except Exception as e:  # a converter's own failure, reported as such
        raise PbemError([Issue("MAP-PNG-FAILED", f"{conv} could not convert the map to PNG: {e}",
                               hint="the SVG itself is fine: write it without --png and convert it elsewhere")],
                        ExitCode.USAGE) from None


# ----------------------------------------------------------------------------- game dispatch
def draw_state(state: dict, report: dict | None = None, **opts) -> str:
    """The SVG of a state (with the marks of ``report``), drawn by the state's game."""
    from .data import load_ruleset
    from .errors import ExitCode, Issue, PbemError
    g, rs = load_ruleset(state["scenario"])
    fn = getattr(g, "draw_map", None)
    if fn is None:
        raise PbemError([Issue("MAP-UNSUPPORTED", f"pbem cannot draw maps of {getattr(g, 'TITLE', state['game'])} yet")],
                        ExitCode.USAGE)
    return fn(rs, state, report, **opts)


__all__ = ["Svg", "Counter", "LegendItem", "HexLayout", "counter", "stack", "box", "legend", "title_block", "esc", "attr", "num",
           "pts", "shorten", "chain_segments", "text_width", "fit_size", "svg_to_png", "png_converter", "draw_state"]


# ----------------------------------------------------------------------------- `pbem map`
def map_inputs(state_arg, *, report_path=None, last: bool = False):
    """What ``pbem map`` draws: ``(state path, state, report or None, warnings)``. STATE is a
    state file or a campaign folder (its current state); ``report_path`` a report.json;
    ``last`` the report of the step that produced the state (the report.json beside it)."""
    import json
    from pathlib import Path
    from .campaign import Campaign, load_state_file
    from .errors import ExitCode, Issue, PbemError, Severity
    from .files import read_bytes_limited
    if report_path and last:
        raise PbemError([Issue("USAGE-MAP", "give --report FILE or --last, not both")], ExitCode.USAGE)
    state_arg = Path(state_arg)
    if state_arg.is_dir():
        spath, state = Campaign(state_arg).current()
    else:
        spath = state_arg
        state, _ = load_state_file(state_arg)
    warnings: list = []
    report = None
    if last:
        cand = Path(spath).parent / "report.json"
        if cand.is_file():
            report_path = cand
        else:
            warnings.append(Issue("MAP-NO-REPORT", f"{Path(spath).name} has no report beside it (an initial state): "
                                  "nothing to mark", severity=Severity.WARNING))
    if report_path:
        raw = read_bytes_limited(Path(report_path), 50_000_000)
        try:
            report = json.loads(raw)
            if not isinstance(report, dict) or not isinstance(report.get("events"), list):
                raise ValueError("no list of events")
        except ValueError as e:
            raise PbemError([Issue("FILE-NOT-REPORT", f"{report_path} is not a pbem report.json ({e})",
                                   file=str(report_path), hint="give the report.json of a step (steps/NNN/report.json)")],
                            ExitCode.INVALID) from None
        out = report.get("output") or {}
        if report.get("campaign") not in (None, state.get("campaign")) or out.get("hash") not in (None, state.get("hash")):
            warnings.append(Issue("MAP-REPORT-OTHER-STATE",
                                  f"the report (step {report.get('step')}) did not produce this state: its marks "
                                  "may not match the counters", file=str(report_path), severity=Severity.WARNING,
                                  hint="--last marks the step that produced the state"))
    return spath, state, report, warnings


def map_targets(output, png: bool):
    """(svg path or None, png path or None) for ``-o OUTPUT`` and ``--png``: a name ending in
    ``.png`` is a PNG only; otherwise the SVG, and with ``--png`` the PNG beside it."""
    from pathlib import Path
    output = Path(output)
    if output.suffix.lower() == ".png":
        return None, output
    return output, (output.with_suffix(".png") if png else None)
