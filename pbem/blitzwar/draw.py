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

The parts: pbem/blitzwar/draw_base.py (the projection, the outline data, the SVG writer, colours,
symbols and counters), this module (the map), pbem/blitzwar/draw_panel.py (the side panel).
"""
from __future__ import annotations

import math

from ..core.mapdraw import Picture
from ..core.svg import FONT, attr, esc

# control and strategic points: the rules' one definition (pbem/blitzwar/context.py, 5, 9, 18)
from .context import nation_side, zone_control as _control
from .draw_base import (
    _DEFS,
    CONTROL_FILL,
    LAND_OFF,
    PANEL,
    SCALE,
    SEA,
    SEA_ZONE,
    SIDE_INK,
    TERRAIN_TITLE,
    Svg,
    _anchor_symbol,
    _hexagon,
    _line,
    _path,
    _star,
    draw_stack,
    memo_for,
    num,
    outline,
    project,
    stack_size,
    text_width,
)
from .draw_panel import _block_title, _panel, _wrap
from .seacontrol import sea_control_map
from .stepmarks import StepMarks
from .text import face_units

# ----------------------------------------------------------------------------- the picture


class _Frame:
    """What the pieces of one picture share: the data, the scale and the projection to px, and
    each zone's controller."""

    def __init__(self, rs, state: dict, geo: dict, s: float, k: float, x0: float, y0: float, mw: float, mh: float,
                 P, G, by_place: dict, side_of, marks) -> None:
        self.rs, self.state, self.geo, self.s, self.k, self.x0, self.y0 = rs, state, geo, s, k, x0, y0
        self.mw, self.mh, self.P, self.G, self.by_place, self.side_of, self.marks = mw, mh, P, G, by_place, side_of, marks
        self.ctl = {zid: _control(rs, state, zid) for zid in rs.zones}


def draw_map(rs, state: dict, report: dict | None = None, *, game=None, **opts) -> str:
    """The SVG picture of a BlitzWAR position: the zone map on the coasts of Natural Earth with
    control, terrain, marks, links and the counters, and a side panel (calendar, strategic point
    track, supply, cards, pools, legend); with ``report`` (a step's report.json) what that step
    did (:mod:`pbem.blitzwar.stepmarks`). Deterministic: the same input gives the same bytes.
    ``game``: the plug-in drawing (:meth:`pbem.blitzwar.game.BlitzWar.draw_map` passes itself),
    for its data root and its words; the views stand below it and do not import it (issue 30).
    The picture is :func:`draw_map_parts` joined."""
    return "\n".join(draw_map_parts(rs, state, report, game=game, **opts))


def draw_map_parts(rs, state: dict, report: dict | None = None, *, game=None, **opts) -> list[str]:
    """The picture of :func:`draw_map` as its parts (their lines joined are the SVG): the pieces
    that depend only on the ruleset, the outline and the scale (the seas, the land, the
    borders, coasts, links, straits and the zones' symbols, the legend) are drawn once per
    process, and so is each piece that depends on little of the position (a zone in the colour
    of its controller, a stack of counters, a name, a block of the panel): each such piece is a
    :class:`pbem.core.mapdraw.Shared` text, the same object every time, which the campaign book
    writes once for all its pages (issue 33)."""
    return draw_picture(rs, state, report, game=game, **opts).parts()


def draw_picture(rs, state: dict, report: dict | None = None, *, game=None, **opts) -> Picture:
    """The picture of :func:`draw_map` as drawn (:class:`pbem.core.mapdraw.Picture`): its SVG text,
    its parts, or the elements the mail's preview paints without the text (issue 35)."""
    geo = outline(rs, game)
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

    sides: dict[str, str] = {}

    def side_of(c) -> str:
        n = str(c.get("nation", ""))
        sd = sides.get(n)
        if sd is None:
            sd = sides[n] = nation_side(rs, state, n)
        return sd

    by_place = _counters_by_place(rs, state)
    marks = None
    if report:
        marks = StepMarks(rs, report, P, G, geo, s, box=lambda z: box_rect(z, s, mw, mh), game=game)

    f = _Frame(rs, state, geo, s, k, x0, y0, mw, mh, P, G, by_place, side_of, marks)
    svg = Svg(memo_for(rs, geo, s))
    title = f"BlitzWAR: {state.get('campaign', '')} turn {state.get('turn', '')}".strip()
    svg.raw(f"<title>{esc(title)}</title>")
    _draw_the_map(svg, f, width, height)
    y = _panel(svg, rs, state, mw, pw, mh, s, by_place, side_of)
    if marks:
        marks.panel(svg, mw + 20 * s, y + 10 * s, 560 * s, mh - 10 * s, s,
                    lambda text, size, width: _wrap(text, size, width) or [""], _block_title)
    fa = _focus_attr(marks, s, mw, mh)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}" class="blitzwar-map" '
            f'data-game="blitzwar" data-turn="{attr(state.get("turn", ""))}"{fa}>')
    return Picture(head, svg.out, "</svg>\n")


def _draw_the_map(svg: Svg, f: _Frame, width: float, height: float) -> None:
    """The map, left of the panel: what depends on the ruleset only drawn once (each shared
    piece is whole elements: the book's pages put them back in place, issue 33)."""
    geo, k, x0, y0, mw, mh, s, marks = f.geo, f.k, f.x0, f.y0, f.mw, f.mh, f.s, f.marks

    def top(sub: Svg) -> None:
        sub.raw(_DEFS.replace("{w}", num(mw)).replace("{h}", num(mh)))
        sub.el("rect", "background", x=0.0, y=0.0, width=width, height=height, fill="#ffffff")

    def sea_and_land(sub: Svg) -> None:
        sub.el("rect", "sea", x=0.0, y=0.0, width=mw, height=mh, fill=SEA)
        _draw_seas(sub, f)
        _draw_land(sub, f)

    def middle(sub: Svg) -> None:
        _draw_coasts(sub, f)
        _draw_links(sub, f)
        _draw_straits(sub, f)

    svg.shared(("base-top", width, height), top)
    svg.open("map", clip_path="url(#map-window)")
    svg.shared(("base-sea-land",), sea_and_land)
    _draw_zones(svg, f)
    svg.shared(("borders",), lambda sub: _draw_borders(sub, f))
    if marks:
        marks.areas(svg, lambda z: _path(geo["zones"][z]["rings"], k, x0, y0) if z in geo["zones"] else None)
    svg.shared(("base-middle",), middle)
    _draw_seas_held(svg, f)
    names = svg.shared(("zone-labels",), lambda sub: _draw_zone_marks(sub, f))
    _draw_names(svg, f, [(lx, ly, name, capital, "", zid) for lx, ly, name, capital, zid in names])
    _draw_boxes(svg, f)
    if marks:
        marks.overlay(svg)
    svg.close()  # map
    svg.el("rect", "map-frame", x=0.0, y=0.0, width=mw, height=mh, fill="none", stroke="#222222",
           stroke_width=float(2 * s))


def _focus_attr(marks, s: float, mw: float, mh: float) -> str:
    """The root's ``data-focus``: the area of the step's marks, with a margin for the labels and
    rings drawn around the places, for the mailed preview (pbem.core.png.focused); "" without."""
    focus = marks.focus() if marks else None
    if focus is None:
        return ""
    m = 90 * s
    fx0, fy0 = max(0.0, focus[0] - m), max(0.0, focus[1] - m)
    fx1, fy1 = min(mw, focus[2] + m), min(mh, focus[3] + m)
    return f' data-focus="{num(fx0)} {num(fy0)} {num(fx1 - fx0)} {num(fy1 - fy0)}" data-map="0 0 {num(mw)} {num(mh)}"'


def _counters_by_place(rs, state: dict) -> dict[str, list]:
    """place (zone, sea, box, pool, out) -> [(counter id, counter)], in id order; a counter holding
    less than its printed face carries ``_face`` (the tooltip says so)."""
    counters = state.get("counters") or {}
    by_place: dict[str, list] = {}
    for cid in sorted(counters):
        c = counters[cid]
        face = face_units(rs, c) if c.get("type") not in ("supply", "white-tank") else None
        if face is not None and str(face) != str(c.get("units")):
            c = dict(c, _face=face)
        by_place.setdefault(str(c.get("at")), []).append((cid, c))
    return by_place


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
    """The land and the off-board land."""
    geo, k, x0, y0 = f.geo, f.k, f.x0, f.y0
    svg.el("path", "land", d=_path(geo["land"], k, x0, y0), fill=LAND_OFF, fill_rule="evenodd")
    if geo.get("off_board"):
        svg.el("path", "off-board", d=_path(geo["off_board"], k, x0, y0), fill=LAND_OFF, fill_rule="evenodd",
               title="off the board")


def _draw_zones(svg: Svg, f: _Frame) -> None:
    """Each zone in its controller's colour, patterned by terrain (each drawn once per controller)."""
    svg.open("zones")
    for zid in sorted(f.rs.zones):
        if not f.rs.zones[zid].box:
            svg.shared(("zone", zid, f.ctl[zid]), lambda sub: _draw_zone(sub, f, zid, f.ctl[zid]))  # noqa: B023
    svg.close()


def _draw_zone(svg: Svg, f: _Frame, zid: str, ctl: str) -> None:
    """One zone in the colour of ``ctl``, patterned by terrain, with its hover title."""
    rs, geo, s, k, x0, y0, P = f.rs, f.geo, f.s, f.k, f.x0, f.y0, f.P
    z = rs.zones[zid]
    g = geo["zones"].get(zid)
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


def _draw_borders(svg: Svg, f: _Frame) -> None:
    """Borders (heavy between countries)."""
    rs, geo, s, k, x0, y0 = f.rs, f.geo, f.s, f.k, f.x0, f.y0
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


def _draw_coasts(svg: Svg, f: _Frame) -> None:
    """The coasts, thick where there are no beaches."""
    rs, geo, s, k, x0, y0 = f.rs, f.geo, f.s, f.k, f.x0, f.y0
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
    """The straits."""
    rs, s, P = f.rs, f.s, f.P
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


def _draw_seas_held(svg: Svg, f: _Frame) -> None:
    """The sea names, the sea control in force (12.3) and the counters at sea."""
    rs, geo, s, P, G, by_place, side_of = f.rs, f.geo, f.s, f.P, f.G, f.by_place, f.side_of
    control = sea_control_map(f.state)         # 12.3: the sea control in force
    svg.open("sea-labels")
    for sid in sorted(rs.seas):
        g = geo["seas"].get(sid)
        lx, ly = G(g["label"]) if g else P(rs.seas[sid].at)
        held = control.get(sid)
        svg.shared(("sea-label", sid, held), lambda sub: _draw_sea_label(sub, f, sid, held, lx, ly))  # noqa: B023
        draw_stack(svg, by_place.get(sid, []), lx, ly + 6 * s, s=s, side_of=side_of, cols=4, where={"at": sid})
    svg.close()


def _draw_sea_label(svg: Svg, f: _Frame, sid: str, held: str | None, lx: float, ly: float) -> None:
    """A sea's name, and who holds its sea control (12.3)."""
    rs, s = f.rs, f.s
    svg.text(lx, ly, rs.seas[sid].name.upper(), "sea-name", size=12 * s, data={"sea": sid}, fill="#234f7d",
             style="italic", halo=False)
    if held:
        svg.text(lx, ly - 13 * s, f"sea control: {rs.side_titles.get(held, held)}", "sea-control", size=10 * s,
                 data={"sea": sid, "side": held}, fill=SIDE_INK.get(held, "#234f7d"), weight="bold", halo=True,
                 title=f"{rs.seas[sid].name}: sea control of the {held} (12.3)")


def _draw_zone_marks(svg: Svg, f: _Frame) -> list:
    """Each zone's city, fortress, strategic, supply and port symbols; returns the names to place
    (x, y, name, capital, zone): they depend on the ruleset only."""
    rs, geo, s, P, G = f.rs, f.geo, f.s, f.P, f.G
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
        names.append((lx, ly - 6 * s, z.name, capital, zid))
    svg.close()
    return names


def _draw_names(svg: Svg, f: _Frame, names: list) -> None:
    """The stacks under the names, the names over everything (with a halo)."""
    s, by_place, side_of = f.s, f.by_place, f.side_of
    # where the names go depends on the names and the number of counters under each
    # (the zones' names and places are the ruleset's; the controllers' colours are put back after)
    sizes = tuple(len(by_place.get(zid, ())) for *_, zid in names)
    spread = svg.memo.get(("spread", sizes))
    if spread is None:
        spread = svg.memo[("spread", sizes)] = _spread([(*n[:4], "", n[5]) for n in names], by_place, s)
    names = [(nx, ny, name, capital, f.ctl[zid], zid) for nx, ny, name, capital, _, zid in spread]
    # the stacks under the names, then the names over everything (with a halo)
    svg.open("stacks")
    for nx, ny, _, _, _, zid in names:
        draw_stack(svg, by_place.get(zid, []), nx, ny + 4 * s, s=s, side_of=side_of, where={"at": zid})
    svg.close()
    svg.open("zone-names")
    for name_at in names:
        svg.shared(("zone-name", name_at), lambda sub: _draw_name(sub, s, *name_at))  # noqa: B023
    svg.close()


def _draw_name(svg: Svg, s: float, nx: float, ny: float, name: str, capital: bool, ctl: str, zid: str) -> None:
    svg.text(nx, ny, name, "zone-name capital" if capital else "zone-name", size=10.5 * s,
             data={"zone": zid}, fill="#b01010" if capital else SIDE_INK.get(ctl, "#222"),
             weight="bold" if capital else None, halo=True)


def box_rect(z, s: float, mw: float, mh: float) -> tuple[float, float, float, float]:
    """Where the America (left) or Asia (bottom right) box is drawn: x, y, width, height in px."""
    bw, bh = 230 * s, 120 * s
    bx, by = (12 * s, mh * 0.52) if z.region == "america" else (mw - bw - 12 * s, mh - bh - 12 * s)
    return bx, by, bw, bh


def _draw_boxes(svg: Svg, f: _Frame) -> None:
    """The America and Asia boxes."""
    rs, s, mw, mh, by_place, side_of = f.rs, f.s, f.mw, f.mh, f.by_place, f.side_of
    boxes = [zid for zid in sorted(rs.zones) if rs.zones[zid].box]
    for zid in boxes:
        z = rs.zones[zid]
        bx, by, bw, bh = box_rect(z, s, mw, mh)
        ctl = f.ctl[zid]
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

    # the blocks placed so far, by the cells of a grid they cover: a block is compared with the
    # few near it only (the same answer as comparing it with all: two blocks that overlap share
    # a cell)
    cell = 64.0
    grid: dict[tuple[int, int], list] = {}

    def cells(b):
        return [(cx, cy) for cx in range(math.floor(b[0] / cell), math.floor(b[2] / cell) + 1)
                for cy in range(math.floor(b[1] / cell), math.floor(b[3] / cell) + 1)]

    order = sorted(range(len(names)), key=lambda i: (-len(by_place.get(names[i][5], [])), names[i][5]))
    out = list(names)
    offsets = [(0, 0), (0, 12), (0, -12), (-22, 6), (22, 6), (0, 24), (0, -24), (-34, -8), (34, -8), (0, 38),
               (-44, 14), (44, 14), (0, -36)]
    for i in order:
        nx, ny, name, capital, ctl, zid = names[i]
        for dx, dy in offsets:
            b = block(nx + dx * s, ny + dy * s, name, zid)
            if not any(hits(b, q) for c in cells(b) for q in grid.get(c, ())):
                break
        else:
            dx = dy = 0
            b = block(nx, ny, name, zid)
        for c in cells(b):
            grid.setdefault(c, []).append(b)
        out[i] = (nx + dx * s, ny + dy * s, name, capital, ctl, zid)
    return out
