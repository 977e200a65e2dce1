"""BlitzWAR land combat: the blitz phase (16) and the normal combat phase (17), with
clarification 8 (retreats) and clarification 6 (no reorganisation in mid-move: a counter reduced
by a loss is replaced in place, 16.2, and never re-formed here).

The parts: combat_common.py (the orders' entries and the position as combat reads it), combat_odds.py
(odds, shifts, the table), combat_losses.py (losses, 16.2), combat_retreat.py (retreats 17.2 and
advances 16.4, 17.3), combat_moves.py (the one-zone moves 16.5, 17.4, 17.5); this module ties them:
the resolution of an attack and the phases.

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
from typing import Any

from ..core.errors import Issue
from . import diplomacy
from .combat_common import (_attacks, _counter_guess, _issue, across_line, adjacent_to, air_superiority, blitz_barred, corps,
                            enemy_land_in, flags, from_beachhead, is_land, kind_of, n_corps, peek_record, record, side_of,
                            snow_barred)
from .combat_losses import _air_loss, _also_asked, _composition, _loss_constraints, take_losses
from .combat_moves import check_moves, run_moves
from .combat_odds import _prov_note, column_ratios, parse_result, reduce_result, shifts_for
from .combat_retreat import _advance, _retreat
from .context import Ctx, NeedDecision
from .names import unknown_zone


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
                                 "after Allied units first attack Italians or Italian territory (9.6, clar. 3)", atk, "9.6"))
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
        # 10.2, 11.9, 16.3.1 "the USSR or East Poland": the East Poland 9.2 gives the USSR (ruling
        # east-poland-attack): a Polish-held East Polish zone is Poland, not the USSR
        soviet_east = z.east_poland and (def_side == "ussr" or ctx.control(zone) == "ussr")
        if (z.country == "USSR" or soviet_east) and "first_attack_ussr" not in f:
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
