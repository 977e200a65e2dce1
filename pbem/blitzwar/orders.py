"""Checks of a BlitzWAR order file's list of phases before anything is carried out (the schema
has checked their shape): phases the player may give now, in order of play, set-up choices only
in the first order file, each key in its phase, the cards it seals and opens; and what BlitzWAR
adds to a validating run (:func:`check_more`). What the orders of each phase name (counters,
zones, paths, the weather) is checked by the phase table's static checks, for every phase of
the file (pbem/blitzwar/phasetable.py, issue 30)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Issue, Severity, did_you_mean
from .cards import SEAL_ID, check_file, deck_cards
from .context import Ctx
from .sequence import orderable, step_of

if TYPE_CHECKING:
    from ..core.game import Checked
    from .world import World


def check_phases(w, state, sub) -> list[Issue]:
    """The phases a file lists (8): the player may give them now, in the order of play, set-up
    choices in the first file only, each key in its phase; the cards it opens (10). What each
    phase's orders name is checked by the phase table's static checks (pbem/blitzwar/phasetable.py),
    for every phase of the file, by the kernel."""
    out: list[Issue] = []
    allowed = orderable(w, state, sub.player)
    last = -1
    for i, ph in enumerate(sub.doc.get("phases") or []):
        name = ph.get("phase")
        if name not in allowed:
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
        out += _misplaced_keys(ph, i, name, step_of(name))
    covers = [ph.get("phase") for ph in sub.doc.get("phases") or [] if ph.get("phase") in allowed]
    out += check_file(w, state, sub, covers)
    if "3.replacements" in covers:
        out += _void_openings(w, state, sub)
    return out


def _void_openings(w, state: dict, sub) -> list[Issue]:
    """10.1, ruling card-void: a card opened for this turn that was queued when it was sealed
    (the card of one of the three turns before, or not of the deck it was picked from) was not
    free: it gives nothing this turn. The opening cannot be changed (its commitment binds it), so
    a warning, before the file goes, rather than a surprise in the report."""
    out: list[Issue] = []
    turn = state["turn"]
    for i, o in enumerate(sub.doc.get("open") or []):
        m = SEAL_ID.match(str(o.get("id", ""))) if isinstance(o, dict) else None
        if not m or int(m.group(2)) != turn or state["sides"].get(m.group(1)) != sub.player:
            continue
        side, card = m.group(1), o.get("choice")
        sc = (state.get("cards") or {}).get(side) or {}
        entry = next((q for q in sc.get("queue", []) if q["turn"] == turn), None)
        played = {x["card"]: x["turn"] for x in sc.get("played", []) if turn - 3 <= x["turn"] < turn}
        why = (f"{card} was queued (the card of turn {played[card]}) when it was sealed for turn {turn}" if card in played
               else f"{card} is not a card of the {side} {entry['deck']}-war deck it was picked from"
               if entry is not None and isinstance(card, str) and (side, entry["deck"]) in w.decks
               and card not in deck_cards(w, side, entry["deck"]) else None)
        if why:
            out.append(Issue("BW-OPEN-VOID", f"{why}: it was not free (10.1), and the card gives nothing this turn "
                             "(ruling card-void)", severity=Severity.WARNING, path=("open", i, "choice"), text=str(card),
                             rule="10.1", hint="a sealed choice can never be changed; `pbem seal` now refuses a card "
                                               "sealed twice (SEAL-CLASH)"))
    return out


def _misplaced_keys(ph: dict, i: int, name: str, step: str) -> list[Issue]:
    """The keys of a phase entry that belong to another phase (BW-PHASE-KEY)."""
    out: list[Issue] = []
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
    if "attack_neutral" in ph and step not in ("air", "movement", "blitz", "combat"):
        out.append(Issue("BW-PHASE-KEY", f"attack_neutral belongs to the air, movement, blitz and combat phases (9.3), not {name}",
                         path=("phases", i, "attack_neutral"), rule="9.3"))
    for key, own in (("cards", "cards"), ("place", "replacements"), ("cover", "replacements"),
                     ("modernise", "replacements")):
        if key in ph and step != own:
            out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the {'2.cards' if own == 'cards' else '3.replacements'} phase (10, 11), not {name}",
                             path=("phases", i, key)))
    for key in ("fleet_moves", "naval_attacks"):
        if key in ph and step != "naval":
            out.append(Issue("BW-PHASE-KEY", f"{key} belong to the naval phase (12), not {name}", path=("phases", i, key),
                             rule="12"))
    if "rebase" in ph and step != "air":
        out.append(Issue("BW-PHASE-KEY", f"rebase (strategic air movement) belongs to the air phase (13.5), not {name}",
                         path=("phases", i, "rebase"), rule="13.5"))
    if "battle_of_britain" in ph and step != "air":
        out.append(Issue("BW-PHASE-KEY", f"battle_of_britain belongs to the air phase (13.4.3), not {name}",
                         path=("phases", i, "battle_of_britain"), rule="13.4.3"))
    if "air" in ph and step != "air":
        out.append(Issue("BW-PHASE-KEY", f"air missions belong to the air phase (13), not {name}", path=("phases", i, "air"), rule="13"))
    if "lend_lease" in ph and step != "replacements":
        out.append(Issue("BW-PHASE-KEY", f"lend_lease belongs to the 3.replacements phase (11.4), not {name}",
                         path=("phases", i, "lend_lease"), rule="11.4"))
    for key in ("transport", "land", "back"):
        if key in ph and step != "sea-transport":
            out.append(Issue("BW-PHASE-KEY", f"{key} belongs to the sea transport phase (14), not {name}",
                             path=("phases", i, key), rule="14"))
    if "attacks" in ph and step not in ("blitz", "combat"):
        out.append(Issue("BW-PHASE-KEY", f"attacks belong to the blitz and combat phases, not {name}", path=("phases", i, "attacks")))
    return out


def check_more(chk: Checked[World]) -> list[Issue]:
    """`pbem validate` is the kernel's run of the adjudication with dice that refuse to roll
    (pbem.core.kernel.check_run): each phase the file covers carried out in order up to the
    first die or an open decision (the movement phase is checked in full: supply, paths,
    stacking), every refusal reported with its rule, a refused phase carried out again without
    the refused entries. What BlitzWAR adds at ``chk.at`` (pbem.core.game.Checked): the void
    attacks and the blitzes fought on of a phase carried out; at the first die, what of its
    phase is checked only before the dice and the answers that can never be used; and, where
    the run stops, which later phases were not checked (BW-CHECKED-UNTIL)."""
    run, i, sub = chk.run, chk.index, chk.sub
    if run is None or chk.at in ("before-orders", "refused") or (chk.at == "decision" and not chk.final):
        return []
    phases = sub.doc.get("phases") or []
    entry = phases[i] if i is not None else {"phase": run.phase}
    k = i if i is not None else 0
    ctx = Ctx(rs=chk.rs, state=chk.state, turn=run.turn, phase=run.phase, player=sub.player, validating=True)
    ctx.events = run.phase_events if chk.at == "phase" else run.events
    out: list[Issue] = []
    if not chk.issues:      # (a phase carried out again without refused entries: its warnings may only follow from them)
        out += _void_attacks(ctx, entry, k, sub.name) if i is not None else []
        out += _fought_on(ctx, k, sub.name)
    if chk.at == "phase":
        return out
    if chk.at == "die" and i is not None:
        out += _after_dice(entry, k, sub.name, run.phase)   # (the answers never usable: a static check)
    # (a later phase listed with no orders, `attacks: []` as the template writes it, has
    # nothing to check: not named)
    later = [(j, e) for j, e in chk.later if any(v not in (None, [], {}) for key, v in e.items() if key != "phase")]
    if later:
        # the position after a die or a decision is not known yet: say what was not checked,
        # rather than an OK that covers phases never looked at
        why = "the first die" if chk.at == "die" else "a decision"
        out.append(Issue("BW-CHECKED-UNTIL", f"checked up to {why} in {run.phase}; the orders of "
                         f"{', '.join(e['phase'] for _, e in later)} are checked for what no die changes (errors) and "
                         "at the position before it (warnings); what the dice change, when the phase is adjudicated", severity=Severity.WARNING, file=sub.name,
                         path=("phases", later[0][0]), text=later[0][1]["phase"], rule="8",
                         hint="an order of a later phase that no longer fits then is void (not carried "
                              "out, the report says why) and the phase goes on; nothing is sent back"))
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
                         hint="nothing can refuse or redraw the dice once they are rolled (docs/dice-and-audit.md)"))
    if entry.get("out_of_supply_moves"):
        out.append(Issue("BW-CHECKED-BEFORE-DICE", f"the out-of-supply moves of {phase} were checked at the position before "
                         "its attacks; a counter moves only if it is marked out of supply at the end of the phase (17.5), "
                         "which the combats decide: otherwise, or if the zone no longer fits, the move is void",
                         severity=Severity.WARNING, file=name, path=("phases", i, "out_of_supply_moves"), rule="17.5"))
    return out


def unusable_answers(counters: dict, entry: dict, i: int, name: str | None) -> list[Issue]:
    """Answers written in an attack that can never be used (16.1, 16.2, 16.4, 17.3): the
    adjudication ignores them when the moment comes and asks (or follows a standing order)
    instead; said before the dice, for every blitz and combat phase of the file (a static check
    of the phase table, pbem/blitzwar/phasetable.py), rather than found out after them."""
    out = []
    for j, a in enumerate(entry.get("attacks") or []):
        if not isinstance(a, dict):
            continue
        cs = a.get("counters", a.get("units", []))
        cs = [cs] if isinstance(cs, str) else list(cs or [])
        where = ("phases", i, "attacks", j)

        def warn(key, what, rule, where=where, cs=cs):
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
        if air is not None and (counters.get(air) or {}).get("type") != "air":
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
