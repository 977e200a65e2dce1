"""Each game's event types are listed in its report schema (schemas/<game>-report.schema.json),
every type listed has wording (the game's one table, or the core's for the kernel's own events),
every type the rules write and every type in the example archives is listed, and every example
report validates against its game's report schema (issue 18)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.core.report import _core_event
from pbem.core.schema import load_schema, validate

ROOT = Path(__file__).resolve().parents[1]


def _table(game: str) -> dict:
    if game == "blitzwar":
        from pbem.blitzwar.describe import EVENTS
        return EVENTS
    from pbem.bfg.describe import RENDERERS
    return RENDERERS


def _listed(game: str) -> list[str]:
    return load_schema(f"{game}-report")["properties"]["events"]["items"]["properties"]["type"]["enum"]


def _worded_by_core(t: str) -> bool:
    """The core words ``t``: its text reads the event's fields (an event of a type the core
    leaves to the game gives None without reading any)."""
    try:
        return _core_event({"type": t}) is not None
    except (KeyError, TypeError, AttributeError):
        return True


def _example_reports(game: str) -> list[Path]:
    out = []
    for p in sorted((ROOT / "examples").glob("*/steps/*/report.json")):
        if json.loads(p.read_text("utf-8"))["game"] == game:
            out.append(p)
    return out


GAMES = ("blitzwar", "bfg")


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_type_has_wording(game):
    table = _table(game)
    unworded = [t for t in _listed(game) if t not in table and not _worded_by_core(t)]
    assert not unworded, f"{game}: listed in schemas/{game}-report.schema.json without wording: {unworded}"
    assert _listed(game) == sorted(set(_listed(game)))


@pytest.mark.parametrize("game", GAMES)
def test_every_worded_type_is_listed(game):
    missing = sorted(set(_table(game)) - set(_listed(game)))
    assert not missing, f"{game}: worded but not in schemas/{game}-report.schema.json: {missing}"


def test_the_core_types_are_the_same_in_every_game():
    core = [{t for t in _listed(g) if t not in _table(g)} for g in GAMES]
    assert core[0] == core[1]
    assert all(_worded_by_core(t) for t in core[0])


@pytest.mark.parametrize("game", GAMES)
def test_every_type_the_rules_write_is_listed(game):
    """Every ``emit("...")`` and literal ``{"type": "..."}`` event of the game's rule modules (and the
    kernel's ``phase``) is listed."""
    written = {"phase"}
    for p in (ROOT / "pbem" / game).glob("*.py"):
        text = p.read_text("utf-8")
        written |= set(re.findall(r'\bemit\(\s*"([a-z][a-z0-9-]*)"', text))
        written |= set(re.findall(r'append\(\{"type": "([a-z][a-z0-9-]*)"', text))
    missing = sorted(written - set(_listed(game)))
    assert not missing, f"{game}: written by the rules but not in schemas/{game}-report.schema.json: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_example_reports_use_listed_types_and_validate(game):
    reports = _example_reports(game)
    assert reports
    listed = set(_listed(game))
    for p in reports:
        report = json.loads(p.read_text("utf-8"))
        unknown = sorted({e["type"] for e in report["events"]} - listed)
        assert not unknown, f"{p.relative_to(ROOT)}: event types not in schemas/{game}-report.schema.json: {unknown}"
        issues = validate(report, f"{game}-report")
        assert issues == [], f"{p.relative_to(ROOT)}:\n" + "\n".join(i.format() for i in issues)


def test_a_report_of_an_unknown_event_type_is_refused():
    p = _example_reports("blitzwar")[0]
    report = json.loads(p.read_text("utf-8"))
    report["events"].append({"type": "no-such-event", "turn": 1, "phase": "1.diplomacy"})
    assert [i.code for i in validate(report, "blitzwar-report")]


def test_blitzwar_map_marks_are_drawn():
    """Every lettered mark and arrow style the BlitzWAR registry names is one stepmarks draws."""
    from pbem.blitzwar.describe import EVENTS, arrow_of, marks_of
    from pbem.blitzwar.stepmarks import ARROWS, MARKS
    from pbem.core.data import load_ruleset
    rs = load_ruleset("blitzwar-1939")[1]
    seen_marks, seen_arrows = set(), set()
    for t, e in EVENTS.items():
        for kind in ("tactical", "strategic", "out-of-supply"):
            ev = {"type": t, "zone": "warsaw", "to": "lodz", "from": "krakow", "path": ["warsaw", "lodz"], "kind": kind,
                  "counter": "pol-1", "counters": ["pol-1"], "nation": "POL", "country": "POL", "placed": {"warsaw": {}},
                  "losses": [{"effect": "eliminated", "counter": "pol-1"}, {"effect": "reduced", "counter": "pol-2"}]}
            keys = [k for k, _, _ in marks_of(rs, ev)]
            assert bool(keys) == (e.marks is not None), t
            seen_marks |= set(keys)
            arrow = arrow_of(ev)
            assert (arrow is not None) == (e.arrow is not None), t
            if arrow:
                seen_arrows.add(arrow[2])
    assert seen_marks == set(MARKS), seen_marks ^ set(MARKS)
    assert seen_arrows == set(ARROWS)
