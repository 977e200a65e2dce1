#!/usr/bin/env python3
"""Make examples/blitzwar-1939: a three-player BlitzWAR campaign (issue 12) played through the
pbem command line with a published dice key, from turn 1 until Poland is overrun.

* The Axis moves and activates armour and infantry against the Polish stacks each turn
  (paying supply: the reports say how much and from where), attacks in the blitz phase (when
  the weather allows it: not in mud, 6) and in the normal combat phase, advances with all
  survivors, and when the Polish army is gone drives a one-corps armour counter through the
  Polish zones left, until every Polish zone is Axis-held. Planning is greedy and written
  here (axis_plan): each Polish stack, strongest first, gets the cheapest attack with RATIO
  corps a defending corps within the supply left, else the strongest one that is at least 1-1.
  When pbem asks again for the normal combat orders (17.1: a blitz that left defenders must be
  fought on), axis_combat_again sends those attacks and the planned ones that still fit.
* The Allies and the USSR send the minimal orders each awaited phase needs (the phases of the
  template, empty); every pending decision (losses, retreats, advances) is answered by an answer
  file made with ``pbem orders template``, the first legal choice (an advance: the first unit
  rather than none).
* Every file is checked with ``pbem validate`` before ``pbem adjudicate``; the script stops
  loudly when they disagree (a bug to report). At the end ``pbem replay`` must pass.

NOT played yet: the 1940 offensive in the west of issue 12. With this pbem the Axis gets no
supply after its starting 4 held + a 2-unit counter (replacements, 10-11, pass without effect),
which Poland all but uses up; the only Franco-German border of the provisional map is the
Nancy fortress line (no blitz across it, 16.3.2) and the Low Countries are neutral
(BW-NEUTRAL). The plan already knows a western target (WEST_TARGET) for the first fine 1940
turn; extend ``done`` and LAST_TURN once supply comes in.

Usage::

    python tools/make_blitzwar_example.py                 # writes examples/blitzwar-1939 (must not exist)
    python tools/make_blitzwar_example.py --replace       # replaces it
    python tools/make_blitzwar_example.py --check         # make it in a temp dir, compare with examples/
    python tools/make_blitzwar_example.py --out DIR       # somewhere else
    python tools/make_blitzwar_example.py --check --attempt 3   # start with the key the example uses (fast)

Dice keys are tried in order (attempt 1, 2, ...: sha256 of KEY_PHRASE/attempt) until the Axis
plan below overruns Poland by turn LAST_TURN; the key of the example is published in its
private/dice.key, as in every demo campaign.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402
from pbem.core.actions import new_campaign  # noqa: E402
from pbem.core.yamlio import load_yaml  # noqa: E402

EXAMPLE = ROOT / "examples" / "blitzwar-1939"
CAMPAIGN_ID = "bw39"
KEY_PHRASE = "pbem example blitzwar-1939: a published demo key, never use for a real game"
MAX_ATTEMPTS = 40      # dice keys tried in order (attempt 1, 2, ...) until Poland falls by turn LAST_TURN


def key_of(attempt: int) -> str:
    return hashlib.sha256(f"{KEY_PHRASE}/{attempt}".encode()).hexdigest()
PLAYERS = {"axis": {"name": "Anna", "email": "anna@example.org"},
           "allies": {"name": "Ben", "email": "ben@example.org"},
           "ussr": {"name": "Chen", "email": "chen@example.org"}}
POLAND = ("gdynia", "poznan", "warsaw", "lodz", "krakow", "bialystok", "wilno", "brest-litovsk", "pinsk", "lwow")
MAX_STEPS = 200
LAST_TURN = 6           # Poland must fall before the 1940 campaign (turn 7 is the first fine 1940 turn)


class Stop(Exception):
    """The campaign cannot be made: why, in words."""


def pbem(*args) -> tuple[int, str]:
    res = CliRunner().invoke(pbem_cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


# ----------------------------------------------------------------------------- reading the campaign
def show(camp: Path) -> dict:
    code, out = pbem("show", camp, "--json")
    if code != 0:
        raise Stop(f"pbem show failed:\n{out}")
    return json.loads(out)


def state_of(camp: Path) -> dict:
    """The current state (the newest state file of the archive)."""
    last = sorted(p for p in (camp / "steps").iterdir() if p.name.isdigit())[-1]
    f = [p for p in last.glob("*.yaml") if not p.name.startswith(("orders-", "reveal-"))]
    return load_yaml(f[0].read_bytes(), str(f[0]), max_bytes=50_000_000, max_nodes=5_000_000).data


def control(st: dict, world, zone: str) -> str:
    return (st.get("control") or {}).get(zone) or world.zones[zone].control


def enemy_land_in(st: dict, zone: str, side: str) -> list[str]:
    from pbem.blitzwar.context import LAND
    out = []
    for cid, c in st["counters"].items():
        if c.get("at") == zone and c["type"] in LAND:
            s = (st.get("war") or {}).get(c["nation"])
            if s and s not in (side, "neutral"):
                out.append(cid)
    return out


# ----------------------------------------------------------------------------- the order files
def template(camp: Path, player: str, target: Path) -> str:
    code, out = pbem("orders", "template", camp, "--player", player, "-o", target)
    if code != 0:
        raise Stop(f"pbem orders template failed:\n{out}")
    return target.read_text("utf-8")


def header(tpl: str) -> list[str]:
    """The template's lines up to ``phases:`` (schema, game, campaign, player, turn, state)."""
    lines = tpl.splitlines()
    return lines[:lines.index("phases:")]


SCHEMA_COMMENT = re.compile(r"^# yaml-language-server: \$schema=.*$", re.M)


def archived(text: str) -> str:
    """The file as the archive keeps it: its schema comment points to the campaign's own
    schemas/ folder (steps/NNN/ -> ../../schemas), not to this machine's checkout."""
    return SCHEMA_COMMENT.sub("# yaml-language-server: $schema=../../schemas/blitzwar-orders.schema.json", text, count=1)


def orders_file(tpl: str, phases: list[dict], comment: str) -> str:
    L = header(tpl) + [f"# {comment}" if comment else "# (written by tools/make_blitzwar_example.py)", "phases:"]
    for ph in phases:
        L.append(f"  - phase: {ph['phase']}")
        for k, v in ph.items():
            if k == "phase":
                continue
            if isinstance(v, list) and v:
                L.append(f"    {k}:")
                L += [f"      - {json.dumps(x)}" for x in v]
            else:
                L.append(f"    {k}: {json.dumps(v)}")
    return "\n".join(L) + "\n"


def answer_file(tpl: str, pending: list[dict], player: str) -> str:
    mine = [d for d in pending if d["player"] == player]
    marker = "    choice: ''   # write one of the legal choices"
    chunks = tpl.split(marker)
    if len(chunks) != len(mine) + 1:
        raise Stop(f"the answer template for {player} holds {len(chunks) - 1} choices, the state {len(mine)} decisions:\n{tpl}")
    out = chunks[0]
    for d, rest in zip(mine, chunks[1:]):
        opts = d["options"]
        pick = next((o for o in opts if o != "none"), opts[0]) if d.get("kind") == "advance" else opts[0]
        out += f"    choice: {json.dumps(pick)}   # answered by the script: the first legal choice" + rest
    return out


# ----------------------------------------------------------------------------- the plan
EAST_SWEEP = ("ger-c1-2", ["lwow", "pinsk", "brest-litovsk", "bialystok", "wilno"])   # turn 1: the empty east of Poland
RATIO = 1                    # corps of the attack for each defending corps (the shifts do the rest)
SWEEP = False
DESC = -1                       # -1: the strongest stack first
WEST_TARGET = "nancy"          # 1940: France across the Franco-German border (the Low Countries are neutral: BW-NEUTRAL)


def _side(st: dict, cid: str) -> str | None:
    return (st.get("war") or {}).get(st["counters"][cid]["nation"])


def _land(st: dict, zone: str, side: str) -> list[str]:
    from pbem.blitzwar.context import LAND
    return sorted(cid for cid, c in st["counters"].items() if c.get("at") == zone and c["type"] in LAND and _side(st, cid) == side)


def _cost(c: dict) -> float:
    return 0.5 if c["units"] == 1 else 1.0


def _supply(st: dict) -> float:
    held = float(st["supply"]["axis"])
    on_map = sum(c["units"] - float(c.get("spent") or 0) for c in st["counters"].values()
                 if c["nation"] == "GER" and c["type"] == "supply" and c["at"] not in ("pool", "out"))
    return held + on_map


def polish_zones_held(st: dict, world) -> list[str]:
    """The Polish zones not yet Axis-controlled, or still holding an Allied land unit."""
    return [z for z in POLAND if control(st, world, z) != "axis" or _land(st, z, "allies")]


def axis_combat_again(st: dict, world, planned: list[dict]) -> tuple[list[dict], str]:
    """The normal combat orders sent again when pbem asks for them (17.1: a blitz that left
    defenders must be fought on by the counters that made it): those attacks, then every
    active counter that has not fought against a Polish (or French) stack next to it."""
    rec = st.get("combat") or {}
    fought = set((rec.get("fought") or {}))
    attacks, notes = [], []
    for a in rec.get("attacks") or []:
        if a["side"] != "axis" or a["phase"] != "blitz" or not a.get("survivors") or not _land(st, a["zone"], "allies"):
            continue
        left = [c for c in a["counters"] if st["counters"].get(c, {}).get("at") not in (None, "pool", "out")]
        if left:
            attacks.append({"target": a["zone"], "counters": left, "advance": "all"})
            notes.append(f"the blitz on {a['zone']} goes on (17.1): {', '.join(left)}")
    for a in planned:          # the normal combat of the turn's file, where it still fits
        left = [c for c in a["counters"] if st["counters"].get(c, {}).get("at") not in (None, "pool", "out") and c not in fought
                and not any(c in b["counters"] for b in attacks)]
        if left and _land(st, a["target"], "allies") and a["target"] not in {b["target"] for b in attacks}:
            attacks.append({"target": a["target"], "counters": left, "advance": "all"})
            notes.append(f"normal combat on {a['target']} as planned: {', '.join(left)}")
    taken = {a["target"] for a in attacks}
    for z in [z for z in POLAND + (WEST_TARGET,) if _land(st, z, "allies") and z not in taken]:
        att = sorted(c for n in world.zones[z].links for c in _land(st, n, "axis")
                     if st["counters"][c].get("active") and c not in fought and not any(c in a["counters"] for a in attacks))
        if att:
            attacks.append({"target": z, "counters": att, "advance": "all"})
            notes.append(f"normal combat on {z}: {', '.join(att)}")
    return [{"phase": "axis.9.combat", "attacks": attacks}], "Axis, normal combat again: " + "; ".join(notes)


def axis_plan(turn: int, st: dict, world) -> tuple[list[dict], str]:
    """The Axis phases 4-9 of a turn: (phases, what the file is for). Each Polish stack is
    attacked by the Axis land counters next to it, armour first, until the attack has 2 corps
    for each defending corps (2-1; the German +1 against minor countries and the armour +1 make
    it 4-1) or the supply runs out; a blitz when the weather and the terrain allow it (armour
    attacks), else a normal combat; every attack advances with all its survivors."""
    blitz_ok = world.weather(turn, "warsaw") == "fine"
    budget = _supply(st)
    moves, activate, blitz, normal = [], [], [], []
    used: set[str] = set()
    notes = []
    if turn == 1 and SWEEP:
        cid, path = EAST_SWEEP
        moves.append({"counter": cid, "path": path})
        used.add(cid)
        budget -= _cost(st["counters"][cid])
        notes.append(f"{cid} sweeps the empty east of Poland")
    targets = [z for z in POLAND if _land(st, z, "allies")]
    west = not targets and world.turn_date(turn).split()[1].startswith("1940") and world.weather(turn, WEST_TARGET) == "fine"
    if west:
        targets = [WEST_TARGET]
    targets.sort(key=lambda z: DESC * sum(st["counters"][c]["units"] for c in _land(st, z, "allies")))
    for z in targets:
        dc = sum(st["counters"][c]["units"] for c in _land(st, z, "allies"))
        near = []
        for n in world.zones[z].links:
            near += [c for c in _land(st, n, "axis") if c not in used and not st["counters"][c].get("out_of_supply")
                     and not st["counters"][c].get("entrenched")]
        near = sorted(set(near))
        best = None           # the cheapest attack with RATIO corps a defending corps, else the strongest one
        for mask in range(1, 1 << len(near)):
            att = [c for i, c in enumerate(near) if mask >> i & 1]
            cost = sum(_cost(st["counters"][c]) for c in att)
            if cost > budget:
                continue
            ac = sum(st["counters"][c]["units"] for c in att)
            armour = any(st["counters"][c]["type"] == "armour" for c in att)
            key = (ac >= RATIO * dc, -cost if ac >= RATIO * dc else ac, armour, -len(att))
            if best is None or key > best[0]:
                best = (key, att, ac, cost)
        if best is None:
            continue
        _, att, ac, cost = best
        if not west and ac < dc:
            continue
        budget -= cost
        used.update(att)
        activate += [{"counter": c} for c in att]
        armour = any(st["counters"][c]["type"] == "armour" for c in att)
        attack = {"target": z, "counters": att, "advance": "all"}
        can_blitz = blitz_ok and armour and world.terrain_effects.get(world.zones[z].terrain, {}).get("blitz", True) \
            and not (z == WEST_TARGET)
        (blitz if can_blitz else normal).append(attack)
        notes.append(f"{'blitz' if can_blitz else 'normal combat'} on {z}: {', '.join(att)} ({ac} corps against {dc})")
    rest = [z for z in POLAND if control(st, world, z) != "axis"]
    if not SWEEP and not [z for z in POLAND if _land(st, z, "allies")] and rest and budget >= 0.5:
        # the Polish army is gone: a one-corps armour counter next to the first zone left drives
        # through the rest (5 zones at most, 15.3), which passes them to the Axis (5)
        path = [z for z in EAST_SWEEP[1] if z in rest][:5]
        first = path[0]
        cands = sorted(c for c, x in st["counters"].items() if x["type"] == "armour" and x["units"] == 1 and _side(st, c) == "axis"
                       and (x["at"] == first or x["at"] in world.zones[first].links) and c not in used)
        if cands:
            cid = cands[0]
            if st["counters"][cid]["at"] == first:
                path = path[1:]
            if path:
                moves.append({"counter": cid, "path": path})
                notes.append(f"{cid} drives through the last Polish zones: {', '.join(path)}")
    phases = [{"phase": "axis.7.movement", "moves": moves, "activate": activate},
              {"phase": "axis.8.blitz", "attacks": blitz},
              {"phase": "axis.9.combat", "attacks": normal}]
    return phases, ("Axis: " + "; ".join(notes)) if notes else "Axis: no attack this turn"


# ----------------------------------------------------------------------------- playing
def submit(camp: Path, path: Path, what: str, log) -> str:
    vcode, vtext = pbem("validate", camp, path)
    if vcode not in (0,):
        raise Stop(f"pbem validate refuses {what} ({path.name}, exit {vcode}):\n{vtext}\n--- the file:\n{path.read_text('utf-8')}")
    acode, atext = pbem("adjudicate", camp, path)
    if acode not in (0, 5, 6):
        raise Stop(f"VALIDATE AND ADJUDICATE DISAGREE on {what} ({path.name}): validate passed, adjudicate exit {acode}:\n{atext}\n"
                   f"--- the file:\n{path.read_text('utf-8')}")
    return atext


class NotYet(Stop):
    """This dice key does not give the campaign wanted (Poland still stands): try the next."""


def play(out: Path, log=print, until=None, attempt: int = 1) -> list[dict]:
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    new_campaign(out, scenario="blitzwar-1939", campaign_id=CAMPAIGN_ID, players=PLAYERS, options={},
                 title="BlitzWAR 1939: the Polish campaign", key_hex=key_of(attempt))
    work = Path(tempfile.mkdtemp(prefix="pbem-bw-example-"))
    steps: list[dict] = []
    try:
        n = 0
        planned: list[dict] = []
        while True:
            sh = show(out)
            if until and until(sh, state_of(out), steps):
                break
            if len(steps) >= MAX_STEPS or sh["turn"] > LAST_TURN:
                raise NotYet(f"{len(steps)} steps and the campaign is not where it should be: turn {sh['turn']} {sh['phase']}")
            n += 1
            if sh["pending"]:
                player = sh["pending"][0]["player"]
                tpl = template(out, player, work / f"tpl-{n}.yaml")
                f = work / f"answer-{n}-{player}.yaml"
                f.write_text(archived(answer_file(tpl, sh["pending"], player)), "utf-8")
                ids = [d["id"] for d in sh["pending"] if d["player"] == player]
                submit(out, f, f"the answer of {player} to {', '.join(ids)}", log)
                steps.append({"step": len(steps) + 1, "turn": sh["turn"], "phase": sh["phase"], "player": player, "kind": "answer", "what": ", ".join(ids)})
                log(f"step {len(steps):03d} t{sh['turn']} {sh['phase']}: {player} answers {', '.join(ids)}")
                continue
            aw = [a["player"] for a in sh["awaiting"] if a.get("for") == "orders"]
            if not aw:
                raise Stop(f"nothing awaited and no decision pending: {sh}")
            player = aw[0]
            tpl = template(out, player, work / f"tpl-{n}.yaml")
            phase = sh["phase"]
            if player == "axis" and phase == "axis.9.combat":
                phases, what = axis_combat_again(state_of(out), world, planned)
                text = orders_file(tpl, phases, what)
            elif player == "axis" and phase.startswith("axis."):
                phases, what = axis_plan(sh["turn"], state_of(out), world)
                planned = phases[-1]["attacks"]
                text = orders_file(tpl, phases, what)
            else:
                what = "no orders: the phases of the template, empty"
                text = tpl
            f = work / f"orders-{n}-{player}.yaml"
            f.write_text(archived(text), "utf-8")
            submit(out, f, f"the orders of {player}", log)
            steps.append({"step": len(steps) + 1, "turn": sh["turn"], "phase": phase, "player": player, "kind": "orders", "what": what})
            log(f"step {len(steps):03d} t{sh['turn']} {phase}: {player} orders ({what})")
        code, text = pbem("replay", out)
        if code != 0:
            raise Stop(f"pbem replay of the new campaign fails:\n{text}")
        return steps
    finally:
        shutil.rmtree(work, ignore_errors=True)


def done(sh, st, steps) -> bool:
    """Poland is overrun: every Polish zone Axis-held and no Polish unit left, at the start of
    the next turn (so the turn of the conquest is complete in the archive)."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    return sh["phase"] == "1.diplomacy" and not sh.get("received") and not sh["pending"] and not polish_zones_held(st, world)


def make(out: Path, log=print, first: int = 1) -> tuple[list[dict], int]:
    for attempt in range(first, MAX_ATTEMPTS + 1):
        if out.exists():
            shutil.rmtree(out)
        try:
            steps = play(out, log=lambda *a: None, until=done, attempt=attempt)
        except NotYet as e:
            log(f"dice key attempt {attempt}: {e}; next key")
            continue
        for s in steps:
            log(f"step {s['step']:03d} t{s['turn']} {s['phase']}: {s['player']} {s['kind']} ({s['what']})")
        return steps, attempt
    raise Stop(f"no dice key attempt 1-{MAX_ATTEMPTS} lets the Axis plan overrun Poland by turn {LAST_TURN}")


KEY_LINES = re.compile(r"^(supply: .*|Attack \d+ on .*|  net shift .*|Attack \d+: .*(?:retreat|advances|lose).*|\S+: control \S+ -> \S+ .*|"
                       r"\S+ passes to the \S+ side .*|no blitz phase: .*)$")


def readme(camp: Path, steps: list[dict], attempt: int) -> str:
    """The example's README: what happens turn by turn (the report lines that matter, each
    with its rule section, taken from the archived reports), how to replay it."""
    by_turn: dict[int, list[str]] = {}
    steps_lines: list[str] = []
    for st in steps:
        d = camp / "steps" / f"{st['step']:03d}"
        lines, cont = [], False
        for ln in (d / "report.txt").read_text("utf-8").splitlines():
            if ln.startswith("    ") and cont:
                lines[-1] += " " + ln.strip()
                continue
            cont = bool(KEY_LINES.match(ln))
            if cont:
                lines.append(ln.strip())
        mine = lines
        if st["kind"] == "answer":
            # the phase runs again from its start with the answer: what the step before reported is not repeated
            seen = list(steps_lines)
            lines = ["(the phase runs again from its start with the answer)"] + [x for x in mine if x not in seen or "answer" in x]
        steps_lines = mine
        if st["player"] != "axis" and st["kind"] != "answer":
            continue
        if st["kind"] == "orders" and not lines:
            continue
        by_turn.setdefault(st["turn"], []).append(f"- step {st['step']:03d} ({st['player']}, {st['kind']}): {st['what']}")
        by_turn[st["turn"]] += [f"  - {x}" for x in lines]
    world_turns = {1: "summer 1939, fine", 2: "autumn 1939, mud: no blitz phase (6)", 3: "autumn 1939, fine", 4: "winter 1940, snow: no Axis blitz (6)"}
    body = []
    for t, ls in sorted(by_turn.items()):
        body.append(f"### Turn {t} ({world_turns.get(t, '')})\n")
        body += ls
        body.append("")
    n = len(steps)
    rest = _supply(state_of(camp))
    left = "nothing" if rest == 0 else f"{rest:g} unit{'s' if rest != 1 else ''} of supply"
    last = max(by_turn)
    return f"""# Demo campaign: BlitzWAR 1939, the Polish campaign (three players)

A three-player BlitzWAR campaign (`blitzwar-1939`: Anna `axis`, Ben `allies`, Chen `ussr`)
played through the command line by `tools/make_blitzwar_example.py` with a published dice key
(`private/dice.key`, attempt {attempt} of the script's fixed key phrase). The Axis moves and
activates armour and infantry against the Polish stacks, attacks in the blitz phase (16) where
the weather allows it and in the normal combat phase (17), advances after combat, and pays
every activation and move from its supply (7): the reports say how much and from where (the
supply held, then the supply counter in Breslau). The Allies and the USSR send the phases of
`pbem orders template` empty; the decisions that belong to the Allies (which Polish corps to
lose, where to retreat, 16.2 and 17.2) are answered by answer files made from
`pbem orders template` with the first legal choice. Every file was checked with
`pbem validate` before `pbem adjudicate`.

Poland is overrun in turns 1-{last}: the campaign ends at the start of turn {last + 1}, every
Polish zone Axis-held and the Polish army gone. {n} steps.

```sh
pbem replay examples/blitzwar-1939     # every state, report and die re-checked byte for byte
pbem show examples/blitzwar-1939       # where it stands
python tools/make_blitzwar_example.py --check   # the script makes it again, identical
```

## What is not in it (and why)

The 1940 offensive in the west is not played: with this version of pbem the Axis has no supply
left for it. Supply only comes in through the replacement cards and replacements (10, 11),
which pass without effect until their issue; the Axis starts with 4 supply held and a 2-unit
supply counter, and the Polish campaign leaves it {left}. Besides, the only Franco-German
border on pbem's provisional map is the Nancy fortress line, across which no blitz is possible
(16.3.2), and entering Belgium, the Netherlands or Luxembourg is refused while they are neutral
(`BW-NEUTRAL`, 9.3).

## Turn by turn (the report lines, with their rule sections)

""" + "\n".join(body) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--replace", action="store_true")
    ap.add_argument("--keep-failed", type=Path, metavar="DIR")
    ap.add_argument("--attempt", type=int, default=1, metavar="N", help="start with dice key attempt N (the example's README names its attempt)")
    a = ap.parse_args(argv)
    dest = a.out or EXAMPLE
    if dest.exists() and not (a.check or a.replace):
        print(f"{dest} exists: give --replace, or --check to compare", file=sys.stderr)
        return 64
    tmp = Path(tempfile.mkdtemp(prefix="pbem-make-bw-"))
    try:
        built = tmp / dest.name
        try:
            steps, attempt = make(built, first=a.attempt)
        except Stop as e:
            print(f"STOPPED: {e}\nnothing was written to {dest}", file=sys.stderr)
            if a.keep_failed and built.exists():
                if a.keep_failed.exists():
                    shutil.rmtree(a.keep_failed)
                shutil.copytree(built, a.keep_failed)
                print(f"the campaign played so far: {a.keep_failed}", file=sys.stderr)
            return 2
        print(f"made: {len(steps)} steps (dice key attempt {attempt}); replay OK")
        if a.check:
            (built / "README.md").write_text(readme(built, steps, attempt), "utf-8")
            same = dest.exists() and _tree(dest) == _tree(built)
            print(f"{dest}: {'identical' if same else 'DIFFERS (or is missing)'}")
            return 0 if same else 1
        (built / "README.md").write_text(readme(built, steps, attempt), "utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(built, dest)
        print(f"wrote {dest}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _tree(folder: Path, skip_readme=False) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not (skip_readme and p.name == "README.md" and p.parent == folder)}


if __name__ == "__main__":
    sys.exit(main())
