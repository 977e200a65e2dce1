"""The step on the BlitzWAR map (`pbem map --last` / `--report`, issue 16 item 1) and the one
definition of control and strategic points shared by the rules and the map (issue 18).

The SVG is parsed: every event kind the rule modules write gets its mark (an arrow, an attack
with its odds, column and result, an outline, a lettered disc), the legend explains every mark,
and the panel tells each phase of the step, also the phases of the players who did nothing."""
from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.blitzwar import combat_common
from pbem.blitzwar.context import Ctx
from pbem.blitzwar.draw import draw_map
from pbem.blitzwar.land import control as rules_control
from pbem.blitzwar.stepmarks import MARKS
from pbem.core.campaign import load_state_file
from pbem.core.data import load_ruleset

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "blitzwar-1939"
STEPS = sorted(p for p in (EXAMPLE / "steps").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("blitzwar-1939")[1]


@pytest.fixture(scope="module")
def last_state():
    return load_state_file(next(STEPS[-1].glob("bw39-*.yaml")))[0]


def classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def find(tree, *cls: str) -> list:
    return [el for el in tree.iter() if set(cls) <= classes(el)]


def text_of(el) -> str:
    """The text of an element; the wrapped lines of a panel row joined by a space."""
    return " ".join(t.strip() for t in el.itertext() if t.strip() and t.strip() != "\n")


def ev(type_, phase="axis.7.movement", **kw) -> dict:
    return {"type": type_, "turn": 8, "phase": phase, **kw}


def combat_event(phase="axis.9.combat", **kw) -> dict:
    e = {"combat": 1, "zone": "warsaw", "side": "axis", "defender": "allies",
         "attackers": [{"counter": "ger-i3-1", "from": "poznan", "corps": 3, "what": "GER infantry 3"},
                       {"counter": "ger-c2-1", "from": "lodz", "corps": 2, "what": "GER armour 2"}],
         "defenders": [{"counter": "pol-i2-1", "corps": 2, "what": "POL infantry 2"}],
         "attack": 5, "defence": 2, "odds": "5:2", "rule": "17.1", "base_column": "2-1", "eight_to_one": False,
         "shifts": [{"shift": 1, "reason": "armour among the attackers", "rule": "16.3.1"}], "net_shift": 1,
         "column": "3-1", "roll": {"label": "x/c1-warsaw/d6", "value": 4}, "result": "1/2", "provisional": []}
    e.update(kw)
    return ev("combat", phase, **e)


def draw(rs, state, events, step=99):
    return ET.fromstring(draw_map(rs, state, {"step": step, "stopped": "complete", "events": events}))


# ------------------------------------------------------------------ one mark per event kind
def _coast(rs):
    z = next(z for z in sorted(rs.zones.values(), key=lambda z: z.id) if z.coasts and not z.box)
    return z.id, sorted(z.coasts)[0]


ARROWS = [  # (event, the arrow's classes, from, to)
    (ev("move", counter="ger-i3-1", kind="tactical", path=["berlin", "poznan", "warsaw"]), ("arrow", "move", "tactical"), "berlin", "warsaw"),
    (ev("move", counter="ger-c1-3", kind="strategic", path=["berlin", "bremen", "cologne"]), ("arrow", "move", "strategic"), "berlin", "cologne"),
    (ev("move", "ussr.9.combat", counter="ussr-i3-1", kind="out-of-supply", path=["minsk", "smolensk"]), ("arrow", "move", "out-of-supply"), "minsk", "smolensk"),
    (ev("one-zone-move", "axis.8.blitz", counter="ger-c1-3", **{"from": "cologne"}, to="liege", cost="0.5", free=False, supply_left="3"),
     ("arrow", "move", "one-zone"), "cologne", "liege"),
    (ev("retreat", "axis.9.combat", combat=1, zone="krakow", to="lodz", counters=["pol-i2-3"]), ("arrow", "retreat"), "krakow", "lodz"),
    (ev("advance", "axis.9.combat", combat=1, counter="ger-c2-1", **{"from": "breslau"}, path=["krakow"]), ("arrow", "advance"), "breslau", "krakow"),
]


@pytest.mark.parametrize("event,cls,frm,to", ARROWS, ids=[" ".join(a[1][1:]) for a in ARROWS])
def test_an_arrow_for_every_move_retreat_and_advance(rs, last_state, event, cls, frm, to):
    tree = draw(rs, last_state, [ev("phase", event["phase"]), event])
    arrows = find(tree, *cls)
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [(frm, to)]
    assert find(arrows[0], "head")          # an arrowhead, not a bare line


def test_a_fleet_pushed_out_to_sea(rs, last_state):
    zone, sea = _coast(rs)
    tree = draw(rs, last_state, [ev("pushed-out", counter="uk-f2-1", zone=zone, to=sea, by="ger-c1-1")])
    assert [(a.get("data-from"), a.get("data-to")) for a in find(tree, "arrow", "pushed-out")] == [(zone, sea)]


def test_an_attack_shows_odds_column_result_and_where_from(rs, last_state):
    events = [ev("phase", "axis.8.blitz"), combat_event("axis.8.blitz", combat=2, reduced={"to": "0/1", "because": "defender one corps"}),
              ev("phase", "axis.9.combat"), combat_event(), combat_event(combat=2, zone="krakow", result="void", column=None,
                                                                         why="odds below 1-1", roll=None)]
    tree = draw(rs, last_state, events)
    groups = find(tree, "combat")
    assert [(g.get("data-zone"), g.get("data-result")) for g in groups] == [("warsaw", "1/2"), ("warsaw", "1/2"), ("krakow", "void")]
    assert {el.get("data-from") for el in find(groups[1], "attack-line")} == {"poznan", "lodz"}
    assert find(groups[1], "target")
    labels = [text_of(find(g, "combat-label-text")[0]) for g in find(tree, "combat-label")]
    assert labels == ["B2 5:2 3-1 1/2>0/1", "#1 5:2 3-1 1/2", "#2 5:2 void"]
    lines = [text_of(el) for el in find(tree, "combat-line")]
    joined = " ".join(lines)
    assert "B2 axis blitz on Warsaw" in joined and "#1 axis attack on Warsaw" in joined
    assert "column 2-1" in joined and "+1 armour among the attackers (16.3.1)" in joined and "die 4: 1/2" in joined
    assert "reduced to 0/1" in joined and "void: odds below 1-1" in joined


def test_control_changes_and_countries_outlined_and_marked(rs, last_state):
    events = [ev("control", "axis.9.combat", zone="warsaw", **{"from": "allies"}, to="axis", combat=1),
              ev("control", "axis.7.movement", zone="lwow", side="axis", before="ussr", by="ger-c1-1"),
              ev("surrender", "1.diplomacy", country="POL", side="allies", to="axis", why="x", removed=[],
                 control={"bialystok": "ussr", "krakow": "axis"}),
              ev("activated", "axis.8.blitz", country="BE", side="allies", why="attacked")]
    tree = draw(rs, last_state, events)
    assert {(el.get("data-zone"), el.get("data-control")) for el in find(tree, "control-change")} == \
        {("warsaw", "axis"), ("lwow", "axis"), ("bialystok", "ussr"), ("krakow", "axis")}
    marks = {(el.get("data-zone"), el.get("data-mark")) for el in find(tree, "mark")}
    assert (rs.countries["POL"].capital, "surrender") in marks and (rs.countries["BE"].capital, "joined") in marks


LETTERS = [  # (event, zone, mark)
    (ev("activate", counter="ger-i3-1", zone="breslau"), "breslau", "activate"),
    (ev("entrench", counter="ger-i3-1", zone="breslau"), "breslau", "entrench"),
    (ev("revert", counter="ger-i3-1", zone="breslau", paid="0"), "breslau", "revert"),
    (ev("reorganise", zone="berlin", counters=["ger-i3-1", "ger-i1-1"], into=["ger-i2-1"]), "berlin", "reorganise"),
    (ev("removed-by-owner", counter="ger-i1-1", zone="berlin"), "berlin", "taken-off"),
    (ev("removed", counter="ger-i1-1", zone="berlin", how="order", why="over the stacking limit"), "berlin", "eliminated"),
    (ev("destroyed", counter="pol-s1-1", zone="warsaw", by="ger-c1-1"), "warsaw", "eliminated"),
    (ev("out-of-supply", "axis.9.combat", counter="ger-i3-1", zone="warsaw"), "warsaw", "out-of-supply"),
    (ev("in-supply", "axis.9.combat", counter="ger-i3-1", zone="warsaw"), "warsaw", "in-supply"),
    (ev("air-loss", "axis.8.blitz", combat=1, zone="warsaw", counter="ger-a2-1", nation="GER"), "warsaw", "eliminated"),
    (ev("retreat-eliminated", "axis.9.combat", combat=1, zone="warsaw", counters=["pol-i2-1"]), "warsaw", "eliminated"),
    (ev("retreat-refused", "axis.9.combat", combat=1, zone="warsaw", how="extra loss"), "warsaw", "held"),
    (ev("fortress-line-destroyed", "axis.9.combat", combat=1, zone="nancy"), "nancy", "fortress-line"),
    (ev("losses", "axis.9.combat", combat=1, zone="warsaw", side="allies",
        losses=[{"counter": "pol-i2-1", "corps": "infantry", "effect": "reduced"}]), "warsaw", "reduced"),
    (ev("losses", "axis.9.combat", combat=1, zone="warsaw", side="allies",
        losses=[{"counter": "pol-i2-1", "corps": "infantry", "effect": "eliminated"}]), "warsaw", "eliminated"),
    (ev("replacements", "3.replacements", side="axis", nation="GER", zone="berlin", counters=["ger-i3-4"]), "berlin", "replacements"),
    (ev("minor-replacements", "3.replacements", nation="FRA", side="allies", zone="paris", counters=["fra-i2-2"]), "paris", "replacements"),
    (ev("replacements-not-held", "3.replacements", side="allies", nation="POL", zone="warsaw", units={"infantry": 1}), "warsaw", "not-held"),
    (ev("setup", "1.diplomacy", choice="poland", player="allies", placed={"warsaw": {"I": 2}}), "warsaw", "setup"),
    (ev("replacements", "3.replacements", side="allies", nation="US", zone="america", counters=["us-i3-1"]), "america", "replacements"),
]


@pytest.mark.parametrize("event,zone,mark", LETTERS, ids=[f"{e['type']}-{m}" for e, _, m in LETTERS])
def test_a_lettered_mark_for_what_happened_in_a_zone(rs, last_state, event, zone, mark):
    tree = draw(rs, last_state, [event])
    got = {(el.get("data-zone"), el.get("data-mark")) for el in find(tree, "mark")}
    assert got == {(zone, mark)}
    letter = text_of(find(find(tree, "mark")[0], "mark-letter")[0])
    assert letter == MARKS[mark][0]


def test_the_legend_explains_every_mark(rs, last_state):
    tree = draw(rs, last_state, [ev("phase")])
    legend = [text_of(el) for el in find(tree, "legend-label")]
    for letter, _, what in MARKS.values():
        assert f"{letter}: {what}" in legend
    for words in ("tactical move", "strategic move", "out-of-supply move", "one-zone move", "retreat",
                  "advance after combat", "pushed out to sea", "attack: from", "attacked zone", "changed hands"):
        assert any(words in lbl for lbl in legend), words
    # the map's own symbols and the letters on counters and cards are explained too
    assert any(lbl.startswith("letters:") for lbl in legend)


def test_without_a_report_no_step_marks(rs, last_state):
    tree = ET.fromstring(draw_map(rs, last_state, None))
    assert not find(tree, "arrow") and not find(tree, "mark") and not find(tree, "combat")
    assert "step" not in {el.get("data-block") for el in find(tree, "panel-block")}


# ------------------------------------------------------------------ every step of the example, and the rules' control
def _step(d: Path):
    state, _ = load_state_file(next(d.glob("bw39-*.yaml")))
    rp = d / "report.json"
    return state, (json.loads(rp.read_text(encoding="utf-8")) if rp.is_file() else None)


def _covering_steps() -> list[Path]:
    """The example's steps that together hold every event type it has (the first step holding
    each), with the first, the last and every eighth step: drawing all of its 100-odd steps
    took over a minute of the suite for no type more."""
    picked, seen = {STEPS[0], STEPS[-1], *STEPS[::8]}, set()
    for d in STEPS:
        rp = d / "report.json"
        types = {e["type"] for e in json.loads(rp.read_text(encoding="utf-8"))["events"]} if rp.is_file() else set()
        if types - seen:
            picked.add(d)
            seen |= types
    return sorted(picked)


COVERING = _covering_steps()


@pytest.mark.parametrize("d", COVERING, ids=[d.name for d in COVERING])
def test_every_example_step_marked_and_control_as_the_rules(rs, d):
    """`--last` after the steps of examples/blitzwar-1939 that hold every kind of event, each
    player's phases among them: the panel tells every phase (saying so where nothing happened),
    every attack is on the map and in the list; and the map's control and strategic points are
    the rules' own (5, 9, 18)."""
    state, report = _step(d)
    tree = ET.fromstring(draw_map(rs, state, report))
    _control_as_the_rules(rs, state, tree)
    if report is None:     # the initial state
        assert not find(tree, "arrow") and not find(tree, "mark")
        return
    block = [el for el in find(tree, "panel-block") if el.get("data-block") == "step"]
    assert len(block) == 1 and block[0].get("data-step") == str(report["step"])
    phases = [e["phase"] for e in report["events"] if e["type"] == "phase"]
    heads = [text_of(el) for el in find(tree, "step-phase")]
    assert len(heads) == len(phases)
    body = " ".join(text_of(el) for el in find(block[0], "step-event"))
    quiet = [p for i, p in enumerate(phases) if not _said(report["events"], p, i)]
    assert body.count("nothing done in this phase") == len(quiet)
    if not phases:     # a step that only received orders (or one answer of several awaited) says so
        assert "received" in body or "sealed" in body or "answered" in body
    n_combats = sum(1 for e in report["events"] if e["type"] == "combat")
    assert len(find(tree, "combat-label")) == len(find(tree, "combat-line")) == n_combats


def _control_as_the_rules(rs, state, tree) -> None:
    ctx = Ctx(rs=rs, state=state, turn=state["turn"], phase=state["phase"])
    drawn = {el.get("data-zone"): el.get("data-control") for el in find(tree, "zone")}
    assert drawn == {z: rules_control(ctx, z) for z in rs.zones}
    cur = find(tree, "track-box", "current")
    assert [el.get("data-points") for el in cur] == [str(combat_common.axis_points(ctx))]


def _said(events, phase, index) -> bool:
    """Whether the index-th phase heading of the report is followed by an event of its own."""
    k = -1
    for i, e in enumerate(events):
        if e["type"] == "phase":
            k += 1
            if k == index:
                nxt = events[i + 1] if i + 1 < len(events) else None
                return nxt is not None and nxt["type"] != "phase" and nxt["phase"] == phase
    return False


def test_a_neutral_that_joined_the_axis_is_axis_on_the_map_as_in_the_rules(rs, last_state):
    """Issue 18: Finland at war on the Axis side: Helsinki, Kouvola and Karelia are Axis-held
    for the rules (5, 9) and so on the map, and the track counts them as the rules do."""
    st = copy.deepcopy(last_state)
    st["war"]["FIN"] = "axis"
    ctx = Ctx(rs=rs, state=st, turn=st["turn"], phase=st["phase"])
    fin = [z for z in rs.country_zones("FIN")]
    assert fin and all(rules_control(ctx, z) == "axis" for z in fin)
    tree = ET.fromstring(draw_map(rs, st, None))
    drawn = {el.get("data-zone"): el.get("data-control") for el in find(tree, "zone")}
    assert {z: drawn[z] for z in fin} == {z: "axis" for z in fin}
    cur = find(tree, "track-box", "current")
    assert cur[0].get("data-points") == str(combat_common.axis_points(ctx))
    # the counters of a nation that joined are drawn on its side
    fin_counters = [el for el in find(tree, "counter") if el.get("data-nation") == "FIN"]
    assert fin_counters and all("side-axis" in classes(el) for el in fin_counters)
    # the track's number a case or a position sets (flags.axis_strategic_points) is the track's too
    st["flags"]["axis_strategic_points"] = 31
    tree = ET.fromstring(draw_map(rs, st, None))
    assert find(tree, "track-box", "current")[0].get("data-points") == "31"


def test_map_last_after_a_soviet_move_marks_it(tmp_path):
    """Issue 16: `--last` after a Soviet move marked nothing. Through the command, with the
    report of a Soviet movement phase: the moves are arrows, the activation a mark, and the
    panel tells the phase."""
    from click.testing import CliRunner

    from pbem.cli import main
    state_file = next(STEPS[-1].glob("bw39-*.yaml"))
    report = {"schema": "pbem/report/v1", "game": "blitzwar", "campaign": "bw39", "step": 48, "stopped": "complete",
              "events": [ev("phase", "ussr.7.movement", turn=8),
                         ev("move", "ussr.7.movement", counter="ussr-i3-1", kind="tactical", path=["kiev", "zhitomir"]),
                         ev("move", "ussr.7.movement", counter="ussr-i3-4", kind="strategic", path=["moscow", "smolensk", "minsk"]),
                         ev("activate", "ussr.7.movement", counter="ussr-i3-2", zone="zhitomir"),
                         ev("phase", "ussr.8.blitz", turn=8), ev("phase", "ussr.9.combat", turn=8)]}
    rp = tmp_path / "report.json"
    rp.write_text(json.dumps(report), encoding="utf-8")
    out = tmp_path / "m.svg"
    r = CliRunner().invoke(main, ["map", str(state_file), "--report", str(rp), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    tree = ET.fromstring(out.read_text(encoding="utf-8"))
    assert {(a.get("data-from"), a.get("data-to")) for a in find(tree, "arrow", "move")} == \
        {("kiev", "zhitomir"), ("moscow", "minsk")}
    assert {(m.get("data-zone"), m.get("data-mark")) for m in find(tree, "mark")} == {("zhitomir", "activate")}
    heads = [text_of(el) for el in find(tree, "step-phase")]
    assert heads == ["turn 8: USSR movement phase (15): entrenching, strategic movement, tactical movement and activation",
                     "turn 8: USSR blitz phase (16)", "turn 8: USSR normal combat phase (17)"]
    assert " ".join(text_of(el) for el in find(tree, "step-event")).count("nothing done in this phase") == 2


def test_map_step_n_draws_that_step_with_its_marks(tmp_path):
    """`pbem map CAMPAIGN --step N`: the state step N made, with that step marked; a step the
    campaign does not have is a usage error (64), naming the steps it has."""
    from click.testing import CliRunner

    from pbem.cli import main
    # the step whose axis orders carried out the 1940 blitzes (it stops there for the Axis'
    # loss in the attack on Liege: the normal combat on Nancy comes with the answer)
    n = min(int(p.parent.name) for p in (EXAMPLE / "steps").glob("*/report.txt")
            if "amsterdam" in p.read_text(encoding="utf-8").lower())
    out = tmp_path / f"s{n}.svg"
    r = CliRunner().invoke(main, ["map", str(EXAMPLE), "--step", str(n), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    tree = ET.fromstring(out.read_text(encoding="utf-8"))
    block = [el for el in find(tree, "panel-block") if el.get("data-block") == "step"]
    assert block and block[0].get("data-step") == str(n)
    assert [g.get("data-zone") for g in find(tree, "combat-label")] == ["amsterdam", "liege"]
    last = max(int(d.name) for d in (EXAMPLE / "steps").iterdir() if d.name.isdigit())
    r = CliRunner().invoke(main, ["map", str(EXAMPLE), "--step", str(last + 1), "-o", str(tmp_path / "x.svg")])
    assert r.exit_code == 64 and "MAP-NO-STEP" in r.output and f"0 to {last}" in r.output
    assert not (tmp_path / "x.svg").exists()


def test_a_counter_holding_less_than_its_face_says_so(rs, last_state):
    """Issue 16 item 14: ussr-i3-1 holds 2 corps; its id's 3 is the counter's face. The counter
    shows 2 and its tooltip says it is a counter of 3, so the id never reads as its strength."""
    assert last_state["counters"]["ussr-i3-1"]["units"] == 2
    tree = ET.fromstring(draw_map(rs, last_state, None))
    el = next(e for e in find(tree, "counter") if e.get("data-counter") == "ussr-i3-1")
    assert el.get("data-units") == "2"
    assert "ussr-i3-1: USSR infantry 2 (a counter of 3)" in el.find("{http://www.w3.org/2000/svg}title").text
    full = next(e for e in find(tree, "counter") if e.get("data-counter") == "ussr-i2-6")
    assert "counter of" not in full.find("{http://www.w3.org/2000/svg}title").text
