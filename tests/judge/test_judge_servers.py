"""The judge on real mail servers (issue 34), started by the tests on loopback: Debian's dovecot
for the judge's IMAP inbox, aiosmtpd for sending (it delivers the judge's mail into dovecot).
The README's test command installs dovecot-imapd where it is missing, as .ci/run does.

A four-player Battle for Germany turn played end to end through the servers and replayed; the
judge killed between receiving and archiving; the SMTP server down (the mails stay queued and
go later, none twice); a flood of 500 bad mails (each answered, the good one still
adjudicated); credentials from a file only its owner may read."""
from __future__ import annotations

import imaplib
import json
import os
import smtplib
import time
from datetime import timedelta
from email import policy
from email.parser import BytesParser

import pytest
from click.testing import CliRunner
from judgekit import T0, body, mail
from servers import DOVECOT, JUDGE, PASSWORD, Dovecot, Smtp, crlf

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.core.errors import PbemError
from pbem.judge.config import load_config
from pbem.judge.judge import Judge, JudgeLog

PLAYERS = {"soviet": ("Anna", "anna@example.org"), "east-german": ("Carl", "carl@example.org"),
           "west-german": ("Dora", "dora@example.org"), "western": ("Ben", "ben@example.org")}
CONTROL = {"soviet": "soviet", "east-german": "east-german", "west-german": "west-german", "western-allied": "western"}


class Killed(BaseException):
    pass


@pytest.fixture(scope="module")
def dovecot():
    """One dovecot for the module; each test has a mailbox of its own (its user)."""
    if not os.path.exists(DOVECOT):
        why = "dovecot is not installed: the README's test command installs it (apt-get install dovecot-imapd)"
        if os.environ.get("CI"):        # on CI the real-server tests must run, never skip
            pytest.fail(why)
        pytest.skip(why)
    d = Dovecot()
    yield d
    d.stop()


@pytest.fixture
def user(dovecot) -> str:
    return dovecot.new_user()


@pytest.fixture
def smtp(dovecot, user):
    s = Smtp(dovecot, user)
    yield s
    s.stop()


class Served:
    """A four-player campaign, a judge reading dovecot and sending through aiosmtpd."""

    def __init__(self, root, dovecot, user, smtp, monkeypatch):
        self.root, self.dovecot, self.user, self.smtp = root, dovecot, user, smtp
        self.folder = root / "games" / "c4"
        new_campaign(self.folder, scenario="bfg-four-player", campaign_id="c4",
                     players={p: {"name": n, "email": e} for p, (n, e) in PLAYERS.items()}, options={},
                     key_hex="7" * 64, chain_heads=None,
                     standing={"retreat": "auto", "advance": "none", "ex_losses": "auto"},
                     missing_defaults={p: "no-orders" for p in PLAYERS})
        monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        self.config = root / "judge.yaml"
        self.config.write_text(
            f"schema: pbem/judge/v1\naddress: 'pbem judge <{JUDGE}>'\ngame_master: gm@example.net\n"
            "maildir: mail/inbox\noutbox: mail/outbox\n"
            f"imap: {{host: 127.0.0.1, port: {dovecot.port}, tls: none, user: {user}, password_env: PBEM_TEST_IMAP_PASSWORD}}\n"
            f"smtp: {{host: 127.0.0.1, port: {smtp.port}, tls: none}}\n"
            "deadlines: {orders: 2d, grace: 1d}\ncampaigns:\n  - folder: games/c4\n")
        self.cfg = load_config(self.config)

    def judge(self, fault=None) -> Judge:
        return Judge(self.cfg, log=JudgeLog(self.cfg.log), fault=fault)

    def state(self) -> dict:
        return Campaign(self.folder).current()[1]

    def orders(self) -> tuple[str, bytes]:
        """The player awaited and his orders for his player-turn (every phase without a move)."""
        st = self.state()
        group = st["phase"].split(".")[0]
        player = CONTROL[group]
        phases = "".join(f"  - phase: {group}.{s}\n" for s in ("replacement", "movement", "combat"))
        return player, (f"schema: pbem/orders/v1\ngame: bfg\ncampaign: c4\nplayer: {player}\nturn: {st['turn']}\n"
                        f"state: {st['hash']}\nphases:\n{phases}").encode()

    def send(self, raw: bytes, frm: str) -> None:
        """A player's mail, through the SMTP server (which delivers it into dovecot)."""
        with smtplib.SMTP("127.0.0.1", self.smtp.port) as s:
            s.sendmail(frm, [JUDGE], crlf(raw))

    def received(self, who: str) -> list:
        return [BytesParser(policy=policy.default).parsebytes(r) for r in self.smtp.to(who)]

    def log(self) -> str:
        return self.cfg.log.read_text("utf-8") if self.cfg.log.exists() else ""


@pytest.fixture
def served(tmp_path, dovecot, user, smtp, monkeypatch):
    return Served(tmp_path, dovecot, user, smtp, monkeypatch)


def _outbox_files(served) -> dict[str, bytes]:
    return {p.name.split(":", 1)[0]: p.read_bytes() for d in ("new", "cur")
            for p in (served.cfg.outbox / d).iterdir()}


def norm(raw: bytes) -> bytes:
    """A message as its bytes mean it: line ends and the end of the data as SMTP makes them."""
    return raw.replace(b"\r\n", b"\n").rstrip(b"\n")


def test_a_four_player_turn_through_imap_and_smtp(served):
    judge = served.judge()
    now = T0
    for k, expect in enumerate(("soviet", "east-german", "west-german", "western"), start=1):
        player, orders = served.orders()
        assert player == expect
        name, addr = PLAYERS[player]
        served.send(mail(f"{name} <{addr}>", f"turn 1 {player}", yaml=orders), addr)
        now += timedelta(hours=1)
        assert judge.run_once(now) == 1, served.log()
        assert served.state()["step"] == k
        receipts = [m for m in served.received(addr) if "accepted and archived" in body(m)]
        assert len(receipts) == 1
        for who, (_, a) in PLAYERS.items():     # every player got the step's mail, once
            steps = [m for m in served.received(a) if f"c4-step-{k:03d}" in str(m["Message-ID"])
                     or f"step {k:03d}" in str(m["Subject"])]
            assert len(steps) == 1, (who, k, [str(m["Subject"]) for m in served.received(a)], served.log())
    st = served.state()
    assert st["turn"] == 2 and st["step"] == 4, (st["turn"], st["phase"])
    assert judge.run_once(now + timedelta(minutes=5)) == 0
    # each mail went once, with a Date of its sending; as written in the outbox otherwise
    out = _outbox_files(served)
    assert not list((served.cfg.outbox / "new").iterdir())
    sent = [json.loads(line)["name"] for line in (served.cfg.outbox / "sent.jsonl").read_text().splitlines()]
    assert len(sent) == len(set(sent)) == len(out) == len(served.smtp.delivered)
    for _, raw in served.smtp.delivered:
        assert raw.startswith(b"Date: "), raw[:80]
        assert norm(raw.split(b"\n", 1)[1]) in {norm(v) for v in out.values()}
    # every message on the server is marked: \Seen and $PbemJudge
    c = served.dovecot.imap(served.user)
    c.select("INBOX")
    typ, data = c.search(None, "UNKEYWORD", "$PbemJudge")
    assert data == [b""]
    c.logout()
    judge.close()
    r = CliRunner().invoke(main, ["replay", str(served.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 4 step(s)" in r.output, r.output
    assert "IMAP: 1 new message(s)" in served.log() and "SMTP: " in served.log()


def test_killed_between_receiving_and_archiving(served):
    player, orders = served.orders()
    served.send(mail("Anna <anna@example.org>", "turn 1", yaml=orders), "anna@example.org")

    def kill(point):
        if point == "intent":
            raise Killed(point)
    with pytest.raises(Killed):
        served.judge(fault=kill).run_once(T0)
    assert served.state()["step"] == 0
    assert len(list((served.cfg.maildir / "cur").iterdir())) == 1       # copied from IMAP, claimed
    served.dovecot.append(b"no header at all, only garbage\r\n", served.user)     # put aside (after a restart)
    # the record of the IMAP folder lost, and the message unmarked on the server, as if the
    # judge had been killed between copying and marking: copied again under the same name, refused
    (served.cfg.state / "imap.json").unlink()
    c = served.dovecot.imap(served.user)
    c.select("INBOX")
    c.store("1:*", "-FLAGS", "($PbemJudge \\Seen)")
    c.logout()
    judge = served.judge()
    assert judge.run_once(T0 + timedelta(minutes=1)) == 2
    assert served.state()["step"] == 1
    assert len(list((served.cfg.aside / "cur").iterdir())) == 1
    assert judge.run_once(T0 + timedelta(minutes=2)) == 0
    # a new UIDVALIDITY (the folder made anew): only what has no $PbemJudge keyword is taken
    rec = json.loads((served.cfg.state / "imap.json").read_text())
    (served.cfg.state / "imap.json").write_text(json.dumps(rec | {"uidvalidity": 1}))
    assert judge.run_once(T0 + timedelta(minutes=3)) == 0
    assert "UIDVALIDITY 1 ->" in served.log()
    # the record lost again: neither the handled mail nor the one put aside is taken again
    (served.cfg.state / "imap.json").unlink()
    c = served.dovecot.imap(served.user)
    c.select("INBOX")
    c.store("1:*", "-FLAGS", "($PbemJudge \\Seen)")
    c.logout()
    assert judge.run_once(T0 + timedelta(minutes=4)) == 0
    assert len(list((served.cfg.aside / "cur").iterdir())) == 1
    assert len(served.smtp.to("gm@example.net")) == 1
    judge.close()
    anna = served.received("anna@example.org")
    assert sum("accepted and archived" in body(m) for m in anna) == 1
    assert sum("step 001" in str(m["Subject"]) for m in served.received("ben@example.org")) == 1


def test_the_smtp_server_down(served):
    judge = served.judge()
    player, orders = served.orders()
    served.send(mail("Anna <anna@example.org>", "turn 1", yaml=orders), "anna@example.org")
    served.smtp.stop()
    assert judge.run_once(T0) == 1
    queued = sorted(p.name for p in (served.cfg.outbox / "new").iterdir())
    assert len(queued) == 5                 # the receipt, the step's mail to each of the four
    assert "cannot connect" in served.log() and "5 mail(s) stay queued" in served.log()
    judge.run_once(T0 + timedelta(minutes=1))       # still down: still queued
    assert sorted(p.name for p in (served.cfg.outbox / "new").iterdir()) == queued
    served.smtp.start()
    judge.run_once(T0 + timedelta(minutes=2))
    judge.run_once(T0 + timedelta(minutes=3))
    assert not list((served.cfg.outbox / "new").iterdir())
    assert len(served.smtp.delivered) == 5
    assert sorted(r for r, _ in served.smtp.delivered) == sorted(["anna@example.org"] * 2 + [
        a for _, a in PLAYERS.values() if a != "anna@example.org"])
    # a judge killed after the server took a mail but before it moved it: sent once all the same
    judge.close()


def test_a_recipient_refused_for_good(served):
    """A mail the server refuses for good (550) is not tried again: flagged F in the outbox's
    cur/, logged; the others go."""
    served.smtp.refuse.add("ben@example.org")
    player, orders = served.orders()
    served.send(mail("Anna <anna@example.org>", "turn 1", yaml=orders), "anna@example.org")
    judge = served.judge()
    judge.run_once(T0)
    judge.run_once(T0 + timedelta(minutes=1))
    judge.close()
    assert sorted(p.name for p in (served.cfg.outbox / "cur").iterdir() if p.name.endswith(":2,F")) == \
        ["c4-step-001-to-western.eml:2,F"]
    assert len(served.smtp.delivered) == 4 and "refused by the server" in served.log()
    assert served.log().count("c4-step-001-to-western.eml refused") == 1


def test_a_mail_sent_but_not_moved_is_not_sent_again(served):
    served.smtp.stop()
    judge = served.judge()
    served.cfg.outbox.joinpath("new").mkdir(parents=True, exist_ok=True)
    (served.cfg.outbox / "new" / "x.eml").write_bytes(b"From: judge@example.net\nTo: ben@example.org\n"
                                                      b"Subject: hi\n\nhello\n")
    (served.cfg.outbox / "sent.jsonl").write_text(json.dumps({"name": "x.eml"}) + "\n")
    served.smtp.start()
    judge.run_once(T0)
    assert served.smtp.delivered == []
    assert [p.name for p in (served.cfg.outbox / "cur").iterdir()] == ["x.eml:2,S"]
    judge.close()


def test_a_flood_of_500_bad_mails_and_one_good(served):
    player, orders = served.orders()
    c = served.dovecot.imap(served.user)
    good_at = 250
    for k in range(501):
        if k == good_at:
            raw = mail("Anna <anna@example.org>", "turn 1", yaml=orders)
        elif k % 10:        # most of a flood: mails from strangers, without any order file
            raw = mail(f"stranger{k}@example.com", "hi", text="buy now")
        else:               # one in ten: a player's order file that does not load
            raw = mail("Carl <carl@example.org>", f"orders {k}", yaml=b"schema: pbem/orders/v1\ncampaign: c4\n"
                       b"player: east-german\nturn: [\n")
        c.append("INBOX", "", imaplib.Time2Internaldate(time.time()), raw)
    c.logout()
    t = time.monotonic()
    judge = served.judge()
    assert judge.run_once(T0) == 501
    took = time.monotonic() - t
    judge.close()
    assert served.state()["step"] == 1
    refused = [raw for _, raw in served.smtp.delivered if b"NOT accepted" in raw]
    assert len(refused) == 500
    assert len(served.received("anna@example.org")) == 2
    assert took < 30, took


def test_credentials_from_a_file_only_its_owner_may_read(served):
    secret = served.root / "imap.password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o640)
    text = served.config.read_text().replace("password_env: PBEM_TEST_IMAP_PASSWORD", "password_file: imap.password")
    served.config.write_text(text)
    with pytest.raises(PbemError) as e:
        load_config(served.config)
    issue = e.value.issues[0]
    assert issue.code == "JUDGE-CREDENTIALS" and "chmod 600" in issue.hint and "-rw-r-----" in issue.message
    r = CliRunner().invoke(main, ["judge", str(served.config), "--check"])
    assert r.exit_code != 0 and "JUDGE-CREDENTIALS" in r.output, r.output
    secret.chmod(0o600)
    cfg = load_config(served.config)
    served.send(mail("stranger@example.com", "hi", text="hello"), "stranger@example.com")
    judge = Judge(cfg, log=JudgeLog(cfg.log))
    assert judge.run_once(T0) == 1
    judge.close()
    assert len(served.received("stranger@example.com")) == 1


def test_the_loop_is_woken_by_imap_idle(served):
    """`pbem judge --wait` on an IMAP account that offers IDLE: a mail arriving is answered at
    once, not at the next poll (10 minutes here); SIGTERM stops it."""
    import signal
    import subprocess
    import sys
    served.config.write_text(served.config.read_text().replace("maildir:", "poll: 10m\nmaildir:"))
    p = subprocess.Popen([sys.executable, "-m", "pbem", "judge", str(served.config), "--wait", "--quiet"],
                         env=dict(os.environ, PBEM_NO_CACHE="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while "judge started" not in served.log() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)         # in IDLE by now
        t = time.monotonic()
        served.send(mail("eve@example.com", "status"), "eve@example.com")
        while not served.received("eve@example.com") and time.monotonic() < t + 30:
            time.sleep(0.1)
        assert served.received("eve@example.com"), served.log()
        assert time.monotonic() - t < 20
    finally:
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert served.log().rstrip().endswith("judge stopped")


def test_a_player_agent_on_imap_and_smtp(tmp_path, dovecot, monkeypatch):
    """A hash-chain campaign through the servers: the judge on one IMAP account, the Soviet
    player's agent on another (his mail), both sending by SMTP; he answers no link request by
    hand, the western player reveals by hand."""
    from judgekit import Game
    from test_judge_chain import ATTACK, run

    from pbem.judge.agent import Agent, load_agent_config
    for p in ("soviet", "western"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    game = Game(tmp_path, chain=True)
    judge_user, anna_user = dovecot.new_user(), dovecot.new_user()
    smtp = Smtp(dovecot, judge_user, routes={"anna@example.org": anna_user})
    try:
        monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        servers = (f"imap: {{host: 127.0.0.1, port: {dovecot.port}, tls: none, user: USER, "
                   f"password_env: PBEM_TEST_IMAP_PASSWORD}}\nsmtp: {{host: 127.0.0.1, port: {smtp.port}, tls: none}}\n")
        game.config.write_text(game.config.read_text() + servers.replace("USER", judge_user))
        judge = Judge(load_config(game.config), log=JudgeLog(game.cfg.log))
        (tmp_path / "agent.yaml").write_text(
            "schema: pbem/agent/v1\nplayer: soviet\ncampaign: c1\naddress: 'Anna <anna@example.org>'\n"
            "judge: judge@example.net\nchain: soviet.chain\nmaildir: anna/inbox\noutbox: anna/outbox\n"
            + servers.replace("USER", anna_user))
        agent = Agent(load_agent_config(tmp_path / "agent.yaml"))

        def send(raw, frm):
            with smtplib.SMTP("127.0.0.1", smtp.port) as s:
                s.sendmail(frm, [JUDGE], crlf(raw))
        send(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", ATTACK)), "anna@example.org")
        judge.run_once(T0)
        assert {a["for"] for a in game.state()["awaiting"]} == {"links"}
        assert agent.run_once(T0 + timedelta(minutes=1)) == 1      # the link request: revealed, mailed
        asked = next(raw for r, raw in smtp.delivered if r == "ben@example.org" and b"step 001" in raw)
        (tmp_path / "ben.eml").write_bytes(asked)
        run("chain", "reveal", tmp_path / "western.chain", tmp_path / "ben.eml", "-o", tmp_path / "reveal-western.yaml")
        send(mail("Ben <ben@example.org>", "my link", yaml=(tmp_path / "reveal-western.yaml").read_bytes()), "ben@example.org")
        judge.run_once(T0 + timedelta(minutes=2))
        assert game.state()["step"] == 2, game.log()
        assert agent.run_once(T0 + timedelta(minutes=3)) == 0     # the receipt, the next step: nothing to reveal
        judge.close()
        agent.close()
    finally:
        smtp.stop()
    assert (tmp_path / "soviet.chain.revealed").read_text().count("\n") == 1
    assert "link 1 of soviet revealed" in agent.cfg.log.read_text()
    r = CliRunner().invoke(main, ["replay", str(game.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output


BW = {"axis": ("Anna", "anna@example.org"), "allies": ("Ben", "ben@example.org"), "ussr": ("Carl", "carl@example.org")}


def test_a_three_player_blitzwar_turn_with_an_agent_and_an_absent_player(tmp_path, dovecot, monkeypatch):
    """Issue 34's scripted campaign: BlitzWAR with three players through the servers. The Axis
    player has a `pbem agent` on his own IMAP account, the Allies answer by hand, the USSR's
    player never writes: each of his phases is played by the missing-orders default when the
    grace period ends. Game-master dice: hash chains with a missing-orders default need a
    witness (README "Missing orders"), whose reveals the judge does not take yet (the witness
    has no address in the campaign). So the agent checks the archive heads of every step mail
    and reveals nothing. The first turn (the simultaneous diplomacy, each side's naval phase)
    to the second turn's diplomacy, then `pbem replay`."""
    from pbem.core.data import load_ruleset
    from pbem.core.kernel import awaited
    from pbem.judge.agent import Agent, load_agent_config
    folder = tmp_path / "games" / "bw"
    new_campaign(folder, scenario="blitzwar-1939", campaign_id="bw", options={}, key_hex="5eee" * 16, chain_heads=None,
                 players={p: {"name": n, "email": e} for p, (n, e) in BW.items()},
                 standing=dict(load_ruleset("blitzwar-1939")[0].auto_standing),
                 missing_defaults={p: "no-orders" for p in BW})
    assert CliRunner().invoke(main, ["chain", "new", "-p", "axis", "-o", str(tmp_path / "axis.chain")]).exit_code == 0
    judge_user, anna_user = dovecot.new_user(), dovecot.new_user()
    smtp = Smtp(dovecot, judge_user, routes={"anna@example.org": anna_user})
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
    servers = (f"imap: {{host: 127.0.0.1, port: {dovecot.port}, tls: none, user: USER, "
               f"password_env: PBEM_TEST_IMAP_PASSWORD}}\nsmtp: {{host: 127.0.0.1, port: {smtp.port}, tls: none}}\n")
    (tmp_path / "judge.yaml").write_text(
        f"schema: pbem/judge/v1\naddress: 'pbem judge <{JUDGE}>'\ngame_master: gm@example.net\n"
        "maildir: mail/inbox\noutbox: mail/outbox\n" + servers.replace("USER", judge_user)
        + "deadlines: {orders: 2d, grace: 1d}\ncampaigns:\n  - folder: games/bw\n")
    (tmp_path / "agent.yaml").write_text(
        "schema: pbem/agent/v1\nplayer: axis\ncampaign: bw\naddress: 'Anna <anna@example.org>'\n"
        f"judge: {JUDGE}\nchain: axis.chain\nmaildir: anna/inbox\noutbox: anna/outbox\n" + servers.replace("USER", anna_user))
    judge = Judge(load_config(tmp_path / "judge.yaml"), log=JudgeLog(tmp_path / "judge.log"))
    agent = Agent(load_agent_config(tmp_path / "agent.yaml"))
    camp = Campaign(folder)
    g, rs = load_ruleset("blitzwar-1939")
    now, defaults, by_hand = T0, 0, 0
    try:
        while camp.current()[1]["turn"] == 1:
            path, st = camp.current()
            present = [a["player"] for a in awaited(st) if a["player"] != "ussr"]
            for p in present:          # each present player answers the step's mail with his orders
                raw = g.order_template(rs, st, p, schema_ref="x.json", state_file=path.name).encode()
                with smtplib.SMTP("127.0.0.1", smtp.port) as s:
                    s.sendmail(BW[p][1], [JUDGE], crlf(mail(f"{BW[p][0]} <{BW[p][1]}>", f"turn 1 {p}", yaml=raw)))
                now += timedelta(minutes=1)
                assert judge.run_once(now) == 1, (tmp_path / "judge.log").read_text()
                by_hand += 1
            if not present:            # the USSR alone is awaited: the deadline, the grace period, the default
                now += timedelta(days=3, minutes=1)
                judge.run_once(now)
                defaults += 1
            assert camp.current()[1]["step"] > st["step"], (tmp_path / "judge.log").read_text()
            agent.run_once(now)
        judge.close()
        agent.close()
    finally:
        smtp.stop()
    log = (tmp_path / "judge.log").read_text()
    st = camp.current()[1]
    assert st["phase"] == "1.diplomacy" and defaults == 2 and by_hand == 4, (st["phase"], defaults, by_hand)
    assert log.count("grace period over: missing orders of ussr") == 2 and "reminded ussr" in log
    assert len(smtp.to("carl@example.org")) >= st["step"]       # the absent player still gets every step's mail
    heads = json.loads((tmp_path / ".pbem-agent" / "heads.json").read_text())
    assert len(heads) >= st["step"] - 1 and not list((tmp_path / "anna" / "outbox" / "new").glob("*")), heads
    r = CliRunner().invoke(main, ["replay", str(folder)])
    assert r.exit_code == 0 and f"REPLAY OK: {st['step']} step(s)" in r.output, r.output
