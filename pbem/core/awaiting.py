"""Who a state waits for (the kernel's ``awaited``, ``awaited_players``): its own light module,
so that a command that only looks at a state (`pbem show`, `orders template`) does not load
the kernel (issue 35); :mod:`pbem.core.kernel` exports both as before."""
from __future__ import annotations

from typing import Any


def awaited(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Who the state waits for, as a list of ``{player, for}``. One awaited player is written
    ``awaiting: {player, for}``; several, as a list (the format of the first version stays
    valid)."""
    aw = state.get("awaiting")
    if not aw:
        return []
    return [aw] if isinstance(aw, dict) else list(aw)


def awaited_players(state: dict[str, Any], kind: str | None = None) -> list[str]:
    return [a["player"] for a in awaited(state) if kind is None or a["for"] == kind]
