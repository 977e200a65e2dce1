"""Observers (issue 34): configured per campaign in the judge's configuration, each gets the
public mail of every step (the report, the archive head), once, and never a player's own mail."""
from __future__ import annotations

from datetime import timedelta

import pytest
from judgekit import SOVIET_TURN, T0, body, mail

from pbem.core.errors import PbemError
from pbem.judge.config import load_config


def test_observers_get_the_public_mail_of_each_step(game):
    game.config.write_text(game.config.read_text().replace(
        "  - folder: games/c1\n", "  - folder: games/c1\n    observers: ['Olga <olga@example.com>', pat@example.com]\n"))
    game.cfg = load_config(game.config)
    judge = game.judge()
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", SOVIET_TURN)))
    judge.run_once(T0)
    out = game.sent()
    seen = {n: m for n, m in out.items() if "-to-observer-" in n}
    assert len(seen) == 2 and all(n.startswith("c1-step-001-to-observer-") for n in seen), list(out)
    assert sorted(str(m["To"]) for m in seen.values()) == ["Olga <olga@example.com>", "pat@example.com"]
    report = (game.folder / "steps" / "001" / "report.txt").read_text().splitlines()[0]
    for m in seen.values():
        text = body(m)
        assert report in text and "Archive head after step 001: " in text
        assert "that is you" not in text and "awaited from you" not in text and not list(m.iter_attachments())
    # the players' own mails go to the players only
    for n, m in out.items():
        if "-to-observer-" not in n:
            assert "example.com" not in str(m["To"]) and "example.com" not in str(m.get("Cc", "")), n
    judge.run_once(T0 + timedelta(minutes=1))
    assert len([n for n in game.sent() if "-to-observer-" in n]) == 2


def test_an_observer_address_is_checked(game):
    game.config.write_text(game.config.read_text().replace(
        "  - folder: games/c1\n", "  - folder: games/c1\n    observers: ['not an address']\n"))
    with pytest.raises(PbemError) as e:
        load_config(game.config)
    assert [(i.code, i.line) for i in e.value.issues] == [("JUDGE-ADDRESS", 9)], e.value.issues
