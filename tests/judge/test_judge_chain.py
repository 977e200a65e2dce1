"""Dice without a referee, by mail through the judge (docs/dice-and-audit.md, "Dice without a referee"): the
orders that meet a die are archived and every player is asked for a link in the step's mail;
each player reveals from that mail (`pbem chain reveal ROLE.chain THIS.eml`) and mails the
reveal back; the judge checks each as it comes, and carries the orders out when the last is in."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from click.testing import CliRunner
from judgekit import T0, Game, body, mail

from pbem.cli import main

ATTACK = ("phases:\n  - phase: soviet.replacement\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: '0422'}\n"
          "  - phase: soviet.combat\n    attacks:\n      - {target: '2424', units: [sov-1gt, sov-2gt, sov-8ga]}\n")


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def test_links_by_mail(tmp_path):
    for p in ("soviet", "western"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    game = Game(tmp_path, chain=True)
    judge = game.judge()
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", ATTACK)))
    judge.run_once(T0)
    st = game.state()
    assert st["step"] == 1 and {a["for"] for a in st["awaiting"]} == {"links"}, st["awaiting"]
    # an order file now: refused, the archived orders wait for their links
    game.deliver(mail("Anna <anna@example.org>", "more", yaml=game.orders("soviet", ATTACK)))
    judge.run_once(T0 + timedelta(minutes=1))
    assert any("DICE-LINKS-AWAITED" in body(m) for n, m in game.sent().items() if "-refused-" in n)
    reveals = {}
    for p in ("soviet", "western"):
        asked = game.outbox / "new" / f"c1-step-001-to-{p}.eml"
        run("chain", "reveal", tmp_path / f"{p}.chain", asked, "-o", tmp_path / f"reveal-{p}.yaml")
        reveals[p] = (tmp_path / f"reveal-{p}.yaml").read_bytes()
    game.deliver(mail("Anna <anna@example.org>", "my link", yaml=reveals["soviet"]))
    judge.run_once(T0 + timedelta(minutes=2))
    receipt = [body(m) for n, m in game.sent().items() if "-receipt-" in n and "anna" in str(m["To"])]
    assert any("still awaited: the links of western" in b for b in receipt), receipt
    assert game.state()["step"] == 1
    # the soviet link again (another mail): nothing changes; then a forged western link
    forged = re.sub(rb'link: "([0-9a-f])', lambda m: b'link: "' + (b"0" if m.group(1) != b"0" else b"1"), reveals["western"])
    assert forged != reveals["western"]
    game.deliver(mail("Anna <anna@example.org>", "my link again", yaml=reveals["soviet"]))
    game.deliver(mail("Ben <ben@example.org>", "my link", yaml=forged))
    judge.run_once(T0 + timedelta(minutes=3))
    assert game.state()["step"] == 1, game.log()
    assert any("DICE-REVEAL-CHAIN" in body(m)
               for n, m in game.sent().items() if "-refused-" in n and "ben" in str(m["To"]))
    game.deliver(mail("Ben <ben@example.org>", "my link", yaml=reveals["western"]))
    judge.run_once(T0 + timedelta(minutes=4))
    st = game.state()
    assert st["step"] == 2 and not (st["dice"].get("request")), st.get("awaiting")
    assert {"c1-step-002-to-soviet.eml", "c1-step-002-to-western.eml"} <= set(game.sent())
    r = CliRunner().invoke(main, ["replay", str(game.folder)])
    assert r.exit_code == 0 and "REPLAY OK: 2 step(s)" in r.output, r.output


@pytest.mark.parametrize("point", ["intent", "stepped", "archived", "mailed", "recorded"])
def test_killed_while_carrying_out_the_links(tmp_path, point):
    """The last reveal arrives and the judge is killed: started again, it carries the orders
    out once and mails the step once."""
    for p in ("soviet", "western"):
        run("chain", "new", "-p", p, "-o", tmp_path / f"{p}.chain")
    game = Game(tmp_path, chain=True)
    game.deliver(mail("Anna <anna@example.org>", "turn 1", yaml=game.orders("soviet", ATTACK)))
    game.judge().run_once(T0)
    for p, who in (("soviet", "Anna <anna@example.org>"), ("western", "Ben <ben@example.org>")):
        run("chain", "reveal", tmp_path / f"{p}.chain", game.outbox / "new" / f"c1-step-001-to-{p}.eml",
            "-o", tmp_path / f"reveal-{p}.yaml")
        game.deliver(mail(who, "my link", yaml=(tmp_path / f"reveal-{p}.yaml").read_bytes()))
    try:
        game.judge(fault=lambda at: (_ for _ in ()).throw(Killed(at)) if at == point else None).run_once(T0)
    except Killed:
        pass
    game.judge().run_once(T0 + timedelta(minutes=1))
    assert [d.name for d in sorted((game.folder / "steps").iterdir())] == ["000", "001", "002"]
    sent = sorted(game.sent())
    assert sum(n.startswith("c1-step-002-") for n in sent) == 2
    assert sum("-receipt-" in n for n in sent) == 3        # the orders, each link
    assert all(p.name.endswith(":2,S") for p in (game.inbox / "cur").iterdir())


class Killed(BaseException):
    pass
