"""The air phase (13): only what the sea transport phase reads. # stub until air merges

The signatures agreed for issue 20 (``air.beachheads(ctx)``, ``air.britain_landing_allowed(ctx)``);
air's air.py replaces this file."""
from __future__ import annotations

from .context import Ctx


def beachheads(ctx: Ctx) -> dict[str, dict]:  # stub until air merges
    """13.4.5: land zone -> ``{side, sea, n}``: the beachheads set up in this turn's air phase
    (``n``: the air units used as beachheads there), from ``sea_air.beachheads``."""
    return dict((ctx.state.get("sea_air") or {}).get("beachheads") or {})


def britain_landing_allowed(ctx: Ctx) -> bool:  # stub until air merges
    """13.4.3: a landing in Britain needs the Battle of Britain won (no Allied air unit left with
    London in range): ``sea_air.britain_landing``, the turn it was won, is this turn."""
    return (ctx.state.get("sea_air") or {}).get("britain_landing") == ctx.turn
