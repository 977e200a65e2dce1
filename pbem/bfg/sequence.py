"""Sequence of play (DG2 3.0, 15.22-15.23, 16.1, 17.2).

Each game turn is a series of player-turns. In the two-player game (3.0) the Soviet player-turn
is: Soviet replacement, movement and combat, then West German replacement, movement and combat
(the Soviet player runs the West Germans); the Western Allied player-turn is: Western Allied
replacement, movement and combat, then East German replacement, movement and combat. The other
scenarios give their own sequence in their data (``play.sequence``, see :mod:`.play`): three
player-turns in the three-player game (16.1), four in the four-player game (17.2). Phase ids
are ``<group>.<step>``, a group being the forces one sequence entry runs.

Phases are skipped when their forces have left the game (12.2.2, 13.1: the German phases once
Berlin has fallen), and a player-turn is lost to the pre-game die of Red Star/White Star
(15.22).
"""
from __future__ import annotations

#: the game's title (the plug-in's ``title``, the map's heading: read here by both, issue 30)
TITLE = "Battle for Germany"

STEPS = ("replacement", "movement", "combat")

PLAYER_TITLES = {"soviet": "Soviet player", "western": "Western Allied player", "german": "German player",
                 "east-german": "East German player", "west-german": "West German player"}
FORCE_TITLES = {"soviet": "Soviet", "west-german": "West German",
                "western-allied": "Western Allied", "east-german": "East German", "german": "German"}


def with_article(title: str) -> str:
    """'an East German', 'a Soviet': the indefinite article for a title in a sentence."""
    return ("an " if title[:1].lower() in "aeiou" else "a ") + title


def skipped_forces(state: dict) -> frozenset:
    """Forces no longer in the game: the Germans once removed after Berlin fell (12.2.2, 13.1)."""
    if state.get("flags", {}).get("germans_removed"):
        return frozenset({"east-german", "west-german"})
    return frozenset()


def skipped_player_turns(state: dict, turn: int) -> frozenset:
    """Player-turns lost on ``turn`` to the pre-game die (15.22)."""
    pg = state.get("pregame")
    if pg and pg.get("turn") == turn:
        return frozenset(pg.get("skip") or ())
    return frozenset()


def turn_phases(rs, state: dict, turn: int | None = None) -> list[tuple[str, str, str]]:
    """[(phase id, player, player-turn)] of game turn ``turn`` (default: the state's), in
    order, as the scenario's sequence gives them, without the skipped forces and player-turns."""
    turn = state["turn"] if turn is None else turn
    skip = skipped_forces(state)
    lost = skipped_player_turns(state, turn)
    # (asked several times a phase: worked out once per ruleset and skips, a fresh list returned)
    cache = rs.turn_phases_kept
    seq = cache.get((skip, lost))
    if seq is None:
        seq = cache[(skip, lost)] = _turn_phases(rs, skip, lost)
    return list(seq)


def _turn_phases(rs, skip: frozenset, lost: frozenset) -> tuple[tuple[str, str, str], ...]:
    out = []
    for g in rs.play.groups:
        if g.player_turn in lost:
            continue
        if all(f in skip for f in g.forces):
            continue
        for step in STEPS:
            out.append((f"{g.id}.{step}", g.player, g.player_turn))
    return tuple(out)


def split(phase: str) -> tuple[str, str]:
    force, step = phase.split(".")
    return force, step


def phase_title(phase: str) -> str:
    if phase == "pregame":
        return "pre-game die (15.22)"
    if phase == "end":      # the game is over (17.0, or ended by agreement: pbem end)
        return "game over"
    force, step = split(phase)
    return f"{FORCE_TITLES.get(force, force)} {step} phase"
