"""Reports: one adjudication step as data (JSON, schema ``report``) and as text.

The content is plain data; rich only lays it out. The text report is rendered through a
fixed-width, colourless console so it is byte-identical on every machine (it is archived and
replayed)."""
from __future__ import annotations

import io
import json

from .errors import choice_text

REPORT_SCHEMA = "pbem/report/v2"
# v1 (pbem before issue 8): events said `frm` where v2 says `from`, and report.txt had the old
# layout. Archives in v1 still replay byte for byte: the replayed report is written back in v1
# (`as_version`) and laid out by `_render_v1`.
LEGACY_SCHEMAS = ("pbem/report/v1",)
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


def as_version(report: dict, schema: str) -> dict:
    """``report`` in the format ``schema`` (one of LEGACY_SCHEMAS, or the current one)."""
    if schema == report.get("schema") or schema not in LEGACY_SCHEMAS:
        return report
    events = [{("frm" if k == "from" else k): v for k, v in ev.items()} for ev in report["events"]]
    return {**report, "schema": schema, "events": events}


def report_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _console(width: int, file=None, color: bool = False):
    """The fixed-width, colourless console of the archived report (``color`` only for callers
    that print on a terminal; the CLI uses :func:`pbem.core.term.console`)."""
    from rich.console import Console
    if color:
        return Console(width=width, file=file, highlight=False)
    return Console(width=width, file=file or io.StringIO(), force_terminal=False, color_system=None,
                   highlight=False, legacy_windows=False, _environ={}, soft_wrap=False, emoji=False)


# How an adjudication ended, in words (the report's ``stopped`` field).
STOPPED_TEXT = {
    "complete": "done",
    "pending": "waiting for a decision",
    "waiting": "waiting for the other players' orders",
    "orders-invalid": "waiting for new orders",
    "game-over": "game over",
    "refused": "orders refused",
    "links": "waiting for every player's chain link",
    "void": "the orders are void: new orders awaited",
}


def stopped_text(stopped: str) -> str:
    return STOPPED_TEXT.get(stopped, f"stopped: {stopped}")


def _core_event(ev: dict, title=lambda p: f"{p} player") -> list[str] | None:
    """Text of the events the kernel writes for every game (None: the game describes it);
    ``title(player)`` names a player ("Soviet player": the game's player_title)."""
    t = ev["type"]
    if t == "pending":
        d = ev["decision"]
        rule = d.get("rule") or (d.get("context") or {}).get("rule")
        opts = d.get("options")
        return [f"STOPPED: waiting for the {title(d['player'])}: {d['prompt']}" + (f" [{rule}]" if rule else ""),
                f"  decision {d['id']}; " + (f"options: {', '.join(choice_text(o) for o in opts)}" if opts is not None
                                            else "answer as `pbem orders template` shows")]
    if t == "void":
        rule = f" [{ev['rule']}]" if ev.get("rule") else ""
        where = ".".join(str(x) for x in ev["order"])
        what = f" {ev['text']} ({where})" if ev.get("text") else f" at {where}"
        return [f"VOID: the {title(ev['player'])}'s order{what} no longer fits the position the dice left: "
                f"{ev['reason']}{rule}; it is not carried out and the phase goes on"]
    if t == "orders-invalid":
        return [f"STOPPED: the orders for {ev['phase']} do not fit the position reached; the {ev['player']} player sends new ones"]
    if t == "resume":
        return [f"resuming turn {ev['turn']} {ev['phase']} with the answers: " + ", ".join(f"{k} = {choice_text(v)}" for k, v in ev["answers"].items()),
                "  (the phase is played again from its start with the same dice: what came before the decision repeats the previous step)"]
    if t == "standing":
        return [f"standing orders of the {ev['player']} player: " + ", ".join(f"{k}: {v}" for k, v in ev["standing"].items())]
    if t == "missing-orders":
        until = f", up to {ev['until']}" if ev.get("until") and ev["until"] != ev.get("phase") else ""
        return [f"{ev['text']} ({ev['player']} player{until})"]
    if t == "received":
        return [f"orders of the {ev['player']} player received ({'receipt ' + ev['receipt'][:16] if 'receipt' in ev else 'sha256 ' + ev['sha256'][:16]}...) and archived; "
                f"they are carried out when every awaited player's orders are in - still awaited: {', '.join(ev['waiting_for'])}"]
    if t == "digests":
        return ["the files carried out: " + "; ".join(f"{f['player']} sha256 {f['sha256'][:16]}... (receipt {f['receipt'][:16]}...)" for f in ev["files"])]
    if t == "links-needed":
        return [f"the files are archived; their dice need link {ev['index']} of every player's chain "
                f"({', '.join(ev['players'])}), bound to them (digest {ev['orders'][:16]}...): nothing is rolled until every link is in"
                + (f" (the missing-orders default of the {', '.join(ev['missing_orders'])} player)" if ev.get("missing_orders") else "")]
    if t == "links":
        return [f"chain links {ev['index']} of {', '.join(ev['players'])} revealed for the files archived in step {ev['archived']:03d}: "
                "they are carried out now"]
    if t == "files-void":
        return [f"VOID: the files of the {', '.join(ev['players'])} player archived in step {ev['archived']:03d} are refused with the revealed links "
                f"({', '.join(ev['issues']) or 'see the issues'}); those links are spent, and new orders are awaited"]
    if t == "answered":
        return [f"the {ev['player']} player answered {', '.join(ev['decisions'])}; the phase resumes when every pending decision is answered - "
                f"still awaited: {', '.join(ev['waiting_for'])}"]
    if t == "sealed":
        return [f"the {ev['player']} player sealed a choice as {ev['id']} (commitment {ev['commitment'][:16]}...): nobody can read it until it is opened, and it can never be changed"]
    if t == "opened":
        return [f"the {ev['player']} player opened {ev['id']}: {json.dumps(ev['choice'], ensure_ascii=False, sort_keys=True)} (checked against its commitment)"]
    return None


def describe(report_event: dict, game_mod, rs) -> list[str]:
    return _core_event(report_event, lambda p: game_mod.player_title(rs, p)) or game_mod.describe_event(rs, report_event)


def render(report: dict, game_mod, rs, console) -> None:
    """Lay the report out on ``console`` at its width: lines are broken only between words,
    never inside a command or an id (:mod:`.term`); a phase in which nothing happened is one
    line, not an empty heading."""
    from rich.rule import Rule
    from .term import SIDE_STYLES_BY_ID, styled, wrap
    c = console
    width = c.width

    words = getattr(game_mod, "term_styles", None)     # the game's names in colour (Game.term_styles)

    def line(text: str, style: str | None = None) -> None:
        for piece in wrap(text, width):
            c.print(styled(piece, style, words=words), soft_wrap=True)

    def heading(text: str, style: str | None, align: str = "left") -> None:
        if len(text) + 6 <= width:
            c.print(Rule(styled(text, "bold", words=words), style=style or "", align=align))
        else:
            line(text, "bold")

    title = f"pbem {report['game']} - campaign {report['campaign']} - step {report['step']}"
    heading(title, "bold", align="center")
    # Everything a third party needs to recompute a roll by hand is printed in full (issue 8):
    # the commitment or chain links, and for each phase that rolled, its key's inputs.
    line(f"input state: {report['input']['state']}")
    line(f"  state hash {report['input']['hash']}")
    d = report["dice"]
    digest = "receipt" if d.get("receipts") else "sha256"   # a receipt: HMAC of the file with the dice key
    for o in report["orders"]:
        line(f"orders: {o['file']} from the {o['player']} player")
        line(f"  {digest} {o['sha256']}")
    if d.get("mode") == "chain":
        line(f"dice: {d['algorithm']}, hash chains (no referee); heads:")
        for p, h in sorted(d["heads"].items()):
            line(f"  {p} {h}")
        for r in d.get("reveals", []):
            line(f"  link {r['index']} of the {r['player']} player (checked against the previous link): {r['link']}")
    else:
        line(f"dice: {d['algorithm']}; the key's commitment:")
        line(f"  {d['commitment']}")
    labels = [r["label"] for r in report.get("rolls") or []]
    if labels:
        line("verify any roll with `pbem dice verify`; from this report and the revealed key alone:")
        line(f"  pbem dice verify LABEL --key-hex KEY --game {report['game']} --campaign-id {report['campaign']}")
        line("  and the dice key inputs printed under the roll's phase (--step, --orders, --state)")
    else:
        line("verify any roll with `pbem dice verify`")
    described = [(ev, describe(ev, game_mod, rs)) for ev in report["events"]]
    empty_before = False   # the last thing printed was the line of a phase without events
    for k, (ev, lines) in enumerate(described):
        if ev["type"] == "phase":
            empty = True
            for ev2, lines2 in described[k + 1:]:
                if ev2["type"] == "phase":
                    break
                if lines2:
                    empty = False
                    break
            side = SIDE_STYLES_BY_ID.get(ev.get("player"), "cyan")
            if empty:
                if not empty_before:
                    c.print()
                line(f"{lines[0]}: nothing to report", "dim")
            else:
                c.print()
                heading(lines[0], side)
            ki = ev.get("key_inputs")
            if ki and any(x.startswith(f"{report['game']}/{report['campaign']}/{ki['step']}/") for x in labels):
                line("dice key inputs of this phase:", "dim")
                line(f"  --step {ki['step']}", "dim")
                line(f"  --orders {ki['orders']}", "dim")
                line(f"  --state {ki['state']}", "dim")
            empty_before = empty
            continue
        if lines:
            empty_before = False
        style = None
        if ev["type"] in ("pending", "orders-invalid", "void", "files-void", "game-over", "berlin-fallen"):
            style = "bold yellow"
        elif ev["type"] == "combat":
            style = "bold"
        for i, text in enumerate(lines):
            line(text, style if i == 0 else None)
    if report["issues"]:
        c.print()
        heading("problems", "red")
        for i in report["issues"]:
            line(_issue_line(i))
    if report["provisional"]:
        c.print()
        heading("provisional data that decided outcomes in this step", None)
        for p in report["provisional"]:
            line(f"- {p['item']}" + (f": {p['note']}" if p.get("note") else ""))
    c.print()
    out = report.get("output")
    if out:
        line(f"new state: {out['state']} ({out['hash'][:16]}...) - {stopped_text(report['stopped'])}")
    else:
        line(f"nothing written - {stopped_text(report['stopped'])}")


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
        from .errors import cites
        if not cites(i["message"], i["rule"]):     # "(15.3) [15.3]": the rule once
            s += f" [{i['rule']}]"
    if i.get("hint"):
        s += f" (hint: {i['hint']})"
    return s


def render_text(report: dict, game_mod, rs, width: int = TEXT_WIDTH) -> str:
    """The archived report.txt: fixed width, colourless, the same on every machine (a v1
    report keeps the layout it was archived with)."""
    buf = io.StringIO()
    c = _console(width, file=buf)
    if report.get("schema") in LEGACY_SCHEMAS:
        _render_v1(report, game_mod, rs, c)
    else:
        render(report, game_mod, rs, c)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def _render_v1(report: dict, game_mod, rs, console) -> None:
    """The layout of report.txt in v1 reports, kept unchanged so that old archives replay byte
    for byte: rich wraps (and may break a command), empty phases keep their heading, the last
    line says ``stopped: <reason>``."""
    from rich.rule import Rule
    from rich.text import Text
    c = console
    title = f"pbem {report['game']} - campaign {report['campaign']} - step {report['step']}"
    c.print(Rule(title, style="bold"))
    c.print(Text(f"input state: {report['input']['state']} ({report['input']['hash'][:16]}...)"))
    d = report["dice"]
    for o in report["orders"]:
        c.print(Text(f"orders: {o['file']} from the {o['player']} player, "
                     f"{'receipt' if d.get('receipts') else 'sha256'} {o['sha256'][:16]}..."))
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
        for line in lines:
            c.print(Text(line), overflow="fold")
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
