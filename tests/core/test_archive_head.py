"""The archive head's step digest (pbem.core.archive, read with os.read a MiB at a time: the mail's
head hashes the whole archive) is its definition: the SHA-256 of the canonical JSON of the sorted
[file name, SHA-256 of its bytes] pairs of the folder's files, dot files aside."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pbem.core.archive import step_digest
from pbem.core.canon import canonical_json

ROOT = Path(__file__).resolve().parents[2]


def straightforward(d: Path) -> str:
    pairs = sorted([p.name, hashlib.sha256(p.read_bytes()).hexdigest()] for p in d.iterdir()
                   if p.is_file() and not p.name.startswith("."))
    return hashlib.sha256(canonical_json(pairs)).hexdigest()


def test_step_digest_as_defined(tmp_path):
    for d in sorted((ROOT / "examples" / "blitzwar-1939" / "steps").iterdir())[::30]:
        assert step_digest(d) == straightforward(d)
    (tmp_path / "big.bin").write_bytes(os.urandom((1 << 20) * 2 + 7))     # read in three pieces
    (tmp_path / "empty.yaml").write_bytes(b"")
    (tmp_path / ".hidden").write_bytes(b"not hashed")
    (tmp_path / "sub").mkdir()
    assert step_digest(tmp_path) == straightforward(tmp_path)
