"""Sequence of play (DG2 3.0).

Each game turn has two player-turns. The Soviet player-turn is: Soviet replacement,
movement and combat, then West German replacement, movement and combat (the Soviet player runs
the West Germans). The Western Allied player-turn is: Western Allied replacement, movement and
combat, then East German replacement, movement and combat. Phase ids are ``<force>.<step>``.
"""
from __future__ import annotations

STEPS = ("replacement", "movement", "combat")

# (force whose phases these are, player who runs them, player-turn id)
TWO_PLAYER = (
    ("soviet", "soviet", "soviet"),
    ("west-german", "soviet", "soviet"),
    ("western-allied", "western", "western"),
    ("east-german", "western", "western"),
)

PLAYERS_TWO = ("soviet", "western")

PLAYER_TITLES = {"soviet": "Soviet player", "western": "Western Allied player"}
FORCE_TITLES = {"soviet": "Soviet", "west-german": "West German",
                "western-allied": "Western Allied", "east-german": "East German"}


def phases_of_turn(skip_forces: frozenset = frozenset()) -> list[tuple[str, str, str]]:
    """[(phase id, player, player-turn)] for one game turn, in order (3.0)."""
    out = []
    for force, player, pturn in TWO_PLAYER:
        if force in skip_forces:
            continue
        for step in STEPS:
            out.append((f"{force}.{step}", player, pturn))
    return out


def split(phase: str) -> tuple[str, str]:
    force, step = phase.split(".")
    return force, step


def phase_title(phase: str) -> str:
    force, step = split(phase)
    return f"{FORCE_TITLES.get(force, force)} {step} phase"
