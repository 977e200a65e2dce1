"""The command line as a player and a game master use it (README): new, template, validate,
adjudicate, show, replay, dice verify, data check; bad input is refused and writes nothing."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.yamlio import load_yaml

KEY = "5" * 64


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return r


@pytest.fixture()
def camp(tmp_path: Path) -> Path:
    folder = tmp_path / "c1"
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY)
    return folder


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def state_file(folder: Path) -> Path:
    return sorted((folder / "steps").glob("*/*.yaml"))[-1]


def soviet_orders(folder: Path, tmp_path: Path, body: str) -> Path:
    r = run("orders", "template", folder, "--player", "soviet", "-o", tmp_path / "tpl.yaml")
    assert r.exit_code == 0, r.output
    head = [ln for ln in (tmp_path / "tpl.yaml").read_text().splitlines()
            if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    p = tmp_path / "orders.yaml"
    p.write_text("\n".join(head) + "\n" + body)
    return p


def test_new_creates_campaign_and_help_lists_scenarios(tmp_path):
    r = run("new", tmp_path / "g", "--scenario", "bfg-historical", "--id", "g1", "--player", "soviet=A:a@x.org",
            "--player", "western=B")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "g" / "private" / "dice.key").is_file()
    man = load_yaml((tmp_path / "g" / "campaign.yaml").read_bytes()).data
    assert man["players"]["soviet"] == {"name": "A", "email": "a@x.org"}
    assert "bfg-historical" in run("new", "--help").output
    # a second `new` into the same folder is refused and changes nothing
    before = tree(tmp_path / "g")
    r = run("new", tmp_path / "g", "--scenario", "bfg-historical", "--id", "g1", "--player", "soviet=A", "--player", "western=B")
    assert r.exit_code != 0 and tree(tmp_path / "g") == before


def test_new_refuses_bad_id_and_missing_player(tmp_path):
    assert run("new", tmp_path / "x", "--scenario", "bfg-historical", "--id", "bad id", "--player", "soviet=A",
               "--player", "western=B").exit_code == 64
    assert run("new", tmp_path / "y", "--scenario", "bfg-historical", "--id", "ok", "--player", "soviet=A").exit_code == 64
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_template_validates_as_is(camp, tmp_path):
    r = run("orders", "template", camp, "--player", "soviet", "-o", tmp_path / "s.yaml")
    assert r.exit_code == 0
    text = (tmp_path / "s.yaml").read_text()
    assert "MUST make at least 2 attacks" in text
    # as written it only lacks the two turn-1 West German attacks (12.2.1)
    r = run("validate", camp, tmp_path / "s.yaml")
    assert r.exit_code == 3 and "BFG-T1-ATTACKS" in r.output and "1 error(s)" in r.output, r.output
    r = run("orders", "template", camp, "--player", "western", "-o", tmp_path / "w.yaml")
    r = run("validate", camp, tmp_path / "w.yaml")
    assert r.exit_code == 0 and "OK" in r.output, r.output
    # the template is never overwritten
    assert run("orders", "template", camp, "--player", "soviet", "-o", tmp_path / "s.yaml").exit_code != 0


def test_validate_reports_every_problem_with_lines(camp, tmp_path):
    body = """phases:
  - phase: soviet.movement
    moves:
      - {unit: sov-1bf, path: ['2224']}
      - {unit: eg-9, to: '2424'}
      - {unit: nobody, to: '2424'}
  - phase: soviet.combat
    attacks:
      - {target: '0101', units: [sov-8ga]}
"""
    p = soviet_orders(camp, tmp_path, body)
    r = run("validate", camp, p)
    assert r.exit_code == 3, r.output
    out = r.output
    for code in ("BFG-MOVE-NOT-ADJACENT", "BFG-UNIT-NOT-YOURS", "BFG-UNIT-UNKNOWN"):
        assert code in out
    assert "orders.yaml:10" in out or "orders.yaml:11" in out


def test_validate_refuses_other_state_and_yaml_traps(camp, tmp_path):
    p = soviet_orders(camp, tmp_path, "phases: []\n")
    text = p.read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("state: ", "state: 0").replace("player: soviet", "player: soviet\nplayer: western"))
    r = run("validate", camp, bad)
    assert r.exit_code == 2 and "YAML-DUPLICATE-KEY" in r.output
    other = tmp_path / "other.yaml"
    import re
    other.write_text(re.sub(r"state: [0-9a-f]{64}", "state: " + "a" * 64, text))
    r = run("validate", camp, other)
    assert r.exit_code == 4 and "HASH-ORDERS-STATE" in r.output


def test_adjudicate_writes_step_and_replay_verifies(camp, tmp_path):
    body = """phases:
  - phase: soviet.combat
    attacks:
      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga], advance: sov-8ga}
standing: {retreat: auto}
"""
    p = soviet_orders(camp, tmp_path, body)
    assert run("validate", camp, p).exit_code == 0
    r = run("adjudicate", camp, p)
    assert r.exit_code in (0, 5), r.output
    assert "attack 1 on 2424" in r.output
    step = camp / "steps" / "001"
    assert (step / "report.json").is_file() and (step / "report.txt").is_file()
    rep = json.loads((step / "report.json").read_text())
    assert rep["rolls"] and rep["rolls"][0]["label"].startswith("bfg/c1/t01/soviet.combat/c1-2424/")
    # the same orders again: written against an old state, refused, nothing written
    before = tree(camp)
    r = run("adjudicate", camp, p)
    assert r.exit_code == 4 and tree(camp) == before
    r = run("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
    r = run("dice", "verify", camp, rep["rolls"][0]["label"])
    assert r.exit_code == 0 and "MATCH" in r.output
    ki = [e for e in rep["events"] if e["type"] == "phase" and e["phase"] == "soviet.combat"][0]["key_inputs"]
    r = run("dice", "verify", rep["rolls"][0]["label"], "--key-hex", KEY, "--game", "bfg", "--campaign-id", "c1",
            "--step", ki["step"], "--orders", ki["orders"], "--state", ki["state"])
    assert r.exit_code == 0 and r.output.strip().endswith(f"= {rep['rolls'][0]['value']}")
    # issue 8: report.txt alone gives every input of the raw verification, in full
    import re
    text = (step / "report.txt").read_text("utf-8")
    m = re.search(r"dice key inputs of this phase:\n  --step (\S+)\n  --orders ([0-9a-f]{64})\n  --state ([0-9a-f]{64})", text)
    assert m and (m.group(1), m.group(2), m.group(3)) == (ki["step"], ki["orders"], ki["state"]), text
    die = re.search(r"die \[(bfg/c1/[^\]]+)\] = (\d)", text)
    r = run("dice", "verify", die.group(1), "--key-hex", KEY, "--game", "bfg", "--campaign-id", "c1",
            "--step", m.group(1), "--orders", m.group(2), "--state", m.group(3))
    assert r.exit_code == 0 and r.output.strip().endswith(f"= {die.group(2)}"), r.output
    assert re.search(r"commitment:\n  [0-9a-f]{64}", text)
    assert run("show", camp).exit_code == 0
    js = json.loads(run("show", camp, "--json").output)
    assert js["turn"] == 1


def test_tampering_is_caught(camp, tmp_path):
    p = soviet_orders(camp, tmp_path, "phases:\n  - phase: soviet.movement\n    moves: []\n")
    assert run("adjudicate", camp, p).exit_code == 0
    # a state edited by hand is refused
    sf = state_file(camp)
    sf.chmod(0o644)
    sf.write_text(sf.read_text().replace('"turn": 1', '"turn": 2').replace("turn: 1", "turn: 2"))
    assert run("show", sf).exit_code in (2, 4)
    # a changed archived order file is caught by replay
    camp2 = tmp_path / "copy"
    shutil.copytree(camp, camp2)
    of = next((camp2 / "steps" / "001").glob("orders-*.yaml"))
    of.write_text(of.read_text() + "# changed\n")
    r = run("replay", camp2)
    assert r.exit_code == 4 and "HASH-ORDERS" in r.output
    # a wrong key is refused
    (tmp_path / "k").write_text("6" * 64)
    r = run("replay", camp, "--key", tmp_path / "k")
    assert r.exit_code == 4 and "DICE-KEY-MISMATCH" in r.output


def test_data_check_lists_provisional_values():
    r = run("data", "check")
    assert r.exit_code == 0, r.output
    assert "provisional: CRT 1:1 die 2" in r.output
    assert "CRT 1:1 die 1 " not in r.output  # rulebook cell (6.1) is not provisional


def test_missing_orders_default_only_when_declared(tmp_path, camp):
    # the fixture campaign declares no default: refused, nothing written
    before = tree(camp)
    r = run("adjudicate", camp, "--missing-orders")
    assert r.exit_code == 64 and "ORDERS-NO-DEFAULT" in r.output
    assert tree(camp) == before
    r = run("new", tmp_path / "d", "--scenario", "bfg-historical", "--id", "d1", "--player", "soviet=A",
            "--player", "western=B", "--missing-orders-default", "soviet=no-orders")
    assert r.exit_code == 0, r.output
    r = run("adjudicate", tmp_path / "d", "--missing-orders")
    # one run passes every phase the soviet player's file could have covered (Soviet and West
    # German phases); the West German attacks 12.2.1 compels leave the Western player an advance
    assert r.exit_code == 5, r.output
    assert "no orders received" in r.output and "waiting for the Western Allied player" in r.output
    rep = json.loads((tmp_path / "d" / "steps" / "001" / "report.json").read_text())
    assert any(e["type"] == "missing-orders" and e["player"] == "soviet" for e in rep["events"])
    assert run("replay", tmp_path / "d").exit_code == 0


def test_validate_warns_about_a_file_adjudicate_would_refuse_as_empty(camp, tmp_path):
    # Played by hand (BlitzWAR): the template of a player whose orders are in says "Nothing is
    # awaiting you"; validate called that file OK while adjudicate refused it (ORDERS-EMPTY).
    f = tmp_path / "western.yaml"
    assert run("orders", "template", camp, "--player", "western", "-o", f).exit_code == 0
    assert "phases:" not in f.read_text()
    r = run("validate", camp, f)
    assert r.exit_code == 0 and "warning ORDERS-EMPTY" in r.output and "awaits the soviet player" in r.output, r.output
    before = tree(camp)
    r = run("adjudicate", camp, f)
    assert r.exit_code != 0 and "error ORDERS-EMPTY" in r.output, r.output
    assert tree(camp) == before


def test_a_missing_orders_default_names_a_player_of_the_game(tmp_path):
    # played by hand: ussr=no-orders in a two-player BlitzWAR game (axis, allies) was accepted and
    # would never apply; a default other than no-orders, or no '=', is refused too
    for spec, words in (("ussr=no-orders", "no player 'ussr'"), ("allies=skip", "the only default is no-orders"),
                        ("allies", "the only default is no-orders")):
        r = run("new", tmp_path / "g", "--scenario", "blitzwar-1939", "--id", "g1", "--player", "axis=A", "--player", "allies=B",
                "--missing-orders-default", spec)
        assert r.exit_code == 64 and "NEW-MISSING-DEFAULT" in r.output and words in r.output, r.output
        assert not (tmp_path / "g").exists()
    r = run("new", tmp_path / "g", "--scenario", "blitzwar-1939", "--id", "g1", "--player", "axis=A", "--player", "allies=B",
            "--missing-orders-default", "allies=no-orders")
    assert r.exit_code == 0, r.output


def _words(text: str) -> str:
    return " ".join(text.split())


def test_help_is_built_from_every_games_own_words():
    """Issue 16, item 13: the help was written for Battle for Germany alone ("(Battle for
    Germany)", its roles, keys and hexes, BlitzWAR combat "to come"). Each game declares its
    words (pbem.core.game.Game) and the help is built from all of them."""
    from pbem.core.games import game
    bfg, bw = game("bfg"), game("blitzwar")
    top = _words(run("--help").output)
    assert "board wargames (Battle for Germany, BlitzWAR)" in top
    new = _words(run("new", "--help").output)
    assert "blitzwar-1939: axis, allies, ussr" in new and "bfg-historical: soviet, western" in new
    assert "BlitzWAR: losses=ask|auto|infantry-first|armour-first (the corps lost in a combat)" in new
    assert "Battle for Germany: retreat=auto, advance=none" in new and "BlitzWAR: losses=auto" in new
    assert "german_east_front = DG2 12.3" in new
    assert "combat, naval, air and diplomacy to come" not in new
    assert "the blitz and normal combat (16, 17)" in new
    tpl = _words(run("orders", "template", "--help").output)
    assert "Battle for Germany: soviet, western" in tpl and "BlitzWAR: axis, allies, ussr" in tpl
    show = _words(run("show", "--help").output)
    assert _words(bfg.show_help) in show and _words(bw.show_help) in show
    assert "BlitzWAR: a zone by its id or name, e.g. warsaw" in show and "Battle for Germany: a hex RRCC" in show
    mp = _words(run("map", "--help").output)
    assert _words(bfg.map_help) in mp and _words(bw.map_help) in mp
    # every game declares its words
    for g in (bfg, bw):
        assert g.status and g.place_help and g.show_help and g.map_help and set(g.standing_help) == set(g.standing_keys)


def test_every_game_declares_what_the_core_needs():
    """Issue 18: `Game` declares its roles, case kit and help examples (no package-name
    convention, no module attributes); the declarations agree with the game's data, and the help
    examples come from them."""
    import importlib

    from pbem.core.games import game, scenarios
    for gid in ("bfg", "blitzwar"):
        g = game(gid)
        used = {p for sid, (sgid, info) in scenarios().items() if sgid == gid for p in info["players"]}
        assert used <= set(g.roles), (gid, used - set(g.roles))
        assert callable(importlib.import_module(g.cases_kit).kit)
        assert scenarios()[g.example_scenario][0] == gid
        role, _, kv = g.example_standing.partition(":")
        key, _, value = kv.partition("=")
        assert role in g.roles and value in g.standing_keys[key]
    new = _words(run("new", "--help").output)
    assert "e.g. bfg-historical or blitzwar-1939" in new
    assert "e.g. western:advance=none or axis:losses=" in new
    assert "e.g. soviet or axis" in _words(run("key", "new", "--help").output)
    import pbem.bfg
    assert not hasattr(pbem.bfg, "TITLE") and not hasattr(pbem.bfg, "GAME_ID") and not hasattr(pbem.bfg, "SCENARIOS")
