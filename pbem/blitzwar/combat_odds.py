"""BlitzWAR land combat: odds, column shifts (16.3) and the table's result with its reductions (16.2).
"""
from __future__ import annotations

from .combat_common import (
    _did,
    across_line,
    across_river,
    air_superiority,
    corps,
    flags,
    from_beachhead,
    marks,
    n_corps,
    side_of,
    surrendered,
    turn_marks,
)
from .context import Ctx, german_defence_points
from .supply import defends_in_supply


# ============================================================================ odds and shifts
def _prov_note(prov: dict | None, item: str) -> dict | None:
    if (prov or {}).get("status", "provisional") == "provisional":
        return {"item": item, "note": (prov or {}).get("note", "")}
    return None


def shifts_for(ctx: Ctx, zone: str, attackers: list[str], defenders: list[str], kind: str, n: int) -> tuple[list[dict], list[dict], bool]:
    """(right shifts, left shifts, german_defence_used) of 16.3 for one attack."""
    right = _right_shifts(ctx, zone, attackers, defenders)
    left, german_used = _german_defence(ctx, zone, defenders, n)
    return right, left + _left_shifts(ctx, zone, attackers, defenders), german_used


def _german_window(ctx: Ctx, attackers: list[str], defenders: list[str]) -> list[dict]:
    """16.3.1: German +1 (one shift whatever number of conditions)."""
    cs, rs, f = ctx.counters, ctx.rs, flags(ctx)
    def_corps = sum(n_corps(cs[c]) for c in defenders)
    why = []
    w = f.get("first_attack_west")
    if w is not None and ctx.turn - int(w) < 3 and surrendered(ctx, "POL") and \
            any(side_of(ctx, c) == "allies" for c in defenders):
        why.append(f"within 3 turns of the first attack on Belgium-Netherlands/France (turn {w}), Poland conquered")
    e = f.get("first_attack_ussr")
    if e is not None and ctx.turn - int(e) < 5 and any(cs[c]["nation"] == "USSR" for c in defenders) \
            and "winter-1942" not in turn_marks(ctx):
        why.append(f"within 5 turns of the first attack on the USSR/East Poland (turn {e})")
    minor = sum(n_corps(cs[c]) for c in defenders if rs.countries.get(cs[c]["nation"]) and rs.countries[cs[c]["nation"]].kind == "minor")
    if def_corps and minor * 2 > def_corps:
        why.append("most defending corps are of minor countries")
    if any(cs[c].get("elite") for c in attackers):
        why.append("an elite counter attacks")
    return [{"shift": 1, "reason": "German attack: " + "; ".join(why), "rule": "16.3.1"}] if why else []


def _right_shifts(ctx: Ctx, zone: str, attackers: list[str], defenders: list[str]) -> list[dict]:
    """16.3.1: the shifts to the right."""
    cs, side, f = ctx.counters, ctx.side, flags(ctx)
    att_nat = {cs[c]["nation"] for c in attackers}
    right: list[dict] = _german_window(ctx, attackers, defenders) if "GER" in att_nat else []
    # British against Italians alone
    if "UK" in att_nat and defenders and all(cs[c]["nation"] == "ITA" for c in defenders):
        t0 = f.get("first_uk_vs_italy", ctx.turn)
        if ctx.turn - int(t0) < 2:
            right.append({"shift": 2, "reason": f"British attack Italians alone, first two turns (from turn {t0})", "rule": "16.3.1"})
        else:
            right.append({"shift": 1, "reason": "British attack Italians alone", "rule": "16.3.1"})
    if any(corps(cs[c])[1] for c in attackers):
        right.append({"shift": 1, "reason": "armour among the attackers", "rule": "16.3.1"})
    if air_superiority(ctx, zone) == side:
        right.append({"shift": 2, "reason": "attacker's air superiority", "rule": "16.3.1"})
    if defenders and not any(defends_in_supply(ctx, c) for c in defenders):
        right.append({"shift": 2, "reason": "defenders out of supply", "rule": "16.3.1, 17.5"})
    return right


def _german_defence(ctx: Ctx, zone: str, defenders: list[str], n: int) -> tuple[list[dict], bool]:
    """16.3.2: German or Finnish corps defend (from the german-defence-conditional mark only with
    20 Axis strategic points at the end of the last turn, context.german_defence_points; none in
    the USSR in winter 1942); with other Axis nations
    beside the Germans the Axis chooses (then one loss must be a German corps). Returns (the
    left shift or none, whether the German condition on losses applies)."""
    rs, cs = ctx.rs, ctx.counters
    gf = [c for c in defenders if cs[c]["nation"] in ("GER", "FIN")]
    if not gf:
        return [], False
    conditional = "german-defence-conditional" in marks(ctx)
    pts, at_end = german_defence_points(rs, ctx.state) if conditional else (0, None)
    cond = not conditional or pts >= rs.german_defence_at
    winter = "winter-1942" in turn_marks(ctx) and rs.zones[zone].country == "USSR"
    if not cond or winter:
        return [], False
    others = [c for c in defenders if cs[c]["nation"] not in ("GER", "FIN")]
    use = "use"
    if others and any(cs[c]["nation"] == "GER" for c in defenders):
        use, how = ctx.decide(id=f"{_did(ctx, n)}.german-defence", side=side_of(ctx, defenders[0]), kind="german-defence",
                              options=["use", "decline"], auto=lambda: "use", standing_key="german_defence",
                              prompt=f"The {ctx.side} attack {zone} (attack {n}): use the German defence shift "
                                     f"(then one loss must be a German corps)?",
                              context={"zone": zone, "defenders": defenders}, rule="16.3.2")
        ctx.emit("german-defence", combat=n, zone=zone, choice=use, chosen_by=how,
                 player=ctx.player_of_side(side_of(ctx, defenders[0])), rule="16.3.2")
    if use != "use":
        return [], False
    when = "now, no turn end recorded" if at_end is None else f"at the end of turn {at_end}"
    extra = f" ({pts} Axis strategic points {when}, {rs.german_defence_at} needed)" if conditional else ""
    return ([{"shift": 1, "reason": "German or Finnish corps defend" + extra, "rule": "16.3.2"}],
            any(cs[c]["nation"] == "GER" for c in defenders))


def _left_shifts(ctx: Ctx, zone: str, attackers: list[str], defenders: list[str]) -> list[dict]:
    """16.3.2: the shifts to the left besides the German defence: entrenchment, the defender's
    air superiority, terrain (one), fortress, fortress line."""
    rs, cs, side = ctx.rs, ctx.counters, ctx.side
    z = rs.zones[zone]
    left: list[dict] = []
    sup = air_superiority(ctx, zone)
    if defenders and all(cs[c].get("entrenched") for c in defenders):
        left.append({"shift": 1, "reason": "every defender entrenched", "rule": "16.3.2, 15.1"})
    if sup and sup != side and defenders and sup == side_of(ctx, defenders[0]):
        left.append({"shift": 2, "reason": "defender's air superiority", "rule": "16.3.2"})
    te = rs.terrain_effects
    terrain = None
    edge = None
    if attackers and all(across_river(ctx, c, zone) or from_beachhead(ctx, c) for c in attackers):
        if all(from_beachhead(ctx, c) for c in attackers):
            edge = (int(te.get("coast", {}).get("shift", 1)), "attack from a beachhead (coast)")
        else:
            edge = (int(te.get("river", {}).get("shift", 1)), "every attacker across a river")
    if int(te.get(z.terrain, {}).get("shift", 0)):
        terrain = (int(te[z.terrain]["shift"]), f"{z.terrain} ({z.name})" + (f", also {edge[1]}" if edge else ""))
    elif edge:
        terrain = edge
    if terrain:
        left.append({"shift": terrain[0], "reason": f"terrain: {terrain[1]}; one terrain shift only", "rule": "16.3.2"})
    if z.fortress and (z.country != "USSR" or any(cs[c]["nation"] == "USSR" for c in defenders)):
        left.append({"shift": int(te.get("fortress", {}).get("shift", 1)), "reason": f"fortress ({z.name})", "rule": "16.3.2"})
    if attackers and all(across_line(ctx, c, zone) for c in attackers):
        left.append({"shift": int(te.get("fortress-line", {}).get("shift", 2)), "reason": f"every attacker across the fortress line of {z.name}",
                     "rule": "16.3.2"})
    return left


# ============================================================================ results (16.2)
def parse_result(res: str) -> tuple[int, bool, int]:
    a, d = res.split("/")
    if a == "C":
        return 1, True, int(d)
    return int(a), False, int(d)


def reduce_result(ctx: Ctx, res: str, att_corps: int, def_corps: int) -> tuple[str, dict | None]:
    """16.2 reductions (and R20: C/3, 1/3 against one corps), from the table's reduction rules."""
    for r in ctx.rs.crt_reductions:
        if res not in r["results"]:
            continue
        w = r["when"]
        if (w == "both-sides-one-corps" and att_corps == 1 and def_corps == 1) or \
                (w == "defender-one-corps" and def_corps == 1) or (w == "defender-two-corps" and def_corps == 2):
            return r["becomes"], r
    return res, None
