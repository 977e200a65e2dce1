"""BlitzWAR land combat (16, 17), what every part of it reads: the attack and move entries of the
orders, the position (sides, corps, the turn's combat record, fortress lines, rivers, air
superiority), the decision ids and the issues. pbem/blitzwar/combat.py documents the whole.
"""
from __future__ import annotations

from itertools import chain
from typing import Any

from ..core.canon import copy_json
from ..core.errors import Issue
from .context import (  # noqa: F401
    LAND,
    Ctx,
    axis_points as _axis_points,
    corps,
    enemies,
    has_surrendered,
    marks_reached,
    n_corps,
    placed,
)
from .land import counter_guess_of, side_of

# side_of, enemies, corps (infantry, armour) and n_corps are the rules' one definition
# (pbem/blitzwar/context.py, land.py), read here by every part of combat.

# ============================================================================ orders
def normalize_combat(entry: dict, idx: int) -> dict:
    """The phase entry of a blitz or combat phase with ``_path`` on every attack and move."""
    base = ("phases", idx)
    out = {k: v for k, v in entry.items() if k not in ("attacks", "moves")}
    out["_path"] = base
    out["attacks"] = []
    for i, a in enumerate(entry.get("attacks") or []):
        a = dict(a)
        cs = a.get("counters", a.get("units", []))
        a["counters"] = [cs] if isinstance(cs, str) else list(cs or [])
        a["_path"] = base + ("attacks", i)
        out["attacks"].append(a)
    out["moves"] = [dict(m, _path=base + ("moves", i)) for i, m in enumerate(entry.get("moves") or [])]
    return out


def _attacks(orders: dict) -> list[dict]:
    out = []
    for i, a in enumerate((orders or {}).get("attacks") or []):
        a = dict(a)
        cs = a.get("counters", a.get("units", []))
        a["counters"] = [cs] if isinstance(cs, str) else list(cs or [])
        a.setdefault("_path", tuple((orders or {}).get("_path", ())) + ("attacks", i))
        out.append(a)
    return out


def _moves(orders: dict) -> list[dict]:
    out = []
    for i, m in enumerate((orders or {}).get("moves") or []):
        m = dict(m)
        m.setdefault("_path", tuple((orders or {}).get("_path", ())) + ("moves", i))
        out.append(m)
    return out


# ============================================================================ the position
def kind_of(ctx: Ctx) -> str:
    return "blitz" if ".8." in ctx.phase or ctx.phase.endswith("blitz") else "combat"


def is_land(c: dict) -> bool:
    return c["type"] in LAND


def land_in(ctx: Ctx, zone: str, side: str | None = None) -> list[str]:
    return [c for c in ctx.in_zone(zone) if is_land(ctx.counters[c]) and (side is None or side_of(ctx, c) == side)]


def enemy_land_in(ctx: Ctx, zone: str, side: str) -> list[str]:
    return [c for c in ctx.in_zone(zone) if is_land(ctx.counters[c]) and enemies(side, side_of(ctx, c))]


def position_of(ctx: Ctx, cid: str) -> str:
    """The land zone a counter attacks from: its zone, or the zone its beachhead serves."""
    c = ctx.counters[cid]
    return c["at"]


def from_beachhead(ctx: Ctx, cid: str) -> bool:
    c = ctx.counters[cid]
    return bool(c.get("beachhead")) and c["at"] not in ctx.rs.zones


def adjacent_to(ctx: Ctx, cid: str, zone: str) -> bool:
    c = ctx.counters[cid]
    if from_beachhead(ctx, cid):
        return c["beachhead"] == zone
    z = ctx.rs.zones.get(c["at"])
    return bool(z and zone in z.links)


def combat_record(ctx: Ctx) -> dict:
    """The combat record of this turn (reset when the turn changes)."""
    rec = ctx.state.get("combat")
    if not isinstance(rec, dict) or rec.get("turn") != ctx.turn:
        rec = {"turn": ctx.turn, "attacks": [], "advanced": {}, "fought": {}, "moved": []}
        ctx.state["combat"] = rec
    return rec


# ============================================================================ the position after a die
# What the rest of an attack after its die (16.2-16.4, 17.2-17.3: the losses, the air unit of a
# blitz, the retreat, the advances and where armour goes on) writes into the state: the counters
# (losses, moves, what an entered zone's enemy supply and air lose, 15.3), ``control`` (5, an
# entered zone), ``flags`` (a fortress line destroyed, 16.3.2) and the turn's combat record
# (:func:`combat_record`). Nothing else of the state: it only reads the rest (the sides, the
# war, the marks, the cards, ...). Held to the full copy over every attack of the replays by
# tests/blitzwar/test_after_die.py.
AFTER_DIE = ("counters", "control", "flags", "combat")
_ATOMS = frozenset((str, int, bool, type(None), float))     # (pbem.core.canon.copy_json's)


def _not_flat(cs: Any) -> list[str] | None:
    """The ids of the counters that are not flat (values other than strings, numbers and
    booleans; none in a state the schema takes); None when ``cs`` is not a mapping of mappings."""
    if type(cs) is not dict:
        return None
    if set(map(type, cs.values())) <= {dict} and _ATOMS.issuperset(map(type, chain.from_iterable(map(dict.values, cs.values())))):
        return []
    return [cid for cid, c in cs.items() if type(c) is not dict or not _ATOMS.issuperset(map(type, c.values()))]


class AfterDie:
    """The position after an attack's die, kept in case a decision comes (issue 33: the rest
    of the attack is carried out again from it, :func:`pbem.blitzwar.combat_losses.ask_together`):
    copies of the parts of :data:`AFTER_DIE`, the other values of the state kept as they are
    (nothing after the die changes them), in the state's order. ``counters``: the only counters
    the rest may change (:func:`attack_reach`), the others kept as they are; without, every
    counter. A counter is flat (the schema's counter: strings, numbers, booleans), copied by
    ``dict.copy``; one that is not, whole (issue 35: a copy of the whole state for each run
    was a fifth of the example's step 88)."""
    __slots__ = ("others", "parts", "deep", "items")

    def __init__(self, state: dict, counters: set[str] | None = None) -> None:
        self.others = dict(state)       # (its keys in order; its values read where ``parts`` has none)
        cs = state.get("counters")
        self.items: dict[str, Any] | None = None
        if counters is not None and type(cs) is dict:
            self.items = dict(cs)
            cs = {cid: cs[cid] for cid in counters if cid in cs}      # (their order: never read)
        self.deep = _not_flat(cs)
        self.parts = {k: self._copy(k, cs if k == "counters" else state[k]) for k in AFTER_DIE if k in state}

    def _copy(self, key: str, value: Any) -> Any:
        if key != "counters" or self.deep is None:
            return copy_json(value)
        if not self.deep:
            return {cid: c.copy() for cid, c in value.items()}
        return {cid: copy_json(c) if cid in self.deep else c.copy() for cid, c in value.items()}

    def _counters(self, fresh: bool) -> Any:
        kept = self._copy("counters", self.parts["counters"]) if fresh else self.parts["counters"]
        if self.items is None:
            return kept
        return {cid: kept.get(cid, c) for cid, c in self.items.items()}

    def put_back(self, state: dict, *, fresh: bool = True) -> None:
        """The state made the position again (its values replaced, never changed): with
        ``fresh``, copies of the kept parts, as many times as asked; without, the kept parts
        themselves (the last time)."""
        parts, others = self.parts, self.others
        new = {k: others[k] if k not in parts else self._counters(fresh) if k == "counters" else
               self._copy(k, parts[k]) if fresh else parts[k] for k in others}
        state.clear()
        state.update(new)


def attack_reach(ctx: Ctx, zone: str, attackers: list[str]) -> set[str]:
    """The counters the rest of an attack on ``zone`` may change after its die: the attackers
    (losses 16.2, advances 16.4, 17.3), the counters in the zone (the defenders' losses and
    retreat 17.2, the air unit lost 16.1 step 5, the air retreating with the defenders, the
    enemy supply and air an advance destroys 15.3) and in the zones next to it (armour goes on
    one zone further, 16.4, 17.3: two zones at most with the zone attacked, and destroys them
    there). A retreat changes no counter where it goes. Held to the full copy by
    tests/blitzwar/test_after_die.py."""
    by = placed(ctx.counters)
    return {cid for z in {zone, *ctx.rs.zones[zone].links} for cid in by.get(z, ())}.union(attackers)


def peek_record(ctx: Ctx) -> dict:
    """The combat record of this turn without writing it into the state (for checking)."""
    rec = ctx.state.get("combat")
    if not isinstance(rec, dict) or rec.get("turn") != ctx.turn:
        return {"turn": ctx.turn, "attacks": [], "advanced": {}, "fought": {}, "moved": []}
    return rec


def flags(ctx: Ctx) -> dict:
    return ctx.state.setdefault("flags", {})


def marks(ctx: Ctx) -> frozenset:
    return marks_reached(ctx.rs, ctx.state, ctx.turn)


def line_intact(ctx: Ctx, zone: str) -> bool:
    destroyed = (ctx.state.get("flags") or {}).get("fortress_lines_destroyed") or []
    return bool(ctx.rs.zones[zone].fortress_line) and zone not in destroyed


def across_line(ctx: Ctx, cid: str, zone: str) -> bool:
    z = ctx.rs.zones[zone]
    return line_intact(ctx, zone) and not from_beachhead(ctx, cid) and ctx.counters[cid]["at"] in z.fortress_line


def across_river(ctx: Ctx, cid: str, zone: str) -> bool:
    at = ctx.counters[cid]["at"]
    if from_beachhead(ctx, cid) or at not in ctx.rs.zones:
        return False
    return at in ctx.rs.zones[zone].rivers or zone in ctx.rs.zones[at].rivers


def air_superiority(ctx: Ctx, zone: str) -> str | None:
    """The side holding air superiority over a land zone (13.4.2): the only side with flying air
    units there. None in snow (6: 空軍は、陸上ゾーンに対し制空権を獲得できない)."""
    if ctx.rs.weather(ctx.turn, zone) == "snow":
        return None
    sides = {side_of(ctx, c) for c in ctx.in_zone(zone)
             if ctx.counters[c]["type"] == "air" and ctx.counters[c].get("flying")}
    return next(iter(sides)) if len(sides) == 1 else None


def air_superiority_map(ctx: Ctx) -> dict[str, str]:
    """:func:`air_superiority` of every land zone at once (zone -> side, the zones where some
    side holds it), from one pass over the counters: for a caller that asks of every zone."""
    sides: dict[str, set[str]] = {}
    for cid, c in ctx.counters.items():
        if c["type"] == "air" and c.get("flying"):
            sides.setdefault(c["at"], set()).add(side_of(ctx, cid))
    return {z: next(iter(s)) for z, s in sides.items()
            if len(s) == 1 and z in ctx.rs.zones and ctx.rs.weather(ctx.turn, z) != "snow"}


def air_units(ctx: Ctx, zone: str, side: str) -> list[str]:
    return [c for c in ctx.in_zone(zone) if ctx.counters[c]["type"] == "air" and ctx.counters[c].get("flying")
            and side_of(ctx, c) == side]


def axis_points(ctx: Ctx) -> int:
    """The Axis strategic points: the one definition, pbem.blitzwar.context.axis_points."""
    return _axis_points(ctx.rs, ctx.state)


def surrendered(ctx: Ctx, code: str) -> bool:
    """9.2, ruling combat-r1-german-windows: pbem.blitzwar.context.has_surrendered."""
    return has_surrendered(ctx.rs, ctx.state, ctx.turn, code)


def turn_marks(ctx: Ctx) -> tuple:
    t = ctx.rs.turns.get(ctx.turn)
    return t.marks if t else ()


def stacking_ok(ctx: Ctx, zone: str, adding: list[str]) -> bool:
    z = ctx.rs.zones[zone]
    if z.stacking == "unlimited":
        return True
    present = [c for c in land_in(ctx, zone) if c not in adding] + list(adding)
    if z.corps_limit is not None:
        return sum(n_corps(ctx.counters[c]) for c in present) <= z.corps_limit
    return len(present) <= ctx.rs.stacking_default


# ============================================================================ checking
def _issue(code: str, msg: str, atk: dict | None, rule: str, hint: str | None = None, path=None) -> Issue:
    p = tuple(path if path is not None else (atk or {}).get("_path", ()))
    text = None
    if atk is not None and "target" in atk:
        text = f"{{target: {atk.get('target')}, counters: [{', '.join(map(str, atk.get('counters', [])))}]}}"
    return Issue(code, msg, path=p, text=text, rule=rule, hint=hint)


def _counter_guess(ctx: Ctx, cid) -> str:
    """A did-you-mean for a counter id that does not exist, among the acting side's first."""
    return counter_guess_of(ctx, cid)


def blitz_barred(ctx: Ctx) -> str | None:
    """Why the acting side has no blitz phase at all this turn (6, 16.1), or None."""
    t = ctx.rs.turns.get(ctx.turn)
    if t and t.weather == "mud":
        return "mud: no blitz phase this turn (6)"
    return None


def snow_barred(ctx: Ctx, side: str, zone: str) -> bool:
    if ctx.rs.weather(ctx.turn, zone) != "snow":
        return False
    need = "soviet-blitz" if side == "ussr" else "allied-german-blitz"
    return need not in marks(ctx)


def _did(ctx: Ctx, n: int) -> str:
    return f"t{ctx.turn:02d}.{ctx.phase}.c{n}"
