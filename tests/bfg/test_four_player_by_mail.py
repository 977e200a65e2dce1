"""What a four-player game by mail showed (issue 23): the order templates offer only what a
player can use (replacement entry hexes with room, 5.3; standing orders he can be asked, 8.0),
and `pbem show` and the reports do not present victory points as deciding the four-player game
(17.32): they give the Berlin race instead."""
from __future__ import annotations

from pbem.bfg.cases import kit
from pbem.bfg.checks import summary_lines
from pbem.bfg.orders import standing_keys_of
from pbem.bfg.scenario import initial_state
from pbem.bfg.template import template
from pbem.core.canon import state_hash
from pbem.core.data import load_ruleset


def _template(case: dict, player: str) -> str:
    k = kit()
    rs, st = k.setup(case)
    return template(rs, st, player, schema_ref="orders.schema.json", state_file="s.yaml")


def test_western_template_offers_only_entry_hexes_with_room():
    case = {"scenario": "bfg-four-player",
            "units": [["us-r", "western-allied", "4-4-6", "box:western-allied"],
                      ["us-1", "western-allied", "4-4-6", "0301"], ["us-2", "western-allied", "4-4-6", "0301"],
                      ["us-3", "western-allied", "4-4-6", "0401"]],
            "start": {"turn": 2, "phase": "western-allied.replacement"}}
    text = _template(case, "western")
    line = next(x for x in text.splitlines() if "entry hexes:" in x)
    hexes = line.split("entry hexes:")[1].split("(")[0]
    assert "0301" not in hexes and "0401" in hexes and "0101" in hexes, line
    assert "(not 0301: already two units there, 5.3)" in line


def test_courland_port_only_for_the_player_of_the_east_germans():
    want = {"bfg-historical": {"western"}, "bfg-expanded": {"western"}, "bfg-collapse": {"western"},
            "bfg-three-player": {"german"}, "bfg-four-player": {"east-german"}, "bfg-redstar": set()}
    for scenario, players in want.items():
        _, rs = load_ruleset(scenario)
        got = {p for p in rs.play.players if "courland_port" in standing_keys_of(rs, p)}
        assert got == players, scenario
        st = initial_state(rs, campaign="c", players={p: p for p in rs.play.players}, commitment="0" * 64,
                           algorithm="test", options={}, engine_version="test",
                           standing={"retreat": "auto", "courland_port": "auto"})
        st["hash"] = state_hash(st)
        assert {p for p, so in st["standing"].items() if "courland_port" in so} == players, scenario
        assert all(so.get("retreat") == "auto" for so in st["standing"].values())
        for p in rs.play.players:
            text = template(rs, st, p, schema_ref="orders.schema.json", state_file="s.yaml")
            assert ("  courland_port:" in text) == (p in players), (scenario, p)


def test_an_order_files_courland_port_is_kept_only_for_its_player():
    k = kit()
    rs, st = k.setup({"scenario": "bfg-four-player", "units": [["sov-1", "soviet", "4-4-4", "0512"]],
                      "start": {"turn": 2, "phase": "soviet.movement"}})
    sub = k.submission(st, {"player": "soviet", "phases": [{"phase": "soviet.movement"}],
                            "standing": {"courland_port": "auto", "retreat": "auto"}})
    out = k.adjudicate(rs, st, [sub], k.dice({}))
    assert out.stopped == "complete"
    assert out.state["standing"]["soviet"] == {"retreat": "auto"}


def test_show_gives_the_berlin_race_not_victory_points():
    k = kit()
    case = {"scenario": "bfg-four-player",
            "map": {"cities": [{"hex": "0303", "name": "Essen", "vp": 2}]},
            "units": [["us-1", "western-allied", "4-4-6", "0303"], ["sov-1", "soviet", "4-4-4", "1006"]],
            "start": {"turn": 5, "phase": "western-allied.movement",
                      "patch": {"berlin": {"entered_by": "soviet", "turn": 4, "phase": "soviet.movement",
                                           "entries": [{"side": "soviet", "turn": 4, "phase": "soviet.movement", "unit": "sov-1"}]}}}}
    rs, st = k.setup(case)
    lines = summary_lines(rs, st, units=False)
    text = "\n".join(lines)
    assert "victory points:" not in text and "VP" not in text
    assert lines[0].startswith("Berlin race (17.32"), lines
    assert "Soviets turn 4 (sov-1)" in lines[0]
    assert "if the game ended now: the Soviet player and the West German player win" in lines[1]
    # the Historical game still gives its victory points
    rs2, st2 = k.setup(dict(case, scenario="bfg-historical", start={"turn": 5, "phase": "western-allied.movement"}))
    assert summary_lines(rs2, st2, units=False)[0].startswith("victory points: Soviet")


def test_four_player_report_has_no_victory_points():
    k = kit()
    rs, st = k.setup({"scenario": "bfg-four-player",
                      "map": {"cities": [{"hex": "0303", "name": "Essen", "vp": 2}]},
                      "units": [["us-1", "western-allied", "4-4-6", "0306"], ["wg-1", "west-german", "2-3-4", "0101"]],
                      "start": {"turn": 2, "phase": "western-allied.movement"}})
    assert st["control"]["0303"] == "german"
    sub = k.submission(st, {"player": "western", "phases": [{"phase": "western-allied.movement",
                                                             "moves": [{"unit": "us-1", "path": ["0305", "0304", "0303"]}]}]})
    out = k.adjudicate(rs, st, [sub], k.dice({}))
    assert out.stopped == "complete"
    types = [e["type"] for e in out.events]
    assert "control" in types and "vp" not in types, types


def test_template_offers_only_ports_with_room():
    """8.0 with 5.3: a port already holding two units is not offered to a unit leaving Courland."""
    ports = [{"hex": "0909", "name": "Stettin", "vp": 1, "courland_port": True},
             {"hex": "1110", "name": "Rostock", "vp": 1, "courland_port": True}]
    case = {"map": {"cities": ports},
            "units": [["eg-c1", "east-german", "2-3-4", "courland"], ["eg-1", "east-german", "2-3-4", "1110"],
                      ["eg-2", "east-german", "2-3-4", "1110"], ["sov-1", "soviet", "4-4-4", "0606"]],
            "start": {"turn": 2, "phase": "east-german.replacement"}}
    line = next(x for x in _template(case, "western").splitlines() if "Courland (8.0)" in x)
    assert line.endswith("ports free: Stettin 0909"), line
    case["units"].append(["sov-s", "soviet", "4-4-4", "0909"])
    line = next(x for x in _template(case, "western").splitlines() if "Courland (8.0)" in x)
    assert "ports free: none" in line and "no unit can leave now" in line, line
