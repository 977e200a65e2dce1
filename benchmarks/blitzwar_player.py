#!/usr/bin/env python3
"""A scripted BlitzWAR player (issue 21, "The whole campaign"): it plays a whole 1939 campaign
(two players: axis, allies with the USSR; or three: axis, allies, ussr) through the real
command line and the real archive, from turn 1 to the game-over event (turn 47 or Germany's
surrender), then checks the victory report and the byte-for-byte replay.

Kept in benchmarks/, not in the product: it is a test driver, not an opponent. It plays badly
but legally, and it plays everything the rules offer at least now and then:

* every awaited player gets ``pbem orders template``; the scripted orders are written into the
  template's header (the file a player would send), checked with ``pbem validate`` and sent
  with ``pbem adjudicate``. When validate refuses orders, the entries it names are dropped and
  the file is checked again (the refusals are logged and counted); after ``MAX_TRIES`` the
  bare template (the phases with no orders, always accepted) goes instead. Validate passing
  and adjudicate refusing stops the campaign (:class:`Disagree`: a bug to report);
* phases 1-3: the Axis seals its card picks (a nonce derived from the published key phrase, so
  that the campaign is reproducible; a real player lets ``pbem seal`` draw one) and opens each
  in the turn it is played; the Allies and the USSR pick openly from the template's free cards;
* phases 4-9 of a side, in one file (the phases of the template): naval moves and a naval
  attack where its fleets can reach enemy fleets or U-boats at sea without being outnumbered
  (the Axis sends its U-boats to the Atlantic otherwise); an air unit over the zone of its
  biggest attack (air superiority), one over a sea now and then (sea control), and a landing:
  an air unit over an enemy coastal zone its ports' land units can reach (a beachhead), up to
  two corps landed there, and their attack (or their going ashore) in the normal combat phase;
  strategic moves of rear units to the front; a move into an empty enemy zone; attacks on the
  enemy stacks next to its units at about 3 corps for 2 (blitz with armour in fine weather
  where the terrain allows it), the attackers activated and paid for;
* the Axis attacks the Low Countries (consent, 9.3) from the first fine turn of 1940 and the
  USSR from summer 1941; the USSR attacks the Axis once they are at war;
* every pending decision is answered by an answer file made from the template: the first legal
  choice, an advance rather than none, an interception when two air units or more could make it
  (every other time); the answer files of one round (every player asked) are adjudicated
  together, as a game master who collects them does;
* it counts, for each side-turn (and the card phases of each turn), the archive steps, the mails
  in (files adjudicated) and out (one to every player a step), and prints their median (issue
  33); ``--no-standing`` sends no standing orders, ``--ask`` besides leaves the advance out of
  the attacks (every advance and exploit is asked);
* now and then (every MISSING-th awaited file, never the Axis') a player sends nothing and the
  game master applies the missing-orders default (``pbem adjudicate --missing-orders``; the
  campaign declares ``no-orders`` for every player): it must always be accepted.

Deterministic: a fixed published dice key (``key_of``), fixed nonces, no clock, no randomness.

Usage::

    python benchmarks/blitzwar_player.py [--players 2|3] [--turns N] [--out DIR] [--attempt N] [--no-standing | --ask]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_cli  # noqa: E402

KEY_PHRASE = "pbem scripted blitzwar player: a published test key, never use for a real game"
MAX_TRIES = 8           # validate rounds before the bare template goes
MAX_STEPS = 3000        # a campaign that has not ended by then is stuck (a bug)
MAX_ATTACKS = 5         # land attacks a side plans in a turn
RESERVE = 2             # supply a side keeps back
MISSING = 17            # every MISSING-th awaited file (not the Axis') is missing: the default applies
ODDS = 1.5              # the corps an attack needs for each defending corps
LANDING_EVERY = 3       # a side looks for a landing every LANDING_EVERY turns


def bold() -> None:
    """``--bold``: attack at 1 for 1, as often as it can, land every turn, miss more files (to
    reach rules the default play meets seldom)."""
    global MAX_ATTACKS, ODDS, LANDING_EVERY, MISSING, RESERVE
    MAX_ATTACKS, ODDS, LANDING_EVERY, MISSING, RESERVE = 12, 1.0, 1, 7, 0
STANDING = {"losses": "auto", "advance": "auto"}      # the other decisions are asked (answer files)


ADVANCE: str | None = "all"     # what the attacks say of the advance (None: nothing, the attacker is asked)


def no_standing(ask_advances: bool = False) -> None:
    """``--no-standing``: no standing orders sent (every loss and advance the orders leave open
    is asked, as a newcomer plays before reading of standing orders); ``--ask`` besides: the
    attacks say nothing of the advance either (every advance, and where armour goes on, is
    asked)."""
    global ADVANCE
    STANDING.clear()
    if ask_advances:
        ADVANCE = None
SIDES = ("axis", "allies", "ussr")


def key_of(attempt: int = 1) -> str:
    return hashlib.sha256(f"{KEY_PHRASE}/{attempt}".encode()).hexdigest()


class Stop(Exception):
    """The campaign cannot go on: why, in words."""


class Disagree(Stop):
    """pbem validate passed a file that pbem adjudicate then refused (a bug)."""


def pbem(*args) -> tuple[int, str]:
    res = CliRunner().invoke(pbem_cli, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


@dataclass
class Stats:
    steps: int = 0
    orders: int = 0
    answers: int = 0
    refused: list[str] = field(default_factory=list)
    bare: int = 0
    missing: int = 0
    events: dict[str, int] = field(default_factory=dict)
    #: the round trips of each side-turn (issue 33): "t01 axis" (the side whose phases or
    #: decision the step carries out; "t01 cards" for phases 1-3) -> [archive steps, mails in
    #: (the files adjudicated), mails out (one to every player a step)]
    trips: dict[str, list[int]] = field(default_factory=dict)

    def count(self, turn: int, phase: str, files: int, players: int) -> None:
        side = phase.split(".")[0] if phase.split(".")[0] in SIDES else "cards"
        t = self.trips.setdefault(f"t{turn:02d} {side}", [0, 0, 0])
        t[0] += 1
        t[1] += files
        t[2] += players


def median(xs: list[int]) -> float:
    s = sorted(xs)
    n = len(s)
    return 0.0 if not n else float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def trips_lines(stats: Stats) -> list[str]:
    """The round trips per side-turn (issue 33), as the benchmark prints them: the median (and
    the most) of archive steps, mails in and mails out over the side-turns of the sides'
    phases 4-9 (the card phases 1-3 apart), and the side-turn that took the most steps."""
    out = []
    for label, keep in (("side-turn (phases 4-9 of a side)", lambda k: not k.endswith(" cards")),
                        ("card phases 1-3 of a turn", lambda k: k.endswith(" cards"))):
        rows = {k: v for k, v in stats.trips.items() if keep(k)}
        if not rows:
            continue
        cols = list(zip(*rows.values()))
        worst = max(rows, key=lambda k: (rows[k][0], k))
        out.append(f"  round trips per {label}, median (most) over {len(rows)}: archive steps {median(list(cols[0])):g} "
                   f"({max(cols[0])}), mails in {median(list(cols[1])):g} ({max(cols[1])}), mails out "
                   f"{median(list(cols[2])):g} ({max(cols[2])}); most steps: {worst} {rows[worst][0]}")
    return out


# ----------------------------------------------------------------------------- files
SCHEMA_COMMENT = re.compile(r"^# yaml-language-server: \$schema=.*$", re.M)


def archived(text: str) -> str:
    return SCHEMA_COMMENT.sub("# yaml-language-server: $schema=../../schemas/blitzwar-orders.schema.json", text, count=1)


def header(tpl: str) -> list[str]:
    lines = tpl.splitlines()
    return lines[:lines.index("phases:")]


def blocks(tpl: str) -> dict[str, str]:
    """The template's text of each phase entry."""
    out: dict[str, str] = {}
    cur = None
    for ln in tpl.splitlines():
        m = re.match(r"^  - phase: (\S+)", ln)
        if m:
            cur = m.group(1)
            out[cur] = ""
        elif not ln.startswith("    "):
            cur = None
        elif cur:
            out[cur] += ln + "\n"
    return out


def standing_lines() -> list[str]:
    return ["standing:"] + [f"  {k}: {v}" for k, v in STANDING.items()] if STANDING else []


def orders_file(tpl: str, phases: list[dict], comment: str, extra: list[str] = ()) -> str:
    L = header(tpl) + [f"# {comment}", "phases:"]
    for ph in phases:
        L.append(f"  - phase: {ph['phase']}")
        for k, v in ph.items():
            if k != "phase":
                L.append(f"    {k}: {json.dumps(v)}")
    return "\n".join(L + list(extra) + standing_lines()) + "\n"


def answer_file(tpl: str, pending: list[dict], player: str) -> tuple[str, list[str]]:
    mine = [d for d in pending if d["player"] == player]
    marker = "    choice: ''   # write one of the legal choices"
    chunks = tpl.split(marker)
    if len(chunks) != len(mine) + 1:
        raise Stop(f"the answer template for {player} holds {len(chunks) - 1} choices, the state {len(mine)}:\n{tpl}")
    out, picks = chunks[0], []
    for d, rest in zip(mine, chunks[1:]):
        pick = choose(d)
        picks.append(f"{d['id']}={pick}")
        out += f"    choice: {json.dumps(pick)}   # answered by the scripted player" + rest
    return out, picks


def choose(d: dict):
    """A decision's answer: the first legal choice; an advance rather than staying; an
    interception when two air units or more could make it; the Battle of Britain stopped."""
    opts = d["options"]
    kind = d.get("kind")
    if kind == "advance":
        return next((o for o in opts if o not in ("none", "stay")), opts[0])
    if kind == "intercept":      # every other one (by its id), so that some landings get through
        half = int(hashlib.sha256(str(d["id"]).encode()).hexdigest(), 16) % 2
        return opts[1] if len(opts) >= 3 and opts[0] == "none" and half else opts[0]
    if kind == "battle-of-britain" and "stop" in opts:
        return "stop"
    return opts[0]


# ----------------------------------------------------------------------------- the position
class Pos:
    """The position as the planner reads it (the newest state of the archive)."""

    def __init__(self, world, st: dict):
        from pbem.blitzwar.context import nation_side, zone_control
        self.w, self.st = world, st
        self.turn = st["turn"]
        self._ns, self._zc = nation_side, zone_control
        self.by_zone: dict[str, list[str]] = {}
        for cid, c in st["counters"].items():
            self.by_zone.setdefault(c["at"], []).append(cid)
        for v in self.by_zone.values():
            v.sort()

    def c(self, cid: str) -> dict:
        return self.st["counters"][cid]

    def side(self, cid: str) -> str:
        return self._ns(self.w, self.st, self.c(cid)["nation"])

    def control(self, z: str) -> str:
        return self._zc(self.w, self.st, z)

    def land(self, z: str, pred) -> list[str]:
        from pbem.blitzwar.context import LAND
        return [c for c in self.by_zone.get(z, []) if self.c(c)["type"] in LAND and pred(self.side(c))]

    def corps(self, cids) -> int:
        from pbem.blitzwar.context import n_corps
        return sum(n_corps(self.c(c)) for c in cids)

    def supply(self, side: str) -> float:
        held = float(self.st["supply"].get(side, "0"))
        on_map = 0.0
        for cid, c in self.st["counters"].items():
            if c["type"] == "supply" and c["at"] in self.w.zones and self.side(cid) == side:
                on_map += c["units"] - float(c.get("spent") or 0)
        return held + on_map


def at_war_with(p: Pos, side: str, other: str, turn: int) -> bool:
    """Whom the scripted side attacks: the Axis and the Allies each other; the Axis and the
    USSR once at war (the USSR waits for it; the Axis starts it in summer 1941)."""
    from pbem.blitzwar.context import enemies
    if not enemies(side, other):
        return False
    if "ussr" in (side, other):
        war = bool((p.st.get("flags") or {}).get("axis_ussr_war"))
        return war or (side == "axis" and turn >= BARBAROSSA)
    return True


BARBAROSSA = 16         # summer 1941, 1st half
WEST = "BE"             # the neutral the Axis attacks (9.3), from the first fine turn of 1940
WEST_FROM = 7


def cost(p: Pos, cid: str) -> float:
    from pbem.blitzwar.context import n_corps
    c = p.c(cid)
    return 0.5 if c["type"] in ("infantry", "armour", "white-tank") and n_corps(c) == 1 else 1.0


# ----------------------------------------------------------------------------- the side's plan
class Plan:
    """The orders of one side's phases 4-9 (those of the template), planned on the position at
    the start of the file."""

    def __init__(self, p: Pos, side: str, phases: list[str], tpl: str):
        self.p, self.side, self.phases, self.tb = p, side, phases, blocks(tpl)
        self.turn = p.turn
        self.budget = p.supply(side) - RESERVE
        self.used: set[str] = set()
        self.out: dict[str, dict] = {ph: {} for ph in phases}
        self.neutral: set[str] = set()

    def ph(self, step: str) -> str | None:
        name = f"{self.side}.{step}"
        return name if name in self.out else None

    # --------------------------------------------------------- who can act
    def mine(self, z: str) -> list[str]:
        return self.p.land(z, lambda s: s == self.side)

    def targets_of(self, z: str) -> list[str]:
        """Enemy land units in ``z`` the side attacks now (or Belgian-Dutch neutrals in 1940)."""
        p = self.p
        ens = p.land(z, lambda s: s in SIDES and at_war_with(p, self.side, s, self.turn))
        if not ens and self.side == "axis" and self.turn >= WEST_FROM and p.w.zones[z].country == WEST \
                and (p.st.get("war") or {}).get(WEST, "neutral") == "neutral":
            ens = p.land(z, lambda s: s == "neutral")
        if ens and p.land(z, lambda s: s == "neutral") and p.w.zones[z].country != WEST:
            return []
        return ens

    def free(self, cid: str, moving: bool = False) -> bool:
        c = self.p.c(cid)
        if cid in self.used or c.get("entrenched") or c.get("strategic") or c.get("shipped") or c.get("out_of_supply"):
            return False
        if c.get("attacked"):
            return False
        return not (moving and (c.get("moved") or c.get("active")))

    # --------------------------------------------------------- the phases
    def make(self) -> list[dict]:
        moving = self.ph("7.movement") is not None
        landing = self.plan_landing() if self.ph("5.air") and self.ph("6.sea-transport") else None
        attacks = self.plan_attacks(moving)
        if self.ph("4.naval"):
            self.naval()
        if self.ph("5.air"):
            self.air(attacks, landing)
        if landing:
            self.out[self.ph("6.sea-transport")]["land"] = [{"counter": c, "beachhead": landing[0], "sea": landing[3]}
                                                            for c in landing[2]]
        if moving:
            self.movement(attacks)
        for a in attacks:
            key = "8.blitz" if a.pop("blitz") and self.ph("8.blitz") else "9.combat"
            if self.ph(key):
                self.out[self.ph(key)].setdefault("attacks", []).append(a)
        if landing and self.ph("9.combat"):
            self.out[self.ph("9.combat")].setdefault("attacks", []).append(
                {"target": landing[0], "counters": landing[2], "advance": "all"})
        if self.neutral:
            for ph in self.phases:
                if ph.endswith(("7.movement", "8.blitz", "9.combat")) and self.out[ph]:
                    self.out[ph]["attack_neutral"] = sorted(self.neutral)
        return [dict({"phase": ph}, **self.out[ph]) for ph in self.phases]

    def plan_attacks(self, moving: bool) -> list[dict]:
        p, w = self.p, self.p.w
        cand = []
        for z in sorted(w.zones):
            ens = self.targets_of(z)
            if not ens:
                continue
            near = [c for n in w.zones[z].links if n in w.zones for c in self.mine(n)]
            if not moving:
                near = [c for c in near if p.c(c).get("active")]
            near = [c for c in near if self.free(c) and (not moving or not p.c(c).get("moved"))]
            if near:
                cand.append((p.corps(ens), z, ens, near))
        cand.sort()
        out = []
        fine = w.turns[self.turn].weather == "fine"
        for dc, z, ens, near in cand:
            if len(out) >= MAX_ATTACKS:
                break
            near = [c for c in near if c not in self.used]
            near.sort(key=lambda c: (-p.corps([c]), c))
            group, ac, pay = [], 0, 0.0
            for c in near:
                if ac >= 2 * dc:
                    break
                k = cost(p, c) if moving and not p.c(c).get("active") else 0.0
                if pay + k > self.budget:
                    continue
                group.append(c)
                ac += p.corps([c])
                pay += k
            if not group or ac < ODDS * dc:
                continue
            self.budget -= pay
            self.used.update(group)
            te = w.terrain_effects.get(w.zones[z].terrain, {})
            armour = any(p.c(c)["type"] in ("armour", "white-tank") for c in group)
            blitz = (fine and armour and te.get("blitz", True) and w.weather(self.turn, z) == "fine"
                     and not any(p.c(c)["at"] in w.zones[z].fortress_line for c in group))
            if any(p.side(c) == "neutral" for c in ens):
                self.neutral.add(w.zones[z].country)
            out.append({"target": z, "counters": sorted(group), "blitz": blitz} | ({"advance": ADVANCE} if ADVANCE else {}))
        return out

    def naval(self) -> None:
        from pbem.blitzwar.seacontrol import NAVAL
        p, w = self.p, self.p.w
        reach: dict[str, list[str]] = {}
        for ln in self.tb[self.ph("4.naval")].splitlines():
            m = re.match(r"^    #   (\S+) \S+ (?:fleet|uboat) \d+ @ \S+: (.*)$", ln)
            if m:
                reach[m.group(1)] = [x.strip() for x in m.group(2).split(",")]
        if not reach:
            return
        mine_at = {cid: p.c(cid)["at"] for cid in reach}
        enemy_seas = {}
        for s in sorted(w.seas):
            ens = [c for c in p.by_zone.get(s, []) if p.c(c)["type"] in NAVAL and p.side(c) in SIDES
                   and at_war_with(p, self.side, p.side(c), self.turn)]
            if ens:
                enemy_seas[s] = sum(p.c(c)["units"] for c in ens)
        moves, attack = [], None
        for s, n in sorted(enemy_seas.items(), key=lambda x: (x[1], x[0])):
            there = [c for c, a in mine_at.items() if a == s]
            can = sorted((c for c in reach if s in reach[c] and c not in there), key=lambda c: (-p.c(c)["units"], c))
            force = sum(p.c(c)["units"] for c in there)
            go = []
            for c in can:
                if force >= n + 1 or len(go) >= 3 or self.budget < 1:
                    break
                go.append(c)
                force += p.c(c)["units"]
                self.budget -= 1
            if force >= n:
                moves = [{"counter": c, "path": path_to(w, p.c(c)["at"], s, reach[c])} for c in go]
                moves = [m for m in moves if m["path"]]
                attack = s
                break
            self.budget += len(go)
        if attack is None and self.side == "axis":
            for c in sorted(reach):
                if p.c(c)["type"] == "uboat" and p.c(c)["at"] in w.zones and "north-atlantic" in reach[c] and self.budget >= 1:
                    path = path_to(w, p.c(c)["at"], "north-atlantic", reach[c])
                    if path:
                        moves.append({"counter": c, "path": path})
                        self.budget -= 1
                if len(moves) >= 2:
                    break
        e = self.out[self.ph("4.naval")]
        if moves:
            e["fleet_moves"] = moves
        if attack:
            e["naval_attacks"] = [attack]

    def air_units(self) -> dict[str, tuple[list[str], list[str]]]:
        out = {}
        for ln in self.tb.get(self.ph("5.air") or "", "").splitlines():
            m = re.match(r"^    #   (\S+) @ \S+: (.*)$", ln)
            if m:
                parts = [x.strip() for x in m.group(2).split(";")]
                land = [x.strip() for x in parts[0].split(",") if x.strip()]
                seas = next(([x.strip() for x in q[5:].split(",")] for q in parts[1:] if q.startswith("seas ")), [])
                out[m.group(1)] = (land, seas)
        return out

    def plan_landing(self):
        """(zone, air unit, landing counters) of a landing, or None: an enemy coastal zone (no
        naval base) an air unit reaches, whose beach's sea the enemy does not control, with the
        side's land units in a port of that sea (up to two corps)."""
        from pbem.blitzwar.seacontrol import sea_control_map
        p, w = self.p, self.p.w
        control = sea_control_map(p.st)
        if w.turns[self.turn].weather == "snow" or self.turn % LANDING_EVERY != 0:
            return None
        air = self.air_units()
        if not air:
            return None
        best = None
        for z in sorted(w.zones):
            zz = w.zones[z]
            if zz.naval_base or not zz.beaches or not at_war_with(p, self.side, p.control(z), self.turn) \
                    or p.control(z) not in SIDES or z in w.areas.get("britain", ()):
                continue
            dc = p.corps(p.land(z, lambda s: s != self.side))
            if dc > 1:
                continue
            flier = next((a for a in sorted(air) if z in air[a][0]), None)
            if not flier:
                continue
            for sea in sorted(zz.beaches):
                sc = control.get(sea)
                if sc and at_war_with(p, self.side, sc, self.turn):
                    continue
                for port in sorted(w.ports_on_sea(sea)):
                    if p.control(port) != self.side or port == "america":
                        continue
                    units = [c for c in self.mine(port) if self.free(c, moving=True)]
                    units.sort(key=lambda c: (-p.corps([c]), c))
                    go, n = [], 0
                    for c in units:
                        if n + p.corps([c]) <= 2 and self.budget - p.corps(go + [c]) >= 0:
                            go.append(c)
                            n += p.corps([c])
                    if n > dc and (best is None or (dc, -n) < best[0]):
                        best = ((dc, -n), z, flier, go, sea)
        if best is None:
            return None
        _, z, flier, go, sea = best
        self.used.update(go)
        self.budget -= p.corps(go)
        return z, flier, go, sea

    def air(self, attacks: list[dict], landing) -> None:
        air = self.air_units()
        missions, flown = [], set()
        if landing:
            missions.append({"counter": landing[1], "to": landing[0]})
            flown.add(landing[1])
        for a in sorted((a for a in attacks if self.p.control(a["target"]) in SIDES), key=lambda a: -len(a["counters"]))[:1]:
            f = next((x for x in sorted(air) if x not in flown and a["target"] in air[x][0]), None)
            if f:
                missions.append({"counter": f, "to": a["target"]})
                flown.add(f)
        if self.turn % 4 == 1:
            f = next((x for x in sorted(air) if x not in flown and air[x][1]), None)
            if f:
                missions.append({"counter": f, "to": air[f][1][0]})
        if missions:
            self.out[self.ph("5.air")]["air"] = missions

    def movement(self, attacks: list[dict]) -> None:
        p, w = self.p, self.p.w
        e = self.out[self.ph("7.movement")]
        act = [c for a in attacks for c in a["counters"] if not p.c(c).get("active")]
        if act:
            e["activate"] = [{"counter": c} for c in act]
        front = {z for z in w.zones if any(self.targets_of(n) for n in w.zones[z].links if n in w.zones)}
        # a move into an empty enemy zone next to a unit (armour first)
        moves = []
        for z in sorted(w.zones):
            if len(moves) >= 2:
                break
            if p.control(z) not in SIDES or not at_war_with(p, self.side, p.control(z), self.turn) or p.land(z, lambda s: True):
                continue
            if p.w.zones[z].country == "USSR" and self.side == "allies" or p.w.zones[z].country == "UK" and self.side == "ussr":
                continue
            near = sorted((c for n in w.zones[z].links if n in w.zones for c in self.mine(n)
                           if self.free(c, moving=True) and p.c(c)["type"] in ("armour", "infantry")),
                          key=lambda c: (p.c(c)["type"] != "armour", c))
            for c in near:
                if cost(p, c) <= self.budget and len(self.mine(p.c(c)["at"])) > 1:
                    moves.append({"counter": c, "path": [z]})
                    self.used.add(c)
                    self.budget -= cost(p, c)
                    break
        if moves:
            e["moves"] = moves
        # strategic moves of rear units to a free place at the front
        if not front:
            return
        strat = []
        rear = [c for z in sorted(w.zones) if z not in front for c in self.mine(z)
                if self.free(c, moving=True) and p.c(c)["type"] != "supply"]
        rear.sort(key=lambda c: (-p.corps([c]), c))
        room = {z: 2 - len(self.mine(z)) for z in front}
        for c in rear:
            if len(strat) >= 2 or 2 * cost(p, c) > self.budget:
                break
            path = strategic_path(p, self.side, p.c(c)["at"], {z for z, r in room.items() if r > 0})
            if path and len(path) <= 8:
                strat.append({"counter": c, "path": path})
                room[path[-1]] -= 1
                self.used.add(c)
                self.budget -= 2 * cost(p, c)
        if strat:
            e["strategic"] = strat


def path_to(w, start: str, goal: str, allowed: list[str]) -> list[str] | None:
    """The shortest naval path (places entered) from ``start`` to ``goal`` through seas and ports."""
    from collections import deque
    prev = {start: None}
    todo = deque([start])
    ok = set(allowed) | {goal}
    while todo:
        x = todo.popleft()
        if x == goal:
            out = []
            while x != start:
                out.append(x)
                x = prev[x]
            return out[::-1] if len(out) <= 4 else None
        nxt = list(w.zones[x].coasts) if x in w.zones else list(w.sea_neighbours(x)) + list(w.ports_on_sea(x))
        for n in sorted(nxt):
            if n not in prev and n in ok and (n in w.seas or n == goal):
                prev[n] = x
                todo.append(n)
    return None


def strategic_path(p: Pos, side: str, start: str, goals: set[str]) -> list[str] | None:
    from collections import deque
    if not goals:
        return None
    prev = {start: None}
    todo = deque([start])
    while todo:
        z = todo.popleft()
        if z in goals and z != start:
            out = []
            while z != start:
                out.append(z)
                z = prev[z]
            return out[::-1]
        for n in sorted(p.w.zones[z].links):
            if n in p.w.zones and n not in prev and p.control(n) == side \
                    and not p.land(n, lambda s: s in SIDES and s != side and at_war_with(p, side, s, p.turn)):
                prev[n] = z
                todo.append(n)
    return None


# ----------------------------------------------------------------------------- the player
class Player:
    """Plays one campaign in ``folder`` (made by :meth:`new`), step by step."""

    def __init__(self, folder: Path, log=print):
        from pbem.core.data import load_ruleset
        self.folder = folder
        self.log = log
        self.world = load_ruleset("blitzwar-1939")[1]
        self.stats = Stats()
        self.work = Path(tempfile.mkdtemp(prefix="pbem-bw-player-"))
        self.openings: dict[str, dict] = {}
        self.sent_seals: set[str] = set()
        self._pending_seals: list[str] = []
        self.n_awaited = 0
        self.roles: tuple[str, ...] = ("axis", "allies")

    def new(self, players: int, attempt: int = 1, cid: str = "auto") -> None:
        from pbem.core.actions import new_campaign
        roles = ("axis", "allies", "ussr")[:players]
        self.roles = roles
        new_campaign(self.folder, scenario="blitzwar-1939", campaign_id=cid,
                     players={r: {"name": r.capitalize()} for r in roles}, options={},
                     missing_defaults={r: "no-orders" for r in roles},
                     title=f"BlitzWAR 1939: a whole campaign by the scripted player ({players} players)",
                     key_hex=key_of(attempt))

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)

    # ------------------------------------------------------------- reading
    def show(self) -> dict:
        code, out = pbem("show", self.folder, "--json")
        if code != 0:
            raise Stop(f"pbem show failed:\n{out}")
        return json.loads(out)

    def state(self) -> dict:
        from pbem.core.campaign import Campaign
        return Campaign(self.folder).current()[1]

    def template(self, player: str) -> str:
        n = self.stats.steps
        f = self.work / f"tpl-{n}-{player}.yaml"
        if f.exists():
            f.unlink()
        code, out = pbem("orders", "template", self.folder, "--player", player, "-o", f)
        if code != 0:
            raise Stop(f"pbem orders template failed:\n{out}")
        # the player writes his own files from the template's parts, without its end mark and
        # end line (issue 29): the files, and so the dice and the play, are those of before
        return "".join(ln for ln in f.read_text("utf-8").splitlines(keepends=True)
                       if not ln.startswith(("# pbem order file: it ends with", "# end of the order file")))

    # ------------------------------------------------------------- playing
    def play(self, until_turn: int | None = None) -> dict:
        """Steps until the game is over (or ``until_turn`` is reached): the show of the end."""
        while True:
            sh = self.show()
            if sh["phase"] == "end" or sh.get("result"):
                return sh
            if until_turn and sh["turn"] > until_turn:
                return sh
            if self.stats.steps >= MAX_STEPS:
                raise Stop(f"{self.stats.steps} steps and no end: turn {sh['turn']} {sh['phase']}")
            self.step(sh)

    def missing(self, sh: dict, player: str, what: str) -> bool:
        """Now and then a player sends nothing and the game master applies the missing-orders
        default (``pbem adjudicate --missing-orders``): every MISSING-th time a side's phases or
        a decision are awaited from a player other than the Axis (it must always be accepted)."""
        if player == "axis":
            return False
        self.n_awaited += 1
        if self.n_awaited % MISSING:
            return False
        code, out = pbem("adjudicate", self.folder, "--missing-orders")
        if code not in (0, 5, 6):
            raise Stop(f"the missing-orders default of {player} ({what}) is refused, exit {code}:\n{out}")
        self.stats.steps += 1
        self.stats.missing += 1
        self.stats.count(sh["turn"], sh["phase"], 0, len(self.roles))
        self.log(f"step {self.stats.steps:04d} t{sh['turn']:02d} {sh['phase']}: {player} sends nothing ({what}): missing-orders default")
        return True

    def step(self, sh: dict) -> None:
        if sh["pending"] and self.missing(sh, sh["pending"][0]["player"], "a decision"):
            return
        if sh["pending"]:
            # the game master waits for the answer files of every player asked (one round trip)
            # and adjudicates them together: one archive step
            players = list(dict.fromkeys(d["player"] for d in sh["pending"]))
            files = []
            for player in players:
                tpl = self.template(player)
                text, picks = answer_file(tpl, sh["pending"], player)
                files.append((player, archived(text), f"answers {', '.join(picks)}"))
            self.submit_answers(files)
            self.stats.answers += len(files)
            return
        aw = [a["player"] for a in sh["awaiting"] if a.get("for") == "orders"]
        if not aw:
            raise Stop(f"nothing awaited and no decision pending: {sh}")
        player = aw[0]
        if len(aw) == 1 and self.missing(sh, player, "orders"):
            return
        tpl = self.template(player)
        st = self.state()
        phases = list(blocks(tpl))
        if phases and phases[0] in ("1.diplomacy", "2.cards", "3.replacements"):
            text, what = self.shared(st, player, tpl)
            if self.submit(player, archived(text), what, fallback=archived(tpl)):
                self.sent_seals.update(self._pending_seals)
            return
        pos = Pos(self.world, st)
        entries: list[dict] = []
        for side in SIDES:
            mine = [ph for ph in phases if ph.startswith(side + ".")]
            if mine:
                entries += Plan(pos, side, mine, tpl).make()
        self.orders(player, tpl, entries)

    def orders(self, player: str, tpl: str, entries: list[dict]) -> None:
        """Validate, drop what is refused, again; then adjudicate."""
        for k in range(MAX_TRIES):
            text = archived(orders_file(tpl, entries, f"scripted orders of the {player} player"))
            f = self.work / f"orders-{self.stats.steps}-{player}-{k}.yaml"
            f.write_text(text, "utf-8")
            code, out = pbem("validate", self.folder, f, "--json")
            if code == 0:
                self.submit(player, text, summary(entries), checked=f)
                return
            try:
                issues = json.loads(out[out.index("["):])
            except ValueError:
                raise Stop(f"pbem validate --json gave no issues (exit {code}):\n{out}") from None
            errs = [i for i in issues if i.get("severity") == "error"]
            for i in errs:
                self.stats.refused.append(f"t{self.show()['turn']} {player}: {i['code']} {i['message']}")
                self.log(f"    refused: {i['code']} {i['message']}")
            if not drop(entries, [i.get("path") or [] for i in errs]):
                break
        self.stats.bare += 1
        self.submit(player, archived(orders_file(tpl, [{"phase": e["phase"]} for e in entries], "no orders (fallback)")),
                    "no orders (fallback)")

    def submit(self, player: str, text: str, what: str, answer: bool = False, fallback: str | None = None,
               checked: Path | None = None) -> bool:
        n = self.stats.steps
        f = checked or self.work / f"{'answer' if answer else 'orders'}-{n}-{player}.yaml"
        if checked is None:
            f.write_text(text, "utf-8")
            code, out = pbem("validate", self.folder, f)
            if code != 0:
                if fallback is None:
                    raise Stop(f"pbem validate refuses {what} of {player}:\n{out}\n--- the file:\n{text}")
                self.stats.refused.append(f"{player}: {what}: {out.strip().splitlines()[0] if out.strip() else code}")
                self.log(f"    refused ({what}): {out.strip()[:300]}")
                self.submit(player, fallback, "the template as it is (fallback)")
                return False
        sh = self.show()
        code, out = pbem("adjudicate", self.folder, f)
        if code not in (0, 5, 6):
            raise Disagree(f"validate passed, adjudicate exit {code} on {what} ({player}, turn {sh['turn']} {sh['phase']}):\n"
                           f"{out}\n--- the file:\n{text}")
        self.stats.steps += 1
        self.stats.orders += not answer
        self.stats.count(sh["turn"], sh["phase"], 1, len(self.roles))
        self.log(f"step {self.stats.steps:04d} t{sh['turn']:02d} {sh['phase']}: {player} {what}")
        return True

    def submit_answers(self, files: list[tuple[str, str, str]]) -> None:
        """The answer files of one round, each checked with ``pbem validate``, adjudicated together."""
        n = self.stats.steps
        paths = []
        for player, text, what in files:
            f = self.work / f"answer-{n}-{player}.yaml"
            f.write_text(text, "utf-8")
            code, out = pbem("validate", self.folder, f)
            if code != 0:
                raise Stop(f"pbem validate refuses {what} of {player}:\n{out}\n--- the file:\n{text}")
            paths.append(f)
        sh = self.show()
        code, out = pbem("adjudicate", self.folder, *paths)
        if code not in (0, 5, 6):
            raise Disagree(f"validate passed, adjudicate exit {code} on the answers of {', '.join(p for p, _, _ in files)} "
                           f"(turn {sh['turn']} {sh['phase']}):\n{out}")
        self.stats.steps += 1
        self.stats.count(sh["turn"], sh["phase"], len(files), len(self.roles))
        self.log(f"step {self.stats.steps:04d} t{sh['turn']:02d} {sh['phase']}: "
                 + "; ".join(f"{p} {what}" for p, _, what in files))

    # ------------------------------------------------------------- phases 1-3
    def shared(self, st: dict, player: str, tpl: str) -> tuple[str, str]:
        """The Axis seals its picks and opens the card of the turn; the others pick openly from
        the template's free cards (rotating, so that not always the same)."""
        turn = st["turn"]
        lines = tpl.rstrip("\n").splitlines()
        text_lines = [ln for ln in lines]
        sealed, opened, notes = [], [], []
        for side in SIDES:
            m = next((re.match(rf"^      # {side}: free \([^)]*\): (.*)$", ln) for ln in lines
                      if ln.startswith(f"      # {side}: free")), None)
            ids = next((ln.split(":", 1)[1].split(",") for ln in lines if ln.startswith(f"      # {side} seal ids:")), [])
            ids = [x.strip() for x in ids if x.strip()]
            row = next((i for i, ln in enumerate(text_lines) if ln and ln.startswith(f"      {side}: [")), None)
            if not m or row is None:
                continue
            free = [x.split(" (")[0].strip() for x in m.group(1).split("); ")]
            n = len(ids) or len(text_lines[row].split(","))
            picks = [free[(turn + i) % len(free)] for i in range(len(free))][:n]
            if side == "axis" and ids and len(picks) == len(ids):
                text_lines[row] = None
                for sid, card in zip(ids, picks):
                    sealed.append(self.opening(st, player, sid, card)["seal"])
                notes.append(f"axis seals {', '.join(ids)}")
            else:
                text_lines[row] = f"      {side}: [{', '.join(picks)}]"
                notes.append(f"{side} picks {', '.join(picks)}")
        sid = f"cards-axis-t{turn:02d}"
        if sid in self.sent_seals and st["sides"]["axis"] == player:
            opened.append(self.openings[sid]["open"])
            notes.append(f"axis opens {sid}")
        text_lines = [x for x in text_lines if x is not None]
        if not any(ln.startswith("      ") and ": [" in ln for ln in text_lines):
            text_lines = [x for x in text_lines if x.strip() != "cards:"]
        text = "\n".join(text_lines) + "\n"
        if sealed:
            text += "seal:\n" + "".join(f"  - {json.dumps(x)}\n" for x in sealed)
        if opened:
            text += "open:\n" + "".join(f"  - {json.dumps(x)}\n" for x in opened)
        text = re.sub(r"(?m)^standing:\n(  .*\n)*", "", text) + "\n".join(standing_lines()) + "\n"
        self._pending_seals = [x["id"] for x in sealed]
        return text, "; ".join(notes) or "phases 1-3 as the template has them"

    def opening(self, st: dict, player: str, sid: str, card: str) -> dict:
        from pbem.core.sealed import new_opening
        from pbem.core.yamlio import dump_yaml
        if sid in self.openings:
            return self.openings[sid]
        nonce = hashlib.sha256(f"{KEY_PHRASE}/{st['campaign']}/{sid}".encode()).hexdigest()
        op = new_opening(campaign=st["campaign"], player=player, id=sid, choice=card, nonce=nonce)
        doc = dict(op, seal={"id": sid, "commitment": op["commitment"]}, open={"id": sid, "nonce": op["nonce"], "choice": op["choice"]})
        f = self.folder / "private" / f"{sid}.opening.yaml"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(dump_yaml(doc, header="pbem opening of a sealed choice: KEEP IT SECRET until you open it"), "utf-8")
        self.openings[sid] = doc
        return doc

    # ------------------------------------------------------------- the end
    def check_end(self, end: dict) -> str:
        """The victory report (18): the game-over event of the last step with the ten-point
        split, and `pbem show` saying it; its words."""
        res = end.get("result") or {}
        if end["phase"] != "end" or "points" not in res or sum(res["points"].values()) != 10:
            raise Stop(f"no victory result at the end: {end['phase']}, {res}")
        last = sorted((self.folder / "steps").glob("*/report.json"))[-1]
        ev = [e for e in json.loads(last.read_text("utf-8")).get("events") or [] if e["type"] == "game-over"]
        txt = last.with_name("report.txt").read_text("utf-8")
        if not ev or "victory points" not in txt:
            raise Stop(f"the last report ({last.parent.name}) has no game-over event with the victory points")
        code, out = pbem("show", self.folder)
        if code != 0 or "GAME OVER" not in out or "victory points: Allies/USSR" not in out:
            raise Stop(f"pbem show gives no victory report:\n{out[:2000]}")
        return res["reason"]

    def count_events(self) -> dict[str, int]:
        """Events of the whole archive by type (and the attacks by phase kind)."""
        out: dict[str, int] = {}
        for f in sorted((self.folder / "steps").glob("*/report.json")):
            for e in json.loads(f.read_text("utf-8")).get("events") or []:
                t = e["type"]
                out[t] = out.get(t, 0) + 1
                if t == "move" and e.get("kind") == "strategic":
                    out["strategic-move"] = out.get("strategic-move", 0) + 1
                if t == "combat":
                    k = "blitz-attack" if str(e.get("phase", "")).endswith("blitz") else "normal-attack"
                    out[k] = out.get(k, 0) + 1
        self.stats.events = out
        return out


def summary(entries: list[dict]) -> str:
    n = {}
    for e in entries:
        for k, v in e.items():
            if k != "phase" and isinstance(v, list):
                n[k] = n.get(k, 0) + len(v)
    return "orders: " + (", ".join(f"{v} {k}" for k, v in sorted(n.items())) or "none")


def drop(entries: list[dict], paths: list[list]) -> bool:
    """Remove the entries the refusals name (``phases[i].key[j]``, else the phase's key, else
    all of the phase's orders); False when nothing could be removed."""
    hits: dict[tuple, set] = {}
    whole: set[int] = set()
    for q in paths:
        if len(q) >= 2 and q[0] == "phases" and isinstance(q[1], int) and q[1] < len(entries):
            i = q[1]
            if len(q) >= 4 and isinstance(q[3], int):
                hits.setdefault((i, q[2]), set()).add(q[3])
            elif len(q) >= 3:
                hits.setdefault((i, q[2]), set()).add(None)
            else:
                whole.add(i)
        else:
            whole.update(range(len(entries)))
    changed = False
    for (i, key), js in hits.items():
        if key not in entries[i]:
            continue
        if None in js or not isinstance(entries[i][key], list):
            del entries[i][key]
        else:
            entries[i][key] = [x for j, x in enumerate(entries[i][key]) if j not in js]
            if not entries[i][key]:
                del entries[i][key]
        changed = True
    for i in whole:
        if len(entries[i]) > 1:
            entries[i] = {"phase": entries[i]["phase"]}
            changed = True
    return changed


def play_campaign(folder: Path, players: int = 2, turns: int | None = None, attempt: int = 1, log=print) -> tuple[Stats, dict]:
    """Plays a campaign into ``folder`` (until the end, or the start of turn ``turns + 1``)."""
    pl = Player(folder, log=log)
    try:
        pl.new(players, attempt, cid=f"auto{players}")
        end = pl.play(until_turn=turns)
        pl.count_events()
        if turns is None:
            pl.check_end(end)
        return pl.stats, end
    finally:
        pl.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, choices=(2, 3), default=2)
    ap.add_argument("--turns", type=int, default=None, help="stop at the start of turn N+1 (default: the whole campaign)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--attempt", type=int, default=1)
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--bold", action="store_true", help=bold.__doc__.split(":")[1].split("(")[0].strip())
    ap.add_argument("--no-standing", action="store_true", help="send no standing orders: every loss and advance left open is asked")
    ap.add_argument("--ask", action="store_true", help="with --no-standing: the attacks say nothing of the advance (it is asked)")
    a = ap.parse_args(argv)
    if a.bold:
        bold()
    if a.no_standing or a.ask:
        no_standing(a.ask)
    tmp = None
    out = a.out
    if out is None:
        tmp = Path(tempfile.mkdtemp(prefix="pbem-bw-campaign-"))
        out = tmp / "c"
    elif out.exists():
        shutil.rmtree(out)
    try:
        t0 = time.perf_counter()
        stats, end = play_campaign(out, a.players, a.turns, a.attempt, log=(lambda *x: None) if a.quiet else print)
        t_play = time.perf_counter() - t0
        print(f"played: {stats.steps} steps ({stats.orders} order files, {stats.answers} answers) in {t_play:.1f} s; "
              f"turn {end['turn']} {end['phase']}; {len(stats.refused)} refusals, {stats.bare} bare templates, "
              f"{stats.missing} missing-orders defaults")
        print("events: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.events.items())))
        for line in trips_lines(stats):
            print(line.strip())
        if end.get("result"):
            print(f"result: {end['result'].get('reason')}")
        code, text = pbem("replay", out)
        print(text.strip().splitlines()[-1] if text.strip() else f"replay exit {code}")
        return 0 if code == 0 else 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
