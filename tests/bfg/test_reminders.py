"""Obligations with a deadline are announced before they are missed (issue 8, issue 9, DG2 10.0,
8.0, 5.42): the next order template reminds the player, and ``pbem validate`` warns when the
orders checked would miss one."""
from __future__ import annotations

from pbem.bfg.cases import kit
from pbem.bfg.template import template

WARSAW = {"map": {"cities": [{"hex": "0810", "name": "Warsaw", "vp": 2, "garrison": True}]},
          "units": [["sov-1", "soviet", "4-4-4", "0810"], ["fr-1", "soviet", "6-8-3", "0710", "soviet", "front"],
                    ["eg-1", "east-german", "2-3-4", "0312"]],
          "start": {"turn": 3, "phase": "soviet.movement",
                    "patch": {"captured": {"0810": {"turn": 2, "phase": "soviet.movement", "warned": True}}}}}


def _validate(case: dict, phases: list) -> list:
    k = kit()
    rs, st = k.setup(case)
    return k.validate(rs, st, [k.submission(st, {"player": "soviet", "phases": phases})])


def test_template_reminds_of_a_due_garrison():
    k = kit()
    rs, st = k.setup(WARSAW)
    text = template(rs, st, "soviet", schema_ref="orders.schema.json", state_file="s.yaml")
    assert "GARRISON DUE (DG2 10.0): a Front must stand in Warsaw (0810) at the end of THIS phase" in text


def test_template_gives_the_deadline_turn_before_it_comes():
    case = dict(WARSAW, start=dict(WARSAW["start"], turn=2))
    k = kit()
    rs, st = k.setup(case)
    text = template(rs, st, "soviet", schema_ref="orders.schema.json", state_file="s.yaml")
    assert "at the end of the Soviet movement phase of turn 3" in text


def test_validate_warns_before_the_garrison_deadline_is_missed():
    issues = _validate(WARSAW, [{"phase": "soviet.movement", "moves": [{"unit": "fr-1", "path": ["0711"]}]}])
    due = [i for i in issues if i.code == "BFG-GARRISON-DUE"]
    assert due and not due[0].is_error, [i.format() for i in issues]
    assert not [i for i in issues if i.is_error]


def test_validate_is_quiet_when_a_front_garrisons_in_time():
    issues = _validate(WARSAW, [{"phase": "soviet.movement", "moves": [{"unit": "fr-1", "path": ["0810"]}]}])
    assert not [i for i in issues if i.code == "BFG-GARRISON-DUE"], [i.format() for i in issues]


def test_validate_warns_of_the_last_courland_chance():
    case = {"map": {"cities": [{"hex": "1109", "name": "Stettin", "vp": 1, "courland_port": True}]},
            "units": [["eg-c1", "east-german", "2-3-4", "1109"], ["sov-c1", "soviet", "4-4-4", "courland"]],
            "start": {"turn": 3, "phase": "soviet.replacement"}}
    issues = _validate(case, [{"phase": "soviet.replacement"}])
    assert [i.code for i in issues] == ["BFG-COURLAND-DUE"], [i.format() for i in issues]
    k = kit()
    rs, st = k.setup(case)
    assert "IN THIS PHASE ONLY" in template(rs, st, "soviet", schema_ref="o.json", state_file="s.yaml")
