"""The BlitzWAR map picture (``pbem map``, issue 11): :func:`draw_map`.

The geometry comes from ``scenarios/blitzwar/outline.json`` (Natural Earth coasts, public
domain; zone and sea-zone cells derived from the zone anchors, provisional), built once by
``tools/build_blitzwar_outline.py``: nothing is downloaded and no geometry library is needed
here. The position is the one documented in :mod:`pbem.blitzwar.context`, and control and
strategic points are its one definition (``zone_control``, ``strategic_points``), as the rules
read them. A small SVG writer of its own (one-decimal numbers: the outline has tens of thousands
of points) writes the map; a step's marks (:mod:`pbem.blitzwar.stepmarks`: arrows, attacks,
lettered marks, the step told in the panel with a legend) use the core's pieces and are spliced
in. Every element has a ``class``
and, where it stands for something, ``data-`` ids (``data-zone``, ``data-sea``, ``data-counter``,
``data-at``, ``data-block``); the output is deterministic (sorted, one-decimal numbers).
"""
from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import lru_cache

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


def outline(rs=None) -> dict:
    """The geometry of the picture (scenarios/blitzwar/outline.json, built once by
    tools/build_blitzwar_outline.py from Natural Earth; see its ``provenance``)."""
    from ..core import data
    from .game import BlitzWar
    if getattr(BlitzWar, "data_root", None) is None and hasattr(data, "data_path"):
        return _load_outline(str(data.data_path(OUTLINE_FILE)))   # the shipped file, or the user's (--data)
    return _load_outline(str(data.game_data_root(BlitzWar()) / OUTLINE_FILE))


# ----------------------------------------------------------------------------- a small SVG writer
# (escaping from the core's SVG primitives; numbers to one decimal, not the core's two: the
# outline has tens of thousands of points and one decimal of a pixel is enough at any scale)
from ..core.svg import FONT, attr, esc  # noqa: E402


def num(v: float) -> str:
    s = f"{float(v):.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class Svg:
    """Elements written in call order; attributes in the order given; numbers to one decimal."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.depth = 1

    def _a(self, cls: str | None, data: dict | None, attrs: dict) -> str:
        parts = [f'class="{attr(cls)}"'] if cls else []
        for k, v in (data or {}).items():
            if v is not None:
                parts.append(f'data-{k}="{attr(v)}"')
        for k, v in attrs.items():
            if v is None:
                continue
            if isinstance(v, float):
                v = num(v)
            parts.append(f'{k.rstrip("_").replace("_", "-")}="{attr(v)}"')
        return (" " + " ".join(parts)) if parts else ""

    def el(self, tag: str, cls: str | None = None, *, data: dict | None = None, text: str | None = None,
           title: str | None = None, **attrs) -> None:
        inner = (f"<title>{esc(title)}</title>" if title else "") + (esc(text) if text is not None else "")
        a = self._a(cls, data, attrs)
        pad = " " * self.depth
        self.out.append(f"{pad}<{tag}{a}>{inner}</{tag}>" if inner else f"{pad}<{tag}{a}/>")

    def open(self, cls: str | None = None, *, tag: str = "g", data: dict | None = None, title: str | None = None,
             **attrs) -> None:
        self.out.append(f"{' ' * self.depth}<{tag}{self._a(cls, data, attrs)}>")
        self.depth += 1
        if title:
            self.out.append(f"{' ' * self.depth}<title>{esc(title)}</title>")

    def close(self, tag: str = "g") -> None:
        self.depth -= 1
        self.out.append(f"{' ' * self.depth}</{tag}>")

    def raw(self, text: str) -> None:
        self.out.append(" " * self.depth + text)

    def text(self, x: float, y: float, s: str, cls: str, *, size: float, data: dict | None = None,
             anchor: str = "middle", fill: str = "#1a1a1a", weight: str | None = None, style: str | None = None,
             halo: bool = False, title: str | None = None) -> None:
        common = dict(x=float(x), y=float(y), font_size=float(size), text_anchor=anchor, font_weight=weight,
                      font_style=style)
        if halo:   # a white outline under the text (paint-order is not honoured by every renderer)
            self.el("text", "halo", text=s, **common, fill="none", stroke="#ffffff",
                    stroke_width=float(size / 3.5), stroke_linejoin="round", stroke_opacity="0.85")
        self.el("text", cls, data=data, text=s, title=title, **common, fill=fill)


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
#: the letters of the counter types (cards, set-up zones of 19 and `pbem show`): A is air, not armour
from .text import LETTERS  # noqa: E402  (one wording for show, the templates and the map)
LETTERS_TEXT = "letters: " + LETTERS
TERRAIN_TITLE = {"clear": "clear", "mountain": "mountain", "high-mountain": "high mountain", "marsh": "marsh",
                 "defile": "defile"}

_DEFS = """<defs>
  <pattern id="pat-mountain" patternUnits="userSpaceOnUse" width="14" height="10"><path d="M1 8 L5 3 L9 8" fill="none" stroke="#8a6a3c" stroke-width="1"/></pattern>
  <pattern id="pat-high-mountain" patternUnits="userSpaceOnUse" width="10" height="8"><path d="M1 7 L5 1 L9 7" fill="none" stroke="#5e4222" stroke-width="1.3"/></pattern>
  <pattern id="pat-marsh" patternUnits="userSpaceOnUse" width="12" height="8"><path d="M1 5 H7 M5 2 H10" stroke="#3f7fa6" stroke-width="1"/></pattern>
  <pattern id="pat-defile" patternUnits="userSpaceOnUse" width="12" height="12"><path d="M1 11 L11 1" stroke="#8a6a3c" stroke-width="1.2"/></pattern>
  <clipPath id="map-window"><rect x="0" y="0" width="{w}" height="{h}"/></clipPath>
 </defs>"""


def _path(rings_: list, k: float, ox: float, oy: float) -> str:
    out = []
    for poly in rings_:
        for r in poly:
            pts_ = [f"{num((r[i] - ox) * k)} {num((r[i + 1] - oy) * k)}" for i in range(0, len(r), 2)]
            out.append("M" + " L".join(pts_) + " Z")
    return " ".join(out)


def _line(flat: list, k: float, ox: float, oy: float) -> str:
    return "M" + " L".join(f"{num((flat[i] - ox) * k)} {num((flat[i + 1] - oy) * k)}" for i in range(0, len(flat), 2))


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


def draw_stack(svg: Svg, items: list, cx: float, top: float, *, s: float, side_of, cols: int = 3,
               where: dict | None = None) -> None:
    """Counters as a readable stack: rows of up to ``cols`` centred under (cx, top)."""
    if not items:
        return
    w, _ = stack_size(len(items), s, cols)
    svg.open("stack", data=where)
    for i, (cid, c) in enumerate(items):
        r, col = divmod(i, cols)
        in_row = min(cols, len(items) - r * cols)
        rw = in_row * (CW * s + 2) - 2
        x = cx - rw / 2 + col * (CW * s + 2)
        draw_counter(svg, cid, c, x, top + r * (CH * s + 2), side=side_of(c), s=s)
    svg.close()


# ----------------------------------------------------------------------------- the picture
# control and strategic points: the rules' one definition (pbem/blitzwar/context.py, 5, 9, 18)
from .context import axis_points, nation_side, strategic_points, zone_control as _control  # noqa: E402,F401


class _Frame:
    """What the pieces of one picture share: the data, the scale and the projection to px."""

    def __init__(self, rs, state: dict, geo: dict, s: float, k: float, x0: float, y0: float, mw: float, mh: float,
                 P, G, by_place: dict, side_of, marks) -> None:
        self.rs, self.state, self.geo, self.s, self.k, self.x0, self.y0 = rs, state, geo, s, k, x0, y0
        self.mw, self.mh, self.P, self.G, self.by_place, self.side_of, self.marks = mw, mh, P, G, by_place, side_of, marks


def draw_map(rs, state: dict, report: dict | None = None, **opts) -> str:
    """The SVG picture of a BlitzWAR position: the zone map on the coasts of Natural Earth with
    control, terrain, marks, links and the counters, and a side panel (calendar, strategic point
    track, supply, cards, pools, legend); with ``report`` (a step's report.json) what that step
    did (:mod:`pbem.blitzwar.stepmarks`). Deterministic: the same input gives the same bytes."""
    geo = outline(rs)
    scale = float(opts.get("scale") or 1.0)
    k = SCALE * scale
    x0, y0, x1, y1 = geo["view"]
    mw, mh = (x1 - x0) * k, (y1 - y0) * k
    pw = PANEL * scale
    width, height = mw + pw, mh
    s = scale

    def P(lat_lon) -> tuple[float, float]:
        x, y = project(float(lat_lon[0]), float(lat_lon[1]))
        return (x - x0) * k, (y - y0) * k

    def G(pt) -> tuple[float, float]:
        return (pt[0] - x0) * k, (pt[1] - y0) * k

    counters = state.get("counters") or {}
    side_of = lambda c: nation_side(rs, state, str(c.get("nation", "")))  # noqa: E731
    by_place: dict[str, list] = {}
    from .text import face_units
    for cid in sorted(counters):
        c = counters[cid]
        face = face_units(rs, c) if c.get("type") not in ("supply", "white-tank") else None
        if face is not None and str(face) != str(c.get("units")):
            c = dict(c, _face=face)
        by_place.setdefault(str(c.get("at")), []).append((cid, c))
    marks = None
    if report:
        from .stepmarks import StepMarks
        marks = StepMarks(rs, report, P, G, geo, s, box=lambda z: box_rect(z, s, mw, mh))

    f = _Frame(rs, state, geo, s, k, x0, y0, mw, mh, P, G, by_place, side_of, marks)
    svg = Svg()
    title = f"BlitzWAR: {state.get('campaign', '')} turn {state.get('turn', '')}".strip()
    svg.raw(f"<title>{esc(title)}</title>")
    svg.raw(_DEFS.replace("{w}", num(mw)).replace("{h}", num(mh)))
    svg.el("rect", "background", x=0.0, y=0.0, width=width, height=height, fill="#ffffff")
    svg.open("map", clip_path="url(#map-window)")
    svg.el("rect", "sea", x=0.0, y=0.0, width=mw, height=mh, fill=SEA)
    _draw_seas(svg, f)
    _draw_land(svg, f)
    _draw_borders(svg, f)
    _draw_links(svg, f)
    _draw_straits(svg, f)
    names = _draw_zone_marks(svg, f)
    _draw_names(svg, f, names)
    _draw_boxes(svg, f)
    if marks:
        marks.overlay(svg)
    svg.close()  # map
    svg.el("rect", "map-frame", x=0.0, y=0.0, width=mw, height=mh, fill="none", stroke="#222222",
           stroke_width=float(2 * s))
    y = _panel(svg, rs, state, mw, pw, mh, s, by_place, side_of)
    if marks:
        marks.panel(svg, mw + 20 * s, y + 10 * s, 560 * s, mh - 10 * s, s,
                    lambda text, size, width: _wrap(text, size, width) or [""], _block_title)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}" class="blitzwar-map" '
            f'data-game="blitzwar" data-turn="{attr(state.get("turn", ""))}">')
    return "\n".join([head] + svg.out + ["</svg>"]) + "\n"



def _draw_seas(svg: Svg, f: _Frame) -> None:
    """The sea zones and their boundaries."""
    rs, geo, s, k, x0, y0 = f.rs, f.geo, f.s, f.k, f.x0, f.y0
    # sea zones
    svg.open("sea-zones")
    for sid in sorted(rs.seas):
        g = geo["seas"].get(sid)
        if not g:
            continue
        svg.el("path", f"sea-zone climate-{rs.seas[sid].climate}", data={"sea": sid}, d=_path(g["rings"], k, x0, y0),
               fill=SEA_ZONE if sorted(rs.seas).index(sid) % 2 else SEA, fill_rule="evenodd", title=rs.seas[sid].name)
    for a, b, flat in geo["sea_borders"]:
        svg.el("path", "sea-border", data={"seas": f"{a} {b}"}, d=_line(flat, k, x0, y0), fill="none",
               stroke="#4f7fae", stroke_width=float(1.4 * s), stroke_dasharray=f"{num(7 * s)} {num(5 * s)}")
    svg.close()


def _draw_land(svg: Svg, f: _Frame) -> None:
    """The land, the off-board land and each zone in its controller's colour, patterned by terrain."""
    rs, state, geo, s, k, x0, y0, P = f.rs, f.state, f.geo, f.s, f.k, f.x0, f.y0, f.P
    # land
    svg.el("path", "land", d=_path(geo["land"], k, x0, y0), fill=LAND_OFF, fill_rule="evenodd")
    if geo.get("off_board"):
        svg.el("path", "off-board", d=_path(geo["off_board"], k, x0, y0), fill=LAND_OFF, fill_rule="evenodd",
               title="off the board")
    # zones
    svg.open("zones")
    for zid in sorted(rs.zones):
        z = rs.zones[zid]
        g = geo["zones"].get(zid)
        if z.box:
            continue
        ctl = _control(rs, state, zid)
        if g:
            d = _path(g["rings"], k, x0, y0)
        else:   # a zone newer than outline.json: a disc around its anchor until the file is rebuilt
            ax, ay = P(z.at)
            r = 16 * s
            d = (f"M{num(ax - r)} {num(ay)} A{num(r)} {num(r)} 0 1 0 {num(ax + r)} {num(ay)} "
                 f"A{num(r)} {num(r)} 0 1 0 {num(ax - r)} {num(ay)} Z")
        svg.open(f"zone control-{ctl} terrain-{z.terrain} country-{z.country}", data={"zone": zid, "control": ctl},
                 title=f"{z.name} ({rs.countries[z.country].name if z.country in rs.countries else z.country}; "
                       f"{TERRAIN_TITLE.get(z.terrain, z.terrain)}; controlled by {ctl})")
        svg.el("path", "zone-area", d=d, fill=CONTROL_FILL.get(ctl, "#eeeeee"), fill_rule="evenodd")
        if z.terrain != "clear":
            svg.el("path", f"terrain terrain-{z.terrain}", d=d, fill=f"url(#pat-{z.terrain})", fill_rule="evenodd")
        svg.close()
    svg.close()


def _draw_borders(svg: Svg, f: _Frame) -> None:
    """Borders (heavy between countries), the step's changed zones, the coasts."""
    rs, geo, s, k, x0, y0, marks = f.rs, f.geo, f.s, f.k, f.x0, f.y0, f.marks
    # borders: thin between zones, heavy between countries
    svg.open("borders")
    for a, b, flat in geo["borders"]:
        za, zb = rs.zones.get(a), rs.zones.get(b)
        if za is None or zb is None:
            continue
        national = za.country != zb.country
        svg.el("path", "border national" if national else "border", data={"zones": f"{a} {b}"},
               d=_line(flat, k, x0, y0), fill="none", stroke="#4a3f30" if national else "#9a9080",
               stroke_width=float((2.0 if national else 0.7) * s))
    svg.close()
    if marks:
        marks.areas(svg, lambda z: _path(geo["zones"][z]["rings"], k, x0, y0) if z in geo["zones"] else None)
    svg.el("path", "coast", d=_path(geo["land"], k, x0, y0), fill="none", stroke="#3d5a73",
           stroke_width=float(1.1 * s))
    svg.open("thick-coasts")
    for zid, sid, flat in geo["thick"]:
        svg.el("path", "coast-thick", data={"zone": zid, "sea": sid}, d=_line(flat, k, x0, y0), fill="none",
               stroke="#26323d", stroke_width=float(3.5 * s), stroke_linecap="round",
               title=f"{rs.zones[zid].name}: no beaches on the {rs.seas[sid].name} (5)")
    svg.close()


def _draw_links(svg: Svg, f: _Frame) -> None:
    """Land links (blue across a river), fortress lines, blue dashed lines."""
    rs, s, P = f.rs, f.s, f.P
    # links
    svg.open("links")
    done = set()
    for zid in sorted(rs.zones):
        z = rs.zones[zid]
        if z.box:
            continue
        for other in sorted(set(z.links) | set(z.blue)):
            o = rs.zones.get(other)
            if o is None or o.box or (other, zid) in done:
                continue
            done.add((zid, other))
            a, b = P(z.at), P(o.at)
            if other in z.links:
                river = other in z.rivers
                svg.el("line", "link river" if river else "link", data={"zones": f"{zid} {other}"},
                       x1=a[0], y1=a[1], x2=b[0], y2=b[1], stroke="#2f6fb5" if river else "#8b5a2b",
                       stroke_width=float((1.8 if river else 1.3) * s), stroke_opacity="0.8")
                if other in z.fortress_line or zid in o.fortress_line:
                    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
                    L = math.hypot(b[0] - a[0], b[1] - a[1]) or 1
                    nx, ny = -(b[1] - a[1]) / L, (b[0] - a[0]) / L
                    svg.el("line", "fortress-line", data={"zones": f"{zid} {other}"},
                           x1=mx - nx * 9 * s, y1=my - ny * 9 * s, x2=mx + nx * 9 * s, y2=my + ny * 9 * s,
                           stroke="#000000", stroke_width=float(4 * s), title="fortress line (16.3)")
            else:
                svg.el("line", "blue-link", data={"zones": f"{zid} {other}"}, x1=a[0], y1=a[1], x2=b[0], y2=b[1],
                       stroke="#1f55d0", stroke_width=float(1.6 * s), stroke_dasharray=f"{num(6 * s)} {num(4 * s)}")
    svg.close()


def _draw_straits(svg: Svg, f: _Frame) -> None:
    """The straits, the sea names and the counters at sea."""
    rs, geo, s, P, G, by_place, side_of = f.rs, f.geo, f.s, f.P, f.G, f.by_place, f.side_of
    # straits
    svg.open("straits")
    for sid in sorted(rs.straits):
        st = rs.straits[sid]
        cz = rs.zones.get(st.city)
        if cz is None:
            continue
        x, y = P(cz.at)
        svg.el("circle", "strait", data={"strait": sid, "zone": st.city}, cx=x, cy=y, r=float(13 * s), fill="none",
               stroke="#1f55d0", stroke_width=float(2 * s), stroke_dasharray=f"{num(3 * s)} {num(2 * s)}",
               title=f"{st.name}: passing needs control of {cz.name} (12.1)")
    svg.close()
    # sea names and the counters at sea
    svg.open("sea-labels")
    for sid in sorted(rs.seas):
        g = geo["seas"].get(sid)
        lx, ly = G(g["label"]) if g else P(rs.seas[sid].at)
        svg.text(lx, ly, rs.seas[sid].name.upper(), "sea-name", size=12 * s, data={"sea": sid}, fill="#234f7d",
                 style="italic", halo=False)
        draw_stack(svg, by_place.get(sid, []), lx, ly + 6 * s, s=s, side_of=side_of, cols=4, where={"at": sid})
    svg.close()


def _draw_zone_marks(svg: Svg, f: _Frame) -> list:
    """Each zone's city, fortress, strategic, supply and port symbols; returns the names to place."""
    rs, state, geo, s, P, G = f.rs, f.state, f.geo, f.s, f.P, f.G
    # zone marks, names and stacks
    svg.open("zone-labels")
    names = []
    for zid in sorted(rs.zones):
        z = rs.zones[zid]
        if z.box:
            continue
        ax, ay = P(z.at)
        g = geo["zones"].get(zid)
        lx, ly = G(g["label"]) if g else (ax, ay)
        capital = any(c.capital == zid for c in rs.countries.values())
        ctl = _control(rs, state, zid)
        svg.open("zone-marks", data={"zone": zid})
        if z.fortress:
            svg.el("polygon", "fortress", data={"zone": zid}, points=_hexagon(ax, ay, 9 * s), fill="none",
                   stroke="#000000", stroke_width=float(2.2 * s), title="fortress (16.3)")
        svg.el("circle", "city capital" if capital else "city", data={"zone": zid}, cx=ax, cy=ay,
               r=float((4 if capital else 2.6) * s), fill="#c01818" if capital else "#222222")
        icons = []
        if z.strategic:
            icons.append("strategic")
        if z.supply_source:
            icons.append("supply")
        if z.port or z.naval_base:
            icons.append("port")
        ix = ax + 6 * s
        for ic in icons:
            cx_, cy_ = ix + 6 * s, ay - 7 * s
            if ic == "strategic":
                fill = "#f2c200" if z.strategic == "general" else CONTROL_FILL.get(z.strategic_side or "axis")
                svg.el("polygon", f"strategic {z.strategic}", data={"zone": zid, "side": z.strategic_side},
                       points=_star(cx_, cy_, 7 * s), fill=fill, stroke="#3a2a00", stroke_width=float(0.9 * s),
                       title=f"{z.strategic} strategic point" + (f" ({z.strategic_side})" if z.strategic_side else ""))
            elif ic == "supply":
                svg.el("rect", f"supply-source side-{z.supply_source}", data={"zone": zid, "side": z.supply_source},
                       x=cx_ - 5.5 * s, y=cy_ - 5.5 * s, width=11 * s, height=11 * s, fill="#2f7d32",
                       stroke=SIDE_INK.get(z.supply_source, "#000"), stroke_width=float(1.6 * s),
                       title=f"supply source of the {z.supply_source} ({z.supply_nation})")
                svg.text(cx_, cy_ + 3.5 * s, "S", "supply-letter", size=9 * s, fill="#ffffff", weight="bold")
            else:
                _anchor_symbol(svg, cx_, cy_, 6 * s, "naval-base" if z.naval_base else "port", zid, z.naval_base)
            ix += 13 * s
        if z.stacking is not None:
            lim = "1 corps" if z.corps_limit == 1 else f"{z.corps_limit} corps" if z.corps_limit else str(z.stacking)
            svg.text(ax, ay + 12 * s, f"max {lim}", "stacking", size=7.5 * s, fill="#5a1a1a", halo=True)
        svg.close()
        names.append((lx, ly - 6 * s, z.name, capital, ctl, zid))
    svg.close()
    return names


def _draw_names(svg: Svg, f: _Frame, names: list) -> None:
    """The stacks under the names, the names over everything (with a halo)."""
    s, by_place, side_of = f.s, f.by_place, f.side_of
    names = _spread(names, by_place, s)
    # the stacks under the names, then the names over everything (with a halo)
    svg.open("stacks")
    for nx, ny, _, _, _, zid in names:
        draw_stack(svg, by_place.get(zid, []), nx, ny + 4 * s, s=s, side_of=side_of, where={"at": zid})
    svg.close()
    svg.open("zone-names")
    for nx, ny, name, capital, ctl, zid in names:
        svg.text(nx, ny, name, "zone-name capital" if capital else "zone-name", size=10.5 * s,
                 data={"zone": zid}, fill="#b01010" if capital else SIDE_INK.get(ctl, "#222"),
                 weight="bold" if capital else None, halo=True)
    svg.close()


def box_rect(z, s: float, mw: float, mh: float) -> tuple[float, float, float, float]:
    """Where the America (left) or Asia (bottom right) box is drawn: x, y, width, height in px."""
    bw, bh = 230 * s, 120 * s
    bx, by = (12 * s, mh * 0.52) if z.region == "america" else (mw - bw - 12 * s, mh - bh - 12 * s)
    return bx, by, bw, bh


def _draw_boxes(svg: Svg, f: _Frame) -> None:
    """The America and Asia boxes."""
    rs, state, s, mw, mh, by_place, side_of = f.rs, f.state, f.s, f.mw, f.mh, f.by_place, f.side_of
    boxes = [zid for zid in sorted(rs.zones) if rs.zones[zid].box]
    for zid in boxes:
        z = rs.zones[zid]
        bx, by, bw, bh = box_rect(z, s, mw, mh)
        ctl = _control(rs, state, zid)
        svg.open(f"zone box control-{ctl}", data={"zone": zid, "control": ctl})
        svg.el("rect", "zone-area", x=bx, y=by, width=bw, height=bh, rx=float(6 * s), fill=CONTROL_FILL.get(ctl, "#eee"),
               stroke="#333333", stroke_width=float(1.5 * s))
        svg.text(bx + bw / 2, by + 16 * s, f"{z.name} box", "zone-name", size=12 * s, data={"zone": zid},
                 fill=SIDE_INK.get(ctl, "#222"), weight="bold")
        draw_stack(svg, by_place.get(zid, []), bx + bw / 2, by + 24 * s, s=s, side_of=side_of, cols=7,
                   where={"at": zid})
        svg.close()


def _spread(names: list, by_place: dict, s: float) -> list:
    """Move a name (and the stack under it) a little when it would cover one already placed:
    the zones with the most counters are placed first, each at the first free offset."""
    def block(nx, ny, name, zid):
        w = max(text_width(name, 10.5 * s), stack_size(len(by_place.get(zid, [])), s)[0] if by_place.get(zid) else 0)
        h = 13 * s + (stack_size(len(by_place.get(zid, [])), s)[1] + 4 * s if by_place.get(zid) else 0)
        return (nx - w / 2, ny - 10 * s, nx + w / 2, ny - 10 * s + h)

    def hits(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    order = sorted(range(len(names)), key=lambda i: (-len(by_place.get(names[i][5], [])), names[i][5]))
    placed: list = []
    out = list(names)
    offsets = [(0, 0), (0, 12), (0, -12), (-22, 6), (22, 6), (0, 24), (0, -24), (-34, -8), (34, -8), (0, 38),
               (-44, 14), (44, 14), (0, -36)]
    for i in order:
        nx, ny, name, capital, ctl, zid = names[i]
        for dx, dy in offsets:
            b = block(nx + dx * s, ny + dy * s, name, zid)
            if not any(hits(b, q) for q in placed):
                break
        else:
            dx = dy = 0
            b = block(nx, ny, name, zid)
        placed.append(b)
        out[i] = (nx + dx * s, ny + dy * s, name, capital, ctl, zid)
    return out


# ----------------------------------------------------------------------------- the side panel
def _block_title(svg: Svg, x: float, y: float, text: str, s: float) -> float:
    svg.text(x, y + 14 * s, text, "panel-title", size=14 * s, anchor="start", fill="#111111", weight="bold")
    svg.el("line", None, x1=x, y1=y + 19 * s, x2=x + 560 * s, y2=y + 19 * s, stroke="#888888", stroke_width=float(0.8 * s))
    return y + 34 * s


def _wrap(text: str, size: float, width: float) -> list[str]:
    lines, cur = [], ""
    for w in text.split():
        t = (cur + " " + w).strip()
        if cur and text_width(t, size) > width:
            lines.append(cur)
            cur = w
        else:
            cur = t
    if cur:
        lines.append(cur)
    return lines


def _panel(svg: Svg, rs, state: dict, mw: float, pw: float, mh: float, s: float, by_place: dict, side_of) -> float:
    """The side panel, block by block; returns the y below the last block."""
    x = mw + 20 * s
    y = 10 * s
    svg.open("panel")
    for block in (_panel_calendar, _panel_track, _panel_supply, _panel_cards, _panel_pools, _panel_legend):
        y = block(svg, rs, state, x, y, s, by_place, side_of)
    svg.close()
    return y


def _panel_calendar(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's title and calendar block from ``y``; returns the y below it."""
    turn = state.get("turn")
    t = rs.turns.get(turn) if isinstance(turn, int) else None
    svg.open("panel-block", data={"block": "calendar"})
    svg.text(x, y + 22 * s, "BlitzWAR", "panel-heading", size=24 * s, anchor="start", weight="bold")
    camp = str(state.get("campaign") or rs.scenario_id)
    svg.text(x + 130 * s, y + 22 * s, camp, "panel-campaign", size=13 * s, anchor="start", fill="#444")
    y += 34 * s
    y = _block_title(svg, x, y, "Calendar", s)
    if t is not None:
        svg.text(x, y, f"Turn {t.turn} of {rs.turns_total}: {t.season} {t.year} ({'first' if t.half == 1 else 'second'} turn)",
                 "calendar-turn", size=13 * s, anchor="start", weight="bold", data={"turn": t.turn})
        y += 17 * s
        svg.text(x, y, f"{t.months}; weather: {t.weather}" + (" (fine in the mild zones and seas, 6)" if t.weather == "snow" else ""), "calendar-weather", size=12 * s, anchor="start",
                 data={"weather": t.weather})
        y += 17 * s
    else:
        svg.text(x, y, f"Turn {turn}", "calendar-turn", size=13 * s, anchor="start", weight="bold")
        y += 17 * s
    phase = state.get("phase")
    if phase:
        aw_ = state.get("awaiting") or []
        aw_ = [aw_] if isinstance(aw_, dict) else aw_
        aw = ", ".join(str(p.get("player", p)) if isinstance(p, dict) else str(p) for p in aw_)
        svg.text(x, y, f"phase {phase}" + (f"; awaiting {aw}" if aw else ""), "calendar-phase", size=12 * s,
                 anchor="start", fill="#333")
        y += 17 * s
    svg.text(x, y, "next marks:", "calendar-next", size=11.5 * s, anchor="start", fill="#333", weight="bold")
    y += 15 * s
    shown = 0
    for tn in rs.turn_list:
        if isinstance(turn, int) and tn <= turn:
            continue
        tt = rs.turns[tn]
        marks = [m for m in tt.marks if m not in ("minors-1", "minors-2")]
        if not marks:
            continue
        for m in marks:
            title = rs.marks.get(m, {}).get("title", m)
            for j, ln in enumerate(_wrap(title, 10.5 * s, 440 * s)[:2]):
                if j == 0:
                    svg.text(x + 6 * s, y, f"T{tn} {tt.season[:3]} {tt.year}", "calendar-mark-turn", size=10.5 * s,
                             anchor="start", fill="#7a1010", data={"turn": tn, "mark": m})
                svg.text(x + 108 * s, y, ln, "calendar-mark", size=10.5 * s, anchor="start",
                         data={"mark": m} if j == 0 else None)
                y += 13 * s
        shown += 1
        if shown >= 4:
            break
    svg.close()
    return y


def _panel_track(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's strategic point track block from ``y``; returns the y below it."""
    y += 8 * s
    svg.open("panel-block", data={"block": "track"})
    y = _block_title(svg, x, y, "Axis strategic point track (9.3, 16.3.2, 18)", s)
    pts_ = axis_points(rs, state)
    length = int(rs.docs["tables"]["strategic_track"].get("length", 50))
    per_row = 17
    bw = 31 * s
    for i in range(length + 1):
        r, c = divmod(i, per_row)
        bx, by = x + c * (bw + 2 * s), y + r * (bw * 0.8 + 3 * s)
        special = [lbl for at, lbl in ((rs.german_defence_at, "German defence +1"),
                                       (rs.italy_hungary_entry_at, "Italy, Hungary enter")) if at == i]
        cls = "track-box" + (" current" if i == pts_ else "") + (" special" if special else "")
        svg.el("rect", cls, data={"points": i}, x=bx, y=by, width=bw, height=bw * 0.8,
               fill="#333333" if i == pts_ else "#f6e7b0" if special else "#ffffff", stroke="#555555",
               stroke_width=float(0.8 * s), title="; ".join(special) if special else None)
        svg.text(bx + bw / 2, by + bw * 0.55, str(i), "track-number", size=10 * s,
                 fill="#ffffff" if i == pts_ else "#333333", weight="bold" if i == pts_ else None)
    rows = length // per_row + 1
    y += rows * (bw * 0.8 + 3 * s) + 6 * s
    svg.text(x, y + 6 * s, f"Axis controls {pts_} strategic points; {rs.german_defence_at}+: German defence +1 "
             f"(from 1941), Italy and Hungary join the Axis", "track-note", size=10.5 * s, anchor="start", fill="#333",
             data={"axis-points": pts_})
    y += 16 * s
    held = strategic_points(rs, state)
    side_pts = {sd: held.get(sd, 0) for sd in rs.side_order}
    svg.text(x, y + 6 * s, "points held: " + ", ".join(f"{rs.side_titles.get(sd, sd)} {n}" for sd, n in side_pts.items()),
             "track-sides", size=10.5 * s, anchor="start", fill="#333")
    y += 18 * s
    svg.close()
    return y


def _panel_supply(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's supply block from ``y``; returns the y below it."""
    svg.open("panel-block", data={"block": "supply"})
    y = _block_title(svg, x, y, "Supply units (7)", s)
    supply = state.get("supply") or {}
    for sd in rs.side_order:
        v = supply.get(sd, "0")
        try:
            f = Fraction(str(v))
        except (ValueError, ZeroDivisionError):
            f = Fraction(0)
        svg.text(x, y + 10 * s, rs.side_titles.get(sd, sd), "supply-side", size=12 * s, anchor="start",
                 fill=SIDE_INK.get(sd, "#222"), weight="bold", data={"side": sd})
        bar = min(float(f), 60.0) * 6 * s
        svg.el("rect", f"supply-bar side-{sd}", data={"side": sd, "supply": str(v)}, x=x + 80 * s, y=y,
               width=max(bar, 1.0), height=12 * s, fill=CONTROL_FILL.get(sd, "#ccc"), stroke=SIDE_INK.get(sd, "#222"),
               stroke_width=float(0.8 * s))
        svg.text(x + 86 * s + bar, y + 10 * s, str(v), "supply-value", size=12 * s, anchor="start", data={"side": sd})
        y += 18 * s
    y += 6 * s
    svg.close()
    return y


def _panel_cards(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's cards block from ``y``; returns the y below it."""
    svg.open("panel-block", data={"block": "cards"})
    y = _block_title(svg, x, y, "Replacement cards (10.1): queues face down", s)
    cards = state.get("cards") or {}
    known = {c.id: c for d in rs.decks.values() for c in d.cards}
    for sd in rs.side_order:
        q = (cards.get(sd) or {}).get("queue") or []
        used = (cards.get(sd) or {}).get("used") or []
        svg.text(x, y + 12 * s, rs.side_titles.get(sd, sd), "cards-side", size=12 * s, anchor="start",
                 fill=SIDE_INK.get(sd, "#222"), weight="bold", data={"side": sd})
        cx = x + 80 * s
        for i, entry in enumerate(q):
            lbl = str(entry.get("turn", i + 1)) if isinstance(entry, dict) else str(i + 1)
            svg.open("card face-down", data={"side": sd, "queue": i}, title=f"{sd} card {i + 1} in the queue (sealed)")
            svg.el("rect", None, x=cx, y=y, width=22 * s, height=30 * s, rx=float(3 * s), fill="#35507a",
                   stroke="#111", stroke_width=float(0.8 * s))
            svg.el("path", None, d=f"M{num(cx + 3 * s)} {num(y + 3 * s)} L{num(cx + 19 * s)} {num(y + 27 * s)} "
                   f"M{num(cx + 19 * s)} {num(y + 3 * s)} L{num(cx + 3 * s)} {num(y + 27 * s)}", stroke="#6d88b2",
                   stroke_width=float(1 * s))
            svg.text(cx + 11 * s, y + 40 * s, lbl, "card-turn", size=8 * s, fill="#333")
            svg.close()
            cx += 25 * s
        if not q:
            svg.text(cx, y + 12 * s, "no card in the queue", "cards-empty", size=10.5 * s, anchor="start", fill="#777")
            cx += 130 * s
        for cid in used:
            c = known.get(str(cid))
            text = (", ".join(f"{TYPE_LETTER.get(kk, kk[:1].upper())}{n}" for kk, n in sorted(c.units.items()))
                    if c else str(cid))
            svg.open("card face-up", data={"side": sd, "card": str(cid)}, title=f"{cid} (played): {text}")
            svg.el("rect", None, x=cx, y=y, width=58 * s, height=30 * s, rx=float(3 * s), fill="#fffbe8", stroke="#111",
                   stroke_width=float(0.8 * s))
            svg.text(cx + 29 * s, y + 12 * s, str(cid), "card-id", size=8 * s, fill="#333", weight="bold")
            svg.text(cx + 29 * s, y + 24 * s, text, "card-units", size=7.5 * s, fill="#333")
            svg.close()
            cx += 61 * s
        y += 48 * s
    svg.close()
    return y


def _panel_pools(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's pools block from ``y``; returns the y below it."""
    svg.open("panel-block", data={"block": "pools"})
    y = _block_title(svg, x, y, "Pools of removed units (11)", s)
    pool = by_place.get("pool", [])
    if not pool:
        svg.text(x, y + 10 * s, "no unit removed", "pool-empty", size=11 * s, anchor="start", fill="#777")
        y += 18 * s
    by_nation: dict[str, list] = {}
    for cid, c in pool:
        by_nation.setdefault(str(c.get("nation")), []).append((cid, c))
    for nation in sorted(by_nation):
        items = by_nation[nation]
        svg.open("pool", data={"nation": nation})
        svg.text(x, y + 15 * s, nation, "pool-nation", size=11 * s, anchor="start", weight="bold")
        per = 14
        for i, (cid, c) in enumerate(items):
            r, cc = divmod(i, per)
            draw_counter(svg, cid, c, x + 44 * s + cc * (CW + 2) * s, y + r * (CH + 2) * s, side=side_of(c), s=s)
        y += ((len(items) - 1) // per + 1) * (CH + 2) * s + 4 * s
        svg.close()
    out_ = by_place.get("out", [])
    if out_:
        svg.text(x, y + 12 * s, f"not yet in play: {len(out_)} counter" + ("s" if len(out_) != 1 else ""), "pool-out", size=10.5 * s, anchor="start",
                 fill="#555", data={"count": len(out_)})
        y += 18 * s
    svg.close()
    return y


def _panel_legend(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's legend block from ``y``; returns the y below it."""
    y += 6 * s
    svg.open("panel-block", data={"block": "legend"})
    y = _block_title(svg, x, y, "Legend", s)
    col2 = x + 280 * s
    rows = [("control", sd, CONTROL_FILL[sd], f"{rs.side_titles.get(sd, sd) if sd != 'neutral' else 'Neutral'} control")
            for sd in ("axis", "allies", "ussr", "neutral")]
    for i, (kind, key, fill, label) in enumerate(rows):
        yy = y + i * 18 * s
        svg.el("rect", f"legend-swatch control-{key}", x=x, y=yy, width=22 * s, height=13 * s, fill=fill,
               stroke="#555", stroke_width=float(0.6 * s))
        svg.text(x + 28 * s, yy + 11 * s, label, "legend-label", size=11 * s, anchor="start")
    for i, ter in enumerate(("mountain", "high-mountain", "marsh", "defile")):
        yy = y + i * 18 * s
        svg.el("rect", f"legend-swatch terrain-{ter}", x=col2, y=yy, width=22 * s, height=13 * s,
               fill=f"url(#pat-{ter})", stroke="#555", stroke_width=float(0.6 * s))
        svg.text(col2 + 28 * s, yy + 11 * s, TERRAIN_TITLE[ter], "legend-label", size=11 * s, anchor="start")
    y += 4 * 18 * s + 6 * s
    sym = [("star-g", "general strategic point"), ("star-n", "national strategic point"),
           ("supply", "supply source"), ("port", "port"), ("base", "naval base"), ("fort", "fortress"),
           ("capital", "capital"), ("link", "land link"), ("river", "link across a river"),
           ("blue", "blue dashed line (air, landings)"), ("fline", "fortress line"), ("thick", "coast without beaches"),
           ("strait", "strait (12.1)"), ("seab", "sea zone boundary")]
    for i, (key, label) in enumerate(sym):
        cx_ = x + (i % 2) * 280 * s
        yy = y + (i // 2) * 18 * s
        mx, my = cx_ + 11 * s, yy + 6 * s
        if key in ("star-g", "star-n"):
            svg.el("polygon", "legend-symbol", points=_star(mx, my, 7 * s), fill="#f2c200" if key == "star-g" else CONTROL_FILL["axis"],
                   stroke="#3a2a00", stroke_width=float(0.9 * s))
        elif key == "supply":
            svg.el("rect", "legend-symbol", x=mx - 5.5 * s, y=my - 5.5 * s, width=11 * s, height=11 * s, fill="#2f7d32")
        elif key in ("port", "base"):
            _anchor_symbol(svg, mx, my, 6 * s, "legend-symbol", None, key == "base")
        elif key == "fort":
            svg.el("polygon", "legend-symbol", points=_hexagon(mx, my, 8 * s), fill="none", stroke="#000", stroke_width=float(2 * s))
        elif key == "capital":
            svg.el("circle", "legend-symbol", cx=mx, cy=my, r=float(4 * s), fill="#c01818")
        elif key == "strait":
            svg.el("circle", "legend-symbol", cx=mx, cy=my, r=float(7 * s), fill="none", stroke="#1f55d0",
                   stroke_width=float(2 * s), stroke_dasharray=f"{num(3 * s)} {num(2 * s)}")
        else:
            stroke, wd, dash = {"link": ("#8b5a2b", 1.3, None), "river": ("#2f6fb5", 1.8, None),
                                "blue": ("#1f55d0", 1.6, f"{num(6 * s)} {num(4 * s)}"), "fline": ("#000", 4, None),
                                "thick": ("#26323d", 4.5, None), "seab": ("#4f7fae", 1.4, f"{num(7 * s)} {num(5 * s)}")}[key]
            svg.el("line", "legend-symbol", x1=cx_, y1=my, x2=cx_ + 22 * s, y2=my, stroke=stroke,
                   stroke_width=float(wd * s), stroke_dasharray=dash)
        svg.text(cx_ + 28 * s, yy + 10 * s, label, "legend-label", size=11 * s, anchor="start")
    y += (len(sym) + 1) // 2 * 18 * s + 8 * s
    # counters
    demo = [("infantry", "GER", 3), ("armour", "GER", 2), ("white-tank", "UK", "1+1"), ("air", "USSR", 1),
            ("fleet", "UK", 2), ("uboat", "GER", 1), ("supply", "FRA", 2)]
    for i, (tp, nat, u) in enumerate(demo):
        cx_ = x + i * 78 * s
        draw_counter(svg, f"legend-{tp}", {"nation": nat, "type": tp, "units": u}, cx_, y, side="legend", s=s)
        svg.text(cx_ + 15 * s, y + 36 * s, tp, "legend-label", size=9.5 * s)
    y += 54 * s
    svg.text(x, y, "a counter: nation, type, corps (units); red edge: out of supply; gold frame: elite",
             "legend-label", size=10 * s, anchor="start", fill="#444")
    y += 16 * s
    for ln in _wrap(LETTERS_TEXT, 10 * s, 550 * s):
        svg.text(x, y, ln, "legend-label", size=10 * s, anchor="start", fill="#444")
        y += 13 * s
    y += 3 * s
    prov = outline(rs)["provenance"]["outline"]
    for ln in _wrap("Coasts: Natural Earth 1:50m (public domain). Zone and sea boundaries: provisional, derived "
                    "for pbem around the zone anchors; not the printed map.", 9.5 * s, 540 * s):
        svg.text(x, y, ln, "provenance", size=9.5 * s, anchor="start", fill="#666", data={"source": "natural-earth"}
                 if prov else None)
        y += 12 * s
    svg.close()
    return y
