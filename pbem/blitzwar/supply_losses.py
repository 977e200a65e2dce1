"""Supply losses of the replacement phase (11.3): one supply a national strategic point of the side
the enemy occupies (blockade 12.4 and strategic bombing 13.3 count 0 until their rules come);
units given up (``cover``) pay instead.
"""
from __future__ import annotations

from fractions import Fraction

from ..core.errors import Issue, did_you_mean
from .cards import major_nations
from .context import Ctx
from .land import control, enemies

COVER_VALUE = {"infantry": 3, "fleet": 3, "armour": 5}          # 11.3


def strategic_losses(ctx: Ctx, side: str) -> list[str]:
    """11.3: the side's national strategic points occupied by the enemy."""
    return sorted(z.id for z in ctx.rs.zones.values()
                  if z.strategic == "national" and z.strategic_side == side and enemies(side, control(ctx, z.id)))


def cover_value(c: dict) -> int:
    if c["type"] == "white-tank":
        return 3 * int(c.get("infantry", 0)) + 5 * int(c.get("armour", 0))
    return COVER_VALUE.get(c["type"], 0) * int(c["units"])


def supply_losses(ctx: Ctx, side: str, units: dict, cover: list, path: tuple) -> dict:
    """11.3: one supply a national strategic point the enemy occupies (blockade 12.4 and bombing
    13.3: 0 until their rules); units given up (``cover``) count 3 (infantry corps, fleet) or 5
    (armour corps); the rest comes off the card's supply, then the supply held, never below 0."""
    points = strategic_losses(ctx, side)
    loss = len(points)
    if not loss and not cover:
        return units
    units = dict(units)
    gone, covered, issues = [], 0, []
    nations = major_nations(ctx, side)
    for i, item in enumerate(cover):
        if not isinstance(item, dict):
            continue
        if "counter" in item:
            cid = item["counter"]
            c = ctx.counters.get(cid)
            if c is None or c["at"] not in ctx.rs.zones or c["nation"] not in nations or cover_value(c) == 0:
                guess = "" if c is not None else did_you_mean(cid, [x for x, v in ctx.counters.items() if v["nation"] in nations
                                                                    and v["at"] in ctx.rs.zones])
                issues.append(Issue("BW-COVER", f"{cid}: only an infantry, armour or fleet counter of the {side} side on the "
                                    f"map can be given up for supply losses (11.3){guess}", path=path + (i, "counter"),
                                    text=str(cid), rule="11.3"))
                continue
            gone.append((cid, cover_value(c)))
            covered += cover_value(c)
        else:
            for k, n in item.items():
                if k not in COVER_VALUE or int(units.get(k, 0)) < int(n):
                    issues.append(Issue("BW-COVER", f"cover {k}: {n}: the card of turn {ctx.turn} has {units.get(k, 0)} {k} "
                                        "(only infantry, armour and fleets cover losses, 11.3)", path=path + (i, k), rule="11.3"))
                    continue
                units[k] = int(units[k]) - int(n)
                gone.append((f"card {k}", COVER_VALUE[k] * int(n)))
                covered += COVER_VALUE[k] * int(n)
    if gone and covered - min(v for _, v in gone) >= loss:
        issues.append(Issue("BW-COVER", f"the units given up cover {covered} supply; the {side} side loses {loss} this turn "
                            f"({', '.join(points) or 'no point occupied'}); give up no more than is needed (11.3)",
                            path=path, rule="11.3"))
    if issues:
        ctx.refuse(issues)
    for what, _ in gone:
        if not what.startswith("card "):
            z = ctx.counters[what]["at"]
            ctx.counters[what]["at"] = "pool"
            ctx.emit("removed", rule="11.3", counter=what, zone=z, how="order", why="given up for supply losses")
    rest = max(0, loss - covered)
    from_card = min(rest, int(units.get("supply", 0)))
    units["supply"] = int(units.get("supply", 0)) - from_card
    held = ctx.supply(side)
    from_held = min(Fraction(rest - from_card), held)
    ctx.set_supply(side, held - from_held)
    ctx.emit("supply-loss", rule="11.3", side=side, points=points, loss=loss, blockade=0, bombing=0,
             covered=min(covered, loss), given_up=[g for g, _ in gone], from_card=from_card,
             from_held=str(from_held), not_paid=str(rest - from_card - from_held), held=ctx.state["supply"][side])
    return units
