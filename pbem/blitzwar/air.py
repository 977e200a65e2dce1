"""The air phase (13): air.py's own module. # stub until air merges

Only what the naval phase reads is here: the air units at sea (13.4.4), which air.py records
in the state as ``sea_air.air_at_sea`` ({SEA: {side: units}}).
"""
from __future__ import annotations

from typing import Any


def air_at_sea(ctx: Any, sea: str) -> dict[str, int]:       # stub until air merges
    """Side -> air units establishing sea control at ``sea`` this turn (13.4.4)."""
    return dict(((ctx.state.get("sea_air") or {}).get("air_at_sea") or {}).get(sea) or {})
