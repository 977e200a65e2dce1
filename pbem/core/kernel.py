"""The adjudication kernel: a pure function of (game, ruleset, state, order files, dice).

It owns what every game shares (:mod:`pbem.core.game` says what a game supplies):

* **the envelope checks** of each order file (player, turn, who is awaited, decisions and their
  choices, standing orders, sealed choices);
* **several players at once**: a state may await several players; each one's order file is
  accepted as it arrives (``received``: its sha256 and step, archived by the caller) and the
  phase is carried out when all are in. The dice of a phase are keyed on all its order files
  (:func:`orders_digest`), so nobody can change theirs after seeing another's;
* **pending decisions**: a phase that stops at decisions (one or several, for different
  players) records them with what is needed to resume: the state at the start of the phase,
  the orders and the answers so far. When every decision is answered the phase is run again
  from its start with the same dice and the answers, which makes resumption exact;
* **sealed choices** (:mod:`pbem.core.sealed`): commitments are recorded, openings checked;
* **per-phase dice**, keyed by the committed key, the step label, the orders digest and the
  hash of the state at the start of the phase;
* **the game's phase table** (:meth:`pbem.core.game.Game.phase_table`, issue 30): the kernel
  alone goes through the phases, carrying each out by its row's ``run``; on arrival it runs the
  row's ``static`` check of every phase of every file (:func:`static_issues`: what no die and no
  answer changes), and an error refuses the file with every problem at once
  (:func:`_refused`, :func:`validate`); a validating run checks the phases it cannot reach
  before the dice with the row's ``check``, at the position as it stands (:func:`_check_later`);
* **nothing refuses or reverts a phase once a die is rolled** (issue 17, way through 1): orders
  found wrong before the first die of a step refuse the step (nothing is written; `pbem
  validate` runs the same checks); an order that no longer fits once a die of the step has been
  rolled (later in the phase, or in a later phase of the same files, or when a phase resumes
  after a decision) is *void*: an event ``void`` names it with the reason and the rule, and the
  phase is carried out again from its start without it, with the same dice and answers, so
  fail (:func:`_void`); the event says what changed the position (``after``: the die rolled
  last before the order was found unfit, the answers of a resumed phase). A game checks every
  order it can before its phase's first die.

The envelope of the working state (step, previous hash, dice, standing orders, received files,
sealed choices) always comes from the newest state, never from the copy kept for resuming: a
resumed phase restarts the position, not the campaign's counters.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from . import sealed as sealing
from .awaiting import awaited as awaited, awaited_players as awaited_players
from .canon import canonical_json, copy_json, restore_json, sha256_hex, snapshot_json, state_hash, state_json
from .errors import Issue, PbemError, Severity, choice_text, did_you_mean
from .game import (
    Checked,
    CheckStage,
    Decision,
    DiceFactory,
    DiceRefused,
    Game,
    NeedDecision,
    PhaseOrdersInvalid,
    PhaseRun,
    RefusingDice,
    Ruleset,
    StaticCheck,
    Stopped,
    Submission,
    refusing_dice,
)

#: envelope keys that belong to the campaign's progress and survive a resumed phase
_CARRIED = ("step", "previous", "standing", "dice", "sealed")
#: the envelope keys a step's bookkeeping may change in place (copied at its start; ``resume``,
#: which holds a whole position, is replaced, never changed)
_ENVELOPE = ("standing", "dice", "sealed", "received", "pending", "awaiting", "players", "options")


@dataclass
class Outcome:
    state: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    stopped: Stopped = ""


# ------------------------------------------------------------------------------ awaiting
def set_awaiting(state: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    entries = sorted(entries, key=lambda a: (a["player"], a["for"])) if len(entries) > 1 else entries
    state["awaiting"] = None if not entries else (entries[0] if len(entries) == 1 else entries)


def phase_players(state: dict[str, Any]) -> list[str]:
    """The players whose orders the current phase needs: those still awaited and those whose
    orders were received already."""
    return sorted(set(awaited_players(state, "orders")) | set(state.get("received") or {}))


def orders_digest(subs: list[Submission]) -> str:
    """The digest the dice of a step are keyed on: the sha256 of its one order file, or with
    several, the SHA-256 of the canonical JSON of the sorted [player, sha256] pairs."""
    if len(subs) == 1:
        return subs[0].digest
    return sha256_hex(canonical_json(sorted([s.player, s.digest] for s in subs)))


# ------------------------------------------------------------------------------ checks
def check_envelope(game: Game[Any], rs: Ruleset, state: dict[str, Any], sub: Submission) -> list[Issue]:
    """Player, turn, awaited, decisions, standing orders and sealed choices of one order file
    (the static checks of its phases are :func:`static_issues`, made by the callers)."""
    doc = sub.doc
    player = doc.get("player")
    players = sorted(state["players"])
    if player not in players:
        return [Issue("ORDERS-PLAYER", f"player {player!r} is not in this game ({', '.join(players)})",
                      path=("player",), text=str(player))]
    issues: list[Issue] = []
    pending = state.get("pending") or []
    if pending and doc.get("phases"):
        who = ", ".join(sorted({p["player"] for p in pending}))
        return [Issue("ORDERS-PHASE", f"the adjudication is waiting for a decision by the {who} player; phase orders are not accepted now",
                      path=("phases",), hint="send a file with `decisions:` (pbem orders template writes it)")]
    if doc.get("decisions") and not pending:
        issues.append(Issue("ORDERS-NO-PENDING", "there is no pending decision to answer", path=("decisions",)))
    if pending:
        issues += _check_decisions(game, rs, pending, doc, str(player))
    if doc.get("phases"):
        found, stop = _check_phase_orders(game, rs, state, sub, str(player))
        issues += found
        if stop:
            return issues
    issues += _check_standing(game, doc)
    issues += sealing.check(state, sub)
    return issues


def _check_decisions(game: Game[Any], rs: Ruleset, pending: list[dict[str, Any]], doc: dict[str, Any], player: str) -> list[Issue]:
    """The answers of an order file to the pending decisions (and the ones it leaves open)."""
    issues: list[Issue] = []
    decisions = doc.get("decisions") or []
    mine = [p for p in pending if p["player"] == player]
    by_id = {p["id"]: p for p in pending}
    if decisions and not mine:
        owner = pending[0]["player"]
        issues.append(Issue("ORDERS-PLAYER", f"the pending decision belongs to the {owner} player, not {player}",
                            path=("player",), text=player))
    ids = {d.get("id") for d in decisions}
    for i, d in enumerate(decisions):
        p = by_id.get(d.get("id"))
        if p is None or p["player"] != player:
            if mine:
                issues.append(Issue("ORDERS-DECISION-UNKNOWN", f"{d.get('id')!r} is not a decision pending for the {player} player",
                                    path=("decisions", i, "id"), text=str(d.get("id")),
                                    hint="pending: " + ", ".join(x["id"] for x in mine)))
            continue
        why = choice_problem(game, rs, p, d.get("choice"))
        if why:
            if isinstance(d.get("choice"), str) and why.endswith("is not a legal choice for " + str(p["id"])):
                # a zone or id written wrong: the closest legal option (as for unknown ids)
                why += did_you_mean(d["choice"], [o for o in p.get("options") or [] if isinstance(o, str)])
            issues.append(Issue("ORDERS-DECISION-CHOICE", why, path=("decisions", i, "choice"), text=str(d.get("choice")),
                                hint=("legal: " + " | ".join(choice_text(o) for o in p["options"])) if "options" in p else None))
    unanswered = [p for p in mine if p["id"] not in ids] if decisions else \
        (mine if not doc.get("open") and not doc.get("seal") else [])
    for p in unanswered:
        issues.append(Issue("ORDERS-DECISION-MISSING", f"the file does not answer the pending decision {p['id']}",
                            path=("decisions",), hint="pbem orders template STATE --player " + player))
    return issues


def _check_phase_orders(game: Game[Any], rs: Ruleset, state: dict[str, Any], sub: Submission, player: str) -> tuple[list[Issue], bool]:
    """The turn and the awaited player of a file's phase orders, then the game's checks of
    them; (issues, True when nothing more of the file is checked)."""
    doc = sub.doc
    issues: list[Issue] = []
    if "turn" not in doc:
        issues.append(Issue("ORDERS-TURN-MISSING", f"the file gives phase orders but no `turn:`; the game is at turn {state['turn']}",
                            path=(), hint=f"add the line `turn: {state['turn']}` below `player:` (the template writes it)"))
    elif doc.get("turn") != state["turn"]:
        issues.append(Issue("ORDERS-TURN", f"the orders are for turn {doc.get('turn')}; the game is at turn {state['turn']}",
                            path=("turn",), text=str(doc.get("turn"))))
    orders_from = awaited_players(state, "orders")
    if player in orders_from:
        return issues + game.check_orders(rs, state, sub), False
    if (state.get("received") or {}).get(player):
        issues.append(Issue("ORDERS-ALREADY-RECEIVED",
                            f"the {player} player's orders for {state['phase']} were received already (step {state['received'][player]['step']}); they cannot be changed",
                            path=("player",), text=player, hint="the phase is carried out when every awaited player's orders are in"))
    else:
        who = ", ".join(orders_from) or "nobody"
        issues.append(Issue("ORDERS-NOT-YOUR-TURN",
                            f"the game awaits the {who} player ({state['phase']}); {player} may send standing orders only",
                            path=("player",), text=player))
    return issues, True


def static_issues(game: Game[Any], rs: Ruleset, state: dict[str, Any], sub: Submission) -> list[Issue]:
    """The static checks of the game's phase table (:class:`pbem.core.game.PhaseKind`) for every
    phase the file gives, each against the state the file was written against: what no die and
    no answer changes, checked for every phase of the file before any die (issue 30). An error
    refuses the file (`validate` sets the order aside and checks the rest of the file)."""
    table = game.phase_table()
    if not table:
        return []
    allowed = game.orderable_phases(rs, state, sub.player)
    entries = [(i, e) for i, e in enumerate(sub.doc.get("phases") or []) if isinstance(e, dict)]
    out: list[Issue] = []
    for k, (i, e) in enumerate(entries):
        name = e.get("phase")
        row = table.get(game.phase_kind(str(name))) if name in allowed else None
        if row is None or row.static is None:
            continue
        out += row.static(StaticCheck(rs=rs, state=state, player=sub.player, phase=str(name), turn=state["turn"],
                                      entry=e, index=i, earlier=entries[:k]))
    return out


def _aside(issues: list[Issue]) -> list[tuple[Any, ...]]:
    """The orders the errors of a file's static checks name, set aside in its validating run (the
    rest of the file checked without them: every problem at once): the entry of a list, a key
    of a phase entry, or a phase's whole orders."""
    out: list[tuple[Any, ...]] = []
    for i in issues:
        p = tuple(i.path or ())
        if not i.is_error or len(p) < 2 or p[0] != "phases" or not isinstance(p[1], int):
            continue
        # (an entry of a list, or the key of a mapping: one side's card picks, ``cards: {axis: ...}``)
        v = p[:4] if len(p) >= 4 and isinstance(p[3], (int, str)) else p[:3]
        if v not in out:
            out.append(v)
    return out


def _check_standing(game: Game[Any], doc: dict[str, Any]) -> list[Issue]:
    """The standing orders of a file: known keys, allowed values."""
    issues: list[Issue] = []
    for k, v in (doc.get("standing") or {}).items():
        allowed = game.standing_keys.get(k)
        if allowed is None:
            issues.append(Issue("ORDERS-STANDING", f"unknown standing order {k!r}{did_you_mean(str(k), list(game.standing_keys))}",
                                path=("standing", k), text=str(k),
                                hint="known: " + ", ".join(sorted(game.standing_keys))))
        elif v not in allowed:
            issues.append(Issue("ORDERS-STANDING", f"standing order {k}: {v!r}; allowed: {', '.join(allowed)}",
                                path=("standing", k), text=str(v)))
    return issues


def validate(game: Game[Any], rs: Ruleset, state: dict[str, Any], subs: list[Submission],
             checked: list[tuple[list[Issue], list[Issue]]] | None = None) -> list[Issue]:
    """Every problem of the order files at once, without dice (`pbem validate`): the envelope
    of each file, then each file whose envelope is fine carried out by the adjudication itself
    (:func:`check_run`) with dice that refuse to roll, nothing kept. ``checked``: for each file,
    what :func:`check_envelope` and :func:`_static_checks` found already (:func:`_refused`:
    the checks are not made twice)."""
    issues: list[Issue] = []
    fine = []
    aside: dict[str, list[tuple[Any, ...]]] = {}
    for k, sub in enumerate(subs):
        # the static checks of a file for the awaited phases whatever else is wrong with it (a
        # phase listed wrong, a key in the wrong phase); a standing order written wrong is not
        # kept and hides nothing else: the file is still carried out
        found, more = checked[k] if checked is not None else \
            (check_envelope(game, rs, state, sub), _static_checks(game, rs, state, sub))
        if not any(i.is_error and i.code != "ORDERS-STANDING" for i in found):
            aside[sub.name] = _aside(more)
            fine.append(sub)
        issues += [i.located(sub.name, None) if i.file is None else i for i in found + more]
    if subs and not any(_gives(s) for s in subs):
        # adjudicate refuses these files alone (ORDERS-EMPTY): say so here too, as a warning (a
        # file of standing orders only is fine together with the awaited player's orders)
        who = ", ".join(awaited_players(state)) or "nobody"
        issues.append(Issue("ORDERS-EMPTY", "no file gives orders for the awaited phase or answers the pending decision: "
                            "pbem adjudicate refuses this alone", severity=Severity.WARNING, file=subs[0].name,
                            hint=f"the game awaits the {who} player; a file of standing orders goes with that player's orders"))
    for sub in fine:
        issues += check_run(game, rs, state, sub, fine, aside=aside.get(sub.name))
    return _once(issues)


def _static_checks(game: Game[Any], rs: Ruleset, state: dict[str, Any], sub: Submission) -> list[Issue]:
    """:func:`static_issues` of a file when they can be made (:func:`_static_ok`), else none."""
    return static_issues(game, rs, state, sub) if _static_ok(state, sub) else []


def _static_ok(state: dict[str, Any], sub: Submission) -> bool:
    """Whether the static checks of a file's phases can be made: it gives the orders the state
    awaits from its player, for this turn."""
    return bool(sub.doc.get("phases")) and not state.get("pending") and sub.doc.get("turn") == state["turn"] \
        and sub.player in awaited_players(state, "orders")


#: the kernel's own refusals of a file's envelope: the file is not checked further
_ENVELOPE_CODES = ("ORDERS-PLAYER", "ORDERS-NO-PENDING", "ORDERS-DECISION-UNKNOWN",
                   "ORDERS-DECISION-CHOICE", "ORDERS-DECISION-MISSING", "ORDERS-TURN-MISSING", "ORDERS-TURN",
                   "ORDERS-ALREADY-RECEIVED", "ORDERS-NOT-YOUR-TURN", "ORDERS-SEVERAL", "ORDERS-EMPTY",
                   "ORDERS-GAME-OVER")


def _once(issues: list[Issue]) -> list[Issue]:
    """Each problem once (a static check and the run may both find one)."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for i in issues:
        key = (i.file, i.code, tuple(i.path or ()), i.message)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def check_run(game: Game[Any], rs: Ruleset, state: dict[str, Any], sub: Submission, others: list[Submission] | None = None,
              *, aside: list[tuple[Any, ...]] | None = None) -> list[Issue]:
    """The validating run of one order file's phases: :func:`adjudicate`'s own path (standing
    orders, sealed choices, the game's hooks, every phase the file covers) with dice that
    refuse to roll (:class:`RefusingDice`: the run stops at the first die) and the other
    players' orders at their defaults; what it refuses, and what the game adds on the way
    (:meth:`Game.check_more`), is reported; nothing is kept. Every problem at once: a phase
    whose orders are refused is carried out again with the refused entries set aside (their
    further refusals unreported: they may follow from the first). ``others``: the files
    validated with it (their commitments and openings recorded as adjudicate records them).
    ``aside``: the orders of the file its static checks refused (:func:`_aside`), left out of
    the run so that the rest of the file is checked. Where the run ends before the file does
    (at the first die, an open decision, or where the game stops it), the phases it did not
    reach are checked at the position as it stands (:func:`_check_later`)."""
    if not sub.doc.get("phases") or state.get("pending") or state.get("phase") == "end":
        return []
    chk = _Check(sub, aside=list(aside or []))
    _adjudicate(game, rs, state, [sub], refusing_dice, Outcome(), missing_orders=True, received=None, check=chk,
                seal_subs=[s for s in others or [sub] if _gives(s)])
    return [i.located(sub.name, None) if i.file is None else i for i in chk.issues]


def _gives(s: Submission) -> bool:
    """Whether a file gives something besides standing orders (phases, answers, seals)."""
    return bool(s.doc.get("phases") or s.doc.get("decisions") or s.doc.get("open") or s.doc.get("seal"))


@dataclass
class _Check:
    """A validating run of one order file (:func:`check_run`): what it found."""
    sub: Submission
    issues: list[Issue] = field(default_factory=list)
    #: once the run has met a decision the adjudication stops at: why what follows is not sure
    #: (it is carried on with at the decision's default; adjudicate resumes the phase after the
    #: answer, when an order that no longer fits is void, not refused: a warning here)
    assumed: str = ""
    #: the orders of the file set aside (refused by its static checks): paths in the file
    aside: list[tuple[Any, ...]] = field(default_factory=list)


def _dry_run(game: Game[Any], rs: Ruleset, state: dict[str, Any], subs: list[Submission], out: Outcome) -> bool:
    """The validating run (:func:`check_run`) of the phase orders in ``subs``, for a phase
    several players give: a file is refused here, when it arrives, rather than when the last
    player's file makes the phase run (which would stop the phase on a file only its sender
    can mend). A phase one player gives needs none: its run refuses the same orders in the
    same file. True: refused."""
    found: list[Issue] = []
    for s in subs:
        if s.doc.get("phases"):
            found += check_run(game, rs, state, s, subs)
    if not any(i.is_error for i in found):
        return False
    out.issues += found
    out.stopped = "refused"
    return True


def choice_problem(game: Game[Any], rs: Any, decision: dict[str, Any], choice: Any) -> str | None:
    """Why ``choice`` cannot answer ``decision`` (None if it can): a choice among ``options``
    (lists compared as sets), or whatever the game accepts (:meth:`Game.check_choice`)."""
    if "options" in decision:
        c = _answer(choice, decision)
        c = sorted(c) if isinstance(c, list) else c
        if c not in decision["options"]:
            return f"{choice!r} is not a legal choice for {decision['id']}"
        return None
    return game.check_choice(rs, decision, choice)


def _answer(choice: Any, decision: dict[str, Any] | None = None) -> Any:
    """The answer as recorded: a list of names sorted (lists are compared as sets); a single
    name where the options are one-name lists stands for that list (``choice: ger-c2-1/armour``
    for ``[ger-c2-1/armour]``)."""
    if isinstance(choice, str) and decision and choice not in (decision.get("options") or []) \
            and [choice] in (decision.get("options") or []):
        choice = [choice]
    opts = (decision or {}).get("options") or []
    if decision and choice not in opts and (isinstance(choice, str) or (isinstance(choice, list) and all(isinstance(x, str) for x in choice))):
        # names without their ``/kind``: `pol-i2-3` for the option [pol-i2-3/infantry], when
        # exactly one option is made of those names (else the choice stays as written, refused)
        names = sorted([choice] if isinstance(choice, str) else choice)
        lists = [o for o in opts if isinstance(o, list) and all(isinstance(t, str) for t in o)]
        fit = [o for o in lists if sorted(t.split("/")[0] for t in o) == names]
        if not fit:     # `pol-i2-3` for [pol-i2-3/infantry, pol-i2-3/infantry]: both losses from it
            fit = [o for o in lists if {t.split("/")[0] for t in o} == set(names)]
        if len(fit) == 1:
            choice = fit[0]
    return sorted(choice) if isinstance(choice, list) and all(isinstance(x, str) for x in choice) else choice


# ------------------------------------------------------------------------------ adjudicate
def adjudicate(game: Game[Any], rs: Ruleset, state: dict[str, Any], subs: list[Submission], dice_factory: DiceFactory,
               *, missing_orders: bool = False, received: list[Submission] | None = None) -> Outcome:
    """Apply the order files ``subs`` to ``state``. ``received``: the order files of earlier
    steps that the state lists as received for the current phase (the caller reads them from
    the archive). ``missing_orders``: the awaited players who sent nothing take their default.
    Never mutates its inputs."""
    out = Outcome()
    if _refused(game, rs, state, subs, missing_orders, out):
        return out
    main = [s for s in subs if _gives(s)]
    return _adjudicate(game, rs, state, subs, dice_factory, out, missing_orders=missing_orders, received=received,
                       check=None, seal_subs=main)


def _refused(game: Game[Any], rs: Ruleset, state: dict[str, Any], subs: list[Submission], missing_orders: bool, out: Outcome) -> bool:
    """The checks that refuse a step's files before anything is carried out: the game is not
    over, each file's envelope, one file per player, something to do. True: refused."""
    if state.get("phase") == "end":
        out.issues.append(Issue("ORDERS-GAME-OVER", "the game is over; nothing to adjudicate"))
        out.stopped = "refused"
        return True
    envelopes = [check_envelope(game, rs, state, s) for s in subs]
    for s, found in zip(subs, envelopes):
        for iss in found:
            out.issues.append(iss.located(s.name, None) if iss.file is None else iss)
    main = [s for s in subs if _gives(s)]
    players = [s.player for s in main]
    for p in sorted({p for p in players if players.count(p) > 1}):
        out.issues.append(Issue("ORDERS-SEVERAL", f"more than one file of the {p} player gives phase orders or decisions; send one at a time",
                                hint=", ".join(s.name for s in main if s.player == p)))
    if not main and not missing_orders:
        who = ", ".join(awaited_players(state)) or "nobody"
        out.issues.append(Issue("ORDERS-EMPTY", "no file gives orders for the awaited phase or answers the pending decision",
                                hint=f"the game awaits the {who} player"))
    if not any(i.is_error and i.code in _ENVELOPE_CODES for i in out.issues):
        static = [_static_checks(game, rs, state, s) for s in subs]
        if any(i.is_error for i in out.issues) or any(i.is_error for found in static for i in found):
            # refused before any die by the game's checks of the files (a static check, a phase
            # listed wrong, a standing order written wrong): every problem of the files at once, as
            # `pbem validate` lists them (the rest of each file carried out without the orders
            # refused, with dice that refuse to roll); the checks made above are not made again
            out.issues = _once(out.issues + validate(game, rs, state, subs, checked=list(zip(envelopes, static))))
    if any(i.severity == Severity.ERROR for i in out.issues):
        out.stopped = "refused"
        return True
    return False


def _start(state: dict[str, Any]) -> dict[str, Any]:
    """The working state of a step: the core's envelope copied (the step's bookkeeping changes
    it), the game's position shared with ``state`` until a phase runs (:func:`_run` copies it
    for the first phase: one copy of the position per step)."""
    work = {k: (copy_json(v) if k in _ENVELOPE else v) for k, v in state.items() if k != "hash"}
    work["step"] = state["step"] + 1
    work["previous"] = state.get("hash") or state_hash(state)
    return work


def _adjudicate(game: Game[Any], rs: Ruleset, state: dict[str, Any], subs: list[Submission], dice_factory: DiceFactory,
                out: Outcome, *, missing_orders: bool, received: list[Submission] | None, check: _Check | None,
                seal_subs: list[Submission]) -> Outcome:
    """:func:`adjudicate` once the files are accepted; with ``check``, the validating run of
    :func:`check_run` (the same path: its dice refuse to roll and its outcome is not kept)."""
    work = _start(state)
    _standing(game, rs, work, subs, out)
    main = [s for s in subs if _gives(s)]
    shared = not state.get("pending") and len(phase_players(state)) > 1
    # a phase several players give: the openings of a file are recorded (and reported) when the
    # phase runs, with every player's file in, not when the file arrives: the others, who may
    # still be writing theirs, never read an opened choice in a state or report before then
    sealing.record(work, seal_subs, out.events, opens=not shared or check is not None)
    opened = sealing.openings(seal_subs)
    if state.get("pending"):
        return _answers(game, rs, state, work, main, dice_factory, out, missing_orders, opened, received or [])
    if shared and check is None and _dry_run(game, rs, state, main, out):
        return out
    # orders for the current phase
    expected = phase_players(state)
    have = {s.player: s for s in list(received or []) + [s for s in main if s.doc.get("phases")]}
    missing = [p for p in expected if p not in have] if len(expected) > 1 else []
    if missing and not missing_orders:
        return _wait(work, state, main, missing, out)      # accepted and archived; the phase waits
    work.pop("received", None)
    work.pop("written_against", None)
    subs_now = [have[p] for p in expected if p in have] if len(expected) > 1 else [s for s in main if s.doc.get("phases")]
    if shared and check is None:
        # the phase runs now: the openings of every file of the phase, received ones included
        sealing.record(work, subs_now, out.events, seals=False)
        opened = sealing.openings(subs_now)
    if _before_orders(game, rs, work, subs_now, dice_factory, out, check):
        return out
    absent = [p for p in expected if p not in have]
    docs = {s.player: s.doc for s in subs_now}
    for p in absent:
        # the game's default applies (a validating run: the other players' orders left out)
        docs[p] = _missing_doc(game, rs, state, p, quiet=check is not None)
        if check is None:
            out.events.append({"type": "missing-orders", "turn": work["turn"], "phase": work["phase"], "player": p,
                               "text": "no orders received: the campaign's default (no orders) for each phase one order "
                                       "file of the player could have covered",
                               "until": docs[p]["phases"][-1]["phase"]})
    if not subs_now:
        # --missing-orders: the awaited player sent nothing; the campaign's default applies.
        # chain protocol 2: the links revealed for missing orders key these orders only
        digest = sha256_hex(canonical_json(["missing-orders", work["previous"]])) if _rekey(state) else "missing-orders"
        st = _Step(game, rs, docs, absent, 0, digest, {}, dice_factory, out, opened=opened)
    else:
        # The first phase's dice are keyed by the hash of the published input state.
        st = _Step(game, rs, docs, [s.player for s in subs_now] + absent, 0, orders_digest(subs_now), {},
                   dice_factory, out, opened=opened, check=check, files=_files(state, work, subs_now))
    return _run(st, work, first=True, phase_hash=work["previous"])


def _files(state: dict[str, Any], work: dict[str, Any], subs: list[Submission]) -> dict[str, dict[str, Any]]:
    """Where each order file carried out is archived: its sha256 (or receipt) and step (a
    received file's earlier step, else this one's)."""
    rec = state.get("received") or {}
    return {s.player: {"sha256": s.digest, "step": (rec.get(s.player) or {}).get("step", work["step"])}
            for s in subs}


def _wait(work: dict[str, Any], state: dict[str, Any], main: list[Submission], missing: list[str], out: Outcome) -> Outcome:
    """A file of a phase several players give is accepted; the phase waits for the others."""
    rec = dict(work.get("received") or {})
    for s in main:
        if s.doc.get("phases"):
            rec[s.player] = {"sha256": s.digest, "step": work["step"]}
    work["received"] = {p: rec[p] for p in sorted(rec)}
    work["written_against"] = state.get("written_against") or work["previous"]
    set_awaiting(work, [{"player": p, "for": "orders"} for p in missing])
    for s in main:
        if s.doc.get("phases"):
            out.events.append({"type": "received", "turn": work["turn"], "phase": work["phase"], "player": s.player,
                               "sha256": s.digest, "waiting_for": missing})
    out.state = work
    out.stopped = "waiting"
    return out


def _before_orders(game: Game[Any], rs: Ruleset, work: dict[str, Any], subs_now: list[Submission], dice_factory: DiceFactory,
                   out: Outcome, check: _Check | None) -> bool:
    """The game's hook before the orders (a pre-game die); in a validating run its die refuses
    to roll and the game says what it may do (the orders are checked as if it let them stand)."""
    try:
        return game.before_orders(rs, work, subs_now, dice_factory, out)
    except DiceRefused:
        if check is None:
            raise
        check.issues += game.check_more(Checked("before-orders", rs, work, check.sub))
        return False


def _missing_doc(game: Game[Any], rs: Ruleset, state: dict[str, Any], player: str, *, quiet: bool = False) -> dict[str, Any]:
    """The orders of a player who sent nothing (--missing-orders): the default for every phase
    one order file of theirs could have covered from the current one (a BlitzWAR side's six
    phases, a player-turn), not the current phase alone, so that one run of the game master
    passes what one missing file would have given. ``quiet``: no orders, not the missing-orders
    default (the other players of a validating run)."""
    phases = game.orderable_phases(rs, state, player) or [state["phase"]]
    if quiet:
        return {"phases": [{"phase": ph} for ph in phases]}
    return {"phases": [{"phase": ph, "missing_orders": True} for ph in phases]}


def _standing(game: Game[Any], rs: Any, work: dict[str, Any], subs: list[Submission], out: Outcome) -> None:
    """Standing orders replace the player's earlier ones, key by key (only those the player
    can ever be asked: :meth:`Game.standing_keys_for`)."""
    for s in subs:
        st = s.doc.get("standing")
        if not st:
            continue
        mine = work.setdefault("standing", {}).setdefault(s.player, {})
        before = dict(mine)
        keys = game.standing_keys_for(rs, s.player)
        for k in sorted(st):
            if k in keys:
                mine[k] = st[k]
        if mine == before:
            continue  # the template repeats the standing block: only report changes
        out.events.append({"type": "standing", "turn": work["turn"], "phase": work["phase"],
                           "player": s.player, "standing": dict(sorted(mine.items()))})


def _answers(game: Game[Any], rs: Ruleset, state: dict[str, Any], work: dict[str, Any], main: list[Submission], dice_factory: DiceFactory,
             out: Outcome, missing_orders: bool, opened: dict[str, Any], received: list[Submission]) -> Outcome:
    """A step that answers pending decisions: record the answers; when every pending decision
    is answered (or defaulted with missing orders), resume the phase."""
    res = dict(work.pop("resume"))
    answers = dict(res["answers"])
    by_id = {p["id"]: p for p in state["pending"]}
    for s in main:
        for d in s.doc.get("decisions") or []:
            answers[d["id"]] = _answer(d["choice"], by_id.get(d["id"]))
    open_ = [p for p in state["pending"] if p["id"] not in answers]
    if open_ and not missing_orders:
        res["answers"] = {k: answers[k] for k in sorted(answers)}
        work["resume"] = res
        work["written_against"] = state.get("written_against") or work["previous"]
        work["pending"] = open_
        set_awaiting(work, [{"player": p, "for": "decision"} for p in sorted({d["player"] for d in open_})])
        for s in main:
            out.events.append({"type": "answered", "turn": work["turn"], "phase": work["phase"], "player": s.player,
                               "decisions": [d["id"] for d in s.doc.get("decisions") or []],
                               "waiting_for": sorted({d["player"] for d in open_})})
        out.state = work
        out.stopped = "waiting"
        return out
    return _resume(game, rs, state, work, res, answers, open_, main, dice_factory, out, opened, received)


def _resume(game: Game[Any], rs: Ruleset, state: dict[str, Any], work: dict[str, Any], res: dict[str, Any], answers: dict[str, Any], open_: list[Any],
            main: list[Submission], dice_factory: DiceFactory, out: Outcome, opened: dict[str, Any],
            received: list[Submission]) -> Outcome:
    """Every pending decision answered (or defaulted): the phase again from its start, with the
    same dice and the answers; the campaign's counters from the newest state (``_CARRIED``)."""
    work["pending"] = []
    work.pop("written_against", None)
    base = dict(res["base"])        # (its position is copied when the phase runs, :func:`_run`)
    for k in _CARRIED:
        if k in work:
            base[k] = work[k]
        else:
            base.pop(k, None)
    out.events.append({"type": "resume", "turn": base["turn"], "phase": base["phase"],
                       "answers": {k: answers[k] for k in sorted(answers)}})
    auto: frozenset[str] = frozenset()
    if open_:
        auto = frozenset(d["player"] for d in open_)
        for p in sorted(auto):
            out.events.append({"type": "missing-orders", "turn": base["turn"], "phase": base["phase"], "player": p,
                               "text": "no answer received: the pending decision takes its default (auto)"})
    docs, actors, files = _resumed_docs(res, received)
    digest, epochs = res["orders_digest"], None
    if _rekey(state):
        # Chain protocol 2 (issue 17): the player who answers knows every link revealed so far,
        # so the dice after the answer take fresh links, revealed once the answer is archived.
        # The rolls made before the decision keep their key (``epochs``: digest, number of
        # rolls of the phase it keyed); the rest of the run is keyed on this digest.
        epochs = list(res.get("epochs") or [])
        digest = sha256_hex(canonical_json({"after": res["orders_digest"], "state": res["state_hash"],
                                            "answers": {k: answers[k] for k in sorted(answers)}, "auto": sorted(auto),
                                            "files": sorted([s.player, s.digest] for s in main)}))
    st = _Step(game, rs, docs, actors, res["index"], digest, answers, dice_factory, out, auto_players=auto,
               opened=opened, epochs=epochs, files=files)
    return _run(st, base, first=False, phase_hash=res["state_hash"])


def _resumed_docs(res: dict[str, Any], received: list[Submission]) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """The order files of a resumed phase, its acting players and where the files are archived.
    A campaign whose state keeps references (``dice.resume: files``, :func:`_by_reference`):
    the files the caller read back from the archive (``received``), checked against their
    sha256 (or receipt); an older one: the documents its state kept."""
    if "files" not in res:
        if "docs" in res:
            return res["docs"], list(res["players"]), {}
        return {res["player"]: res["doc"]}, [res["player"]], {}
    have = {s.player: s for s in received}
    docs = dict(res.get("docs") or {})
    for p, ref in sorted(res["files"].items()):
        s = have.get(p)
        if s is None or s.digest != ref["sha256"]:
            raise PbemError([Issue("FILE-ARCHIVE", f"the {p} player's orders of step {ref['step']} being carried out "
                                   "(the pending phase's) are missing from the archive or changed",
                                   hint="pbem reads them back from steps/NNN: keep the campaign's archive whole")])
        docs[p] = _clean_doc(s.doc)
    return docs, list(res["players"]), dict(res["files"])


def _by_reference(state: dict[str, Any]) -> bool:
    """Whether a pending phase's state names the order files it carries out (their sha256 and
    step) rather than keeping them: a campaign started since issue 20 (``dice.resume: files``);
    the other players, who receive the state, may not read orders not yet carried out."""
    return (state.get("dice") or {}).get("resume") == "files"


def _rekey(state: dict[str, Any]) -> bool:
    """Chain protocol 2: fresh links key the dice after a decision and missing orders."""
    d = state.get("dice") or {}
    return d.get("mode") == "chain" and d.get("protocol", 1) >= 2


@dataclass
class _Step:
    """What every phase of one run of order files shares (:func:`_run`)."""
    game: Game[Any]
    rs: Any
    docs: dict[str, dict[str, Any]]               # player -> order file document
    actors: list[str]                   # the acting players, the phasing one first
    index: int                          # the first ``phases`` entry of each file to carry out
    digest: str                         # what the dice are keyed on besides step and state
    answers: dict[str, Any]
    dice_factory: DiceFactory
    out: Outcome
    auto_players: frozenset[str] = frozenset()
    opened: dict[str, Any] | None = None
    epochs: list[Any] | None = None          # the earlier keys of a resumed phase (chain protocol 2)
    check: _Check | None = None         # a validating run (:func:`check_run`)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)   # player -> where its file is archived (sha256, step)
    rest: list[str] = field(default_factory=list)   # the phases after the current one
    refused: list[Issue] = field(default_factory=list)   # a validating run: the current phase's refusals
    start: _Start | None = None         # the current phase's start (a validating run checks later phases from it)
    sealed_events: int = 0              # out.events[:sealed_events] share nothing with the working state
    stopped_at: str = ""                # a validating run: what it stopped at (the die, the decision)

    @property
    def player(self) -> str:
        return self.actors[0]


def _queue(st: _Step, work: dict[str, Any]) -> list[tuple[dict[str, int], str]]:
    """The phases the order files cover from the current one, up to the last one listed, each
    with the index of its entry in each file that lists it."""
    allowed = st.game.orderable_phases(st.rs, work, st.player)
    listed: dict[str, dict[str, int]] = {}
    for p, doc in st.docs.items():
        for i, ph in enumerate(doc.get("phases") or []):
            listed.setdefault(ph["phase"], {})[p] = i
    last_listed = max((allowed.index(n) for n in listed if n in allowed), default=-1)
    queue = []
    for k, name in enumerate(allowed):
        if k > last_listed:
            break
        idx = listed.get(name, {})
        if idx and all(i < st.index for i in idx.values()):
            continue
        queue.append((idx, name))
    return queue


def _run(st: _Step, work: dict[str, Any], *, first: bool, phase_hash: str | None = None) -> Outcome:
    """Carry out the phases the order files ``st.docs`` cover, from the current one, starting at
    entry ``st.index`` of each file's ``phases``. ``work`` may share the game's position with
    the caller's state: the first phase runs on a copy, each later one in place on the state
    the one before left (:class:`_Start`)."""
    out = st.out
    queue = _queue(st, work)
    # True once a die of this run has been rolled (or the phase resumes after a decision: its
    # orders were accepted when it began): from then on nothing refuses or reverts the phase;
    # an order that no longer fits is void (an event with its reason) and the phase goes on
    applied_any = not first
    for k, (idx, name) in enumerate(queue):
        assert work["phase"] == name, (work["phase"], name)
        phase_start = work
        if phase_hash is None:
            # a validating run keeps nothing and its dice refuse to roll: no key, no hash (issue 35)
            phase_hash = sha256_hex(state_json(phase_start)) if st.check is None else "(validating run: not hashed)"
        step = f"t{work['turn']:02d}/{name}"
        ep, st.epochs = st.epochs, None       # the earlier keys of the resumed phase only (chain protocol 2)
        out.events.append({"type": "phase", "turn": work["turn"], "phase": name, "player": st.player,
                           **st.game.phase_info(st.rs, work),
                           "key_inputs": {"step": step, "orders": st.digest, "state": phase_hash,
                                          **({"epochs": [list(e) for e in ep]} if ep else {})}})
        st.rest = [n for _, n in queue[k + 1:]]
        # the first phase's start shares the position with the caller's state: it runs on a
        # copy; every later one starts from the state the kernel made for the one before, and
        # runs on it in place, kept aside in case it must start again (issue 35)
        start = _Start(phase_start, owned=k > 0)
        done = _carry_out(st, start, idx, name, step, phase_hash, ep, applied_any)
        if done is None:
            return out
        work, run = done
        applied_any = applied_any or bool(run.dice.log)
        phase_hash = None
        if _after(st, work, run, idx):
            return out
    out.state = work
    out.stopped = "complete"
    return out


def _after(st: _Step, work: dict[str, Any], run: PhaseRun[Any], idx: dict[str, int]) -> bool:
    """What follows a phase carried out: its events and rolls, the game's after-phase hook,
    the next phase and who it awaits. True: the run ends here (game over, or a validating run
    the game stops)."""
    out = st.out
    out.events += run.events
    out.rolls += [r.to_dict() for r in run.dice.log]
    run.phase_events, run.events = run.events, []
    st.game.after_phase(run)
    out.events += run.events
    if st.check is not None and _check_more(st, "phase", work, run, idx):
        return True
    st.game.advance(st.rs, work, out.events)
    if work["phase"] == "end":
        work["awaiting"] = None
        out.state = work
        out.stopped = "game-over"
        return True
    set_awaiting(work, [{"player": p, "for": "orders"} for p in st.game.acting_players(st.rs, work)])
    return False


class _Start:
    """The state a phase starts from, kept for as long as the phase may have to start again (an
    order made void after a die, a validating run's second try), stop at decisions (the
    pending phase's ``base``) or be checked further (:func:`_check_later`).

    A start the kernel made itself (``owned``: the state the phase before left, in the same
    run) is carried out in place the first time, and kept aside as
    :func:`pbem.core.canon.snapshot_json` keeps data (fresh, unshared data each time it is
    built back, as :func:`pbem.core.canon.copy_json` gives, for a fifth of a copy per phase:
    issue 35). Any other start (the caller's state shares it) is copied, as before."""

    __slots__ = ("state", "owned", "used", "kept")

    def __init__(self, state: dict[str, Any], *, owned: bool):
        self.state, self.owned, self.used = state, owned, False
        self.kept = snapshot_json(state) if owned else None

    def working(self) -> dict[str, Any]:
        """The state to carry the phase out on: the start itself the first time when it is
        the kernel's own, else a copy."""
        if self.owned and not self.used:
            self.used = True
            return self.state
        return self.copy()

    def copy(self) -> dict[str, Any]:
        """A new copy of the phase's start, as it was before the phase ran."""
        copied: dict[str, Any] = restore_json(self.kept) if self.owned else copy_json(self.state)
        return copied

    def intact(self) -> dict[str, Any]:
        """The phase's start as it was (read, not changed)."""
        return self.copy() if self.used else self.state


def _working(st: _Step, start: _Start) -> dict[str, Any]:
    """The state to carry the phase out on (:meth:`_Start.working`); before it is changed in
    place, what the step reported so far is made its own (:func:`_seal_events`)."""
    if start.owned and not start.used:
        _seal_events(st)
    return start.working()


def _seal_events(st: _Step) -> None:
    """The events reported so far copied, where they may share data with the working state
    (a phase's events may hold a list of the position it leaves), before a phase changes that
    state in place: a report says what was so when the event happened."""
    ev = st.out.events
    if st.sealed_events < len(ev):
        ev[st.sealed_events:] = copy_json(ev[st.sealed_events:])
    st.sealed_events = len(ev)


def _carry_out(st: _Step, start: _Start, idx: dict[str, int], name: str, step: str, phase_hash: str,
               ep: list[Any] | None, applied_any: bool) -> tuple[dict[str, Any], PhaseRun[Any]] | None:
    """One phase carried out from ``start``, again from its start without the orders made
    void after a die; None when the run stops in it (refused, pending, or the first die or an
    open decision of a validating run: ``st.out`` says)."""
    void: dict[str, list[tuple[Any, ...]]] = {}      # player -> the paths of this phase's void orders
    voided: list[tuple[int, dict[str, Any]]] = []    # (where in the phase's events, void event)
    rolled: list[Any] = []                      # the rolls made before the last void
    auto, attempt = st.auto_players, 0
    st.refused = []
    st.start = start
    if st.check is not None and _aside_in(st.check, idx):
        void[st.check.sub.player] = _aside_in(st.check, idx)   # refused by the static checks: the rest is checked
    while True:
        attempt += 1
        work = _working(st, start)      # the phase (again) from its start
        orders = _phase_orders(st.game, st.docs, st.actors, idx, name, void)
        dice = st.dice_factory(step=step, orders_digest=st.digest, state_hash=phase_hash,
                               **({"epochs": ep} if ep else {}))
        run = PhaseRun(rs=st.rs, state=work, turn=work["turn"], phase=name, player=st.player, orders=orders, dice=dice,
                       answers=st.answers, auto_players=auto, opened=dict(st.opened or {}),
                       validating=st.check is not None)
        try:
            _run_phase(st.game, run, rolled)
        except DiceRefused as e:
            st.stopped_at = f"the die {e.label}" if e.label else "the first die"
            _check_more(st, "die", work, run, idx, final=True)
            return None
        except PhaseOrdersInvalid as e:
            if st.check is not None:
                if _set_aside(st, e, orders, void, work, run, idx, attempt):
                    continue
                return None
            if not (applied_any or dice.log):
                # nothing rolled yet in this step: the orders are simply refused, nothing written
                st.out.issues += e.issues
                st.out.stopped = "refused"
                st.out.state, st.out.events, st.out.rolls = None, [], []
                return None
            # 17.1 of issue 17: after a die, the orders that no longer fit are void and the phase is carried
            # out again from its start without them, same dice and answers (what came before repeats exactly)
            rolled = [(r.label, r.value) for r in dice.log]
            new = _void(e.issues, orders, void, name, work["turn"], st.player)
            if not new:
                raise RuntimeError(f"{name}: orders refused after a die without naming one") from e
            for ev in new:
                ev["after"] = _cause(st, dice.log)
            voided += [(len(run.events), ev) for ev in new]
            continue
        except NeedDecision as nd:
            if st.check is not None:
                if _assume_default(st, nd, work, run, idx, auto):
                    return None
                auto = frozenset(work["players"])     # the phase again with every decision at its default
                continue
            run.events[:] = _with_voids(run.events, voided)
            _pending(st, work, start.intact(), nd, run, idx, phase_hash, ep)
            return None
        run.events[:] = _with_voids(run.events, voided)
        return work, run


def _assume_default(st: _Step, nd: NeedDecision, work: dict[str, Any], run: PhaseRun[Any], idx: dict[str, int], auto: frozenset[str]) -> bool:
    """A validating run meets a decision: the game is told, and the phase is carried out again
    with every decision at its default (True: the run ends here, a decision still open)."""
    assert st.check is not None
    if not st.check.assumed:
        d = nd.decision
        st.stopped_at = f"the answer to {d['id']}"
        st.check.assumed = f"if decision {d['id']} ({', '.join(str(o) for o in d.get('options') or [])}) takes its default"
    return _check_more(st, "decision", work, run, idx, decision=nd.decision, final=auto >= frozenset(work["players"]))


def _run_phase(game: Game[Any], run: PhaseRun[Any], rolled: list[Any]) -> None:
    """The game's phase handler, checking that voiding an order never changes what was rolled
    before it was found unfit (a game that refuses an order it has carried out would: a bug)."""
    try:
        _runner(game, run.phase)(run)
    finally:
        if rolled and [(r.label, r.value) for r in run.dice.log[:len(rolled)]] != rolled:
            raise RuntimeError(f"{run.phase}: the orders made void changed the dice rolled before them")


def _runner(game: Game[Any], phase: str) -> Callable[[PhaseRun[Any]], None]:
    """What carries out ``phase``: its row of the game's phase table, else the game's
    :meth:`Game.run_phase` (a game without a table)."""
    row = game.phase_table().get(game.phase_kind(phase))
    return row.run if row is not None else game.run_phase


def _cause(st: _Step, log: list[Any]) -> str:
    """What changed the position an order was checked against (a void event's ``after``): the
    last die rolled before it was found unfit, in its phase or an earlier one of the step, and
    the answers a resumed phase was carried out with."""
    parts = []
    last = (log[-1].label, log[-1].value) if log else \
        ((st.out.rolls[-1]["label"], st.out.rolls[-1]["value"]) if st.out.rolls else None)
    if last is not None:
        parts.append(f"the die {last[0]} ({last[1]})")
    if st.answers:
        parts.append("the answer" + ("s" if len(st.answers) > 1 else "") + " to "
                     + ", ".join(f"{k} ({choice_text(v)})" for k, v in sorted(st.answers.items())))
    return " and ".join(parts) or "an earlier order"


def _aside_in(chk: _Check, idx: dict[str, int]) -> list[tuple[Any, ...]]:
    """The orders of the checked file set aside (:func:`_aside`) in the phase at ``idx``."""
    i = idx.get(chk.sub.player)
    return [v for v in chk.aside if v[1] == i] if i is not None else []


def _check_later(st: _Step) -> list[Issue]:
    """The phases of the checked file that a validating run did not reach (it stopped at a die,
    an open decision, or where the game said), each checked at the position as it stands (the
    start of the phase it stopped in, carried forward): by its phase table row's ``check``, or
    carried out on a copy up to its first die. What dice or answers may change, so warnings
    that say what the position was taken before; what no die changes the static checks gave as
    errors already."""
    chk, table = st.check, st.game.phase_table()
    if chk is None or not table or st.start is None:
        return []
    mine = chk.sub.player
    listed = {e.get("phase"): i for i, e in enumerate(chk.sub.doc.get("phases") or []) if isinstance(e, dict)}
    if not any(n in listed for n in st.rest):
        return []
    why = f"checked at the position before {st.stopped_at or 'the first die'}; if it leaves the position otherwise, " \
          "an order that no longer fits is void then, not refused"
    pos = st.start.copy()
    out: list[Issue] = []
    for name in st.rest:
        st.game.advance(st.rs, pos, [])
        if pos.get("phase") != name:
            break
        idx = {p: listed[name] for p in [mine] if name in listed}
        row = table.get(st.game.phase_kind(name))
        if row is None:
            break
        void = {mine: _aside_in(chk, idx)}
        orders = _phase_orders(st.game, st.docs, st.actors, idx, name, void)
        # carried out on the position itself (a copy of the start, the run's own), which the
        # next phase takes on as the adjudication takes it on: a copy each phase kept nothing
        run = PhaseRun(rs=st.rs, state=pos, turn=pos["turn"], phase=name, player=st.player, orders=orders,
                       dice=RefusingDice(), answers={}, auto_players=frozenset(pos["players"]), validating=True)
        found: list[Issue] = []
        try:
            if row.check is not None:
                found = row.check(run)
            else:
                row.run(run)
        except PhaseOrdersInvalid as e:
            found = e.issues
        except (DiceRefused, NeedDecision):
            pass
        if name in listed:
            out += [_soften(i, why) for i in found if tuple(i.path or ())[:2] == ("phases", listed[name])]
        pos = run.state
    return out


def _check_more(st: _Step, at: CheckStage, work: dict[str, Any], run: PhaseRun[Any], idx: dict[str, int], *,
                decision: Decision | None = None, final: bool = False) -> bool:
    """A validating run hands the game what it reached (:meth:`Game.check_more`); True: the
    run ends here (``final``, or the game says so)."""
    chk = st.check
    assert chk is not None
    mine = chk.sub.player
    phases = chk.sub.doc.get("phases") or []
    later = [(i, e) for i, e in enumerate(phases) if isinstance(e, dict) and e.get("phase") in st.rest]
    ck = Checked(at, st.rs, work, chk.sub, run=run, index=idx.get(mine), issues=list(st.refused), later=later,
                 decision=decision, final=final)
    chk.issues += st.game.check_more(ck)
    if (final or ck.stop) and at != "phase":
        chk.issues += _check_later(st)
    return final or ck.stop


def _soften(i: Issue, why: str) -> Issue:
    """An error the adjudication would not refuse (it comes after a decision it stops at) as a
    warning that says why."""
    if not i.is_error:
        return i
    return replace(i, message=f"{i.message} ({why})", severity=Severity.WARNING)


def _entry_of(o: dict[str, Any], path: tuple[Any, ...]) -> bool:
    """Whether ``path`` names an entry of a list of orders, or a key of a mapping (a set-up
    choice: the mapping is set aside whole)."""
    val = o.get(path[2])
    if isinstance(path[3], int):
        return _entries(o, path[2]) is not None
    return isinstance(val, dict) and path[3] in val


def _set_aside(st: _Step, e: PhaseOrdersInvalid, orders: dict[str, dict[str, Any]], void: dict[str, list[tuple[Any, ...]]], work: dict[str, Any],
               run: PhaseRun[Any], idx: dict[str, int], attempt: int) -> bool:
    """A validating run: the refusals of a phase's first run are reported (and handed to the
    game); the phase is carried out again without the list entries they name (every problem
    at once), at most three times. True: carry it out again."""
    chk = st.check
    assert chk is not None
    if len(st.actors) > 1 and not any(tuple(i.path or ())[:1] == ("phases",) for i in e.issues):
        # a refusal that names no order of the file: the other players' part of a phase they
        # give together, which the check does not know yet (their orders, their openings)
        return False
    if attempt == 1:
        found = [_soften(i, chk.assumed) for i in e.issues] if chk.assumed else e.issues
        chk.issues += found
        st.refused = list(found)
        if _check_more(st, "refused", work, run, idx):
            return False
    if attempt > 3 or not e.issues:
        return False
    o = orders.get(chk.sub.player) or {}
    for iss in e.issues:
        path = tuple(iss.path or ())
        if not (len(path) >= 4 and path[:2] == tuple(o.get("_path", ()))[:2] and _entry_of(o, path)):
            return False        # not an entry of a list or mapping: nothing to carry out without it
    try:
        return bool(_void(e.issues, {chk.sub.player: orders[chk.sub.player]}, void, run.phase, run.turn, chk.sub.player))
    except RuntimeError:
        return False


def _phase_orders(game: Game[Any], docs: dict[str, dict[str, Any]], actors: list[str], idx: dict[str, int], name: str,
                  void: dict[str, list[tuple[Any, ...]]]) -> dict[str, dict[str, Any]]:
    """The normalised orders of each acting player for phase ``name``, without the void ones."""
    orders = {}
    for p in actors:
        i = idx.get(p)
        entry = docs.get(p, {}).get("phases", [])[i] if i is not None else {"phase": name}
        gone = void.get(p) or []
        if any(len(v) <= 2 for v in gone):
            entry = {"phase": name}          # the whole phase's orders are void: its default
        o = game.normalize_phase(entry, i if i is not None else 0)
        if i is None:
            o["_path"] = ("phases",)
        for v in gone:
            if len(v) > 2:
                o = _without(o, v)
        orders[p] = o
    return orders


def _entries(o: dict[str, Any], key: str) -> list[Any] | None:
    """The list ``o[key]`` when it is a list of entries (dicts) a path can name, else None."""
    val = o.get(key)
    return val if isinstance(val, list) and val and all(isinstance(x, dict) for x in val) else None


def _without(o: dict[str, Any], v: tuple[Any, ...]) -> dict[str, Any]:
    """Orders ``o`` without the order at path ``v``: an entry of a list (each entry keeps the path
    it has in the file, ``_path``, so that what follows is still named where it is written), or
    a whole key."""
    key = v[2]
    if key not in o:
        return o
    o = dict(o)
    lst = _entries(o, key)
    if len(v) >= 4 and isinstance(v[3], str) and isinstance(o[key], dict) and v[3] in o[key]:
        o[key] = {k: x for k, x in o[key].items() if k != v[3]}      # one key of a mapping
    elif len(v) >= 4 and lst is not None:
        base = tuple(o.get("_path", ())) + (key,)
        marked = [x if "_path" in x else dict(x, _path=base + (j,)) for j, x in enumerate(lst)]
        o[key] = [x for x in marked if tuple(x["_path"])[:4] != tuple(v[:4])]
    else:
        del o[key]
    return o


def _void(issues: list[Issue], orders: dict[str, dict[str, Any]], void: dict[str, list[tuple[Any, ...]]], phase: str, turn: int,
          player: str) -> list[dict[str, Any]]:
    """Record the orders ``issues`` name as void (in ``void``) and return their events: the
    entry of a list an issue names, else the key, else the phase's whole orders. An issue
    naming an order voided already voids the phase's whole orders (the default must fit)."""
    events = []
    before = {p: list(v) for p, v in void.items()}     # void in an earlier run of the phase
    for iss in issues:
        path = tuple(iss.path or ())
        # whose order it is: the players whose file has an order at that place (several players'
        # files may hold one there, in a phase they give together: each is void then)
        who = [p for p, o in orders.items() if tuple(o.get("_path", ()))[:2] == path[:2]]
        who = [p for p in who if _has(orders[p], path)] or who or [player]
        for p in who:
            o = orders.get(p) or {}
            whole = tuple(o.get("_path", ("phases",)))[:2]
            if len(path) >= 3 and path[:2] == whole and path[2] in o:
                v = path[:4] if len(path) >= 4 and isinstance(path[3], int) and _entries(o, path[2]) is not None else path[:3]
            else:
                v = whole
            have = void.setdefault(p, [])
            if any(len(x) <= 2 for x in have):
                raise RuntimeError(f"{phase}: the default orders of the {p} player do not fit: {iss.code} {iss.message}")
            if any(v[:len(x)] == x for x in before.get(p, [])):
                v = whole     # refused again though void already: the phase's whole orders go
            if any(v[:len(x)] == x for x in have):
                continue      # another reason for an order of this run already void
            have.append(v)
            ev = {"type": "void", "turn": turn, "phase": phase, "player": p, "order": list(v), "code": iss.code,
                  "reason": iss.message}
            if iss.rule:
                ev["rule"] = iss.rule
            if iss.text:
                ev["text"] = iss.text
            events.append(ev)
    return events


def _has(o: dict[str, Any], path: tuple[Any, ...]) -> bool:
    """Whether orders ``o`` hold an order at ``path`` (below the phase entry)."""
    if len(path) < 3:
        return True
    val = o.get(path[2])
    if len(path) >= 4 and isinstance(path[3], int) and isinstance(val, list):
        return any(tuple(x.get("_path", ()))[:4] == tuple(path[:4]) for x in val if isinstance(x, dict)) or path[3] < len(val)
    return path[2] in o


def _with_voids(events: list[dict[str, Any]], voided: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The phase's events with its void events where the void orders were found (the run
    without them repeats everything before that point exactly)."""
    if not voided:
        return list(events)
    out: list[dict[str, Any]] = []
    k = 0
    for at, ev in sorted(voided, key=lambda x: x[0]):
        out += events[k:at]
        k = max(k, at)
        out.append(ev)
    return out + events[k:]


def _pending(st: _Step, work: dict[str, Any], phase_start: dict[str, Any], nd: NeedDecision, run: PhaseRun[Any], idx: dict[str, int],
             phase_hash: str, ep: list[Any] | None) -> None:
    """The phase stops at decisions: record them with what is needed to resume the phase from
    its start (its state, the orders, the answers so far)."""
    out, name, player = st.out, run.phase, st.player
    out.events += run.events
    out.rolls += [r.to_dict() for r in run.dice.log]
    work["pending"] = list(nd.decisions)
    set_awaiting(work, [{"player": p, "for": "decision"} for p in _unique(d["player"] for d in nd.decisions)])
    base = dict(phase_start)
    base.pop("resume", None)
    resume: dict[str, Any] = {"base": base}
    _resume_orders(st, work, resume)
    first_idx = min(idx.values()) if idx else st.index
    resume.update({"index": first_idx, "orders_digest": st.digest, "state_hash": phase_hash})
    if len(st.actors) == 1 and "files" not in resume:
        resume["player"] = player
    resume["answers"] = {k: st.answers[k] for k in sorted(st.answers)}
    if _rekey(work):
        resume["epochs"] = [list(e) for e in ep or []] + [[st.digest, len(run.dice.log)]]
    work["resume"] = {k: resume[k] for k in ("base", "doc", "docs", "files", "players", "index", "orders_digest",
                                              "state_hash", "player", "answers", "epochs") if k in resume}
    for dec in nd.decisions:
        out.events.append({"type": "pending", "turn": work["turn"], "phase": name, "decision": dec})
    out.state = work
    out.stopped = "pending"


def _resume_orders(st: _Step, work: dict[str, Any], resume: dict[str, Any]) -> None:
    """The orders a pending phase carries out, as its state keeps them: by reference (issue 20:
    the archived files' sha256 and step; only a default, which tells nothing, is kept whole),
    or in an older campaign the documents themselves (one acting player: ``doc``)."""
    if _by_reference(work):
        resume["files"] = {p: dict(st.files[p]) for p in sorted(st.docs) if p in st.files}
        rest = {p: _clean_doc(st.docs[p]) for p in sorted(st.docs) if p not in st.files}
        if rest:
            resume["docs"] = rest
        resume["players"] = list(st.actors)
    elif len(st.actors) == 1:
        resume["doc"] = _clean_doc(st.docs[st.player])
    else:
        resume["docs"] = {p: _clean_doc(st.docs[p]) for p in sorted(st.docs)}
        resume["players"] = list(st.actors)


def _unique(xs: Iterable[Any]) -> list[Any]:
    seen: list[Any] = []
    for x in xs:
        if x not in seen:
            seen.append(x)
    return seen


def _clean_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """The part of an order file kept for resuming: header and phases (JSON-ready)."""
    keep: dict[str, Any] = {k: doc[k] for k in ("player", "turn", "phases") if k in doc}
    return copy.deepcopy(keep)
