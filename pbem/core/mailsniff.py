"""Whether a file is an e-mail, told from its name and first bytes (issue 35: what `pbem
validate` and `adjudicate` ask of every file they are given, without the e-mail machinery of
:mod:`pbem.core.mail`, which is imported only when a file is one)."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from .files import read_bytes_limited

__all__ = ["MAIL_SUFFIXES", "MAX_MAIL_BYTES", "SNIFF_BYTES", "is_mail", "read_mail", "any_mail"]

MAX_MAIL_BYTES = 25_000_000
SNIFF_BYTES = 8192
MAIL_SUFFIXES = (".eml", ".mbox")
_HEADERS = ("From", "To", "Cc", "Subject", "Date", "Message-ID", "Message-Id", "MIME-Version",
            "Mime-Version", "Received", "Return-Path", "Delivered-To", "Content-Type", "Reply-To",
            "X-Mailer", "User-Agent")
_FIELD = re.compile(rb"^([!-9;-~]+):")


def is_mail(path: Path | str, raw: bytes) -> bool:
    """True for an e-mail: a ``.eml``/``.mbox`` file name, or content that starts with an mbox
    ``From `` line or with RFC 5322 header fields (among them one a mail always has, such as
    From, Subject or Message-ID). ``raw`` may be only the first few kilobytes. An order file
    is never taken for a mail: its top-level keys are no mail headers."""
    if Path(path).suffix.lower() in MAIL_SUFFIXES:
        return True
    if raw.startswith(b"From "):
        return True
    known = False
    for line in raw.splitlines()[:200]:
        if not line.strip():
            break                                   # end of the header block
        if line[:1] in (b" ", b"\t"):
            continue                                # a folded header line
        m = _FIELD.match(line)
        if not m:
            return False
        known = known or m.group(1).decode("ascii") in _HEADERS
    return known


def read_mail(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is an e-mail (:func:`is_mail`), else None without reading
    more than its first bytes. Anything but a regular file of at most MAX_MAIL_BYTES is left to
    the order file loader (which refuses it with its FILE-* code), except a ``.eml``/``.mbox``
    name, read here with the same checks."""
    p = Path(path)
    if p.suffix.lower() in MAIL_SUFFIXES:
        return read_bytes_limited(p, MAX_MAIL_BYTES)
    try:
        info = os.stat(p)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MAIL_BYTES:
        return None
    try:
        with open(p, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return None
    if not is_mail(p, head):
        return None
    return read_bytes_limited(p, MAX_MAIL_BYTES)


def any_mail(paths: list[object]) -> bool:
    """Whether :func:`read_mail` would take one of ``paths`` for an e-mail (or one is already
    a (name, bytes) pair): the files a command is given are expanded only then."""
    return any(not isinstance(p, (str, Path)) or Path(p).suffix.lower() in MAIL_SUFFIXES or _sniffed(Path(p))
               for p in paths)


def _sniffed(p: Path) -> bool:
    try:
        info = os.stat(p)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MAIL_BYTES:
            return False
        with open(p, "rb") as f:
            return is_mail(p, f.read(SNIFF_BYTES))
    except OSError:
        return False
