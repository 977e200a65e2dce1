"""A Battle for Germany turn played through the judge's Maildir (issue 34): the Soviet orders
by mail (accepted, archived, every player mailed), the western player late (a reminder to him
and a notice to the other at the deadline, the missing-orders default at the end of the grace
period), a bad mail answered with every problem, a `status` mail answered; the archive
replays. The clock is given to the judge (T0 + ...)."""
from __future__ import annotations

from datetime import timedelta

from click.testing import CliRunner
from judgekit import SOVIET_TURN, T0, body, mail

from pbem.cli import main


def test_a_turn_by_mail(game):
    judge = game.judge()
    judge.run_once(T0)                      # nothing yet: the clock of step 000 starts
    assert game.sent() == {}
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    assert judge.run_once(T0 + timedelta(hours=1)) == 1
    out = game.sent()
    assert set(out) == {"c1-receipt-" + next(n for n in out if n.startswith("c1-receipt-"))[11:],
                        "c1-step-001-to-soviet.eml", "c1-step-001-to-western.eml"}
    receipt = out[next(n for n in out if n.startswith("c1-receipt-"))]
    assert str(receipt["To"]) == "Anna <anna@example.org>" and receipt["Auto-Submitted"] == "auto-replied"
    assert "accepted and archived in step 001" in body(receipt) and receipt["In-Reply-To"]
    st = game.state()
    # the Soviet player runs the West Germans too (DG2 3.0): his West German phases are next
    assert st["step"] == 1 and st["phase"] == "west-german.replacement", st["phase"]
    to_ben = out["c1-step-001-to-western.eml"]
    assert str(to_ben["From"]) == "pbem judge <judge@example.net>" and str(to_ben["To"]) == "Ben <ben@example.org>"
    assert "Nothing is awaited from you now." in body(to_ben)
    assert "that is you" in body(out["c1-step-001-to-soviet.eml"])
    # the message is handled: flagged seen in cur/
    assert [p.name[-4:] for p in (game.inbox / "cur").iterdir()] == [":2,S"]
    assert not list((game.inbox / "new").iterdir())

    # the deadline (2 days after the judge saw step 001): a reminder to Anna, a notice to Ben
    judge.run_once(T0 + timedelta(days=2))
    assert not any("remind" in n for n in game.sent())
    judge.run_once(T0 + timedelta(days=2, hours=1, minutes=1))
    out = game.sent()
    rem = out["c1-remind-001-soviet.eml"]
    assert str(rem["Subject"]).strip() == "[pbem] c1: REMINDER - the deadline has passed: your orders for step 001" and "missing-orders default applies" in body(rem)
    note = out["c1-remind-001-western.eml"]
    assert "waiting for soviet" in str(note["Subject"])
    judge.run_once(T0 + timedelta(days=2, hours=12))      # once only
    assert len(game.sent()) == len(out)
    # a status mail: what is awaited, from whom, by when
    game.deliver(mail("ben@example.org", "status"))
    judge.run_once(T0 + timedelta(days=2, hours=13))
    status = next(m for n, m in game.sent().items() if n.startswith("c1-status-"))
    text = body(status)
    assert "Awaited: orders from the soviet player (Anna)" in text, text
    assert "Deadline: 2026-03-04 19:00 UTC; grace period until 2026-03-05 19:00 UTC" in text, text
    assert "The deadline has passed." in text

    # the end of the grace period: the missing-orders default (with the attacks 12.2.1
    # compels on turn 1), and the next step's mails
    judge.run_once(T0 + timedelta(days=3, hours=1, minutes=1))
    st = game.state()
    assert st["step"] == 2 and st["phase"] == "western-allied.replacement", st["phase"]
    assert {"c1-step-002-to-soviet.eml", "c1-step-002-to-western.eml"} <= set(game.sent())
    report = (game.folder / "steps" / "002" / "report.txt").read_text()
    assert "missing" in report.lower()
    # the Western Allied player-turn, by mail: the turn is over
    western = "phases:\n" + "".join(f"  - phase: {f}.{s}\n" for f in ("western-allied", "east-german")
                                      for s in ("replacement", "movement", "combat"))
    game.deliver(mail("Ben <ben@example.org>", "my turn", yaml=game.orders("western", western)))
    judge.run_once(T0 + timedelta(days=3, hours=2))
    st = game.state()
    assert st["turn"] == 2 and st["step"] == 3, (st["turn"], st["phase"])
    log = game.log()
    assert "ACCEPTED, archived in step 001" in log and "reminded soviet" in log and "ACCEPTED, archived in step 003" in log
    assert "missing orders of soviet; archived step 002" in log and "status asked by ben@example.org" in log
    r = CliRunner().invoke(main, ["replay", str(game.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 3 step(s)" in r.output, r.output


def test_a_bad_mail_is_answered_with_every_problem(game):
    judge = game.judge()
    bad = game.orders("soviet", "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: nobody, to: '0422'}\n"
                                "      - {unit: nobody-2, to: '0423'}\n")
    game.deliver(mail("Anna <anna@example.org>", "my orders", yaml=bad))
    game.deliver(mail("Ben <ben@example.org>", "soviet orders for Anna", yaml=game.orders("soviet", SOVIET_TURN)))
    game.deliver(mail("Anna <anna@example.org>", "orders", text="see you next week"))
    judge.run_once(T0)
    refused: dict[str, list[str]] = {}
    for n, m in game.sent().items():
        assert n.startswith("c1-refused-"), n
        refused.setdefault(str(m["To"]), []).append(body(m))
    to_anna = sorted(refused["Anna <anna@example.org>"], key=lambda b: "MAIL-NO-ORDERS" in b)
    assert "2 error(s)" in to_anna[0] and "BFG-UNIT-UNKNOWN" in to_anna[0] and "nobody-2" in to_anna[0], to_anna[0]
    assert "MAIL-NO-ORDERS" in to_anna[1] and "text/plain" in to_anna[1], to_anna[1]
    # the problems name the file as the player sent it, not the judge's own copy of the mail
    assert "your-mail.eml#orders.yaml:11:16: error BFG-UNIT-UNKNOWN" in to_anna[0] and "/judge/work/" not in to_anna[0], to_anna[0]
    assert "MAIL-FROM" in refused["Ben <ben@example.org>"][0]
    assert "Nothing was archived" in refused["Ben <ben@example.org>"][0]
    assert game.state()["step"] == 0 and len(list((game.inbox / "cur").iterdir())) == 3
    assert game.log().count("REFUSED") == 3


def test_status_from_a_stranger_and_unreadable_mail(game):
    judge = game.judge()
    game.deliver(mail("eve@example.com", "Re: status"))
    game.deliver(b"\x00\x01 this is no mail at all")
    game.deliver(mail("robot@example.com", "Out of office", text="I am away").replace(
        b"Subject:", b"Auto-Submitted: auto-replied\nSubject:", 1))
    judge.run_once(T0)
    out = game.sent()
    st = next(m for n, m in out.items() if n.startswith("judge-status-"))
    assert "plays in no campaign" in body(st) and "c1" in body(st)
    assert any(n.startswith("judge-aside-") for n in out)            # the game master is told
    assert len(list((game.cfg.aside / "cur").iterdir())) == 1          # kept, out of the way
    assert not any("robot@" in str(m["To"]) for m in out.values())   # a robot is not answered
    assert "put aside" in game.log() and "an automatic mail" in game.log()


def test_the_command_line(game, tmp_path):
    r = CliRunner().invoke(main, ["judge", str(game.config), "--check"])
    assert r.exit_code == 0 and "1 campaign(s): c1" in r.output, r.output
    r = CliRunner().invoke(main, ["judge", str(game.config)])
    assert r.exit_code == 64 and "USAGE-JUDGE" in r.output
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    r = CliRunner().invoke(main, ["judge", str(game.config), "--once"])
    assert r.exit_code == 0 and "ACCEPTED" in r.output, r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: pbem/judge/v1\naddress: j@x.org\nmaildir: m\noutbox: o\ncampaigns:\n  - folder: nowhere\n"
                   "deadlines: {orders: soon}\n")
    r = CliRunner().invoke(main, ["judge", str(bad), "--check"])
    assert r.exit_code == 2 and "SCHEMA-" in r.output and "bad.yaml:7" in r.output, r.output


def test_the_configuration_says_every_problem(tmp_path, game):
    from pbem.core.errors import PbemError
    from pbem.judge.config import load_config
    bad = tmp_path / "judge2.yaml"
    bad.write_text("schema: pbem/judge/v1\naddress: 'a@x.org, b@x.org'\nmaildir: m\noutbox: o\n"
                   "campaigns:\n  - folder: games/c1\n  - folder: games/c1\n  - folder: nowhere\n")
    try:
        load_config(bad)
    except PbemError as e:
        got = sorted((i.code, i.line) for i in e.issues)
    assert got == [("JUDGE-ADDRESS", 2), ("JUDGE-CAMPAIGN", 7), ("JUDGE-CAMPAIGN", 8)], got
    cfg = load_config(game.config)
    dl = cfg.campaigns[0].deadlines
    assert dl.given("soviet.movement", {"orders"}).total_seconds() == 2 * 86400 and dl.grace.total_seconds() == 86400


def test_a_player_who_signs_is_matched_by_signature_too(tmp_path):
    """A player with a signing key in campaign.yaml (docs/dice-and-audit.md): a file
    from the right address but unsigned, or signed by another key, is refused; signed, accepted."""
    from judgekit import Game

    from pbem.core.signing import new_key_pair, sign
    keys = {p: new_key_pair() for p in ("soviet", "western")}      # (private, public)
    game = Game(tmp_path, keys={p: k[1] for p, k in keys.items()})
    judge = game.judge()
    orders = game.orders("soviet", SOVIET_TURN)
    game.deliver(mail("Anna <anna@example.org>", "unsigned", yaml=orders))
    game.deliver(mail("Anna <anna@example.org>", "signed by Ben", yaml=sign(orders, "soviet", keys["western"][0])))
    judge.run_once(T0)
    refused = [body(m) for n, m in game.sent().items() if "-refused-" in n]
    assert len(refused) == 2 and all("error SIG-" in b for b in refused), refused
    assert "SIG-MISSING" in game.log() and "SIG-WRONG-PLAYER" in game.log()
    assert game.state()["step"] == 0
    game.deliver(mail("Anna <anna@example.org>", "signed", yaml=sign(orders, "soviet", keys["soviet"][0])))
    judge.run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 1, game.log()
