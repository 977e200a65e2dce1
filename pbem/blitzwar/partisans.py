"""The Yugoslav partisans (9.5).

ユーゴスラビアの降伏から3季節（シーズン）後の補充ターン（11.2参照）に、連合国はサイコロを1個振る:
in the replacement turn (the first turn of a season, 11.2) three seasons after Yugoslavia's
surrender (``flags.yug_surrendered``: the turn, written by the diplomacy phase), the Allies roll
a die: 3, 4, 5 bring 1 corps of Yugoslav partisans, 6 brings 2 (tables ``partisans.corps``).
They are placed freely in zones of Yugoslavia without Axis units (a decision of the Allied
player per corps, ``tNN.replacements.partisans-N``; default: the first such zone in zone order;
none: the corps is lost). They fight for the Allies (Yugoslavia's ``war`` entry becomes
``allies``) as units of a minor country for combat and supply (nation YUG: in supply at home,
9.1/7; they stay in Yugoslavia, 9.6). ``flags.partisans``: the turn of the roll (one roll only).
Ruling partisans-roll. The Montenegro limit (バルチザンは、他のゾーンを支配するまでは、海輸するために
モンテネグロを占領する事はできません, "the partisans cannot occupy Montenegro for sea transport
until they control another zone"): :func:`montenegro_barred`, read by sea transport (14,
pbem/blitzwar/transport.py); ruling partisans-montenegro.
"""
from __future__ import annotations

from collections.abc import Callable

from .context import LAND, Ctx
from .placing import _put_minor

SEASONS = ("winter", "spring", "summer", "autumn")


def season_index(ctx: Ctx, turn: int) -> int:
    t = ctx.rs.turns[turn]
    return int(t.year) * 4 + SEASONS.index(t.season)


def due(ctx: Ctx) -> bool:
    """The replacement turn three seasons after Yugoslavia's surrender (9.5)."""
    f = ctx.state.get("flags") or {}
    if "yug_surrendered" not in f or "partisans" in f or "YUG" not in (f.get("surrendered") or ()):
        return False
    t = ctx.rs.turns[ctx.turn]
    first_of_season = ctx.turn == ctx.rs.turn_list[0] or ctx.rs.turns[ctx.turn - 1].season != t.season
    return first_of_season and season_index(ctx, ctx.turn) >= season_index(ctx, int(f["yug_surrendered"])) + 3


MONTENEGRO = "montenegro"


def montenegro_barred(ctx: Ctx, side: str, zone: str) -> str | None:
    """9.5: why ``zone`` is no port for ``side``'s sea transport now (None: it is not barred):
    Montenegro, while the partisans fight (Yugoslavia surrendered, its ``war`` entry the
    Allies') and the Allies control no other zone of Yugoslavia (ruling partisans-montenegro)."""
    if zone != MONTENEGRO or side != "allies" or zone not in ctx.rs.zones:
        return None
    f = ctx.state.get("flags") or {}
    if ("partisans" not in f or "YUG" not in (f.get("surrendered") or ())
            or (ctx.state.get("war") or {}).get("YUG") != "allies"):
        return None
    if any(z != zone and ctx.control(z) == side for z in ctx.rs.country_zones("YUG")):
        return None
    return ("the partisans hold no zone of Yugoslavia besides Montenegro: it is no port for sea transport until they "
            "control another (9.5)")


def free_zones(ctx: Ctx) -> list[str]:
    return sorted(z for z in ctx.rs.country_zones("YUG")
                  if not any(ctx.counters[c]["type"] in LAND and ctx.side_of(c) == "axis" for c in ctx.in_zone(z)))


def _first_of(opts: list[str]) -> Callable[[], str]:
    return lambda: opts[0]


def run(ctx: Ctx) -> None:
    """9.5: the Allied roll and the partisans' placement (end of phase 3, after every order of
    the phase is checked: ruling partisans-roll)."""
    if not due(ctx):
        return
    f = ctx.state.setdefault("flags", {})
    f["partisans"] = ctx.turn
    value = ctx.dice.roll("partisans/d6", 6)
    n = int(ctx.rs.docs["tables"]["partisans"]["corps"][value - 1])
    placed: list[str] = []
    zones: list[str] = []
    if n:
        war = ctx.state.setdefault("war", {})
        war["YUG"] = "allies"
        ctx.state["war"] = dict(sorted(war.items()))
        for cid, c in ctx.counters.items():
            if c["nation"] == "YUG" and c["at"] == "out":
                ctx.move(cid, "pool")      # Yugoslavia's counters serve the partisans (3)
    for i in range(1, n + 1):
        opts = free_zones(ctx)
        if not opts:
            break
        zone, _ = ctx.decide(id=f"t{ctx.turn:02d}.replacements.partisans-{i}", side="allies", kind="partisans-zone",
                             options=opts, auto=_first_of(opts),
                             prompt=f"Yugoslav partisans (9.5): where does corps {i} of {n} appear (a zone of Yugoslavia "
                                    "without Axis units)?", rule="9.5")
        zones.append(zone)
        placed += _put_minor(ctx, "YUG", zone, {"infantry": 1})
    ctx.emit("partisans", rule="9.5", roll={"label": ctx.dice.prefix + "partisans/d6", "value": value}, corps=n,
             zones=zones, counters=placed,
             text=(f"{n} corps of Yugoslav partisans appear and fight for the Allies" if n else "no partisans appear"))
