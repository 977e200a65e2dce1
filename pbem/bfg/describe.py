"""Plain-language lines for the events of a Battle for Germany adjudication (the report)."""
from __future__ import annotations

from .sequence import FORCE_TITLES, PLAYER_TITLES, phase_title
from .victory import explain


def _u(rs, uid) -> str:
    if uid is None:
        return "-"
    d = rs.units.get(uid)
    return f"{uid} ({d.strength})" if d else str(uid)


def _hex(rs, h) -> str:
    c = rs.cities.get(h)
    return f"{h} {c.name}" if c else str(h)


def _how(ev: dict, standing: str = "auto") -> str:
    """Who took a mid-phase decision and how, in words."""
    how = ev.get("chosen_by")
    player = ev.get("player")
    who = PLAYER_TITLES.get(player, player) if player else "player"
    if how == "only option":
        return "the only legal choice"
    if how and how.startswith("standing order "):
        return f"{who}'s {how}"
    if how == "order":
        return f"{who}'s attack order"
    if how == "answer":
        return f"{who}'s answer"
    return f"{who}: {how}"


def _from(ev: dict) -> str:
    """Where a move, retreat or advance started (``frm`` in reports written before the rename)."""
    return ev["from"] if "from" in ev else ev["frm"]


def _result_text(ev: dict) -> str:
    return ev.get("result_text", "")


# One renderer per event type: (ruleset, event) -> text lines, the first line the headline.
# An event type without a renderer is listed with its fields (``_generic``).

def _phase(rs, ev):
    return [f"Turn {ev['turn']} ({ev.get('date', '')}) - {phase_title(ev['phase'])} - {PLAYER_TITLES.get(ev['player'], ev['player'])}"]


def _pregame(rs, ev):
    r = ev["roll"]
    return [f"pre-game die [{r['label']}] = {r['value']}: {ev['text']} ({ev['rule']})"]


def _orders_void(rs, ev):
    return [f"{ev['text']} ({ev['rule']})"]


def _move(rs, ev):
    path = " ".join(ev["path"]) if ev["path"] else "(stays)"
    extra = " (path chosen by pbem)" if ev.get("auto_path") else ""
    if ev.get("triple"):
        extra += " (triple movement across the boundary, 16.32)"
    ex = f", leaves the map ({ev['exit']} edge, +4 MP)" if ev.get("exit") else ""
    return [f"move {_u(rs, ev['unit'])}: {_from(ev)} -> {path}  [{ev['cost']}/{ev['allowance']} MP]{extra}{ex}"]


def _combat(rs, ev):
    lines = [f"attack {ev['n']} on {', '.join(_hex(rs, h) for h in ev['targets'])}"]
    att = " + ".join(f"{a['unit']} {a['attack']}" for a in ev["attackers"])
    lines.append(f"  attackers: {att} = {ev['attack']}")
    for hx in ev["hexes"]:
        feats = ", ".join(f"{f['feature']} x{f['x']}" for f in hx["features"]) or "no terrain effect"
        us = " + ".join(f"{u} {rs.units[u].defense}" for u in hx["units"])
        lines.append(f"  defenders in {hx['hex']}: {us} = {hx['base']}; {feats} -> x{hx['multiplier']} = {hx['defense']}")
    if ev.get("column") is None:
        lines.append(f"  odds {ev['odds']}: below the lowest column -> {ev['result']} (no die)")
    else:
        r = ev["roll"]
        lines.append(f"  odds {ev['odds']} -> column {ev['column']}; die [{r['label']}] = {r['value']} -> {ev['result']}: {_result_text(ev)}")
    for p in ev.get("provisional", []):
        if p:
            lines.append(f"  provisional data decided this: {p['item']} (see the list at the end)")
    return lines


def _eliminated(rs, ev):
    where = f"to the {ev['box']} box" if ev.get("box") else "for good (never replaced, 7.12)"
    return [f"  eliminated {_u(rs, ev['unit'])} at {ev['hex']}, {where} - {ev['reason']}"]


def _retreat(rs, ev):
    if ev.get("eliminated"):
        return []  # the `eliminated` event that follows says "could not retreat (6.23)"
    by = f" ({_how(ev)})"
    lines = [f"  retreat {_u(rs, ev['unit'])}: {_from(ev)} -> {' -> '.join(ev['path'])}{by}"]
    for p in ev.get("provisional", []):
        if p:
            lines.append(f"  provisional data decided this: {p['item']}")
    return lines


def _retreat_ignored(rs, ev):
    return [f"  {_u(rs, ev['unit'])} garrisons {ev['hex']} and ignores the retreat (10.3)"]


def _advance(rs, ev):
    if not ev.get("unit"):
        return [f"  no advance after attack {ev['combat']} ({_how(ev, standing='none')})"]
    return [f"  advance {_u(rs, ev['unit'])}: {_from(ev)} -> {ev['to']} ({_how(ev)})"]


def _ex_losses(rs, ev):
    return [f"  exchange losses (printed attack at least the defenders' printed defence {ev['need']}): {', '.join(ev['units'])} ({_how(ev)})"]


def _replacement(rs, ev):
    extra = []
    if ev.get("double_move"):
        extra.append("double movement this turn (7.22)")
    if ev.get("in_zoc"):
        extra.append("in enemy ZOC: may not move this phase (7.26)")
    if ev.get("changed_side"):
        extra.append(f"enters as {FORCE_TITLES[ev['force']]} (7.24)")
    return [f"replacement {_u(rs, ev['unit'])} from the {ev['box']} box enters at {_hex(rs, ev['hex'])}" + (f"; {'; '.join(extra)}" if extra else "")]


def _replacement_lost(rs, ev):
    return [f"replacement {_u(rs, ev['unit'])} is lost: {ev['text']}"]


def _replacements_unused(rs, ev):
    return [f"unused replacements lost (7.2): {ev['unused']}"]


def _courland(rs, ev):
    r = ev["roll"]
    return [f"Courland: {_u(rs, ev['unit'])} leaves, die [{r['label']}] = {r['value']}: {ev.get('result', '')}"]


def _courland_entry(rs, ev):
    return [f"Courland: {_u(rs, ev['unit'])} enters at {ev['hex']}"]


def _courland_cleared(rs, ev):
    return [f"Courland: {ev['text']}"]


def _fortress_destroyed(rs, ev):
    return [f"  fortress {ev['hex']} destroyed by {ev['unit']} (6.83)"]


def _control(rs, ev):
    return [f"city {ev['city']} ({ev['hex']}): {ev['old'] or '-'} -> {ev['new']}"]


def _vp(rs, ev):
    return [f"victory points: Soviet {ev['soviet']}, Western Allies {ev['western']}"] + ["  " + x for x in explain(ev)]


def _change_side(rs, ev):
    if ev.get("rule") == "DG2 13.2":
        return [f"  {_u(rs, ev['unit'])} at {ev['hex']}: {ev['text']} (13.2)"]
    if ev.get("rule", "DG2 5.41") != "DG2 5.41":
        return [f"  {_u(rs, ev['unit'])} is now across the boundary at {ev['hex']}: {FORCE_TITLES[ev['new']]} ({ev['rule'][4:]}), run by the {ev['controller']} player"]
    return [f"  {_u(rs, ev['unit'])} crossed the boundary in retreat: now {FORCE_TITLES[ev['new']]} (5.41), run by the {ev['controller']} player"]


_OBLIGATION_TEXT = {"obligation-met": "has returned", "obligation-failed": "did not return in time"}


def _obligation(rs, ev):
    txt = _OBLIGATION_TEXT.get(ev["type"]) or ev.get("text", "")
    return [f"  {_u(rs, ev['unit'])} {txt} ({ev['rule']})"]


def _garrison(rs, ev):
    return [f"{_u(rs, ev['unit'])} garrisons {ev['city']} (10.0)"]


def _garrison_missing(rs, ev):
    return [f"{ev['city']}: {ev['text']}"]


def _city_captured(rs, ev):
    return [f"  {ev['city']} entered by {ev['unit']}: {ev['text']}"]


def _berlin_entered(rs, ev):
    return [f"  BERLIN entered by {ev['unit']} ({ev['side']})"]


def _berlin_fallen(rs, ev):
    ss = f"; {len(ev['ss'])} SS units pass to the Western Allied player (13.2)" if ev.get("ss") else ""
    return [f"Berlin has fallen to the {ev['side']} side: {ev['text']} ({len(ev['removed'])} German units removed{ss})"]


def _boundary_lapsed(rs, ev):
    return [f"German Theater Boundary lapses: {ev['text']} ({ev['rule']})"]


def _exit(rs, ev):
    return [f"  {_u(rs, ev['unit'])} leaves the map at {ev['hex']} ({ev['zone']} edge)"]


def _flipped(rs, ev):
    return [f"  {_u(rs, ev['unit'])} at {ev['hex']} ({ev['distance']} hexes away) is flipped: {ev['text']}"]


def _removed(rs, ev):
    return [f"{_u(rs, ev['unit'])} removed from {ev['hex']} ({ev['rule']})"]




def _order_ignored(rs, ev):
    opts = ", ".join(str(o) for o in ev.get("options") or [])
    return [f"  order {ev['ordered']} for {ev['decision']} ignored: not a legal choice at this point (legal: {opts})"]










def _game_over(rs, ev):
    if ev.get("winners"):
        who = " and the ".join(PLAYER_TITLES.get(w, w) for w in ev["winners"])
        return [f"GAME OVER: the {who} {'win' if len(ev['winners']) > 1 else 'wins'} - {ev['reason']}"]
    if ev.get("draw"):
        return [f"GAME OVER: draw - {ev['reason']}; VP Soviet {ev['vp']['soviet']}, Western {ev['vp']['western']}"]
    return [f"GAME OVER: the {PLAYER_TITLES.get(ev['winner'], ev['winner'])} wins - {ev['reason']}; VP Soviet {ev['vp']['soviet']}, Western {ev['vp']['western']}"]


def _generic(rs, ev):
    t = ev["type"]
    return [f"{t}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type", "turn", "phase"))]


def _courland_closed(rs, ev):
    return [f"Courland: {ev['text']} ({', '.join(ev['units'])}) (8.0)"]


def _default_attacks(rs, ev):
    return [f"{ev['text']} ({ev['rule'][4:]}): " + "; ".join(f"{', '.join(a['units'])} on {a['target']}" for a in ev["attacks"])]


RENDERERS = {
    "phase": _phase,
    "pregame": _pregame,
    "orders-void": _orders_void,
    "move": _move,
    "combat": _combat,
    "eliminated": _eliminated,
    "retreat": _retreat,
    "retreat-ignored": _retreat_ignored,
    "advance": _advance,
    "ex-losses": _ex_losses,
    "replacement": _replacement,
    "replacement-lost": _replacement_lost,
    "replacements-unused": _replacements_unused,
    "courland": _courland,
    "courland-entry": _courland_entry,
    "courland-cleared": _courland_cleared,
    "fortress-destroyed": _fortress_destroyed,
    "control": _control,
    "vp": _vp,
    "change-side": _change_side,
    "obligation": _obligation,
    "obligation-met": _obligation,
    "obligation-failed": _obligation,
    "garrison": _garrison,
    "garrison-missing": _garrison_missing,
    "garrison-missed": _garrison_missing,
    "courland-closed": _courland_closed,
    "default-attacks": _default_attacks,
    "city-captured": _city_captured,
    "berlin-entered": _berlin_entered,
    "berlin-fallen": _berlin_fallen,
    "boundary-lapsed": _boundary_lapsed,
    "exit": _exit,
    "flipped": _flipped,
    "removed": _removed,
    "order-ignored": _order_ignored,
    "game-over": _game_over,
}


def describe(rs, ev: dict) -> list[str]:
    """Text lines for one event (the first line is the headline)."""
    return RENDERERS.get(ev["type"], _generic)(rs, ev)
