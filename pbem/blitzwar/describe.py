"""BlitzWAR's events, one registry: each event type the rules write (movement.py, combat*.py,
cards.py, replacements.py, supply_losses.py, diplomacy.py, land.py, phases.py; the kernel's
``phase``) with its report wording and what it marks on the map (pbem/blitzwar/stepmarks.py
draws them). :data:`EVENTS` is the one table; :func:`describe` reads it (the report, `pbem map`'s
panel). schemas/blitzwar-report.schema.json lists the same types with the core's; tests/test_event_types.py
keeps the three in step.

An event's map marks: ``marks(rs, ev)`` the lettered discs by a zone's city ((mark key of
stepmarks.MARKS, zone, who)); ``arrow(ev)`` an arrow along a path ((places, class, style key of
stepmarks.ARROWS) or None); ``changed(ev)`` the zones that changed hands ({zone: new side}).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .sequence import phase_title

Lines = list[str]
Marks = list[tuple[str, str, str]]


@dataclass(frozen=True)
class EventType:
    text: Callable[[Any, dict], Lines]
    marks: Callable[[Any, dict], Marks] | None = None
    arrow: Callable[[dict], tuple[list, str, str] | None] | None = None
    changed: Callable[[Any, dict], dict[str, str]] | None = None


def _r(ev: dict) -> str:
    """The rule in the wording of the movement, replacement and diplomacy events: `` (15.3)``."""
    return f" ({ev['rule']})" if ev.get("rule") else ""


def _cr(ev: dict) -> str:
    """The rule in the wording of the combat events: ``[16.2]``."""
    return f"[{ev.get('rule')}]" if ev.get("rule") else ""


def _zone_name(rs, z) -> str:
    return rs.zones[z].name if z in getattr(rs, "zones", {}) else str(z)


def _country_name(rs, c) -> str:
    return rs.countries[c].name if c in rs.countries else c


def _zone_of(ev: dict) -> str | None:
    z = ev.get("zone")
    return z if isinstance(z, str) else None


def _generic(rs, ev: dict) -> Lines:
    """An event type without wording: its fields."""
    rest = {k: v for k, v in ev.items() if k not in ("type", "turn", "phase")}
    return [f"{ev.get('type')}: " + ", ".join(f"{k}={v}" for k, v in rest.items())]


# ------------------------------------------------------------------------------ map marks
def _mark(key: str) -> Callable[[Any, dict], Marks]:
    """One lettered mark in the event's zone, for its counter (or nation)."""
    def marks(rs, ev: dict) -> Marks:
        z = _zone_of(ev)
        return [(key, z, str(ev.get("counter") or ev.get("nation") or ""))] if z else []
    return marks


def _at_capital(key: str) -> Callable[[Any, dict], Marks]:
    """A country that joined a side or surrendered, marked at its capital."""
    def marks(rs, ev: dict) -> Marks:
        if ev.get("country") in rs.countries:
            cap = rs.countries[ev["country"]].capital
            if cap in rs.zones:
                return [(key, cap, ev["country"])]
        return []
    return marks


def _losses_marks(rs, ev: dict) -> Marks:
    z = _zone_of(ev)
    if not z:
        return []
    return [(x.get("effect"), z, str(x.get("counter"))) for x in ev.get("losses") or []
            if x.get("effect") in ("eliminated", "reduced")]


def _retreat_eliminated_marks(rs, ev: dict) -> Marks:
    z = _zone_of(ev)
    return [("eliminated", z, c) for c in ev.get("counters") or []] if z else []


def _replacements_marks(rs, ev: dict) -> Marks:
    z = _zone_of(ev)
    return [("replacements", z, str(ev.get("nation", "")))] if z else []


def _setup_marks(rs, ev: dict) -> Marks:
    return [("setup", zz, str(ev.get("choice", ""))) for zz in sorted(ev.get("placed") or {})]


def _move_arrow(ev: dict):
    kind = str(ev.get("kind", "tactical"))
    return list(ev.get("path") or []), f"move {kind}", kind if kind in ("strategic", "out-of-supply") else "move"


def _advance_arrow(ev: dict):
    if not ev.get("path") or not ev.get("from"):
        return None
    return [ev.get("from")] + list(ev["path"]), "advance", "advance"


def _control_changed(rs, ev: dict) -> dict[str, str]:
    return {ev["zone"]: str(ev.get("to") or ev.get("side"))} if ev.get("zone") in rs.zones else {}


def _surrender_changed(rs, ev: dict) -> dict[str, str]:
    return {z: str(sd) for z, sd in (ev.get("control") or {}).items() if z in rs.zones}


# ------------------------------------------------------------------------------ the sequence (8)
def _phase(rs, ev):
    return [f"-- turn {ev['turn']}, {phase_title(ev['phase'])}"]


def _turn(rs, ev):
    return [f"== turn {ev['turn']}: {ev['date']}, weather {ev['weather']}"]


def _passes(rs, ev):
    return [f"{phase_title(ev['phase'])}: nothing to do yet - {ev['text']}{_r(ev)}"]


def _game_over(rs, ev):
    out = [f"the game is over: {ev.get('reason', '')}"]
    won = ev.get("winners") or ([ev["winner"]] if ev.get("winner") else [])
    if won:     # 18 (issue 21): who wins, and the ten victory points
        out.append(f"  {' and '.join(won)} {'win' if len(won) > 1 else 'wins'}"
                   + (f"; victory points Allies/USSR {ev['points']['allies/ussr']}, Axis {ev['points']['axis']}"
                      if ev.get("points") else ""))
    return out


def _setup(rs, ev):
    return [f"set-up {ev['choice']} by the {ev['player']} player: " + "; ".join(
        f"{z} " + ", ".join(f"{k}{v}" for k, v in u.items()) for z, u in ev["placed"].items()) + _r(ev)]


# ------------------------------------------------------------------------------ movement and supply (7, 15)
def _no_blitz(rs, ev):
    return [f"no blitz phase: {ev['text']}"]


def _supply(rs, ev):
    frm = "the supply held" if ev["source"] == "held" else f"supply counter {ev['source']} in {ev.get('source_zone', '?')}"
    return [f"supply: {ev['counter']} {ev['action']} costs {ev['paid']}, paid from {frm}, {ev['left']} left{_r(ev)}"]


def _move(rs, ev):
    return [f"{ev['counter']} {ev['kind']} move: {' - '.join(ev['path'])}" + (" (active)" if ev.get("active") else "") + _r(ev)]


def _activate(rs, ev):
    return [f"{ev['counter']} in {ev['zone']} activated for attack{_r(ev)}"]


def _reorganise(rs, ev):
    return [f"{', '.join(ev['counters'])} in {ev['zone']} reorganised into {', '.join(ev['into'])} (free){_r(ev)}"]


def _removed_by_owner(rs, ev):
    return [f"{ev['counter']} in {ev['zone']} taken off the map by its owner, to the pool (free){_r(ev)}"]


def _entrench(rs, ev):
    return [f"{ev['counter']} entrenches in {ev['zone']}{_r(ev)}"]


def _revert(rs, ev):
    return [f"{ev['counter']} in {ev['zone']} turns back to infantry{_r(ev)}"]


def _pushed_out(rs, ev):
    return [f"{ev['counter']} is pushed out of {ev['zone']} to {ev['to']} by {ev['by']}{_r(ev)}"]


def _removed(rs, ev):
    return [f"{ev['counter']} removed from {ev['zone']}: {ev['why']} ({ev['how']}){_r(ev)}"]


def _out_of_supply(rs, ev):
    return [f"{ev['counter']} in {ev['zone']} is out of supply{_r(ev)}"]


def _german_in_finland(rs, ev):
    return [f"{ev['counter']} is the first German unit to move into Finland ({ev['zone']}): the Soviet total-war "
            f"cards come from the next turn{_r(ev)}"]


def _in_supply(rs, ev):
    return [f"{ev['counter']} in {ev['zone']} is in supply again{_r(ev)}"]


def _control(rs, ev):
    """A zone changes hands: in combat (16, 17; the event carries ``combat``) or by a move (5, 15.3)."""
    if "combat" in ev:
        return [f"{_zone_name(rs, ev['zone'])}: control {ev['from']} -> {ev['to']} {_cr(ev)}"]
    return [f"{ev['zone']} passes to the {ev['side']} side (was {ev['before']}), entered by {ev['by']}{_r(ev)}"]


def _destroyed(rs, ev):
    """Enemy supply or air in a zone entered (15.3): in combat (the event carries ``combat``) or by a move."""
    if "combat" in ev:
        return [f"{ev['counter']} ({ev['what']}) in {_zone_name(rs, ev['zone'])} destroyed as {ev['by']} enters {_cr(ev)}"]
    return [f"{ev['counter']} in {ev['zone']} is destroyed by {ev['by']} entering{_r(ev)}"]


# ------------------------------------------------------------------------------ land combat (16, 17)
def _fight_on(rs, ev):
    how = (f"{', '.join(ev['added'])} added to the attack ordered on it" if ev["written"]
           else f"pbem makes the attack with {', '.join(ev['counters'])}")
    if ev.get("carried"):
        how += f"; the blitz attack's {', '.join(ev['carried'])} kept"
    return [f"The blitz on {_zone_name(rs, ev['zone'])} left defenders: it is fought on in this phase ({how}) {_cr(ev)}"]


def _no_blitz_phase(rs, ev):
    return [f"No blitz phase for the {ev['side']}: {ev['reason']} {_cr(ev)}"]


def _combat(rs, ev):
    out = [f"Attack {ev['combat']} on {_zone_name(rs, ev['zone'])} {_cr(ev)}: "
           + ", ".join(a["counter"] + f" ({a['what']}, from {a['from']})" for a in ev["attackers"])
           + " against " + ", ".join(d["counter"] + f" ({d['what']})" for d in ev["defenders"]),
           f"  corps {ev['odds']}: column {ev.get('base_column') or 'below the table'}"
           + (" (8-1 read as 7-1)" if ev.get("eight_to_one") else "")]
    for s in ev.get("shifts", []):
        out.append(f"  {'right' if s['shift'] > 0 else 'left'} {abs(s['shift'])}: {s['reason']} [{s['rule']}]")
    if ev.get("result") == "void":
        out.append(f"  void: {ev.get('why')}")
    else:
        out.append(f"  net shift {ev['net_shift']:+d} -> column {ev['column']}; die {ev['roll']['value']} "
                   f"({ev['roll']['label']}) -> {ev['result']}"
                   + (f", reduced to {ev['reduced']['to']} ({ev['reduced']['because']}) [16.2]" if ev.get("reduced") else ""))
    for p in ev.get("provisional", []):
        out.append(f"  provisional: {p['item']}" + (f" ({p['note']})" if p.get("note") else ""))
    return out


def _german_defence(rs, ev):
    return [(f"Attack {ev['combat']}: the Axis ({ev['player']}) {'uses' if ev['choice'] == 'use' else 'declines'} "
             f"the German defence shift ({ev['chosen_by']}) {_cr(ev)}")]


def _losses(rs, ev):
    parts = [f"{x['counter']} {x['corps']} corps: {x['effect']} ({x['before']} -> {x['after']})" for x in ev["losses"]]
    must = f"; must: {', '.join(ev['must'])}" if ev.get("must") else ""
    return [f"Attack {ev['combat']}: the {ev['side']} lose {ev['required']} ({ev['player']}, {ev['chosen_by']}{must}) {_cr(ev)}"] + \
        ["  " + p for p in parts]


def _air_loss(rs, ev):
    return [(f"Attack {ev['combat']}: air unit {ev['counter']} ({ev['nation']}) over {_zone_name(rs, ev['zone'])} "
             f"is removed to the pool {_cr(ev)}")]


def _retreat(rs, ev):
    tb = f"; {', '.join(ev['turned_back'])} turned back to infantry (15.1)" if ev.get("turned_back") else ""
    lb = f"; {', '.join(ev['left_behind'])} stay behind (supply does not retreat)" if ev.get("left_behind") else ""
    return [(f"Attack {ev['combat']}: {', '.join(ev['counters'])} retreat from {_zone_name(rs, ev['zone'])} to "
             f"{_zone_name(rs, ev['to'])} ({ev['player']}, {ev['chosen_by']}{tb}{lb}) {_cr(ev)}")]


def _retreat_refused(rs, ev):
    return [(f"Attack {ev['combat']}: the defenders of {_zone_name(rs, ev['zone'])} do not retreat ({ev['how']}; "
             f"{ev['player']}, {ev['chosen_by']}) {_cr(ev)}")]


def _retreat_eliminated(rs, ev):
    return [(f"Attack {ev['combat']}: {', '.join(ev['counters'])} cannot retreat from {_zone_name(rs, ev['zone'])} "
             f"and are eliminated {_cr(ev)}")]


def _advance(rs, ev):
    if not ev.get("path"):
        why = f": {ev['why']}" if ev.get("why") else ""
        return [f"Attack {ev['combat']}: {ev['counter']} does not advance ({ev['player']}, {ev['chosen_by']}){why} {_cr(ev)}"]
    frm = f"from {_zone_name(rs, ev['from'])} " if ev.get("from") in rs.zones else ""
    return [(f"Attack {ev['combat']}: {ev['counter']} advances {frm}{'to ' if frm else ''}"
             f"{' -> '.join(_zone_name(rs, z) for z in ev['path'])} ({ev['player']}, {ev['chosen_by']}) {_cr(ev)}")]


def _fortress_line_destroyed(rs, ev):
    return [f"The fortress line of {_zone_name(rs, ev['zone'])} is taken: destroyed for the rest of the war {_cr(ev)}"]


def _one_zone_move(rs, ev):
    src = ev.get("source")
    cost = ("free (out of supply)" if ev.get("free") else        # archives made before issue 19, departure 3
            f"{ev['cost']} supply from supply counter {src}" if src not in (None, "held")
            else f"{ev['cost']} supply, {ev['supply_left']} left")
    return [f"{ev['counter']} moves one zone {_zone_name(rs, ev['from'])} -> {_zone_name(rs, ev['to'])} ({cost}) {_cr(ev)}"]


# ------------------------------------------------------------------------------ cards and replacements (10, 11)
def _modernised(rs, ev):
    if ev.get("kind") is None:
        return [f"{ev['side']}: modernisation: {ev['text']}{_r(ev)}"]
    return [f"{ev['side']}: modernisation: one more {ev['kind']} counter available ({ev['available']} now)"
            + (" - default" if ev["how"] == "default" else "") + _r(ev)]


def _special_soviet(rs, ev):
    return [(f"{ev['side']}: {ev['infantry']} infantry corps besides the card, three turns after the first Axis attack "
             f"(turn {ev['attacked']}){_r(ev)}")]


def _later(rs, ev):
    return [f"not applied yet: {ev['text']}{_r(ev)}"]


def _card_deck(rs, ev):
    return [f"{ev['side']}: picks come from the total-war deck from now on: {ev['why']}{_r(ev)}"]


def _card_picked(rs, ev):
    what = "a sealed card" if ev["card"] == "sealed" else ev["card"]
    # short enough that the section stays on the line at the report's width (issue 33: a long
    # side's line wrapped it onto the next, so the picks read with and without their section)
    how = {"order": "", "sealed": "", "default": " (default: no pick received, the deck's first free card)"}[ev["how"]]
    return [f"{ev['side']}: card of turn {ev['for_turn']}: {what}{how}{_r(ev)}"]


def _card_revealed(rs, ev):
    return [f"{ev['side']}: replacement card {ev['card']}" + (" (opened)" if ev["how"] == "opened" else "") + ": "
            + ", ".join(f"{k} {v}" for k, v in ev["units"].items()) + _r(ev)]


def _card_text(rs, ev):
    return [f"{ev['side']}: {ev['text']}{_r(ev)}"]


def _blockade_words(ev) -> str:
    """12.4: what the blockade took, and why (naval phase, seacontrol.blockade)."""
    b = ev.get("blockade", 0)
    w = ev.get("blockade_why")
    if not b or not w:
        return "blockade 12.4: 0"
    return (f"blockade 12.4: {b} = {w['north_atlantic']} Axis naval units in the North Atlantic + half of "
            f"{w['mid_atlantic']} in the Mid-Atlantic rounded up"
            + (f", capped at the {w['cap']} national points the Allies hold in Britain" if w["uncapped"] > w["cap"] else ""))


def _supply_loss(rs, ev):
    if ev.get("bombing"):       # 13.3 (air): the bombers' supply and why
        why = f"strategic bombing {ev['bombing']} by {', '.join(ev.get('bombers') or [])} (13.3)"
    else:
        why = "bombing 13.3: 0"
    return [(f"{ev['side']}: supply losses {ev['loss']} (national strategic points occupied: {', '.join(ev['points']) or 'none'}; "
             f"{_blockade_words(ev)}; {why}); covered by units {ev['covered']}, "
             f"from the card {ev['from_card']}, from the supply held {ev['from_held']}; held now {ev['held']}{_r(ev)}")]


def _supply_received(rs, ev):
    return [f"{ev['side']}: {ev['supply']} supply received" + (f" from {ev['nation']}" if ev.get("nation") else "")
            + f", held now {ev['held']}{_r(ev)}"]


def _replacements(rs, ev):
    return [f"{ev['side']}: {ev['nation']} replacements in {ev['zone']}: {', '.join(ev['counters'])} "
            f"({', '.join(f'{k}{v}' for k, v in ev['units'].items())})" + (" - default placement" if ev["how"] == "default" else "")
            # ruling repl-fill-reduced: counters on the map below strength topped up
            + (f"; {', '.join(ev['filled'])} topped up (no counter left in the pool)" if ev.get("filled") else "")
            + _r(ev)]


def _replacements_not_held(rs, ev):
    return [(f"{ev['side']}: {ev['nation']} replacements placed in {ev['zone']} "
             f"({', '.join(f'{k} {v}' for k, v in ev['units'].items())}): "
             f"no counter of the mix left holds them there: default placement{_r(ev)}")]


def _replacements_lost(rs, ev):
    return [(f"{ev['side']}: {ev['nation']} replacements lost: {', '.join(f'{k} {v}' for k, v in ev['units'].items())} - "
             f"{ev['text']}{_r(ev)}")]


def _minor_replacements(rs, ev):
    got = (f"{', '.join(ev['counters']) or 'nothing (' + ev.get('text', 'no counter left') + ')'} in {ev['zone']}" if ev.get("zone")
           else ev.get("text", ""))
    if ev.get("filled"):        # ruling repl-fill-reduced
        got += f" ({', '.join(ev['filled'])} topped up: no counter left in the pool)"
    return [f"{ev['nation']} ({ev['side']}): {ev['why']}: {got}{_r(ev)}"]


# ------------------------------------------------------------------------------ diplomacy (9)
def _activated(rs, ev):
    return [f"{_country_name(rs, ev['country'])} ({ev['country']}) joins the {ev['side']}: {ev['why']}{_r(ev)}"]


def _surrender(rs, ev):
    head = f"{_country_name(rs, ev['country'])} ({ev['country']}) surrenders to the {ev['to']}: {ev['why']}{_r(ev)}"
    return [head] + _surrender_after(rs, ev, "its units")


def _surrender_after(rs, ev, whose: str) -> list[str]:
    """The lines under a surrender (9.2, 9.4): the units that leave the game, the zones that pass."""
    out = [f"  {whose} leave the game: {', '.join(ev['removed'])}"] if ev.get("removed") else []
    for z, s in (ev.get("control") or {}).items():
        out.append(f"  {rs.zones[z].name if z in rs.zones else z} passes to the {s}")
    return out


def _reactivated(rs, ev):
    return [(f"{_country_name(rs, ev['country'])} ({ev['country']}) is active again on the {ev['side']} side: the surrender "
             f"condition no longer holds ({ev['why']}){_r(ev)}")]


def _surrender_deferred(rs, ev):
    # the former ruling france-deferred (before 9.4, issue 21): still worded for old reports
    return [f"{_country_name(rs, ev['country'])}: {ev['text']} ({ev['why']}){_r(ev)}"] + \
        [f"  switched off until 9.4 comes: {x}" for x in ev.get("switched_off") or []]


# issue 21 (9.4): Vichy France and Free France
def _vichy(rs, ev):
    out = [f"{ev['text']}{_r(ev)}", "  Vichy's zones: " + ", ".join(rs.zones[z].name if z in rs.zones else z for z in ev.get("zones") or [])]
    for cid, to in (ev.get("moved") or {}).items():
        out.append(f"  {cid} leaves Vichy's territory for {rs.zones[to].name if to in rs.zones else to}")
    if ev.get("placed"):
        out.append("  Vichy's units: " + ", ".join(ev["placed"]))
    if ev.get("elite"):
        out.append(f"  the first German elite counter arrives: {ev['elite']} (11.7)")
    return out


def _vichy_surrender(rs, ev):
    return [f"{ev['text']} (Allied ports: {', '.join(ev.get('ports') or [])}){_r(ev)}"] + _surrender_after(rs, ev, "Vichy's units")


def _partisans(rs, ev):
    out = [f"Yugoslav partisans: die {ev['roll']['value']} ({ev['roll']['label']}): {ev['text']}{_r(ev)}"]
    for z, c in zip(ev.get("zones") or [], ev.get("counters") or []):
        out.append(f"  {c} appears in {rs.zones[z].name if z in rs.zones else z}")
    return out


def _elite(rs, ev):
    return [f"{ev['text']}" + (f": {ev['counter']}" if ev.get("counter") else "") + _r(ev)]


def _karelia(rs, ev):
    return [f"{ev['text']}{_r(ev)}"]


def _diplomacy_roll(rs, ev):
    if not ev.get("roll"):
        return [f"{_country_name(rs, ev['country'])} diplomacy: {ev['result']} ({ev.get('chosen_by', '')}){_r(ev)}"]
    return [f"{_country_name(rs, ev['country'])} diplomacy: die {ev['roll']['value']} ({ev['roll']['label']}): {ev['result']}{_r(ev)}"]


def _supply_lost(rs, ev):
    return [f"the {ev['side']} lose {ev['lost']} supply: {ev['why']}{_r(ev)}"]


def _diplomacy(rs, ev):
    return [f"diplomacy: {ev['text']}{_r(ev)}"]


def _us_entry_earlier(rs, ev):
    return [f"{ev['why']}: the US entry comes a turn earlier ({ev['earlier']} turn(s) before the calendar's){_r(ev)}"]


# ------------------------------------------------------------------------------ the naval phase (12; naval.py, seacontrol.py)
def _sea_name(rs, sea) -> str:
    return rs.seas[sea].name if sea in rs.seas else (rs.zones[sea].name if sea in rs.zones else str(sea))


def _fleet_move(rs, ev):
    return [f"{ev['side']}: {ev['counter']} sails " + " -> ".join(_sea_name(rs, x) for x in ev["path"])
            + (f" ({ev['zones']} of 4; {ev['supply']} supply from the supply counter {ev['source']} in "
               f"{_zone_name(rs, ev['source_zone'])}, {ev['left']} left there)" if ev.get("source") else
               f" ({ev['zones']} of 4; {ev['supply']} supply, held now {ev['held']})") + _r(ev)]


def _naval_battle(rs, ev):
    out = [f"{ev['side']}: naval battle {ev['battle']} at {_sea_name(rs, ev['sea'])}: {', '.join(ev['attackers'])} "
           f"against {', '.join(ev['defenders'])} ({'the table of summer 1943' if ev.get('table') == 'after' else 'the table'})"
           f"{_r(ev)}"]
    for rd in ev.get("rounds") or []:
        lost = "; ".join(f"{x['counter']} {x['effect']} ({x['before']}, chosen by {x['chosen_by']})" for x in rd["losses"])
        out.append(f"  round {rd['round']}: die {rd['roll']['value']} ({rd['roll']['label']}) against {rd['defenders']} "
                   f"defending units: attacker loses {rd['attacker_loses']}, defender {rd['defender_loses']}"
                   + (f": {lost}" if lost else "") + ("; the battle ends" if rd.get("ends") else ""))
    out.append(f"  left: attackers {', '.join(ev['attackers_left']) or 'none'}; defenders {', '.join(ev['defenders_left']) or 'none'}")
    return out


def _naval_battle_marks(rs, ev: dict) -> Marks:
    sea = ev.get("sea") or _zone_of(ev)
    if not sea:
        return []
    out: Marks = [("naval-battle", sea, str(ev.get("side", "")))]
    for rd in ev.get("rounds") or []:
        out += [(x["effect"], sea, str(x["counter"])) for x in rd.get("losses") or []
                if x.get("effect") in ("eliminated", "reduced")]
    return out


def _sea_control(rs, ev):
    now = ", ".join(f"{_sea_name(rs, k)} {v}" for k, v in ev["control"].items()) or "no sea zone"
    out = [f"sea control in force: {now}{_r(ev)}"]
    for k, v in ev.get("changed", {}).items():
        out.append(f"  {_sea_name(rs, k)}: {'now ' + v if v else 'no one now'} ({ev.get('why', {}).get(k, '')})")
    return out


NAVAL_EVENTS: dict[str, EventType] = {
    "fleet-move": EventType(_fleet_move, arrow=lambda ev: (list(ev.get("path") or []), "move naval", "naval")),
    "naval-battle": EventType(_naval_battle, marks=_naval_battle_marks),
    "sea-control": EventType(_sea_control),
}


# ------------------------------------------------------------------ the air phase (13, pbem/blitzwar/air.py)
_MISSION = {"superiority": "air superiority", "sea-control": "sea control", "beachhead": "a beachhead",
            "bombing": "strategic bombing"}


def _air_mission(rs, ev):
    extra = f" for {_zone_name(rs, ev['beachhead'])}" if ev.get("beachhead") else ""
    return [f"air {ev.get('air')}: {ev['counter']} ({ev['nation']}) flies from {_zone_name(rs, ev['from'])} to "
            f"{_zone_name(rs, ev['zone'])} for {_MISSION.get(ev['mission'], ev['mission'])}{extra}{_r(ev)}"]


def _air_beachhead(rs, ev):
    return [f"air {ev.get('air')}: {ev['counter']} ({ev['nation']}) is placed as a beachhead for "
            f"{_zone_name(rs, ev['beachhead'])} from {_zone_name(rs, ev['zone'])}, after every interception{_r(ev)}"]


def _interception(rs, ev):
    return [f"air {ev.get('air')}: {ev['counter']} ({ev['nation']}, {_MISSION.get(ev['mission'], ev['mission'])} over "
            f"{_zone_name(rs, ev['zone'])}) intercepted by {ev['by']} ({ev['by_nation']}) from {_zone_name(rs, ev['by_from'])}, "
            f"decided by the {ev['player']} player ({ev['chosen_by']}): both removed to the pool, without effect{_r(ev)}"]


def _no_interception(rs, ev):
    return [f"air {ev.get('air')}: the {ev['side']} does not intercept {ev['counter']} ({ev['chosen_by']}){_r(ev)}"]


def _air_duel(rs, ev):
    return [f"air {ev.get('air')}: {ev['counter']} ({ev['nation']}) and {ev['foe']} ({ev['foe_nation']}) over "
            f"{_zone_name(rs, ev['zone'])} remove each other, one for one{_r(ev)}"]


def _air_returned(rs, ev):
    return [f"{ev['counter']} ({ev['nation']}) flew its mission over {_zone_name(rs, ev['zone'])}: removed to the pool "
            f"before its side's next air phase{_r(ev)}"]


def _bombing(rs, ev):
    return [f"air {ev.get('air')}: {ev['counter']} ({ev['nation']}) bombs Germany from {_zone_name(rs, ev['from'])}: "
            f"the Axis loses {ev['supply']} supply at its next replacement phase ({ev['total']} this turn); {ev['why']}{_r(ev)}"]


def _air_void(rs, ev):
    return [f"air {ev.get('air')}: {ev['counter']} does not fly: {ev['reason']}{_r(ev)}"]


def _bob(rs, ev):
    return [f"Battle of Britain round {ev['round']}: die {ev['roll']['value']}: the Axis loses "
            f"{', '.join(ev['axis_lost']) or 'nothing'}, the Allies {', '.join(ev['allies_lost']) or 'nothing'}"
            + (f" (chosen by: Axis {ev['chosen_by']['axis']}; Allies {ev['chosen_by']['allies']})" if ev.get("chosen_by") else "")
            + _r(ev)]


def _bob_end(rs, ev):
    return [f"Battle of Britain after {ev['rounds']} round(s): {'won' if ev['won'] else 'not won'}: {ev['why']}{_r(ev)}"]


def _air_rebase_ordered(rs, ev):
    return ["strategic air movement (at the end of the turn): " + ", ".join(f"{m['counter']} to {_zone_name(rs, m['to'])}"
                                                                          for m in ev["moves"]) + _r(ev)]


def _air_rebase(rs, ev):
    return [f"{ev['counter']} ({ev['nation']}) moves strategically from {_zone_name(rs, ev['from'])} to "
            f"{_zone_name(rs, ev['zone'])}{_r(ev)}"]


def _air_arrow(ev):
    z, f = ev.get("zone"), ev.get("from")
    return ([f, z], "air", "air") if z and f and z != f and z != "strategic-bombing" else None


def _interception_marks(rs, ev):
    z = _zone_of(ev)
    return [("intercepted", z, str(ev.get("counter") or ""))] if z in getattr(rs, "zones", {}) or z in getattr(rs, "seas", {}) else []


# ------------------------------------------------------------------------------ sea transport (14)
def _sea_transport(rs, ev):
    a, b = (ev.get("path") or ["?", "?"])[:2]
    if ev.get("kind") == "back":
        return [f"{ev['counter']} shipped back from the beachhead at {_zone_name(rs, a)} to {_zone_name(rs, b)}{_r(ev)}"]
    seas = ev.get("seas")
    return [f"{ev['counter']} shipped {_zone_name(rs, a)} - {_zone_name(rs, b)}"
            + (f" ({seas} sea zone{'s' if seas != 1 else ''})" if seas else "") + f": no further move this turn{_r(ev)}"]


def _landing(rs, ev):
    a, b = (ev.get("path") or ["?", "?"])[:2]
    return [f"{ev['counter']} lands from {_zone_name(rs, a)} on the beachhead at {_zone_name(rs, b)} ({ev.get('sea')}): "
            f"activated for attack{_r(ev)}"]


def _beachhead_kept(rs, ev):
    return [f"{ev['counter']} stays on the beachhead at {_zone_name(rs, ev['zone'])}: a beachhead serves it again{_r(ev)}"]


def _beachhead_lost(rs, ev):
    return [f"{ev['counter']} on the beachhead at {_zone_name(rs, ev['zone'])} is lost: {ev.get('why', '')}{_r(ev)}"]


def _lend_lease(rs, ev):
    return [f"lend-lease by the {rs.seas[ev['route']].name if ev.get('route') in getattr(rs, 'seas', {}) else ev.get('route')}: "
            f"{ev.get('supply', 0)} supply and {ev.get('air', 0)} air of the Allied card go to the USSR as Soviet replacements "
            f"({ev.get('fleets', 0)} fleet units){_r(ev)}"]


def _ashore(rs, ev):
    return [f"{', '.join(ev.get('counters') or [])} on the beachhead at {_zone_name(rs, ev['zone'])}: no defender, "
            f"ashore (clarification 9){_r(ev)}"]


def _ship_arrow(ev: dict):
    kind = "landing" if ev.get("type") == "landing" else "sea-transport"
    return list(ev.get("path") or []), f"move {kind}", kind


E = EventType
#: event type -> its wording and map marks: every event type BlitzWAR's rules write
EVENTS: dict[str, EventType] = {
    # the sequence of play (8), the set-up (19), the end (18)
    "phase": E(_phase),
    "turn": E(_turn),
    "passes": E(_passes),
    "game-over": E(_game_over),
    "setup": E(_setup, marks=_setup_marks),
    # movement and supply (7, 15)
    "no-blitz": E(_no_blitz),
    "supply": E(_supply),
    "move": E(_move, arrow=_move_arrow),
    "activate": E(_activate, marks=_mark("activate")),
    "reorganise": E(_reorganise, marks=_mark("reorganise")),
    "removed-by-owner": E(_removed_by_owner, marks=_mark("taken-off")),
    "entrench": E(_entrench, marks=_mark("entrench")),
    "revert": E(_revert, marks=_mark("revert")),
    "pushed-out": E(_pushed_out, arrow=lambda ev: ([ev.get("zone"), ev.get("to")], "pushed-out", "pushed-out")),
    "removed": E(_removed, marks=_mark("eliminated")),
    "out-of-supply": E(_out_of_supply, marks=_mark("out-of-supply")),
    "in-supply": E(_in_supply, marks=_mark("in-supply")),
    "german-in-finland": E(_german_in_finland),
    "control": E(_control, changed=_control_changed),
    "destroyed": E(_destroyed, marks=_mark("eliminated")),
    # land combat (16, 17)
    "fight-on": E(_fight_on),
    "no-blitz-phase": E(_no_blitz_phase),
    "combat": E(_combat),
    "german-defence": E(_german_defence),
    "losses": E(_losses, marks=_losses_marks),
    "air-loss": E(_air_loss, marks=_mark("eliminated")),
    "retreat": E(_retreat, arrow=lambda ev: ([ev.get("zone"), ev.get("to")], "retreat", "retreat")),
    "retreat-refused": E(_retreat_refused, marks=_mark("held")),
    "retreat-eliminated": E(_retreat_eliminated, marks=_retreat_eliminated_marks),
    "advance": E(_advance, arrow=_advance_arrow),
    "fortress-line-destroyed": E(_fortress_line_destroyed, marks=_mark("fortress-line")),
    "one-zone-move": E(_one_zone_move, arrow=lambda ev: ([ev.get("from"), ev.get("to")], "move one-zone", "one-zone")),
    # replacement cards (10), replacements and supply losses (11)
    "modernised": E(_modernised),
    "special-soviet": E(_special_soviet),
    "later": E(_later),
    "card-deck": E(_card_deck),
    "card-picked": E(_card_picked),
    "card-revealed": E(_card_revealed),
    "card-not-opened": E(_card_text),
    "card-void": E(_card_text),
    "supply-loss": E(_supply_loss),
    "supply-received": E(_supply_received),
    "replacements": E(_replacements, marks=_replacements_marks),
    "replacements-not-held": E(_replacements_not_held, marks=_mark("not-held")),
    "replacements-lost": E(_replacements_lost),
    "minor-replacements": E(_minor_replacements, marks=_replacements_marks),
    # the air phase (13)
    "air-mission": E(_air_mission, arrow=_air_arrow),
    "air-beachhead": E(_air_beachhead),
    "interception": E(_interception, marks=_interception_marks),
    "no-interception": E(_no_interception),
    "air-duel": E(_air_duel, marks=_mark("eliminated")),
    "air-returned": E(_air_returned),
    "bombing": E(_bombing),
    "air-void": E(_air_void),
    "air-rebase-ordered": E(_air_rebase_ordered),
    "air-rebase": E(_air_rebase, arrow=lambda ev: ([ev.get("from"), ev.get("zone")], "air", "air")),
    "battle-of-britain": E(_bob),
    "battle-of-britain-end": E(_bob_end),
    # diplomacy (9)
    "activated": E(_activated, marks=_at_capital("joined")),
    "surrender": E(_surrender, marks=_at_capital("surrender"), changed=_surrender_changed),
    "reactivated": E(_reactivated, marks=_at_capital("joined")),
    "surrender-deferred": E(_surrender_deferred),
    "vichy": E(_vichy),                         # issue 21 (9.4)
    "vichy-surrender": E(_vichy_surrender),     # issue 21 (9.4)
    "partisans": E(_partisans),                 # issue 21 (9.5)
    "elite": E(_elite),                         # issue 21 (11.7)
    "karelia": E(_karelia),                     # issue 21 (clar. 5)
    "diplomacy-roll": E(_diplomacy_roll),
    "supply-lost": E(_supply_lost),
    "diplomacy": E(_diplomacy),
    "us-entry-earlier": E(_us_entry_earlier),
    **NAVAL_EVENTS,         # the naval phase (12)
    # sea transport (14)
    "sea-transport": E(_sea_transport, arrow=_ship_arrow),
    "landing": E(_landing, arrow=_ship_arrow, marks=lambda rs, ev: [("landing", ev["path"][-1], str(ev.get("counter")))]),
    "beachhead-kept": E(_beachhead_kept, marks=lambda rs, ev: [("landing", ev["zone"], str(ev.get("counter")))]),
    "lend-lease": E(_lend_lease),
    "ashore": E(_ashore),
    "beachhead-lost": E(_beachhead_lost, marks=lambda rs, ev: [("eliminated", ev["zone"], str(ev.get("counter")))]),
}
del E


def describe(rs, ev: dict) -> Lines:
    """The report's lines for one event (the first line the headline); an event type without
    wording is listed with its fields."""
    e = EVENTS.get(ev.get("type", ""))
    return e.text(rs, ev) if e is not None else _generic(rs, ev)


def marks_of(rs, ev: dict) -> Marks:
    """(mark key, zone, who) of the lettered marks an event makes on the map."""
    e = EVENTS.get(ev.get("type", ""))
    return e.marks(rs, ev) if e is not None and e.marks is not None else []


def arrow_of(ev: dict) -> tuple[list, str, str] | None:
    """(places along the path, arrow class, stepmarks.ARROWS style) of an event drawn as an arrow."""
    e = EVENTS.get(ev.get("type", ""))
    return e.arrow(ev) if e is not None and e.arrow is not None else None


def changed_of(rs, ev: dict) -> dict[str, str]:
    """The zones an event gives to a new controller: zone -> side."""
    e = EVENTS.get(ev.get("type", ""))
    return e.changed(rs, ev) if e is not None and e.changed is not None else {}
