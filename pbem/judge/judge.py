"""The judge: reads the mails that arrive in its Maildir, answers each, adjudicates what the
campaigns have, and keeps the deadlines. The clock is an input: every entry point takes ``now``
(an aware datetime); nothing here reads the wall clock, and the rules never see it.

One message, from arrival to the S flag (each point a kill may stop it at, see the tests):

1. claimed (locked, moved out of new/);
2. matched to its campaign (the order file's ``campaign:``, else the sender's address) and, under
   the campaign's lock, looked up in the campaign's journal: a message ``done`` is only marked;
3. checked: its sender (``MAIL-FROM``), then the adjudication itself (every problem at once,
   signatures included: the same path as ``pbem adjudicate``); refused -> a reply with every
   problem, nothing archived;
4. ``intent`` recorded (the step it will make and the sha256 of its order file), adjudicated and
   archived (``stepped``), ``archived`` recorded (a restart that finds the step in the archive with this file
   records it and does not adjudicate again);
5. the step's mails written (:func:`pbem.core.mail.step_messages`, what ``adjudicate --mail``
   writes) and the receipt, each under a name of its own (written once);
6. ``done`` recorded, the message flagged S.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from ..core.errors import Issue, PbemError
from ..core.files import atomic_write
from .config import CampaignConf, JudgeConfig
from .journal import Journal
from .mailbox import Claimed, Maildir, MaildirOutbox, Sender, locked
from .replies import Incoming, compose, issue_lines, re_subject, read_headers, subject_words

# the points a kill may stop the judge at, in order (tests inject a fault at each)
POINTS = ("claimed", "intent", "stepped", "archived", "mailed", "replied", "recorded")


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def when(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


class JudgeLog:
    """The game master's log: one line per thing done, with the judge's time."""

    def __init__(self, path: Path | None, echo: Callable[[str], None] | None = None):
        self.path = path
        self.echo = echo

    def __call__(self, now: datetime, text: str) -> None:
        line = f"{iso(now)} {text}"
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        if self.echo is not None:
            self.echo(line)


class Judge:
    def __init__(self, cfg: JudgeConfig, *, sender: Sender | None = None, log: JudgeLog | None = None,
                 fault: Callable[[str], None] | None = None):
        self.cfg = cfg
        self.inbox = Maildir(cfg.maildir)
        self.sender: Sender = sender or MaildirOutbox(cfg.outbox)
        self.log = log or JudgeLog(cfg.log)
        self.fault = fault or (lambda point: None)
        self.own = Journal(cfg.state / "journal.jsonl")
        self.handled = 0
        self._addresses: dict[str, set[str]] = {}
        self._now: datetime | None = None     # the round's time, for the log lines of the mail servers
        self.fetcher = None
        self.smtp = None
        if cfg.imap is not None:
            from .remote import ImapFetcher
            self.fetcher = ImapFetcher(cfg.imap, cfg.imap_folder, cfg.maildir, cfg.state, self._server_log,
                                       aside=cfg.aside)
        if cfg.smtp is not None and sender is None:
            from .remote import SmtpOutbox
            self.smtp = SmtpOutbox(cfg.smtp, cfg.outbox, self._server_log, cfg.address)

    def _server_log(self, text: str) -> None:
        """A line of the IMAP or SMTP side, with the time of the last round (the clock is an input)."""
        if self._now is not None:
            self.log(self._now, text)

    # ------------------------------------------------------------------ the loop
    def run_once(self, now: datetime) -> int:
        """Handle every message waiting (those a killed judge left first), then the deadlines.
        The number of messages handled. With an IMAP account, its new messages are copied
        into the Maildir first; with an SMTP server, the outbox is sent last."""
        self.handled = 0
        self._now = now
        self._addresses.clear()
        if self.fetcher is not None:
            got = self.fetcher.fetch()
            if got:
                self.log(now, f"IMAP: {got} new message(s)")
        for c in self.inbox.orphans():
            self._handle(c, now)
        for name in self.inbox.waiting():
            claimed = self.inbox.claim(name)
            if claimed is not None:
                self._handle(claimed, now)
        for cc in self.cfg.campaigns:
            self._safely(cc, now)
        if self.smtp is not None:
            sent = self.smtp.flush(now)
            if sent:
                self.log(now, f"SMTP: {sent} mail(s) sent")
        return self.handled

    def close(self) -> None:
        if self.fetcher is not None:
            self.fetcher.close()

    def _safely(self, cc: CampaignConf, now: datetime) -> None:
        from .deadlines import tick
        try:
            tick(self, cc, now)
        except Exception as e:  # noqa: BLE001 - one campaign's trouble must not stop the others
            self.log(now, f"{cc.id}: ERROR keeping the deadlines: {type(e).__name__}: {e}")

    def _handle(self, c: Claimed, now: datetime) -> None:
        try:
            self.fault("claimed")
            self._dispatch(c, now)
            self.handled += 1
        except Exception as e:  # noqa: BLE001 - a bug with one message must not block the others
            if c.fd < 0:        # handled already (flagged): only what came after failed
                self.log(now, f"{c.name}: ERROR after it was handled: {type(e).__name__}: {e}")
                return
            self.log(now, f"{c.name}: ERROR {type(e).__name__}: {e}; put aside in {self.cfg.aside}")
            self._aside(c, now, f"the judge could not handle it ({type(e).__name__}); the game master is told")
        finally:
            c.release()     # (a judge killed here: the kernel drops the lock the same way)

    def _dispatch(self, c: Claimed, now: datetime) -> None:
        inc = read_headers(c.raw) if c.raw is not None else None
        if c.raw is None or inc is None:
            self._aside(c, now, c.why or "it is no e-mail message (no From, To, Subject or Message-ID)")
            return
        if inc.sender is not None and inc.sender[1] == self._own_address():
            self.log(now, f"{c.name}: a mail from the judge itself: not answered")
            self.inbox.done(c)
            return
        if inc.automatic:
            self.log(now, f"{c.name}: an automatic mail (auto-reply, bounce or list) from "
                          f"{inc.sender[0] if inc.sender else 'nobody'}, subject {inc.subject!r}: not answered")
            self.inbox.done(c)
            return
        words = subject_words(inc.subject)
        if words and words[0].lower().rstrip(":") == "status":
            from .status import answer_status
            answer_status(self, c, inc, words[1:], now)
            return
        self._orders(c, inc, now)

    # ------------------------------------------------------------------ helpers
    def _own_address(self) -> str:
        from email.utils import parseaddr
        return parseaddr(self.cfg.address)[1].lower()

    def reply(self, inc: Incoming, body: list[str], kind: str, *, campaign: str | None = None,
              subject: str | None = None) -> bool:
        """Answer ``inc`` (once: the name comes from the message and ``kind``)."""
        if inc.reply_to is None:
            return False
        data = compose(sender=self.cfg.address, to=inc.reply_to, subject=subject or re_subject(inc, "your mail"),
                       body=body, seed=inc.key, kind=kind, answers=inc, campaign=campaign)
        return self.sender.send(f"{campaign or 'judge'}-{kind}-{inc.key[:20]}", data)

    def _aside(self, c: Claimed, now: datetime, why: str) -> None:
        """Move the message out of the way (kept), answer its sender, tell the game master.
        Nothing here may stop the judge: a failure is logged, and the message stays claimed
        for the next round."""
        try:
            inc = read_headers(c.raw) if c.raw is not None else None
            if inc is not None and not inc.automatic:
                self.reply(inc, [f"Your mail could not be handled: {why}.", "",
                                 "It is kept, unread by the judge; the game master can look at it."], "aside")
            self.notify_gm(f"judge-aside-{c.name[:40]}", f"a mail put aside: {c.name}",
                           [f"The mail {c.name} was put aside: {why}.", f"It is in {self.cfg.aside}/cur/."])
            where = self.inbox.put_aside(c, self.cfg.aside)
        except Exception as e:  # noqa: BLE001 - the last resort: logged, the others go on
            self.log(now, f"{c.name}: ERROR: could not put it aside ({type(e).__name__}: {e}); it stays in {c.path}")
            return
        self.log(now, f"{c.name}: put aside ({why}): {where}")

    def notify_gm(self, name: str, subject: str, body: list[str]) -> None:
        """A notice to the game master (when the configuration names one), once per ``name``."""
        if self.cfg.game_master:
            self.sender.send(name, compose(sender=self.cfg.address, to=self.cfg.game_master,
                                           subject=f"[pbem judge] {subject}", body=body, seed=name, kind="gm"))

    def is_gm(self, inc: Incoming) -> bool:
        from email.utils import parseaddr
        return bool(self.cfg.game_master and inc.sender
                    and parseaddr(self.cfg.game_master)[1].lower() == inc.sender[1])

    def campaign_of_sender(self, inc: Incoming) -> list[CampaignConf]:
        """The campaigns ``inc``'s sender plays in (campaign.yaml read once per round)."""
        if inc.sender is None:
            return []
        out = []
        for cc in self.cfg.campaigns:
            if cc.id not in self._addresses:
                from ..core.mail import witness_recipient
                m = cc.campaign().manifest
                wit = witness_recipient(m)      # the witness mails his reveals too
                self._addresses[cc.id] = {str((v or {}).get("email") or "").lower()
                                          for v in [*(m.get("players") or {}).values(), *([wit] if wit else [])]}
            if inc.sender[1] in self._addresses[cc.id]:
                out.append(cc)
        return out

    # ------------------------------------------------------------------ orders
    def _orders(self, c: Claimed, inc: Incoming, now: datetime) -> None:
        from ..core.mail import extract_orders
        assert c.raw is not None
        who = inc.sender[0] if inc.sender else "nobody"
        try:
            found = extract_orders(c.raw, f"{c.name}.eml")
        except PbemError as e:
            mine = self.campaign_of_sender(inc)
            cid = mine[0].id if len(mine) == 1 else None
            self._refuse(c, inc, now, e.issues, cid, f"from {who}: no order file")
            return
        cid, why, kind = _campaign_named(found[0][1])
        cc = self.cfg.by_id(cid) if cid else None
        if cid is None and len(self.campaign_of_sender(inc)) == 1:
            cc = self.campaign_of_sender(inc)[0]      # a file that does not load: its problems, from the adjudication
        if cc is None:
            served = ", ".join(x.id for x in self.cfg.campaigns)
            msg = (f"the file names the campaign {cid!r}, which this judge does not serve (it serves {served})"
                   if cid else f"the file names no campaign ({why})")
            self._refuse(c, inc, now, [Issue("JUDGE-CAMPAIGN", msg, file=found[0][0],
                                             hint="check the `campaign:` line of the file")], None, f"from {who}")
            return
        with locked(cc.folder / "judge" / "lock"):
            if kind == "reveal":
                from .reveals import take_reveal
                take_reveal(self, cc, c, inc, found[0], now)
            elif kind == "end":         # a concession or a part of a draw (pbem end)
                from .ends import take_end
                take_end(self, cc, c, inc, found[0], now)
            else:
                from .steps import take_orders
                take_orders(self, cc, c, inc, found[0], now)

    def _refuse(self, c: Claimed, inc: Incoming, now: datetime, issues: list[Issue], cid: str | None, what: str,
                journal: Journal | None = None) -> None:
        issues = [_as_sent(i) for i in issues]
        errors = [i for i in issues if i.is_error]
        body = [f"Your mail was NOT accepted: {len(errors)} error(s)" + (f" (campaign {cid})" if cid else "") + ".",
                "Nothing was archived. Correct the file and send it again (`pbem validate` checks it first).", ""]
        body += issue_lines(issues)
        self.reply(inc, body, "refused", campaign=cid)
        self.fault("replied")
        (journal or self.own).add(msg=inc.key, state="done", result="refused", codes=sorted({i.code for i in errors}),
                                  mid=inc.message_id, file=inc.file_sha)
        self.fault("recorded")
        self.inbox.done(c)
        self.log(now, f"{cid or '-'}: {c.name} {what}: REFUSED, " + ", ".join(sorted({i.code for i in errors})))

    def work_copy(self, cc: CampaignConf, c: Claimed) -> Path:
        """The message as a file the adjudication reads (kept with the campaign's judge records)."""
        assert c.raw is not None
        p = cc.folder / "judge" / "work" / f"{hashlib.sha256(c.raw).hexdigest()[:24]}.eml"
        p.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(p, c.raw, overwrite=True)
        return p


_WORK = re.compile(r"[^\s'\"]*/judge/work/[0-9a-f]+\.eml")


def _as_sent(i: Issue) -> Issue:
    """The issue as the player reads it: ``your-mail.eml#orders.yaml``, not the judge's path
    to its copy of the mail."""
    from dataclasses import replace
    return replace(i, file=_WORK.sub("your-mail.eml", i.file) if i.file else i.file,
                   message=_WORK.sub("your-mail.eml", i.message))


def _campaign_named(data: bytes) -> tuple[str | None, str, str]:
    """The ``campaign:`` an order (or reveal, or end) file names, or None and why not; its kind:
    orders, reveal (a chain link, ``schema: pbem/reveal/...``) or end (``pbem/end/...``)."""
    from ..core.yamlio import load_yaml
    try:
        doc = load_yaml(data, "orders").data
    except PbemError as e:
        return None, e.issues[0].message, "orders"
    if not isinstance(doc, dict) or not isinstance(doc.get("campaign"), (str, int)):
        return None, "no `campaign:` line", "orders"
    schema = str(doc.get("schema", ""))
    kind = "reveal" if schema.startswith("pbem/reveal/") else "end" if schema.startswith("pbem/end/") else "orders"
    return str(doc["campaign"]), "", kind

