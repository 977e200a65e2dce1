"""The plug-in contract of the core (pbem.core.game), proved with a toy game of a few lines
(tests/toygame): three players whose orders for one phase arrive one at a time by e-mail, a
sealed choice per player (committed in turn 1, opened in turn 2), several decisions pending at
once with structured choices, through the CLI and the archive, replayed byte for byte, with the
game master's key and with dice without a referee."""
from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core import games
from pbem.core.canon import canonical_json, sha256_hex
from pbem.core.dicesource import _NoDice
from pbem.core.errors import ExitCode, Issue
from pbem.core.game import PhaseOrdersInvalid, RefusingDice
from pbem.core.yamlio import load_yaml
from tests.toygame import GAME, PLAYERS


@pytest.fixture(autouse=True)
def toy():
    games.register("toy", GAME)
    yield
    games.unregister("toy")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def state_of(camp: Path) -> dict:
    from pbem.core.campaign import Campaign
    return Campaign(camp).current()[1]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def orders(camp: Path, player: str, body: str) -> str:
    st = state_of(camp)
    return (f"schema: pbem/orders/v1\ngame: toy\ncampaign: {st['campaign']}\nplayer: {player}\n"
            f"turn: {st['turn']}\nstate: {st['hash']}\n{body}")


def as_eml(path: Path, sender: str, yaml_text: str) -> Path:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "gm@example.net", "my orders"
    m.set_content("Hello,\nmy orders are attached.\n")
    m.add_attachment(yaml_text.encode("utf-8"), maintype="application", subtype="yaml", filename="orders.yaml")
    path.write_bytes(bytes(m))
    return path


def seal(camp: Path, tmp: Path, player: str, value: int) -> dict:
    out = tmp / f"{player}.opening.yaml"
    r = run("seal", camp, "--player", player, "--id", f"secret-{player}", "--choice", str(value), "-o", out)
    assert r.exit_code == 0, r.output
    return load_yaml(out.read_bytes(), str(out)).data


def new(tmp: Path, *extra) -> Path:
    camp = tmp / "duel"
    r = run("new", camp, "--scenario", "toy-duel", "--id", "duel",
            *[a for p in PLAYERS for a in ("--player", f"{p}={p.title()}:{p}@example.org")], *extra)
    assert r.exit_code == 0, r.output
    return camp


def test_three_players_sealed_choices_and_several_decisions_end_to_end(tmp_path):
    camp = new(tmp_path, "--missing-orders-default", "cyan=no-orders")
    secret = {p: seal(camp, tmp_path, p, v) for p, v in zip(PLAYERS, (3, 1, 2))}
    # the commitments carry nothing of the choice or the nonce
    st0 = state_of(camp)
    assert sorted(p["player"] for p in st0["awaiting"]) == list(PLAYERS)

    # --- turn 1: the orders arrive one at a time, the first by e-mail
    def t1(p, bet):
        s = secret[p]["seal"]
        return orders(camp, p, f"phases:\n  - {{phase: play, bet: {bet}}}\nseal:\n  - {{id: {s['id']}, commitment: {s['commitment']}}}\n")
    amber = t1("amber", 2)
    r = run("adjudicate", camp, as_eml(tmp_path / "amber.eml", "amber@example.org", amber))
    assert r.exit_code == ExitCode.WAITING, r.output
    assert "still awaited: blue, cyan" in r.output
    st = state_of(camp)
    assert st["received"]["amber"]["step"] == 1 and [a["player"] for a in st["awaiting"]] == ["blue", "cyan"]
    r = run("show", camp)
    assert "awaiting: orders from the blue player" in r.output and "received: orders of the amber player" in r.output
    # amber cannot change her orders now that they are in
    r = run("adjudicate", camp, write(tmp_path / "amber2.yaml", t1("amber", 3)))
    assert r.exit_code == ExitCode.MISMATCH and "ORDERS-ALREADY-RECEIVED" in r.output
    r = run("adjudicate", camp, write(tmp_path / "blue.yaml", t1("blue", 1)))
    assert r.exit_code == ExitCode.WAITING, r.output
    # cyan's file completes the phase: it runs, with dice keyed on all three order files
    cyan = write(tmp_path / "cyan.yaml", t1("cyan", 3))
    r = run("adjudicate", camp, cyan)
    assert r.exit_code == ExitCode.PENDING, r.output
    st = state_of(camp)
    assert "received" not in st
    assert sorted(d["player"] for d in st["pending"]) == list(PLAYERS)
    assert sorted(a["player"] for a in st["awaiting"]) == list(PLAYERS)
    rep = json.loads((camp / "steps" / "003" / "report.json").read_text())
    # with a game master, files are named by receipts keyed with the dice key (issue 17: a
    # sha256 let the others guess a file made from the template); the phase gives the sha256s
    from pbem.core.dice import receipt
    key = (camp / "private" / "dice.key").read_text().strip()
    files = (("amber", amber.encode()), ("blue", (tmp_path / "blue.yaml").read_bytes()), ("cyan", cyan.read_bytes()))
    pairs = sorted([p, receipt(key, b)] for p, b in files)
    phase = [e for e in rep["events"] if e["type"] == "phase"][0]
    assert phase["key_inputs"]["orders"] == sha256_hex(canonical_json(pairs))
    # the phase stops at decisions: its files are still being carried out, so their sha256s
    # (which would let the others test guesses) come with the step that finishes the phase
    # (issue 20: the state names them by receipt and step, and keeps none of their orders)
    assert not [e for e in rep["events"] if e["type"] == "digests"]
    assert sorted(st["resume"]["files"]) == list(PLAYERS) and "docs" not in st["resume"]
    # nothing in any file of the campaign reveals a sealed choice before its opening
    for p in PLAYERS:
        for f in camp.rglob("*"):
            if f.is_file():
                assert secret[p]["nonce"] not in f.read_text("utf-8", "replace"), f

    # --- the three decisions, structured choices checked by the game
    def answer(p, a, d):
        pid = [x for x in state_of(camp)["pending"] if x["player"] == p][0]["id"]
        return orders(camp, p, f"decisions:\n  - id: {pid}\n    choice: {{attack: {a}, defend: {d}}}\n")
    sc = {d["player"]: d["context"]["score"] for d in st["pending"]}
    r = run("adjudicate", camp, write(tmp_path / "a-bad.yaml", answer("amber", sc["amber"] + 1, 0)))
    assert r.exit_code == ExitCode.ILLEGAL and "ORDERS-DECISION-CHOICE" in r.output and "attack + defend" in r.output
    r = run("adjudicate", camp, write(tmp_path / "a1.yaml", answer("amber", sc["amber"], 0)))
    assert r.exit_code == ExitCode.WAITING, r.output
    r = run("adjudicate", camp, write(tmp_path / "b1.yaml", answer("blue", 0, sc["blue"])))
    assert r.exit_code == ExitCode.WAITING, r.output
    # cyan is late: the game master applies cyan's declared default (it takes its auto split)
    r = run("adjudicate", camp, "--missing-orders")
    assert r.exit_code == 0, r.output
    st = state_of(camp)
    assert st["turn"] == 2 and not st["pending"] and sum(st["points"].values()) == 1
    rep = json.loads((camp / "steps" / f"{st['step']:03d}" / "report.json").read_text())
    shown = [f for e in rep["events"] if e["type"] == "digests" for f in e["files"]]
    assert {(p, sha256_hex(b)) for p, b in files} <= {(f["player"], f["sha256"]) for f in shown}

    # --- turn 2: the openings; every wrong one is refused and writes nothing
    def t2(p, op):
        return orders(camp, p, f"phases:\n  - {{phase: play, bet: 1}}\nopen:\n  - {{id: {op['id']}, nonce: '{op['nonce']}', choice: {json.dumps(op['choice'])}}}\n")
    before = sorted(str(x) for x in camp.rglob("*"))
    bad = [
        (dict(secret["amber"]["open"], choice=2), "amber", "SEAL-MISMATCH"),                      # another choice
        (dict(secret["amber"]["open"], nonce="0" * 64), "amber", "SEAL-MISMATCH"),                # another nonce
        (secret["blue"]["open"], "amber", "SEAL-NOT-YOURS"),                                       # someone else's
        (dict(secret["amber"]["open"], id="secret-nobody"), "amber", "SEAL-UNKNOWN"),             # never sealed
    ]
    for k, (op, p, code) in enumerate(bad):
        r = run("adjudicate", camp, write(tmp_path / f"bad{k}.yaml", t2(p, op)))
        assert r.exit_code != 0 and code in r.output, (code, r.output)
    assert sorted(str(x) for x in camp.rglob("*")) == before
    for p in PLAYERS:
        r = run("adjudicate", camp, write(tmp_path / f"{p}-t2.yaml", t2(p, secret[p]["open"])))
        assert r.exit_code in (ExitCode.WAITING, ExitCode.PENDING), r.output
    st = state_of(camp)
    assert st["sealed"]["secret-amber"]["opened"]["choice"] == 3
    # a second opening of the same choice is refused
    for p in PLAYERS:
        pid = [x for x in st["pending"] if x["player"] == p][0]
        r = run("adjudicate", camp, write(tmp_path / f"{p}-t2a.yaml", answer(p, pid["context"]["score"], 0)))
        assert r.exit_code in (ExitCode.WAITING, ExitCode.OK), r.output
    st = state_of(camp)
    assert st["phase"] == "end" and st["result"]["winners"]

    # --- anyone replays the whole archive: every state, report, roll and opening
    r = run("replay", camp)
    assert r.exit_code == 0, r.output


def test_an_opening_given_twice_is_refused(tmp_path):
    from pbem.core.game import Submission
    from pbem.core.sealed import check, new_opening
    op = new_opening(campaign="c", player="amber", id="x", choice=[1, 2])
    state = {"campaign": "c", "sealed": {"x": {"player": "amber", "commitment": op["commitment"], "step": 1, "turn": 1,
                                               "opened": {"step": 2, "nonce": op["nonce"], "choice": [1, 2]}}}}
    doc = {"player": "amber", "open": [{"id": "x", "nonce": op["nonce"], "choice": [1, 2]}]}
    assert [i.code for i in check(state, Submission("amber", doc, "d"))] == ["SEAL-OPENED"]
    doc = {"player": "amber", "seal": [{"id": "x", "commitment": op["commitment"]}]}
    assert [i.code for i in check(state, Submission("amber", doc, "d"))] == ["SEAL-EXISTS"]


def test_a_commitment_binds_campaign_player_and_id():
    from pbem.core.sealed import commitment
    base = dict(campaign="c", player="amber", id="x", nonce="ab" * 32, choice=3)
    c = commitment(**base)
    for k, v in (("campaign", "d"), ("player", "blue"), ("id", "y"), ("nonce", "cd" * 32), ("choice", 4)):
        assert commitment(**{**base, k: v}) != c


def test_three_players_with_dice_without_a_referee(tmp_path):
    """Hash chains with three players and orders arriving one at a time: only the step that
    completes the phase, and rolls, asks for links (issue 16 item 15), once its files are
    archived, and every player's reveal is bound to all three order files; the archive
    replays."""
    for p in PLAYERS:
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    camp = new(tmp_path, "--dice", "chain", *[a for p in PLAYERS for a in ("--commit", f"{p}={tmp_path / (p + '.chain')}")])
    secret = {p: seal(camp, tmp_path, p, 1) for p in PLAYERS}

    def t1(p):
        s = secret[p]["seal"]
        return write(tmp_path / f"{p}.yaml", orders(camp, p, f"phases:\n  - {{phase: play, bet: 2}}\nseal:\n  - {{id: {s['id']}, commitment: {s['commitment']}}}\n"))
    a, b = t1("amber"), t1("blue")
    assert run("adjudicate", camp, a).exit_code == ExitCode.WAITING
    assert run("adjudicate", camp, b).exit_code == ExitCode.WAITING
    c = t1("cyan")
    # protocol 2 (issue 17): no link before the orders are archived; the last file makes the
    # phase roll, so it is archived and every player is asked for a link bound to all three
    r = run("chain", "reveal", tmp_path / "amber.chain", camp, "--orders", c, "-o", tmp_path / "early.yaml")
    assert r.exit_code == ExitCode.MISMATCH and "DICE-REVEAL-EARLY" in r.output, r.output
    r = run("adjudicate", camp, c)
    assert r.exit_code == ExitCode.WAITING and "chain link" in r.output, r.output

    def reveal_all():
        reveals = []
        for p in PLAYERS:
            out = tmp_path / f"reveal-{p}.yaml"
            r = run("chain", "reveal", tmp_path / f"{p}.chain", camp, "-o", out, "--force")
            assert r.exit_code == 0, r.output
            reveals += ["--reveal", out]
        return reveals
    r = run("adjudicate", camp, *reveal_all())
    assert r.exit_code == ExitCode.PENDING, r.output
    st = state_of(camp)
    assert st["dice"]["used"] == 1
    for d in st["pending"]:
        sc = d["context"]["score"]
        f = write(tmp_path / f"ans-{d['player']}.yaml", orders(camp, d["player"], f"decisions:\n  - id: {d['id']}\n    choice: {{attack: {sc}, defend: 0}}\n"))
        r = run("adjudicate", camp, f)
        assert r.exit_code in (ExitCode.WAITING, ExitCode.OK), r.output
        if state_of(camp)["dice"].get("request"):      # dice after the answers: fresh links
            r = run("adjudicate", camp, *reveal_all())
            assert r.exit_code in (ExitCode.WAITING, ExitCode.OK, ExitCode.PENDING), r.output
    st = state_of(camp)
    assert st["turn"] == 2 and st["dice"]["used"] >= 1
    r = run("replay", camp)
    assert r.exit_code == 0 and "3 chain link(s) verified" in r.output and "REPLAY OK" in r.output, r.output


def test_orders_refused_after_the_links_are_shown_are_void_and_the_links_spent(tmp_path, monkeypatch):
    """Hash chains (issue 17, way 2): archived orders that the run refuses only after a die (here
    the toy game's dry run is told to pass what its run refuses) cannot free the links shown for
    them: the step is archived as void with the reveals, the links are spent, new orders are
    awaited, and the same links are refused for them."""
    for p in PLAYERS:
        assert run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain").exit_code == 0
    camp = new(tmp_path, "--dice", "chain", "--standing", "amber:auto", "--standing", "blue:auto", "--standing", "cyan:auto",
               *[a for p in PLAYERS for a in ("--commit", f"{p}={tmp_path / (p + '.chain')}")])

    def reveal_all(tag):
        out = []
        for p in PLAYERS:
            f = tmp_path / f"r{tag}-{p}.yaml"
            r = run("chain", "reveal", tmp_path / f"{p}.chain", camp, "-o", f, "--force")
            assert r.exit_code == 0, r.output
            out += ["--reveal", f]
        return out
    secret = {p: seal(camp, tmp_path, p, 1) for p in PLAYERS}
    for p in PLAYERS:                                   # turn 1
        s = secret[p]["seal"]
        f = write(tmp_path / f"t1-{p}.yaml", orders(camp, p, f"phases:\n  - {{phase: play, bet: 1}}\nseal:\n  - {{id: {s['id']}, commitment: {s['commitment']}}}\n"))
        r = run("adjudicate", camp, f)
        assert r.exit_code == ExitCode.WAITING, r.output
    r = run("adjudicate", camp, *reveal_all("1"))
    assert r.exit_code == ExitCode.OK, r.output
    assert state_of(camp)["turn"] == 2
    # turn 2: amber opens her secret, blue and cyan do not; the dry run is fooled into passing,
    # and the run (a buggy game) refuses them only once the key is known, before any die (a
    # refusal after a die makes orders void instead: tests/core/test_kernel_void.py)
    monkeypatch.setattr(type(GAME), "check_orders", lambda self, rs, state, sub: [])
    real_run_phase = type(GAME).run_phase

    def refuse_once_keyed(self, run):
        keyed = not isinstance(run.dice, (_NoDice, RefusingDice)) and all(pk is not None for pk, _, _ in getattr(run.dice, "_parts", []))
        if run.state["turn"] == 2 and keyed:
            raise PhaseOrdersInvalid([Issue("TOY-OPEN", "the blue player's secret is not opened")])
        return real_run_phase(self, run)
    monkeypatch.setattr(type(GAME), "run_phase", refuse_once_keyed)
    o = secret["amber"]["open"]
    files = [write(tmp_path / "t2-amber.yaml", orders(camp, "amber", f"phases:\n  - {{phase: play, bet: 1}}\nopen:\n  - {{id: {o['id']}, nonce: {o['nonce']}, choice: {o['choice']}}}\n"))]
    files += [write(tmp_path / f"t2-{p}.yaml", orders(camp, p, "phases:\n  - {phase: play, bet: 1}\n")) for p in ("blue", "cyan")]
    for f in files:
        r = run("adjudicate", camp, f)
        assert r.exit_code == ExitCode.WAITING, r.output
    k = state_of(camp)["step"]
    assert state_of(camp)["dice"]["request"]
    shown = reveal_all("2")
    r = run("adjudicate", camp, *shown)
    assert r.exit_code == ExitCode.OK, r.output
    rep = json.loads((camp / "steps" / f"{k + 1:03d}" / "report.json").read_text())
    assert rep["stopped"] == "void" and len(rep["dice"]["reveals"]) == 3
    assert any(e["type"] == "files-void" and "TOY-OPEN" in e["issues"] for e in rep["events"])
    st = state_of(camp)
    assert st["dice"]["used"] == 2 and not st["dice"].get("request") and "received" in st and st["turn"] == 2
    # the shown links are spent: refused for any other orders (the awaited player sends new ones)
    assert [a["player"] for a in ([st["awaiting"]] if isinstance(st["awaiting"], dict) else st["awaiting"])] == ["cyan"]
    f = write(tmp_path / "t2-cyan-again.yaml", orders(camp, "cyan", "phases:\n  - {phase: play, bet: 2}\n"))
    r = run("adjudicate", camp, f)
    assert r.exit_code == ExitCode.WAITING and state_of(camp)["dice"]["request"], r.output
    r = run("adjudicate", camp, *shown)
    assert r.exit_code == 4 and "DICE-LINK-SPENT" in r.output, r.output
    r = run("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK" in r.output, r.output
