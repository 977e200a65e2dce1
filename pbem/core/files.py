"""Safe file access: atomic no-clobber writes, size-limited reads, path containment.

Archived files (states, accepted orders, reports) are never overwritten:
:func:`atomic_write` refuses an existing target unless ``overwrite=True``, and
a reader never sees a half-written file.
"""

from __future__ import annotations

import errno
import itertools
import os
import stat
from pathlib import Path

from pbem.core.errors import ExitCode, Issue, PbemError

__all__ = ["atomic_write", "read_bytes_limited", "ensure_inside"]

_temp_counter = itertools.count()
# errno values meaning "hard links are not supported here".
_NO_LINK_ERRNOS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS,
                   errno.EXDEV, errno.EMLINK}


def _file_error(code: str, message: str, path: Path, hint: str | None = None,
                exit_code: ExitCode | None = None) -> PbemError:
    """A PbemError with one FILE-* issue about ``path``."""
    return PbemError(Issue(code=code, message=message, file=str(path), hint=hint), exit_code)


def _exists_error(path: Path) -> PbemError:
    """FILE-EXISTS error."""
    return _file_error("FILE-EXISTS", f"{path} already exists", path,
                       "pbem never overwrites an archived file", ExitCode.IO)


def _write_temp(directory: Path, name: str, data: bytes) -> Path:
    """Write ``data`` to a new temp file in ``directory``, flushed and fsynced."""
    while True:
        tmp = directory / f".{name}.tmp-{os.getpid()}-{next(_temp_counter)}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)
        except FileExistsError:
            continue  # a stale temp file from an earlier process with our pid
        break
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _unlink_quietly(tmp)
        raise
    return tmp


def _unlink_quietly(path: Path) -> None:
    """Remove ``path`` if it exists, ignoring errors."""
    try:
        os.unlink(path)
    except OSError:
        pass


def fsync_directory(directory: Path) -> None:
    """Persist directory entries (no-op where directories cannot be opened); also the judge's
    Maildirs use it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _publish_no_clobber(tmp: Path, path: Path) -> None:
    """Move ``tmp`` to ``path`` atomically, failing if ``path`` exists."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _exists_error(path) from None
    except (AttributeError, NotImplementedError):
        _replace_exclusive(tmp, path)
        return
    except OSError as exc:
        if exc.errno not in _NO_LINK_ERRNOS:
            raise
        _replace_exclusive(tmp, path)
        return
    os.unlink(tmp)


def _replace_exclusive(tmp: Path, path: Path) -> None:
    """Fallback without hard links: reserve the name exclusively, then replace it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise _exists_error(path) from None
    os.close(fd)
    os.replace(tmp, path)


def atomic_write(path: Path, data: bytes | str, *, overwrite: bool = False) -> None:
    """Write ``data`` (str is encoded as UTF-8) to ``path`` atomically.

    The data goes to ``.<name>.tmp-<pid>-<n>`` in the same directory, is
    fsynced, and is then published: with ``os.replace`` when ``overwrite`` is
    true, otherwise with ``os.link`` so that an existing file is never
    replaced (PbemError FILE-EXISTS).  The directory is fsynced afterwards.
    Other OS errors become PbemError FILE-WRITE (exit code IO).
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not overwrite and os.path.lexists(path):
        raise _exists_error(path)
    directory = path.parent
    tmp: Path | None = None
    try:
        tmp = _write_temp(directory, path.name, bytes(data))
        if overwrite:
            os.replace(tmp, path)
        else:
            _publish_no_clobber(tmp, path)
    except PbemError:
        raise
    except OSError as exc:
        raise _file_error("FILE-WRITE", f"cannot write {path}: {exc.strerror or exc}",
                          path, exit_code=ExitCode.IO) from None
    finally:
        if tmp is not None and os.path.lexists(tmp):
            _unlink_quietly(tmp)
    fsync_directory(directory)


def read_bytes_limited(path: Path, max_bytes: int) -> bytes:
    """Read a regular file of at most ``max_bytes`` bytes.

    Raises PbemError FILE-NOT-FOUND, FILE-TOO-LARGE or FILE-UNREADABLE
    (a directory, a device, no permission, ...).
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise _file_error("FILE-NOT-FOUND", f"{path} does not exist", path,
                          "check the file name") from None
    except OSError as exc:
        raise _file_error("FILE-UNREADABLE", f"cannot read {path}: {exc.strerror or exc}",
                          path) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise _file_error("FILE-UNREADABLE", f"{path} is {kind}", path)
    if info.st_size > max_bytes:
        raise _too_large(path, max_bytes)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise _file_error("FILE-UNREADABLE", f"cannot read {path}: {exc.strerror or exc}",
                          path) from None
    if len(data) > max_bytes:
        raise _too_large(path, max_bytes)
    return data


def _too_large(path: Path, max_bytes: int) -> PbemError:
    """FILE-TOO-LARGE error."""
    return _file_error("FILE-TOO-LARGE", f"{path} is larger than {max_bytes} bytes", path,
                       "is this the right file?")


def ensure_inside(base: Path, path: Path) -> Path:
    """Resolve ``path`` (relative paths are taken from ``base``) and check it is inside ``base``.

    Symlinks and ``..`` are resolved first; a path that ends up outside the
    resolved ``base`` raises PbemError FILE-OUTSIDE.  Returns the resolved path.
    """
    root = Path(base).resolve()
    resolved = (root / Path(path)).resolve()
    if resolved != root and root not in resolved.parents:
        raise _file_error("FILE-OUTSIDE", f"{path} is outside {root}", Path(path),
                          "use a path inside the game directory")
    return resolved


def step_folders(root: Path) -> list[Path]:
    """The step folders ``steps/NNN`` of a campaign's archive, in order: read by ``os.scandir``,
    whose entries say whether they are folders without a ``stat`` of each (a command lists them
    several times: 120 steps, some 700 calls of ``stat`` a mail; issue 35)."""
    try:
        with os.scandir(Path(root) / "steps") as it:
            return sorted(Path(e.path) for e in it if e.name.isdigit() and e.is_dir())
    except (FileNotFoundError, NotADirectoryError):
        return []
