"""What BlitzWAR says in words: `pbem show` (summary), `pbem orders template`, event lines of
reports. Pure text, no YAML library."""
from __future__ import annotations

from fractions import Fraction

from ..core.errors import choice_text
from .air import show_lines as air_show_lines, template_lines as air_lines
from .cards import summary as cards_summary
from .context import LAND, SIDES, Ctx, fmt_supply, nation_side, strategic_points, surrendered_countries
from .diplomacy import is_neutral, neutral_zone, war_lines
from .land import control, cost_of, enemies, side_of
from .movement import TACTICAL
from .replacements import summary_lines as cards_lines, template_lines
from .sequence import orderable, phase_title, players_of_phase, side_of_phase, step_of
from .standing import keys_for
from .supply import supply_counter_left
from .victory import show_lines

SIDE_TITLE = {"axis": "Axis", "allies": "Allies", "ussr": "USSR"}
SHORT = {"infantry": "I", "armour": "C", "white-tank": "W", "air": "A", "fleet": "F", "uboat": "U", "supply": "S"}


def _ctx(w, state) -> Ctx:
    return Ctx(rs=w, state=state, turn=state["turn"], phase=state["phase"], side=side_of_phase(state["phase"]) or None)


#: the letters of the counter types in `pbem show`, the templates and the set-up zones (19):
#: A is air, not armour (armour is C, tank corps)
LETTERS = "I infantry, C armour (tank corps), W white tank (infantry + armour), A air, F fleet, U U-boat, S supply"
COUNTERS_KEY = (f"counters: id, nation, type letter and the corps or units it holds now ({LETTERS}); the number in "
                "an id is its counter's printed face, not what it holds now: ger-i3-2 I2 (of 3) is a 3-corps counter "
                "holding 2")


def face_units(w, c: dict) -> int | None:
    """The units printed on the counter's face (its kind in the nation's mix), None if unknown."""
    kinds = getattr(w, "counters", {}).get(c.get("nation"))
    k = c.get("kind")
    if not kinds or not isinstance(k, int) or not 0 <= k < len(kinds):
        return None
    try:
        return int(kinds[k].units)
    except (TypeError, ValueError):
        return None


def counter_text(w, cid: str, c: dict) -> str:
    """A counter as `show` and the templates list it: its id, nation, type letter and what it
    holds now; "(of N)" when that is not its face, so that the id never reads as its strength."""
    t = SHORT[c["type"]] + str(c["units"])
    face = face_units(w, c)
    if face is not None and c["type"] != "supply" and str(face) != str(c["units"]):
        t += f" (of {face})"
    if c["type"] == "white-tank":
        t = f"W{c['units']}({c['infantry']}I+{c['armour']}C)"
    if c["type"] == "supply" and c.get("spent"):
        t += f"(left {fmt_supply(supply_counter_left(c))})"
    flags = [f for f in ("elite", "entrenched", "out_of_supply", "active", "strategic") if c.get(f)]
    return f"{cid} {c['nation']} {t}" + (f" [{', '.join(flags)}]" if flags else "")


def summary(w, state) -> dict:
    ctx = _ctx(w, state)
    t = w.turns.get(state["turn"])
    forces: dict[str, dict] = {}
    for cid, c in sorted(state["counters"].items()):
        s = side_of(ctx, cid)
        e = forces.setdefault(s, {"counters": 0, "corps": 0, "supply_counters": "0", "pool": 0, "out": 0, "by_zone": {}})
        if c["at"] in ("pool", "out"):
            # 9.2: a surrendered country's counters are out of the game, not in the pool (11.5 takes none)
            e["pool" if c["at"] == "pool" else "out"] += 1
            continue
        e["counters"] += 1
        if c["type"] in LAND:
            e["corps"] += int(c["units"])
        if c["type"] == "supply":
            e["supply_counters"] = fmt_supply(Fraction(e["supply_counters"]) + supply_counter_left(c))
        e["by_zone"].setdefault(c["at"], []).append(counter_text(w, cid, c))
    points = strategic_points(w, state)      # the rules' count, as the map's track (9.3, 18)
    nxt: list[dict] = []
    for tt in w.turn_list:
        if tt > state["turn"] and w.turns[tt].marks and len(nxt) < 4:
            nxt.append({"turn": tt, "date": f"{w.turns[tt].season} {w.turns[tt].year}", "marks": list(w.turns[tt].marks)})
    return {
        "turn": state["turn"], "last_turn": w.last_turn,
        "date": f"{t.season} {t.year}, turn {t.half} of the season ({t.months})" if t else "",
        "weather": t.weather if t else "",
        "phase": state["phase"], "phase_title": phase_title(state["phase"]),
        "acting": players_of_phase(state, state["phase"]),
        "sides": dict(state["sides"]),
        "supply": dict(state["supply"]),
        "strategic_points": points,
        "forces": forces,
        "war": {k: v for k, v in state["war"].items() if v != "neutral"
                and k not in surrendered_countries(state)},   # 9.2: surrendered countries are listed apart
        "surrendered": surrendered_countries(state),
        "next_events": nxt,
        "setup_choices": dict(state.get("setup_choices", {})),
        "cards": cards_summary(w, state),
    }


def summary_lines(w, state, *, units: bool = True) -> list[str]:
    s = summary(w, state)
    out = [f"turn {s['turn']} of {s['last_turn']}: {s['date']}; weather {s['weather']} (6)",
           f"phase: {s['phase']} - {s['phase_title']}; awaiting: {', '.join(s['acting']) or 'nobody'}",
           "sides: " + ", ".join(f"{SIDE_TITLE[k]} played by {v}" for k, v in s["sides"].items()),
           "at war: " + ", ".join(f"{k} ({v})" for k, v in sorted(s["war"].items()))]
    out += war_lines(w, state)
    out += show_lines(w, state)
    if units:
        out.append(COUNTERS_KEY)
    for side in SIDES:
        f = s["forces"].get(side, {"counters": 0, "corps": 0, "supply_counters": "0", "pool": 0, "by_zone": {}})
        out.append(f"{SIDE_TITLE[side]}: supply held {s['supply'].get(side, '0')}, on the map in supply counters "
                   f"{f['supply_counters']} (7); strategic points {s['strategic_points'][side]}; "
                   f"{f['counters']} counters ({f['corps']} land corps), {f['pool']} in the pool"
                   + (f", {f['out']} out of the game (surrendered countries', 9.2)" if f.get("out") else ""))
        if units:
            for z, cs in sorted(f["by_zone"].items()):
                out.append(f"  {z}: " + "; ".join(cs))
    out += cards_lines(w, state)
    from .seacontrol import sea_control_map  # 12.3: the sea control in force
    sc = sea_control_map(state)
    out.append("sea control (12.3): " + (", ".join(f"{w.seas[k].name if k in w.seas else k} {v}" for k, v in sorted(sc.items()))
                                         or "no sea zone"))
    out += air_show_lines(state)          # 13: air superiority, air at sea, beachheads, bombing (only when any)
    f = s["forces"].get("neutral")
    if f:
        out.append(f"neutral: {f['counters']} counters ({f['corps']} land corps)")
        if units:
            # what stands in a neutral country is what an attack on it (9.3) meets
            for z, cs in sorted(f["by_zone"].items()):
                out.append(f"  {z}: " + "; ".join(cs))
    for ch, st in s["setup_choices"].items():
        if st == "default":
            out.append(f"set-up choice {ch}: default placement (the owner may re-place it in the turn-1 orders, 19)")
    if s["next_events"]:
        out.append("calendar: " + "; ".join(f"turn {e['turn']} ({e['date']}): {', '.join(e['marks'])}" for e in s["next_events"]))
    return out


# ------------------------------------------------------------------------------ templates
def q(s) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def template(w, state, player: str, *, schema_ref: str, state_file: str) -> str:
    L = [f"# yaml-language-server: $schema={schema_ref}",
         f"# BlitzWAR - campaign {state['campaign']} - orders of the {player} player "
         f"(sides: {', '.join(s for s, p in state['sides'].items() if p == player)})",
         f"# Turn {state['turn']} ({w.turns[state['turn']].season} {w.turns[state['turn']].year}, weather "
         f"{w.turns[state['turn']].weather}), state file {state_file}",
         "# Check it with: pbem validate STATE THIS_FILE",
         "schema: pbem/orders/v1", "game: blitzwar", f"campaign: {q(state['campaign'])}", f"player: {player}",
         f"turn: {state['turn']}", f"state: {state['hash']}"]
    pend = state.get("pending") or []
    mine = [d for d in pend if d["player"] == player]
    if mine:
        L.append("decisions:")
        for d in mine:
            L.append(f"  - id: {d['id']}")
            L.append(f"    # {d['prompt']}")
            if "options" in d:
                L.append("    # legal choices: " + " | ".join(choice_text(o) for o in d["options"]))
            L.append("    choice: ''   # write one of the legal choices"
                     + ("; a counter's id alone stands for its corps when only one choice fits"
                        if any(isinstance(o, list) and any("/" in str(t) for t in o) for o in d.get("options") or []) else ""))
    elif pend:
        L.append(f"# Nothing is awaiting you: the game waits for decisions of {', '.join(sorted({d['player'] for d in pend}))}.")
    elif state["phase"] == "end":
        L.append("# The game is over.")
    else:
        phases = orderable(w, state, player)
        if not phases or (state.get("received") or {}).get(player):
            aw = state.get("awaiting") or []
            aw = [aw] if isinstance(aw, dict) else aw
            L.append(f"# Nothing is awaiting you: the game waits for {', '.join(a['player'] for a in aw) or 'nobody'} "
                     f"({state['phase']})" + (": your orders for this phase are in." if (state.get("received") or {}).get(player) else "."))
        else:
            L.append("# One file may give the orders of several consecutive phases; phases left out are played with no orders.")
            L.append("phases:")
            for ph in phases:
                L += _phase_block(w, state, ph, player)
    if state["phase"] != "end":
        L += _standing_block(state, player)
    return "\n".join(L) + "\n"


def _standing_block(state, player: str) -> list[str]:
    """The player's standing orders now, with the values each key takes (issue 16, item 4)."""
    st = (state.get("standing") or {}).get(player, {})
    L = ["# Standing orders answer your mid-battle decisions in advance (losses, retreats, advances, the German",
         "# defence shift, naval losses 12.2, interceptions of air units 13.2), also in the other sides' turns. They stay in force until you change them (the values",
         "# below are yours now). With `ask` the adjudication stops and waits for your answer.",
         "standing:"]
    for k, allowed in keys_for(player).items():
        L.append(f"  {k}: {st.get(k, 'ask')}   # {' | '.join(allowed)}")
    return L


def _phase_block(w, state, ph: str, player: str) -> list[str]:
    L = [f"  - phase: {ph}   # {phase_title(ph)}"]
    step = step_of(ph)
    if step == "diplomacy":
        L.append("    # 9.2, 9.3: surrender and activation of countries are checked at the start of the turn and need no "
                 "orders (the Axis' optional rolls are asked as decisions)")
    if ph == "1.diplomacy" and state["turn"] == w.first_turn:
        L += _setup_choice_lines(w, state, player)
    if step in ("cards", "replacements"):
        L += template_lines(w, state, ph, player)
    if step == "sea-transport":
        # loaded for a template only, not by `pbem show` (start-up)
        from .transport import template_lines as transport_lines
        L += transport_lines(w, state, ph)
    if step in ("replacements", "sea-transport"):
        L.append("    # 11.10: reorganise: [{counters: [ID, ...], into: [{type: infantry, units: 3}, ...]}] (same corps, free; "
                 + ("after the replacements are placed" if step == "replacements" else "after the transports, 14.2") + ")")
        L.append("    #        remove: [ID]   (your counters off the map to the pool, free)")
    if step == "naval":
        # loaded for a template only, not by `pbem show` (start-up)
        from .naval import template_lines as naval_lines
        L += naval_lines(w, state, ph)          # 12
    if step == "air":                 # 13 (pbem/blitzwar/air.py)
        ctx = _ctx(w, state)
        ctx.side = side_of_phase(ph)
        L += air_lines(ctx)
    if step == "movement":
        L += _movement_lines(w, state, ph)
    elif step in ("blitz", "combat"):
        L += _combat_lines(w, state, ph, step)
    return L


def _setup_choice_lines(w, state, player: str) -> list[str]:
    """19: the set-up choices the player still has, with their default written in."""
    L: list[str] = []
    for ch in w.choices:
        if state["sides"][ch["owner"]] == player and state.get("setup_choices", {}).get(ch["id"]) == "default":
            L.append(f"    # 19: {ch['title']} ({sum(k.count for k in w.counters[ch['nation']] if k.available == 'start')} counters: "
                     + ", ".join(f"{k.count} x {k.type} {k.units}" for k in w.counters[ch['nation']] if k.available == 'start')
                     + "); leave it out to keep the default below")
            L.append(f"    # zones of {ch['country']}: {', '.join(w.country_zones(ch['country']))}")
            L.append("    # letters (19): I infantry corps, C armour corps, S supply units, A air units (not armour), "
                     "U U-boats, F fleets")
            L.append("    setup:")
            L.append(f"      {ch['id']}:")
            for z, u in ch["default"]["zones"].items():
                L.append(f"        {z}: {{{', '.join(f'{k}: {v}' for k, v in u.items() if k in 'ICSAUF')}}}")
    return L


def _movement_lines(w, state, ph: str) -> list[str]:
    """7, 15: the movement phase's entry: costs, the order forms, the side's counters."""
    L: list[str] = []
    ctx = _ctx(w, state)
    ctx.side = side_of_phase(ph)
    side = ctx.acting_side      # a template of a side's phase (4-9)
    own = sorted(c for c, v in state["counters"].items() if v["at"] in w.zones and side_of(ctx, c) == side
                 and v["type"] in TACTICAL)
    L.append(f"    # supply held by the {side} side: {state['supply'].get(side, '0')}; costs (7): 1 a counter, 1/2 a one-corps "
             "counter, strategic x2, entrenching 2")
    L.append("    # entrench: [counter]            # 15.1 (German anywhere; British in Malta, Gibraltar, Tobruk; 1 corps a turn)")
    L.append("    # strategic: [{counter: ID, path: [ZONE, ...]}]   # 15.2 through zones you control")
    L.append("    # moves: [{counter: ID, path: [ZONE, ...], pay: held|SUPPLY-COUNTER}]   # 15.3 infantry 3, armour/supply 5 zones")
    L.append("    # activate: [{counter: ID}]      # 15.3 units next to the enemy that did not move")
    L.append("    # reorganise: [{counters: [ID, ...], into: [{type: infantry, units: 3}, ...]}]   # 11.10 same corps, free")
    L.append("    # remove: [ID]                    # 11.10 your counters off the map to the pool, free")
    L += _neutral_hint(w, state, ctx, side)
    L.append("    # your counters (id nation type, zone, cost of a tactical move; next to the enemy: *):")
    _, enemy_here = _enemy_index(state, ctx, side)
    for c in own[:400]:
        v = state["counters"][c]
        star = "*" if any(enemy_here(z) for z in w.zones[v["at"]].links) else ""
        L.append(f"    #   {counter_text(w, c, v)} @ {v['at']}{star} cost {fmt_supply(cost_of(v))}")
    L += _neighbour_lines(w, state, ctx, side, enemy_only=False)
    L.append("    moves: []")
    return L


def _combat_lines(w, state, ph: str, step: str) -> list[str]:
    """6, 16, 17: a blitz or combat phase's entry: weather, the order forms, the active counters."""
    L: list[str] = []
    sec = "16" if step == "blitz" else "17"
    weather = w.turns[state["turn"]].weather
    if step == "blitz" and weather == "mud":
        L.append("    # NO BLITZ THIS TURN: mud (6); attack, and make one-zone moves (17.4), in the normal combat phase")
    elif step == "blitz" and weather == "snow":
        need = "soviet-blitz" if side_of_phase(ph) == "ussr" else "allied-german-blitz"
        if need not in w.marks_by(state["turn"]):
            L.append(f"    # snow (6): no blitz against a zone in snow before the {need} mark; only zones of mild climate")
    L.append(f"    # {sec}: attacks by counters activated in the movement phase (15.3), each entry:")
    L.append("    #   - {target: ZONE, counters: [ID, ...], losses: infantry-first|armour-first|[ID/kind, ...],")
    L.append("    #      advance: none|all|ask|[ID, ...], exploit: {ID: [ZONE, ...]}}   # losses/advance/exploit optional")
    if step == "combat":
        L.append("    # 17.1: a blitz that left defenders is fought on here by its attackers: pbem makes that attack (or adds")
        L.append("    #   them to yours on the zone) without being told; an attack elsewhere by one of them is refused, or")
        L.append("    #   void once the blitz's dice are rolled")
    L.append("    # Once a die of this file is rolled nothing is refused: an order the dice make no longer fit (a move")
    L.append("    #   into a zone a retreat filled, ...) is void and the phase goes on; pbem validate says what it checked")
    L.append(f"    # moves: [{{counter: ID, to: ZONE}}]   # the one-zone move ({'16.5' if step == 'blitz' else '17.4'})")
    ctx = _ctx(w, state)
    ctx.side = side_of_phase(ph)
    side = ctx.acting_side      # a template of a side's phase (4-9)
    active = sorted(c for c, v in state["counters"].items() if v.get("active") and side_of(ctx, c) == side)
    L += _neutral_hint(w, state, ctx, side)
    if active:
        L.append("    # active now: " + ", ".join(f"{c} @ {state['counters'][c]['at']}" for c in active))
    L += _neighbour_lines(w, state, ctx, side, enemy_only=True)
    L.append("    attacks: []")
    if step == "combat":
        L.append("    # 17.5: after the marking, units marked out of supply may move one zone free:")
        L.append("    # out_of_supply_moves: [{counter: ID, to: ZONE}]")
    return L


def _enemy_index(state, ctx, side: str):
    """(zone -> counters, zone -> holds enemy land units): land.enemy_land() from one pass over
    the counters, for the templates (they stay fast with a line per zone)."""
    by_zone: dict[str, list[str]] = {}
    for c, v in state["counters"].items():
        by_zone.setdefault(v["at"], []).append(c)
    hostile: dict[str, bool] = {}

    def enemy_here(n: str) -> bool:
        if n not in hostile:
            hostile[n] = any(state["counters"][c]["type"] in LAND and enemies(side, side_of(ctx, c)) for c in by_zone.get(n, []))
        return hostile[n]
    return by_zone, enemy_here


def _zone_brief(w, state, ctx, z: str, side: str | None, by_zone: dict[str, list[str]]) -> str:
    """``lodz (allies: pol-i1-1 POL I1)``: a zone, who controls it and what stands there (the
    other sides' counters named; the side's own counted)."""
    owner = control(ctx, z)
    here = by_zone.get(z, [])
    theirs = [c for c in here if side is None or side_of(ctx, c) != side]
    mine = len(here) - len(theirs)
    what = "; ".join(f"{c} {counter_text(w, c, state['counters'][c]).split(' ', 2)[2]}" for c in sorted(theirs))
    bits = [owner] + ([what] if what else []) + ([f"{mine} of yours"] if mine and side else [])
    return f"{z} ({': '.join(bits[:2])}{'; ' + bits[2] if len(bits) > 2 else ''})"


def _neighbour_lines(w, state, ctx, side: str, *, enemy_only: bool) -> list[str]:
    """The zones next to the side's land units, zone by zone (as Battle for Germany's template
    lists the enemy hexes next to your units): each with who controls it and what stands there.
    ``enemy_only``: only zones holding enemy land units (what may be attacked)."""
    by_zone, enemy_here = _enemy_index(state, ctx, side)
    own = sorted({v["at"] for c, v in state["counters"].items() if v["at"] in w.zones and v["type"] in LAND
                  and side_of(ctx, c) == side})
    briefs: dict[str, str] = {}
    out = []
    for z in own:
        near = [n for n in w.zones[z].links if not enemy_only or enemy_here(n)]
        if near:
            out.append(f"    #   {z}: " + ", ".join(briefs.get(n) or briefs.setdefault(n, _zone_brief(w, state, ctx, n, side, by_zone))
                                                   for n in near))
    if not out:
        return []
    head = ("    # enemy zones next to your land units now (your zone: the enemy zones next to it):" if enemy_only else
            "    # zones next to your land units now (your zone: each zone next to it, who controls it, what stands there; "
            "pbem show STATE --zone Z tells more):")
    return [head] + out


def zone_lines(w, state: dict, zone: str) -> list[str] | None:
    """`pbem show STATE --zone Z`: the zone, who controls it and what stands there, then every
    zone next to it (land links, with river and fortress-line edges), and its coasts; None for
    a zone that is not on the map."""
    z = w.zones.get(zone) or w.zone_named(zone)
    if z is None:
        return None
    ctx = _ctx(w, state)

    def line(zid: str) -> str:
        x = w.zones[zid]
        here = sorted(c for c, v in state["counters"].items() if v["at"] == zid)
        units = "; ".join(counter_text(w, c, state["counters"][c]) for c in here) or "empty"
        feats = [x.terrain] + (["fortress"] if x.fortress else []) + ([f"strategic point ({x.strategic})"] if x.strategic else [])
        return f"{zid} ({x.name}, {x.country}) - {control(ctx, zid)} - {', '.join(feats)}: {units}"
    out = [line(z.id), f"next to {z.id} ({len(z.links)} zones by land):"]
    for n in z.links:
        edge = [e for e, on in (("across a river", n in z.rivers), ("across a fortress line", n in z.fortress_line)) if on]
        out.append(f"  {line(n)}" + (f" [{', '.join(edge)}]" if edge else ""))
    if z.blue:
        out.append("blue dashed lines (12.1) to: " + ", ".join(z.blue))
    if z.coasts:
        out.append("coasts: " + ", ".join(z.coasts) + (" (port)" if z.port else ""))
    return out


def _neutral_hint(w, state, ctx, side) -> list[str]:
    """9.3: a commented attack_neutral line when a neutral country borders the side's units."""
    near: list[str] = []
    for v in state["counters"].values():
        if v["at"] in w.zones and v["type"] in LAND and nation_side(w, ctx.state, v["nation"]) == side:
            near += [w.zones[z].country for z in w.zones[v["at"]].links if neutral_zone(ctx, z) and is_neutral(ctx, w.zones[z].country)]
    near = sorted(set(near))
    if not near:
        return []
    return [f"    # attack_neutral: [{', '.join(near)}]   # 9.3: consent to enter/attack these neutrals this phase "
            f"(they join the {'allies' if side == 'axis' else 'axis'}); without it such orders are refused"]
