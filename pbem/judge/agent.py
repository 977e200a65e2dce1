"""``pbem agent``: a player's own mail robot for hash-chain campaigns (issue 34).

It reads the player's mail from the judge (a Maildir, or an IMAP folder: the same choices as
the judge) and answers each link request by itself with the reveal ``pbem chain reveal`` makes
(signed with the player's key when given: the only thing it signs), so that a reveal round costs
the player no time; he answers only real decisions. For every mail it:

1. takes only mails from the judge's address that attach a state of the player's campaign (the
   others are left to the player: logged, not touched);
2. checks the archive head the mail names (``Archive head after step NNN``) against every mail
   it has seen: one head per step (a judge that shows two archives for one step is refused and the
   player told), and never a step older than the latest it has seen (a rewound archive);
3. when the state asks for the player's link, reveals it through ``pbem chain reveal`` (which
   refuses to reveal one link for anything else: the ``.revealed`` record beside the chain file)
   and mails the reveal to the judge, once (the outbox's name is the campaign and the link's index).

The agent's records are in its ``state`` folder: ``heads.json`` (the head seen for each step) and
``work/`` (the mails as read).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from pathlib import Path

from ..core.errors import ExitCode, Issue, PbemError
from ..core.files import atomic_write
from .mailbox import Claimed, Maildir, MaildirOutbox, Sender
from .remote import Account, account


@dataclass
class AgentConfig:
    path: Path
    player: str
    campaign: str
    address: str
    judge: str
    chain: Path
    key: Path | None
    maildir: Path
    outbox: Path
    log: Path
    state: Path
    poll: float
    imap: Account | None = None
    imap_folder: str = "INBOX"
    smtp: Account | None = None


def load_agent_config(path: Path) -> AgentConfig:
    from .config import beside, duration, load_checked
    path = Path(path)
    loaded = load_checked(path, "agent")
    doc = loaded.data
    here = path.parent
    rel = beside(path)
    accounts = {kind: account(kind, doc[kind], here) for kind in ("imap", "smtp") if doc.get(kind)}
    problems = []
    for a in accounts.values():
        try:
            a.password()
        except PbemError as e:
            problems += e.issues
    if not rel(doc["chain"]).is_file():
        problems.append(Issue("AGENT-CHAIN", f"chain: {doc['chain']} is no file", file=str(path),
                              line=(loaded.marks.get(("chain",)) or (None,))[0], hint="the file `pbem chain new` wrote"))
    if problems:
        raise PbemError(problems, ExitCode.INVALID)
    return AgentConfig(path=path, player=doc["player"], campaign=str(doc["campaign"]), address=doc["address"],
                       judge=doc["judge"], chain=rel(doc["chain"]), key=rel(doc["key"]) if doc.get("key") else None,
                       maildir=rel(doc["maildir"]), outbox=rel(doc["outbox"]), log=rel(doc.get("log") or "agent.log"),
                       state=rel(doc.get("state") or ".pbem-agent"),
                       poll=duration(doc.get("poll") or "1m").total_seconds(),
                       imap=accounts.get("imap"), imap_folder=(doc.get("imap") or {}).get("folder") or "INBOX",
                       smtp=accounts.get("smtp"))


class Agent:
    def __init__(self, cfg: AgentConfig, *, sender: Sender | None = None, log=None):
        from .judge import JudgeLog
        self.cfg = cfg
        self.inbox = Maildir(cfg.maildir)
        self.sender: Sender = sender or MaildirOutbox(cfg.outbox)
        self.log = log or JudgeLog(cfg.log)
        self._now: datetime | None = None
        self.fetcher = None
        self.smtp = None
        if cfg.imap is not None:
            from .remote import ImapFetcher
            self.fetcher = ImapFetcher(cfg.imap, cfg.imap_folder, cfg.maildir, cfg.state, self._server_log)
        if cfg.smtp is not None and sender is None:
            from .remote import SmtpOutbox
            self.smtp = SmtpOutbox(cfg.smtp, cfg.outbox, self._server_log, cfg.address)

    def _server_log(self, text: str) -> None:
        if self._now is not None:
            self.log(self._now, text)

    def close(self) -> None:
        if self.fetcher is not None:
            self.fetcher.close()

    def run_once(self, now: datetime) -> int:
        """Read what arrived; the number of links revealed and mailed."""
        self._now = now
        if self.fetcher is not None:
            self.fetcher.fetch()
        n = 0
        for c in self.inbox.orphans():
            n += self._handle(c, now)
        for name in self.inbox.waiting():
            claimed = self.inbox.claim(name)
            if claimed is not None:
                n += self._handle(claimed, now)
        if self.smtp is not None:
            self.smtp.flush(now)
        return n

    def _handle(self, c: Claimed, now: datetime) -> int:
        try:
            return self._one(c, now)
        except PbemError as e:
            self.log(now, f"{c.name}: NOT answered: " + "; ".join(f"{i.code} {i.message}" for i in e.issues))
            self._tell(f"agent-refused-{c.name[:40]}", "a link request NOT answered",
                       ["Your agent did not answer a link request:", ""] + [i.format() for i in e.issues])
            self.inbox.done(c)
            return 0
        finally:
            c.release()

    def _one(self, c: Claimed, now: datetime) -> int:
        from ..core.mail import state_of_mail
        from .replies import read_headers
        inc = read_headers(c.raw) if c.raw is not None else None
        judge = parseaddr(self.cfg.judge)[1].lower()
        if c.raw is None or inc is None or inc.sender is None or inc.sender[1] != judge:
            self.log(now, f"{c.name}: not from the judge ({inc.sender[0] if inc and inc.sender else 'unreadable'}): "
                          "left to you")
            self.inbox.done(c)
            return 0
        work = self.cfg.state / "work" / f"{hashlib.sha256(c.raw).hexdigest()[:24]}.eml"
        work.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(work, c.raw, overwrite=True)
        try:
            st, head = state_of_mail(work)
        except PbemError:
            self.log(now, f"{c.name}: from the judge, no state attached ({inc.subject!r}): nothing to do")
            self.inbox.done(c)
            return 0
        if str(st.get("campaign")) != self.cfg.campaign:
            self.log(now, f"{c.name}: campaign {st.get('campaign')}, not {self.cfg.campaign}: left to you")
            self.inbox.done(c)
            return 0
        self._check_head(st["step"], head, c.name)
        d = st.get("dice") or {}
        req = d.get("request")
        if d.get("mode") != "chain" or not req:
            self.log(now, f"{c.name}: step {st['step']:03d}: no link asked for")
            self.inbox.done(c)
            return 0
        if self.cfg.player not in (req.get("players") or d.get("heads") or {}):
            self.log(now, f"{c.name}: step {st['step']:03d}: the links of {', '.join(req.get('players') or [])} are asked, not yours")
            self.inbox.done(c)
            return 0
        index = int(d["used"]) + 1
        out = self.cfg.state / "reveals" / f"reveal-{self.cfg.campaign}-{self.cfg.player}-{index:03d}.yaml"
        _reveal(self.cfg.chain, work, out, self.cfg.key)
        sent = self.sender.send(f"agent-{self.cfg.campaign}-{self.cfg.player}-link-{index:03d}",
                                self._mail(inc, out.read_bytes(), st["step"], index))
        self.log(now, f"{c.name}: step {st['step']:03d}: link {index} of {self.cfg.player} revealed "
                      f"(archive head {head[:16] if head else '-'}...)" + ("; mailed to the judge" if sent else "; mailed before"))
        self.inbox.done(c)
        return 1

    def _check_head(self, step: int, head: str | None, name: str) -> None:
        """One head per step, and no step older than the latest seen (``heads.json``)."""
        rec_path = self.cfg.state / "heads.json"
        try:
            rec = json.loads(rec_path.read_text("utf-8"))
        except (OSError, ValueError):
            rec = {}
        key = f"{step:03d}"
        if head is None:
            raise PbemError([Issue("AGENT-HEAD", f"{name}: the mail names no archive head after step {key}",
                                   hint="a link is revealed only for an archive whose head the mail names")])
        if rec.get(key) not in (None, head):
            raise PbemError([Issue("AGENT-HEAD", f"{name}: the archive head after step {key} is {head[:16]}..., but an "
                                   f"earlier mail said {rec[key][:16]}...: the judge showed two archives",
                                   hint="compare heads with the other players (`pbem head CAMPAIGN --check`); no link was revealed")])
        latest = max((int(k) for k in rec), default=-1)
        if step < latest:
            raise PbemError([Issue("AGENT-HEAD", f"{name}: the mail is of step {key}, but step {latest:03d} was seen "
                                   "already: an old request (or a rewound archive) is not answered")])
        rec[key] = head
        rec_path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(rec_path, (json.dumps(rec, sort_keys=True, indent=1) + "\n").encode(), overwrite=True)

    def _mail(self, inc, reveal: bytes, step: int, index: int) -> bytes:
        from email import policy
        from email.message import EmailMessage
        msg = EmailMessage(policy=policy.default)
        msg["From"] = self.cfg.address
        msg["To"] = self.cfg.judge
        s = inc.subject or f"step {step:03d}"
        msg["Subject"] = s if s.lower().startswith("re:") else f"Re: {s}"
        h = hashlib.sha256(f"{self.cfg.campaign}\0{self.cfg.player}\0{index}".encode()).hexdigest()[:32]
        msg["Message-ID"] = f"<pbem-agent.{h}@pbem.localhost>"
        if inc.message_id:
            msg["In-Reply-To"] = inc.message_id
            msg["References"] = inc.message_id
        msg.set_content(f"My chain link {index} for step {step:03d} of campaign {self.cfg.campaign}, revealed by "
                        f"my pbem agent, is attached.\n")
        msg.add_attachment(reveal, maintype="application", subtype="yaml",
                           filename=f"reveal-{self.cfg.player}-{index:03d}.yaml")
        return msg.as_bytes(policy=policy.default)

    def _tell(self, name: str, subject: str, body: list[str]) -> None:
        from .replies import compose
        self.sender.send(name, compose(sender=self.cfg.address, to=self.cfg.address, subject=f"[pbem agent] {subject}",
                                       body=body, seed=name, kind="agent",
                                       footer=f"Written by your pbem agent ({self.cfg.path})."))


def _reveal(chain: Path, mail: Path, out: Path, key: Path | None) -> None:
    """``pbem chain reveal CHAIN MAIL -o OUT [--key KEY]`` (its checks, its ``.revealed``
    record); PbemError when it refuses."""
    from ..cli.trust import chain_reveal_cmd
    out.parent.mkdir(parents=True, exist_ok=True)
    args = [str(chain), str(mail), "-o", str(out), "--force"] + (["--key", str(key)] if key else [])
    chain_reveal_cmd.main(args, standalone_mode=False)
