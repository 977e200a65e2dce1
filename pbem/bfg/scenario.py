"""The Historical scenario (DG2 12.0-12.3): set-up, scenario rules, the fall of Berlin.

12.1: units start where the scenario's set-up puts them. 12.2.1: on turn 1 the West Germans
make at least two attacks on Western Allied units (lifted by optional rule 12.3). 12.2.2: after
the player-turn in which Berlin falls every German unit leaves the map; from then on units may
cross the theatre boundary, and the Soviets and Western Allies may not attack each other.
12.2.3: if neither takes Berlin the game is drawn. 12.3 (optional): every German replacement is
taken as East German.
"""
from __future__ import annotations

from .board import Board
from .context import Ctx
from .ruleset import Ruleset
from .sequence import phases_of_turn

SCHEMA = "pbem/state/v1"
OPTIONS = {
    "german_east_front": "12.3 optional rule: all German replacements are taken as East German (lifts 12.2.1)",
}


def initial_state(rs: Ruleset, *, campaign: str, players: dict, commitment: str, algorithm: str,
                  options: dict, engine_version: str, standing: dict | None = None) -> dict:
    units = {}
    for uid in sorted(rs.units):
        d = rs.units[uid]
        units[uid] = {"at": d.hex, "force": d.force}
    first_phase = phases_of_turn()[0]
    st = {
        "schema": SCHEMA,
        "game": "bfg",
        "campaign": campaign,
        "scenario": rs.scenario_id,
        "ruleset": {"id": rs.id, "version": rs.version, "digest": rs.digest},
        "engine": engine_version,
        "dice": {"algorithm": algorithm, "commitment": commitment},
        "players": dict(players),
        "options": {k: bool(options.get(k, False)) for k in sorted(OPTIONS)},
        "scenario_rules": {"t1_west_german_attacks": True, "draw_without_berlin": True},
        "step": 0,
        "previous": None,
        "turn": rs.first_turn,
        "phase": first_phase[0],
        "awaiting": {"player": first_phase[1], "for": "orders"},
        "units": units,
        "fortresses_destroyed": [],
        "control": {},
        "city_last": {},
        "captured": {},
        "berlin": {},
        "flags": {},
        "standing": {p: dict(standing or {}) for p in sorted(players)},
        "pending": [],
        "result": None,
    }
    board = Board(rs, st)
    # Each city starts with the side of the nearest unit (ties: German); provisional ruling.
    for h in sorted(rs.cities):
        best = None
        for uid in board.on_map_units():
            dist = rs.grid.distance(h, board.at(uid))
            key = (dist, 0 if board.camp(uid) == "german" else 1)
            if best is None or key < best[0]:
                best = (key, board.camp(uid))
        st["city_last"][h] = best[1] if best else "german"
    from .victory import city_owner
    for h in sorted(rs.cities):
        st["control"][h] = city_owner(board, h)
    return st


def end_of_player_turn(ctx: Ctx) -> None:
    """12.2.2: the player-turn in which Berlin fell is over: every German unit leaves the map."""
    st = ctx.state
    b = st["berlin"]
    if b.get("entered_by") and not st["flags"].get("germans_removed"):
        board = ctx.board
        removed = []
        for uid in sorted(board.units):
            if board.camp(uid) == "german" and board.units[uid]["at"] not in ("exited", "removed"):
                board.place(uid, "removed")
                removed.append(uid)
        st["flags"]["germans_removed"] = True
        st["flags"]["boundary_lapsed"] = True
        st["flags"]["no_attacks"] = True
        ctx.emit("berlin-fallen", side=b["entered_by"], removed=removed, rule="DG2 12.2.2",
                 text="all German units leave the map; the boundary no longer binds; Soviets and Western Allies may not attack each other")


def skip_forces(state: dict) -> frozenset:
    if state["flags"].get("germans_removed"):
        return frozenset({"east-german", "west-german"})
    return frozenset()
