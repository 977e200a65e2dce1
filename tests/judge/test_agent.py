"""`pbem agent` (issue 34): a player's robot answers the judge's link requests by itself. A
hash-chain campaign where the Soviet player has an agent and answers no link request by hand:
the judge's mail to him goes into the agent's Maildir, the agent's reveal into the judge's; the
other player reveals by hand. The agent checks the archive head against the mails it has seen,
never reveals a link twice, and answers no one but the judge."""
from __future__ import annotations

import re
from datetime import timedelta
from email import policy
from email.parser import BytesParser

from click.testing import CliRunner
from judgekit import T0, Game, body, mail
from test_judge_chain import ATTACK, run

from pbem.cli import main
from pbem.judge.agent import Agent, load_agent_config
from pbem.judge.judge import JudgeLog


def _agent(tmp_path) -> Agent:
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("schema: pbem/agent/v1\nplayer: soviet\ncampaign: c1\naddress: 'Anna <anna@example.org>'\n"
                   "judge: judge@example.net\nchain: soviet.chain\nmaildir: anna/inbox\noutbox: anna/outbox\n")
    r = CliRunner().invoke(main, ["agent", str(cfg), "--check"])
    assert r.exit_code == 0 and "the soviet player of campaign c1" in r.output, r.output
    c = load_agent_config(cfg)
    return Agent(c, log=JudgeLog(c.log))


def _to_agent(agent: Agent, raw: bytes, name: str) -> None:
    d = agent.cfg.maildir
    (d / "tmp" / name).write_bytes(raw)
    (d / "tmp" / name).rename(d / "new" / name)


def _agent_sent(agent: Agent) -> dict[str, bytes]:
    d = agent.cfg.outbox / "new"
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())} if d.is_dir() else {}


def test_a_player_with_an_agent_answers_no_link_request_by_hand(tmp_path):
    for p in ("soviet", "western"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    game = Game(tmp_path, chain=True)
    judge = game.judge()
    agent = _agent(tmp_path)
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", ATTACK)))
    judge.run_once(T0)
    assert {a["for"] for a in game.state()["awaiting"]} == {"links"}
    asked = (game.outbox / "new" / "c1-step-001-to-soviet.eml").read_bytes()
    # a stranger's mail and the judge's receipt (no state) are left to the player
    _to_agent(agent, mail("eve@example.com", "hello", text="hi"), "1.eve")
    receipt = next(p.read_bytes() for p in (game.outbox / "new").iterdir() if "-receipt-" in p.name)
    _to_agent(agent, receipt, "2.receipt")
    # the request, delivered twice: one link revealed, one mail to the judge
    _to_agent(agent, asked, "3.asked")
    _to_agent(agent, asked, "4.asked-again")
    assert agent.run_once(T0 + timedelta(minutes=1)) == 2
    out = _agent_sent(agent)
    assert list(out) == ["agent-c1-soviet-link-001.eml"], list(out)
    assert (tmp_path / "soviet.chain.revealed").read_text().count("\n") == 1
    log = agent.cfg.log.read_text()
    assert "not from the judge" in log and "no state attached" in log and "link 1 of soviet revealed" in log, log
    # the judge takes the agent's mail as the Soviet player's reveal
    game.deliver(out["agent-c1-soviet-link-001.eml"])
    judge.run_once(T0 + timedelta(minutes=2))
    assert game.state()["step"] == 1
    assert any("still awaited: the links of western" in body(m) for n, m in game.sent().items()
               if "-receipt-" in n and "anna" in str(m["To"]))
    # the western player reveals by hand; the orders are carried out
    run("chain", "reveal", tmp_path / "western.chain", game.outbox / "new" / "c1-step-001-to-western.eml",
        "-o", tmp_path / "reveal-western.yaml")
    game.deliver(mail("Ben <ben@example.org>", "my link", yaml=(tmp_path / "reveal-western.yaml").read_bytes()))
    judge.run_once(T0 + timedelta(minutes=3))
    assert game.state()["step"] == 2
    # the next step's mail (nothing asked) and a forged request for step 001 showing another
    # archive: no link revealed, the player told
    _to_agent(agent, (game.outbox / "new" / "c1-step-002-to-soviet.eml").read_bytes(), "5.step2")
    forged = re.sub(rb"(Archive head after step 001: )([0-9a-f])", lambda m: m.group(1) + (b"0" if m.group(2) != b"0" else b"1"),
                    asked)
    assert forged != asked
    _to_agent(agent, forged, "6.forged")
    assert agent.run_once(T0 + timedelta(minutes=4)) == 0
    out = _agent_sent(agent)
    told = [n for n in out if n.startswith("agent-refused-")]
    assert len(told) == 1
    text = body(BytesParser(policy=policy.default).parsebytes(out[told[0]]))
    assert "AGENT-HEAD" in text and "the judge showed two archives" in text and "your pbem agent" in text, text
    assert (tmp_path / "soviet.chain.revealed").read_text().count("\n") == 1
    assert all(p.name.endswith(":2,S") for p in (agent.cfg.maildir / "cur").iterdir())
    r = CliRunner().invoke(main, ["replay", str(game.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output


def test_the_agent_schema_keeps_the_schema_rules():
    """schemas/agent.schema.json as tests/test_schemas.py holds the listed schemas: every
    property described, every object closed."""
    import test_schemas  # tests/ is on the path (rootdir)
    test_schemas.test_every_property_has_a_description("agent")
    test_schemas.test_objects_are_closed_unless_open_on_purpose("agent")
