"""BlitzWAR (Víctor Catalá; Ludic 2006; Command Magazine Japan Vol. 80 as 『ヒトラー電撃戦』).

So far only the game's data side (issue 11, "the world on the board"): ``world`` loads the zone
map, the counter mix, the 1939 set-up, the calendar, the cards and the tables into typed objects,
``checks`` holds the consistency checks of ``pbem data check`` and ``game`` is the plug-in the
core finds (``GAME``). The sequence of play, the land, sea and air war and the campaign come in
later issues; until then a BlitzWAR campaign cannot be started (GAME-NOT-PLAYABLE)."""
from __future__ import annotations

from .game import BlitzWar

GAME = BlitzWar()
GAME_ID = GAME.id
TITLE = GAME.title


def __getattr__(name: str):
    # Scenario id -> {file, title, line, players}: discovered from scenarios/blitzwar/.
    if name == "SCENARIOS":
        return GAME.scenarios()
    raise AttributeError(name)
