"""Battle for Germany adjudication: a pure function of (ruleset, state, orders, dice).

``adjudicate`` runs the phases an order file covers, one after the other (3.0). Each phase gets
its own dice, keyed by the committed key, the step, the digest of the orders and the hash of the
state at the start of the phase. A phase stops either complete, or at a mid-phase decision that
belongs to a player (then the state records the decision and, to resume, the state at the start
of the phase with the orders and answers so far: the phase is run again from its start with the
same dice, which makes resumption exact). Orders found wrong before the step's first die
refuse the step; once a die is rolled, an order that the position reached no longer allows is
void (the kernel's event ``void``) and the phase goes on (pbem.core.kernel).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import Issue, Severity
from ..core.game import Checked
from ..core.kernel import Outcome
from .board import board_for
from .context import Ctx
from .ruleset import Ruleset
from .scenario import end_of_player_turn
from .sequence import split, turn_phases
from .victory import final_result, update_control

DiceFactory = Callable[..., Any]


# ------------------------------------------------------------------------------- phases
def next_phase(rs: Ruleset, state: dict, seq: list[tuple[str, str, str]] | None = None) -> tuple[str, str] | None:
    """Advance state['phase'] (and the turn) by one phase; returns (phase, player) or None at
    the end of the game. ``seq``: the turn's phases (:func:`turn_phases`), when the caller has them."""
    if seq is None:
        seq = turn_phases(rs, state)
    ids = [p for p, _, _ in seq]
    i = ids.index(state["phase"]) if state["phase"] in ids else -1
    if i + 1 < len(ids):
        state["phase"] = ids[i + 1]
        return seq[i + 1][0], seq[i + 1][1]
    state["turn"] += 1
    seq = turn_phases(rs, state)     # a player-turn may be lost on one turn only (15.22)
    state["phase"] = seq[0][0] if seq else "end"
    return (seq[0][0], seq[0][1]) if seq else None


def _phase_entry(rs: Ruleset, state: dict, phase: str) -> tuple[str | None, str | None]:
    """(player, player-turn) of ``phase`` in the current turn's sequence."""
    for p, pl, pt in turn_phases(rs, state):
        if p == phase:
            return pl, pt
    return None, None


def player_turn_of(rs: Ruleset, state: dict, phase: str) -> str | None:
    return _phase_entry(rs, state, phase)[1]


def _player_of(rs: Ruleset, state: dict, phase: str) -> str | None:
    return _phase_entry(rs, state, phase)[0]


def finish_phase(rs: Ruleset, state: dict, events: list[dict]) -> None:
    """Move to the next phase; at the end of a player-turn apply 12.2.2; at the end of the
    last turn total the victory points (11.0)."""
    old_phase, old_turn = state["phase"], state["turn"]
    # (the turn's phases, read once: the same for the next phase as long as the turn goes on)
    seq = turn_phases(rs, state)
    old_pt = next((pt for p, _, pt in seq if p == old_phase), None)      # player_turn_of
    next_phase(rs, state, seq)
    new_pt = next((pt for p, _, pt in seq if p == state["phase"]), None) if state["turn"] == old_turn else None

    def make_ctx():
        return Ctx(rs=rs, board=board_for(rs, state), turn=old_turn, phase=old_phase, player="", answers={})
    if old_pt != new_pt:
        ctx = make_ctx()
        end_of_player_turn(ctx)
        update_control(ctx)
        events.extend(ctx.events)
    if state["turn"] > rs.last_turn:
        ctx = make_ctx()
        state["turn"] = rs.last_turn
        state["phase"] = "end"
        state["awaiting"] = None
        state["result"] = final_result(ctx)
        events.append({"type": "game-over", "turn": rs.last_turn, "phase": old_phase, **state["result"]})


def pregame(rs: Ruleset, work: dict, sub, dice_factory: DiceFactory, out: Outcome) -> bool:
    """15.22: before play the Soviet player rolls a die; on 1-3 there is no Soviet player-turn
    on turn 11. pbem rolls it with the campaign's dice at the first adjudication (label
    ``pregame/d6``, keyed like a phase by the order file and the initial state). Returns True
    when that player-turn is lost and the orders sent for it are void (the step ends there)."""
    pg = rs.play.rule("pregame_die")
    digest = sub.digest if sub is not None else "missing-orders"
    dice = dice_factory(step="pregame", orders_digest=digest, state_hash=work["previous"])
    awaited = (work.get("awaiting") or {}).get("player")
    out.events.append({"type": "phase", "turn": work["turn"], "phase": "pregame", "player": awaited,
                       "date": rs.turn_date(work["turn"]),
                       "key_inputs": {"step": "pregame", "orders": digest, "state": work["previous"]}})
    value = dice.roll("d6", 6)
    lost = value in pg["lost_on"]
    work["pregame"] = {"turn": int(pg["turn"]), "roll": value, "skip": [pg["player_turn"]] if lost else []}
    out.rolls += [r.to_dict() for r in dice.log]
    who = rs.play.title(pg["player_turn"])
    text = (f"the {who} loses his player-turn of turn {pg['turn']}" if lost
            else f"the {who} plays his player-turn of turn {pg['turn']} as usual")
    out.events.append({"type": "pregame", "turn": work["turn"], "phase": "pregame",
                       "roll": {"label": dice.prefix + "d6", "value": value}, "lost": lost,
                       "player_turn": pg["player_turn"], "rule": "DG2 15.22", "text": text})
    if not lost or player_turn_of(rs, {**work, "pregame": {}}, work["phase"]) != pg["player_turn"]:
        return False
    seq = turn_phases(rs, work)
    work["phase"] = seq[0][0]
    work["awaiting"] = {"player": seq[0][1], "for": "orders"}
    if sub is not None and sub.doc.get("phases"):
        out.events.append({"type": "orders-void", "turn": work["turn"], "phase": "pregame", "player": sub.player,
                           "rule": "DG2 15.22", "text": f"the orders of the {rs.play.title(sub.player)} for that player-turn are not carried out"})
    out.state = work
    out.stopped = "complete"
    return True


# ------------------------------------------------------------------------------- validate
# `pbem validate` is the kernel's run of the adjudication with dice that refuse to roll
# (pbem.core.kernel.check_run), the phases carried out by the phase table (pbem/bfg/phasetable.py)
# whose static checks (units, hexes, path steps) the kernel makes for every phase of the file
# before any die, and whose check against the position it makes, as warnings, for the phases
# after the first die or a refusal (at the position as it stands). What Battle for Germany adds
# (Game.check_more): the warnings of a phase (answers that would be ignored, deadlines, decisions
# ahead, the pre-game die), and the end of the run at a refusal or the first die.


def check_more(chk: Checked[Ruleset]) -> list[Issue]:
    """What a validating run of the kernel hands Battle for Germany at ``chk.at``."""
    rs = chk.rs
    if chk.at == "before-orders":
        pg = rs.play.rule("pregame_die")
        if not pg or (chk.state.get("awaiting") or {}).get("player") != pg["player_turn"]:
            return []
        return [Issue("BFG-PREGAME", f"pbem rolls the pre-game die before carrying these orders out: on "
                      f"{', '.join(str(v) for v in pg['lost_on'])} the {rs.play.title(pg['player_turn'])} "
                      f"loses his player-turn of turn {pg['turn']} and these orders are void",
                      severity=Severity.WARNING, path=("phases",), rule="DG2 15.22")]
    run, i = chk.run, chk.index
    if run is None or i is None:
        return []       # a phase the file does not list: its default orders
    if chk.at == "decision":
        # A replacement tie (7.21) or a Courland port (8.0) is asked for: the adjudication will
        # stop there and wait for the player's answer; the kernel carries on with its default.
        return [] if chk.final or chk.decision is None else [_will_stop(dict(chk.decision), ("phases", i))]
    orders = run.orders.get(chk.sub.player) or {}
    _, step = split(run.phase)
    ctx = Ctx(rs=rs, board=board_for(rs, chk.state), turn=run.turn, phase=run.phase, player=chk.sub.player, validating=True,
              events=list(run.phase_events if chk.at == "phase" else run.events))   # what the phase did (deadlines)
    out = _combat_warnings(ctx, orders, chk.issues) if step == "combat" else []
    if chk.at != "refused":
        if step == "replacement" and "courland_exit" in orders:
            from .courland import port_ahead  # the chapter loads when its phase first runs
            ahead = port_ahead(ctx, orders["courland_exit"])
            if ahead:
                out.append(_will_stop(ahead, tuple(orders["courland_exit"].get("_path", ("phases", i)))))
        from .garrison import deadline_warnings  # the chapter loads when its phase first runs
        out += deadline_warnings(ctx, ("phases", i))   # 10.0, 5.42, 8.0: warn before a deadline is missed
    if chk.at in ("refused", "die"):
        # Dice (or orders refused) decide the position of the phases after this one: the kernel
        # checks them at the position as it stands, as warnings (its phase table's check)
        chk.stop = True
    return out


_STOP_KEYS = {"replacement": "replacement_ties", "courland-port": "courland_port"}


def _will_stop(need: dict, path: tuple) -> Issue:
    """A warning: the orders leave a decision open that the adjudication will stop at."""
    key = _STOP_KEYS.get(need["kind"])
    how = {"replacement": "name the unit in the replacement (`unit: ID`)",
           "courland-port": "name the port in courland_exit (`port: Stettin`)"}.get(need["kind"], "answer it in the order file")
    rule = {"replacement": "DG2 7.21", "courland-port": "DG2 8.0"}.get(need["kind"])
    return Issue("BFG-DECISION-AHEAD",
                 f"the adjudication will stop at decision {need['id']} and wait for the {need['player']} player's answer: "
                 f"{need['prompt']} ({', '.join(str(o) for o in need['options'])})",
                 severity=Severity.WARNING, path=path, rule=rule,
                 hint=f"to go on without stopping, {how}" + (f" or set the standing order {key}: auto" if key else ""))


def _combat_warnings(ctx: Ctx, orders: dict, found: list[Issue]) -> list[Issue]:
    """Answers written in an attack that could not be used as they stand (6.2 Ex, 6.9): pbem
    would ignore them at the time and ask (or follow a standing order) instead."""
    from .combat import ex_options  # the chapter loads when its phase first runs
    bad = {tuple(x.path) for x in found}
    out = []
    for a in orders.get("attacks", []):
        where = tuple(a["_path"])
        if any(p[:len(where)] == where for p in bad):   # an issue of the attack or of one of its unit ids
            continue
        units = list(a["units"])
        text = f"{{target: {', '.join(a['targets'])}, units: [{', '.join(units)}]}}"
        if a.get("ex_losses"):
            need = sum(ctx.rs.units[u].defense for h in a["targets"] for u in ctx.board.units_in(h))
            opts = ex_options(ctx, units, need)
            chosen = sorted(a["ex_losses"])
            if chosen not in opts:
                out.append(Issue("BFG-EX-LOSSES", f"ex_losses [{', '.join(chosen)}] is not a smallest set of attackers whose printed attack reaches the defenders' printed defence {need}; an Ex would ignore it",
                                 severity=Severity.WARNING, path=where + ("ex_losses",), text=text, rule="DG2 6.2",
                                 hint="legal now: " + " | ".join("[" + ", ".join(o) + "]" for o in opts)))
        adv = a.get("advance")
        if adv not in (None, "ask", "none"):
            au, _, ah = str(adv).partition("@")   # unit or unit@hex (multi-hex attacks, 6.7)
            if au not in units:
                out.append(Issue("BFG-ADVANCE-UNIT", f"advance: {adv} is not one of the attacking units",
                                 severity=Severity.WARNING, path=where + ("advance",), text=text, rule="DG2 6.92"))
            elif ah and ah not in a["targets"]:
                out.append(Issue("BFG-ADVANCE-UNIT", f"advance: {adv}: {ah} is not one of the attacked hexes",
                                 severity=Severity.WARNING, path=where + ("advance",), text=text, rule="DG2 6.92"))
            elif not ah and len(a["targets"]) > 1:
                out.append(Issue("BFG-ADVANCE-UNIT", f"advance: {adv}: several hexes are attacked; write unit@hex",
                                 severity=Severity.WARNING, path=where + ("advance",), text=text, rule="DG2 6.7, 6.92",
                                 hint="a bare unit id is ignored when more than one hex is vacated, and pbem asks instead"))
        for u in sorted(a.get("retreats") or {}):
            if u not in units:
                out.append(Issue("BFG-RETREAT-UNIT", f"retreats: {u} is not one of the attacking units (the defender's player chooses the defenders' retreats)",
                                 severity=Severity.WARNING, path=where + ("retreats", u), text=text, rule="DG2 6.2"))
    return out
