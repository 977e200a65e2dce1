"""Mailboxes on disk (Maildir, no server needed): the judge's inbox, the outbox it writes the
mails to send into, and the folder where mails it cannot handle are put aside.

Claiming a message, exactly once, even with two judges at once or one killed at any point:

- a message in ``new/`` is opened and locked (``flock``, exclusive, not waiting) BEFORE it is
  renamed to ``cur/NAME:2,`` (no flag: claimed, not handled yet). The lock is on the file
  itself, so it follows the rename, and the kernel drops it when the process dies;
- a judge that cannot lock a message leaves it (another judge holds it); one that locks it but
  cannot rename it (it was renamed meanwhile) leaves it too;
- a message in ``cur/`` without the S flag whose lock can be taken was claimed by a judge that
  died: it is claimed again (:meth:`Maildir.orphans`), and the campaign's own record of what was
  done with it (:mod:`pbem.judge.journal`) says where to go on;
- a handled message gets the S (seen) flag: ``cur/NAME:2,S``; one put aside is moved into the
  aside Maildir (never deleted).

Writing a message (:class:`MaildirOutbox`) is idempotent: the name is given by the caller
(derived from what the message answers), the bytes go to ``tmp/`` and are linked into
``new/``, never over an existing file: a message written again after a restart is not sent
twice.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..core.files import fsync_directory

MAX_MESSAGE_BYTES = 25_000_000


def make_maildir(root: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (Path(root) / sub).mkdir(parents=True, exist_ok=True)
    return Path(root)


def _base(name: str) -> str:
    """A Maildir file name without its info part (``:2,FLAGS``)."""
    return name.split(":", 1)[0]


def _flags(name: str) -> str:
    return name.split(":2,", 1)[1] if ":2," in name else ""


@dataclass
class Claimed:
    """A message this judge holds (locked) until :meth:`Maildir.done` or :meth:`Maildir.put_aside`."""
    name: str           # the base name (unique in the Maildir)
    path: Path          # where it is now (cur/NAME:2,)
    fd: int             # the open, locked file
    raw: bytes | None   # its bytes (None: too big or unreadable)
    why: str = ""       # why it could not be read

    def release(self) -> None:
        """Close the file (its lock goes with it); once."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1


def _lock(path: Path) -> int | None:
    """An open descriptor of ``path`` holding an exclusive lock, or None (locked by another
    process, or gone)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _read(fd: int) -> tuple[bytes | None, str]:
    try:
        size = os.fstat(fd).st_size
        if size > MAX_MESSAGE_BYTES:
            return None, f"the message is too big ({size} bytes; at most {MAX_MESSAGE_BYTES})"
        chunks: list[bytes] = []
        at = 0
        while True:
            b = os.pread(fd, 1 << 20, at)
            if not b:
                break
            chunks.append(b)
            at += len(b)
        return b"".join(chunks), ""
    except OSError as e:
        return None, f"the message cannot be read ({e.strerror or e})"


class Maildir:
    """The judge's inbox."""

    def __init__(self, root: Path):
        self.root = make_maildir(root)

    def waiting(self) -> list[str]:
        """The names in new/, oldest first (by delivery time, then name)."""
        out = []
        for p in (self.root / "new").iterdir():
            if p.name.startswith("."):
                continue
            with contextlib.suppress(OSError):
                out.append((p.stat().st_mtime, p.name))
        return [n for _, n in sorted(out)]

    def claim(self, name: str) -> Claimed | None:
        """Lock ``new/NAME`` and move it to ``cur/NAME:2,``; None when another judge has it."""
        src = self.root / "new" / name
        fd = _lock(src)
        if fd is None:
            return None
        dst = self.root / "cur" / f"{_base(name)}:2,"
        try:
            os.rename(src, dst)
        except OSError:
            os.close(fd)      # renamed meanwhile by a judge that has finished with it
            return None
        raw, why = _read(fd)
        return Claimed(_base(name), dst, fd, raw, why)

    def orphans(self) -> Iterator[Claimed]:
        """Messages claimed by a judge that died before handling them (cur/ without the S
        flag, lock free): claimed again, one by one."""
        for p in sorted((self.root / "cur").iterdir()):
            if p.name.startswith(".") or "S" in _flags(p.name) or "T" in _flags(p.name):
                continue
            fd = _lock(p)
            if fd is None:
                continue
            if not p.exists():    # handled and renamed meanwhile
                os.close(fd)
                continue
            raw, why = _read(fd)
            yield Claimed(_base(p.name), p, fd, raw, why)

    def done(self, c: Claimed) -> None:
        """The message is handled: cur/NAME:2,S."""
        dst = self.root / "cur" / f"{c.name}:2,S"
        os.rename(c.path, dst)
        c.path = dst
        c.release()

    def put_aside(self, c: Claimed, aside: Path) -> Path:
        """Move the message into the aside Maildir (cur/, flagged seen): kept, out of the way."""
        dst = make_maildir(aside) / "cur" / f"{c.name}:2,S"
        try:
            os.rename(c.path, dst)
        except OSError as e:
            if e.errno != errno.EXDEV:
                raise
            # another file system: a copy (complete, fsynced, under tmp/ first), then the original goes
            tmp = Path(aside) / "tmp" / c.name
            shutil.copyfile(c.path, tmp)
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.rename(tmp, dst)
            os.unlink(c.path)
        c.path = dst
        c.release()
        return dst


class Sender(Protocol):
    """Where the judge's mails go. ``send`` must be idempotent for one ``name``: the judge
    may give the same message again after a restart, and it must go out once."""

    def send(self, name: str, data: bytes) -> bool:
        """Queue or send ``data``; False when a message of that name went already."""


class MaildirOutbox:
    """A :class:`Sender` that writes every message into a Maildir's new/ (a mail transport,
    or the game master, sends them): ``NAME.eml``, never replaced."""

    def __init__(self, root: Path):
        self.root = make_maildir(root)

    def path(self, name: str) -> Path:
        return self.root / "new" / f"{name}.eml"

    def send(self, name: str, data: bytes) -> bool:
        dst = self.path(name)
        if dst.exists() or any((self.root / "cur").glob(f"{glob.escape(name)}.eml:2,*")):
            return False        # written before (and, in cur/, sent by a transport that moved it there)
        return link_new(self.root, dst.name, data)


def link_new(root: Path, name: str, data: bytes) -> bool:
    """Deliver ``data`` into the Maildir ``root`` as ``new/NAME``, the Maildir way: written and
    fsynced under ``tmp/``, then linked (never over an existing file: False then). The outbox's
    messages and those the IMAP side copies in arrive alike."""
    dst = root / "new" / name
    tmp = root / "tmp" / f"{name}.{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.link(tmp, dst)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_directory(dst.parent)
    return True


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` (made if missing), waited for: one judge at a
    time works on a campaign."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
