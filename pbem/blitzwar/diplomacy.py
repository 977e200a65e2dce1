"""The diplomacy of the land war (9): surrender (9.2), activation of countries (9.3) and the
movement limits (9.6); France's surrender sets up Vichy France (9.4, pbem/blitzwar/vichy.py).
The Yugoslav partisans (9.5) come later.

Entry points (pure functions of the position, the orders and the dice, like every phase):

* ``run_diplomacy(ctx)``   phase ``1.diplomacy``: 9 "at the start of each turn, check which
  countries surrender and which are activated": surrender first (9.2), then the activations by
  event and calendar (9.3);
* ``consent(ctx, orders) -> [Issue]``   movement, blitz and combat phases: a neutral country
  touched by the phase's orders and listed in ``attack_neutral: [CODE]`` joins the other side
  before the orders are carried out (9.3, clarification 1); what is wrong with the list;
* ``after_phase(ctx)``   after a side's movement, blitz and combat phases: the war the phase
  opened (the Axis against the USSR: Finland joins the Axis that turn, 9.3), Italy and Hungary
  at the Axis' 20th strategic point (9.3: at once), the first Allied attack on Italy (clar. 3);
* ``limit_issue(ctx, cid, zone) -> str | None``   why a counter may not be in a zone (9.6);
* ``mixed_minor_issues(ctx, zones)``   two minor countries' units in one zone (9.6);
* ``german_greece_barred(ctx)``   German units may not attack Greece yet (9.6, clarification 3).

Rulings (rules/blitzwar/rulings.yaml): ``occupied`` (占領: a zone is occupied when a side at war
with the country's side controls it, 5), ``neutral-zones`` (entering or attacking a neutral needs
``attack_neutral``), ``surrender-effects``, ``east-poland``, ``italy-surrender``,
``major-surrender``, ``calendar-activation``, ``passage``, ``movement-limits``, ``france-falls``,
``vichy-neutral``.

Events (each with ``rule``): ``surrender`` (9.2), ``vichy`` and ``vichy-surrender`` (9.4; the
old ``surrender-deferred`` of ruling france-deferred is no longer emitted), ``activated``
(9.3), ``diplomacy-roll`` (9.3: Yugoslavia), ``diplomacy`` (a quiet phase),
``game-over`` via the state's ``result`` when Germany surrenders (18).
"""
from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ..core.errors import Issue
from . import vichy
from .context import (
    LAND,
    SIDES,
    Ctx,
    axis_points,
    marks_reached,
    nation_side,
    placed,
    surrendered_countries,
    territory,
    zone_controls,
)
from .dated import elite_limit, run as dated
from .land import control, enemies, side_of
from .placing import _put_minor
from .world import is_provisional

CAPITAL_AND_FOUR = ("FRA", "POL", "YUG", "SP", "TUR")      # 9.2
NEVER_SURRENDER = ("UK", "US")                              # 9.2
STAY_HOME = ("POL", "YUG", "FIN", "BE", "SP")               # 9.6
NEXT_DOOR = ("GRE", "BUL", "RUM", "TUR", "SWE")             # 9.6
SPANISH_ABROAD = 2                                          # 9.6: up to 2 Spanish corps anywhere
ITALIAN_ABROAD = 2                                          # 9.6: 2 Italian corps outside its area
ITALIAN_AREA = ("ITA", "GRE", "YUG", "TUR")                 # 9.6 (Albania is an ITA zone); + Africa, British Asia


def other_side(side: str) -> str:
    """9.3: a neutral attacked by the Axis joins the Allies; attacked by the Allies or the USSR,
    the Axis."""
    return "allies" if side == "axis" else "axis"


def _marks(ctx: Ctx) -> frozenset:
    return marks_reached(ctx.rs, ctx.state, ctx.turn)


def _flags(ctx: Ctx) -> dict:
    return ctx.state.setdefault("flags", {})


def country_side(ctx: Ctx, code: str) -> str:
    return nation_side(ctx.rs, ctx.state, code)


def is_neutral(ctx: Ctx, code: str) -> bool:
    return code in ctx.rs.countries and country_side(ctx, code) == "neutral" and code not in surrendered_countries(ctx.state)


def occupied(ctx: Ctx, zone: str, code: str | None = None) -> bool:
    """Ruling ``occupied`` (占領, 9.2, 5): the zone is controlled by a side at war with the side
    the country fights for."""
    code = code or ctx.rs.zones[zone].country
    s = country_side(ctx, code)
    return s in SIDES and enemies(s, control(ctx, zone))


def zone_country(ctx: Ctx, zone: str) -> str:
    """The country whose territory ``zone`` is now (Vichy France's blue zones: VF, 9.4)."""
    return territory(ctx.rs, ctx.state, zone)


def neutral_zone(ctx: Ctx, zone: str) -> bool:
    return zone in ctx.rs.zones and control(ctx, zone) == "neutral"


def _name(ctx: Ctx, code: str) -> str:
    c = ctx.rs.countries.get(code)
    return c.name if c else code


def activate(ctx: Ctx, code: str, side: str, *, why: str, rule: str = "9.3", **extra) -> bool:
    """A neutral country joins ``side`` (9.3): its zones are the side's (land.control reads
    ``war``), its units fight for it."""
    if not is_neutral(ctx, code):
        return False
    ctx.state.setdefault("war", {})[code] = side
    ctx.state["war"] = dict(sorted(ctx.state["war"].items()))
    ctx.emit("activated", rule=rule, country=code, side=side, why=why, **extra)
    return True


# ------------------------------------------------------------------------------ passage (9.3)
ROMANIA_CORPS = 3     # 9.3: at most 3 Axis corps stay in a neutral Romania they cross


def passage(ctx: Ctx, cid: str, zone: str) -> bool:
    """9.3: a neutral lets the Axis move through without being attacked: Turkey after the Axis'
    diplomatic roll of 6 (``flags.turkey_passage``), Romania after France's surrender (German
    units only, clarification 2). The zones stay neutral (not taken, 5)."""
    if not neutral_zone(ctx, zone):
        return False
    code = zone_country(ctx, zone)
    c = ctx.counters[cid]
    if code == "TUR":
        return bool((ctx.state.get("flags") or {}).get("turkey_passage")) and side_of(ctx, cid) == "axis"
    if code == "RUM":
        return "FRA" in surrendered_countries(ctx.state) and c["nation"] == "GER"
    return False


def passage_issues(ctx: Ctx) -> list[Issue]:
    """9.3: at most 3 Axis corps stay in a neutral Romania (end of the movement phase)."""
    if not is_neutral(ctx, "RUM"):
        return []
    # the counters of Romania's zones, read by place (context.placed: kept as they move)
    cs, by_place = ctx.counters, placed(ctx.counters)
    n = sum(int(cs[x]["units"]) for z in ctx.rs.country_zones("RUM") for x in by_place.get(z, ())
            if cs[x]["type"] in LAND and side_of(ctx, x) == "axis")
    if n > ROMANIA_CORPS:
        return [Issue("BW-LIMIT", f"{n} Axis corps would stay in neutral Romania: at most {ROMANIA_CORPS} (9.3)", rule="9.3")]
    return []


# ------------------------------------------------------------------------------ 9.3 by attack
def touched(ctx: Ctx, orders: dict) -> dict[str, str]:
    """Neutral countries the orders of this phase touch (9.3: its units attacked, its zones
    entered): code -> what touches it first."""
    out: dict[str, str] = {}
    step = ctx.phase.split(".")[-1]

    def zone(z, what):
        if neutral_zone(ctx, z):
            out.setdefault(zone_country(ctx, z), what)

    if step == "air":
        # 9.3: その領域を（空軍も含め）敵ユニットが通過した場合: an air mission over a neutral's zone
        for o in orders.get("air") or []:
            if isinstance(o, dict) and o.get("to") in ctx.rs.zones:
                zone(o["to"], f"{o.get('counter')} flies over {o['to']}")
    if step == "movement":
        for m in orders.get("moves") or []:
            prev = ctx.counters.get(m.get("counter"), {}).get("at")
            for z in m.get("path") or []:
                if z not in ctx.rs.zones or prev not in ctx.rs.zones or z not in ctx.rs.zones[prev].links:
                    break
                if not (m.get("counter") in ctx.counters and passage(ctx, m["counter"], z)):
                    zone(z, f"{m.get('counter')} enters {z}")
                prev = z
    elif step in ("blitz", "combat"):
        for a in orders.get("attacks") or []:
            t = a.get("target")
            if t not in ctx.rs.zones:
                continue
            zone(t, f"attack on {t}")
            for c in ctx.in_zone(t):
                n = ctx.counters[c]["nation"]
                if ctx.counters[c]["type"] in LAND and is_neutral(ctx, n):
                    out.setdefault(n, f"attack on {t}")
            for cid, zs in (a.get("exploit") or {}).items() if isinstance(a.get("exploit"), dict) else ():
                for z in zs or []:
                    zone(z, f"{cid} advances into {z}")
        for m in orders.get("moves") or []:
            # a one-zone move is a tactical move: passage lets it through too (ruling passage)
            if m.get("to") in ctx.rs.zones and not (m.get("counter") in ctx.counters and passage(ctx, m["counter"], m["to"])):
                zone(m["to"], f"{m.get('counter')} moves into {m['to']}")
    return out


def consent(ctx: Ctx, orders: dict) -> list[Issue]:
    """9.3 with clarification 1: ``attack_neutral: [CODE]`` in an air, movement, blitz or combat
    phase entry is the player's consent to attack those neutrals in this phase. Each one the orders
    touch joins the other side now, before any order is carried out; a code that is not a
    neutral country, or that no order of the phase touches, is an error (nobody declares war by a
    typo). Touching a neutral without consent is refused where it happens (BW-NEUTRAL)."""
    listed = orders.get("attack_neutral") or []
    p = tuple(orders.get("_path", ("phases",))) + ("attack_neutral",)
    issues: list[Issue] = []
    hit = touched(ctx, orders)
    for i, code in enumerate(listed):
        if code not in ctx.rs.countries:
            issues.append(Issue("BW-NEUTRAL-CONSENT", f"attack_neutral: no country {code!r}", path=p + (i,), text=str(code),
                                rule="9.3", hint="country codes: " + ", ".join(sorted(ctx.rs.countries))))
        elif not is_neutral(ctx, code):
            st = "has surrendered" if code in surrendered_countries(ctx.state) else f"is at war on the {country_side(ctx, code)} side"
            issues.append(Issue("BW-NEUTRAL-CONSENT", f"attack_neutral: {_name(ctx, code)} ({code}) is not neutral: it {st}",
                                path=p + (i,), text=str(code), rule="9.3", hint="attack_neutral lists neutral countries only"))
        elif code not in hit:
            issues.append(Issue("BW-NEUTRAL-CONSENT", f"attack_neutral: no order of this phase enters or attacks "
                                f"{_name(ctx, code)} ({code})", path=p + (i,), text=str(code), rule="9.3",
                                hint="leave it out: the consent is given in the phase of the attack"))
    if issues:
        return issues
    for code in listed:
        activate(ctx, code, other_side(ctx.acting_side), why=f"attacked by the {ctx.acting_side}: {hit[code]}", by=ctx.acting_side)
    return []


def neutral_hint(ctx: Ctx, zone: str) -> str:
    code = zone_country(ctx, zone)
    if not is_neutral(ctx, code):
        code = next((ctx.counters[c]["nation"] for c in ctx.in_zone(zone) if is_neutral(ctx, ctx.counters[c]["nation"])), code)
    return (f"to attack {_name(ctx, code)}, add attack_neutral: [{code}] to this phase's entry: it joins the "
            f"{other_side(ctx.side or 'axis')} at once (9.3)")


def neutral_issue(ctx: Ctx, zone: str, what: str, path, rule: str = "9.3") -> Issue:
    code = zone_country(ctx, zone)
    return Issue("BW-NEUTRAL", f"{what}: {zone} belongs to neutral {_name(ctx, code)} ({code}); entering or attacking it "
                 "is an attack on it (9.3)", path=path, text=str(zone), rule=rule, hint=neutral_hint(ctx, zone))


def holds_neutral(ctx: Ctx, zone: str) -> bool:
    return neutral_zone(ctx, zone) or any(ctx.counters[c]["type"] in LAND and is_neutral(ctx, ctx.counters[c]["nation"])
                                          for c in ctx.in_zone(zone))


# ------------------------------------------------------------------------------ after a phase
def after_phase(ctx: Ctx) -> None:
    """After a side's movement, blitz or combat phase: record the first Axis attack on the USSR
    (an attack on Soviet units or an Axis unit taking a Soviet zone) and the first Soviet attack
    on the Axis (the same, the other way: :func:`war_opened`) and the first Allied attack
    on Italians or Italian territory (9.6, clarification 3: ``first_allied_vs_italy``); Finland joins the Axis the turn the
    Axis goes to war with the USSR (9.3), Yugoslavia the Allies (9.3 b)."""
    f = _flags(ctx)
    vichy.note_paris(ctx)      # 9.4: Paris liberated the turn the Allies take it back
    if "first_allied_vs_italy" not in f and any(_allied_attack_on_italy(ctx, ev) for ev in ctx.events):
        f["first_allied_vs_italy"] = ctx.turn      # clarification 3: lifts the German limit of 9.6
    for side, foe, key in (("axis", "ussr", "axis_ussr_war"), ("ussr", "axis", "ussr_attacked_axis")):
        if ctx.side != side or key in f:
            continue
        if key == "axis_ussr_war" and f.get("first_attack_ussr") == ctx.turn:
            f[key] = ctx.turn       # the one trigger of the Axis attack on the USSR (combat.py)
            continue
        for ev in ctx.events:
            if (ev.get("type") == "combat" and ev.get("defender") == foe) or \
                    (ev.get("type") == "control" and foe in (ev.get("before"), ev.get("from")) and side in (ev.get("side"), ev.get("to"))):
                f[key] = ctx.turn
                break
    opened = war_opened(f)
    if opened is not None:
        activate(ctx, "FIN", "axis", why=f"{_war_by(f)} on turn {opened}")
    if "axis_ussr_war" in f:
        activate(ctx, "YUG", "allies", why=f"the USSR was attacked on turn {f['axis_ussr_war']} (9.3 b)")
    italy_hungary(ctx)      # 9.3: at once (直ちに) when the phase brought the Axis its 20th point


def war_opened(f: dict) -> int | None:
    """9.3 (開戦): the turn the Axis and the USSR went to war, whoever opened it: the first Axis
    attack on the USSR (``axis_ussr_war``) or the first Soviet attack on the Axis
    (``ussr_attacked_axis``); None: not yet (ruling war-opened-by-either). Finland and Romania
    read it; Yugoslavia (9.3 b), the German windows (16.3.1), the second elite (11.7) and the
    Soviet clocks read only the Axis attack."""
    turns = [int(f[k]) for k in ("axis_ussr_war", "ussr_attacked_axis") if k in f]
    return min(turns) if turns else None


def _war_by(f: dict) -> str:
    if "axis_ussr_war" in f and int(f["axis_ussr_war"]) == war_opened(f):
        return "the Axis went to war with the USSR"
    return "the USSR went to war with the Axis"


def _allied_attack_on_italy(ctx: Ctx, ev: dict) -> bool:
    """Clarification 3: Allied units (British or French, 連合軍ユニット(英軍か仏軍)) attack
    Italian units or Italian territory: an Allied attack on a zone of Italy or on Italian
    defenders, or an Allied unit taking a zone of Italy (the example: Sardinia taken)."""
    zone = ev.get("zone")
    italian_zone = zone in ctx.rs.zones and ctx.rs.zones[zone].country == "ITA"
    if ev.get("type") == "combat" and ev.get("side") == "allies":
        return italian_zone or any(ctx.counters.get(d["counter"], {}).get("nation") == "ITA" for d in ev.get("defenders") or [])
    if ev.get("type") == "control":
        return italian_zone and "allies" in (ev.get("side"), ev.get("to"))
    return False


# ------------------------------------------------------------------------------ 9.2 surrender
def _enemy_corps(ctx: Ctx, zone: str, side: str) -> int:
    return sum(int(ctx.counters[c]["units"]) for c in ctx.in_zone(zone)
               if ctx.counters[c]["type"] in LAND and enemies(side, side_of(ctx, c)))


def _occupied_of(ctx: Ctx, zones: Iterable[str], code: str) -> list[str]:
    """The zones of ``zones`` :func:`occupied` for the country ``code``, in their order: the
    country's side read once, the zones' control in one pass (:func:`zone_controls`; held to
    :func:`occupied` zone by zone by tests/blitzwar/test_zone_controls.py)."""
    s = country_side(ctx, code)
    if s not in SIDES:
        return []
    zones = list(zones)
    return [z for z, c in zip(zones, zone_controls(ctx.rs, ctx.state, zones)) if enemies(s, c)]


#: the map's supply sources of each major nation (9.2), sorted: (world, code) -> zones
_SOURCES: dict[tuple[int, str], tuple[Any, list[str]]] = {}


def _sources_of(w: Any, code: str) -> list[str]:
    """The zones whose supply nation is ``code`` (the sources whose loss makes a major
    surrender, 9.2), sorted; found once per map."""
    kept = _SOURCES.get((id(w), code))
    if kept is None or kept[0] is not w:
        kept = _SOURCES[(id(w), code)] = (w, sorted(z.id for z in w.zones.values() if z.supply_nation == code))
    return kept[1]


def surrender_condition(ctx: Ctx, code: str) -> tuple[bool, str]:
    """(met, what) of 9.2 for a country at war."""
    w = ctx.rs
    cty = w.countries[code]
    if code in NEVER_SURRENDER:
        return False, "never surrenders"
    if code in CAPITAL_AND_FOUR:
        occ = sorted(_occupied_of(ctx, w.country_zones(code), code))
        cap = occupied(ctx, cty.capital, code)
        others = [z for z in occ if z != cty.capital]
        return cap and len(others) >= 4, (f"capital {cty.capital} {'occupied' if cap else 'held'}, "
                                          f"{len(others)} other zones occupied ({', '.join(others) or 'none'}); needs the capital and 4")
    if code == "ITA":
        if "italy-may-surrender" not in _marks(ctx):
            return False, "not before 1941"
        home = _occupied_of(ctx, w.areas.get("italy-home", ()), code)
        side = country_side(ctx, code)
        corps = sum(_enemy_corps(ctx, z, side) for z in home)
        return len(home) >= 3 and corps >= 10, (f"{len(home)} home zones occupied ({', '.join(home) or 'none'}) by {corps} "
                                                 "enemy corps; needs 3 zones and 10 corps")
    if cty.kind == "major":
        src = _sources_of(w, code)
        occ_src = set(_occupied_of(ctx, src, code))
        held = [z for z in src if z not in occ_src]
        return bool(src) and not held, f"supply sources held: {', '.join(held) or 'none'}; needs all of {', '.join(src)} occupied"
    cap = occupied(ctx, cty.capital, code)
    return cap, f"capital {cty.capital} {'occupied' if cap else 'held'}"


def surrender(ctx: Ctx, code: str, why: str, keep=()) -> None:
    """9.2: every unit of the country goes out of the game (``at: out``, pool included: a
    surrendered country gets no replacements); surrendering to the Axis, its zones without
    Allied or Soviet land units pass to the Axis (Poland: East Poland to the USSR, ruling
    east-poland); an Axis country's zones not occupied stay the Axis' (``war`` keeps its side).
    ``keep``: zones whose control this leaves alone (France's blue zones: Vichy's, 9.4)."""
    side = country_side(ctx, code)
    to = "axis" if side != "axis" else "allies"
    removed = []
    for cid in sorted(ctx.counters):
        c = ctx.counters[cid]
        if c["nation"] == code and c["at"] != "out":
            removed.append(cid)
            ctx.move(cid, "out")
            for fl in ("active", "moved", "strategic", "out_of_supply", "beachhead", "attacked", "entrenched", "flying", "spent"):
                c.pop(fl, None)
    zones_to: dict[str, str] = {}
    if side != "axis":
        east = set(ctx.rs.areas.get("east-poland", ())) if code == "POL" else set()
        for z in sorted(set(ctx.rs.country_zones(code)) - set(keep)):
            axis_here = any(ctx.counters[c]["type"] in LAND and side_of(ctx, c) == "axis" for c in ctx.in_zone(z))
            allied_here = any(ctx.counters[c]["type"] in LAND and enemies("axis", side_of(ctx, c)) for c in ctx.in_zone(z))
            if z in east and not axis_here:
                new = "ussr"
            elif not allied_here:
                new = "axis"
            else:
                continue
            if control(ctx, z) != new:
                zones_to[z] = new
                ctx.state["control"][z] = new
        ctx.state["control"] = dict(sorted(ctx.state["control"].items()))
    f = _flags(ctx)
    f["surrendered"] = sorted(set(f.get("surrendered") or []) | {code})
    if code == "YUG":
        f["yug_surrendered"] = ctx.turn     # 9.5: the partisans come 3 seasons later
    extra = {}
    if code == "POL" and any(s == "ussr" for s in zones_to.values()) and is_provisional(ctx.rs.area_prov.get("east-poland")):
        extra["provisional"] = [{"item": "East Poland: " + ", ".join(ctx.rs.areas["east-poland"]),
                                 "note": ctx.rs.area_prov["east-poland"].get("note", "")}]
    ctx.emit("surrender", rule="9.2", country=code, side=side, to=to, why=why, removed=removed,
             control={z: s for z, s in sorted(zones_to.items())}, **extra)
    if code == "GER":
        # 18: the Allies and the USSR win
        from .victory import on_germany_surrender
        ctx.state["result"] = on_germany_surrender(ctx.rs, ctx.state, ctx.turn)


def reactivate(ctx: Ctx) -> None:
    """9.2, last paragraph: before 1943 (mark no-reactivation) a surrendered country is active
    again on its side as soon as its occupiers no longer meet its surrender condition (ruling
    surrender-effects: its units that went out of the game come back to the pool, where its
    replacements, 11.2, find counters)."""
    if "no-reactivation" in _marks(ctx):
        return
    f = _flags(ctx)
    for code in surrendered_countries(ctx.state):
        # France and Vichy France surrender by 9.4 only (Free France is France fighting on)
        if code in ("GER", "FRA", "VF") or country_side(ctx, code) not in SIDES:
            continue
        met, what = surrender_condition(ctx, code)
        if not met:
            f["surrendered"] = [c for c in f["surrendered"] if c != code]
            # 9.2 with 11.2: the counters that went out at the surrender are the mix its
            # replacements are placed in (11.5): back to the pool, none on the map
            back = sorted(cid for cid, c in ctx.counters.items() if c["nation"] == code and c["at"] == "out")
            for cid in back:
                ctx.move(cid, "pool")
            ctx.emit("reactivated", rule="9.2", country=code, side=country_side(ctx, code), why=what,
                     **({"pool": back} if back else {}))
    if "surrendered" in f and not f["surrendered"]:
        del f["surrendered"]


def fall_of_france(ctx: Ctx, why: str) -> None:
    """9.2 with 9.4: France surrenders and Vichy France is set up (see pbem/blitzwar/vichy.py's
    text). Here, with the surrender it makes (9.2), not in vichy.py: Vichy's rules stand below
    the diplomacy phase that reads them (issue 30)."""
    blue = set(vichy.vichy_zones(ctx))
    surrender(ctx, "FRA", why, keep=blue)
    f = ctx.state.setdefault("flags", {})
    f["vichy"] = ctx.turn
    ctl = dict(ctx.state.get("control") or {})
    for z in blue:
        ctl.pop(z, None)          # the owner is Vichy now (context.zone_owner): neutral
    ctx.state["control"] = dict(sorted(ctl.items()))
    moved = vichy._move_out(ctx)
    placed: list[str] = []
    for z, n in sorted(vichy._tables(ctx)["setup"].items()):
        placed += _put_minor(ctx, "VF", z, {"infantry": int(n)})
    elite = vichy.first_elite(ctx)
    ctx.emit("vichy", rule="9.4", zones=sorted(blue), moved=moved, placed=placed, elite=elite,
             text="Vichy France is set up: its government controls the blue zones and is neutral (9.4); "
                  "Italy and Hungary join the Axis, the Axis may roll for Spain, German units may pass through "
                  "Romania, British units may enter French North Africa, the first German elite counter arrives")


# ------------------------------------------------------------------------------ the phase
def run_diplomacy(ctx: Ctx) -> None:
    """1.diplomacy (9): surrenders (9.2), then activations by event and calendar (9.3)."""
    n = len(ctx.events)
    reactivate(ctx)
    vichy.note_paris(ctx)
    vichy.check_surrender(ctx)      # 9.4: 3 French ports occupied by the Allies
    # 9.2: every country at war, in code order (the check is made on the position at the turn's start)
    due = []
    for code in sorted(ctx.rs.countries):
        if country_side(ctx, code) not in SIDES or code in surrendered_countries(ctx.state) or code == "VF":
            continue
        met, what = surrender_condition(ctx, code)
        if met:
            due.append((code, what))
    for code, what in due:
        if code == "FRA":
            fall_of_france(ctx, what)     # 9.2 with 9.4: France surrenders, Vichy is set up
            continue
        surrender(ctx, code, what)
        if ctx.state.get("result"):
            return
    calendar(ctx)
    if len(ctx.events) == n:
        ctx.emit("diplomacy", rule="9", text="no country surrenders or joins the war this turn")


def calendar(ctx: Ctx) -> None:
    """9.3: activations by event and calendar, checked at the turn's start."""
    f = _flags(ctx)
    marks = _marks(ctx)
    t = ctx.rs.turns[ctx.turn]
    italy_hungary(ctx)
    if "ger-bul-entry" in marks:
        activate(ctx, "BUL", "axis", why="GER, BUL entry (calendar, start of 1941)")
        activate(ctx, "GRE", "allies", why="GER, BUL entry (calendar, start of 1941)")
    opened = war_opened(f)
    if opened is not None:
        activate(ctx, "FIN", "axis", why=f"{_war_by(f)} on turn {opened}")
    if "axis_ussr_war" in f:
        activate(ctx, "YUG", "allies", why=f"the USSR was attacked on turn {f['axis_ussr_war']} (9.3 b)")
    if opened is not None and opened < ctx.turn:
        activate(ctx, "RUM", "axis", why=f"the turn after {_war_by(f)} (turn {opened})")
    if "yug-diplomacy" in t.marks and is_neutral(ctx, "YUG"):
        roll = ctx.dice.roll("yug/d6", 6)
        ok = roll in (ctx.rs.docs["tables"]["diplomacy_rolls"]["yugoslavia_joins_axis"]["success"])
        ctx.emit("diplomacy-roll", rule="9.3", country="YUG", roll={"label": ctx.dice.prefix + "yug/d6", "value": roll},
                 result="joins the Axis" if ok else "stays neutral")
        if ok:
            activate(ctx, "YUG", "axis", why="YUG diplomacy: a 6")
            loss = Fraction(ctx.rs.docs["tables"]["diplomacy_rolls"]["yugoslavia_joins_axis"]["axis_supply_loss"])
            held = ctx.supply("axis")
            ctx.set_supply("axis", max(Fraction(0), held - loss))
            ctx.emit("supply-lost", rule="9.3", side="axis", lost=str(min(held, loss)), why="Yugoslavia joins the Axis")
    optional_rolls(ctx)
    dated(ctx)      # 11.7 second elite, clar. 5 Karelia (issue 21)
    if "us-joins-allies" in marks:
        # 19: 合衆国が、枢軸と戦争になっていない場合でも、1941年秋から連合国に参加: the USA is an Allied
        # country (its units the Allied player's, shipped out of America, 14) before its war
        activate(ctx, "US", "allies", rule="19", why="the USA joins the Allies (19: autumn 1941), not yet at war with the Axis")
    if us_entry_due(ctx.rs, ctx.state, ctx.turn) and "us_at_war" not in f:
        # 9.3: the US entry, at war with the Axis (flags.us_at_war): the total-war cards (10.2)
        f["us_at_war"] = ctx.turn
        why = ("US entry (calendar)" + (f", {f['us_entry_earlier']} turn(s) earlier (9.3)" if f.get("us_entry_earlier") else ""))
        if not activate(ctx, "US", "allies", why=why):
            ctx.emit("activated", rule="9.3", country="US", side="allies", why=why + ": at war with the Axis")


def us_entry_due(rs, state: dict, turn: int) -> bool:
    """9.3, 19: the US joins the Allies in the diplomacy phase of ``turn`` or before: the
    calendar's us-entry, earlier by ``flags.us_entry_earlier`` turns (the Axis' successful
    optional rolls). The cards phase's deck (10.2) reads it before this turn's diplomacy phase
    has run (pbem/blitzwar/cards.py picking_deck)."""
    us_turn = next((tt for tt in rs.turn_list if "us-entry" in rs.turns[tt].marks), None)
    return us_turn is not None and turn >= us_turn - int((state.get("flags") or {}).get("us_entry_earlier", 0))


def italy_hungary(ctx: Ctx) -> None:
    """9.3: イタリアとハンガリーは、フランスが降伏した場合、または枢軸陣営が20戦略ポイントを獲得
    したら、直ちに枢軸陣営に参戦: Italy and Hungary join the Axis at once when France has
    surrendered or the Axis holds 20 strategic points: checked at the turn's start and after
    every movement, blitz and combat phase (ruling italy-hungary-at-once)."""
    if not (is_neutral(ctx, "ITA") or is_neutral(ctx, "HUN")):
        return
    pts = axis_points(ctx.rs, ctx.state)
    if "FRA" in surrendered_countries(ctx.state) or pts >= ctx.rs.italy_hungary_entry_at:
        why = ("France surrendered" if "FRA" in surrendered_countries(ctx.state) else
               f"the Axis holds {pts} strategic points ({ctx.rs.italy_hungary_entry_at} needed; at once, 直ちに)")
        for code in ("ITA", "HUN"):
            activate(ctx, code, "axis", why=why)


def optional_rolls(ctx: Ctx) -> None:
    """9.3: the Axis' optional diplomatic rolls, a decision of the Axis player (default: no
    roll): on the turn France surrenders, a 6 brings Spain in on the Axis side; on the turn
    Greece surrenders, a 6 opens Turkey to Axis movement (``flags.turkey_passage``). Either
    success brings the US entry one turn earlier (``flags.us_entry_earlier``)."""
    f = _flags(ctx)
    now = {ev["country"] for ev in ctx.events if ev.get("type") == "surrender" and ev.get("phase") == ctx.phase}
    tables = ctx.rs.docs["tables"]["diplomacy_rolls"]
    for after, code, key, gain in (("FRA", "SP", "spain_joins_axis", "Spain joins the Axis"),
                                   ("GRE", "TUR", "turkey_grants_passage", "Turkey lets Axis units move through it")):
        if after not in now or not is_neutral(ctx, code) or (code == "TUR" and f.get("turkey_passage")):
            continue
        choice, how = ctx.decide(id=f"t{ctx.turn:02d}.diplomacy.{code.lower()}-roll", side="axis", kind="diplomacy-roll",
                                 options=["roll", "pass"], auto=lambda: "pass",
                                 prompt=f"{_name(ctx, after)} surrendered: roll a die for {_name(ctx, code)} (9.3: on a 6 {gain}; "
                                        "the US enters a turn earlier)?", context={"country": code}, rule="9.3")
        if choice != "roll":
            ctx.emit("diplomacy-roll", rule="9.3", country=code, roll=None, result="the Axis does not roll", chosen_by=how)
            continue
        label = f"{code.lower()}/d6"
        value = ctx.dice.roll(label, 6)
        ok = value in tables[key]["success"]
        ctx.emit("diplomacy-roll", rule="9.3", country=code, roll={"label": ctx.dice.prefix + label, "value": value},
                 result=gain if ok else "nothing", chosen_by=how)
        if not ok:
            continue
        if code == "SP":
            activate(ctx, "SP", "axis", why="the Axis' diplomatic roll of 6 after France's surrender")
        else:
            f["turkey_passage"] = ctx.turn
        f["us_entry_earlier"] = int(f.get("us_entry_earlier", 0)) + 1


# ------------------------------------------------------------------------------ 9.6 limits
def neighbours(ctx: Ctx, code: str) -> set[str]:
    w = ctx.rs
    return {w.zones[x].country for z in w.country_zones(code) for x in w.zones[z].links if x in w.zones} - {code}


def italian_area(ctx: Ctx, zone: str) -> bool:
    z = ctx.rs.zones[zone]
    return z.country in ITALIAN_AREA or z.region == "africa" or (z.region == "asia" and z.country == "UK")


def german_lifted(ctx: Ctx) -> bool:
    """9.6, clarification 3: from the second turn of 1941 (mark german-africa-greece), or two
    turns after Allied units (British or French) first attack Italians or Italian territory
    (``flags.first_allied_vs_italy``; a British attack on Italians alone, combat's
    ``first_uk_vs_italy``, is one of them)."""
    f = ctx.state.get("flags") or {}
    firsts = [int(f[k]) for k in ("first_allied_vs_italy", "first_uk_vs_italy") if f.get(k) is not None]
    return "german-africa-greece" in _marks(ctx) or (bool(firsts) and ctx.turn >= min(firsts) + 2)


def _corps_outside(ctx: Ctx, nation: str, cid: str, inside) -> int:
    return sum(int(c["units"]) for x, c in ctx.counters.items()
               if x != cid and c["nation"] == nation and c["type"] in LAND and c["at"] in ctx.rs.zones and not inside(c["at"]))


def limit_issue(ctx: Ctx, cid: str, zone: str) -> str | None:
    """Why counter ``cid`` may not go into ``zone`` (9.6), or None."""
    c = ctx.counters[cid]
    n = c["nation"]
    z = ctx.rs.zones.get(zone)
    if z is None:
        return None
    if c.get("elite"):
        why = elite_limit(ctx, cid, zone)      # 11.7: one elite counter in the USSR
        if why:
            return why
    units = int(c["units"]) if c["type"] in LAND else 0
    if n in STAY_HOME and z.country != n:
        if n == "SP" and c["type"] in LAND and \
                _corps_outside(ctx, "SP", cid, lambda x: ctx.rs.zones[x].country == "SP") + units <= SPANISH_ABROAD:
            return None
        return f"{_name(ctx, n)} units never leave their country (9.6" + ("; up to 2 Spanish corps may)" if n == "SP" else ")")
    if n in NEXT_DOOR and z.country != n and z.country not in neighbours(ctx, n):
        return f"{_name(ctx, n)} units go no further than the neighbouring countries (9.6)"
    if n == "UK" and z.country == "FRA" and z.region == "africa" and "FRA" not in surrendered_countries(ctx.state) and control(ctx, zone) != "axis":
        return "British units do not enter French North Africa before France surrenders (9.6)"
    if n == "GER" and z.region == "africa" and not german_lifted(ctx):
        return ("German units do not go to Africa before the second turn of 1941 or two turns after Allied units first attack "
                "Italians or Italian territory (9.6, clar. 3)")
    if n == "ITA" and not italian_area(ctx, zone):
        if c["type"] in LAND and _corps_outside(ctx, "ITA", cid, lambda x: italian_area(ctx, x)) + units <= ITALIAN_ABROAD:
            return None
        return ("Italian units act only in Italy, Albania, Greece, Yugoslavia, Turkey, Africa and British Asia; "
                "2 corps may go elsewhere (9.6)")
    return None


def minor_clash(ctx: Ctx, cid: str, zone: str) -> str | None:
    """9.6: why ``cid`` may not end in ``zone``: units of another minor country stand there."""
    kind = lambda n: ctx.rs.countries[n].kind if n in ctx.rs.countries else ""  # noqa: E731
    n = ctx.counters[cid]["nation"]
    if kind(n) != "minor":
        return None
    other = sorted({ctx.counters[x]["nation"] for x in ctx.in_zone(zone) if x != cid} - {n})
    other = [o for o in other if kind(o) == "minor"]
    return f"units of {n} and {other[0]} never share a zone (9.6)" if other else None


def end_issue(ctx: Ctx, cid: str, zone: str) -> str | None:
    """Why ``cid`` may not end a move, advance or retreat in ``zone`` (9.6), or None."""
    return limit_issue(ctx, cid, zone) or minor_clash(ctx, cid, zone)


def mixed_minor_issues(ctx: Ctx, zones) -> list[Issue]:
    """9.6: units of two minor countries never share a zone, even on one side (and 9.3: the
    Axis corps left in a neutral Romania)."""
    out = passage_issues(ctx)
    for z in sorted(x for x in zones if x in ctx.rs.zones):
        nats = sorted({ctx.counters[c]["nation"] for c in ctx.in_zone(z)
                       if ctx.rs.countries.get(ctx.counters[c]["nation"]) and ctx.rs.countries[ctx.counters[c]["nation"]].kind == "minor"})
        if len(nats) > 1:
            out.append(Issue("BW-LIMIT", f"{ctx.rs.zones[z].name} would hold units of {' and '.join(nats)}: units of two minor "
                             "countries never share a zone (9.6)", rule="9.6", text=z))
    return out


def german_greece_barred(ctx: Ctx) -> bool:
    return not german_lifted(ctx)


# ------------------------------------------------------------------------------ text
def war_lines(rs, state: dict) -> list[str]:
    """`pbem show`: who is at war, neutral, surrendered (9)."""
    sur = set(surrendered_countries(state))
    by: dict[str, list[str]] = {}
    for code in sorted(rs.countries):
        s = nation_side(rs, state, code)
        key = "surrendered" if code in sur else s
        by.setdefault(key, []).append(code)
    parts = [f"{k}: {', '.join(by[k])}" for k in ("axis", "allies", "ussr", "neutral", "surrendered") if by.get(k)]
    out = ["who is at war (9): " + "; ".join(parts)]
    f = state.get("flags") or {}
    if "vichy" in f:
        w = (state.get("war") or {}).get("VF", "neutral")
        out.append(f"France surrendered on turn {f['vichy']} (9.4): Vichy France "
                   + ("surrendered to the Allies" if "VF" in sur else ("is neutral" if w not in SIDES else f"fights for the {w}"))
                   + (f"; Free France since turn {f['free_france']}" if "free_france" in f else ""))
    return out
