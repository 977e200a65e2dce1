"""Every problem at once, each with a hint that fixes it (issue 8): schema and rule problems of
one order file together, a missing field named as missing, a "did you mean" and the line of an
unknown unit id, a refused adjudication printing each problem once under the player's own file
name, FILE-EXISTS on the player's own output files (and --force where it is harmless)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign

KEY = "5" * 64


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"")
            for p in sorted(folder.rglob("*"))}


@pytest.fixture()
def camp(tmp_path: Path) -> Path:
    folder = tmp_path / "c1"
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1",
                 players={"soviet": {"name": "Anna"}, "western": {"name": "Ben"}}, options={}, key_hex=KEY)
    return folder


def orders(camp: Path, tmp_path: Path, body: str, *, turn: bool = True, name: str = "mine.yaml") -> Path:
    _, st = Campaign(camp).current()
    head = ("schema: pbem/orders/v1\ngame: bfg\ncampaign: c1\nplayer: soviet\n"
            + (f"turn: {st['turn']}\n" if turn else "") + f"state: {st['hash']}\n")
    p = tmp_path / name
    p.write_text(head + body)
    return p


def line_of(p: Path, needle: str) -> int:
    return next(n for n, line in enumerate(p.read_text().splitlines(), start=1) if needle in line)


# A broken attack (no `units`) BEFORE the entries with rule errors: the rule errors must still be
# found, and located at their own lines although the broken entry is left out of the check.
BROKEN = """phases:
  - phase: soviet.movement
    moves:
      - {unit: yu-1, too: 0422}
      - {unit: sov-1bff, to: '2424'}
  - phase: soviet.combat
    attacks:
      - target: '2525'
      - target: '2424'
        units: [sov-1gt, sov-8gb]
"""


@pytest.mark.parametrize("cmd", ["validate", "adjudicate"])
def test_schema_errors_do_not_hide_rule_errors(camp, tmp_path, cmd):
    p = orders(camp, tmp_path, BROKEN)
    before = tree(tmp_path)
    r = run(cmd, camp, p)
    out = r.output
    assert r.exit_code == 2, out                       # a schema error: invalid input
    assert tree(tmp_path) == before                    # nothing written
    errors = re.findall(r"^(\S+?):(\d+):(\d+): error ([A-Z-]+)", out, re.M)
    found = {(int(line), code) for _, line, _, code in errors}
    assert (line_of(p, "too: 0422"), "SCHEMA-ADDITIONALPROPERTIES") in found, out
    assert any(c == "SCHEMA-REQUIRED" and ln == line_of(p, "target: '2525'") for ln, c in found), out
    # the rule errors of the entries that are whole, at the line of the unit id itself
    assert (line_of(p, "sov-1bff"), "BFG-UNIT-UNKNOWN") in found, out
    assert (line_of(p, "sov-8gb"), "BFG-UNIT-UNKNOWN") in found, out
    col = [int(c) for f, ln, c, code in errors if code == "BFG-UNIT-UNKNOWN" and int(ln) == line_of(p, "sov-8gb")][0]
    assert p.read_text().splitlines()[line_of(p, "sov-8gb") - 1][col - 1:].startswith("sov-8gb"), out
    # each problem once, in the order of the lines, under the player's own file name
    assert len(errors) == 5, out                       # `too`: an unknown field and no `to`
    assert all(f.endswith("mine.yaml") for f, *_ in errors), out
    assert [int(ln) for _, ln, _, _ in errors] == sorted(int(ln) for _, ln, _, _ in errors), out


def test_a_file_whose_player_is_broken_gets_only_its_schema_errors(camp, tmp_path):
    p = orders(camp, tmp_path, BROKEN)
    p.write_text(p.read_text().replace("player: soviet", "player: 7"))
    r = run("validate", camp, p)
    assert r.exit_code == 2
    assert "SCHEMA-PATTERN" in r.output and "BFG-" not in r.output, r.output


def test_a_whole_file_with_one_bad_standing_order_is_still_checked(camp, tmp_path):
    body = "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: sov-1bff, to: '2424'}\nstanding: {retreat: yes}\n"
    p = orders(camp, tmp_path, body)
    r = run("validate", camp, p)
    assert r.exit_code == 2
    assert "SCHEMA-ENUM" in r.output and "BFG-UNIT-UNKNOWN" in r.output, r.output


def test_missing_turn_says_it_is_missing(camp, tmp_path):
    p = orders(camp, tmp_path, "phases:\n  - phase: soviet.movement\n    moves: []\n", turn=False)
    r = run("validate", camp, p)
    assert r.exit_code == 3, r.output
    assert "ORDERS-TURN-MISSING" in r.output and "no `turn:`" in r.output
    assert "turn None" not in r.output
    assert "turn: 1" in r.output                     # the hint gives the line to add


def test_unknown_unit_did_you_mean(camp, tmp_path):
    body = ("phases:\n  - phase: soviet.replacement\n    replacements:\n      - {unit: sov-5x, hex: '2326'}\n"
            "  - phase: soviet.movement\n    moves:\n      - unit: sov-1bff\n        to: '2424'\n")
    p = orders(camp, tmp_path, body)
    r = run("validate", camp, p)
    assert "unknown unit 'sov-1bff' (did you mean 'sov-1bf'?)" in r.output, r.output
    assert f"mine.yaml:{line_of(p, 'sov-1bff')}:" in r.output, r.output
    assert f"mine.yaml:{line_of(p, 'sov-5x')}:" in r.output, r.output
    # nothing close: no guess
    p2 = orders(camp, tmp_path, "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: zzzzzz, to: '2424'}\n", name="b.yaml")
    r = run("validate", camp, p2)
    assert "unknown unit 'zzzzzz'" in r.output and "did you mean" not in r.output, r.output


def test_refused_adjudication_prints_each_problem_once_with_the_players_file_name(camp, tmp_path):
    body = ("phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: sov-1bff, to: '2424'}\n"
            "  - phase: soviet.combat\n    attacks:\n      - {target: '2424', units: [sov-8gb]}\n")
    p = orders(camp, tmp_path, body)
    before = tree(tmp_path)
    r = run("adjudicate", camp, p)
    assert r.exit_code == 3, r.output
    assert tree(tmp_path) == before
    assert "orders-1-" not in r.output                 # no archive name: nothing was archived
    assert r.output.count("'sov-1bff'") == 1, r.output
    # every problem at once: the second phase's too
    assert r.output.count("'sov-8gb'") == 1, r.output
    assert f"mine.yaml:{line_of(p, 'sov-1bff')}:" in r.output
    assert "REFUSED" in r.output and "nothing written" in r.output
    # as JSON, the report names the player's file too
    import json
    js = json.loads(run("adjudicate", camp, p, "--json").output)
    assert js["output"] is None and {i["file"] for i in js["issues"]} == {str(p)}


def test_file_exists_on_the_players_own_files_offers_force(camp, tmp_path):
    mine = tmp_path / "soviet-t01.yaml"
    mine.write_text("my notes\n")
    r = run("orders", "template", camp, "--player", "soviet", "-o", mine)
    assert r.exit_code == 74 and "FILE-EXISTS" in r.output, r.output
    assert "your own file" in r.output and "--force" in r.output and "archived" not in r.output, r.output
    assert mine.read_text() == "my notes\n"
    r = run("orders", "template", camp, "--player", "soviet", "-o", mine, "--force")
    assert r.exit_code == 0, r.output
    assert mine.read_text().startswith("# yaml-language-server")
    # the map: SVG (and PNG name) the same way
    pic = tmp_path / "now.svg"
    pic.write_text("old")
    r = run("map", camp, "-o", pic)
    assert r.exit_code == 74 and "your own file" in r.output and "--force" in r.output, r.output
    assert pic.read_text() == "old"
    assert run("map", camp, "-o", pic, "--force").exit_code == 0
    assert pic.read_text().startswith("<")


def test_chain_reveal_may_be_forced_but_a_secret_chain_never(tmp_path):
    heads = {}
    for role in ("soviet", "western"):
        r = run("chain", "new", "--player", role, "--length", "5", "-o", tmp_path / f"{role}.chain")
        assert r.exit_code == 0, r.output
        heads[role] = re.search(r"head \(publish it\): ([0-9a-f]{64})", r.output).group(1)
    secret = (tmp_path / "soviet.chain").read_bytes()
    r = run("chain", "new", "--player", "soviet", "-o", tmp_path / "soviet.chain")
    assert r.exit_code == 74 and "FILE-EXISTS" in r.output and "--force" not in r.output, r.output
    r = run("chain", "new", "--player", "soviet", "-o", tmp_path / "soviet.chain", "--force")
    assert r.exit_code == 64                              # no such option for the secret chain (a usage error)
    assert (tmp_path / "soviet.chain").read_bytes() == secret
    g = tmp_path / "g"
    # a campaign of the first protocol (reveals with the orders), as tools re-make old archives:
    # `pbem new` makes protocol 2 only (issue 29)
    from pbem.core.actions import new_campaign
    new_campaign(g, scenario="bfg-historical", campaign_id="g", players={"soviet": {"name": "A"}, "western": {"name": "B"}},
                 options={}, chain_heads=heads, chain_protocol=1)
    o = orders(g, tmp_path, "phases: []\n")
    out = tmp_path / "reveal.yaml"
    out.write_text("x")
    r = run("chain", "reveal", tmp_path / "soviet.chain", g, "--orders", o, "-o", out)
    assert r.exit_code == 74 and "your own file" in r.output and "--force" in r.output, r.output
    assert run("chain", "reveal", tmp_path / "soviet.chain", g, "--orders", o, "-o", out, "--force").exit_code == 0
    assert "link:" in out.read_text()
