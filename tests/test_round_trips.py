"""Fewer round trips, clearer reports (issue 8): victory points explained in the text report
and in `pbem show`; the next command printed after `adjudicate` and `show`; standing orders set
once for the whole campaign, so a turn takes one step per order file instead of stopping at
every mid-phase decision."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign, render_state
from pbem.core.data import load_ruleset

KEY = "5" * 64
PLAYERS = {"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}
WARSAW = "2525"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture()
def camp(tmp_path: Path) -> Path:
    folder = tmp_path / "c1"
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1", players=PLAYERS, options={}, key_hex=KEY)
    return folder


def _warsaw_without_garrison(camp: Path) -> dict:
    """The initial state with Warsaw taken by a Soviet army (not a Front: no garrison, 10.0)."""
    _, st = Campaign(camp).current()
    st = json.loads(json.dumps(st))
    for _uid, u in st["units"].items():
        if u["at"] == WARSAW:
            u["at"] = "box:east-german"     # out of the way
    st["units"]["sov-8ga"]["at"] = WARSAW
    st["control"][WARSAW] = "soviet"
    st["captured"][WARSAW] = {"turn": 1, "phase": "soviet.movement"}
    return st


def test_victory_points_are_explained_in_show_and_in_the_report(camp, tmp_path):
    from pbem.bfg.checks import summary
    from pbem.bfg.describe import describe as describe_event
    g, rs = load_ruleset("bfg-historical")
    st = _warsaw_without_garrison(camp)
    summ = summary(rs, st)
    assert any("Warsaw held but scoring 0: no garrison (10.1)" in line for line in summ["vp_explained"]), summ["vp_explained"]
    # pbem show prints it (a state file written as pbem writes one)
    sf = tmp_path / "state.yaml"
    sf.write_text(render_state(st))
    r = run("show", sf)
    assert r.exit_code == 0, r.output
    assert "Warsaw held but scoring 0: no garrison (10.1)" in r.output
    assert re.search(r"^  Western Allies \d+: .*Metz 1", r.output, re.M), r.output
    # and the report's vp event, from the cities it carries
    from pbem.bfg.board import Board
    from pbem.bfg.victory import victory_points
    vp = victory_points(Board(rs, st))
    lines = describe_event(rs, {"type": "vp", "turn": 1, "phase": "soviet.movement", "soviet": vp["soviet"],
                                "western": vp["western"], "cities": vp["cities"]})
    assert lines[0].startswith("victory points: Soviet")
    assert any("Warsaw held but scoring 0: no garrison (10.1)" in x for x in lines[1:]), lines


def test_a_control_change_in_a_step_explains_the_points_in_report_txt(camp, tmp_path):
    # sov-8ga and friends attack Warsaw's neighbour 2424; whatever the dice, any control change
    # is followed by the explanation of both sides' points
    p = _orders(camp, tmp_path, "phases:\n  - phase: soviet.combat\n    attacks:\n"
                "      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga], advance: sov-8ga, ex_losses: [sov-2gt]}\n",
                standing=True)
    r = run("adjudicate", camp, p)
    assert r.exit_code in (0, 5), r.output
    rep = json.loads((camp / "steps" / "001" / "report.json").read_text())
    vps = [e for e in rep["events"] if e["type"] == "vp"]
    text = (camp / "steps" / "001" / "report.txt").read_text()
    for e in vps:
        assert "cities" in e
    if vps:
        assert re.search(r"^  Soviet \d+: ", text, re.M) and re.search(r"^  Western Allies \d+: ", text, re.M), text


def _orders(camp: Path, tmp_path: Path, body: str, *, player: str = "soviet", name: str = "o.yaml",
            standing: bool = False) -> Path:
    _, st = Campaign(camp).current()
    p = tmp_path / name
    extra = "standing: {retreat: auto, ex_losses: auto, advance: none}\n" if standing else ""
    p.write_text(f"schema: pbem/orders/v1\ngame: bfg\ncampaign: c1\nplayer: {player}\nturn: {st['turn']}\n"
                 f"state: {st['hash']}\n" + body + extra)
    return p


def test_next_command_after_new_adjudicate_and_show(tmp_path):
    g = tmp_path / "g"
    r = run("new", g, "--scenario", "bfg-historical", "--id", "g1", "--player", "soviet=A", "--player", "western=B")
    assert r.exit_code == 0
    assert f"Next: pbem orders template {g} --player soviet -o soviet-g1-001.yaml" in r.output, r.output
    r = run("show", g)
    assert f"Next: pbem orders template {g} --player soviet -o soviet-g1-001.yaml" in r.output, r.output
    # the command works as printed
    cmd = re.search(r"Next: pbem (.*)", r.output).group(1).split()
    cmd[-1] = str(tmp_path / cmd[-1])
    assert run(*cmd).exit_code == 0
    p = tmp_path / "soviet-g1-001.yaml"
    text = p.read_text()
    # the template as written lacks the turn-1 West German attacks (12.2.1): play only the first phase
    text = text[:text.index("  - phase: soviet.movement")] + "# end of the order file\n"   # (cut on purpose: the end line put back)
    p.write_text(text)
    r = run("adjudicate", g, p)
    assert r.exit_code == 0, r.output
    nxt = re.findall(r"^Next: .*", r.output, re.M)
    assert nxt == [f"Next: pbem orders template {g} --player soviet -o soviet-g1-002.yaml"], r.output
    assert run("show", g, "--json").exit_code == 0
    # orders refused by the rules: what to do next, and nothing written
    _, st = Campaign(g).current()
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"schema: pbem/orders/v1\ngame: bfg\ncampaign: g1\nplayer: soviet\nturn: 1\nstate: {st['hash']}\n"
                   "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: sov-1bff, to: '2424'}\n")
    r = run("adjudicate", g, bad)
    assert r.exit_code == 3 and f"Next: correct the orders, check them with `pbem validate {g} FILE`" in r.output, r.output
    assert not (g / "steps" / "002").exists()


def test_next_command_names_the_player_of_a_pending_decision(camp, tmp_path):
    p = _orders(camp, tmp_path, "phases:\n  - phase: soviet.combat\n    attacks:\n"
                "      - {target: 2424, units: [sov-1gt, sov-2gt, sov-8ga]}\n")
    r = run("adjudicate", camp, p)
    assert r.exit_code == 5, r.output
    _, st = Campaign(camp).current()
    who = st["pending"][0]["player"]
    assert f"Next: pbem orders template {camp} --player {who} -o {who}-c1-002.yaml" in r.output, r.output
    assert "answers the decision" in r.output


# A Soviet turn 1 with many attacks (and the two West German attacks 12.2.1 requires): without
# standing orders it stops at every retreat and advance of either player (ten decisions with
# KEY, half of them the Western Allied player's for the defending East Germans).
TURN1 = """phases:
  - phase: soviet.combat
    attacks:
      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga]}
      - {target: '2525', units: [sov-47, sov-65, pk-1]}
      - {target: '2124', units: [sov-13, sov-52]}
      - {target: '1925', units: [sov-38, sov-60, sov-1uf]}
      - {target: '1323', units: [sov-6gt, sov-7ga, ro-1]}
  - phase: west-german.combat
    attacks:
      - {target: '1801', units: [wg-7, wg-66, wg-1]}
      - {target: '2001', units: [wg-6sspz, wg-58pz, wg-81]}
"""
SOVIET_STANDING = "standing: {retreat: auto, advance: none, ex_losses: auto}\n"


def _steps(folder: Path) -> list[str]:
    return sorted(d.name for d in (folder / "steps").iterdir() if d.is_dir())


def _answer_until_done(folder: Path, tmp_path: Path) -> int:
    """Answer every pending decision with its first option; the number of steps it took."""
    n = 0
    while True:
        _, st = Campaign(folder).current()
        if not st["pending"]:
            return n
        d = st["pending"][0]
        p = _orders(folder, tmp_path, f"decisions:\n  - {{id: {d['id']}, choice: {json.dumps(d['options'][0])}}}\n",
                    player=d["player"], name=f"answer-{n}.yaml")
        assert run("adjudicate", folder, p).exit_code in (0, 5)
        n += 1


def test_without_standing_orders_the_turn_stops_at_every_decision(camp, tmp_path):
    p = _orders(camp, tmp_path, TURN1)
    assert run("adjudicate", camp, p).exit_code == 5
    answers = _answer_until_done(camp, tmp_path)
    assert answers >= 5          # the round trips the standing orders save


def test_standing_orders_set_once_at_new_make_the_soviet_turn_one_step(tmp_path):
    g = tmp_path / "g"
    r = run("new", g, "--scenario", "bfg-historical", "--id", "c1", "--player", "soviet=A", "--player", "western=B",
            "--standing", "western:advance=none,retreat=auto", "--standing", "soviet:auto")
    assert r.exit_code == 0, r.output
    assert "standing orders of the western player: advance=none, retreat=auto" in r.output, r.output
    _fix_commitment(g)                               # the same dice as the campaign above
    p = _orders(g, tmp_path, TURN1)
    r = run("adjudicate", g, p)
    assert r.exit_code == 0, r.output
    assert _steps(g) == ["000", "001"]               # one step for the whole Soviet turn: no decision stopped it
    _, st = Campaign(g).current()
    assert st["awaiting"] == {"player": "western", "for": "orders"} and st["turn"] == 1
    rep = json.loads((g / "steps" / "001" / "report.json").read_text())
    kinds = {e["type"] for e in rep["events"]}
    assert "pending" not in kinds
    text = (g / "steps" / "001" / "report.txt").read_text()
    assert "standing order" in text                  # the report says who decided how
    phases = [e["phase"] for e in rep["events"] if e["type"] == "phase"]
    assert phases == ["soviet.replacement", "soviet.movement", "soviet.combat", "west-german.replacement",
                      "west-german.movement", "west-german.combat"]


def _fix_commitment(folder: Path) -> None:
    """Start the campaign over with KEY (pbem new made its own key): same players and standing."""
    import shutil
    _, st = Campaign(folder).current()
    standing = st["standing"]
    shutil.rmtree(folder)
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1", players=PLAYERS, options={}, key_hex=KEY,
                 player_standing=standing)


def test_standing_orders_in_an_order_file_stay_for_the_campaign(camp, tmp_path):
    # the Soviet player's standing block and a standing-only file of the Western Allied player,
    # adjudicated together: the same single step
    p = _orders(camp, tmp_path, TURN1 + SOVIET_STANDING)
    w = _orders(camp, tmp_path, "standing: {retreat: auto, advance: none}\n", player="western", name="w.yaml")
    r = run("validate", camp, p, w)
    assert r.exit_code == 0 and "OK: 0 error(s)" in r.output, r.output
    r = run("adjudicate", camp, p, w)
    assert r.exit_code == 0, r.output
    assert _steps(camp) == ["000", "001"]
    # they persist: the next states carry them without anyone repeating them
    _, st = Campaign(camp).current()
    assert st["standing"]["western"] == {"advance": "none", "retreat": "auto"}
    assert st["standing"]["soviet"] == {"advance": "none", "ex_losses": "auto", "retreat": "auto"}
    assert "standing orders of the western player: advance=none, retreat=auto" in run("show", camp).output
    tpl = run("orders", "template", camp, "--player", "western").output
    assert "advance: none" in tpl and "whole campaign" in tpl


def test_bad_standing_option_is_a_usage_error(tmp_path):
    r = run("new", tmp_path / "x", "--scenario", "bfg-historical", "--id", "x", "--player", "soviet=A",
            "--player", "western=B", "--standing", "western:retreat=yes", "--standing", "west:auto")
    assert r.exit_code == 64 and r.output.count("USAGE-STANDING") == 2, r.output
    assert not (tmp_path / "x").exists()


def test_a_standing_order_whose_value_holds_commas_is_set_at_new(tmp_path):
    """`--standing ROLE:KEY=VALUE,...` splits on the commas between orders, not inside a value:
    BlitzWAR's `intercept=over paris,lille keep 1` (13.2) is one order."""
    g = tmp_path / "g"
    r = run("new", g, "--scenario", "blitzwar-1939", "--id", "c1", "--player", "axis=A", "--player", "allies=B",
            "--standing", "allies:intercept=over paris,lille keep 1,naval_losses=auto")
    assert r.exit_code == 0, r.output
    _, st = Campaign(g).current()
    assert st["standing"]["allies"]["intercept"] == "over paris,lille keep 1"
    assert st["standing"]["allies"]["naval_losses"] == "auto"
