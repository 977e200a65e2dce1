"""Sea control (12.3). # stub until naval merges: naval owns this module; only the agreed
signature is here, reading the state's ``sea_air.sea_control`` (or the older top-level
``sea_control``)."""
from __future__ import annotations

from typing import Any


def sea_control(ctx: Any, sea: str) -> str | None:
    """The side controlling ``sea`` (12.3), or None."""
    sa = ctx.state.get("sea_air") or {}
    return (sa.get("sea_control") or ctx.state.get("sea_control") or {}).get(sea)
