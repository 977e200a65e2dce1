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
from pbem.core.errors import ExitCode
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
    pairs = sorted([p, sha256_hex(b)] for p, b in (("amber", amber.encode()), ("blue", (tmp_path / "blue.yaml").read_bytes()),
                                                    ("cyan", cyan.read_bytes())))
    phase = [e for e in rep["events"] if e["type"] == "phase"][0]
    assert phase["key_inputs"]["orders"] == sha256_hex(canonical_json(pairs))
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
    completes the phase needs reveals, and every player's reveal is bound to all three order
    files; decision answers use no new link; the archive replays."""
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
    # the reveal of a player who has seen only cyan's file is still bound to all three files
    reveals = []
    for p in PLAYERS:
        out = tmp_path / f"reveal-{p}.yaml"
        r = run("chain", "reveal", tmp_path / f"{p}.chain", camp, "--orders", c, "-o", out)
        assert r.exit_code == 0, r.output
        reveals += ["--reveal", out]
    r = run("adjudicate", camp, c)
    assert r.exit_code == 4 and "DICE-REVEAL-MISSING" in r.output, r.output
    r = run("adjudicate", camp, c, *reveals)
    assert r.exit_code == ExitCode.PENDING, r.output
    st = state_of(camp)
    assert st["dice"]["used"] == 1
    for d in st["pending"]:
        sc = d["context"]["score"]
        f = write(tmp_path / f"ans-{d['player']}.yaml", orders(camp, d["player"], f"decisions:\n  - id: {d['id']}\n    choice: {{attack: {sc}, defend: 0}}\n"))
        r = run("adjudicate", camp, f)
        assert r.exit_code in (ExitCode.WAITING, ExitCode.OK), r.output
    st = state_of(camp)
    assert st["turn"] == 2 and st["dice"]["used"] == 1     # answers used no new link
    r = run("replay", camp)
    assert r.exit_code == 0 and "3 chain link(s) verified" in r.output, r.output
