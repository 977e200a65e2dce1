"""pbem's own rasteriser for the SVG pbem's maps are written in (the mail's preview, ``pbem map
--png``): Pillow's ImageDraw, supersampled for anti-aliasing, with DejaVu Sans (the maps' first
font) through FreeType. A fraction of cairosvg's cost (issue 35: importing cairosvg alone took
longer than adjudicating a step, and drawing the whole BlitzWAR map two seconds): what lies
outside the window drawn is never drawn, a path's points are read once.

The SVG subset is the one :mod:`pbem.core.svg` and the games' drawers write (no transform, no
CSS, no markers or filters): ``g`` (with a rectangular ``clip-path``), ``rect`` (``rx``),
``circle``, ``line``, ``polyline``, ``polygon``, ``path`` (absolute ``M L H V Q C Z``),
``text`` without ``tspan``, ``pattern`` fills in user space, the
presentation attributes fill, stroke, stroke-width, the opacities, stroke-dasharray,
stroke-linecap round, fill-rule, font-size, font-weight bold, font-style italic, text-anchor and
dominant-baseline central. Anything else -- an element, a path command, an attribute (data-*
aside), a character the font lacks -- raises :class:`Unsupported`, and the caller uses another converter (:func:`pbem.core.png.svg_to_png`).
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont, ImagePath

SUPERSAMPLE = 2     # drawn at twice the size, then scaled down: the anti-aliasing
MIN_TEXT = 3.0      # pixels: a smaller text is a grey speck, not drawn (the whole BlitzWAR map's labels)
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_CMD = re.compile(r"([MLHVQCZAmlhvqczaTtSs])([^MLHVQCZAmlhvqczaTtSs]*)")
_INHERITED = ("fill", "stroke", "stroke-width", "fill-opacity", "stroke-opacity", "font-size", "font-weight",
              "font-style", "text-anchor", "dominant-baseline", "stroke-dasharray", "stroke-linecap",
              "fill-rule", "font-family")
_STYLED = frozenset(_INHERITED) | {"opacity"}
_REFUSED = frozenset(("transform", "style", "mask", "filter"))
# a tag and its attributes' names drawn (the walk's check, once a kind), and which of those
# attributes are styles (the same for every element of the kind: found once, not a set made an element)
_ALLOWED: dict[tuple[str, ...], tuple[str, ...]] = {}
_TAGS: dict[str, str] = {}     # an element's tag without its namespace, by its tag
_SKIPPED = frozenset(("title", "desc", "defs", "metadata", "pattern", "clipPath"))
# the attributes it reads (or may leave aside without changing the picture: an id, a class, a
# stroke's corners); any other (display, visibility, a marker, dx, preserveAspectRatio, xlink:href
# ...), data-* aside, is Unsupported: another converter draws what this one would draw wrong
_KNOWN = _STYLED | {"id", "class", "aria-hidden", "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r",
                    "x1", "y1", "x2", "y2", "points", "d", "clip-path", "stroke-linejoin", "version", "viewBox",
                    "patternUnits"}


def _unknown(keys: Any) -> str | None:
    """An attribute of ``keys`` it does not draw (data-* aside), or None."""
    if keys <= _KNOWN:
        return None
    return next((k for k in keys - _KNOWN if not k.startswith("data-")), None)
# the fonts of FONT (pbem.core.svg) by weight and style, where the systems keep them
_FONT_FILES = {
    (False, False): ("DejaVuSans.ttf", "Verdana.ttf", "verdana.ttf", "Arial.ttf", "arial.ttf", "LiberationSans-Regular.ttf"),
    (True, False): ("DejaVuSans-Bold.ttf", "Verdana Bold.ttf", "verdanab.ttf", "Arial Bold.ttf", "arialbd.ttf",
                    "LiberationSans-Bold.ttf"),
    (False, True): ("DejaVuSans-Oblique.ttf", "Verdana Italic.ttf", "verdanai.ttf", "Arial Italic.ttf", "ariali.ttf",
                    "LiberationSans-Italic.ttf"),
    (True, True): ("DejaVuSans-BoldOblique.ttf", "Verdana Bold Italic.ttf", "verdanaz.ttf", "Arial Bold Italic.ttf",
                   "arialbi.ttf", "LiberationSans-BoldItalic.ttf"),
}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu/", "/usr/share/fonts/dejavu/", "/usr/share/fonts/TTF/",
              "/usr/share/fonts/truetype/liberation/", "/usr/local/share/fonts/", "/Library/Fonts/",
              "/System/Library/Fonts/Supplemental/", "")


class Unsupported(Exception):
    """The SVG uses something this rasteriser does not draw: another converter must."""


@cache
def _font_file(bold: bool, italic: bool) -> str | None:
    import os
    for name in _FONT_FILES[(bold, italic)]:
        for d in _FONT_DIRS[:-1]:
            if os.path.isfile(d + name):
                return d + name
    for name in _FONT_FILES[(bold, italic)][:1]:   # Pillow's own search of the system's font folders
        try:
            return str(ImageFont.truetype(name, 10).path)
        except OSError:
            pass
    return None


def usable() -> bool:
    """True when the maps' font (or a like one) is found: the text would else be drawn wrong."""
    try:
        return _font_file(False, False) is not None and _font_file(True, False) is not None
    except Exception:  # noqa: BLE001 - no FreeType in this Pillow
        return False


@lru_cache(maxsize=256)
def _font(bold: bool, italic: bool, size: int) -> Any:
    path = _font_file(bold, italic) or _font_file(bold, False) or _font_file(False, False)
    if path is None:
        raise Unsupported("no font")
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=4096)
def _lacks(path: str, ch: str) -> bool:
    """Whether the font ``path`` has no glyph for ``ch`` (FreeType would draw its empty box): its
    picture is that of a character no font of the maps has (one of Unicode's private planes)."""
    font = _font_at(path)
    if ch.isspace():
        return False
    return _mask_of(font, ch) == _mask_of(font, "\U000F0000")


@cache
def _font_at(path: str) -> Any:
    return ImageFont.truetype(path, 24)


def _mask_of(font: Any, ch: str) -> tuple[Any, bytes]:
    m = font.getmask(ch)
    return m.size, bytes(m)


@lru_cache(maxsize=1024)
def _color(value: str | None, opacity: float = 1.0) -> tuple[int, int, int, int] | None:
    if not value or value == "none" or opacity <= 0:
        return None
    try:
        rgb = ImageColor.getrgb(value)
    except ValueError:
        raise Unsupported(f"colour {value!r}") from None
    a = rgb[3] if len(rgb) > 3 else 255
    return (rgb[0], rgb[1], rgb[2], max(0, min(255, round(a * opacity))))


@lru_cache(maxsize=4096)
def _f(v: str | float | None, default: float = 0.0) -> float:
    if isinstance(v, float):    # (a drawing's own number, pbem.core.mapdraw.Picture: as its text reads)
        return v
    if v is None or v == "":
        return default
    m = _NUM.match(v.strip())
    if not m:
        raise Unsupported(f"number {v!r}")
    return float(m.group(0))


def _split_polygons(d: str) -> list[tuple[list[float], bool]] | None:
    """The subpaths of a path of absolute M, L and Z only, the numbers apart (the outline's
    polygons, as the drawers write them), split as fast as it gets; None for any other command
    or numbers run together ("1-2", "1.5.5"): no number to float(), the full reading's work."""
    out: list[tuple[list[float], bool]] = []
    try:
        for chunk in d.split("M")[1:]:
            n = list(map(float, chunk.replace("L", " ").replace("Z", " ").replace(",", " ").split()))
            if len(n) & 1:
                del n[-1]
            if len(n) > 2:
                out.append((n, "Z" in chunk))
    except ValueError:
        return None
    return out


def _flat_subpaths(d: str) -> list[tuple[list[float], bool]]:
    """A path's data as (numbers ``[x0, y0, x1, y1, ...]``, closed) subpaths of two points or more."""
    out = _split_polygons(d)
    if out is not None:
        return out
    out = []
    cur: list[float] = []
    x = y = 0.0
    for cmd, args in _CMD.findall(d):
        n = [float(v) for v in _NUM.findall(args)]
        if cmd == "M":
            if len(cur) > 2:
                out.append((cur, False))
            cur = []
            for i in range(0, len(n) - 1, 2):
                x, y = n[i], n[i + 1]
                cur += (x, y)
        elif cmd == "L":
            for i in range(0, len(n) - 1, 2):
                x, y = n[i], n[i + 1]
                cur += (x, y)
        elif cmd == "H":
            for v in n:
                x = v
                cur += (x, y)
        elif cmd == "V":
            for v in n:
                y = v
                cur += (x, y)
        elif cmd == "Q":
            for i in range(0, len(n) - 3, 4):
                cx, cy, ex, ey = n[i:i + 4]
                for k in range(1, 9):
                    t = k / 8
                    u = 1 - t
                    cur += (u * u * x + 2 * u * t * cx + t * t * ex, u * u * y + 2 * u * t * cy + t * t * ey)
                x, y = ex, ey
        elif cmd == "C":
            for i in range(0, len(n) - 5, 6):
                c1x, c1y, c2x, c2y, ex, ey = n[i:i + 6]
                for k in range(1, 11):
                    t = k / 10
                    u = 1 - t
                    cur += (u ** 3 * x + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t ** 3 * ex,
                            u ** 3 * y + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t ** 3 * ey)
                x, y = ex, ey
        elif cmd == "Z":
            if cur:
                out.append((cur, True))
                x, y = cur[0], cur[1]
            cur = [x, y]
        else:
            raise Unsupported(f"path command {cmd}")
    if len(cur) > 2:
        out.append((cur, False))
    return out


def _subpaths(d: str) -> list[tuple[list[tuple[float, float]], bool]]:
    """A path's data as (points, closed) subpaths."""
    out = []
    for n, closed in _flat_subpaths(d):
        it = iter(n)
        out.append((list(zip(it, it)), closed))
    return out


def _flat_points(v: str) -> list[float]:
    n = [float(t) for t in _NUM.findall(v)]
    if len(n) & 1:
        del n[-1]
    return n


class _Canvas:
    def __init__(self, svg: ET.Element, view: tuple[float, float, float, float], size: tuple[int, int], ss: int) -> None:
        self.vx, self.vy, vw, vh = view
        self.ss = ss
        self.w, self.h = size[0] * ss, size[1] * ss
        self.k = self.w / vw
        self.ky = self.h / vh
        self._start(Image.new("RGB", (self.w, self.h), "#ffffff"))
        self.defs: dict[str, ET.Element] = {}
        self.tiles: dict[str, Any] = {}
        # the window in user units, with a margin for strokes and labels
        self.box = (self.vx, self.vy, self.vx + vw, self.vy + vh)
        for el in svg.iter():
            i = el.get("id")
            if i:
                self.defs[i] = el

    def _start(self, im: Image.Image) -> None:
        """Drawing on ``im``: the device transform, the blending drawer and the plain one."""
        self.im = im
        self.draw = ImageDraw.Draw(im, "RGBA")
        self.core = self.draw.draw      # Pillow's drawing in C (blending on an RGB picture)
        self.solid = ImageDraw.Draw(im).draw if im.mode == "RGB" else self.core     # no blending
        self.inks: dict[tuple[int, int, int, int], tuple[Any, int]] = {}
        self.paints: dict[tuple[str | None, ...], tuple[Any, Any, float]] = {}
        self.pens: dict[tuple[Any, ...], tuple[int, Any, list[float], bool, Any, int]] = {}
        self.T = (self.k, 0.0, -self.vx * self.k, 0.0, self.ky, -self.vy * self.ky)

    # ---------------------------------------------------------------- geometry
    def P(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.vx) * self.k, (y - self.vy) * self.ky)

    def outside(self, x0: float, y0: float, x1: float, y1: float, margin: float = 0.0) -> bool:
        b = self.box
        return x1 + margin < b[0] or y1 + margin < b[1] or x0 - margin > b[2] or y0 - margin > b[3]

    # ---------------------------------------------------------------- walking the tree
    def walk(self, el: ET.Element, style: dict[str, str]) -> None:
        tags = _TAGS
        for child in el:
            tag = tags.get(child.tag)
            if tag is None:
                tag = tags[child.tag] = child.tag.rpartition("}")[2]
            if tag in _SKIPPED:
                continue
            a = child.attrib
            if tag == "text" and "font-size" in a and _is_speck(a["font-size"], self.ky, self.ss):
                continue    # a speck at this scale (the whole BlitzWAR map's 2,000 labels): not even read
            keys = a.keys()
            sig = (tag, *keys)      # the element's tag and attributes checked once a kind
            styled = _ALLOWED.get(sig)
            if styled is None:
                if _REFUSED & keys or tag == "style":
                    raise Unsupported(f"{tag} with a transform, style, mask or filter")
                unknown = _unknown(keys)
                if unknown is not None or ("clip-path" in keys and tag not in ("g", "a")):
                    raise Unsupported(f"{tag} with {unknown or 'clip-path'}")
                styled = _ALLOWED[sig] = tuple(k for k in keys if k in _STYLED)
            st = style
            if styled:
                st = style.copy()
                for k in styled:
                    st[k] = a[k]
                if "opacity" in styled:
                    st["opacity"] = str(_f(style.get("opacity"), 1.0) * _f(a["opacity"], 1.0))
            if tag == "path" or tag == "line" or tag == "polyline" or tag == "polygon":
                self.shape(tag, child, st)
            elif tag == "g" or tag == "a":
                clip = a.get("clip-path")
                if clip:
                    self.clipped(child, st, clip)
                else:
                    self.walk(child, st)
            elif tag == "rect":
                self.rect(child, st)
            elif tag == "circle":
                self.circle(child, st)
            elif tag == "text":
                self.text(child, st)
            else:
                raise Unsupported(f"element {tag}")

    def clipped(self, g: ET.Element, st: dict[str, str], clip: str) -> None:
        m = re.fullmatch(r"url\(#([^)]+)\)", clip.strip())
        cp = self.defs.get(m.group(1)) if m else None
        rects = [c for c in (cp if cp is not None else []) if c.tag.rpartition("}")[2] == "rect"]
        if cp is None or len(rects) != 1 or len(cp) != 1:
            raise Unsupported("clip-path other than one rectangle")
        r = rects[0]
        x0, y0 = self.P(_f(r.get("x")), _f(r.get("y")))
        x1, y1 = self.P(_f(r.get("x")) + _f(r.get("width")), _f(r.get("y")) + _f(r.get("height")))
        x0, y0, x1, y1 = max(0, round(x0)), max(0, round(y0)), min(self.w, round(x1)), min(self.h, round(y1))
        if x0 <= 0 and y0 <= 0 and x1 >= self.w and y1 >= self.h:
            self.walk(g, st)
            return
        if not (x1 > x0 and y1 > y0):       # nothing of the group shows
            before = self.im.copy()
            self.walk(g, st)
            self.im.paste(before)
            return
        # what lies outside the clip is kept as it was: the (at most four) strips around it,
        # copied before and laid back after (the map's window leaves only the side panel's strip)
        strips = [b for b in ((0, 0, self.w, y0), (0, y1, self.w, self.h), (0, y0, x0, y1), (x1, y0, self.w, y1))
                  if b[2] > b[0] and b[3] > b[1]]
        kept = [(self.im.crop(b), b[:2]) for b in strips]
        self.walk(g, st)
        for im, at in kept:
            self.im.paste(im, at)

    # ---------------------------------------------------------------- paint
    def _paints(self, st: dict[str, str]) -> tuple[Any, Any, float]:
        """The fill (a colour, a pattern's url or None), the stroke's colour (or None) and its
        width in device pixels, of a style: once for each set of the six values they depend on
        (the map's 4,000 elements have a few dozen)."""
        get = st.get
        key = (get("fill"), get("stroke"), get("stroke-width"), get("opacity"), get("fill-opacity"), get("stroke-opacity"))
        hit = self.paints.get(key)
        if hit is None:
            hit = self.paints[key] = self._paints_of(st)
        return hit

    def _paints_of(self, st: dict[str, str]) -> tuple[Any, Any, float]:
        o = _f(st.get("opacity"), 1.0)
        fill_v = st.get("fill", "#000000")
        fill: Any
        if fill_v.startswith("url("):
            fill = fill_v
        else:
            fill = _color(fill_v, o * _f(st.get("fill-opacity"), 1.0))
        stroke = _color(st.get("stroke"), o * _f(st.get("stroke-opacity"), 1.0))
        return fill, stroke, _f(st.get("stroke-width"), 1.0) * self.k

    def _ink(self, color: tuple[int, int, int, int]) -> tuple[Any, int]:
        """The drawing core and ink of a colour: an opaque one drawn without blending (the same
        pixels, faster), a translucent one blended."""
        hit = self.inks.get(color)
        if hit is None:
            if color[3] == 255:
                hit = self.inks[color] = (self.solid, self.solid.draw_ink(color[:3]))
            else:
                hit = self.inks[color] = (self.core, self.core.draw_ink(color))
        return hit

    def _device(self, flat: list[float]) -> Any:
        """The points ``[x0, y0, ...]`` (user units) as a path in device pixels (Pillow's, in C)."""
        p = ImagePath.Path(flat)
        p.transform(self.T)
        return p

    def rect(self, el: ET.Element, st: dict[str, str]) -> None:
        x, y, w, h = _f(el.get("x")), _f(el.get("y")), _f(el.get("width")), _f(el.get("height"))
        if w <= 0 or h <= 0:
            return
        fill, stroke, sw = self._paints(st)
        if self.outside(x, y, x + w, y + h, sw / self.k):
            return
        rx = _f(el.get("rx"), _f(el.get("ry"))) * self.k
        ring = [x, y, x + w, y, x + w, y + h, x, y + h]
        if rx >= 1.5 or isinstance(fill, str):
            if isinstance(fill, str):
                self.fill([self._device(ring)], fill, "nonzero")
            elif fill:
                a, b = self.P(x, y)
                c, d = self.P(x + w, y + h)
                self.draw.rounded_rectangle((a, b, max(a, c - 1), max(b, d - 1)), radius=round(rx), fill=fill)
            if stroke and sw > 0:
                a, b = self.P(x, y)
                c, d = self.P(x + w, y + h)
                if rx >= 1.5:
                    width, stroke = self._width(sw, stroke)
                    o = width / 2       # the stroke is centred on the edge, Pillow draws it inside
                    self.draw.rounded_rectangle((a - o, b - o, max(a, c - 1) + o, max(b, d - 1) + o), radius=round(rx + o),
                                                outline=stroke,
                                                width=width)
                else:
                    self.stroke([(ring, True)], stroke, sw, st)
            return
        if fill:
            a, b = self.P(x, y)
            c, d = self.P(x + w, y + h)
            x0, y0 = round(a), round(b)
            core, ink = self._ink(fill)
            core.draw_rectangle((x0, y0, max(x0, round(c) - 1), max(y0, round(d) - 1)), ink, 1)
        if stroke and sw > 0:
            self.stroke([(ring, True)], stroke, sw, st)

    def circle(self, el: ET.Element, st: dict[str, str]) -> None:
        cx, cy, r = _f(el.get("cx")), _f(el.get("cy")), _f(el.get("r"))
        fill, stroke, sw = self._paints(st)
        if r <= 0 or self.outside(cx - r, cy - r, cx + r, cy + r, sw / self.k):
            return
        if st.get("stroke-dasharray") and stroke:   # a dashed ring: a polygon of its circumference
            n = max(24, min(180, int(r * self.k)))
            ring = [v for i in range(n) for v in (cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n))]
            if fill and not isinstance(fill, str):
                self.fill([self._device(ring)], fill, "nonzero")
            self.stroke([(ring, True)], stroke, sw, st)
            return
        x, y = self.P(cx, cy)
        R = r * self.k
        if fill and not isinstance(fill, str):
            self.draw.ellipse((x - R, y - R, x + R, y + R), fill=fill)
        if stroke and sw > 0:
            width, stroke = self._width(sw, stroke)
            o = width / 2
            self.draw.ellipse((x - R - o, y - R - o, x + R + o, y + R + o), outline=stroke, width=width)

    def shape(self, tag: str, el: ET.Element, st: dict[str, str]) -> None:
        if tag == "path":
            d: Any = el.get("d") or ""
            # (a drawing's path data may carry its numbers, pbem.core.mapdraw.Picture: those its text reads)
            subs = _flat_subpaths(d) if d.__class__ is str else d.subpaths()
        elif tag == "line":
            subs = [([_f(el.get("x1")), _f(el.get("y1")), _f(el.get("x2")), _f(el.get("y2"))], False)]
        else:
            n = _flat_points(el.get("points") or "")
            subs = [(n, tag == "polygon")] if len(n) > 2 else []
        if not subs:
            return
        # in device pixels once (Pillow's paths: the points moved and measured in C), for the
        # window's test, the fill and the stroke
        T = self.T
        devs = []
        for n, _ in subs:
            p = ImagePath.Path(n)
            p.transform(T)
            devs.append(p)
        m = _f(st.get("stroke-width"), 1.0) * self.k if st.get("stroke", "none") != "none" else 0.0
        w, h = self.w + m, self.h + m
        for p in devs:
            x0, y0, x1, y1 = p.getbbox()
            if x0 <= w and x1 >= -m and y0 <= h and y1 >= -m:
                break
        else:
            return
        fill, stroke, sw = self._paints(st)
        if tag == "line":
            fill = None
        stroked = bool(stroke and sw > 0)
        if not (fill or stroked):
            return
        if fill:
            self.fill(devs, fill, st.get("fill-rule", "nonzero"))
        if stroked:
            self.stroke(subs, stroke, sw, st, devs=devs)

    def fill(self, dev: list[Any], fill: Any, rule: str) -> None:
        """The rings ``dev`` (Pillow paths in device pixels) filled."""
        dev = [r for r in dev if len(r) > 2]
        if not dev:
            return
        if isinstance(fill, str):       # a pattern: the polygon as a mask over the tiled pattern
            self._pattern(dev, fill, rule)
            return
        core, ink = self._ink(fill)
        if len(dev) > 1:    # rings that meet no other (islands): drawn as they are
            boxes = [_box(r) for r in dev]
            on = sorted((i for i, b in enumerate(boxes) if b[2] > 0 and b[3] > 0 and b[0] < self.w and b[1] < self.h),
                        key=lambda i: boxes[i][0])
            meets: set[int] = set()
            active: list[int] = []
            for i in on:        # a sweep along x: the boxes that overlap
                b = boxes[i]
                active = [j for j in active if boxes[j][2] > b[0]]
                for j in active:
                    if boxes[j][1] < b[3] and b[1] < boxes[j][3]:
                        meets.update((i, j))
                active.append(i)
            for i in on:
                if i not in meets:
                    core.draw_polygon(dev[i], ink, 1)
            if not meets:
                return
            dev = [dev[i] for i in sorted(meets)]
            boxes = [boxes[i] for i in sorted(meets)]
        else:
            boxes = None
        if len(dev) == 1:
            core.draw_polygon(dev[0], ink, 1)
            return
        mask, (x0, y0) = self._mask(dev, rule, boxes, mode="1")
        if mask is not None:
            if fill[3] < 255:       # the ink laid through the mask is not blended by its alpha: the mask is
                mask = mask.convert("L").point([v * fill[3] // 255 for v in range(256)])
            # (through a two-level mask the fill is set where the mask is, not blended: the
            # same pixels as through a grey mask of 0 and 255, several times faster)
            self.im.paste(fill[:3], (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def _mask(self, dev: list[Any], rule: str, boxes: list[tuple[int, int, int, int]] | None = None, *,
              mode: str = "L") -> tuple[Any, tuple[int, int]]:
        """The rings filled by ``rule`` as a mask (``mode`` "L" or "1") over their box, and its corner."""
        boxes = boxes or [_box(r) for r in dev]
        x0, y0 = max(0, min(b[0] for b in boxes)), max(0, min(b[1] for b in boxes))
        x1, y1 = min(self.w, max(b[2] for b in boxes)), min(self.h, max(b[3] for b in boxes))
        if x1 <= x0 or y1 <= y0:
            return None, (0, 0)
        mask = Image.new(mode, (x1 - x0, y1 - y0), 0)
        md = ImageDraw.Draw(mask).draw
        on, off = md.draw_ink(255), md.draw_ink(0)
        shift = (1.0, 0.0, float(-x0), 0.0, 1.0, float(-y0))

        def moved(r: Any) -> Any:
            q = ImagePath.Path(r)
            q.transform(shift)
            return q
        if rule != "evenodd" or len(dev) == 1:
            for r in dev:
                md.draw_polygon(moved(r), on, 1)
        else:   # even-odd: the rings, biggest first; one inside what is drawn so far is a hole
            # (the rings of a map's path do not cross: a ring lies inside another or outside it)
            order = sorted(range(len(dev)), key=lambda i: (-(boxes[i][2] - boxes[i][0]) * (boxes[i][3] - boxes[i][1]), i))
            w, h = mask.size
            pixels = mask.load()    # (read between the drawings: the mask's own memory)
            for i in order:
                r = dev[i]
                inside = seen = 0
                for q in (r[0], r[len(r) // 3], r[2 * len(r) // 3]):
                    px, py = int(q[0]) - x0, int(q[1]) - y0
                    if 0 <= px < w and 0 <= py < h:
                        seen += 1
                        v = pixels[px, py] if pixels is not None else mask.getpixel((px, py))
                        inside += isinstance(v, int) and v > 127
                md.draw_polygon(moved(r), off if seen and inside * 2 > seen else on, 1)
        return mask, (x0, y0)

    def _pattern(self, dev: list[Any], ref: str, rule: str) -> None:
        m = re.fullmatch(r"url\(#([^)]+)\)", ref.strip())
        tiled = self._tiled(m.group(1)) if m else None
        if tiled is None:
            return
        if len(tiled) == 4:     # a pattern finer than a few pixels: its mean colour
            self.fill(dev, tiled, rule)
            return
        mask, (x0, y0) = self._mask(dev, rule)
        if mask is None:
            return
        box = (x0, y0, x0 + mask.width, y0 + mask.height)
        tile, ox, oy = tiled
        part = self._tiles_over(tile, ox, oy, box)
        from PIL import ImageChops  # a pattern at a readable scale only
        alpha = ImageChops.multiply(part.getchannel("A"), mask)
        self.im.paste(part.convert("RGB"), box[:2], alpha)

    def _tiled(self, pid: str) -> Any:
        """The pattern ``pid`` repeated over the whole canvas (once per picture)."""
        if pid in self.tiles:
            return self.tiles[pid]
        p = self.defs.get(pid)
        if p is None or p.tag.rpartition("}")[2] != "pattern" or p.get("patternUnits") != "userSpaceOnUse" \
                or p.get("patternTransform") or p.get("viewBox"):
            raise Unsupported("pattern other than in user space")
        pw, ph = _f(p.get("width")), _f(p.get("height"))
        tw, th = max(1, round(pw * self.k)), max(1, round(ph * self.ky))
        sub = _Canvas.__new__(_Canvas)
        sub.vx = sub.vy = 0.0
        sub.ss = self.ss
        sub.w, sub.h, sub.k, sub.ky = tw, th, tw / pw, th / ph
        sub._start(Image.new("RGBA", (tw, th), (0, 0, 0, 0)))
        sub.defs, sub.tiles, sub.box = self.defs, {}, (0.0, 0.0, pw, ph)
        sub.walk(p, {"fill": "#000000"})
        if tw * th < 200:       # finer than a few pixels (the whole map's terrain): drawn as its mean colour
            mean = sub.im.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))   # (Pillow weighs by alpha)
            tint = tuple(mean) if isinstance(mean, tuple) and len(mean) == 4 else (0, 0, 0, 0)
            self.tiles[pid] = tint
            return tint
        # the tile's origin is the user space's: the canvas starts at -v (in tiles)
        ox = round(((self.vx / pw) % 1) * tw)
        oy = round(((self.vy / ph) % 1) * th)
        self.tiles[pid] = (sub.im, ox, oy)
        return self.tiles[pid]

    @staticmethod
    def _tiles_over(tile: Image.Image, ox: int, oy: int, box: tuple[int, int, int, int]) -> Image.Image:
        """The tile repeated over ``box`` of the canvas (whose origin is at ``ox``, ``oy`` in
        the first tile), by doubling: a few pastes, whatever the box's size."""
        tw, th = tile.size
        w, h = box[2] - box[0], box[3] - box[1]
        px, py = (box[0] + ox) % tw, (box[1] + oy) % th
        big = Image.new("RGBA", (w + tw, h + th))
        big.paste(tile, (0, 0))
        done = tw
        while done < big.width:
            big.paste(big.crop((0, 0, done, th)), (done, 0))
            done *= 2
        done = th
        while done < big.height:
            big.paste(big.crop((0, 0, big.width, done)), (0, done))
            done *= 2
        return big.crop((px, py, px + w, py + h))

    def _width(self, sw: float, color: tuple[int, int, int, int]) -> tuple[int, tuple[int, int, int, int]]:
        """A stroke's width in whole pixels; a thinner one drawn one pixel wide, fainter."""
        if sw >= 1:
            return max(1, round(sw)), color
        return 1, (color[0], color[1], color[2], max(1, round(color[3] * sw)))

    def _pen(self, color: Any, sw: float, st: dict[str, str]) -> tuple[int, Any, list[float], bool, Any, int]:
        """A stroke's whole-pixel width, colour, dashes (device pixels), round caps, drawing core
        and ink: once for each colour, width, dash array and cap (the map's 2,300 strokes have a few dozen)."""
        width, color = self._width(sw, color)
        da = st.get("stroke-dasharray")
        dash = [_f(v) * self.k for v in re.split(r"[\s,]+", da.strip()) if v] if da else []
        if dash and (sum(dash) <= 0 or st.get("stroke-dasharray") == "none"):
            dash = []
        if dash and sum(dash) < 3:          # dashes finer than a pixel or so: a fainter solid line
            on = sum(dash[0::2] if len(dash) % 2 == 0 else dash) / (sum(dash) * (1 if len(dash) % 2 == 0 else 2))
            color = (color[0], color[1], color[2], max(1, round(color[3] * on)))
            dash = []
        round_cap = st.get("stroke-linecap") == "round" and width >= 3
        core, ink = self._ink(color)
        return width, color, dash, round_cap, core, ink

    def stroke(self, subs: list[tuple[list[float], bool]], color: Any, sw: float, st: dict[str, str],
               devs: list[Any] | None = None) -> None:
        """``subs`` (their numbers in user units, closed or not) stroked; ``devs``: the same as
        Pillow paths in device pixels, when the caller has them."""
        get = st.get
        key = (color, sw, get("stroke-dasharray"), get("stroke-linecap"))
        pen = self.pens.get(key)
        if pen is None:
            pen = self.pens[key] = self._pen(color, sw, st)
        width, color, dash, round_cap, core, ink = pen
        for i, (n, closed) in enumerate(subs):
            if closed and (n[0] != n[-2] or n[1] != n[-1]):
                dev = self._device(n + n[:2])       # back to its start
            else:
                dev = devs[i] if devs is not None else self._device(n)
            lines = _dashed(dev.tolist(), dash) if dash else [dev]
            for line in lines:
                if len(line) < 2:
                    continue
                if width > 4:       # with Pillow's rounded joints (drawn in Python)
                    self.draw.line(line if isinstance(line, list) else line.tolist(), fill=color, width=width,
                                   joint="curve")
                else:
                    core.draw_lines(line, ink, width)
                if round_cap:
                    r = width / 2
                    for x, y in (line[0], line[-1]):
                        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=color)

    def text(self, el: ET.Element, st: dict[str, str]) -> None:
        if any(c.tag.rpartition("}")[2] != "title" for c in el):
            raise Unsupported("text with tspan")
        s = el.text or ""
        if not s.strip():
            return
        size = _f(st.get("font-size"), 16.0)
        x, y = _f(el.get("x")), _f(el.get("y"))
        w = len(s) * size * 0.7
        if self.outside(x - w, y - 1.5 * size, x + w, y + 1.5 * size):
            return
        px = size * self.ky
        if px < MIN_TEXT * self.ss:         # a speck at this scale: nothing legible to draw
            return
        bold = st.get("font-weight") in ("bold", "bolder", "600", "700", "800", "900")
        italic = st.get("font-style") in ("italic", "oblique")
        font = _font(bold, italic, max(1, round(px)))
        if not s.isascii() and any(_lacks(font.path, c) for c in set(s)):
            raise Unsupported("a character the maps' font lacks")    # (a name in Japanese): not drawn as boxes
        h = {"start": "l", "middle": "m", "end": "r"}.get(st.get("text-anchor", "start"), "l")
        v = "m" if st.get("dominant-baseline") in ("central", "middle") else "s"
        fill, stroke, sw = self._paints(st)
        at = self.P(x, y)
        if stroke and sw > 0:
            r = max(1, round(sw / 2))
            self.draw.text(at, s, font=font, anchor=h + v, fill=stroke if not fill or isinstance(fill, str) else fill,
                           stroke_width=r, stroke_fill=stroke)
        if fill and not isinstance(fill, str) and not (stroke and sw > 0):
            self.draw.text(at, s, font=font, anchor=h + v, fill=fill)


def _box(ring: Any) -> tuple[int, int, int, int]:
    """The pixels' box of a ring (a Pillow path in device pixels)."""
    x0, y0, x1, y1 = ring.getbbox()
    return math.floor(x0), math.floor(y0), math.ceil(x1) + 1, math.ceil(y1) + 1


def _dashed(line: list[tuple[float, float]], dash: list[float]) -> list[list[tuple[float, float]]]:
    """The dashes of a polyline (device pixels)."""
    if len(dash) % 2:
        dash = dash * 2
    out: list[list[tuple[float, float]]] = []
    i, left, on = 0, dash[0], True
    cur: list[tuple[float, float]] = [line[0]]
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        seg = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (ax + (bx - ax) * t, ay + (by - ay) * t)
            if on:
                cur.append(p)
                out.append(cur)
            cur = [p]
            on = not on
            i = (i + 1) % len(dash)
            left = dash[i]
        left -= seg - pos
        if on:
            cur.append((bx, by))
        else:
            cur = [(bx, by)]
    if on and len(cur) > 1:
        out.append(cur)
    return out


def svg_size(root: ET.Element) -> tuple[float, float, tuple[float, float, float, float]]:
    """The root's width, height and view box (user units)."""
    w, h = _f(root.get("width")), _f(root.get("height"))
    vb = [float(v) for v in _NUM.findall(root.get("viewBox") or "")]
    if len(vb) == 4 and vb[2] > 0 and vb[3] > 0:
        view = (vb[0], vb[1], vb[2], vb[3])
        if not (w and h):
            w, h = vb[2], vb[3]
    else:
        view = (0.0, 0.0, w, h)
    if w <= 0 or h <= 0:
        raise Unsupported("no size")
    return w, h, view


def _size(root: ET.Element, width: int | None, height: int | None) -> tuple[tuple[int, int], tuple[float, float, float, float]]:
    """The picture's size in pixels (``width`` x ``height``, default the root's own; one of them
    given: the other in proportion) and its view box."""
    w, h, view = svg_size(root)
    if width and not height:
        height = max(1, round(h * width / w))
    elif height and not width:
        width = max(1, round(w * height / h))
    return (int(width or round(w)), int(height or round(h))), view


def specks(root: ET.Element, width: int | None = None, height: int | None = None,
           supersample: int = SUPERSAMPLE) -> Any:
    """The walk's first test of a ``text`` element under the root ``root`` drawn by
    :func:`render` with these arguments: a function of its font-size attribute (as the element
    carries it), true for a speck the walk leaves out unread. A drawing's tree may leave such
    an element out (:meth:`pbem.core.mapdraw.Picture.tree`): the same picture."""
    size, view = _size(root, width, height)
    ky = size[1] * supersample / view[3]       # (the canvas's ky)

    def speck(font_size: Any) -> bool:
        return _is_speck(font_size, ky, supersample)
    return speck


def _is_speck(font_size: Any, ky: float, ss: int) -> bool:
    """Whether a text of this font-size attribute is a speck on a canvas of ``ky`` pixels per
    user unit down, supersampled ``ss`` times: smaller than MIN_TEXT pixels, not drawn. The one
    test: the walk's and :func:`specks`'s."""
    return _f(font_size) * ky < MIN_TEXT * ss


def render(svg_text: Any, *, width: int | None = None, height: int | None = None, supersample: int = SUPERSAMPLE,
           scaled: bool = True) -> Image.Image:
    """The SVG drawn as an RGB picture ``width`` x ``height`` pixels (default: its own size; one
    of them given: the other in proportion). ``scaled=False``: the supersampled picture itself
    (``supersample`` times that size), for a caller that scales it down itself. ``svg_text``:
    the text, or the root element of a drawing's tree (:meth:`pbem.core.mapdraw.Picture.tree`:
    the same picture without the text written and parsed, issue 35). Raises
    :class:`Unsupported`."""
    if isinstance(svg_text, str):
        try:
            root = ET.fromstring(svg_text)
        except ET.ParseError as e:
            raise Unsupported(f"not XML: {e}") from None
    else:
        root = svg_text
    if root.tag.rpartition("}")[2] != "svg":
        raise Unsupported("not an SVG")
    unknown = _unknown(root.attrib.keys())
    if unknown is not None:
        raise Unsupported(f"svg with {unknown}")
    size, view = _size(root, width, height)
    c = _Canvas(root, view, size, supersample)
    style = {"fill": "#000000"}
    for a in _INHERITED:
        if root.get(a) is not None:
            style[a] = root.get(a) or ""
    c.walk(root, style)
    if not scaled or supersample == 1:
        return c.im
    return c.im.reduce(supersample)
