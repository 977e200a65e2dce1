"""A simultaneous phase through the judge (BlitzWAR turn 1: both players' phases 1-2 at once):
the first file is archived as received and the step waits; the judge mails every player who is
still awaited; the second file carries the phase out. The engine decides when the phase has
what it needs; the judge only feeds it the mails as they come."""
from __future__ import annotations

from datetime import timedelta

from judgekit import T0, body, mail

from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.core.kernel import awaited
from pbem.judge.config import load_config
from pbem.judge.judge import Judge, JudgeLog

ADDR = {"axis": ("Anna", "anna@example.org"), "allies": ("Ben", "ben@example.org")}


def test_a_simultaneous_phase(tmp_path):
    from pbem.core.data import load_ruleset
    folder = tmp_path / "games" / "bw"
    new_campaign(folder, scenario="blitzwar-1939", campaign_id="bw", options={}, key_hex="5eee" * 16,
                 players={p: {"name": n, "email": e} for p, (n, e) in ADDR.items()},
                 standing=dict(load_ruleset("blitzwar-1939")[0].auto_standing),
                 missing_defaults={"axis": "no-orders", "allies": "no-orders"})
    cfg_path = tmp_path / "judge.yaml"
    cfg_path.write_text("schema: pbem/judge/v1\naddress: judge@example.net\nmaildir: in\noutbox: out\n"
                        "campaigns:\n  - folder: games/bw\n")
    cfg = load_config(cfg_path)
    judge = Judge(cfg, log=JudgeLog(cfg.log))
    camp = Campaign(folder)
    path, st = camp.current()
    g, rs = load_ruleset(st["scenario"])
    files = {p: g.order_template(rs, st, p, schema_ref="x.json", state_file=path.name).encode() for p in ADDR}
    assert {a["player"] for a in awaited(st)} == {"axis", "allies"}

    def deliver(raw: bytes, name: str) -> None:
        (cfg.maildir / "tmp" / name).write_bytes(raw)
        (cfg.maildir / "tmp" / name).rename(cfg.maildir / "new" / name)

    judge.run_once(T0)
    deliver(mail("Anna <anna@example.org>", "turn 1", yaml=files["axis"]), "1.axis")
    judge.run_once(T0 + timedelta(minutes=1))
    st = camp.current()[1]
    assert st["step"] == 1 and sorted(st["received"]) == ["axis"] and [a["player"] for a in awaited(st)] == ["allies"]
    out = {p.name: p for p in (cfg.outbox / "new").iterdir()}
    assert {"bw-step-001-to-axis.eml", "bw-step-001-to-allies.eml"} <= set(out)
    from email import policy
    from email.parser import BytesParser
    to_ben = BytesParser(policy=policy.default).parsebytes(out["bw-step-001-to-allies.eml"].read_bytes())
    assert "that is you" in body(to_ben)
    deliver(mail("Ben <ben@example.org>", "turn 1", yaml=files["allies"]), "2.allies")
    judge.run_once(T0 + timedelta(minutes=2))
    st = camp.current()[1]
    assert st["step"] == 2 and not st.get("received"), (st["phase"], st.get("received"))
    assert "ACCEPTED, archived in step 002" in cfg.log.read_text()
