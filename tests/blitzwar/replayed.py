"""What the BlitzWAR equivalence tests share (issue 35's memos held to the plain reading over
whole replays): the example, the extra campaign folders an environment variable names, and a
replay of a copy. Not a test module: imported by them (pytest puts this folder on the path)."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.core.replay import replay_campaign

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"


#: the campaign folders (``:``-separated) every equivalence test replays besides the example
#: (the benchmark's whole campaigns, say): one variable for them all
KEPT_FOLDERS = "PBEM_KEPT_FOLDERS"


def folders() -> list[Path]:
    """The example, then the campaign folders :data:`KEPT_FOLDERS` names."""
    return [EXAMPLE, *(Path(p) for p in os.environ.get(KEPT_FOLDERS, "").split(":") if p)]


def replay_checking(folder: Path, tmp_path: Path, monkeypatch: Any, modules: list[Any], name: str,
                    check: Callable[..., None]) -> int:
    """Replay a copy of ``folder`` with the function ``name`` of ``modules`` (the first defines
    it, the others imported it) checked at every call: ``check(what it gave, *its arguments)``;
    how many calls there were."""
    real = getattr(modules[0], name)
    calls = [0]

    def checked(*args: Any) -> Any:
        got = real(*args)
        check(got, *args)
        calls[0] += 1
        return got

    for m in modules:
        monkeypatch.setattr(m, name, checked)
    replay_copy(folder, tmp_path)
    return calls[0]


def replay_copy(folder: Path, tmp_path: Path) -> None:
    """Replay a copy of ``folder`` (a replay may write a campaign's files; the original stays)."""
    copy = tmp_path / "camp"
    shutil.copytree(folder, copy)
    replay_campaign(copy)
