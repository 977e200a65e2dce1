"""Reports: one adjudication step as data (JSON, schema ``report``) and as text.

The content is plain data; rich only lays it out. The text report is rendered through a
fixed-width, colourless console so it is byte-identical on every machine (it is archived and
replayed)."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Literal

from .errors import choice_text, cites, format_path
from .term import SIDE_STYLES_BY_ID, styled, wrap

if TYPE_CHECKING:
    from rich.console import Console

    from .game import Game
    from .kernel import Outcome

REPORT_SCHEMA = "pbem/report/v2"
# v1 (pbem before issue 8): events said `frm` where v2 says `from`, and report.txt had the old
# layout. Archives in v1 still replay byte for byte: the replayed report is written back in v1
# (`as_version`) and laid out by `_render_v1`.
LEGACY_SCHEMAS = ("pbem/report/v1",)
TEXT_WIDTH = 100


def build_report(*, game: str, campaign: str, step: int, input_state: str, input_hash: str,
                 orders: list[dict[str, Any]], outcome: Outcome, output_state: str | None, output_hash: str | None,
                 dice: dict[str, Any]) -> dict[str, Any]:
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


def as_version(report: dict[str, Any], schema: str | None) -> dict[str, Any]:
    """``report`` in the format ``schema`` (one of LEGACY_SCHEMAS, or the current one; None: the
    current one)."""
    if schema == report.get("schema") or schema not in LEGACY_SCHEMAS:
        return report
    events = [{("frm" if k == "from" else k): v for k, v in ev.items()} for ev in report["events"]]
    return {**report, "schema": schema, "events": events}


def why_unreadable(e: Exception) -> str:
    """Why an archived report could not be read, in words."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    if isinstance(e, KeyError):
        return f"no field {e}"
    if isinstance(e, TypeError):
        return "not a report (wrong structure)"
    return str(e)


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _console(width: int, file: IO[str] | None = None, color: bool = False) -> Console:
    """The fixed-width, colourless console of the archived report (``color`` only for callers
    that print on a terminal; the CLI uses :func:`pbem.core.term.console`)."""
    from rich.console import Console  # rich is slow to import: only where a report is laid out
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


#: a player's name in a line ("Soviet player": the game's :meth:`Game.player_title`)
Title = Callable[[str], str]


def _pending(ev: dict[str, Any], title: Title) -> list[str]:
    d = ev["decision"]
    rule = d.get("rule") or (d.get("context") or {}).get("rule")
    opts = d.get("options")
    return [f"STOPPED: waiting for the {title(d['player'])}: {d['prompt']}" + (f" [{rule}]" if rule else ""),
            f"  decision {d['id']}; " + (f"options: {', '.join(choice_text(o) for o in opts)}" if opts is not None
                                        else "answer as `pbem orders template` shows")]


def _void(ev: dict[str, Any], title: Title) -> list[str]:
    rule = f" [{ev['rule']}]" if ev.get("rule") else ""
    where = ".".join(str(x) for x in ev["order"])
    what = f" {ev['text']} ({where})" if ev.get("text") else f" at {where}"
    # what changed the position (issue 30): the die rolled last before the order was found
    # unfit, and the answers of a resumed phase (an event without it: the dice, as before)
    left = f"the position after {ev['after']}" if ev.get("after") else "the position the dice left"
    return [f"VOID: the {title(ev['player'])}'s order{what} no longer fits {left}: "
            f"{ev['reason']}{rule}; it is not carried out and the phase goes on"]


def _order_ignored(ev: dict[str, Any], title: Title) -> list[str]:      # (pbem.core.game.PhaseContext.decide)
    opts = ", ".join(str(o) for o in ev.get("options") or [])
    return [f"  order {ev['ordered']} for {ev['decision']} ignored: not a legal choice at this point (legal: {opts})"]


def _orders_invalid(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"STOPPED: the orders for {ev['phase']} do not fit the position reached; the {ev['player']} player sends new ones"]


def _resume(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"resuming turn {ev['turn']} {ev['phase']} with the answers: " + ", ".join(f"{k} = {choice_text(v)}" for k, v in ev["answers"].items()),
            "  (the phase is played again from its start with the same dice: what came before the decision repeats the previous step)"]


def _standing(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"standing orders of the {ev['player']} player: " + ", ".join(f"{k}: {v}" for k, v in ev["standing"].items())]


def _missing_orders(ev: dict[str, Any], title: Title) -> list[str]:
    until = f", up to {ev['until']}" if ev.get("until") and ev["until"] != ev.get("phase") else ""
    return [f"{ev['text']} ({ev['player']} player{until})"]


def _received(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"orders of the {ev['player']} player received ({'receipt ' + ev['receipt'][:16] if 'receipt' in ev else 'sha256 ' + ev['sha256'][:16]}...) and archived; "
            f"they are carried out when every awaited player's orders are in - still awaited: {', '.join(ev['waiting_for'])}"]


def _digests(ev: dict[str, Any], title: Title) -> list[str]:
    return ["the files carried out: " + "; ".join(f"{f['player']} sha256 {f['sha256'][:16]}... (receipt {f['receipt'][:16]}...)" for f in ev["files"])]


def _links_needed(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"the files are archived; their dice need link {ev['index']} of every player's chain "
            f"({', '.join(ev['players'])}), bound to them (digest {ev['orders'][:16]}...): nothing is rolled until every link is in"
            + (f" (the missing-orders default of the {', '.join(ev['missing_orders'])} player)" if ev.get("missing_orders") else "")]


def _links(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"chain links {ev['index']} of {', '.join(ev['players'])} revealed for the files archived in step {ev['archived']:03d}: "
            "they are carried out now"]


def _files_void(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"VOID: the files of the {', '.join(ev['players'])} player archived in step {ev['archived']:03d} are refused with the revealed links "
            f"({', '.join(ev['issues']) or 'see the issues'}); those links are spent, and new orders are awaited"]


def _answered(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"the {ev['player']} player answered {', '.join(ev['decisions'])}; the phase resumes when every pending decision is answered - "
            f"still awaited: {', '.join(ev['waiting_for'])}"]


def _sealed(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"the {ev['player']} player sealed a choice as {ev['id']} (commitment {ev['commitment'][:16]}...): nobody can read it until it is opened, and it can never be changed"]


def _opened(ev: dict[str, Any], title: Title) -> list[str]:
    return [f"the {ev['player']} player opened {ev['id']}: {json.dumps(ev['choice'], ensure_ascii=False, sort_keys=True)} (checked against its commitment)"]


#: The events the kernel writes for every game, type -> wording (as each game words its own from
#: a table: pbem/bfg/describe.py, pbem/blitzwar/describe.py); a type not here is the game's.
CORE_EVENTS: dict[str, Callable[[dict[str, Any], Title], list[str]]] = {
    "pending": _pending, "void": _void, "order-ignored": _order_ignored, "orders-invalid": _orders_invalid,
    "resume": _resume, "standing": _standing, "missing-orders": _missing_orders, "received": _received,
    "digests": _digests, "links-needed": _links_needed, "links": _links, "files-void": _files_void,
    "answered": _answered, "sealed": _sealed, "opened": _opened,
}


def _core_event(ev: dict[str, Any], title: Title = lambda p: f"{p} player") -> list[str] | None:
    """Text of the events the kernel writes for every game (None: the game describes it);
    ``title(player)`` names a player ("Soviet player": the game's player_title)."""
    wording = CORE_EVENTS.get(ev["type"])
    return wording(ev, title) if wording is not None else None


def describe(report_event: dict[str, Any], g: Game[Any], rs: Any) -> list[str]:
    return _core_event(report_event, lambda p: g.player_title(rs, p)) or g.describe_event(rs, report_event)


class _Writer:
    """Lines on a console at its width, broken only between words (:mod:`.term`), the game's
    names in colour; headings as rules."""

    def __init__(self, console: Console, words: dict[str, str] | None) -> None:
        self.c = console
        self.width = console.width
        self.words = words

    def blank(self) -> None:
        self.c.print()

    def line(self, text: str, style: str | None = None) -> None:
        for piece in wrap(text, self.width):
            self.c.print(styled(piece, style, words=self.words), soft_wrap=True)

    def heading(self, text: str, style: str | None, align: Literal["left", "center", "right"] = "left") -> None:
        from rich.rule import Rule  # rich is slow to import: only where a report is laid out
        if len(text) + 6 <= self.width:
            self.c.print(Rule(styled(text, "bold", words=self.words), style=style or "", align=align))
        else:
            self.line(text, "bold")


# events whose first line stands out
_EVENT_STYLES = dict.fromkeys(("pending", "orders-invalid", "void", "files-void", "game-over", "berlin-fallen"),
                              "bold yellow") | {"combat": "bold"}


# The last events list described and its lines: `pbem adjudicate` lays one report out twice
# (report.txt, then the terminal at its width) and each event is described once (issue 18).
_LAST_DESCRIBED: list[Any] = [None, None, None, None]


def described_events(events: list[dict[str, Any]], g: Game[Any], rs: Any) -> list[list[str]]:
    """The lines of each event, the same list object described again taken from the last time
    (a report's events are not changed once it is built)."""
    last = _LAST_DESCRIBED
    if last[0] is events and last[1] is g and last[2] is rs:
        described: list[list[str]] = last[3]
        return described
    lines = [describe(ev, g, rs) for ev in events]
    last[:] = [events, g, rs, lines]
    return lines


class _NotPlain(Exception):
    """A text the plain layout of :class:`_TextWriter` does not cover: rich lays it out."""


class _TextWriter:
    """The colourless layout of :class:`_Writer` written directly (report.txt, issue 18: rich
    is slow): the same lines, for text of printable ASCII only (each cell one character, no
    control code for rich to strip); anything else raises :class:`_NotPlain`."""

    _PLAIN = re.compile(r"[ -~]*")

    def __init__(self, width: int) -> None:
        self.width = width
        self.out: list[str] = []

    def blank(self) -> None:
        self.out.append("")

    def line(self, text: str, style: str | None = None) -> None:
        if not self._PLAIN.fullmatch(text):
            raise _NotPlain
        self.out += wrap(text, self.width)

    def heading(self, text: str, style: str | None, align: Literal["left", "center", "right"] = "left") -> None:
        """rich's ``Rule`` of ``text`` at the full width (its "─" line; a title that fits)."""
        if len(text) + 6 > self.width:
            self.line(text, "bold")
            return
        if not self._PLAIN.fullmatch(text) or align == "right":
            raise _NotPlain
        w, n = self.width, len(text)
        if align == "center":
            side = (w - n) // 2
            self.out.append("\u2500" * (side - 1) + " " + text + " " + "\u2500" * (w - side - 1 - n))
        else:
            self.out.append(text + " " + "\u2500" * (w - n - 1))


def render(report: dict[str, Any], g: Game[Any], rs: Any, console: Console) -> None:
    """Lay the report out on ``console`` at its width: lines are broken only between words,
    never inside a command or an id (:mod:`.term`); a phase in which nothing happened is one
    line, not an empty heading."""
    _render(_Writer(console, getattr(g, "term_styles", None)), report, g, rs)  # the game's names in colour


def _render(w: _Writer | _TextWriter, report: dict[str, Any], g: Game[Any], rs: Any) -> None:
    """:func:`render` on a writer (:class:`_Writer` on a console, or :class:`_TextWriter`)."""
    _render_head(w, report)
    _render_events(w, report, g, rs)
    if report["issues"]:
        w.blank()
        w.heading("problems", "red")
        for i in report["issues"]:
            w.line(_issue_line(i))
    if report["provisional"]:
        w.blank()
        w.heading("provisional data that decided outcomes in this step", None)
        for p in report["provisional"]:
            w.line(f"- {p['item']}" + (f": {p['note']}" if p.get("note") else ""))
    w.blank()
    out = report.get("output")
    if out:
        w.line(f"new state: {out['state']} ({out['hash'][:16]}...) - {stopped_text(report['stopped'])}")
    else:
        w.line(f"nothing written - {stopped_text(report['stopped'])}")


def _render_head(w: _Writer | _TextWriter, report: dict[str, Any]) -> None:
    """The title, the input state, the order files and the dice. Everything a third party needs
    to recompute a roll by hand is printed in full (issue 8): the commitment or chain links,
    and for each phase that rolled, its key's inputs (under the phase)."""
    w.heading(f"pbem {report['game']} - campaign {report['campaign']} - step {report['step']}", "bold", align="center")
    w.line(f"input state: {report['input']['state']}")
    w.line(f"  state hash {report['input']['hash']}")
    d = report["dice"]
    digest = "receipt" if d.get("receipts") else "sha256"   # a receipt: HMAC of the file with the dice key
    for o in report["orders"]:
        w.line(f"orders: {o['file']} from the {o['player']} player")
        w.line(f"  {digest} {o['sha256']}")
    if d.get("mode") == "chain":
        w.line(f"dice: {d['algorithm']}, hash chains (no referee); heads:")
        for p, h in sorted(d["heads"].items()):
            w.line(f"  {p} {h}")
        for r in d.get("reveals", []):
            w.line(f"  link {r['index']} of the {r['player']} player (checked against the previous link): {r['link']}")
    else:
        w.line(f"dice: {d['algorithm']}; the key's commitment:")
        w.line(f"  {d['commitment']}")
    if report.get("rolls"):
        w.line("verify any roll with `pbem dice verify`; from this report and the revealed key alone:")
        w.line(f"  pbem dice verify LABEL --key-hex KEY --game {report['game']} --campaign-id {report['campaign']}")
        w.line("  and the dice key inputs printed under the roll's phase (--step, --orders, --state)")
    else:
        w.line("verify any roll with `pbem dice verify`")


def _render_events(w: _Writer | _TextWriter, report: dict[str, Any], g: Game[Any], rs: Any) -> None:
    """The events under their phases' headings; a phase without any is one dim line."""
    labels = [r["label"] for r in report.get("rolls") or []]
    described = list(zip(report["events"], described_events(report["events"], g, rs)))
    empty_before = False   # the last thing printed was the line of a phase without events
    for k, (ev, lines) in enumerate(described):
        if ev["type"] == "phase":
            empty_before = _render_phase(w, report, ev, lines[0], described[k + 1:], labels, empty_before)
            continue
        if lines:
            empty_before = False
        style = _EVENT_STYLES.get(ev["type"])
        for i, text in enumerate(lines):
            w.line(text, style if i == 0 else None)


def _render_phase(w: _Writer | _TextWriter, report: dict[str, Any], ev: dict[str, Any], title: str, rest: list[Any], labels: list[str],
                  empty_before: bool) -> bool:
    """A phase's heading (one line when no event of it says anything) and, when it rolled, its
    dice key's inputs; True when the phase was empty."""
    empty = True
    for ev2, lines2 in rest:
        if ev2["type"] == "phase":
            break
        if lines2:
            empty = False
            break
    if empty:
        if not empty_before:
            w.blank()
        w.line(f"{title}: nothing to report", "dim")
    else:
        w.blank()
        w.heading(title, SIDE_STYLES_BY_ID.get(ev.get("player") or "", "cyan"))
    ki = ev.get("key_inputs")
    if ki and any(x.startswith(f"{report['game']}/{report['campaign']}/{ki['step']}/") for x in labels):
        w.line("dice key inputs of this phase:", "dim")
        w.line(f"  --step {ki['step']}", "dim")
        w.line(f"  --orders {ki['orders']}", "dim")
        w.line(f"  --state {ki['state']}", "dim")
    return empty


def _issue_line(i: dict[str, Any]) -> str:
    loc = i.get("file") or ""
    if i.get("line"):
        loc += f":{i['line']}"
    s = f"{loc + ': ' if loc else ''}{i['severity']} {i['code']}: {i['message']}"
    if not i.get("line") and i.get("path"):
        # no line to point at (e.g. the resumed orders of an earlier step): say where in the file
        s += f" (at {format_path(tuple(i['path']))})"
    if i.get("text"):
        s += f" > {i['text']}"
    if i.get("rule") and not cites(i["message"], i["rule"]):     # "(15.3) [15.3]": the rule once
        s += f" [{i['rule']}]"
    if i.get("hint"):
        s += f" (hint: {i['hint']})"
    return s


def render_text(report: dict[str, Any], g: Game[Any], rs: Any, width: int = TEXT_WIDTH) -> str:
    """The archived report.txt: fixed width, colourless, the same on every machine (a v1
    report keeps the layout it was archived with)."""
    if report.get("schema") not in LEGACY_SCHEMAS:
        w = _TextWriter(width)
        try:
            _render(w, report, g, rs)
            return "".join(line.rstrip() + "\n" for line in w.out)
        except _NotPlain:
            pass
    buf = io.StringIO()
    c = _console(width, file=buf)
    if report.get("schema") in LEGACY_SCHEMAS:
        _render_v1(report, g, rs, c)
    else:
        render(report, g, rs, c)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def _render_v1(report: dict[str, Any], g: Game[Any], rs: Any, console: Console) -> None:
    """The layout of report.txt in v1 reports, kept unchanged so that old archives replay byte
    for byte: rich wraps (and may break a command), empty phases keep their heading, the last
    line says ``stopped: <reason>``."""
    from rich.rule import Rule  # rich is slow to import: only where a report is laid out
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
        lines = describe(ev, g, rs)
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
