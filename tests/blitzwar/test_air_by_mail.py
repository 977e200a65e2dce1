"""Issue 20, the air phase by mail (13.2): the Axis player's order file commits air units in the
order written; the Allied player answers each interception either in advance, by a standing
order sent with an earlier file, or when the adjudication stops and asks, with an answer file
that resumes it. The pending decision shows what the table shows at that moment: the air unit
just committed, not the missions still to come. Played from the command line (new, template,
validate, adjudicate, show, replay) as a new player would."""
from __future__ import annotations

from pathlib import Path

from by_mail import orders, run, template

from pbem.core.errors import ExitCode
from pbem.core.yamlio import load_yaml

AXIS_AIR = """phases:
  - phase: axis.5.air
    air:
      - {counter: ger-a1-9, to: nancy}
      - {counter: ger-a1-8, to: bremen}
"""


def state(folder: Path) -> dict:
    return load_yaml(sorted((folder / "steps").glob("*/c1-*.yaml"))[-1].read_bytes(), "s").data


def start(tmp: Path, allies_standing: str | None) -> Path:
    """A three-player campaign through phases 1-3 of turn 1; the Allies' file may carry a
    standing order for interceptions."""
    folder = tmp / "c"
    r = run("new", folder, "--scenario", "blitzwar-1939", "--id", "c1",
            *[a for p in ("axis", "allies", "ussr") for a in ("--player", f"{p}={p.upper()}")])
    assert r.exit_code == 0, r.output
    files = []
    for p in ("axis", "allies", "ussr"):
        f = template(folder, p, tmp / f"t1-{p}.yaml")
        if p == "allies" and allies_standing:
            text = f.read_text()
            assert "\n  intercept: ask   # ask | never | all | bombers" in text     # the template offers it
            f.write_text(text.replace("\n  intercept: ask ", f"\n  intercept: {allies_standing} "))
        files.append(f)
    r = run("adjudicate", folder, *files)
    assert r.exit_code == 0, r.output
    assert state(folder)["awaiting"] == {"player": "axis", "for": "orders"}
    return folder


def test_interception_by_a_pending_decision_and_its_answer(tmp_path):
    folder = start(tmp_path, None)
    axis = orders(folder, tmp_path, "axis", AXIS_AIR, "axis-air")
    assert run("validate", folder, axis).exit_code == 0
    r = run("adjudicate", folder, axis)
    assert r.exit_code == ExitCode.PENDING, r.output
    st = state(folder)
    pend = st["pending"][0]
    assert pend["id"] == "t01.axis.5.air.air1.intercept.allies" and pend["player"] == "allies"
    assert pend["kind"] == "intercept" and pend["options"][0] == "none" and "fra-a1-1" in pend["options"]
    assert pend["context"]["counter"] == "ger-a1-9" and pend["context"]["to"] == "nancy"
    # only what the table shows: the unit just committed, not the one still to come
    assert "ger-a1-8" not in str(pend) and "bremen" not in str(pend)
    assert "ger-a1-8" not in r.output and "bremen" not in r.output
    assert st["counters"]["ger-a1-9"]["at"] == "ruhr"
    # the Allied player answers: intercept with the French air unit
    ans = orders(folder, tmp_path, "allies", "decisions:\n  - {id: t01.axis.5.air.air1.intercept.allies, choice: fra-a1-1}\n",
                 "allies-answer-1")
    assert run("validate", folder, ans).exit_code == 0
    r = run("adjudicate", folder, ans)
    assert r.exit_code == ExitCode.PENDING, r.output
    st = state(folder)
    pend = st["pending"][0]
    assert pend["id"] == "t01.axis.5.air.air2.intercept.allies"
    assert pend["context"]["counter"] == "ger-a1-8" and pend["context"]["to"] == "bremen"
    assert "fra-a1-1" not in pend["options"]            # removed with the unit it intercepted
    ans = orders(folder, tmp_path, "allies", "decisions:\n  - {id: t01.axis.5.air.air2.intercept.allies, choice: none}\n",
                 "allies-answer-2")
    r = run("adjudicate", folder, ans)
    assert r.exit_code == 0, r.output
    assert "intercepted by fra-a1-1" in r.output and "both removed to the pool" in r.output
    st = state(folder)
    assert not st["pending"] and st["awaiting"]["player"] == "axis"
    assert st["counters"]["ger-a1-9"]["at"] == "pool" and st["counters"]["fra-a1-1"]["at"] == "pool"
    assert st["counters"]["ger-a1-8"]["at"] == "bremen" and st["sea_air"]["air_superiority"] == {"bremen": "axis"}
    r = run("show", folder)
    assert "air superiority (13.4.2): bremen axis" in r.output, r.output
    # the step map marks the interception and the mission's arrow
    svg = tmp_path / "air.svg"
    r = run("map", folder, "--last", "-o", svg)
    assert r.exit_code == 0, r.output
    text = svg.read_text("utf-8")
    assert "13.2" in text and "arrow air" in text
    r = run("replay", folder)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output


def test_interception_by_standing_orders_needs_no_stop(tmp_path):
    folder = start(tmp_path, "over nancy keep 1")
    r = run("adjudicate", folder, orders(folder, tmp_path, "axis", AXIS_AIR, "axis-air"))
    assert r.exit_code == 0, r.output
    st = state(folder)
    assert not st["pending"] and st["awaiting"]["player"] == "axis"
    assert "intercepted by fra-a1-1" in r.output and "standing order over nancy keep 1" in r.output
    assert st["counters"]["ger-a1-9"]["at"] == "pool" and st["counters"]["ger-a1-8"]["at"] == "bremen"
    r = run("replay", folder)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output


def test_a_standing_order_not_understood_is_refused(tmp_path):
    folder = tmp_path / "c"
    run("new", folder, "--scenario", "blitzwar-1939", "--id", "c1",
        *[a for p in ("axis", "allies", "ussr") for a in ("--player", f"{p}={p.upper()}")])
    f = template(folder, "allies", tmp_path / "a.yaml")
    f.write_text(f.read_text().replace("\n  intercept: ask ", "\n  intercept: sometimes "))
    r = run("validate", folder, f)
    assert r.exit_code != 0 and "ORDERS-STANDING" in r.output


def test_the_state_sent_with_a_pending_interception_hides_the_missions_to_come(tmp_path):
    folder = start(tmp_path, None)
    r = run("adjudicate", folder, orders(folder, tmp_path, "axis", AXIS_AIR, "axis-air"))
    assert r.exit_code == ExitCode.PENDING, r.output
    latest = sorted((folder / "steps").glob("*/c1-*.yaml"))[-1].read_text("utf-8")
    assert 'to: "bremen"' not in latest and "to: bremen" not in latest     # the second mission's target
