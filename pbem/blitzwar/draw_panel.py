"""The side panel of the BlitzWAR map (pbem/blitzwar/draw.py): calendar, strategic point track,
supply, cards, pools and legend.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .context import axis_points, german_defence_points, strategic_points
from .draw_base import (
    CH,
    CONTROL_FILL,
    CW,
    SIDE_INK,
    TERRAIN_TITLE,
    TYPE_LETTER,
    Svg,
    _anchor_symbol,
    _hexagon,
    _star,
    counter_key,
    draw_counter,
    num,
    outline,
    text_width,
)
from .text import LETTERS

#: the letters of the counter types (cards, set-up zones of 19 and `pbem show`): A is air, not armour
LETTERS_TEXT = "letters: " + LETTERS


# ----------------------------------------------------------------------------- the side panel
def _block_title(svg: Svg, x: float, y: float, text: str, s: float) -> float:
    svg.text(x, y + 14 * s, text, "panel-title", size=14 * s, anchor="start", fill="#111111", weight="bold")
    svg.el("line", None, x1=x, y1=y + 19 * s, x2=x + 560 * s, y2=y + 19 * s, stroke="#888888", stroke_width=float(0.8 * s))
    return y + 34 * s


@lru_cache(maxsize=4096)
def _wrap(text: str, size: float, width: float) -> tuple[str, ...]:
    """``text`` in lines no wider than ``width`` at the font ``size`` (remembered: the book
    wraps the same calendar and step lines on many pages)."""
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
    return tuple(lines)


def _panel(svg: Svg, rs, state: dict, mw: float, pw: float, mh: float, s: float, by_place: dict, side_of) -> float:
    """The side panel, block by block; returns the y below the last block."""
    x = mw + 20 * s
    y = 10 * s
    svg.open("panel")
    for block in (_panel_calendar, _panel_track, _panel_supply, _panel_cards, _panel_pools, _panel_legend):
        # each block drawn once for what it shows (issue 33: the book draws a map a step)
        what = _BLOCK_KEYS.get(block.__name__)
        if what is None:        # (a block that shares pieces of its own)
            y = block(svg, rs, state, x, y, s, by_place, side_of)
            continue
        key = (block.__name__, x, y, what(rs, state, by_place, side_of))
        y = svg.shared(key, lambda sub: block(sub, rs, state, x, y, s, by_place, side_of))  # noqa: B023
    svg.close()
    return y


def _counters_key(items: list, side_of) -> tuple:
    return tuple(counter_key(cid, c, side_of(c)) for cid, c in items)


# all that each block of the panel shows of a position (the rest is the ruleset's)
_BLOCK_KEYS = {
    "_panel_track": lambda rs, state, by_place, side_of: (
        axis_points(rs, state), tuple(sorted(strategic_points(rs, state).items())), german_defence_points(rs, state)),
    "_panel_supply": lambda rs, state, by_place, side_of: repr(state.get("supply")),
    "_panel_cards": lambda rs, state, by_place, side_of: repr(state.get("cards")),
    "_panel_pools": lambda rs, state, by_place, side_of: (
        _counters_key(by_place.get("pool", []), side_of), len(by_place.get("out", []))),
    "_panel_legend": lambda rs, state, by_place, side_of: (),
}


def _panel_calendar(svg: Svg, rs, state: dict, x: float, y: float, s: float, by_place: dict, side_of) -> float:
    """The panel's title and calendar block from ``y``; returns the y below it. The turn's lines
    and the next marks are drawn once a turn, the phase's line every time."""
    turn = state.get("turn")
    svg.open("panel-block", data={"block": "calendar"})
    y = svg.shared(("calendar", turn, state.get("campaign"), x, y), lambda sub: _calendar_turn(sub, rs, state, x, y, s))
    phase = state.get("phase")
    if phase:
        aw_ = state.get("awaiting") or []
        aw_ = [aw_] if isinstance(aw_, dict) else aw_
        aw = ", ".join(str(p.get("player", p)) if isinstance(p, dict) else str(p) for p in aw_)
        svg.text(x, y, f"phase {phase}" + (f"; awaiting {aw}" if aw else ""), "calendar-phase", size=12 * s,
                 anchor="start", fill="#333")
        y += 17 * s
    y = svg.shared(("next-marks", turn, x, y), lambda sub: _next_marks(sub, rs, turn, x, y, s))
    svg.close()
    return y


def _calendar_turn(svg: Svg, rs, state: dict, x: float, y: float, s: float) -> float:
    """The panel's title, the calendar's heading and the turn's lines from ``y``; the y below."""
    turn = state.get("turn")
    t = rs.turns.get(turn) if isinstance(turn, int) else None
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
    return y


def _next_marks(svg: Svg, rs, turn, x: float, y: float, s: float) -> float:
    """The marks of the next four turns that have some, from ``y``; the y below."""
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
    # 16.3.2: the German defence reads the points at the last turn's end (context.german_defence_points);
    # without a record (before 1941, or a position set up later) the sentence is the track's alone
    gd_pts, gd_turn = german_defence_points(rs, state)
    when, gd = ("", "") if gd_turn is None else \
        (", by the points at a turn's end", f"; German defence: {gd_pts} at the end of turn {gd_turn}")
    svg.text(x, y + 6 * s, f"Axis controls {pts_} strategic points; {rs.german_defence_at}+: German defence +1 "
             f"(from 1941{when}), Italy and Hungary join the Axis{gd}", "track-note", size=10.5 * s, anchor="start",
             fill="#333", data={"axis-points": pts_})
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
        # 9.2: the counters of surrendered countries are out of the game (no replacement takes them)
        svg.text(x, y + 12 * s, f"out of the game (surrendered countries, 9.2): {len(out_)} counter" + ("s" if len(out_) != 1 else ""),
                 "pool-out", size=10.5 * s, anchor="start",
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
    for i, (_kind, key, fill, label) in enumerate(rows):
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
        _legend_symbol(svg, key, cx_, mx, my, s)
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


def _legend_symbol(svg: Svg, key: str, cx_: float, mx: float, my: float, s: float) -> None:
    """One map symbol of the legend, ``key`` of its rows, centred on (mx, my)."""
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
