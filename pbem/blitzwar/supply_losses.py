"""Supply losses of the replacement phase (11.3): one supply a national strategic point of the side
the enemy occupies, the Allies' losses to the blockade (12.4, pbem/blitzwar/seacontrol.py), and
strategic bombing (13.3, 0 until its rules come);
units given up (``cover``) pay instead, the Allies' British corps first (clarification 4).
"""
from __future__ import annotations

from fractions import Fraction

from ..core.errors import Issue, did_you_mean
from .air import bombing_due
from .cards import british_corps_on_card, major_nations
from .combat_losses import apply_loss
from .context import LAND, Ctx, corps
from .land import control, enemies
from .seacontrol import blockade

COVER_VALUE = {"infantry": 3, "fleet": 3, "armour": 5}          # 11.3
# the key of a card's units that says how many of its British corps were given up (clar. 4)
BRITISH_GIVEN_UP = "british_given_up"


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
    (armour corps), British corps before American ones (clarification 4); the rest comes off the
    card's supply, then the supply held, never below 0."""
    points = strategic_losses(ctx, side)
    blockaded, why_blockade = blockade(ctx, side)       # 12.4, checked first with the points (11.3)
    bombed = bombing_due(ctx.state) if side == "axis" else {}     # 13.3 (air.py): the bombers' supply
    loss = len(points) + blockaded + int(bombed.get("supply", 0))
    if not loss and not cover:
        return units
    units, gone, covered, issues, parts = _given_up(ctx, side, units, cover, path)
    if gone and covered - min(_smallest(ctx, g, v, parts) for g, v in gone) >= loss:
        issues.append(Issue("BW-COVER", f"the units given up cover {covered} supply; the {side} side loses {loss} this turn "
                            f"({', '.join(points) or 'no point occupied'}{f'; blockade {blockaded}' if blockaded else ''}); give up no more than is needed (11.3)",
                            path=path, rule="11.3"))
    if issues:
        ctx.refuse(issues)
    for what, _ in gone:
        if what in parts:
            _give_up_part(ctx, *parts[what])
        elif not what.startswith("card "):
            z = ctx.counters[what]["at"]
            ctx.move(what, "pool")
            ctx.emit("removed", rule="11.3", counter=what, zone=z, how="order", why="given up for supply losses")
    rest = max(0, loss - covered)
    from_card = min(rest, int(units.get("supply", 0)))
    units["supply"] = int(units.get("supply", 0)) - from_card
    held = ctx.supply(side)
    from_held = min(Fraction(rest - from_card), held)
    ctx.set_supply(side, held - from_held)
    ctx.emit("supply-loss", rule="11.3, 12.4" if blockaded else "11.3", side=side, points=points, loss=loss,
             blockade=blockaded, **({"blockade_why": why_blockade} if blockaded else {}), bombing=int(bombed.get("supply", 0)),
             **({"bombers": list(bombed["bombers"])} if bombed.get("supply") else {}),
             covered=min(covered, loss), given_up=[g for g, _ in gone], from_card=from_card,
             from_held=str(from_held), not_paid=str(rest - from_card - from_held), held=ctx.state["supply"][side])
    return units


def _smallest(ctx: Ctx, what: str, value: int, parts: dict) -> int:
    """The supply the smallest unit of one thing given up covers (a corps or fleet unit of a
    counter, 8: a counter can be split; a unit of the card): giving up more than needed is
    giving up one more unit than covers the losses (ruling repl-supply-losses)."""
    if what.startswith("card "):
        return COVER_VALUE[what.split(" ", 1)[1]]
    cid, part = parts.get(what, (what, None))
    if part is not None:
        return min(COVER_VALUE[k] for k in part)
    c = ctx.counters[cid]
    if c["type"] == "fleet":
        return COVER_VALUE["fleet"]
    i, a = corps(c)
    return COVER_VALUE["infantry"] if i else COVER_VALUE["armour"] if a else value


def _give_up_part(ctx: Ctx, cid: str, part: dict[str, int]) -> None:
    """8, 11.10 with 11.3: corps (or fleet units) of a counter on the map given up, as if split off
    it by a reorganisation (ユニットの再編…補充…フェイズ中、任意の時点で) and given up: the counter
    is reduced (ruling repl-cover-part)."""
    c = ctx.counters[cid]
    z = c["at"]
    before = f"{c['nation']} {c['type']} {c['units']}"
    for k, n in part.items():
        for _ in range(n):
            if k == "fleet":
                c["units"] = int(c["units"]) - 1
                if c["units"] == 0:
                    c["at"], c["units"] = "pool", 1
            else:
                # a corps given up, not a combat loss: an entrenched counter does not absorb it (15.1)
                dug_in = c.pop("entrenched", None)
                apply_loss(ctx, f"{cid}/{k}")
                if dug_in and c["at"] != "pool":
                    c["entrenched"] = dug_in
    after = "to the pool" if c["at"] == "pool" else f"{c['nation']} {c['type']} {c['units']}"
    ctx.emit("removed", rule="11.3, 8", counter=cid, zone=z, how="order", given_up=dict(part), before=before, after=after,
             why="corps given up for supply losses (split off by a reorganisation, 8)")


def _given_up(ctx: Ctx, side: str, units: dict, cover: list, path: tuple) -> tuple[dict, list, int, list[Issue], dict]:
    """The units of ``cover`` (counters on the map, whole or in part, or units of the card),
    checked: (the card's units left, [(what, supply covered)], supply covered, issues, {what:
    (counter, {type: corps})} of the counters given up in part)."""
    units = dict(units)
    british = british_corps_on_card(ctx, side, units)
    gone, covered, issues = [], 0, []
    parts: dict[str, tuple[str, dict[str, int]]] = {}
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
            part = {k: int(item[k]) for k in COVER_VALUE if k in item and int(item[k]) > 0}
            if part:
                # 8: a counter may be reorganised at any time of the replacement phase: a part of
                # it given up is the corps split off it (ruling repl-cover-part)
                have = dict(zip(("infantry", "armour"), corps(c), strict=True))
                have["fleet"] = int(c["units"]) if c["type"] == "fleet" else 0
                bad = [k for k, n in part.items() if n > have.get(k, 0)]
                if bad:
                    issues.append(Issue("BW-COVER", f"{cid}: gives up {', '.join(f'{part[k]} {k}' for k in bad)}; it holds "
                                        f"{', '.join(f'{have[k]} {k}' for k in bad)} (11.3)", path=path + (i,), text=str(cid),
                                        rule="11.3"))
                    continue
                what = f"{cid} ({', '.join(f'{k} {n}' for k, n in part.items())})"
                v = sum(COVER_VALUE[k] * n for k, n in part.items())
                parts[what] = (cid, part)
                gone.append((what, v))
                covered += v
                continue
            gone.append((cid, cover_value(c)))
            covered += cover_value(c)
            continue
        for k, n in item.items():
            if k not in COVER_VALUE or int(units.get(k, 0)) < int(n):
                issues.append(Issue("BW-COVER", f"cover {k}: {n}: the card of turn {ctx.turn} has {units.get(k, 0)} {k} "
                                    "(only infantry, armour and fleets cover losses, 11.3)", path=path + (i, k), rule="11.3"))
                continue
            units[k] = int(units[k]) - int(n)
            gone.append((f"card {k}", COVER_VALUE[k] * int(n)))
            covered += COVER_VALUE[k] * int(n)
    card_corps = sum(int(n) for item in cover if isinstance(item, dict) and "counter" not in item
                     for k, n in item.items() if k in ("infantry", "armour"))
    if side == "allies":
        # clarification 4: the corps of the card given up are its British corps first
        units[BRITISH_GIVEN_UP] = min(british, card_corps)
        issues += _british_first(ctx, [parts[g][0] if g in parts else g for g, _ in gone if not g.startswith("card ")],
                                 british - min(british, card_corps), path)
    return units, gone, covered, issues, parts


def _british_first(ctx: Ctx, counters: list[str], british_on_card: int, path: tuple) -> list[Issue]:
    """Clarification 4 (連合国が、補給ポイントの代わりに軍団を減らす事を選択した場合、まず最初に
    イギリス軍の軍団から失われます): an American corps is given up only when no British corps is
    left to give, on the card or on the map."""
    us = [c for c in counters if ctx.counters[c]["nation"] == "US" and ctx.counters[c]["type"] in LAND]
    if not us:
        return []
    uk_map = sorted(x for x, c in ctx.counters.items() if c["nation"] == "UK" and c["type"] in LAND
                    and c["at"] in ctx.rs.zones and x not in counters)
    if not british_on_card and not uk_map:
        return []
    left = ([f"{british_on_card} British corps of the card"] if british_on_card else []) + uk_map[:6]
    return [Issue("BW-COVER", f"{', '.join(us)}: American corps are given up for supply losses only after the British "
                  f"ones (clarification 4); British corps left: {', '.join(left)}", path=path, text=us[0], rule="11.3, clar. 4",
                  hint="give up British corps first: {infantry: N} of the card, or {counter: ID} of a British counter")]
