"""The report's event descriptions (issue 10, clean rooms): one renderer per event type, in a
table, and every event the engine can emit has its own (none falls back to the field list;
the kernel's own events are described by pbem.core.report)."""
from __future__ import annotations

import re
from pathlib import Path

from pbem.bfg.describe import RENDERERS, describe

PBEM = Path(__file__).resolve().parents[2] / "pbem"


def emitted_types() -> set[str]:
    found = set()
    for p in (PBEM / "bfg").glob("*.py"):
        text = p.read_text("utf-8")
        found |= set(re.findall(r'emit\(\s*"([a-z-]+)"', text))
        found |= set(re.findall(r'"type":\s*"([a-z-]+)"', text))
    return found


def test_every_emitted_event_type_has_a_renderer() -> None:
    types = emitted_types()
    assert len(types) > 30, types  # the scan still finds the engine's events
    assert types <= set(RENDERERS), sorted(types - set(RENDERERS))


def test_unknown_event_type_lists_its_fields() -> None:
    assert describe(None, {"type": "zzz", "turn": 1, "phase": "x", "a": 1, "b": "c"}) == ["zzz: a=1, b=c"]
