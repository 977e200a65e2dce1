"""Map pictures of Battle for Germany states (``pbem map``), drawn from the map data.

Everything comes from the ruleset (``scenarios/bfg/map.yaml``: grid, terrain, rivers, cities,
West Wall, theater boundary, Yugoslavia, Italy) and the state (units, control, destroyed
fortresses, boxes); the drawing primitives are game-independent (:mod:`pbem.core.svg`,
:mod:`pbem.core.mappieces`, :mod:`pbem.core.hexlayout`).

Hex layout: pointy-top hexes in rows, row 35 (north) at the top, the rows named by
``grid.offset`` half a hex east. Inside a hex: its id at the top, the counters across the
middle (two side by side), the city name and VP at the bottom; a coloured inner ring is the
city's controller, a dashed dark ring a West Wall fortress (grey and crossed out when
destroyed). Counter colours follow 2.5: Soviet brown, Western Allied olive (US), tan
(Commonwealth, Polish) or blue (French), East German grey with a white label box, West German
grey with a red label box.

With a report, the step's moves (solid black arrows), retreats (dashed red), advances (dotted
green) and combats (target outlined in the result's colour, attack number, odds column and
result; thin lines from the attacking hexes) are marked.
"""
from __future__ import annotations

from typing import Any

from ..core.hexlayout import HexLayout
from ..core.mappieces import Counter, LegendItem, box, legend, stack, title_block
from ..core.svg import Svg, chain_segments, num, shorten, text_width
from .board import Board, camp, is_hex
from .hexmap import parse_hex
from .ruleset import BOXES
from .sequence import PLAYER_TITLES, TITLE, phase_title
from .victory import victory_points

BASE_HEX = 36.0   # circumradius of a hex at scale 1, in px

TERRAIN_FILL = {"clear": "#f3efd8", "rough": "#d2bf8e", "mountain": "#a3876a", "sea": "#a9cbe6",
                "prohibited": "#c9c9c9"}
TERRAIN_FALLBACK = "#e8e8e8"
RIVER = "#2468c8"
BOUNDARY = "#e65100"
YUGO = "#7b1fa2"
ITALY = "#2e7d32"
FORTRESS = "#222222"
DESTROYED = "#d50000"
CONTROL = {"german": "#1a1a1a", "soviet": "#c62828", "western": "#1565c0"}
VP_TITLES = {"soviet": "Soviet", "western": "Western Allies", "german": "German"}
CONTROL_TITLE = {"german": "German", "soviet": "Soviet", "western": "Western Allied"}
COMBAT = "#d6007d"   # attacked hexes, attack lines and labels (a colour used nowhere else)
MOVE, RETREAT, ADVANCE = "#111111", "#d50000", "#1b8a2e"
MARK_ENTRY = "#00838f"                                   # the colour of R and C marks
MARK_R = 0.13                                            # an event mark's radius, in hex radii
MARK_SLOTS = [(0.52, 0.64), (0.27, 0.81), (-0.52, 0.64), (-0.27, 0.81)]   # its places (x, y) below counters
MARK_SLOTS_EMPTY = [(0.0, 0.4), (0.0, -0.4), (0.0, 0.02)]                     # ... in a hex without counters

SOVIET = {"fill": "#8b4a22", "ink": "#ffffff"}
SOVIET_ALLY = {"fill": "#b0703f", "ink": "#ffffff"}
WA_NATION = {"us": {"fill": "#6b7b34", "ink": "#ffffff"},
             "british": {"fill": "#d9c08a", "ink": "#1a1a1a"},
             "canadian": {"fill": "#d9c08a", "ink": "#1a1a1a"},
             "polish-exile": {"fill": "#d9c08a", "ink": "#1a1a1a"},
             "french": {"fill": "#3f6fb8", "ink": "#ffffff"}}
WA_DEFAULT = {"fill": "#6b7b34", "ink": "#ffffff"}
GERMAN_FILL = "#9a9a9a"
BOX_TITLES = {"western-allied": "Western Allied", "allied-italy": "Allied (Italy)", "east-german": "East German",
              "west-german": "West German", "soviet": "Soviet"}
FORCE_TITLES = {"soviet": "Soviet", "west-german": "West German", "western-allied": "Western Allied",
                "east-german": "East German"}


# ----------------------------------------------------------------------------- counters
def unit_label(uid: str) -> str:
    """The short label printed on a counter: ``sov-8ga`` -> ``8GA``, ``eg-cl-39pz`` ->
    ``CL39PZ``, ``us-7`` -> ``US 7``, ``pk-1`` -> ``PK 1``."""
    head, _, rest = uid.partition("-")
    if not rest:
        return uid.upper()
    if head in ("sov", "eg", "wg"):
        return rest.replace("-", "").upper()
    return f"{head.upper()} {rest.replace('-', '').upper()}"


def counter_style(rs, uid: str, force: str) -> dict:
    d = rs.units[uid]
    if force == "soviet":
        st = dict(SOVIET if d.nation == "soviet" else SOVIET_ALLY)
    elif force == "western-allied":
        st = dict(WA_NATION.get(d.nation, WA_DEFAULT))
    elif force == "east-german":
        st = {"fill": GERMAN_FILL, "ink": "#111111", "band": "#ffffff", "band_ink": "#111111"}
    elif force == "west-german":
        st = {"fill": GERMAN_FILL, "ink": "#111111", "band": "#c62828", "band_ink": "#ffffff"}
    else:
        st = {"fill": "#dddddd", "ink": "#111111"}
    return st


def make_counter(rs, state: dict, uid: str) -> Counter:
    u = state["units"][uid]
    d = rs.units[uid]
    force = u["force"]
    st = counter_style(rs, uid, force)
    cls = [f"side-{camp(force)}", f"force-{force}", f"nation-{d.nation}", f"type-{d.type}"]
    where = u["at"]
    if not is_hex(where):
        cls.append("in-box")
    title = f"{uid}: {d.name} ({FORCE_TITLES.get(force, force)}, {d.type}) {d.strength}"
    if is_hex(where):
        c = rs.cities.get(where)
        title += f" at {where}" + (f" {c.name}" if c else "")
    else:
        title += f" - {where}"
    badge = None
    if u.get("garrison"):
        cls.append("garrison")
        badge = "G"
        title += f"; garrisons {u['garrison']} (10.0)"
    return Counter(unit=uid, label=unit_label(uid), factors=d.strength, fill=st["fill"], ink=st["ink"],
                   band=st.get("band"), band_ink=st.get("band_ink"), classes=tuple(cls), title=title,
                   badge=badge, double=d.is_front, at=where)


# ----------------------------------------------------------------------------- the picture
class BfgMap:
    def __init__(self, rs, state: dict, report: dict | None, scale: float, hex_ids: bool = True):
        self.rs = rs
        self.state = state
        self.report = report
        self.k = float(scale)
        self.s = BASE_HEX * self.k
        self.hex_ids = hex_ids
        g = rs.grid
        self.margin = 14 * self.k
        self.title_h = 70 * self.k
        rows = list(range(g.rows, 0, -1))
        cols = list(range(1, g.columns + 1))
        shifted_parity = 0 if g.offset == "even-rows-east" else 1
        self.lay = HexLayout(rows=rows, columns=cols, size=self.s, shifted=lambda r: r % 2 == shifted_parity,
                             origin=(self.margin, self.title_h + self.margin))
        self.cw = self.lay.width / 2 - 0.06 * self.s     # counter width: two side by side fill a hex
        self.ch = 0.8 * self.s
        self.panel_x = self.margin * 2 + self.lay.pixel_width
        self.panel_w = 9 * (self.cw + self.cw * 0.18) + self.cw * 0.18
        self.width = self.panel_x + self.panel_w + self.margin
        self.map_bottom = self.title_h + self.margin + self.lay.pixel_height

    # -- geometry helpers
    def center(self, h: str):
        return self.lay.center(*parse_hex(h))

    def corners(self, h: str, scale: float = 1.0):
        return self.lay.corners(*parse_hex(h), scale=scale)

    def edge(self, a: str, b: str):
        return self.lay.edge(parse_hex(a), parse_hex(b))

    def sides_between(self, inside) -> list:
        """Land borders: the hexsides between a playable hex for which ``inside`` is true and a
        playable neighbour for which it is false (each once, in hex order)."""
        rs = self.rs
        segs = []
        for h in rs.grid.ids:
            if not inside(h) or h not in rs.playable:
                continue
            for n in rs.neighbours(h):
                if not inside(n) and n in rs.playable:
                    segs.append(self.edge(h, n))
        return segs

    # -- drawing
    def draw(self) -> str:
        st = self.state
        panel_h = self._panel_height()
        height = max(self.map_bottom, self.title_h + self.margin + panel_h) + self.margin
        svg = Svg(self.width, height, title=f"{TITLE} - campaign {st['campaign']} - step {st['step']}, "
                                              f"turn {st['turn']}, {st['phase']}",
                  desc="Drawn by pbem from the map data and the state file" + (
                      f"; marks from the report of step {self.report.get('step')}" if self.report else ""))
        self.svg = svg
        self._title()
        with svg.group("map", data={"game": "bfg"}):
            self._hexes()
            self._areas()
            self._rivers()
            self._boundary()
            self._fortresses()
            if self.report:
                self._combats()     # under the city names: a name stays readable across an attack line
            self._cities()
            if self.hex_ids:
                self._hex_ids()
            self._counters()
            if self.report:
                self._arrows()
                self._marks()
            self._compass()
        self._panel()
        out = svg.render()
        focus = self._focus()
        if focus:   # the area of the step's marks, for the mailed preview (pbem.core.png.focused)
            area = f"{num(self.margin)} {num(self.title_h)} {num(self.lay.pixel_width + self.margin)} " \
                   f"{num(self.map_bottom - self.title_h)}"
            out = out.replace("<svg ", f'<svg data-focus="{focus}" data-map="{area}" ', 1)
        return out

    def _focus(self) -> str:
        """The root's ``data-focus``: "x y width height" around every hex the step's marks touch
        (moves, retreats, advances, combats and their attackers, eliminations, replacements,
        landings), a hex and a label's margin around them, inside the map; "" when the step
        marks nothing on it (issue 33: the mailed preview shows this area at a readable scale)."""
        hexes: set[str] = set()
        for ev in (self.report or {}).get("events", []):
            t = ev.get("type")
            if t in ("move", "retreat", "advance"):
                hexes.update(str(h) for h in [ev.get("from") or ev.get("frm"), ev.get("to"), *(ev.get("path") or [])] if h)
            elif t == "combat":
                hexes.update(str(h) for h in ev.get("targets", []))
                hexes.update(str(a.get("hex")) for a in ev.get("attackers", []) if a.get("hex"))
            elif t in ("eliminated", "replacement", "courland") and ev.get("hex"):
                hexes.add(str(ev["hex"]))
        pts = [self.center(h) for h in sorted(hexes) if h in self.rs.grid]
        if not pts:
            return ""
        m = 1.1 * self.s
        x0 = max(self.margin, min(p[0] for p in pts) - m)
        y0 = max(self.title_h, min(p[1] for p in pts) - m)
        x1 = min(self.margin + self.lay.pixel_width, max(p[0] for p in pts) + m)
        y1 = min(self.map_bottom, max(p[1] for p in pts) + m)
        return f"{num(x0)} {num(y0)} {num(x1 - x0)} {num(y1 - y0)}"

    def _title(self) -> None:
        svg, st, rs, k = self.svg, self.state, self.rs, self.k
        line1 = f"{TITLE} - {rs.scenario_title} - campaign {st['campaign']}"
        date = rs.turn_date(st["turn"])
        line2 = (f"Turn {st['turn']}" + (f" ({date})" if date else "") + f", {phase_title(st['phase'])}"
                 f", step {st['step']}  -  ")
        if rs.play.rule("victory") == "berlin-race":
            # 17.32: the race to Berlin decides the four-player game, victory points nothing (17.0):
            # the title says who entered Berlin, not points (issue 33)
            entries = (st.get("berlin") or {}).get("entries") or []
            line2 += "Berlin race (17.32): " + ("; ".join(
                f"{'Soviets' if e['side'] == 'soviet' else 'Western Allies'} entered on turn {e['turn']}" for e in entries)
                or "nobody has entered Berlin")
        else:
            vp = self._vp()
            line2 += "victory points: " + ", ".join(f"{VP_TITLES.get(side, side)} {n}" for side, n in vp.items()
                                                    if isinstance(n, int) and not isinstance(n, bool))
        if st.get("result"):
            r = st["result"]
            line3 = "GAME OVER: " + ("draw" if r.get("draw") else f"{PLAYER_TITLES.get(r.get('winner'), r.get('winner'))} wins") + \
                    (f" - {r['reason']}" if r.get("reason") else "")
        elif st.get("pending"):
            d = st["pending"][0]
            line3 = f"awaiting a decision from the {PLAYER_TITLES.get(d['player'], d['player'])}: {d['prompt']}"
        elif st.get("awaiting"):
            # one awaited player, or several (chain links asked of every player: a list)
            aw = st["awaiting"] if isinstance(st["awaiting"], list) else [st["awaiting"]]
            line3 = "awaiting " + "; ".join(f"{a['for']} from the {PLAYER_TITLES.get(a['player'], a['player'])}" for a in aw)
        else:
            line3 = ""
        if self.report:
            line3 += ("  -  " if line3 else "") + f"marked: moves, retreats, advances and combats of step {self.report.get('step')}"
        title_block(svg, self.margin, 6 * k, [line1, line2, line3], size=19 * k)

    def _vp(self) -> dict:
        return victory_points(Board(self.rs, self.state))

    def _hexes(self) -> None:
        svg, rs = self.svg, self.rs
        with svg.group("hexes"):
            for h in rs.grid.ids:
                t = rs.terrain.get(h, "unknown")
                svg.polygon(self.corners(h), f"hex terrain-{t}", data={"hex": h},
                            fill=TERRAIN_FILL.get(t, TERRAIN_FALLBACK), stroke="#8a8a7a",
                            stroke_width=max(0.5, 0.025 * self.s))

    def _areas(self) -> None:
        s = self.s
        self._area("italy", self.rs.italy, ITALY, "0.13", 0.07, f"{0.22 * s:.1f} {0.12 * s:.1f}")
        self._area("yugoslavia", self.rs.yugoslavia, YUGO, "0.08", 0.08,
                   f"{0.3 * s:.1f} {0.12 * s:.1f} {0.06 * s:.1f} {0.12 * s:.1f}", border="yugoslav-border")

    def _area(self, name: str, hexes, colour: str, opacity: str, width: float, dash: str,
              border: str | None = None) -> None:
        """A national area: its hexes shaded, its land border dashed."""
        svg = self.svg
        with svg.group(name, data={"hexes": len(hexes)}):
            for h in sorted(hexes):
                svg.polygon(self.corners(h), f"{name}-shade", data={"hex": h}, fill=colour, fill_opacity=opacity)
            for line in chain_segments(self.sides_between(lambda x: x in hexes)):
                svg.polyline(line, border or f"{name}-border", stroke=colour, stroke_width=width * self.s,
                             stroke_dasharray=dash)

    def _rivers(self) -> None:
        svg, rs, s = self.svg, self.rs, self.s
        by_name: dict[str, list] = {}
        for side, name in rs.rivers.items():
            a, b = sorted(side)
            by_name.setdefault(name, []).append((a, b))
        with svg.group("rivers"):
            for name in sorted(by_name):
                segs = [self.edge(a, b) for a, b in sorted(by_name[name])]
                for line in chain_segments(segs):
                    svg.polyline(line, "river", data={"name": name}, title=f"river {name}", stroke=RIVER,
                                 stroke_width=0.11 * s)

    def _boundary(self) -> None:
        """The German Theater Boundary (5.4): the hexsides between west and east hexes; a hex
        belonging to both (Berlin) has the line drawn through its centre."""
        svg, rs, s = self.svg, self.rs, self.s
        segs = []
        for h in rs.grid.ids:
            if rs.theater(h) != "west":
                continue
            for n in rs.neighbours(h):
                if rs.theater(n) == "east" and (h in rs.playable or n in rs.playable):
                    segs.append(self.edge(h, n))
        ends = {}
        for a, b in segs:
            for p in (a, b):
                kk = (round(p[0], 1), round(p[1], 1))
                ends[kk] = p
        for h in sorted(rs.theater_both):
            c = self.center(h)
            touching = [p for p in self.corners(h) if (round(p[0], 1), round(p[1], 1)) in ends]
            for p in touching:
                segs.append((p, c))
        style: dict[str, Any] = dict(stroke=BOUNDARY, stroke_width=0.13 * s, stroke_dasharray=f"{0.5 * s:.1f} {0.18 * s:.1f}",
                     stroke_opacity="0.9")
        with svg.group("boundary", data={"name": "German Theater Boundary (5.4)"}):
            for line in chain_segments(segs):
                svg.polyline(line, "boundary-line", **style)

    def _fortresses(self) -> None:
        svg, rs, s = self.svg, self.rs, self.s
        destroyed = set(self.state.get("fortresses_destroyed", []))
        with svg.group("fortresses"):
            for h in sorted(rs.fortresses):
                gone = h in destroyed
                cls = "fortress destroyed" if gone else "fortress"
                with svg.group(cls, data={"hex": h},
                               title=f"West Wall fortress {h}" + (" - destroyed (6.83)" if gone else "")):
                    svg.polygon(self.corners(h, 0.9), "fortress-ring", stroke="#8d8d8d" if gone else FORTRESS,
                                stroke_width=0.09 * s, stroke_dasharray=f"{0.16 * s:.1f} {0.1 * s:.1f}")
                    if gone:
                        c = self.corners(h, 0.86)
                        svg.line(c[1], c[4], "fortress-cross", stroke=DESTROYED, stroke_width=0.08 * s,
                                 stroke_opacity="0.85")
                        svg.line(c[2], c[5], "fortress-cross", stroke=DESTROYED, stroke_width=0.08 * s,
                                 stroke_opacity="0.85")

    def _cities(self) -> None:
        svg, rs, s = self.svg, self.rs, self.s
        control = self.state.get("control", {})
        with svg.group("cities"):
            for h in sorted(rs.cities):
                c = rs.cities[h]
                owner = control.get(h)
                cx, cy = self.center(h)
                tags = []
                if c.garrison:
                    tags.append("garrison city (10.0)")
                if c.courland_port:
                    tags.append("Courland port (8.0)")
                if c.berlin:
                    tags.append("Berlin")
                title = f"{c.name} ({h}), {c.vp} VP" + (f", {', '.join(tags)}" if tags else "") + \
                        (f"; controlled by the {CONTROL_TITLE.get(owner, owner)} side" if owner else "")
                cls = "city" + (" berlin" if c.berlin else "") + (" garrison-city" if c.garrison else "") + \
                      (" port" if c.courland_port else "")
                with svg.group(cls, data={"hex": h, "name": c.name, "vp": c.vp, "control": owner}, title=title):
                    if owner:
                        col = CONTROL.get(owner, "#000000")
                        with svg.group(f"control control-{owner}", data={"hex": h, "side": owner}):
                            svg.polygon(self.corners(h, 0.8), "control-ring", stroke=col, stroke_width=0.06 * s,
                                        stroke_opacity="0.85")
                            svg.circle(cx, cy, 0.2 * s, "control-disc", fill=col, stroke="#ffffff",
                                       stroke_width=0.05 * s)
                    name = c.name + ("*" if c.courland_port else "")
                    size = 0.25 * s if not c.berlin else 0.3 * s
                    svg.text(cx, cy + 0.62 * s, f"{name} {c.vp}", "city-name", size=size, weight="bold",
                             fill="#111111", halo="#ffffff", halo_width=0.14 * s)

    def _hex_ids(self) -> None:
        svg, rs, s = self.svg, self.rs, self.s
        with svg.group("hex-ids", fill="#5f5f55", font_size=num(0.2 * s), text_anchor="middle",
                       dominant_baseline="central"):
            for h in rs.grid.ids:
                if h not in rs.playable:
                    continue
                cx, cy = self.center(h)
                svg.element("text", "hex-id", text=h, x=num(cx), y=num(cy - 0.66 * s))

    def _counters(self) -> None:
        svg, rs, st = self.svg, self.rs, self.state
        by_hex: dict[str, list[str]] = {}
        for uid in sorted(st["units"]):
            at = st["units"][uid]["at"]
            if is_hex(at) and uid in rs.units:
                by_hex.setdefault(at, []).append(uid)
        with svg.group("counters"):
            for h in sorted(by_hex):
                if h not in rs.grid:
                    continue
                cx, cy = self.center(h)
                us = sorted(by_hex[h], key=lambda u: (not rs.units[u].is_front, -rs.units[u].attack, u))
                stack(svg, cx, cy + 0.02 * self.s, [make_counter(rs, st, u) for u in us], self.cw, self.ch)

    # -- report marks
    def _events(self, *types):
        return [e for e in (self.report or {}).get("events", []) if e.get("type") in types]

    def _arrows(self) -> None:
        svg, s = self.svg, self.s
        rs = self.rs
        with svg.group("arrows"):
            for ev in self._events("move", "retreat", "advance"):
                t = ev["type"]
                if t == "advance":
                    if not ev.get("unit") or not ev.get("to") or not (ev.get("from") or ev.get("frm")):
                        continue
                    path = [ev.get("from") or ev["frm"], ev["to"]]
                else:
                    if not ev.get("path"):
                        continue
                    path = [ev.get("from") or ev["frm"]] + list(ev["path"])
                if not all(p in rs.grid for p in path):
                    continue
                points = shorten([self.center(p) for p in path], start=0.22 * s, end=0.5 * s)
                uid = ev.get("unit")
                title = f"{t} {uid}: " + " -> ".join(path)
                if t == "move":
                    svg.arrow(points, "arrow move", color=MOVE, width=0.09 * s, data={"unit": uid, "from": path[0],
                              "to": path[-1]}, title=title, opacity=0.8)
                elif t == "retreat":
                    svg.arrow(points, "arrow retreat", color=RETREAT, width=0.09 * s,
                              dash=f"{0.22 * s:.1f} {0.12 * s:.1f}", data={"unit": uid, "from": path[0],
                              "to": path[-1]}, title=title, opacity=0.85)
                else:
                    svg.arrow(points, "arrow advance", color=ADVANCE, width=0.11 * s,
                              dash=f"{0.06 * s:.1f} {0.12 * s:.1f}", data={"unit": uid, "from": path[0],
                              "to": path[-1]}, title=title, opacity=0.95)

    def _combats(self) -> None:
        """Target hexes outlined in the result's colour, thin lines from the attacking hexes
        (drawn under the counters); the labels come in :meth:`_marks`, over everything."""
        svg, rs, s = self.svg, self.rs, self.s
        with svg.group("combats"):
            for ev, targets, res in self._combat_events():
                col = COMBAT
                with svg.group(f"combat result-{res}", data={"combat": ev.get("n"), "hex": " ".join(targets),
                                                             "result": res, "odds": ev.get("column") or ev.get("odds")},
                               title=self._combat_title(ev)):
                    seen = set()
                    for a in ev.get("attackers", []):
                        ah = a.get("hex")
                        if not ah or ah in seen or ah not in rs.grid:
                            continue
                        seen.add(ah)
                        tgt = min(targets, key=lambda t: (rs.grid.distance(ah, t), t))
                        p = shorten([self.center(ah), self.center(tgt)], start=0.35 * s, end=0.6 * s)
                        svg.line(p[0], p[1], "attack-line", stroke=col, stroke_width=0.05 * s, stroke_opacity="0.75")
                        svg.circle(p[0][0], p[0][1], 0.06 * s, "attack-dot", fill=col)
                    for t in targets:
                        svg.polygon(self.corners(t, 0.97), "target", stroke=col, stroke_width=0.13 * s,
                                    data={"hex": t})

    def _combat_events(self):
        """(event, target hexes on the map, result code) of each combat of the report."""
        for ev in self._events("combat"):
            targets = [t for t in ev.get("targets", []) if t in self.rs.grid]
            if targets:
                yield ev, targets, str(ev.get("result", ""))

    def _combat_title(self, ev: dict) -> str:
        att = " + ".join(f"{a['unit']} {a['attack']}" for a in ev.get("attackers", []))
        die = ev.get("roll") or {}
        return (f"attack {ev.get('n')} on {', '.join(ev.get('targets', []))}: {att} = {ev.get('attack')} against "
                f"{ev.get('defense')}; odds {ev.get('odds')}" + (f", column {ev['column']}" if ev.get("column") else "") +
                (f", die {die.get('value')}" if die else "") + f" -> {ev.get('result')}")

    def _marks(self) -> None:
        svg, rs, s = self.svg, self.rs, self.s
        with svg.group("combat-labels"):
            for ev, targets, res in self._combat_events():
                col = COMBAT
                cx, cy = self.center(targets[0])
                text = f"#{ev.get('n')} {ev.get('column') or ev.get('odds')} {res}"
                fs = 0.25 * s
                w = text_width(text, fs) * 1.12 + 0.22 * s
                y = cy - 0.64 * s
                with svg.group(f"combat-label result-{res}", data={"combat": ev.get("n"), "hex": targets[0]},
                               title=self._combat_title(ev)):
                    svg.rect(cx - w / 2, y - 0.19 * s, w, 0.38 * s, "combat-label-box", rx=0.08 * s, fill="#ffffff",
                             stroke=col, stroke_width=0.06 * s)
                    svg.text(cx, y, text, "combat-label-text", size=fs, fill="#111111", weight="bold")
        taken: dict[str, list[int]] = {}
        occupied = {u["at"] for u in self.state["units"].values() if is_hex(u["at"])}
        with svg.group("event-marks"):
            for ev in self._events("eliminated", "replacement", "courland", "retreat"):
                t = ev["type"]
                if t == "retreat" and not ev.get("eliminated"):
                    continue
                h = ev.get("hex") if t != "retreat" else (ev.get("from") or ev.get("frm"))
                if not h or h not in rs.grid:
                    continue
                cx, cy = self.center(h)
                if t in ("eliminated",):
                    letter, col, side = "X", DESTROYED, 1
                    title = f"{ev.get('unit')} eliminated at {h} ({ev.get('reason')})"
                elif t == "retreat":
                    continue  # the eliminated event that follows marks it
                elif t == "replacement":
                    letter, col, side = "R", MARK_ENTRY, -1
                    title = f"{ev.get('unit')} enters as a replacement at {h}"
                else:
                    letter, col, side = "C", MARK_ENTRY, -1
                    title = f"{ev.get('unit')} lands from Courland at {h}"
                dx, dy = self._mark_slot(taken.setdefault(h, []), side, h in occupied)
                with svg.group(f"mark {t}", data={"unit": ev.get("unit"), "hex": h}, title=title):
                    x, y = cx + dx * s, cy + dy * s
                    svg.circle(x, y, MARK_R * s, "mark-dot", fill=col, stroke="#ffffff", stroke_width=0.03 * s)
                    svg.text(x, y + 0.01 * s, letter, "mark-letter", size=0.18 * s, fill="#ffffff", weight="bold")

    def _mark_slot(self, taken: list[int], side: int, occupied: bool) -> tuple[float, float]:
        """Where the next mark of a hex goes, in hex radii from its centre, never on a counter.
        In a hex with counters: the strip below them (their shadow ends 0.49 below the centre),
        X marks (``side`` 1) right, R and C marks left, a second one of a side further in. In a
        hex without: above and below the control disc on the vertical axis, where no attack
        line or arrow starts (neighbours lie at 0, 60, 120 ... degrees). ``taken`` lists the
        slots used so far in the hex."""
        if occupied:
            order = [0, 1, 2, 3] if side > 0 else [2, 3, 0, 1]
            slots = MARK_SLOTS
        else:
            order, slots = [0, 1, 2], MARK_SLOTS_EMPTY
        k = next((i for i in order if i not in taken), order[len(taken) % len(order)])
        taken.append(k)
        return slots[k]

    def _compass(self) -> None:
        svg, s = self.svg, self.s
        x = self.margin + self.lay.pixel_width - 0.9 * s
        y = self.title_h + self.margin + 1.6 * s
        with svg.group("compass"):
            svg.arrow([(x, y + 0.9 * s), (x, y - 0.6 * s)], "north", color="#333333", width=0.08 * s, head=0.35 * s,
                      outline=None)
            svg.text(x, y - 0.85 * s, "N", "north-label", size=0.35 * s, weight="bold", fill="#333333",
                     halo="#ffffff")

    # -- side panel: Courland, the destroyed-unit boxes, out of play, combats, legend
    def _places(self) -> tuple[list, dict, list]:
        st = self.state
        court: list[str] = []
        boxes: dict[str, list[str]] = {b: [] for b in self._box_names()}
        gone: list[str] = []
        for uid in sorted(st["units"]):
            at = st["units"][uid]["at"]
            if uid not in self.rs.units:
                continue
            if at == "courland":
                court.append(uid)
            elif at.startswith("box:"):
                boxes.setdefault(at[4:], []).append(uid)
            elif not is_hex(at):
                gone.append(uid)
        return court, boxes, gone

    def _box_names(self) -> list[str]:
        return list(BOXES)

    def _panel_blocks(self):
        """(kind, args) of the panel in order, used both to measure and to draw."""
        court, boxes, gone = self._places()
        # ("box", (title, units, class, data, note or None)), ("combats", None), ("legend", None)
        blocks: list[tuple[str, Any]] = [("box", ("Courland (8.0)", court, "box courland", {"box": "courland"},
                           "off the map beyond 3523-3526; lands at Stettin or Rostock"))]
        for b in self._box_names():
            blocks.append(("box", (f"{BOX_TITLES.get(b, b)} destroyed units", boxes.get(b, []), "box destroyed",
                                   {"box": b}, None)))
        if gone:
            blocks.append(("box", ("Out of play (exited, removed, never replaced)", gone, "box gone",
                                   {"box": "out-of-play"}, None)))
        if self.report:
            blocks.append(("combats", None))
        blocks.append(("legend", None))
        return blocks

    def _combat_lines(self) -> list[str]:
        out = []
        for ev in self._events("combat"):
            die = (ev.get("roll") or {}).get("value")
            out.append(f"#{ev.get('n')} {', '.join(ev.get('targets', []))} ({ev.get('phase', '').split('.')[0]}): "
                       f"{ev.get('attack')} : {ev.get('defense')} -> {ev.get('column') or 'below the table'}"
                       + (f", die {die}" if die else "") + f" = {ev.get('result')}")
        return out or ["no combat in this step"]

    def _legend_items(self) -> list[LegendItem]:
        it = []
        for t in ("clear", "rough", "mountain", "sea", "prohibited"):
            if t in TERRAIN_FILL:
                it.append(LegendItem("area", t, fill=TERRAIN_FILL[t], stroke="#8a8a7a", width=0.8))
        k = self.k
        it += [
            LegendItem("line", "river (hexside)", stroke=RIVER, width=4 * k),
            LegendItem("line", "German Theater Boundary (5.4)", stroke=BOUNDARY, width=4.5 * k, dash=f"{12 * k:.0f} {5 * k:.0f}"),
            LegendItem("line", "Yugoslav border (5.5)", stroke=YUGO, width=3 * k, dash=f"{9 * k:.0f} {4 * k:.0f} {2 * k:.0f} {4 * k:.0f}"),
            LegendItem("area", "Italy", fill="#dbe7d2", stroke=ITALY, width=2.5 * k, dash=f"{7 * k:.0f} {4 * k:.0f}"),
            LegendItem("ring", "West Wall fortress (6.8)", stroke=FORTRESS, width=3 * k, dash=f"{5 * k:.0f} {3 * k:.0f}"),
            LegendItem("ring", "fortress destroyed (6.83)", stroke="#8d8d8d", width=3 * k, dash=f"{5 * k:.0f} {3 * k:.0f}",
                       mark="x", mark_colour=DESTROYED),
            LegendItem("ring", "city held by the Germans", stroke=CONTROL["german"], width=2.5 * k, mark="dot"),
            LegendItem("ring", "city held by the Soviets", stroke=CONTROL["soviet"], width=2.5 * k, mark="dot"),
            LegendItem("ring", "city held by the Western Allies", stroke=CONTROL["western"], width=2.5 * k, mark="dot"),
        ]
        sample = [("sov-8ga", "soviet", "Soviet (brown), Front: inner border"),
                  ("us-7", "western-allied", "Western Allied: US olive"),
                  ("br-8", "western-allied", "British, Canadian, Polish tan"),
                  ("fr-1", "western-allied", "French blue"),
                  ("eg-4", "east-german", "East German: white box"),
                  ("wg-15", "west-german", "West German: red box")]
        for uid, force, label in sample:
            if uid in self.rs.units:
                st = counter_style(self.rs, uid, force)
                d = self.rs.units[uid]
                c = Counter(unit=uid, label=unit_label(uid), factors=d.strength, fill=st["fill"], ink=st["ink"],
                            band=st.get("band"), band_ink=st.get("band_ink"), classes=("legend-counter",),
                            double=d.is_front)
                it.append(LegendItem("counter", label, counter=c))
        it.append(LegendItem("counter", "G: garrison (10.0); attack-defence-move",
                             counter=Counter(unit="garrison", label="1BF", factors="8-20-3", fill=SOVIET["fill"],
                                             ink=SOVIET["ink"], badge="G", double=True, classes=("legend-counter",))))
        if self.report:
            it += [
                LegendItem("arrow", "move", stroke=MOVE, width=3 * k),
                LegendItem("arrow", "retreat", stroke=RETREAT, width=3 * k, dash=f"{8 * k:.0f} {4 * k:.0f}"),
                LegendItem("arrow", "advance after combat", stroke=ADVANCE, width=3.5 * k, dash=f"{2 * k:.0f} {4 * k:.0f}"),
                LegendItem("ring", "attacked hex: #attack odds result", stroke=COMBAT, width=4 * k),
                LegendItem("mark", "eliminated here", fill=DESTROYED, mark="X"),
                LegendItem("mark", "replacement (R), Courland landing (C)", fill=MARK_ENTRY, mark="R"),
            ]
        return it

    def _panel_height(self) -> float:
        """Measured by drawing the panel into a scratch document (:meth:`draw` makes the real one
        after it)."""
        self.svg = Svg(1, 1)
        return self._panel(measure=True)

    def _panel(self, measure: bool = False) -> float:
        svg, k = self.svg, self.k
        x = self.panel_x
        y = self.title_h + self.margin
        gap = 10 * k
        cw, ch = self.cw, self.ch
        with svg.group("panel"):
            for kind, args in self._panel_blocks():
                if kind == "box":
                    title, uids, cls, data, note = args
                    cs = [make_counter(self.rs, self.state, u) for u in uids]
                    h = box(svg, x, y, self.panel_w, f"{title} ({len(uids)})", cs, cw=cw, ch=ch, cls=cls, data=data,
                            note=note, title_size=12 * k)
                    y += h + gap
                elif kind == "combats":
                    lines = self._combat_lines()
                    size = 10.5 * k
                    h = size * 2.4 + len(lines) * size * 1.45
                    with svg.group("combat-list", data={"step": (self.report or {}).get("step")}):
                        svg.rect(x, y, self.panel_w, h, "combat-list-frame", rx=4 * k, fill="#ffffff",
                                 stroke="#333333", stroke_width=max(0.8, 1.1 * k))
                        svg.text(x + 6 * k, y + size * 1.1, f"Combats of step {(self.report or {}).get('step')}",
                                 "combat-list-title", size=size * 1.1, anchor="start", weight="bold")
                        for i, line in enumerate(lines):
                            svg.text(x + 6 * k, y + size * 2.5 + i * size * 1.45, line, "combat-line", size=size,
                                     anchor="start")
                    y += h + gap
                else:
                    h = legend(svg, x, y, self.panel_w, self._legend_items(), size=11 * k)
                    y += h + gap
        return y - (self.title_h + self.margin)


def draw_map(rs, state: dict, report: dict | None = None, *, scale: float = 1.0, hex_ids: bool = True, **_ignored) -> str:
    """The SVG text of ``state``; with ``report`` (a step's report.json as a dict), its moves,
    retreats, advances and combats are marked. Deterministic: the same input gives the same
    bytes."""
    if not (0.2 <= float(scale) <= 8):
        raise ValueError("scale must be between 0.2 and 8")
    return BfgMap(rs, state, report, scale, hex_ids=hex_ids).draw()
