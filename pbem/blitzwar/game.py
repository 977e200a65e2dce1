"""BlitzWAR as a plug-in of pbem's core (:class:`pbem.core.game.Game`): the data
side (issue 11: scenarios, data files, the world and its consistency checks) and the play of
issue 12: the 1939 set-up (setup.py), the sequence of play (sequence.py, phases.py), stacking,
control and weather (land.py), supply (supply.py), the movement phase (movement.py), the blitz and normal
combat phases (combat.py and its parts combat_*.py), cards and replacements (cards.py,
replacements.py, supply_losses.py), diplomacy (diplomacy.py). Text: text.py; event wording and
map marks: describe.py; the map: draw.py."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.errors import Issue
from ..core.game import Checked, Game, PhaseKind, PhaseRun, Submission
from . import sequence  # (no import of its own: the kernel asks it at every phase, issue 35)
from .standing import AUTO_STANDING, STANDING_HELP, STANDING_KEYS, standing_keys_for

if TYPE_CHECKING:
    from .world import World


class BlitzWar(Game["World"]):
    id = "blitzwar"
    title = "BlitzWAR"
    data_files = {
        "map": ("scenarios/blitzwar/map.yaml", "blitzwar-map"),
        "counters": ("rules/blitzwar/counters.yaml", "blitzwar-counters"),
        "calendar": ("rules/blitzwar/calendar.yaml", "blitzwar-calendar"),
        "cards": ("rules/blitzwar/cards.yaml", "blitzwar-cards"),
        "tables": ("rules/blitzwar/tables.yaml", "blitzwar-tables"),
    }
    scenario_dir = "scenarios/blitzwar"
    scenario_schema = "blitzwar-setup"
    state_schema = "blitzwar-state"
    orders_schema = "blitzwar-orders"
    # the decisions players may answer in advance: losses, retreats, advances, German defence
    # `pbem show` and reports on a terminal: the sides in their map colours (Axis field grey-green,
    # Allies khaki, USSR red), as Battle for Germany colours its sides
    term_styles = {"Axis": "green", "axis": "green", "Allies": "yellow", "allies": "yellow", "USSR": "red",
                   "ussr": "red", "neutral": "bright_black", "surrendered": "magenta",
                   "out_of_supply": "bold red", "GAME OVER": "bold yellow"}
    standing_keys = STANDING_KEYS
    standing_keys_for = standing_keys_for     # who can ever be asked what (standing.py)
    auto_standing = AUTO_STANDING
    # the words of the command-line help (pbem.core.game.Game)
    status = ("diplomacy (9), replacement cards and replacements (10, 11), movement, supply, control and stacking "
              "(4-7, 15), the blitz and normal combat (16, 17), the naval phase (12), the air phase (13), sea "
              "transport (14)")
    option_help: dict[str, str] = {}
    standing_help = {"losses": "the corps lost in a combat",
                     "retreat": "retreats", "advance": "advances after combat",
                     "german_defence": "the German defence shift, 16.3.2",
                     "naval_losses": "the fleet or U-boat that takes a naval loss, 12.2",
                     "intercept": "interceptions of the other side's air units, 13.2 (never, all, bombers, over ZONE,ZONE; + keep N)",
                     **STANDING_HELP}
    place_help = "a zone by its id or name, e.g. warsaw"
    show_help = ("BlitzWAR: the date and weather, the countries at war, supply held and in counters, strategic points, "
                 "the counters zone by zone, the card queues, the calendar ahead.")
    map_help = ("BlitzWAR: the strategic map of Europe with zones, control, sea zones and the counters; with --report "
                "or --last, what the step did.")
    # what the core needs of the game (pbem.core.game.Game's declarations)
    roles = ("axis", "allies", "ussr")
    cases_kit = "pbem.blitzwar.cases"
    example_scenario = "blitzwar-1939"
    example_standing = "axis:losses=infantry-first"

    # ---------------------------------------------------------------- data

    def scenario_summary(self, doc: dict[str, Any]) -> str:
        """The scenario file's summary says what pbem played when it was written ("combat and
        diplomacy to come"; the file stays as it is, its digest is the campaigns'): the modes of
        play, then what pbem plays now (``status``)."""
        return f"two players (axis; allies with the USSR) or three; pbem plays {self.status}"

    def scenario_players(self, doc: dict[str, Any]) -> list[str]:
        """With three players each side is a player (2); the two-player mode joins the Allies
        and the USSR in one player, as ``players.two`` says."""
        pl = doc.get("players")
        three = pl.get("three") if isinstance(pl, dict) else None
        return [str(p) for p in three] if isinstance(three, dict) else []

    def build(self, docs: dict[str, Any], digest: str) -> World:
        from .world import World  # loaded on first use: the plug-in's import stays light
        return World(docs, digest)

    def consistency(self, rs: World) -> list[Issue]:
        from .checks import consistency  # loaded on first use: the plug-in's import stays light
        return consistency(rs)

    # ---------------------------------------------------------------- the map picture
    def draw_map(self, rs: World, state: dict[str, Any], report: dict[str, Any] | None = None,
                 **opts: Any) -> str:
        """The SVG picture of a position (`pbem map`): pbem/blitzwar/draw.py."""
        from .draw import draw_map  # loaded on first use: the plug-in's import stays light
        return draw_map(rs, state, report, game=self, **opts)

    def draw_map_parts(self, rs: World, state: dict[str, Any], report: dict[str, Any] | None = None,
                       **opts: Any) -> list[str]:
        """The same picture as its parts, those many pictures share marked (the campaign book
        writes them once): pbem/blitzwar/draw.py."""
        from .draw import draw_map_parts  # loaded on first use: the plug-in's import stays light
        return draw_map_parts(rs, state, report, game=self, **opts)

    def draw_picture(self, rs: World, state: dict[str, Any], report: dict[str, Any] | None = None,
                     **opts: Any) -> Any:
        """The same picture as drawn (pbem.core.mapdraw.Picture: its text, or the elements the
        mail's preview paints without writing the text): pbem/blitzwar/draw.py."""
        from .draw import draw_picture  # loaded on first use: the plug-in's import stays light
        return draw_picture(rs, state, report, game=self, **opts)

    # ---------------------------------------------------------------- play
    def new_state(self, rs: World, **kw: Any) -> dict[str, Any]:
        from .setup import initial_state  # loaded on first use: the plug-in's import stays light
        return initial_state(rs, **kw)

    def acting_players(self, rs: World, state: dict[str, Any], phase: str | None = None) -> list[str]:
        return sequence.acting_players_of(rs, state, phase)

    def orderable_phases(self, rs: World, state: dict[str, Any], player: str) -> list[str]:
        return sequence.orderable(rs, state, player)

    def phase_table(self) -> Mapping[str, PhaseKind[World]]:
        """The phases as data (pbem/blitzwar/phasetable.py): static check, run."""
        from .phasetable import TABLE  # loaded on first use: the plug-in's import stays light
        return TABLE

    def phase_kind(self, phase: str) -> str:
        return sequence.step_of(phase)

    def check_orders(self, rs: World, state: dict[str, Any], sub: Submission) -> list[Issue]:
        from .orders import check_phases  # loaded on first use: the plug-in's import stays light
        return check_phases(rs, state, sub)

    def check_more(self, chk: Checked[World]) -> list[Issue]:
        from .orders import check_more  # loaded on first use: the plug-in's import stays light
        return check_more(chk)

    def check_sealed(self, rs: World, state: dict[str, Any], player: str, id: str, choice: Any) -> str | None:
        """`pbem seal`: a replacement card must be free when it is sealed (10.1)."""
        from .cards import check_sealed_choice  # loaded on first use: the plug-in's import stays light
        return check_sealed_choice(rs, state, player, id, choice)

    def sealed_clash(self, rs: World, state: dict[str, Any], player: str, id: str, choice: Any, other_id: str,
                     other_choice: Any) -> str | None:
        """`pbem seal`: a card sealed for two turns whose cards are queued together (10.1): the
        second is not free when it is picked, and void when it comes (ruling card-void)."""
        from .cards import SEAL_ID  # loaded on first use: the plug-in's import stays light
        m, o = SEAL_ID.match(str(id)), SEAL_ID.match(str(other_id))
        if not (m and o) or m.group(1) != o.group(1) or choice != other_choice:
            return None
        t, u = int(m.group(2)), int(o.group(2))
        revealed = u < state["turn"] or (u == state["turn"] and state["phase"] not in ("1.diplomacy", "2.cards", "3.replacements"))
        if revealed or abs(t - u) > 3:
            return None         # that card came (or was never opened) before this one is queued
        return (f"{choice} is sealed already for turn {u} ({other_id}), not yet opened: a card is queued once, so "
                f"sealed for turn {t} too it is not free (10.1) and gives nothing when it comes (ruling card-void)")

    def run_phase(self, run: PhaseRun[World]) -> None:
        from .phasetable import run_kind  # loaded on first use: the plug-in's import stays light
        run_kind(run)

    def advance(self, rs: World, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        from .phases import advance  # loaded on first use: the plug-in's import stays light
        advance(rs, state, events)

    def phase_info(self, rs: World, state: dict[str, Any]) -> dict[str, Any]:
        t = rs.turns[state["turn"]]
        return {"date": f"{t.season} {t.year} ({t.half})", "weather": t.weather}

    # ---------------------------------------------------------------- text
    def phase_title(self, phase: str) -> str:
        return sequence.phase_title(phase)

    def player_title(self, rs: World, player: str) -> str:
        return {"axis": "Axis player", "allies": "Allied player", "ussr": "Soviet player"}.get(player, f"{player} player")

    def order_template(self, rs: World, state: dict[str, Any], player: str, *, schema_ref: str, state_file: str) -> str:
        from .text import template  # loaded on first use: the plug-in's import stays light
        return template(rs, state, player, schema_ref=schema_ref, state_file=state_file)

    def describe_event(self, rs: World, ev: dict[str, Any]) -> list[str]:
        from .describe import describe  # loaded on first use: the plug-in's import stays light
        return describe(rs, ev)

    def summary(self, rs: World, state: dict[str, Any]) -> dict[str, Any]:
        from .text import summary  # loaded on first use: the plug-in's import stays light
        return summary(rs, state)

    def zone_lines(self, rs: World, state: dict[str, Any], zone: str) -> list[str]:
        from .text import zone_lines  # loaded on first use: the plug-in's import stays light
        return zone_lines(rs, state, zone) or []

    def zone_ids(self, rs: World) -> list[str]:
        return list(rs.zones)

    def summary_lines(self, rs: World, state: dict[str, Any], *, units: bool = True) -> list[str]:
        from .text import summary_lines  # loaded on first use: the plug-in's import stays light
        return summary_lines(rs, state, units=units)
