"""BlitzWAR land combat: the blitz phase (16) and the normal combat phase (17), with
clarification 8 (retreats) and clarification 6 (no reorganisation in mid-move: a counter reduced
by a loss is replaced in place, 16.2, and never re-formed here).

Entry points (pure: the state at the start of the phase, the orders, the answers and the dice
decide everything, so the kernel may re-run a phase from its start with new answers):

* ``run_blitz(ctx, orders)``          phase ``<side>.8.blitz``  (16)
* ``run_normal_combat(ctx, orders)``  phase ``<side>.9.combat`` (17)
* ``check_attacks(ctx, orders) -> [Issue]``   every problem of the orders, without dice
* ``describe_combat_event(rs, ev) -> [str] | None``   report lines of this module's events

The attack order format (one phase entry, normalised with ``_path`` like pbem/bfg/orders.py;
:func:`normalize_combat` makes it)::

    - phase: axis.8.blitz
      attacks:
        - target: mechili                       # the zone attacked (16.1)
          counters: [ger-elite, ita-1, ita-2]   # attacking counters, adjacent or on a beachhead
          losses: [ger-elite/armour, ita-1]     # optional: the attacker's own losses, in order of
                                                # preference (``<counter>/infantry``,
                                                # ``<counter>/armour`` or ``<counter>``) or one of
                                                # ``infantry-first`` / ``armour-first``
          air_loss: ger-air-2                   # optional: the air unit removed after a blitz with
                                                # air superiority (16.1 step 5)
          advance: none | all | [counters]      # optional: who advances into the zone (16.4, 17.3);
                                                # without it the attacker is asked
          exploit: {ger-pz: [kharkov]}          # optional: zones armour goes on into (16.4, 17.3)
      moves:                                    # the one-zone move (16.5, 17.4) and the free move
        - {counter: ger-inf-3, to: dijon}       # of out-of-supply units (17.5)

Decisions (``ctx.decide``; the OWNER of the units decides, 16.2, 17.2, 17.3), with ids
``t<turn>.<phase>.c<n>.<what>``:

* ``losses.<side>``  (kind ``losses``)  the corps lost: options are sorted lists of loss tokens;
  the attacker may answer in the attack entry (``losses``); standing order ``losses``:
  ``ask`` | ``auto`` (= infantry-first) | ``infantry-first`` | ``armour-first``;
* ``german-defence``  (kind ``german-defence``, the Axis defending with Germans beside other Axis
  nations, 16.3.2): ``use`` | ``decline``; standing order ``german_defence``: ``ask`` | ``auto`` (use);
* ``retreat``  (kind ``retreat``, 17.2): a zone id, ``stay`` (terrain lets it) or ``refuse`` (an
  extra loss); standing order ``retreat``: ``ask`` | ``auto``;
* ``extra-loss``  (kind ``losses``): the corps lost to refuse a retreat;
* ``air-loss``  (kind ``air-loss``): which attacking air unit is removed (16.1 step 5);
* ``advance.<counter>`` and ``exploit.<counter>.<k>`` (kind ``advance``): ``stay`` or a zone;
  standing order ``advance``: ``ask`` | ``none`` (never advance) | ``all`` (every survivor that
  may advances into the zone; armour goes no further unless the attack's ``exploit`` or an
  answer says so) | ``auto`` (the same as ``all``: the attacker takes the zone).

Events (every one carries ``rule``): ``no-blitz-phase``, ``combat`` (odds, base column, every
shift with its reason and rule, the final column, the die with its label, the result as read and
as reduced, ``provisional`` notes for the table cells that decided it), ``german-defence``,
``losses`` (who chose, how, each corps and what became of its counter), ``air-loss``,
``retreat`` / ``retreat-refused`` / ``retreat-eliminated``, ``advance``, ``control``,
``destroyed`` (enemy supply and air in a zone entered, 15.3), ``fortress-line-destroyed``,
``one-zone-move``.

The position this module reads beyond context.py: counters may carry ``beachhead: <land zone>``
(a unit on a beachhead, its ``at`` the sea zone, 14.1.2); air superiority over a land zone is
held by the side with ``flying`` air counters ``at`` that zone and the other side none there
(13.4.2); the combat record of the turn is kept in ``state["combat"]`` (``turn``, ``attacks``:
zone, side, phase, counters, whether the defenders survived; ``advanced``: counter -> zones
advanced this turn; ``fought``: counter -> the phase it attacked in; ``moved``: counters moved
one zone), reset when the turn changes; ``state["flags"]`` holds ``first_attack_west``,
``first_attack_ussr``, ``first_soviet_attack_axis`` (10.2), ``first_uk_vs_italy`` (turns), ``fortress_lines_destroyed`` (zones),
optionally ``axis_strategic_points`` and ``surrendered`` (country codes).

Open rulings: pbem's readings R1-R20 of the open points of 16 and 17 (German windows, British
against Italians, Italian armour, loss constraints, entrenched counters, reduced counters,
out-of-supply shift, refusing a retreat, retreat tiers of clarification 8, advances, the
one-zone move, blitz limits, 8-1, snow and air, advance stacking, entrenched retreats, void
attacks, Soviet fortresses, German-defence points, C/3 and 1/3 against one corps) are written, each with its reason, in
rules/blitzwar/rulings.yaml (ids combat-r1-... to combat-r20-...); the code names them R1-R20.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

from ..core.errors import Issue
from . import diplomacy
from .context import Ctx, NeedDecision, fmt_supply
from .names import unknown_zone
from .standing import AUTO_STANDING, STANDING_KEYS  # noqa: F401 (read here by the rules and tests)

LAND = ("infantry", "armour", "white-tank")

#: JSON Schema of the combat keys of a blitz or combat phase entry (for the orders schema)
# ============================================================================ orders
def normalize_combat(entry: dict, idx: int) -> dict:
    """The phase entry of a blitz or combat phase with ``_path`` on every attack and move."""
    base = ("phases", idx)
    out = {k: v for k, v in entry.items() if k not in ("attacks", "moves")}
    out["_path"] = base
    out["attacks"] = []
    for i, a in enumerate(entry.get("attacks") or []):
        a = dict(a)
        cs = a.get("counters", a.get("units", []))
        a["counters"] = [cs] if isinstance(cs, str) else list(cs or [])
        a["_path"] = base + ("attacks", i)
        out["attacks"].append(a)
    out["moves"] = [dict(m, _path=base + ("moves", i)) for i, m in enumerate(entry.get("moves") or [])]
    return out


def _attacks(orders: dict) -> list[dict]:
    out = []
    for i, a in enumerate((orders or {}).get("attacks") or []):
        a = dict(a)
        cs = a.get("counters", a.get("units", []))
        a["counters"] = [cs] if isinstance(cs, str) else list(cs or [])
        a.setdefault("_path", tuple((orders or {}).get("_path", ())) + ("attacks", i))
        out.append(a)
    return out


def _moves(orders: dict) -> list[dict]:
    out = []
    for i, m in enumerate((orders or {}).get("moves") or []):
        m = dict(m)
        m.setdefault("_path", tuple((orders or {}).get("_path", ())) + ("moves", i))
        out.append(m)
    return out


# ============================================================================ the position
def kind_of(ctx: Ctx) -> str:
    return "blitz" if ".8." in ctx.phase or ctx.phase.endswith("blitz") else "combat"


def side_of(ctx: Ctx, cid: str) -> str:
    """The side a counter fights for: its country's war state (9), else the map's side."""
    return side_of_nation(ctx.rs, ctx.state, ctx.counters[cid]["nation"])


def side_of_nation(rs, state: dict, nat: str) -> str:
    w = (state.get("war") or {}).get(nat)
    if w and w != "neutral":
        return w
    return rs.side_of(nat)


def enemies(a: str, b: str) -> bool:
    """Axis against Allies or USSR; the Allies and the USSR are never enemies (5)."""
    if "neutral" in (a, b) or a == b:
        return False
    return "axis" in (a, b)


def corps(c: dict) -> tuple[int, int]:
    """(infantry, armour) corps of a land counter."""
    t = c["type"]
    if t == "white-tank":
        return int(c.get("infantry", 1)), int(c.get("armour", int(c["units"]) - int(c.get("infantry", 1))))
    if t == "infantry":
        return int(c["units"]), 0
    if t == "armour":
        return 0, int(c["units"])
    return 0, 0


def n_corps(c: dict) -> int:
    i, a = corps(c)
    return i + a


def is_land(c: dict) -> bool:
    return c["type"] in LAND


def land_in(ctx: Ctx, zone: str, side: str | None = None) -> list[str]:
    return [c for c in ctx.in_zone(zone) if is_land(ctx.counters[c]) and (side is None or side_of(ctx, c) == side)]


def enemy_land_in(ctx: Ctx, zone: str, side: str) -> list[str]:
    return [c for c in ctx.in_zone(zone) if is_land(ctx.counters[c]) and enemies(side, side_of(ctx, c))]


def position_of(ctx: Ctx, cid: str) -> str:
    """The land zone a counter attacks from: its zone, or the zone its beachhead serves."""
    c = ctx.counters[cid]
    return c["at"]


def from_beachhead(ctx: Ctx, cid: str) -> bool:
    c = ctx.counters[cid]
    return bool(c.get("beachhead")) and c["at"] not in ctx.rs.zones


def adjacent_to(ctx: Ctx, cid: str, zone: str) -> bool:
    c = ctx.counters[cid]
    if from_beachhead(ctx, cid):
        return c["beachhead"] == zone
    z = ctx.rs.zones.get(c["at"])
    return bool(z and zone in z.links)


def record(ctx: Ctx) -> dict:
    """The combat record of this turn (reset when the turn changes)."""
    rec = ctx.state.get("combat")
    if not isinstance(rec, dict) or rec.get("turn") != ctx.turn:
        rec = {"turn": ctx.turn, "attacks": [], "advanced": {}, "fought": {}, "moved": []}
        ctx.state["combat"] = rec
    return rec


def peek_record(ctx: Ctx) -> dict:
    """The combat record of this turn without writing it into the state (for checking)."""
    rec = ctx.state.get("combat")
    if not isinstance(rec, dict) or rec.get("turn") != ctx.turn:
        return {"turn": ctx.turn, "attacks": [], "advanced": {}, "fought": {}, "moved": []}
    return rec


def flags(ctx: Ctx) -> dict:
    return ctx.state.setdefault("flags", {})


def marks(ctx: Ctx) -> frozenset:
    return frozenset(ctx.state.get("marks") or ()) | ctx.rs.marks_by(ctx.turn)


def line_intact(ctx: Ctx, zone: str) -> bool:
    destroyed = (ctx.state.get("flags") or {}).get("fortress_lines_destroyed") or []
    return bool(ctx.rs.zones[zone].fortress_line) and zone not in destroyed


def across_line(ctx: Ctx, cid: str, zone: str) -> bool:
    z = ctx.rs.zones[zone]
    return line_intact(ctx, zone) and not from_beachhead(ctx, cid) and ctx.counters[cid]["at"] in z.fortress_line


def across_river(ctx: Ctx, cid: str, zone: str) -> bool:
    at = ctx.counters[cid]["at"]
    if from_beachhead(ctx, cid) or at not in ctx.rs.zones:
        return False
    return at in ctx.rs.zones[zone].rivers or zone in ctx.rs.zones[at].rivers


def air_superiority(ctx: Ctx, zone: str) -> str | None:
    """The side holding air superiority over a land zone (13.4.2): the only side with flying air
    units there. None in snow (6.1, R14)."""
    if ctx.rs.weather(ctx.turn, zone) == "snow":
        return None
    sides = {side_of(ctx, c) for c in ctx.in_zone(zone)
             if ctx.counters[c]["type"] == "air" and ctx.counters[c].get("flying")}
    return next(iter(sides)) if len(sides) == 1 else None


def air_units(ctx: Ctx, zone: str, side: str) -> list[str]:
    return [c for c in ctx.in_zone(zone) if ctx.counters[c]["type"] == "air" and ctx.counters[c].get("flying")
            and side_of(ctx, c) == side]


def axis_points(ctx: Ctx) -> int:
    """The Axis strategic points: the one definition, pbem.blitzwar.context.axis_points."""
    from .context import axis_points as points
    return points(ctx.rs, ctx.state)


def surrendered(ctx: Ctx, code: str) -> bool:
    return code in (flags(ctx).get("surrendered") or []) or f"{code}-surrendered" in marks(ctx)


def turn_marks(ctx: Ctx) -> tuple:
    t = ctx.rs.turns.get(ctx.turn)
    return t.marks if t else ()


def stacking_ok(ctx: Ctx, zone: str, adding: list[str]) -> bool:
    z = ctx.rs.zones[zone]
    if z.stacking == "unlimited":
        return True
    present = [c for c in land_in(ctx, zone) if c not in adding] + list(adding)
    if z.corps_limit is not None:
        return sum(n_corps(ctx.counters[c]) for c in present) <= z.corps_limit
    return len(present) <= ctx.rs.stacking_default


# ============================================================================ checking
def _issue(code: str, msg: str, atk: dict | None, rule: str, hint: str | None = None, path=None) -> Issue:
    p = tuple(path if path is not None else (atk or {}).get("_path", ()))
    text = None
    if atk is not None and "target" in atk:
        text = f"{{target: {atk.get('target')}, counters: [{', '.join(map(str, atk.get('counters', [])))}]}}"
    return Issue(code, msg, path=p, text=text, rule=rule, hint=hint)


def _counter_guess(ctx: Ctx, cid) -> str:
    """A did-you-mean for a counter id that does not exist, among the acting side's first."""
    from .names import counter_guess, side_counters
    return counter_guess(ctx.state, cid, side_counters(ctx.state, lambda x: side_of(ctx, x), ctx.side))


def blitz_barred(ctx: Ctx) -> str | None:
    """Why the acting side has no blitz phase at all this turn (6, 16.1), or None."""
    t = ctx.rs.turns.get(ctx.turn)
    if t and t.weather == "mud":
        return "mud: no blitz phase this turn (6)"
    return None


def snow_barred(ctx: Ctx, side: str, zone: str) -> bool:
    if ctx.rs.weather(ctx.turn, zone) != "snow":
        return False
    need = "soviet-blitz" if side == "ussr" else "allied-german-blitz"
    return need not in marks(ctx)


def check_attacks(ctx: Ctx, orders: dict) -> list[Issue]:
    """Every problem of the attacks and moves of a blitz or combat phase, without dice."""
    kind = kind_of(ctx)
    side = ctx.side
    rec = peek_record(ctx)
    issues: list[Issue] = []
    attacks = _attacks(orders)
    rule = "16.1" if kind == "blitz" else "17.1"
    if kind == "blitz" and attacks and blitz_barred(ctx):
        issues.append(_issue("BW-NO-BLITZ", f"there is no blitz phase on turn {ctx.turn}: the weather is mud (6, 16.1)",
                             None, "6, 16.1", path=tuple(orders.get("_path", ())) + ("attacks",),
                             hint=f"attack in the normal combat phase: move these attacks under {ctx.side}.9.combat (17)"))
        return issues + check_moves(ctx, orders)
    used_c: dict[str, int] = {}
    used_z: dict[str, int] = {}
    this_phase = [a for a in rec["attacks"] if a["phase"] == kind and a["side"] == side]
    for a in this_phase:
        used_z.setdefault(a["zone"], 0)
    for n, atk in enumerate(attacks, start=1):
        tz = atk.get("target")
        if tz not in ctx.rs.zones:
            near = sorted({z for cid in atk.get("counters") or [] if cid in ctx.counters and ctx.counters[cid]["at"] in ctx.rs.zones
                           for z in ctx.rs.zones[ctx.counters[cid]["at"]].links})
            issues.append(_issue("BW-ZONE", f"attack: {unknown_zone(ctx.rs, tz, near)}", atk, rule,
                                 hint=f"zones next to the attackers: {', '.join(near)}" if near else None))
            continue
        if tz in used_z:
            issues.append(_issue("BW-ATTACK-ZONE-TWICE", f"{tz} is attacked once a combat phase (attack {used_z[tz] or 'earlier'})",
                                 atk, rule, hint="join the counters into one attack"))
            continue
        used_z[tz] = n
        defenders = enemy_land_in(ctx, tz, side)
        if not defenders and diplomacy.holds_neutral(ctx, tz):
            issues.append(_issue("BW-NEUTRAL", f"{tz}: an attack on neutral {ctx.rs.zones[tz].country} (9.3)", atk, "9.3",
                                 hint=diplomacy.neutral_hint(ctx, tz)))
        elif not defenders:
            issues.append(_issue("BW-ATTACK-EMPTY", f"{tz} holds no enemy land unit", atk, rule))
        if side == "axis" and ctx.rs.zones[tz].country == "GRE" and diplomacy.german_greece_barred(ctx) and \
                any(ctx.counters.get(c, {}).get("nation") == "GER" for c in atk["counters"]):
            issues.append(_issue("BW-LIMIT", "German units do not attack Greece before the second turn of 1941 or two turns "
                                 "after the British attack Italians (9.6, clar. 3)", atk, "9.6"))
        if side == "ussr" and any(a["zone"] == tz and a["side"] == "allies" for a in rec["attacks"]):
            issues.append(_issue("BW-ATTACK-ALLIED-ZONE", f"the Allies attacked {tz} this turn: the Soviets may not", atk, "16.1"))
        if not atk["counters"]:
            issues.append(_issue("BW-ATTACK-NO-UNITS", "an attack needs at least one counter", atk, rule))
        armour = 0
        for cid in atk["counters"]:
            c = ctx.counters.get(cid)
            if c is None:
                issues.append(_issue("BW-ATTACK-COUNTER", f"no counter {cid!r}{_counter_guess(ctx, cid)}", atk, rule))
                continue
            if not is_land(c):
                issues.append(_issue("BW-ATTACK-COUNTER", f"{cid} is a {c['type']} counter: only infantry and armour attack", atk, rule))
                continue
            if side_of(ctx, cid) != side:
                issues.append(_issue("BW-ATTACK-COUNTER", f"{cid} is not a counter of the {side}", atk, rule))
                continue
            if cid in used_c:
                issues.append(_issue("BW-ATTACK-COUNTER-TWICE", f"{cid} already attacks in attack {used_c[cid]}", atk, "16.1",
                                     hint="the corps of one counter attack one zone"))
                continue
            used_c[cid] = n
            armour += corps(c)[1]
            if not adjacent_to(ctx, cid, tz):
                issues.append(_issue("BW-ATTACK-NOT-ADJACENT", f"{cid} at {c['at']} is not next to {tz}", atk, "16.1"))
            if c.get("entrenched"):
                issues.append(_issue("BW-ATTACK-ENTRENCHED", f"{cid} is entrenched and may not attack", atk, "15.1",
                                     hint="turn it back to infantry in the movement phase"))
            if c.get("strategic"):
                issues.append(_issue("BW-ATTACK-STRATEGIC", f"{cid} moved strategically this turn and may not attack", atk, "15.2"))
            fought = rec["fought"].get(cid)
            if fought == kind:
                issues.append(_issue("BW-ATTACK-COUNTER-TWICE", f"{cid} has attacked in this phase already", atk, "16.1"))
            elif not (c.get("active") or from_beachhead(ctx, cid) or cid in rec["moved"] or fought == "blitz"):
                issues.append(_issue("BW-ATTACK-NOT-ACTIVE", f"{cid} is not activated for attack", atk, "15.3, 16.5",
                                     hint="activate it in the movement phase (15.3) or move it one zone (16.5)"))
            if kind == "blitz" and across_line(ctx, cid, tz):
                issues.append(_issue("BW-BLITZ-TERRAIN", f"{cid} attacks across the fortress line of {tz}: no blitz", atk, "16.1"))
        if kind == "blitz":
            z = ctx.rs.zones[tz]
            te = ctx.rs.terrain_effects.get(z.terrain, {})
            if not te.get("blitz", True):
                issues.append(_issue("BW-BLITZ-TERRAIN", f"{tz} is {z.terrain}: no blitz against it", atk, "16.1"))
            if snow_barred(ctx, side, tz):
                issues.append(_issue("BW-BLITZ-SNOW", f"snow in {tz}: no blitz for the {side} yet", atk, "6, 16.1"))
            if armour == 0 and atk["counters"]:
                issues.append(_issue("BW-BLITZ-NO-ARMOUR", "a blitz needs at least one armour corps among the attackers", atk, "16.1"))
        else:
            # 17.1: blitz attackers fight again only with an armour corps among them
            blitzers = [c for c in atk["counters"] if rec["fought"].get(c) == "blitz"]
            if blitzers and armour == 0:
                issues.append(_issue("BW-COMBAT-NO-ARMOUR", f"{', '.join(blitzers)} attacked in the blitz phase: they attack again only with an armour corps",
                                     atk, "17.1"))
    if kind == "combat":
        # 17.1: surviving blitz defenders must be attacked again by their attackers
        for zone, left in fight_on(ctx):
            # the obligation itself is an order pbem adds (_fight_on); only an attack elsewhere by
            # one of these counters goes against it
            mine = next((atk for atk in attacks if atk.get("target") == zone), None)
            for atk in attacks:
                if atk is not mine and set(atk["counters"]) & set(left):
                    issues.append(_issue("BW-COMBAT-MUST-CONTINUE",
                                         f"{', '.join(sorted(set(atk['counters']) & set(left)))} must attack {zone} again: "
                                         "the blitz on it left defenders", atk, "17.1",
                                         hint=f"leave them out of this attack; pbem adds them to the attack on {zone} (17.1)"))
    issues += check_moves(ctx, orders, used_c)
    return issues


def check_moves(ctx: Ctx, orders: dict, attackers: dict | None = None) -> list[Issue]:
    """The one-zone moves (16.5, 17.4) and the free moves of out-of-supply units (17.5)."""
    kind = kind_of(ctx)
    rec = peek_record(ctx)
    issues = []
    seen = set()
    cost = Fraction(0)
    fit: list[dict] = []
    if kind == "blitz" and blitz_barred(ctx) and _moves(orders):
        # 6: in mud there is no blitz phase, and so no one-zone move of it (16.5): refused with
        # the reason rather than passed over in silence (issue 19, departure 15)
        return [_issue("BW-NO-BLITZ", f"there is no blitz phase on turn {ctx.turn}: the weather is mud; "
                       "no one-zone move of it either (6, 16.5)", None, "6, 16.5", path=m["_path"],
                       hint="move it in the normal combat phase (17.4)") for m in _moves(orders)]
    for m in _moves(orders):
        cid, to = m.get("counter"), m.get("to")
        rule = "16.5" if kind == "blitz" else "17.4"
        c = ctx.counters.get(cid)
        if c is None or not is_land(c) or side_of(ctx, cid) != ctx.side:
            issues.append(_issue("BW-MOVE-COUNTER", f"{cid!r} is not a land counter of the {ctx.side}"
                                 + (_counter_guess(ctx, cid) if cid not in ctx.counters else ""), None, rule, path=m["_path"]))
            continue
        if cid in seen:
            issues.append(_issue("BW-MOVE-TWICE", f"{cid} moves one zone once", None, rule, path=m["_path"]))
            continue
        seen.add(cid)
        oos = kind == "combat" and c.get("out_of_supply")
        if not oos and (c.get("moved") or c.get("strategic") or c.get("entrenched") or cid in rec["fought"]
                        or cid in rec["advanced"] or cid in rec["moved"] or (attackers and cid in attackers)):
            issues.append(_issue("BW-MOVE-USED", f"{cid} moved or attacked this turn: no one-zone move", None, rule, path=m["_path"]))
            continue
        if c.get("entrenched"):
            issues.append(_issue("BW-MOVE-USED", f"{cid} is entrenched", None, "15.1", path=m["_path"]))
            continue
        z = ctx.rs.zones.get(c["at"])
        if z is None or to not in z.links:
            near = z.links if z is not None else ()
            issues.append(_issue("BW-ZONE" if to not in ctx.rs.zones else "BW-MOVE-NOT-ADJACENT",
                                 f"{cid}: {unknown_zone(ctx.rs, to, near)}" if to not in ctx.rs.zones
                                 else f"{cid} at {c['at']} is not next to {to!r}", None, rule, path=m["_path"],
                                 hint=f"zones next to {c['at']}: {', '.join(near)}" if near else None))
            continue
        if enemy_land_in(ctx, to, ctx.side):
            issues.append(_issue("BW-MOVE-ENEMY", f"{to} holds enemy infantry or armour", None, "15.3", path=m["_path"]))
            continue
        if diplomacy.neutral_zone(ctx, to):
            issues.append(diplomacy.neutral_issue(ctx, to, f"{cid} moves one zone", m["_path"]))
            continue
        why = diplomacy.end_issue(ctx, cid, to)
        if why:
            issues.append(_issue("BW-LIMIT", f"{cid}: {why}", None, "9.6", path=m["_path"]))
            continue
        if not oos:
            cost += move_cost(c)
        fit.append(m)
    issues += _move_stacking(ctx, fit)
    if cost and cost > ctx.supply(ctx.side):
        issues.append(_issue("BW-SUPPLY-SHORT", f"the one-zone moves cost {fmt_supply(cost)} supply units; the {ctx.side} hold {fmt_supply(ctx.supply(ctx.side))}",
                             None, "7", path=tuple(orders.get("_path", ())) + ("moves",)))
    return issues


def _move_stacking(ctx: Ctx, moves: list[dict]) -> list[Issue]:
    """4 and pbem's stacking ruling: a one-zone move (16.5, 17.4) may not fill a zone over its
    limit, like every other move (issue 19, departure 14): refused at the move, before any die,
    at the position the phase starts from; one that a retreat or an advance makes no longer fit
    is void then."""
    from .land import stacking_issues
    if not moves:
        return []
    was = {m["counter"]: ctx.counters[m["counter"]]["at"] for m in moves}
    try:
        for m in moves:
            ctx.counters[m["counter"]]["at"] = m["to"]
        over = {m["to"] for m in moves if any(x.code == "BW-STACK" for x in stacking_issues(ctx, {m["to"]}))}
    finally:
        for cid, at in was.items():
            ctx.counters[cid]["at"] = at
    return [_issue("BW-STACK", f"{m['counter']}: {ctx.rs.zones[m['to']].name} would be over its stacking limit", None, "4",
                   path=m["_path"], hint="pbem show lists what is in the zone")
            for m in moves if m["to"] in over]


def move_cost(c: dict) -> Fraction:
    return Fraction(1, 2) if n_corps(c) == 1 else Fraction(1)


# ============================================================================ odds and shifts
def column_ratios(ctx: Ctx) -> list[tuple[str, Fraction]]:
    out = []
    for col in ctx.rs.crt_columns:
        a, b = col.split("-")
        out.append((col, Fraction(int(a), int(b))))
    return out


def _prov_note(prov: dict | None, item: str) -> dict | None:
    if (prov or {}).get("status", "provisional") == "provisional":
        return {"item": item, "note": (prov or {}).get("note", "")}
    return None


def shifts_for(ctx: Ctx, zone: str, attackers: list[str], defenders: list[str], kind: str, n: int) -> tuple[list[dict], list[dict], bool]:
    """(right shifts, left shifts, german_defence_used) of 16.3 for one attack."""
    rs = ctx.rs
    side = ctx.side
    cs = ctx.counters
    right: list[dict] = []
    left: list[dict] = []
    z = rs.zones[zone]
    f = flags(ctx)
    att_nat = {cs[c]["nation"] for c in attackers}
    def_nat = [cs[c]["nation"] for c in defenders]
    def_corps = sum(n_corps(cs[c]) for c in defenders)
    # 16.3.1 German +1 (one shift whatever number of conditions)
    if "GER" in att_nat:
        why = []
        w = f.get("first_attack_west")
        if w is not None and ctx.turn - int(w) < 3 and surrendered(ctx, "POL") and \
                any(side_of(ctx, c) == "allies" for c in defenders):
            why.append(f"within 3 turns of the first attack on Belgium-Netherlands/France (turn {w}), Poland conquered")
        e = f.get("first_attack_ussr")
        if e is not None and ctx.turn - int(e) < 5 and any(cs[c]["nation"] == "USSR" for c in defenders) \
                and "winter-1942" not in turn_marks(ctx):
            why.append(f"within 5 turns of the first attack on the USSR/East Poland (turn {e})")
        minor = sum(n_corps(cs[c]) for c in defenders if rs.countries.get(cs[c]["nation"]) and rs.countries[cs[c]["nation"]].kind == "minor")
        if def_corps and minor * 2 > def_corps:
            why.append("most defending corps are of minor countries")
        if any(cs[c].get("elite") for c in attackers):
            why.append("an elite counter attacks")
        if why:
            right.append({"shift": 1, "reason": "German attack: " + "; ".join(why), "rule": "16.3.1"})
    # British against Italians alone
    if "UK" in att_nat and defenders and all(x == "ITA" for x in def_nat):
        t0 = f.get("first_uk_vs_italy", ctx.turn)
        if ctx.turn - int(t0) < 2:
            right.append({"shift": 2, "reason": f"British attack Italians alone, first two turns (from turn {t0})", "rule": "16.3.1"})
        else:
            right.append({"shift": 1, "reason": "British attack Italians alone", "rule": "16.3.1"})
    if any(corps(cs[c])[1] for c in attackers):
        right.append({"shift": 1, "reason": "armour among the attackers", "rule": "16.3.1"})
    sup = air_superiority(ctx, zone)
    if sup == side:
        right.append({"shift": 2, "reason": "attacker's air superiority", "rule": "16.3.1"})
    if defenders and all(cs[c].get("out_of_supply") for c in defenders):
        right.append({"shift": 2, "reason": "defenders out of supply", "rule": "16.3.1, 17.5"})
    # 16.3.2 left
    german_used = False
    gf = [c for c in defenders if cs[c]["nation"] in ("GER", "FIN")]
    if gf:
        cond = "german-defence-conditional" not in marks(ctx) or axis_points(ctx) >= rs.german_defence_at
        winter = "winter-1942" in turn_marks(ctx) and z.country == "USSR"
        if cond and not winter:
            others = [c for c in defenders if cs[c]["nation"] not in ("GER", "FIN")]
            use = "use"
            how = "always"
            if others and any(cs[c]["nation"] == "GER" for c in defenders):
                use, how = ctx.decide(id=f"{_did(ctx, n)}.german-defence", side=side_of(ctx, defenders[0]), kind="german-defence",
                                      options=["use", "decline"], auto=lambda: "use", standing_key="german_defence",
                                      prompt=f"The {ctx.side} attack {zone} (attack {n}): use the German defence shift "
                                             f"(then one loss must be a German corps)?",
                                      context={"zone": zone, "defenders": defenders}, rule="16.3.2")
                ctx.emit("german-defence", combat=n, zone=zone, choice=use, chosen_by=how,
                         player=ctx.player_of_side(side_of(ctx, defenders[0])), rule="16.3.2")
            if use == "use":
                german_used = any(cs[c]["nation"] == "GER" for c in defenders)
                extra = "" if "german-defence-conditional" not in marks(ctx) else f" ({axis_points(ctx)} Axis strategic points, {rs.german_defence_at} needed)"
                left.append({"shift": 1, "reason": "German or Finnish corps defend" + extra, "rule": "16.3.2"})
    if defenders and all(cs[c].get("entrenched") for c in defenders):
        left.append({"shift": 1, "reason": "every defender entrenched", "rule": "16.3.2, 15.1"})
    if sup and sup != side and defenders and sup == side_of(ctx, defenders[0]):
        left.append({"shift": 2, "reason": "defender's air superiority", "rule": "16.3.2"})
    te = rs.terrain_effects
    terrain = None
    edge = None
    if attackers and all(across_river(ctx, c, zone) or from_beachhead(ctx, c) for c in attackers):
        if all(from_beachhead(ctx, c) for c in attackers):
            edge = (int(te.get("coast", {}).get("shift", 1)), "attack from a beachhead (coast)")
        else:
            edge = (int(te.get("river", {}).get("shift", 1)), "every attacker across a river")
    if int(te.get(z.terrain, {}).get("shift", 0)):
        terrain = (int(te[z.terrain]["shift"]), f"{z.terrain} ({z.name})" + (f", also {edge[1]}" if edge else ""))
    elif edge:
        terrain = edge
    if terrain:
        left.append({"shift": terrain[0], "reason": f"terrain: {terrain[1]}; one terrain shift only", "rule": "16.3.2"})
    if z.fortress and (z.country != "USSR" or any(cs[c]["nation"] == "USSR" for c in defenders)):
        left.append({"shift": int(te.get("fortress", {}).get("shift", 1)), "reason": f"fortress ({z.name})", "rule": "16.3.2"})
    if attackers and all(across_line(ctx, c, zone) for c in attackers):
        left.append({"shift": int(te.get("fortress-line", {}).get("shift", 2)), "reason": f"every attacker across the fortress line of {z.name}",
                     "rule": "16.3.2"})
    return right, left, german_used


def _did(ctx: Ctx, n: int) -> str:
    return f"t{ctx.turn:02d}.{ctx.phase}.c{n}"


# ============================================================================ losses
def parse_result(res: str) -> tuple[int, bool, int]:
    a, d = res.split("/")
    if a == "C":
        return 1, True, int(d)
    return int(a), False, int(d)


def reduce_result(ctx: Ctx, res: str, att_corps: int, def_corps: int) -> tuple[str, dict | None]:
    """16.2 reductions (and R20: C/3, 1/3 against one corps), from the table's reduction rules."""
    for r in ctx.rs.crt_reductions:
        if res not in r["results"]:
            continue
        w = r["when"]
        if (w == "both-sides-one-corps" and att_corps == 1 and def_corps == 1) or \
                (w == "defender-one-corps" and def_corps == 1) or (w == "defender-two-corps" and def_corps == 2):
            return r["becomes"], r
    return res, None


def _capacity(ctx: Ctx, counters: list[str]) -> dict[str, int]:
    cap = {}
    for cid in sorted(counters):
        c = ctx.counters[cid]
        i, a = corps(c)
        if c.get("entrenched"):
            i += 1
        if i:
            cap[f"{cid}/infantry"] = i
        if a:
            cap[f"{cid}/armour"] = a
    return cap


def _loss_constraints(ctx: Ctx, counters: list[str], c_result: bool, elite: bool, german: bool, attacker_side: str | None) -> list[tuple[str, Any]]:
    cs = ctx.counters
    out = []
    if c_result:
        arm = [c for c in counters if corps(cs[c])[1]]
        ger = [c for c in counters if cs[c]["nation"] == "GER"]
        if arm and all(cs[c]["nation"] == "ITA" for c in arm) and ger and attacker_side == "axis":
            out.append(("C: the only armour is Italian, so a German corps (R3)", lambda t: cs[t.split("/")[0]]["nation"] == "GER"))
        elif arm:
            out.append(("C: an armour corps", lambda t: t.endswith("/armour")))
    if elite and any(cs[c].get("elite") for c in counters):
        out.append(("an elite counter attacked: a corps of it", lambda t: bool(cs[t.split("/")[0]].get("elite"))))
    if german and any(cs[c]["nation"] == "GER" for c in counters):
        out.append(("German defence shift used: a German corps", lambda t: cs[t.split("/")[0]]["nation"] == "GER"))
    return out


def loss_options(ctx: Ctx, counters: list[str], k: int, constraints: list) -> list[list[str]]:
    cap = _capacity(ctx, counters)
    toks = sorted(cap)
    if k <= 0 or not toks:
        return [[]]
    if k >= sum(cap.values()):
        return [sorted(t for t in toks for _ in range(cap[t]))]
    best: list[list[str]] = []
    score = -1
    for combo in combinations_with_replacement(toks, k):
        if any(combo.count(t) > cap[t] for t in set(combo)):
            continue
        s = sum(1 for _, p in constraints if any(p(t) for t in combo))
        if s > score:
            best, score = [list(combo)], s
        elif s == score:
            best.append(list(combo))
    return best


def _pref_choice(options: list[list[str]], pref: list[str]) -> list[str] | None:
    """The option best matching a preference list of tokens / counters / strategies."""
    if not pref:
        return None
    if pref in (["infantry-first"], ["armour-first"]):
        first = "infantry" if pref[0] == "infantry-first" else "armour"
        return min(options, key=lambda o: (sum(1 for t in o if not t.endswith("/" + first)), o))

    def rank(t: str) -> int:
        for i, p in enumerate(pref):
            if t == p or t.split("/")[0] == p:
                return i
        return len(pref) + 1
    return min(options, key=lambda o: (sorted(rank(t) for t in o), o))


def take_losses(ctx: Ctx, n: int, side: str, counters: list[str], k: int, constraints: list, *, what: str,
                ordered: Any = None, rule: str = "16.2", zone: str = "") -> list[dict]:
    """Choose (the owner) and apply ``k`` losses among ``counters``; returns the applied losses."""
    if k <= 0 or not counters:
        return []
    options = loss_options(ctx, counters, k, constraints)
    player = ctx.player_of_side(side)
    st = ctx.standing(player, "losses")
    how_pref = None
    if ordered is None and st in ("infantry-first", "armour-first"):
        ordered = [st]
        how_pref = f"standing order {st}"
    if isinstance(ordered, str):
        ordered = [ordered]
    pick = _pref_choice(options, list(ordered)) if ordered and len(options) > 1 else None
    choice, how = ctx.decide(id=f"{_did(ctx, n)}.{what}", side=side, kind="losses", options=options, ordered=pick,
                             auto=lambda: _pref_choice(options, ["infantry-first"]), standing_key="losses",
                             prompt=f"{side}: choose {k} corps to lose in the attack on {zone} (attack {n})",
                             context={"zone": zone, "losses": k, "must": [d for d, _ in constraints],
                                      "counters": {c: _composition(ctx.counters[c]) for c in counters}}, rule=rule)
    if how == "order" and how_pref:
        how = how_pref
    applied = [apply_loss(ctx, t) for t in choice]
    ctx.emit("losses", combat=n, zone=zone, side=side, player=player, required=k, must=[d for d, _ in constraints],
             chosen_by=how, losses=applied, rule=rule)
    return applied


def _also_asked(ctx: Ctx, step) -> list[dict]:
    """The decisions ``step`` would stop at, found without keeping anything it does (the phase
    stops anyway, and is carried out again from its start when the answers are in)."""
    import copy
    saved, n_ev = copy.deepcopy(ctx.state), len(ctx.events)
    try:
        step()
        return []
    except NeedDecision as nd:
        return list(nd.decisions)
    finally:
        ctx.state.clear()
        ctx.state.update(saved)
        del ctx.events[n_ev:]


def _composition(c: dict) -> str:
    i, a = corps(c)
    s = f"{c['nation']} {c['type']} {c['units']}"
    if c["type"] == "white-tank":
        s += f" ({i} infantry + {a} armour)"
    if c.get("entrenched"):
        s += " entrenched"
    if c.get("elite"):
        s += " elite"
    return s


def apply_loss(ctx: Ctx, token: str) -> dict:
    """One corps lost (16.2): flip an entrenched counter (R5), shrink a counter (R6), or send it
    to the pool when it has no corps left."""
    cid, k = token.split("/")
    c = ctx.counters[cid]
    before = _composition(c)
    out = {"counter": cid, "corps": k, "before": before}
    if k == "infantry" and c.get("entrenched"):
        c.pop("entrenched", None)
        out.update(effect="absorbed", after=_composition(c))
        return out
    i, a = corps(c)
    if k == "infantry":
        i -= 1
    else:
        a -= 1
    c.pop("elite", None) if c.get("elite") else None
    if i + a == 0:
        c["at"] = "pool"
        for fl in ("active", "moved", "strategic", "out_of_supply", "beachhead", "attacked", "entrenched"):
            c.pop(fl, None)
        c["units"] = 1
        out.update(effect="eliminated", after="to the pool")
        return out
    if i and a:
        c["type"], c["infantry"], c["armour"], c["units"] = "white-tank", i, a, i + a
    else:
        c.pop("infantry", None)
        c.pop("armour", None)
        c["type"], c["units"] = ("infantry", i) if i else ("armour", a)
    out.update(effect="reduced", after=_composition(c))
    return out


# ============================================================================ running
def run_blitz(ctx: Ctx, orders: dict) -> None:
    """Phase 8 (16): the blitz attacks in the order written, then the one-zone moves (16.5)."""
    record(ctx)
    why = blitz_barred(ctx)
    if why:
        issues = diplomacy.consent(ctx, orders) + check_attacks(ctx, orders)
        if issues:
            ctx.refuse(issues)
        ctx.emit("no-blitz-phase", side=ctx.side, reason=why, rule="6, 16.1")
        _tidy(ctx)
        return
    _run(ctx, orders)
    _tidy(ctx)


def run_normal_combat(ctx: Ctx, orders: dict) -> None:
    """Phase 9 (17): the attacks, retreats and advances in the order written, then the one-zone
    moves (17.4) and the free moves of out-of-supply counters (17.5)."""
    record(ctx)
    _run(ctx, orders)
    _tidy(ctx)


def _tidy(ctx: Ctx) -> None:
    """No empty combat record left in the state by a phase without combat."""
    rec = ctx.state.get("combat")
    if isinstance(rec, dict) and not (rec["attacks"] or rec["advanced"] or rec["fought"] or rec["moved"]):
        del ctx.state["combat"]


def fight_on(ctx: Ctx) -> list[tuple[str, list[str]]]:
    """17.1: the blitz attacks of the side that left defenders, with the counters that must
    attack again in the normal combat phase: (zone, counters). A blitz force without an armour
    corps left attacks no more (it may not, 17.1)."""
    out = []
    for a in peek_record(ctx)["attacks"]:
        if a["phase"] != "blitz" or a["side"] != ctx.side or not a.get("survivors"):
            continue
        left = [c for c in a["counters"] if c in ctx.counters and ctx.counters[c]["at"] not in ("pool", "out")]
        if not left or sum(corps(ctx.counters[c])[1] for c in left) == 0 or not enemy_land_in(ctx, a["zone"], ctx.side):
            continue
        out.append((a["zone"], left))
    return out


def _fight_on(ctx: Ctx, orders: dict) -> tuple[dict, list[dict]]:
    """17.1 (issue 16, item 3): a blitz that left defenders is fought on in the normal combat
    phase by its attackers. That is not a choice: pbem makes the attack (or adds the missing
    counters to the attack the orders make on the zone), whatever the orders say, so that
    orders written before the blitz's dice still fit. An attack elsewhere that uses one of
    these counters goes against it (BW-COMBAT-MUST-CONTINUE: refused before the dice, void
    after them); while there is one, nothing is added for that zone."""
    if kind_of(ctx) != "combat":
        return orders, []
    attacks = _attacks(orders)
    notes: list[dict] = []
    for zone, left in fight_on(ctx):
        mine = next((atk for atk in attacks if atk.get("target") == zone), None)
        if any(atk is not mine and set(atk["counters"]) & set(left) for atk in attacks):
            continue
        if mine is None:
            attacks.append({"target": zone, "counters": list(left),
                            "_path": tuple(orders.get("_path", ())) + ("attacks", len(attacks))})
            notes.append({"zone": zone, "counters": list(left), "added": list(left), "written": False})
        else:
            add = [c for c in left if c not in mine["counters"]]
            if add:
                mine["counters"] = list(mine["counters"]) + add
                notes.append({"zone": zone, "counters": list(mine["counters"]), "added": add, "written": True})
    if not notes:
        return orders, []
    return dict(orders, attacks=attacks), notes


def _run(ctx: Ctx, orders: dict) -> None:
    orders, fought_on = _fight_on(ctx, orders)
    # 9.3: the neutrals the orders attack with the player's consent join the other side first
    issues = diplomacy.consent(ctx, orders) + check_attacks(ctx, orders)
    if kind_of(ctx) == "combat":
        from .movement import check_out_of_supply_moves
        issues += check_out_of_supply_moves(ctx, orders)
    if issues:
        ctx.refuse(issues)
    # everything above is checked before the phase's first die (refused: nothing written);
    # what the dice make no longer fit below is void (pbem.core.kernel), the phase goes on
    for f in fought_on:
        ctx.emit("fight-on", rule="17.1", **f)
    for n, atk in enumerate(_attacks(orders), start=1):
        resolve(ctx, n, atk)
    run_moves(ctx, orders)


def resolve(ctx: Ctx, n: int, atk: dict) -> None:
    rs = ctx.rs
    kind = kind_of(ctx)
    side = ctx.side
    rec = record(ctx)
    cs = ctx.counters
    zone = atk["target"]
    attackers = list(atk["counters"])
    defenders = enemy_land_in(ctx, zone, side)
    def_side = side_of(ctx, defenders[0])
    a_corps = sum(n_corps(cs[c]) for c in attackers)
    d_corps = sum(n_corps(cs[c]) for c in defenders)
    # first attacks that open the German windows (R1) and the British +2 (R2)
    f = flags(ctx)
    z = rs.zones[zone]
    if side == "axis":
        if (z.country in ("BE", "FRA")) and "first_attack_west" not in f:
            f["first_attack_west"] = ctx.turn
        if (z.country == "USSR" or z.east_poland) and "first_attack_ussr" not in f:
            f["first_attack_ussr"] = ctx.turn
    # 10.2: a Soviet attack on Germany, West Poland or Romania brings the Axis total-war cards
    if side == "ussr" and (z.country in ("GER", "RUM") or (z.country == "POL" and not z.east_poland)) \
            and "first_soviet_attack_axis" not in f:
        f["first_soviet_attack_axis"] = ctx.turn
    if any(cs[c]["nation"] == "UK" for c in attackers) and all(cs[c]["nation"] == "ITA" for c in defenders) \
            and "first_uk_vs_italy" not in f:
        f["first_uk_vs_italy"] = ctx.turn
    rule = "16.1" if kind == "blitz" else "17.1"
    ratios = column_ratios(ctx)
    odds = Fraction(a_corps, d_corps)
    lo = Fraction(2, 3)
    try:
        bl = rs.docs["tables"]["land_combat"]["below"]["ratio"].split("-")
        lo = Fraction(int(bl[0]), int(bl[1]))
    except Exception:  # pragma: no cover - the data check guarantees the shape
        pass
    eight = odds >= ratios[-1][1] + 1
    base = -1
    for i, (_, r) in enumerate(ratios):
        if odds >= r:
            base = i
    right, left, german_used = shifts_for(ctx, zone, attackers, defenders, kind, n)
    net = sum(s["shift"] for s in right) - sum(s["shift"] for s in left)
    ev: dict[str, Any] = {
        "combat": n, "zone": zone, "side": side, "defender": def_side,
        "attackers": [{"counter": c, "from": (cs[c].get("beachhead") and f"beachhead ({cs[c]['at']})") or cs[c]["at"],
                       "corps": n_corps(cs[c]), "what": _composition(cs[c])} for c in attackers],
        "defenders": [{"counter": c, "corps": n_corps(cs[c]), "what": _composition(cs[c])} for c in defenders],
        "attack": a_corps, "defence": d_corps, "odds": f"{a_corps}:{d_corps}", "rule": rule,
    }
    provisional: list[dict] = []
    if odds < lo:
        ev.update(base_column=None, shifts=right + [dict(s, shift=-s["shift"]) for s in left], net_shift=net, column=None,
                  result="void", why=f"odds below {lo.numerator}-{lo.denominator}: the attack is void (16.2)", provisional=provisional)
        ctx.emit("combat", **ev)
        _note_attack(ctx, rec, kind, zone, attackers, survivors=True)
        return
    base_col = ratios[base][0] if base >= 0 else f"{lo.numerator}-{lo.denominator}"
    final = min(base + net, len(ratios) - 1)
    ev.update(base_column=base_col, eight_to_one=eight, shifts=right + [dict(s, shift=-s["shift"]) for s in left], net_shift=net)
    if eight:
        ev["note"] = "8-1 or more is read as 7-1; infantry advances like armour (16.2)"
    if final < 0:
        ev.update(column=None, result="void", why="the shifted column is left of 1-1: the attack is void (16.2)", provisional=provisional)
        ctx.emit("combat", **ev)
        _note_attack(ctx, rec, kind, zone, attackers, survivors=True)
        return
    col = ratios[final][0]
    label = f"c{n}-{zone}/d6"
    value = ctx.dice.roll(label, 6)
    res = rs.crt_results[col][value - 1]
    p = _prov_note(rs.crt_cell_prov.get((col, value), rs.crt_prov), f"land combat table {col} die {value} = {res}")
    if p:
        provisional.append(p)
    red, rr = reduce_result(ctx, res, a_corps, d_corps)
    ev.update(column=col, roll={"label": ctx.dice.prefix + label, "value": value}, result=res, provisional=provisional)
    if rr:
        ev["reduced"] = {"to": red, "because": rr["when"].replace("-", " "), "rule": "16.2"}
        p = _prov_note(rr.get("provenance") or {"status": "rulebook"}, f"reduction of {res} to {red} ({rr['when'].replace('-', ' ')})")
        if p:
            provisional.append(p)
    ctx.emit("combat", **ev)
    a_loss, c_flag, d_loss = parse_result(red)
    # 4. losses: the attacker's, then the defender's (each chosen by its owner)
    def defender_losses() -> None:
        now = [c for c in defenders if cs[c]["at"] == zone]
        take_losses(ctx, n, def_side, now, d_loss, _loss_constraints(ctx, now, False, False, german_used, def_side),
                    what=f"losses.{def_side}", zone=zone)
    try:
        take_losses(ctx, n, side, attackers, a_loss, _loss_constraints(ctx, attackers, c_flag, True, False, side),
                    what=f"losses.{side}", ordered=atk.get("losses"), zone=zone)
    except NeedDecision as nd:
        # the defender's losses do not depend on the attacker's: both players are asked at once
        # (issue 16, item 4), rather than one mail round trip after the other
        raise NeedDecision(nd.decisions + _also_asked(ctx, defender_losses)) from None
    defender_losses()
    survivors_att = [c for c in attackers if cs[c]["at"] not in ("pool", "out")]
    left_def = [c for c in defenders if cs[c]["at"] == zone]
    # 5. (blitz) the attacker loses one air unit giving it air superiority
    if kind == "blitz" and air_superiority(ctx, zone) == side:
        _air_loss(ctx, n, atk, zone)
    retreated = False
    if kind == "combat" and left_def and d_loss > a_loss:
        retreated = _retreat(ctx, n, zone, left_def, d_loss - a_loss, def_side)
        left_def = [c for c in defenders if cs[c]["at"] == zone]
    _note_attack(ctx, rec, kind, zone, attackers, survivors=bool(left_def))
    if not left_def and survivors_att:
        _advance(ctx, n, atk, zone, survivors_att, eight, retreated)


def _note_attack(ctx: Ctx, rec: dict, kind: str, zone: str, attackers: list[str], survivors: bool) -> None:
    rec["attacks"].append({"zone": zone, "side": ctx.side, "phase": kind, "counters": list(attackers), "survivors": survivors})
    for c in attackers:
        rec["fought"][c] = kind


def _air_loss(ctx: Ctx, n: int, atk: dict, zone: str) -> None:
    units = air_units(ctx, zone, ctx.side)
    if not units:
        return
    nats = sorted({ctx.counters[c]["nation"] for c in units})
    options = nats if len(nats) > 1 else [nats[0]]
    ordered = None
    if atk.get("air_loss") in units:
        ordered = ctx.counters[atk["air_loss"]]["nation"]
    choice, how = ctx.decide(id=f"{_did(ctx, n)}.air-loss", side=ctx.side, kind="air-loss", options=options, ordered=ordered,
                             auto=lambda: options[0], prompt=f"Which nation's air unit over {zone} is removed after the blitz?",
                             context={"zone": zone, "air": units}, rule="16.1")
    pick = atk.get("air_loss") if atk.get("air_loss") in units and ctx.counters[atk["air_loss"]]["nation"] == choice else \
        next(c for c in units if ctx.counters[c]["nation"] == choice)
    c = ctx.counters[pick]
    c["at"] = "pool"
    c.pop("flying", None)
    ctx.emit("air-loss", combat=n, zone=zone, counter=pick, nation=c["nation"], chosen_by=how,
             player=ctx.player_of_side(ctx.side), rule="16.1")


# ============================================================================ retreats (17.2)
def _stay_terrain(ctx: Ctx, zone: str, defenders: list[str]) -> str | None:
    z = ctx.rs.zones[zone]
    te = ctx.rs.terrain_effects
    if te.get(z.terrain, {}).get("stay_when_losing_by_one"):
        return z.terrain
    if z.fortress and (z.country != "USSR" or any(ctx.counters[c]["nation"] == "USSR" for c in defenders)):
        return "fortress"
    if line_intact(ctx, zone):
        return "fortress-line"
    return None


def retreat_zones(ctx: Ctx, zone: str, movers: list[str], side: str) -> list[str]:
    """R9, clar. 8: the zones the whole stack may retreat into, best tier first."""
    attacked = {a["zone"] for a in record(ctx)["attacks"]} | {zone}
    cand = [t for t in ctx.rs.zones[zone].links if t not in attacked and not enemy_land_in(ctx, t, side)
            and not diplomacy.neutral_zone(ctx, t) and not any(diplomacy.end_issue(ctx, c, t) for c in movers)]   # 9.3, 9.6
    enemy_air = lambda t: any(ctx.counters[c]["type"] == "air" and enemies(side, side_of(ctx, c)) for c in ctx.in_zone(t))  # noqa: E731
    mine = lambda t: ctx.control(t) == side  # noqa: E731
    land_movers = [c for c in movers if is_land(ctx.counters[c])]
    ok = lambda t: stacking_ok(ctx, t, land_movers)  # noqa: E731
    for tier in ([t for t in cand if mine(t) and not enemy_air(t) and ok(t)],
                 [t for t in cand if mine(t) and ok(t)],
                 cand):
        if tier:
            return sorted(tier)
    return []


def _retreat(ctx: Ctx, n: int, zone: str, defenders: list[str], by: int, side: str) -> bool:
    """17.2: the defenders lost more than the attacker. Returns True when they left the zone."""
    cs = ctx.counters
    air = [c for c in ctx.in_zone(zone) if cs[c]["type"] == "air" and not cs[c].get("flying") and side_of(ctx, c) == side]
    movers = defenders + air
    zones = retreat_zones(ctx, zone, movers, side)
    remaining = sum(n_corps(cs[c]) + (1 if cs[c].get("entrenched") else 0) for c in defenders)
    stay = _stay_terrain(ctx, zone, defenders)
    options = list(zones)
    why = []
    if by == 1:
        if stay:
            options.append("stay")
            why.append(f"lost by one in {stay}: may stay")
        elif remaining > 1:
            options.append("refuse")
            why.append("lost by one: may refuse with one extra loss")
        else:
            why.append("lost by one, but one corps only: the retreat cannot be refused (20.1)")
    else:
        in_supply = not any(cs[c].get("out_of_supply") for c in defenders)
        fort = ctx.rs.zones[zone].fortress
        if (fort or not zones) and in_supply and remaining > 1:
            options.append("refuse")
            why.append("lost by two or more " + ("in a fortress" if fort else "with no zone to retreat to") + ", in supply: may refuse with one extra loss")
        else:
            why.append("lost by two or more: must retreat")
    player = ctx.player_of_side(side)
    if not options:
        ctx.emit("retreat-eliminated", combat=n, zone=zone, counters=movers, side=side, player=player,
                 corps=sum(n_corps(cs[c]) for c in defenders), reason="no zone to retreat into"
                 + (" and no refusal (out of supply or one corps)" if by > 1 else ""), rule="17.2")
        for c in movers:
            _to_pool(ctx, c)
        return True

    def auto():
        for o in ("stay", "refuse"):
            if o in options:
                return o
        return options[0]
    choice, how = ctx.decide(id=f"{_did(ctx, n)}.retreat", side=side, kind="retreat", options=options, auto=auto,
                             standing_key="retreat",
                             prompt=f"{side}: your counters in {zone} must retreat after attack {n} ({'; '.join(why)})",
                             context={"zone": zone, "counters": movers, "lost_by": by}, rule="17.2, clar. 8")
    if choice == "stay":
        ctx.emit("retreat-refused", combat=n, zone=zone, how="terrain", terrain=stay, chosen_by=how, player=player, rule="17.2")
        return False
    if choice == "refuse":
        ctx.emit("retreat-refused", combat=n, zone=zone, how="extra loss", chosen_by=how, player=player, rule="17.2")
        take_losses(ctx, n, side, defenders, 1, [], what="extra-loss", rule="17.2", zone=zone)
        return not any(cs[c]["at"] == zone for c in defenders)
    unentrenched = [c for c in movers if cs[c].pop("entrenched", None)]
    for c in movers:
        cs[c]["at"] = choice
    ctx.emit("retreat", combat=n, zone=zone, to=choice, counters=movers, chosen_by=how, player=player,
             turned_back=unentrenched,
             left_behind=[c for c in ctx.in_zone(zone) if cs[c]["type"] == "supply" and side_of(ctx, c) == side],
             rule="17.2, clar. 8")
    if any(is_land(cs[c]) for c in movers):
        take_control(ctx, choice, side, n)     # ground units entering a zone take it (5)
    return True


def _to_pool(ctx: Ctx, cid: str) -> None:
    c = ctx.counters[cid]
    c["at"] = "pool"
    for fl in ("active", "moved", "strategic", "out_of_supply", "beachhead", "attacked", "entrenched", "flying", "elite"):
        c.pop(fl, None)


# ============================================================================ advances (16.4, 17.3)
def _enter(ctx: Ctx, cid: str, zone: str, n: int | None, rule: str) -> None:
    """A land counter enters ``zone``: enemy supply and air there are destroyed (15.3, R10) and
    control passes (5)."""
    side = side_of(ctx, cid)
    for c in ctx.in_zone(zone):
        cc = ctx.counters[c]
        if cc["type"] in ("supply", "air") and enemies(side, side_of(ctx, c)) and not (cc["type"] == "air" and cc.get("flying")):
            _to_pool(ctx, c)
            ctx.emit("destroyed", counter=c, zone=zone, what=cc["type"], by=cid, combat=n, rule="15.3")
    ctx.counters[cid]["at"] = zone
    take_control(ctx, zone, side, n)


def take_control(ctx: Ctx, zone: str, side: str, n: int | None = None) -> None:
    old = ctx.control(zone)
    if old == side:
        return
    new = side
    if side in ("allies", "ussr") and old == "axis":
        orig = ctx.rs.zones[zone].control
        if orig in ("allies", "ussr") and orig != side:
            new = orig
    elif side in ("allies", "ussr") and old in ("allies", "ussr"):
        return
    if new == old:
        return
    ctx.state.setdefault("control", {})[zone] = new
    ctx.emit("control", zone=zone, **{"from": old}, to=new, combat=n, rule="5")
    if ctx.rs.zones[zone].fortress_line and line_intact(ctx, zone) and new != ctx.rs.zones[zone].control:
        flags(ctx).setdefault("fortress_lines_destroyed", []).append(zone)
        flags(ctx)["fortress_lines_destroyed"].sort()
        ctx.emit("fortress-line-destroyed", zone=zone, combat=n, rule="16.3.2")


def _advance(ctx: Ctx, n: int, atk: dict, zone: str, survivors: list[str], eight: bool, retreated: bool) -> None:
    kind = kind_of(ctx)
    rec = record(ctx)
    cs = ctx.counters
    rule = "16.4" if kind == "blitz" else "17.3"
    player = ctx.player_of_side(ctx.side)
    order = atk.get("advance")
    # the standing order `advance: none | all | auto` answers only what the attack and the
    # answers leave open: an answer sent for the decision (even in the file that set the
    # standing order) wins. `all` and `auto` take the zone, and armour stops there
    standing = ctx.standing(player, "advance") if order is None else "ask"
    standing_none = standing in ("none", "all", "auto")
    exploit = atk.get("exploit") if isinstance(atk.get("exploit"), dict) else {}
    if order == "ask":
        order = None
    if order is None and not standing_none:
        _ask_advances_at_once(ctx, n, zone, survivors, eight, rule)
    for cid in sorted(survivors):
        c = cs[cid]
        inf, arm = corps(c)
        armourlike = c["type"] in ("armour", "white-tank") or eight
        done = int(rec["advanced"].get(cid, 0))
        if not armourlike and kind == "combat" and done:
            continue  # 17.3: infantry that advanced in the blitz phase does not advance again
        limit = 2 if armourlike else 1
        if done >= limit:
            continue
        if not stacking_ok(ctx, zone, [cid]):
            ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by="stacking", player=player,
                     why=f"{zone} cannot take it (stacking, 4)", rule=rule)
            continue
        barred = diplomacy.end_issue(ctx, cid, zone)
        if barred:
            ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by="movement limits", player=player, why=barred, rule="9.6")
            continue
        if order == "none":
            ordered = "stay"
        elif order == "all" or (isinstance(order, list) and cid in order):
            ordered = zone
        elif isinstance(order, list):
            ordered = "stay"
        else:
            ordered = None
        choice, how = ctx.decide(id=f"{_did(ctx, n)}.advance.{cid}", side=ctx.side, kind="advance", options=["stay", zone],
                                 ordered=ordered, auto=lambda: "stay", standing_key="advance",
                                 standing_choices={"none": "stay", "all": zone, "auto": zone} if standing_none else None,
                                 prompt=f"Advance {cid} ({_composition(c)}) into {zone} after attack {n}?",
                                 context={"zone": zone, "counter": cid}, rule=rule)
        if choice == "stay":
            ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by=how, player=player, rule=rule)
            continue
        frm = c["at"]
        c.pop("beachhead", None)
        _enter(ctx, cid, zone, n, rule)
        path = [zone]
        done += 1
        rec["advanced"][cid] = done
        # armour goes on into enemy-free zones (16.4; 17.3: two zones over both phases)
        te = ctx.rs.terrain_effects
        z = ctx.rs.zones[zone]
        stops = bool(te.get(z.terrain, {}).get("armour_stops")) or line_intact(ctx, zone)
        if from_beachhead_frm(ctx, frm) and not (z.port and not z.fortress and z.terrain not in ("mountain", "high-mountain")):
            stops = True
        wanted = list(exploit.get(cid) or [])
        k = 0
        while armourlike and not stops and done < limit:
            here = c["at"]
            opts = sorted(t for t in ctx.rs.zones[here].links
                          if not [x for x in ctx.in_zone(t) if enemies(ctx.side, side_of(ctx, x)) and is_land(cs[x])]
                          and t not in path and t != frm and stacking_ok(ctx, t, [cid])
                          and not diplomacy.neutral_zone(ctx, t) and not diplomacy.end_issue(ctx, cid, t))   # 9.3, 9.6
            if not opts:
                break
            eid = f"{_did(ctx, n)}.exploit.{cid}.{k + 1}"
            if cid in exploit:
                want = wanted[k] if k < len(wanted) else "stay"
            else:
                want = "stay" if order is not None or (standing_none and eid not in ctx.answers) else None
            ch, how2 = ctx.decide(id=eid, side=ctx.side, kind="advance",
                                  options=["stay"] + opts, ordered=want, auto=lambda: "stay", standing_key="advance",
                                  prompt=f"{cid} advanced into {here}: go on into another zone free of enemies?",
                                  context={"counter": cid, "from": here}, rule=rule)
            if ch == "stay":
                break
            _enter(ctx, cid, ch, n, rule)
            path.append(ch)
            done += 1
            rec["advanced"][cid] = done
            k += 1
            zz = ctx.rs.zones[ch]
            stops = bool(te.get(zz.terrain, {}).get("armour_stops")) or line_intact(ctx, ch)
        ctx.emit("advance", combat=n, counter=cid, **{"from": frm}, path=path, chosen_by=how, player=player, rule=rule)


def _ask_advances_at_once(ctx: Ctx, n: int, zone: str, survivors: list[str], eight: bool, rule: str) -> None:
    """Issue 16, item 4: the advance of every survivor that the attack leaves open is asked in
    one go (one answer file), not counter after counter. The options are those of each counter
    alone; when the zone cannot take all the counters the answers send, the later ones stay
    (stacking, 4: reported). Where armour goes on from the zone is asked afterwards (it depends
    on where it went)."""
    kind = kind_of(ctx)
    rec = record(ctx)
    asked: list[dict] = []
    for cid in sorted(survivors):
        c = ctx.counters[cid]
        armourlike = c["type"] in ("armour", "white-tank") or eight
        done = int(rec["advanced"].get(cid, 0))
        if (not armourlike and kind == "combat" and done) or done >= (2 if armourlike else 1):
            continue
        if not stacking_ok(ctx, zone, [cid]) or diplomacy.end_issue(ctx, cid, zone):
            continue
        try:
            ctx.decide(id=f"{_did(ctx, n)}.advance.{cid}", side=ctx.side, kind="advance", options=["stay", zone],
                       auto=lambda: "stay", standing_key="advance",
                       prompt=f"Advance {cid} ({_composition(c)}) into {zone} after attack {n}?",
                       context={"zone": zone, "counter": cid}, rule=rule)
        except NeedDecision as nd:
            asked += nd.decisions
    if len(asked) > 1:
        raise NeedDecision(asked)


def from_beachhead_frm(ctx: Ctx, frm: str) -> bool:
    return frm not in ctx.rs.zones


# ============================================================================ one-zone moves
def run_moves(ctx: Ctx, orders: dict) -> None:
    kind = kind_of(ctx)
    rec = record(ctx)
    issues = check_moves(ctx, orders)
    if issues:
        ctx.refuse(issues)
    for m in _moves(orders):
        cid, to = m["counter"], m["to"]
        c = ctx.counters[cid]
        oos = kind == "combat" and c.get("out_of_supply")
        cost = Fraction(0) if oos else move_cost(c)
        if cost:
            ctx.set_supply(ctx.side, ctx.supply(ctx.side) - cost)
        frm = c["at"]
        _enter(ctx, cid, to, None, "16.5" if kind == "blitz" else "17.4")
        rec["moved"].append(cid)
        if kind == "blitz":
            c["active"] = True
        ctx.emit("one-zone-move", counter=cid, **{"from": frm}, to=to, cost=fmt_supply(cost), free=bool(oos),
                 supply_left=fmt_supply(ctx.supply(ctx.side)),
                 rule=("17.5" if oos else "16.5" if kind == "blitz" else "17.4"))


# ============================================================================ report lines
def describe_combat_event(rs, ev: dict) -> list[str] | None:
    t = ev.get("type")
    r = f"[{ev.get('rule')}]" if ev.get("rule") else ""
    name = lambda z: rs.zones[z].name if z in getattr(rs, "zones", {}) else str(z)  # noqa: E731
    if t in ("control", "destroyed") and "combat" not in ev:
        return None   # the movement phase's events of the same name (text.py describes them)
    if t == "fight-on":
        how = (f"{', '.join(ev['added'])} added to the attack ordered on it" if ev["written"]
               else f"pbem makes the attack with {', '.join(ev['counters'])}")
        return [f"The blitz on {name(ev['zone'])} left defenders: it is fought on in this phase ({how}) {r}"]
    if t == "no-blitz-phase":
        return [f"No blitz phase for the {ev['side']}: {ev['reason']} {r}"]
    if t == "combat":
        out = [f"Attack {ev['combat']} on {name(ev['zone'])} {r}: "
               + ", ".join(a["counter"] + f" ({a['what']}, from {a['from']})" for a in ev["attackers"])
               + " against " + ", ".join(d["counter"] + f" ({d['what']})" for d in ev["defenders"]),
               f"  corps {ev['odds']}: column {ev.get('base_column') or 'below the table'}"
               + (" (8-1 read as 7-1)" if ev.get("eight_to_one") else "")]
        for s in ev.get("shifts", []):
            out.append(f"  {'right' if s['shift'] > 0 else 'left'} {abs(s['shift'])}: {s['reason']} [{s['rule']}]")
        if ev.get("result") == "void":
            out.append(f"  void: {ev.get('why')}")
        else:
            out.append(f"  net shift {ev['net_shift']:+d} -> column {ev['column']}; die {ev['roll']['value']} "
                       f"({ev['roll']['label']}) -> {ev['result']}"
                       + (f", reduced to {ev['reduced']['to']} ({ev['reduced']['because']}) [16.2]" if ev.get("reduced") else ""))
        for p in ev.get("provisional", []):
            out.append(f"  provisional: {p['item']}" + (f" ({p['note']})" if p.get("note") else ""))
        return out
    if t == "german-defence":
        return [f"Attack {ev['combat']}: the Axis ({ev['player']}) {'uses' if ev['choice'] == 'use' else 'declines'} the German defence shift ({ev['chosen_by']}) {r}"]
    if t == "losses":
        parts = [f"{x['counter']} {x['corps']} corps: {x['effect']} ({x['before']} -> {x['after']})" for x in ev["losses"]]
        must = f"; must: {', '.join(ev['must'])}" if ev.get("must") else ""
        return [f"Attack {ev['combat']}: the {ev['side']} lose {ev['required']} ({ev['player']}, {ev['chosen_by']}{must}) {r}"] + \
            ["  " + p for p in parts]
    if t == "air-loss":
        return [f"Attack {ev['combat']}: air unit {ev['counter']} ({ev['nation']}) over {name(ev['zone'])} is removed to the pool {r}"]
    if t == "retreat":
        tb = f"; {', '.join(ev['turned_back'])} turned back to infantry (15.1)" if ev.get("turned_back") else ""
        lb = f"; {', '.join(ev['left_behind'])} stay behind (supply does not retreat)" if ev.get("left_behind") else ""
        return [f"Attack {ev['combat']}: {', '.join(ev['counters'])} retreat from {name(ev['zone'])} to {name(ev['to'])} ({ev['player']}, {ev['chosen_by']}{tb}{lb}) {r}"]
    if t == "retreat-refused":
        return [f"Attack {ev['combat']}: the defenders of {name(ev['zone'])} do not retreat ({ev['how']}; {ev['player']}, {ev['chosen_by']}) {r}"]
    if t == "retreat-eliminated":
        return [f"Attack {ev['combat']}: {', '.join(ev['counters'])} cannot retreat from {name(ev['zone'])} and are eliminated {r}"]
    if t == "advance":
        if not ev.get("path"):
            why = f": {ev['why']}" if ev.get("why") else ""
            return [f"Attack {ev['combat']}: {ev['counter']} does not advance ({ev['player']}, {ev['chosen_by']}){why} {r}"]
        frm = f"from {name(ev['from'])} " if ev.get("from") in rs.zones else ""
        return [f"Attack {ev['combat']}: {ev['counter']} advances {frm}{'to ' if frm else ''}{' -> '.join(name(z) for z in ev['path'])} "
                f"({ev['player']}, {ev['chosen_by']}) {r}"]
    if t == "control":
        return [f"{name(ev['zone'])}: control {ev['from']} -> {ev['to']} {r}"]
    if t == "destroyed":
        return [f"{ev['counter']} ({ev['what']}) in {name(ev['zone'])} destroyed as {ev['by']} enters {r}"]
    if t == "fortress-line-destroyed":
        return [f"The fortress line of {name(ev['zone'])} is taken: destroyed for the rest of the war {r}"]
    if t == "one-zone-move":
        cost = "free (out of supply)" if ev.get("free") else f"{ev['cost']} supply, {ev['supply_left']} left"
        return [f"{ev['counter']} moves one zone {name(ev['from'])} -> {name(ev['to'])} ({cost}) {r}"]
    return None
