"""What the players see of the naval phase (12) on the map and in `pbem show`: the sea control in
force under each sea zone's name (12.3), the fleet moves of the step as arrows (12.1) and its naval
battles as N marks in their sea zones (12.2), with the losses' marks."""
from __future__ import annotations

import re
from pathlib import Path

from pbem.blitzwar.cases import kit
from pbem.blitzwar.draw import draw_map
from pbem.blitzwar.text import summary_lines
from pbem.core.cases import load_case

CASES = Path(__file__).resolve().parents[1] / "cases" / "blitzwar" / "naval"


def _run(name: str):
    k = kit()
    case = load_case(CASES / name)
    rs, st = k.setup(case)
    out = k.adjudicate(rs, st, [k.submission(st, o) for o in case["orders"]], k.dice(case.get("dice") or {}))
    return rs, out


def test_the_step_map_shows_fleet_moves_battles_and_sea_control():
    rs, out = _run("12.2-naval-combat.yaml")
    svg = draw_map(rs, out.state, report={"events": out.events, "turn": 2, "phase": "allies.4.naval"})
    assert len(re.findall(r"arrow move naval", svg)) == 2
    assert 'class="mark naval-battle"' in svg or "mark naval-battle" in svg
    assert "North Atlantic: sea control of the allies (12.3)" in svg
    assert 'data-mark="eliminated"' in svg


def test_show_lists_the_sea_control_and_the_ships_at_sea():
    rs, out = _run("12.3-sea-control.yaml")
    lines = summary_lines(rs, out.state)
    assert "sea control (12.3): Baltic Sea axis, North Atlantic allies, Norwegian Sea allies" in lines
    assert any(x.startswith("  north-atlantic: ger-u1-1") for x in lines)


def test_no_sea_control_draws_nothing_new():
    rs, out = _run("12.1-refused-moves.yaml")
    k = kit()
    case = load_case(CASES / "12.1-refused-moves.yaml")
    _, st = k.setup(case)
    assert "sea-control" not in draw_map(rs, st)
