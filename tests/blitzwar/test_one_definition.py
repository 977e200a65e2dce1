"""One definition for each BlitzWAR notion, used by the rules and the map alike (issue 18): the
side a counter fights for and who are enemies (2, 9), a counter's corps (3, 4, 16.2), control
(5, 9), the strategic points (9.3, 16.3.2, 18) and surrender (9.2). The map and the rules agree
on control and on the strategic points in every state of every BlitzWAR example archive."""
from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.blitzwar import combat_common, context, diplomacy, land
from pbem.blitzwar.context import Ctx
from pbem.blitzwar.draw import draw_map
from pbem.core.data import load_ruleset
from pbem.core.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("blitzwar-1939")[1]


def _example_states() -> list[Path]:
    return sorted(p for p in ROOT.glob("examples/blitzwar-*/steps/*/*.yaml") if not p.name.startswith("orders-"))


def _positions() -> list[Path]:
    """One state file for each distinct position that control and the points depend on (the map
    is drawn once per position: drawing is the slow part)."""
    seen, out = set(), []
    for p in _example_states():
        st = load_yaml(p.read_bytes(), p.name).data
        if not str(st.get("schema", "")).startswith("pbem/state"):
            continue        # reveal files of a chain campaign, not states
        key = json.dumps([st.get("control"), st.get("war"), st.get("flags"), st.get("marks"), st.get("turn")], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _by_class(tree, cls: str) -> list:
    return [el for el in tree.iter() if cls in (el.get("class") or "").split()]


def _text(el) -> str:
    return "".join(el.itertext())


def _rules_points(rs, ctx: Ctx) -> dict[str, int]:
    """The strategic points as the rules count them: each strategic zone for the side the rules
    say controls it; the Axis' the recorded number of the German defence condition when there is
    one (ruling combat-r19)."""
    pts = {s: 0 for s in context.SIDES}
    for z in rs.zones.values():
        if z.strategic and land.control(ctx, z.id) in pts:
            pts[land.control(ctx, z.id)] += 1
    pts["axis"] = combat_common.axis_points(ctx)
    return pts


def _map_agrees(rs, state: dict) -> None:
    ctx = Ctx(rs=rs, state=state, turn=state["turn"], phase=state["phase"])
    tree = ET.fromstring(draw_map(rs, state, None))
    drawn = {el.get("data-zone"): el.get("data-control") for el in _by_class(tree, "zone")}
    assert drawn == {z: ctx.control(z) for z in rs.zones}
    assert drawn == {z: land.control(ctx, z) for z in rs.zones}
    pts = _rules_points(rs, ctx)
    assert [el.get("data-points") for el in _by_class(tree, "current")] == [str(pts["axis"])]
    [held] = _by_class(tree, "track-sides")
    assert _text(held) == "points held: " + ", ".join(f"{rs.side_titles.get(s, s)} {pts[s]}" for s in rs.side_order)


@pytest.mark.parametrize("path", _positions(), ids=lambda p: f"{p.parts[-4]}/{p.parts[-2]}")
def test_map_and_rules_agree_on_control_and_points(rs, path):
    _map_agrees(rs, load_yaml(path.read_bytes(), path.name).data)


def test_a_neutral_that_joined_a_side_is_that_side_for_map_and_rules(rs):
    """Issue 18: with Finland at war on the Axis side the map drew Helsinki, Kouvola and Karelia
    neutral while the rules said Axis (fixed: both read context.zone_control)."""
    p = _positions()[-1]
    st = copy.deepcopy(load_yaml(p.read_bytes(), p.name).data)
    st["war"]["FIN"] = "axis"
    _map_agrees(rs, st)
    ctx = Ctx(rs=rs, state=st, turn=st["turn"], phase=st["phase"])
    assert {ctx.control(z) for z in rs.country_zones("FIN")} == {"axis"}
    fin = next(c for c, v in st["counters"].items() if v["nation"] == "FIN")
    assert land.side_of(ctx, fin) == combat_common.side_of(ctx, fin) == ctx.side_of(fin) == "axis"


def test_the_rule_modules_use_the_one_definition():
    """No copies: the combat parts, the land rules and diplomacy read context.py's definitions."""
    assert combat_common.side_of is land.side_of
    assert combat_common.enemies is land.enemies is context.enemies
    assert combat_common.corps is context.corps and combat_common.n_corps is context.n_corps
    assert land.n_corps is context.n_corps and not hasattr(land, "corps")
    assert not hasattr(combat_common, "side_of_nation")


@pytest.mark.parametrize("war, side", [("axis", "axis"), ("allies", "allies"), ("neutral", "neutral"), (None, "allies")])
def test_a_counter_side_is_its_nations_war_state(rs, war, side):
    """2, 9: a nation's entry in ``war``, else its map side; an explicit neutral stays neutral
    (combat used to take the map side of a nation listed neutral)."""
    state = {"war": {} if war is None else {"FRA": war}, "counters": {"c": {"nation": "FRA"}}}
    ctx = Ctx(rs=rs, state=state, turn=1, phase="axis.9.combat")
    assert context.nation_side(rs, state, "FRA") == land.side_of(ctx, "c") == combat_common.side_of(ctx, "c") == side
    assert diplomacy.country_side(ctx, "FRA") == side


@pytest.mark.parametrize("a, b, want", [("axis", "allies", True), ("axis", "ussr", True), ("allies", "ussr", False),
                                        ("axis", "axis", False), ("axis", "neutral", False), ("neutral", "allies", False)])
def test_enemies(a, b, want):
    assert context.enemies(a, b) is want and context.enemies(b, a) is want


@pytest.mark.parametrize("c, split", [({"type": "infantry", "units": 3}, (3, 0)), ({"type": "armour", "units": 2}, (0, 2)),
                                      ({"type": "white-tank", "units": 3, "infantry": 1, "armour": 2}, (1, 2)),
                                      ({"type": "white-tank", "units": 2}, (1, 1)), ({"type": "air", "units": 1}, (0, 0))])
def test_corps_split_and_count(c, split):
    """3, 16.2: ``corps`` is (infantry, armour); ``n_corps`` their number (4: stacking by corps;
    7: a one-corps counter costs half a supply unit)."""
    assert context.corps(c) == split and context.n_corps(c) == sum(split)


def test_surrender_recorded_or_by_mark(rs):
    """9.2 and ruling combat-r1: a country has surrendered when the diplomacy phase recorded it
    (flags.surrendered) or the mark <code>-surrendered is reached; the record itself is the list."""
    state = {"flags": {"surrendered": ["FRA"]}, "marks": ["POL-surrendered"]}
    assert context.surrendered_countries(state) == ["FRA"]
    assert context.has_surrendered(rs, state, 1, "FRA") and context.has_surrendered(rs, state, 1, "POL")
    assert not context.has_surrendered(rs, state, 1, "BE")
    ctx = Ctx(rs=rs, state=state, turn=1, phase="1.diplomacy")
    assert combat_common.surrendered(ctx, "POL") and context.surrendered_countries(ctx.state) == ["FRA"]
