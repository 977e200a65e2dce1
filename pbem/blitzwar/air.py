"""BlitzWAR's air phase (13): air missions in the order written, interception one for one decided
by the other side before the next air unit is committed, air superiority, air at sea, beachheads
and strategic bombing.

Orders (the phasing side's ``<side>.5.air`` entry)::

    air:
    - {counter: ger-air-1, to: mechili}                       # air superiority (13.4.2)
    - {counter: ger-air-2, to: central-med}                   # sea control (13.4.4)
    - {counter: uk-air-1, to: norwegian-sea, beachhead: trondheim}   # a beachhead (13.4.5)
    - {counter: uk-air-2, mission: bombing}                   # strategic bombing (13.3)

``mission`` may be left out: a land zone is air superiority, a sea zone sea control, a sea zone
with ``beachhead`` a beachhead. Every order is checked before the first air unit flies (13.4.1
range from its base, 13.1 snow, one mission a unit, 13.3 bombing from Britain from 1943, 13.4.5
beachheads set by German and Allied air units only, on a beach, never at naval bases nor where the enemy
controls the sea: :func:`beachhead_refusal`): an order that fails is
refused with the file's other problems, nothing carried out (the air phase rolls no die).

Then each air unit is committed in the order written; before the next one, every enemy side with
an air unit able to reach the target decides whether to intercept it, one for one (13.2): the
decision ``t<turn>.<phase>.air<n>.intercept.<side>`` (kind ``intercept``) for that side's
player, options ``none`` or one of its air units in range. What the decision shows is what the
table shows at that moment: the unit committed, where it comes from, where it goes and for what;
never the missions still to come. So the interceptions of a phase are not asked together in
one answer file, as the decisions of one attack are: 13.2 has the intercepting player decide on
each unit before the phasing player commits the next (example 20.1), and a decision asked ahead
would show him the missions still to come. The player's standing order ``intercept``
(pbem/blitzwar/standing.py) answers it in advance; without one the adjudication stops with the
decision pending, and the answer file resumes it. Intercepted and intercepting units both go to
the pool at once, without effect (13.2, example 20.1).

A unit that is not intercepted flies its mission: its counter goes ``at`` the target zone with
``flying`` (a beachhead also with ``beachhead``: the land zone), a bomber ``at``
``strategic-bombing``. Two sides' air units used tactically over one land zone remove each other
one for one (13.4.2: event ``air-duel``); the side with the last one there has air superiority,
which the land combat reads (16.3.1, 16.3.2, 16.1 step 5: pbem/blitzwar/combat_common.py).

Per-turn results, in the state's ``sea_air`` (this module's keys): ``air_superiority`` {land zone:
side} (as it stands after each air phase), ``air_at_sea`` {sea: {side: n}} (for sea control,
naval's seacontrol.py), ``beachheads`` {land zone: {side, sea, n}} (for sea transport),
``flown`` [counter ids] (removed to the pool at the start of their side's next air phase, 13.4),
``bombing`` {axis supply lost at the next replacement phase: {n, per, supply}} (13.3).

Events: ``air-mission``, ``interception``, ``air-duel``, ``air-returned``, ``bombing``.
"""
from __future__ import annotations

from ..core.errors import Issue
from .combat_common import air_superiority as live
from .context import SIDES, Ctx, enemies, marks_reached
from .land import side_of
from .seacontrol import sea_control
from .standing import parse_bob_losses, parse_bob_rounds, parse_standing

MISSIONS = ("superiority", "sea-control", "beachhead", "bombing")
BOMBING_BOX = "strategic-bombing"


# ============================================================================ the state's sea_air
def sea_air(state: dict) -> dict:
    return state.setdefault("sea_air", {})


def air_superiority(ctx: Ctx, zone: str) -> str | None:
    """The side holding air superiority over a land zone now (13.4.2): the last side with air
    units used there (the land combat's own reading, combat_common.air_superiority, which also
    follows the air unit a blitz costs, 16.1 step 5)."""
    return live(ctx, zone)


def beachheads(ctx: Ctx) -> dict[str, dict]:
    """The beachheads of the turn (13.4.5): land zone -> {side, sea, n (air units), seas (when
    from two seas: sea -> n, :func:`head_seas`)}, for sea
    transport (14.1.2). Air superiority over a coastal zone acts as a beachhead too (13.4.5): the
    zone is listed with ``by: air-superiority`` when no air unit was placed as one there."""
    out = {z: dict(v) for z, v in (ctx.state.get("sea_air") or {}).get("beachheads", {}).items()}
    for z, side in sorted(((ctx.state.get("sea_air") or {}).get("air_superiority") or {}).items()):
        if z in out or air_superiority(ctx, z) != side or z not in ctx.rs.zones:
            continue
        zz = ctx.rs.zones[z]
        seas = [s for s in zz.beaches if _sea_open(ctx, s, side)]
        if seas and not zz.naval_base:
            out[z] = {"side": side, "sea": seas[0], "n": 0, "by": "air-superiority"}
    return out


def head_seas(h: dict) -> dict[str, int]:
    """A beachhead entry's seas: sea -> air units set there (``seas`` when the zone has
    beachheads from two seas, else its ``sea`` and ``n``)."""
    return dict(h.get("seas") or {h["sea"]: int(h.get("n", 1))})


def _sea_open(ctx: Ctx, sea: str, side: str) -> bool:
    """13.4.5: no beachhead where the enemy has sea control (12.3)."""
    holder = sea_control(ctx, sea)
    return holder is None or not enemies(side, holder)


# ============================================================================ range (13.4.1, 13.1)
def based(ctx: Ctx, cid: str) -> bool:
    """An air unit at its base: on a land zone, not flying (13.4.1), not used up this turn by the
    Battle of Britain (``used``, 13.4, 13.4.3)."""
    c = ctx.counters[cid]
    return c["type"] == "air" and c["at"] in ctx.rs.zones and not c.get("flying") and not c.get("used")


def snowy(ctx: Ctx, zone: str) -> bool:
    """13.1, 6: no air in (or from) a land zone under snow."""
    return zone in ctx.rs.zones and ctx.rs.weather(ctx.turn, zone) == "snow"


def in_range(ctx: Ctx, base: str, target: str) -> bool:
    """13.4.1: a land zone within 3 zones (land links or blue dashed lines) or on the coast of a
    sea the base's coast touches; a sea zone whose coast the base is on; the strategic bombing
    box from Britain (13.3)."""
    if target == BOMBING_BOX:
        return base in ctx.rs.areas.get("britain", ())
    if target in ctx.rs.seas:
        return target in ctx.rs.zones[base].coasts
    return target in ctx.rs.zones and ctx.rs.in_air_range(base, target)


def ranges(ctx: Ctx, cid: str) -> list[str]:
    """Every land and sea zone the air unit can fly to now (13.4.1, 13.1), for the template."""
    base = ctx.counters[cid]["at"]
    if not based(ctx, cid) or snowy(ctx, base):
        return []
    out = [z for z in ctx.rs.zones if not snowy(ctx, z) and not ctx.rs.zones[z].box and in_range(ctx, base, z)]
    return sorted(out) + sorted(s for s in ctx.rs.zones[base].coasts)


# ============================================================================ the orders
def _mission(ctx: Ctx, o: dict) -> str:
    m = o.get("mission")
    if m:
        return str(m)
    if o.get("beachhead"):
        return "beachhead"
    return "sea-control" if o.get("to") in ctx.rs.seas else "superiority"


def _target(ctx: Ctx, o: dict, mission: str) -> str:
    return BOMBING_BOX if mission == "bombing" else str(o.get("to"))


def check_orders(ctx: Ctx, orders: list[dict], path: tuple) -> list[Issue]:
    """Every problem of the air orders at once, before any unit flies (13.1-13.4)."""
    errs: list[Issue] = []
    seen: set[str] = set()
    for i, o in enumerate(orders):
        errs += _check_one(ctx, o, path + (i,), seen)
    return errs


def _check_one(ctx: Ctx, o: dict, p: tuple, seen: set[str]) -> list[Issue]:
    cid = str(o.get("counter"))
    mission = _mission(ctx, o)

    def err(code: str, msg: str, rule: str, key: str = "counter", hint: str | None = None) -> list[Issue]:
        return [Issue(code, msg, path=p + (key,), text=str(o.get(key)), rule=rule, hint=hint)]
    if cid not in ctx.counters:
        return err("BW-COUNTER", f"no counter {cid!r}", "3", hint="pbem show and the order template list your air units")
    c = ctx.counters[cid]
    if c["type"] != "air" or side_of(ctx, cid) != ctx.side:
        return err("BW-AIR-UNIT", f"{cid} is not an air unit of the {ctx.side}", "13.1")
    if cid in seen:
        return err("BW-AIR-TWICE", f"{cid} is given two missions; an air unit flies one a phase", "13.4")
    seen.add(cid)
    if not based(ctx, cid):
        return err("BW-AIR-BASE", f"{cid} is not at a base ({c['at']}{', flying' if c.get('flying') else ''}); "
                   "only an air unit on a land zone that has not flown flies a mission", "13.4.1")
    if snowy(ctx, c["at"]):
        return err("BW-AIR-SNOW", f"{cid} is based in {c['at']}, under snow: air units there cannot be used", "13.1, 6")
    if mission not in MISSIONS:
        return err("BW-AIR-MISSION", f"no air mission {mission!r}", "13.4", key="mission", hint="missions: " + ", ".join(MISSIONS))
    return _check_target(ctx, o, p, cid, mission, _target(ctx, o, mission))


def _check_target(ctx: Ctx, o: dict, p: tuple, cid: str, mission: str, target: str) -> list[Issue]:
    base = ctx.counters[cid]["at"]
    out: list[Issue] = []

    def err(code: str, msg: str, rule: str, key: str = "to", hint: str | None = None) -> None:
        out.append(Issue(code, msg, path=p + (key,), text=str(o.get(key)), rule=rule, hint=hint))
    if mission == "bombing":
        if ctx.side != "allies" or not ({"bombing-3", "bombing-4"} & marks_reached(ctx.rs, ctx.state, ctx.turn)):
            err("BW-AIR-BOMBING", "strategic bombing of Germany is the Allies' from 1943 (the bombing 3 mark)", "13.3", key="mission")
        elif not in_range(ctx, base, BOMBING_BOX):
            err("BW-AIR-BOMBING", f"{cid} is based in {base}: bombers fly from Britain", "13.3", key="counter")
        return out
    land = target in ctx.rs.zones and not ctx.rs.zones[target].box
    sea = target in ctx.rs.seas
    if not (land or sea):
        err("BW-AIR-ZONE", f"no land or sea zone {target!r}", "13.4.1")
    elif (mission == "superiority" and not land) or (mission in ("sea-control", "beachhead") and not sea):
        err("BW-AIR-MISSION", f"{mission} is flown to a {'land' if mission == 'superiority' else 'sea'} zone, not {target}",
            "13.4", key="mission")
    elif land and ctx.control(target) == "neutral":
        err("BW-AIR-NEUTRAL", f"{target} is in a neutral country: air units over it attack it (9.3)", "9.3, 13.4",
            hint="add attack_neutral: [CODE] to this air phase's entry: the country joins the other side at once (9.3, clar. 1)")
    elif land and snowy(ctx, target):
        err("BW-AIR-SNOW", f"{target} is under snow: no air superiority there", "13.1, 6.1")
    elif not in_range(ctx, base, target):
        err("BW-AIR-RANGE", f"{target} is out of range of {cid} in {base}", "13.4.1",
            hint="in range: own zone, 3 zones by land or blue dashed lines, the coasts of a sea its coast touches, "
                 "the seas its coast touches")
    elif mission == "beachhead":
        out += _check_beachhead(ctx, o, p, target)
    return out


BEACHHEAD_NATIONS = ("GER",)       # 13.4.5: ドイツと連合軍の空軍ユニット: German air units, and the Allies'


def beachhead_refusal(ctx: Ctx, cid: str, sea: str, zone: str) -> tuple[str, str] | None:
    """Why air unit ``cid`` cannot be set as a beachhead for ``zone`` from ``sea`` (13.4.5), with
    the rule, or None. A plain check of the order and the position, made with the other air
    orders before any unit flies or any die is rolled (validate and adjudicate alike): only
    German and Allied air units set beachheads (ドイツと連合軍の空軍ユニット; not Italian nor Soviet
    ones); the zone is a land zone with a beach on that sea (5: the map's beaches, where 14.1.2
    lands), not a naval base (海軍基地を除いた任意の海岸陸上ゾーン); the enemy does not control the
    sea (12.3)."""
    c = ctx.counters[cid]
    side = side_of(ctx, cid)
    zz = ctx.rs.zones.get(zone)
    if c["nation"] not in BEACHHEAD_NATIONS and side != "allies":
        return f"{cid} ({c['nation']}) is neither German nor Allied: only German and Allied air units set beachheads", "13.4.5"
    if zz is None or zz.box:
        return f"no land zone {zone!r}", "13.4.5"
    if sea not in zz.coasts:
        return f"{zone} is not on the coast of {sea}", "13.4.5"
    if sea not in zz.beaches:
        return f"{zone} has no beach on {sea}: no landing there", "13.4.5, 5"
    if zz.naval_base:
        return f"{zone} is a naval base: no beachhead there", "13.4.5"
    if not _sea_open(ctx, sea, side):
        return f"the enemy controls {sea} (12.3)", "13.4.5, 12.3"
    return None


def _check_beachhead(ctx: Ctx, o: dict, p: tuple, sea: str) -> list[Issue]:
    z = str(o.get("beachhead"))
    why = beachhead_refusal(ctx, str(o.get("counter")), sea, z)
    if why:
        return [Issue("BW-AIR-BEACHHEAD", f"beachhead: {why[0]}", path=p + ("beachhead",), text=z, rule=why[1])]
    return []


# ============================================================================ interception (13.2)
def interceptors(ctx: Ctx, side: str, target: str) -> list[str]:
    """The air units of ``side`` able to intercept an air unit flying to ``target``: at a base
    not under snow with the target in range (13.2, 13.4.1); a bomber only by air units in Germany
    (13.3)."""
    out = []
    for cid, c in ctx.counters.items():
        if c["type"] != "air" or not based(ctx, cid) or side_of(ctx, cid) != side or snowy(ctx, c["at"]):
            continue
        if target == BOMBING_BOX:
            if ctx.rs.zones[c["at"]].country == "GER":
                out.append(cid)
        elif in_range(ctx, c["at"], target):
            out.append(cid)
    return sorted(out)


def _standing_choice(ctx: Ctx, value: str, side: str, mission: str, target: str, options: list[str]) -> str | None:
    """What a standing ``intercept`` order answers, or None to ask."""
    st = parse_standing(value)
    if st is None or st["what"] == "ask":
        return None
    if st["what"] == "never":
        return "none"
    fits = (st["what"] == "all" or (st["what"] == "bombers" and mission == "bombing")
            or (st["what"] == "over" and target in st["zones"]))
    able = [c for c in ctx.counters if ctx.counters[c]["type"] == "air" and based(ctx, c) and side_of(ctx, c) == side]
    if not fits or len(able) - 1 < st["keep"]:
        return "none"
    return options[1]


def _intercept(ctx: Ctx, n: int, cid: str, mission: str, target: str) -> tuple[str, str, str] | None:
    """13.2: each enemy side with air in range decides, in the order of play, whether to intercept
    the unit just committed; (interceptor, chosen_by, player) or None."""
    c = ctx.counters[cid]
    for side in [s for s in SIDES if enemies(ctx.acting_side, s)]:
        if side not in ctx.state.get("sides", {}):
            continue
        units = interceptors(ctx, side, target)
        if not units:
            continue
        options = ["none"] + units
        player = ctx.player_of_side(side)
        value = ctx.standing(player, "intercept")
        pick = _standing_choice(ctx, value, side, mission, target, options)
        what = "the strategic bombing of Germany" if mission == "bombing" else f"{mission} over {target}"
        choice, how = ctx.decide(
            id=f"{_did(ctx)}.air{n}.intercept.{side}", side=side, kind="intercept", options=options,
            auto=lambda: "none", standing_key="intercept",
            standing_choices={value: pick} if pick is not None else None,
            prompt=(f"{side}: the {ctx.side} commits air unit {cid} ({c['nation']}) from {c['at']} for {what}. "
                    f"Intercept it with one of your air units in range (both are removed, 13.2), or none?"),
            context={"counter": cid, "nation": c["nation"], "from": c["at"], "to": target, "mission": mission,
                     "committed": n}, rule="13.2")
        if choice != "none":
            return choice, how, player
        ctx.emit("no-interception", air=n, counter=cid, side=side, player=player, chosen_by=how, rule="13.2")
    return None


def _did(ctx: Ctx) -> str:
    return f"t{ctx.turn:02d}.{ctx.phase}"


def _air_unit_to_pool(ctx: Ctx, cid: str) -> None:
    c = ctx.counters[cid]
    ctx.move(cid, "pool")
    for fl in ("flying", "beachhead", "used"):
        c.pop(fl, None)


# ============================================================================ the phase
def run_air(ctx: Ctx, orders: dict) -> None:
    """The air phase of ``ctx.side`` (13)."""
    _return_flown(ctx)
    entries = list(orders.get("air") or [])
    path = tuple(orders.get("_path", ("phases",))) + ("air",)
    if orders.get("attack_neutral"):
        # 9.3 (空軍も含め), clarification 1: air over a neutral attacks it; the consent makes it
        # join the other side before any unit flies (ruling air-neutral)
        from .diplomacy import consent
        errs = consent(ctx, orders)
        if errs:
            ctx.refuse(errs)
    errs = check_orders(ctx, entries, path)
    moves = list(orders.get("rebase") or [])
    errs += check_rebase(ctx, moves, tuple(orders.get("_path", ("phases",))) + ("rebase",),
                         {str(o.get("counter")) for o in entries})
    bob = orders.get("battle_of_britain")
    if bob is not None:
        errs += _check_bob(ctx, bob, tuple(orders.get("_path", ("phases",))) + ("battle_of_britain",))
        errs += _check_bob_missions(ctx, entries, path)
    if errs:
        ctx.refuse(errs)
    if bob is not None:
        battle_of_britain(ctx, bob)        # 13.4.3: before any other tactical use this turn
        entries = [o for o in entries if based(ctx, str(o["counter"]))]
    bombed = 0
    for n, o in enumerate(entries, 1):
        cid = str(o["counter"])
        mission = _mission(ctx, o)
        target = _target(ctx, o, mission)
        if mission == "bombing" and bombed >= int(ctx.rs.strategic_bombing["max_bombers"]):
            ctx.emit("air-void", air=n, counter=cid, reason="three bombers have bombed this turn already", rule="13.3")
            continue
        base = ctx.counters[cid]["at"]
        hit = _intercept(ctx, n, cid, mission, target)
        if hit:
            by, how, player = hit
            by_from = ctx.counters[by]["at"]
            _air_unit_to_pool(ctx, cid)
            _air_unit_to_pool(ctx, by)
            ctx.emit("interception", air=n, counter=cid, nation=ctx.counters[cid]["nation"], side=ctx.side, zone=target,
                     mission=mission, by=by, by_nation=ctx.counters[by]["nation"], by_from=by_from, **{"from": base},
                     chosen_by=how, player=player, rule="13.2")
            continue
        _fly(ctx, n, cid, mission, target, o)
        bombed += mission == "bombing"
    _place_beachheads(ctx, entries)
    if moves:
        sea_air(ctx.state)["rebase"] = [{"counter": str(m["counter"]), "to": str(m["to"])} for m in moves]
        ctx.emit("air-rebase-ordered", side=ctx.side, moves=sea_air(ctx.state)["rebase"], rule="13.5, clar. 7",
                 why="carried out at the end of the side's turn, through the zones it controls in this air phase")
    _record(ctx)
    # 12.3, 13.4.4: air placed at sea (or gone from it) changes the sea control at once; it is
    # worked out again here, not left as the last naval phase recorded it (supply lines, 7)
    from .seacontrol import record_sea_control
    record_sea_control(ctx, rule="12.3, 13.4.4", quiet=True)


def _fly(ctx: Ctx, n: int, cid: str, mission: str, target: str, o: dict) -> None:
    c = ctx.counters[cid]
    base = c["at"]
    ctx.move(cid, target)
    c["flying"] = True
    sa = sea_air(ctx.state)
    sa["flown"] = sorted(set(sa.get("flown", [])) | {cid})
    ev = {"air": n, "counter": cid, "nation": c["nation"], "side": ctx.side, "from": base, "zone": target, "mission": mission}
    if mission == "bombing":
        _bomb(ctx, ev)
        return
    ctx.emit("air-mission", **ev, rule={"superiority": "13.4.2", "sea-control": "13.4.4", "beachhead": "13.4.5"}[mission])
    if mission == "superiority":
        _duel(ctx, n, cid, target)


def _place_beachheads(ctx: Ctx, entries: list) -> None:
    """13.4.5: 全ての迎撃の移動が終わってから、それらの迎撃を受けなかったユニットだけが、橋頭堡として
    使用できる ("after every interception, only the units not intercepted are used as
    beachheads"): the land zone each beachhead serves, written with its order, is placed (and
    shown: event air-beachhead) only now, among the units still at their sea; no interceptor saw
    it (ruling air-beachhead-choice)."""
    for n, o in enumerate(entries, 1):
        cid = str(o.get("counter"))
        c = ctx.counters.get(cid)
        if _mission(ctx, o) != "beachhead" or c is None or not c.get("flying") or c["at"] != str(o.get("to")):
            continue
        c["beachhead"] = str(o["beachhead"])
        ctx.emit("air-beachhead", air=n, counter=cid, nation=c["nation"], side=ctx.side, zone=c["at"],
                 beachhead=c["beachhead"], rule="13.4.5")


def _duel(ctx: Ctx, n: int, cid: str, zone: str) -> None:
    """13.4.2: air units of two enemy sides used over one land zone are removed one for one."""
    foes = sorted(x for x in ctx.in_zone(zone) if ctx.counters[x]["type"] == "air" and ctx.counters[x].get("flying")
                  and enemies(ctx.acting_side, side_of(ctx, x)))
    if foes:
        foe = foes[0]
        _air_unit_to_pool(ctx, cid)
        _air_unit_to_pool(ctx, foe)
        ctx.emit("air-duel", air=n, counter=cid, nation=ctx.counters[cid]["nation"], zone=zone, foe=foe,
                 foe_nation=ctx.counters[foe]["nation"], rule="13.4.2")


def _bomb(ctx: Ctx, ev: dict) -> None:
    """13.3: each bomber not intercepted costs the Axis 3 supply (4 from 1944) at its next
    replacement phase; the bomber stays in the strategic bombing box until after it."""
    per_mark = ctx.rs.strategic_bombing["supply_per_bomber"]
    marks = marks_reached(ctx.rs, ctx.state, ctx.turn)
    per = max(int(v) for k, v in per_mark.items() if k in marks)
    sa = sea_air(ctx.state)
    b = sa.setdefault("bombing", {"bombers": [], "supply": 0})
    b["bombers"] = sorted(set(b["bombers"]) | {ev["counter"]})
    b["supply"] = int(b["supply"]) + per
    ctx.emit("bombing", **ev, supply=per, total=b["supply"], rule="13.3",
             why=f"bomber {ev['counter']} not intercepted: the Axis loses {per} supply at its next replacement phase")


def _return_flown(ctx: Ctx) -> None:
    """13.4: air units that flew a mission are removed before their side's next air phase; the
    side's air at sea and beachheads of the last turn go with them."""
    sa = sea_air(ctx.state)
    bombers = set((sa.get("bombing") or {}).get("bombers", []))
    gone = [c for c in sa.get("flown", []) if c in ctx.counters and side_of(ctx, c) == ctx.side and c not in bombers]
    for cid in gone:
        at = ctx.counters[cid]["at"]
        # only a unit still on its mission: one removed since (an air duel, 16.1's air loss) may
        # be back on the map as a replacement (11) and is not removed again (the scripted player)
        if at != "pool" and (ctx.counters[cid].get("flying") or ctx.counters[cid].get("used")):
            _air_unit_to_pool(ctx, cid)
            ctx.emit("air-returned", counter=cid, nation=ctx.counters[cid]["nation"], zone=at, rule="13.4")
    sa["flown"] = [c for c in sa.get("flown", []) if c not in gone]
    for sea, by in list((sa.get("air_at_sea") or {}).items()):
        by.pop(ctx.side, None)
        if not by:
            del sa["air_at_sea"][sea]
    sa["beachheads"] = {z: v for z, v in (sa.get("beachheads") or {}).items() if v["side"] != ctx.side}


def _record(ctx: Ctx) -> None:
    """The results of the phase in ``sea_air`` (air superiority, air at sea, beachheads)."""
    sa = sea_air(ctx.state)
    sup: dict[str, str] = {}
    at_sea: dict[str, dict[str, int]] = {}
    heads: dict[str, dict] = {}
    by_sea: dict[str, dict[str, int]] = {}
    for cid, c in sorted(ctx.counters.items()):
        if c["type"] != "air" or not c.get("flying") or c["at"] == BOMBING_BOX:
            continue
        side = side_of(ctx, cid)
        if c.get("beachhead"):
            # 13.4.5: a beachhead is on its own sea (14.1.2 lands from a port of that sea, 2 corps
            # a beachhead): one zone may have beachheads from two seas
            heads.setdefault(c["beachhead"], {"side": side})
            seas = by_sea.setdefault(c["beachhead"], {})
            seas[c["at"]] = seas.get(c["at"], 0) + 1
        elif c["at"] in ctx.rs.seas:
            at_sea.setdefault(c["at"], {}).setdefault(side, 0)
            at_sea[c["at"]][side] += 1
        elif c["at"] in ctx.rs.zones:
            s = air_superiority(ctx, c["at"])
            if s:
                sup[c["at"]] = s
    for z, seas in by_sea.items():
        first = next(iter(seas))
        heads[z].update(sea=first, n=seas[first], **({"seas": dict(sorted(seas.items()))} if len(seas) > 1 else {}))
    sa["air_superiority"] = dict(sorted(sup.items()))
    sa["air_at_sea"] = {k: dict(sorted(v.items())) for k, v in sorted(at_sea.items())}
    sa["beachheads"] = dict(sorted(heads.items()))
    for k in ("air_superiority", "air_at_sea", "beachheads"):
        if not sa[k]:
            del sa[k]


def bombing_due(state: dict) -> dict:
    """13.3: what the Axis loses at its next replacement phase, {bombers, supply} (empty: none)."""
    return dict((state.get("sea_air") or {}).get("bombing") or {})


def after_replacements(ctx: Ctx) -> None:
    """13.3: the bombers are removed after the next replacement phase (its supply loss paid by
    pbem/blitzwar/supply_losses.py)."""
    sa = ctx.state.get("sea_air") or {}
    b = sa.pop("bombing", None)
    if not b:
        return
    for cid in b.get("bombers", []):
        if cid in ctx.counters and ctx.counters[cid]["at"] == BOMBING_BOX:
            _air_unit_to_pool(ctx, cid)
            ctx.emit("air-returned", counter=cid, nation=ctx.counters[cid]["nation"], zone=BOMBING_BOX, rule="13.3")
    sa["flown"] = [c for c in sa.get("flown", []) if c not in b.get("bombers", [])]
    if not sa["flown"]:
        del sa["flown"]


# ============================================================================ what the player sees
def template_lines(ctx: Ctx) -> list[str]:
    """The air phase's entry of the order template: the order forms, the side's air units that
    can fly with their ranges (13.4.1), and the air superiority, air at sea and beachheads in
    force."""
    L = ["    # air: [{counter: ID, to: ZONE}]   # in the order written; the other side may intercept each before the next (13.2)",
         "    #   to a land zone: air superiority (13.4.2); to a sea zone: sea control (13.4.4), or with beachhead: LAND-ZONE a",
         "    #   beachhead (13.4.5, not at a naval base); {counter: ID, mission: bombing}: Germany from Britain, from 1943 (13.3)",
         "    #   no supply needed; no air in or over a land zone under snow (13.1); an air unit that flew is removed before "
         "its side's next air phase (13.4)"]
    own = sorted(c for c, v in ctx.counters.items() if v["type"] == "air" and v["at"] in ctx.rs.zones and side_of(ctx, c) == ctx.side)
    if own:
        L.append("    # your air units (id @ base: land zones in range; seas in range):")
    for cid in own[:200]:
        r = ranges(ctx, cid)
        base = ctx.counters[cid]["at"]
        if not r:
            why = "flying" if ctx.counters[cid].get("flying") else "under snow" if snowy(ctx, base) else "cannot fly"
            L.append(f"    #   {cid} @ {base}: {why}")
            continue
        land = [z for z in r if z in ctx.rs.zones]
        seas = [s for s in r if s in ctx.rs.seas]
        L.append(f"    #   {cid} @ {base}: {', '.join(land)}" + (f"; seas {', '.join(seas)}" if seas else "")
                 + ("; bombing" if in_range(ctx, base, BOMBING_BOX) and ctx.side == "allies" else ""))
    sa = ctx.state.get("sea_air") or {}
    if sa.get("air_superiority"):
        L.append("    # air superiority in force (13.4.2): " + ", ".join(f"{z} {s}" for z, s in sa["air_superiority"].items()))
    if sa.get("air_at_sea"):
        L.append("    # air at sea (13.4.4): " + ", ".join(f"{z} " + "/".join(f"{s} {n}" for s, n in v.items())
                                                           for z, v in sa["air_at_sea"].items()))
    if sa.get("beachheads"):
        L.append("    # beachheads (13.4.5): " + ", ".join(f"{z} ({v['side']}, {'/'.join(head_seas(v))})" for z, v in sa["beachheads"].items()))
    L += _bob_template(ctx)
    L.append("    air: []")
    return L


def _bob_template(ctx: Ctx) -> list[str]:
    """13.4.3 in the Axis air template, when the Battle of Britain can be fought now."""
    if ctx.side != "axis" or "allies" not in ctx.state.get("sides", {}):
        return []
    ger, allied = bob_forces(ctx)
    if not allied or len(ger) <= len(allied):
        return []
    return [f"    # battle_of_britain: {{rounds: N | all | ask}}   # 13.4.3, before any other mission: {len(ger)} German air "
            f"units within one zone of London against {len(allied)} Allied with London in range",
            "    #   each side chooses its own losses (standing order bob_losses: ask | auto | from ZONE,ZONE); rounds: ask "
            "asks you before each further round (standing order bob_rounds: stop | all | N | keep N)"]


# ============================================================================ the Battle of Britain (13.4.3)
LONDON = "london"


def bob_forces(ctx: Ctx) -> tuple[list[str], list[str]]:
    """13.4.3: the German air units within one zone of London (land links or blue dashed lines),
    and the Allied air units with London in range, both at their bases (not under snow)."""
    ger = sorted(c for c, v in ctx.counters.items() if v["type"] == "air" and v["nation"] == "GER" and based(ctx, c)
                 and not snowy(ctx, v["at"]) and (ctx.rs.air_distance(v["at"], LONDON) or 0) <= 1
                 and ctx.rs.air_distance(v["at"], LONDON) is not None)
    allied = interceptors(ctx, "allies", LONDON) if "allies" in ctx.state.get("sides", {}) else []
    return ger, allied


def _check_bob(ctx: Ctx, bob, path: tuple) -> list[Issue]:
    rounds = bob.get("rounds") if isinstance(bob, dict) else None
    if ctx.side != "axis":
        return [Issue("BW-BOB", "the Battle of Britain is fought by the Axis in its air phase", path=path, rule="13.4.3")]
    if not (rounds in ("all", "ask") or (isinstance(rounds, int) and rounds >= 1)):
        return [Issue("BW-BOB", f"battle_of_britain: {{rounds: N | all | ask}}, not {bob!r}", path=path, text=str(bob),
                      rule="13.4.3")]
    ger, allied = bob_forces(ctx)
    if len(ger) <= len(allied):
        return [Issue("BW-BOB", f"{len(ger)} German air units within one zone of London do not outnumber the {len(allied)} "
                      "Allied air units with London in range", path=path, rule="13.4.3",
                      hint="German: " + (", ".join(ger) or "none") + "; Allied: " + (", ".join(allied) or "none"))]
    return []


def _check_bob_missions(ctx: Ctx, entries: list, path: tuple) -> list[Issue]:
    """13.4, 13.4.3: every German air unit within one zone of London fights the Battle of Britain
    (its first round), a tactical use: it flies no other mission that phase."""
    ger = set(bob_forces(ctx)[0])
    return [Issue("BW-AIR-TWICE", f"{o.get('counter')} fights the Battle of Britain this phase (13.4.3), a tactical use: "
                  "an air unit flies one mission a phase (13.4)", path=path + (i, "counter"), text=str(o.get("counter")),
                  rule="13.4, 13.4.3", hint="German air units within one zone of London: " + ", ".join(sorted(ger)))
            for i, o in enumerate(entries) if isinstance(o, dict) and str(o.get("counter")) in ger]


def battle_of_britain(ctx: Ctx, bob: dict) -> None:
    """13.4.3: rounds while the German air units within one zone of London outnumber the Allied
    air units with London in range (tables.yaml's reading), as many as the Axis player orders
    (``rounds: N | all``) or decides round by round (``rounds: ask``: a decision of the Axis
    player before each round after the first, answered in advance by the standing order
    ``bob_rounds``); each round a die: 1-3 the Axis loses 2 and the Allies 1, 4-6 one each
    (rules/blitzwar/tables.yaml battle_of_britain), each side choosing which of its own air
    units are destroyed (:func:`_bob_losses`, ruling bob-loss-choice). Won when no Allied air
    unit has London in range: a landing in Britain is then allowed this turn."""
    rounds = bob["rounds"]
    k = 0
    engaged: set[str] = set()
    while True:
        ger, allied = bob_forces(ctx)
        if not allied or len(ger) <= len(allied):
            break
        k += 1
        if k > 1 and not _bob_goes_on(ctx, k, rounds, ger, allied):
            k -= 1
            break
        engaged |= set(ger)
        die = ctx.dice.roll(f"bob{k}/d6", 6)
        res = ctx.rs.battle_of_britain[die - 1]
        lost_g, how_g = _bob_losses(ctx, k, die, "axis", ger, int(res["axis"]), len(allied))
        lost_a, how_a = _bob_losses(ctx, k, die, "allies", allied, int(res["allies"]), len(ger))
        for c in lost_g + lost_a:
            _air_unit_to_pool(ctx, c)
        ctx.emit("battle-of-britain", round=k, roll={"label": ctx.dice.prefix + f"bob{k}/d6", "value": die},
                 zone=LONDON, axis_lost=lost_g, allies_lost=lost_a, chosen_by={"axis": how_g, "allies": how_a},
                 rule="13.4.3")
    won = not bob_forces(ctx)[1]
    sa = sea_air(ctx.state)
    if won:
        sa["britain_landing"] = ctx.turn
    # 13.4: the Battle of Britain is a tactical use (バトル・オブ・ブリテンの戦闘): the German air units
    # that fought it fly no other mission this phase and are removed before the next Axis air
    # phase, as any unit that flew (ruling bob-used)
    used = sorted(c for c in engaged if ctx.counters[c]["at"] != "pool")
    for c in used:
        ctx.counters[c]["used"] = "battle-of-britain"
    if used:
        sa["flown"] = sorted(set(sa.get("flown", [])) | set(used))
    ctx.emit("battle-of-britain-end", rounds=k, won=won, zone=LONDON, rule="13.4.3", used=used,
             why=("no Allied air unit has London in range: a landing in Britain is allowed this turn" if won
                  else "Allied air units still have London in range: no landing in Britain this turn"))


def bob_loss_options(ctx: Ctx, units: list[str]) -> list[str]:
    """The air units one loss may take: one counter of each nation and base (two alike are the
    same loss), the lowest id of each."""
    seen: dict[tuple[str, str], str] = {}
    for c in sorted(units):
        seen.setdefault((ctx.counters[c]["nation"], ctx.counters[c]["at"]), c)
    return sorted(seen.values())


def _bob_standing_pick(ctx: Ctx, value: str, options: list[str]) -> str | None:
    """What a standing order ``bob_losses`` chooses among ``options`` (None: it does not answer:
    ``ask``, ``auto`` (the kernel's default) or not one)."""
    st = parse_bob_losses(value)
    if st is None or st["what"] != "from":
        return None
    rank = {z: i for i, z in enumerate(st["zones"])}
    return min(options, key=lambda c: (rank.get(ctx.counters[c]["at"], len(rank)), c))


def _bob_losses(ctx: Ctx, k: int, die: int, side: str, units: list[str], n: int, foes: int) -> tuple[list[str], str]:
    """13.4.3: the ``n`` air units ``side`` loses in round ``k``, each chosen by its owner (a
    decision ``t<turn>.<phase>.bob<k>.<side>.loss<i>``, kind ``bob-losses``; standing order
    ``bob_losses``; default: the lowest id). The decision shows what the table shows: the
    round, the die, the losses of each side and the player's own units that may be lost."""
    lost: list[str] = []
    hows: list[str] = []
    player = ctx.player_of_side(side)
    value = ctx.standing(player, "bob_losses")
    for i in range(1, n + 1):
        live = [c for c in units if c not in lost]
        if not live:
            break
        options = bob_loss_options(ctx, live)
        pick = _bob_standing_pick(ctx, value, options)
        choice, how = ctx.decide(
            id=f"{_did(ctx)}.bob{k}.{side}.loss{i}", side=side, kind="bob-losses", options=options,
            auto=_first(options), standing_key="bob_losses",
            standing_choices={value: pick} if pick is not None else None,
            prompt=(f"{side}: Battle of Britain, round {k}, die {die}: you lose {n} air unit{'s' if n > 1 else ''} "
                    f"({foes} enemy air unit{'s' if foes != 1 else ''} engaged); choose loss {i} of {n}"),
            context={"round": k, "die": die, "loss": i, "of": n,
                     "counters": {c: f"{ctx.counters[c]['nation']} air @ {ctx.counters[c]['at']}" for c in options}},
            rule="13.4.3")
        lost.append(choice)
        hows.append(how)
    return lost, ", ".join(dict.fromkeys(hows)) or "none"


def _first(options: list[str]):
    return lambda: options[0]


def _bob_goes_on(ctx: Ctx, k: int, rounds, ger: list[str], allied: list[str]) -> bool:
    if rounds == "all":
        return True
    if isinstance(rounds, int):
        return k <= rounds
    value = ctx.standing(ctx.player_of_side("axis"), "bob_rounds")
    st = parse_bob_rounds(value)
    pick = None
    if st is not None and st["what"] in ("all", "rounds", "keep"):
        worst = max(int(r["axis"]) for r in ctx.rs.battle_of_britain)
        pick = "continue" if (st["what"] == "all" or (st["what"] == "rounds" and k <= st["n"])
                              or (st["what"] == "keep" and len(ger) - worst >= st["n"])) else "stop"
    choice, _ = ctx.decide(id=f"{_did(ctx)}.bob{k}", side="axis", kind="battle-of-britain", options=["continue", "stop"],
                           auto=lambda: "stop", standing_key="bob_rounds",
                           standing_choices={value: pick} if pick is not None else None,
                           prompt=(f"Battle of Britain, round {k}: {len(ger)} German air units against {len(allied)} "
                                   "Allied; fight another round?"),
                           context={"round": k, "axis": ger, "allies": allied}, rule="13.4.3")
    return choice == "continue"


def britain_landing_allowed(ctx: Ctx) -> bool:
    """13.4.3: a landing in Britain (14.1.2) needs every Allied air unit with London in range
    destroyed (ロンドンを航続距離内に収める全ての連合軍空軍ユニットを破壊): the Battle of Britain won
    this turn, or no such unit on the map at all, nothing to destroy (ruling bob-no-allied-air)."""
    if (ctx.state.get("sea_air") or {}).get("britain_landing") == ctx.turn:
        return True
    return not [c for c, v in ctx.counters.items() if v["type"] == "air" and v["at"] in ctx.rs.zones
                and side_of(ctx, c) == "allies" and in_range(ctx, v["at"], LONDON)]


# ============================================================================ strategic air movement (13.5, clar. 7)
def rebase_path(ctx: Ctx, side: str, start: str, goal: str) -> list[str] | None:
    """13.5: a way from ``start`` to ``goal`` through land zones ``side`` controls (land links or
    blue dashed lines), hopping from a coastal zone to another on the same sea; None if there is
    none. Any length (no limit)."""
    from collections import deque
    ok = lambda z: z in ctx.rs.zones and not ctx.rs.zones[z].box and ctx.control(z) == side  # noqa: E731
    if not ok(goal):
        return None
    prev: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        z = todo.popleft()
        if z == goal:
            out = [z]
            while (back := prev[out[-1]]) is not None:
                out.append(back)
            return out[::-1]
        nxt = list(ctx.rs.air_neighbours(z)) + [y for sea in ctx.rs.zones[z].coasts for y in ctx.rs.zones_on_sea(sea)]
        for y in nxt:
            if y not in prev and ok(y):
                prev[y] = z
                todo.append(y)
    return None


def check_rebase(ctx: Ctx, moves: list[dict], path: tuple, flying: set[str]) -> list[Issue]:
    """13.5: each air unit moved strategically is the side's, at its base, flies no mission this
    phase, and reaches its new base through zones the side controls now (clarification 7)."""
    out: list[Issue] = []
    seen: set[str] = set()
    for i, m in enumerate(moves):
        cid, to = str(m.get("counter")), str(m.get("to"))
        why = None
        if cid not in ctx.counters or ctx.counters[cid]["type"] != "air" or side_of(ctx, cid) != ctx.side:
            why = f"{cid} is not an air unit of the {ctx.side}"
        elif cid in seen or cid in flying:
            why = f"{cid} flies a mission or moves twice this phase"
        elif not based(ctx, cid):
            why = f"{cid} is not at a base"
        elif rebase_path(ctx, ctx.side, ctx.counters[cid]["at"], to) is None:
            why = f"no way from {ctx.counters[cid]['at']} to {to} through zones the {ctx.side} controls (coast to coast across a sea allowed)"
        seen.add(cid)
        if why:
            out.append(Issue("BW-AIR-REBASE", why, path=path + (i,), text=cid, rule="13.5, clar. 7"))
    return out


def end_of_turn_rebase(ctx: Ctx) -> None:
    """Clarification 7: the strategic air movement ordered in the side's air phase is carried out
    at the end of its turn (after its normal combat phase); an air unit no longer at a base of the
    side does not move."""
    sa = ctx.state.get("sea_air") or {}
    moves = [m for m in sa.get("rebase") or [] if m["counter"] in ctx.counters and side_of(ctx, m["counter"]) == ctx.side]
    if not moves:
        return
    for m in moves:
        cid = m["counter"]
        c = ctx.counters[cid]
        if based(ctx, cid):
            frm = c["at"]
            ctx.move(cid, m["to"])
            ctx.emit("air-rebase", counter=cid, nation=c["nation"], zone=m["to"], **{"from": frm}, rule="13.5, clar. 7")
        else:
            ctx.emit("air-void", counter=cid, reason=f"no longer at a base ({c['at']}): no strategic move", rule="13.5")
    sa["rebase"] = [m for m in sa["rebase"] if m not in moves]
    if not sa["rebase"]:
        del sa["rebase"]


def show_lines(state: dict) -> list[str]:
    """`pbem show`: what the air phases left in force (none: no line)."""
    sa = state.get("sea_air") or {}
    out = []
    if sa.get("air_superiority"):
        out.append("air superiority (13.4.2): " + ", ".join(f"{z} {s}" for z, s in sa["air_superiority"].items()))
    if sa.get("air_at_sea"):
        out.append("air at sea for sea control (13.4.4): " + ", ".join(
            f"{z} " + "/".join(f"{s} {n}" for s, n in v.items()) for z, v in sa["air_at_sea"].items()))
    if sa.get("beachheads"):
        out.append("beachheads (13.4.5): " + ", ".join(f"{z} ({v['side']}, from {'/'.join(head_seas(v))})" for z, v in sa["beachheads"].items()))
    if sa.get("bombing"):
        out.append(f"strategic bombing (13.3): the Axis loses {sa['bombing']['supply']} supply at the next replacement phase "
                   f"({', '.join(sa['bombing']['bombers'])})")
    if sa.get("britain_landing"):
        out.append(f"Battle of Britain won on turn {sa['britain_landing']}: landings in Britain allowed that turn (13.4.3)")
    return out
