"""Dice without a referee (hash chains), protocol 1 (campaigns started before issue 17: reveals
given with the orders; tests/test_chain_v2.py has protocol 2): the ceremony through the CLI, and every way to cheat
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
    protocol1_campaign(tmp_path / "camp", tmp_path, "nogm")   # protocol 2: test_chain_v2.py
    assert not (tmp_path / "camp" / "private" / "dice.key").exists()
    run("orders", "template", tmp_path / "camp", "-p", "soviet", "-o", tmp_path / "t.yaml")
    head = [ln for ln in (tmp_path / "t.yaml").read_text().splitlines()
            if ln.split(":")[0] in ("schema", "game", "campaign", "player", "turn", "state")]
    orders = tmp_path / "s.yaml"
    orders.write_text("\n".join(head) + "\nphases:\n  - phase: soviet.combat\n" + ATTACK)
    return tmp_path, tmp_path / "camp", orders


def protocol1_campaign(folder: Path, chains: Path, cid: str) -> None:
    """A campaign of the first chain protocol, as an archive started before issue 17 holds it:
    `pbem new` makes protocol 2 only (issue 29), so through the API tools re-make old archives
    with."""
    from pbem.core.actions import new_campaign
    from pbem.core.chain import load_chain_file
    heads = {p: load_chain_file(chains / f"{p}.chain")["head"] for p in ("soviet", "western")}
    new_campaign(folder, scenario="bfg-historical", campaign_id=cid, players={"soviet": {"name": "A"}, "western": {"name": "B"}},
                 options={}, chain_heads=heads, chain_protocol=1)


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


# ------------------------------------------------------------------ issue 8: a reused link
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bfg-chain-decisions"


def _first_step_after_decisions(camp: Path) -> int:
    """The first archived step with reveals that follows a step answering a decision."""
    answered = False
    for d in sorted((camp / "steps").iterdir()):
        if d.name == "000":
            continue
        rep = json.loads((d / "report.json").read_text())
        if answered and rep["dice"].get("reveals"):
            return int(d.name)
        answered = answered or any(e["type"] == "resume" for e in rep["events"])
    raise AssertionError("the example has no orders after a decision answer")


def _in_format_of(step: Path, archived: Path) -> dict[str, bytes]:
    """The files of ``step``, its report written in the report format of ``archived`` (an
    archive of an earlier pbem is pbem/report/v1: `pbem replay` compares it so, too)."""
    from pbem.core.campaign import Campaign
    from pbem.core.data import load_ruleset
    from pbem.core.report import as_version, render_text, report_json
    files = {p.name: p.read_bytes() for p in step.iterdir()}
    rep = as_version(json.loads(files["report.json"]), json.loads((archived / "report.json").read_text())["schema"])
    g, rs = load_ruleset(Campaign(step.parents[1]).manifest["scenario"])
    files["report.json"] = report_json(rep).encode("utf-8")
    files["report.txt"] = render_text(rep, g, rs).encode("utf-8")
    return files


def test_the_other_player_cannot_preview_the_dice_after_a_decision(tmp_path):
    """The attack of issue 8: after decisions were answered, the other player rebuilds the
    phasing player's reveal from the published reveal of link 1 (changing only its `orders`
    hash), adjudicates a private copy of the campaign and would see the dice before sending
    orders. The chain counter survives decision answers, so the next orders need link 2, which
    nobody but its owner knows: the rebuilt reveal is refused."""
    k = _first_step_after_decisions(EXAMPLE)
    camp = tmp_path / "copy"
    shutil.copytree(EXAMPLE, camp)
    for d in sorted((camp / "steps").iterdir()):
        if int(d.name) >= k:
            shutil.rmtree(d)            # the campaign as it stood before those orders
    state = json.loads(run("show", camp, "--json").output)
    assert not state["pending"]
    from pbem.core.campaign import Campaign
    st = Campaign(camp).current()[1]
    assert st["dice"]["used"] >= 1 and all(v["index"] == st["dice"]["used"] for v in st["dice"]["revealed"].values())
    orders = next((EXAMPLE / "steps" / f"{k:03d}").glob("orders-*.yaml"))
    player = orders.name.split("-")[2]
    digest = __import__("hashlib").sha256(orders.read_bytes()).hexdigest()
    forged = []
    for rv in sorted((camp / "steps" / "001").glob("reveal-*.yaml")):     # link 1, public since step 001
        text = re.sub(r"(?m)^orders: .*$", f"orders: {digest}", rv.read_text())
        forged.append(tmp_path / rv.name)
        forged[-1].write_text(text)
    r = run("adjudicate", camp, orders, *[a for f in forged for a in ("--reveal", f)])
    assert r.exit_code == 4 and "DICE-LINK-SPENT" in r.output and f"needs link {st['dice']['used'] + 1}" in r.output, r.output
    assert not (camp / "steps" / f"{k:03d}").exists()
    # the real reveals (the next links) are accepted: the campaign goes on as archived
    real = sorted((EXAMPLE / "steps" / f"{k:03d}").glob("reveal-*.yaml"))
    assert all(f"-{st['dice']['used'] + 1:03d}.yaml" in p.name for p in real)
    r = run("adjudicate", camp, orders, *[a for f in real for a in ("--reveal", f)])
    assert r.exit_code in (0, 5), r.output
    assert _in_format_of(camp / "steps" / f"{k:03d}", EXAMPLE / "steps" / f"{k:03d}") == \
           {p.name: p.read_bytes() for p in (EXAMPLE / "steps" / f"{k:03d}").iterdir()}
    assert player in ("soviet", "western")


def test_replay_flags_a_reused_link(tmp_path):
    """An archive in which a later step reuses an earlier link (as campaigns made with the
    bug of issue 8 did) is flagged by `pbem replay`, even with consistent hashes."""
    k = _first_step_after_decisions(EXAMPLE)
    camp = tmp_path / "copy"
    shutil.copytree(EXAMPLE, camp)
    d = camp / "steps" / f"{k:03d}"
    rep = json.loads((d / "report.json").read_text())
    for r in rep["dice"]["reveals"]:
        old = d / r["file"]
        first = camp / "steps" / "001" / f"reveal-{r['player']}-001.yaml"
        text = re.sub(r"(?m)^orders: .*$", f"orders: {r['orders']}", first.read_text())
        old.unlink()
        r["file"] = f"reveal-{r['player']}-001.yaml"
        (d / r["file"]).write_text(text)
        r["index"] = 1
        r["link"] = re.search(r"(?m)^link: ['\"]?([0-9a-f]{64})", text).group(1)
        r["sha256"] = __import__("hashlib").sha256(text.encode()).hexdigest()
    (d / "report.json").write_text(json.dumps(rep, ensure_ascii=False, indent=1) + "\n")
    r = run("replay", camp)
    assert r.exit_code == 4 and "REPLAY-LINK-REUSED" in r.output, r.output


def test_a_campaign_in_progress_may_leave_the_reveals_for_later(game):
    """A protocol-1 campaign (started before issue 17) adjudicated without reveals follows the
    request flow: the orders are archived, then every player reveals for them (bound to the
    archive head), and the archive replays."""
    tmp, camp, orders = game
    r = run("adjudicate", camp, orders)
    assert r.exit_code == 6 and "chain link" in r.output, r.output
    rv = []
    for p in ("soviet", "western"):
        out = tmp / f"late-{p}.yaml"
        r = run("chain", "reveal", tmp / f"{p}.chain", camp, "-o", out)
        assert r.exit_code == 0 and "head:" in out.read_text(), r.output
        rv += ["--reveal", out]
    r = run("adjudicate", camp, *rv)
    assert r.exit_code in (0, 5), r.output
    r = run("replay", camp)
    assert r.exit_code == 0 and "2 chain link(s) verified" in r.output, r.output
