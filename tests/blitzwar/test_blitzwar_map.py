"""The BlitzWAR map picture (issue 11, `pbem map`): its structure parsed from the SVG, its
determinism, its data (the Natural Earth outline and the derived zones), and a PNG smoke test.

The positions are built here from the 1939 set-up (19) in the shape documented in
pbem/blitzwar/context.py, so that the picture is tested without the play."""
from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from pbem.blitzwar.context import axis_points
from pbem.blitzwar.draw import draw_map
from pbem.blitzwar.draw_base import OUTLINE_FILE, outline, project
from pbem.blitzwar.world import NOTATION, Placement
from pbem.core.data import data_root, load_ruleset

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("blitzwar-1939")[1]


def setup_state(rs) -> dict:
    """A position from the set-up: each nation's units in a zone grouped into counters of at most
    3 corps (air, fleets and U-boats 2, supply all in one), Poland by its default placement."""
    places = list(rs.placements)
    for ch in rs.choices:
        for z, u in sorted(ch["default"]["zones"].items()):
            places.append(Placement(ch["nation"], z, {k: int(v) for k, v in u.items() if k in NOTATION}))
    counters: dict[str, dict] = {}
    n: Counter = Counter()
    for p in places:
        for letter in sorted(p.units):
            t = NOTATION[letter]
            left = p.units[letter]
            while left > 0:
                take = left if t == "supply" else min(left, 3 if t in ("infantry", "armour") else 2)
                left -= take
                n[p.nation] += 1
                counters[f"{p.nation.lower()}-{n[p.nation]:03d}"] = {"nation": p.nation, "type": t, "units": take,
                                                                      "at": p.zone}
    return {"schema": "pbem/blitzwar-state/v1", "game": "blitzwar", "campaign": "test", "scenario": rs.scenario_id,
            "turn": 1, "phase": "1.diplomacy", "awaiting": [{"player": p, "for": "orders"} for p in ("axis", "allies", "ussr")],
            "sides": {"axis": "axis", "allies": "allies", "ussr": "ussr"}, "counters": counters, "control": {},
            "supply": {"axis": "20", "allies": "12.5", "ussr": "10"}, "war": {}, "marks": [], "flags": {},
            "cards": {"axis": {"queue": ["sealed-a", "sealed-b"], "used": ["axis-l1"]},
                      "allies": {"queue": ["sealed-c"], "used": []}, "ussr": {"queue": [], "used": []}}}


def with_extras(st: dict) -> dict:
    st = copy.deepcopy(st)
    c = st["counters"]
    c["ger-900"] = {"nation": "GER", "type": "infantry", "units": 2, "at": "pool"}
    c["pol-900"] = {"nation": "POL", "type": "armour", "units": 1, "at": "pool"}
    c["us-900"] = {"nation": "US", "type": "infantry", "units": 3, "at": "america"}
    c["us-901"] = {"nation": "US", "type": "infantry", "units": 3, "at": "out"}
    c["uk-900"] = {"nation": "UK", "type": "fleet", "units": 2, "at": "north-sea"}
    c["ger-901"] = {"nation": "GER", "type": "white-tank", "units": 3, "infantry": 1, "armour": 2, "at": "berlin",
                    "elite": True, "out_of_supply": True}
    st["control"] = {"warsaw": "axis", "paris": "axis"}
    return st


@pytest.fixture(scope="module")
def state(rs):
    return with_extras(setup_state(rs))


@pytest.fixture(scope="module")
def svg(rs, state):
    return draw_map(rs, state, None)


@pytest.fixture(scope="module")
def tree(svg):
    return ET.fromstring(svg)


def classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def find(tree, cls: str) -> list:
    return [el for el in tree.iter() if cls in classes(el)]


def test_every_land_zone_drawn_once_with_its_name(rs, tree):
    zones = Counter(el.get("data-zone") for el in find(tree, "zone"))
    assert set(zones) == set(rs.zones) and set(zones.values()) == {1}
    names = {el.get("data-zone"): el.text for el in find(tree, "zone-name")}
    assert names == {z.id: (f"{z.name} box" if z.box else z.name) for z in rs.zones.values()}
    # control and terrain classes come from the position and the map
    warsaw = next(el for el in find(tree, "zone") if el.get("data-zone") == "warsaw")
    assert "control-axis" in classes(warsaw) and warsaw.get("data-control") == "axis"
    for el in find(tree, "zone"):
        z = rs.zones[el.get("data-zone")]
        if not z.box:
            assert f"terrain-{z.terrain}" in classes(el) and f"country-{z.country}" in classes(el)


def test_every_sea_zone_drawn_once_with_its_name(rs, tree):
    seas = Counter(el.get("data-sea") for el in find(tree, "sea-zone"))
    assert set(seas) == set(rs.seas) and set(seas.values()) == {1}
    names = {el.get("data-sea"): el.text for el in find(tree, "sea-name")}
    assert names == {s.id: s.name.upper() for s in rs.seas.values()}


def test_counters_per_zone_match_the_position(state, tree):
    want = Counter(c["at"] for c in state["counters"].values() if c["at"] != "out")
    drawn = Counter(el.get("data-at") for el in find(tree, "counter") if not el.get("data-counter", "").startswith("legend-"))
    assert drawn == want
    ids = [el.get("data-counter") for el in find(tree, "counter") if not el.get("data-counter").startswith("legend-")]
    assert len(ids) == len(set(ids))
    berlin = next(el for el in find(tree, "counter") if el.get("data-counter") == "ger-901")
    assert {"type-white-tank", "side-axis", "nation-GER", "elite", "out-of-supply"} <= classes(berlin)
    assert berlin.get("data-units") == "1+2"
    # the readable stack: nation and corps written on the counter
    texts = [t.text for t in berlin.iter(f"{SVG_NS}text")]
    assert "GER" in texts and "1+2" in texts
    # a stack per place that holds counters, the pool in the panel
    stacks = {el.get("data-at") for el in find(tree, "stack")}
    assert stacks == {a for a in want if a != "pool"}
    pool = {el.get("data-nation") for el in find(tree, "pool")}
    assert pool == {"GER", "POL"}


def test_marks_links_and_straits(rs, tree):
    def zones_with(cls):
        return {el.get("data-zone") for el in find(tree, cls)}
    assert zones_with("strategic") == {z.id for z in rs.zones.values() if z.strategic and not z.box}
    assert zones_with("supply-source") == {z.id for z in rs.zones.values() if z.supply_source and not z.box}
    assert zones_with("fortress") == {z.id for z in rs.zones.values() if z.fortress and not z.box}
    assert zones_with("naval-base") == {z.id for z in rs.zones.values() if z.naval_base and not z.box}
    assert zones_with("port") == {z.id for z in rs.zones.values() if z.port and not z.naval_base and not z.box}
    links = {frozenset(el.get("data-zones").split()) for el in find(tree, "link")}
    want = {frozenset((z.id, o)) for z in rs.zones.values() for o in z.links
            if not z.box and not rs.zones[o].box}
    assert links == want
    blue = {frozenset(el.get("data-zones").split()) for el in find(tree, "blue-link")}
    assert blue == {frozenset((z.id, o)) for z in rs.zones.values() for o in z.blue if o not in z.links
                    and not z.box and not rs.zones[o].box}
    assert {el.get("data-strait") for el in find(tree, "strait")} == set(rs.straits)
    assert find(tree, "fortress-line") and find(tree, "coast-thick") and find(tree, "river")


def test_panel_blocks(rs, state, tree):
    blocks = {el.get("data-block") for el in find(tree, "panel-block")}
    assert blocks == {"calendar", "track", "supply", "cards", "pools", "legend"}
    turn = find(tree, "calendar-turn")[0]
    assert turn.get("data-turn") == "1" and "summer 1939" in turn.text
    assert find(tree, "calendar-weather")[0].get("data-weather") == "fine"
    assert find(tree, "calendar-phase")[0].text == "phase 1.diplomacy; awaiting axis, allies, ussr"
    nxt = [el.get("data-mark") for el in find(tree, "calendar-mark-turn")]
    assert nxt and nxt[0] == rs.turns[12].marks[0]
    cur = find(tree, "current")
    assert len(cur) == 1 and cur[0].get("data-points") == str(axis_points(rs, state))
    assert axis_points(rs, state) == sum(1 for z in rs.zones.values() if z.strategic and
                                         state["control"].get(z.id, z.control) == "axis")
    assert {el.get("data-side"): el.get("data-supply") for el in find(tree, "supply-bar")} == \
        {"axis": "20", "allies": "12.5", "ussr": "10"}
    down = Counter(el.get("data-side") for el in find(tree, "face-down"))
    assert down == {"axis": 2, "allies": 1}
    assert [el.get("data-card") for el in find(tree, "face-up")] == ["axis-l1"]
    # the sealed ids never show
    assert "sealed-a" not in ET.tostring(tree, encoding="unicode")
    assert find(tree, "pool-out")[0].get("data-count") == "1"


def test_same_input_same_bytes_and_scale(rs, state, svg):
    assert draw_map(rs, copy.deepcopy(state), None) == svg
    shuffled = dict(state, counters=dict(reversed(list(state["counters"].items()))))
    assert draw_map(rs, shuffled, None) == svg
    big = ET.fromstring(draw_map(rs, state, None, scale=2))
    small = ET.fromstring(svg)
    assert float(big.get("width")) == pytest.approx(2 * float(small.get("width")), abs=0.2)


def test_the_parts_are_the_picture_and_what_repeats_is_drawn_once(rs, state, svg):
    """The picture as parts (issue 33: the campaign book draws a map a step): their lines joined
    are draw_map's SVG; the pieces that do not depend on what changed are the very same objects
    the next time (drawn once, the book writes them once); a position drawn after another is
    the picture drawn afresh, byte for byte (each piece remembered by all it depends on)."""
    from pbem.blitzwar import draw_base
    from pbem.blitzwar.draw import draw_map_parts
    from pbem.core.mapdraw import Shared, draw_parts
    parts = draw_map_parts(rs, state, None)
    assert "\n".join(parts) == svg and "\n".join(draw_parts(state)) == svg
    shared = [p for p in parts if isinstance(p, Shared)]
    assert sum(map(len, shared)) > 0.9 * len(svg)
    for p in shared:      # whole elements: a book's page puts each back inside a group of its own
        ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{p}</g>')
    again = [p for p in draw_map_parts(rs, copy.deepcopy(state), None) if isinstance(p, Shared)]
    assert len(again) == len(shared) and all(a is b for a, b in zip(again, shared))
    other = copy.deepcopy(state)
    other["control"]["berlin"] = "allies"                        # a zone's colour, its name's
    other["counters"]["ger-900"]["at"] = "warsaw"                # a stack, the pool
    other["counters"]["uk-900"]["units"] = 1                     # a counter at sea
    other["sea_air"] = {"sea_control": {"north-sea": "axis"}}    # 12.3
    other["supply"] = {"axis": "7", "allies": "3/2"}
    other["war"] = dict(other.get("war") or {}, ITA="axis")      # a nation's side: its counters' colour
    moved = draw_map_parts(rs, other, None)
    base = [p for p in moved if isinstance(p, Shared) and "class=\"borders\"" in p]
    assert len(base) == 1 and any(base[0] is p for p in shared)
    draw_base._MEMOS.clear()
    fresh = draw_map(rs, other, None)
    assert "\n".join(moved) == fresh != svg
    assert draw_map(rs, state, None) == svg



def test_pieces_kept_for_one_scale_are_never_drawn_at_another(rs, state):
    """The pieces are kept per ruleset, outline and scale (draw_base.memo_for): pictures of two
    positions at two scales drawn in turn in one process (a book, then a mailed preview) are
    those drawn with nothing kept, byte for byte."""
    from pbem.blitzwar import draw_base
    other = copy.deepcopy(state)
    other["control"]["berlin"] = "allies"
    other["counters"]["ger-900"]["at"] = "warsaw"
    fresh = {}
    for i, st in enumerate((state, other)):
        for scale in (1.0, 0.5):
            draw_base._MEMOS.clear()
            fresh[i, scale] = draw_map(rs, st, None, scale=scale)
    draw_base._MEMOS.clear()
    for i, scale in ((0, 0.5), (1, 1.0), (1, 0.5), (0, 1.0), (0, 0.5)):
        assert draw_map(rs, (state, other)[i], None, scale=scale) == fresh[i, scale], (i, scale)

def test_through_the_core(state):
    from pbem.core.mapdraw import draw_state
    assert draw_state(state).startswith("<svg")


def test_outline_data_and_provenance(rs):
    geo = json.loads((data_root() / OUTLINE_FILE).read_text(encoding="utf-8"))
    assert outline(rs) == geo
    prov = geo["provenance"]
    assert prov["outline"]["status"] == "public" and "Natural Earth" in prov["outline"]["source"]
    assert "public domain" in prov["outline"]["license"]
    assert prov["zones"]["status"] == prov["seas"]["status"] == "provisional"
    assert set(geo["zones"]) == {z.id for z in rs.zones.values() if not z.box}
    assert set(geo["seas"]) == set(rs.seas)
    x0, y0, x1, y1 = geo["view"]
    for z in rs.zones.values():
        if not z.box:
            x, y = project(z.lat, z.lon)
            assert x0 < x < x1 and y0 < y < y1, z.id
            assert geo["zones"][z.id]["rings"], z.id
    # recognisable coasts: the dissolved land of Europe, Africa and Asia has many vertices
    assert sum(len(r) for poly in geo["land"] for r in poly) // 2 > 3000


def test_png_smoke(svg):
    try:
        from pbem.core.png import png_converter, svg_to_png
    except ImportError:   # before the core's drawing helpers were split by concern
        from pbem.core.mapdraw import png_converter, svg_to_png
    if png_converter() is None:
        pytest.skip("no SVG to PNG converter here (cairosvg, rsvg-convert, inkscape)")
    assert svg_to_png(svg).startswith(b"\x89PNG\r\n\x1a\n")
