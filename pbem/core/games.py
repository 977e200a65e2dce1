"""The games pbem adjudicates, by id. Each game is a package under ``pbem/`` exposing:
GAME_ID, TITLE, SCENARIOS, DATA_FILES, SCENARIO_SCHEMA, build(), consistency(), new_state(),
validate(), adjudicate(), order_template(), describe_event(), summary(). Imported lazily."""
from __future__ import annotations

import importlib
from types import ModuleType

GAMES = {"bfg": "pbem.bfg"}

# Scenario ids -> (game id, one-line description). Kept here so `pbem new --help` does not
# import the games.
SCENARIO_LINES = {
    "bfg-historical": ("bfg", "Battle for Germany, Historical scenario (DG2 12.0): Soviet vs Western Allied player, 10 turns"),
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
