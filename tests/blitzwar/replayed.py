"""What the BlitzWAR equivalence tests share (issue 35's memos held to the plain reading over
whole replays): the example, the extra campaign folders an environment variable names, and a
replay of a copy. Not a test module: imported by them (pytest puts this folder on the path)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from pbem.core.replay import replay_campaign

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blitzwar-1939"


#: the campaign folders (``:``-separated) every equivalence test replays besides the example
#: (the benchmark's whole campaigns, say): one variable for them all
KEPT_FOLDERS = "PBEM_KEPT_FOLDERS"


def folders() -> list[Path]:
    """The example, then the campaign folders :data:`KEPT_FOLDERS` names."""
    return [EXAMPLE, *(Path(p) for p in os.environ.get(KEPT_FOLDERS, "").split(":") if p)]


def replay_copy(folder: Path, tmp_path: Path) -> None:
    """Replay a copy of ``folder`` (a replay may write a campaign's files; the original stays)."""
    copy = tmp_path / "camp"
    shutil.copytree(folder, copy)
    replay_campaign(copy)
