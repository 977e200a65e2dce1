"""The sea transport phase (14): port to port (14.1.1), landings on beachheads (14.1.2) and the
way back, the units a beachhead no longer holds, reorganisation (14.2: pbem/blitzwar/movement.py).
Orders::

    - phase: allies.6.sea-transport
      back: [{counter: uk-i1-1, to: aberdeen}]          # 14.1.2: from a beachhead to a port of its sea
      transport: [{counter: uk-i2-1, to: gibraltar}]    # 14.1.1: port to controlled port
      land: [{counter: us-c2-1, beachhead: trondheim}]  # 14.1.2: onto this turn's beachhead
      reorganise: [...]                                 # 14.2, 11.10 (after the transports)

Each entry may name ``pay`` (``held`` or a supply counter id, 7) and a landing its ``sea``
(when the beachhead zone is one the side's air superiority serves on more than one sea).

Cost (7, 海上輸送): 1 supply a corps or a supply counter, 1/2 an air counter; twice that from
America or across two sea zones or more, and to or from Suez and the Asia base (14.1.1: 2海域
ゾーン以上の海輸となり). Paid from the supply the departure port's line reaches (the arrival
port's for the way back), each payment a ``supply`` event saying why. Sea control does not stop
a transport (12.3: 制海権は、その海ゾーンを通る敵の海輸を妨げません); a strait does, unless its
city is held (12.1; :func:`pbem.blitzwar.seacontrol.strait_open`). The phase rolls no die: every
order is checked before anything happens, and all problems are said at once.

A counter shipped port to port carries ``shipped`` (no further move or activation this turn,
14.1.1); one landed stands ``at`` the sea zone with ``beachhead: <land zone>`` and ``active``
(14.1.2, 15.3: already activated), and the combat phases (pbem/blitzwar/combat.py) let it
attack that zone and advance into it (16.4, 17.3, clarification 9). At the side's next sea
transport phase a counter still on a beachhead stays if a beachhead of its side serves that
zone again on its sea, else it is lost (``beachhead-lost``); ``back`` first takes it home.

Rulings (rules/blitzwar/rulings.yaml, ids ``transport-...``): the long haul, the off-map way to
Suez and the Asia base, the blue dashed line of 3 corps, the fleets for America, Stockholm,
air superiority as a beachhead, and the units that stay counted against the beachhead.
"""
from __future__ import annotations

from collections import deque
from fractions import Fraction

from ..core.errors import Issue
from . import air, diplomacy, seacontrol
from .combat_common import air_superiority, air_superiority_map
from .context import LAND, Ctx, enemies, n_corps
from .land import control, counter_guess_of, note_german_in_finland, side_of, stacking_issues
from .movement import _collect
from .names import unknown_zone
from .partisans import MONTENEGRO, montenegro_barred
from .sequence import side_of_phase
from .supply import pay

STOCKHOLM = "stockholm"
CARRIED = LAND + ("supply", "air")          # 7: what sea transport carries (fleets sail, 12.1)
WINTER_SEAS = "the Mediterranean and the Persian Gulf"


def transport_cost(c: dict, long: bool) -> Fraction:
    """7 (海上輸送): 1 a corps or a supply counter, 1/2 an air counter; twice that for a long haul."""
    base = Fraction(n_corps(c)) if c["type"] in LAND else Fraction(1) if c["type"] == "supply" else Fraction(1, 2)
    return base * 2 if long else base


def _is_far(ctx: Ctx, zone: str) -> bool:
    return bool(ctx.rs.zones[zone].far_port)


def sea_route(ctx: Ctx, side: str, frm: str, to: str) -> tuple[int | None, list[str]]:
    """(sea zones crossed from ``frm`` to ``to``, closed straits in the way): the fewest sea zones
    from a coast of the one to a coast of the other (1 when they share a sea); None when no route
    is open, with the straits that close the shortest one (12.1). Suez and the Asia base are
    reached the long way round when the map's seas do not join them (7: no supply line between
    them and the other ports; ruling transport-far-ports): 2 sea zones."""
    a, b = ctx.rs.zones[frm].coasts, ctx.rs.zones[to].coasts
    n_open = _fewest(ctx, a, b, lambda s: seacontrol.strait_open(ctx, side, s))
    if n_open is not None:
        return n_open, []
    n_any = _fewest(ctx, a, b, lambda s: True)
    if n_any is None:
        return (2, []) if (_is_far(ctx, frm) or _is_far(ctx, to)) else (None, [])
    closed = sorted({st for x, y, st in ctx.rs.sea_links if st and not seacontrol.strait_open(ctx, side, st)})
    return None, closed


def _fewest(ctx: Ctx, starts, goals, passable) -> int | None:
    goals = set(goals)
    seen = {s: 1 for s in starts}
    todo = deque(starts)
    while todo:
        s = todo.popleft()
        if s in goals:
            return seen[s]
        for x, y, st in ctx.rs.sea_links:
            if s not in (x, y) or (st and not passable(st)):
                continue
            n = y if s == x else x
            if n not in seen:
                seen[n] = seen[s] + 1
                todo.append(n)
    return None


def _long(ctx: Ctx, frm: str, to: str | None, n: int) -> str | None:
    """Why a haul costs double (7, 14.1.1), or None."""
    if frm == "america":
        return "from America"
    for z in (frm, to):
        if z and _is_far(ctx, z) and z != "america":
            return f"to or from {ctx.rs.zones[z].name}"
    if n >= 2:
        return f"across {n} sea zones"
    return None


# ------------------------------------------------------------------------------ the phase
def run_sea_transport(ctx: Ctx, orders: dict) -> None:
    """14: back to port, the beachheads kept or lost, port to port, landings; all refusals at once."""
    p = orders.get("_path", ("phases",))
    errs: list[Issue] = []
    arrivals: dict[str, list[tuple[str, tuple]]] = {}
    going_back = set()
    for i, m in enumerate(orders.get("back") or []):
        q = _at(m, p + ("back", i))
        with _collect(errs):
            cid = _back(ctx, m, q)
            going_back.add(cid)
            arrivals.setdefault(ctx.counters[cid]["at"], []).append((cid, q))
    _beachheads_kept(ctx, going_back)
    air_shipped: set[str] = set()       # 14.1.1: an air counter too is shipped once (ruling transport-air-once)
    for i, m in enumerate(orders.get("transport") or []):
        q = _at(m, p + ("transport", i))
        with _collect(errs):
            cid = _port_to_port(ctx, m, q, air_shipped)
            arrivals.setdefault(ctx.counters[cid]["at"], []).append((cid, q))
    landed: dict[str, list[tuple[str, tuple, str]]] = {}
    for i, m in enumerate(orders.get("land") or []):
        q = _at(m, p + ("land", i))
        with _collect(errs):
            _land(ctx, m, q, landed)
    errs += _capacity_issues(ctx, landed)
    for z, came in sorted(arrivals.items()):
        for x in stacking_issues(ctx, {z}):
            errs.append(Issue(x.code, f"{x.message}: shipped in by {', '.join(c for c, _ in came)}", path=came[-1][1],
                              rule=x.rule, hint="ship fewer counters there (4)"))
    if errs:
        ctx.refuse(errs)
    _britain_landing(ctx, landed)
    note_german_in_finland(ctx)     # 10.2: shipped into Finland is moved into it


def _britain_landing(ctx: Ctx, landed: dict) -> None:
    """9.3 c: 枢軸軍が、英国に揚陸を行った場合 the US entry comes a turn earlier: the first Axis
    landing in Britain (``flags.britain_landed``: its turn), while the USA is not yet at war
    (ruling us-entry-britain-landing)."""
    britain = set(ctx.rs.areas.get("britain", ()))
    if ctx.side != "axis" or not britain & set(landed):
        return
    f = ctx.state.setdefault("flags", {})
    if f.get("britain_landed") or f.get("us_at_war") is not None or "us-entry" in (ctx.state.get("marks") or []):
        return
    f["britain_landed"] = ctx.turn
    f["us_entry_earlier"] = int(f.get("us_entry_earlier", 0)) + 1
    ctx.emit("us-entry-earlier", rule="9.3", why="the Axis landed in Britain", earlier=f["us_entry_earlier"])


def _at(entry, where: tuple) -> tuple:
    return tuple(entry["_path"]) if isinstance(entry, dict) and entry.get("_path") else where


def _own(ctx: Ctx, m, q: tuple, what: str) -> tuple[str, dict]:
    cid = m.get("counter") if isinstance(m, dict) else None
    if cid not in ctx.counters:
        ctx.refuse([Issue("BW-COUNTER", f"{what}: no counter {cid!r}{counter_guess_of(ctx, cid)}", path=q,
                          text=str(cid), hint="pbem show and the order template list your counters", rule="14")])
    c = ctx.counters[cid]
    if side_of(ctx, cid) != ctx.side:
        ctx.refuse([Issue("BW-NOT-YOURS", f"{what}: {cid} is not a counter of the {ctx.side} side", path=q, text=str(cid),
                          rule="14")])
    if c["type"] not in CARRIED:
        ctx.refuse([Issue("BW-TRANSPORT-TYPE", f"{what}: {cid} is a {c['type']}; sea transport carries land units, "
                          "supply and air units (7; fleets and U-boats sail in the naval phase, 12.1)", path=q, rule="7")])
    return cid, c


def _zone_arg(ctx: Ctx, z, q: tuple, near: list[str]) -> str:
    if not isinstance(z, str) or z not in ctx.rs.zones:
        ctx.refuse([Issue("BW-ZONE", unknown_zone(ctx.rs, z, near), path=q, text=str(z), rule="14")])
    return z


def _ports_open_to(ctx: Ctx, frm: str) -> list[str]:
    side = ctx.side or ""
    if montenegro_barred(ctx, side, frm):
        return []
    return [z for z, v in ctx.rs.zones.items() if v.port and z != frm and control(ctx, z) == side
            and not montenegro_barred(ctx, side, z) and sea_route(ctx, side, frm, z)[0] is not None]


def _montenegro(ctx: Ctx, cid: str, zone: str, q: tuple) -> None:
    """9.5: Montenegro serves no sea transport of the partisans' side until they control another
    zone of Yugoslavia (ruling partisans-montenegro)."""
    why = montenegro_barred(ctx, ctx.side or "", zone)
    if why:
        ctx.refuse([Issue("BW-PARTISANS-MONTENEGRO", f"{cid}: {why}", path=q, text=zone, rule="9.5",
                          hint="take another zone of Yugoslavia with the partisans first")])


def _pay(ctx: Ctx, cid: str, c: dict, frm: str, to: str, n: int, m, q: tuple, what: str) -> None:
    why = _long(ctx, frm, to, n)
    cost = transport_cost(c, bool(why))
    unit = (f"{n_corps(c)} corps" if c["type"] in LAND else "a supply counter" if c["type"] == "supply"
            else "an air counter")
    action = (f"sea transport {ctx.rs.zones[frm].name} - {ctx.rs.zones[to].name}, {what} (7: {unit}"
              + (f", doubled {why}" if why else "") + ")")
    pay(ctx, cid, cost, action, m.get("pay") if isinstance(m, dict) else None, path=q)


def _port_to_port(ctx: Ctx, m, q: tuple, air_shipped: set[str] | None = None) -> str:
    """14.1.1: a unit in a port to another controlled port, then no move nor activation this turn.
    An air counter is shipped once a phase, and not when its side's air phase ordered it a
    strategic move (13.5, clar. 7: carried out at the end of the turn from where it was ordered;
    ruling transport-air-once)."""
    cid, c = _own(ctx, m, q, "transport")
    if c["type"] == "air":
        rebase = {str(x.get("counter")) for x in (ctx.state.get("sea_air") or {}).get("rebase") or []}
        if cid in (air_shipped or set()):
            ctx.refuse([Issue("BW-TRANSPORT-TWICE", f"{cid} is shipped twice this phase (14.1.1)", path=q, text=cid, rule="14.1.1")])
        if cid in rebase:
            ctx.refuse([Issue("BW-TRANSPORT-TWICE", f"{cid} has a strategic air move ordered this turn (13.5, carried out at the "
                              "end of the turn): it is not shipped too", path=q, text=cid, rule="14.1.1, 13.5",
                              hint="leave the strategic move out of the air phase to ship it")])
        if air_shipped is not None:
            air_shipped.add(cid)
    frm = c["at"]
    if frm not in ctx.rs.zones or not ctx.rs.zones[frm].port:
        ctx.refuse([Issue("BW-TRANSPORT-PORT", f"{cid} in {frm} is not in a port (14.1.1)", path=q, text=cid, rule="14.1.1",
                          hint="a unit on a beachhead goes back with `back:` (14.1.2)")])
    _not_done(ctx, cid, c, q)
    to = _zone_arg(ctx, m.get("to"), q + ("to",), _ports_open_to(ctx, frm))
    z = ctx.rs.zones[to]
    if not z.port or to == frm or control(ctx, to) != ctx.side:
        why = ("is where it stands" if to == frm else "is not a port" if not z.port else
               f"is held by the {control(ctx, to)}, not the {ctx.side}")
        ctx.refuse([Issue("BW-TRANSPORT-PORT", f"{cid}: {z.name} {why} (14.1.1: to another controlled port)", path=q + ("to",),
                          text=str(to), rule="14.1.1", hint="ports open to it: " + (", ".join(_ports_open_to(ctx, frm)) or "none"))])
    _montenegro(ctx, cid, frm, q)
    _montenegro(ctx, cid, to, q + ("to",))
    if frm == STOCKHOLM and control(ctx, "copenhagen") != ctx.side:
        # 14.1.2: ストックホルムからの海輸には、コペンハーゲンを支配していなければなりません: every sea
        # transport from Stockholm, port to port too (ruling transport-stockholm)
        ctx.refuse([Issue("BW-STRAIT", f"{cid}: a sea transport from Stockholm needs Copenhagen held (14.1.2)", path=q,
                          text=cid, rule="14.1.2")])
    n, closed = sea_route(ctx, ctx.side or "", frm, to)
    if n is None:
        ctx.refuse([_no_route(ctx, cid, frm, to, closed, q + ("to",))])
    barred = diplomacy.end_issue(ctx, cid, to)
    if barred:
        ctx.refuse([Issue("BW-LIMIT", f"{cid}: not to {z.name}: {barred}", path=q + ("to",), text=str(to), rule="9.6")])
    _pay(ctx, cid, c, frm, to, int(n or 0), m, q, "port to port (14.1.1)")
    ctx.move(cid, to)
    if c["type"] != "air":
        c["shipped"] = True       # cleared at the end of the side's turn (phases.advance)
    c.pop("active", None)
    ctx.emit("sea-transport", rule="14.1.1", counter=cid, path=[frm, to], seas=n, kind="port")
    return cid


def _no_route(ctx: Ctx, cid: str, frm: str, to: str, closed: list[str], q: tuple) -> Issue:
    if closed:
        names = ", ".join(f"{ctx.rs.straits[s].name} (needs {ctx.rs.zones[ctx.rs.straits[s].city].name})" for s in closed)
        return Issue("BW-STRAIT", f"{cid}: no sea route from {frm} to {to}: closed to the {ctx.side}: {names} (12.1)", path=q,
                     text=str(to), rule="12.1")
    return Issue("BW-TRANSPORT-ROUTE", f"{cid}: no sea joins {frm} and {to} (5, 14.1)", path=q, text=str(to), rule="14.1")


def _not_done(ctx: Ctx, cid: str, c: dict, q: tuple) -> None:
    if c.get("shipped") or c.get("beachhead"):
        ctx.refuse([Issue("BW-TRANSPORT-TWICE", f"{cid} was shipped this turn already (14.1.1)", path=q, rule="14.1.1")])
    if c.get("entrenched"):
        ctx.refuse([Issue("BW-ENTRENCHED", f"{cid} is entrenched and does not move (15.1); revert it first", path=q,
                          rule="15.1")])
    if c["type"] == "air" and c.get("flying"):
        ctx.refuse([Issue("BW-TRANSPORT-TYPE", f"{cid} flew a mission this turn (13.4)", path=q, rule="13.4")])


# ------------------------------------------------------------------------------ beachheads (14.1.2)
def beachhead_seas(ctx: Ctx, side: str, zone: str, heads: dict[str, dict] | None = None,
                   sup: dict[str, str] | None = None) -> dict[str, int]:
    """The beachheads of ``side`` serving ``zone``: sea -> how many (13.4.5): the air units set
    as beachheads there, and air superiority over the zone acting as one more on each beach of
    the zone whose sea the enemy does not control (13.4.5: その陸ゾーンに制空権を有する場合、それもまた
    橋頭堡として働きます; 13.4.5: no beachhead where the enemy controls the sea, 12.3).
    ``heads`` (air.beachheads) and ``sup`` (air_superiority_map): worked out once by a caller
    that asks of every zone."""
    out: dict[str, int] = {}
    b = (air.beachheads(ctx) if heads is None else heads).get(zone)
    if b and b.get("side") == side and b.get("sea") and b.get("by") != "air-superiority":
        out.update(air.head_seas(b))       # air.py: the air units set as beachheads there, by sea
    z = ctx.rs.zones.get(zone)
    if z and not z.naval_base and z.beaches and (air_superiority(ctx, zone) if sup is None else sup.get(zone)) == side:
        for s in z.beaches:
            sc = seacontrol.sea_control(ctx, s)
            if not (sc and enemies(side, sc)):
                out[s] = out.get(s, 0) + 1
    return {s: n for s, n in out.items() if n}


def _beachheads_kept(ctx: Ctx, going_back: set[str]) -> None:
    """14.1.2: a unit still on a beachhead stays while a beachhead serves its zone on its sea this
    turn (activated again, 15.3), else it is lost."""
    for cid in sorted(ctx.counters):
        c = ctx.counters[cid]
        if (c["type"] not in LAND or not c.get("beachhead") or c["at"] in ctx.rs.zones or cid in going_back
                or side_of(ctx, cid) != ctx.side):
            continue        # air units set as beachheads carry ``beachhead`` too: they are air.py's
        if beachhead_seas(ctx, ctx.side or "", c["beachhead"]).get(c["at"]):
            c["active"] = True
            ctx.emit("beachhead-kept", rule="14.1.2", counter=cid, zone=c["beachhead"], sea=c["at"])
            continue
        zone, sea = c["beachhead"], c["at"]
        for f in ("beachhead", "active", "shipped"):
            c.pop(f, None)
        ctx.move(cid, "pool")
        ctx.emit("beachhead-lost", rule="14.1.2", counter=cid, zone=zone, sea=sea,
                 why="no beachhead serves the zone this turn")


def _back(ctx: Ctx, m, q: tuple) -> str:
    """14.1.2: from a beachhead to a controlled port of the same sea zone, at any time."""
    cid, c = _own(ctx, m, q, "back")
    sea = c["at"]
    if c["type"] not in LAND or not c.get("beachhead") or sea in ctx.rs.zones:
        ctx.refuse([Issue("BW-TRANSPORT-BACK", f"{cid} is not on a beachhead (14.1.2)", path=q, text=str(cid), rule="14.1.2")])
    ports = [z for z in ctx.rs.ports_on_sea(sea) if control(ctx, z) == ctx.side and not montenegro_barred(ctx, ctx.side or "", z)]
    to = _zone_arg(ctx, m.get("to"), q + ("to",), ports)
    _montenegro(ctx, cid, to, q + ("to",))
    if to not in ports:
        ctx.refuse([Issue("BW-TRANSPORT-BACK", f"{cid}: {to} is not a port of the {ctx.side} on the {ctx.rs.seas[sea].name} "
                          "(14.1.2: back to a controlled port of the same sea zone)", path=q + ("to",), text=str(to),
                          rule="14.1.2", hint="ports: " + (", ".join(ports) or "none"))])
    zone = c["beachhead"]
    ctx.move(cid, to)           # paid from the port it reaches (ruling transport-back-pays)
    for f in ("beachhead", "active"):
        c.pop(f, None)
    c["shipped"] = True
    _pay(ctx, cid, c, zone, to, 1, m, q, "back from the beachhead (14.1.2)")
    ctx.emit("sea-transport", rule="14.1.2", counter=cid, path=[zone, to], seas=1, kind="back", sea=sea)
    return cid


def _land(ctx: Ctx, m, q: tuple, landed: dict) -> None:
    """14.1.2: a unit in a port onto a beachhead of its side on the port's sea (America: any
    sea it reaches, the Western Mediterranean too, with a fleet a corps there)."""
    cid, c = _own(ctx, m, q, "land")
    side = ctx.side or ""
    frm = c["at"]
    if frm not in ctx.rs.zones or not ctx.rs.zones[frm].port:
        ctx.refuse([Issue("BW-TRANSPORT-PORT", f"{cid} in {frm} is not in a port (14.1.2)", path=q, text=cid, rule="14.1.2")])
    _not_done(ctx, cid, c, q)
    if c["type"] not in LAND:
        ctx.refuse([Issue("BW-LANDING", f"{cid}: only infantry and armour land on a beachhead (14.1.2)", path=q, rule="14.1.2")])
    _montenegro(ctx, cid, frm, q)
    heads, sup = air.beachheads(ctx), air_superiority_map(ctx)
    served = sorted(z for z in ctx.rs.zones if beachhead_seas(ctx, side, z, heads, sup))
    zone = _zone_arg(ctx, m.get("beachhead"), q + ("beachhead",), served)
    seas = beachhead_seas(ctx, side, zone)
    if not seas:
        ctx.refuse([Issue("BW-BEACHHEAD", f"{cid}: no beachhead of the {side} serves {ctx.rs.zones[zone].name} this turn (13.4.5)",
                          path=q + ("beachhead",), text=str(zone), rule="13.4.5",
                          hint="beachheads: " + (", ".join(served) or "none (set them up in the air phase, 13.4.5)"))])
    sea = m.get("sea") or (sorted(seas)[0] if len(seas) == 1 else None)
    if sea not in seas:
        ctx.refuse([Issue("BW-BEACHHEAD", f"{cid}: name the sea of the beachhead at {zone}: one of {', '.join(sorted(seas))}",
                          path=q, rule="14.1.2")])
    problems = _landing_problems(ctx, cid, c, frm, zone, sea)
    if problems:
        ctx.refuse([Issue("BW-LANDING", f"{cid}: cannot land at {ctx.rs.zones[zone].name} from {ctx.rs.zones[frm].name}: {w}",
                          path=q, text=str(zone), rule=r) for w, r in problems])
    n = 1
    _pay(ctx, cid, c, frm, zone, n, m, q, f"landing on the beachhead at {ctx.rs.zones[zone].name} (14.1.2)")
    ctx.move(cid, sea)
    c["beachhead"] = zone
    c["active"] = True            # 14.1.2, 15.3: units on a beachhead are activated
    landed.setdefault(zone, []).append((cid, q, frm))
    ctx.emit("landing", rule="14.1.2", counter=cid, path=[frm, zone], sea=sea, corps=n_corps(c))


def _landing_problems(ctx: Ctx, cid: str, c: dict, frm: str, zone: str, sea: str) -> list[tuple[str, str]]:
    """Every condition of 14.1.2 the landing fails, with its rule."""
    side = ctx.side or ""
    out: list[tuple[str, str]] = []
    if ctx.rs.weather(ctx.turn, sea) == "snow":
        out.append((f"snow on the {ctx.rs.seas[sea].name}: in winter landings only in {WINTER_SEAS}", "14.1.2, 6"))
    z = ctx.rs.zones[zone]
    if sea not in z.beaches:
        out.append((f"{z.name} has no beach on the {ctx.rs.seas[sea].name}", "5"))
    if frm == "america":
        if sea not in ctx.rs.zones[frm].coasts and sea != "western-med":
            out.append(("from America only to the seas of its coast and the Western Mediterranean", "14.1.2"))
        elif sea == "western-med" and not seacontrol.strait_open(ctx, side, "gibraltar"):
            out.append(("the Strait of Gibraltar is closed (12.1)", "12.1"))
    elif sea not in ctx.rs.zones[frm].coasts:
        out.append((f"{ctx.rs.zones[frm].name} is not a port of the {ctx.rs.seas[sea].name} (14.1.2: from a port of the same sea zone)",
                    "14.1.2"))
    if frm == STOCKHOLM and control(ctx, "copenhagen") != side:
        out.append(("from Stockholm only with Copenhagen held", "14.1.2"))
    barred = diplomacy.end_issue(ctx, cid, zone)
    if barred:
        out.append((barred, "9.6"))
    if zone in ctx.rs.areas.get("britain", ()) and not air.britain_landing_allowed(ctx):
        out.append(("no landing in Britain before the Battle of Britain is won", "13.4.3"))
    return out


def _capacity_issues(ctx: Ctx, landed: dict) -> list[Issue]:
    """14.1.2: at most 2 corps a beachhead, 3 when every unit lands from a zone joined to it by a
    blue dashed line (ruling transport-blue-line); the units staying on it count; from America
    a fleet of the side in the beachhead's sea a corps."""
    out: list[Issue] = []
    side = ctx.side or ""
    for zone, came in sorted(landed.items()):
        by_sea: dict[str, list] = {}
        for cid, q, frm in came:
            by_sea.setdefault(ctx.counters[cid]["at"], []).append((cid, q, frm))
        for sea, cs in sorted(by_sea.items()):
            n = beachhead_seas(ctx, side, zone).get(sea, 0)
            on = [x for x, v in ctx.counters.items() if v.get("beachhead") == zone and v["at"] == sea and v["type"] in LAND
                  and side_of(ctx, x) == side]
            new = {x for x, _, _ in cs}
            blue = all(frm in ctx.rs.zones[zone].blue for _, _, frm in cs) and all(x in new for x in on)
            cap = n * (3 if blue else 2)
            total = sum(n_corps(ctx.counters[x]) for x in on)
            if total > cap:
                out.append(Issue("BW-BEACHHEAD-FULL", f"{total} corps on the beachhead{'s' if n > 1 else ''} at {ctx.rs.zones[zone].name} "
                                 f"({ctx.rs.seas[sea].name}): {n} beachhead{'s carry' if n != 1 else ' carries'} {cap} "
                                 f"({'3' if blue else '2'} corps each, 14.1.2)", path=cs[-1][1], text=cs[-1][0], rule="14.1.2",
                                 hint="3 corps a beachhead only along a blue dashed line"))
            usa = sum(n_corps(ctx.counters[x]) for x, _, frm in cs if frm == "america")
            fleets = sum(int(v["units"]) for x, v in ctx.counters.items()
                         if v["type"] == "fleet" and v["at"] == sea and side_of(ctx, x) == side)
            if usa > fleets:
                out.append(Issue("BW-LANDING", f"{usa} corps land from America on the {ctx.rs.seas[sea].name} with {fleets} fleet "
                                 f"unit{'s' if fleets != 1 else ''} of the {side} there (14.1.2: one fleet a corps)",
                                 path=cs[-1][1], rule="14.1.2"))
    return out


# ------------------------------------------------------------------------------ lend-lease (11.4)
LEND_LEASE_ROUTES = ("norwegian-sea", "persian-gulf")


def germans_in_ussr(ctx: Ctx) -> bool:
    """11.4: German land units in a Soviet zone (ソ連内にドイツ軍が存在する場合; ruling
    transport-lend-lease-germans)."""
    return any(c["nation"] == "GER" and c["type"] in LAND and c["at"] in ctx.rs.zones
               and ctx.rs.zones[c["at"]].country == "USSR" for c in ctx.counters.values())


def lend_lease_fleets(ctx: Ctx, route: str) -> tuple[int, str]:
    """(fleet units that may carry lend-lease by ``route``, why not when 0) (11.4): the Norwegian
    Sea under Allied sea control (12.3), the fleets beyond the U-boats there; the Persian Gulf
    from 1942 with Basra held by the Allies (its fleets came from the Asia base and never leave
    the Gulf, 11.4 note: :func:`pbem.blitzwar.seacontrol.gulf_places`)."""
    def units(side: str, type_: str) -> int:
        return sum(int(c["units"]) for cid, c in ctx.counters.items()
                   if c["type"] == type_ and c["at"] == route and side_of(ctx, cid) == side)
    fleets = units("allies", "fleet")
    if route == "norwegian-sea":
        # 12.3, 2: the sea control of the Allied camp, whichever of the Allies and the USSR it is
        # recorded for (ruling sea-control-camps)
        if not seacontrol.camp_holds(ctx, route, "allies"):
            return 0, "the Allies do not control the Norwegian Sea (12.3)"
        free = max(0, fleets - units("axis", "uboat"))
        return free, "" if free else "no Allied fleet beyond the U-boats in the Norwegian Sea"
    if ctx.rs.turns[ctx.turn].year < 1942:
        return 0, "the Persian Gulf route opens in 1942"
    if control(ctx, "basra") != "allies":
        return 0, "the Allies do not hold Basra"
    return fleets, "" if fleets else "no Allied fleet in the Persian Gulf"


def send_lend_lease(ctx: Ctx, side: str, units: dict, o: dict, path: tuple, sent: dict) -> dict:
    """11.4: the Allied card's supply and air units the order ``lend_lease: {ROUTE: {supply: n,
    air: n}}`` sends to the USSR, 1 fleet unit for 2 supply, 2 fleet units an air unit, taken off
    the Allied card (after its supply losses, 11.3) into ``sent`` for the Soviet placement."""
    want = o.get("lend_lease") or {}
    if side != "allies" or not want:
        return units
    q = path + ("lend_lease",)
    errs: list[Issue] = []
    if not germans_in_ussr(ctx):
        ctx.refuse([Issue("BW-LEND-LEASE", "no lend-lease: no German unit is in the USSR (11.4)", path=q, rule="11.4")])
    total = {"supply": 0, "air": 0}
    for route, what in sorted(want.items()):
        if route not in LEND_LEASE_ROUTES or not isinstance(what, dict):
            errs.append(Issue("BW-LEND-LEASE", f"lend-lease goes by {' or '.join(LEND_LEASE_ROUTES)}, not {route!r} (11.4)",
                              path=q + (str(route),), text=str(route), rule="11.4"))
            continue
        s, a = int(what.get("supply", 0)), int(what.get("air", 0))
        need = -(-s // 2) + 2 * a
        fleets, why = lend_lease_fleets(ctx, route)
        if need > fleets:
            errs.append(Issue("BW-LEND-LEASE", f"lend-lease by the {ctx.rs.seas[route].name}: {s} supply and {a} air need {need} fleet "
                              f"units (1 a 2 supply, 2 an air unit); {fleets} may carry it" + (f": {why}" if why else "") + " (11.4)",
                              path=q + (route,), rule="11.4"))
            continue
        total["supply"] += s
        total["air"] += a
        ctx.emit("lend-lease", rule="11.4", side="allies", to="ussr", route=route, supply=s, air=a, fleets=need)
    for k in ("supply", "air"):
        if total[k] > int(units.get(k, 0)):
            errs.append(Issue("BW-LEND-LEASE", f"lend-lease of {total[k]} {k}: the Allied card gives {int(units.get(k, 0))} this "
                              "turn (11.4: the card's supply and air units)", path=q, rule="11.4"))
    if errs:
        ctx.refuse(errs)
    units = dict(units)
    for k in ("supply", "air"):
        units[k] = int(units.get(k, 0)) - total[k]
        sent[k] = sent.get(k, 0) + total[k]
    return units


def receive_lend_lease(ctx: Ctx, side: str, units: dict, sent: dict) -> dict:
    """11.4: what lend-lease sent comes as Soviet replacements (ソ連の補充として登場し)."""
    if side != "ussr" or not any(sent.values()):
        return units
    units = dict(units)
    for k, n in sent.items():
        units[k] = int(units.get(k, 0)) + n
    return units


# ------------------------------------------------------------------------------ the order template
def template_lines(w, state: dict, ph: str) -> list[str]:
    """14: the sea transport phase's entry: the order forms and costs, what each port holds that
    can sail and the ports open to it, the beachheads usable this turn and the units on one."""
    side = side_of_phase(ph) or ""
    ctx = Ctx(rs=w, state=state, turn=state["turn"], phase=ph, side=side)
    L = ["    # 14.1.1 transport: [{counter: ID, to: PORT, pay: held|SUPPLY-COUNTER}]   port to a port you control; "
         "no further move or activation this turn",
         "    # 14.1.2 land: [{counter: ID, beachhead: ZONE}]   from a port of the beachhead's sea (America: also the "
         "Western Mediterranean, a fleet a corps); 2 corps a beachhead, 3 along a blue dashed line; activated (15.3)",
         "    #        back: [{counter: ID, to: PORT}]   from a beachhead to a port of its sea you control",
         f"    # costs (7): 1 a corps or supply counter, 1/2 an air counter; x2 from America, across 2 sea zones or more, "
         f"to or from Suez and the Asia base; supply held by the {side}: {state['supply'].get(side, '0')}"]
    if w.turns[state["turn"]].weather == "snow":
        L.append(f"    # winter: landings only in {WINTER_SEAS} (6, 14.1.2)")
    by_port: dict[str, list[str]] = {}
    for cid, c in sorted(state["counters"].items()):
        z = w.zones.get(c["at"])
        if (z and z.port and c["type"] in CARRIED and side_of(ctx, cid) == side and control(ctx, c["at"]) == side
                and not c.get("shipped") and not c.get("flying")):
            by_port.setdefault(c["at"], []).append(cid)
    for port, cs in sorted(by_port.items()):
        dests = []
        for z in _ports_open_to(ctx, port):
            n, _ = sea_route(ctx, side, port, z)
            dests.append(z + (" (x2)" if _long(ctx, port, z, int(n or 0)) else ""))
        L.append(f"    #   {port}: {', '.join(cs)} -> " + (", ".join(dests) or "no port open"))
    if montenegro_barred(ctx, side, MONTENEGRO) and control(ctx, MONTENEGRO) == side:
        L.append("    # Montenegro is no port for sea transport until the partisans control another zone of Yugoslavia (9.5)")
    heads = []
    for zone in sorted(w.zones):
        for sea, n in sorted(beachhead_seas(ctx, side, zone).items()):
            blue = [p for p in w.zones[zone].blue if p in by_port]
            ports = [p for p in by_port if sea in w.zones[p].coasts or (p == "america" and sea == "western-med")]
            heads.append(f"{zone} ({sea}, {n} beachhead{'s' if n != 1 else ''}: {2 * n} corps"
                         + (f", {3 * n} from {'/'.join(blue)}" if blue else "") + ") from " + (", ".join(ports) or "no port of yours"))
    L.append("    # beachheads usable this turn (13.4.5): " + ("; ".join(heads) or "none"))
    on = [f"{cid} @ {c['beachhead']} ({c['at']})" for cid, c in sorted(state["counters"].items())
          if c.get("beachhead") and c["type"] in LAND and c["at"] not in w.zones and side_of(ctx, cid) == side]
    if on:
        L.append("    # on a beachhead (stay while a beachhead serves it this turn, else lost; or back:): " + ", ".join(on))
    L.append("    transport: []")
    return L
