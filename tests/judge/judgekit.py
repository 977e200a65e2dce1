"""A Battle for Germany campaign served by a judge on a Maildir, for the judge's tests."""
from __future__ import annotations

import itertools
import os
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.judge.config import load_config
from pbem.judge.judge import Judge, JudgeLog

KEY = "5" * 64
T0 = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)
PLAYERS = {"soviet": {"name": "Anna", "email": "anna@example.org"},
           "western": {"name": "Ben", "email": "ben@example.org"}}
SOVIET_TURN = "phases:\n  - phase: soviet.replacement\n  - phase: soviet.movement\n  - phase: soviet.combat\n"
_n = itertools.count()


class Game:
    """The campaign, the judge's configuration and its Maildirs."""

    def __init__(self, root: Path, deadlines: str = "", chain: bool = False, keys: dict[str, str] | None = None,
                 witness: dict[str, str] | None = None):
        """``chain``: dice from the players' hash chains (ROOT/soviet.chain, ROOT/western.chain);
        ``keys``: the players' public signing keys (every file of theirs is then signed);
        ``witness``: {name, head, email} of a chain campaign's witness (with missing-orders defaults)."""
        self.root = root
        self.folder = root / "games" / "c1"
        heads = None
        if chain:
            from pbem.core.chain import load_chain_file
            heads = {p: load_chain_file(root / f"{p}.chain")["head"] for p in PLAYERS}
        players = {p: dict(v) | ({"key": keys[p]} if keys and p in keys else {}) for p, v in PLAYERS.items()}
        new_campaign(self.folder, scenario="bfg-historical", campaign_id="c1", players=players, options={},
                     key_hex=None if chain else KEY, chain_heads=heads,
                     standing={"retreat": "auto", "advance": "none", "ex_losses": "auto"},
                     # hash chains with a missing-orders default need a witness (NEW-WITNESS): the
                     # chain tests play no missing orders
                     missing_defaults=None if chain and not witness else {"soviet": "no-orders", "western": "no-orders"},
                     witness=witness)
        self.config = root / "judge.yaml"
        self.config.write_text("schema: pbem/judge/v1\naddress: 'pbem judge <judge@example.net>'\n"
                               "game_master: gm@example.net\nmaildir: mail/inbox\noutbox: mail/outbox\n"
                               + (deadlines or "deadlines: {orders: 2d, grace: 1d}\n")
                               + "campaigns:\n  - folder: games/c1\n")
        self.cfg = load_config(self.config)
        self.inbox = root / "mail" / "inbox"
        self.outbox = root / "mail" / "outbox"
        for d in ("new", "cur", "tmp"):
            (self.inbox / d).mkdir(parents=True, exist_ok=True)

    def judge(self, fault=None) -> Judge:
        return Judge(self.cfg, log=JudgeLog(self.cfg.log), fault=fault)

    def state(self) -> dict:
        return Campaign(self.folder).current()[1]

    def orders(self, player: str, body: str) -> bytes:
        st = self.state()
        return (f"schema: pbem/orders/v1\ngame: bfg\ncampaign: c1\nplayer: {player}\nturn: {st['turn']}\n"
                f"state: {st['hash']}\n" + body).encode()

    def deliver(self, raw: bytes, name: str | None = None) -> str:
        name = name or f"{1700000000 + next(_n)}.M{os.getpid()}P{next(_n)}.test"
        tmp = self.inbox / "tmp" / name
        tmp.write_bytes(raw)
        os.rename(tmp, self.inbox / "new" / name)
        return name

    def sent(self) -> dict[str, object]:
        """The outbox's messages, by file name, parsed."""
        d = self.outbox / "new"
        return {p.name: BytesParser(policy=policy.default).parsebytes(p.read_bytes())
                for p in sorted(d.iterdir())} if d.is_dir() else {}

    def log(self) -> str:
        return self.cfg.log.read_text("utf-8") if self.cfg.log.exists() else ""


def mail(frm: str, subject: str, *, yaml: bytes | None = None, text: str | None = None,
         mid: str | None = None) -> bytes:
    m = EmailMessage(policy=policy.default)
    m["From"] = frm
    m["To"] = "judge@example.net"
    m["Subject"] = subject
    m["Message-ID"] = mid or f"<{next(_n)}.{os.getpid()}@example.org>"
    m.set_content(text or "Hi,\n\nmy orders are attached.\n")
    if yaml is not None:
        m.add_attachment(yaml, maintype="application", subtype="yaml", filename="orders.yaml")
    return m.as_bytes(policy=policy.default)


def body(msg) -> str:
    return msg.get_body(("plain",)).get_content()

