"""tools/make_blitzwar_example.py plays examples/blitzwar-1939 (issue 12: Poland overrun by a
1939 land offensive over several turns; issues 20 and 21: the west until France falls, Norway,
the interceptions, the Battle of Britain, the Italian convoy, lend-lease to Murmansk; every file
validated before it is adjudicated) through the command line with a published dice key: the
example is reproducible byte for byte."""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"
_spec = importlib.util.spec_from_file_location("make_blitzwar_example", ROOT / "tools" / "make_blitzwar_example.py")
maker = importlib.util.module_from_spec(_spec)
sys.modules["make_blitzwar_example"] = maker
_spec.loader.exec_module(maker)


def test_the_example_is_made_again_identical(capsys):
    attempt = re.search(r"attempt (\d+) of the script", (EXAMPLE / "README.md").read_text("utf-8")).group(1)
    assert maker.main(["--check", "--attempt", attempt]) == 0, capsys.readouterr()
    assert "identical" in capsys.readouterr().out


def _reports() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted((EXAMPLE / "steps").glob("*/report.txt")))


def test_poland_is_overrun_with_both_combat_phases_and_answered_decisions():
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    st = maker.state_of(EXAMPLE)
    assert maker.polish_zones_held(st, world) == []
    assert "POL" in st["flags"]["surrendered"]                   # 9.2, at the start of the turn after
    assert not [c for c in st["counters"].values() if c["nation"] == "POL" and c["at"] not in ("pool", "out")]
    # ruling east-poland (9.2): the zones pass to the USSR but one Axis land units stand in
    east = {z: maker.control(st, world, z) for z in world.areas["east-poland"]}
    assert all(c == "ussr" or maker.enemy_land_in(st, z, "ussr") for z, c in east.items()), east
    assert list(east.values()).count("ussr") >= 3
    reports = _reports()
    assert "Poland (POL) surrenders to the axis" in reports
    assert "[16.1]" in reports and "[17.1]" in reports          # blitz and normal combat
    assert "(allies, answer)" in reports                        # decisions answered by their owner
    assert "paid from the supply held" in reports
    assert sorted(EXAMPLE.glob("steps/*/orders-*-allies-*.yaml"))


def test_cards_are_sealed_opened_picked_openly_or_by_default_and_replacements_arrive():
    reports = _reports()
    assert "the axis player sealed a choice as cards-axis-t02" in reports
    assert 'the axis player opened cards-axis-t02: "axis-l1"' in reports
    assert "axis: replacement card axis-l1 (opened)" in reports and "allies: replacement card allies-l3:" in reports
    assert "ussr: replacement card ussr-l1:" in reports         # the USSR's default pick (10.1)
    assert "supply received" in reports
    # the card contents are pbem's stand-ins: each report says when one decided what came in
    assert "- replacement card axis-l1: infantry 3, armour 1, supply 12:" in reports
    # a sealed card is in no file the others receive before its opening: the first state after the
    # seal holds the commitment, never the card
    first = sorted(EXAMPLE.glob("steps/*/bw39-*-t01-*.yaml"))
    assert first and not any("axis-l1" in p.read_text("utf-8") for p in first)


def test_the_offensive_in_the_west_is_fought_in_both_combat_phases_in_1940():
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    west = maker.west_combats(EXAMPLE, world)
    assert west["blitz"] and west["combat"]
    reports = _reports()
    assert "Belgium-Netherlands (BE) joins the allies" in reports          # 9.3, attack_neutral
    assert any("attack_neutral" in p.read_text("utf-8") for p in EXAMPLE.glob("steps/*/orders-*-axis-*.yaml"))
    off = maker.offensive_turn(world)
    assert world.turns[off].year == 1940
    events = [e for f in sorted(EXAMPLE.glob("steps/*/report.json")) for e in json.loads(f.read_text("utf-8"))["events"]]
    for phase in ("axis.8.blitz", "axis.9.combat"):
        assert any(e["type"] == "combat" and e["turn"] == off and e["phase"] == phase and world.zones[e["zone"]].country in maker.WEST
                   for e in events), phase


def test_the_story_of_the_try_out_happens_in_order_and_the_readme_says_where():
    """Issues 20 and 21: France falls and Vichy appears, Italy enters; a 1940 landing in Norway,
    a neutral attacked that joins the Allies; interceptions answered by a pending decision and by
    a standing order; the Battle of Britain after France's fall; a convoy battle in the
    Mediterranean whose loss its owner chose; lend-lease to Murmansk once Germans are in the USSR.
    The README's table names each event's steps as the archive has them."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    st = maker.state_of(EXAMPLE)
    goals = maker.goals(st, EXAMPLE)
    assert all(goals.values()), goals
    first = {k: min(e["step"] for e in maker.happened(EXAMPLE, k)) for k in ("vichy", "landing", "battle-of-britain-end", "lend-lease")}
    landing = maker.happened(EXAMPLE, "landing")[0]
    assert world.turns[landing["turn"]].year == 1940 and landing["path"][-1] == "oslo"
    assert first["vichy"] < first["battle-of-britain-end"]        # 13.4.3 after 9.4
    assert first["lend-lease"]            # (before or after the Battle of Britain: the dice say)
    assert st["war"]["NOR"] == "allies" and st["war"]["ITA"] == "axis" and "FRA" in st["flags"]["surrendered"]
    steps = [{"step": int(d.name), **_step_of(d)} for d in sorted((EXAMPLE / "steps").iterdir()) if d.name.isdigit() and d.name != "000"]
    where = maker.tryout(EXAMPLE, steps)
    readme = (EXAMPLE / "README.md").read_text("utf-8")
    assert f"the Allies' answer file {where['norway']['answer']:03d} resumes it" in readme
    assert f"`intercept: {where['standing']['value']}` with their file {where['standing']['sent']:03d}" in readme
    assert f"the Axis' answer file {where['med']['answer']:03d} resumes it" in readme
    assert f"the Allies' file {where['murmansk']['lend_lease']:03d}" in readme
    sup = where["airsup"]
    assert sup and sup["step"] <= first["landing"]                # an early attack: Poland, 1939
    assert f"Axis orders {sup['orders']:03d}; in the blitz the report line `right 2: attacker's air superiority [16.3.1]`" in readme
    assert f"the superiority shift decides the combat ({sup['step']:03d})" in readme


def test_a_land_attack_with_air_superiority_is_decided_by_the_shift():
    """Issue 31: the example shows a land attack with the attacker's air superiority (13.4.2,
    16.3.1): a German air unit flies air superiority over a Polish zone in the air phase of turn
    1, before the blitz there; the blitz's report line gives the +2 shift, and on the column
    without it the same die would give another result (the German armour would lose a corps); the
    air unit is removed after the blitz (16.1 step 5). The README's table names the step."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    mission = maker.happened(EXAMPLE, "air-mission", mission="superiority")[0]
    assert mission["turn"] == 1 and mission["side"] == "axis" and world.zones[mission["zone"]].country == "POL"
    combat = next(e for e in maker.happened(EXAMPLE, "combat", zone=mission["zone"], turn=1) if e["phase"] == "axis.8.blitz")
    assert {"shift": 2, "reason": "attacker's air superiority", "rule": "16.3.1"} in combat["shifts"]
    cols = world.crt_columns
    without = cols[cols.index(combat["column"]) - 2]
    assert world.crt_results[without][combat["roll"]["value"] - 1] != combat["result"]       # the shift decides it
    report = (EXAMPLE / "steps" / f"{combat['step']:03d}" / "report.txt").read_text("utf-8")
    assert "right 2: attacker's air superiority [16.3.1]" in report
    assert f"air unit {mission['counter']} (GER) over {world.zones[mission['zone']].name} is removed to the pool [16.1]" in report
    steps = [{"step": int(d.name), **_step_of(d)} for d in sorted((EXAMPLE / "steps").iterdir()) if d.name.isdigit() and d.name != "000"]
    sup = maker.tryout(EXAMPLE, steps)["airsup"]
    assert sup["step"] == combat["step"] and sup["without"] == without
    readme = (EXAMPLE / "README.md").read_text("utf-8")
    assert (f"without it the column would be {without} and the same die {sup['result_without']}: "
            f"the superiority shift decides the combat ({combat['step']:03d})") in readme
    assert "  - right 2: attacker's air superiority [16.3.1]" in readme                   # in the turn-by-turn part too


def _step_of(d: Path) -> dict:
    """A step of the archive as the script's step list has it (turn, phase, player, kind, what)."""
    o = next(d.glob("orders-*.yaml"), None)
    from pbem.core.yamlio import load_yaml
    doc = load_yaml(o.read_bytes(), str(o)).data if o else {}
    rep = json.loads((d / "report.json").read_text("utf-8"))
    answers = [x["id"] for x in doc.get("decisions") or []]
    return {"turn": doc.get("turn", rep.get("turn")), "phase": (doc.get("phases") or [{}])[0].get("phase", ""),
            "player": doc.get("player", ""), "kind": "answer" if answers else "orders",
            "what": ", ".join(answers) or (re.findall(r"^# (.*)$", o.read_text("utf-8"), re.M) or [""])[-1] if o else ""}


def test_no_state_sent_to_a_player_holds_an_opponents_queued_card():
    """Issue 21: every state of the archive (each one is mailed to every player) holds the Axis'
    sealed picks as commitments only until they are opened, and its queue as ``sealed``."""
    from pbem.core.campaign import Campaign, load_state_file
    camp = Campaign(EXAMPLE)
    openings = {p.name.split(".")[0]: p.read_text("utf-8") for p in (EXAMPLE / "private").glob("cards-*.opening.yaml")}
    for sd in camp.step_dirs():
        state, raw = load_state_file(camp.state_path(sd))
        text = raw.decode("utf-8")
        for sid, s in (state.get("sealed") or {}).items():
            if not s.get("opened"):
                nonce = re.search(r'nonce: "?([0-9a-f]{64})', openings[sid]).group(1)
                assert nonce not in text, (sd.name, sid)
        assert all(q["card"] == "sealed" for q in ((state.get("cards") or {}).get("axis") or {}).get("queue") or []), sd.name
