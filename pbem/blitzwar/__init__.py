"""BlitzWAR (Víctor Catalá; Ludic 2006; Command Magazine Japan Vol. 80 as 『ヒトラー電撃戦』).

So far only the game's data side (issue 11, "the world on the board"): ``world`` loads the zone
map, the counter mix, the 1939 set-up, the calendar, the cards and the tables into typed objects,
and ``checks`` holds the consistency checks of ``pbem data check``. The sequence of play, the
land, sea and air war and the campaign come in later issues; until then a BlitzWAR campaign
cannot be started (``PLAYABLE`` is False)."""
from __future__ import annotations

from typing import Any

from ..core.errors import Issue

GAME_ID = "blitzwar"
TITLE = "BlitzWAR"
PLAYABLE = False

SCENARIOS = {
    "blitzwar-1939": {"file": "scenarios/blitzwar/setup-1939.yaml"},
}

DATA_FILES = {
    "map": ("scenarios/blitzwar/map.yaml", "blitzwar-map"),
    "counters": ("rules/blitzwar/counters.yaml", "blitzwar-counters"),
    "calendar": ("rules/blitzwar/calendar.yaml", "blitzwar-calendar"),
    "cards": ("rules/blitzwar/cards.yaml", "blitzwar-cards"),
    "tables": ("rules/blitzwar/tables.yaml", "blitzwar-tables"),
}
SCENARIO_SCHEMA = "blitzwar-setup"


def build(docs: dict[str, Any], digest: str):
    from .world import World
    return World(docs, digest)


def consistency(rs) -> list[Issue]:
    """Checks ``pbem data check`` runs on top of the schemas (see ``checks``)."""
    from .checks import consistency as _c
    return _c(rs)
