"""What one step did, on the BlitzWAR map (`pbem map --last` / `--report`; issue 16, item 1).

The marks come from the events of the step's report.json, as the rule modules write them; which
event makes which mark is said in the event registry, pbem/blitzwar/describe.py (EVENTS), with
the event's wording:

* arrows along the path: ``move`` (tactical: solid black; strategic, 15.2: dashed purple; the
  out-of-supply move of 17.5: dotted brown), ``one-zone-move`` (16.5, 17.4: thin grey),
  ``retreat`` (dashed red, 17.2), ``advance`` (dotted green, 16.4, 17.3), ``pushed-out`` (a fleet
  pushed to sea, dashed navy, 15.3), ``fleet-move`` (12.1: dashed navy, through each sea zone);
* a naval battle (``naval-battle``, 12.2): an N disc in its sea zone, with the losses' discs;
* every attack (``combat``): the attacked zone ringed in magenta with a label ``B2 4:2 3-1 C/2``
  (B for a blitz attack, # for a normal one, its number in the phase, the corps odds, the column
  after the shifts, the result; ``void`` when no column is reached) and thin magenta lines from
  the zones the attackers came from;
* a zone that changed hands (``control``, a surrender's zones) outlined in the colour of its new
  controller; a country that joined a side or surrendered marked at its capital;
* lettered discs by the zone's city for what happened to counters there (:data:`MARKS`);
* in the side panel: each phase of the step in the report's own words, attacks first in one
  line each with their odds, shifts and result, and a legend of every mark above.

Arrows and the legend are drawn with the core's pieces (:meth:`pbem.core.svg.Svg.arrow`,
:func:`pbem.core.mappieces.legend`) and spliced into the map's writer.
"""
from __future__ import annotations

from ..core.mappieces import LegendItem, legend
from ..core.report import describe, stopped_text
from ..core.svg import Svg as CoreSvg, shorten
from .describe import arrow_of, changed_of, marks_of
from .draw_base import text_width
from .sequence import phase_title

COMBAT = "#d6007d"      # attacked zones, attack lines, combat labels (used for nothing else)
MOVE, STRATEGIC, OOS_MOVE, ONE_ZONE = "#111111", "#6a1b9a", "#8d6e00", "#616161"
RETREAT, ADVANCE, PUSHED = "#d50000", "#1b8a2e", "#1d3a6b"
NEW_CONTROL = {"axis": "#2b3024", "allies": "#8a6410", "ussr": "#b0180c", "neutral": "#555555"}

#: arrow style key (of the event registry, pbem/blitzwar/describe.py) -> (colour, width, dash as
#: multiples of the scale or None)
ARROWS = {
    "move": (MOVE, 2.4, None),
    "strategic": (STRATEGIC, 2.6, (9, 5)),
    "out-of-supply": (OOS_MOVE, 2.2, (2, 4)),
    "one-zone": (ONE_ZONE, 1.8, None),
    "retreat": (RETREAT, 2.4, (7, 4)),
    "advance": (ADVANCE, 2.8, (2, 4)),
    "pushed-out": (PUSHED, 2, (6, 3)),
    "naval": (PUSHED, 2.4, (4, 2)),      # fleet-move (12.1)
    "air": ("#0277bd", 2.0, (1, 3)),                # an air mission (13.4)
    # sea transport (14)
    "sea-transport": ("#0d47a1", 2.4, (10, 4)),
    "landing": ("#0d47a1", 2.8, (4, 3)),
}

#: mark key -> (letter, disc colour, what it means): the lettered discs by a zone's city
MARKS = {
    "eliminated": ("X", "#d50000", "counter eliminated, destroyed or removed (16.2, 15.3, 4)"),
    "reduced": ("-", "#e65100", "counter reduced by combat losses (16.2)"),
    "taken-off": ("X", "#757575", "taken off the map by its owner, to the pool (11.10)"),
    "activate": ("!", "#ef6c00", "activated for attack (15.3)"),
    "entrench": ("E", "#6d4c41", "entrenched (15.1)"),
    "revert": ("V", "#6d4c41", "entrenchment given up: back to infantry (15.1)"),
    "reorganise": ("O", "#00838f", "counters reorganised (11.10)"),
    "replacements": ("R", "#00838f", "replacements placed (11.2, 11.5)"),
    "not-held": ("R", "#757575", "replacements not placed: the zone is not held (11.5)"),
    "setup": ("P", "#00838f", "placed at the set-up (19)"),
    "landing": ("L", "#0d47a1", "units on a beachhead (14.1.2)"),
    "out-of-supply": ("S", "#b71c1c", "marked out of supply (17.5)"),
    "in-supply": ("S", "#2e7d32", "in supply again (17.5)"),
    "held": ("H", COMBAT, "defenders refused to retreat (17.2)"),
    "fortress-line": ("F", "#000000", "fortress line destroyed (16.3.2)"),
    "joined": ("J", "#455a64", "country joined a side (9.3), at its capital"),
    "surrender": ("Q", "#455a64", "country surrendered (9.2), at its capital"),
    "naval-battle": ("N", COMBAT, "naval battle in this sea zone (12.2)"),
    "intercepted": ("I", "#0277bd", "air unit intercepted, both removed (13.2)"),
}


def _label(ev: dict) -> str:
    tag = ("B" if ev.get("phase", "").endswith("blitz") else "#") + str(ev.get("combat", ""))
    if ev.get("result") == "void":
        return f"{tag} {ev.get('odds', '')} void"
    res = str(ev.get("result", ""))
    if ev.get("reduced"):
        res += f">{ev['reduced'].get('to')}"
    return f"{tag} {ev.get('odds', '')} {ev.get('column') or ''} {res}".replace("  ", " ")


def combat_line(rs, ev: dict) -> str:
    """One attack in one line: where, who, odds, column, shifts, die and result."""
    name = rs.zones[ev["zone"]].name if ev.get("zone") in rs.zones else str(ev.get("zone"))
    kind = "blitz" if ev.get("phase", "").endswith("blitz") else "attack"
    att = ", ".join(f"{a['counter']} ({a.get('what', '')})" for a in ev.get("attackers") or [])
    dfd = ", ".join(f"{d['counter']} ({d.get('what', '')})" for d in ev.get("defenders") or [])
    shifts = "; ".join(f"{s['shift']:+d} {s.get('reason', '')} ({s.get('rule', '')})" for s in ev.get("shifts") or [])
    head = (f"{_label(ev).split()[0]} {ev.get('side', '')} {kind} on {name}: {att} against {dfd}; corps "
            f"{ev.get('odds')}, column {ev.get('base_column') or 'below the table'}")
    if shifts:
        head += f", shifts {shifts}"
    if ev.get("result") == "void":
        return head + f" -> void: {ev.get('why', '')}"
    die = (ev.get("roll") or {}).get("value")
    red = f", reduced to {ev['reduced']['to']} ({ev['reduced'].get('because')})" if ev.get("reduced") else ""
    return head + f" -> column {ev.get('column')}, die {die}: {ev.get('result')}{red}"


class StepMarks:
    """The marks of one report on a map drawn by :func:`pbem.blitzwar.draw.draw_map`; ``P``
    places a (lat, lon), ``G`` a point of the outline, both in px."""

    def __init__(self, rs, report: dict, P, G, geo: dict, s: float, box=None, game=None):
        self.game = game   # the plug-in, for the report's words (None: the registered BlitzWAR)
        self.rs, self.report, self.P, self.G, self.geo, self.s = rs, report, P, G, geo, s
        self.box = box     # zone -> (x, y, w, h) of the America or Asia box
        self.events = [e for e in report.get("events") or [] if isinstance(e, dict)]

    def at(self, place: str):
        rs = self.rs
        if place in rs.zones and not rs.zones[place].box:
            return self.P(rs.zones[place].at)
        if place in rs.zones and self.box is not None:     # a box: under its title
            bx, by, bw, _ = self.box(rs.zones[place])
            return bx + bw * 0.5, by + 34 * self.s
        if place in rs.seas:
            g = self.geo["seas"].get(place)
            return self.G(g["label"]) if g else self.P(rs.seas[place].at)
        return None

    def focus(self) -> tuple[float, float, float, float] | None:
        """The box (x0, y0, x1, y1, px) around every place the step's marks touch: attacked
        zones and where the attackers came from, arrows' paths, lettered marks, zones that
        changed hands (issue 33: the mailed preview shows this area at a readable scale);
        None when the step marks nothing on the map."""
        places: set[str] = set()
        for ev in self.events:
            if ev.get("type") == "combat":
                places.add(str(ev.get("zone")))
                places.update(str(a.get("from", "")) for a in ev.get("attackers") or [])
            arrow = arrow_of(ev)
            if arrow is not None:
                places.update(str(p) for p in arrow[0])
            places.update(z for _, z, _ in marks_of(self.rs, ev))
            places.update(changed_of(self.rs, ev))
        pts = [p for p in (self.at(z) for z in sorted(places)) if p is not None]
        if not pts:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    # ------------------------------------------------------------------ on the map
    def areas(self, svg, zone_path) -> None:
        """Zones that changed hands: outlined in the new controller's colour (under the names)."""
        changed: dict[str, str] = {}
        for ev in self.events:
            changed.update(changed_of(self.rs, ev))
        svg.open("step-control")
        for z in sorted(changed):
            d = zone_path(z)
            if d is None:
                continue
            sd = changed[z]
            svg.el("path", f"control-change to-{sd}", data={"zone": z, "control": sd}, d=d, fill="none",
                   stroke=NEW_CONTROL.get(sd, "#333333"), stroke_width=float(4 * self.s), stroke_linejoin="round",
                   stroke_dasharray=f"{10 * self.s:.1f} {4 * self.s:.1f}",
                   title=f"{self.rs.zones[z].name} passed to the {sd} in this step (5)")
        svg.close()

    def overlay(self, svg) -> None:
        """Attacks, arrows and lettered marks, over the counters."""
        s = self.s
        core = CoreSvg(1, 1)
        with core.group("step-combats"):
            for ev in self.events:
                if ev.get("type") != "combat":
                    continue
                tgt = self.at(str(ev.get("zone")))
                if tgt is None:
                    continue
                data = {"combat": ev.get("combat"), "zone": ev.get("zone"), "phase": ev.get("phase"),
                        "odds": ev.get("odds"), "column": ev.get("column"), "result": ev.get("result")}
                with core.group(f"combat result-{ev.get('result')}", data=data, title=combat_line(self.rs, ev)):
                    seen = set()
                    for a in ev.get("attackers") or []:
                        frm = str(a.get("from", ""))
                        src = self.at(frm)
                        if src is None or frm in seen:
                            continue
                        seen.add(frm)
                        p = shorten([src, tgt], start=6 * s, end=15 * s)
                        core.line(p[0], p[1], "attack-line", data={"from": frm}, stroke=COMBAT,
                                  stroke_width=2 * s, stroke_opacity="0.85")
                        core.circle(p[0][0], p[0][1], 3 * s, "attack-dot", fill=COMBAT)
                    core.circle(tgt[0], tgt[1], 14 * s, "target", stroke=COMBAT, stroke_width=3.2 * s)
        with core.group("step-arrows"):
            for ev in self.events:
                self._arrow(core, ev)
        svg.out.extend(core.elements())
        self._letters(svg)
        self._labels(svg)

    def _arrow(self, core, ev: dict) -> None:
        t, s = ev.get("type"), self.s
        arrow = arrow_of(ev)
        if arrow is None:
            return
        path, cls, key = arrow
        cls = "arrow " + cls
        col, w, d = ARROWS[key]
        dash = f"{d[0] * s:.1f} {d[1] * s:.1f}" if d else None
        pts = [self.at(str(p)) for p in path]
        if len(pts) < 2 or any(p is None for p in pts):
            return
        who = ev.get("counter") or ", ".join(ev.get("counters") or [])
        title = f"{t} {who}: " + " -> ".join(str(p) for p in path)
        core.arrow(shorten(pts, start=5 * s, end=9 * s), cls, color=col, width=w * s, head=9 * s, dash=dash,
                   data={"counter": who, "from": path[0], "to": path[-1], "phase": ev.get("phase")}, title=title,
                   opacity=0.9)

    def _letters(self, svg) -> None:
        s = self.s
        rs = self.rs
        by_zone: dict[str, list[tuple[str, str]]] = {}
        for ev in self.events:
            for key, z, who in marks_of(rs, ev):
                by_zone.setdefault(z, []).append((key, who))
        svg.open("step-marks")
        for z in sorted(by_zone):
            p = self.at(z)
            if p is None:
                continue
            ax, ay = p
            merged: dict[str, list[str]] = {}
            for key, who in by_zone[z]:
                merged.setdefault(key, []).append(who)
            for i, key in enumerate(merged):
                letter, col, what = MARKS[key]
                x, y = ax - 11 * s - (i % 5) * 12 * s, ay - 8 * s - (i // 5) * 12 * s
                whos = ", ".join(sorted(set(w for w in merged[key] if w)))
                svg.open(f"mark {key}", data={"zone": z, "mark": key, "who": whos or None},
                         title=f"{(rs.zones.get(z) or rs.seas[z]).name}: {what}" + (f": {whos}" if whos else ""))
                svg.el("circle", "mark-dot", cx=x, cy=y, r=float(5.6 * s), fill=col, stroke="#ffffff",
                       stroke_width=float(1 * s))
                svg.text(x, y + 3 * s, letter, "mark-letter", size=8.5 * s, fill="#ffffff", weight="bold")
                svg.close()
        svg.close()

    def _labels(self, svg) -> None:
        s = self.s
        svg.open("combat-labels")
        stacked: dict[str, int] = {}
        for ev in self.events:
            if ev.get("type") != "combat":
                continue
            p = self.at(str(ev.get("zone")))
            if p is None:
                continue
            k = stacked.get(ev["zone"], 0)
            stacked[ev["zone"]] = k + 1
            text = _label(ev)
            w = text_width(text, 9.5 * s) + 8 * s
            x, y = p[0], p[1] - 26 * s - k * 15 * s
            svg.open(f"combat-label result-{ev.get('result')}", data={"combat": ev.get("combat"), "zone": ev["zone"],
                                                                      "phase": ev.get("phase")},
                     title=combat_line(self.rs, ev))
            svg.el("rect", "combat-label-box", x=x - w / 2, y=y - 7.5 * s, width=w, height=14 * s, rx=float(3 * s),
                   fill="#ffffff", stroke=COMBAT, stroke_width=float(1.6 * s))
            svg.text(x, y + 3.4 * s, text, "combat-label-text", size=9.5 * s, fill="#111111", weight="bold")
            svg.close()
        svg.close()

    # ------------------------------------------------------------------ in the panel
    def lines(self) -> list[tuple[str, str]]:
        """(kind, text) of the panel's account of the step: ``phase`` headings, ``combat`` lines,
        ``event`` lines in the report's words, phases where nothing happened said so."""
        from ..core.games import game  # the core's registry: the views stand below the plug-in (issue 30)
        g = self.game if self.game is not None else game("blitzwar")
        out: list[tuple[str, str]] = []
        cur = None
        said = False

        def close() -> None:
            if cur is not None and not said:
                out.append(("event", "nothing done in this phase (no orders, no move, no attack)"))
        for ev in self.events:
            t = ev.get("type")
            if t == "phase":
                close()
                cur, said = ev.get("phase"), False
                out.append(("phase", f"turn {ev.get('turn')}: {phase_title(str(ev.get('phase')))}"))
                continue
            if cur is not None and ev.get("phase") != cur:
                close()     # e.g. the next turn's calendar after the last phase of a turn
                cur = None
            said = True
            if t == "combat":
                out.append(("combat", combat_line(self.rs, ev)))
                continue
            try:
                text = describe(ev, g, self.rs)
            except (KeyError, TypeError, ValueError):
                text = [f"{t}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type", "turn", "phase"))]
            out += [("event", ln) for ln in text if not ln.lstrip().startswith(("provisional:", "(the phase is played"))]
        close()
        if not out:
            out.append(("event", "no event in this step"))
        return out

    def legend_items(self, k: float) -> list[LegendItem]:
        it = [
            LegendItem("arrow", "tactical move (15.3)", stroke=MOVE, width=2.4 * k),
            LegendItem("arrow", "strategic move (15.2)", stroke=STRATEGIC, width=2.6 * k, dash=f"{9 * k:.0f} {5 * k:.0f}"),
            LegendItem("arrow", "out-of-supply move (17.5)", stroke=OOS_MOVE, width=2.2 * k, dash=f"{2 * k:.0f} {4 * k:.0f}"),
            LegendItem("arrow", "one-zone move (16.5, 17.4)", stroke=ONE_ZONE, width=1.8 * k),
            LegendItem("arrow", "retreat (17.2)", stroke=RETREAT, width=2.4 * k, dash=f"{7 * k:.0f} {4 * k:.0f}"),
            LegendItem("arrow", "advance after combat (16.4, 17.3)", stroke=ADVANCE, width=2.8 * k, dash=f"{2 * k:.0f} {4 * k:.0f}"),
            LegendItem("arrow", "fleet pushed out to sea (15.3)", stroke=PUSHED, width=2 * k, dash=f"{6 * k:.0f} {3 * k:.0f}"),
            LegendItem("arrow", "fleet or U-boat move (12.1)", stroke=PUSHED, width=2.4 * k, dash=f"{4 * k:.0f} {2 * k:.0f}"),
            LegendItem("arrow", "air mission from its base (13.4)", stroke=ARROWS["air"][0], width=2 * k, dash=f"{1 * k:.0f} {3 * k:.0f}"),
            LegendItem("line", "attack: from the attackers' zone", stroke=COMBAT, width=2 * k),
            LegendItem("circle", "attacked zone: B(litz)/# no., corps odds, column, result (>: reduced to)",
                       stroke=COMBAT, width=3 * k),
            LegendItem("area", "zone that changed hands, in its new controller's colour (5)", fill="none",
                       stroke=NEW_CONTROL["axis"], width=3 * k, dash=f"{8 * k:.0f} {3 * k:.0f}"),
        ]
        seen = set()
        for _key, (letter, col, what) in MARKS.items():
            if (letter, col) in seen:
                continue
            seen.add((letter, col))
            it.append(LegendItem("mark", f"{letter}: {what}", fill=col, mark=letter))
        return it

    def panel(self, svg, x: float, y: float, width: float, bottom: float, k: float, wrap, block_title) -> float:
        """The step's block in the side panel from ``y``; returns the y below it."""
        svg.open("panel-block", data={"block": "step", "step": self.report.get("step")})
        stopped = self.report.get("stopped")
        y = block_title(svg, x, y, f"Step {self.report.get('step')}: what happened"
                        + (f" ({stopped_text(stopped)})" if stopped else ""), k)
        def draw_legend(sub) -> float:
            core = CoreSvg(1, 1)
            h = legend(core, x, y, width, self.legend_items(k), size=10 * k, title="Marks of this step", columns=1)
            sub.out.extend(core.elements())
            return h

        # the same on every step's map: drawn once (pbem.blitzwar.draw_base.Svg.shared, issue 33)
        h = svg.shared(("step-legend", x, y, width, k), draw_legend)
        y += h + 10 * k
        size = 10 * k
        rows = self.lines()
        budget = int((bottom - y) // (size * 1.3)) - 1
        shown = 0
        for i, (kind, text) in enumerate(rows):
            pieces = wrap(text, size * (1.2 if kind == "phase" else 1), width - 12 * k)
            if shown + len(pieces) > budget:
                left = len(rows) - i
                svg.text(x, y, f"... {left} more line{'s' if left != 1 else ''}: see the step's report.txt",
                         "step-more", size=size, anchor="start", fill="#555555", data={"more": left})
                y += size * 1.3
                break
            cls = {"phase": "step-phase", "combat": "combat-line", "event": "step-event"}[kind]
            svg.open(f"step-row {cls}")
            for j, ln in enumerate(pieces):
                svg.text(x + (0 if kind == "phase" or j == 0 else 12 * k) + (6 * k if kind != "phase" else 0), y, ln,
                         "step-text", size=size * (1.05 if kind == "phase" else 1), anchor="start",
                         fill="#7a0050" if kind == "combat" else "#111111",
                         weight="bold" if kind == "phase" else None)
                y += size * 1.3
                shown += 1
            svg.close()
        svg.close()
        return y
