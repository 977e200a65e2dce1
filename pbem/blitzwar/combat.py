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

Events (every one carries ``rule``; their wording and map marks: pbem/blitzwar/describe.py): ``no-blitz-phase``, ``combat`` (odds, base column, every
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
``german_defence_points`` and ``german_defence_turn`` (the Axis strategic points at the end of
the last turn, 16.3.2), optionally ``axis_strategic_points`` (the track set by a case) and
``surrendered`` (country codes).

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
from .combat_common import (
    AfterDie,
    _attacks,
    _counter_guess,
    _issue,
    across_line,
    adjacent_to,
    air_superiority,
    attack_reach,
    blitz_barred,
    combat_record,
    corps,
    enemy_land_in,
    flags,
    from_beachhead,
    is_land,
    kind_of,
    n_corps,
    peek_record,
    side_of,
    snow_barred,
)
from .combat_losses import _air_loss, _also_asked, _composition, _loss_constraints, ask_together, take_losses
from .combat_moves import check_moves, run_moves
from .combat_odds import _prov_note, parse_result, reduce_result, shifts_for
from .combat_retreat import _advance, _retreat
from .context import Ctx, NeedDecision
from .movement import check_out_of_supply_moves
from .names import unknown_zone


def check_attacks(ctx: Ctx, orders: dict) -> list[Issue]:
    """Every problem of the attacks and moves of a blitz or combat phase, without dice."""
    kind = kind_of(ctx)
    rec = peek_record(ctx)
    attacks = _attacks(orders)
    if kind == "blitz" and attacks and blitz_barred(ctx):
        return [_issue("BW-NO-BLITZ", f"there is no blitz phase on turn {ctx.turn}: the weather is mud (6, 16.1)",
                       None, "6, 16.1", path=tuple(orders.get("_path", ())) + ("attacks",),
                       hint=f"attack in the normal combat phase: move these attacks under {ctx.side}.9.combat (17)")] \
            + check_moves(ctx, orders)
    issues: list[Issue] = []
    used_c: dict[str, int] = {}
    used_z: dict[str, int] = {a["zone"]: 0 for a in rec["attacks"] if a["phase"] == kind and a["side"] == ctx.side}
    for n, atk in enumerate(attacks, start=1):
        found, go_on = _check_target(ctx, n, atk, used_z, rec)
        issues += found
        if not go_on:
            continue
        armour = 0
        for cid in atk["counters"]:
            armour += _check_attacker(ctx, n, atk, cid, used_c, rec, issues)
        issues += _check_force(ctx, atk, armour, rec)
    if kind == "combat":
        issues += _check_fight_on(ctx, attacks)
    issues += check_moves(ctx, orders, used_c)
    return issues


def _check_target(ctx: Ctx, n: int, atk: dict, used_z: dict[str, int], rec: dict) -> tuple[list[Issue], bool]:
    """The attacked zone (16.1, 9.3, 9.6): (issues, whether the attack is checked further: not
    when the zone is unknown or attacked already)."""
    side = ctx.acting_side
    rule = "16.1" if kind_of(ctx) == "blitz" else "17.1"
    tz = atk.get("target")
    if tz not in ctx.rs.zones:
        near = sorted({z for cid in atk.get("counters") or [] if cid in ctx.counters and ctx.counters[cid]["at"] in ctx.rs.zones
                       for z in ctx.rs.zones[ctx.counters[cid]["at"]].links})
        return [_issue("BW-ZONE", f"attack: {unknown_zone(ctx.rs, tz, near)}", atk, rule,
                       hint=f"zones next to the attackers: {', '.join(near)}" if near else None)], False
    if tz in used_z:
        return [_issue("BW-ATTACK-ZONE-TWICE", f"{tz} is attacked once a combat phase (attack {used_z[tz] or 'earlier'})",
                       atk, rule, hint="join the counters into one attack")], False
    used_z[tz] = n
    issues = []
    defenders = enemy_land_in(ctx, tz, side)
    if not defenders and diplomacy.holds_neutral(ctx, tz):
        issues.append(_issue("BW-NEUTRAL", f"{tz}: an attack on neutral {ctx.rs.zones[tz].country} (9.3)", atk, "9.3",
                             hint=diplomacy.neutral_hint(ctx, tz)))
    elif not defenders and not _ashore(ctx, tz, atk):
        issues.append(_issue("BW-ATTACK-EMPTY", f"{tz} holds no enemy land unit", atk, rule))
    if side == "axis" and ctx.rs.zones[tz].country == "GRE" and diplomacy.german_greece_barred(ctx) and \
            any(ctx.counters.get(c, {}).get("nation") == "GER" for c in atk["counters"]):
        issues.append(_issue("BW-LIMIT", "German units do not attack Greece before the second turn of 1941 or two turns "
                             "after Allied units first attack Italians or Italian territory (9.6, clar. 3)", atk, "9.6"))
    if side == "ussr" and any(a["zone"] == tz and a["side"] == "allies" for a in rec["attacks"]):
        issues.append(_issue("BW-ATTACK-ALLIED-ZONE", f"the Allies attacked {tz} this turn: the Soviets may not", atk, "16.1"))
    if not atk["counters"]:
        issues.append(_issue("BW-ATTACK-NO-UNITS", "an attack needs at least one counter", atk, rule))
    return issues, True


def _check_attacker(ctx: Ctx, n: int, atk: dict, cid, used_c: dict[str, int], rec: dict, issues: list[Issue]) -> int:
    """One attacking counter (15.1-15.3, 16.1, 16.5): its problems go to ``issues``; returns the
    armour corps it brings (0 when it does not count)."""
    kind, side, tz = kind_of(ctx), ctx.side, atk["target"]
    rule = "16.1" if kind == "blitz" else "17.1"
    c = ctx.counters.get(cid)
    if c is None:
        issues.append(_issue("BW-ATTACK-COUNTER", f"no counter {cid!r}{_counter_guess(ctx, cid)}", atk, rule))
        return 0
    if not is_land(c):
        issues.append(_issue("BW-ATTACK-COUNTER", f"{cid} is a {c['type']} counter: only infantry and armour attack", atk, rule))
        return 0
    if side_of(ctx, cid) != side:
        issues.append(_issue("BW-ATTACK-COUNTER", f"{cid} is not a counter of the {side}", atk, rule))
        return 0
    if cid in used_c:
        issues.append(_issue("BW-ATTACK-COUNTER-TWICE", f"{cid} already attacks in attack {used_c[cid]}", atk, "16.1",
                             hint="the corps of one counter attack one zone"))
        return 0
    used_c[cid] = n
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
    return corps(c)[1]


def _check_force(ctx: Ctx, atk: dict, armour: int, rec: dict) -> list[Issue]:
    """The attack as a whole: a blitz's terrain, snow and armour (6, 16.1); attackers of the blitz
    phase fight again only with an armour corps among them (17.1)."""
    side, tz = ctx.acting_side, atk["target"]
    issues = []
    if kind_of(ctx) == "blitz":
        z = ctx.rs.zones[tz]
        te = ctx.rs.terrain_effects.get(z.terrain, {})
        if not te.get("blitz", True):
            issues.append(_issue("BW-BLITZ-TERRAIN", f"{tz} is {z.terrain}: no blitz against it", atk, "16.1"))
        if snow_barred(ctx, side, tz):
            issues.append(_issue("BW-BLITZ-SNOW", f"snow in {tz}: no blitz for the {side} yet", atk, "6, 16.1"))
        if armour == 0 and atk["counters"]:
            issues.append(_issue("BW-BLITZ-NO-ARMOUR", "a blitz needs at least one armour corps among the attackers", atk, "16.1"))
    else:
        blitzers = [c for c in atk["counters"] if rec["fought"].get(c) == "blitz"]
        if blitzers and armour == 0:
            issues.append(_issue("BW-COMBAT-NO-ARMOUR", f"{', '.join(blitzers)} attacked in the blitz phase: they attack again only with an armour corps",
                                 atk, "17.1"))
    return issues


def _check_fight_on(ctx: Ctx, attacks: list[dict]) -> list[Issue]:
    """17.1: surviving blitz defenders must be attacked again by their attackers. The obligation
    itself is an order pbem adds (_fight_on); only an attack elsewhere by one of these counters
    goes against it."""
    issues = []
    for zone, left in fight_on(ctx):
        mine = next((atk for atk in attacks if atk.get("target") == zone), None)
        for atk in attacks:
            if atk is not mine and set(atk["counters"]) & set(left):
                issues.append(_issue("BW-COMBAT-MUST-CONTINUE",
                                     f"{', '.join(sorted(set(atk['counters']) & set(left)))} must attack {zone} again: "
                                     "the blitz on it left defenders", atk, "17.1",
                                     hint=f"leave them out of this attack; pbem adds them to the attack on {zone} (17.1)"))
    return issues


# ============================================================================ running
def run_blitz(ctx: Ctx, orders: dict) -> None:
    """Phase 8 (16): the blitz attacks in the order written, then the one-zone moves (16.5)."""
    combat_record(ctx)
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
    combat_record(ctx)
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
        if not left or sum(corps(ctx.counters[c])[1] for c in left) == 0 or not enemy_land_in(ctx, a["zone"], ctx.acting_side):
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
        said = blitz_orders(ctx, zone)
        if mine is None:
            attacks.append(dict(said, target=zone, counters=list(left),
                                _path=tuple(orders.get("_path", ())) + ("attacks", len(attacks))))
            notes.append({"zone": zone, "counters": list(left), "added": list(left), "written": False,
                          "carried": sorted(said)})
        else:
            add = [c for c in left if c not in mine["counters"]]
            carried = sorted(k for k in said if k not in mine)
            for k in carried:
                mine[k] = said[k]
            if add or carried:
                mine["counters"] = list(mine["counters"]) + add
                notes.append({"zone": zone, "counters": list(mine["counters"]), "added": add, "written": True,
                              "carried": carried})
    if not notes:
        return orders, []
    return dict(orders, attacks=attacks), notes


# what a blitz attack says of what follows it, carried into its fight-on (17.1; issue 33)
CARRIED = ("advance", "exploit", "losses")


def blitz_orders(ctx: Ctx, zone: str) -> dict:
    """17.1: the ``advance``, ``exploit`` and ``losses`` the blitz attack on ``zone`` was written
    with (the turn's combat record keeps them for an attack that left defenders): the attack
    fought on in the normal combat phase is the same attack, and takes them where the orders
    of the combat phase say nothing else (issue 33: they were asked again, one mail round
    trip each)."""
    for a in peek_record(ctx)["attacks"]:
        if a["phase"] == "blitz" and a["side"] == ctx.side and a["zone"] == zone:
            return dict(a.get("orders") or {})
    return {}


def _run(ctx: Ctx, orders: dict) -> None:
    orders, fought_on = _fight_on(ctx, orders)
    # 9.3: the neutrals the orders attack with the player's consent join the other side first
    issues = diplomacy.consent(ctx, orders) + check_attacks(ctx, orders)
    if kind_of(ctx) == "combat":
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


def note_entries(ctx: Ctx) -> None:
    """9.3: "国家は、そのユニットが攻撃されたか、その領域を（空軍も含め）敵ユニットが通過した場合、攻撃を
    受けたとみなされる" (a country is attacked when its units are attacked or enemy units pass
    through its territory): after the side's movement, blitz and combat phases, each zone its
    ground units took from another side (a control event of the phase: moves, one-zone moves,
    advances) counts as an attack on that zone's country for the first attacks of
    :func:`_note_first_attacks` (issue 19, reading 3; ruling attack-by-entering)."""
    if ctx.side is None:
        return
    had = "flags" in ctx.state
    for ev in list(ctx.events):
        if ev.get("type") != "control" or ev.get("side", ev.get("to")) != ctx.side:
            continue
        by = ev.get("by")
        # the zone's side before the entry (the control event's): after it, it is the mover's
        _note_first_attacks(ctx, ev["zone"], [by] if by in ctx.counters else [], [], was=ev.get("before", ev.get("from")))
    if not had and not ctx.state.get("flags"):
        ctx.state.pop("flags", None)        # nothing recorded: the state as it was


def _ashore(ctx: Ctx, zone: str, atk: dict) -> bool:
    """16.4, clarification 9 (橋頭堡にいるコマは、そこに防御がいなければ、海岸ゾーンに前進できる): an
    "attack" by counters all on a beachhead serving a zone without enemy land units is their
    going ashore (the advance of 16.4, 17.3), no die rolled (pbem/blitzwar/transport.py lands them)."""
    cs = atk.get("counters") or []
    return bool(cs) and all(c in ctx.counters and from_beachhead(ctx, c) and ctx.counters[c]["beachhead"] == zone for c in cs)


def resolve(ctx: Ctx, n: int, atk: dict) -> None:
    """One attack (16.1-16.4, 17.1-17.3): odds and shifts, the die, losses, the air unit of a
    blitz, the retreat, the advance."""
    kind = kind_of(ctx)
    rec = combat_record(ctx)
    zone = atk["target"]
    attackers = list(atk["counters"])
    defenders = enemy_land_in(ctx, zone, ctx.acting_side)
    _note_first_attacks(ctx, zone, attackers, defenders)
    if not defenders:
        # 16.4, clarification 9: no defender: the units on the beachhead go ashore (transport.py)
        ctx.emit("ashore", rule="16.4", combat=n, zone=zone, counters=attackers)
        _note_attack(ctx, rec, kind, zone, attackers, survivors=False)
        _advance(ctx, n, atk, zone, attackers, False, False)
        return
    right, left, german_used = shifts_for(ctx, zone, attackers, defenders, kind, n)
    ev = _combat_event(ctx, n, zone, attackers, defenders)
    red = _read_table(ctx, n, zone, ev, right, left)
    ctx.emit("combat", **ev)
    if red is None:
        _note_attack(ctx, rec, kind, zone, attackers, survivors=True)
        return
    # the position after the die, kept in case a decision comes (what the rest of the attack
    # may change, copied: AfterDie)
    start, n0 = AfterDie(ctx.state, attack_reach(ctx, zone, attackers)), len(ctx.events)
    try:
        _after_result(ctx, n, atk, attackers, defenders, red, german_used, bool(ev.get("eight_to_one")))
    except NeedDecision as nd:
        # issue 33: every decision of the attack after its die in one go (one answer file)
        def rest() -> None:
            del ctx.events[n0:]
            start.put_back(ctx.state)      # (fresh copies: ask_together keeps the values it replaces)
            _after_result(ctx, n, atk, attackers, defenders, red, german_used, bool(ev.get("eight_to_one")))
        raise ask_together(ctx, rest, nd) from None


def _note_first_attacks(ctx: Ctx, zone: str, attackers: list[str], defenders: list[str], was: str | None = None) -> None:
    """The first attacks that open the German windows (R1) and the British +2 (R2); 10.2: a Soviet
    attack on Germany, West Poland or Romania brings the Axis total-war cards. An attack on a
    country is 9.3's: on its units, or entering its territory (ruling attack-by-entering: an
    entry comes here without defenders, from :func:`note_entries`)."""
    cs, side = ctx.counters, ctx.side
    f = flags(ctx)
    z = ctx.rs.zones[zone]
    if side == "axis":
        if (z.country in ("BE", "FRA")) and "first_attack_west" not in f:
            f["first_attack_west"] = ctx.turn
        # 10.2, 11.7, 11.9, 16.3.1 "the USSR or East Poland", one trigger (ruling
        # war-opened-by-either): a zone of the USSR, Soviet units (9.3: its units attacked), or a
        # zone the USSR holds (the East Poland 9.2 gives it; ruling east-poland-attack: a
        # Polish-held East Polish zone is Poland, not the USSR); ``was``: the zone's side before
        # an entry (note_entries reads it after the move)
        soviet = any(side_of(ctx, d) == "ussr" for d in defenders) or (was or ctx.control(zone)) == "ussr"
        if (z.country == "USSR" or soviet) and "first_attack_ussr" not in f:
            f["first_attack_ussr"] = ctx.turn
    if side == "ussr" and (z.country in ("GER", "RUM") or (z.country == "POL" and not z.east_poland)) \
            and "first_soviet_attack_axis" not in f:
        f["first_soviet_attack_axis"] = ctx.turn
    if defenders and any(cs[c]["nation"] == "UK" for c in attackers) and all(cs[c]["nation"] == "ITA" for c in defenders) \
            and "first_uk_vs_italy" not in f:
        f["first_uk_vs_italy"] = ctx.turn


def _combat_event(ctx: Ctx, n: int, zone: str, attackers: list[str], defenders: list[str]) -> dict[str, Any]:
    """The forces of the ``combat`` event."""
    cs = ctx.counters
    a_corps = sum(n_corps(cs[c]) for c in attackers)
    d_corps = sum(n_corps(cs[c]) for c in defenders)
    return {
        "combat": n, "zone": zone, "side": ctx.side, "defender": side_of(ctx, defenders[0]),
        "attackers": [{"counter": c, "from": (cs[c].get("beachhead") and f"beachhead ({cs[c]['at']})") or cs[c]["at"],
                       "corps": n_corps(cs[c]), "what": _composition(cs[c])} for c in attackers],
        "defenders": [{"counter": c, "corps": n_corps(cs[c]), "what": _composition(cs[c])} for c in defenders],
        "attack": a_corps, "defence": d_corps, "odds": f"{a_corps}:{d_corps}",
        "rule": "16.1" if kind_of(ctx) == "blitz" else "17.1",
    }


def odds_column(ratios: list[tuple[str, Fraction]], lo: Fraction, a: int, d: int) -> tuple[int, bool, bool]:
    """16.2: the odds ``a``:``d`` (corps, ``d`` above 0) on the table whose columns stand for the
    odds ``ratios``: (the index of the last column they reach, -1 for none; 8-1 or more, read
    as the last; below ``lo``, the lowest odds allowed). In whole numbers (``a*q >= d*p`` for a
    column's ``p/q``): the fractions' answers, for a fraction of the time (issue 35; held to
    them by tests/blitzwar/test_odds_column.py)."""
    top = ratios[-1][1]
    base = -1
    for i, (_, r) in enumerate(ratios):
        if a * r.denominator >= d * r.numerator:
            base = i
    return base, a * top.denominator >= d * (top.numerator + top.denominator), a * lo.denominator < d * lo.numerator


def _read_table(ctx: Ctx, n: int, zone: str, ev: dict, right: list[dict], left: list[dict]) -> str | None:
    """16.2: the column of the odds, shifted; the die; the result as read and as reduced, written
    into ``ev``. Returns the reduced result, None when the attack is void."""
    rs = ctx.rs
    ratios = rs.crt_ratios      # each column with the odds it stands for (16.2), read with the world
    lo = rs.crt_below          # 16.2: odds below it void the attack (rules/blitzwar/tables.yaml)
    base, eight, below = odds_column(ratios, lo, ev["attack"], ev["defence"])
    net = sum(s["shift"] for s in right) - sum(s["shift"] for s in left)
    shifts = right + [dict(s, shift=-s["shift"]) for s in left]
    provisional: list[dict] = []
    if below:
        ev.update(base_column=None, shifts=shifts, net_shift=net, column=None,
                  result="void", why=f"odds below {lo.numerator}-{lo.denominator}: the attack is void (16.2)", provisional=provisional)
        return None
    base_col = ratios[base][0] if base >= 0 else f"{lo.numerator}-{lo.denominator}"
    final = min(base + net, len(ratios) - 1)
    ev.update(base_column=base_col, eight_to_one=eight, shifts=shifts, net_shift=net)
    if eight:
        ev["note"] = "8-1 or more is read as 7-1; infantry advances like armour (16.2)"
    if final < 0:
        ev.update(column=None, result="void", why="the shifted column is left of 1-1: the attack is void (16.2)", provisional=provisional)
        return None
    col = ratios[final][0]
    label = f"c{n}-{zone}/d6"
    value = ctx.dice.roll(label, 6)
    res = rs.crt_results[col][value - 1]
    p = _prov_note(rs.crt_cell_prov.get((col, value), rs.crt_prov), f"land combat table {col} die {value} = {res}")
    if p:
        provisional.append(p)
    red, rr = reduce_result(ctx, res, ev["attack"], ev["defence"])
    ev.update(column=col, roll={"label": ctx.dice.prefix + label, "value": value}, result=res, provisional=provisional)
    if rr:
        ev["reduced"] = {"to": red, "because": rr["when"].replace("-", " "), "rule": "16.2"}
        p = _prov_note(rr.get("provenance") or {"status": "rulebook"}, f"reduction of {res} to {red} ({rr['when'].replace('-', ' ')})")
        if p:
            provisional.append(p)
    return red


def _after_result(ctx: Ctx, n: int, atk: dict, attackers: list[str], defenders: list[str], red: str,
                  german_used: bool, eight: bool) -> None:
    """16.2-16.4, 17.2-17.3: the losses (attacker's, then defender's, each chosen by its owner),
    the air unit of a blitz with air superiority, the retreat, the advance."""
    kind, side, cs, zone = kind_of(ctx), ctx.acting_side, ctx.counters, atk["target"]
    def_side = side_of(ctx, defenders[0])
    a_loss, c_flag, d_loss = parse_result(red)

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
    _note_attack(ctx, combat_record(ctx), kind, zone, attackers, survivors=bool(left_def),
                 said={k: atk[k] for k in CARRIED if k in atk} if kind == "blitz" and left_def and survivors_att else None)
    if not left_def and survivors_att:
        _advance(ctx, n, atk, zone, survivors_att, eight, retreated)


def _note_attack(ctx: Ctx, rec: dict, kind: str, zone: str, attackers: list[str], survivors: bool,
                 said: dict | None = None) -> None:
    """The attack in the turn's combat record; ``said``: what a blitz attack that left
    defenders says of its fight-on (:func:`blitz_orders`), kept only when it says something."""
    a: dict[str, Any] = {"zone": zone, "side": ctx.side, "phase": kind, "counters": list(attackers), "survivors": survivors}
    if said:
        a["orders"] = said
    rec["attacks"].append(a)
    for c in attackers:
        rec["fought"][c] = kind
