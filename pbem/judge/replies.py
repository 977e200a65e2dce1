"""The mails the judge writes itself: answers (a receipt, every problem, the status) and the
deadline mails (a reminder, a notice). Deterministic bytes: the Message-ID comes from what
the mail answers, there is no Date (the transport adds it when sending), and every one is
marked ``Auto-Submitted`` (RFC 3834) so that no robot answers it, and the judge answers no
robot."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..core.errors import Issue

WRITTEN_BY = "Written by the pbem judge; answer to this address. A mail with the subject `status` gets what is awaited, from whom, by when."


@dataclass
class Incoming:
    """What the judge reads of an arriving message's headers."""
    key: str                    # sha256 of its bytes
    message_id: str | None
    sender: tuple[str, str] | None   # (display text, lowercased address), None: no single From
    reply_to: str | None        # where an answer goes (Reply-To, else From)
    subject: str
    automatic: bool             # an auto-reply, a bounce, a list: never answered
    file_sha: str | None = None  # the sha256 of the file it carries, once taken out


def read_headers(raw: bytes) -> Incoming | None:
    """The headers of ``raw``, None when it is no readable e-mail at all."""
    from email import policy
    from email.parser import BytesParser
    key = hashlib.sha256(raw).hexdigest()
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        keys = {k.lower() for k in msg}
        if not keys & {"from", "subject", "message-id", "to"}:
            return None
        sender = None
        h = msg["From"]
        addrs = list(getattr(h, "addresses", ()) or ())
        if len(addrs) == 1 and "@" in (addrs[0].addr_spec or ""):
            sender = (str(h).strip(), addrs[0].addr_spec.lower())
        reply_to = None
        rt = msg["Reply-To"]
        rts = list(getattr(rt, "addresses", ()) or ()) if rt is not None else []
        if len(rts) == 1 and "@" in (rts[0].addr_spec or ""):
            reply_to = str(rt).strip()
        elif sender:
            reply_to = sender[0]
        auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
        prec = str(msg.get("Precedence", "")).strip().lower()
        automatic = (auto not in ("", "no") or prec in ("bulk", "junk", "list") or "list-id" in keys
                     or (sender is not None and sender[1].split("@")[0] in ("mailer-daemon", "postmaster")))
        mid = str(msg["Message-ID"]).strip() if msg["Message-ID"] else None
        return Incoming(key, mid, sender, reply_to, str(msg.get("Subject", "") or "").strip(), automatic)
    except Exception:  # noqa: BLE001 - the email package raises many kinds of errors on damaged input
        return None


def subject_words(subject: str) -> list[str]:
    """The subject's words without the ``Re:``/``Fwd:`` marks."""
    words = subject.split()
    while words and words[0].lower().rstrip(":") in ("re", "aw", "fwd", "fw", "sv", "wg"):
        words = words[1:]
    return words


def compose(*, sender: str, to: str, subject: str, body: list[str], seed: str, kind: str,
            answers: Incoming | None = None, campaign: str | None = None, footer: str = WRITTEN_BY) -> bytes:
    """One mail of the judge, as bytes."""
    from email import policy
    from email.message import EmailMessage
    msg = EmailMessage(policy=policy.default)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    h = hashlib.sha256(f"{seed}\0{kind}".encode()).hexdigest()[:32]
    msg["Message-ID"] = f"<pbem-judge.{h}.{kind}@pbem.localhost>"
    if answers is not None and answers.message_id:
        msg["In-Reply-To"] = answers.message_id
        msg["References"] = answers.message_id
    msg["Auto-Submitted"] = "auto-replied" if answers is not None else "auto-generated"
    if campaign:
        msg["X-Pbem-Campaign"] = campaign
    msg.set_content("\n".join(body + ["", "-- ", footer]) + "\n", cte="quoted-printable")
    return msg.as_bytes(policy=policy.default)


def re_subject(inc: Incoming | None, fallback: str) -> str:
    s = inc.subject if inc is not None and inc.subject else fallback
    return s if s.lower().startswith("re:") else f"Re: {s}"


def issue_lines(issues: list[Issue]) -> list[str]:
    out: list[str] = []
    for i in issues:
        out += i.format().splitlines()
    return out
