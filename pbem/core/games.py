"""The games pbem adjudicates, by id: each is a :class:`pbem.core.game.Game` object, the
``GAME`` of a package under ``pbem/`` (imported lazily, so that `pbem --help` stays fast).
Other packages may add games through the entry-point group ``pbem.games`` (``id =
module:object``), and tests with :func:`register`."""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

BUILTIN = {"bfg": "pbem.bfg:GAME", "blitzwar": "pbem.blitzwar:GAME"}
#: the built-in games' titles, declared here so that naming the games (`pbem --help`) imports
#: none of them (tests/core/test_games_registry.py holds each equal to its Game's ``title``)
BUILTIN_TITLES = {"bfg": "Battle for Germany", "blitzwar": "BlitzWAR"}
_registered: dict[str, Game[Any]] = {}


def register(game_id: str, game_obj: Game[Any]) -> None:
    """Add a game (e.g. a test's toy game)."""
    _registered[game_id] = game_obj
    _catalogue.cache_clear()


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)
    _catalogue.cache_clear()


def _may_have_plugins() -> bool:
    """False only when no installed distribution can declare a ``pbem.games`` entry point: no
    distribution finder but Python's own, and no ``entry_points.txt`` on ``sys.path`` that
    names the group (what :mod:`importlib.metadata` reads, without importing it: that import
    alone is about a third of `pbem --help`, which names every game; issue 35)."""
    import os
    import sys
    from importlib.machinery import PathFinder
    if any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True     # a zip or egg file on the path: left to importlib.metadata
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            low = name.lower()
            if low.endswith(".egg"):
                return True
            if low.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                        if b"pbem.games" in f.read():
                            return True
                except OSError:     # none (or an .egg-info file)
                    continue
    return False


def _entry_points() -> dict[str, str]:
    if not _may_have_plugins():
        return {}
    try:
        from importlib.metadata import entry_points  # slow: only when the built-in games do not do
        return {e.name: e.value for e in entry_points(group="pbem.games")}
    except Exception:  # noqa: BLE001 - broken metadata must not break pbem  # pragma: no cover
        return {}


def game_ids() -> list[str]:
    return sorted(set(BUILTIN) | set(_registered) | set(_entry_points()))


def game_titles() -> dict[str, str]:
    """Every game's title by id, in id order: a built-in game's from :data:`BUILTIN_TITLES`
    (without importing the game), another's from its Game; a plug-in that cannot be loaded
    is left out (it must not break the help)."""
    out: dict[str, str] = {}
    for gid in game_ids():
        if gid in BUILTIN_TITLES and gid not in _registered:
            out[gid] = BUILTIN_TITLES[gid]
            continue
        try:
            out[gid] = game(gid).title
        except Exception:  # noqa: BLE001 - a broken plug-in must not break the help
            continue
    return out


def game(game_id: str) -> Game[Any]:
    if game_id in _registered:
        return _registered[game_id]
    spec = BUILTIN.get(game_id) or _entry_points().get(game_id)
    if spec is None:
        # only to refuse: `pbem --help` names the games without loading the issues
        from .errors import ExitCode, Issue, PbemError
        raise PbemError([Issue("GAME-UNKNOWN", f"unknown game {game_id!r}", hint="known: " + ", ".join(game_ids()))],
                        ExitCode.INVALID)
    mod, _, attr = spec.partition(":")
    found: Game[Any] = getattr(importlib.import_module(mod), attr or "GAME")
    return found


@lru_cache(maxsize=2)
def _catalogue(plugins: bool = True) -> dict[str, tuple[str, dict[str, Any]]]:
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    # Reading the entry points scans every installed distribution (~60 ms, as long as the
    # whole of `pbem --help`): only done when the built-in and registered games do not know
    # the scenario (game_of_scenario) or every scenario is listed.
    for gid in game_ids() if plugins else sorted(set(BUILTIN) | set(_registered)):
        for sid, info in game(gid).scenarios().items():
            out[sid] = (gid, info)
    return out


def scenarios() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every scenario of every game: id -> (game id, {file, title, line, players})."""
    return dict(_catalogue())


def game_of_scenario(scenario: str) -> str:
    # Scenario ids begin with their game's id by convention (bfg-historical, blitzwar-1939):
    # ask that game first, so that a command reads one game's scenario files, not every game's.
    for gid in sorted(set(BUILTIN) | set(_registered), key=len, reverse=True):
        if scenario.startswith(gid + "-") and game(gid).scenario_file(scenario) is not None:
            return gid
    cat = _catalogue(plugins=False)
    if scenario not in cat:
        cat = _catalogue()
    if scenario not in cat:
        from .errors import ExitCode, Issue, PbemError  # only to refuse (as in game())
        raise PbemError([Issue("SCENARIO-UNKNOWN", f"unknown scenario {scenario!r}",
                               hint="known: " + ", ".join(sorted(cat)))], ExitCode.INVALID)
    return cat[scenario][0]
