"""What each phase of the sequence (8) does, and what happens between phases.

The diplomacy phase is :mod:`pbem.blitzwar.diplomacy` (9), the cards and replacement phases
are :mod:`pbem.blitzwar.cards` (10) and :mod:`pbem.blitzwar.replacements` (11); the naval phase is
:mod:`pbem.blitzwar.naval` (12), the air phase :mod:`pbem.blitzwar.air` (13), the sea transport
phase (14) :mod:`pbem.blitzwar.transport`. The blitz
and normal combat phases are :mod:`pbem.blitzwar.combat` (16, 17). Stacking (4) is enforced at the end of
every phase; out-of-supply markers (17.5) are set at the end of each side's normal combat phase.
"""
from __future__ import annotations

from ..core.errors import Issue
from .context import LAND, Ctx, add_counter, record_german_defence_points, remove_counter, sorted_counters
from .land import blitz_allowed, enforce_stacking, note_german_in_finland
from .sequence import next_phase, side_of_phase, step_of
from .supply import mark_out_of_supply


def run(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    """Carry out the phase ``ctx.phase`` (by its kind, :data:`RUNS`)."""
    run_step(ctx, orders_by_player, step_of(ctx.phase))


def run_step(ctx: Ctx, orders_by_player: dict[str, dict], step: str) -> None:
    """One phase of kind ``step`` (the phase table's run, pbem/blitzwar/phasetable.py): the
    set-up choices of the first diplomacy phase (19), what the kind does (:data:`RUNS`), then
    what follows every land phase (9.3, 10.2) and stacking (4), enforced after every phase."""
    if ctx.phase == "1.diplomacy" and ctx.turn == ctx.rs.first_turn:
        for player, o in sorted(orders_by_player.items()):
            if o.get("setup"):
                apply_setup(ctx, player, o)
    RUNS[step](ctx, orders_by_player)
    if step in ("movement", "blitz", "combat"):
        from .diplomacy import after_phase  # the chapter loads when its phase first runs
        after_phase(ctx)      # 9.3: the war a phase opened (Finland, Yugoslavia)
        note_german_in_finland(ctx)     # 10.2: the Soviet total-war cards from the next turn
        from .combat import note_entries  # the chapter loads when its phase first runs
        note_entries(ctx)               # 9.3: a zone entered is an attack on its country (10.2, 11.9, 16.3.1)
    enforce_stacking(ctx)


def _diplomacy(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .diplomacy import run_diplomacy  # the chapter loads when its phase first runs
    run_diplomacy(ctx)                                    # 9


def _cards(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .cards import run_cards  # the chapter loads when its phase first runs
    run_cards(ctx, orders_by_player)                      # 10


def _replacements(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .movement import reorganise_phase  # the chapter loads when its phase first runs
    from .replacements import run_replacements  # the chapter loads when its phase first runs
    run_replacements(ctx, orders_by_player)               # 11
    reorganise_phase(ctx, orders_by_player)               # 11.10, after the replacements are placed
    from .air import after_replacements  # the chapter loads when its phase first runs
    after_replacements(ctx)                               # 13.3: the bombers leave the box


def _naval(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .naval import run_naval  # the chapter loads when its phase first runs
    run_naval(ctx, orders_by_player[ctx.player])          # 12: naval movement, combat, sea control


def _air(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .air import run_air  # the chapter loads when its phase first runs
    run_air(ctx, orders_by_player[ctx.player])            # 13 (pbem/blitzwar/air.py)


def _sea_transport(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .movement import reorganise_phase  # the chapter loads when its phase first runs
    from .transport import run_sea_transport  # the chapter loads when its phase first runs
    run_sea_transport(ctx, orders_by_player[ctx.player])  # 14.1
    reorganise_phase(ctx, orders_by_player)               # 14.2, 11.10: reorganising is allowed here too


def _movement(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .movement import run_movement  # the chapter loads when its phase first runs
    run_movement(ctx, orders_by_player[ctx.player])       # 15


def _blitz(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .combat import run_blitz  # the chapter loads when its phase first runs
    _, why = blitz_allowed(ctx, ctx.acting_side)
    orders = orders_by_player[ctx.player]
    if ctx.rs.turns[ctx.turn].weather == "mud" and not (orders.get("attacks") or orders.get("moves") or orders.get("attack_neutral")):
        ctx.emit("no-blitz", rule="6", text=why)
    else:
        # attacks or moves ordered in mud: the blitz phase refuses them (BW-NO-BLITZ, 6, 16.1)
        # rather than passing them over in silence (the phase table's static check refuses them
        # when the file arrives)
        run_blitz(ctx, orders)                            # 16


def _combat(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    from .combat import run_normal_combat  # the chapter loads when its phase first runs
    run_normal_combat(ctx, orders_by_player[ctx.player])  # 17
    mark_out_of_supply(ctx, ctx.acting_side)
    from .movement import out_of_supply_moves  # the chapter loads when its phase first runs
    out_of_supply_moves(ctx, orders_by_player[ctx.player])
    from .air import end_of_turn_rebase  # the chapter loads when its phase first runs
    end_of_turn_rebase(ctx)                               # 13.5, clar. 7: strategic air movement


#: what each kind of phase of the sequence (8) does
RUNS = {"diplomacy": _diplomacy, "cards": _cards, "replacements": _replacements, "naval": _naval, "air": _air,
        "sea-transport": _sea_transport, "movement": _movement, "blitz": _blitz, "combat": _combat}


# ------------------------------------------------------------------------------ set-up choices (19)
def apply_setup(ctx: Ctx, player: str, o: dict) -> None:
    """19: the Allied player places Poland's six counters anywhere in Poland, in the first order
    file (turn 1, phase 1.diplomacy, ``setup: {poland: {zone: {I: n, C: n}}}``)."""
    from ..core.errors import did_you_mean
    from .names import zone_guess  # the chapter loads when its phase first runs
    from .setup import name_counters, place_choice  # the chapter loads when its phase first runs
    p = o.get("_path", ("phases",)) + ("setup",)
    errs: list[Issue] = []      # every problem at once: each choice, each zone
    for cid_choice, zones in sorted(o["setup"].items()):
        ch = next((c for c in ctx.rs.choices if c["id"] == cid_choice), None)
        if ch is None:
            errs.append(Issue("BW-SETUP", f"no set-up choice {cid_choice!r}{did_you_mean(cid_choice, [c['id'] for c in ctx.rs.choices])}",
                              path=p + (cid_choice,), text=cid_choice, rule="19"))
            continue
        owner = ctx.state["sides"][ch["owner"]]
        if owner != player:
            errs.append(Issue("BW-SETUP", f"the set-up choice {cid_choice} belongs to the {owner} player", path=p + (cid_choice,),
                              rule="19"))
            continue
        if ctx.state.get("setup_choices", {}).get(cid_choice) != "default":
            errs.append(Issue("BW-SETUP", f"the set-up choice {cid_choice} was made already", path=p + (cid_choice,), rule="19"))
            continue
        mine = ctx.rs.country_zones(ch["country"])
        bad = [z for z in zones if z not in ctx.rs.zones or ctx.rs.zones[z].country != ch["country"]]
        for z in bad:
            what = (f"no zone {z!r} on the map{zone_guess(ctx.rs, z, mine)}" if z not in ctx.rs.zones
                    else f"{z} is in {ctx.rs.zones[z].country}, not in {ch['country']}")
            errs.append(Issue("BW-SETUP-ZONE", f"{cid_choice}: {what} (19)",
                              path=p + (cid_choice, z), text=str(z), rule="19", hint=f"zones of {ch['country']}: {', '.join(mine)}"))
        start = [k for k in ctx.rs.counters[ch["nation"]] if k.available == "start"]
        total = sum(k.count for k in start)
        if bad:
            # the zones cannot be placed, but the units named can still be counted
            marks = ctx.rs.marks_by(ctx.turn)
            want = {"I": sum(k.count * k.land_units_on(marks)[0] for k in start if k.land),
                    "C": sum(k.count * k.land_units_on(marks)[1] for k in start if k.land)}
            got = {x: sum(int((u or {}).get(x, 0)) for u in zones.values() if isinstance(u, dict)) for x in want}
            if got != want:
                errs.append(Issue("BW-SETUP", f"{cid_choice}: the units placed are {got['I']} infantry and {got['C']} armour corps; "
                                  f"the {total} counters of {ch['nation']} hold {want['I']} and {want['C']} (19, 3)",
                                  path=p + (cid_choice,), rule="19"))
            continue
        marks = ctx.rs.marks_by(ctx.turn)
        cs = place_choice(ctx.rs, ch, zones, marks)
        if cs is None or (ch.get("counters") == "all" and len(cs) != total):
            errs.append(Issue("BW-SETUP", f"{cid_choice}: the units placed do not make exactly the {total} counters of "
                              f"{ch['nation']} (19, 3), at most {ctx.rs.stacking_default} a zone", path=p + (cid_choice,), rule="19"))
            continue
        for cid in [c for c, v in ctx.counters.items() if v["nation"] == ch["nation"]]:
            remove_counter(ctx.counters, cid)
        for cid, c in name_counters(ctx.rs, cs).items():
            add_counter(ctx.counters, cid, c)
        ctx.state["counters"] = sorted_counters(ctx.counters)
        ctx.state["setup_choices"][cid_choice] = "made"
        ctx.emit("setup", rule="19", choice=cid_choice, player=player,
                 placed={z: {k: int(v) for k, v in u.items()} for z, u in sorted(zones.items())})
    if errs:
        ctx.refuse(errs)


# ------------------------------------------------------------------------------ between phases
TURN_FLAGS = ("moved", "active", "strategic", "attacked", "shipped")    # a side's per-turn flags


def advance(w, state: dict, events: list[dict]) -> None:
    """Next phase; at the end of a side's turn its per-turn flags go; at the end of a turn the
    Axis strategic points are recorded for the German defence (16.3.2); after turn 47 the game
    ends: the Axis wins, the ten points split by its strategic points (18, victory.at_end)."""
    if state["phase"] == "1.diplomacy" and state["turn"] == w.first_turn:
        # 19: a set-up choice not made in the first order file keeps its default for good
        for k, v in list(state.get("setup_choices", {}).items()):
            if v == "default":
                state["setup_choices"][k] = "kept"
    if state.get("result"):
        # 9.2, 18: Germany surrendered in the diplomacy phase: the game ends there
        state["phase"] = "end"
        events.append({"type": "game-over", "turn": state["turn"], "phase": "end", "rule": "18", **state["result"]})
        return
    side = side_of_phase(state["phase"])
    if side and step_of(state["phase"]) == "combat":
        kinds = LAND + ("supply",)
        for c in state["counters"].values():
            if c["type"] in kinds and not c.keys().isdisjoint(TURN_FLAGS):
                for f in TURN_FLAGS:
                    c.pop(f, None)
    turn, ph = next_phase(w, state)
    if ph == "end":
        from .victory import at_end  # the chapter loads when its phase first runs
        state["phase"] = "end"
        state["result"] = at_end(w, state)      # 18: Germany has not surrendered
        events.append({"type": "game-over", "turn": state["turn"], "phase": "end", "rule": "18", **state["result"]})
        return
    if turn != state["turn"]:
        ended, state["turn"] = state["turn"], turn
        state["marks"] = sorted(set(state.get("marks", [])) | set(w.marks_by(turn)))
        record_german_defence_points(w, state, ended)    # 16.3.2: the points at the turn's end
        # 11.6 says which side of a UK or Soviet 3-corps counter may be shown (the 3-corps side
        # from the three-corps mark): it gives no corps, and losses are permanent (16.2), so the
        # change of turn leaves every counter's corps as they are (a counter grows to 3 corps by
        # replacements or reorganisation, 11.5, 11.10)
        events.append({"type": "turn", "turn": turn, "phase": ph, "rule": "8",
                       "date": f"{w.turns[turn].season} {w.turns[turn].year} ({w.turns[turn].half})",
                       "weather": w.turns[turn].weather})
    state["phase"] = ph
