"""What the judge did, kept with the campaign (``CAMPAIGN/judge/journal.jsonl``), or for the
mails that belong to no campaign in the judge's own folder.

One JSON object per line, appended and fsynced before the judge goes on: a message's key (the
sha256 of its bytes) with how far its handling went (``intent`` to adjudicate it as step N,
``archived`` step N, ``done``), when each step was first seen (the deadline clock starts
there), the reminders and missing-orders defaults given. A restart reads it and goes on from
where the last run stopped: a message ``done`` is not acted on again, one with an ``intent``
whose step is in the archive is not adjudicated again. A line cut short by a kill is ignored.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any


def append_line(path: Path, line: bytes) -> None:
    """Append ``line`` and a newline to the file ``path`` (made if missing) and fsync it: the
    one way the judge's JSON-lines records (this journal, the outbox's sent record) are written.
    A torn line left by a kill is not glued to: the new line starts on a fresh line (the torn one
    is then ignored by the readers)."""
    line += b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        if os.fstat(fd).st_size:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    line = b"\n" + line
        os.write(fd, line)
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.records: list[dict[str, Any]] = []
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as f:
            data = f.read()
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue        # the last line of a judge killed while writing it
            if isinstance(rec, dict):
                self.records.append(rec)

    def add(self, **rec: Any) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_line(self.path, json.dumps(rec, sort_keys=True, ensure_ascii=False).encode("utf-8"))
        self.records.append(rec)

    def of_message(self, key: str) -> dict[str, dict]:
        """The records of one message, by their ``state`` (the last of each kind)."""
        return {r["state"]: r for r in self.records if r.get("msg") == key and "state" in r}

    def of_step(self, step: int) -> dict[str, dict]:
        """The deadline records of one step, by their ``event`` (the last of each kind)."""
        return {r["event"]: r for r in self.records if r.get("step") == step and "event" in r and "msg" not in r}
