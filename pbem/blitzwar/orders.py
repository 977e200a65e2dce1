"""Checks of a BlitzWAR order file's phases before anything is carried out (the schema has
checked their shape): phases the player may give now, in order of play, set-up choices only in
the first order file, counters that exist."""
from __future__ import annotations

from ..core.errors import Issue, Severity
from .sequence import orderable, side_of_phase, step_of


def check_phases(w, state, sub) -> list[Issue]:
    out: list[Issue] = []
    unknown: dict[tuple[int, str], set[int]] = {}
    allowed = orderable(w, state, sub.player)
    last = -1
    for i, ph in enumerate(sub.doc.get("phases") or []):
        name = ph.get("phase")
        if name not in allowed:
            from ..core.errors import did_you_mean
            out.append(Issue("BW-PHASE", f"the {sub.player} player cannot give orders for {name!r} now"
                             f"{did_you_mean(name, allowed)}",
                             path=("phases", i, "phase"), text=str(name), rule="8",
                             hint="phases now: " + ", ".join(allowed)))
            continue
        k = allowed.index(name)
        if k <= last:
            out.append(Issue("BW-PHASE-ORDER", f"{name} is listed out of the order of play (8)", path=("phases", i, "phase"),
                             text=str(name), rule="8"))
        last = max(last, k)
        if ph.get("setup") is not None and not (name == "1.diplomacy" and state["turn"] == w.first_turn):
            out.append(Issue("BW-SETUP", "set-up choices (19) go in the turn-1 1.diplomacy orders", path=("phases", i, "setup"),
                             rule="19"))
        step = step_of(name)
        for key in ("moves", "strategic", "activate", "entrench", "revert"):
            # one-zone moves of counters that took no part in an attack (16.5, 17.4) are the
            # blitz and combat phases' too; the combat phase checks them (BW-MOVE-*)
            if key in ph and step != "movement" and not (key == "moves" and step in ("blitz", "combat")):
                out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the movement phase, not {name}", path=("phases", i, key)))
        for key in ("reorganise", "remove"):
            if key in ph and step not in ("replacements", "sea-transport", "movement"):
                out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the replacement, sea transport and movement phases (11.10), "
                                 f"not {name}", path=("phases", i, key), rule="11.10"))
        if "out_of_supply_moves" in ph and step != "combat":
            out.append(Issue("BW-PHASE-KEY", f"out_of_supply_moves belong to the normal combat phase (17.5), not {name}",
                             path=("phases", i, "out_of_supply_moves")))
        if "attack_neutral" in ph and step not in ("movement", "blitz", "combat"):
            out.append(Issue("BW-PHASE-KEY", f"attack_neutral belongs to the movement, blitz and combat phases (9.3), not {name}",
                             path=("phases", i, "attack_neutral"), rule="9.3"))
        for key, own in (("cards", "cards"), ("place", "replacements"), ("cover", "replacements"),
                         ("modernise", "replacements")):
            if key in ph and step != own:
                out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the {'2.cards' if own == 'cards' else '3.replacements'} phase (10, 11), not {name}",
                                 path=("phases", i, key)))
        if "attacks" in ph and step not in ("blitz", "combat"):
            out.append(Issue("BW-PHASE-KEY", f"attacks belong to the blitz and combat phases, not {name}", path=("phases", i, "attacks")))
        for key in ("moves", "strategic", "activate", "entrench", "revert", "remove"):
            if key == "moves" and step in ("blitz", "combat"):
                continue  # the combat phase checks its one-zone moves (BW-MOVE-COUNTER, 16.5)
            for j, m in enumerate(ph.get(key) or []):
                cid = m.get("counter") if isinstance(m, dict) else m
                if cid not in state["counters"]:
                    out.append(Issue("BW-COUNTER", f"no counter {cid!r}{_guess(w, state, cid, side_of_phase(name), sub.player)}",
                                     path=("phases", i, key, j), text=str(cid),
                                     hint="pbem show and the order template list your counters"))
                    unknown.setdefault((i, key), set()).add(j)
    out += _after_a_die(w, state, sub, allowed)
    from .cards import check_file
    covers = [ph.get("phase") for ph in sub.doc.get("phases") or [] if ph.get("phase") in allowed]
    out += check_file(w, state, sub, covers)
    if unknown and not any(x.is_error and x.code != "BW-COUNTER" for x in out):
        # every problem at once: the orders of counters that do not exist are refused here, before
        # anything is carried out; the file's other orders are checked as `pbem validate` checks
        # them (paths, stacking, attacks), without those entries, so that their problems are not
        # hidden behind these
        out += _dry_run_without(w, state, sub, unknown)
    seen: set = set()       # the dry run checks the file again: each problem once
    return [x for x in out if not ((x.code, tuple(x.path or ()), x.message) in seen
                                   or seen.add((x.code, tuple(x.path or ()), x.message)))]


def _guess(w, state: dict, cid, side: str | None, player: str) -> str:
    """A did-you-mean among the counters of the phase's side (or the player's sides)."""
    from .context import Ctx
    from .land import side_of
    from .names import counter_guess
    ctx = Ctx(rs=w, state=state, turn=state["turn"], phase=state["phase"])
    sides = {side} if side else {s for s, p in state["sides"].items() if p == player}
    mine = [c for c, v in state["counters"].items() if v.get("at") not in ("pool", "out") and side_of(ctx, c) in sides]
    return counter_guess(state, cid, mine)


def _dry_run_without(w, state: dict, sub, unknown: dict[tuple[int, str], set[int]]) -> list[Issue]:
    """`validate` of ``sub`` without the list entries ``unknown`` names ((phase index, key) ->
    entry indices), its issues at the entries' places in the file."""
    from dataclasses import replace

    from .game import BlitzWar
    doc = dict(sub.doc)
    phases = [dict(p) if isinstance(p, dict) else p for p in doc.get("phases") or []]
    kept: dict[tuple[int, str], list[int]] = {}
    for (i, key), js in unknown.items():
        items = phases[i].get(key) or []
        kept[(i, key)] = [j for j in range(len(items)) if j not in js]
        phases[i][key] = [items[j] for j in kept[(i, key)]]
    doc["phases"] = phases
    found = validate(BlitzWar(), w, state, [replace(sub, doc=doc)])
    out = []
    for x in found:
        q = tuple(x.path)
        if len(q) >= 4 and q[0] == "phases" and (q[1], q[2]) in kept and isinstance(q[3], int) and q[3] < len(kept[(q[1], q[2])]):
            x = replace(x, path=q[:3] + (kept[(q[1], q[2])][q[3]],) + q[4:])
        out.append(x)
    return out


def _after_a_die(w, state, sub, allowed: list[str]) -> list[Issue]:
    """Issue 16 item 2: the attacks and moves of a blitz or combat phase that comes after an
    earlier phase's attacks in the same file cannot be checked against the position (the dice
    make it), but what no die changes can: the counters exist, are land counters of the side,
    the zones exist. Checked here, before anything is carried out, by `pbem validate` and the
    adjudication alike (the rest is checked when the phase runs; what no longer fits then is
    void)."""
    from .context import nation_side
    from .sequence import side_of_phase
    out: list[Issue] = []
    rolled = False
    phases = sub.doc.get("phases") or []
    for i, ph in enumerate(phases):
        name = ph.get("phase")
        if name not in allowed or step_of(name) not in ("blitz", "combat"):
            continue
        if rolled:
            side = side_of_phase(name)
            for key, who, where in (("attacks", "counters", "target"), ("moves", "counter", "to"),
                                    ("out_of_supply_moves", "counter", "to")):
                for j, e in enumerate(ph.get(key) or []):
                    if not isinstance(e, dict):
                        continue
                    cs = e.get(who, e.get("units")) if key == "attacks" else e.get(who)
                    for cid in ([cs] if isinstance(cs, str) else list(cs or [])):
                        c = state["counters"].get(cid)
                        why = (f"no counter {cid!r}" if c is None
                               else f"{cid} is a {c['type']} counter, not infantry or armour" if c["type"] not in ("infantry", "armour", "white-tank")
                               else f"{cid} is not a counter of the {side}" if nation_side(w, state, c["nation"]) != side else None)
                        if why:
                            out.append(Issue("BW-COUNTER", why, path=("phases", i, key, j), text=str(cid), rule="16.1, 17.1",
                                             hint="pbem show lists the counters"))
                    z = e.get(where)
                    if z is not None and z not in w.zones:
                        out.append(Issue("BW-ZONE", f"{z!r} is not a land zone", path=("phases", i, key, j, where), text=str(z),
                                         hint="pbem show lists the zones"))
        rolled = rolled or bool(ph.get("attacks"))
    return out


class _NoDice:
    """Dice for `pbem validate`: the first roll stops the dry run (the position is no longer
    known before the dice)."""

    class Rolled(Exception):
        pass

    log: list = []

    def roll(self, *a, **k):
        raise _NoDice.Rolled()


def validate(game, w, state, subs) -> list[Issue]:
    """`pbem validate`: each order file's phases carried out on a copy of the state, in order,
    up to the first die or decision (the movement phase is checked in full: supply, paths,
    stacking), every refusal reported with its rule."""
    import copy

    from ..core.game import NeedDecision, PhaseOrdersInvalid
    from .context import Ctx
    from .phases import advance, run
    from .sequence import side_of_phase
    out: list[Issue] = []
    if state.get("pending") or state.get("phase") == "end":
        return out
    for sub in subs:
        phases = sub.doc.get("phases") or []
        allowed = orderable(w, state, sub.player)
        if not phases or any(p.get("phase") not in allowed for p in phases):
            continue
        listed = {p["phase"]: (i, p) for i, p in enumerate(phases)}
        last = max(allowed.index(n) for n in listed)
        work = copy.deepcopy(state)
        for name in allowed[:last + 1]:
            i, entry = listed.get(name, (0, {"phase": name}))
            o = game.normalize_phase(entry, i)
            before = copy.deepcopy(work)
            kept: dict[str, list[int]] = {}
            stop = False
            for attempt in range(4):
                orders = {p: ({"phase": name, "_path": ("phases",)} if p != sub.player else o)
                          for p in sorted(set(work["sides"].values()))}
                ctx = Ctx(rs=w, state=work, turn=work["turn"], phase=name, side=side_of_phase(name), player=sub.player,
                          dice=_NoDice(), auto_players=frozenset(work["players"]), validating=True)
                try:
                    run(ctx, orders)
                except PhaseOrdersInvalid as e:
                    found = [_remap(x, i, kept) for x in e.issues]
                    if not attempt:
                        out += [x if x.file else x.located(sub.name, None) for x in found]
                    # every problem at once: the refused entries are set aside and the phase is
                    # carried out again with the others (what that run refuses besides is set
                    # aside too, unreported: it may only follow from the first refusals, e.g. a
                    # consent to attack a neutral whose move was refused), so that the later
                    # phases are checked too
                    work = copy.deepcopy(before)
                    o = _set_aside(o, found, i, kept) if attempt < 3 else None
                    if o is None:
                        stop = True
                        break
                    continue
                except (NeedDecision, _NoDice.Rolled) as e:
                    out += _void_attacks(ctx, entry, i, sub.name) if name in listed and not kept else []
                    out += _fought_on(ctx, i, sub.name) if not kept else []
                    if isinstance(e, _NoDice.Rolled) and name in listed:
                        out += _after_dice(entry, i, sub.name, name) + _unusable_answers(ctx, entry, i, sub.name)
                    # (a later phase listed with no orders, `attacks: []` as the template writes
                    # it, has nothing to check: not named)
                    later = [n for n in allowed[allowed.index(name) + 1:last + 1]
                             if n in listed and any(v not in (None, [], {}) for k, v in listed[n][1].items() if k != "phase")]
                    if later:
                        # the position after a die or a decision is not known yet: say what was not
                        # checked, rather than an OK that covers phases never looked at
                        why = "the first die" if isinstance(e, _NoDice.Rolled) else "a decision"
                        out.append(Issue("BW-CHECKED-UNTIL", f"checked up to {why} in {name}; the orders of {', '.join(later)} "
                                         "are checked when the phase is adjudicated (at the position the dice leave)",
                                         severity=Severity.WARNING, file=sub.name, path=("phases", listed[later[0]][0]),
                                         text=later[0], rule="8",
                                         hint="an order of a later phase that no longer fits then is void (not carried "
                                              "out, the report says why) and the phase goes on; nothing is sent back"))
                    stop = True
                break
            if stop:
                break
            out += _void_attacks(ctx, entry, i, sub.name) if name in listed and not kept else []
            out += _fought_on(ctx, i, sub.name) if not kept else []
            advance(w, work, [])
    return out


def _after_dice(entry: dict, i: int, name: str, phase: str) -> list[Issue]:
    """What of a phase that rolls a die is checked only against the position before it (issue
    16 item 2, issue 19 departure 16): every attack and move was checked before the first
    die, as the adjudication checks them (an error refuses the file then, writing nothing);
    the one-zone moves come after the attacks and the out-of-supply moves after the marking,
    so a retreat, an advance or a lost supply line may make one no longer fit. Named here,
    rather than an OK that covers them: such an order is void then (an event says why), and
    the phase goes on."""
    out = []
    if entry.get("moves"):
        out.append(Issue("BW-CHECKED-BEFORE-DICE", f"the one-zone moves of {phase} were checked at the position before its "
                         "attacks; a move that a retreat or an advance makes no longer fit (an enemy in the zone, a full "
                         "zone) is void when the phase is adjudicated, and the phase goes on",
                         severity=Severity.WARNING, file=name, path=("phases", i, "moves"), rule="16.5, 17.4",
                         hint="nothing can refuse or redraw the dice once they are rolled (README, the archive and dice)"))
    if entry.get("out_of_supply_moves"):
        out.append(Issue("BW-CHECKED-BEFORE-DICE", f"the out-of-supply moves of {phase} were checked at the position before "
                         "its attacks; a counter moves only if it is marked out of supply at the end of the phase (17.5), "
                         "which the combats decide: otherwise, or if the zone no longer fits, the move is void",
                         severity=Severity.WARNING, file=name, path=("phases", i, "out_of_supply_moves"), rule="17.5"))
    return out


def _unusable_answers(ctx, entry: dict, i: int, name: str) -> list[Issue]:
    """Answers written in an attack that can never be used (16.1, 16.2, 16.4, 17.3): the
    adjudication ignores them when the moment comes and asks (or follows a standing order)
    instead; said here, before the dice, rather than found out after them."""
    out = []
    for j, a in enumerate(entry.get("attacks") or []):
        if not isinstance(a, dict):
            continue
        cs = a.get("counters", a.get("units", []))
        cs = [cs] if isinstance(cs, str) else list(cs or [])
        where = ("phases", i, "attacks", j)

        def warn(key, what, rule):
            out.append(Issue("BW-ANSWER-UNUSED", f"{key}: {what}; it would be ignored and you would be asked",
                             severity=Severity.WARNING, file=name, path=where + (key,), rule=rule,
                             hint="the attacking counters: " + ", ".join(map(str, cs))))
        adv = a.get("advance")
        for cid in (adv if isinstance(adv, list) else []):
            if cid not in cs:
                warn("advance", f"{cid} is not one of the attacking counters", "16.4, 17.3")
        for cid in (a.get("exploit") or {}) if isinstance(a.get("exploit"), dict) else []:
            if cid not in cs:
                warn("exploit", f"{cid} is not one of the attacking counters", "16.4, 17.3")
        losses = a.get("losses")
        for tok in (losses if isinstance(losses, list) else []):
            if str(tok).split("/")[0] not in cs:
                warn("losses", f"{tok} names no attacking counter", "16.2")
        air = a.get("air_loss")
        if air is not None and (ctx.counters.get(air) or {}).get("type") != "air":
            warn("air_loss", f"{air} is not an air counter", "16.1")
    return out


def _fought_on(ctx, i: int, name: str) -> list[Issue]:
    """A warning for each blitz that the normal combat phase fights on without being told
    (17.1: pbem makes the attack or adds the counters)."""
    out = []
    for ev in ctx.events:
        if ev.get("type") == "fight-on":
            how = (f"adds {', '.join(ev['added'])} to the attack on it" if ev["written"]
                   else f"makes the attack on it with {', '.join(ev['counters'])}")
            out.append(Issue("BW-FIGHT-ON", f"the blitz on {ev['zone']} left defenders: pbem {how} (17.1)",
                             severity=Severity.WARNING, file=name, path=("phases", i, "attacks"), rule="17.1",
                             hint="blitz attackers with armour must fight on; write the attack yourself to add counters"))
    return out


def _remap(x: Issue, i: int, kept: dict[str, list[int]]) -> Issue:
    """An issue of a phase carried out again without its refused entries, at the entry's place
    in the file (the list it names was shortened)."""
    from dataclasses import replace
    p = x.path
    if len(p) >= 4 and p[:2] == ("phases", i) and p[2] in kept and isinstance(p[3], int) and p[3] < len(kept[p[2]]):
        return replace(x, path=p[:3] + (kept[p[2]][p[3]],) + p[4:])
    return x


def _set_aside(o: dict, found: list[Issue], i: int, kept: dict[str, list[int]]) -> dict | None:
    """The phase's orders without the list entries ``found`` names (None: no entry to set aside);
    ``kept`` maps each shortened list to the file's indices of what is left."""
    drop: dict[str, set] = {}
    keys: dict[str, set] = {}       # entries of a mapping (a set-up choice: setup.poland)
    for x in found:
        p = x.path
        if len(p) >= 4 and p[:2] == ("phases", i) and isinstance(o.get(p[2]), list) and isinstance(p[3], int):
            drop.setdefault(p[2], set()).add(p[3])
        elif len(p) >= 4 and p[:2] == ("phases", i) and isinstance(o.get(p[2]), dict) and p[3] in o[p[2]]:
            keys.setdefault(p[2], set()).add(p[3])
    if not drop and not keys:
        return None
    o2 = dict(o)
    for key, ks in keys.items():
        o2[key] = {k: v for k, v in o[key].items() if k not in ks}
    for key, js in drop.items():
        idx = kept.get(key) or list(range(len(o[key])))
        pairs = [(k, item) for k, item in zip(idx, o[key]) if k not in js]
        kept[key] = [k for k, _ in pairs]
        o2[key] = [item for _, item in pairs]
    return o2


def _void_attacks(ctx, entry: dict, i: int, name: str) -> list[Issue]:
    """A warning for each attack the dry run found void (16.2: odds below 2-3, or shifted left
    of 1-1): legal, but the activation was paid for nothing (played by hand: nobody said so)."""
    out = []
    attacks = entry.get("attacks") or []
    for ev in ctx.events:
        if ev.get("type") != "combat" or ev.get("result") != "void":
            continue
        j = next((k for k, a in enumerate(attacks) if isinstance(a, dict)
                  and (a.get("target") == ev["zone"] or ev["zone"] in (a.get("targets") or []))), None)
        out.append(Issue("BW-VOID-ATTACK", f"attack on {ev['zone']}: {ev.get('why', 'the attack is void (16.2)')}; "
                         "it is made, and the attackers' activation paid, for nothing", severity=Severity.WARNING,
                         file=name, path=("phases", i, "attacks", j) if j is not None else ("phases", i), text=ev["zone"],
                         rule="16.2", hint="add attackers, or attack elsewhere"))
    return out
