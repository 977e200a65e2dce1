"""BlitzWAR land combat: retreats (17.2, clarification 8) and advances (16.4, 17.3), with what a
counter entering a zone does (enemy supply and air destroyed 15.3, control 5).
"""
from __future__ import annotations

from ..core.game import Decision
from . import diplomacy
from .combat_common import (
    _did,
    combat_record,
    enemies,
    enemy_land_in,
    flags,
    is_land,
    kind_of,
    line_intact,
    n_corps,
    side_of,
    stacking_ok,
)
from .combat_losses import _composition, take_losses
from .context import Ctx, NeedDecision, control_after_entry
from .supply import defends_in_supply


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
    return _retreat_zones(ctx, zone, movers, side)


def _retreat_zones(ctx: Ctx, zone: str, movers: list[str], side: str) -> list[str]:
    attacked = {a["zone"] for a in combat_record(ctx)["attacks"]} | {zone}
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


def _retreat_options(ctx: Ctx, zone: str, defenders: list[str], by: int, zones: list[str],
                     stay: str | None) -> tuple[list[str], list[str]]:
    """17.2, clar. 8: (the answers the owner may give: the zones, ``stay`` when the terrain lets
    a loss by one stay, ``refuse`` with one extra loss; why, in words)."""
    cs = ctx.counters
    remaining = sum(n_corps(cs[c]) + (1 if cs[c].get("entrenched") else 0) for c in defenders)
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
        in_supply = all(defends_in_supply(ctx, c) for c in defenders)     # 7 (a supplied minor's stack too)
        fort = ctx.rs.zones[zone].fortress
        if (fort or not zones) and in_supply and remaining > 1:
            options.append("refuse")
            why.append("lost by two or more " + ("in a fortress" if fort else "with no zone to retreat to") + ", in supply: may refuse with one extra loss")
        else:
            why.append("lost by two or more: must retreat")
    return options, why


def _retreat(ctx: Ctx, n: int, zone: str, defenders: list[str], by: int, side: str) -> bool:
    """17.2: the defenders lost more than the attacker. Returns True when they left the zone."""
    cs = ctx.counters
    air = [c for c in ctx.in_zone(zone) if cs[c]["type"] == "air" and not cs[c].get("flying") and side_of(ctx, c) == side]
    movers = defenders + air
    stay = _stay_terrain(ctx, zone, defenders)
    options, why = _retreat_options(ctx, zone, defenders, by, retreat_zones(ctx, zone, movers, side), stay)
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
        ctx.move(c, choice)
    ctx.emit("retreat", combat=n, zone=zone, to=choice, counters=movers, chosen_by=how, player=player,
             turned_back=unentrenched,
             left_behind=[c for c in ctx.in_zone(zone) if cs[c]["type"] == "supply" and side_of(ctx, c) == side],
             rule="17.2, clar. 8")
    if any(is_land(cs[c]) for c in movers):
        take_control(ctx, choice, side, n)     # ground units entering a zone take it (5)
    return True


def _to_pool(ctx: Ctx, cid: str) -> None:
    c = ctx.counters[cid]
    ctx.move(cid, "pool")
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
    ctx.move(cid, zone)
    take_control(ctx, zone, side, n)


def take_control(ctx: Ctx, zone: str, side: str, n: int | None = None) -> None:
    """Ground units of ``side`` entering ``zone`` (an advance, a retreat, a one-zone move) take
    it as a move does (5, 7, 9.2): the one definition, :func:`control_after_entry`."""
    old = ctx.control(zone)
    new = control_after_entry(ctx.rs, ctx.state, zone, side)
    if new is None or new == old:
        return
    ctx.state.setdefault("control", {})[zone] = new
    ctx.emit("control", zone=zone, **{"from": old}, to=new, combat=n, rule="5")
    if ctx.rs.zones[zone].fortress_line and line_intact(ctx, zone) and new != ctx.rs.zones[zone].control:
        flags(ctx).setdefault("fortress_lines_destroyed", []).append(zone)
        flags(ctx)["fortress_lines_destroyed"].sort()
        ctx.emit("fortress-line-destroyed", zone=zone, combat=n, rule="16.3.2")


def _advance(ctx: Ctx, n: int, atk: dict, zone: str, survivors: list[str], eight: bool, retreated: bool) -> None:
    """16.4, 17.3: the surviving attackers may advance into the zone attacked; armour (and
    every counter after an 8-1) may go on into zones free of enemies."""
    rule = "16.4" if kind_of(ctx) == "blitz" else "17.3"
    player = ctx.player_of_side(ctx.acting_side)
    order = atk.get("advance")
    # the standing order `advance: none | all | auto` answers only what the attack and the
    # answers leave open: an answer sent for the decision (even in the file that set the
    # standing order) wins. `all` and `auto` take the zone, and armour stops there
    standing = ctx.standing(player, "advance") if order is None else "ask"
    standing_none = standing in ("none", "all", "auto")
    exploit: dict = atk["exploit"] if isinstance(atk.get("exploit"), dict) else {}
    if order == "ask":
        order = None
    if order is None and not standing_none:
        _ask_advances_at_once(ctx, n, zone, survivors, eight, rule)
    for cid in sorted(survivors):
        c = ctx.counters[cid]
        armourlike = c["type"] in ("armour", "white-tank") or eight
        done = int(combat_record(ctx)["advanced"].get(cid, 0))
        limit = 2 if armourlike else 1
        if (not armourlike and rule == "17.3" and done) or done >= limit:
            continue  # 17.3: infantry that advanced in the blitz phase does not advance again
        if not _may_enter(ctx, n, cid, zone, player, rule):
            continue
        choice, how = ctx.decide(id=f"{_did(ctx, n)}.advance.{cid}", side=ctx.acting_side, kind="advance", options=["stay", zone],
                                 ordered=_ordered(order, cid, zone), auto=lambda: "stay", standing_key="advance",
                                 standing_choices={"none": "stay", "all": zone, "auto": zone} if standing_none else None,
                                 prompt=f"Advance {cid} ({_composition(c)}) into {zone} after attack {n}?",
                                 context={"zone": zone, "counter": cid}, rule=rule)
        if choice == "stay":
            ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by=how, player=player, rule=rule)
            continue
        frm = c["at"]
        c.pop("beachhead", None)
        # 17.3: tested on the zone as the armour enters it, before taking it destroys its
        # fortress line (16.3.2; issue 19, departure 10)
        stops = _armour_stops(ctx, zone) or (from_beachhead_frm(ctx, frm) and not _good_landing(ctx, zone))
        path = _step(ctx, n, cid, zone, rule, [])
        if armourlike and not stops and done + 1 < limit:
            wanted = exploit.get(cid) if cid in exploit else None
            _exploit(ctx, n, cid, frm, path, limit - done, wanted, (order is not None, standing_none), rule)
        ctx.emit("advance", combat=n, counter=cid, **{"from": frm}, path=path, chosen_by=how, player=player, rule=rule)


def _ordered(order, cid: str, zone: str) -> str | None:
    """What the attack's ``advance`` says of one counter: ``stay``, the zone, or None (ask)."""
    if order == "none" or (isinstance(order, list) and cid not in order):
        return "stay"
    if order == "all" or isinstance(order, list):
        return zone
    return None


def _may_enter(ctx: Ctx, n: int, cid: str, zone: str, player: str, rule: str) -> bool:
    """Whether stacking (4, R15) and the movement limits (9.6) let the counter advance into the
    zone; when not, the advance event says why."""
    if not stacking_ok(ctx, zone, [cid]):
        ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by="stacking", player=player,
                 why=f"{zone} cannot take it (stacking, 4)", rule=rule)
        return False
    barred = diplomacy.end_issue(ctx, cid, zone)
    if barred:
        ctx.emit("advance", combat=n, counter=cid, path=[], chosen_by="movement limits", player=player, why=barred, rule="9.6")
        return False
    return True


def _armour_stops(ctx: Ctx, zone: str) -> bool:
    """17.3: armour that advances into marsh, high mountains or an intact fortress line goes no
    further (the terrain a blitz does not attack)."""
    z = ctx.rs.zones[zone]
    return bool(ctx.rs.terrain_effects.get(z.terrain, {}).get("armour_stops")) or line_intact(ctx, zone)


def _good_landing(ctx: Ctx, zone: str) -> bool:
    """16.4, 17.3: from a beachhead armour goes on only from a port without a fortress or mountains."""
    z = ctx.rs.zones[zone]
    return bool(z.port) and not z.fortress and z.terrain not in ("mountain", "high-mountain")


def _step(ctx: Ctx, n: int, cid: str, zone: str, rule: str, path: list[str]) -> list[str]:
    """The counter advances one zone (entering it, 15.3, 5) and the turn's record counts it."""
    _enter(ctx, cid, zone, n, rule)
    rec = combat_record(ctx)
    rec["advanced"][cid] = int(rec["advanced"].get(cid, 0)) + 1
    return path + [zone]


def _exploit(ctx: Ctx, n: int, cid: str, frm: str, path: list[str], left: int, wanted: list | None,
             told: tuple[bool, bool], rule: str) -> None:
    """16.4, 17.3: armour goes on into zones free of enemy land units, two zones at most over
    both phases (``left`` counts the zone taken), stopping in the terrain of 17.3. ``wanted``:
    the attack's ``exploit`` for it; without it, ``told`` (the attack says ``advance``, a standing
    order answers) makes it stay unless answered (an answer wins only over the standing order)."""
    k = 0
    while len(path) < left:
        here = ctx.counters[cid]["at"]
        opts = sorted(t for t in ctx.rs.zones[here].links
                      if not enemy_land_in(ctx, t, ctx.acting_side)
                      and t not in path and t != frm and stacking_ok(ctx, t, [cid])
                      and not diplomacy.neutral_zone(ctx, t) and not diplomacy.end_issue(ctx, cid, t))   # 9.3, 9.6
        if not opts:
            return
        eid = f"{_did(ctx, n)}.exploit.{cid}.{k + 1}"
        if wanted is not None:
            want = wanted[k] if k < len(wanted) else "stay"
        else:
            want = "stay" if told[0] or (told[1] and eid not in ctx.answers) else None
        ch, _ = ctx.decide(id=eid, side=ctx.acting_side, kind="advance", options=["stay"] + opts, ordered=want,
                           auto=lambda: "stay", standing_key="advance",
                           prompt=f"{cid} advanced into {here}: go on into another zone free of enemies?",
                           context={"counter": cid, "from": here}, rule=rule)
        if ch == "stay":
            return
        stops = _armour_stops(ctx, ch)      # before entering: see _advance
        path[:] = _step(ctx, n, cid, ch, rule, path)
        k += 1
        if stops:
            return


def _ask_advances_at_once(ctx: Ctx, n: int, zone: str, survivors: list[str], eight: bool, rule: str) -> None:
    """Issue 16, item 4: the advance of every survivor that the attack leaves open is asked in
    one go (one answer file), not counter after counter. The options are those of each counter
    alone; when the zone cannot take all the counters the answers send, the later ones stay
    (stacking, 4: reported). Where armour goes on from the zone is asked afterwards (it depends
    on where it went)."""
    kind = kind_of(ctx)
    rec = combat_record(ctx)
    asked: list[Decision] = []
    for cid in sorted(survivors):
        c = ctx.counters[cid]
        armourlike = c["type"] in ("armour", "white-tank") or eight
        done = int(rec["advanced"].get(cid, 0))
        if (not armourlike and kind == "combat" and done) or done >= (2 if armourlike else 1):
            continue
        if not stacking_ok(ctx, zone, [cid]) or diplomacy.end_issue(ctx, cid, zone):
            continue
        try:
            ctx.decide(id=f"{_did(ctx, n)}.advance.{cid}", side=ctx.acting_side, kind="advance", options=["stay", zone],
                       auto=lambda: "stay", standing_key="advance",
                       prompt=f"Advance {cid} ({_composition(c)}) into {zone} after attack {n}?",
                       context={"zone": zone, "counter": cid}, rule=rule)
        except NeedDecision as nd:
            asked += nd.decisions
    if len(asked) > 1:
        raise NeedDecision(asked)


def from_beachhead_frm(ctx: Ctx, frm: str) -> bool:
    return frm not in ctx.rs.zones
