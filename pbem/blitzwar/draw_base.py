"""What the BlitzWAR map and its side panel share (pbem/blitzwar/draw.py documents the picture):
the projection, the outline data, a small SVG writer, colours, symbols and the counters.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from itertools import cycle
from typing import Any

from ..core import data
from ..core.mapdraw import CLOSE, EMPTY, OPEN, Piece
from ..core.svg import _BAD_XML, attr, esc

# ----------------------------------------------------------------------------- projection
# Lambert conformal conic on a sphere of 6371 km, standard parallels 40 and 60 N, origin 50 N
# 15 E; x east, y SOUTH (as in SVG), in km. scenarios/blitzwar/outline.json is in these units.
_R = 6371.0
_PHI1, _PHI2, _PHI0, _LAM0 = 40.0, 60.0, 50.0, 15.0


def _t(phi: float) -> float:
    return math.tan(math.pi / 4 + math.radians(phi) / 2)


_N = math.log(math.cos(math.radians(_PHI1)) / math.cos(math.radians(_PHI2))) / math.log(_t(_PHI2) / _t(_PHI1))
_F = math.cos(math.radians(_PHI1)) * _t(_PHI1) ** _N / _N
_RHO0 = _R * _F / _t(_PHI0) ** _N

#: the window of the map, in km of the projection: x0, y0, x1, y1
VIEW = (-2750, -2450, 3800, 2420)


def project(lat: float, lon: float) -> tuple[float, float]:
    rho = _R * _F / _t(lat) ** _N
    th = _N * math.radians(lon - _LAM0)
    return (rho * math.sin(th), -(_RHO0 - rho * math.cos(th)))



# ----------------------------------------------------------------------------- the outline data
OUTLINE_FILE = "scenarios/blitzwar/outline.json"


@lru_cache(maxsize=4)
def _load_outline(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def outline(rs=None, game=None) -> dict:
    """The geometry of the picture (scenarios/blitzwar/outline.json, built once by
    tools/build_blitzwar_outline.py from Natural Earth; see its ``provenance``): under the data
    root of ``game`` (the plug-in, when it has one of its own), else the shipped file or the
    user's (--data)."""
    if getattr(game, "data_root", None) is None and hasattr(data, "data_path"):
        return _load_outline(str(data.data_path(OUTLINE_FILE)))   # the shipped file, or the user's (--data)
    return _load_outline(str(data.game_data_root(game) / OUTLINE_FILE))


# ----------------------------------------------------------------------------- a small SVG writer
# (escaping from the core's SVG primitives; numbers to one decimal, not the core's two: the
# outline has tens of thousands of points and one decimal of a pixel is enough at any scale)


def num(v: float) -> str:
    """``v`` to one decimal, without a trailing ``.0``, never ``-0`` (the one decimal of
    ``%.1f`` is all that can be stripped)."""
    s = f"{v:.1f}"
    if s[-2:] == ".0":
        s = s[:-2]
        if s == "-0":
            return "0"
    return s


# the outline's points, many at a time: ".1f" pairs, then the ".0" ends and "-0"s taken
# out of the whole text at once (the bytes of :func:`num` for each number; 64,000 numbers a map)
_MINUS_ZERO = re.compile(r"(?:(?<=[ ,L])|^)-0(?=[ ,]|$)")


def _points_text(flat: list, k: float, ox: float, oy: float) -> str:
    """The points of a flat ring ``[x0, y0, x1, y1, ...]`` as ``x y Lx y L...`` in :func:`num`'s
    form, scaled by ``k`` from the origin (``ox``, ``oy``)."""
    n = len(flat) >> 1     # (an odd last number is no point)
    # the numbers scaled in two plain comprehensions and formatted by one %: the same digits
    # as an f-string a point ("%.1f" is format(v, ".1f")), a third less time (the outline's
    # 64,000 numbers are most of the drawing of a map: issue 35)
    vals = [0.0] * (n + n)
    vals[0::2] = [(x - ox) * k for x in flat[0:n + n:2]]
    vals[1::2] = [(y - oy) * k for y in flat[1:n + n:2]]
    # (every number has one decimal, and is followed by a space or ends the text: its ".0"
    # goes with a plain replace, the pattern's work without a pattern)
    text = ((" L".join(["%.1f %.1f"] * n) % tuple(vals)) + " ").replace(".0 ", " ")[:-1]
    return _MINUS_ZERO.sub("0", text) if "-0" in text else text


# the pieces of pictures drawn already (issue 33: a campaign's book draws the map of every step,
# and most of a map is the same from one step to the next): by what each piece depends on, for
# one ruleset, outline and scale. A piece is kept as the lines it wrote, one :class:`Shared`
# text: the book writes a text found on many pages once (pbem.core.book).
_MEMOS: dict[tuple[int, int, float], tuple[Any, Any, dict]] = {}
MEMO_MAX = 10_000        # pieces kept for one picture's data (a 123-step book keeps some 1,200, 2.4 MB); then forgotten


def memo_for(rs: Any, geo: Any, s: float) -> dict:
    """The pieces drawn already for the ruleset ``rs``, the outline ``geo`` and the scale ``s``
    (held here with them: an id is never reused while its object lives). The ruleset and the
    outline are never changed once loaded; a drawing option other than the scale that changes
    a piece (not just the root element) must be part of this key, or of the piece's."""
    key = (id(rs), id(geo), s)
    hit = _MEMOS.get(key)
    if hit is None or hit[0] is not rs or hit[1] is not geo:
        if len(_MEMOS) >= 4:
            _MEMOS.clear()
        hit = _MEMOS[key] = (rs, geo, {})
    if len(hit[2]) > MEMO_MAX:
        hit[2].clear()
    return hit[2]


_NAMES: dict[str, str] = {}
_ATTR_TEXT: dict[str, str] = {}     # attr() of a short string written before     # an attribute's name by its keyword (stroke_width: stroke-width, class_: class)


def _a(cls: str | None, data: dict | None, attrs: dict) -> str:
    """An element's attributes as text: ``class``, the ``data-`` ones, then ``attrs`` in order
    (a float through :func:`num`, a name from its keyword: stroke_width, stroke-width)."""
    known = _ATTR_TEXT      # a short value's escaped text (classes, ids, colours repeat)
    out = ""
    if cls:
        v = known.get(cls)
        if v is None:
            v = known[cls] = attr(cls)
        out = f' class="{v}"'
    if data:
        for k, v in data.items():
            if v is not None:
                t = known.get(v) if v.__class__ is str else None
                if t is None:
                    t = attr(v)
                    if v.__class__ is str and len(v) < 64:
                        known[v] = t
                out += f' data-{k}="{t}"'
    names = _NAMES
    for k, v in attrs.items():
        if v is None:
            continue
        name = names.get(k)
        if name is None:
            name = names[k] = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):    # num's digits need no escaping
            out += f' {name}="{num(v)}"'
        elif v.__class__ is str:
            t = known.get(v)
            if t is None:
                t = attr(v)
                if len(v) < 64:
                    known[v] = t
            out += f' {name}="{t}"'
        else:
            out += f' {name}="{attr(v)}"'
    if len(known) > 20_000:
        known.clear()
    return out


# the attributes the rasteriser reads as numbers: given to it as the number their text carries
# (float(num(v)): round(v, 1), correctly rounded as "%.1f" is, without its -0); any other float
# as num's text
_NUMERIC = frozenset(("x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2",
                      "stroke-width", "font-size", "opacity", "fill-opacity", "stroke-opacity"))


_NODE_NAMES: dict[str, tuple[str, bool]] = {}    # a keyword's attribute name, and whether a number
# a number's round(v, 1) + 0.0 by the number (a map's 9,700 numbers have some 2,200 values: the
# widths, sizes and places that recur; equal floats round alike, 0.0 and -0.0 both to 0.0)
_ROUNDED: dict[float, float] = {}


def _node_attrs(attrs: dict) -> dict:
    """``attrs`` as the rasteriser reads them from the text (:class:`_El`'s node)."""
    out = {}
    names = _NODE_NAMES
    rounded = _ROUNDED
    for k, v in attrs.items():
        if v is None:
            continue
        spec = names.get(k)
        if spec is None:
            name = k.rstrip("_").replace("_", "-")
            spec = names[k] = (name, name in _NUMERIC)
        c = v.__class__
        if c is float:
            if spec[1]:
                r = rounded.get(v)
                if r is None:
                    if len(rounded) > 65536:    # (a long book's pages: kept bounded)
                        rounded.clear()
                    r = rounded[v] = round(v, 1) + 0.0
                out[spec[0]] = r
            else:
                out[spec[0]] = num(v)
        elif c is str or c is PathData:
            out[spec[0]] = v
        else:
            out[spec[0]] = num(v) if isinstance(v, float) else str(v)
    return out


def _plain(s: str) -> str:
    """A text as the XML parser gives it back once written by :func:`esc`."""
    if _ODD_CHARS.search(s):
        s = _BAD_XML.sub("", s).replace("\r\n", "\n").replace("\r", "\n")
    return s


_ODD_CHARS = re.compile("[\x00-\x08\x0b-\x1f\ufffe\uffff]")


@lru_cache(maxsize=1)
def _element() -> Any:
    from xml.etree.ElementTree import Element  # lazy: only for a picture painted
    return Element


class _El:
    """One element line the writer drew (pbem.core.mapdraw's items): its text made when the
    SVG is written, its node when the picture is painted."""
    __slots__ = ("depth", "tag", "cls", "data", "attrs", "text", "title", "kind")

    def __init__(self, depth: int, tag: str, kind: int, cls: str | None = None, data: dict | None = None,
                 attrs: dict | None = None, text: str | None = None, title: str | None = None) -> None:
        self.depth, self.tag, self.kind, self.cls, self.data = depth, tag, kind, cls, data
        self.attrs, self.text, self.title = attrs, text, title

    def __str__(self) -> str:
        pad = " " * self.depth
        tag = self.tag
        if self.kind == CLOSE:
            return f"{pad}</{tag}>"
        a = _a(self.cls, self.data, self.attrs or {})
        if self.kind == OPEN:     # (its title the next line, inside it)
            return f"{pad}<{tag}{a}>" + (f"\n{pad} <title>{esc(self.title)}</title>" if self.title else "")
        title, text = self.title, self.text
        inner = (f"<title>{esc(title)}</title>" if title else "") + (esc(text) if text is not None else "")
        return f"{pad}<{tag}{a}>{inner}</{tag}>" if inner else f"{pad}<{tag}{a}/>"

    def speck(self, test) -> bool:
        """Whether ``test`` (:func:`pbem.core.raster.specks`'s) finds this element a speck: a
        text whose font-size attribute, as its node carries it, is too small to be drawn."""
        if self.tag != "text" or not self.attrs or self.attrs.get("font_size") is None:
            return False
        return test(_node_attrs({"font_size": self.attrs["font_size"]})["font-size"])

    def node(self) -> Any:
        el = _element()(self.tag, _node_attrs(self.attrs) if self.attrs else {})
        text = self.text
        if text and not self.title:     # (after a title, the text is the title's tail: not the element's)
            el.text = _plain(text)
        return el


class Svg:
    """Elements written in call order; attributes in the order given; numbers to one decimal.
    ``memo`` (:func:`memo_for`): the pieces drawn already, for :meth:`shared`. ``out``: the
    lines drawn, as items (:class:`pbem.core.mapdraw.Picture`): text only when written."""

    def __init__(self, memo: dict | None = None) -> None:
        self.out: list[Any] = []
        self.depth = 1
        self.memo: dict = {} if memo is None else memo

    def shared(self, key: tuple, draw) -> Any:
        """The piece ``draw(svg)`` writes, drawn once for ``key`` (everything the piece depends
        on besides the picture's ruleset, outline and scale) and written again as one
        :class:`Piece` (its text one :class:`Shared`); returns what ``draw`` returned (shared: never change it)."""
        k = (key, self.depth)
        hit = self.memo.get(k)
        if hit is None:
            sub = Svg(self.memo)
            sub.depth = self.depth
            result = draw(sub)
            hit = self.memo[k] = (Piece(sub.out) if sub.out else None, sub.depth, result)
        piece, self.depth, result = hit
        if piece is not None:
            self.out.append(piece)
        return result

    def _a(self, cls: str | None, data: dict | None, attrs: dict) -> str:
        return _a(cls, data, attrs)

    def el(self, tag: str, cls: str | None = None, *, data: dict | None = None, text: str | None = None,
           title: str | None = None, **attrs) -> None:
        self.out.append(_El(self.depth, tag, EMPTY, cls, data, attrs, text, title))

    def open(self, cls: str | None = None, *, tag: str = "g", data: dict | None = None, title: str | None = None,
             **attrs) -> None:
        self.out.append(_El(self.depth, tag, OPEN, cls, data, attrs, title=title or None))
        self.depth += 1

    def close(self, tag: str = "g") -> None:
        self.depth -= 1
        self.out.append(_El(self.depth, tag, CLOSE))

    def raw(self, text: str) -> None:
        self.out.append(" " * self.depth + text)

    def text(self, x: float, y: float, s: str, cls: str, *, size: float, data: dict | None = None,
             anchor: str = "middle", fill: str = "#1a1a1a", weight: str | None = None, style: str | None = None,
             halo: bool = False, title: str | None = None) -> None:
        common: dict[str, Any] = dict(x=float(x), y=float(y), font_size=float(size), text_anchor=anchor, font_weight=weight,
                      font_style=style)
        if halo:   # a white outline under the text (paint-order is not honoured by every renderer)
            self.el("text", "halo", text=s, **common, fill="none", stroke="#ffffff",
                    stroke_width=float(size / 3.5), stroke_linejoin="round", stroke_opacity="0.85")
        self.el("text", cls, data=data, text=s, title=title, **common, fill=fill)


@lru_cache(maxsize=8192)
def text_width(s: str, size: float) -> float:
    w = 0.0
    for ch in s:
        w += 0.32 if ch in "il.,:;'|!I1()[] " else 0.86 if ch in "mwMW" else 0.7 if ch.isupper() or ch.isdigit() else 0.56
    return w * size


# ----------------------------------------------------------------------------- colours and symbols
SCALE = 0.6                      # px per km at --scale 1
PANEL = 600                      # px, the side panel
SEA = "#bcd4e6"
SEA_ZONE = "#a9c8e0"
LAND_OFF = "#d9d6cc"
CONTROL_FILL = {"axis": "#b4baa6", "allies": "#e8d6a4", "ussr": "#eab4a6", "neutral": "#f3f0e3"}
SIDE_INK = {"axis": "#3b4032", "allies": "#6b4e10", "ussr": "#8b1a10", "neutral": "#555555"}
NATION_FILL = {   # counter colours by nation
    "GER": "#6e7766", "ITA": "#5f8f4e", "HUN": "#7d9a6b", "RUM": "#8fa07a", "BUL": "#728f5e", "FIN": "#8aa0a8",
    "UK": "#c8a96a", "FRA": "#5c7fbf", "POL": "#c8a0a0", "US": "#7fa05a", "BE": "#d9b45c", "GRE": "#6fa8d6",
    "YUG": "#9c8fb8", "NOR": "#b77a6a", "DEN": "#c98a8a", "SWE": "#7aa7c7", "SP": "#d0a050", "TUR": "#b0906a",
    "USSR": "#b8402e"}
NATION_INK = {"USSR": "#ffffff", "GER": "#ffffff", "FRA": "#ffffff", "ITA": "#ffffff"}
TYPE_LETTER = {"infantry": "I", "armour": "C", "white-tank": "W", "air": "A", "fleet": "F", "uboat": "U",
               "supply": "S"}
TERRAIN_TITLE = {"clear": "clear", "mountain": "mountain", "high-mountain": "high mountain", "marsh": "marsh",
                 "defile": "defile"}

_DEFS = """<defs>
  <pattern id="pat-mountain" patternUnits="userSpaceOnUse" width="14" height="10"><path d="M1 8 L5 3 L9 8" fill="none" stroke="#8a6a3c" stroke-width="1"/></pattern>
  <pattern id="pat-high-mountain" patternUnits="userSpaceOnUse" width="10" height="8"><path d="M1 7 L5 1 L9 7" fill="none" stroke="#5e4222" stroke-width="1.3"/></pattern>
  <pattern id="pat-marsh" patternUnits="userSpaceOnUse" width="12" height="8"><path d="M1 5 H7 M5 2 H10" stroke="#3f7fa6" stroke-width="1"/></pattern>
  <pattern id="pat-defile" patternUnits="userSpaceOnUse" width="12" height="12"><path d="M1 11 L11 1" stroke="#8a6a3c" stroke-width="1.2"/></pattern>
  <clipPath id="map-window"><rect x="0" y="0" width="{w}" height="{h}"/></clipPath>
 </defs>"""


# the outline's path data, once per shape and scale (issue 33: a book draws the same coasts and
# zones on every page); keyed by the shape's identity in the cached outline, kept with it
_GEOMETRY: dict[tuple, tuple[object, PathData]] = {}


class PathData:
    """The path data of an outline's shape (rings of polygons, closed, or one line), scaled by
    ``k`` from (``ox``, ``oy``): its text (``str()``, :func:`_points_text`'s numbers) when the SVG
    is written, its subpaths as numbers (:meth:`subpaths`, those the text carries) when the
    picture is painted (pbem.core.raster): neither made before it is asked for."""
    __slots__ = ("shape", "k", "ox", "oy", "closed", "_text", "_subs")

    def __init__(self, shape: list, k: float, ox: float, oy: float, closed: bool) -> None:
        self.shape, self.k, self.ox, self.oy, self.closed = shape, k, ox, oy, closed
        self._text: str | None = None
        self._subs: list | None = None

    def _flats(self) -> list:
        return [r for poly in self.shape for r in poly] if self.closed else [self.shape]

    def __str__(self) -> str:
        if self._text is None:
            k, ox, oy = self.k, self.ox, self.oy
            if self.closed:
                self._text = " ".join(["M" + _points_text(r, k, ox, oy) + " Z" for r in self._flats()])
            else:
                self._text = "M" + _points_text(self.shape, k, ox, oy)
        return self._text

    def subpaths(self) -> list[tuple[list[float], bool]]:
        """(numbers ``[x0, y0, x1, y1, ...]``, closed) of each ring of two points or more, each
        number the one its text carries (round(v, 1): "%.1f" rounds alike; no -0). Shared: never change them."""
        if self._subs is None:
            k, ox, oy, closed = self.k, self.ox, self.oy, self.closed
            # the outline's numbers are whole km and its window's corner too: scaled by a k of
            # m / 10 (0.6 at scale 1), the text's number is the decimal (x - ox) * m / 10 itself
            # (the float product lies within 1e-12 of it), which int arithmetic and one
            # correctly rounded division give, five times faster than round() a number
            m = round(k * 10)
            tenths = ox.__class__ is int and oy.__class__ is int and m / 10 == k and abs(m) < 10 ** 6 \
                and abs(ox) < 10 ** 6 and abs(oy) < 10 ** 6
            out = []
            for flat in self._flats():
                n = len(flat) >> 1
                if n < 2:
                    continue
                if len(flat) & 1:
                    flat = flat[:n + n]
                # (the sum of whole numbers alone is one: every number an int, in one pass in C)
                if tenths and sum(flat).__class__ is int and min(flat) > -10 ** 6 and max(flat) < 10 ** 6:
                    # x and y in turn, in one pass (with the check by sum, a fifth faster than the halves apart)
                    vals = [(v - o) * m / 10 for v, o in zip(flat, cycle((ox, oy)))]
                else:
                    vals = [0.0] * (n + n)
                    xs, ys = flat[0:n + n:2], flat[1:n + n:2]
                    vals[0::2] = [round((x - ox) * k, 1) + 0.0 for x in xs]
                    vals[1::2] = [round((y - oy) * k, 1) + 0.0 for y in ys]
                out.append((vals, closed))
            self._subs = out
        return self._subs


def _geometry(closed: bool):
    def cached(shape, k: float, ox: float, oy: float) -> PathData:
        key = (closed, id(shape), k, ox, oy)
        hit = _GEOMETRY.get(key)
        if hit is not None and hit[0] is shape:
            return hit[1]
        if len(_GEOMETRY) > 50_000:
            _GEOMETRY.clear()
        d = PathData(shape, k, ox, oy, closed)
        _GEOMETRY[key] = (shape, d)
        return d
    return cached


#: the path data of rings of polygons (each ring ``M... Z``)
_path = _geometry(True)
#: the path data of a line (``M...``)
_line = _geometry(False)


def _star(cx: float, cy: float, r: float) -> str:
    pts_ = []
    for i in range(10):
        a = math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.42
        pts_.append(f"{num(cx + rr * math.cos(a))},{num(cy - rr * math.sin(a))}")
    return " ".join(pts_)


def _hexagon(cx: float, cy: float, r: float) -> str:
    return " ".join(f"{num(cx + r * math.cos(math.pi / 3 * i))},{num(cy + r * math.sin(math.pi / 3 * i))}"
                    for i in range(6))


def _anchor_symbol(svg: Svg, x: float, y: float, s: float, cls: str, zid: str | None, filled: bool) -> None:
    """A ship's anchor (a port); on a navy disc for a naval base."""
    svg.open(cls, data={"zone": zid})
    if filled:
        svg.el("circle", None, cx=x, cy=y, r=s * 0.95, fill="#1d3a6b")
    ink = "#ffffff" if filled else "#1d3a6b"
    svg.el("path", None, d=f"M{num(x)} {num(y - s * 0.6)} V{num(y + s * 0.6)} M{num(x - s * 0.35)} {num(y - s * 0.3)} "
           f"H{num(x + s * 0.35)} M{num(x - s * 0.6)} {num(y + s * 0.1)} Q{num(x)} {num(y + s * 0.95)} "
           f"{num(x + s * 0.6)} {num(y + s * 0.1)}", fill="none", stroke=ink, stroke_width=float(s * 0.2))
    svg.close()


def _counter_symbol(svg: Svg, t: str, x: float, y: float, w: float, h: float, ink: str) -> None:
    """The type of a counter, NATO-like, in a w x h box at (x, y)."""
    sw = 1.0
    if t in ("infantry", "armour", "white-tank"):
        svg.el("rect", None, x=x, y=y, width=w, height=h, fill="none", stroke=ink, stroke_width=sw)
        if t == "infantry":
            svg.el("path", None, d=f"M{num(x)} {num(y)} L{num(x + w)} {num(y + h)} M{num(x)} {num(y + h)} L{num(x + w)} {num(y)}",
                   stroke=ink, stroke_width=sw)
        else:
            svg.el("rect", None, x=x + w * 0.18, y=y + h * 0.25, width=w * 0.64, height=h * 0.5, rx=float(h * 0.25),
                   fill="#ffffff" if t == "white-tank" else "none", stroke=ink, stroke_width=sw)
    elif t == "air":
        svg.el("path", None, d=f"M{num(x)} {num(y + h * 0.45)} L{num(x + w)} {num(y + h * 0.45)} M{num(x + w * 0.5)} "
               f"{num(y)} L{num(x + w * 0.5)} {num(y + h)} M{num(x + w * 0.3)} {num(y + h)} L{num(x + w * 0.7)} {num(y + h)}",
               stroke=ink, stroke_width=1.4)
    elif t == "fleet":
        svg.el("path", None, d=f"M{num(x)} {num(y + h * 0.55)} L{num(x + w)} {num(y + h * 0.55)} L{num(x + w * 0.8)} "
               f"{num(y + h)} L{num(x + w * 0.2)} {num(y + h)} Z M{num(x + w * 0.4)} {num(y + h * 0.55)} V{num(y + h * 0.15)} "
               f"H{num(x + w * 0.62)} V{num(y + h * 0.55)}", fill=ink, stroke=ink, stroke_width=0.6)
    elif t == "uboat":
        svg.el("path", None, d=f"M{num(x)} {num(y + h * 0.7)} Q{num(x + w * 0.5)} {num(y + h * 1.05)} {num(x + w)} "
               f"{num(y + h * 0.7)} Z M{num(x + w * 0.45)} {num(y + h * 0.7)} V{num(y + h * 0.3)} H{num(x + w * 0.6)}",
               fill=ink, stroke=ink, stroke_width=0.8)
    elif t == "supply":
        svg.el("rect", None, x=x + w * 0.15, y=y + h * 0.1, width=w * 0.7, height=h * 0.8, fill="none", stroke=ink,
               stroke_width=sw)
        svg.el("path", None, d=f"M{num(x + w * 0.15)} {num(y + h * 0.5)} H{num(x + w * 0.85)}", stroke=ink, stroke_width=sw)


def units_text(c: dict) -> str:
    u = c.get("units", 0)
    if isinstance(u, dict):
        return "+".join(str(u[k]) for k in sorted(u))
    if c.get("type") == "white-tank" and (c.get("infantry") is not None or c.get("armour") is not None):
        return f"{c.get('infantry', 0)}+{c.get('armour', 0)}"
    return str(u)


CW, CH = 30.0, 23.0              # a counter, px at --scale 1


def draw_counter(svg: Svg, cid: str, c: dict, x: float, y: float, *, side: str, s: float = 1.0) -> None:
    """One counter with its top-left corner at (x, y): the nation's colour, its code, the type
    symbol and the corps (units) it holds."""
    w, h = CW * s, CH * s
    nation = str(c.get("nation", "?"))
    fill = NATION_FILL.get(nation, "#999999")
    ink = NATION_INK.get(nation, "#111111")
    t = str(c.get("type", "?"))
    flags = [f for f in ("entrenched", "elite", "flying", "out_of_supply", "active") if c.get(f)]
    cls = f"counter type-{t} side-{side} nation-{nation}" + "".join(f" {f.replace('_', '-')}" for f in flags)
    face = c.get("_face")     # the counter's printed face, when it holds less (the id's number is the face)
    tip = (f"{cid}: {nation} {t} {units_text(c)}" + (f" (a counter of {face})" if face is not None else "")
           + (f" ({', '.join(flags)})" if flags else ""))
    svg.open(cls, data={"counter": cid, "nation": nation, "type": t, "units": units_text(c), "at": c.get("at")},
             title=tip)
    svg.el("rect", None, x=x, y=y, width=w, height=h, rx=float(2.5 * s), fill=fill,
           stroke="#8b0000" if c.get("out_of_supply") else "#111111",
           stroke_width=float((1.8 if c.get("out_of_supply") else 0.8) * s))
    if c.get("elite"):
        svg.el("rect", None, x=x + 1.5 * s, y=y + 1.5 * s, width=w - 3 * s, height=h - 3 * s, rx=float(2 * s),
               fill="none", stroke="#f0d040", stroke_width=float(1.2 * s))
    svg.text(x + 2 * s, y + 7.2 * s, nation, "counter-nation", size=6.4 * s, anchor="start", fill=ink)
    _counter_symbol(svg, t, x + 2.5 * s, y + 10 * s, 12 * s, 9 * s, ink)
    ut = units_text(c)
    svg.text(x + w - 2 * s, y + h - 4 * s, ut, "counter-units", size=(12 if len(ut) < 3 else 8.5) * s,
             anchor="end", fill=ink, weight="bold")
    if c.get("entrenched"):
        svg.el("path", None, d=f"M{num(x + 1)} {num(y + h - 1.5 * s)} H{num(x + w - 1)}", stroke="#3a2a10",
               stroke_width=float(2 * s), stroke_dasharray=f"{num(2 * s)} {num(1.5 * s)}")
    svg.close()


def stack_size(n: int, s: float, cols: int = 3) -> tuple[float, float]:
    c = min(n, cols)
    r = (n + cols - 1) // cols
    return c * (CW * s + 2) - 2, r * (CH * s + 2) - 2


def counter_key(cid: str, c: dict, side: str) -> tuple:
    """All a counter's picture depends on (its id, side and every attribute), for the pieces
    drawn already (:meth:`Svg.shared`)."""
    return cid, side, repr(sorted(c.items()))


def draw_stack(svg: Svg, items: list, cx: float, top: float, *, s: float, side_of, cols: int = 3,
               where: dict | None = None) -> None:
    """Counters as a readable stack: rows of up to ``cols`` centred under (cx, top); drawn once
    for the same counters at the same place (:meth:`Svg.shared`)."""
    if not items:
        return
    key = ("stack", cx, top, s, cols, repr(where), tuple(counter_key(cid, c, side_of(c)) for cid, c in items))
    svg.shared(key, lambda sub: _draw_stack(sub, items, cx, top, s=s, side_of=side_of, cols=cols, where=where))


def _draw_stack(svg: Svg, items: list, cx: float, top: float, *, s: float, side_of, cols: int,
                where: dict | None) -> None:
    w, _ = stack_size(len(items), s, cols)
    svg.open("stack", data=where)
    for i, (cid, c) in enumerate(items):
        r, col = divmod(i, cols)
        in_row = min(cols, len(items) - r * cols)
        rw = in_row * (CW * s + 2) - 2
        x = cx - rw / 2 + col * (CW * s + 2)
        draw_counter(svg, cid, c, x, top + r * (CH * s + 2), side=side_of(c), s=s)
    svg.close()
