#!/usr/bin/env python3
"""Make examples/blitzwar-1939: a three-player BlitzWAR campaign (issues 12, 20, 21) played
through the pbem command line with a published dice key, from turn 1 (summer 1939) to the start
of the turn after lend-lease first reaches Murmansk (1941).

* Poland (1939): the Axis moves and activates armour and infantry against the Polish stacks each
  turn (paying supply: the reports say how much and from where), attacks in the blitz phase
  (when the weather allows it: not in mud, 6) and in the normal combat phase, advances with all
  survivors, and when the Polish army is gone drives a one-corps armour counter through the
  Polish zones left. Planning is greedy and written here (axis_plan): each Polish stack,
  strongest first, gets the cheapest attack with RATIO corps a defending corps within the
  supply left, else the strongest one that is at least 1-1. When pbem asks again for the
  normal combat orders (17.1: a blitz that left defenders must be fought on),
  axis_combat_again sends those attacks and the planned ones that still fit.
* Air superiority (13.4.2): the first blitz in Poland is flown over by a German air unit in
  range (the strongest stack blitzed), which gives the attack the attacker's air superiority
  shift (16.3.1) and is removed after the blitz (16.1 step 5).
* Cards and replacements (10, 11): the Axis seals its picks (AXIS_CARDS, a published nonce so
  that the example is reproducible) and opens each card in the file covering its replacement
  phase; the Allies pick openly (ALLIED_CARDS); the USSR sends no pick (pbem's default).
* The west (1940): until the first fine 1940 turn the Axis moves west by strategic movement
  (redeploy, keeping RESERVE supply); then its armour blitzes Belgium-Netherlands
  (attack_neutral, 9.3) and its infantry attacks in the normal combat phase (west_targets). From
  the next turn until France falls (9.2, 9.4): Paris first with all that stands next to it, the
  other French stacks with 1.5 corps a defender, the armour left driving through the empty
  French zones (france_sweep), the rest gathering next to the French stacks (front_zones).
* The sea and the air (axis_operations, allied_operations, lend_lease): written plans, each
  ordered once its condition holds: the Norwegian landing in the first fine turn after the
  offensive (an air unit to the North Sea as the beachhead for Oslo, 13.4.5; a corps landed from
  Hamburg, 14.1.2, ashore in the normal combat phase with attack_neutral: [NOR], 9.3); a German
  air unit over the North Sea the turn after (sea control, 13.4.4), which the Allies' standing
  order ALLIED_STANDING, sent with their file after the landing, intercepts (13.2); the German
  air moved to Lille (13.5) and the Battle of Britain once France has fallen (13.4.3, rounds:
  ask); the British fleet sailing to the South-Central Mediterranean once Italy is at war, the
  Italian fleet covering a supply counter shipped Naples -> Tripoli and attacking it, again each
  turn until the Axis has chosen a loss (12.2); in 1941 a German corps entering the USSR, the
  Home Fleet sailing to the Norwegian Sea and the Allies sending lend-lease by it (11.4).
* The Allies and the USSR otherwise send the minimal orders each awaited phase needs (the phases
  of the template); every pending decision (losses, retreats, advances, interceptions, naval
  losses, rounds of the Battle of Britain, and any other) is answered by an answer file made
  with ``pbem orders template``, the first legal choice (an advance: the first unit rather
  than none).
* Every file is checked with ``pbem validate`` before ``pbem adjudicate``; the script stops
  loudly when they disagree (a bug to report). At the end ``pbem replay`` must pass.

Usage::

    python tools/make_blitzwar_example.py                 # writes examples/blitzwar-1939 (must not exist)
    python tools/make_blitzwar_example.py --replace       # replaces it
    python tools/make_blitzwar_example.py --check         # make it in a temp dir, compare with examples/
    python tools/make_blitzwar_example.py --out DIR       # somewhere else
    python tools/make_blitzwar_example.py --attempt 1     # try the dice keys from attempt 1

Dice keys are tried in order from ATTEMPT (the example's: attempt 10; attempt N is sha256 of
KEY_PHRASE/N) until the plan overruns Poland, fights the western offensive in both combat phases
and every goal of ``goals`` happens by the start of turn LAST_TURN (made in about 45 s); the key
of the example is published in its private/dice.key, as in every demo campaign.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402
from pbem.core.actions import new_campaign  # noqa: E402
from pbem.core.yamlio import load_yaml  # noqa: E402
from tools.example_output import check_or_write  # noqa: E402

EXAMPLE = ROOT / "examples" / "blitzwar-1939"
CAMPAIGN_ID = "bw39"
KEY_PHRASE = "pbem example blitzwar-1939: a published demo key, never use for a real game"
MAX_ATTEMPTS = 40      # dice keys tried in order (attempt 1, 2, ...) until the campaign is the one wanted
ATTEMPT = 10           # the dice key attempt examples/blitzwar-1939 uses (its README says it too)


def key_of(attempt: int) -> str:
    return hashlib.sha256(f"{KEY_PHRASE}/{attempt}".encode()).hexdigest()
PLAYERS = {"axis": {"name": "Anna", "email": "anna@example.org"},
           "allies": {"name": "Ben", "email": "ben@example.org"},
           "ussr": {"name": "Chen", "email": "chen@example.org"}}
POLAND = ("gdynia", "poznan", "warsaw", "lodz", "krakow", "bialystok", "wilno", "brest-litovsk", "pinsk", "lwow")
MAX_STEPS = 400
LAST_TURN = 20          # the story (goals) must be complete by the start of this turn (winter 1942)


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
    return _without_end_mark(target.read_text("utf-8"))


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


def _without_end_mark(tpl: str) -> str:
    """The template without its end mark and end line (issue 29): the example's files are the
    script's own, written as before those lines existed, so that the archive (and its dice,
    keyed on the files' bytes) stays the same. A player's file keeps both."""
    return "".join(ln for ln in tpl.splitlines(keepends=True)
                   if not ln.startswith(("# pbem order file: it ends with", "# end of the order file")))


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
WEST = ("BE", "FRA")            # 1940: the Low Countries and France (9.3: Belgium-Netherlands is attacked neutral)
STAGING = ("ruhr", "cologne", "saarbrucken")   # the German zones next to Belgium-Netherlands where the west army gathers
RESERVE = 8                     # supply kept for the offensive's activations while the army moves west
# replacement cards (10.1): the Axis seals its picks (pbem seal), the Allies pick openly, the
# USSR sends no pick (pbem's default pick); each cycle of four limited-war cards never picks a
# card still queued (the queue holds the three turns ahead)
AXIS_CARDS = ("axis-l1", "axis-l4", "axis-l8", "axis-l2")
ALLIED_CARDS = ("allies-l3", "allies-l2", "allies-l7", "allies-l1")


def card_of(cycle: tuple[str, ...], turn: int) -> str:
    """The card a side's plan uses in turn ``turn``'s replacement phase (turn 2 is the first)."""
    return cycle[(turn - 2) % len(cycle)]


def picks_due(turn: int, last: int = 47) -> list[int]:
    """The turns whose card is picked in turn ``turn``'s card phase (10.1): turns 2-4 in turn 1,
    then turn t+3."""
    return [u for u in ([2, 3, 4] if turn == 1 else [turn + 3]) if u <= last]


def seal_id(side: str, turn: int) -> str:
    return f"cards-{side}-t{turn:02d}"


def opening(camp: Path, side: str, player: str, turn: int) -> dict:
    """The Axis opening of the card of ``turn``: made once (with a nonce derived from the
    published key phrase, so that the example is reproducible: a real player lets `pbem seal`
    draw a random one) and kept in the campaign's private/ folder, as `pbem seal` would."""
    from pbem.core.sealed import new_opening
    from pbem.core.yamlio import dump_yaml
    sid = seal_id(side, turn)
    f = camp / "private" / f"{sid}.opening.yaml"
    if f.exists():
        return load_yaml(f.read_bytes(), str(f)).data
    nonce = hashlib.sha256(f"{KEY_PHRASE}/{sid}".encode()).hexdigest()
    op = new_opening(campaign=CAMPAIGN_ID, player=player, id=sid, choice=card_of(AXIS_CARDS, turn), nonce=nonce)
    doc = dict(op, seal={"id": sid, "commitment": op["commitment"]}, open={"id": sid, "nonce": op["nonce"], "choice": op["choice"]})
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(dump_yaml(doc, header="pbem opening of a sealed choice: KEEP IT SECRET until you open it"), "utf-8")
    return doc


def shared_orders(camp: Path, player: str, turn: int, tpl: str, st: dict | None = None, world=None) -> tuple[str, str]:
    """The file of phases 1-3 (every player at once): the Axis seals the cards it picks and opens
    the card of the turn; the Allies pick openly; the USSR sends the template (default picks)."""
    if player == "axis":
        seals = [opening(camp, "axis", player, u)["seal"] for u in picks_due(turn)]
        opens = [opening(camp, "axis", player, turn)["open"]] if turn >= 2 else []
        # the template writes the default picks as open ones: a sealed pick replaces them
        text = "".join(ln for ln in tpl.rstrip("\n").splitlines(keepends=True) if not ln.startswith(("      axis: [", "    cards:"))) + "\n"
        if seals:
            text += "seal:\n" + "".join(f"  - {json.dumps(x)}\n" for x in seals)
        if opens:
            text += "open:\n" + "".join(f"  - {json.dumps(x)}\n" for x in opens)
        what = (f"sealed picks for turn(s) {', '.join(str(u) for u in picks_due(turn))}" if seals else "no pick") + \
            (f"; opens the card of turn {turn}" if opens else "")
        return text, "Axis cards (10.1): " + what
    if player == "allies":
        picks = [card_of(ALLIED_CARDS, u) for u in picks_due(turn)]
        phases = [{"phase": p} for p in ("1.diplomacy", "2.cards", "3.replacements") if p in tpl]
        for ph in phases:
            if ph["phase"] == "2.cards" and picks:
                ph["cards"] = {"allies": picks}
        ll = lend_lease(st, world) if st is not None else None
        what = f"Allied cards (10.1): open picks {', '.join(picks) or 'none'}"
        for ph in phases:
            if ph["phase"] == "3.replacements" and ll:
                ph["lend_lease"] = ll
                what += f"; lend-lease to the USSR by the {', '.join(ll)} (11.4): {json.dumps(ll)}"
        text = orders_file(tpl, phases, "")
        if st is not None and happened(camp, "landing") and ((st.get("standing") or {}).get(player) or {}).get("intercept") != ALLIED_STANDING["intercept"]:
            text += "standing:\n" + "".join(f"  {k}: {v}\n" for k, v in ALLIED_STANDING.items())
            what += "; standing orders " + ", ".join(f"{k}: {v}" for k, v in ALLIED_STANDING.items())
        return text, what
    return tpl, "no orders: the phases of the template, empty (pbem picks the USSR's cards, 10.1)"


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
    """The Polish zones not yet Axis-controlled (the east once passed to the USSR, 9.2, counts
    as taken), or still holding an Allied land unit."""
    return [z for z in POLAND if control(st, world, z) not in ("axis", "ussr") or _land(st, z, "allies")]


def poland_overrun(st: dict, world) -> bool:
    return "POL" in ((st.get("flags") or {}).get("surrendered") or []) or not polish_zones_held(st, world)


def _defenders(st: dict, world, zone: str) -> list[str]:
    """The land counters the Axis would attack in ``zone``: Allied ones, and a neutral
    Belgium-Netherlands' own (9.3) in the west (never Vichy's, 9.4: the plan leaves it neutral)."""
    out = _land(st, zone, "allies")
    if world.zones[zone].country == "BE":
        out += _land(st, zone, "neutral")
    return sorted(out)


def france_fallen(st: dict) -> bool:
    return "FRA" in ((st.get("flags") or {}).get("surrendered") or [])


def front_zones(st: dict, world) -> list[str]:
    """The Axis zones next to a zone of the west holding enemy land counters: where the west
    army gathers after the first offensive (the staging zones of the next attacks)."""
    out = set()
    for z in west_targets_all(st, world):
        out |= {n for n in world.zones[z].links if control(st, world, n) == "axis" and not enemy_land_in(st, n, "axis")}
    return sorted(out, key=lambda z: ("paris" not in world.zones[z].links, z))


def west_targets_all(st: dict, world) -> list[str]:
    return sorted(z for z in world.zones if world.zones[z].country in WEST and control(st, world, z) != "axis"
                  and _defenders(st, world, z))


def france_sweep(st: dict, world, used: set[str], budget: float) -> tuple[list[dict], list[str]]:
    """Until France falls (9.2: Paris and 4 other zones occupied): each Axis armour counter not
    in an attack drives through the empty French zones the Axis does not hold yet (5 zones at
    most, 15.3; a zone entered passes to the Axis, 5), the longest such drive first."""
    moves, notes = [], []
    taken: set[str] = set()
    arm = sorted(c for c, x in st["counters"].items() if x["type"] == "armour" and _side(st, c) == "axis"
                 and x.get("at") in world.zones and c not in used and not x.get("out_of_supply"))

    def free(z: str) -> bool:
        zz = world.zones[z]
        return zz.country == "FRA" and control(st, world, z) != "axis" and not enemy_land_in(st, z, "axis") \
            and not _land(st, z, "neutral") and z not in taken

    for cid in arm:
        if budget < _cost(st["counters"][cid]):
            break
        best: list[str] = []
        stack = [(st["counters"][cid]["at"], [])]
        while stack:
            z, path = stack.pop()
            if len(path) > len(best):
                best = path
            if len(path) == 5:
                continue
            for n in sorted(world.zones[z].links):
                if n not in path and n in world.zones and (free(n) or (control(st, world, n) == "axis" and not enemy_land_in(st, n, "axis")
                                                                    and len(path) < 4 and any(free(m) for m in world.zones[n].links))):
                    stack.append((n, path + [n]))
        gain = [z for z in best if free(z)]
        if not gain:
            continue
        while best and not free(best[-1]):
            best.pop()
        moves.append({"counter": cid, "path": best})
        used.add(cid)
        taken.update(gain)
        budget -= _cost(st["counters"][cid])
        notes.append(f"{cid} drives into France: {', '.join(best)}")
    return moves, notes


def west_targets(st: dict, world) -> list[str]:
    """The zones of the Low Countries and France next to Axis land counters that hold enemy
    (or neutral Belgian-Dutch) land counters: Belgium-Netherlands first, the weakest first."""
    out = set()
    for cid, c in st["counters"].items():
        if _side(st, cid) == "axis" and c["type"] in ("infantry", "armour") and c.get("at") in world.zones:
            out |= {z for z in world.zones[c["at"]].links if world.zones[z].country in WEST and _defenders(st, world, z)}
    return sorted(out, key=lambda z: (world.zones[z].country != "BE", sum(st["counters"][c]["units"] for c in _defenders(st, world, z)), z))


def offensive_turn(world) -> int:
    """The first fine turn of 1940 (8, 6): the offensive in the west."""
    return next(t for t in sorted(world.turns) if world.turns[t].year == 1940 and world.turns[t].weather == "fine")


def axis_combat_again(st: dict, world, planned: list[dict]) -> tuple[list[dict], str]:
    """The normal combat orders sent again when pbem asks for them (17.1: a blitz that left
    defenders must be fought on by the counters that made it): those attacks, then the planned
    ones that still fit, then every active counter that has not fought against an enemy stack
    next to it."""
    rec = st.get("combat") or {}
    fought = set(rec.get("fought") or {})
    attacks, notes = [], []
    for a in rec.get("attacks") or []:
        if a["side"] != "axis" or a["phase"] != "blitz" or not a.get("survivors") or not _defenders(st, world, a["zone"]):
            continue
        left = [c for c in a["counters"] if st["counters"].get(c, {}).get("at") not in (None, "pool", "out")]
        if left:
            attacks.append({"target": a["zone"], "counters": left, "advance": "all"})
            notes.append(f"the blitz on {a['zone']} goes on (17.1): {', '.join(left)}")
    for a in planned:          # the normal combat of the turn's file, where it still fits
        left = [c for c in a["counters"] if st["counters"].get(c, {}).get("at") not in (None, "pool", "out") and c not in fought
                and not any(c in b["counters"] for b in attacks)]
        if left and _defenders(st, world, a["target"]) and a["target"] not in {b["target"] for b in attacks}:
            attacks.append({"target": a["target"], "counters": left, "advance": "all"})
            notes.append(f"normal combat on {a['target']} as planned: {', '.join(left)}")
    taken = {a["target"] for a in attacks}
    for z in [z for z in list(POLAND) + west_targets(st, world) if _defenders(st, world, z) and z not in taken]:
        att = sorted(c for n in world.zones[z].links for c in _land(st, n, "axis")
                     if st["counters"][c].get("active") and c not in fought and not any(c in a["counters"] for a in attacks))
        if att:
            attacks.append({"target": z, "counters": att, "advance": "all"})
            notes.append(f"normal combat on {z}: {', '.join(att)}")
    out = [{"phase": "axis.9.combat", "attacks": attacks}]
    neutral = sorted({world.zones[a["target"]].country for a in attacks if _land(st, a["target"], "neutral")})
    if neutral:
        out[0]["attack_neutral"] = neutral
    return out, "Axis, normal combat again: " + "; ".join(notes)


def _strategic_path(st: dict, world, start: str, goal: str) -> list[str] | None:
    """The shortest path through Axis-controlled zones without enemy land units (15.2)."""
    from collections import deque
    prev = {start: None}
    todo = deque([start])
    while todo:
        z = todo.popleft()
        if z == goal:
            path = []
            while z != start:
                path.append(z)
                z = prev[z]
            return path[::-1]
        for n in sorted(world.zones[z].links):
            if n not in prev and control(st, world, n) == "axis" and not enemy_land_in(st, n, "axis") \
                    and not _land(st, n, "neutral"):
                prev[n] = z
                todo.append(n)
    return None


def redeploy(st: dict, world, budget: float, staging, skip: set[str] = frozenset()) -> tuple[list[dict], float, list[str]]:
    """Between Poland and the offensive: strategic moves (15.2, double cost) of the armour, then
    the largest infantry counters, from the east to the free places of the staging zones,
    keeping RESERVE supply for the offensive."""
    STAGING = tuple(staging)
    free = {z: 3 - len(_land(st, z, "axis")) for z in STAGING}
    cands = [cid for cid, c in st["counters"].items() if _side(st, cid) == "axis" and c["type"] in ("infantry", "armour")
             and c.get("at") in world.zones and c["at"] not in STAGING and world.zones[c["at"]].country != "BE"
             and cid not in skip and not (skip and any(world.zones[n].country in WEST and _defenders(st, world, n)
                                                       for n in world.zones[c["at"]].links))
             and not c.get("entrenched") and not c.get("out_of_supply") and not c.get("moved") and not c.get("strategic")]
    cands.sort(key=lambda cid: (st["counters"][cid]["type"] != "armour", -st["counters"][cid]["units"], cid))
    moves, notes = [], []
    for cid in cands:
        c = st["counters"][cid]
        cost = 2 * _cost(c)
        if budget - cost < RESERVE:
            continue
        for z in sorted(free, key=lambda z: (-free[z], STAGING.index(z))):
            if free[z] <= 0:
                continue
            path = _strategic_path(st, world, c["at"], z)
            if path:
                moves.append({"counter": cid, "path": path})
                free[z] -= 1
                budget -= cost
                notes.append(f"{cid} {c['at']} -> {z}")
                break
    return moves, budget, notes


def _best(st: dict, near: list[str], dc: int, budget: float, ratio: float):
    """The cheapest group of ``near`` with ``ratio`` corps a defending corps within the budget,
    else the strongest one: (counters, corps, cost) or None."""
    best = None
    for mask in range(1, 1 << len(near)):
        att = [c for i, c in enumerate(near) if mask >> i & 1]
        cost = sum(_cost(st["counters"][c]) for c in att)
        if cost > budget:
            continue
        ac = sum(st["counters"][c]["units"] for c in att)
        armour = any(st["counters"][c]["type"] == "armour" for c in att)
        enough = ac >= ratio * dc
        key = (enough, -cost if enough else ac, armour, -len(att))
        if best is None or key > best[0]:
            best = (key, att, ac, cost)
    return None if best is None else best[1:]


def axis_plan(turn: int, st: dict, world, camp: Path | None = None) -> tuple[list[dict], str]:
    """The Axis phases 4-9 of a turn: (phases, what the file is for).

    Poland first: each Polish stack is attacked by the Axis land counters next to it, the
    cheapest group with RATIO corps a defending corps within the supply left, else the
    strongest one; a blitz when the weather and the terrain allow it (armour attacks), else a
    normal combat; every attack advances with all its survivors. When the Polish army is gone
    a one-corps armour counter drives through the Polish zones left.
    Then the west: until the first fine turn of 1940 the army moves west by strategic movement
    (redeploy); in that turn the armour attacks the Low Countries in the blitz phase (with
    ``attack_neutral``, 9.3) and the infantry next to the other targets attacks in the normal
    combat phase, with twice the defending corps where the supply allows it."""
    blitz_ok = world.weather(turn, "warsaw") == "fine"
    budget = _supply(st)
    moves, strategic, activate, blitz, normal = [], [], [], [], []
    ops, used, notes = axis_operations(turn, st, world, camp) if camp else ({}, set(), [])
    moves += (ops.get("axis.7.movement") or {}).get("moves", [])
    strategic += (ops.get("axis.7.movement") or {}).get("strategic", [])
    normal += (ops.get("axis.9.combat") or {}).get("attacks", [])
    if turn == 1 and SWEEP:
        cid, path = EAST_SWEEP
        moves.append({"counter": cid, "path": path})
        used.add(cid)
        budget -= _cost(st["counters"][cid])
        notes.append(f"{cid} sweeps the empty east of Poland")
    targets = [z for z in POLAND if _land(st, z, "allies")]
    west = not targets and poland_overrun(st, world) and turn >= offensive_turn(world) and (
        world.weather(turn, "cologne") == "fine" or turn > offensive_turn(world)) and not france_fallen(st)
    if not targets and poland_overrun(st, world) and turn < offensive_turn(world):
        strategic, budget, moved = redeploy(st, world, budget, STAGING)
        if moved:
            notes.append("the army moves west (15.2): " + "; ".join(moved))
    if west:
        targets = west_targets(st, world)
        if turn > offensive_turn(world):
            targets.sort(key=lambda z: z != "paris")      # Paris first: France falls with its capital (9.2)
    else:
        targets.sort(key=lambda z: DESC * sum(st["counters"][c]["units"] for c in _land(st, z, "allies")))
    for z in targets:
        defenders = _defenders(st, world, z)
        dc = sum(st["counters"][c]["units"] for c in defenders)
        near = sorted({c for n in world.zones[z].links for c in _land(st, n, "axis") if c not in used
                       and not st["counters"][c].get("out_of_supply") and not st["counters"][c].get("entrenched")})
        te = world.terrain_effects.get(world.zones[z].terrain, {})
        bok = world.weather(turn, z) == "fine" if west else blitz_ok
        if west:
            # the armour next to the target blitzes it where the terrain allows and no fortress
            # line is in the way; the rest is for the normal combat phase, infantry alone
            line = set(world.zones[z].fortress_line)
            arm = [c for c in near if st["counters"][c]["type"] == "armour" and st["counters"][c]["at"] not in line]
            if bok and arm and te.get("blitz", True):
                near = [c for c in near if st["counters"][c]["at"] not in line]
            else:
                near = [c for c in near if st["counters"][c]["type"] != "armour"]
        pick = _best(st, near, dc, budget, (2 if turn == offensive_turn(world) else 3 if z == "paris" else 1.5) if west else RATIO)
        if pick is None:
            continue
        att, ac, cost = pick
        if ac < dc:
            continue
        budget -= cost
        used.update(att)
        activate += [{"counter": c} for c in att]
        armour = any(st["counters"][c]["type"] == "armour" for c in att)
        attack = {"target": z, "counters": att, "advance": "all"}
        can_blitz = bok and armour and te.get("blitz", True) and not any(
            st["counters"][c]["at"] in world.zones[z].fortress_line for c in att)
        (blitz if can_blitz else normal).append(attack)
        notes.append(f"{'blitz' if can_blitz else 'normal combat'} on {z}: {', '.join(att)} ({ac} corps against {dc})")
    if poland_overrun(st, world) and turn > offensive_turn(world) and not france_fallen(st):
        # the west goes on until France falls (9.2, 9.4): the armour left drives through the
        # empty French zones, the rest of the army gathers next to the French stacks
        sweep, sweep_notes = france_sweep(st, world, used, budget)
        moves += sweep
        notes += sweep_notes
        budget -= sum(_cost(st["counters"][m["counter"]]) for m in sweep)
        more, budget, moved = redeploy(st, world, budget, front_zones(st, world), skip=used)
        strategic += more
        if moved:
            notes.append("the army gathers at the front (15.2): " + "; ".join(moved))
    rest = [z for z in POLAND if control(st, world, z) not in ("axis", "ussr")]
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
    if blitz and not west and camp is not None and not happened(camp, "air-mission", mission="superiority") \
            and not (ops.get("axis.5.air") or {}).get("air"):
        # the first blitz in Poland is flown over (13.4.2): one German air unit in range of the
        # strongest stack blitzed gives the attacker's air superiority shift (16.3.1, 16.3.2),
        # and is removed after the blitz (16.1 step 5)
        z = blitz[0]["target"]
        air = sorted(c for c, x in st["counters"].items() if x["type"] == "air" and x["nation"] == "GER" and c not in used
                     and x["at"] in world.zones and not x.get("flying") and world.in_air_range(x["at"], z))
        if air:
            ops["axis.5.air"] = {"air": [{"counter": air[0], "to": z}]}
            used.add(air[0])
            notes.insert(0, f"{air[0]} flies air superiority over {z} (13.4.2) for the blitz there")
    movement = {"phase": "axis.7.movement", "strategic": strategic, "moves": moves, "activate": activate}
    if not strategic:
        del movement["strategic"]
    sea_air = [dict(ops[k], phase=k) for k in ("axis.4.naval", "axis.5.air", "axis.6.sea-transport") if k in ops]
    phases = sea_air + [movement, {"phase": "axis.8.blitz", "attacks": blitz}, {"phase": "axis.9.combat", "attacks": normal}]
    if (ops.get("axis.9.combat") or {}).get("attack_neutral"):
        phases[-1]["attack_neutral"] = list(ops["axis.9.combat"]["attack_neutral"])
    for ph in phases[-2:]:
        neutral = sorted({world.zones[a["target"]].country for a in ph["attacks"] if _land(st, a["target"], "neutral")})
        if neutral and not any(ph2.get("attack_neutral") for ph2 in phases[-2:]):
            ph["attack_neutral"] = neutral
    return phases, ("Axis: " + "; ".join(notes)) if notes else "Axis: no attack this turn"



# ----------------------------------------------------------------------------- the sea and the air (issue 20)
# Written plans, each ordered once when its condition holds (the events of the archive say
# whether it was ordered already): the Norwegian landing (13.4.5, 14.1.2, 9.3), the German air
# moved to Lille for the Battle of Britain (13.5) and the battle once France has fallen
# (13.4.3), the Italian convoy to Tripoli under fleet cover and the British fleet that attacks
# it (12.2), the first German step into the USSR and the Allied lend-lease by the Norwegian Sea
# (11.4). The other side answers: the Allies' interceptions and the Axis' naval losses by
# pending decisions (answer files from the template), the Allies' naval losses by the
# standing order ``naval_losses: auto`` sent in advance (ALLIED_STANDING).
NORWAY = ("oslo", "north-sea", "NOR")          # the landing: zone, sea of the beachhead, country (9.3)
BOB_BASE = "lille"                              # one zone from London by the blue dashed line (13.4.3)
BOB_AIR = 8                                     # German air units moved to Lille for the battle
MED_CONVOY = ("naples", "tripoli", "south-central-med", "alexandria", ["eastern-med", "south-central-med"])
MURMANSK = ("scapa-flow", ["norwegian-sea"], "norwegian-sea")   # the fleets' way and the lend-lease route (11.4)
ALLIED_STANDING = {"intercept": "over north-sea keep 1"}   # sent by the Allies after the Norwegian landing (13.2)
BARBAROSSA_YEAR = 1941


def happened(camp: Path, etype: str, **match) -> list[dict]:
    """The events of type ``etype`` in the archive's reports (with the fields of ``match``)."""
    out = []
    for f in sorted((camp / "steps").glob("*/report.json")):
        for e in json.loads(f.read_text("utf-8")).get("events") or []:
            if e["type"] == etype and all(e.get(k) == v for k, v in match.items()):
                out.append(dict(e, step=int(f.parent.name)))
    return out


def _at_war(st: dict, code: str) -> str | None:
    return (st.get("war") or {}).get(code)


def _free_land(st: dict, world, zone: str, kinds=("infantry",)) -> list[str]:
    return sorted(c for c in _land(st, zone, "axis") if st["counters"][c]["type"] in kinds and not st["counters"][c].get("entrenched"))


def axis_operations(turn: int, st: dict, world, camp: Path) -> tuple[dict[str, dict], set[str], list[str]]:
    """The Axis naval, air and sea transport orders of the turn and the attacks they lead to:
    ({phase: keys}, counters they use, notes)."""
    ph: dict[str, dict] = {}
    used: set[str] = set()
    notes: list[str] = []
    zone, sea, code = NORWAY
    fine = world.turns[turn].weather == "fine"
    if fine and _at_war(st, code) == "neutral" and world.turns[turn].year == 1940 and poland_overrun(st, world) \
            and turn > offensive_turn(world) and not happened(camp, "landing"):
        air = sorted(c for c, x in st["counters"].items() if x["type"] == "air" and x["nation"] == "GER" and x["at"] in world.zones
                     and sea in world.zones[x["at"]].coasts and not x.get("flying"))
        ports = [z for z in sorted(world.zones) if sea in world.zones[z].coasts and world.zones[z].port and control(st, world, z) == "axis"]
        inf = [c for z in ports for c in _free_land(st, world, z)][:2]
        if air and inf:
            ph["axis.5.air"] = {"air": [{"counter": air[0], "to": sea, "beachhead": zone}]}
            ph["axis.6.sea-transport"] = {"land": [{"counter": c, "beachhead": zone} for c in inf]}
            ph["axis.9.combat"] = {"attacks": [{"target": zone, "counters": inf, "advance": "all"}], "attack_neutral": [code]}
            used.update(inf + air[:1])
            notes.append(f"Norway (9.3, 13.4.5, 14.1.2): {air[0]} flies to the {sea} as a beachhead for {zone}, "
                         f"{', '.join(inf)} {'lands' if len(inf) == 1 else 'land'} there and {'goes' if len(inf) == 1 else 'go'} ashore in {zone} "
                         f"(attack_neutral: [{code}])")
    landed = happened(camp, "landing")
    if landed and not happened(camp, "air-mission", mission="sea-control") and not happened(camp, "interception", mission="sea-control") \
            and world.turns[turn].weather != "snow":
        air = sorted(c for c, x in st["counters"].items() if x["type"] == "air" and x["nation"] == "GER" and x["at"] in world.zones
                     and sea in world.zones[x["at"]].coasts and not x.get("flying"))
        if air:
            ph["axis.5.air"] = {"air": [{"counter": air[0], "to": sea}]}
            used.add(air[0])
            notes.append(f"{air[0]} flies sea control over the {sea} (13.4.4) to cover Norway")
    bob_done = happened(camp, "battle-of-britain")
    if control(st, world, BOB_BASE) == "axis" and not bob_done:
        at_lille = [c for c, x in st["counters"].items() if x["type"] == "air" and x["nation"] == "GER" and x["at"] == BOB_BASE]
        british_air = [c for c, x in st["counters"].items() if x["type"] == "air" and _side(st, c) == "allies" and x.get("at") in world.zones
                       and world.zones[x["at"]].country == "UK" and not x.get("flying")]
        # not in the turn an air unit flies sea control: every German air unit within one zone of
        # London fights the Battle of Britain, and an air unit flies one mission a phase (13.4, BW-AIR-TWICE)
        if france_fallen(st) and world.weather(turn, BOB_BASE) != "snow" and len(at_lille) > len(british_air) \
                and not (ph.get("axis.5.air") or {}).get("air"):
            ph.setdefault("axis.5.air", {})["battle_of_britain"] = {"rounds": "ask"}
            notes.append(f"the Battle of Britain (13.4.3) from {BOB_BASE}: {len(at_lille)} German air units, rounds: ask")
        elif not happened(camp, "air-rebase-ordered", side="axis"):
            cands = sorted((c for c, x in st["counters"].items() if x["type"] == "air" and x["nation"] == "GER" and x["at"] in world.zones
                            and x["at"] != BOB_BASE and not x.get("flying") and c not in used),
                           key=lambda c: (world.zones[st["counters"][c]["at"]].country != "GER", c))
            moves = [{"counter": c, "to": BOB_BASE} for c in cands[:BOB_AIR - len(at_lille)]]
            if moves and world.weather(turn, BOB_BASE) != "snow":
                ph.setdefault("axis.5.air", {})["rebase"] = moves
                used.update(m["counter"] for m in moves)
                notes.append(f"{len(moves)} air units move to {BOB_BASE} at the end of the turn (13.5, clar. 7)")
    frm, to, msea, _, _ = MED_CONVOY
    british = [c for c, x in st["counters"].items() if x.get("at") == msea and x["type"] == "fleet" and _side(st, c) == "allies"]
    fought = [x.get("chosen_by") for e in happened(camp, "naval-battle") for r in e.get("rounds") or [] for x in r.get("losses") or []]
    there = sorted(c for c, x in st["counters"].items() if x.get("at") == msea and x["type"] in ("fleet", "uboat") and x["nation"] == "ITA")
    if _at_war(st, "ITA") == "axis" and british and there and happened(camp, "naval-battle") and "answer" not in fought:
        ph["axis.4.naval"] = {"naval_attacks": [msea]}
        notes.append(f"{', '.join(there)} attack the British fleet in the {msea} again (12.2)")
    elif _at_war(st, "ITA") == "axis" and british and not happened(camp, "naval-battle"):
        fleets = sorted(c for c, x in st["counters"].items() if x["type"] in ("fleet", "uboat") and x["nation"] == "ITA"
                        and x["at"] in world.zones and msea in world.zones[x["at"]].coasts)
        cargo = sorted(c for c, x in st["counters"].items() if x["type"] == "supply" and x["nation"] == "ITA" and x["at"] == frm)
        if fleets and cargo:
            ph["axis.4.naval"] = {"fleet_moves": [{"counter": c, "path": [msea]} for c in fleets], "naval_attacks": [msea]}
            ph["axis.6.sea-transport"] = dict(ph.get("axis.6.sea-transport") or {}, transport=[{"counter": cargo[0], "to": to}])
            notes.append(f"the convoy (14.1.1): {cargo[0]} {frm} -> {to}; {', '.join(fleets)} sail into the {msea} and attack "
                         f"the British fleet there ({', '.join(sorted(british))}, 12.2)")
    if world.turns[turn].year >= BARBAROSSA_YEAR and france_fallen(st) and world.turns[turn].weather != "snow" \
            and Fraction(str((st.get("supply") or {}).get("axis", "0"))) >= 2 \
            and not any(world.zones[x["at"]].country == "USSR" for c, x in st["counters"].items()
                        if x["nation"] == "GER" and x["type"] in LAND_KINDS and x["at"] in world.zones):
        for cid, x in sorted(st["counters"].items(), key=lambda kv: (kv[1].get("at") not in world.zones or world.zones[kv[1]["at"]].country != "GER",
                                                                     kv[1]["type"] != "armour", kv[0])):
            if x["nation"] != "GER" or x["type"] not in ("armour", "infantry") or x.get("at") not in world.zones or cid in used \
                    or x.get("entrenched") or control(st, world, x["at"]) != "axis" or not _line_home(st, world, x["at"]):
                continue
            empty = [z for z in sorted(world.zones[x["at"]].links) if world.zones[z].country == "USSR" and not enemy_land_in(st, z, "axis")
                     and not _land(st, z, "ussr")]
            if empty:
                ph["axis.7.movement"] = {"moves": [{"counter": cid, "path": [empty[0]]}]}
                used.add(cid)
                notes.append(f"the war in the east: {cid} enters {empty[0]} (the first German unit in the USSR)")
                break
        else:
            staged = _stage_east(st, world, used)
            if staged:
                ph["axis.7.movement"] = {"strategic": [staged]}
                used.add(staged["counter"])
                notes.append(f"the war in the east: {staged['counter']} moves by strategic movement to {staged['path'][-1]}, "
                             "next to the USSR (15.2)")
    return ph, used, notes


def _stage_east(st: dict, world, used: set[str]) -> dict | None:
    """A strategic move (15.2) of a German infantry counter from Germany to an Axis zone next to
    the USSR with a supply line home, for the first step into the USSR a turn later."""
    staging = [z for z in sorted(world.zones) if control(st, world, z) == "axis" and not enemy_land_in(st, z, "axis")
               and any(world.zones[n].country == "USSR" for n in world.zones[z].links) and _line_home(st, world, z)]
    for cid, x in sorted(st["counters"].items()):
        if x["nation"] != "GER" or x["type"] != "infantry" or x.get("at") not in world.zones or cid in used \
                or x.get("entrenched") or world.zones[x["at"]].country != "GER" or x["at"] in staging:
            continue
        paths = [p for p in (_strategic_path(st, world, x["at"], z) for z in staging) if p]
        if paths:
            return {"counter": cid, "path": min(paths, key=len)}
    return None


LAND_KINDS = ("infantry", "armour", "white-tank")


def _line_home(st: dict, world, zone: str) -> bool:
    """Whether an Axis supply line from ``zone`` reaches a source (7): the move pays from the
    supply held only then."""
    from pbem.blitzwar import supply
    from pbem.blitzwar.context import Ctx
    return supply.sources(Ctx(rs=world, state=st, turn=st["turn"], phase=st["phase"]), "axis", zone)[0]


def allied_operations(turn: int, st: dict, world, camp: Path) -> tuple[list[dict], str]:
    """The Allied phases 4-9: the British fleet attacks the Italian convoy's cover (12.2); the
    Home Fleet sails to the Norwegian Sea for lend-lease (11.4) once Germans are in the USSR."""
    naval: dict = {"phase": "allies.4.naval"}
    notes = []
    _, _, msea, base, path = MED_CONVOY
    axis_there = [c for c, x in st["counters"].items() if x.get("at") == msea and x["type"] in ("fleet", "uboat") and _side(st, c) == "axis"]
    mine = sorted(c for c, x in st["counters"].items() if x.get("at") == base and x["type"] == "fleet" and _side(st, c) == "allies")
    if _at_war(st, "ITA") == "axis" and mine and not axis_there and not happened(camp, "naval-battle") \
            and not [c for c, x in st["counters"].items() if x.get("at") == msea and _side(st, c) == "allies"]:
        naval["fleet_moves"] = [{"counter": mine[0], "path": path}]
        notes.append(f"{mine[0]} sails {base} -> {msea} to cut the Italian convoy route to Libya (12.1)")
    port, way, route = MURMANSK
    germans = any(world.zones[x["at"]].country == "USSR" for c, x in st["counters"].items()
                  if x["nation"] == "GER" and x["type"] in LAND_KINDS and x.get("at") in world.zones)
    home = sorted(c for c, x in st["counters"].items() if x.get("at") == port and x["type"] == "fleet" and _side(st, c) == "allies")
    if germans and home:
        naval.setdefault("fleet_moves", []).extend({"counter": c, "path": way} for c in home)
        notes.append(f"{', '.join(home)} sail to the {route} for lend-lease to Murmansk (11.4, 12.3)")
    if len(naval) == 1:
        return [], ""
    return [naval], "Allies: " + "; ".join(notes)


def lend_lease(st: dict, world) -> dict | None:
    """The Allied lend-lease order of the replacement phase (11.4): 2 supply a fleet unit in the
    Norwegian Sea, once Germans are in the USSR."""
    _, _, route = MURMANSK
    germans = any(world.zones[x["at"]].country == "USSR" for c, x in st["counters"].items()
                  if x["nation"] == "GER" and x["type"] in LAND_KINDS and x.get("at") in world.zones)
    fleets = sum(int(x["units"]) for c, x in st["counters"].items() if x.get("at") == route and x["type"] == "fleet" and _side(st, c) == "allies")
    if germans and fleets:
        return {route: {"supply": min(2 * fleets, 4)}}
    return None

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


def play(out: Path, log=print, until=None, attempt: int = 1, resume: bool = False) -> list[dict]:
    """Play the campaign in ``out`` (a new one with dice key ``attempt``; ``resume``: go on with
    the one there, to try a plan from the middle) until ``until`` says it is where it should be."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    if not resume:
        new_campaign(out, scenario="blitzwar-1939", campaign_id=CAMPAIGN_ID, players=PLAYERS, options={},
                     title="BlitzWAR 1939-1941: Poland, the west, the sea and the air", key_hex=key_of(attempt))
    work = Path(tempfile.mkdtemp(prefix="pbem-bw-example-"))
    steps: list[dict] = []
    try:
        n = 0
        planned: list[dict] = []
        while True:
            sh = show(out)
            if until and until(sh, state_of(out), steps, out):
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
                phases, what = axis_plan(sh["turn"], state_of(out), world, out)
                planned = phases[-1]["attacks"]
                text = orders_file(tpl, phases, what)
            elif phase in ("1.diplomacy", "2.cards", "3.replacements"):
                text, what = shared_orders(out, player, sh["turn"], tpl, state_of(out), world)
            elif player == "allies" and phase.startswith("allies."):
                phases, what = allied_operations(sh["turn"], state_of(out), world, out)
                text = orders_file(tpl, phases, what) if phases else tpl
                what = what or "no orders: the phases of the template, empty"
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


def west_combats(camp: Path, world) -> dict[str, list[str]]:
    """The Axis attacks on zones of the Low Countries and France in the archive, by phase kind
    (blitz: 16.1, combat: 17.1)."""
    out: dict[str, list[str]] = {"blitz": [], "combat": []}
    for f in sorted((camp / "steps").glob("*/report.json")):
        for e in json.loads(f.read_text("utf-8")).get("events") or []:
            if e["type"] == "combat" and e.get("side") == "axis" and world.zones[e["zone"]].country in WEST:
                kind = "blitz" if e["phase"].endswith(".blitz") else "combat"
                if e["zone"] not in out[kind]:
                    out[kind].append(e["zone"])
    return out


def done(sh, st, steps, camp: Path | None = None) -> bool:
    """Poland is overrun and the offensive in the west has been fought in both combat phases,
    at the start of the turn after it (so that the turn is complete in the archive)."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    if not (sh["phase"] == "1.diplomacy" and not sh.get("received") and not sh["pending"]):
        return False
    if sh["turn"] <= offensive_turn(world):
        return False
    w = west_combats(camp, world)
    if not (poland_overrun(st, world) and w["blitz"] and w["combat"]):
        raise NotYet(f"turn {sh['turn']}: Poland overrun {poland_overrun(st, world)}, attacks in the west {w}")
    missing = [g for g, ok in goals(st, camp).items() if not ok]
    if missing and sh["turn"] >= LAST_TURN:
        raise NotYet(f"turn {sh['turn']}: not yet {', '.join(missing)}")
    return not missing


def goals(st: dict, camp: Path) -> dict[str, bool]:
    """The story the example must hold (issues 20 and 21), in the order the brief names them."""
    def chosen(e: dict) -> list[str]:
        return [x.get("chosen_by") for r in e.get("rounds") or [] for x in r.get("losses") or []]
    return {
        "France's fall and Vichy (9.4)": bool(happened(camp, "vichy")),
        "Italy's entry (9.3)": bool(happened(camp, "activated", country="ITA", side="axis")),
        "the Norwegian landing, Norway joining the Allies (14.1.2, 9.3)": bool(happened(camp, "landing"))
            and bool(happened(camp, "activated", country="NOR")),
        "an interception answered by a pending decision (13.2)": any(e.get("chosen_by") == "answer" for e in
                                                                  happened(camp, "no-interception") + happened(camp, "interception")),
        "an interception answered by a standing order (13.2)": any(str(e.get("chosen_by", "")).startswith("standing") for e in
                                                                happened(camp, "no-interception") + happened(camp, "interception")),
        "the Battle of Britain (13.4.3)": bool(happened(camp, "battle-of-britain-end")),
        "the convoy battle, its losses chosen by their owner (12.2)": any("answer" in chosen(e) for e in happened(camp, "naval-battle")),
        "lend-lease to Murmansk (11.4)": bool(happened(camp, "lend-lease", route="norwegian-sea")),
    }


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
    raise Stop(f"no dice key attempt 1-{MAX_ATTEMPTS} lets the Axis plan overrun Poland and fight in the west by turn {LAST_TURN}")


KEY_LINES = re.compile(r"^(supply: .*|Attack \d+ on .*|  net shift .*|Attack \d+: .*(?:retreat|advances|lose).*|\S+: control \S+ -> \S+ .*|"
                       r"\S+ passes to the \S+ side .*|no blitz phase: .*|\S+: replacement card .*|\S+: \d+ supply received.*|"
                       r"\S+ \(\S+\) (?:surrenders|joins|is activated).*|.*(?:surrender|activat)\S* .*\[9\.\d\].*|\S+ strategic move: .*|"
                       r"the axis player (?:sealed|opened) .*|"
                       # the sea and the air (issue 20), France's fall (issue 21)
                       r"air \d+: .*|  right \d+: attacker's air superiority .*|STOPPED: waiting for .*|  decision \S+; options: .*|\S+: \S+ sails .*|\S+: naval battle .*|"
                       r"  round \d+: die .*|  left: attackers .*|\S+ lands from .*|\S+ on the beachhead at .*|\S+ shipped .*|"
                       r"Battle of Britain .*|lend-lease by .*|Vichy France is set up.*|\S+ \(GER\) moves strategically .*)$")
LATE_SKIP = re.compile(r"^(supply: .*|\S+ strategic move: .*|the axis player (?:sealed|opened) .*|\S+: replacement card .*|"
                       r"\S+: \d+ supply received.*)$")     # from turn 8 on, in the reports only (the README stays readable)


def _turn_title(world, t: int) -> str:
    tt = world.turns[t]
    why = {"mud": ": mud, no blitz phase (6)", "snow": ": snow, no blitz in snow zones (6)"}.get(tt.weather, "")
    return f"{world.turn_date(t)}, {tt.weather}{why}"


def _first(camp: Path, etype: str, **match) -> int | None:
    ev = happened(camp, etype, **match)
    return min(e["step"] for e in ev) if ev else None


def _stopped_at(camp: Path, decision: str) -> int | None:
    """The step whose adjudication stopped with ``decision`` pending (its report names it)."""
    for d in sorted((camp / "steps").iterdir()):
        if d.name.isdigit() and (d / "report.txt").exists() and f"decision {decision};" in (d / "report.txt").read_text("utf-8"):
            return int(d.name)
    return None


def tryout(camp: Path, steps: list[dict]) -> dict[str, dict]:
    """Where each event of the try-out (issues 20, 21) is in the archive: step numbers."""
    def answered(pattern: str) -> list[dict]:
        return [s for s in steps if s["kind"] == "answer" and re.search(pattern, s["what"])]
    def orders_of(step: int | None, player: str) -> int | None:
        if step is None:
            return None
        t = next(s["turn"] for s in steps if s["step"] == step)
        mine = [s["step"] for s in steps if s["kind"] == "orders" and s["player"] == player and s["turn"] == t
                and s["phase"].startswith(player + ".") and s["step"] <= step]
        return mine[-1] if mine else None
    land = _first(camp, "landing")
    sup = [e for e in happened(camp, "combat") if any(x["reason"] == "attacker's air superiority" for x in e.get("shifts") or [])]
    airsup: dict = {}
    if sup:
        from pbem.core.data import load_ruleset
        _, world = load_ruleset("blitzwar-1939")
        e = sup[0]
        cols = world.crt_columns
        shift = next(x["shift"] for x in e["shifts"] if x["reason"] == "attacker's air superiority")
        without = cols[max(cols.index(e["column"]) - shift, 0)]
        air = [m for m in happened(camp, "air-mission", mission="superiority", zone=e["zone"], turn=e["turn"])]
        airsup = {"step": e["step"], "orders": orders_of(e["step"], "axis"), "zone": world.zones[e["zone"]].name, "column": e["column"],
                  "shift": shift, "die": e["roll"]["value"], "result": e["result"], "without": without,
                  "result_without": world.crt_results[without][e["roll"]["value"] - 1], "net": e["net_shift"],
                  "counter": air[0].get("counter") if air else None}
    ans = answered(r"\.intercept\.")
    std = [e for e in happened(camp, "interception") + happened(camp, "no-interception") if str(e.get("chosen_by", "")).startswith("standing")]
    sent = [e for e in happened(camp, "standing", player="allies") if e["standing"].get("intercept", "ask") != "ask"]
    naval = [e for e in happened(camp, "naval-battle") if any(x.get("chosen_by") == "answer" for r in e["rounds"] for x in r.get("losses") or [])]
    loss = answered(r"\.naval\.n\d+\.r\d+\.axis\.loss")
    bob = happened(camp, "battle-of-britain-end")
    ll = happened(camp, "lend-lease", route="norwegian-sea")
    into = [s["step"] for s in steps if s["kind"] == "orders" and "first German unit in the USSR" in s["what"]]
    home = [s["step"] for s in steps if s["kind"] == "orders" and "for lend-lease to Murmansk" in s["what"]]
    convoy = [s["step"] for s in steps if s["kind"] == "orders" and "the convoy (14.1.1)" in s["what"]]
    cut = [s["step"] for s in steps if s["kind"] == "orders" and "to cut the Italian convoy route" in s["what"]]
    return {
        "norway": {"orders": orders_of(land, "axis"), "stopped": _stopped_at(camp, ans[0]["what"]) if ans else None,
                   "answer": ans[0]["step"] if ans else None, "landing": land, "decision": ans[0]["what"] if ans else None},
        "standing": {"sent": sent[0]["step"] if sent else None, "value": sent[0]["standing"]["intercept"] if sent else None,
                     "used": std[0]["step"] if std else None, "orders": orders_of(std[0]["step"], "axis") if std else None},
        "france": {"surrender": _first(camp, "surrender", country="FRA"), "vichy": _first(camp, "vichy"),
                   "italy": _first(camp, "activated", country="ITA", side="axis")},
        "med": {"cut": cut[0] if cut else None, "convoy": convoy[0] if convoy else None, "battle": naval[0]["step"] if naval else None,
                "orders": orders_of(naval[0]["step"], "axis") if naval else None,
                "stopped": _stopped_at(camp, loss[0]["what"]) if loss else None, "answer": loss[0]["step"] if loss else None,
                "decision": loss[0]["what"] if loss else None},
        "bob": {"orders": orders_of(bob[0]["step"], "axis") if bob else None, "end": bob[0]["step"] if bob else None,
                "rounds": bob[0]["rounds"] if bob else None, "won": bob[0]["won"] if bob else None,
                "answers": [s["step"] for s in answered(r"\.bob\d+")],
                "rebase": _first(camp, "air-rebase-ordered", side="axis")},
        "airsup": airsup,
        "murmansk": {"germans": into[0] if into else None, "fleets": home[0] if home else None, "lend_lease": ll[0]["step"] if ll else None},
    }


def _s(n: int | None) -> str:
    return f"{n:03d}" if isinstance(n, int) else "-"


def readme(camp: Path, steps: list[dict], attempt: int) -> str:
    """The example's README: where the try-out's events are, what happens turn by turn (the
    report lines that matter, each with its rule section, taken from the archived reports), how
    to replay it and look at it."""
    from pbem.core.data import load_ruleset
    _, world = load_ruleset("blitzwar-1939")
    by_turn: dict[int, list[str]] = {}
    steps_lines: list[str] = []
    off = offensive_turn(world)
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
        if st["turn"] > off:
            lines = [x for x in lines if not LATE_SKIP.match(x)]
        mine = lines
        if st["kind"] == "answer":
            # the phase runs again from its start with the answer: what the step before reported is not repeated
            seen = list(steps_lines)
            lines = ["(the phase runs again from its start with the answer)"] + [x for x in mine if x not in seen or "answer" in x]
        steps_lines = mine
        if st["kind"] == "orders" and not lines:
            continue
        by_turn.setdefault(st["turn"], []).append(f"- step {st['step']:03d} ({st['player']}, {st['kind']}): {st['what']}")
        by_turn[st["turn"]] += [f"  - {x}" for x in lines]
    body = []
    for t, ls in sorted(by_turn.items()):
        body.append(f"### Turn {t} ({_turn_title(world, t)})\n")
        body += ls
        body.append("")
    n = len(steps)
    west = west_combats(camp, world)
    ev = tryout(camp, steps)
    nw, sd, fr, md, bb, mu = ev["norway"], ev["standing"], ev["france"], ev["med"], ev["bob"], ev["murmansk"]
    sup = ev["airsup"]
    if not sup:
        raise Stop("no land attack with the attacker's air superiority in the campaign (13.4.2, 16.3.1)")
    last = state_of(camp)["turn"]
    return f"""# Demo campaign: BlitzWAR 1939-1941, Poland, the west, the sea and the air (three players)

A three-player BlitzWAR campaign (`blitzwar-1939`: Anna `axis`, Ben `allies`, Chen `ussr`)
played through the command line by `tools/make_blitzwar_example.py` with a published dice key
(`private/dice.key`, attempt {attempt} of the script's fixed key phrase). {n} steps, from the
first turn ({world.turn_date(1)}) to the start of turn {last} ({world.turn_date(last)}). Every
file was checked with `pbem validate` before `pbem adjudicate`, and `pbem replay` re-checks every
state, report and die byte for byte.

Made again for issue 31 (BlitzWAR to the letter): the Axis now flies air superiority over its
first blitz in Poland (13.4.2), so the example shows the attacker's air superiority shift
deciding a land attack (16.3.1); the orders of turn 1, and with them every later die, changed,
and the key of attempt 9 no longer met every goal of the script (Poland was not overrun in
time). Before, for issue 33 (a turn by mail in few round trips), the attack pbem makes to fight a
blitz on in the normal combat phase (17.1) came to keep the blitz attack's `advance`, `losses`
and `exploit`, and the decisions of one attack to be asked together; before that, the rules
came to read the meeting points of two chapters as printed (America a port of the supply lines,
7; sea control after each air phase; beachheads after every interception; the Battle of
Britain's air used up). Each time the key of the attempt above is the first that meets every
goal of the script, so the story below is a new one.

## Where the try-out's events are (issues 20 and 21)

| event | rules | steps |
|---|---|---|
| A land attack with air superiority, Poland 1939: {sup['counter']} flies air superiority over {sup['zone']} in the air phase, before the blitz there | 13.4.2, 16.3.1, 16.1 | Axis orders {_s(sup['orders'])}; in the blitz the report line `right {sup['shift']}: attacker's air superiority [16.3.1]` (net shift +{sup['net']}) puts the attack in column {sup['column']}, where the die {sup['die']} gives {sup['result']}; without it the column would be {sup['without']} and the same die {sup['result_without']}: the superiority shift decides the combat ({_s(sup['step'])}); the air unit is then removed to the pool (16.1 step 5) |
| France falls, Vichy France is set up, Italy (and Hungary) join the Axis | 9.2, 9.4, 9.3 | {_s(fr['surrender'])} (France surrenders in the diplomacy phase; it stops for the Axis: where does the first German elite counter arrive, 11.7), {_s(fr['vichy'])} (the Axis' answer: Vichy France is set up, Italy {"" if fr['italy'] == fr['vichy'] else f"({_s(fr['italy'])}) "}and Hungary join the Axis; the Spanish roll follows) |
| Norway, 1940: a German air unit flies to the North Sea as a beachhead for Oslo, an infantry corps lands from Hamburg and goes ashore; Norway, a neutral, joins the Allies | 13.4.5, 14.1.2, 16.4 (clar. 9), 9.3 | Axis orders {_s(nw['orders'])}; the adjudication stops at {_s(nw['stopped'])} with the Allies' interception decision `{nw['decision']}`; the Allies' answer file {_s(nw['answer'])} resumes it (no interception), the landing follows |
| An interception answered in advance by a standing order | 13.2 | the Allies send `intercept: {sd['value']}` with their file {_s(sd['sent'])}; the Axis air unit sent over the North Sea in the orders {_s(sd['orders'])} is intercepted by it without a stop ({_s(sd['used'])}) |
| The Battle of Britain, ordered after France's fall from Lille (German air units moved there by strategic air movement, {_s(bb['rebase'])}) | 13.5, 13.4.3 | Axis orders {_s(bb['orders'])} (`battle_of_britain: {{rounds: ask}}`); round by round the Axis answers whether to go on ({", ".join(_s(x) for x in bb['answers'])}); {bb['rounds']} rounds, {"won" if bb['won'] else "not won"} ({_s(bb['end'])}) |
| The convoy battle in the Mediterranean: the British fleet sails to the South-Central Mediterranean ({_s(md['cut'])}); the Italian fleet covers a supply counter shipped Naples -> Tripoli and attacks it ({_s(md['convoy'])}{"" if md['orders'] == md['convoy'] else f"; again in {_s(md['orders'])}"}); the Axis chooses its loss | 12.1, 12.2, 14.1.1 | the adjudication stops at {_s(md['stopped'])} with `{md['decision']}`; the Axis' answer file {_s(md['answer'])} resumes it |
| Lend-lease to Murmansk: a German corps enters the USSR ({_s(mu['germans'])}), the Home Fleet sails from Scapa Flow to the Norwegian Sea ({_s(mu['fleets'])}), the Allies send 4 supply of their card to the USSR | 11.4, 12.3 | the Allies' file {_s(mu['lend_lease'])} (`lend_lease: {{norwegian-sea: {{supply: 4}}}}` in 3.replacements) |

How to look at them (STEP is a step number of the table):

```sh
pbem replay examples/blitzwar-1939                    # every state, report and die re-checked byte for byte
pbem show examples/blitzwar-1939                      # where it stands: sea control, air, the countries at war
pbem show examples/blitzwar-1939/steps/STEP/*-t*.yaml # the position after a step (its state file)
cat examples/blitzwar-1939/steps/STEP/report.txt      # what the step did, each line with its rule
pbem map examples/blitzwar-1939/steps/STEP/*-t*.yaml --report examples/blitzwar-1939/steps/STEP/report.json -o step.svg
pbem book examples/blitzwar-1939 -o /tmp/bw39-book    # every step as a web page: map, report, decisions, order files
pbem mail examples/blitzwar-1939 --step STEP -o /tmp/mail   # the e-mails of a step (to every player; a pending decision names who answers)
python tools/make_blitzwar_example.py --check --attempt {attempt}   # the script makes it again, identical
```

## The story

* **Poland, 1939.** The Axis moves and activates armour and infantry against the Polish stacks,
  attacks in the blitz phase (16) where the weather allows it and in the normal combat phase
  (17), advances after combat, and pays every activation and move from its supply (7): the
  reports say how much and from where. Poland surrenders at the start of the turn after it is
  overrun (9.2), and East Poland passes to the USSR.
* **The replacement cards (10) and replacements (11).** The Axis seals its card picks with
  `pbem seal` (its openings are in `private/`, published here as the dice key is; in a real game
  they stay on the player's machine until the card is played) and opens each card in its
  replacement phase; the Allies pick openly in their order files; the USSR sends no pick and
  gets pbem's default (the first free card of its deck).
* **The move west, winter and spring 1940.** In snow and mud the Axis moves its armour and the
  larger infantry counters west by strategic movement (15.2, double cost) to the Ruhr, Cologne
  and Saarbrucken, keeping supply for the offensive.
* **The offensive in the west, turn {off} ({world.turn_date(off)}) on.** The Axis attacks
  neutral Belgium-Netherlands with `attack_neutral: [BE]` (9.3: it joins the Allies at once):
  blitz attacks on {", ".join(west["blitz"]) or "-"} (16) and normal combat on
  {", ".join(west["combat"]) or "-"} (17). From the next turn the army gathers next to the
  French stacks by strategic movement, Paris is attacked with all it can bring, and the armour
  left drives through the empty French zones (each zone entered passes to the Axis, 5) until
  France meets its condition of 9.2 (Paris and 4 other zones) and surrenders by 9.4.
* **The sea and the air, 1940-1941.** Norway, the interceptions, the Battle of Britain, the
  Italian convoy and lend-lease: see the table above. The Allies and the USSR otherwise send the
  phases of `pbem orders template` as they are; every pending decision (which corps to lose,
  where to retreat, whether to intercept, which fleet loses a unit, another round of the Battle
  of Britain) is answered by an answer file made from `pbem orders template` with the first
  legal choice (an advance: the first unit).

## What is not in it (and why)

The Axis plan is the script's (greedy and written in `tools/make_blitzwar_example.py`), not a
good player's: it stops at the start of turn {last}, with no further offensive in the east, no
Sea Lion, no Allied landing. Strategic bombing starts in 1943 (13.3) and is not reached.

## Turn by turn (the report lines, with their rule sections)

""" + "\n".join(body) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--replace", action="store_true")
    ap.add_argument("--keep-failed", type=Path, metavar="DIR")
    ap.add_argument("--attempt", type=int, default=ATTEMPT, metavar="N",
                    help=f"start with dice key attempt N (default {ATTEMPT}, the example's; its README names it)")
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
        (built / "README.md").write_text(readme(built, steps, attempt), "utf-8")
        return check_or_write(dest, built, check=a.check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)



if __name__ == "__main__":
    sys.exit(main())
