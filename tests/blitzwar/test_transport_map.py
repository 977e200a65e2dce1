"""Sea transport on the map and in the report (14, issue 20 "what the players see"): a shipment
and a landing are arrows from the port, a unit on a beachhead an L mark at the zone, a unit
lost off a beachhead an X; each event has its report line."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.blitzwar.describe import describe
from pbem.blitzwar.draw import draw_map
from pbem.blitzwar.stepmarks import MARKS
from pbem.core.campaign import load_state_file
from pbem.core.data import load_ruleset

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blitzwar-1939"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("blitzwar-1939")[1]


@pytest.fixture(scope="module")
def last_state():
    steps = sorted(p for p in (EXAMPLE / "steps").iterdir() if p.is_dir())
    return load_state_file(next(steps[-1].glob("bw39-*.yaml")))[0]


def ev(type_, phase, **kw) -> dict:
    return {"type": type_, "turn": 8, "phase": phase, **kw}


def find(tree, *cls: str) -> list:
    return [el for el in tree.iter() if set(cls) <= set((el.get("class") or "").split())]


def draw(rs, state, events):
    return ET.fromstring(draw_map(rs, state, {"step": 99, "stopped": "complete", "events": events}))


SHIP = ev("sea-transport", "axis.6.sea-transport", counter="ger-s4-1", path=["naples", "tripoli"], seas=1, kind="port",
          rule="14.1.1")
LAND = ev("landing", "allies.6.sea-transport", counter="us-arm-1", path=["scapa-flow", "trondheim"], sea="norwegian-sea",
          corps=2, rule="14.1.2")
LOST = ev("beachhead-lost", "allies.6.sea-transport", counter="uk-i1-3", zone="narvik", sea="norwegian-sea",
          why="no beachhead serves the zone this turn", rule="14.1.2")


@pytest.mark.parametrize("event,cls,frm,to", [(SHIP, "sea-transport", "naples", "tripoli"),
                                              (LAND, "landing", "scapa-flow", "trondheim")], ids=["port", "landing"])
def test_shipments_and_landings_are_arrows(rs, last_state, event, cls, frm, to):
    tree = draw(rs, last_state, [ev("phase", event["phase"]), event])
    arrows = find(tree, "arrow", cls)
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [(frm, to)]


@pytest.mark.parametrize("event,zone,mark", [(LAND, "trondheim", "landing"), (LOST, "narvik", "eliminated")],
                         ids=["on-beachhead", "lost"])
def test_beachhead_marks(rs, last_state, event, zone, mark):
    tree = draw(rs, last_state, [event])
    assert {(el.get("data-zone"), el.get("data-mark")) for el in find(tree, "mark")} == {(zone, mark)}
    assert mark in MARKS


def test_report_lines(rs):
    assert describe(rs, SHIP) == ["ger-s4-1 shipped Naples - Tripoli (1 sea zone): no further move this turn (14.1.1)"]
    assert "lands from Scapa Flow on the beachhead at Trondheim" in describe(rs, LAND)[0]
    assert "is lost: no beachhead serves the zone this turn" in describe(rs, LOST)[0]
