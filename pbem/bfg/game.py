"""Battle for Germany as a plug-in of pbem's core (:class:`pbem.core.game.Game`): what the
core asks of a game, answered from the rule chapters of this package."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core.errors import Issue
from ..core.game import Checked, DiceFactory, Game, PhaseKind, PhaseRun, Submission
from .orders import STANDING_KEYS, check_phases, normalize_phase, player_phases
from .sequence import TITLE, split, turn_phases

if TYPE_CHECKING:
    from ..core.kernel import Outcome
    from .ruleset import Ruleset


@cache
def _engine() -> ModuleType:
    """pbem/bfg/engine.py, loaded at the first hook that needs it, then kept (the kernel asks
    several hooks a phase)."""
    from . import engine  # loaded on first use: the plug-in's import stays light
    return engine


@cache
def _phasetable() -> ModuleType:
    from . import phasetable  # loaded on first use: the plug-in's import stays light
    return phasetable


class BattleForGermany(Game["Ruleset"]):
    id = "bfg"
    title = TITLE
    data_files = {
        "map": ("scenarios/bfg/map.yaml", "bfg-map"),
        "crt": ("rules/bfg/crt.yaml", "bfg-crt"),
        "terrain": ("rules/bfg/terrain.yaml", "bfg-terrain"),
        "turns": ("rules/bfg/turns.yaml", "bfg-turns"),
        "rulings": ("rules/bfg/rulings.yaml", "bfg-rulings"),
    }
    scenario_dir = "scenarios/bfg"
    scenario_schema = "bfg-scenario"
    state_schema = "bfg-state"
    orders_schema = "bfg-orders"
    standing_keys = STANDING_KEYS
    auto_standing = {"retreat": "auto", "advance": "none", "ex_losses": "auto", "replacement_ties": "auto",
                     "courland_port": "auto"}
    # the words of the command-line help (pbem.core.game.Game)
    status = "the whole game (DG2 second edition), optional rules 12.3 and 13.2"
    option_help = {"german_east_front": "DG2 12.3, all German replacements East German",
                   "ss_to_western": "DG2 13.2, the SS pass to the Western Allies when Berlin falls; bfg-expanded only"}
    standing_help = {"retreat": "retreat paths", "advance": "advances after combat", "ex_losses": "exchange losses",
                     "replacement_ties": "replacement ties", "courland_port": "the Courland evacuation port"}
    place_help = "a hex RRCC, e.g. 0510"
    show_help = ("Battle for Germany: units by force, the destroyed-unit and Courland boxes, victory points and why "
                 "(in the four-player game the Berlin race instead, 17.32), city control.")
    map_help = ("Battle for Germany: the hex map with terrain, rivers, cities and their control, the boundary, "
                "fortresses, the unit counters, the Courland and destroyed-unit boxes; with --report or --last, the "
                "step's moves, retreats, advances and combats. At --scale 1 a hex is 62 px wide.")
    # what the core needs of the game (pbem.core.game.Game's declarations)
    roles = ("soviet", "western", "east-german", "west-german", "german")
    cases_kit = "pbem.bfg.cases"
    example_scenario = "bfg-historical"
    example_standing = "western:advance=none"

    def standing_keys_for(self, rs: Ruleset, player: str) -> dict[str, tuple[str, ...]]:
        from .orders import standing_keys_of  # loaded on first use: the plug-in's import stays light
        return standing_keys_of(rs, player)

    # ---------------------------------------------------------------- data

    def scenario_players(self, doc: dict[str, Any]) -> list[str]:
        from .play import DEFAULT_PLAYERS  # loaded on first use: the plug-in's import stays light
        return super().scenario_players(doc) or [p for p, _ in DEFAULT_PLAYERS]

    def scenario_includes(self, doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """``setup: {from: historical.yaml}`` (14.0, 16.2, 17.1 play from the Historical set-up)."""
        s = doc.get("setup")
        if isinstance(s, dict) and isinstance(s.get("from"), str):
            return {"setup": (f"{self.scenario_dir}/{s['from']}", self.scenario_schema)}
        return {}

    def build(self, docs: dict[str, Any], digest: str) -> Ruleset:
        from .ruleset import build_ruleset  # loaded on first use: the plug-in's import stays light
        return build_ruleset(docs, digest)

    def consistency(self, rs: Ruleset) -> list[Issue]:
        from .checks import consistency  # loaded on first use: the plug-in's import stays light
        return consistency(rs, self)

    # ---------------------------------------------------------------- play
    def new_state(self, rs: Ruleset, **kw: Any) -> dict[str, Any]:
        from .scenario import initial_state  # loaded on first use: the plug-in's import stays light
        return initial_state(rs, **kw)

    def acting_players(self, rs: Ruleset, state: dict[str, Any], phase: str | None = None) -> list[str]:
        p = _engine()._player_of(rs, state, phase or state["phase"])
        return [p] if p else []

    def orderable_phases(self, rs: Ruleset, state: dict[str, Any], player: str) -> list[str]:
        return player_phases(state, turn_phases(rs, state))

    def phase_table(self) -> Mapping[str, PhaseKind[Ruleset]]:
        """The phases as data (pbem/bfg/phasetable.py): static check, check against the position, run."""
        table: Mapping[str, PhaseKind[Ruleset]] = _phasetable().TABLE
        return table

    def phase_kind(self, phase: str) -> str:
        return split(phase)[1]

    def check_orders(self, rs: Ruleset, state: dict[str, Any], sub: Submission) -> list[Issue]:
        return check_phases(state, sub.doc, turn_phases(rs, state))

    def normalize_phase(self, entry: dict[str, Any], index: int) -> dict[str, Any]:
        return normalize_phase(entry, index)

    def run_phase(self, run: PhaseRun[Ruleset]) -> None:
        _phasetable().run_kind(run)

    def after_phase(self, run: PhaseRun[Ruleset]) -> None:
        # (run.events holds this phase's events until the kernel collects them)
        # 17.32: victory points decide nothing in the four-player game; the report says who
        # entered Berlin (berlin-entered) instead of printing points.
        if "control" in [e["type"] for e in run.phase_events] and run.rs.play.rule("victory") != "berlin-race":
            from .board import board_for  # loaded on first use: the plug-in's import stays light
            from .context import Ctx  # loaded on first use: the plug-in's import stays light
            from .victory import victory_points  # loaded on first use: the plug-in's import stays light
            ctx = Ctx(rs=run.rs, board=board_for(run.rs, run.state), turn=run.turn, phase=run.phase, player=run.player)
            vp = victory_points(ctx)
            run.events.append({"type": "vp", "turn": run.turn, "phase": run.phase, "soviet": vp["soviet"],
                               "western": vp["western"],
                               "cities": vp["cities"]})   # which cities score, and why some held score 0 (10.1, 13.2)

    def advance(self, rs: Ruleset, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        _engine().finish_phase(rs, state, events)

    def phase_info(self, rs: Ruleset, state: dict[str, Any]) -> dict[str, Any]:
        return {"date": rs.turn_date(state["turn"])}

    def before_orders(self, rs: Ruleset, work: dict[str, Any], subs: list[Submission], dice_factory: DiceFactory,
                      out: Outcome) -> bool:
        if rs.play.rule("pregame_die") and "pregame" not in work:
            from .engine import pregame  # loaded on first use: the plug-in's import stays light
            return pregame(rs, work, subs[0] if subs else None, dice_factory, out)
        return False

    def check_more(self, chk: Checked[Ruleset]) -> list[Issue]:
        from .engine import check_more  # loaded on first use: the plug-in's import stays light
        return check_more(chk)

    # ---------------------------------------------------------------- text and pictures
    def phase_title(self, phase: str) -> str:
        from .sequence import phase_title  # loaded on first use: the plug-in's import stays light
        return phase_title(phase)

    def player_title(self, rs: Ruleset, player: str) -> str:
        return rs.play.title(player)

    def order_template(self, rs: Ruleset, state: dict[str, Any], player: str, *, schema_ref: str, state_file: str) -> str:
        from .template import template  # loaded on first use: the plug-in's import stays light
        return template(rs, state, player, schema_ref=schema_ref, state_file=state_file)

    def describe_event(self, rs: Ruleset, ev: dict[str, Any]) -> list[str]:
        from .describe import describe  # loaded on first use: the plug-in's import stays light
        return describe(rs, ev)

    def summary(self, rs: Ruleset, state: dict[str, Any]) -> dict[str, Any]:
        from .checks import summary  # loaded on first use: the plug-in's import stays light
        return summary(rs, state)

    def zone_lines(self, rs: Ruleset, state: dict[str, Any], zone: str) -> list[str]:
        """`pbem show STATE --zone RRCC`: the hex and the hexes next to it, their terrain, city,
        river hexsides and the units in them."""
        from .board import Board  # loaded on first use: the plug-in's import stays light
        h = str(zone)
        if h not in rs.terrain:
            return []
        board = Board(rs, state)

        def line(x: str) -> str:
            units = "; ".join(f"{u} {rs.units[u].strength} ({board.force(u)})" for u in board.units_in(x)) or "empty"
            city = f", {rs.cities[x].name}" if x in rs.cities else ""
            return f"{x} ({rs.terrain[x]}{city}): {units}"
        out = [line(h), f"next to {h}:"]
        for n in rs.neighbours(h):
            r = rs.hexside_river(h, n)
            out.append(f"  {line(n)}" + (f" [across the {r}]" if r else ""))
        return out

    def zone_ids(self, rs: Ruleset) -> list[str]:
        return list(rs.terrain)

    def summary_lines(self, rs: Ruleset, state: dict[str, Any], *, units: bool = True) -> list[str]:
        from .checks import summary_lines  # loaded on first use: the plug-in's import stays light
        return summary_lines(rs, state, units=units)

    def draw_map(self, rs: Ruleset, state: dict[str, Any], report: dict[str, Any] | None = None,
                 **opts: Any) -> str:
        """The SVG picture of ``state`` (`pbem map`); ``report`` (a report.json dict) marks its
        moves, retreats, advances and combats. Options: ``scale``, ``hex_ids``."""
        from .draw import draw_map  # loaded on first use: the plug-in's import stays light
        return draw_map(rs, state, report, **opts)

