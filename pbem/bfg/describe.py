"""Plain-language lines for the events of a Battle for Germany adjudication (the report)."""
from __future__ import annotations

from .sequence import FORCE_TITLES, PLAYER_TITLES, phase_title


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
    who = PLAYER_TITLES.get(ev.get("player"), ev.get("player") or "player")
    if how == "only option":
        return "the only legal choice"
    if how and how.startswith("standing order "):
        return f"{who}'s {how}"
    if how == "order":
        return f"{who}'s attack order"
    if how == "answer":
        return f"{who}'s answer"
    return f"{who}: {how}"


def _result_text(ev: dict) -> str:
    return ev.get("result_text", "")


def describe(rs, ev: dict) -> list[str]:
    """Text lines for one event (the first line is the headline)."""
    t = ev["type"]
    if t == "phase":
        return [f"Turn {ev['turn']} ({ev.get('date', '')}) - {phase_title(ev['phase'])} - {PLAYER_TITLES.get(ev['player'], ev['player'])}"]
    if t == "pregame":
        r = ev["roll"]
        return [f"pre-game die [{r['label']}] = {r['value']}: {ev['text']} ({ev['rule']})"]
    if t == "orders-void":
        return [f"{ev['text']} ({ev['rule']})"]
    if t == "move":
        path = " ".join(ev["path"]) if ev["path"] else "(stays)"
        extra = " (path chosen by pbem)" if ev.get("auto_path") else ""
        if ev.get("triple"):
            extra += " (triple movement across the boundary, 16.32)"
        ex = f", leaves the map ({ev['exit']} edge, +4 MP)" if ev.get("exit") else ""
        return [f"move {_u(rs, ev['unit'])}: {ev['frm']} -> {path}  [{ev['cost']}/{ev['allowance']} MP]{extra}{ex}"]
    if t == "combat":
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
    if t == "eliminated":
        where = f"to the {ev['box']} box" if ev.get("box") else "for good (never replaced, 7.12)"
        return [f"  eliminated {_u(rs, ev['unit'])} at {ev['hex']}, {where} - {ev['reason']}"]
    if t == "retreat":
        if ev.get("eliminated"):
            return []  # the `eliminated` event that follows says "could not retreat (6.23)"
        by = f" ({_how(ev)})"
        lines = [f"  retreat {_u(rs, ev['unit'])}: {ev['frm']} -> {' -> '.join(ev['path'])}{by}"]
        for p in ev.get("provisional", []):
            if p:
                lines.append(f"  provisional data decided this: {p['item']}")
        return lines
    if t == "retreat-ignored":
        return [f"  {_u(rs, ev['unit'])} garrisons {ev['hex']} and ignores the retreat (10.3)"]
    if t == "advance":
        if not ev.get("unit"):
            return [f"  no advance after attack {ev['combat']} ({_how(ev, standing='none')})"]
        return [f"  advance {_u(rs, ev['unit'])}: {ev['frm']} -> {ev['to']} ({_how(ev)})"]
    if t == "ex-losses":
        return [f"  exchange losses (printed attack at least the defenders' printed defence {ev['need']}): {', '.join(ev['units'])} ({_how(ev)})"]
    if t == "replacement":
        extra = []
        if ev.get("double_move"):
            extra.append("double movement this turn (7.22)")
        if ev.get("in_zoc"):
            extra.append("in enemy ZOC: may not move this phase (7.26)")
        if ev.get("changed_side"):
            extra.append(f"enters as {FORCE_TITLES[ev['force']]} (7.24)")
        return [f"replacement {_u(rs, ev['unit'])} from the {ev['box']} box enters at {_hex(rs, ev['hex'])}" + (f"; {'; '.join(extra)}" if extra else "")]
    if t == "replacement-lost":
        return [f"replacement {_u(rs, ev['unit'])} is lost: {ev['text']}"]
    if t == "replacements-unused":
        return [f"unused replacements lost (7.2): {ev['unused']}"]
    if t == "courland":
        r = ev["roll"]
        return [f"Courland: {_u(rs, ev['unit'])} leaves, die [{r['label']}] = {r['value']}: {ev.get('result', '')}"]
    if t == "courland-entry":
        return [f"Courland: {_u(rs, ev['unit'])} enters at {ev['hex']}"]
    if t == "courland-cleared":
        return [f"Courland: {ev['text']}"]
    if t == "fortress-destroyed":
        return [f"  fortress {ev['hex']} destroyed by {ev['unit']} (6.83)"]
    if t == "control":
        return [f"city {ev['city']} ({ev['hex']}): {ev['old'] or '-'} -> {ev['new']}"]
    if t == "vp":
        return [f"victory points: Soviet {ev['soviet']}, Western Allies {ev['western']}"]
    if t == "change-side":
        if ev.get("rule") == "DG2 13.2":
            return [f"  {_u(rs, ev['unit'])} at {ev['hex']}: {ev['text']} (13.2)"]
        if ev.get("rule", "DG2 5.41") != "DG2 5.41":
            return [f"  {_u(rs, ev['unit'])} is now across the boundary at {ev['hex']}: {FORCE_TITLES[ev['new']]} ({ev['rule'][4:]}), run by the {ev['controller']} player"]
        return [f"  {_u(rs, ev['unit'])} crossed the boundary in retreat: now {FORCE_TITLES[ev['new']]} (5.41), run by the {ev['controller']} player"]
    if t in ("obligation", "obligation-met", "obligation-failed"):
        txt = {"obligation": ev.get("text", ""), "obligation-met": "has returned", "obligation-failed": "did not return in time"}[t]
        return [f"  {_u(rs, ev['unit'])} {txt} ({ev['rule']})"]
    if t == "garrison":
        return [f"{_u(rs, ev['unit'])} garrisons {ev['city']} (10.0)"]
    if t in ("garrison-missing", "garrison-missed"):
        return [f"{ev['city']}: {ev['text']}"]
    if t == "city-captured":
        return [f"  {ev['city']} entered by {ev['unit']}: {ev['text']}"]
    if t == "berlin-entered":
        return [f"  BERLIN entered by {ev['unit']} ({ev['side']})"]
    if t == "berlin-fallen":
        ss = f"; {len(ev['ss'])} SS units pass to the Western Allied player (13.2)" if ev.get("ss") else ""
        return [f"Berlin has fallen to the {ev['side']} side: {ev['text']} ({len(ev['removed'])} German units removed{ss})"]
    if t == "exit":
        return [f"  {_u(rs, ev['unit'])} leaves the map at {ev['hex']} ({ev['zone']} edge)"]
    if t == "flipped":
        return [f"  {_u(rs, ev['unit'])} at {ev['hex']} ({ev['distance']} hexes away) is flipped: {ev['text']}"]
    if t == "removed":
        return [f"{_u(rs, ev['unit'])} removed from {ev['hex']} ({ev['rule']})"]
    if t == "pending":
        d = ev["decision"]
        return [f"STOPPED: waiting for the {PLAYER_TITLES.get(d['player'], d['player'])}: {d['prompt']}",
                f"  decision {d['id']}; options: {', '.join(str(o) for o in d['options'])}"]
    if t == "order-ignored":
        opts = ", ".join(str(o) for o in ev.get("options") or [])
        return [f"  order {ev['ordered']} for {ev['decision']} ignored: not a legal choice at this point (legal: {opts})"]
    if t == "orders-invalid":
        return [f"STOPPED: the orders for {ev['phase']} do not fit the position reached; the {ev['player']} player sends new ones"]
    if t == "resume":
        return [f"resuming turn {ev['turn']} {ev['phase']} with the answers: " + ", ".join(f"{k} = {v}" for k, v in ev["answers"].items()),
                "  (the phase is played again from its start with the same dice: what came before the decision repeats the previous step)"]
    if t == "standing":
        return [f"standing orders of the {ev['player']} player: " + ", ".join(f"{k}: {v}" for k, v in ev["standing"].items())]
    if t == "missing-orders":
        return [f"{ev['text']} ({ev['player']} player)"]
    if t == "courland-closed":
        return [f"Courland: {ev['text']} ({', '.join(ev['units'])}) (8.0)"]
    if t == "default-attacks":
        return [f"{ev['text']} ({ev['rule'][4:]}): " + "; ".join(f"{', '.join(a['units'])} on {a['target']}" for a in ev["attacks"])]
    if t == "game-over":
        if ev.get("winners"):
            who = " and the ".join(PLAYER_TITLES.get(w, w) for w in ev["winners"])
            return [f"GAME OVER: the {who} {'win' if len(ev['winners']) > 1 else 'wins'} - {ev['reason']}"]
        if ev.get("draw"):
            return [f"GAME OVER: draw - {ev['reason']}; VP Soviet {ev['vp']['soviet']}, Western {ev['vp']['western']}"]
        return [f"GAME OVER: the {PLAYER_TITLES.get(ev['winner'], ev['winner'])} wins - {ev['reason']}; VP Soviet {ev['vp']['soviet']}, Western {ev['vp']['western']}"]
    return [f"{t}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type", "turn", "phase"))]
