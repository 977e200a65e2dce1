"""The bytes of a step's message written without the ``email`` package, for the plain case
(issue 35: importing ``email.policy`` and building an ``EmailMessage`` took some 30 ms of a
mail step, more than a fifth of what ``--mail`` adds to an adjudication).

The same bytes as ``EmailMessage.as_bytes(policy=email.policy.default)`` of the message
:func:`pbem.core.mail.compose` builds (tests/core/test_mailwrite.py holds the two together):
only for what is provably written alike -- addresses of plain words and dot-atoms, header
values of printable ASCII, a subject of words apart by single spaces, attachment names of
letters, digits, dots, dashes and underscores, no Date header, every attachment non-empty.
Anything else (:func:`message_bytes` returns None) goes through the ``email`` package, as
before: encoded words, quoting, RFC 2231 names and the folding of long addresses are its own.
"""
from __future__ import annotations

import binascii
import hashlib
import re
from collections.abc import Sequence
from typing import Any

MAXLEN = 78     # policy.default's max_line_length
_WORDS = re.compile(r"[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*\Z")    # a display name needing no quotes
_ADDR_SPEC = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\Z")
_ADDRESS = re.compile(r"(?:([A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*) <([^<>\s]+)>|([^<>\s]+))\Z")
_FILE = re.compile(r"[A-Za-z0-9._-]+\Z")
_TOKEN = re.compile(r"[a-z0-9.+-]+\Z")
_MSG_ID = re.compile(r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>\Z")   # (a dot-atom's)
_PRINTABLE = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*\Z")   # printable ASCII words, single spaces


def plain_address(name: str, addr: str) -> str | None:
    """``Name <addr>`` (``addr`` alone without a name) as the ``email`` package writes the
    address, when it writes it so unchanged (a name of plain words, a dot-atom address with a
    domain); None for any other, which that package checks and writes."""
    if not _ADDR_SPEC.match(addr):
        return None
    if not name:
        return addr
    return f"{name} <{addr}>" if _WORDS.match(name) else None


def plain_sender(value: str) -> str | None:
    """``value`` (a From: ``addr`` or ``Name <addr>``) when it is such a plain address, else None."""
    m = _ADDRESS.match(value)
    if not m:
        return None
    return plain_address(m.group(1) or "", m.group(2) or m.group(3))


def _plain_text(value: str) -> bool:
    """Printable ASCII words apart by single spaces, without "=?" (encoded words, the package's own)."""
    return bool(_PRINTABLE.match(value)) and "=?" not in value


def _line(name: str, value: str) -> str | None:
    """A header written on one line, as the ``email`` package writes a short one; None when
    it would not fit (that package folds it) or is no plain text (:func:`_plain_text`)."""
    line = f"{name}: {value}"
    return line + "\n" if len(line) <= MAXLEN and _plain_text(value) else None


def fold_unstructured(name: str, value: str) -> str | None:
    """An unstructured header (a Subject) folded as policy.default folds one of printable ASCII
    words apart by single spaces: on the name's line if it fits, else alone on the next line if
    it fits there, else words added to a line while it stays within 78 characters, the next
    line starting with the space before the word that did not fit. None for any other value
    (a long word, runs of spaces, "=?": encoded words, the package's own)."""
    if not _plain_text(value):
        return None
    words = value.split(" ")
    if any(len(w) > 60 for w in words):
        return None
    if len(name) + 2 + len(value) <= MAXLEN:
        return f"{name}: {value}\n"
    if len(value) + 1 <= MAXLEN:    # the whole value fits on a line of its own: the next one
        return f"{name}:\n {value}\n"
    lines = [name + ":"]
    for w in words:
        if len(lines[-1]) + 1 <= MAXLEN:
            lines[-1] += " "
            if len(lines[-1]) + len(w) <= MAXLEN:
                lines[-1] += w
            else:       # the space goes with the word to the next line
                lines[-1] = lines[-1][:-1]
                lines.append(" " + w)
        else:
            lines.append(" " + w)
    return "\n".join(lines) + "\n"


def base64_body(data: bytes) -> str:
    """``data`` in base64 as the content manager writes an attachment: 57 bytes a line."""
    return "".join([binascii.b2a_base64(data[i:i + 57]).decode("ascii") for i in range(0, len(data), 57)])


def text_body(text: str) -> tuple[str, bytes]:
    """A body text in quoted-printable as ``set_content(text, cte="quoted-printable")`` writes
    it (its lines joined by LF, 78 characters a line), and the bytes it decodes to."""
    from email import quoprimime  # (the module alone: no policy, no headers)
    body = b"\n".join(text.encode("utf-8").splitlines()) + b"\n"
    qp = quoprimime.body_encode(body.decode("latin-1"), MAXLEN)
    return qp, binascii.a2b_qp(qp.encode("ascii"))


def boundary(seed: str, content: str, k: int = 0) -> str:
    """The ``k``-th multipart boundary of a message: a hash of its seed and of ``content``, the
    SHA-256 (hex) of its parts' payloads (a boundary must not occur in the content: a hash of
    it does not). The one formula: :func:`message_bytes` and pbem.core.mail._fix_boundaries."""
    return "=_pbem_" + hashlib.sha256(f"{seed}\0{content}\0{k}".encode()).hexdigest()[:40]


def message_bytes(headers: Sequence[tuple[str, str]], subject: str, body: tuple[str, bytes],
                  attachments: Sequence[tuple[Any, str]], seed: str) -> bytes | None:
    """The message's bytes, or None when they are not the plain case. ``headers``: (name,
    value) before and after the Subject (None for the Subject's place), the addresses already
    plain; ``body``: :func:`text_body`'s; ``attachments``: (the Attachment, its
    :func:`base64_body`); ``seed``: the boundary's (pbem.core.mail._fix_boundaries)."""
    head = []
    for name, value in headers:
        h = fold_unstructured(name, subject) if name == "Subject" else _line(name, value)
        if h is None or (name == "Message-ID" and not _MSG_ID.match(value)):
            return None
        head.append(h)
    parts = []
    content = hashlib.sha256(body[1])
    for a, b64 in attachments:
        if not a.data or not _FILE.match(a.filename) or not _TOKEN.match(a.maintype) or not _TOKEN.match(a.subtype):
            return None
        line = _line("Content-Disposition", f'attachment; filename="{a.filename}"')
        if line is None:    # too long: the parameter on a line of its own (RFC 2231 sections: the package's)
            if len(a.filename) + 13 > MAXLEN:
                return None
            line = f'Content-Disposition: attachment;\n filename="{a.filename}"\n'
        parts.append(f"Content-Type: {a.maintype}/{a.subtype}\nContent-Transfer-Encoding: base64\n{line}"
                     f"MIME-Version: 1.0\n\n{b64}")
        content.update(a.data)
    if not parts:
        return None
    mark = boundary(seed, content.hexdigest())
    text = ("".join(head) + f'MIME-Version: 1.0\nContent-Type: multipart/mixed;\n boundary="{mark}"\n\n'
            + f"--{mark}\n" + 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + body[0] + "".join(f"\n--{mark}\n{p}" for p in parts) + f"\n--{mark}--\n")
    return text.encode("ascii")
