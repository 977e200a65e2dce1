"""The witness of a hash-chain campaign, by mail through the judge (docs/judge.md, "The witness";
docs/game-master.md, "Missing orders"): his e-mail is in campaign.yaml (`pbem new --witness-email`);
at the end of the grace period the judge applies the missing-orders default, whose compelled
attacks (turn 1, BfG 12.2.1) meet a die: the step's mail asks the present player and the witness
for their links; the judge takes the witness's reveal from his address only and carries the
step out when the last link is in."""
from __future__ import annotations

from datetime import timedelta

from click.testing import CliRunner
from judgekit import T0, Game, body, mail

from pbem.cli import main
from pbem.core.chain import load_chain_file
from pbem.judge.agent import Agent, load_agent_config
from pbem.judge.judge import Judge, JudgeLog


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def _defaulted(tmp_path) -> tuple[Game, Judge]:
    """The campaign with Wendy as witness, after the grace period of step 000 (Anna sent nothing)."""
    for p in ("soviet", "western", "witness"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    head = load_chain_file(tmp_path / "witness.chain")["head"]
    game = Game(tmp_path, chain=True, witness={"name": "Wendy", "head": head, "email": "wendy@example.org"})
    assert game.state()["dice"]["witness"] == {"name": "Wendy", "head": head}      # his e-mail: campaign.yaml only
    judge = game.judge()
    judge.run_once(T0)                                      # the clock of step 000 starts
    judge.run_once(T0 + timedelta(days=3, minutes=1))       # deadline 2d + grace 1d: the default
    st = game.state()
    assert st["step"] == 1 and st["dice"]["request"]["players"] == ["western", "witness"], game.log()
    return game, judge


def _western_reveals_and_step_2(tmp_path, game: Game, judge: Judge) -> None:
    """Ben, present, reveals his link last: the default is carried out; the archive replays."""
    run("chain", "reveal", tmp_path / "western.chain", game.outbox / "new" / "c1-step-001-to-western.eml",
        "-o", tmp_path / "reveal-western.yaml")
    game.deliver(mail("Ben <ben@example.org>", "my link", yaml=(tmp_path / "reveal-western.yaml").read_bytes()))
    judge.run_once(T0 + timedelta(days=3, minutes=4))
    st = game.state()
    assert st["step"] == 2 and not st["dice"].get("request"), game.log()
    assert "c1-step-002-to-western.eml" in game.sent() and "c1-step-002-to-witness.eml" not in game.sent()
    r = CliRunner().invoke(main, ["replay", str(game.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output


def test_the_witness_reveals_by_mail_after_the_default(tmp_path):
    game, judge = _defaulted(tmp_path)
    asked = game.outbox / "new" / "c1-step-001-to-witness.eml"
    sent = game.sent()
    assert str(sent[asked.name]["To"]) == "Wendy <wendy@example.org>"
    assert "pbem chain reveal witness.chain THIS.eml" in body(sent[asked.name])
    run("chain", "reveal", tmp_path / "witness.chain", asked, "-o", tmp_path / "reveal-witness.yaml")
    wit = (tmp_path / "reveal-witness.yaml").read_bytes()
    # the witness's reveal from another address: refused (MAIL-FROM), nothing kept
    game.deliver(mail("Ben <ben@example.org>", "his link", yaml=wit))
    judge.run_once(T0 + timedelta(days=3, minutes=2))
    assert any("MAIL-FROM" in body(m) for n, m in game.sent().items() if "-refused-" in n and "ben" in str(m["To"])), game.log()
    assert not (game.folder / "judge" / "reveals" / "001" / "witness.yaml").exists()
    game.deliver(mail("Wendy <wendy@example.org>", "my link", yaml=wit))
    judge.run_once(T0 + timedelta(days=3, minutes=3))
    receipt = [body(m) for n, m in game.sent().items() if "-receipt-" in n and "wendy" in str(m["To"])]
    assert any("still awaited: the links of western" in b for b in receipt), game.log()
    _western_reveals_and_step_2(tmp_path, game, judge)


def test_the_witness_agent_answers_the_request(tmp_path):
    """`pbem agent` serves the witness as it serves a player: player witness, his chain, his address."""
    game, judge = _defaulted(tmp_path)
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("schema: pbem/agent/v1\nplayer: witness\ncampaign: c1\naddress: 'Wendy <wendy@example.org>'\n"
                   "judge: judge@example.net\nchain: witness.chain\nmaildir: wendy/inbox\noutbox: wendy/outbox\n")
    assert CliRunner().invoke(main, ["agent", str(cfg), "--check"]).exit_code == 0
    c = load_agent_config(cfg)
    agent = Agent(c, log=JudgeLog(c.log))
    (c.maildir / "tmp" / "1.asked").write_bytes((game.outbox / "new" / "c1-step-001-to-witness.eml").read_bytes())
    (c.maildir / "tmp" / "1.asked").rename(c.maildir / "new" / "1.asked")
    assert agent.run_once(T0 + timedelta(days=3, minutes=2)) == 1, c.log.read_text()
    out = sorted((c.outbox / "new").iterdir())
    assert len(out) == 1
    game.deliver(out[0].read_bytes())
    judge.run_once(T0 + timedelta(days=3, minutes=3))
    assert (game.folder / "judge" / "reveals" / "001" / "witness.yaml").exists(), game.log()
    _western_reveals_and_step_2(tmp_path, game, judge)


def test_pbem_new_witness_email(tmp_path):
    """`pbem new --witness NAME=HEAD|FILE --witness-email ADDRESS`: the address in campaign.yaml, not
    in the state; without --witness, or not one address, refused (USAGE-WITNESS) and nothing written."""
    import yaml
    for p in ("soviet", "western", "witness"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    args = ["new", tmp_path / "camp", "--scenario", "bfg-historical", "--id", "w", "--player", "soviet=A", "--player", "western=B",
            "--dice", "chain", "--commit", f"soviet={tmp_path / 'soviet.chain'}", "--commit", f"western={tmp_path / 'western.chain'}",
            "--missing-orders-default", "soviet=no-orders", "--unsigned"]
    for bad in (["--witness-email", "wendy@example.org"],
                ["--witness", f"Wendy={tmp_path / 'witness.chain'}", "--witness-email", "Wendy <wendy@example.org>"]):
        r = CliRunner().invoke(main, [str(a) for a in args + bad])
        assert r.exit_code == 64 and "USAGE-WITNESS" in r.output and not (tmp_path / "camp").exists(), r.output
    run(*args, "--witness", f"Wendy={tmp_path / 'witness.chain'}", "--witness-email", "wendy@example.org")
    m = yaml.safe_load((tmp_path / "camp" / "campaign.yaml").read_text())
    assert m["dice"]["witness"]["email"] == "wendy@example.org"
    from pbem.core.campaign import Campaign
    assert "email" not in Campaign(tmp_path / "camp").current()[1]["dice"]["witness"]
