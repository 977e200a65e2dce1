"""What the example-making scripts (tools/make_*_example.py) share: comparing the campaign they
built in a temporary folder with examples/NAME (``--check``), or putting it in its place."""
from __future__ import annotations

import shutil
from pathlib import Path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (relative name -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def check_or_write(dest: Path, built: Path, *, check: bool) -> int:
    """``--check``: 0 if ``dest`` holds exactly what was built, else 1 (nothing written);
    otherwise ``built`` replaces ``dest``. Says which."""
    if check:
        same = dest.exists() and tree(dest) == tree(built)
        print(f"{dest}: {'identical' if same else 'DIFFERS (or is missing)'}")
        return 0 if same else 1
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(built, dest)
    print(f"wrote {dest}")
    return 0
