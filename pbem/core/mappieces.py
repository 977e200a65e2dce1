"""The pieces of a wargame map picture, drawn with :mod:`pbem.core.svg` and common to every
game: the title block, unit counters (a rounded square with a coloured label box and a factor
line such as ``7-4-8``), stacks of counters, off-map boxes listing counters, and a legend. What a
game draws where, and in which colours, is the game's (e.g. :mod:`pbem.bfg.draw`)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .svg import Svg, fit_size, num


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
        ch: float, cls: str, data: dict[str, Any] | None = None, fill: str = "#fafafa", note: str | None = None,
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
    ``counter`` (a :class:`Counter`), ``ring`` (a hex outline in a colour), ``circle`` (a round
    outline in a colour), ``mark`` (a disc of
    colour ``fill`` with the letter ``mark`` in white)."""
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
                elif it.kind == "circle":
                    svg.circle(ix + sw / 2, iy, size * 0.7, "swatch", fill=it.fill, stroke=it.stroke,
                               stroke_width=num(it.width), stroke_dasharray=it.dash)
                elif it.kind == "mark":
                    svg.circle(ix + sw / 2, iy, size * 0.55, "swatch", fill=it.fill, stroke="#ffffff",
                               stroke_width=num(size * 0.1))
                    svg.text(ix + sw / 2, iy + size * 0.04, it.mark or "", "swatch-mark", size=size * 0.75,
                             fill="#ffffff", weight="bold")
                elif it.kind == "counter" and it.counter is not None:
                    counter(svg, ix + sw / 2, iy, size * 2.3, size * 1.75, it.counter)
                svg.text(ix + sw + pad, iy, it.label, "legend-label", size=size, anchor="start")
    return height
