"""Exactly once (issue 34): a judge killed at any point of a mail's handling, and started again,
loses nothing and does nothing twice -- one step archived, each mail written once, the message
flagged handled; two judges at once handle each mail once; a flood of bad mails is answered
mail by mail while a good one is still adjudicated.

A kill is an exception raised by the judge's fault hook at one of its points
(:data:`pbem.judge.judge.POINTS`), a BaseException as a kill is: the judge's own handling of
errors (a mail put aside) does not catch it; what the kernel does at a real kill -- drop the
locks -- the judge does on the way out."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from judgekit import SOVIET_TURN, T0, body, mail

from pbem.judge.judge import POINTS
from pbem.judge.steps import journal_of


class Killed(BaseException):
    pass


def killer(point: str):
    def fault(p: str) -> None:
        if p == point:
            raise Killed(p)
    return fault


def archive(game) -> list[str]:
    return sorted(str(p.relative_to(game.folder)) for p in (game.folder / "steps").rglob("*") if p.is_file())


def kinds(names) -> list[str]:
    """The outbox's names, those of answers without the hash of the mail they answer (a test
    mail's MIME boundary is random)."""
    import re
    return sorted(re.sub(r"-(receipt|refused|status|aside)-[0-9a-f]+", r"-\1-*", n) for n in names)


def handled(game) -> list[str]:
    return sorted(p.name.split(":", 1)[1] for p in (game.inbox / "cur").iterdir())


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    """What the judge does with the Soviet orders and a bad mail when nothing stops it."""
    from judgekit import Game
    g = Game(tmp_path_factory.mktemp("clean"))
    _deliver_two(g)
    g.judge().run_once(T0)
    return archive(g), kinds(g.sent())


def _deliver_two(game) -> None:
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN), mid="<good@example.org>"),
                 name="1.good.test")
    game.deliver(mail("Anna <anna@example.org>", "turn 1", text="no orders here", mid="<bad@example.org>"), name="2.bad.test")


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("which", ["good", "bad"])
def test_killed_at_each_point_then_restarted(game, clean_run, point, which):
    _deliver_two(game)
    if which == "bad":          # the good one first, untouched; the kill while answering the bad one
        game.judge().run_once(T0)
        game.deliver(mail("Ben <ben@example.org>", "hello", text="no orders", mid="<bad2@example.org>"), name="3.bad.test")
    try:
        game.judge(fault=killer(point)).run_once(T0)
    except Killed:
        pass
    game.judge().run_once(T0 + timedelta(minutes=5))        # started again
    game.judge().run_once(T0 + timedelta(minutes=10))       # and once more: nothing new
    want_archive, want_sent = clean_run
    assert archive(game) == want_archive
    sent = kinds(game.sent())
    assert sent == (want_sent if which == "good" else sorted(want_sent + ["c1-refused-*.eml"])), sent
    assert handled(game) == ["2,S"] * (2 if which == "good" else 3)
    assert not list((game.inbox / "new").iterdir())
    done = [r for r in journal_of(game.cfg.campaigns[0]).records if r.get("state") == "done"]
    assert len(done) == len({r["msg"] for r in done})      # each message done once


@pytest.mark.parametrize("point", ["intent", "stepped", "archived", "mailed"])
def test_killed_while_applying_the_missing_orders_default(game, point):
    game.judge().run_once(T0)
    try:
        game.judge(fault=killer(point)).run_once(T0 + timedelta(days=3, minutes=1))
    except Killed:
        pass
    game.judge().run_once(T0 + timedelta(days=3, minutes=2))
    game.judge().run_once(T0 + timedelta(days=3, minutes=3))
    assert [p.name for p in sorted((game.folder / "steps").iterdir())] == ["000", "001"]
    steps = [n for n in game.sent() if n.startswith("c1-step-")]
    assert steps == ["c1-step-001-to-soviet.eml", "c1-step-001-to-western.eml"]
    assert sum(1 for n in game.sent() if n.startswith("c1-remind-")) == 2


def test_a_flood_of_bad_mails_and_one_good(game):
    for k in range(100):
        game.deliver(mail(f"stranger{k}@example.com", "hi", text="buy now"), name=f"{k:03d}a.flood")
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)), name="100.good")
    for k in range(100):
        game.deliver(b"\x00garbage " + str(k).encode(), name=f"{k:03d}b.flood") if k % 10 == 0 else \
            game.deliver(mail("Anna <anna@example.org>", f"orders {k}", yaml=b"schema: pbem/orders/v1\ncampaign: c1\n"
                              b"player: soviet\nturn: [\n"), name=f"{k:03d}c.flood")
    t = time.monotonic()
    assert game.judge().run_once(T0) == 201
    took = time.monotonic() - t
    assert game.state()["step"] == 1
    out = game.sent()
    replies = [n for n in out if "-refused-" in n]
    assert len(replies) == 190, len(replies)
    assert len([n for n in out if n.startswith("judge-aside-")]) == 10
    assert len(list((game.cfg.aside / "cur").iterdir())) == 10
    assert all("YAML-" in body(out[n]) for n in replies if out[n]["To"] and "anna" in str(out[n]["To"]))
    assert took < 25, took


def test_two_judges_at_once(game):
    """Two `pbem judge --once` processes on one Maildir: each mail handled once."""
    for k in range(12):
        game.deliver(mail(f"p{k}@example.com", "hi", text="nothing"), name=f"{k:02d}.two")
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)), name="50.good")
    env = dict(os.environ, PBEM_NO_CACHE="1")
    cmd = [sys.executable, "-m", "pbem", "judge", str(game.config), "--once", "--quiet"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    assert [p.name for p in sorted((game.folder / "steps").iterdir())] == ["000", "001"]
    assert handled(game) == ["2,S"] * 13
    assert len([n for n in game.sent() if n.startswith("judge-refused-")]) == 12
    lines = game.log().splitlines()
    assert sum("REFUSED" in x for x in lines) == 12 and sum("ACCEPTED" in x for x in lines) == 1


def test_mails_not_written_leave_the_step_archived_and_are_written_later(game, monkeypatch):
    """MAIL-NOT-WRITTEN, as `adjudicate --mail` says it: the step stays archived, the player
    gets the receipt, the game master is told once, the next round writes the mails."""
    import pbem.core.mail as m
    real = m.step_messages

    def broken(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(m, "step_messages", broken)
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    game.judge().run_once(T0)
    game.judge().run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 1 and handled(game) == ["2,S"]
    names = kinds(game.sent())
    assert names == ["c1-mail-failed-001.eml", "c1-receipt-*.eml"], names
    assert game.log().count("MAIL-NOT-WRITTEN") == 1
    monkeypatch.setattr(m, "step_messages", real)
    game.judge().run_once(T0 + timedelta(minutes=2))
    assert {"c1-step-001-to-soviet.eml", "c1-step-001-to-western.eml"} <= set(game.sent())


def test_the_loop_waits_for_mail_and_stops_on_sigterm(game):
    """`pbem judge --wait`: looks into the Maildir every `poll`, handles what arrives, and stops
    between two mails on SIGTERM (systemd's stop)."""
    import signal
    game.config.write_text(game.config.read_text().replace("maildir:", "poll: 1s\nmaildir:"))
    env = dict(os.environ, PBEM_NO_CACHE="1")
    p = subprocess.Popen([sys.executable, "-m", "pbem", "judge", str(game.config), "--wait", "--quiet"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        game.deliver(mail("eve@example.com", "status"))
        deadline = time.monotonic() + 60
        while not any(n.startswith("judge-status-") for n in game.sent()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert any(n.startswith("judge-status-") for n in game.sent())
    finally:
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    log = game.log()
    assert "judge started: 1 campaign(s)" in log and "every 1 s" in log and log.rstrip().endswith("judge stopped"), log


def test_a_real_kill_just_after_the_step_is_archived(game):
    """`pbem judge --once` killed for real (os._exit, no cleanup: the hook of tests/test_kill.py)
    just after the step folder is renamed into place, before the judge records it: started
    again, the judge finds the step by its file, does not adjudicate again, and mails once."""
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    cmd = [sys.executable, "-m", "pbem", "judge", str(game.config), "--once", "--quiet"]
    env = dict(os.environ, PBEM_NO_CACHE="1")
    r = subprocess.run(cmd, env=dict(env, PBEM_TEST_CRASH_AFTER_FILES="rename"), capture_output=True, timeout=120)
    assert r.returncode == 137, r.stderr
    assert game.state()["step"] == 1 and game.sent() == {}
    assert [p.name[-3:] for p in (game.inbox / "cur").iterdir()] == [":2,"]      # claimed, not handled
    r = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert [p.name for p in sorted((game.folder / "steps").iterdir())] == ["000", "001"]
    assert kinds(game.sent()) == ["c1-receipt-*.eml", "c1-step-001-to-soviet.eml", "c1-step-001-to-western.eml"]
    assert handled(game) == ["2,S"]
    assert "was archived by a judge stopped before it said so" in game.log()


def test_a_mail_that_makes_the_judge_fail_is_put_aside_and_the_others_go_on(game, monkeypatch):
    """A bug met with one mail (here: the adjudication raises) puts that mail aside, answers its
    sender and tells the game master; the next mail is handled as usual."""
    import pbem.judge.steps as steps
    real = steps.adjudicate
    calls = []

    def once_broken(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug")
        return real(*a, **k)
    monkeypatch.setattr(steps, "adjudicate", once_broken)
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)), name="1.first")
    game.deliver(mail("Anna <anna@example.org>", "turn 1 again", yaml=game.orders("soviet", SOVIET_TURN)), name="2.second")
    game.judge().run_once(T0)
    assert game.state()["step"] == 1
    assert [p.name for p in (game.cfg.aside / "cur").iterdir()] == ["1.first:2,S"]
    out = game.sent()
    aside = [body(m) for n, m in out.items() if n.startswith("judge-aside-") and "anna" in str(m["To"])]
    assert aside and "could not be handled" in aside[0]
    assert any(n.startswith("judge-aside-1.first") for n in out)            # the game master's notice
    assert "ERROR RuntimeError: a bug" in game.log()


def test_the_same_mail_delivered_twice_is_acted_on_once(game):
    """A transport that delivers one message twice (another Received header, so other bytes):
    the second copy, with the same Message-ID and file, is marked and not answered again."""
    raw = mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN), mid="<once@example.org>")
    game.deliver(b"Received: from mx1.example.net; Mon, 2 Mar 2026 18:00:00 +0000\n" + raw, name="1.first")
    game.judge().run_once(T0)
    game.deliver(b"Received: from mx2.example.net; Mon, 2 Mar 2026 18:00:09 +0000\n" + raw, name="2.again")
    game.judge().run_once(T0 + timedelta(minutes=1))
    assert game.state()["step"] == 1 and handled(game) == ["2,S", "2,S"]
    assert kinds(game.sent()) == ["c1-receipt-*.eml", "c1-step-001-to-soviet.eml", "c1-step-001-to-western.eml"]
    assert "<once@example.org> with the same file was handled before" in game.log()
