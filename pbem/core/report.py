"""Reports: one adjudication step as data (JSON, schema ``report``) and as text.

The content is plain data; rich only lays it out. The text report is rendered through a
fixed-width, colourless console so it is byte-identical on every machine (it is archived and
replayed)."""
from __future__ import annotations

import io
import json

REPORT_SCHEMA = "pbem/report/v1"
TEXT_WIDTH = 100


def build_report(*, game: str, campaign: str, step: int, input_state: str, input_hash: str,
                 orders: list[dict], outcome, output_state: str | None, output_hash: str | None,
                 dice: dict) -> dict:
    prov = []
    seen = set()
    for ev in outcome.events:
        for p in ev.get("provisional", []) or []:
            if p and p["item"] not in seen:
                seen.add(p["item"])
                prov.append({"item": p["item"], "note": p.get("note", "")})
    return {
        "schema": REPORT_SCHEMA,
        "game": game,
        "campaign": campaign,
        "step": step,
        "input": {"state": input_state, "hash": input_hash},
        "orders": orders,
        "output": {"state": output_state, "hash": output_hash} if output_state else None,
        "stopped": outcome.stopped,
        "dice": dice,
        "rolls": outcome.rolls,
        "events": outcome.events,
        "issues": [i.to_dict() for i in outcome.issues],
        "provisional": prov,
    }


def report_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _console(width: int, file=None, color: bool = False):
    from rich.console import Console
    if color:
        return Console(width=width, file=file, highlight=False)
    return Console(width=width, file=file or io.StringIO(), force_terminal=False, color_system=None,
                   highlight=False, legacy_windows=False, _environ={}, soft_wrap=False, emoji=False)


def _core_event(ev: dict) -> list[str] | None:
    """Text of the events the kernel writes for every game (None: the game describes it)."""
    t = ev["type"]
    if t == "received":
        return [f"orders of the {ev['player']} player received (sha256 {ev['sha256'][:16]}...) and archived; "
                f"they are carried out when every awaited player's orders are in - still awaited: {', '.join(ev['waiting_for'])}"]
    if t == "answered":
        return [f"the {ev['player']} player answered {', '.join(ev['decisions'])}; the phase resumes when every pending decision is answered - "
                f"still awaited: {', '.join(ev['waiting_for'])}"]
    if t == "sealed":
        return [f"the {ev['player']} player sealed a choice as {ev['id']} (commitment {ev['commitment'][:16]}...): nobody can read it until it is opened, and it can never be changed"]
    if t == "opened":
        return [f"the {ev['player']} player opened {ev['id']}: {json.dumps(ev['choice'], ensure_ascii=False, sort_keys=True)} (checked against its commitment)"]
    return None


def describe(report_event: dict, game_mod, rs) -> list[str]:
    return _core_event(report_event) or game_mod.describe_event(rs, report_event)


def render(report: dict, game_mod, rs, console) -> None:
    from rich.rule import Rule
    from rich.text import Text
    c = console
    title = f"pbem {report['game']} - campaign {report['campaign']} - step {report['step']}"
    c.print(Rule(title, style="bold"))
    c.print(Text(f"input state: {report['input']['state']} ({report['input']['hash'][:16]}...)"))
    for o in report["orders"]:
        c.print(Text(f"orders: {o['file']} from the {o['player']} player, sha256 {o['sha256'][:16]}..."))
    d = report["dice"]
    if d.get("mode") == "chain":
        c.print(Text(f"dice: {d['algorithm']}, hash chains (no referee); heads "
                     + ", ".join(f"{p} {h[:16]}..." for p, h in sorted(d["heads"].items()))))
        for r in d.get("reveals", []):
            c.print(Text(f"  link {r['index']} of the {r['player']} player: {r['link'][:16]}... (checked against the previous link)"))
    else:
        c.print(Text(f"dice: {d['algorithm']}, key commitment {d['commitment'][:16]}... (verify any roll with `pbem dice verify`)"))
    for ev in report["events"]:
        lines = describe(ev, game_mod, rs)
        if ev["type"] == "phase":
            c.print()
            c.print(Rule(lines[0], style="cyan", align="left"))
            continue
        style = None
        if ev["type"] in ("pending", "orders-invalid", "game-over", "berlin-fallen"):
            style = "bold yellow"
        elif ev["type"] == "combat":
            style = "bold"
        for i, line in enumerate(lines):
            c.print(Text(line, style=style if i == 0 else None), overflow="fold")
    if report["issues"]:
        c.print()
        c.print(Rule("problems", style="red", align="left"))
        for i in report["issues"]:
            c.print(Text(_issue_line(i)), overflow="fold")
    if report["provisional"]:
        c.print()
        c.print(Rule("provisional data that decided outcomes in this step", align="left"))
        for p in report["provisional"]:
            c.print(Text(f"- {p['item']}" + (f": {p['note']}" if p.get("note") else "")), overflow="fold")
    c.print()
    out = report.get("output")
    if out:
        c.print(Text(f"new state: {out['state']} ({out['hash'][:16]}...) - stopped: {report['stopped']}"))
    else:
        c.print(Text(f"nothing written - {report['stopped']}"))


def _issue_line(i: dict) -> str:
    loc = i.get("file") or ""
    if i.get("line"):
        loc += f":{i['line']}"
    s = f"{loc + ': ' if loc else ''}{i['severity']} {i['code']}: {i['message']}"
    if not i.get("line") and i.get("path"):
        # no line to point at (e.g. the resumed orders of an earlier step): say where in the file
        from .errors import format_path
        s += f" (at {format_path(tuple(i['path']))})"
    if i.get("text"):
        s += f" > {i['text']}"
    if i.get("rule"):
        s += f" [{i['rule']}]"
    if i.get("hint"):
        s += f" (hint: {i['hint']})"
    return s


def render_text(report: dict, game_mod, rs, width: int = TEXT_WIDTH) -> str:
    buf = io.StringIO()
    c = _console(width, file=buf)
    render(report, game_mod, rs, c)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"
