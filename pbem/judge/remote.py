"""Real mail accounts: an IMAP inbox (imapclient, the ``judge`` extra) and SMTP sending (the
standard library's smtplib).

The judge itself keeps working on its Maildirs (:mod:`.mailbox`); these two only move mail
between them and the servers, each exactly once:

- :class:`ImapFetcher` copies each new message of the IMAP folder into the judge's Maildir under
  a name made of the folder's UIDVALIDITY and the message's UID (``imap-V-U``), linked into
  ``new/`` never over an existing file, and then marks it on the server (``\\Seen`` and the
  keyword ``$PbemJudge``). It records the UIDVALIDITY and the highest UID copied; a judge killed
  between copying and marking copies the message again under the same name, which the Maildir
  refuses (and the journal knows its Message-ID and bytes anyway). When the server gives the
  folder a new UIDVALIDITY (the folder was made anew), the record is dropped and what has no
  ``$PbemJudge`` keyword is copied (the journal acts on a mail delivered twice once).
- :class:`SmtpOutbox` sends what the judge wrote into the outbox Maildir's ``new/``: each message
  gets a ``Date:`` of its sending (the outbox keeps the bytes as written), is sent, recorded in
  ``sent.jsonl`` beside the outbox, and moved to ``cur/NAME:2,S``. A message recorded as sent is
  never sent again (a judge killed between the server's answer and the move only moves it). When
  the server cannot be reached, the messages stay in ``new/`` and go at a later round; a message
  the server refuses for good (5xx) is moved to ``cur/NAME:2,F`` and logged.

Passwords come from an environment variable or a file only its owner can read (``password_env``,
``password_file``).
"""
from __future__ import annotations

import contextlib
import json
import os
import smtplib
import ssl
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime, getaddresses, parseaddr
from pathlib import Path
from typing import Any

from ..core.errors import ExitCode, Issue, PbemError
from .journal import append_line
from .mailbox import link_new, make_maildir

KEYWORD = b"$PbemJudge"


@dataclass(frozen=True)
class Account:
    """A server and how to log in (``kind``: imap or smtp)."""
    kind: str
    host: str
    port: int
    tls: str
    user: str | None
    password_env: str | None = None
    password_file: Path | None = None

    def password(self) -> str | None:
        """The password, from the environment or the owner-only file; PbemError when it is
        missing or the file may be read by others."""
        if self.password_env:
            v = os.environ.get(self.password_env)
            if v is None:
                raise PbemError([Issue("JUDGE-CREDENTIALS", f"{self.kind}: the environment variable {self.password_env} "
                                       "is not set", hint=f"export {self.password_env}=... before starting the judge")],
                                ExitCode.INVALID)
            return v
        if self.password_file is not None:
            return read_secret(self.password_file, self.kind)
        return None


def read_secret(path: Path, what: str) -> str:
    """The first line of ``path``, which must be a regular file no one but its owner may read."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise PbemError([Issue("JUDGE-CREDENTIALS", f"{what}: the password file cannot be read ({e.strerror})",
                               file=str(path))], ExitCode.INVALID) from None
    if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077:
        raise PbemError([Issue("JUDGE-CREDENTIALS",
                               f"{what}: the password file may be read by others (mode {stat.filemode(st.st_mode)})",
                               file=str(path), hint=f"chmod 600 {path}: only its owner may read it")],
                        ExitCode.INVALID)
    with open(path, encoding="utf-8") as f:
        return f.readline().rstrip("\r\n")


def account(kind: str, doc: dict, here: Path) -> Account:
    tls = doc.get("tls") or ("ssl" if kind == "imap" else "starttls")
    ports = {"imap": {"ssl": 993, "starttls": 143, "none": 143}, "smtp": {"ssl": 465, "starttls": 587, "none": 25}}
    pf = doc.get("password_file")
    return Account(kind=kind, host=doc["host"], port=int(doc.get("port") or ports[kind][tls]), tls=tls,
                   user=doc.get("user"), password_env=doc.get("password_env"),
                   password_file=(here / pf if not Path(pf).is_absolute() else Path(pf)) if pf else None)


Log = Callable[[str], None]


# ---------------------------------------------------------------------------------------- IMAP
class ImapFetcher:
    """Copies the IMAP folder's new messages into the judge's Maildir, once each."""

    def __init__(self, acct: Account, folder: str, maildir: Path, state: Path, log: Log, timeout: float = 30,
                 aside: Path | None = None):
        self.acct = acct
        self.folder = folder
        self.maildir = make_maildir(maildir)
        self.aside = aside          # a message put aside there was copied before too
        self.record = Path(state) / "imap.json"
        self.log = log
        self.timeout = timeout
        self.client: Any = None

    def _connect(self) -> Any:
        from imapclient import IMAPClient
        ctx = ssl.create_default_context()
        c = IMAPClient(self.acct.host, port=self.acct.port, ssl=self.acct.tls == "ssl", ssl_context=ctx,
                       timeout=self.timeout)
        if self.acct.tls == "starttls":
            c.starttls(ctx)
        c.login(self.acct.user, self.acct.password() or "")
        return c

    def _client(self) -> Any:
        if self.client is None:
            self.client = self._connect()
        return self.client

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.logout()
            self.client = None

    def _load(self) -> dict:
        try:
            return json.loads(self.record.read_text("utf-8"))
        except (OSError, ValueError):
            return {}

    def _save(self, rec: dict) -> None:
        self.record.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.record.with_suffix(".tmp")
        tmp.write_text(json.dumps(rec, sort_keys=True), "utf-8")
        os.replace(tmp, self.record)

    def fetch(self) -> int:
        """Copy what is new; the number of messages copied. A server that cannot be reached is
        logged and left for the next round (nothing is lost: the messages wait on the server)."""
        try:
            return self._fetch()
        except (OSError, PbemError) as e:
            if isinstance(e, PbemError):
                raise
            self.log(f"IMAP {self.acct.host}:{self.acct.port}: cannot fetch ({type(e).__name__}: {e}); "
                     "trying again at the next round")
            self.close()
            return 0
        except Exception as e:  # noqa: BLE001 - imapclient's and imaplib's errors: the next round tries again
            self.log(f"IMAP {self.acct.host}:{self.acct.port}: {type(e).__name__}: {e}; trying again at the next round")
            self.close()
            return 0

    def _fetch(self) -> int:
        c = self._client()
        info = c.select_folder(self.folder)
        validity = int(info[b"UIDVALIDITY"])
        rec = self._load()
        if rec.get("uidvalidity") != validity:
            if rec:
                self.log(f"IMAP {self.folder}: UIDVALIDITY {rec.get('uidvalidity')} -> {validity} (the folder was made "
                         "anew): every message without the $PbemJudge keyword is taken again")
            rec = {"uidvalidity": validity, "last_uid": 0}
            self._save(rec)
        last = int(rec["last_uid"])
        crit: list[Any] = ["UNKEYWORD", KEYWORD.decode()]
        if last:
            crit = ["UID", f"{last + 1}:*", *crit]
        uids = sorted(u for u in c.search(crit) if u > last)
        n = 0
        for i in range(0, len(uids), 50):
            chunk = uids[i:i + 50]
            data = c.fetch(chunk, ["BODY.PEEK[]"])
            for uid in chunk:
                raw = (data.get(uid) or {}).get(b"BODY[]")
                if raw is None:
                    continue    # expunged meanwhile
                if self._deliver(f"imap-{validity}-{uid}", raw):
                    n += 1
            c.add_flags(chunk, [b"\\Seen", KEYWORD], silent=True)
            rec["last_uid"] = max(chunk)
            self._save(rec)
        return n

    def _deliver(self, name: str, raw: bytes) -> bool:
        root = self.maildir
        if (root / "new" / name).exists() or any((root / "cur").glob(f"{name}:2,*")) or (
                self.aside is not None and any((self.aside / "cur").glob(f"{name}:2,*"))):
            return False
        return link_new(root, name, raw)

    def wait(self, seconds: float, stopped: Callable[[], bool]) -> None:
        """Wait up to ``seconds`` for new mail: IMAP IDLE where the server offers it (woken by
        the server), else only the time (polling). ``stopped`` is asked every second."""
        import time
        end = time.monotonic() + seconds
        try:
            c = self._client()
            if b"IDLE" not in c.capabilities():
                raise _NoIdle
            c.select_folder(self.folder)
            c.idle()
            try:
                while not stopped() and time.monotonic() < end:
                    if c.idle_check(timeout=1):
                        break
            finally:
                c.idle_done()
            return
        except _NoIdle:
            pass
        except Exception as e:  # noqa: BLE001 - a lost connection: polling until the next round reconnects
            self.log(f"IMAP IDLE: {type(e).__name__}: {e}; polling")
            self.close()
        while not stopped() and time.monotonic() < end:
            time.sleep(min(1.0, max(0.0, end - time.monotonic())))


class _NoIdle(Exception):
    pass


# ---------------------------------------------------------------------------------------- SMTP
class SmtpOutbox:
    """Sends the outbox Maildir's new/ through an SMTP server, each message once."""

    def __init__(self, acct: Account, outbox: Path, log: Log, sender: str, timeout: float = 30):
        self.acct = acct
        self.root = make_maildir(outbox)
        self.record = self.root / "sent.jsonl"
        self.log = log
        self.envelope_from = parseaddr(sender)[1]
        self.timeout = timeout

    def _sent(self) -> set[str]:
        try:
            lines = self.record.read_bytes().split(b"\n")
        except OSError:
            return set()
        out = set()
        for line in lines:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                out.add(json.loads(line)["name"])
        return out

    def _mark(self, name: str, **rec: Any) -> None:
        append_line(self.record, json.dumps({"name": name, **rec}, sort_keys=True).encode())

    def _connect(self) -> smtplib.SMTP:
        ctx = ssl.create_default_context()
        s: smtplib.SMTP
        if self.acct.tls == "ssl":
            s = smtplib.SMTP_SSL(self.acct.host, self.acct.port, timeout=self.timeout, context=ctx)
        else:
            s = smtplib.SMTP(self.acct.host, self.acct.port, timeout=self.timeout)
            if self.acct.tls == "starttls":
                s.starttls(context=ctx)
        if self.acct.user:
            s.login(self.acct.user, self.acct.password() or "")
        return s

    def flush(self, now: datetime) -> int:
        """Send what is queued; the number sent. Stops at the first sign the server is away
        (the rest stays queued for the next round)."""
        queued = sorted(p for p in (self.root / "new").iterdir() if not p.name.startswith("."))
        if not queued:
            return 0
        sent = self._sent()
        n = 0
        server: smtplib.SMTP | None = None
        try:
            for p in queued:
                if p.name in sent:      # sent before a kill: only moved now
                    self._move(p, "S")
                    continue
                if server is None:
                    try:
                        server = self._connect()
                    except (OSError, smtplib.SMTPException) as e:
                        self.log(f"SMTP {self.acct.host}:{self.acct.port}: cannot connect ({type(e).__name__}: {e}); "
                                 f"{len(queued) - n} mail(s) stay queued in {self.root}/new")
                        return n
                data, rcpts = _prepare(p.read_bytes(), now)
                if not rcpts:
                    self.log(f"SMTP: {p.name} has no recipient; moved to cur/ flagged F")
                    self._move(p, "F")
                    continue
                try:
                    refused = server.sendmail(self.envelope_from, rcpts, data)
                except smtplib.SMTPRecipientsRefused as e:
                    self._refused(p, e.recipients)
                    continue
                except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as e:
                    if 500 <= e.smtp_code < 600:
                        self._refused(p, {"*": (e.smtp_code, e.smtp_error)})
                        continue
                    self.log(f"SMTP: {p.name}: {e.smtp_code} {e.smtp_error!r}; stays queued")
                    return n
                except (OSError, smtplib.SMTPException) as e:
                    self.log(f"SMTP {self.acct.host}:{self.acct.port}: {type(e).__name__}: {e}; "
                             "the rest stays queued")
                    server = None
                    return n
                self._mark(p.name, to=rcpts, refused=sorted(refused))
                self._move(p, "S")
                n += 1
        finally:
            if server is not None:
                with contextlib.suppress(OSError, smtplib.SMTPException):
                    server.quit()
        return n

    def _refused(self, p: Path, why: dict) -> None:
        self.log(f"SMTP: {p.name} refused by the server ({why}); moved to cur/ flagged F, not sent")
        self._mark(p.name, refused_for_good=True)
        self._move(p, "F")

    def _move(self, p: Path, flag: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.rename(p, self.root / "cur" / f"{p.name}:2,{flag}")


def _prepare(raw: bytes, now: datetime) -> tuple[bytes, list[str]]:
    """The bytes to send -- every line ended by CRLF as SMTP wants it (the outbox's files end
    theirs by LF; a server counts a line up to its CRLF), a ``Date:`` of ``now`` first when the
    message has none, no Bcc header -- and the recipients (To, Cc and Bcc)."""
    import re
    from email import policy
    from email.parser import BytesHeaderParser
    head = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    rcpts = [a for _, a in getaddresses([str(v) for k in ("To", "Cc", "Bcc") for v in head.get_all(k) or []]) if a]
    raw = re.sub(rb"\r?\n", b"\r\n", raw)
    nl = b"\r\n"
    if head.get("Bcc") is not None:
        end = raw.find(nl + nl)
        lines = raw[:end].split(nl)
        keep: list[bytes] = []
        skipping = False
        for line in lines:
            if line[:1] in (b" ", b"\t") and skipping:
                continue
            skipping = line.lower().startswith(b"bcc:")
            if not skipping:
                keep.append(line)
        raw = nl.join(keep) + raw[end:]
    if head.get("Date") is None:
        raw = b"Date: " + format_datetime(now).encode() + nl + raw
    return raw, list(dict.fromkeys(rcpts))
