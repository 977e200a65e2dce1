"""BlitzWAR's phases as data (issue 30): kind of phase -> its static check, its check against the
position and its run (:class:`pbem.core.game.PhaseKind`). The kernel alone goes through them, in
``adjudicate`` and in ``validate``; the game has no phase loop of its own.

The static checks say what is wrong whatever the dice and the answers do before the phase, for
every phase of an order file, when the file arrives (8: one file covers a side's six phases, so
the blitz comes after the air phase's interceptions and the naval battles): every counter named
exists (with a did-you-mean among the side's counters), is of the kind the order moves and of the
phase's side; every zone and sea named is on the map; each stated path step is next to the one
before it, the first one next to the zone the counter stands in unless an earlier phase of the
same file ships it (14); no blitz in mud (6, 16.1). What depends on the position the dice leave
(an enemy in the zone, supply, stacking, the odds) is checked when the phase runs: before its
first die an error refuses the file; after a die the order is void (pbem.core.kernel).

A rule module adds a static check ``f(StaticCheck) -> list[Issue]`` by naming it in
:data:`STATIC` under its kind of phase, ``rule("air", "f")`` (read from pbem/blitzwar/air.py when
the check runs, so that the rule module is imported only then), or in :data:`EVERY_PHASE`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.errors import Issue
from ..core.game import PhaseKind, PhaseRun, StaticCheck

# (the phases the table runs, imported with it: only the kernel reads the table, to carry a
# phase out or check one, and it asks these at every phase: issue 35)
from .context import Ctx
from .phases import run_step
from .sequence import SHARED, SIDE_STEPS, side_of_phase, step_of

if TYPE_CHECKING:
    from .world import World

LAND_TYPES = ("infantry", "armour", "white-tank")
#: the keys of a movement phase naming counters (the blitz and combat phases' moves: below)
MOVEMENT_KEYS = ("moves", "strategic", "activate", "entrench", "revert", "remove")


# ------------------------------------------------------------------------------ helpers
def _guess(chk: StaticCheck[World], cid) -> str:
    """A did-you-mean among the counters of the phase's side (or the player's sides)."""
    from .context import Ctx  # the chapter loads when its phase first runs
    from .land import counter_guess_of  # the chapter loads when its phase first runs
    state = chk.state
    side = side_of_phase(chk.phase)
    sides = {side} if side else {s for s, p in state["sides"].items() if p == chk.player}
    return counter_guess_of(Ctx(rs=chk.rs, state=state, turn=state["turn"], phase=state["phase"]), cid, sides)


def _no_counter(chk: StaticCheck[World], cid, path: tuple, what: str = "") -> Issue:
    return Issue("BW-COUNTER", f"{what}no counter {cid!r}{_guess(chk, cid)}", path=path, text=str(cid),
                 hint="pbem show and the order template list your counters")


def _zone_issue(chk: StaticCheck[World], z, path: tuple, near=(), rule: str | None = None, what: str = "",
                seas: bool = False) -> Issue | None:
    """BW-ZONE for a name that is no zone of the map (nor a sea zone, ``seas``)."""
    from .names import unknown_zone  # the chapter loads when its phase first runs
    w = chk.rs
    if isinstance(z, str) and (z in w.zones or (seas and z in w.seas)):
        return None
    near = list(near)
    return Issue("BW-ZONE", f"{what}{unknown_zone(w, z, near)}", path=path, text=str(z), rule=rule,
                 hint=(f"zones next to it: {', '.join(near)}" if near else "pbem show lists the zones"))


def _shipped_earlier(chk: StaticCheck[World]) -> set:
    """The counters an earlier phase of the file moves by sea (14): where they stand when a
    later phase moves them is not where they stand now."""
    out = set()
    for _, e in chk.earlier:
        for key in ("transport", "land", "back", "fleet_moves"):
            for m in e.get(key) or []:
                if isinstance(m, dict):
                    out.add(m.get("counter"))
    return out


def _formed(entry: dict) -> bool:
    """Clarification 6: a counter formed by a reorganisation before the moves (``before: true``)
    is not in the state yet; the movement phase checks it."""
    return any(isinstance(r, dict) and r.get("before") for r in entry.get("reorganise") or [])


# ------------------------------------------------------------------------------ static checks
def counters_exist(chk: StaticCheck[World]) -> list[Issue]:
    """Every counter a movement, replacement or sea-transport entry names exists (3)."""
    out: list[Issue] = []
    step = step_of(chk.phase)
    formed = _formed(chk.entry)
    for key in MOVEMENT_KEYS:
        if key == "moves" and step in ("blitz", "combat"):
            continue        # :func:`combat_orders` (one-zone moves, 16.5, 17.4)
        for j, m in enumerate(chk.entry.get(key) or []):
            cid = m.get("counter") if isinstance(m, dict) else m
            if cid not in chk.state["counters"] and not (formed and key in ("moves", "strategic", "activate")):
                out.append(_no_counter(chk, cid, chk.path + (key, j)))
    return out


def movement_paths(chk: StaticCheck[World]) -> list[Issue]:
    """15.2, 15.3: every zone of a stated path is on the map and next to the zone before it; the
    first one next to the zone the counter stands in (unless an earlier phase of the file ships
    it). The rest (control, enemies, cost, supply) is the position's: the phase checks it."""
    w, counters = chk.rs, chk.state["counters"]
    shipped = _shipped_earlier(chk)
    out: list[Issue] = []
    for key, rule in (("moves", "15.3"), ("strategic", "15.2")):
        for j, m in enumerate(chk.entry.get(key) or []):
            if not isinstance(m, dict) or not isinstance(m.get("path"), list):
                continue
            cid, q = m.get("counter"), chk.path + (key, j)
            c = counters.get(cid)
            prev = c["at"] if c is not None and cid not in shipped and c.get("at") in w.zones else None
            for k, z in enumerate(m["path"]):
                where = q + ("path", k)
                if k == 0 and prev is not None and z == prev:
                    out.append(Issue("BW-PATH-START", f"{cid}: the path lists the zones entered, not {prev}, where {cid} "
                                     f"stands ({rule})", path=where, text=str(prev), rule=rule,
                                     hint=f"write path: [{', '.join(map(str, m['path'][1:])) or 'ZONE, ...'}]"))
                    continue        # (the zones of the rest are still checked)
                bad = _zone_issue(chk, z, where, w.zones[prev].links if prev else (), rule, f"{cid}: ")
                if bad is not None:
                    out.append(bad)
                    break
                if prev is not None and z not in w.zones[prev].links:
                    out.append(Issue("BW-PATH", f"{cid}: {z} is not next to {prev} ({rule})", path=where, text=str(z),
                                     rule=rule, hint=f"zones next to {prev}: {', '.join(w.zones[prev].links)}"))
                    break
                prev = z
    return out


def combat_orders(chk: StaticCheck[World]) -> list[Issue]:
    """16.1, 17.1, 16.5, 17.4, 17.5: the counters of an attack or a one-zone move exist, are land
    counters of the phase's side; the zones named are on the map (the codes and words of the
    phase's own checks, pbem/blitzwar/combat.py, combat_moves.py, movement.py). In mud there is
    no blitz phase, nor its attacks and moves (6, 16.1)."""
    from .context import nation_side  # the chapter loads when its phase first runs
    w, state = chk.rs, chk.state
    side = side_of_phase(chk.phase)
    out: list[Issue] = []
    t = w.turns.get(chk.turn)
    if step_of(chk.phase) == "blitz" and t is not None and t.weather == "mud":
        # (the words of the blitz phase's own refusals, pbem/blitzwar/combat.py, combat_moves.py)
        if chk.entry.get("attacks"):
            out.append(Issue("BW-NO-BLITZ", f"there is no blitz phase on turn {chk.turn}: the weather is mud (6, 16.1)",
                             path=chk.path + ("attacks",), rule="6, 16.1",
                             hint=f"attack in the normal combat phase: move these attacks under {side}.9.combat (17)"))
        for j, _ in enumerate(chk.entry.get("moves") or []):
            out.append(Issue("BW-NO-BLITZ", f"there is no blitz phase on turn {chk.turn}: the weather is mud; "
                             "no one-zone move of it either (6, 16.5)", path=chk.path + ("moves", j), rule="6, 16.5",
                             hint="move it in the normal combat phase (17.4)"))
    rule = "16.1" if step_of(chk.phase) == "blitz" else "17.1"
    for j, e in enumerate(chk.entry.get("attacks") or []):
        if not isinstance(e, dict):
            continue
        q = chk.path + ("attacks", j)
        cs = e.get("counters", e.get("units"))
        near: list[str] = []
        for k, cid in enumerate([cs] if isinstance(cs, str) else list(cs or [])):
            at = q + (("counters", k) if not isinstance(cs, str) else ())
            c = state["counters"].get(cid)
            why = (f"no counter {cid!r}{_guess(chk, cid)}" if c is None
                   else f"{cid} is a {c['type']} counter: only infantry and armour attack" if c["type"] not in LAND_TYPES
                   else f"{cid} is not a counter of the {side}" if nation_side(w, state, c["nation"]) != side else None)
            if why:
                out.append(Issue("BW-ATTACK-COUNTER", why, path=at, text=str(cid), rule=rule))
            elif c.get("at") in w.zones:
                near += [z for z in w.zones[c["at"]].links if z not in near]
        z = e.get("target")
        if z is not None:
            bad = _zone_issue(chk, z, q + ("target",), sorted(near), rule, "attack: ")
            if bad is not None:
                out.append(bad)
    for key in ("moves", "out_of_supply_moves"):
        for j, m in enumerate(chk.entry.get(key) or []):
            if not isinstance(m, dict):
                continue
            q = chk.path + (key, j)
            cid = m.get("counter")
            c = state["counters"].get(cid)
            if c is None or c["type"] not in LAND_TYPES or nation_side(w, state, c["nation"]) != side:
                out.append(Issue("BW-MOVE-COUNTER", f"{cid!r} is not a land counter of the {side}"
                                 + (_guess(chk, cid) if c is None else ""), path=q, text=str(cid),
                                 rule="17.5" if key == "out_of_supply_moves" else "16.5" if rule == "16.1" else "17.4"))
            z = m.get("to")
            if z is not None:
                links = list(w.zones[c["at"]].links) if c is not None and c.get("at") in w.zones else []
                bad = _zone_issue(chk, z, q + ("to",), links, None, f"{cid}: ")
                if bad is not None:
                    out.append(bad)
    return out


def answers(chk: StaticCheck[World]) -> list[Issue]:
    """16.1, 16.2, 16.4, 17.3: answers written in an attack that can never be used (warnings)."""
    from .orders import unusable_answers  # the chapter loads when its phase first runs
    return unusable_answers(chk.state["counters"], chk.entry, chk.index, None)


def air_missions(chk: StaticCheck[World]) -> list[Issue]:
    """13.1, 13.4: the air units named exist and are air units of the side; the zone of a
    mission is a land or sea zone of the map (the air phase's codes, pbem/blitzwar/air.py).
    (The naval phase, 12, is the first of a side's phases: nothing of its file comes before it,
    and it checks its orders before its first die itself.)"""
    from .context import nation_side  # the chapter loads when its phase first runs
    w, state = chk.rs, chk.state
    side = side_of_phase(chk.phase)
    out: list[Issue] = []
    for key in ("air",):
        for j, o in enumerate(chk.entry.get(key) or []):
            if not isinstance(o, dict):
                continue
            q = chk.path + (key, j)
            cid = o.get("counter")
            c = state["counters"].get(cid)
            if c is None:
                out.append(_no_counter(chk, cid, q + ("counter",)))
            elif c["type"] != "air" or nation_side(w, state, c["nation"]) != side:
                out.append(Issue("BW-AIR-UNIT", f"{cid} is not an air unit of the {side}", path=q + ("counter",),
                                 text=str(cid), rule="13.1"))
            z = o.get("to")
            if z is not None and o.get("mission") != "bombing" and not (isinstance(z, str) and (z in w.zones or z in w.seas)):
                from .names import zone_guess  # the chapter loads when its phase first runs
                out.append(Issue("BW-AIR-ZONE", f"no land or sea zone {z!r}{zone_guess(w, z)}", path=q + ("to",),
                                 text=str(z), rule="13.4.1"))
    return out


def card_picks(chk: StaticCheck[World]) -> list[Issue]:
    """10.1: every card picked is a card of the game (a card id written wrong). The cards phase
    comes after the diplomacy phase's dice (9.3) in the same file. Which deck the side picks from
    (10.2), another side's card, a card queued or picked twice: the phase checks them, every
    problem of a side's picks at once (refused here, the side's picks are set aside)."""
    from ..core.errors import did_you_mean
    w, out = chk.rs, []
    cards = {c.id for d in w.decks.values() for c in d.cards}
    for side, picks in (chk.entry.get("cards") or {}).items() if isinstance(chk.entry.get("cards"), dict) else []:
        every = [c.id for (s, _), d in w.decks.items() if s == side for c in d.cards]
        if not every:
            continue        # not a side (the phase says so, BW-CARD-SIDE)
        for j, card in enumerate(picks if isinstance(picks, list) else []):
            if card not in cards:
                out.append(Issue("BW-CARD-NOT-FREE", f"{card} is not a card of the {side} side (10.1){did_you_mean(card, every)}",
                                 path=chk.path + ("cards", side, j), text=str(card), rule="10.1",
                                 hint="pbem orders template lists the free cards"))
    return out


def transport_orders(chk: StaticCheck[World]) -> list[Issue]:
    """14.1: the counters shipped exist."""
    out: list[Issue] = []
    for key in ("transport", "land", "back"):
        for j, m in enumerate(chk.entry.get(key) or []):
            if isinstance(m, dict) and m.get("counter") not in chk.state["counters"]:
                out.append(_no_counter(chk, m.get("counter"), chk.path + (key, j), f"{key}: "))
    return out


def rule(module: str, name: str) -> Callable[[StaticCheck[World]], list[Issue]]:
    """The static check ``name`` of the rule module ``pbem.blitzwar.<module>``, imported when it
    runs (a rule module's own check, declared here)."""
    def check(chk: StaticCheck[World]) -> list[Issue]:
        import importlib
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)(chk)
    check.__name__ = f"{module}.{name}"
    return check


#: the static checks of every kind of phase, and those of each kind (a rule module may add its own)
EVERY_PHASE: list[Callable[[StaticCheck[World]], list[Issue]]] = [counters_exist]
STATIC: dict[str, list[Callable[[StaticCheck[World]], list[Issue]]]] = {
    "cards": [card_picks], "air": [air_missions], "sea-transport": [transport_orders],
    "movement": [movement_paths], "blitz": [combat_orders, answers], "combat": [combat_orders, answers],
}


def static_check(chk: StaticCheck[World]) -> list[Issue]:
    """Every static check of the entry's kind of phase, all problems at once."""
    out: list[Issue] = []
    for f in EVERY_PHASE + STATIC.get(step_of(chk.phase), []):
        out += f(chk)
    return out


# ------------------------------------------------------------------------------ runs
def run_kind(run: PhaseRun[World], kind: str | None = None) -> None:
    """Carry out one phase of kind ``kind`` (default: the phase's; pbem/blitzwar/phases.py)."""
    ctx = Ctx(rs=run.rs, state=run.state, turn=run.turn, phase=run.phase, side=side_of_phase(run.phase),
              player=run.player, dice=run.dice, answers=run.answers, auto_players=run.auto_players)
    ctx.events = run.events
    run_step(ctx, run.orders, kind or step_of(run.phase))


def _row(kind: str) -> PhaseKind[World]:
    return PhaseKind(run=lambda run: run_kind(run, kind), static=static_check)


#: BlitzWAR's phase table (8): every kind of phase of a turn
TABLE: dict[str, PhaseKind[World]] = {step_of(p): _row(step_of(p)) for p in SHARED + SIDE_STEPS}
