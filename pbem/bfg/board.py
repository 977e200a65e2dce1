"""The working position: units, where they are, who they belong to (DG2 2.5, 7.1).

A :class:`Board` wraps a *copy* of a state dict and keeps an occupancy index. Locations
(``units[id]["at"]``) are a hex id, ``courland`` (8.0), ``box:<box>`` (a destroyed-unit box,
7.0), ``dead`` (destroyed and never replaceable: Yugoslav and Hungarian units, 7.12),
``exited`` (left the map, 9.0) or ``removed`` (taken off for good: 9.1, 12.2.2).
"""
from __future__ import annotations

from collections.abc import Collection

from .play import DEFAULT_CONTROL
from .ruleset import Ruleset, UnitDef

#: The side each force fights for that is not Western Allied (:func:`camp`, the one table: the
#: loops that ask it of every unit next to a hex read it as ``CAMP_OF.get(force, "western")``)
CAMP_OF = {"east-german": "german", "west-german": "german", "soviet": "soviet"}


def camp(force: str) -> str:
    """The side a force fights for: 'german', 'soviet' or 'western'."""
    return CAMP_OF.get(force, "western")


def city_side_of(unit: dict) -> str:
    """The side a unit (its entry in ``units``) takes cities for (11.0): its camp, but 'german'
    for an SS unit under the Western Allied player (13.2 keeps calling them German units:
    rulings ``ss_cities``)."""
    return "german" if unit.get("ss_half") else CAMP_OF.get(unit["force"], "western")


_CAMPS = ("german", "soviet", "western")
_ALLIES = ("soviet", "western")
_GERMAN = ("german",)


def is_hex(loc: str) -> bool:
    return len(loc) == 4 and loc.isdigit()


class Board:
    #: hex -> the ids of the units in it, sorted (hexes holding none left out)
    occ: dict[str, list[str]]

    def __init__(self, rs: Ruleset, state: dict, *, index: bool = True):
        """``index=False``: a Board for questions about the units themselves (force, place,
        command: the static check of the unit ids an order file names), without the occupancy
        index (:attr:`occ`: an AttributeError) that every question about a hex reads."""
        self.rs = rs
        self.state = state
        self.units: dict[str, dict] = state["units"]
        # ZOC (4.1) per key of :meth:`_zoc` (a camp, or ``city:`` and a side): hex -> how many
        # hexes next to it hold a unit that counts; worked out at the first question, then kept
        # current by :meth:`place` and :meth:`set_force` (empty: not worked out yet)
        self._zoc_cache: dict[str, dict[str, int]] = {}
        self._zoc_asked = 0     # questions answered from the units next to a hex (:meth:`_in_zoc`)
        # the ruleset's :meth:`Ruleset.zoc_sources` as worked out so far (hexes of the grid only)
        self._sources: dict[str, tuple[str, ...]] = rs.zoc_sources_kept
        if not index:
            return
        occ: dict[str, list[str]] = {}
        for uid, u in self.units.items():
            at = u["at"]
            if len(at) == 4 and at.isdigit():       # is_hex, inlined: a Board is made for every phase
                lst = occ.get(at)
                if lst is None:
                    occ[at] = [uid]
                else:
                    lst.append(uid)
        for lst in occ.values():
            if len(lst) > 1:
                lst.sort()
        self.occ = occ

    # ----------------------------------------------------------------- unit facts
    def d(self, uid: str) -> UnitDef:
        return self.rs.units[uid]

    def at(self, uid: str) -> str:
        return self.units[uid]["at"]

    def force(self, uid: str) -> str:
        return self.units[uid]["force"]

    def camp(self, uid: str) -> str:
        return camp(self.force(uid))

    def city_side(self, uid: str) -> str:
        """:func:`city_side_of` the unit ``uid``."""
        return city_side_of(self.units[uid])

    def on_map(self, uid: str) -> bool:
        return is_hex(self.at(uid))

    def controller(self, uid: str) -> str:
        return self.controller_of_force(self.force(uid))

    def controller_of_force(self, force: str) -> str:
        """The player who commands ``force`` (2.5; the scenario's ``play.control``: 16.0, 17.0)."""
        return self.rs.play.control.get(force) or DEFAULT_CONTROL[force]

    def hostile_allies(self) -> bool:
        """Soviets and Western Allies are enemies: from the start (15.24) or once Berlin has
        fallen in the Expanded Historical scenario (13.1)."""
        return bool(self.rs.play.rule("allies_hostile") or self.state.get("flags", {}).get("allies_hostile", False))

    def enemy_camps(self, my_camp: str) -> tuple[str, ...]:
        """The camps whose units are enemies of ``my_camp``'s (:meth:`camps_enemies`), in the
        order german, soviet, western."""
        if my_camp == "german":
            return _ALLIES
        if my_camp in _ALLIES:
            return (("german", "western") if my_camp == "soviet" else ("german", "soviet")) if self.hostile_allies() else _GERMAN
        return tuple(c for c in _CAMPS if self.camps_enemies(my_camp, c))

    def camps_enemies(self, a: str, b: str) -> bool:
        if a == b:
            return False
        if "german" in (a, b):
            return True
        return self.hostile_allies()

    def enemies(self, u1: str, u2: str) -> bool:
        return self.camps_enemies(self.camp(u1), self.camp(u2))

    # ----------------------------------------------------------------- positions
    def units_in(self, h: str) -> list[str]:
        return self.occ.get(h, [])

    def on_map_units(self) -> list[str]:
        # (the occupancy index holds exactly the units on a hex)
        return sorted([uid for lst in self.occ.values() for uid in lst])

    def place(self, uid: str, loc: str) -> None:
        old = self.units[uid]["at"]
        held = self._zoc_held([h for h in dict.fromkeys((old, loc)) if is_hex(h)]) if self._zoc_cache else {}
        if is_hex(old):
            lst = self.occ[old]
            lst.remove(uid)
            if not lst:
                del self.occ[old]
        self.units[uid]["at"] = loc
        if is_hex(loc):
            lst = self.occ.setdefault(loc, [])
            lst.append(uid)
            lst.sort()
        self._zoc_update(held)

    def set_force(self, uid: str, force: str, **flags) -> None:
        """A unit changes side (5.41, 7.2, 13.2, 16.32): its ``force`` (and ``flags`` such as
        ``ss_half``) change, and with them the ZOC it counts for."""
        held = self._zoc_held([self.at(uid)] if self.on_map(uid) else [])
        self.units[uid]["force"] = force
        self.units[uid].update(flags)
        self._zoc_update(held)

    def _zoc_keys(self, h: str) -> set[str]:
        """The ZOC keys the units in ``h`` count for: their camps and city sides (:meth:`city_side`)."""
        units, keys = self.units, set()
        for u in self.occ.get(h, ()):
            c = camp(units[u]["force"])
            keys.add(c)
            keys.add("city:german" if units[u].get("ss_half") else "city:" + c)
        return keys

    def _zoc_held(self, hexes: list[str]) -> dict[str, set[str]]:
        """The ZOC keys each hex counts for now, when the ZOC is kept."""
        return {h: self._zoc_keys(h) for h in hexes} if self._zoc_cache else {}

    def _zoc_update(self, held: dict[str, set[str]]) -> None:
        """Keep the ZOC current after a change at the hexes of ``held`` (their keys before)."""
        for h, was in held.items():
            now = self._zoc_keys(h)
            for k in now - was:
                self._zoc_shift(self._zoc_cache[k], h, 1)
            for k in was - now:
                self._zoc_shift(self._zoc_cache[k], h, -1)

    def _zoc_shift(self, zoc: dict[str, int], h: str, by: int) -> None:
        for n in self.rs.zoc_neighbours(h):
            k = zoc.get(n, 0) + by
            if k:
                zoc[n] = k
            else:
                del zoc[n]

    def hex_camp(self, h: str) -> str | None:
        us = self.units_in(h)
        return self.camp(us[0]) if us else None

    def enemy_in_hex(self, h: str, my_camp: str) -> bool:
        return any(self.camps_enemies(my_camp, self.camp(o)) for o in self.units_in(h))

    def other_side_in_hex(self, h: str, my_camp: str) -> bool:
        """Units of another side that are not enemies (Soviets and Western Allies while they may
        not attack each other, 6.3, 12.2.2): they never share a hex either (rulings
        ``sides_share_no_hex``)."""
        return any(self.camp(o) != my_camp for o in self.units_in(h))

    # ----------------------------------------------------------------- ZOC (4.0-4.4)
    def zoc_of_camp(self, c: str) -> Collection[str]:
        """Hexes in the ZOC of units of camp ``c`` (4.1: always, whatever else is there)."""
        return self._zoc(c)

    def city_zoc(self, side: str) -> Collection[str]:
        """Hexes in the ZOC of the units that take cities for ``side`` (:meth:`city_side`, 11.0)."""
        return self._zoc("city:" + side)

    def _zoc(self, key: str) -> Collection[str]:
        """Hexes next to a hex holding a unit that counts for ``key`` (a camp, or ``city:`` and
        a side), not across a prohibited hexside: worked out for every key at the first
        question, in one pass over the units, then kept current as units move (:meth:`place`)
        or change side (:meth:`set_force`). Read it at once: it changes."""
        if not self._zoc_cache:
            self._zoc_cache.update({k: {} for side in ("german", "soviet", "western") for k in (side, "city:" + side)})
            for h in self.occ:
                for k in self._zoc_keys(h):
                    self._zoc_shift(self._zoc_cache[k], h, 1)
        return self._zoc_cache.get(key, ())

    #: questions answered from the units next to the hex before the whole ZOC is worked out
    _ZOC_LOCAL = 400

    def _in_zoc(self, key: str, h: str) -> bool:
        """``h in self._zoc(key)`` for a camp ``key``: from the ZOC kept once worked out; before that, from the
        units next to ``h`` (a phase that asks a few questions, e.g. city control, does not pay
        for the whole map's ZOC), until it has asked :attr:`_ZOC_LOCAL` of them."""
        if self._zoc_cache or self._zoc_asked >= self._ZOC_LOCAL or h not in self.rs.grid:
            return h in self._zoc(key)
        self._zoc_asked += 1
        units = self.units
        for x in self.rs.zoc_sources(h):
            for u in self.occ.get(x, ()):
                if camp(units[u]["force"]) == key:
                    return True
        return False

    def city_zoc_sides(self, h: str) -> set[str]:
        """The sides ``s`` with ``h`` in :meth:`city_zoc` (``s``), in one look at the units next
        to ``h`` (or at the ZOC kept)."""
        src = self._local_sources(h)
        if src is None:
            return {s for s in ("german", "soviet", "western") if h in self._zoc("city:" + s)}
        units, occ, sides, camp_of = self.units, self.occ, set(), CAMP_OF
        for x in src:
            us = occ.get(x)
            if us:
                for u in us:
                    sides.add("german" if units[u].get("ss_half") else camp_of.get(units[u]["force"], "western"))
        return sides

    def _local_sources(self, h: str) -> tuple[str, ...] | None:
        """The hexes to look at to answer a ZOC question about ``h`` from the units next to it
        (counted in :attr:`_zoc_asked`), or None when the ZOC kept answers it (:meth:`_in_zoc`)."""
        if self._zoc_cache or self._zoc_asked >= self._ZOC_LOCAL:
            return None
        src = self._sources.get(h)
        if src is None:
            if h not in self.rs.grid:
                return None
            src = self.rs.zoc_sources(h)
        self._zoc_asked += 1
        return src

    def in_enemy_zoc(self, h: str, my_camp: str) -> bool:
        return self.in_zoc_of(h, self.enemy_camps(my_camp))

    def in_zoc_of(self, h: str, camps: tuple[str, ...]) -> bool:
        """Whether ``h`` is in the ZOC of a unit of one of ``camps`` (:meth:`in_enemy_zoc` with
        the enemy camps worked out once by a caller that asks of many hexes)."""
        # (:meth:`_in_zoc` of every camp, in one look; :meth:`_local_sources` written out: asked
        # of every hex next to a retreating unit)
        if self._zoc_cache or self._zoc_asked >= self._ZOC_LOCAL:
            return any(h in self._zoc(c) for c in camps)
        src = self._sources.get(h)
        if src is None:
            if h not in self.rs.grid:
                return any(h in self._zoc(c) for c in camps)
            src = self.rs.zoc_sources(h)
        self._zoc_asked += 1
        units, occ, camp_of = self.units, self.occ, CAMP_OF
        for x in src:
            us = occ.get(x)
            if us:
                for u in us:
                    if camp_of.get(units[u]["force"], "western") in camps:
                        return True
        return False

    def enemy_zoc_camps(self, h: str, my_camp: str) -> list[str]:
        return [c for c in self.enemy_camps(my_camp) if self._in_zoc(c, h)]

    # ----------------------------------------------------------------- boxes (7.1)
    def box_for(self, uid: str, where: str) -> str:
        """Destroyed-unit box of a unit destroyed at hex ``where`` (7.11-7.13)."""
        f = self.force(uid)
        if f == "western-allied":
            return "allied-italy" if where in self.rs.italy else "western-allied"
        if f in ("east-german", "west-german"):
            # 14.0 keeps a German unit forced west of the boundary East German: it goes to its
            # own box (the West German one is out of play there).
            if is_hex(where) and self.rs.play.rule("german_retreat_across") != "return-next-turn":
                th = self.rs.theater(where)
                if th == "east":
                    return "east-german"
                if th == "west":
                    return "west-german"
            return f
        return "soviet"

    def box_units(self, box: str) -> list[str]:
        key = f"box:{box}"
        return sorted(uid for uid, u in self.units.items() if u["at"] == key)


#: the Board :func:`board_for` made last (at most one)
_LEFT: list[Board] = []


def board_for(rs: Ruleset, state: dict) -> Board:
    """The Board to carry a phase out on ``state``, to end it (the player-turn's end, city
    control: :func:`pbem.bfg.engine.finish_phase`) or to read what it left (the victory points
    after it, the validating run's warnings): the one this function made last when that was made
    for this very state (same rules, same units), else a new one. The kernel carries each phase
    after a step's first out in place, on the state the phase before left (issue 35): its board
    is the one that phase used, whose occupancy index and ZOC :meth:`Board.place` and
    :meth:`Board.set_force` kept current, so it is not worked out again. This holds because a
    unit's place and side change only through a Board, and on a phase's state only through the
    one this function gives (a step's first phase runs on a copy of the caller's state: a state
    made anew is never one seen before)."""
    if _LEFT:
        b = _LEFT[0]
        if b.state is state and b.rs is rs and b.units is state["units"]:
            return b
    b = Board(rs, state)
    _LEFT[:] = [b]
    return b
