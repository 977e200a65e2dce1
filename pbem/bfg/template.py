"""Order templates: what is awaiting a player, written as a YAML order file with the legal
choices as comments (``pbem orders template``). Pure text, no YAML library."""
from __future__ import annotations

from ..core.canon import copy_json
from .board import Board
from .boundary import obligations
from .combat import targets_of
from .context import Ctx
from .courland import courland_units, ports
from .garrison import due_garrisons
from .movement import allowance, phase_forces
from .orders import player_phases, standing_keys_of
from .replacements import replacement_summary
from .ruleset import Ruleset
from .sequence import FORCE_TITLES, split, turn_phases


def q(s: str) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def template(rs: Ruleset, state: dict, player: str, *, schema_ref: str, state_file: str) -> str:
    L: list[str] = []
    L.append(f"# yaml-language-server: $schema={schema_ref}")
    pend = state.get("pending") or []
    title = rs.play.title(player)
    L.append(f"# Battle for Germany - campaign {state['campaign']} - orders of the {title}")
    L.append(f"# Turn {state['turn']} ({rs.turn_date(state['turn'])}), state file {state_file}")
    L.append("# Check it with: pbem validate STATE THIS_FILE   (rule numbers: DG2, Decision Games 2nd edition)")
    L.append("schema: pbem/orders/v1")
    L.append("game: bfg")
    L.append(f"campaign: {q(state['campaign'])}")
    L.append(f"player: {player}")
    L.append(f"turn: {state['turn']}")
    L.append(f"state: {state['hash']}")
    if pend:
        p = pend[0]
        if p["player"] != player:
            L.append(f"# Nothing is awaiting you: the game waits for the {p['player']} player's decision {p['id']}.")
            L.append("# You may still send standing orders (below): the game master adjudicates this file with the answer.")
        else:
            L.append("decisions:")
            for d in pend:
                L.append(f"  - id: {d['id']}")
                L.append(f"    # {d['prompt']}")
                if d.get("context"):
                    L.append("    # context: " + _fmt_context(d["context"]))
                L.append("    # legal choices: " + " | ".join(_fmt_opt(o) for o in d["options"]))
                L.append("    choice: ''   # write one of the legal choices")
    elif state["phase"] == "end":
        L.append("# The game is over.")
    elif (state.get("awaiting") or {}).get("player") != player:
        L.append(f"# Nothing is awaiting you: the game waits for the {state['awaiting']['player']} player ({state['phase']}).")
        L.append("# You may still send standing orders (below): the game master adjudicates this file together with")
        L.append(f"# the {state['awaiting']['player']} player's orders, and they answer your decisions in that player's turn.")
    else:
        L.append("phases:")
        work = copy_json(state)
        pg = rs.play.rule("pregame_die")
        if pg and "pregame" not in state:
            L.append(f"  # BEFORE PLAY (DG2 15.22): pbem rolls the pre-game die when these orders are adjudicated; on"
                     f" {', '.join(str(v) for v in pg['lost_on'])} the {rs.play.title(pg['player_turn'])} loses his player-turn of turn {pg['turn']}"
                     " and these orders are not carried out.")
        for ph in player_phases(work, turn_phases(rs, work)):
            L += _phase_block(rs, work, ph, player)
    L.append("# Standing orders answer your mid-phase decisions in advance (retreats, Ex losses, advances, ...),")
    L.append("# also in the other players' turns. Set them once: they stay in force for the whole campaign until")
    L.append("# you change them (the values below are yours now; `pbem new --auto-decisions` or")
    L.append("# `--standing ROLE:KEY=VALUE` sets them at the start). With `ask` the adjudication stops and waits for you.")
    st = state.get("standing", {}).get(player, {})
    L.append("standing:")
    for k, allowed in standing_keys_of(rs, player).items():    # only those this player can be asked
        L.append(f"  {k}: {st.get(k, 'ask')}   # {' | '.join(allowed)}")
    return "\n".join(L) + "\n"


def _fmt_context(c) -> str:
    """A decision's context as YAML-like text, not a Python repr."""
    if isinstance(c, dict):
        return "{" + ", ".join(f"{k}: {_fmt_context(v)}" for k, v in c.items()) + "}"
    if isinstance(c, list):
        return "[" + ", ".join(_fmt_context(v) for v in c) + "]"
    return str(c)


def _fmt_opt(o) -> str:
    if isinstance(o, list):
        return "[" + ", ".join(o) + "]"
    return str(o)


def _phase_block(rs: Ruleset, state: dict, phase: str, player: str) -> list[str]:
    force, step = split(phase)
    board = Board(rs, state)
    ctx = Ctx(rs=rs, board=board, turn=state["turn"], phase=phase, player=player, validating=True)
    L = [f"  - phase: {phase}"]
    if step == "replacement":
        L += _replacement_lines(ctx, force, player)
    elif step == "movement":
        L += _movement_lines(ctx, player)
    else:
        L += _combat_lines(ctx, force)
    return L


def _replacement_lines(ctx: Ctx, force: str, player: str) -> list[str]:
    rs, state = ctx.rs, ctx.state
    L: list[str] = []
    s = replacement_summary(ctx, force)
    L.append(f"    # {FORCE_TITLES[force]} replacements this turn: " + ", ".join(f"{b} {n}" for b, n in s["allotment"].items()) + " (DG2 7.2)")
    for b, us in s["boxes"].items():
        L.append(f"    # {b} box: " + (", ".join(f"{u} {rs.units[u].strength}" for u in us) or "empty"))
        if us:
            L.append(f"    #   entry hexes: {', '.join(s['entry'][b]) or 'none'}"
                     + (f" (not {', '.join(s['full'][b])}: already two units there, 5.3)" if s["full"].get(b) else ""))
    if any(f in ("soviet", "east-german", "west-german") for f in phase_forces(ctx)):
        # 7.21: equally weak units are the owner's choice; without `unit` pbem asks unless
        # the standing order replacement_ties is auto (then the first by id comes back)
        tie = (state.get("standing", {}).get(player, {}).get("replacement_ties", "ask"))
        L.append("    # weakest attack strength first (7.21); leave `unit` out to take the weakest: "
                 + ("if several are equally weak the first by id (standing order replacement_ties: auto)" if tie == "auto"
                    else "if several are equally weak pbem stops and asks you (standing order replacement_ties: ask)"))
    L.append("    replacements: []   # e.g. - {unit: ID, hex: 'RRCC'}")
    if "east-german" in phase_forces(ctx) and courland_units(ctx, "german"):
        L.append(f"    # Courland (8.0): German units there: {', '.join(courland_units(ctx, 'german'))}; ports free: "
                 + (', '.join(f"{rs.cities[h].name} {h}" for h in ports(ctx)) or "none (each holds enemy units or two units, 5.3): no unit can leave now"))
        L.append("    # courland_exit: {unit: ID, port: Stettin}   # die roll 1 sinks it")
    if "soviet" in phase_forces(ctx) and courland_units(ctx, "soviet") and not courland_units(ctx, "german") \
            and not state.get("flags", {}).get("courland_closed"):
        L.append(f"    # Courland (8.0): {', '.join(courland_units(ctx, 'soviet'))} may enter at {', '.join(rs.courland_entry)}"
                 " - IN THIS PHASE ONLY (the next Soviet replacement phase after the Germans left); otherwise they stay in Courland")
        L.append("    # courland_entry: [{unit: ID, hex: '3523'}]")
    return L


def _movement_lines(ctx: Ctx, player: str) -> list[str]:
    rs, board, state = ctx.rs, ctx.board, ctx.state
    L: list[str] = []
    L.append("    # a move: path = every hex entered, or to = goal")
    L.append("    # unit           at    MP  strength  notes")
    for uid in board.on_map_units():
        if board.force(uid) not in phase_forces(ctx) or board.controller(uid) != player:
            continue
        u = board.units[uid]
        notes = []
        if board.in_enemy_zoc(board.at(uid), board.camp(uid)):
            notes.append("in enemy ZOC")
        if u.get("garrison"):
            notes.append("garrison: may not move")
        if rs.units[uid].is_front:
            notes.append("Front")
        for ob in obligations(u):
            by = f" of turn {ob['turn']}" if ob.get("turn") else ""
            notes.append(f"must return ({ob['rule']}) to {ob['to']} by the end of {ob['check']}{by}")
        if u.get("ss_half"):
            notes.append("SS: half attack and movement (13.2)")
        L.append(f"    # {uid:<14} {board.at(uid)}  {allowance(ctx, uid):>2}  {rs.units[uid].strength:<8}  {', '.join(notes)}")
    if rs.play.rule("triple_move") and any(board.camp(u) == "german" for u in board.on_map_units()
                                           if board.force(u) in phase_forces(ctx)):
        L.append("    # 16.32: ONE German unit may move with triple its printed allowance (add `triple: true` to its move);"
                 " it must cross the German Theater Boundary and end on the other side, not starting or ending in an enemy ZOC")
    if "soviet" in phase_forces(ctx):
        for g in due_garrisons(rs, state):
            when = "the end of THIS phase" if g["due"] <= state["turn"] else f"the end of the Soviet movement phase of turn {g['due']}"
            L.append(f"    # GARRISON DUE (DG2 10.0): a Front must stand in {g['city']} ({g['hex']}) at {when};"
                     " if none does, the city can never be garrisoned and gives no Soviet VP (10.1)")
    L.append("    moves: []   # e.g. - {unit: ID, path: ['RRCC', 'RRCC']}  or  - {unit: ID, to: 'RRCC'}")
    return L


def _combat_lines(ctx: Ctx, force: str) -> list[str]:
    rs, board, state = ctx.rs, ctx.board, ctx.state
    L: list[str] = []
    allowed = targets_of(ctx, force)
    L.append(f"    # {FORCE_TITLES[force]} units may attack {', '.join(FORCE_TITLES[f] for f in allowed)} units (DG2 3.0, 6.3, 6.4).")
    if (force == "west-german" and state["turn"] == 1 and state.get("scenario_rules", {}).get("t1_west_german_attacks")
            and not state.get("options", {}).get("german_east_front")):
        L.append(f"    # TURN 1: the West Germans MUST make at least {rs.rulings['t1_west_german_attacks']['value']} attacks"
                 " on Western Allied units (DG2 12.2.1).")
    if not rs.play.rule("polish_attack_each_other"):
        L.append("    # Polish exile and Polish communist units may not attack each other (DG2 15.26).")
    L.append("    # Enemy hexes next to your units now (your moves may change this):")
    seen = set()
    acting = phase_forces(ctx)
    mine = [a for a in board.on_map_units() if board.force(a) in acting]
    for uid in mine:
        for n in rs.neighbours(board.at(uid)):
            us = board.units_in(n)
            if n in seen or not us or not all(board.force(x) in allowed for x in us):
                continue
            seen.add(n)
            adj = [a for a in mine if rs.grid.adjacent(board.at(a), n)]
            # What doubles the defence (6.8-6.83): the terrain, an intact fortress held by
            # Germans, and the river each attacker would cross (it counts only if all do).
            feats = [rs.terrain[n]]
            if n in rs.fortresses and n not in state["fortresses_destroyed"] and any(board.city_side(x) == "german" for x in us):
                feats.append("fortress")
            elif n in rs.fortresses:
                feats.append("fortress destroyed")
            if n in rs.cities:
                feats.append(rs.cities[n].name)
            def _who(a, n=n):
                r = rs.hexside_river(board.at(a), n)
                return f"{a} (across the {r})" if r else a
            L.append(f"    #   {n}: " + ", ".join(f"{x} {rs.units[x].strength}" for x in us)
                     + f" [{', '.join(feats)}] - next to: {', '.join(_who(a) for a in adj)}")
    L.append("    attacks: []   # e.g. - {target: 'RRCC', units: [ID, ID], advance: ask, retreats: {ID: 'RRCC'}}")
    return L
