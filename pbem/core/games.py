"""The games pbem adjudicates, by id. Each game is a package under ``pbem/`` exposing:
GAME_ID, TITLE, SCENARIOS, DATA_FILES, SCENARIO_SCHEMA, build(), consistency(), new_state(),
validate(), adjudicate(), order_template(), describe_event(), summary(). Imported lazily. A game
whose play is not built yet (BlitzWAR) sets PLAYABLE = False and has only the data side."""
from __future__ import annotations

import importlib
from types import ModuleType

GAMES = {"bfg": "pbem.bfg", "blitzwar": "pbem.blitzwar"}

# Scenario ids -> (game id, one-line description). Kept here so `pbem new --help` does not
# import the games.
SCENARIO_LINES = {
    "bfg-historical": ("bfg", "Battle for Germany, Historical scenario (DG2 12.0): players soviet, western; turns 1-10; drawn unless Berlin falls"),
    "bfg-expanded": ("bfg", "Battle for Germany, Expanded Historical (DG2 13.0): players soviet, western; turns 1-16; after Berlin falls the Soviets and Western Allies are enemies; option ss_to_western (13.2)"),
    "bfg-collapse": ("bfg", "Battle for Germany, Collapse in the East (DG2 14.0): players soviet, western (the East Germans); east of the boundary only, turns 1-6, occupied cities score"),
    "bfg-redstar": ("bfg", "Battle for Germany, Red Star/White Star (DG2 15.0): players soviet, western; no Germans, turns 11-16, pre-game die"),
    "bfg-three-player": ("bfg", "Battle for Germany, three players (DG2 16.0): players soviet, german, western; turns 1-10, Germans win if nobody holds Berlin"),
    "bfg-four-player": ("bfg", "Battle for Germany, four players (DG2 17.0): players soviet, east-german, west-german, western; turns 1-10, Berlin by turn 10"),
    "blitzwar-1939": ("blitzwar", "BlitzWAR (Catala; Ludic 2006), the war in Europe from late summer 1939: sides axis, allies, ussr for three players or two; turns 1-47; component data only so far (pbem data check), no campaign yet"),
}


def game(game_id: str) -> ModuleType:
    if game_id not in GAMES:
        from .errors import Issue, PbemError, ExitCode
        raise PbemError([Issue("GAME-UNKNOWN", f"unknown game {game_id!r}", hint="known: " + ", ".join(GAMES))],
                        ExitCode.INVALID)
    return importlib.import_module(GAMES[game_id])


def game_of_scenario(scenario: str) -> str:
    if scenario not in SCENARIO_LINES:
        from .errors import Issue, PbemError, ExitCode
        raise PbemError([Issue("SCENARIO-UNKNOWN", f"unknown scenario {scenario!r}",
                               hint="known: " + ", ".join(SCENARIO_LINES))], ExitCode.INVALID)
    return SCENARIO_LINES[scenario][0]
