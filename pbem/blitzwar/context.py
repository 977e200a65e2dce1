"""What every BlitzWAR rule module works on: the position inside a state, and the context of one
phase (the world, the dice, the answers, the events).

The BlitzWAR position (the state keys besides the core's envelope; schema blitzwar-state):

``sides``     side -> the player who runs it (three players: each side its own; two players:
              the allies player runs allies and ussr, still as two sides with their own phases, 2)
``counters``  counter id -> ``{nation, type, units, at, ...}``: ``type`` infantry | armour |
              white-tank | air | fleet | uboat | supply; ``units`` the corps / units it holds (a
              white tank also ``infantry`` and ``armour``); ``at`` a land zone id, a sea zone id,
              ``pool`` (removed, can come back as a replacement) or ``out`` (not in the game yet);
              ``kind`` the index of its kind in the nation's mix (rules/blitzwar/counters.yaml);
              a supply counter partly used also ``spent`` (decimal string, 7);
              optional flags ``entrenched``, ``elite``, ``flying``, ``out_of_supply``,
              ``strategic`` (moved strategically this turn: no tactical move, no attack, 15.2),
              ``moved`` (zones moved tactically this turn), ``active`` (activated for attack,
              15.3: infantry that moved 1 zone, armour 1-3, or paid for), ``attacked`` (this
              phase). ``moved``, ``active``, ``strategic`` and ``attacked`` are set in the
              movement phase (pbem/blitzwar/movement.py), read by the combat phases (8, 9) and
              cleared at the end of the side's normal combat phase (phases.advance).
``control``   land zone id -> side that controls it (5); a zone not listed has its map control.
``supply``    side -> supply units held, a decimal string counted to the half unit ("12.5").
``war``       country code -> ``neutral`` | side at war (9); a surrendered country keeps its side.
``marks``     calendar and event marks reached (``us-entry``, ``elite-first``, ...), sorted.
``flags``     free game-wide switches set by events; diplomacy (9, pbem/blitzwar/diplomacy.py):
              ``surrendered`` (country codes, 9.2), ``axis_ussr_war`` (the turn the Axis first
              attacked the USSR, 9.3), ``ussr_attacked_axis`` (the turn the USSR first attacked the
              Axis: with the other, the war of 9.3 that brings Finland and Romania in),
              ``turkey_passage`` (turn), ``us_entry_earlier`` (turns), ``britain_landed`` (the
              turn of the first Axis landing in Britain, 9.3 c),
              ``first_allied_vs_italy`` (the turn of the first Allied attack on Italy, clar. 3).
``cards``     side -> {``deck``: limited | total (10.2), ``total_from``, ``queue``: [{turn, card (an id or
              "sealed"), deck}], ``played``: [{turn, card}], ``modernised`` (USSR, 11.8)}: the
              replacement cards (10.1; pbem/blitzwar/replacements.py documents them).
``setup_choices`` choice id (19: ``poland``) -> ``default`` (still open) | ``made`` | ``kept`` (the default stands).
``sea_air``   per-turn results of the naval and air phases, each key read through its owner's
              functions: ``sea_control`` sea zone -> side (12.3, recorded by seacontrol.py after each
              naval and air phase; supply lines read it), ``air_superiority``, ``air_at_sea``, ``beachheads``,
              ``flown``, ``bombing``, ``britain_landing``, ``rebase`` (pbem/blitzwar/air.py, 13); air
              counters on a mission are ``at`` the zone they fly over with ``flying`` (a bomber ``at``
              ``strategic-bombing``).

Phase ids: ``1.diplomacy``, ``2.cards``, ``3.replacements`` (every side, before phase 4: all
players at once), then per side in the order axis, allies, ussr: ``<side>.4.naval``,
``<side>.5.air``, ``<side>.6.sea-transport``, ``<side>.7.movement``, ``<side>.8.blitz``,
``<side>.9.combat`` (section 8, ゲーム手順).
"""
from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.game import NeedDecision, PhaseContext, PhaseOrdersInvalid  # noqa: F401  (for the rule modules)

if TYPE_CHECKING:
    from .world import World

SIDES = ("axis", "allies", "ussr")
LAND = ("infantry", "armour", "white-tank")


def fmt_supply(x: Fraction) -> str:
    """Supply as the state writes it: "12", "12.5" (never negative, 7)."""
    if type(x) is not Fraction:     # (a Fraction is read as it is: Fraction(x) would be its equal)
        x = as_fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.1f}"


#: a supply as the state writes it ("12", "12.5") or a count -> its Fraction (:func:`as_fraction`)
_FRACTIONS: dict[Any, Fraction] = {}
_FRACTIONS_MAX = 4096


def as_fraction(x: Any) -> Fraction:
    """``Fraction(x)`` of a supply as the state writes it ("12", "12.5", 7) or a count, kept by
    what it is made from: a Fraction never changes, and parsing its string is the costly part
    (the supply held and the supply counters are read again and again within a phase). Keys
    that are equal make equal fractions (a number's value; a string's text). Held to Fraction
    by tests/blitzwar/test_fractions_kept.py."""
    f = _FRACTIONS.get(x)
    if f is None:
        if len(_FRACTIONS) >= _FRACTIONS_MAX:
            _FRACTIONS.clear()
        f = _FRACTIONS[x] = Fraction(x)
    return f


def counters_by_place(counters: dict[str, dict]) -> dict[str, list[str]]:
    """Place (a zone, ``pool``, ``out``, ...) -> the ids of the counters ``at`` it, in the
    counters' order (sorted, they are what :meth:`Ctx.in_zone` gives), from one pass."""
    return counters_by(counters, "at")


def counters_by(counters: dict[str, dict], field: str) -> dict[str, list[str]]:
    """The value of each counter's ``field`` (its place, its type) -> the ids of the counters
    with it, in the counters' order, from one pass."""
    out: dict[str, list[str]] = {}
    for cid, v in counters.items():
        x = v[field]
        if x in out:
            out[x].append(cid)
        else:
            out[x] = [cid]
    return out


#: [counters, their ids, type -> the ids of its counters] of the counters last asked about (:func:`typed_ids`)
_TYPED_IDS: list = []


def typed_ids(counters: dict[str, dict]) -> dict[str, list[str]]:
    """Type -> the ids of the counters of that type (wherever they are), in the counters'
    order: shared, to read, never to change. A counter's type never changes (no rule writes
    it), so the lists stand while the same counters exist in the same order (their ids read in
    one pass of C code): the supply counters a line may reach, the air units whose air
    superiority makes a beachhead, the fleets and U-boats of sea control (issue 35)."""
    ids = list(counters)
    if _TYPED_IDS and _TYPED_IDS[0] is counters and _TYPED_IDS[1] == ids:
        return _TYPED_IDS[2]
    by = counters_by(counters, "type")
    _TYPED_IDS[:] = [counters, ids, by]
    return by


#: Every place of the counters mapping last asked about (:func:`placed`): [that mapping, place ->
#: the ids of its counters, sorted]. Kept as the counters move (:func:`move_counter` mends it);
#: a mapping of other counters (a copy, the counters after one was added or removed: they are
#: sorted into a new mapping) is placed anew. Held to the scan of every counter at each call of
#: :meth:`Ctx.in_zone` throughout the test suite (:data:`CHECK_PLACES`).
_PLACES: list = [None, {}]

#: How many times a counter has moved, come or gone (:func:`move_counter`, :func:`add_counter`,
#: :func:`remove_counter`)
#: since the rules were loaded: what a reading kept while nothing moves compares.
_MOVES: list[int] = [0]

#: Set by the test suite (tests/conftest.py): :meth:`Ctx.in_zone` compares the kept index with
#: the scan of every counter at each call (a place changed other than by :func:`move_counter`
#: is a bug, found there).
CHECK_PLACES = False


def placed(counters: dict[str, dict]) -> dict[str, list[str]]:
    """Place (a zone, a sea zone, ``pool``, ``out``, ...) -> the ids of the counters ``at`` it,
    sorted: shared, to read, never to change. Made in one pass the first time ``counters`` is
    asked about, then kept while they move (issue 35: a scan of every counter at each question
    was a sixth of a combat phase)."""
    if _PLACES[0] is counters:
        return _PLACES[1]
    out = counters_by_place(counters)
    for ids in out.values():
        ids.sort()
    _PLACES[:] = [counters, out]
    return out


def move_counter(counters: dict[str, dict], cid: str, to: str) -> None:
    """The counter ``cid`` of ``counters`` now ``at`` ``to``: the one way a rule moves a counter
    (to a zone, a sea zone, the pool, out of the game), so that the index of :func:`placed`
    stays true (tests/blitzwar/test_in_zone.py holds every module to it)."""
    c = counters[cid]
    was = c["at"]
    c["at"] = to
    if was == to:
        return
    _MOVES[0] += 1
    if _PLACES[0] is counters:
        by = _PLACES[1]
        ids = by[was]
        ids.remove(cid)
        if not ids:
            del by[was]
        if to in by:
            insort(by[to], cid)
        else:
            by[to] = [cid]


def add_counter(counters: dict[str, dict], cid: str, c: dict) -> None:
    """A new counter ``cid`` (``c``, at its place) in ``counters``: the one way a rule adds a
    counter, the index of :func:`placed` mended (then :func:`sorted_counters`)."""
    counters[cid] = c
    _MOVES[0] += 1
    if _PLACES[0] is counters:
        insort(_PLACES[1].setdefault(c["at"], []), cid)


def remove_counter(counters: dict[str, dict], cid: str) -> None:
    """The counter ``cid`` gone from ``counters`` (not to the pool: out of the mapping, as a
    reorganisation's old counters go): the one way a rule removes one, the index mended."""
    c = counters.pop(cid)
    _MOVES[0] += 1
    if _PLACES[0] is counters:
        by = _PLACES[1]
        ids = by[c["at"]]
        ids.remove(cid)
        if not ids:
            del by[c["at"]]


def sorted_counters(counters: dict[str, dict]) -> dict[str, dict]:
    """The same counters in a new mapping, sorted by id (what a rule that adds or removes
    counters stores as the state's counters), the index of :func:`placed` carried over."""
    out = {cid: counters[cid] for cid in sorted(counters)}
    if _PLACES[0] is counters:
        _PLACES[0] = out
    return out


def forget_places() -> None:
    """Every place found anew at the next question (:func:`placed`): for a test that changed a
    place by hand on purpose; the rules move, add and remove counters by the functions above."""
    _PLACES[:] = [None, {}]
    _MOVES[0] += 1


def moves_made() -> int:
    """A number that changes whenever a counter moves, comes or goes (:data:`_MOVES`): equal
    numbers, no counter of any position has moved since (its type never changes: no rule
    writes it)."""
    return _MOVES[0]


# ------------------------------------------------------------------------------ one definition per notion
# The one definition of each notion the rules, `pbem show` and the map share (issue 18): the side
# a nation fights for and who are enemies (2, 9), a land counter's corps (3, 16.2), who controls
# a zone (5, 9), the strategic points (9.3, 16.3.2, 18), surrender (9.2) and the marks reached.
# The rule modules' helpers (land.side_of, land.control, Ctx.side_of, Ctx.control,
# combat_common.side_of / enemies / corps / n_corps / axis_points / surrendered / marks) and the
# map (pbem/blitzwar/draw.py, draw_panel.py) only call these.
def nation_side(rs: World, state: dict, nation: str) -> str:
    """The side a nation's counters fight for (2, 9): its entry in ``war``, else its map side;
    ``neutral`` until it joins a side (a neutral's counters are nobody's side, whatever the
    colour of its map zones: 9.3)."""
    war = state.get("war") or {}
    s = war[nation] if nation in war else rs.start_side(nation)     # (the map's side read only when needed)
    return s if s in SIDES else "neutral"


def enemies(a: str, b: str) -> bool:
    """Axis against the Allies and the USSR (2); the Allies and the USSR are allied; a neutral
    is nobody's enemy (9.3: attacking it needs consent, and it joins the other side first)."""
    return a != b and "axis" in (a, b) and {a, b} <= set(SIDES)


def corps(c: dict) -> tuple[int, int]:
    """(infantry, armour) corps of a land counter (3; a white tank holds both); (0, 0) for the
    other types."""
    t = c["type"]
    if t == "white-tank":
        return int(c.get("infantry", 1)), int(c.get("armour", int(c["units"]) - int(c.get("infantry", 1))))
    if t == "infantry":
        return int(c["units"]), 0
    if t == "armour":
        return 0, int(c["units"])
    return 0, 0


def n_corps(c: dict) -> int:
    """How many corps a land counter holds (4: stacking by corps, 7: its supply cost, 16.2)."""
    i, a = corps(c)
    return i + a


def marks_reached(rs: World, state: dict, turn: int) -> frozenset:
    """The marks reached by ``turn``: the state's and the calendar's (8)."""
    return frozenset(state.get("marks") or ()) | calendar_marks(rs, turn)


#: :meth:`World.marks_by` by turn, of the world last asked about: [world, {turn: marks}]
_CALENDAR: list = [None, {}]


def calendar_marks(rs: World, turn: int) -> frozenset[str]:
    """:meth:`World.marks_by` (the calendar's marks printed up to ``turn``, 8), worked out once
    per turn of a map: the calendar never changes."""
    if _CALENDAR[0] is not rs:
        _CALENDAR[:] = [rs, {}]
    got = _CALENDAR[1].get(turn)
    if got is None:
        got = _CALENDAR[1][turn] = rs.marks_by(turn)
    return got


def surrendered_countries(state: dict) -> list[str]:
    """The countries that surrendered (9.2), as the diplomacy phase records them in
    ``flags.surrendered`` (a country active again, 9.2 last paragraph, leaves the list)."""
    return list((state.get("flags") or {}).get("surrendered") or [])


def has_surrendered(rs: World, state: dict, turn: int, code: str) -> bool:
    """Whether ``code`` is conquered (9.2; ruling combat-r1-german-windows for "Poland conquered"
    of 16.3.1): recorded surrendered, or the mark ``<code>-surrendered`` reached (a case or a scenario that
    starts after the surrender)."""
    if code in surrendered_countries(state):
        return True
    mark = f"{code}-surrendered"      # (marks_reached's two parts asked each: no union made)
    return mark in (state.get("marks") or ()) or mark in calendar_marks(rs, turn)


def zone_owner(rs: World, state: dict, zone: str) -> str:
    """The side a land zone belongs to when no control marker says otherwise (5): the map's
    colour; a neutral country's zones the side it joined (``war``, 9), else neutral; East
    Poland the USSR's once Poland has surrendered (9.2: ポーランドが降伏した場合、東ポーランドの
    ゾーンは、ソ連に支配されます, "when Poland surrenders, the East Poland zones are controlled by
    the USSR"; issue 19, departure 11)."""
    z = rs.zones[zone]
    # (Poland's surrender read only for an East Polish zone: the only one it decides)
    return _owner(z, state.get("war") or {}, z.east_poland and "POL" in surrendered_countries(state),
                  vichy_stands(rs, state, zone))


def zone_owners(rs: World, state: dict) -> dict[str, str]:
    """:func:`zone_owner` of every land zone of the map at once, what it reads of the state
    read once (the supply network asks it of every zone whenever control changes)."""
    war = state.get("war") or {}
    pol = "POL" in surrendered_countries(state)
    stands = vichy_stands(rs, state)
    kept = _OWNERS
    if kept[0] is rs and kept[1] == war and kept[2] == (pol, stands):
        return dict(kept[3])
    vichy = set(rs.areas.get("vichy", ())) if stands else set()
    out = {zid: _owner(z, war, pol, zid in vichy) for zid, z in rs.zones.items()}
    _OWNERS[:] = [rs, dict(war), (pol, stands), out]
    return dict(out)


#: :func:`zone_owners` last worked out: [world, ``war``, (Poland surrendered, Vichy stands), owners]
#: (all it reads: the network asks again whenever control changes, which leaves them as they were)
_OWNERS: list = [None, None, None, {}]


def _owner(z: Any, war: dict, poland_surrendered: bool, vichy_zone: bool) -> str:
    """:func:`zone_owner` of the map zone ``z`` from what it reads of the state."""
    if z.east_poland and poland_surrendered:
        return "ussr"
    if vichy_zone:
        # 9.4: Vichy France's government controls the blue zones and is neutral (until a side
        # attacks it and it joins the other, 9.3)
        w = war.get("VF", "neutral")
        return w if w in SIDES else "neutral"
    if z.control == "neutral":
        w = war.get(z.country, "neutral")
        return w if w in SIDES else "neutral"
    return z.control


def vichy_stands(rs: World, state: dict, zone: str | None = None) -> bool:
    """9.4: Vichy France is set up (``flags.vichy``, the turn France surrendered) and has not
    surrendered to the Allies; with ``zone``: and the zone is one of its blue zones (area
    ``vichy`` of the map)."""
    f = state.get("flags") or {}
    if "vichy" not in f or "VF" in (f.get("surrendered") or ()):
        return False
    return zone is None or zone in rs.areas.get("vichy", ())


def territory(rs: World, state: dict, zone: str) -> str:
    """The country whose territory a land zone is now: its map country, Vichy France (VF) for
    the blue zones while Vichy stands (9.4)."""
    return "VF" if vichy_stands(rs, state, zone) else rs.zones[zone].country


def zone_control(rs: World, state: dict, zone: str) -> str:
    """Who controls a land zone (5): the state's control marker, else its owner
    (:func:`zone_owner`: the map's colour, a neutral's side, East Poland after 9.2)."""
    c = (state.get("control") or {}).get(zone)
    if c:
        return c
    return zone_owner(rs, state, zone)


def zone_controls(rs: World, state: dict, zones: Iterable[str]) -> list[str]:
    """:func:`zone_control` of each of ``zones`` (land zones), in their order, what it reads of
    the state read once (the diplomacy phase asks a country's zones, the strategic points the
    map's: held to :func:`zone_control` by tests/blitzwar/test_zone_controls.py)."""
    ctl = state.get("control") or {}
    war = state.get("war") or {}
    pol: bool | None = None         # (Poland's surrender read only for an East Polish zone)
    vichy = set(rs.areas.get("vichy", ())) if vichy_stands(rs, state) else ()
    out = []
    for zone in zones:
        c = ctl.get(zone)
        if not c:
            z = rs.zones[zone]
            if z.east_poland and pol is None:
                pol = "POL" in surrendered_countries(state)
            c = _owner(z, war, bool(z.east_poland and pol), zone in vichy)
        out.append(c)
    return out


def reserved_for(rs: World, state: dict, zone: str) -> str | None:
    """7: the Allies and the USSR never control each other's zones, "the red and khaki zones"
    (お互いのゾーン（赤およびカーキ色のゾーン）を支配できません): ``ussr`` for a Soviet zone (red; East
    Poland too once it is the USSR's, 9.2), ``allies`` for a British one (khaki); None for any
    other zone, French and Polish ones included (ruling red-and-khaki-zones)."""
    z = rs.zones[zone]
    if z.country == "USSR" or (z.east_poland and zone_owner(rs, state, zone) == "ussr"):
        return "ussr"
    if z.country == "UK":
        return "allies"
    return None


def control_after_entry(rs: World, state: dict, zone: str, side: str) -> str | None:
    """The side that controls ``zone`` once a ground unit of ``side`` enters it (5: the ground
    units that move through a zone change its control), or None when control does not change:
    the side holds it already; the Allies and the USSR never take a zone from each other, nor
    each other's red and khaki zones, which go back to their owner when retaken from the Axis
    (7, :func:`reserved_for`). The one definition: moves (land.enter) and advances
    (combat) both read it."""
    now = zone_control(rs, state, zone)
    if now == side:
        return None
    if side in ("allies", "ussr"):
        if now in ("allies", "ussr"):
            return None
        owner = reserved_for(rs, state, zone)
        if owner is not None and owner != side:
            return owner if now == "axis" else None
    return side


def set_control(rs: World, state: dict, zone: str, side: str) -> None:
    """Record that ``side`` controls ``zone``: a control marker, none where the side is the
    zone's owner by the map (:func:`zone_owner` agrees)."""
    ctl = dict(state.get("control") or {})
    if side == rs.zones[zone].control == zone_owner(rs, state, zone):
        ctl.pop(zone, None)
    else:
        ctl[zone] = side
    state["control"] = dict(sorted(ctl.items()))


def strategic_points(rs: World, state: dict) -> dict[str, int]:
    """The strategic points (general and national) each side controls: the number of the
    strategic point track now (9.3, 18). The Axis' number is ``flags.axis_strategic_points``
    when the state records it (a case or a position set up with it), else its zones counted
    now. The German defence condition reads the number at the last turn's end instead
    (:func:`german_defence_points`, 16.3.2). The zones counted are kept while what their
    control reads stays the same (:data:`_POINTS`: the phases that take no zone count them
    again after each movement, blitz and combat phase for Italy and Hungary, 9.3)."""
    key = (state.get("control") or {}, state.get("war") or {}, "POL" in surrendered_countries(state), vichy_stands(rs, state))
    kept = _POINTS
    if kept[0] is rs and kept[1] == key:
        pts = dict(kept[2])
    else:
        pts = {s: 0 for s in SIDES}
        for c in zone_controls(rs, state, [z.id for z in rs.strategic_zones()]):
            if c in pts:
                pts[c] += 1
        _POINTS[:] = [rs, (dict(key[0]), dict(key[1]), key[2], key[3]), dict(pts)]
    over = (state.get("flags") or {}).get("axis_strategic_points")
    if over is not None:
        pts["axis"] = int(over)
    return pts


#: :func:`strategic_points` last counted: [world, what zone_controls reads of the state (the
#: control markers, ``war``, Poland surrendered, Vichy stands; copies), the zones counted]
_POINTS: list = [None, None, None]


def axis_points(rs: World, state: dict) -> int:
    """The Axis strategic points (the track of 9.3 and 18; see :func:`strategic_points`)."""
    return strategic_points(rs, state)["axis"]


#: the flags of the Axis strategic points recorded at a turn's end, and of that turn (16.3.2)
GERMAN_DEFENCE_POINTS, GERMAN_DEFENCE_TURN = "german_defence_points", "german_defence_turn"


def record_german_defence_points(rs: World, state: dict, ended: int) -> None:
    """16.3.2 (ruling combat-r19-german-defence-points): at the end of turn ``ended`` record the
    Axis strategic points (the track's number then, :func:`axis_points`) for the German defence
    condition of the turns after it; from the turn that ends before the condition starts (the
    mark german-defence-conditional of the next turn, 1941) on, so that earlier states stay as
    they were. ``state["marks"]`` is already the next turn's."""
    if "german-defence-conditional" not in (state.get("marks") or ()):
        return
    flags = dict(state.get("flags") or {})
    flags[GERMAN_DEFENCE_POINTS] = axis_points(rs, state)
    flags[GERMAN_DEFENCE_TURN] = ended
    state["flags"] = dict(sorted(flags.items()))


def german_defence_points(rs: World, state: dict) -> tuple[int, int | None]:
    """The Axis strategic points of the German defence condition (16.3.2: 20 or more "at the end
    of the turn", ターン終了時に有している): (the number recorded at the end of the last turn,
    that turn) by :func:`record_german_defence_points`; without a record (a position set up in
    1941 or later, no turn's end seen yet) (the track's number now, None): the position at the
    start stands for the last turn's end."""
    flags = state.get("flags") or {}
    if flags.get(GERMAN_DEFENCE_POINTS) is not None:
        turn = flags.get(GERMAN_DEFENCE_TURN)
        return int(flags[GERMAN_DEFENCE_POINTS]), None if turn is None else int(turn)
    return axis_points(rs, state), None


@dataclass
class Ctx(PhaseContext):
    rs: World                         # the ruleset (Game[World])
    state: dict
    turn: int
    phase: str
    side: str | None = None           # the acting side (phases 4-9), None in phases 1-3
    player: str = ""                  # the player who gave the orders being carried out
    dice: Any = None
    answers: dict[str, Any] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    validating: bool = False
    auto_players: frozenset = frozenset()

    @property
    def acting_side(self) -> str:
        """The side whose phase this is (phases 4-9, 8): what a rule of a side's phase reads;
        asked in phases 1-3, which belong to no side, it is a bug, not a position."""
        if self.side is None:
            raise AssertionError(f"{self.phase}: a phase of no side (1-3) has no acting side")
        return self.side

    # ---------------------------------------------------------------- events and decisions
    # emit, refuse and standing: the core's (pbem.core.game.PhaseContext)
    def player_of_side(self, side: str) -> str:
        return self.state["sides"][side]

    def decide(self, *, id: str, side: str, kind: str, options: list, prompt: str,  # type: ignore[override]
               ordered: Any = None, auto: Callable[[], Any] | None = None, standing_key: str | None = None,
               standing_choices: dict[str, Any] | None = None,
               context: dict | None = None, rule: str = "") -> tuple[Any, str]:
        """The core's decision (:meth:`PhaseContext.decide`) for the player running ``side``;
        ``rule``, the rule section, goes into the context: the core's decision record
        (state.schema.json) has no field of its own for it, and a pending decision must keep
        the state valid."""
        if rule:
            context = {**(context or {}), "rule": rule}
        return super().decide(id=id, player=self.player_of_side(side), kind=kind, options=options, prompt=prompt,
                              ordered=ordered, auto=auto, standing_key=standing_key,
                              standing_choices=standing_choices, context=context)

    # ---------------------------------------------------------------- the position
    @property
    def counters(self) -> dict[str, dict]:
        return self.state["counters"]

    def side_of(self, cid: str) -> str:
        """The side the counter fights for (2, 9): :func:`nation_side` (neutral until its nation
        joins a side), as pbem.blitzwar.land.side_of."""
        return nation_side(self.rs, self.state, self.counters[cid]["nation"])

    def in_zone(self, zone: str) -> list[str]:
        """The ids of the counters ``at`` a place, sorted (a new list: the caller's)."""
        got = list(placed(self.counters).get(zone, ()))
        if CHECK_PLACES:
            plain = sorted([c for c, v in self.counters.items() if v["at"] == zone])
            assert got == plain, f"{self.phase}: the counters at {zone} are {plain}, the index says {got}: a place " \
                                 "was changed other than by context.move_counter"
        return got

    def move(self, cid: str, to: str) -> None:
        """:func:`move_counter` of this position's counters."""
        move_counter(self.counters, cid, to)

    def control(self, zone: str) -> str:
        """5: :func:`zone_control`."""
        return zone_control(self.rs, self.state, zone)

    def supply(self, side: str) -> Fraction:
        return as_fraction(self.state["supply"].get(side, "0"))

    def set_supply(self, side: str, value: Fraction) -> None:
        assert value >= 0, "supply never goes negative (7)"
        self.state["supply"][side] = fmt_supply(value)
