"""The interface between pbem's core and a game (in the spirit of godip's variants and phases).

The core owns the files, the envelope of every file (schema id, game, campaign, turn, phase,
awaited players, hashes, dice commitment, engine and ruleset versions), the dice, the
adjudication kernel (:mod:`pbem.core.kernel`: submissions, outcomes, pending decisions and their
resumption, sealed choices, per-phase dice), replay, reports and the CLI. It knows no game.

A game is an object of a subclass of :class:`Game`, found through :mod:`pbem.core.games`. It
supplies its position and its rules: data files and schemas, the phase table, order checking,
what one phase does, templates, event descriptions, the ``show`` summary and the map drawing.
Everything it is given and returns is plain data (dicts, lists, strings, numbers): no file,
clock, environment, click, rich or yaml inside a game's rules.

Mid-phase decisions and refusals travel as the exceptions :class:`NeedDecision` and
:class:`PhaseOrdersInvalid`, raised by a phase handler and caught by the kernel.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, NoReturn, Protocol, TypedDict, TypeVar, cast

from .errors import Issue
from .lazyclass import dataclass  # made when first used (issue 35)

if TYPE_CHECKING:
    from .kernel import Outcome

#: a game's ruleset type (what its :meth:`Game.build` returns, every hook's ``rs``): it has at least
#: what the core reads of it (:class:`Ruleset`)
RS = TypeVar("RS", bound="Ruleset")

#: How an adjudication (or a validating run) ended: ``complete`` (every phase of the files carried
#: out), ``pending`` (stopped at decisions), ``waiting`` (a file accepted, others awaited),
#: ``refused`` (nothing written), ``game-over``, ``links`` / ``void`` (the chain-dice steps of
#: pbem.core.step), ``checked`` (a validating run stopped at its first die or an open decision).
Stopped = Literal["", "complete", "pending", "waiting", "refused", "game-over", "links", "void", "checked"]

#: the places a validating run hands a game (:meth:`Game.check_more`)
CheckStage = Literal["before-orders", "phase", "refused", "die", "decision"]


class Ruleset(Protocol):
    """What the core reads of a game's ruleset (:meth:`Game.build`)."""
    digest: str
    play: Any

    def provisional_items(self) -> Any: ...


class Decision(TypedDict, total=False):
    """A decision a phase stops at (``NeedDecision``), as the state's ``pending`` records it."""
    id: str
    player: str
    kind: str
    turn: int
    phase: str
    prompt: str
    options: list[Any]
    choice_schema: dict[str, Any]
    context: dict[str, Any]


# A state and a report event stay plain JSON-ready dicts (dict[str, Any]): the core's keys of a
# state (its envelope: schemas/state.schema.json) and of an event (type, turn, phase, player) sit
# beside the game's own, and a TypedDict (Python 3.10) cannot say "these keys and any others", so
# one would be a cast at every read. The schemas are where their keys are said and checked.


class DiceRefused(Exception):
    """A die was asked for in a validating run (`pbem validate`): the position after it is not
    known before the dice, so the run stops there (:class:`RefusingDice`)."""

    def __init__(self, label: str = ""):
        super().__init__(label)
        self.label = label


class RefusingDice:
    """The dice of a validating run: the first roll raises :class:`DiceRefused`."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.log: list[Any] = []

    def roll(self, label: str, sides: int = 6) -> int:
        raise DiceRefused(self.prefix + label)


def refusing_dice(**_: Any) -> RefusingDice:
    """A dice factory (:data:`DiceFactory`) of :class:`RefusingDice`."""
    return RefusingDice()


class NeedDecision(Exception):
    """A phase cannot go on until the named player(s) decide. ``decisions``: one dict or a list
    of dicts, each ``{id, player, kind, prompt, options | choice_schema, ...}`` (JSON-ready).
    Several decisions may be pending at once, for different players."""

    def __init__(self, decision: Decision | dict[str, Any] | list[dict[str, Any]] | list[Decision]):
        items: list[Any] = [decision] if isinstance(decision, dict) else list(decision)
        self.decisions: list[Decision] = [cast(Decision, d) for d in items]
        super().__init__(", ".join(d["id"] for d in self.decisions))

    @property
    def decision(self) -> Decision:
        return self.decisions[0]


class PhaseOrdersInvalid(Exception):
    """The orders of a phase cannot be carried out at the position reached. Before the step's
    first die the kernel refuses the files; after it, the orders the issues name (by their
    ``path``: a list entry, a key, or the phase's whole orders) are void and the phase is run
    again without them with the same dice. A game raises it before it changes the position
    for the orders named, and names each order it refuses (pbem.core.kernel)."""

    def __init__(self, issues: list[Issue]):
        super().__init__(f"{len(issues)} issue(s)")
        self.issues = issues


@dataclass
class Submission:
    """One order file, as the kernel hands it to a game: the player, the loaded document, the
    sha256 of its bytes and the name it is known by (for issues)."""
    player: str
    doc: dict[str, Any]
    digest: str
    name: str = "<orders>"
    #: the document paths of entries a schema error left out (a checkable part, `pbem validate`):
    #: a game does not call such an entry missing (the schema error already says what is wrong)
    dropped: tuple[Any, ...] = ()


@dataclass
class PhaseRun(Generic[RS]):
    """What a phase handler is given (see :meth:`Game.run_phase`)."""
    rs: RS                          # the game's ruleset (:meth:`Game.build`)
    state: dict[str, Any]                     # the working state; the handler changes it in place
    turn: int
    phase: str
    player: str                     # the first acting player (the phasing player)
    orders: dict[str, dict[str, Any]]         # normalised orders of each acting player for this phase
    dice: Any                       # pbem.core.dice.Dice, or RefusingDice in a validating run
    answers: dict[str, Any]         # answers to decisions, by decision id
    auto_players: frozenset[str]         # players whose decisions take their default (missing orders)
    opened: dict[str, dict[str, Any]] = field(default_factory=dict)   # sealed choices opened in this step
    events: list[dict[str, Any]] = field(default_factory=list)
    phase_events: list[dict[str, Any]] = field(default_factory=list)   # (after_phase) what the phase did
    validating: bool = False        # a validating run (`pbem validate`): dice refuse, nothing is kept


@dataclass
class StaticCheck(Generic[RS]):
    """What a phase's static check is given (:class:`PhaseKind`): one ``phases`` entry of an
    order file as it arrives, and the state it was written against. A static check says what is
    wrong whatever the dice and the answers do before the phase (every name, counter, zone and
    card exists, each stated path step is next to the one before it, the weather and phase
    facts, the shape of an order, a choice among options that do not depend on the position);
    the kernel runs it for every phase of every file before any die, and an error refuses the
    file (`pbem validate`: an error, the rest of the file still checked without that order)."""
    rs: RS
    state: dict[str, Any]                     # the state the file was written against (the position before any die)
    player: str
    phase: str                      # the phase of the entry (its kind: :meth:`Game.phase_kind`)
    turn: int
    entry: dict[str, Any]                     # the ``phases`` entry as written
    index: int                      # its place in the file's ``phases``
    #: the entries of the same file before it ((index, entry)): what may change the position
    #: before the phase by the player's own orders (a counter shipped by sea before it moves)
    earlier: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def path(self) -> tuple[Any, ...]:
        return ("phases", self.index)


@dataclass(frozen=True)
class PhaseKind(Generic[RS]):
    """One row of a game's phase table (:meth:`Game.phase_table`), a kind of phase: its
    ``static`` check (:class:`StaticCheck`, what no die or answer changes: run for every phase
    of every file when it arrives), its ``check`` against the position (the issues its orders
    meet at a position, without changing it; a validating run checks the phases it cannot reach
    before the dice with it, at the position as it stands, as warnings; None: the phase carried
    out on a copy with dice that refuse to roll) and its ``run`` (what the phase does,
    :meth:`Game.run_phase`'s work: the kernel calls it). The kernel alone goes through the
    phases, in ``adjudicate`` and in ``validate`` alike."""
    run: Callable[[PhaseRun[RS]], None]
    static: Callable[[StaticCheck[RS]], list[Issue]] | None = None
    check: Callable[[PhaseRun[RS]], list[Issue]] | None = None


class PhaseContext:
    """The context of one phase that a game's rule modules work on; each game's ``Ctx`` (a
    dataclass holding these attributes and its own position) extends it. It owns what every
    game does the same way: events (:meth:`emit`), refusals (:meth:`refuse`), standing orders
    (:meth:`standing`), answers and mid-phase decisions (:meth:`decide`)."""
    if TYPE_CHECKING:
        # The core only reads it: a game's Ctx holds the state as a field (BlitzWAR) or derives
        # it (Battle for Germany: its board's); a property here would refuse the field's assignment.
        @property
        def state(self) -> dict[str, Any]: ...
    turn: int
    phase: str
    answers: dict[str, Any]
    events: list[dict[str, Any]]
    validating: bool
    auto_players: frozenset[str]

    def emit(self, type_: str, **data: Any) -> dict[str, Any]:
        ev = {"type": type_, "turn": self.turn, "phase": self.phase}
        ev.update(data)
        self.events.append(ev)
        return ev

    def refuse(self, issues: list[Issue]) -> NoReturn:
        raise PhaseOrdersInvalid(issues)

    def standing(self, player: str, key: str, default: str = "ask") -> str:
        return str(self.state.get("standing", {}).get(player, {}).get(key, default))

    def decide(self, *, id: str, player: str, kind: str, options: list[Any], prompt: str | Callable[[], str],
               ordered: Any = None, auto: Callable[[], Any] | None = None, standing_key: str | None = None,
               standing_choices: dict[str, Any] | None = None,
               context: dict[str, Any] | Callable[[], dict[str, Any]] | None = None) -> tuple[Any, str]:
        """(choice, how) for a decision that belongs to ``player``, taken in this order from:
        the order written for it (an illegal one is reported, ``order-ignored``, and the
        decision taken as if none were written); an answer to the pending decision of the same
        id; the only legal option; the player's standing order (``auto``: the default;
        ``standing_choices`` turns another value into a choice, and a value that is itself a
        legal option is that option: ``none`` declines, ``advance: none``, never ``auto``); the
        missing-orders default of a player who sent nothing, recorded as an answer so that a
        resumed phase does not ask it again (no dead end, issue 9). Otherwise the phase stops
        (:class:`NeedDecision`). ``options`` must be JSON-ready. ``prompt`` and ``context`` may
        be given as functions that make them: called only when the decision is asked (most
        are answered by an order or a standing order: their text is not made for nothing)."""
        if ordered is not None:
            if ordered in options:
                return ordered, "order"
            self.emit("order-ignored", decision=id, ordered=ordered, options=options,
                      reason="the ordered choice is not legal at this point")
        if id in self.answers and self.answers[id] in options:
            return self.answers[id], "answer"
        if len(options) == 1:
            return options[0], "only option"
        value = self.standing(player, standing_key) if standing_key else "ask"
        if standing_choices and standing_choices.get(value) in options:
            return standing_choices[value], f"standing order {value}"
        if auto is not None and value == "auto":
            return auto(), "standing order auto"
        if value not in ("ask", "auto") and value in options:
            return value, f"standing order {value}"
        if auto is not None and player in self.auto_players:
            choice = auto()
            self.answers[id] = choice
            return choice, "no answer received: default"
        dec: Decision = {"id": id, "player": player, "kind": kind, "turn": self.turn, "phase": self.phase,
                         "prompt": prompt() if callable(prompt) else prompt, "options": options}
        if callable(context):
            context = context()
        if context:
            dec["context"] = context
        raise NeedDecision(dec)


@dataclass
class Checked(Generic[RS]):
    """What a validating run hands a game at ``at`` (:meth:`Game.check_more`): ``before-orders``
    (a die of :meth:`Game.before_orders`), ``phase`` (a phase carried out), ``refused`` (a phase
    whose orders were refused: ``issues``; it was carried out again with them set aside),
    ``die`` (the run stopped at the first die of ``run``), ``decision`` (``decision`` is open in
    ``run``; the phase is carried out again with every decision at its default, and if one is
    still open the run stops there: ``decision`` again, with ``final`` set)."""
    at: CheckStage
    rs: RS
    state: dict[str, Any]                     # the working state where the run is
    sub: Submission                 # the order file checked
    run: PhaseRun[RS] | None = None
    index: int | None = None        # the ``phases`` entry of ``sub`` for ``run`` (None: not listed)
    issues: list[Issue] = field(default_factory=list)
    later: list[tuple[int, dict[str, Any]]] = field(default_factory=list)   # entries of ``sub`` not carried out
    decision: Decision | None = None
    final: bool = False
    #: set by the game: check nothing further of the file (the rest is for the game to say)
    stop: bool = False


class Game(Generic[RS]):
    """What a game plug-in declares and implements. Attributes first, then hooks; the hooks
    without a body here must be given by every game."""

    id: str = ""
    title: str = ""
    #: data documents of every scenario: name -> (path under the data root, schema name)
    data_files: dict[str, tuple[str, str]] = {}
    #: the folder holding the game's rules/ and scenarios/ when it brings its own (None: pbem's
    #: data root, where the built-in games' data lives)
    data_root: Path | str | None = None
    #: the folder (under the data root) holding the scenario files, and their schema
    scenario_dir: str = ""
    scenario_schema: str = ""
    #: schema names of the game's own state and order files (envelope + position / orders)
    state_schema: str = "state"
    orders_schema: str = "orders"
    #: standing-order keys -> allowed values, and the value `--auto-decisions` gives each
    # the game's names coloured in printed lines on a terminal (`pbem show`, reports): word ->
    # rich style; None: the core's (Battle for Germany's sides, pbem.core.term.SIDE_STYLES)
    term_styles: dict[str, str] | None = None
    standing_keys: dict[str, tuple[str, ...]] = {}
    auto_standing: dict[str, str] = {}
    #: The game's own words in the command-line help (`pbem --help`, `new --help`, `show --help`,
    #: `map --help`, `orders template --help`): the CLI builds its help from every game's
    #: declarations, so that no game's roles, keys or map are presented as everyone's.
    #: ``status``: what pbem adjudicates of the game now, in one line;
    #: ``option_help``: optional rule -> what it turns on (`new --option`);
    #: ``standing_help``: standing key -> the decision it answers (`new --standing`);
    #: ``place_help``: how a place of the map is named (`show --zone`);
    #: ``show_help`` / ``map_help``: what `pbem show` lists / `pbem map` draws for the game.
    status: str = ""
    option_help: dict[str, str] = {}
    standing_help: dict[str, str] = {}
    place_help: str = ""
    show_help: str = ""
    map_help: str = ""

    # ------------------------------------------------ declarations: what the core needs of a game
    # (kept in one block; the CLI's help and the case runner read them, never a package name)
    #: the roles (player ids) of the game's scenarios, in the order the help lists them (the
    #: roles of `orders template --player`, the role in the examples of `key new`, `chain new`)
    roles: tuple[str, ...] = ()
    #: the module of the game's rule-case kit (``kit()``, see :mod:`pbem.core.cases`), e.g.
    #: ``"pbem.bfg.cases"``; None: the game runs no rule-case files
    cases_kit: str | None = None
    #: examples in the help: a scenario id (`new --scenario`) and a standing order
    #: ``ROLE:KEY=VALUE`` (`new --standing`); "": the help names none of the game's
    example_scenario: str = ""
    example_standing: str = ""
    # The optional rules and their help are ``option_help``, the standing keys ``standing_keys``
    # (their help ``standing_help``, their `auto` values ``auto_standing``), above.

    def standing_keys_for(self, rs: RS, player: str) -> dict[str, tuple[str, ...]]:
        """The standing orders ``player`` can ever be asked in this ruleset (default: all); a
        key outside them is accepted in an order file but not kept, offered or listed."""
        return self.standing_keys

    # ---------------------------------------------------------------- data
    def scenarios(self) -> dict[str, dict[str, Any]]:
        """Scenario id -> {file, title, line, players}, discovered from the game's scenario
        folder (every file whose ``schema`` is the game's scenario schema; not listed twice)."""
        from .data import scenario_index
        return scenario_index(self)

    def scenario_file(self, scenario: str) -> str | None:
        """The data file of ``scenario`` (its path under the data root), None when the game has
        no such scenario; reads only that file where it can (:func:`pbem.core.data.scenario_file`)."""
        from .data import scenario_file
        return scenario_file(self, scenario)

    def scenario_players(self, doc: dict[str, Any]) -> list[str]:
        """The player ids a scenario file names (``play.players[].id``)."""
        play: dict[str, Any] = doc["play"] if isinstance(doc.get("play"), dict) else {}
        return [str(p.get("id")) for p in play.get("players") or [] if isinstance(p, dict)]

    def scenario_summary(self, doc: dict[str, Any]) -> str:
        """The last part of the scenario's line in `pbem new --help` and `pbem scenarios` (by
        default the scenario file's ``summary``); a game may word it itself, e.g. to say what
        pbem plays of it now (``status``)."""
        return str(doc.get("summary") or "")

    def scenario_includes(self, doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """Other data files a scenario file refers to: name -> (path, schema)."""
        return {}

    def build(self, docs: dict[str, Any], digest: str) -> RS:
        """The ruleset (an object with at least ``digest``, ``play.players`` and
        ``provisional_items()``) from the loaded data documents."""
        raise NotImplementedError

    def consistency(self, rs: RS) -> list[Issue]:
        """`pbem data check` on top of the schemas."""
        return []

    # ---------------------------------------------------------------- play
    def acting_players(self, rs: RS, state: dict[str, Any], phase: str | None = None) -> list[str]:
        """The players who give orders for ``phase`` (default: the state's), in order."""
        raise NotImplementedError

    def orderable_phases(self, rs: RS, state: dict[str, Any], player: str) -> list[str]:
        """The phases ``player`` may give orders for now, from the current one on (one order
        file may cover several consecutive phases)."""
        raise NotImplementedError

    def phase_table(self) -> Mapping[str, PhaseKind[RS]]:
        """The game's phases as data: kind -> :class:`PhaseKind` (static check, check against the
        position, run). The kernel runs every static check of a file on arrival, and carries each
        phase out by its row; empty: the game's :meth:`run_phase` carries out every phase and
        :meth:`check_orders` is all that is checked before (a game written before the table)."""
        return {}

    def phase_kind(self, phase: str) -> str:
        """The row of :meth:`phase_table` for ``phase`` (``axis.8.blitz`` -> ``blitz``)."""
        return phase

    def check_orders(self, rs: RS, state: dict[str, Any], sub: Submission) -> list[Issue]:
        """The game's checks of one order file's list of phases, before anything is carried out
        (which phases, in which order, each key in its phase; the kernel has checked the
        envelope: game, campaign, state, player, turn, decisions). What the orders of each phase
        name is checked by the phase table's static checks (:meth:`phase_table`); an error here
        stops the file's check."""
        return []

    def normalize_phase(self, entry: dict[str, Any], index: int) -> dict[str, Any]:
        """One ``phases`` entry in the form the phase handler reads (with ``_path``)."""
        return dict(entry, _path=("phases", index))

    def run_phase(self, run: PhaseRun[RS]) -> None:
        """(A game without a :meth:`phase_table`; with one, the kernel calls its row's ``run``.)
        Carry out one phase on ``run.state``; append events to ``run.events``; raise
        :class:`NeedDecision` or :class:`PhaseOrdersInvalid`. Check every order that can be
        checked before the phase's first die before rolling it: what is refused after a die
        is void, not refused. Orders are dicts whose list entries may carry ``_path`` (their
        place in the file, kept when an earlier entry is void): read it where present."""
        raise NotImplementedError

    def after_phase(self, run: PhaseRun[RS]) -> None:
        """Hook after a phase completed (e.g. a victory-point event): ``run.phase_events`` holds
        what the phase did; append new events to ``run.events``."""

    def phase_info(self, rs: RS, state: dict[str, Any]) -> dict[str, Any]:
        """Extra fields of a phase's report event (e.g. the turn's date)."""
        return {}

    def new_state(self, rs: RS, *, campaign: str, players: dict[str, Any], commitment: str | None, algorithm: str,
                  options: dict[str, Any], engine_version: str, standing: dict[str, Any] | None = None) -> dict[str, Any]:
        """The initial state: the envelope values given (``schema``, ``game``, ``campaign``,
        ``scenario``, ``ruleset``, ``engine``, ``dice``, ``players``, ``options``, ``step`` 0,
        ``previous`` None, ``turn``, ``phase``, ``awaiting``, ``standing``, ``pending`` []) and
        the game's position."""
        raise NotImplementedError

    def advance(self, rs: RS, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Move ``state`` to the next phase (and turn), applying what happens between phases;
        at the end of the game set ``state['phase'] = 'end'`` and ``state['result']``."""
        raise NotImplementedError

    def before_orders(self, rs: RS, work: dict[str, Any], subs: list[Submission], dice_factory: DiceFactory,
                      out: Outcome) -> bool:
        """Hook before the orders of a step are carried out (e.g. a pre-game die). Return True
        when the step ends there (``out.state`` set)."""
        return False

    def check_more(self, chk: Checked[RS]) -> list[Issue]:
        """What the game adds to a validating run (`pbem validate`, the kernel's run of the
        adjudication with dice that refuse to roll, :func:`pbem.core.kernel.validate`) at
        ``chk.at``: warnings, and the checks of the phases after the first die or an open
        decision (``chk.later``), which the run does not reach. May set ``chk.stop``."""
        return []

    def check_choice(self, rs: RS, decision: dict[str, Any], choice: Any) -> str | None:
        """Why ``choice`` is not a legal answer to ``decision`` (None if legal). The default
        checks ``options`` membership; a game may accept structured choices."""
        return None

    def check_sealed(self, rs: RS, state: dict[str, Any], player: str, id: str, choice: Any) -> str | None:
        """Why ``choice`` can never be legal sealed as ``id`` by ``player`` now (None: it may
        be); `pbem seal` asks before it writes an opening (e.g. a BlitzWAR card not free, 10.1)."""
        return None

    def sealed_clash(self, rs: RS, state: dict[str, Any], player: str, id: str, choice: Any, other_id: str,
                     other_choice: Any) -> str | None:
        """Why ``choice`` cannot be sealed as ``id`` by ``player`` together with ``other_choice``,
        which the same player sealed as ``other_id`` and has not opened yet (None: it can);
        `pbem seal` asks for each opening of the player's it finds beside the new one (e.g. a
        BlitzWAR card sealed for two turns, 10.1)."""
        return None

    # ---------------------------------------------------------------- text and pictures
    def phase_title(self, phase: str) -> str:
        return phase

    def player_title(self, rs: RS, player: str) -> str:
        """A player as reports name them ("Soviet player")."""
        return f"{player} player"

    def order_template(self, rs: RS, state: dict[str, Any], player: str, *, schema_ref: str, state_file: str) -> str:
        raise NotImplementedError

    def describe_event(self, rs: RS, ev: dict[str, Any]) -> list[str]:
        return [str(ev)]

    def summary(self, rs: RS, state: dict[str, Any]) -> dict[str, Any]:
        return {}

    def summary_lines(self, rs: RS, state: dict[str, Any], *, units: bool = True) -> list[str]:
        return []

    def zone_lines(self, rs: RS, state: dict[str, Any], zone: str) -> list[str] | None:
        """`pbem show STATE --zone Z`: what is next to the zone (hex) ``zone``, what stands
        there, who controls it; ``[]`` for a name that is not on the map; None in a game that
        does not answer it."""
        return None

    def zone_ids(self, rs: RS) -> list[str]:
        """The zone (hex) ids of the map, for a did-you-mean after an unknown ``--zone``."""
        return []

    #: ``draw_map(rs, state, report=None, **opts) -> str`` (an SVG picture) in a game that draws
    #: its map; None in one that does not (yet): `pbem map` says so and mails go without a map.
    draw_map: Callable[..., str] | None = None
    #: ``draw_map_parts(rs, state, report=None, **opts) -> list[str]``: the same picture as texts whose
    #: lines joined are the SVG, the pieces many pictures share (the map's unchanging base, a unit
    #: that has not moved) given as :class:`pbem.core.mapdraw.Shared`, each drawn once: the
    #: campaign book writes them once for all its pages; None: the book finds them in the SVG.
    draw_map_parts: Callable[..., list[str]] | None = None
    #: ``draw_picture(rs, state, report=None, **opts) -> pbem.core.mapdraw.Picture``: the same picture
    #: as drawn, which the mail's preview paints without its SVG text (issue 35); None: the
    #: preview is painted from draw_map's text.
    draw_picture: Callable[..., Any] | None = None


#: ``dice_factory(step=, orders_digest=, state_hash=, [epochs=])`` -> the dice of one step
DiceFactory = Callable[..., Any]
