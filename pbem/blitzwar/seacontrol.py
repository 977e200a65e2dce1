"""Straits (12.1), sea control (12.3) and the blockade (12.4): what the naval phase leaves in
force for the rest of the turn, read by land supply (7), sea transport (14), beachheads
(13.4.5) and lend-lease (11.4).

The state keeps the sea control in force under ``sea_air.sea_control`` ({SEA: side}, a sea
zone no side controls not listed); :func:`record_sea_control` works it out from the counters at sea and
from the air units air.py records in ``sea_air.air_at_sea`` (read through
:func:`air_at_sea`), at the end of every naval phase and whenever the air
phase calls it. Other modules read it through :func:`sea_control` and cross straits through
:func:`strait_open`. Readings: ruling sea-control-camps, ruling straits-by-side, ruling
blockade-units (rules/blitzwar/rulings.yaml).
"""
from __future__ import annotations

import math
from typing import Any

from .context import Ctx, nation_side, typed_ids, zone_control

NAVAL = ("fleet", "uboat")


def _camp(side: str) -> str:
    """The two camps at sea: the Axis, and the Allies with the USSR (2)."""
    return "axis" if side == "axis" else "allied"


# ------------------------------------------------------------------------------ straits (12.1)
def strait_open(ctx: Ctx, side: str, strait: str) -> bool:
    """12.1: ジブラルタル、ボスポラス、コペンハーゲンの各海峡を通して、艦隊を移動させたり、海輸を行ったり、
    補給線を通そうとする場合、そのプレイヤーは、それぞれにジブラルタル、イスタンブール、コペンハーゲンを
    支配していなくてはならない: a fleet, a sea transport or a supply line of ``side`` passes the
    strait only when ``side`` controls its city (Gibraltar, Istanbul, Copenhagen). The same
    test as land supply's sea links (supply._Network.sea_steps)."""
    st = ctx.rs.straits[strait]
    return zone_control(ctx.rs, ctx.state, st.city) == side


def strait_between(rs: Any, a: str, b: str) -> str | None:
    """The strait a sea link between ``a`` and ``b`` goes through (None: an open link)."""
    for x, y, strait in rs.sea_links:
        if {x, y} == {a, b}:
            return strait
    return None


def seas_linked(rs: Any, a: str, b: str) -> bool:
    return b in rs.sea_neighbours(a)


# ------------------------------------------------------------------------------ the Persian Gulf (11.4)
ASIA_BASE = "asia"
GULF = "persian-gulf"


def gulf_places(rs: Any) -> frozenset[str]:
    """11.4 (note): 補充としてアジア基地に配置された連合軍艦隊のみが、ペルシャ湾に移動できる。一度、
    そこに置かれたら、それらは他の海エリアに移動できない ("only Allied fleets placed at the Asia
    base as replacements may move to the Persian Gulf; once there, they may not move to another
    sea area"): the Persian Gulf, the Asia base and the ports whose only sea is the Gulf
    (Basra). A naval unit there never moves out of them, and none moves in from outside."""
    if _GULF and _GULF[0] is rs:
        return _GULF[1]     # the map's: worked out once per world (every naval step asks)
    if GULF not in rs.seas:
        places: frozenset[str] = frozenset()
    else:
        ports = {z for z, v in rs.zones.items() if v.port and v.coasts and set(v.coasts) <= {GULF}}
        places = frozenset({GULF, ASIA_BASE, *ports})
    _GULF[:] = [rs, places]
    return places


_GULF: list = []        # [the world, its gulf_places] last asked about


def gulf_refused(rs: Any, a: str, b: str) -> str | None:
    """Why a naval step from ``a`` to ``b`` breaks 11.4's Persian Gulf rule (None: it does not)."""
    inside = gulf_places(rs)
    if not inside or (a in inside) == (b in inside):
        return None
    if a in inside:
        return "fleets placed at the Asia base never leave the Persian Gulf (11.4)"
    return "only fleets placed at the Asia base reach the Persian Gulf (11.4)"


# ------------------------------------------------------------------------------ sea control (12.3)
def sea_control(ctx: Ctx, sea: str) -> str | None:
    """The side with sea control of ``sea`` in force (12.3), as last recorded; None: no one."""
    return ((ctx.state.get("sea_air") or {}).get("sea_control") or {}).get(sea)


def camp_holds(ctx: Ctx, sea: str, side: str) -> bool:
    """Whether ``side``'s camp (the Axis; the Allies with the USSR, 2) has sea control of ``sea``
    (12.3), whichever side of the camp it is recorded for (ruling sea-control-camps)."""
    holder = sea_control(ctx, sea)
    return holder is not None and _camp(holder) == _camp(side)


def sea_control_map(state: dict) -> dict[str, str]:
    """The sea control in force: {sea: side} (for the supply network and the map)."""
    return dict((state.get("sea_air") or {}).get("sea_control") or {})


def air_at_sea(ctx: Ctx, sea: str) -> dict[str, int]:
    """Air units each side used for sea control in ``sea`` this turn (13.4.4; beachheads do not
    count, 13.4.5): the input to sea control (12.3), as air.py records it (read here, below the
    air rules, issue 30)."""
    return dict(((ctx.state.get("sea_air") or {}).get("air_at_sea") or {}).get(sea, {}))


def _naval_at_sea(ctx: Ctx) -> dict[str, dict[str, dict[str, int]]]:
    """Place -> side -> {fleet, uboat, air: units} of the fleets and U-boats (the ``air`` 0:
    :func:`forces_at_sea` adds it), from the naval counters alone (context.typed_ids; the
    order of the places and sides is never read)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    cs = ctx.counters
    by_type = typed_ids(cs)
    for kind in NAVAL:
        for cid in by_type.get(kind, ()):
            c = cs[cid]
            s = nation_side(ctx.rs, ctx.state, c["nation"])
            if s != "neutral":
                d = out.setdefault(c["at"], {}).setdefault(s, {"fleet": 0, "uboat": 0, "air": 0})
                d[kind] += int(c["units"])
    return out


def forces_at_sea(ctx: Ctx, sea: str, naval: dict[str, dict[str, dict[str, int]]] | None = None) -> dict[str, dict[str, int]]:
    """Side -> {fleet, uboat, air: units} at ``sea``: the fleets and U-boats whose counter is
    at the sea zone (a fleet in port is in a land zone, not at sea), the air units air.py
    records there (13.4.4). ``naval``: :func:`_naval_at_sea`, for a caller asking of every sea."""
    if naval is None:
        naval = {sea: _naval_at_sea(ctx).get(sea, {})}
    out = {s: dict(d) for s, d in naval.get(sea, {}).items()}
    for s, n in (air_at_sea(ctx, sea) or {}).items():
        if int(n) > 0:
            out.setdefault(s, {"fleet": 0, "uboat": 0, "air": 0})["air"] += int(n)
    return out


def compute(ctx: Ctx, sea: str, naval: dict[str, dict[str, dict[str, int]]] | None = None) -> tuple[str | None, str]:
    """12.3, worked out from the forces at sea: (side, why). A camp has sea control when it has
    fleets or air there and the enemy neither; or fleets and air both, and the enemy only one
    of the two. Fleets alone against air alone: no one. U-boats never count (Uボートは、
    制海権には影響しない). Of the Allies and the USSR (one camp, 2) the side with more there
    (the Allies on a tie) is named. ``naval``: as :func:`forces_at_sea`."""
    f = forces_at_sea(ctx, sea, naval)
    kinds: dict[str, set[str]] = {"axis": set(), "allied": set()}
    for s, d in f.items():
        kinds[_camp(s)] |= {k for k in ("fleet", "air") if d[k] > 0}
    a, b = kinds["axis"], kinds["allied"]
    winner = None
    if a and not b:
        winner, why = "axis", f"Axis {' and '.join(sorted(a))}, no enemy fleet or air"
    elif b and not a:
        winner, why = "allied", f"Allied {' and '.join(sorted(b))}, no enemy fleet or air"
    elif len(a) == 2 and len(b) == 1:
        winner, why = "axis", f"Axis fleets and air against {next(iter(b))} only"
    elif len(b) == 2 and len(a) == 1:
        winner, why = "allied", f"Allied fleets and air against {next(iter(a))} only"
    elif a and b:
        why = ("fleets only against air only" if a != b else
               "both sides have " + (" and ".join(sorted(a)) if len(a) == 2 else next(iter(a))))
    else:
        why = "no fleet or air unit at sea (U-boats do not count)"
    if winner == "allied":
        al = sum(v for k, v in f.get("allies", {}).items() if k != "uboat")
        us = sum(v for k, v in f.get("ussr", {}).items() if k != "uboat")
        winner = "ussr" if us > al else "allies"
    return winner, why


def record_sea_control(ctx: Ctx, *, rule: str = "12.3", quiet: bool = False) -> dict[str, str]:
    """Work out the sea control of every sea zone (12.3) and record it in ``sea_air.sea_control``;
    a ``sea-control`` event says what is in force and what changed, and why (``quiet``: only
    when something changed, as after an air phase, 13.4.4)."""
    before = sea_control_map(ctx.state)
    now: dict[str, str] = {}
    why: dict[str, str] = {}
    naval = _naval_at_sea(ctx)
    for sea in ctx.rs.seas:
        s, w = compute(ctx, sea, naval)
        if s:
            now[sea] = s
        if s or before.get(sea):
            why[sea] = w
    sa = dict(ctx.state.get("sea_air") or {})
    if now:
        sa["sea_control"] = dict(sorted(now.items()))
    else:
        sa.pop("sea_control", None)
    if sa:
        ctx.state["sea_air"] = sa
    else:
        ctx.state.pop("sea_air", None)
    changed = {k: now.get(k) for k in sorted(set(before) | set(now)) if before.get(k) != now.get(k)}
    if changed or (now and not quiet):
        ctx.emit("sea-control", rule=rule, control=dict(sorted(now.items())), changed=changed,
                 why=dict(sorted(why.items())))
    return now


# ------------------------------------------------------------------------------ blockade (12.4)
BLOCKADE_SEAS = {"north-atlantic": 1, "mid-atlantic": 2}    # 1 supply a unit; half a unit (rounded up)


def blockade(ctx: Ctx, side: str) -> tuple[int, dict]:
    """12.4 (補充フェイズに、北大西洋ゾーンにある枢軸艦隊またはUボート1ユニットにつき、連合軍が受け取る
    補給ユニットは1減ります。また中部大西洋にある枢軸艦隊またはUボート1ユニットにつき、連合軍の受け取る
    補給ユニット半個分（端数切り上げ）が減少します。連合軍が損失する補給ユニットは、連合軍が英国内に支配
    する国家戦略ポイント（通常7）を超えては失われません): the Allied supply lost in the
    replacement phase to Axis fleets and U-boats in the North Atlantic (1 a unit) and the
    Mid-Atlantic (half a unit, the total rounded up), never more than the national strategic
    points the Allies control in Britain. (loss, why) for the report; 0 for any other side."""
    if side != "allies":
        return 0, {}
    units = {}
    for sea in BLOCKADE_SEAS:
        units[sea] = sum(int(c["units"]) for c in ctx.counters.values()
                         if c["at"] == sea and c["type"] in NAVAL and nation_side(ctx.rs, ctx.state, c["nation"]) == "axis")
    raw = units["north-atlantic"] + math.ceil(units["mid-atlantic"] / 2)
    britain = ctx.rs.areas.get("britain", ())
    cap = sum(1 for z in britain if z in ctx.rs.zones and ctx.rs.zones[z].strategic == "national"
              and zone_control(ctx.rs, ctx.state, z) == "allies")
    loss = min(raw, cap)
    why = {"north_atlantic": units["north-atlantic"], "mid_atlantic": units["mid-atlantic"], "uncapped": raw,
           "cap": cap}
    return loss, why


__all__ = ["blockade", "camp_holds", "compute", "forces_at_sea", "record_sea_control", "sea_control", "sea_control_map",
           "strait_open"]
