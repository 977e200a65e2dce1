"""The campaign book (issue 22): a static, self-contained web site of a whole campaign.

``pbem book CAMPAIGN -o DIR`` writes ``DIR/index.html`` (the campaign, its players, its dice,
where it stands and the timeline of every step) and ``DIR/step-NNN.html`` per archived step (the
map of the state after the step with the step's marks, as inline SVG drawn by the game's own
``draw_map_parts`` or ``draw_map``, what the maps share written once, :data:`SHARED`; the report, byte for byte the archived ``report.txt``; the decisions asked and
answered; the order files as submitted; each roll and how to verify it). No server, network,
CDN or framework: plain HTML, inline CSS and a little inline script (arrow keys, jump to a turn).

What a player may see, and nothing else: the book never reads ``private/`` (except the dice key
when the caller says it is published, to replay with it, and never copies it), and an order file
the archive holds but whose phase has not run yet (``received`` in the latest state, or being
carried out by a phase waiting for a decision, ``resume.files``: its moves,
its openings of sealed choices) is named, not shown. The reports themselves are what every player
is mailed. Deterministic: the same archive (and the same options) give the same bytes.

The core knows no game: the wording of an event is the game's (``describe_event``), the map its
``draw_map``; the book only groups events by the types the kernel's reports share (``combat``,
``move``, ``retreat``, ``advance``, ``pending``, ``resume``, ``vp``, ``void``).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ExitCode, Issue, PbemError

if TYPE_CHECKING:
    import jinja2

    from .campaign import Campaign
    from .game import Game

MARKER = "pbem-book.txt"
MARKER_TEXT = ("A campaign book written by `pbem book`. Open index.html in a web browser: no server or network is needed.\n"
               "`pbem book CAMPAIGN -o THIS-FOLDER --replace` writes it again (it replaces only a folder holding this file).\n")
TEMPLATES = Path(__file__).with_name("book_templates")
ARCHIVE_FILES = ("report.json", "report.txt", "campaign.json")


@dataclass
class Step:
    """One archived step, as the book shows it."""
    n: int
    name: str                       # step-NNN.html
    state: dict[str, Any]
    state_file: str
    report: dict[str, Any] | None
    text: str                       # report.txt (step 000: the start's text)
    files: list[dict[str, Any]] = field(default_factory=list)   # {name, text or None (hidden), why}
    combats: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    phases: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    turn: int = 0
    verified: bool = False
    svg: str = ""


@dataclass
class BookResult:
    pages: int = 0
    notes: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


# ----------------------------------------------------------------------------- reading the archive
def hidden_files(camp: Campaign, last_state: dict[str, Any]) -> dict[str, str]:
    """The order files archived but not carried out yet, by name, with why they are not shown:
    until their phase runs, another player may not read them. Those the latest state lists as
    ``received``, and those of a phase stopped at a pending decision (``resume.files``, issue
    20: the orders after the decision are still to be carried out)."""
    out: dict[str, str] = {}
    dirs = {int(d.name): d for d in camp.step_dirs()}
    why = {"received": "received from the {p} player; shown once its phase is carried out "
                       "(until then no other player may read it)",
           "pending": "the {p} player's orders being carried out: their phase waits for a decision; shown once "
                      "it is carried out (until then no other player may read the orders still to come)"}
    refs = [("received", p, r) for p, r in sorted((last_state.get("received") or {}).items())]
    refs += [("pending", p, r) for p, r in sorted(((last_state.get("resume") or {}).get("files") or {}).items())]
    for kind, player, rec in refs:
        d = dirs.get(int((rec or {}).get("step", -1)))
        if d is None:
            continue
        rep = _report(camp, d) or {}
        for o in rep.get("orders") or []:
            if o.get("player") == player and o.get("sha256", rec.get("sha256")) == rec.get("sha256"):
                out[f"{d.name}/{o['file']}"] = why[kind].format(p=player)
    return out


def replayed_state(path: Path) -> dict[str, Any]:
    """A state the replay has found byte-identical to the one the engine makes again from the
    step before (issue 33: checking the schema of 123 states again was a tenth of the book's
    time). What the engine writes is valid by construction, and the replay compared these very
    bytes (all but the comment lines at the top, which no hash covers and the book does not
    read); the state's hash is still checked against its content, so that what the book draws
    is what the hash, and the replay, covered. Any doubt: the full check
    (:func:`pbem.core.campaign.load_state_file`), which says what is wrong."""
    from .campaign import MAX_STATE_BYTES, load_state_file
    from .canon import state_hash
    from .errors import PbemError as _Err
    from .files import read_bytes_limited
    from .yamlio import load_yaml
    try:
        st = load_yaml(read_bytes_limited(path, MAX_STATE_BYTES), str(path), max_bytes=MAX_STATE_BYTES,
                       max_nodes=2_000_000).data
    except _Err:
        st = None
    if isinstance(st, dict) and isinstance(st.get("hash"), str) and st["hash"] == state_hash(st):
        return st
    return load_state_file(path)[0]


def _report(camp: Campaign, d: Path) -> dict[str, Any] | None:
    from .files import read_bytes_limited
    p = d / "report.json"
    if not p.is_file():
        return None
    loaded: dict[str, Any] = json.loads(read_bytes_limited(camp.inside(p), 50_000_000))
    return loaded


def read_step(camp: Campaign, d: Path, g: Game[Any], rs: Any, hidden: dict[str, str], *, replayed: bool = False,
              state: dict[str, Any] | None = None) -> Step:
    """A step of the archive: its state, report, text and files (hidden ones without text).
    ``replayed``: the replay has just made this step's state again from the one before and
    found the archived file byte-identical (:func:`verify_steps`): its schema is not checked
    again (:func:`replayed_state`). ``state``: that state as the replay made it, which is the
    file's content (the replay compared the bytes it writes from it with the file's): the file
    is not read at all."""
    from .campaign import load_state_file
    from .files import read_bytes_limited
    from .mail import start_text
    spath = camp.state_path(d)
    if state is None:
        state = replayed_state(camp.inside(spath)) if replayed else load_state_file(spath)[0]
    report = _report(camp, d)
    n = int(d.name)
    if report is None:
        text = start_text(camp.manifest, state)
    else:
        text = read_bytes_limited(camp.inside(d / "report.txt"), 50_000_000).decode("utf-8", "replace")
    st = Step(n=n, name=f"step-{n:03d}.html", state=state, state_file=spath.name, report=report, text=text,
              turn=int(state.get("turn") or 0))
    for p in sorted(d.iterdir()):
        if p.name in ARCHIVE_FILES or p == spath or not p.is_file():
            continue
        key = f"{d.name}/{p.name}"
        if key in hidden:
            st.files.append({"name": p.name, "text": None, "why": hidden[key]})
        else:
            raw = read_bytes_limited(camp.inside(p), 5_000_000)
            st.files.append({"name": p.name, "text": raw.decode("utf-8", "replace"), "why": ""})
    if report is not None:
        _events(st, g, rs)
    return st


def _roll_inputs(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The dice key inputs of each phase of a report (by the key's ``step``, e.g. t01/soviet.combat)."""
    out: dict[str, dict[str, Any]] = {}
    for e in report.get("events") or []:
        ki = e.get("key_inputs")
        if e.get("type") == "phase" and isinstance(ki, dict) and ki.get("step"):
            out.setdefault(ki["step"], ki)
    return out


def _events(st: Step, g: Game[Any], rs: Any) -> None:
    """Fill the step's combats, rolls, decisions, phases and one-line summary from its report."""
    from .errors import choice_text
    rep = st.report or {}
    inputs = _roll_inputs(rep)
    roll_ids: dict[Any, str] = {}
    for k, r in enumerate(rep.get("rolls") or [], 1):
        parts = str(r.get("label", "")).split("/")
        ki = inputs.get("/".join(parts[2:4]), {})
        roll_ids[r.get("label")] = f"roll-{k}"
        st.rolls.append({"id": f"roll-{k}", "label": r.get("label"), "value": r.get("value"),
                         "sides": r.get("sides", 6), "inputs": ki})
    counts: dict[str, int] = {}
    for e in rep.get("events") or []:
        t = e.get("type")
        counts[t] = counts.get(t, 0) + 1
        if t == "phase":
            _phase(st, f"turn {e.get('turn')}", g.phase_title(e.get("phase", "")))
        elif t == "combat":
            _combat(st, g, rs, e, roll_ids)
        elif t == "pending":
            d = e.get("decision") or {}
            opts = f"; options: {' | '.join(choice_text(o) for o in d['options'])}" if "options" in d else ""
            st.asked.append(f"{d.get('id')} ({d.get('player')}): {d.get('prompt')}{opts}")
        elif t == "resume":
            st.answered += [f"{k} = {choice_text(v)}" for k, v in (e.get("answers") or {}).items()]
        elif t == "vp":
            st.summary += [ln.strip() for ln in g.describe_event(rs, e)[:1]]
    st.players = sorted({o.get("player") for o in rep.get("orders") or [] if o.get("player")})
    # what happened, counted (issue 33: combats, eliminations and replacements were left out)
    words = [(sum(counts.get(t, 0) for t in ts), w) for ts, w in _COUNTED]
    head = ", ".join(f"{c} {w}" if c == 1 else f"{c} {_plural(w)}" for c, w in words if c)
    stopped = {"pending": "stopped: a decision is asked", "waiting": "archived: waits for more orders",
               "links": "archived: waits for the players' chain links"}.get(str(rep.get("stopped")), "")
    st.summary = [s for s in [head, stopped] if s] + st.summary


# the events a step's line counts, by what they are called (the games' event types: a move of a
# Battle for Germany unit or of a BlitzWAR counter, fleets, air missions, ...)
_COUNTED = ((("move", "fleet-move", "one-zone-move"), "move"), (("combat",), "combat"),
            (("naval-battle",), "naval battle"), (("air-mission",), "air mission"),
            (("retreat",), "retreat"), (("advance",), "advance"),
            (("eliminated",), "unit eliminated"), (("replacement", "replacements"), "replacement"),
            (("city-captured", "control"), "zone or city taken"), (("void",), "void order"))


def _plural(w: str) -> str:
    head, _, rest = w.partition(" ")
    if rest and head in ("unit", "zone"):
        return head + "s " + rest
    return w + ("es" if w.endswith("s") else "s")


def mark_answers(steps: list[Step]) -> None:
    """A resumed phase's event lists every answer given so far: each step keeps only the
    answers first given in it (issue 33: the earlier ones came again on every later step)."""
    seen: set[str] = set()
    for s in steps:
        new = [a for a in s.answered if a not in seen]
        seen.update(s.answered)
        s.answered = new


def _phase(st: Step, turn: str, title: str) -> None:
    """Add a phase to the step's list, grouped by turn: ``turn 1: A, B; turn 2: C``."""
    if st.phases and st.phases[-1].startswith(turn + ": "):
        if not st.phases[-1].endswith(title):
            st.phases[-1] += f", {title}"
    else:
        st.phases.append(f"{turn}: {title}")


def mark_repeats(steps: list[Step]) -> None:
    """A phase resumed after a decision is carried out again from its start with the same dice:
    its combats repeat an earlier step's. Mark each such combat with the step it first came in."""
    seen: dict[str, tuple[Step, str]] = {}
    for s in steps:
        for c in s.combats:
            first = seen.get(c["label"]) if c["label"] else None
            c["again"] = first[0].n if first is not None else None
            c["again_link"] = f"{first[0].name}#{first[1]}" if first is not None else None
            if c["label"] and first is None:
                seen[c["label"]] = (s, c["id"])


def _combat(st: Step, g: Game[Any], rs: Any, e: dict[str, Any], roll_ids: dict[Any, str]) -> None:
    lines = g.describe_event(rs, e)
    roll = e.get("roll") or {}
    k = len(st.combats) + 1
    st.combats.append({"id": f"combat-{k}", "title": (lines[0].strip() if lines else f"combat {k}"),
                       "lines": [ln.rstrip() for ln in lines[1:]], "odds": e.get("odds"), "column": e.get("column"),
                       "die": roll.get("value"), "label": roll.get("label"), "result": e.get("result"),
                       "roll_id": roll_ids.get(roll.get("label"))})


# ----------------------------------------------------------------------------- the dice
def dice_info(camp: Campaign, revealed: bool) -> dict[str, Any]:
    """The dice mode, its commitment and whether the book may say how to recompute the rolls."""
    d = camp.manifest.get("dice") or {}
    chain = d.get("mode") == "chain"
    from .chain import dice_summary
    # the book never reads private/ without --revealed; that a key file lies there says nothing of
    # whether it is published (an example publishes it, a game master's folder keeps it): the
    # book then says it was made without it, not that it is secret (issue 33)
    key_here = not chain and (camp.root / "private" / "dice.key").is_file()
    return {"summary": dice_summary(camp.current()[1].get("dice") or {}), "chain": chain, "algorithm": d.get("algorithm"),
            "commitment": d.get("commitment"), "heads": sorted((d.get("heads") or {}).items()), "open": chain or revealed,
            "revealed": revealed, "key_here": key_here}


def verify_steps(camp_root: Path, key_path: Path | None,
                 states: Callable[[int, dict[str, Any]], None] | None = None) -> tuple[int, bool, list[Issue], list[str]]:
    """Replay the archive (:func:`pbem.core.replay.replay_campaign`): (steps byte-identical,
    whether all were, issues, notes). ``states(k, state)``: given each state the replay made
    again and found byte-identical to the archived one."""
    from .replay import replay_campaign
    res = replay_campaign(camp_root, key_path=key_path, states=states)
    errors = [i for i in res.issues if i.is_error]
    # what replay says of the game master's private/ folder is no business of the book's readers
    notes = [n for n in res.notes if not n.startswith("private/")]
    return res.steps, not errors, res.issues, notes


# ----------------------------------------------------------------------------- the site
def _environment() -> jinja2.Environment:
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["choice"] = _choice
    return env


def _choice(v: Any) -> str:
    from .errors import choice_text
    return choice_text(v)


def inline_svg(svg: str) -> str:
    """The game's SVG as it goes inside an HTML page: without its XML declaration."""
    s = svg.lstrip()
    if s.startswith("<?xml"):
        s = s[s.index("?>") + 2:].lstrip()
    return s


# what every page's map shares (issue 33: 142 MB, a megabyte of inline SVG a page): most of a
# map (zones' outlines and terrain, seas, coasts, borders, links, symbols) is the same on every
# step of a campaign. Each run of consecutive whole elements found on two pages or more is
# written once into SHARED; a page holds an empty <g data-shared="N"> in its place, which the
# page's script fills from SHARED as it loads: the map in the browser is the very SVG the game
# drew, with every colour, layer and hover title. (An <img> of a base picture under the marks
# would lose the hover titles of the zones, seas and symbols and the layering: the control
# colours lie under the borders, the names over the counters.) A game that gives its maps as
# parts (draw_map_parts, pbem.core.mapdraw.draw_parts) says itself which parts repeat, drawn
# once (share_parts); the runs of a game's plain SVG are found by share_runs.
SHARED = "map-shared.js"
SHARED_MIN = 60          # a part shorter than this (in characters) stays in the page
_WHOLE = re.compile(r'<([\w-]+)(?:\s[^<>]*)?(?:/>|>(?:[^<>]|<title>[^<>]*</title>)*</\1>)')
_OPEN = re.compile(r'<([\w-]+)(?:\s[^<>]*)?>')
_CLOSE = re.compile(r'</([\w-]+)>')


def _parts(lines: list[str]) -> list[Any]:
    """An SVG's lines as a tree: a part is a line, or [open line, parts..., close line] for a
    group whose open and close tags stand alone on their lines (as the games' writers put them)."""
    root: list[Any] = []
    stack: list[tuple[str, list[Any]]] = []
    for line in lines:
        t = line.strip()
        o = None if _WHOLE.fullmatch(t) else _OPEN.fullmatch(t)
        c = _CLOSE.fullmatch(t)
        top = stack[-1][1] if stack else root
        if o and o.group(1) != "svg":
            node: list[Any] = [line]
            top.append(node)
            stack.append((o.group(1), node))
        elif c and stack and stack[-1][0] == c.group(1):
            stack[-1][1].append(line)
            stack.pop()
        else:
            top.append(line)
    if stack:                        # a group left open: the lines as they are, none grouped
        return list(lines)
    return root


def _count_parts(trees: list[list[Any]]) -> tuple[dict[int, tuple[str, int]], dict[str, int]]:
    """Each part's (digest, length) by its id (a group's digest from its parts': no group's text
    is joined), and on how many pages each digest of a part worth sharing is found."""
    import hashlib
    info: dict[int, tuple[str, int]] = {}     # id(part): (digest, length), a group's from its parts'
    count: dict[str, int] = {}

    def digest(part: Any, seen: set[str]) -> str:
        if isinstance(part, str):
            h, n = hashlib.sha1(part.encode("utf-8")).hexdigest(), len(part)
            ok = bool(_WHOLE.fullmatch(part.strip()))
        else:
            subs = [digest(p, seen) for p in part[1:-1]]
            h = hashlib.sha1("\n".join([part[0], *subs, part[-1]]).encode("utf-8")).hexdigest()
            n = len(part[0]) + len(part[-1]) + sum(info[id(p)][1] for p in part[1:-1])
            ok = True
        info[id(part)] = (h, n)
        if ok and n >= SHARED_MIN:
            seen.add(h)
        return h

    for tree in trees:
        seen: set[str] = set()
        for part in tree:
            digest(part, seen)
        for h in seen:
            count[h] = count.get(h, 0) + 1
    return info, count


def share_runs(svgs: list[str]) -> tuple[list[str], str]:
    """The pages' SVGs with every part (a whole element, or a whole group) found on two pages or
    more written once into the script, each run of such parts in a page replaced by one
    placeholder naming them; and that script ("" when nothing is shared). Game-neutral: it reads
    only SVG lines. Deterministic: the parts are numbered in order of first use."""
    trees = [_parts(svg.split("\n")) for svg in svgs]
    info, count = _count_parts(trees)
    ids: dict[str, int] = {}
    shared: list[str] = []
    out: list[str] = []

    def emit(parts: list[Any], page: list[str]) -> None:
        run: list[str] = []
        for part in parts + [None]:
            # (count holds only the parts worth sharing: whole, and SHARED_MIN long at least)
            if part is not None and count.get(h := info[id(part)][0], 0) >= 2:
                if h not in ids:       # a group is kept as its tags and its parts' numbers
                    ids[h] = len(shared)
                    shared.append(part if isinstance(part, str) else "")
                    if not isinstance(part, str):
                        inner: list[str] = [part[0]]
                        emit(part[1:-1], inner)
                        shared[ids[h]] = "\n".join(inner + [part[-1]])
                run.append(str(ids[h]))
                continue
            if run:
                page.append(f'<g data-shared="{" ".join(run)}"></g>')
                run = []
            if part is None:
                break
            if isinstance(part, str):
                page.append(part)
            else:
                page.append(part[0])
                emit(part[1:-1], page)
                page.append(part[-1])

    for tree in trees:
        page: list[str] = []
        emit(tree, page)
        out.append("\n".join(page))
    return out, (_shared_script(shared) if shared else "")


def share_parts(pages: list[list[str]]) -> tuple[list[str], str]:
    """As :func:`share_runs`, for maps a game gives as parts (``draw_map_parts``,
    :func:`pbem.core.mapdraw.draw_parts`): the game says which parts are the same on many maps
    (:class:`pbem.core.mapdraw.Shared`, the unchanging base drawn once, a zone, a stack of
    counters): each one found on two pages or more (and SHARED_MIN long at least) is written
    once into the script, each run of them in a page replaced by one placeholder. Nothing is
    parsed or hashed but the parts themselves (a part the game drew once is the same object on
    every page). Put back, each page is its parts joined, the picture the game drew."""
    from .mapdraw import Shared
    count: dict[str, int] = {}
    for parts in pages:
        for piece in {q for q in parts if isinstance(q, Shared) and len(q) >= SHARED_MIN}:
            count[piece] = count.get(piece, 0) + 1
    ids: dict[str, int] = {}
    shared: list[str] = []
    out: list[str] = []
    for parts in pages:
        page: list[str] = []
        run: list[str] = []
        for part in parts:
            if isinstance(part, Shared) and count.get(part, 0) >= 2:
                n = ids.get(part)
                if n is None:
                    n = ids[part] = len(shared)
                    shared.append(str(part))
                run.append(str(n))
                continue
            if run:
                page.append(f'<g data-shared="{_ranges(run)}"></g>')
                run = []
            page.append(part)
        if run:
            page.append(f'<g data-shared="{_ranges(run)}"></g>')
        out.append("\n".join(page))
    return out, (_shared_script(shared) if shared else "")


def _ranges(ns: list[str]) -> str:
    """The numbers of a run of shared parts, three or more consecutive ones as ``first-last``
    (a map's zones, unchanged from one step to the next, are a few hundred parts in a row)."""
    out: list[str] = []
    i = 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and int(ns[j + 1]) == int(ns[j]) + 1:
            j += 1
        out += [f"{ns[i]}-{ns[j]}"] if j - i >= 2 else ns[i:j + 1]
        i = j + 1
    return " ".join(out)


def _shared_script(shared: list[str]) -> str:
    """The script of a book's shared map parts: it fills each page's placeholders."""
    script = ("// The parts every map of this book shares, written by pbem book: each step page loads this file.\n"
              "(function () {\n  \"use strict\";\n  var shared = [\n"
              + ",\n".join(json.dumps(t) for t in shared) + "\n  ];\n"
              "  var gs = document.querySelectorAll(\"#map g[data-shared]\");\n"
              "  while (gs.length) {  // a shared group holds the numbers of its own shared parts\n"
              "    for (var i = 0; i < gs.length; i++) {\n"
              "      var parts = [];  // numbers, and first-last for a row of them\n"
              "      gs[i].getAttribute(\"data-shared\").split(\" \").forEach(function (t) {\n"
              "        var ab = t.split(\"-\");\n"
              "        for (var n = Number(ab[0]); n <= Number(ab[ab.length - 1]); n++) { parts.push(shared[n]); }\n"
              "      });\n"
              "      gs[i].removeAttribute(\"data-shared\");\n"
              "      gs[i].innerHTML = parts.join(\"\\n\");\n"
              "    }\n"
              "    gs = document.querySelectorAll(\"#map g[data-shared]\");\n"
              "  }\n}());\n")
    return script


def _turns(steps: list[Step]) -> list[tuple[int, str]]:
    """(turn, page of the first step that reached it) for the jump-to-turn list."""
    out: dict[int, str] = {}
    for s in steps:
        out.setdefault(s.turn, s.name)
    return sorted(out.items())


def _standing(camp: Campaign, g: Game[Any], rs: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Where the campaign stands after its last step: turn, phase, who is awaited, the result."""
    from .kernel import awaited
    from .mail import result_phrase
    players = camp.manifest.get("players") or {}
    wait = [f"{a['for']} from the {a['player']} player ({(players.get(a['player']) or {}).get('name', a['player'])})"
            for a in awaited(state)]
    pend = [f"{d['id']} ({d['player']}): {d['prompt']}" for d in state.get("pending") or []]
    res = state.get("result")
    return {"turn": state.get("turn"), "date": rs.turn_date(state["turn"]) if hasattr(rs, "turn_date") else "",
            "phase": g.phase_title(state.get("phase", "")), "awaiting": wait, "pending": pend,
            "received": sorted(state.get("received") or {}),
            "result": (f"{result_phrase(res)} - {res.get('reason', '')}" if res else "")}


def render_site(camp: Campaign, g: Game[Any], rs: Any, steps: list[Step], *, dice: dict[str, Any], verified: dict[str, Any],
                shapes: str = "") -> dict[str, bytes]:
    """Every file of the book, by name: deterministic bytes. ``shapes``: the script of the
    shapes the maps share (:func:`share_runs`), "" if none."""
    env = _environment()
    m = camp.manifest
    common = {"game": g.title or m.get("game"), "campaign": m.get("id"), "title": m.get("title") or "",
              "scenario": m.get("scenario"), "steps": steps, "turns": _turns(steps), "dice": dice,
              "verified": verified, "first": steps[0].name, "last": steps[-1].name,
              "shapes": SHARED if shapes else ""}
    players = [{"role": r, "name": (i or {}).get("name", r), "title": g.player_title(rs, r),
                "signs": bool((i or {}).get("key"))} for r, i in sorted((m.get("players") or {}).items())]
    files = {MARKER: MARKER_TEXT.encode("utf-8")}
    files["index.html"] = env.get_template("index.html.j2").render(
        **common, players=players, now=_standing(camp, g, rs, steps[-1].state), page="index.html").encode("utf-8")
    step_t = env.get_template("step.html.j2")
    for i, s in enumerate(steps):
        files[s.name] = step_t.render(**common, s=s, page=s.name,
                                      prev=steps[i - 1].name if i else None,
                                      next=steps[i + 1].name if i + 1 < len(steps) else None).encode("utf-8")
    return files


# ----------------------------------------------------------------------------- writing
def check_target(out: Path, camp_root: Path, replace: bool) -> None:
    """Refuse a folder that is (or holds, or lies in) the campaign, and an existing folder
    unless ``replace`` and it is a book pbem wrote (it holds MARKER) or empty."""
    o, c = Path(out).resolve(), Path(camp_root).resolve()
    if o == c or c in o.parents or o in c.parents:
        raise PbemError([Issue("BOOK-IN-ARCHIVE", f"{out} is inside the campaign folder {camp_root} (or holds it): "
                               "the book never writes into the archive", file=str(out),
                               hint="give a folder outside the campaign, e.g. -o book")], ExitCode.USAGE)
    if o.exists() and not o.is_dir():
        raise PbemError([Issue("FILE-EXISTS", f"{out} exists and is not a folder", file=str(out))], ExitCode.IO)
    if o.is_dir() and any(o.iterdir()):
        if not replace:
            raise PbemError([Issue("FILE-EXISTS", f"{out} exists and is not empty", file=str(out),
                                   hint="add --replace to write the book again (a folder pbem book wrote), or give a new folder")],
                            ExitCode.IO)
        if not (o / MARKER).is_file():
            raise PbemError([Issue("BOOK-NOT-A-BOOK", f"{out} is not a folder pbem book wrote (no {MARKER}): not replaced",
                                   file=str(out), hint="give a new folder, or an empty one")], ExitCode.IO)


def write_site(out: Path, files: dict[str, bytes]) -> None:
    """Write the book into a temporary sibling folder, then put it in place of ``out``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    try:
        for name, data in sorted(files.items()):
            (tmp / name).write_bytes(data)
        if out.exists():
            old = out.parent / f".{out.name}.old-{os.getpid()}"
            os.rename(out, old)
            os.rename(tmp, out)
            shutil.rmtree(old)
        else:
            os.rename(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _verified_steps(camp: Campaign, g: Game[Any], rs: Any, hidden: dict[str, str], res: BookResult, *, replay: bool,
                    key_path: Path | None, share_states: bool) -> tuple[list[Step], dict[str, Any]]:
    """Every step of the archive (:func:`read_step`), verified by replay first where ``replay``
    (:func:`verify_steps`: its issues into ``res``): each step it made again byte-identical is
    marked so, and its state is the one the replay made (``share_states``), not read again."""
    dirs = camp.step_dirs()
    verified: dict[str, Any] = {"done": False, "ok": False, "steps": 0, "notes": []}
    replayed = 0          # steps 1..replayed made again by the replay, byte-identical
    made: dict[int, dict[str, Any]] = {}    # step -> its state as the replay made it (byte-identical to the file)
    if replay:
        n, ok, issues, notes = verify_steps(camp.root, key_path, states=made.__setitem__ if share_states else None)
        verified = {"done": True, "ok": ok, "steps": n, "notes": notes}
        res.issues += issues
        replayed = len(dirs) - 1 if ok else n
    steps = [read_step(camp, d, g, rs, hidden, replayed=1 <= k <= replayed, state=made.get(k) if 1 <= k <= replayed else None)
             for k, d in enumerate(dirs)]
    for s in steps:
        s.verified = bool(verified["done"]) and 1 <= s.n <= replayed
    return steps, verified


def build_book(campaign: Path, out: Path, *, replace: bool = False, revealed: bool = False,
               key_path: Path | None = None, draw: Callable[..., str | list[str]] | None = None,
               share_states: bool = True) -> BookResult:
    """Read the archive, check the target, verify by replay where the dice allow it (hash
    chains always; the game master's key once ``revealed``), draw every step's map, render and
    write the book. ``draw(state, report)``: the map drawer (default the game's, through
    :func:`pbem.core.mapdraw.draw_state`). ``share_states``: the book takes the states the
    replay made again and found byte-identical instead of reading their files (False reads
    every file: the test that both give the same book)."""
    from .campaign import Campaign
    from .data import load_ruleset
    from .mapdraw import Shared, draw_parts
    from .progress import progress
    camp = Campaign(campaign)
    check_target(out, camp.root, replace)
    revealed = revealed or key_path is not None
    g, rs = load_ruleset(camp.manifest["scenario"])
    dirs = camp.step_dirs()
    if not dirs:
        raise PbemError([Issue("FILE-ARCHIVE", f"{campaign} has no steps/000", file=str(campaign))], ExitCode.INVALID)
    _, last = camp.current()
    hidden = hidden_files(camp, last)
    dice = dice_info(camp, revealed)
    res = BookResult()
    steps, verified = _verified_steps(camp, g, rs, hidden, res, replay=dice["open"], key_path=key_path,
                                      share_states=share_states)
    mark_repeats(steps)
    mark_answers(steps)
    drawer: Callable[..., str | list[str]] = draw or (lambda st, rep: draw_parts(st, rep))
    drawn: list[Any] = []
    with progress(len(steps), "drawing the maps") as advance:
        for s in steps:
            drawn.append(drawer(s.state, s.report))
            advance()
    if all(isinstance(d, list) for d in drawn) and any(isinstance(q, Shared) for d in drawn for q in d):
        # the game's parts (draw_map_parts), which say what many maps share
        pages, shapes = share_parts([[inline_svg(d[0]), *d[1:]] if d else [] for d in drawn])
    else:
        pages, shapes = share_runs([inline_svg(d if isinstance(d, str) else "\n".join(d)) for d in drawn])
    for s, svg in zip(steps, pages):
        s.svg = svg
    files = render_site(camp, g, rs, steps, dice=dice, verified=verified, shapes=shapes)
    if shapes:
        files[SHARED] = shapes.encode("utf-8")
    write_site(out, files)
    res.pages = len(steps) + 1
    if hidden:
        res.notes.append(f"{len(hidden)} order file(s) received, or of a phase waiting for a decision, "
                         "but not carried out yet are named, not shown")
    return res
