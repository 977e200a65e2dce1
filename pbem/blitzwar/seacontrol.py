"""Sea control (12.3) and the straits (12.1). # stub until naval merges

Only the two functions the sea transport phase reads (pbem/blitzwar/transport.py), with the
signatures agreed for issue 20; naval's seacontrol.py replaces this file."""
from __future__ import annotations

from .context import Ctx, zone_control


def sea_control(ctx: Ctx, sea: str) -> str | None:  # stub until naval merges
    """The side controlling ``sea`` (12.3): ``sea_air.sea_control``, else the older
    ``sea_control`` key of the state; None when no side does."""
    sa = (ctx.state.get("sea_air") or {}).get("sea_control") or {}
    return sa.get(sea) or (ctx.state.get("sea_control") or {}).get(sea)


def strait_open(ctx: Ctx, side: str, strait: str) -> bool:  # stub until naval merges
    """12.1: a strait is open to a side that controls its city (Gibraltar, Istanbul, Copenhagen)."""
    city = ctx.rs.straits[strait].city
    return city in ctx.rs.zones and zone_control(ctx.rs, ctx.state, city) == side
