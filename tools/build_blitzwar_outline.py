"""Build scenarios/blitzwar/outline.json, the geometry of the BlitzWAR map picture, ONCE, at
data-build time (pbem never runs this, and needs no geometry library at run time).

Input: the Natural Earth 1:50m admin-0 countries (public domain, naturalearthdata.com), version
4.1.0, as TopoJSON in the npm package world-atlas 2.0.2 (countries-50m.json; the package is
ISC-licensed, the data Natural Earth's). Obtained once with the ordinary clients::

    python3 -m venv /tmp/ne && /tmp/ne/bin/pip install pyshp shapely pyyaml
    (cd /tmp/ne && npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz)
    /tmp/ne/bin/python tools/build_blitzwar_outline.py /tmp/ne/package/countries-50m.json

(A shapefile also works, e.g. the 1:110m ``naturalearth_lowres`` of the geopandas 0.14.4 wheel.)

What it does: dissolves the countries into land, projects it with the picture's projection
(:func:`pbem.blitzwar.draw_base.project`, a Lambert conformal conic in km), clips it to the picture's
window, and derives (provisional, made for pbem, not the printed map) the land zones as Voronoi
cells around the zone anchors of scenarios/blitzwar/map.yaml clipped to the playable land and to
a disc around each anchor, the sea zones as Voronoi cells around the sea anchors clipped to the
open water, the borders between neighbouring cells, and the thick (beachless) coasts.
Coordinates are whole km of that projection (y grows southward, as in SVG).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import shapely
from shapely.geometry import LineString, MultiLineString, MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.ops import linemerge, nearest_points, polylabel, unary_union

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import yaml  # noqa: E402

from pbem.blitzwar.draw_base import VIEW, project  # noqa: E402

# Land outside the playing area (left off the map by scenarios/blitzwar/map.yaml's note, or
# beyond its edges): drawn as land, never part of a zone.
OFF_BOARD = {"Portugal", "Ireland", "Switzerland", "Iceland", "Iran", "Saudi Arabia", "Greenland",
             "Afghanistan", "Pakistan", "Turkmenistan", "Uzbekistan", "W. Sahara", "Mauritania",
             "Qatar", "United Arab Emirates", "Oman"}
# Groups of today's countries whose outer borders are close to those of 1939: the zones whose
# anchors lie in one share it out among themselves, so that the borders of France, Spain, Italy,
# the Low Countries, Scandinavia, the Balkans, North Africa and the Levant are the real ones.
# Everything else (Germany, Poland, the Baltic, the USSR, Finland) is shared by Voronoi alone.
GROUPS = [("France", "Monaco", "Andorra"), ("Spain", "Gibraltar"), ("Italy", "San Marino", "Vatican"),
          ("Belgium", "Netherlands", "Luxembourg"), ("Denmark",), ("Norway",), ("Sweden", "Åland"),
          ("United Kingdom",), ("Greece",), ("Bulgaria",), ("Turkey",), ("Albania",),
          ("Slovenia", "Croatia", "Bosnia and Herz.", "Serbia", "Montenegro", "Kosovo", "Macedonia"),
          ("Hungary",), ("Romania", "Moldova"), ("Czechia", "Slovakia"), ("Austria", "Liechtenstein"),
          ("Egypt",), ("Libya",), ("Tunisia",), ("Algeria",), ("Morocco",), ("Syria", "Lebanon"),
          ("Israel", "Palestine", "Jordan"), ("Iraq", "Kuwait"), ("Cyprus", "N. Cyprus")]
RADIUS = 640.0          # km: a zone reaches no farther from its anchor
ISLAND = 16.0           # km: radius of the island drawn for a zone the 1:110m land misses (Malta)
SIMPLIFY = 3.0          # km
LABEL_DROP = 36.0       # km: the name goes this far south of the city when the zone has room


def proj_geom(g):
    if isinstance(g, Polygon):
        return Polygon([project(lat, lon) for lon, lat in g.exterior.coords],
                       [[project(lat, lon) for lon, lat in r.coords] for r in g.interiors])
    return unary_union([proj_geom(p) for p in g.geoms])


def shape_polys(shp):
    pts = shp.points
    parts = list(shp.parts) + [len(pts)]
    rings = [pts[parts[i]:parts[i + 1]] for i in range(len(parts) - 1)]
    out = []
    for r in rings:
        p = Polygon(r)
        if not p.is_valid:
            p = p.buffer(0)
        out.append(p)
    # 110m countries have no holes that matter here: every ring is an outer ring
    return unary_union(out)


def read_topojson(path: str) -> list[tuple[str, object]]:
    """(country name, shapely geometry in lon/lat) of a world-atlas countries-*.json TopoJSON."""
    topo = json.loads(Path(path).read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(idx):
        out = []
        for i in idx:
            a = arcs[i] if i >= 0 else arcs[~i][::-1]
            out += a if not out else a[1:]
        return out

    res = []
    for geom in topo["objects"]["countries"]["geometries"]:
        name = (geom.get("properties") or {}).get("name", "")
        if geom["type"] == "Polygon":
            ps = [geom["arcs"]]
        elif geom["type"] == "MultiPolygon":
            ps = geom["arcs"]
        else:
            continue
        parts = []
        for p in ps:
            rings_ = [ring(r) for r in p]
            poly = Polygon(rings_[0], rings_[1:])
            parts.append(poly if poly.is_valid else poly.buffer(0))
        res.append((name, unary_union(parts)))
    return res


def polys(g) -> list[Polygon]:
    if g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    return [p for x in getattr(g, "geoms", []) for p in polys(x)]


def rings(g, min_area: float = 30.0) -> list[list[list[int]]]:
    """[[ring, hole, ...] per polygon], each ring a flat [x, y, x, y ...] of whole km."""
    out = []
    for p in sorted(polys(g), key=lambda p: (-p.area, p.bounds)):
        if p.area < min_area:
            continue
        rs = []
        for r in [p.exterior] + list(p.interiors):
            flat = []
            prev = None
            for x, y in list(r.coords)[:-1]:
                q = (round(x), round(y))
                if q != prev:
                    flat += [q[0], q[1]]
                prev = q
            if len(flat) >= 6:
                rs.append(flat)
        if rs:
            out.append(rs)
    return out


def lines(g) -> list[list[int]]:
    if g.is_empty:
        return []
    segs = []
    for x in getattr(g, "geoms", [g]):
        if isinstance(x, LineString):
            segs.append(x)
        elif isinstance(x, MultiLineString):
            segs += list(x.geoms)
    if not segs:
        return []
    merged = linemerge(MultiLineString(segs)) if len(segs) > 1 else segs[0]
    out = []
    for ln in getattr(merged, "geoms", [merged]):
        if ln.length < 8:
            continue
        flat = []
        prev = None
        for x, y in ln.coords:
            q = (round(x), round(y))
            if q != prev:
                flat += [q[0], q[1]]
            prev = q
        if len(flat) >= 4:
            out.append(flat)
    return sorted(out)


def label_point(g, anchor):
    """Where the zone's name goes (its counters below it): just south of the city, as near to it
    as the cell leaves room; else the point of the largest part farthest from its edge."""
    target = Point(anchor[0], anchor[1] + LABEL_DROP)
    parts = sorted(polys(g), key=lambda p: (-int(p.contains(Point(anchor)) or p.distance(Point(anchor)) < 30), -p.area))
    big = parts[0]
    for clearance in (24.0, 12.0):
        inner = big.buffer(-clearance)
        if not inner.is_empty:
            q = target if inner.contains(target) else nearest_points(inner, target)[0]
            return [round(q.x), round(q.y)]
    pole = polylabel(big, tolerance=2.0)
    return [round(pole.x), round(pole.y)]


def sea_label(g, anchor, land_anchors):
    """Where a sea zone's name goes: its anchor, unless a zone's city is near it (Malta by the
    South-Central Mediterranean); then the point of its largest part farthest from its edge."""
    if g.contains(Point(anchor)) and min(Point(anchor).distance(Point(a)) for a in land_anchors.values()) > 150:
        return [round(v) for v in anchor]
    pole = polylabel(max(polys(g), key=lambda p: p.area), tolerance=2.0)
    return [round(pole.x), round(pole.y)]


def main(shp_path: str) -> None:
    m = yaml.safe_load((ROOT / "scenarios/blitzwar/map.yaml").read_text(encoding="utf-8"))
    x0, y0, x1, y1 = VIEW
    window = box(x0 - 60, y0 - 60, x1 + 60, y1 + 60)
    if shp_path.endswith(".json"):
        source = read_topojson(shp_path)
    else:
        import shapefile  # pyshp
        r = shapefile.Reader(shp_path)
        source = [(rec["name"], shape_polys(shp)) for shp, rec in zip(r.shapes(), r.records())]
    land_parts, off_parts = [], []
    named: dict[str, list] = {}
    for name, geom in source:
        b = geom.bounds
        if b[2] < -45 or b[0] > 75 or b[3] < 15 or b[1] > 80:
            continue
        g = proj_geom(geom.intersection(box(-45, 15, 75, 80))).intersection(window)
        if g.is_empty:
            continue
        (off_parts if name in OFF_BOARD else land_parts).append(g)
        named.setdefault(name, []).append(g)
    zones = {k: v for k, v in m["zones"].items() if not v.get("box")}
    anchors = {k: project(*v["at"]) for k, v in zones.items()}
    islands = []
    # dissolve first (the countries share their borders exactly), then simplify once, and drop
    # the slivers and specks the dissolving leaves
    raw_off = unary_union(off_parts).buffer(0)
    land_all = unary_union(land_parts + off_parts).buffer(0).simplify(SIMPLIFY, preserve_topology=True)
    land_all = unary_union([Polygon(p.exterior, [h for h in p.interiors if Polygon(h).area > 400])
                            for p in polys(land_all) if p.area > 20])
    playable = land_all.difference(raw_off).buffer(0)
    # the board ends at the Urals (60 E) in the east and at 27 N in the Sahara and Arabia
    edge = [project(lat / 2, 60.0) for lat in range(160, 53, -1)] + [project(27.0, lon / 2) for lon in range(120, -60, -1)]
    board = shapely.make_valid(Polygon(edge + [(x0 - 1500, y1 + 500), (x0 - 1500, y0 - 900), (x1 + 500, y0 - 900)]))
    playable = playable.intersection(board)
    for _k, a in anchors.items():
        if playable.distance(Point(a)) > 8:
            islands.append(Point(a).buffer(ISLAND, quad_segs=4))
    playable = unary_union([playable] + islands)
    land = unary_union([land_all] + islands).buffer(0)
    off = land_all.intersection(raw_off)

    # land zones: Voronoi cells around the anchors, on the playable land, within RADIUS
    ids = sorted(anchors)
    regions = []
    rest = playable
    for group in GROUPS:
        reg = unary_union([g for n in group for g in named.get(n, [])]).buffer(0)
        if reg.is_empty:
            continue
        reg = reg.intersection(playable).buffer(0)
        members = [k for k in ids if reg.buffer(1).contains(Point(anchors[k]))]
        if not members:
            continue
        regions.append((reg, members))
        rest = rest.difference(reg)
    grouped = {k for _, ms in regions for k in ms}
    regions.append((rest.buffer(0), [k for k in ids if k not in grouped]))
    cells = {}
    for reg, members in regions:
        if len(members) == 1:
            vcells = [reg]
        else:
            vor = shapely.voronoi_polygons(MultiPoint([anchors[k] for k in members]), extend_to=window)
            vcells = list(vor.geoms)
        for k in members:
            cell = next(c for c in vcells if c.contains(Point(anchors[k])) or len(vcells) == 1)
            g = cell.intersection(reg)
            if reg is regions[-1][0]:   # no group's border holds it: keep it near its city
                g = g.intersection(Point(anchors[k]).buffer(RADIUS, quad_segs=16))
            cells[k] = g.buffer(0)
    cov = shapely.coverage_simplify([cells[k] for k in ids], SIMPLIFY)
    cells = {k: g for k, g in zip(ids, cov)}
    # sea zones: Voronoi cells around the sea anchors, on the open water connected to them
    seas = {k: v for k, v in m["sea_zones"].items() if k != "provenance"}
    sanchors = {k: project(*v["at"]) for k, v in seas.items()}
    water = window.difference(land)
    water = unary_union([p for p in polys(water) if any(p.contains(Point(a)) for a in sanchors.values())
                         or p.area > 2_000_000])
    sids = sorted(sanchors)
    svor = shapely.voronoi_polygons(MultiPoint([sanchors[k] for k in sids]), extend_to=window)
    scells = {}
    for cell in svor.geoms:
        for k in sids:
            if cell.contains(Point(sanchors[k])):
                scells[k] = cell.intersection(water).buffer(0)
    # a cell's water cut off from its anchor by land (the Tyrrhenian in the Adriatic's cell)
    # goes to the sea zone it borders most
    orphans = []
    for k in sids:
        parts = polys(scells[k])
        main_ = next((p for p in parts if p.buffer(1).contains(Point(sanchors[k]))), max(parts, key=lambda p: p.area))
        orphans += [p for p in parts if p is not main_ and p.area > 1]
        scells[k] = main_
    for o in sorted(orphans, key=lambda p: -p.area):
        best = max(sids, key=lambda j: (o.buffer(1).intersection(scells[j].buffer(1)).area, j))
        if o.buffer(1).intersects(scells[best]):
            scells[best] = unary_union([scells[best], o]).buffer(0)
    # borders
    borders = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if not cells[a].intersects(cells[b]):
                continue
            ln = cells[a].boundary.intersection(cells[b].boundary)
            for flat in lines(ln):
                borders.append([a, b, flat])
    sea_borders = []
    for i, a in enumerate(sids):
        for b in sids[i + 1:]:
            ln = scells[a].boundary.intersection(scells[b].boundary).difference(land.buffer(2))
            for flat in lines(ln):
                sea_borders.append([a, b, flat])
    thick = []
    for k in ids:
        for s in zones[k].get("thick", []):
            ln = cells[k].boundary.intersection(scells[s].buffer(30)).difference(
                unary_union([cells[o] for o in ids if o != k]).buffer(1))
            for flat in lines(ln):
                thick.append([k, s, flat])
    out = {
        "schema": "pbem/blitzwar-outline/v1",
        "provenance": {
            "outline": {"status": "public", "source": "Natural Earth 1:50m Cultural Vectors, admin-0 countries, "
                        "version 4.1.0, as TopoJSON in the npm package world-atlas 2.0.2 (countries-50m.json)",
                        "license": "public domain (Natural Earth terms of use: all Natural Earth vector and raster data "
                        "are in the public domain; naturalearthdata.com/about/terms-of-use)",
                        "note": "countries dissolved into land, projected, clipped to the picture's window, "
                        f"simplified by {SIMPLIFY:g} km, rounded to 1 km; off_board: Portugal, Ireland, Switzerland, "
                        "Iceland, Iran, Arabia and the lands beyond the board's edges"},
            "zones": {"status": "provisional", "note": "derived for pbem by tools/build_blitzwar_outline.py: Voronoi "
                      f"cells around the zone anchors (map.yaml `at`) on the playable land (west of 60 E, north of 27 N), "
                      "within today's borders where those are close to 1939's (France, Spain, Italy, the Low Countries, "
                      "Scandinavia, the Balkans, Hungary, Romania, Czechoslovakia, Austria, North Africa, the Levant, "
                      f"Iraq), elsewhere within {RADIUS:g} km of the anchor, "
                      f"simplified by {SIMPLIFY:g} km; a zone the land misses (Malta) gets an island of "
                      f"{ISLAND:g} km; not the printed map's zone boundaries"},
            "seas": {"status": "provisional", "note": "derived likewise: Voronoi cells around the sea anchors on the "
                     "open water"},
        },
        "projection": {"kind": "lambert-conformal-conic", "sphere_km": 6371, "lat1": 40, "lat2": 60, "lat0": 50,
                       "lon0": 15, "unit": "km", "y": "south"},
        "view": list(VIEW),
        "land": rings(land, 20),
        "off_board": rings(off, 200),
        "zones": {k: {"rings": rings(cells[k], 1), "label": label_point(cells[k], anchors[k])} for k in ids},
        "seas": {k: {"rings": rings(scells[k], 100), "label": sea_label(scells[k], sanchors[k], anchors)} for k in sids},
        "borders": borders,
        "sea_borders": sea_borders,
        "thick": thick,
    }
    for k in ids:
        assert out["zones"][k]["rings"], f"zone {k} has no land"
    text = "{\n" + ",\n".join(_entry(k, v) for k, v in out.items()) + "\n}\n"
    (ROOT / "scenarios/blitzwar/outline.json").write_text(text, encoding="utf-8")
    print(f"wrote scenarios/blitzwar/outline.json ({len(text)} bytes)")


def _entry(k, v) -> str:
    dump = lambda x: json.dumps(x, separators=(",", ":"), sort_keys=True, ensure_ascii=False)  # noqa: E731
    if isinstance(v, dict) and k in ("zones", "seas"):
        return f" {json.dumps(k)}: {{\n" + ",\n".join(f"  {json.dumps(z)}: {dump(g)}" for z, g in v.items()) + "\n }"
    if isinstance(v, list) and v and isinstance(v[0], list):
        return f" {json.dumps(k)}: [\n" + ",\n".join(f"  {dump(x)}" for x in v) + "\n ]"
    return f" {json.dumps(k)}: {dump(v)}"


if __name__ == "__main__":
    main(sys.argv[1])
