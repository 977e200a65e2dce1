"""BlitzWAR land combat: losses (16.2; readings R3, R5, R6), chosen by the owner of the units, and
the air unit lost after a blitz with air superiority (16.1 step 5).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from ..core.game import Decision
from .combat_common import AfterDie, _did, air_units, corps
from .context import Ctx, NeedDecision


def _capacity(ctx: Ctx, counters: list[str]) -> dict[str, int]:
    cap = {}
    for cid in sorted(counters):
        c = ctx.counters[cid]
        i, a = corps(c)
        if c.get("entrenched"):
            i += 1
        if i:
            cap[f"{cid}/infantry"] = i
        if a:
            cap[f"{cid}/armour"] = a
    return cap


def _loss_constraints(ctx: Ctx, counters: list[str], c_result: bool, elite: bool, german: bool, attacker_side: str | None) -> list[tuple[str, Any]]:
    cs = ctx.counters
    out = []
    if c_result:
        arm = [c for c in counters if corps(cs[c])[1]]
        ger = [c for c in counters if cs[c]["nation"] == "GER"]
        if arm and all(cs[c]["nation"] == "ITA" for c in arm) and ger and attacker_side == "axis":
            out.append(("C: the only armour is Italian, so a German corps (R3)", lambda t: cs[t.split("/")[0]]["nation"] == "GER"))
        elif arm:
            out.append(("C: an armour corps", lambda t: t.endswith("/armour")))
    if elite and any(cs[c].get("elite") for c in counters):
        out.append(("an elite counter attacked: a corps of it", lambda t: bool(cs[t.split("/")[0]].get("elite"))))
    if german and any(cs[c]["nation"] == "GER" for c in counters):
        out.append(("German defence shift used: a German corps", lambda t: cs[t.split("/")[0]]["nation"] == "GER"))
    return out


def loss_options(ctx: Ctx, counters: list[str], k: int, constraints: list) -> list[list[str]]:
    cap = _capacity(ctx, counters)
    toks = sorted(cap)
    if k <= 0 or not toks:
        return [[]]
    if k >= sum(cap.values()):
        return [sorted(t for t in toks for _ in range(cap[t]))]
    best: list[list[str]] = []
    score = -1
    for combo in combinations_with_replacement(toks, k):
        if any(combo.count(t) > cap[t] for t in set(combo)):
            continue
        s = sum(1 for _, p in constraints if any(p(t) for t in combo))
        if s > score:
            best, score = [list(combo)], s
        elif s == score:
            best.append(list(combo))
    return best


def _pref_choice(options: list[list[str]], pref: list[str]) -> list[str] | None:
    """The option best matching a preference list of tokens / counters / strategies."""
    if not pref:
        return None
    if pref in (["infantry-first"], ["armour-first"]):
        first = "infantry" if pref[0] == "infantry-first" else "armour"
        return min(options, key=lambda o: (sum(1 for t in o if not t.endswith("/" + first)), o))

    def rank(t: str) -> int:
        for i, p in enumerate(pref):
            if t == p or t.split("/")[0] == p:
                return i
        return len(pref) + 1
    return min(options, key=lambda o: (sorted(rank(t) for t in o), o))


def take_losses(ctx: Ctx, n: int, side: str, counters: list[str], k: int, constraints: list, *, what: str,
                ordered: Any = None, rule: str = "16.2", zone: str = "") -> list[dict]:
    """Choose (the owner) and apply ``k`` losses among ``counters``; returns the applied losses."""
    if k <= 0 or not counters:
        return []
    options = loss_options(ctx, counters, k, constraints)
    player = ctx.player_of_side(side)
    st = ctx.standing(player, "losses")
    how_pref = None
    if ordered is None and st in ("infantry-first", "armour-first"):
        ordered = [st]
        how_pref = f"standing order {st}"
    if isinstance(ordered, str):
        ordered = [ordered]
    pick = _pref_choice(options, list(ordered)) if ordered and len(options) > 1 else None
    choice, how = ctx.decide(id=f"{_did(ctx, n)}.{what}", side=side, kind="losses", options=options, ordered=pick,
                             auto=lambda: _pref_choice(options, ["infantry-first"]), standing_key="losses",
                             prompt=f"{side}: choose {k} corps to lose in the attack on {zone} (attack {n})",
                             context={"zone": zone, "losses": k, "must": [d for d, _ in constraints],
                                      "counters": {c: _composition(ctx.counters[c]) for c in counters}}, rule=rule)
    if how == "order" and how_pref:
        how = how_pref
    applied = [apply_loss(ctx, t) for t in choice]
    ctx.emit("losses", combat=n, zone=zone, side=side, player=player, required=k, must=[d for d, _ in constraints],
             chosen_by=how, losses=applied, rule=rule)
    return applied


def _also_asked(ctx: Ctx, step) -> list[Decision]:
    """The decisions ``step`` would stop at, found without keeping anything it does (the phase
    stops anyway, and is carried out again from its start when the answers are in; what it may
    change kept aside: :class:`AfterDie`)."""
    saved, n_ev = AfterDie(ctx.state), len(ctx.events)
    try:
        step()
        return []
    except NeedDecision as nd:
        return list(nd.decisions)
    finally:
        saved.put_back(ctx.state, fresh=False)
        del ctx.events[n_ev:]


# what a decision asked ahead of its turn is assumed to be answered with, to find the decisions
# that come after it: the choice that leads on (an advance, a retreat into a zone), and for the
# others the first option, then (a second pass) the last
def _leading(d: Decision, last: bool) -> Any:
    opts = list(d.get("options") or [])
    if not opts:
        return None
    if d.get("kind") == "advance":
        return next((o for o in opts if o != "stay"), opts[0])
    if d.get("kind") == "retreat":
        return next((o for o in opts if o not in ("stay", "refuse")), opts[0])
    return opts[-1] if last else opts[0]


AHEAD = " (asked now with the attack's other decisions, so that one answer file does: it counts only if it comes to that)"


def ask_together(ctx: Ctx, step, first: NeedDecision) -> NeedDecision:
    """Issue 33: the decisions of one attack after its die (the losses of both sides, the air
    unit, the retreat, the advances, where armour goes on) asked in one go, one answer file
    each player, rather than one mail round trip after the other. ``step`` carries out the
    rest of the attack from the position after its die (it puts that position back itself, so
    each run starts from it: it replaces the state's values with a fresh copy of that position,
    never changes the ones it finds there); it stopped at ``first``. It is carried out again on a copy, the open
    decisions taken as answered (:func:`_leading`), to find the decisions that would come
    next, until none is new; twice, the losses taken once as their first option and once as
    their last: a decision is asked ahead only when both find it with the same options (a
    retreat whose zones depend on the corps lost, the extra loss of a refused retreat, are
    asked when they come). Nothing of these runs is kept; no die is rolled there (the dice of
    the attack come before), so nothing is revealed ahead of its time. A decision asked
    ahead whose options are no longer the same when it comes is asked again then."""
    # the position where ``first`` stopped: its values kept aside as they are, not copied (each
    # run of ``step`` replaces them in the state with its own copy, and changes only that)
    saved, events, answers = dict(ctx.state), list(ctx.events), dict(ctx.answers)

    def explore(last: bool) -> list[Decision]:
        asked = list(first.decisions)
        for _ in range(12):
            ctx.answers.clear()
            ctx.answers.update(answers)
            ctx.answers.update({d["id"]: _leading(d, last) for d in asked if d["id"] not in answers})
            try:
                step()
                break
            except NeedDecision as nd:
                new = [d for d in nd.decisions if all(d["id"] != a["id"] for a in asked)]
                if not new:
                    break
                asked += new
        return asked[len(first.decisions):]
    try:
        one = explore(False)
        # the second pass answers as the first wherever no losses (nor other choice of several
        # options) are open: the same runs, the same decisions found (issue 35: not run again)
        other = one if all(_leading(d, False) is _leading(d, True) for d in list(first.decisions) + one
                           if d["id"] not in answers) else explore(True)
    finally:
        # (once, after every run: each run of ``step`` starts from its own copy of the position)
        ctx.state.clear()
        ctx.state.update(saved)
        ctx.events[:] = events
        ctx.answers.clear()
        ctx.answers.update(answers)
    same = {d["id"]: d.get("options") for d in other}
    ahead: list[Any] = [dict(d, prompt=d["prompt"] + AHEAD) for d in one if d["id"] in same and same[d["id"]] == d.get("options")]
    return NeedDecision(list(first.decisions) + ahead)


def _composition(c: dict) -> str:
    i, a = corps(c)
    s = f"{c['nation']} {c['type']} {c['units']}"
    if c["type"] == "white-tank":
        s += f" ({i} infantry + {a} armour)"
    if c.get("entrenched"):
        s += " entrenched"
    if c.get("elite"):
        s += " elite"
    return s


def apply_loss(ctx: Ctx, token: str) -> dict:
    """One corps lost (16.2): flip an entrenched counter (R5), shrink a counter (R6), or send it
    to the pool when it has no corps left."""
    cid, k = token.split("/")
    c = ctx.counters[cid]
    before = _composition(c)
    out = {"counter": cid, "corps": k, "before": before}
    if k == "infantry" and c.get("entrenched"):
        c.pop("entrenched", None)
        out.update(effect="absorbed", after=_composition(c))
        return out
    i, a = corps(c)
    if k == "infantry":
        i -= 1
    else:
        a -= 1
    c.pop("elite", None) if c.get("elite") else None
    if i + a == 0:
        ctx.move(cid, "pool")
        for fl in ("active", "moved", "strategic", "out_of_supply", "beachhead", "attacked", "entrenched"):
            c.pop(fl, None)
        c["units"] = 1
        out.update(effect="eliminated", after="to the pool")
        return out
    if i and a:
        c["type"], c["infantry"], c["armour"], c["units"] = "white-tank", i, a, i + a
    else:
        c.pop("infantry", None)
        c.pop("armour", None)
        c["type"], c["units"] = ("infantry", i) if i else ("armour", a)
    out.update(effect="reduced", after=_composition(c))
    return out


def _air_loss(ctx: Ctx, n: int, atk: dict, zone: str) -> None:
    units = air_units(ctx, zone, ctx.acting_side)
    if not units:
        return
    nats = sorted({ctx.counters[c]["nation"] for c in units})
    options = nats if len(nats) > 1 else [nats[0]]
    ordered = None
    if atk.get("air_loss") in units:
        ordered = ctx.counters[atk["air_loss"]]["nation"]
    choice, how = ctx.decide(id=f"{_did(ctx, n)}.air-loss", side=ctx.acting_side, kind="air-loss", options=options, ordered=ordered,
                             auto=lambda: options[0], prompt=f"Which nation's air unit over {zone} is removed after the blitz?",
                             context={"zone": zone, "air": units}, rule="16.1")
    pick = atk["air_loss"] if atk.get("air_loss") in units and ctx.counters[atk["air_loss"]]["nation"] == choice else \
        next(c for c in units if ctx.counters[c]["nation"] == choice)
    c = ctx.counters[pick]
    ctx.move(pick, "pool")
    c.pop("flying", None)
    ctx.emit("air-loss", combat=n, zone=zone, counter=pick, nation=c["nation"], chosen_by=how,
             player=ctx.player_of_side(ctx.acting_side), rule="16.1")
