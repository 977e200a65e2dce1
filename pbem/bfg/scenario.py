"""The Historical scenario (DG2 12.0-12.3) and what the other scenarios change in it (13.0-17.3):
set-up, scenario rules, the fall of Berlin.

12.1: units start where the scenario's set-up puts them. 12.2.1: on turn 1 the West Germans
make at least two attacks on Western Allied units (lifted by optional rule 12.3). 12.2.2: after
the player-turn in which Berlin falls every German unit leaves the map; from then on units may
cross the theatre boundary, and the Soviets and Western Allies may not attack each other.
12.2.3: if neither takes Berlin the game is drawn. 12.3 (optional): every German replacement is
taken as East German.

The other scenarios say in their data (``play.rules``, see :mod:`.play`) which of these apply:
13.1 makes the Soviets and Western Allies enemies once Berlin has fallen and the Germans are
gone, 13.2 (optional) keeps the SS units on the map under the Western Allied player; 14.0, 16.0
and 17.0 go on with the Germans after Berlin falls; 14.0 starts every city German.
"""
from __future__ import annotations

from ..core.errors import ExitCode, Issue, PbemError
from .board import Board
from .context import Ctx
from .orders import standing_keys_of
from .ruleset import Ruleset
from .sequence import skipped_forces, turn_phases
from .victory import city_owner

SCHEMA = "pbem/state/v1"


def initial_state(rs: Ruleset, *, campaign: str, players: dict, commitment: str, algorithm: str,
                  options: dict, engine_version: str, standing: dict | None = None) -> dict:
    offered = rs.play.options
    unknown = sorted(k for k, v in (options or {}).items() if v and k not in offered)
    if unknown:
        raise PbemError([Issue("USAGE-OPTION", f"scenario {rs.scenario_id} has no optional rule {k!r}",
                               hint="its optional rules: " + (", ".join(sorted(offered)) or "none")) for k in unknown],
                        ExitCode.USAGE)
    st = {
        "schema": SCHEMA,
        "game": "bfg",
        "campaign": campaign,
        "scenario": rs.scenario_id,
        "ruleset": {"id": rs.id, "version": rs.version, "digest": rs.digest},
        "engine": engine_version,
        "dice": {"algorithm": algorithm, "commitment": commitment},
        "players": dict(players),
        "options": {k: bool(options.get(k, False)) for k in sorted(offered)},
        "scenario_rules": {"t1_west_german_attacks": bool(rs.play.rule("t1_west_german_attacks")),
                           "draw_without_berlin": bool(rs.play.rule("draw_without_berlin"))},
        "step": 0,
        "previous": None,
        "turn": rs.first_turn,
        "phase": "",
        "awaiting": None,
        "units": _start_units(rs),
        "fortresses_destroyed": [],
        "control": {},
        "city_last": {},
        "captured": {},
        "berlin": {},
        "flags": {},
        # each player's standing orders: only those he can ever be asked (courland_port, 8.0)
        "standing": {p: {k: v for k, v in (standing or {}).items() if k in standing_keys_of(rs, p)} for p in sorted(players)},
        "pending": [],
        "result": None,
    }
    first_phase = turn_phases(rs, st)[0]
    st["phase"] = first_phase[0]
    st["awaiting"] = {"player": first_phase[1], "for": "orders"}
    _start_cities(rs, st)
    return st


def _start_units(rs: Ruleset) -> dict[str, dict]:
    """Where each unit starts, and the garrisons (10.2)."""
    units: dict[str, dict] = {}
    for uid in sorted(rs.units):
        d = rs.units[uid]
        units[uid] = {"at": d.hex, "force": d.force}
        if d.garrison:
            units[uid]["garrison"] = d.hex   # 10.2: a garrison at the start never moves
        elif d.is_front and d.force == "soviet" and d.hex in rs.cities and rs.cities[d.hex].garrison \
                and not any(units.get(o, {}).get("garrison") == d.hex for o in units):
            # 10.2: every Front standing in one of the four garrison cities at the start is its
            # garrison (the city counts as captured: _start_cities), whatever the set-up line says.
            units[uid]["garrison"] = d.hex
    return units


def _start_cities(rs: Ruleset, st: dict) -> None:
    """Each city's side at the start, the garrison cities counted as captured, control (10.0, 10.2, 14.0)."""
    board = Board(rs, st)
    if rs.play.rule("city_start") == "german":
        # 14.0: every city is German at the start.
        for h in sorted(rs.cities):
            st["city_last"][h] = "german"
    else:
        # Each city starts with the side of the nearest unit (ties: German); provisional ruling.
        for h in sorted(rs.cities):
            best = None
            for uid in board.on_map_units():
                dist = rs.grid.distance(h, board.at(uid))
                key = (dist, 0 if board.camp(uid) == "german" else 1)
                if best is None or key < best[0]:
                    best = (key, board.camp(uid))
            st["city_last"][h] = best[1] if best else "german"
    # 10.0, 10.2: a garrison city the Soviets hold at the start counts as captured.
    soviet_phase = f"{rs.play.group_of_force('soviet')}.movement"
    for h in sorted(rs.cities):
        if rs.cities[h].garrison and any(board.camp(u) == "soviet" for u in board.units_in(h)):
            st["captured"][h] = {"turn": rs.first_turn, "phase": soviet_phase}
    for h in sorted(rs.cities):
        st["control"][h] = "german" if rs.play.rule("city_start") == "german" else city_owner(board, h)


def lapse_boundary(ctx: Ctx) -> None:
    """13.1 with 13.2: once the Germans have been removed and the last SS unit the Western
    Allied player commanded has left the map, every German unit is gone and the German Theater
    Boundary lapses (rulings ``boundary_lapse_with_ss``)."""
    flags = ctx.state["flags"]
    if not flags.get("germans_removed") or flags.get("boundary_lapsed"):
        return
    board = ctx.board
    if any(board.units[u].get("ss_half") for u in board.on_map_units()):
        return
    flags["boundary_lapsed"] = True
    ctx.emit("boundary-lapsed", rule="DG2 13.1",
             text="the last SS unit has left the map: every German unit is gone and the German Theater Boundary no longer binds")


def end_of_player_turn(ctx: Ctx) -> None:
    """12.2.2, 13.1: the player-turn in which Berlin fell is over: every German unit leaves the
    map (13.2: the SS units on the map pass to the Western Allied player instead); the boundary
    no longer binds; then the Soviets and Western Allies may not attack each other (12.2.2) or
    are enemies (13.1), as the scenario says. Scenarios whose rule ``berlin_falls`` is
    ``nothing`` (14.0, 16.0, 17.0) go on with the Germans."""
    st = ctx.state
    b = st["berlin"]
    play = ctx.rs.play
    if play.rule("berlin_falls") != "remove-germans":
        return
    if b.get("entered_by") and not st["flags"].get("germans_removed"):
        board = ctx.board
        ss = bool(st.get("options", {}).get("ss_to_western"))
        removed = []
        kept = []
        for uid in sorted(board.units):
            if board.camp(uid) != "german" or board.units[uid]["at"] in ("exited", "removed"):
                continue
            if ss and ctx.rs.units[uid].nation == "ss" and board.on_map(uid):
                u = board.units[uid]
                old = u["force"]
                board.set_force(uid, "western-allied", ss_half=True)
                u.pop("must_return", None)
                u.pop("entered", None)
                kept.append(uid)
                ctx.emit("change-side", unit=uid, old=old, new="western-allied", hex=u["at"], rule="DG2 13.2",
                         controller=board.controller_of_force("western-allied"),
                         text="an SS unit passes to the Western Allied player: it defends normally, attacks and moves at half strength")
                continue
            board.place(uid, "removed")
            removed.append(uid)
        st["flags"]["germans_removed"] = True
        # 13.1: the boundary has no effect once EVERY German unit has been removed; the SS units
        # 13.2 keeps are German units (rulings ``ss_cities``), so while one stands on the map
        # the boundary still binds (rulings ``boundary_lapse_with_ss``: see lapse_boundary).
        st["flags"]["boundary_lapsed"] = not kept
        if play.rule("after_berlin_falls") == "hostile":
            st["flags"]["allies_hostile"] = True
            bound = ("the boundary still binds while SS units remain (they are German units)" if kept
                     else "the boundary no longer binds")
            ev = ctx.emit("berlin-fallen", side=b["entered_by"], removed=removed, rule="DG2 13.1",
                          text=f"{'every German unit but the SS units leaves' if kept else 'all German units leave'} the map; {bound}; "
                               "Soviets and Western Allies are now enemies")
            if ss:
                ev["ss"] = kept
        else:
            st["flags"]["no_attacks"] = True
            ctx.emit("berlin-fallen", side=b["entered_by"], removed=removed, rule="DG2 12.2.2",
                     text="all German units leave the map; the boundary no longer binds; Soviets and Western Allies may not attack each other")


def skip_forces(state: dict) -> frozenset:
    return skipped_forces(state)
