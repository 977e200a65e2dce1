"""Dice without a referee (hash chains): the ceremony through the CLI, and every way to cheat
it that pbem must catch: a tampered link, a link from another chain, orders changed after the
reveal, a missing reveal, a changed archived reveal; decisions resume with the same dice."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

ATTACK = "    attacks:\n      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga], advance: ask}\n"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def game(tmp_path: Path):
    for p in ("soviet", "western"):
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    r = run("new", tmp_path / "camp", "--scenario", "bfg-historical", "--id", "nogm", "--player", "soviet=A",
            "--player", "western=B", "--dice", "chain", "--commit", f"soviet={tmp_path / 'soviet.chain'}",
            "--commit", f"western={tmp_path / 'western.chain'}")
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "camp" / "private" / "dice.key").exists()
    run("orders", "template", tmp_path / "camp", "-p", "soviet", "-o", tmp_path / "t.yaml")
    head = [ln for ln in (tmp_path / "t.yaml").read_text().splitlines()
            if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    orders = tmp_path / "s.yaml"
    orders.write_text("\n".join(head) + "\nphases:\n  - phase: soviet.combat\n" + ATTACK)
    return tmp_path, tmp_path / "camp", orders


def reveal(tmp, camp, player, orders, name=None):
    out = tmp / (name or f"r-{player}.yaml")
    r = run("chain", "reveal", tmp / f"{player}.chain", camp, "--orders", orders, "-o", out)
    assert r.exit_code == 0, r.output
    return out


def test_ceremony_adjudicate_replay_verify(game):
    tmp, camp, orders = game
    rs, rw = reveal(tmp, camp, "soviet", orders), reveal(tmp, camp, "western", orders)
    r = run("adjudicate", camp, orders, "--reveal", rs, "--reveal", rw)
    assert r.exit_code in (0, 5), r.output
    assert "link 1 of the western player" in r.output
    rep = json.loads((camp / "steps" / "001" / "report.json").read_text())
    assert [x["player"] for x in rep["dice"]["reveals"]] == ["soviet", "western"]
    r = run("replay", camp)
    assert r.exit_code == 0 and "2 chain link(s) verified" in r.output and "REPLAY OK" in r.output, r.output
    r = run("dice", "verify", camp, rep["rolls"][0]["label"])
    assert r.exit_code == 0 and "MATCH" in r.output, r.output
    if rep["stopped"] == "pending":
        # a decision answer brings no new orders: no reveal, and the phase keeps its dice
        pend = json.loads(run("show", camp, "--json").output)["pending"][0]
        run("orders", "template", camp, "-p", pend["player"], "-o", tmp / "a.yaml")
        first = pend["options"][0]
        choice = "[" + ", ".join(first) + "]" if isinstance(first, list) else f"'{first}'"
        (tmp / "a.yaml").write_text((tmp / "a.yaml").read_text().replace("choice: ''", f"choice: {choice}"))
        assert run("adjudicate", camp, tmp / "a.yaml", "--reveal", rs).exit_code != 0   # no new link is used
        r = run("adjudicate", camp, tmp / "a.yaml")
        assert r.exit_code in (0, 5), r.output  # 5: a further decision follows
        rep2 = json.loads((camp / "steps" / "002" / "report.json").read_text())
        assert rep2["rolls"][0] == rep["rolls"][0]
        assert run("replay", camp).exit_code == 0


def test_missing_foreign_tampered_and_late_reveals_are_refused(game):
    tmp, camp, orders = game
    before = tree(camp)
    rs = reveal(tmp, camp, "soviet", orders)
    r = run("adjudicate", camp, orders, "--reveal", rs)
    assert r.exit_code != 0 and "DICE-REVEAL-MISSING" in r.output
    # a link from a chain the player did not commit to
    assert run("chain", "new", "-p", "western", "-o", tmp / "other.chain").exit_code == 0
    r = run("chain", "reveal", tmp / "other.chain", camp, "--orders", orders, "-o", tmp / "x.yaml")
    assert r.exit_code != 0 and "DICE-REVEAL-PLAYER" in r.output
    # a tampered link
    rw = reveal(tmp, camp, "western", orders)
    bad = tmp / "bad.yaml"
    bad.write_text(re.sub(r'link: "?[0-9a-f]{64}"?', 'link: "' + "0" * 64 + '"', rw.read_text()))
    r = run("adjudicate", camp, orders, "--reveal", rs, "--reveal", bad)
    assert r.exit_code != 0 and "DICE-REVEAL-CHAIN" in r.output, r.output
    # orders changed after the other player revealed
    changed = tmp / "s2.yaml"
    changed.write_text(orders.read_text().replace("advance: ask", "advance: none"))
    r = run("adjudicate", camp, changed, "--reveal", rs, "--reveal", rw)
    assert r.exit_code != 0 and "DICE-REVEAL-ORDERS" in r.output
    assert tree(camp) == before


def test_replay_catches_a_changed_reveal(game):
    tmp, camp, orders = game
    rs, rw = reveal(tmp, camp, "soviet", orders), reveal(tmp, camp, "western", orders)
    assert run("adjudicate", camp, orders, "--reveal", rs, "--reveal", rw).exit_code in (0, 5)
    copy = tmp / "copy"
    shutil.copytree(camp, copy)
    f = copy / "steps" / "001" / "reveal-western-001.yaml"
    f.write_text(f.read_text() + "# edited\n")
    r = run("replay", copy)
    assert r.exit_code == 4 and "HASH-REVEAL" in r.output
