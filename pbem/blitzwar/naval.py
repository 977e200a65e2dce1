"""The naval phase (12): naval movement (12.1), naval combat (12.2), then the sea control in
force (12.3, :mod:`pbem.blitzwar.seacontrol`).

Orders of ``<side>.4.naval``::

    fleet_moves:                 # 12.1: up to 4 sea zones; leaving or entering a port counts one
      - {counter: ger-f1-1, path: [north-sea, north-atlantic]}
      - {counter: uk-f2-1, path: [north-sea, norwegian-sea, north-sea, scapa-flow]}
    naval_attacks: [north-atlantic]   # 12.2: the sea zones where the phasing side attacks

A path lists the places entered in turn: sea zones, and ports (a port ends the move or is
passed through, as Hamburg between the North Sea and the Baltic); each costs one of the four.
Each counter moved must be in supply and costs 1 supply paid through its line (7: 海上移動：各海軍
コマに付き、1補給ユニット; 海軍ユニットは、それが補給線の通っている自陣営支配下の港に移動できる場合は、
補給下にあると考えます: :func:`naval_supply`, ruling naval-supply-line). Fleets of the Asia base
never leave the Persian Gulf and no other fleet enters it (11.4 note). Every order is
checked before the first die (nothing depends on a die before the battles): refused with every
problem at once (errors as data). Losses are chosen by their owner (a decision, standing
order ``naval_losses``); the Axis as defender loses its fleets before any U-boat (12.2).
Italian U-boats stay in the Mediterranean (9.6). Readings: ruling naval-attack-optional, ruling
naval-move-count, ruling naval-rounds, ruling naval-loss-choice, ruling italian-uboats
(rules/blitzwar/rulings.yaml).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.errors import Issue, did_you_mean
from .context import Ctx, enemies, fmt_supply, marks_reached, nation_side, zone_control
from .diplomacy import italian_area
from .seacontrol import (
    NAVAL,
    gulf_places,
    gulf_refused,
    record_sea_control,
    sea_control_map,
    strait_between,
    strait_open,
)
from .sequence import side_of_phase
from .supply import minor_at_home, sources_at, spend_counter, supply_counter_left

MAX_SEA_MOVE = 4          # 12.1
MOVE_COST = 1             # 7: a supply unit for each naval counter moved
MAX_ROUNDS = 200          # a scripted die that never ends a battle stops here (never in play)


def run_naval(ctx: Ctx, orders: dict) -> None:
    """Phase 4 for ``ctx.side``: the moves, then the battles in the order written, then the sea
    control in force (12.3)."""
    moves = list(orders.get("fleet_moves") or [])
    attacks = list(orders.get("naval_attacks") or [])
    base = tuple(orders.get("_path", ()))
    issues, plans = check_moves(ctx, moves, base + ("fleet_moves",))
    payments, more = plan_payments(ctx, plans, moves, base + ("fleet_moves",))
    issues += more
    orders = {**orders, "_pay": payments}
    where = {cid: p[-1] for cid, p in plans}
    issues += check_attacks(ctx, attacks, base + ("naval_attacks",), where)
    if issues:
        ctx.refuse(issues)
    for cid, path in plans:
        c = ctx.counters[cid]
        src = c["at"]
        ctx.move(cid, path[-1])
        extra: dict[str, Any] = {}
        pay_from = orders.get("_pay", {}).get(cid, "held")
        if pay_from == "held":
            ctx.set_supply(ctx.acting_side, ctx.supply(ctx.acting_side) - MOVE_COST)
        else:
            left, zone = spend_counter(ctx, pay_from, Fraction(MOVE_COST))
            extra = {"source": pay_from, "source_zone": zone, "left": fmt_supply(left)}
        ctx.emit("fleet-move", rule="12.1, 7", side=ctx.side, counter=cid, kind=c["type"], path=[src, *path],
                 zones=len(path), supply=MOVE_COST, held=ctx.state["supply"][ctx.side], **extra)
    for n, sea in enumerate(attacks, start=1):
        battle(ctx, n, sea)
    record_sea_control(ctx)


# ------------------------------------------------------------------------------ checks (before any die)
def _is_naval_of(ctx: Ctx, cid: str, side: str) -> bool:
    c = ctx.counters.get(cid)
    return bool(c and c["type"] in NAVAL and nation_side(ctx.rs, ctx.state, c["nation"]) == side)


def check_moves(ctx: Ctx, moves: list, path: tuple) -> tuple[list[Issue], list[tuple[str, list[str]]]]:
    """12.1 and 7: every fleet move checked; (issues, [(counter, places entered)])."""
    issues: list[Issue] = []
    plans: list[tuple[str, list[str]]] = []
    seen: dict[str, int] = {}
    def mine() -> list[str]:
        """The side's fleets and U-boats on the map (for the words of a refusal only)."""
        return sorted(c for c in ctx.counters if _is_naval_of(ctx, c, ctx.acting_side)
                      and (ctx.counters[c]["at"] in ctx.rs.zones or ctx.counters[c]["at"] in ctx.rs.seas))
    for j, m in enumerate(moves):
        p = path + (j,)
        cid = m.get("counter") if isinstance(m, dict) else None
        if (not isinstance(cid, str) or not _is_naval_of(ctx, cid, ctx.acting_side)
                or not (ctx.counters[cid]["at"] in ctx.rs.zones or ctx.counters[cid]["at"] in ctx.rs.seas)):
            issues.append(Issue("BW-NAVAL-COUNTER", f"{cid!r} is not a fleet or U-boat of the {ctx.side} side on the map"
                                f"{did_you_mean(str(cid), mine())}", path=p + ("counter",), text=str(cid), rule="12.1",
                                hint="your fleets and U-boats: " + (", ".join(mine()) or "none")))
            continue
        if cid in seen:
            issues.append(Issue("BW-NAVAL-TWICE", f"{cid} moves once a naval phase (its move is entry {seen[cid]})",
                                path=p + ("counter",), text=cid, rule="12.1"))
            continue
        seen[cid] = j
        places = [str(x) for x in (m.get("path") or [])]
        bad = _check_path(ctx, cid, places, p + ("path",))
        issues += bad
        if not bad:
            plans.append((cid, places))
    return issues, plans


# ------------------------------------------------------------------------------ the naval units' supply (7)
def supply_ports(ctx: Ctx, cid: str, side: str) -> list[str]:
    """7: 海軍ユニットは、それが補給線の通っている自陣営支配下の港に移動できる場合は、補給下にあると考えます
    ("a naval unit is in supply when it can move to a port its side controls that a supply line
    runs to"): the ports of ``side`` the unit stands in or can end a naval move in (12.1, the
    Persian Gulf's rule of 11.4 included) from which a supply line reaches a source of the side
    or one of its supply counters with supply left (ruling naval-supply-line)."""
    return [p for p, _, _ in _supplied_ports(ctx, cid, side)]


def _supplied_ports(ctx: Ctx, cid: str, side: str) -> list[tuple[str, bool, list[tuple[int, str]]]]:
    """:func:`supply_ports`, each with what :func:`sources` finds from it (read once)."""
    here = ctx.counters[cid]["at"]
    cands = ([here] if here in ctx.rs.zones else []) + [p for p in reachable(ctx, cid, side) if p in ctx.rs.zones]
    ports = [p for p in cands if zone_control(ctx.rs, ctx.state, p) == side]
    out = []
    for p, (src, cs) in zip(ports, sources_at(ctx, side, ports)):       # (the network made current once)
        if src or any(supply_counter_left(ctx.counters[x]) > 0 for _, x in cs):
            out.append((p, src, cs))
    return out


def naval_supply(ctx: Ctx, cid: str, side: str) -> tuple[bool, list[str]]:
    """(a source of the side is on the unit's supply line, the supply counters on it, nearest
    first) (7); a minor country's unit in its own territory is in supply and pays from its
    side's supply held (7: 小国のユニットは、それが自身の領域にいる間は、常に補給下)."""
    if minor_at_home(ctx, cid):
        return True, []
    src = False
    near: dict[str, int] = {}
    for _, s, cs in _supplied_ports(ctx, cid, side):     # (sources() of each port, asked once)
        src = src or s
        for d, x in cs:
            near[x] = min(near.get(x, d), d)
    return src, sorted(near, key=lambda x: (near[x], x))


def plan_payments(ctx: Ctx, plans: list[tuple[str, list[str]]], moves: list, path: tuple) -> tuple[dict[str, str], list[Issue]]:
    """7: each naval counter moved must be in supply and pays 1 supply through its line: from the
    supply held when a source is on it (while the held supply lasts), else from the nearest
    supply counter on it with supply left; every problem at once, before anything is moved."""
    issues: list[Issue] = []
    pay: dict[str, str] = {}
    held = ctx.supply(ctx.acting_side)
    left: dict[str, Fraction] = {}
    entry = {m.get("counter"): j for j, m in enumerate(moves) if isinstance(m, dict)}
    for cid, _ in plans:
        src, cs = naval_supply(ctx, cid, ctx.acting_side)
        p = path + (entry.get(cid, 0), "counter")
        if not src and not cs:
            issues.append(Issue("BW-NAVAL-NO-LINE", f"{cid} at {ctx.counters[cid]['at']} is out of supply: it can reach no port "
                                f"of the {ctx.side} side that a supply line runs to, so it cannot move (7)", path=p, text=cid,
                                rule="7", hint="a naval unit is in supply when it can move to a port its side controls that a "
                                "supply line runs to (a supply source or a supply counter, through controlled zones and "
                                "seas without enemy sea control)"))
            continue
        if src and held >= MOVE_COST:
            held -= MOVE_COST
            pay[cid] = "held"
            continue
        for x in cs:
            left.setdefault(x, supply_counter_left(ctx.counters[x]))
            if left[x] >= MOVE_COST:
                left[x] -= MOVE_COST
                pay[cid] = x
                break
        else:
            issues.append(Issue("BW-NAVAL-SUPPLY", f"{cid}: its move costs {MOVE_COST} supply and its supply line reaches "
                                + (f"only {fmt_supply(ctx.supply(ctx.acting_side))} held by the {ctx.acting_side} side, spent on the moves "
                                   "before it" if src else "no source and no supply counter with enough")
                                + " (7: 1 supply a naval counter)", path=p, text=cid, rule="7, 12.1", hint="move fewer fleets"))
    return pay, issues


def _check_path(ctx: Ctx, cid: str, places: list[str], p: tuple) -> list[Issue]:
    """One path (12.1): each place a sea zone or a port; each step a port to one of its seas, a
    sea to a sea along a sea link (a strait only with its city, 12.1) or a sea to a port the
    side controls on its coast; at most 4 places."""
    rs = ctx.rs
    out: list[Issue] = []
    if not places:
        return [Issue("BW-NAVAL-PATH", f"{cid}: the path is empty", path=p, rule="12.1",
                      hint="list the sea zones entered, e.g. [north-sea, north-atlantic]")]
    if len(places) > MAX_SEA_MOVE:
        out.append(Issue("BW-NAVAL-RANGE", f"{cid}: {len(places)} sea zones and ports entered; a naval move enters at most "
                         f"{MAX_SEA_MOVE}, leaving or entering a port counting one (12.1)", path=p, rule="12.1"))
    here = ctx.counters[cid]["at"]
    italian_uboat = ctx.counters[cid]["nation"] == "ITA" and ctx.counters[cid]["type"] == "uboat"
    for k, x in enumerate(places):
        q = p + (k,)
        if x not in rs.seas and not (x in rs.zones and rs.zones[x].port):
            out.append(Issue("BW-NAVAL-PATH", f"{cid}: {x!r} is neither a sea zone nor a port"
                             f"{did_you_mean(x, [*rs.seas, *(z for z in rs.zones if rs.zones[z].port)])}",
                             path=q, text=x, rule="12.1"))
            return out
        if italian_uboat and not _in_italian_area(ctx, x):
            out.append(Issue("BW-NAVAL-ITALY", f"{cid}: Italian U-boats act only in the Mediterranean and the ports of "
                             f"Italy's area; {x} is outside (9.6: only 2 corps and the fleets may leave it)",
                             path=q, text=x, rule="9.6", hint="Mediterranean sea zones: " + ", ".join(mediterranean(rs))))
            return out
        gulf = gulf_refused(rs, here, x)
        if gulf:
            out.append(Issue("BW-NAVAL-GULF", f"{cid}: {here} to {x}: {gulf}", path=q, text=x, rule="11.4, 12.1",
                             hint="the Persian Gulf's places: " + ", ".join(sorted(gulf_places(rs)))))
            return out
        why = _step_refused(ctx, here, x)
        if why:
            out.append(Issue("BW-NAVAL-PATH", f"{cid}: {here} to {x}: {why}", path=q, text=x, rule="12.1",
                             hint=_hint(ctx, here)))
            return out
        here = x
    return out


def mediterranean(rs: Any) -> list[str]:
    """9.6's Mediterranean sea areas (地中海の海エリア): the sea zones joined to the coasts of Italy
    (area italy-home) without passing a strait (ruling italian-uboats)."""
    start = {s for z in rs.areas.get("italy-home", ()) for s in rs.zones[z].coasts if s in rs.seas}
    seen, todo = set(start), list(start)
    while todo:
        a = todo.pop()
        for b in rs.sea_neighbours(a):
            if b not in seen and not strait_between(rs, a, b):
                seen.add(b)
                todo.append(b)
    return sorted(seen)


def _in_italian_area(ctx: Ctx, place: str) -> bool:
    """9.6: イタリア・ユニットは、イタリア、アルバニア、ギリシャ、ユーゴスラビア、トルコ、アフリカ、英領アジアと
    地中海の海エリアでしか行動できません。陸軍2個軍団と艦隊だけが、この領域の外側で行動できます."""
    if place in ctx.rs.seas:
        return place in mediterranean(ctx.rs)
    return italian_area(ctx, place)


def _step_refused(ctx: Ctx, a: str, b: str) -> str | None:
    rs = ctx.rs
    if a in rs.zones:
        if b in rs.zones:
            return "a fleet leaves a port for one of its sea zones, never straight to another port"
        return None if b in rs.zones[a].coasts else f"{rs.zones[a].name} has no coast on {rs.seas[b].name}"
    if b in rs.seas:
        if b not in rs.sea_neighbours(a):
            return f"{rs.seas[a].name} does not touch {rs.seas[b].name}"
        strait = strait_between(rs, a, b)
        if strait and not strait_open(ctx, ctx.acting_side, strait):
            st = rs.straits[strait]
            return (f"the strait {st.name} is closed to the {ctx.side} side: it does not control "
                    f"{rs.zones[st.city].name} (12.1)")
        return None
    z = rs.zones[b]
    if a not in z.coasts:
        return f"{z.name} is not on the coast of {rs.seas[a].name}"
    if zone_control(rs, ctx.state, b) != ctx.side:
        return f"{z.name} is not a port the {ctx.side} side controls"
    return None


def _hint(ctx: Ctx, here: str) -> str:
    rs = ctx.rs
    if here in rs.zones:
        return "from " + rs.zones[here].name + ": " + ", ".join(s for s in rs.zones[here].coasts if s in rs.seas)
    # the seas it may enter: not through a strait closed to the side (issue 33: the hint listed
    # the sea the refusal had just called closed)
    nxt = [s for s in rs.sea_neighbours(here) if not _step_refused(ctx, here, s)] + [
        p for p in rs.ports_on_sea(here) if zone_control(rs, ctx.state, p) == ctx.side]
    return f"from {rs.seas[here].name}: " + ", ".join(nxt)


def reachable(ctx: Ctx, cid: str, side: str) -> list[str]:
    """The sea zones and ports ``cid`` can end its move in (12.1), for the order template."""
    start = ctx.counters[cid]["at"]
    seen = {start: 0}
    frontier = [start]
    # 9.6: an Italian U-boat enters no place outside Italy's area (as _check_path refuses)
    italian_uboat = ctx.counters[cid]["nation"] == "ITA" and ctx.counters[cid]["type"] == "uboat"
    saved = ctx.side
    ctx.side = side
    try:
        for d in range(1, MAX_SEA_MOVE + 1):
            nxt = []
            for a in frontier:
                cand = (list(ctx.rs.zones[a].coasts) if a in ctx.rs.zones else
                        list(ctx.rs.sea_neighbours(a)) + list(ctx.rs.ports_on_sea(a)))
                for b in cand:
                    if (b not in seen and (b in ctx.rs.seas or b in ctx.rs.zones) and not gulf_refused(ctx.rs, a, b)
                            and not _step_refused(ctx, a, b) and not (italian_uboat and not _in_italian_area(ctx, b))):
                        seen[b] = d
                        nxt.append(b)
            frontier = nxt
    finally:
        ctx.side = saved
    return [x for x in seen if x != start]


def check_attacks(ctx: Ctx, attacks: list, path: tuple, where: dict[str, str]) -> list[Issue]:
    """12.2: a battle where the phasing side's naval units and enemy naval units are both at
    the sea zone once the moves are made (the moves roll no die: checked now)."""
    out: list[Issue] = []
    if not attacks:
        return out
    at = {cid: where.get(cid, c["at"]) for cid, c in ctx.counters.items()}
    done: set[str] = set()
    for j, sea in enumerate(attacks):
        p = path + (j,)
        if sea not in ctx.rs.seas:
            out.append(Issue("BW-NAVAL-SEA", f"no sea zone {sea!r}{did_you_mean(str(sea), list(ctx.rs.seas))}", path=p,
                             text=str(sea), rule="12.2"))
            continue
        if sea in done:
            out.append(Issue("BW-NAVAL-ATTACK", f"one battle a sea zone: {sea} is listed twice", path=p, text=sea, rule="12.2"))
            continue
        done.add(sea)
        att = [c for c in ctx.counters if at[c] == sea and _is_naval_of(ctx, c, ctx.acting_side)]
        dfd = [c for c in ctx.counters if at[c] == sea and ctx.counters[c]["type"] in NAVAL
               and enemies(ctx.acting_side, nation_side(ctx.rs, ctx.state, ctx.counters[c]["nation"]))]
        if not att or not dfd:
            what = "no naval unit of yours" if not att else "no enemy fleet or U-boat"
            out.append(Issue("BW-NAVAL-ATTACK", f"no battle at {ctx.rs.seas[sea].name}: {what} there after the moves (12.2)",
                             path=p, text=sea, rule="12.2",
                             hint="a battle needs your fleets or U-boats and enemy ones in the same sea zone"))
    return out


# ------------------------------------------------------------------------------ naval combat (12.2)
def naval_units(ctx: Ctx, sea: str, sides: set[str]) -> list[str]:
    return sorted(c for c, v in ctx.counters.items() if v["at"] == sea and v["type"] in NAVAL
                  and nation_side(ctx.rs, ctx.state, v["nation"]) in sides)


def _units(ctx: Ctx, cids: list[str]) -> int:
    return sum(int(ctx.counters[c]["units"]) for c in cids)


def _changed(ctx: Ctx) -> bool:
    """12.2: the naval change of summer 1943 (the calendar's mark) reached."""
    return ctx.rs.naval_change_mark in marks_reached(ctx.rs, ctx.state, ctx.turn)


def round_losses(ctx: Ctx, roll: int, attacker: str) -> tuple[int, int]:
    """(attacker's losses, defender's losses) for one die (12.2; from summer 1943 the changed
    table, whose columns are the Axis and the Allies)."""
    if _changed(ctx):
        r = ctx.rs.naval_after[roll - 1]
        a = "axis" if attacker == "axis" else "allies"
        d = "allies" if attacker == "axis" else "axis"
        return int(r[a]), int(r[d])
    r = ctx.rs.naval_before[roll - 1]
    return int(r["attacker"]), int(r["defender"])


def battle(ctx: Ctx, n: int, sea: str) -> None:
    """One naval battle (12.2): rounds of one die until a die equals or exceeds the number of
    defenders (units, counted before the round's losses) or one side has none left."""
    side = ctx.acting_side
    enemy_sides = {s for s in ("axis", "allies", "ussr") if enemies(side, s)}
    att = naval_units(ctx, sea, {side})
    dfd = naval_units(ctx, sea, enemy_sides)
    ev: dict[str, Any] = {"battle": n, "sea": sea, "side": side, "attackers": att, "defenders": dfd,
                          "table": "after" if _changed(ctx) else "before", "rounds": []}
    k = 0
    while att and dfd and k < MAX_ROUNDS:
        k += 1
        n_def = _units(ctx, dfd)
        roll = ctx.dice.roll(f"naval/{n}/{sea}/r{k}", 6)
        a_loss, d_loss = round_losses(ctx, roll, side)
        rd: dict[str, Any] = {"round": k, "roll": {"label": ctx.dice.prefix + f"naval/{n}/{sea}/r{k}", "value": roll},
                              "defenders": n_def, "attacker_loses": a_loss, "defender_loses": d_loss, "losses": []}
        for who, cids, loss, defending in ((side, att, a_loss, False), (None, dfd, d_loss, True)):
            for i in range(loss):
                live = [c for c in cids if ctx.counters[c]["at"] == sea]
                if not live:
                    break
                owner = who or _side_of(ctx, live)
                rd["losses"].append(lose_one(ctx, n, sea, k, i, owner, live, defending))
        att = [c for c in att if ctx.counters[c]["at"] == sea]
        dfd = [c for c in dfd if ctx.counters[c]["at"] == sea]
        rd["ends"] = roll >= n_def or not att or not dfd
        ev["rounds"].append(rd)
        if roll >= n_def:
            break
    ev["attackers_left"], ev["defenders_left"] = att, dfd
    ctx.emit("naval-battle", rule="12.2", **ev)


def _side_of(ctx: Ctx, cids: list[str]) -> str:
    sides = sorted({nation_side(ctx.rs, ctx.state, ctx.counters[c]["nation"]) for c in cids})
    return "allies" if "allies" in sides else sides[0]


def loss_options(ctx: Ctx, cids: list[str], side: str, defending: bool) -> list[str]:
    """The counters that may take one loss: one of each kind (nation, type, units: losing one or
    the other of two alike is the same), the Axis defending its fleets before any U-boat
    (12.2: 枢軸側は防御の場合のみ、まず全ての艦隊が除去されてから、Uボートに損害を適応する)."""
    pool = [c for c in cids if nation_side(ctx.rs, ctx.state, ctx.counters[c]["nation"]) == side]
    if defending and side == "axis" and any(ctx.counters[c]["type"] == "fleet" for c in pool):
        pool = [c for c in pool if ctx.counters[c]["type"] == "fleet"]
    seen: dict[tuple, str] = {}
    for c in sorted(pool):
        v = ctx.counters[c]
        seen.setdefault((v["nation"], v["type"], int(v["units"])), c)
    return sorted(seen.values())


def _default_loss(ctx: Ctx, options: list[str]) -> str:
    """The default (standing order auto, missing orders): a U-boat before a fleet, the smallest
    counter first, then by id."""
    return min(options, key=lambda c: (ctx.counters[c]["type"] != "uboat", int(ctx.counters[c]["units"]), c))


def lose_one(ctx: Ctx, n: int, sea: str, k: int, i: int, side: str, live: list[str], defending: bool) -> dict:
    """One unit lost by ``side`` (12.2), chosen by its owner."""
    options = loss_options(ctx, live, side, defending) or sorted(live)
    choice, how = ctx.decide(
        id=f"t{ctx.turn:02d}.{ctx.phase}.n{n}.r{k}.{side}.loss{i + 1}", side=side, kind="naval-losses", options=options,
        auto=lambda: _default_loss(ctx, options), standing_key="naval_losses",
        prompt=f"{side}: choose the fleet or U-boat that loses one unit in the naval battle at "
               f"{ctx.rs.seas[sea].name} (battle {n}, round {k})",
        context={"sea": sea, "round": k, "counters": {c: _what(ctx.counters[c]) for c in options}}, rule="12.2")
    c = ctx.counters[choice]
    before = _what(c)
    c["units"] = int(c["units"]) - 1
    out = {"side": side, "counter": choice, "before": before, "chosen_by": how}
    if c["units"] <= 0:
        ctx.move(choice, "pool")
        c["units"] = int(ctx.rs.counters[c["nation"]][c["kind"]].units)
        out["effect"] = "eliminated"
    else:
        out["effect"] = "reduced"
        out["after"] = _what(c)
    return out


def _what(c: dict) -> str:
    return f"{c['nation']} {'U-boat' if c['type'] == 'uboat' else 'fleet'} {c['units']}"


# ------------------------------------------------------------------------------ what the players see
def template_lines(w: Any, state: dict, ph: str) -> list[str]:
    """The naval phase's entry of the order template (12): the order forms, the side's fleets and
    U-boats with where each may end its move, the battles it may choose, the sea control in force."""
    side = side_of_phase(ph) or ""
    ctx = Ctx(rs=w, state=state, turn=state["turn"], phase=ph, side=side)
    L = [f"    # supply held by the {side} side: {state['supply'].get(side, '0')}; 1 a fleet or U-boat counter moved (7)",
         "    # fleet_moves: [{counter: ID, path: [SEA-OR-PORT, ...]}]   # 12.1 up to 4; leaving or entering a port counts one;",
         "    #   straits (Gibraltar, Bosporus, Copenhagen) only with their city controlled",
         "    # naval_attacks: [SEA, ...]        # 12.2 battles, after the moves, in this order (rounds until a die >= defenders)"]
    mine = sorted(c for c, v in state["counters"].items() if v["type"] in NAVAL and (v["at"] in w.zones or v["at"] in w.seas)
                  and nation_side(w, state, v["nation"]) == side)
    if mine:
        L.append("    # your fleets and U-boats (id nation type units @ where: where the move may end):")
    for c in mine:
        v = state["counters"][c]
        L.append(f"    #   {c} {v['nation']} {v['type']} {v['units']} @ {v['at']}: {', '.join(reachable(ctx, c, side)) or 'nowhere'}"
                 + (" (never leaves the Persian Gulf, 11.4)" if v["at"] in gulf_places(w) else "")
                 + ("" if any(naval_supply(ctx, c, side)) else " (out of supply: no port of yours with a supply line in "
                    "reach, it cannot move, 7)"))
    enemy = sorted({v["at"] for v in state["counters"].values() if v["type"] in NAVAL and v["at"] in w.seas
                    and enemies(side, nation_side(w, state, v["nation"]))})
    if enemy:
        L.append(f"    # enemy fleets or U-boats at sea: {', '.join(enemy)}")
    sc = sea_control_map(state)
    L.append("    # sea control in force (12.3): " + (", ".join(f"{k} {v}" for k, v in sorted(sc.items())) or "none"))
    L.append("    fleet_moves: []")
    return L
