"""The movement phase (15), in the order of its sub-phases: entrenching (15.1), strategic
movement (15.2), tactical movement and activation for attack (15.3). Orders::

    - phase: axis.7.movement
      revert: [ger-i1t-1]                 # entrenched -> infantry, free, any time (15.1)
      entrench: [ger-i1t-2]               # 15.1: 2 supply, one corps per side per turn
      strategic: [{counter: ger-i3-1, path: [berlin, stettin], pay: held}]   # 15.2: double cost
      moves: [{counter: ger-c2-1, path: [poznan, lodz]}]                     # 15.3
      activate: [{counter: ger-i2-1}]     # 15.3: a unit next to the enemy pays to attack
      reorganise: [{counters: [ger-i1t-1, ger-c1-1], into: [{type: white-tank, units: 2, elite: true}]}]   # 15.4, 11.10
                                          # (after the moves; ``before: true``: before them, clar. 6)

``path`` lists the zones entered, in order (not the zone the counter starts in). ``pay``
(optional) names where the supply comes from: ``held`` or a supply counter id (7).

Flags left on the counters for the combat phases (8, 9) and cleared at the end of the side's
turn: ``moved`` (zones moved tactically this turn), ``strategic`` (moved strategically: neither
moves tactically nor attacks), ``active`` (may attack: 15.3).
"""
from __future__ import annotations

from fractions import Fraction

from ..core.errors import Issue
from . import diplomacy
from .context import LAND, Ctx, PhaseOrdersInvalid, add_counter, remove_counter, sorted_counters
from .land import (
    control,
    cost_of,
    counter_guess_of,
    enemies,
    enemy_land,
    enter,
    land_counters,
    n_corps,
    side_of,
    stacking_issues,
)
from .names import unknown_zone
from .setup import kind_key, make_counter
from .supply import pay
from .world import CounterKind

TACTICAL = {"infantry": 3, "armour": 5, "white-tank": 5, "supply": 5}     # 15.3
BRITISH_ENTRENCH = ("malta", "gibraltar", "tobruk")                      # 15.1


def _at(entry, where: tuple) -> tuple:
    """An order's place in the file: its ``_path`` when the kernel gave it one (an earlier
    entry of its list was void), else where it is in the list."""
    return tuple(entry["_path"]) if isinstance(entry, dict) and entry.get("_path") else where


def _own(ctx: Ctx, cid: object, path: tuple, what: str) -> tuple[str, dict]:
    """(id, counter) of the side's own counter on a land zone that ``cid`` names; refuses any other
    (as pbem.blitzwar.transport's ``_own`` does for the counter of a transport order)."""
    if not isinstance(cid, str) or cid not in ctx.counters:
        ctx.refuse([Issue("BW-COUNTER", f"{what}: no counter {cid!r}{counter_guess_of(ctx, cid)}", path=path,
                          text=str(cid), hint="pbem show and the order template list your counters")])
    c = ctx.counters[cid]
    if c["at"] not in ctx.rs.zones:
        ctx.refuse([Issue("BW-COUNTER", f"{what}: {cid} is not on a land zone ({c['at']})", path=path, text=str(cid))])
    if side_of(ctx, cid) != ctx.side:
        ctx.refuse([Issue("BW-NOT-YOURS", f"{what}: {cid} is not a counter of the {ctx.side} side", path=path, text=str(cid))])
    return cid, c


def _path_start(ctx: Ctx, cid, start: str, path: list, q: tuple, rule: str) -> None:
    """A path that begins with the zone the counter stands in: one message that says so (not
    "X is not next to X" and a wrong count of zones)."""
    if path and path[0] == start:
        issues = [Issue("BW-PATH-START", f"{cid}: the path lists the zones entered, not {start}, where {cid} stands "
                        f"({rule})", path=q + ("path", 0), text=str(start), rule=rule,
                        hint=f"write path: [{', '.join(map(str, path[1:])) or 'ZONE, ...'}]")]
        # every problem at once: a zone of the rest that is not on the map is said too (the hint
        # above would otherwise offer it as the path to write)
        prev = start
        for k, z in enumerate(path[1:], start=1):
            if not isinstance(z, str) or z not in ctx.rs.zones:
                issues.append(Issue("BW-ZONE", f"{cid}: {unknown_zone(ctx.rs, z, ctx.rs.zones[prev].links)}",
                                    path=q + ("path", k), text=str(z), rule=rule,
                                    hint=f"zones next to {prev}: {', '.join(ctx.rs.zones[prev].links)}"))
                break
            prev = z
        ctx.refuse(issues)


def _path_step(ctx: Ctx, cid: object, prev: str, z: object, where: tuple, rule: str) -> str:
    """One zone of a path, returned: a zone of the map (else BW-ZONE, with a did-you-mean among the
    zones next to ``prev``), next to the zone before it (else BW-PATH)."""
    if not isinstance(z, str) or z not in ctx.rs.zones:
        ctx.refuse([Issue("BW-ZONE", f"{cid}: {unknown_zone(ctx.rs, z, ctx.rs.zones[prev].links)}", path=where, text=str(z),
                          rule=rule, hint=f"zones next to {prev}: {', '.join(ctx.rs.zones[prev].links)}")])
    if z not in ctx.rs.zones[prev].links:
        ctx.refuse([Issue("BW-PATH", f"{cid}: {z} is not next to {prev} ({rule})", path=where, text=str(z), rule=rule,
                          hint=f"zones next to {prev}: {', '.join(ctx.rs.zones[prev].links)}")])
    return z


class _Moves:
    """What the movement phase collects as it goes: every refusal (a refused order is skipped,
    the next ones checked: all problems at once), the zones moves ended in, and the moves
    ending in each zone (counter, order path)."""

    def __init__(self, orders: dict):
        self.orders = orders
        self.p = orders.get("_path", ("phases",))
        self.errs: list[Issue] = []
        self.zones: set[str] = set()
        self.arrivals: dict[str, list[tuple[str, tuple]]] = {}

    def arrived(self, cid: str, zone: str, q: tuple) -> None:
        self.zones.add(zone)
        self.arrivals.setdefault(zone, []).append((cid, q))


def run_movement(ctx: Ctx, orders: dict) -> None:
    """15: the movement phase's sub-phases in order (the module's docstring gives the orders)."""
    mv = _Moves(orders)
    # 9.3: the neutrals the moves enter with the player's consent (attack_neutral) join the other side first
    mv.errs += diplomacy.consent(ctx, orders)
    _revert(ctx, mv)
    _entrench(ctx, mv)
    _reorganise(ctx, mv, before=True)
    for i, m in enumerate(orders.get("strategic") or []):
        with _collect(mv.errs):
            _strategic(ctx, mv, m, _at(m, mv.p + ("strategic", i)))
    for i, m in enumerate(orders.get("moves") or []):
        with _collect(mv.errs):
            _tactical(ctx, mv, m, _at(m, mv.p + ("moves", i)))
    for i, a in enumerate(orders.get("activate") or []):
        with _collect(mv.errs):
            _activate(ctx, a, _at(a, mv.p + ("activate", i)))
    _reorganise(ctx, mv, before=False)
    for i, cid in enumerate(orders.get("remove") or []):
        with _collect(mv.errs):
            remove(ctx, cid, mv.p + ("remove", i))
    _end_of_phase(ctx, mv)


def _reorganise(ctx: Ctx, mv: _Moves, *, before: bool) -> None:
    """15.4, 11.10 with clarification 6 (移動の前か後に再編します: before or after moving, never
    during a move): the reorganisations marked ``before: true`` come before the strategic and
    tactical moves, the others after the moves and activations (ruling reorganise-before-or-after)."""
    for i, r in enumerate(mv.orders.get("reorganise") or []):
        if bool(isinstance(r, dict) and r.get("before")) == before:
            with _collect(mv.errs):
                mv.zones.add(reorganise(ctx, r, mv.p + ("reorganise", i)))


def _revert(ctx: Ctx, mv: _Moves) -> None:
    """15.1: reverting is free and allowed any time."""
    for i, cid in enumerate(mv.orders.get("revert") or []):
        with _collect(mv.errs):
            _, c = _own(ctx, cid, mv.p + ("revert", i), "revert")
            if not c.get("entrenched"):
                ctx.refuse([Issue("BW-ENTRENCH", f"{cid} is not entrenched", path=mv.p + ("revert", i), rule="15.1")])
            del c["entrenched"]
            ctx.emit("revert", rule="15.1", counter=cid, zone=c["at"], paid="0")


def _entrench(ctx: Ctx, mv: _Moves) -> None:
    """15.1: German infantry anywhere, British in Malta, Gibraltar and Tobruk; 2 supply; one
    corps a side a turn."""
    p = mv.p
    ent = mv.orders.get("entrench") or []
    if sum(n_corps(ctx.counters[c]) for c in ent if c in ctx.counters) > 1:
        mv.errs.append(Issue("BW-ENTRENCH", "a side entrenches at most one corps a turn (15.1)", path=p + ("entrench",), rule="15.1"))
    for i, cid in enumerate(ent):
        with _collect(mv.errs):
            _, c = _own(ctx, cid, p + ("entrench", i), "entrench")
            kind = ctx.rs.counters[c["nation"]][c["kind"]]
            if c["type"] != "infantry" or kind.back != "entrenched" or c.get("entrenched"):
                ctx.refuse([Issue("BW-ENTRENCH", f"{cid} has no entrenched side (15.1: German and some British infantry)",
                                  path=p + ("entrench", i), rule="15.1")])
            if c["nation"] == "UK" and c["at"] not in BRITISH_ENTRENCH:
                ctx.refuse([Issue("BW-ENTRENCH", f"British units entrench only in Malta, Gibraltar and Tobruk (15.1), not in {c['at']}",
                                  path=p + ("entrench", i), rule="15.1")])
            _pay_or_refuse(ctx, cid, Fraction(2), "entrench (15.1)", None, p + ("entrench", i))
            c["entrenched"] = True
            ctx.emit("entrench", rule="15.1", counter=cid, zone=c["at"])


def _strategic(ctx: Ctx, mv: _Moves, m: dict, q: tuple) -> None:
    """15.2: through zones the side controls, at double the tactical cost."""
    cid, c = _own(ctx, m.get("counter"), q, "strategic move")
    _can_move(ctx, cid, c, q)
    start = c["at"]
    path = list(m.get("path") or [])
    prev = start
    _path_start(ctx, cid, start, path, q, "15.2")
    for k, z in enumerate(path):
        _path_step(ctx, cid, prev, z, q + ("path", k), "15.2")
        if control(ctx, z) != ctx.side or enemy_land(ctx, ctx.side, z):
            ctx.refuse([Issue("BW-STRATEGIC", f"{cid}: strategic movement only through zones the {ctx.side} side controls (15.2); "
                              f"{z} is not one", path=q + ("path", k), text=str(z), rule="15.2")])
        why = diplomacy.limit_issue(ctx, cid, z)
        if why:
            ctx.refuse([Issue("BW-LIMIT", f"{cid}: {why}", path=q + ("path", k), text=str(z), rule="9.6")])
        prev = z
    if not path:
        ctx.refuse([Issue("BW-PATH", f"{cid}: an empty path", path=q + ("path",))])
    _pay_or_refuse(ctx, cid, 2 * cost_of(c), "strategic move (15.2: double)", m.get("pay"), q)
    ctx.move(cid, path[-1])
    c["strategic"] = True
    mv.arrived(cid, path[-1], q)
    ctx.emit("move", rule="15.2", counter=cid, kind="strategic", path=[start] + path)


def _tactical(ctx: Ctx, mv: _Moves, m: dict, q: tuple) -> None:
    """15.3: infantry 3 zones, armour and supply 5, never through enemy infantry or armour;
    infantry that moves one zone, armour one to three, is activated for attack."""
    cid, c = _own(ctx, m.get("counter"), q, "move")
    _can_move(ctx, cid, c, q)
    if c.get("moved"):
        ctx.refuse([Issue("BW-MOVED", f"{cid} has moved already this turn (15.3)", path=q, text=cid, rule="15.3")])
    path = list(m.get("path") or [])
    _path_start(ctx, cid, c["at"], path, q, "15.3")
    limit = TACTICAL.get(c["type"])
    if limit is None:
        ctx.refuse([Issue("BW-MOVE-TYPE", f"{cid}: {c['type']} does not move in the movement phase (15.3)", path=q, rule="15.3")])
    if not path or len(path) > limit:
        ctx.refuse([Issue("BW-PATH", f"{cid}: {c['type']} moves 1 to {limit} zones (15.3), not {len(path)}",
                          path=q + ("path",), rule="15.3")])
    start = c["at"]
    _tactical_path(ctx, cid, c, path, q)
    _pay_or_refuse(ctx, cid, cost_of(c), "tactical move (15.3)", m.get("pay"), q)
    ev = ctx.emit("move", rule="15.3", counter=cid, kind="tactical", path=[start] + path)
    for z in path:
        crossing = diplomacy.neutral_zone(ctx, z)      # 9.3: passage through a neutral takes nothing
        ctx.move(cid, z)
        if c["type"] in LAND and not crossing:
            _clear_zone(ctx, cid, z)
            enter(ctx, cid, z, rule="5")
    c["moved"] = len(path)
    mv.arrived(cid, path[-1], q)
    if (c["type"] == "infantry" and len(path) == 1) or (c["type"] in ("armour", "white-tank") and len(path) <= 3):
        c["active"] = True
        ev["active"] = True


def _tactical_path(ctx: Ctx, cid: str, c: dict, path: list, q: tuple) -> None:
    """Each zone of a tactical path (15.3): next to the one before, no enemy infantry or armour,
    a neutral only with passage (9.3), the movement limits (9.6), supply counters only through
    their side's zones (ruling supply-counters-move)."""
    prev = c["at"]
    for k, z in enumerate(path):
        _path_step(ctx, cid, prev, z, q + ("path", k), "15.3")
        if enemy_land(ctx, ctx.acting_side, z):
            ctx.refuse([Issue("BW-ENEMY-ZONE", f"{cid}: {z} holds enemy infantry or armour; no unit moves through it (15.3)",
                              path=q + ("path", k), text=str(z), rule="15.3")])
        owner = control(ctx, z)
        if owner == "neutral" and not diplomacy.passage(ctx, cid, z):
            ctx.refuse([diplomacy.neutral_issue(ctx, z, cid, q + ("path", k))])
        why = diplomacy.limit_issue(ctx, cid, z)
        if why:
            ctx.refuse([Issue("BW-LIMIT", f"{cid}: {why}", path=q + ("path", k), text=str(z), rule="9.6")])
        if c["type"] == "supply" and owner != ctx.side:
            ctx.refuse([Issue("BW-SUPPLY-MOVE", f"{cid}: supply counters move through zones their side controls (ruling supply-counters-move)",
                              path=q + ("path", k), text=str(z), rule="15.3")])
        prev = z


def _activate(ctx: Ctx, a, q: tuple) -> None:
    """15.3: a unit that did not move and stands next to the enemy pays to be activated."""
    cid = a.get("counter") if isinstance(a, dict) else a
    cid, c = _own(ctx, cid, q, "activate")
    if c["type"] not in LAND:
        ctx.refuse([Issue("BW-ACTIVATE", f"{cid}: only infantry and armour are activated (15.3)", path=q, rule="15.3")])
    # 7: the supply line is traced when the unit acts (pay), not read from last turn's
    # out-of-supply marker: another unit's move may have re-opened it (issue 19, departure 1)
    if c.get("active") or c.get("moved") or c.get("strategic") or c.get("entrenched") or c.get("shipped"):
        why = ("is active already" if c.get("active") else "moved this turn" if c.get("moved") else
               "moved strategically (15.2)" if c.get("strategic") else
               "was shipped by sea this turn (14.1.1)" if c.get("shipped") else "is entrenched (15.1)")
        ctx.refuse([Issue("BW-ACTIVATE", f"{cid} cannot be activated: it {why}", path=q, rule="15.3")])
    # an attack on a neutral next to it may be meant (9.3: it is activated in the combat phase)
    near = any(enemy_land(ctx, ctx.acting_side, z) or diplomacy.holds_neutral(ctx, z) for z in ctx.rs.zones[c["at"]].links)
    if not near:
        ctx.refuse([Issue("BW-ACTIVATE", f"{cid}: no enemy unit next to {c['at']} to attack (15.3)", path=q, rule="15.3")])
    _pay_or_refuse(ctx, cid, cost_of(c), "activation for attack (15.3)", a.get("pay") if isinstance(a, dict) else None, q)
    c["active"] = True
    ctx.emit("activate", rule="15.3", counter=cid, zone=c["at"])


def _end_of_phase(ctx: Ctx, mv: _Moves) -> None:
    """Stacking (4) and the minors' limits (9.6, 9.3) at the end of the phase; every refusal at once."""
    errs = mv.errs
    # every problem at once: the stacking at the end of the phase is checked with the refused
    # orders left out too, but not in a zone where a counter of a refused order stands (its
    # refused move may have been what was to make room there)
    stuck = {ctx.counters[c]["at"] for c in _refused_counters(mv.orders, mv.p, errs) if c in ctx.counters}
    refused = bool(errs)
    # BW-STACK at the moves that cause it (the last one into the zone, the others named),
    # not at the phase line: the player sees which order to change
    for z in sorted(mv.zones - stuck):
        came = mv.arrivals.get(z) or []
        for x in stacking_issues(ctx, {z}):
            if came:
                who = ", ".join(cid for cid, _ in came)
                movers = {cid for cid, _ in came}
                there = [c for c in land_counters(ctx, z) if c not in movers]
                already = f" ({', '.join(there)} there already)" if there and x.code == "BW-STACK" else ""
                errs.append(Issue(x.code, f"{x.message}: moved in by {who}{already}", path=came[-1][1], text=who, rule=x.rule,
                                  hint=f"move fewer counters there (`pbem show STATE --zone {z}` lists what stands there)"))
            else:
                errs.append(Issue(x.code, x.message, path=mv.p, rule=x.rule))
    if not refused:
        errs += [Issue(x.code, x.message, path=mv.p, rule=x.rule) for x in diplomacy.mixed_minor_issues(ctx, mv.zones)]
    if errs:
        ctx.refuse(errs)


def _refused_counters(orders: dict, p: tuple, errs: list[Issue]) -> set[str]:
    """The counters of the orders ``errs`` refused (an issue's path names its order)."""
    out = set()
    for e in errs:
        q = tuple(e.path)
        if len(q) > len(p) + 1 and q[:len(p)] == tuple(p) and isinstance(q[len(p) + 1], int):
            items = orders.get(q[len(p)])
            if isinstance(items, list) and 0 <= q[len(p) + 1] < len(items):
                m = items[q[len(p) + 1]]
                for cid in ([m] if not isinstance(m, dict) else [m.get("counter"), *(m.get("counters") or [])]):
                    if isinstance(cid, str):
                        out.add(cid)
    return out


class _collect:
    """Collects the issues of one refused order and goes on with the next."""

    def __init__(self, errs: list):
        self.errs = errs

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is not None and issubclass(et, PhaseOrdersInvalid):
            self.errs += ev.issues
            return True
        return False


def _can_move(ctx: Ctx, cid: str, c: dict, q) -> None:
    """Whether the counter may move at all. Not the out-of-supply marker: 7 traces the supply
    line when a unit acts (the payment, :func:`pay`, needs one), and the marker is last turn's
    (17.5); another unit's move may have re-opened the line since (7's example; issue 19,
    departure 1)."""
    if c.get("entrenched"):
        ctx.refuse([Issue("BW-ENTRENCHED", f"{cid} is entrenched and does not move (15.1); revert it first", path=q, rule="15.1")])
    if c.get("strategic"):
        ctx.refuse([Issue("BW-STRATEGIC", f"{cid} moved strategically this turn (15.2)", path=q, rule="15.2")])
    if c.get("shipped"):
        ctx.refuse([Issue("BW-SHIPPED", f"{cid} was shipped by sea this turn: no further move (14.1.1)", path=q, rule="14.1.1")])
    if c["type"] not in TACTICAL:
        ctx.refuse([Issue("BW-MOVE-TYPE", f"{cid}: {c['type']} does not move in the movement phase (12, 13)", path=q)])


def _pay_or_refuse(ctx: Ctx, cid, amount, action, via, q) -> None:
    pay(ctx, cid, amount, action, via, path=q)


def _clear_zone(ctx: Ctx, cid: str, zone: str) -> None:
    """15.3: infantry or armour entering a zone destroys the enemy supply and air units there
    and pushes enemy fleets in its port out to a neighbouring sea zone."""
    side = side_of(ctx, cid)
    for other in ctx.in_zone(zone):
        o = ctx.counters[other]
        if not enemies(side, side_of(ctx, other)):
            continue
        if o["type"] in ("supply", "air"):
            ctx.move(other, "pool")
            o.pop("spent", None)
            ctx.emit("destroyed", rule="15.3", counter=other, zone=zone, by=cid)
        elif o["type"] in ("fleet", "uboat"):
            seas = sorted(ctx.rs.zones[zone].coasts)
            if seas:
                ctx.move(other, seas[0])
                ctx.emit("pushed-out", rule="15.3", counter=other, zone=zone, to=seas[0], by=cid)


def reorganise(ctx: Ctx, r: dict, q) -> str:
    """11.10 / 15.4: counters of one nation in one zone exchanged for others of its mix holding
    the same infantry and armour corps (free). Elite counters (11.7) and Soviet 3-corps infantry
    counters form in a supply source zone of the side, elite ones anywhere in Africa (11.10,
    20.1), a Soviet 3-corps infantry counter growing from 2 to 3 corps anywhere (11.10).
    The new counters are active if all the old ones were, and count the most zones moved."""
    olds = list(r.get("counters") or [])
    cs = [_own(ctx, c, q + ("counters",), "reorganise")[1] for c in olds]
    if len(set(olds)) != len(olds) or not cs:
        ctx.refuse([Issue("BW-REORG", "reorganise: name each counter once", path=q, rule="11.10")])
    nation, zone = cs[0]["nation"], cs[0]["at"]
    if any(c["nation"] != nation or c["at"] != zone or c["type"] not in LAND or c.get("entrenched") for c in cs):
        ctx.refuse([Issue("BW-REORG", "reorganise: land counters of one nation in one zone, not entrenched (11.10)", path=q, rule="11.10")])
    have = (sum(c.get("infantry", c["units"] if c["type"] == "infantry" else 0) for c in cs),
            sum(c.get("armour", c["units"] if c["type"] == "armour" else 0) for c in cs))
    marks = set(ctx.state.get("marks", []))
    mix = ctx.rs.counters[nation]
    new: list[tuple[int, CounterKind]] = []
    for j, want in enumerate(r.get("into") or []):
        idx = next((i for i, k in enumerate(mix) if k.type == want.get("type") and k.land and k.units == want.get("units")
                    and k.elite == bool(want.get("elite"))), None)
        if idx is None:
            ctx.refuse([Issue("BW-REORG", f"reorganise: {nation} has no {want} counter in its mix (3)", path=q + ("into", j), rule="3")])
        k = mix[idx]
        if k.available != "start" and k.available not in marks and not _modernised(ctx, nation, idx):
            ctx.refuse([Issue("BW-REORG", f"reorganise: the {kind_key(k)} counter is not available yet ({k.available}, 11.7)",
                              path=q + ("into", j), rule="11.7")])
        if not _may_form_here(ctx, k, idx, cs, new, zone, side_of(ctx, olds[0])):
            ctx.refuse([Issue("BW-REORG", f"reorganise: {kind_key(k)} forms only in a supply source zone (elite: anywhere in "
                              f"Africa; a Soviet 3-corps infantry counter growing from 2 to 3 corps: anywhere) (11.10)",
                              path=q + ("into", j), rule="11.10")])
        new.append((idx, k))
    got = (sum(k.land_units_on(frozenset(marks))[0] for _, k in new), sum(k.land_units_on(frozenset(marks))[1] for _, k in new))
    if got != have:
        ctx.refuse([Issue("BW-REORG", f"reorganise: {have[0]} infantry and {have[1]} armour corps in, {got[0]} and {got[1]} out "
                          "(corps are conserved, 11.10)", path=q, rule="11.10")])
    for c in olds:
        remove_counter(ctx.counters, c)
    made = _make_counters(ctx, new, cs, zone, marks, q)
    ctx.state["counters"] = sorted_counters(ctx.counters)
    ctx.emit("reorganise", rule="11.10", zone=zone, counters=olds, into=made)
    return zone


def _make_counters(ctx: Ctx, new: list[tuple[int, CounterKind]], cs: list[dict], zone: str, marks: set, q) -> list[str]:
    """11.10: the counters a reorganisation forms (ids: kind and the first free number), active
    if all the old ones were, with the most zones moved, shipped if one was (14.1.1)."""
    active = all(c.get("active") for c in cs)
    moved = max(int(c.get("moved", 0)) for c in cs)
    # 11.10's example: a counter one of whose units was shipped by sea does not move (14.1.1)
    shipped = any(c.get("shipped") for c in cs)
    made: list[str] = []
    for idx, k in new:
        stem = kind_key(k)
        on = sum(1 for c in ctx.counters if c.startswith(stem + "-") and ctx.counters[c]["at"] not in ("pool", "out"))
        if on + sum(1 for x in made if x.startswith(stem + "-")) >= k.count:
            ctx.refuse([Issue("BW-MIX", f"reorganise: every {stem} counter of the mix is in play (3)", path=q, rule="3")])
        n = 1
        while f"{stem}-{n}" in ctx.counters:
            n += 1
        c = make_counter(k, idx, zone, frozenset(marks))
        if active:
            c["active"] = True
        if moved:
            c["moved"] = moved
        if shipped:
            c["shipped"] = True
        add_counter(ctx.counters, f"{stem}-{n}", c)
        made.append(f"{stem}-{n}")
    return made


def _may_form_here(ctx: Ctx, k, idx: int, olds: list[dict], new: list, zone: str, side: str) -> bool:
    """11.10: an elite counter forms in a supply source zone of the side or anywhere in Africa;
    a Soviet 3-corps INFANTRY counter in a supply source zone, except when a counter grows from 2
    to 3 corps (ソ連の3個軍団歩兵コマは、補給ゾーンでしか編成できない。例外として、任意のゾーンで、
    2個軍団から3個軍団に増加した場合を除く: one of the old counters is such a counter holding 2)."""
    z = ctx.rs.zones[zone]
    if k.elite:
        return z.supply_source == side or z.region == "africa"
    if k.nation != "USSR" or k.type != "infantry" or k.units != 3 or z.supply_source == side:
        return True
    growing = sum(1 for c in olds if c["kind"] == idx and int(c["units"]) == 2)
    return sum(1 for x, _ in new if x == idx) < growing


def _modernised(ctx: Ctx, nation: str, idx: int) -> bool:
    """11.8: a withheld Soviet counter kind made available by a card's modernisation."""
    m = ((ctx.state.get("cards") or {}).get("ussr") or {}).get("modernised") or {}
    return nation == "USSR" and int(m.get(str(idx), 0)) > 0


def remove(ctx: Ctx, cid, q) -> None:
    """11.10: a side may take its own counters off the map at will in the replacement, sea
    transport and movement phases (ruling voluntary-removal: to the pool, free; a supply
    counter's supply goes with it)."""
    c = ctx.counters.get(cid)
    if c is None or c["at"] in ("pool", "out"):
        ctx.refuse([Issue("BW-COUNTER", f"remove: no counter {cid!r} on the map", path=q, text=str(cid),
                          hint="pbem show lists the counters")])
    if side_of(ctx, cid) != ctx.side:
        ctx.refuse([Issue("BW-NOT-YOURS", f"remove: {cid} is not a counter of the {ctx.side} side", path=q, text=str(cid), rule="11.10")])
    zone = c["at"]
    from .combat_retreat import _to_pool  # loaded when the phase runs, not by `pbem show` (start-up)
    _to_pool(ctx, cid)
    c.pop("spent", None)
    ctx.emit("removed-by-owner", rule="11.10", counter=cid, zone=zone)


def reorganise_phase(ctx: Ctx, orders_by_player: dict[str, dict]) -> None:
    """11.10: reorganisation and removal in the replacement phase (every player at once, after
    the replacements are placed) and the sea transport phase, as in the movement phase: the
    counters named must be the player's (in the replacement phase, of any side the player
    plays)."""
    errs: list[Issue] = []
    zones: set[str] = set()
    where: dict[str, tuple] = {}       # zone -> the first reorganisation there (its line)
    saved = ctx.side
    try:
        for player, o in sorted(orders_by_player.items()):
            p = o.get("_path", ("phases",))
            mine = [saved] if saved else sorted(s for s, pl in ctx.state["sides"].items() if pl == player)
            for key in ("reorganise", "remove"):
                for i, r in enumerate(o.get(key) or []):
                    q = p + (key, i)
                    first = r if key == "remove" else ((r.get("counters") or [None])[0] if isinstance(r, dict) else None)
                    with _collect(errs):
                        side = side_of(ctx, first) if first in ctx.counters else None
                        if side not in mine:
                            ctx.refuse([Issue("BW-NOT-YOURS", f"{key}: {first} is not a counter of the {player} player's side(s) "
                                              f"({', '.join(mine)})", path=q, text=str(first), rule="11.10")])
                        ctx.side = side
                        if key == "remove":
                            remove(ctx, r, q)
                        else:
                            z = reorganise(ctx, r, q)
                            zones.add(z)
                            where.setdefault(z, q)
                        ctx.side = saved
    finally:
        ctx.side = saved
    if not errs:
        # at the reorganisation that makes the zone too full, not at no line at all
        errs += [Issue(x.code, x.message, path=where.get(z, ()), rule=x.rule) for z in sorted(zones)
                 for x in stacking_issues(ctx, {z})]
    if errs:
        ctx.refuse(errs)


def _oos_entries(orders: dict) -> list[tuple[tuple, dict]]:
    """(path, entry) of each out-of-supply move ordered (the path it has in the file)."""
    p = tuple(orders.get("_path", ("phases",)))
    return [(tuple(m.get("_path") or p + ("out_of_supply_moves", i)) if isinstance(m, dict) else p + ("out_of_supply_moves", i), m)
            for i, m in enumerate(orders.get("out_of_supply_moves") or [])]


def _oos_issue(ctx: Ctx, m, q: tuple, *, marked: bool) -> Issue | None:
    """Why one out-of-supply move (17.5) cannot be made at the position now, or None. With
    ``marked`` False (before the phase's first die) the marker is not asked for: whether the
    unit is marked out of supply at the end of the phase depends on the combats."""
    if not isinstance(m, dict):
        return Issue("BW-OUT-OF-SUPPLY", "an out-of-supply move is {counter, to}", path=q, text=str(m), rule="17.5")
    cid, to = m.get("counter"), m.get("to")
    c = ctx.counters.get(cid) if isinstance(cid, str) else None
    if c is None or not isinstance(cid, str) or c["at"] not in ctx.rs.zones:
        return Issue("BW-COUNTER", f"out-of-supply move: no counter {cid!r} on a land zone", path=q, text=str(cid))
    if side_of(ctx, cid) != ctx.side:
        return Issue("BW-NOT-YOURS", f"out-of-supply move: {cid} is not a counter of the {ctx.side} side", path=q, text=str(cid))
    if c["type"] not in LAND or (marked and not c.get("out_of_supply")):
        return Issue("BW-OUT-OF-SUPPLY", f"{cid} is not a land unit marked out of supply (17.5)", path=q, rule="17.5")
    if c.get("entrenched"):
        return Issue("BW-ENTRENCHED", f"{cid} is entrenched and does not move (15.1)", path=q, rule="15.1")
    try:
        to = _path_step(ctx, cid, c["at"], to, q + ("to",), "17.5")      # BW-ZONE (did-you-mean) or BW-PATH
    except PhaseOrdersInvalid as e:
        return e.issues[0]
    if enemy_land(ctx, ctx.side, to):
        return Issue("BW-ENEMY-ZONE", f"{cid}: {to} holds enemy infantry or armour (15.3)", path=q + ("to",), text=str(to), rule="15.3")
    if control(ctx, to) == "neutral" and not diplomacy.passage(ctx, cid, to):     # 9.3 (ruling passage)
        return diplomacy.neutral_issue(ctx, to, cid, q + ("to",))
    why = diplomacy.limit_issue(ctx, cid, to)
    if why:
        return Issue("BW-LIMIT", f"{cid}: {why}", path=q + ("to",), text=str(to), rule="9.6")
    return None


def check_out_of_supply_moves(ctx: Ctx, orders: dict) -> list[Issue]:
    """Every check of the out-of-supply moves (17.5) that comes before the phase's first die
    (issue 19, departure 16: `pbem validate` and the adjudication make them before any
    attack): the counter, the zone, enemies, neutrals, limits and stacking at the position now.
    Whether the counter is marked out of supply is known only after the combats: a move of a
    counter that is not is void then."""
    out = []
    for q, m in _oos_entries(orders):
        x = _oos_issue(ctx, m, q, marked=False)
        if x is not None:
            out.append(x)
    return out or _oos_stacking(ctx, orders)


def _oos_stacking(ctx: Ctx, orders: dict) -> list[Issue]:
    """4: the zones the out-of-supply moves fill over their limit, at each move into them."""
    moves = [(q, m) for q, m in _oos_entries(orders) if isinstance(m, dict) and m.get("counter") in ctx.counters
             and m.get("to") in ctx.rs.zones]
    if not moves:
        return []
    was = {m["counter"]: ctx.counters[m["counter"]]["at"] for _, m in moves}
    try:
        for _, m in moves:
            ctx.move(m["counter"], m["to"])
        over = {m["to"] for _, m in moves if stacking_issues(ctx, {m["to"]})}
        cap = diplomacy.passage_issues(ctx)      # 9.3: at most 3 Axis corps in a neutral Romania
    finally:
        for cid, at in was.items():
            ctx.move(cid, at)
    rum = [q for q, m in moves if ctx.rs.zones[m["to"]].country == "RUM"]
    return [Issue("BW-STACK", f"{m['counter']}: {ctx.rs.zones[m['to']].name} would be over its stacking limit (4)",
                  path=q + ("to",), text=str(m["to"]), rule="4") for q, m in moves if m["to"] in over] + \
        ([Issue(x.code, x.message, path=rum[-1] + ("to",), rule=x.rule) for x in cap] if rum else [])


def out_of_supply_moves(ctx: Ctx, orders: dict) -> None:
    """17.5: at the end of the normal combat phase, after the marking, infantry and armour
    marked out of supply may move to a neighbouring zone without paying supply
    (``out_of_supply_moves: [{counter, to}]`` in the side's 9.combat orders). They come after
    the phase's dice: a move that no longer fits is refused at its own entry, and the kernel
    makes it void (the phase goes on without it)."""
    entries = _oos_entries(orders)
    bad = [x for x in (_oos_issue(ctx, m, q, marked=True) for q, m in entries) if x is not None]
    if bad:
        ctx.refuse(bad)
    iss = _oos_stacking(ctx, orders)
    if iss:
        ctx.refuse(iss)
    for _q, m in entries:
        cid, to = m["counter"], m["to"]
        c = ctx.counters[cid]
        start = c["at"]
        ctx.emit("move", rule="17.5", counter=cid, kind="out-of-supply", path=[start, to], paid="0")
        crossing = diplomacy.neutral_zone(ctx, to)      # 9.3: passage through a neutral takes nothing
        ctx.move(cid, to)
        if not crossing:
            _clear_zone(ctx, cid, to)
            enter(ctx, cid, to, rule="5")
