"""The sequence of play (8, ゲーム手順): nine phases a turn, 47 turns.

Phases 1-3 (diplomacy, replacement cards, replacements from turn 2) are played by every side
before phase 4: all players at once. Phases 4-9 are played side by side in the order Axis,
Allies, USSR; with two players the allies player gives the orders of both the allies and the
ussr phases (2). One order file may cover several consecutive phases played by the same
player(s) within the turn (:func:`orderable`).
"""
from __future__ import annotations

SHARED = ("1.diplomacy", "2.cards", "3.replacements")
SIDE_STEPS = ("4.naval", "5.air", "6.sea-transport", "7.movement", "8.blitz", "9.combat")

TITLES = {
    "diplomacy": "diplomacy phase (9): surrender, activation of countries",
    "cards": "replacement card phase (10)",
    "replacements": "replacement phase (11)",
    "naval": "naval phase (12)",
    "air": "air phase (13)",
    "sea-transport": "sea transport phase (14)",
    "movement": "movement phase (15): entrenching, strategic movement, tactical movement and activation",
    "blitz": "blitz phase (16)",
    "combat": "normal combat phase (17)",
}


def turn_phases(w, turn: int) -> tuple[str, ...]:
    """The phases of ``turn`` in their order (8), made once per turn of a map: every phase's
    end asks the next one, and the map's sides and first replacement turn never change."""
    if _PHASES[0] is not w:
        _PHASES[:] = [w, {}]
    got = _PHASES[1].get(turn)
    if got is None:
        out = ["1.diplomacy", "2.cards"]
        if turn >= w.first_replacement_turn:
            out.append("3.replacements")       # 8: "replacement phase (from turn 2)"
        out += [f"{s}.{st}" for s in w.side_order for st in SIDE_STEPS]
        got = _PHASES[1][turn] = tuple(out)
    return got


#: :func:`turn_phases` of the world last asked about: [world, {turn: its phases}]
_PHASES: list = [None, {}]


def first_phase(w, state) -> str:
    return turn_phases(w, state["turn"])[0]


def side_of_phase(phase: str) -> str | None:
    head = phase.split(".")[0]
    return head if head in ("axis", "allies", "ussr") else None


def step_of(phase: str) -> str:
    return phase.split(".")[-1]


def players_of_phase(state, phase: str) -> list[str]:
    if phase == "end":
        return []
    side = side_of_phase(phase)
    if side is None:
        return sorted(set(state["sides"].values()))
    return [state["sides"][side]]


def acting_players_of(w, state, phase: str | None = None) -> list[str]:
    return players_of_phase(state, phase or state["phase"])


def orderable(w, state, player: str) -> list[str]:
    """The current phase and the following ones of this turn played by the same player(s)."""
    ph = state["phase"]
    if ph == "end":
        return []
    phases = turn_phases(w, state["turn"])
    if ph not in phases:
        return []
    who = players_of_phase(state, ph)
    if player not in who:
        return []
    out = []
    for p in phases[phases.index(ph):]:
        if players_of_phase(state, p) != who:
            break
        out.append(p)
    return out


def phase_title(phase: str) -> str:
    if phase == "end":
        return "the game is over"
    side = side_of_phase(phase)
    step = step_of(phase)
    t = TITLES.get(step, phase)
    return (f"{side.capitalize() if side != 'ussr' else 'USSR'} {t}" if side else f"{t} (all sides)")


def next_phase(w, state) -> tuple[int, str]:
    """(turn, phase) after the current one; (turn, 'end') after the last turn."""
    phases = turn_phases(w, state["turn"])
    i = phases.index(state["phase"])
    if i + 1 < len(phases):
        return state["turn"], phases[i + 1]
    t = state["turn"] + 1
    if t > w.last_turn:
        return state["turn"], "end"
    return t, turn_phases(w, t)[0]
