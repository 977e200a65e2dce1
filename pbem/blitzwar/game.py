"""BlitzWAR as a plug-in of pbem's core (:class:`pbem.core.game.Game`). Only the data side
exists so far (issue 11): scenarios, data files, the world and its consistency checks. The play
(new_state, the phase table, orders, templates, the map picture) comes with the later BlitzWAR
issues; until then starting a campaign is refused with GAME-NOT-PLAYABLE."""
from __future__ import annotations

from ..core.errors import ExitCode, Issue, PbemError
from ..core.game import Game


class BlitzWar(Game):
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

    # ---------------------------------------------------------------- data
    def scenarios(self) -> dict[str, dict]:
        from ..core.data import scenario_index
        return scenario_index(self)

    def scenario_players(self, doc: dict) -> list[str]:
        """With three players each side is a player (2); the two-player mode joins the Allies
        and the USSR in one player, as ``players.two`` says."""
        pl = doc.get("players") if isinstance(doc.get("players"), dict) else {}
        three = pl.get("three") if isinstance(pl.get("three"), dict) else {}
        return [str(p) for p in three]

    def build(self, docs, digest):
        from .world import World
        return World(docs, digest)

    def consistency(self, rs) -> list[Issue]:
        from .checks import consistency
        return consistency(rs)

    # ---------------------------------------------------------------- the map picture
    def draw_map(self, rs, state, report=None, **opts) -> str:
        """The SVG picture of a position (`pbem map`): pbem/blitzwar/draw.py."""
        from .draw import draw_map
        return draw_map(rs, state, report, **opts)

    # ---------------------------------------------------------------- play (not yet)
    def new_state(self, rs, **kw) -> dict:
        raise PbemError([Issue("GAME-NOT-PLAYABLE",
                               f"{self.title}: only its component data is in pbem so far; a campaign of "
                               f"{rs.scenario_id} cannot start yet",
                               hint=f"pbem data check --scenario {rs.scenario_id}")], ExitCode.USAGE)
